#define _GNU_SOURCE
#include "CProcess.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
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

int cprocess_spawn_close_from(void *actions, int lowest) {
    // Looked up where chat runs, not linked: glibc has it from 2.34 on.
    typedef int (*close_from)(posix_spawn_file_actions_t *, int);
    close_from add = (close_from)dlsym(RTLD_DEFAULT, "posix_spawn_file_actions_addclosefrom_np");
    return add ? add((posix_spawn_file_actions_t *)actions, lowest) : -1;
}
