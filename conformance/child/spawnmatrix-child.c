/*
 * spawnmatrix-child: reports the process state it was started with as one JSON object.
 *
 * It is the child every conformance case spawns. It is C, not Rust, because a Rust program's
 * runtime changes signal dispositions and fds before main, and the report must show exactly
 * what the spawn left behind.
 *
 *   spawnmatrix-child [--report PATH] [--read-fd N]... [--write-fd N:TEXT]... [--sleep-ms N]
 *                     [--exit N | --raise SIGNAME] [--] [ANY ARGS...]
 *
 * Order of work: (1) collect ids, argv, env, cwd, umask, fds, signals, sched, rlimit, opening
 * nothing that could show up in the fd list (the directory used to list fds is excluded);
 * (2) do the --read-fd / --write-fd work (after the fd list, so offsets are as inherited);
 * (3) write the report to --report PATH (via PATH.tmp.<pid> and rename, so a reader never
 * sees half a report), else $SPAWNMATRIX_REPORT, else stdout; (4) sleep; (5) exit or raise.
 * A relative PATH is taken from the helper's cwd, i.e. after any chdir the spawn did: pass an
 * absolute one.
 *
 * Signals are reported twice: as the libc sees them ("sigmask", "ignored", "handled",
 * "pending": names, SIG<n> for unnamed numbers) and as the kernel holds them
 * ("kernel_signals": numbers, from /proc/self/status or, without /proc, the raw rt_sig*
 * system calls on Linux; null elsewhere). Only the kernel's view shows the numbers a libc
 * keeps for itself and hides from its own calls (glibc's 32 and 33).
 *
 * --read-fd N reads to end of file, so a pipe's writer must close its end first; an fd that
 * fails to read is left out of "reads" and named in "errors". --write-fd N:TEXT writes TEXT
 * (default SIGPIPE disposition applies: a closed pipe ends the helper with SIGPIPE).
 *
 * Exit status: --exit N (default 0); 125 if the report could not be written; 124 if
 * --raise named a signal that did not end the process. Bad options are listed in "errors".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#if defined(__APPLE__)
#include <pthread.h>
#include <sys/param.h>
#endif
#if defined(__FreeBSD__)
#include <sys/user.h>
#endif

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

extern char **environ;

/* ---- growable output buffer ------------------------------------------------------------ */

struct buf {
    char *p;
    size_t len, cap;
};

static void die(const char *msg)
{
    size_t n = strlen(msg);
    (void)!write(2, "spawnmatrix-child: ", 19);
    (void)!write(2, msg, n);
    (void)!write(2, "\n", 1);
    _exit(125);
}

