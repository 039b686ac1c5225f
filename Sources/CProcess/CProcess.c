#define _GNU_SOURCE
#include "CProcess.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <time.h>
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

#if defined(__linux__) && defined(SYS_pidfd_open)

// Milliseconds on the monotonic clock (clock_gettime is async-signal-safe).
static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

// Waits up to `ms` for every pidfd in `fds` to say its process ended; an ended one's entry
// becomes -1 (which poll skips). Returns how many are still running.
static int wait_ended(struct pollfd *fds, int count, int ms) {
    long long deadline = now_ms() + ms;
    for (;;) {
        int running = 0;
        for (int i = 0; i < count; i++) running += fds[i].fd >= 0;
        long long left = deadline - now_ms();
        if (running == 0 || left <= 0) return running;
        int ready = poll(fds, (nfds_t)count, (int)left);
        if (ready < 0 && errno != EINTR) return running;
        for (int i = 0; i < count; i++) {
            if (fds[i].fd >= 0 && fds[i].revents != 0) fds[i].fd = -1;
            fds[i].revents = 0;
        }
    }
}

enum { max_watched = 64 };

int cprocess_end_after_exit(const int *pids, int count, int term_after_ms, int kill_after_ms) {
    if (count <= 0) return 0;
    if (count > max_watched) return -1;
    struct pollfd fds[max_watched];
    int watched[max_watched];
    int opened = 0;
    for (int i = 0; i < count; i++) {
        // Only a child's number: kill(-0) or kill(-1) would reach this group or every process.
        if (pids[i] <= 1) continue;
        int fd = (int)syscall(SYS_pidfd_open, pids[i], 0);
        if (fd >= 0) {
            fds[opened].fd = fd;
            fds[opened].events = POLLIN;
            fds[opened].revents = 0;
            watched[opened++] = pids[i];
        } else if (errno != ESRCH) {
            // No pidfds here (ENOSYS before Linux 5.3, or refused): the caller waits itself.
            for (int j = 0; j < opened; j++) close(fds[j].fd);
            return -1;
        }
    }
    if (opened == 0) return 0;
    pid_t child = fork();
    if (child < 0) {
        for (int j = 0; j < opened; j++) close(fds[j].fd);
        return -1;
    }
    if (child > 0) {
        for (int j = 0; j < opened; j++) close(fds[j].fd);
        return 0;
    }
    // The watcher: only async-signal-safe calls from here on. Its signals as a new process's
    // are, and none of this process's descriptors but the pidfds (a pipe it kept would keep its
    // reader waiting for the end).
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sigaction fallback;
    fallback.sa_handler = SIG_DFL;
    fallback.sa_flags = 0;
    sigemptyset(&fallback.sa_mask);
    int reset[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (unsigned i = 0; i < sizeof reset / sizeof reset[0]; i++) sigaction(reset[i], &fallback, NULL);
    for (int fd = 0; fd < 1024; fd++) {
        int keep = 0;
        for (int j = 0; j < opened; j++) keep |= fds[j].fd == fd;
        if (!keep) close(fd);
    }
#if defined(SYS_close_range)
    syscall(SYS_close_range, 1024U, ~0U, 0);
#endif
    int signals[] = {SIGTERM, SIGKILL};
    int waits[] = {term_after_ms, kill_after_ms};
    for (int step = 0; step < 2; step++) {
        if (wait_ended(fds, opened, waits[step]) == 0) _exit(0);
        for (int j = 0; j < opened; j++) {
            if (fds[j].fd >= 0) kill(-watched[j], signals[step]);
        }
    }
    _exit(0);
}
#else
int cprocess_end_after_exit(const int *pids, int count, int term_after_ms, int kill_after_ms) {
    (void)pids;
    (void)term_after_ms;
    (void)kill_after_ms;
    return count <= 0 ? 0 : -1;
}
#endif
