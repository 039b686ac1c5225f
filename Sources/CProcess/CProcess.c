#define _GNU_SOURCE
#include "CProcess.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

int cprocess_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

short cprocess_peer_shutdown_event(void) {
#if defined(POLLRDHUP)
    return POLLRDHUP;
#else
    return 0;
#endif
}