static void buf_add(struct buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            die("out of memory");
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

static void buf_fmt(struct buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        die("vsnprintf failed");
    buf_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* ---- JSON strings ------------------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0 if it is not valid UTF-8. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    unsigned char lo = 0x80, hi = 0xBF;
    size_t len;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

/* A JSON string; every byte that is not part of valid UTF-8 becomes \u00XX. */
static void json_bytes(struct buf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    buf_add(b, "\"", 1);
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t len = utf8_len(s + i, n - i);
        if (c == '"' || c == '\\') {
            buf_add(b, "\\", 1);
            buf_add(b, (const char *)&c, 1);
            i++;
        } else if (len == 0 || c < 0x20 || c == 0x7F) {
            buf_fmt(b, "\\u%04x", c);
            i++;
        } else {
            buf_add(b, (const char *)s + i, len);
            i += len;
        }
    }
    buf_add(b, "\"", 1);
}

static void json_str(struct buf *b, const char *s) { json_bytes(b, s, strlen(s)); }

static void json_hex(struct buf *b, const char *str)
{
    static const char digits[] = "0123456789abcdef";
    buf_add(b, "\"", 1);
    for (const unsigned char *s = (const unsigned char *)str; *s; s++) {
        char pair[2] = {digits[*s >> 4], digits[*s & 15]};
        buf_add(b, pair, 2);
    }
    buf_add(b, "\"", 1);
}

/* Appends a comma unless this is the first element; *first tracks that. */
static void sep(struct buf *b, int *first)
{
    if (!*first)
        buf_add(b, ",", 1);
    *first = 0;
}

/* ---- names --------------------------------------------------------------------------------- */

struct name {
    int num;
    const char *name;
};
#define N(x) {x, #x}

static const struct name errno_names[] = {
    N(EPERM), N(ENOENT), N(ESRCH), N(EINTR), N(EIO), N(ENXIO), N(E2BIG), N(ENOEXEC),
    N(EBADF), N(ECHILD), N(EAGAIN), N(ENOMEM), N(EACCES), N(EFAULT), N(EBUSY), N(EEXIST),
    N(EXDEV), N(ENODEV), N(ENOTDIR), N(EISDIR), N(EINVAL), N(ENFILE), N(EMFILE), N(ENOTTY),
    N(ETXTBSY), N(EFBIG), N(ENOSPC), N(ESPIPE), N(EROFS), N(EMLINK), N(EPIPE), N(ERANGE),
    N(ENAMETOOLONG), N(ENOSYS), N(ELOOP), N(ENOTSUP),
#if defined(EOPNOTSUPP) && EOPNOTSUPP != ENOTSUP
    N(EOPNOTSUPP),
#endif
    N(ENOTSOCK), N(ECONNRESET), N(ENOTCONN),
};

static const struct name signal_names[] = {
    N(SIGHUP),  N(SIGINT),  N(SIGQUIT), N(SIGILL),    N(SIGTRAP), N(SIGABRT), N(SIGBUS),
    N(SIGFPE),  N(SIGKILL), N(SIGUSR1), N(SIGSEGV),   N(SIGUSR2), N(SIGPIPE), N(SIGALRM),
    N(SIGTERM), N(SIGCHLD), N(SIGCONT), N(SIGSTOP),   N(SIGTSTP), N(SIGTTIN), N(SIGTTOU),
    N(SIGURG),  N(SIGXCPU), N(SIGXFSZ), N(SIGVTALRM), N(SIGPROF), N(SIGWINCH), N(SIGSYS),
#ifdef SIGSTKFLT
    N(SIGSTKFLT),
#endif
#ifdef SIGIO
    N(SIGIO),
#endif
#ifdef SIGPWR
    N(SIGPWR),
#endif
#ifdef SIGEMT
    N(SIGEMT),
#endif
#ifdef SIGINFO
    N(SIGINFO),
#endif
#ifdef SIGTHR
    N(SIGTHR),
#endif
#ifdef SIGLIBRT
    N(SIGLIBRT),
#endif
};

static const char *lookup(const struct name *t, size_t n, int num, char *tmp, size_t tmpn,
                          const char *prefix)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].num == num)
            return t[i].name;
    snprintf(tmp, tmpn, "%s%d", prefix, num);
    return tmp;
}

static char name_tmp[32];
#define ERRNAME(e) lookup(errno_names, sizeof errno_names / sizeof *errno_names, (e), \
                          name_tmp, sizeof name_tmp, "E")
#define SIGNAME(s) lookup(signal_names, sizeof signal_names / sizeof *signal_names, (s), \
                          name_tmp, sizeof name_tmp, "SIG")

/* The highest signal number sigset_t and sigaction accept here. */
static int max_signal(void)
{
#if defined(SIGRTMAX)
    return SIGRTMAX;
#elif defined(NSIG)
    return NSIG - 1;
#else
    return 31;
#endif
}

/* Parses "SIGUSR1", "USR1" or "SIG<n>"; 0 if unknown. */
static int parse_signal(const char *s)
{
    const char *bare = strncmp(s, "SIG", 3) == 0 ? s + 3 : s;
    for (size_t i = 0; i < sizeof signal_names / sizeof *signal_names; i++)
        if (strcmp(signal_names[i].name + 3, bare) == 0)
            return signal_names[i].num;
    char *end;
    long n = strtol(bare, &end, 10);
    if (*bare && !*end && n > 0 && n <= max_signal())
        return (int)n;
    return 0;
}

