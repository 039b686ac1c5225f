#include "CTerminal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <histedit.h>
#include <langinfo.h>
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

// ---- Process -------------------------------------------------------------------------------

void cterm_use_one_heap(void) {
#ifdef __GLIBC__
    // A person's own setting wins.
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (getenv("MALLOC_ARENA_MAX") || (tunables && strstr(tunables, "arena_max"))) return;
    mallopt(M_ARENA_MAX, 1);
#endif
}

// ---- Signals -------------------------------------------------------------------------------

static volatile sig_atomic_t last_signal = 0;
static int signal_pipe[2] = {-1, -1};
/// The thread blocked reading a line, if any: a signal must interrupt that thread's read, but
/// the kernel may deliver it to any thread, so the handler forwards it there.
static volatile sig_atomic_t reading = 0;
static pthread_t reader_thread;

static void on_signal(int number) {
    int saved = errno;
    if (reading && !pthread_equal(pthread_self(), reader_thread)) {
        pthread_kill(reader_thread, number);
        errno = saved;
        return;
    }
    last_signal = number;
    if (signal_pipe[1] >= 0) {
        char byte = (char)number;
        ssize_t ignored = write(signal_pipe[1], &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

int cterm_signals_install(void) {
    if (signal_pipe[0] < 0) {
        if (pipe(signal_pipe) != 0) return -1;
        fcntl(signal_pipe[0], F_SETFD, FD_CLOEXEC);
        fcntl(signal_pipe[1], F_SETFD, FD_CLOEXEC);
        fcntl(signal_pipe[1], F_SETFL, O_NONBLOCK);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a blocking read returns EINTR
    int numbers[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        if (sigaction(numbers[i], &action, NULL) != 0) return -1;
    }
    return signal_pipe[0];
}

// ---- Line editor ---------------------------------------------------------------------------

/// Whether characters are UTF-8 (else a prompt's non-ASCII characters are left out).
static int utf8_locale = 1;

struct cterm_editor {
    EditLine *el;
    /// Where the editor writes: stdout, or a stream of its own on another descriptor.
    FILE *out;
    History *history;
    HistEvent event;
    char *prompt;
    cterm_completer completer;
    void *completer_context;
    char *line;
    int interrupted;
};

static char *prompt_function(EditLine *el) {
    cterm_editor *editor = NULL;
    el_get(el, EL_CLIENTDATA, &editor);
    return editor && editor->prompt ? editor->prompt : "";
}

/// The length of a match's text: up to a tab, after which comes its description.
static size_t match_text_length(const char *match) {
    const char *tab = strchr(match, '\t');
    return tab ? (size_t)(tab - match) : strlen(match);
}

/// Tab: asks the completer for the matches of the word before the cursor. Each match is a text,
/// or a text, a tab and a description shown beside it. The only match replaces the word (with a
/// space after it, unless it is a directory ending in `/`); several that extend the word insert
/// what they have in common; otherwise they are listed under the line.
static unsigned char complete_word(EditLine *el, int ch) {
    (void)ch;
    cterm_editor *editor = NULL;
    el_get(el, EL_CLIENTDATA, &editor);
    const LineInfo *info = el_line(el);
    size_t length = (size_t)(info->cursor - info->buffer);
    if (!editor || !editor->completer || length == 0) return CC_REFRESH_BEEP;
    char *line = malloc(length + 1);
    if (!line) return CC_ERROR;
    memcpy(line, info->buffer, length);
    line[length] = '\0';
    size_t word = length;
    while (word > 0 && line[word - 1] != ' ' && line[word - 1] != '\t') word--;
    size_t typed = length - word;
    int count = 0;
    char **matches = editor->completer(editor->completer_context, line, &count);
    unsigned char result = CC_REFRESH_BEEP;
    size_t common = 0;
    int extend = 1, described = 0;
    for (int i = 0; i < count; i++) {
        size_t text = match_text_length(matches[i]);
        if (matches[i][text] == '\t') described = 1;
        if (text < typed || memcmp(matches[i], line + word, typed) != 0) extend = 0;
        if (i == 0) {
            common = text;
        } else {
            size_t j = 0;
            while (j < common && j < text && matches[i][j] == matches[0][j]) j++;
            common = j;
        }
    }
    if (count == 1) {
        size_t text = match_text_length(matches[0]);
        char *insert = malloc(text + 2);
        if (insert) {
            memcpy(insert, matches[0], text);
            insert[text] = '\0';
            if (text == 0 || insert[text - 1] != '/') strcat(insert, " ");
            if (typed > 0) el_deletestr(el, (int)typed);
            el_insertstr(el, insert);
            free(insert);
        }
        result = CC_REFRESH;
    } else if (count > 1 && extend && common > typed) {
        size_t extra = common - typed;
        char *insert = malloc(extra + 1);
        if (insert) {
            memcpy(insert, matches[0] + typed, extra);
            insert[extra] = '\0';
            el_insertstr(el, insert);
            free(insert);
        }
        result = CC_REFRESH;
    } else if (count > 1) {
        // Show the candidates under the line (one a line when they have descriptions), then
        // redraw it.
        fputc('\n', editor->out);
        for (int i = 0; i < count; i++) {
            size_t text = match_text_length(matches[i]);
            fwrite(matches[i], 1, text, editor->out);
            if (described) {
                if (matches[i][text] == '\t') fprintf(editor->out, "  %s", matches[i] + text + 1);
                fputc('\n', editor->out);
            } else {
                fputs("  ", editor->out);
            }
        }
        if (!described) fputc('\n', editor->out);
        fflush(editor->out);
        result = CC_REDISPLAY;
    }
    free(line);
    for (int i = 0; i < count; i++) free(matches[i]);
    free(matches);
    return result;
}

/// Ctrl-C typed while the terminal is in libedit's mode (where it may arrive as a key rather
/// than a signal): end the read and report an interruption, discarding the line.
static unsigned char interrupt_line(EditLine *el, int ch) {
    (void)ch;
    cterm_editor *editor = NULL;
    el_get(el, EL_CLIENTDATA, &editor);
    if (editor) editor->interrupted = 1;
    return CC_NEWLINE;
}

/// ESC [ 200 ~ starts a bracketed paste: take everything up to ESC [ 201 ~ as text, newlines
/// included, so a pasted block is one message.
static unsigned char bracketed_paste(EditLine *el, int ch) {
    (void)ch;
    static const char end[] = "\033[201~";
    size_t capacity = 1024, length = 0, matched = 0;
    char *text = malloc(capacity);
    if (!text) return CC_ERROR;
    char c;
    while (el_getc(el, &c) == 1) {
        if (c == end[matched]) {
            matched++;
            if (end[matched] == '\0') break;
            continue;
        }
        // A partial end marker that did not complete is ordinary text.
        for (size_t i = 0; i <= matched; i++) {
            char out = i < matched ? end[i] : c;
            if (out == '\r') out = '\n';
            if (length + 2 > capacity) {
                capacity *= 2;
                char *grown = realloc(text, capacity);
                if (!grown) {
                    free(text);
                    return CC_ERROR;
                }
                text = grown;
            }
            text[length++] = out;
        }
        matched = 0;
    }
    text[length] = '\0';
    el_insertstr(el, text);
    free(text);
    return CC_REFRESH;
}

/// Reads one character for libedit. Unlike libedit's own reader, which retries a read that a
/// signal interrupted, this gives up at once, so Ctrl-C (SIGINT) ends the prompt's read.
static int read_character(EditLine *el, wchar_t *out) {
    (void)el;
    unsigned char bytes[4];
    ssize_t count = read(STDIN_FILENO, &bytes[0], 1);
    if (count == 0) return 0;
    if (count < 0) return -1;
    int length = bytes[0] < 0x80 ? 1 : (bytes[0] >> 5) == 0x6 ? 2 : (bytes[0] >> 4) == 0xE ? 3 : (bytes[0] >> 3) == 0x1E ? 4 : 1;
    for (int i = 1; i < length; i++) {
        count = read(STDIN_FILENO, &bytes[i], 1);
        if (count <= 0) return count == 0 ? 0 : -1;
    }
    mbstate_t state;
    memset(&state, 0, sizeof state);
    wchar_t character;
    size_t used = mbrtowc(&character, (const char *)bytes, (size_t)length, &state);
    *out = (used == (size_t)-1 || used == (size_t)-2) ? (wchar_t)0xFFFD : character;
    return 1;
}

cterm_editor *cterm_editor_open(const char *program, int history_size, int output_fd) {
    // UTF-8 input needs a UTF-8 locale; under "C" (no LANG) libedit also fails on a non-ASCII
    // prompt, so fall back to C.UTF-8 for character handling.
    const char *locale = setlocale(LC_CTYPE, "");
    if (!locale || strcmp(nl_langinfo(CODESET), "UTF-8") != 0) setlocale(LC_CTYPE, "C.UTF-8");
    utf8_locale = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    cterm_editor *editor = calloc(1, sizeof *editor);
    if (!editor) return NULL;
    if (output_fd == STDOUT_FILENO) {
        editor->out = stdout;
    } else {
        int fd = dup(output_fd);
        editor->out = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!editor->out) {
            if (fd >= 0) close(fd);
            free(editor);
            return NULL;
        }
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    editor->el = el_init(program, stdin, editor->out, stderr);
    editor->history = history_init();
    if (!editor->el || !editor->history) {
        cterm_editor_close(editor);
        return NULL;
    }
    history(editor->history, &editor->event, H_SETSIZE, history_size);
    history(editor->history, &editor->event, H_SETUNIQUE, 1);
    el_set(editor->el, EL_CLIENTDATA, editor);
    el_set(editor->el, EL_EDITOR, "emacs");
    el_set(editor->el, EL_GETCFN, read_character);
    // Keep Ctrl-C a signal while editing (libedit turns ISIG off and ignores the key), so the
    // same SIGINT handler serves the prompt and a streaming answer.
    el_set(editor->el, EL_SETTY, "-d", "+isig", NULL);
    el_set(editor->el, EL_PROMPT_ESC, prompt_function, '\1');
    el_set(editor->el, EL_HIST, history, editor->history);
    el_set(editor->el, EL_ADDFN, "chat-complete", "Complete a command or its argument", complete_word);
    el_set(editor->el, EL_BIND, "^I", "chat-complete", NULL);
    el_set(editor->el, EL_ADDFN, "chat-interrupt", "Discard the line", interrupt_line);
    el_set(editor->el, EL_BIND, "^C", "chat-interrupt", NULL);
    el_set(editor->el, EL_ADDFN, "chat-paste", "Bracketed paste", bracketed_paste);
    el_set(editor->el, EL_BIND, "\\e[200~", "chat-paste", NULL);
    // Home/End and word-wise movement as most terminals send them.
    el_set(editor->el, EL_BIND, "\\e[H", "ed-move-to-beg", NULL);
    el_set(editor->el, EL_BIND, "\\e[F", "ed-move-to-end", NULL);
    el_set(editor->el, EL_BIND, "\\e[1~", "ed-move-to-beg", NULL);
    el_set(editor->el, EL_BIND, "\\e[4~", "ed-move-to-end", NULL);
    el_set(editor->el, EL_BIND, "\\e[3~", "ed-delete-next-char", NULL);
    el_set(editor->el, EL_BIND, "\\e[1;5D", "ed-prev-word", NULL);
    el_set(editor->el, EL_BIND, "\\e[1;5C", "em-next-word", NULL);
    el_set(editor->el, EL_BIND, "^W", "ed-delete-prev-word", NULL);
    el_set(editor->el, EL_BIND, "\\e^?", "ed-delete-prev-word", NULL);
    el_source(editor->el, NULL);  // the person's ~/.editrc, if any
    return editor;
}

void cterm_editor_set_completer(cterm_editor *editor, cterm_completer completer, void *context) {
    editor->completer = completer;
    editor->completer_context = context;
}

/// The prompt with each ANSI escape sequence wrapped in \1 markers, so libedit passes it to the
/// terminal as is and leaves it out of its width counting (EL_PROMPT_ESC).
static char *marked_prompt(const char *prompt) {
    size_t length = strlen(prompt);
    char *marked = malloc(length * 3 + 1);
    if (!marked) return NULL;
    size_t out = 0;
    for (size_t i = 0; i < length; i++) {
        if (prompt[i] == '\033') {
            marked[out++] = '\1';
            while (i < length) {
                marked[out++] = prompt[i];
                if ((prompt[i] >= 'A' && prompt[i] <= 'Z') || (prompt[i] >= 'a' && prompt[i] <= 'z')) break;
                i++;
            }
            marked[out++] = '\1';
        } else if (utf8_locale || (unsigned char)prompt[i] < 0x80) {
            marked[out++] = prompt[i];
        }
    }
    marked[out] = '\0';
    return marked;
}

const char *cterm_editor_read_initial(cterm_editor *editor, const char *prompt, const char *initial, int *status) {
    // Pushed as if pasted: el_gets takes it as the start of the line, which can then be edited.
    // The paste markers make it text: a newline, a tab or a control character in it is kept
    // as it is instead of ending the line, completing, or acting as a key.
    if (initial && *initial) {
        static const char start[] = "\033[200~", end[] = "\033[201~";
        size_t length = strlen(start) + strlen(initial) + strlen(end) + 1;
        char *pasted = malloc(length);
        if (pasted) {
            snprintf(pasted, length, "%s%s%s", start, initial, end);
            el_push(editor->el, pasted);
            free(pasted);
        }
    }
    return cterm_editor_read(editor, prompt, status);
}

const char *cterm_editor_read(cterm_editor *editor, const char *prompt, int *status) {
    free(editor->prompt);
    editor->prompt = marked_prompt(prompt);
    // Ask the terminal to mark pasted text, for as long as we read.
    fputs("\033[?2004h", editor->out);
    fflush(editor->out);
    int count = 0;
    errno = 0;
    editor->interrupted = 0;
    // The caller may be a pool thread that blocks signals; let this read be interrupted.
    sigset_t signals, previous;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    reader_thread = pthread_self();
    last_signal = 0;
    reading = 1;
    pthread_sigmask(SIG_UNBLOCK, &signals, &previous);
    const char *line = el_gets(editor->el, &count);
    int saved = errno;
    reading = 0;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    fputs("\033[?2004l", editor->out);
    fflush(editor->out);
    if (editor->interrupted) {
        editor->interrupted = 0;
        *status = SIGINT;
        return NULL;
    }
    if (!line || count <= 0) {
        *status = last_signal != 0 ? (int)last_signal : saved == EINTR ? SIGINT : 0;
        return NULL;
    }
    free(editor->line);
    editor->line = strdup(line);
    if (!editor->line) {
        *status = 0;
        return NULL;
    }
    size_t length = strlen(editor->line);
    if (length > 0 && editor->line[length - 1] == '\n') editor->line[length - 1] = '\0';
    *status = 0;
    return editor->line;
}

void cterm_editor_history_add(cterm_editor *editor, const char *line) {
    history(editor->history, &editor->event, H_ENTER, line);
}

int cterm_editor_history_load(cterm_editor *editor, const char *path) {
    return history(editor->history, &editor->event, H_LOAD, path) < 0 ? -1 : 0;
}

int cterm_editor_history_save(cterm_editor *editor, const char *path) {
    return history(editor->history, &editor->event, H_SAVE, path) < 0 ? -1 : 0;
}

void cterm_editor_close(cterm_editor *editor) {
    if (!editor) return;
    if (editor->el) el_end(editor->el);
    if (editor->history) history_end(editor->history);
    if (editor->out && editor->out != stdout) fclose(editor->out);
    free(editor->prompt);
    free(editor->line);
    free(editor);
}
