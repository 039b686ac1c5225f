#ifndef CPROCESS_H
#define CPROCESS_H

// What Swift's Glibc module does not import (glibc declares it only for _GNU_SOURCE), for
// ChatData's child processes and connections.

/// A pipe whose two ends are close-on-exec from the moment they exist (pipe2 with O_CLOEXEC):
/// no child another thread starts can inherit them, as it could between pipe() and a separate
/// fcntl(). Where pipe2 is missing (macOS) the flag is set right after, which leaves that
/// window. Neither end is 0, 1 or 2. Returns 0, or -1 with errno set.
int cprocess_pipe_cloexec(int fds[2]);

/// poll's event for a peer that shut its side of a connection (POLLRDHUP, Linux's value for
/// the machine it is built for); 0 where there is none.
short cprocess_peer_shutdown_event(void);

/// Adds to `actions` (a posix_spawn_file_actions_t; untyped here, so that the type stays the C
/// library's own for Swift, not this module's) the closing, in the child, of every descriptor from `lowest` up
/// (posix_spawn_file_actions_addclosefrom_np, looked up at run time: glibc 2.34 and later). 0 if
/// added; -1 where the C library has no such action, or the system gives it no way to work
/// (neither close_range nor /proc), which would make every spawn fail.
int cprocess_spawn_close_from(void *actions, int lowest);

/// Leaves the ending of child processes to a process that outlives this one, as this one ends:
/// forks a watcher that closes every descriptor it inherited (so that no pipe stays open for
/// it), waits up to `term_after_ms` for each process of `pids` (each the leader of its own
/// process group) to end, sends SIGTERM to the groups of those still running, waits up to
/// `kill_after_ms` more, then sends SIGKILL. It knows each process by a pidfd (Linux 5.3 on),
/// so a number reused meanwhile is never signalled, and uses only async-signal-safe calls
/// after the fork. Returns 0 when the watcher runs; -1 where there is no pidfd or no fork, and
/// the caller then waits for the processes itself.
int cprocess_end_after_exit(const int *pids, int count, int term_after_ms, int kill_after_ms);

#endif