/* ---- errors ---------------------------------------------------------------------------------- */

static struct buf errors;
static int errors_first = 1;

static void note(const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    sep(&errors, &errors_first);
    json_str(&errors, tmp);
}

/* ---- options ----------------------------------------------------------------------------------- */

struct opts {
    const char *report;
    int *read_fds;
    size_t n_read;
    char **write_fds; /* "N:TEXT" */
    size_t n_write;
    long sleep_ms;
    int exit_code;
    int raise_sig;
};

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
    size_t slots = argc > 0 ? (size_t)argc : 1;
    o->read_fds = calloc(slots, sizeof *o->read_fds);
    o->write_fds = calloc(slots, sizeof *o->write_fds);
    if (!o->read_fds || !o->write_fds)
        die("out of memory");
    int have_exit = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (strcmp(a, "--") == 0)
            break;
        int known = strcmp(a, "--report") == 0 || strcmp(a, "--read-fd") == 0 ||
                    strcmp(a, "--write-fd") == 0 || strcmp(a, "--sleep-ms") == 0 ||
                    strcmp(a, "--exit") == 0 || strcmp(a, "--raise") == 0;
        if (!known)
            break;
        if (i + 1 >= argc) {
            note("option %s needs a value", a);
            break;
        }
        const char *val = argv[++i];
        if (strcmp(a, "--report") == 0)
            o->report = val;
        else if (strcmp(a, "--read-fd") == 0) {
            if (parse_long(val, 0, INT_MAX, &v) == 0)
                o->read_fds[o->n_read++] = (int)v;
            else
                note("--read-fd: not an fd number: %s", val);
        } else if (strcmp(a, "--write-fd") == 0) {
            const char *colon = strchr(val, ':');
            char num[32];
            size_t len = colon ? (size_t)(colon - val) : 0;
            if (colon && len < sizeof num) {
                memcpy(num, val, len);
                num[len] = '\0';
            }
            if (colon && len < sizeof num && parse_long(num, 0, INT_MAX, &v) == 0)
                o->write_fds[o->n_write++] = argv[i];
            else
                note("--write-fd: expected N:TEXT, got %s", val);
        } else if (strcmp(a, "--sleep-ms") == 0) {
            if (parse_long(val, 0, LONG_MAX / 1000, &v) == 0)
                o->sleep_ms = v;
            else
                note("--sleep-ms: not a number of milliseconds: %s", val);
        } else if (strcmp(a, "--exit") == 0) {
            if (parse_long(val, 0, 255, &v) == 0) {
                o->exit_code = (int)v;
                have_exit = 1;
            } else
                note("--exit: not a status in 0..255: %s", val);
        } else {
            int sig = parse_signal(val);
            if (sig)
                o->raise_sig = sig;
            else
                note("--raise: unknown signal %s", val);
        }
    }
    if (have_exit && o->raise_sig) {
        note("--exit and --raise both given; --raise wins");
    }
}

/* ---- state --------------------------------------------------------------------------------- */

static void emit_strings(struct buf *b, const char *key, char *const *v, size_t n, int hex)
{
    int first = 1;
    buf_fmt(b, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        sep(b, &first);
        if (hex)
            json_hex(b, v[i]);
        else
            json_str(b, v[i]);
    }
    buf_add(b, "]", 1);
}

static void emit_cwd(struct buf *b)
{
    size_t size = 256;
    for (;;) {
        char *p = malloc(size);
        if (!p)
            die("out of memory");
        if (getcwd(p, size)) {
            buf_str(b, ",\"cwd\":");
            json_str(b, p);
            buf_str(b, ",\"cwd_errno\":null");
            free(p);
            return;
        }
        int e = errno;
        free(p);
        if (e == ERANGE && size < (1u << 20)) {
            size *= 2;
            continue;
        }
        buf_fmt(b, ",\"cwd\":null,\"cwd_errno\":\"%s\"", ERRNAME(e));
        return;
    }
}

struct fdlist {
    int *v;
    size_t n, cap;
};

