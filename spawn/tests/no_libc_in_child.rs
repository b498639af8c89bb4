//! The child of every strategy this crate runs itself (clone3, clone_vfork, fork) calls the
//! kernel directly, never libc's `open`, `close`, `chdir`, `dup2`, `execve`, ...: those are
//! cancellation points that touch the parent thread's TCB in a `CLONE_VM` child, and an
//! `LD_PRELOAD` interposer of them would run inside the child.
//!
//! The check: an interposer (`interpose.c`, built here with `cc`) wraps those functions and
//! logs every call made by a process other than the one it was loaded into. This binary, run
//! again with it preloaded, spawns under each strategy with every child-side step in use
//! (session, group, directory by path and by fd, permuted fd mappings, reset signals, a mask,
//! closing other fds, a failed and a working `execve`); the log must name none of them. A
//! control child forked by hand that calls libc's `chdir` must be logged, so the interposer
//! is known to work. glibc only: Rust's musl binaries are static and ignore `LD_PRELOAD`.
#![cfg(all(target_os = "linux", target_env = "gnu"))]

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;

use spawnmatrix_spawn::os::unix::process::CommandExt;
use spawnmatrix_spawn::{Command, Stdio, Strategy};

include!("support/paths.rs");

/// The interposer: each wrapper logs its name (with raw system calls) when called from a
/// process whose pid is not the one that loaded it, then calls the real function.
const INTERPOSER: &str = r#"
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long loader_pid;
static char log_path[4096];

__attribute__((constructor)) static void init(void) {
    loader_pid = syscall(SYS_getpid);
    const char *p = getenv("NO_LIBC_IN_CHILD_LOG");
    if (p && strlen(p) < sizeof log_path) strcpy(log_path, p);
}

static void note(const char *name) {
    if (!log_path[0] || syscall(SYS_getpid) == loader_pid) return;
    long fd = syscall(SYS_openat, AT_FDCWD, log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return;
    syscall(SYS_write, fd, name, strlen(name));
    syscall(SYS_write, fd, "\n", 1);
    syscall(SYS_close, fd);
}

#define REAL(ret, name, params) \
    static ret (*real_##name) params; \
    if (!real_##name) real_##name = (ret (*) params)dlsym(RTLD_NEXT, #name);

int open(const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); int mode = va_arg(ap, int); va_end(ap);
    note("open"); REAL(int, open, (const char *, int, ...)); return real_open(path, flags, mode);
}
int open64(const char *path, int flags, ...) {
    va_list ap; va_start(ap, flags); int mode = va_arg(ap, int); va_end(ap);
    note("open64"); REAL(int, open64, (const char *, int, ...)); return real_open64(path, flags, mode);
}
int fcntl(int fd, int cmd, ...) {
    va_list ap; va_start(ap, cmd); long arg = va_arg(ap, long); va_end(ap);
    note("fcntl"); REAL(int, fcntl, (int, int, ...)); return real_fcntl(fd, cmd, arg);
}
int fcntl64(int fd, int cmd, ...) {
    va_list ap; va_start(ap, cmd); long arg = va_arg(ap, long); va_end(ap);
    note("fcntl64"); REAL(int, fcntl64, (int, int, ...)); return real_fcntl64(fd, cmd, arg);
}
int close(int fd) { note("close"); REAL(int, close, (int)); return real_close(fd); }
int chdir(const char *p) { note("chdir"); REAL(int, chdir, (const char *)); return real_chdir(p); }
int fchdir(int fd) { note("fchdir"); REAL(int, fchdir, (int)); return real_fchdir(fd); }
int dup2(int a, int b) { note("dup2"); REAL(int, dup2, (int, int)); return real_dup2(a, b); }
int dup3(int a, int b, int f) { note("dup3"); REAL(int, dup3, (int, int, int)); return real_dup3(a, b, f); }
pid_t setsid(void) { note("setsid"); REAL(pid_t, setsid, (void)); return real_setsid(); }
int setpgid(pid_t a, pid_t b) { note("setpgid"); REAL(int, setpgid, (pid_t, pid_t)); return real_setpgid(a, b); }
int execve(const char *p, char *const a[], char *const e[]) {
    note("execve"); REAL(int, execve, (const char *, char *const[], char *const[])); return real_execve(p, a, e);
}
ssize_t write(int fd, const void *b, size_t n) {
    note("write"); REAL(ssize_t, write, (int, const void *, size_t)); return real_write(fd, b, n);
}
int sigaction(int s, const struct sigaction *a, struct sigaction *o) {
    note("sigaction"); REAL(int, sigaction, (int, const struct sigaction *, struct sigaction *)); return real_sigaction(s, a, o);
}
int sigprocmask(int h, const sigset_t *s, sigset_t *o) {
    note("sigprocmask"); REAL(int, sigprocmask, (int, const sigset_t *, sigset_t *)); return real_sigprocmask(h, s, o);
}
int pthread_sigmask(int h, const sigset_t *s, sigset_t *o) {
    note("pthread_sigmask"); REAL(int, pthread_sigmask, (int, const sigset_t *, sigset_t *)); return real_pthread_sigmask(h, s, o);
}
"#;

/// The variable that makes this binary run [`role_spawns`]; its value is the log path.
const LOG: &str = "NO_LIBC_IN_CHILD_LOG";

/// Builds the interposer into `dir`, for this binary's word size (`-m32` for i686 on an
/// x86_64 host: the loader ignores a preload of the other ELF class); `None`, printed, when
/// there is no C compiler to run.
fn build_interposer(dir: &Path) -> Option<std::path::PathBuf> {
    let src = dir.join("interpose.c");
    let so = dir.join("interpose.so");
    std::fs::write(&src, INTERPOSER).unwrap();
    let word = if cfg!(target_arch = "x86") {
        "-m32"
    } else {
        "-fPIC"
    };
    let out = std::process::Command::new("cc")
        .args([word, "-shared", "-fPIC", "-O1", "-o"])
        .arg(&so)
        .arg(&src)
        .arg("-ldl")
        .output();
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            use std::io::Write as _;
            let why = format!("no cc to build the interposer: {e}");
            let _ = writeln!(
                std::io::stderr(),
                "skipped: children_call_no_libc_function: {why}"
            );
            return None;
        }
    };
    assert!(
        out.status.success(),
        "cc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(so)
}

#[test]
fn children_call_no_libc_function() {
    let dir = tempfile::tempdir().unwrap();
    let Some(so) = build_interposer(dir.path()) else {
        return;
    };
    let log = dir.path().join("calls.log");
    let out = std::process::Command::new(own_exe())
        .args(["--ignored", "--exact", "role_spawns", "--nocapture"])
        .env("LD_PRELOAD", &so)
        .env(LOG, &log)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("spawned under"), "{text}");
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    let mut lines = calls.lines();
    // The control, first: the interposer sees a child's libc call.
    assert_eq!(lines.next(), Some("chdir"), "control not logged: {calls:?}");
    let rest: Vec<&str> = lines.collect();
    assert!(
        rest.is_empty(),
        "libc calls made in spawned children: {rest:?}\n{text}"
    );
}

fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new fds into the array.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: both are new fds nobody else owns.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

/// The role: the control, then the spawns.
#[test]
#[ignore = "run by children_call_no_libc_function"]
fn role_spawns() {
    if std::env::var_os(LOG).is_none() {
        return;
    }
    // SAFETY: the control child only calls chdir and _exit.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            libc::chdir(c"/".as_ptr());
            libc::_exit(0);
        }
        assert_eq!(libc::waitpid(pid, std::ptr::null_mut(), 0), pid);
    }
    let mut used = Vec::new();
    for strategy in [
        Strategy::Auto,
        Strategy::Clone3,
        Strategy::CloneVfork,
        Strategy::Fork,
    ] {
        if !strategy.is_available() {
            continue;
        }
        let (r, w) = pipe();
        let (rn, wn) = (r.as_raw_fd(), w.as_raw_fd());
        let mut c = Command::new("/bin/sh");
        c.args(["-c", "exit 0"])
            .strategy(strategy)
            .setsid(true)
            .current_dir("/")
            .stdin(Stdio::null())
            .fd(wn, r)
            .fd(rn, w)
            .reset_signals(&[libc::SIGINT])
            .signal_mask(&[libc::SIGUSR1])
            .close_fds(true);
        assert!(c.status().unwrap().success(), "{strategy}");
        let dir = std::fs::File::open("/").unwrap();
        let status = Command::new(true_program())
            .strategy(strategy)
            .process_group(0)
            .current_dir_fd(dir)
            .status()
            .unwrap();
        assert!(status.success(), "{strategy}");
        let e = Command::new("/nonexistent/program")
            .strategy(strategy)
            .spawn()
            .unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ENOENT), "{strategy}");
        // SAFETY: getuid cannot fail; ids (own ones) need a fork.
        let uid = unsafe { libc::getuid() };
        if matches!(strategy, Strategy::Auto | Strategy::Fork) {
            assert!(Command::new(true_program())
                .strategy(strategy)
                .uid(uid)
                .status()
                .unwrap()
                .success());
        }
        used.push(strategy.name());
    }
    println!("spawned under {used:?}");
}
