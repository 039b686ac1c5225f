#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

// Non-variadic wrappers for libcurl's variadic calls, which Swift cannot import.
#include <curl/curl.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/socket.h>

static inline CURLcode ccurl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

// libcurl copies string options at setopt time, so a Swift String may be passed directly.
static inline CURLcode ccurl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_setopt_slist(CURL *curl, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_setopt_off_t(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

// Used for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION, which share a signature.
static inline CURLcode ccurl_setopt_write_function(CURL *curl, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_setopt_xferinfo_function(CURL *curl, curl_xferinfo_callback value) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode ccurl_setopt_prereq_function(CURL *curl, curl_prereq_callback value) {
    return curl_easy_setopt(curl, CURLOPT_PREREQFUNCTION, value);
}

static inline CURLcode ccurl_setopt_read_function(CURL *curl, curl_read_callback value) {
    return curl_easy_setopt(curl, CURLOPT_READFUNCTION, value);
}

static inline CURLcode ccurl_setopt_seek_function(CURL *curl, curl_seek_callback value) {
    return curl_easy_setopt(curl, CURLOPT_SEEKFUNCTION, value);
}

static inline CURLcode ccurl_setopt_sockopt_function(CURL *curl, curl_sockopt_callback value) {
    return curl_easy_setopt(curl, CURLOPT_SOCKOPTFUNCTION, value);
}

// libcurl 7.88 opens its sockets without close-on-exec, so every program chat starts (an MCP
// server, an editor, an -x command) would inherit its open connections and keep them open after
// chat closes them. Opened here with SOCK_CLOEXEC instead: atomically, so a process started by
// another thread at that moment cannot inherit one either.
static curl_socket_t ccurl_open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)clientp;
    (void)purpose;
#if defined(SOCK_CLOEXEC)
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
#else
    curl_socket_t fd = socket(address->family, address->socktype, address->protocol);
    if (fd != CURL_SOCKET_BAD) fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
#endif
}

static inline CURLcode ccurl_setopt_cloexec_sockets(CURL *curl) {
    return curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, ccurl_open_socket);
}

static inline CURLcode ccurl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}

static inline CURLcode ccurl_getinfo_off_t(CURL *curl, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(curl, info, value);
}

static inline CURLcode ccurl_getinfo_string(CURL *curl, CURLINFO info, char **value) {
    return curl_easy_getinfo(curl, info, value);
}

// OpenSSL's atexit cleanup can race with a transfer thread at process exit
// (swift-corelibs-foundation #5469); ask OpenSSL not to register it, as corelibs does.
static inline void ccurl_openssl_no_atexit(void) {
    typedef int (*init_crypto_fn)(uint64_t, const void *);
    init_crypto_fn init = (init_crypto_fn)dlsym(RTLD_DEFAULT, "OPENSSL_init_crypto");
    if (init) {
        init(0x00080000L /* OPENSSL_INIT_NO_ATEXIT */, 0);
    }
}

#endif