static void fdlist_push(struct fdlist *l, int fd)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            die("out of memory");
    }
    l->v[l->n++] = fd;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/*
 * Where the kernel lists this process's fds as a directory: Linux and Cygwin /proc/self/fd,
 * macOS /dev/fd (fdesc). FreeBSD's /dev/fd shows only 0-2 unless fdescfs is mounted, so it
 * scans instead.
 */
#if defined(__linux__) || defined(__CYGWIN__)
#define FD_DIR "/proc/self/fd"
#elif defined(__APPLE__)
#define FD_DIR "/dev/fd"
#endif

/* Lists the fds from FD_DIR, leaving out the directory's own fd. 0 on success. */
static int list_fds_dir(struct fdlist *l)
{
#ifdef FD_DIR
    DIR *d = opendir(FD_DIR);
    if (!d)
        return -1;
    int own = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long v;
        if (parse_long(e->d_name, 0, INT_MAX, &v) == 0 && v != own)
            fdlist_push(l, (int)v);
    }
    closedir(d);
    return 0;
#else
    (void)l;
    return -1;
#endif
}

/* Scans fds 0..limit with fcntl(F_GETFD). Fds at or above the soft RLIMIT_NOFILE are rare
 * (the limit was lowered after they were opened); above the cap they are missed, and the
 * report says so. */
static void list_fds_scan(struct fdlist *l)
{
    const long cap = 1L << 20;
    struct rlimit rl;
    long limit = cap;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < (rlim_t)cap)
        limit = (long)rl.rlim_cur;
    else
        note("fd list: scanned fds below %ld only", cap);
    for (long fd = 0; fd < limit; fd++)
        if (fcntl((int)fd, F_GETFD) != -1)
            fdlist_push(l, (int)fd);
}

static const char *fd_type(mode_t m)
{
    if (S_ISREG(m)) return "reg";
    if (S_ISDIR(m)) return "dir";
    if (S_ISCHR(m)) return "chr";
    if (S_ISBLK(m)) return "blk";
    if (S_ISFIFO(m)) return "fifo";
    if (S_ISSOCK(m)) return "sock";
    if (S_ISLNK(m)) return "lnk";
    return "unknown";
}

/* The path the fd refers to, as the kernel names it; writes a JSON string or null. */
static void emit_target(struct buf *b, int fd)
{
#if defined(__linux__) || defined(__CYGWIN__)
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path);
    if (n >= 0 && (size_t)n < sizeof path) {
        json_bytes(b, path, (size_t)n);
        return;
    }
#elif defined(__APPLE__)
    char path[MAXPATHLEN];
    if (fcntl(fd, F_GETPATH, path) != -1) {
        json_str(b, path);
        return;
    }
#elif defined(__FreeBSD__) && defined(F_KINFO)
    struct kinfo_file kf;
    memset(&kf, 0, sizeof kf);
    kf.kf_structsize = sizeof kf;
    if (fcntl(fd, F_KINFO, &kf) != -1 && kf.kf_path[0]) {
        json_str(b, kf.kf_path);
        return;
    }
#else
    (void)fd;
#endif
    buf_str(b, "null");
}

