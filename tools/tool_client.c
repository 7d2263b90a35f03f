/* A lit run's `gpu-opt`, `gpu-run`, `gpu-reduce` and `filecheck` (gpuir.tools.lit_config):
 * the call goes to the tools' fork server named by $GPUIR_TOOL_SERVER, exactly as the Python
 * launcher sends it (gpuir.tools.launch.forward: the length, then a marshalled dict of the
 * tool, its arguments, the working directory and the environment, with the standard streams
 * attached), but without starting a Python: a RUN line calls the tools about 2,500 times.
 * The tool is the name this program was called by. Where there is no server to reach (none
 * named, `auto`, `0`, or a socket that refuses), or a string is not UTF-8, it runs the Python
 * command FALLBACK/<tool> instead, which decides as it always does. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef FALLBACK
#error "define FALLBACK: the folder of gpuir's Python commands"
#endif

extern char **environ;

static const char SERVER_ENV[] = "GPUIR_TOOL_SERVER";

struct buffer {
    char *data;
    size_t size, capacity;
};

static void put(struct buffer *b, const void *bytes, size_t n) {
    if (b->size + n > b->capacity) {
        b->capacity = 2 * (b->size + n);
        b->data = realloc(b->data, b->capacity);
        if (b->data == NULL) {
            perror("tool client");
            exit(1);
        }
    }
    memcpy(b->data + b->size, bytes, n);
    b->size += n;
}

static void put_u32(struct buffer *b, uint32_t value) {
    unsigned char bytes[4] = {value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >> 24};
    put(b, bytes, 4);
}

/* Whether s[0..n) is UTF-8 that Python decodes strictly (no surrogates, no overlong forms). */
static int is_utf8(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        size_t more;
        uint32_t code;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            more = 1, code = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            more = 2, code = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            more = 3, code = c & 0x07;
        } else {
            return 0;
        }
        if (i + more >= n) return 0;
        for (size_t k = 1; k <= more; k++) {
            if ((s[i + k] & 0xc0) != 0x80) return 0;
            code = (code << 6) | (s[i + k] & 0x3f);
        }
        static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
        if (code < least[more] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
        i += more + 1;
    }
    return 1;
}

/* A marshalled `str` (TYPE_UNICODE: 'u', the length, the UTF-8 bytes); 0 where not UTF-8. */
static int put_str(struct buffer *b, const char *s, size_t n) {
    if (!is_utf8((const unsigned char *)s, n)) return 0;
    put(b, "u", 1);
    put_u32(b, (uint32_t)n);
    put(b, s, n);
    return 1;
}

static int put_cstr(struct buffer *b, const char *s) { return put_str(b, s, strlen(s)); }

/* The call's header (gpuir.tools.launch.forward's dict); 0 where a string is not UTF-8. */
static int header(struct buffer *b, const char *tool, int argc, char **argv) {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == NULL) return 0;
    put(b, "{", 1);
    if (!put_cstr(b, "tool") || !put_cstr(b, tool) || !put_cstr(b, "args")) return 0;
    put(b, "[", 1);
    put_u32(b, (uint32_t)(argc - 1));
    for (int i = 1; i < argc; i++)
        if (!put_cstr(b, argv[i])) return 0;
    if (!put_cstr(b, "cwd") || !put_cstr(b, cwd) || !put_cstr(b, "env")) return 0;
    put(b, "{", 1);
    for (char **entry = environ; *entry != NULL; entry++) {
        const char *equals = strchr(*entry, '=');
        if (equals == NULL) continue;
        size_t key = (size_t)(equals - *entry);
        if (key == sizeof SERVER_ENV - 1 && strncmp(*entry, SERVER_ENV, key) == 0) continue;
        if (!put_str(b, *entry, key) || !put_cstr(b, equals + 1)) return 0;
    }
    put(b, "00", 2); /* the ends of the environment's dict and of the call's */
    return 1;
}

/* The call run by the server at `path`: its exit status in *code; 0 where it cannot be sent. */
static int forward(const char *tool, const char *path, int argc, char **argv, int *code) {
    struct buffer message = {0}, marshalled = {0};
    if (!header(&marshalled, tool, argc, argv)) return 0;
    put_u32(&message, (uint32_t)marshalled.size);
    put(&message, marshalled.data, marshalled.size);

    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) return 0;
    strcpy(address.sun_path, path);
    int connection = socket(AF_UNIX, SOCK_STREAM, 0);
    if (connection < 0 || connect(connection, (struct sockaddr *)&address, sizeof address) != 0)
        return 0;

    /* the standard streams go with the first bytes, as SCM_RIGHTS */
    int streams[3] = {0, 1, 2};
    char control[CMSG_SPACE(sizeof streams)];
    memset(control, 0, sizeof control);
    struct iovec part = {.iov_base = message.data, .iov_len = message.size};
    struct msghdr sent = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control,
                          .msg_controllen = sizeof control};
    struct cmsghdr *rights = CMSG_FIRSTHDR(&sent);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(sizeof streams);
    memcpy(CMSG_DATA(rights), streams, sizeof streams);
    ssize_t done = sendmsg(connection, &sent, MSG_NOSIGNAL);
    if (done <= 0) return 0;
    for (size_t at = (size_t)done; at < message.size; at += (size_t)done) {
        done = send(connection, message.data + at, message.size - at, MSG_NOSIGNAL);
        if (done <= 0) return 0;
    }

    unsigned char answer[4];
    size_t got = 0;
    while (got < sizeof answer) {
        ssize_t n = recv(connection, answer + got, sizeof answer - got, 0);
        if (n <= 0) {
            fprintf(stderr, "%s: error: the tool server (%s) ended the call\n", tool, path);
            *code = 1;
            return 1;
        }
        got += (size_t)n;
    }
    int32_t status = (int32_t)((uint32_t)answer[0] | (uint32_t)answer[1] << 8 |
                               (uint32_t)answer[2] << 16 | (uint32_t)answer[3] << 24);
    if (status < 0) { /* killed by a signal: so is this process, as the caller expects */
        signal(-status, SIG_DFL);
        kill(getpid(), -status);
        *code = 128 - status;
        return 1;
    }
    *code = status;
    return 1;
}

int main(int argc, char **argv) {
    const char *slash = strrchr(argv[0], '/');
    const char *tool = slash != NULL ? slash + 1 : argv[0];
    const char *path = getenv(SERVER_ENV);
    int code;
    if (path != NULL && *path != '\0' && strcmp(path, "0") != 0 && strcmp(path, "auto") != 0 &&
        forward(tool, path, argc, argv, &code))
        return code;
    char command[4096];
    snprintf(command, sizeof command, "%s/%s", FALLBACK, tool);
    argv[0] = command;
    execv(command, argv);
    fprintf(stderr, "%s: error: cannot run %s\n", tool, command);
    return 127;
}
