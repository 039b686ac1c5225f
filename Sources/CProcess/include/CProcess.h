#ifndef CPROCESS_H
#define CPROCESS_H

// The process calls Swift's Glibc module does not import (glibc declares them only for
// _GNU_SOURCE), for ChatData's child processes.

/// A pipe whose two ends are close-on-exec from the moment they exist (pipe2 with O_CLOEXEC):
/// no child another thread starts can inherit them, as it could between pipe() and a separate
/// fcntl(). Where pipe2 is missing (macOS) the flag is set right after, which leaves that
/// window. Returns 0, or -1 with errno set.
int cprocess_pipe_cloexec(int fds[2]);

#endif