static void emit_fds(struct buf *b)
{
    struct fdlist l = {0};
    if (list_fds_dir(&l) != 0)
        list_fds_scan(&l);
    qsort(l.v, l.n, sizeof *l.v, cmp_int);
    int first = 1;
    buf_str(b, ",\"fds\":[");
    for (size_t i = 0; i < l.n; i++) {
        int fd = l.v[i];
        int fdflags = fcntl(fd, F_GETFD);
        int fl = fcntl(fd, F_GETFL);
        struct stat st;
        if (fdflags == -1 || fl == -1) {
            note("fd %d: listed but fcntl failed: %s", fd, ERRNAME(errno));
            continue;
        }
        sep(b, &first);
        const char *access = (fl & O_ACCMODE) == O_WRONLY ? "w"
                             : (fl & O_ACCMODE) == O_RDWR ? "rw"
                                                          : "r";
        buf_fmt(b, "{\"fd\":%d,\"cloexec\":%s,\"access\":\"%s\",\"append\":%s,\"nonblock\":%s",
                fd, (fdflags & FD_CLOEXEC) ? "true" : "false", access,
                (fl & O_APPEND) ? "true" : "false", (fl & O_NONBLOCK) ? "true" : "false");
        if (fstat(fd, &st) == 0)
            buf_fmt(b, ",\"type\":\"%s\",\"dev\":%llu,\"ino\":%llu", fd_type(st.st_mode),
                    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
        else {
            note("fd %d: fstat: %s", fd, ERRNAME(errno));
            buf_str(b, ",\"type\":\"unknown\",\"dev\":0,\"ino\":0");
        }
        off_t off = lseek(fd, 0, SEEK_CUR);
        if (off == (off_t)-1)
            buf_str(b, ",\"offset\":null");
        else
            buf_fmt(b, ",\"offset\":%lld", (long long)off);
        buf_str(b, ",\"target\":");
        emit_target(b, fd);
        buf_add(b, "}", 1);
    }
    buf_add(b, "]", 1);
    free(l.v);
}

static void emit_signals(struct buf *b)
{
    sigset_t mask;
    int max = max_signal();
    if (sigprocmask(SIG_BLOCK, NULL, &mask) != 0) {
        note("sigprocmask: %s", ERRNAME(errno));
        sigemptyset(&mask);
    }
    int first = 1;
    buf_str(b, ",\"sigmask\":[");
    for (int s = 1; s <= max; s++)
        if (sigismember(&mask, s) == 1) {
            sep(b, &first);
            json_str(b, SIGNAME(s));
        }
    struct buf handled = {0};
    int first_h = 1;
    first = 1;
    buf_str(b, "],\"ignored\":[");
    for (int s = 1; s <= max; s++) {
        struct sigaction sa;
        /* Fails for numbers the libc reserves for itself (glibc's 32 and 33). */
        if (sigaction(s, NULL, &sa) != 0)
            continue;
        if (!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_IGN) {
            sep(b, &first);
            json_str(b, SIGNAME(s));
        } else if ((sa.sa_flags & SA_SIGINFO) || sa.sa_handler != SIG_DFL) {
            sep(&handled, &first_h);
            json_str(&handled, SIGNAME(s));
        }
    }
    buf_str(b, "],\"handled\":[");
    if (handled.len)
        buf_add(b, handled.p, handled.len);
    buf_add(b, "]", 1);
    free(handled.p);
    sigset_t pending;
    if (sigpending(&pending) != 0) {
        note("sigpending: %s", ERRNAME(errno));
        sigemptyset(&pending);
    }
    first = 1;
    buf_str(b, ",\"pending\":[");
    for (int s = 1; s <= max; s++)
        if (sigismember(&pending, s) == 1) {
            sep(b, &first);
            json_str(b, SIGNAME(s));
        }
    buf_add(b, "]", 1);
}

/* ---- the kernel's own view of the signal state (Linux) ---------------------------------- */

/*
 * The libc's calls hide the numbers it keeps for itself (glibc's sigaction refuses 32 and 33,
 * musl's 32 to 34), so the kernel is asked directly: /proc/self/status where it is mounted,
 * else the raw rt_sig* system calls. Masks are arrays of bits, signal n at bit n-1.
 */
#define KSIG_MAX 128
struct ksigs {
    unsigned char pending[KSIG_MAX + 1], shared_pending[KSIG_MAX + 1], blocked[KSIG_MAX + 1],
        ignored[KSIG_MAX + 1], caught[KSIG_MAX + 1];
    int max;
};

#if defined(__linux__)
/* Reads a /proc mask ("0000000180000000") into bits[1..]; returns the highest number. */
static int parse_kmask(const char *hex, unsigned char *bits)
{
    size_t n = strspn(hex, "0123456789abcdefABCDEF");
    int sig = 1;
    for (size_t i = n; i-- > 0 && sig <= KSIG_MAX;) {
        char c = hex[i];
        int v = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        for (int bit = 0; bit < 4 && sig <= KSIG_MAX; bit++, sig++)
            bits[sig] = (unsigned char)((v >> bit) & 1);
    }
    return sig - 1;
}

static int ksigs_from_proc(struct ksigs *k)
{
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char text[16384];
    size_t len = 0;
    for (;;) {
        ssize_t n = read(fd, text + len, sizeof text - 1 - len);
        if (n > 0 && (len += (size_t)n) < sizeof text - 1)
            continue;
        if (n < 0 && errno == EINTR)
            continue;
        break;
    }
    close(fd);
    text[len] = '\0';
    static const struct {
        const char *key;
        size_t offset;
    } fields[] = {
        {"\nSigPnd:", offsetof(struct ksigs, pending)},
        {"\nShdPnd:", offsetof(struct ksigs, shared_pending)},
        {"\nSigBlk:", offsetof(struct ksigs, blocked)},
        {"\nSigIgn:", offsetof(struct ksigs, ignored)},
        {"\nSigCgt:", offsetof(struct ksigs, caught)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        const char *at = strstr(text, fields[i].key);
        if (!at) {
            note("/proc/self/status has no %s line", fields[i].key + 1);
            return -2;
        }
        at += strlen(fields[i].key);
        at += strspn(at, " \t");
        k->max = parse_kmask(at, (unsigned char *)k + fields[i].offset);
    }
    return 0;
}

/* Where the kernel's struct sigaction starts with the handler, as on every architecture the
 * suite runs on; MIPS, SPARC and Alpha differ and have only /proc. */
#if !defined(__mips__) && !defined(__sparc__) && !defined(__alpha__)
#define KSIG_SYSCALLS 1
#define KSIG_NSIG 64
static void kset_bits(const unsigned long *set, unsigned char *bits)
{
    const int per = (int)(8 * sizeof(unsigned long));
    for (int s = 1; s <= KSIG_NSIG; s++)
        bits[s] = (unsigned char)((set[(s - 1) / per] >> ((s - 1) % per)) & 1);
}

static int ksigs_from_syscalls(struct ksigs *k)
{
    unsigned long set[KSIG_NSIG / (8 * sizeof(unsigned long))];
    const size_t size = sizeof set;
    if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, set, size) != 0)
        return -1;
    kset_bits(set, k->blocked);
    /* rt_sigpending gives the union of the thread's and the process's pending sets. */
    if (syscall(SYS_rt_sigpending, set, size) != 0)
        return -1;
    kset_bits(set, k->pending);
    for (int s = 1; s <= KSIG_NSIG; s++) {
        /* Room for any layout: handler, flags, restorer, mask. */
        unsigned long act[4 + KSIG_NSIG / (8 * sizeof(unsigned long))];
        if (syscall(SYS_rt_sigaction, s, NULL, act, size) != 0)
            return -1;
        k->ignored[s] = act[0] == (unsigned long)SIG_IGN;
        k->caught[s] = act[0] != (unsigned long)SIG_IGN && act[0] != (unsigned long)SIG_DFL;
    }
    k->max = KSIG_NSIG;
    return 0;
}
#endif
#endif

