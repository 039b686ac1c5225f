#ifndef CTERMINAL_H
#define CTERMINAL_H

// Non-variadic wrappers for libedit (whose el_set/history calls are variadic) and an
// async-signal-safe signal handler, for the chat REPL.

#include <stddef.h>

// ---- Process -------------------------------------------------------------------------------

/// Makes glibc's malloc keep one heap for all threads (M_ARENA_MAX 1), unless MALLOC_ARENA_MAX
/// or GLIBC_TUNABLES sets it; nothing elsewhere. Call before any thread is started.
void cterm_use_one_heap(void);

// ---- Signals -------------------------------------------------------------------------------

/// Installs a handler for SIGINT, SIGTERM and SIGHUP that records the signal and writes one
/// byte to a pipe (no SA_RESTART, so a blocking read such as libedit's returns with EINTR).
/// Returns the pipe's read end, or -1.
int cterm_signals_install(void);

// ---- Line editor ---------------------------------------------------------------------------

typedef struct cterm_editor cterm_editor;

/// Opens an editor that reads the terminal on stdin and writes to `output_fd` (the prompt, the
/// echo, completion lists and its escape codes: stdout, or the terminal itself when stdout is
/// redirected), emacs key bindings, with `history_size` lines of history, Tab completion (see
/// cterm_editor_set_completer), and bracketed paste. Returns NULL if libedit cannot start.
cterm_editor *cterm_editor_open(const char *program, int history_size, int output_fd);

/// What Tab offers: given the line up to the cursor, the words that may replace the word the
/// cursor ends (an array of `*count` strings, all made with malloc; the editor frees them). A
/// word may be followed by a tab and a description, shown beside it when they are listed.
typedef char **(*cterm_completer)(void *context, const char *line, int *count);

/// Sets what Tab offers; `context` is handed to `completer` as it is.
void cterm_editor_set_completer(cterm_editor *editor, cterm_completer completer, void *context);

/// Reads a line with `prompt`. Returns the line without its final newline (valid until the
/// next call), or NULL at end of input (status 0) or when a signal ended the read (status: its
/// number; SIGINT also for Ctrl-C typed as a key).
const char *cterm_editor_read(cterm_editor *editor, const char *prompt, int *status);

/// As cterm_editor_read, with `initial` already typed on the line, to be edited.
const char *cterm_editor_read_initial(cterm_editor *editor, const char *prompt, const char *initial, int *status);

/// Adds a line to the history.
void cterm_editor_history_add(cterm_editor *editor, const char *line);

/// Loads and saves the history file; return 0 on success.
int cterm_editor_history_load(cterm_editor *editor, const char *path);
int cterm_editor_history_save(cterm_editor *editor, const char *path);

/// Restores the terminal and frees the editor.
void cterm_editor_close(cterm_editor *editor);

#endif
