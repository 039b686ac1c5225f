#define _GNU_SOURCE
#include "CProcess.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

int cprocess_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
#endif
    // An end on 0, 1 or 2 (chat started with one of them closed) moves above them: a child's
    // dup2 of it onto its own number would leave it close-on-exec where glibc is older than 2.29,
    // and the child without it.
    for (int i = 0; i < 2; i++) {
        if (fds[i] > 2) continue;
        int moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
        if (moved < 0) {
            close(fds[0]);
            close(fds[1]);
            return -1;
        }
        close(fds[i]);
        fds[i] = moved;
    }
    return 0;
}

short cprocess_peer_shutdown_event(void) {
#if defined(POLLRDHUP)
    return POLLRDHUP;
#else
    return 0;
#endif
}

// Whether the child can carry the closing out: glibc does it with close_range (Linux 5.9 on),
// else by reading /proc/self/fd; with neither, posix_spawn would fail for every child.
static int close_from_works(void) {
#if defined(SYS_close_range)
    // Closes nothing (no descriptor has that number); fails only where there is no close_range.
    if (syscall(SYS_close_range, ~0U, ~0U, 0) == 0) return 1;
#endif
    return access("/proc/self/fd", R_OK | X_OK) == 0;
}

int cprocess_spawn_close_from(void *actions, int lowest) {
    // Looked up where chat runs, not linked: glibc has it from 2.34 on.
    typedef int (*close_from)(posix_spawn_file_actions_t *, int);
    close_from add = (close_from)dlsym(RTLD_DEFAULT, "posix_spawn_file_actions_addclosefrom_np");
    return add && close_from_works() ? add((posix_spawn_file_actions_t *)actions, lowest) : -1;
}