static void emit_kmask(struct buf *b, const char *key, const unsigned char *bits, int max)
{
    int first = 1;
    buf_fmt(b, ",\"%s\":[", key);
    for (int s = 1; s <= max; s++)
        if (bits[s]) {
            sep(b, &first);
            buf_fmt(b, "%d", s);
        }
    buf_add(b, "]", 1);
}

/* "kernel_signals": {"source":"proc"|"syscall", "pending" (the thread's and the process's),
 * "blocked", "ignored", "caught": signal numbers}, or null where the kernel cannot be asked. */
static void emit_kernel_signals(struct buf *b)
{
    struct ksigs k;
    memset(&k, 0, sizeof k);
    const char *source = NULL;
#if defined(__linux__)
    int rc = ksigs_from_proc(&k);
    if (rc == 0)
        source = "proc";
#ifdef KSIG_SYSCALLS
    else if (rc == -1) {
        memset(&k, 0, sizeof k);
        if (ksigs_from_syscalls(&k) == 0)
            source = "syscall";
        else
            note("rt_sig* system calls: %s", ERRNAME(errno));
    }
#endif
#endif
    if (!source) {
        buf_str(b, ",\"kernel_signals\":null");
        return;
    }
    buf_str(b, ",\"kernel_signals\":{\"source\":");
    json_str(b, source);
    for (int s = 1; s <= k.max; s++)
        k.pending[s] |= k.shared_pending[s];
    emit_kmask(b, "pending", k.pending, k.max);
    emit_kmask(b, "blocked", k.blocked, k.max);
    emit_kmask(b, "ignored", k.ignored, k.max);
    emit_kmask(b, "caught", k.caught, k.max);
    buf_add(b, "}", 1);
}

static const char *policy_name(int p)
{
    switch (p) {
    case SCHED_OTHER: return "SCHED_OTHER";
    case SCHED_FIFO: return "SCHED_FIFO";
    case SCHED_RR: return "SCHED_RR";
#ifdef SCHED_BATCH
    case SCHED_BATCH: return "SCHED_BATCH";
#endif
#ifdef SCHED_IDLE
    case SCHED_IDLE: return "SCHED_IDLE";
#endif
#ifdef SCHED_DEADLINE
    case SCHED_DEADLINE: return "SCHED_DEADLINE";
#endif
#ifdef SCHED_SPORADIC
    case SCHED_SPORADIC: return "SCHED_SPORADIC";
#endif
    default:
        snprintf(name_tmp, sizeof name_tmp, "SCHED_%d", p);
        return name_tmp;
    }
}

/* musl's sched_getscheduler is a stub that fails with ENOSYS, so Linux asks the kernel
 * directly. macOS has no sched_getscheduler; there the main thread's policy is the process's. */
static int get_sched(int *policy, struct sched_param *param)
{
#if defined(__linux__)
    long p = syscall(SYS_sched_getscheduler, 0);
    if (p == -1)
        return -1;
    *policy = (int)p;
    return (int)syscall(SYS_sched_getparam, 0, param);
#elif defined(__APPLE__)
    int e = pthread_getschedparam(pthread_self(), policy, param);
    if (e) {
        errno = e;
        return -1;
    }
    return 0;
#else
    *policy = sched_getscheduler(0);
    if (*policy == -1)
        return -1;
    return sched_getparam(0, param);
#endif
}

static void emit_sched(struct buf *b)
{
    int policy;
    struct sched_param param;
    if (get_sched(&policy, &param) != 0) {
        note("sched: %s", ERRNAME(errno));
        buf_str(b, ",\"sched\":null");
        return;
    }
    buf_str(b, ",\"sched\":{\"policy\":");
#ifdef SCHED_RESET_ON_FORK
    if (policy & SCHED_RESET_ON_FORK) {
        char both[64];
        snprintf(both, sizeof both, "%s|SCHED_RESET_ON_FORK",
                 policy_name(policy & ~SCHED_RESET_ON_FORK));
        json_str(b, both);
    } else
#endif
        json_str(b, policy_name(policy));
    buf_fmt(b, ",\"priority\":%d}", param.sched_priority);
}

static void emit_rlimit(struct buf *b)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) {
        note("getrlimit: %s", ERRNAME(errno));
        rl.rlim_cur = rl.rlim_max = 0;
    }
    buf_fmt(b, ",\"rlimit_nofile\":[%llu,%llu]", (unsigned long long)rl.rlim_cur,
            (unsigned long long)rl.rlim_max);
}

/* ---- fd reads and writes ----------------------------------------------------------------- */

static void do_reads(struct buf *b, const struct opts *o)
{
    int first = 1;
    buf_str(b, ",\"reads\":{");
    for (size_t i = 0; i < o->n_read; i++) {
        int fd = o->read_fds[i];
        struct buf data = {0};
        char chunk[4096];
        int err = 0;
        for (;;) {
            ssize_t n = read(fd, chunk, sizeof chunk);
            if (n > 0) {
                buf_add(&data, chunk, (size_t)n);
                if (data.len < (1u << 20))
                    continue;
                note("read-fd %d: stopped after 1 MiB", fd);
                break;
            }
            if (n == 0)
                break;
            if (errno == EINTR)
                continue;
            err = errno;
            break;
        }
        if (err)
            note("read-fd %d: %s", fd, ERRNAME(err));
        else {
            sep(b, &first);
            buf_fmt(b, "\"%d\":", fd);
            json_bytes(b, data.p ? data.p : "", data.len);
        }
        free(data.p);
    }
    buf_add(b, "}", 1);
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void do_writes(struct buf *b, const struct opts *o)
{
    int first = 1;
    buf_str(b, ",\"writes\":{");
    for (size_t i = 0; i < o->n_write; i++) {
        const char *spec = o->write_fds[i];
        const char *text = strchr(spec, ':') + 1;
        int fd = atoi(spec);
        int err = write_all(fd, text, strlen(text));
        sep(b, &first);
        buf_fmt(b, "\"%d\":\"%s\"", fd, err ? ERRNAME(err) : "ok");
    }
    buf_add(b, "}", 1);
}

/* ---- report -------------------------------------------------------------------------------- */

static void write_report(const struct buf *b, const char *path)
{
    char msg[256];
    if (!path) {
        int err = write_all(1, b->p, b->len);
        if (err) {
            snprintf(msg, sizeof msg, "writing the report to stdout: %s", ERRNAME(err));
            die(msg);
        }
        return;
    }
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        die("out of memory");
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int err = fd < 0 ? errno : write_all(fd, b->p, b->len);
    if (fd >= 0 && close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err) {
        if (fd >= 0)
            unlink(tmp);
        snprintf(msg, sizeof msg, "writing the report to %.150s: %s", path, ERRNAME(err));
        die(msg);
    }
    free(tmp);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void raise_signal(int sig)
{
    struct sigaction sa;
    sigset_t set;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(124);
}

int main(int argc, char **argv)
{
    struct opts o = {0};
    struct buf b = {0};
    size_t nenv = 0;
    char *const *env = environ;
    parse_opts(argc, argv, &o);
    while (env && env[nenv])
        nenv++;

    buf_fmt(&b, "{\"pid\":%ld,\"ppid\":%ld,\"pgid\":%ld,\"sid\":%ld", (long)getpid(),
            (long)getppid(), (long)getpgrp(), (long)getsid(0));
    buf_fmt(&b, ",\"uid\":%lu,\"euid\":%lu,\"gid\":%lu,\"egid\":%lu", (unsigned long)getuid(),
            (unsigned long)geteuid(), (unsigned long)getgid(), (unsigned long)getegid());
    emit_strings(&b, "argv", argv, argc > 0 ? (size_t)argc : 0, 0);
    emit_strings(&b, "argv_hex", argv, argc > 0 ? (size_t)argc : 0, 1);
    emit_strings(&b, "env", env, nenv, 0);
    emit_strings(&b, "env_hex", env, nenv, 1);
    emit_cwd(&b);
    mode_t mask = umask(0);
    umask(mask);
    buf_fmt(&b, ",\"umask\":%u", (unsigned)mask);
    emit_fds(&b);
    emit_signals(&b);
    emit_kernel_signals(&b);
    emit_sched(&b);
    emit_rlimit(&b);
    do_reads(&b, &o);
    do_writes(&b, &o);
    buf_str(&b, ",\"errors\":[");
    if (errors.len)
        buf_add(&b, errors.p, errors.len);
    buf_str(&b, "]}\n");

    const char *report = o.report ? o.report : getenv("SPAWNMATRIX_REPORT");
    write_report(&b, report && *report ? report : NULL);
    if (o.sleep_ms > 0)
        sleep_ms(o.sleep_ms);
    if (o.raise_sig)
        raise_signal(o.raise_sig);
    return o.exit_code;
}
