//! The C child helper, spawned with `std::process`, reports what it was given.

use std::ffi::OsStr;
use std::fs::OpenOptions;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};

use spawnmatrix::child::{helper_path, true_path, Access, ChildState, FdType};

/// The fd number the test gives the child without close-on-exec.
const INHERITED_FD: i32 = 37;

#[test]
fn reports_what_it_was_given() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let data = dir.path().join("data");
    std::fs::write(&data, b"0123456789").unwrap();
    // std opens files close-on-exec: `kept` reaches the child only as INHERITED_FD.
    let kept = OpenOptions::new()
        .append(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&data)
        .unwrap();
    let kept_fd = kept.as_raw_fd();
    let non_utf8 = OsStr::from_bytes(b"caf\xe9 \"q\"");
    let mut cmd = Command::new(helper_path().unwrap());
    cmd.arg("--report")
        .arg(&report)
        .args(["--exit", "7", "--", "plain"])
        .arg(non_utf8)
        .env_clear()
        .env("SPAWNMATRIX_TEST", "v=1")
        .current_dir(dir.path())
        .stdin(Stdio::null());
    // SAFETY: only async-signal-safe calls (dup2, sigprocmask, signal, kill) on stack data.
    // SIGUSR1 is blocked, then sent: it stays pending through the exec.
    unsafe {
        cmd.pre_exec(move || {
            let mut set: libc::sigset_t = std::mem::zeroed();
            if libc::dup2(kept_fd, INHERITED_FD) == -1
                || libc::sigemptyset(&mut set) != 0
                || libc::sigaddset(&mut set, libc::SIGUSR1) != 0
                || libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0
                || libc::signal(libc::SIGUSR2, libc::SIG_IGN) == libc::SIG_ERR
                || libc::kill(libc::getpid(), libc::SIGUSR1) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let pid = child.id() as i32;
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(7));

    let s = ChildState::read(&report).unwrap();
    assert_eq!(s.errors, Vec::<String>::new());
    assert_eq!(s.pid, pid);
    assert_eq!(s.ppid, std::process::id() as i32);
    let argv = s.argv_bytes();
    assert_eq!(argv.len(), 8);
    assert_eq!(
        &argv[5..],
        &[b"--".to_vec(), b"plain".to_vec(), b"caf\xe9 \"q\"".to_vec()]
    );
    assert_eq!(s.argv[7], "caf\u{e9} \"q\"");
    assert_eq!(s.env, vec!["SPAWNMATRIX_TEST=v=1".to_string()]);
    assert_eq!(s.env_var("SPAWNMATRIX_TEST"), Some("v=1"));
    let cwd = std::fs::canonicalize(dir.path()).unwrap();
    assert_eq!(s.cwd.as_deref(), cwd.to_str());

    let fds: Vec<i32> = s.fds.iter().map(|f| f.fd).collect();
    assert!(
        !fds.contains(&kept_fd),
        "close-on-exec fd {kept_fd} leaked: {fds:?}"
    );
    let inherited = s.fd(INHERITED_FD).expect("the dup2'd fd is inherited");
    assert_eq!(
        (
            inherited.cloexec,
            inherited.access,
            inherited.append,
            inherited.nonblock
        ),
        (false, Access::Write, true, true)
    );
    assert_eq!(inherited.kind, FdType::Reg);
    assert_eq!(inherited.offset, Some(0));
    if proc_mounted() {
        assert_eq!(inherited.target.as_deref(), cwd.join("data").to_str());
    } else if cfg!(target_os = "linux") {
        skip("the fd's target");
    }
    // Exactly stdio, the one inherited fd and what this test process itself inherited
    // without close-on-exec: nothing of the helper's own.
    let mut expected = inheritable_fds();
    expected.extend([0, 1, 2, INHERITED_FD]);
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(fds, expected);
    assert!(
        s.sigmask.contains(&"SIGUSR1".to_string()),
        "{:?}",
        s.sigmask
    );
    assert!(
        s.ignored.contains(&"SIGUSR2".to_string()),
        "{:?}",
        s.ignored
    );
    assert_eq!(s.handled, Vec::<String>::new());
    assert_eq!(s.pending, ["SIGUSR1"]);
    match &s.kernel_signals {
        Some(kernel) => {
            assert_eq!(kernel.pending, [libc::SIGUSR1]);
            assert!(kernel.blocked.contains(&libc::SIGUSR1), "{kernel:?}");
            assert!(kernel.ignored.contains(&libc::SIGUSR2), "{kernel:?}");
            assert_eq!(kernel.caught, Vec::<i32>::new());
        }
        None if proc_mounted() => panic!("no kernel signal state on Linux"),
        None if cfg!(target_os = "linux") => skip("the kernel's signal state"),
        None => println!("no kernel signal state here (not Linux)"),
    }
}

/// Whether this is Linux with /proc mounted, where the helper reads an fd's target and the
/// kernel's signal state (a bare root mounts none, and then the helper reports neither).
fn proc_mounted() -> bool {
    // portable-path: asked, not assumed (false where there is none)
    cfg!(target_os = "linux") && std::path::Path::new("/proc/self/status").exists()
}

/// Prints, uncaptured (so a bare run's log counts it), that `what` was not checked.
fn skip(what: &str) {
    use std::io::Write as _;
    let why = "the helper reads it from /proc, and none is mounted"; // portable-path: a message
    let _ = writeln!(
        std::io::stderr(),
        "skipped: reports_what_it_was_given: {what}: {why}"
    );
}

/// The fds of this process that a child inherits (no close-on-exec flag). Rust opens every
/// fd close-on-exec, so other test threads cannot change this set.
fn inheritable_fds() -> Vec<i32> {
    (0..4096)
        // SAFETY: F_GETFD only reads the fd's flags.
        .filter(|&fd| {
            let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
            flags != -1 && flags & libc::FD_CLOEXEC == 0
        })
        .collect()
}

#[test]
fn reads_and_writes_fds_and_reports_on_stdout() {
    let out = Command::new(helper_path().unwrap())
        .args([
            "--read-fd",
            "0",
            "--write-fd",
            "2:to-stderr",
            "--write-fd",
            "9:x",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"in\xffput")?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    assert_eq!(out.stderr, b"to-stderr");
    let s = ChildState::parse(std::str::from_utf8(&out.stdout).unwrap()).unwrap();
    assert_eq!(s.reads[&0], "in\u{ff}put");
    assert_eq!(s.writes[&2], "ok");
    assert_eq!(s.writes[&9], "EBADF");
    assert_eq!(s.fd(0).unwrap().kind, FdType::Fifo);
    assert_eq!(s.fd(0).unwrap().offset, None);
}

#[rstest::rstest]
#[case("SIGTERM", libc::SIGTERM)]
#[case("USR1", libc::SIGUSR1)]
fn raise_ends_with_the_signal(#[case] name: &str, #[case] signal: i32) {
    let status = Command::new(helper_path().unwrap())
        .args(["--raise", name])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.signal(), Some(signal));
}

#[test]
fn bad_options_are_reported_not_ignored() {
    let out = Command::new(helper_path().unwrap())
        .args(["--exit", "300", "--read-fd", "x"])
        .output()
        .unwrap();
    let s = ChildState::parse(std::str::from_utf8(&out.stdout).unwrap()).unwrap();
    assert_eq!(s.errors.len(), 2, "{:?}", s.errors);
    assert!(s.errors[0].contains("--exit"), "{:?}", s.errors);
}

#[test]
fn true_program_exits_zero() {
    let status = Command::new(true_path().unwrap()).status().unwrap();
    assert_eq!(status.code(), Some(0));
}

/// What a spawn can change besides fds: a closed stdout (the report fd must not show up
/// although it then takes number 1), a deleted cwd, umask, RLIMIT_NOFILE and the scheduler.
#[cfg(target_os = "linux")]
#[test]
fn reports_closed_stdout_deleted_cwd_umask_rlimit_and_sched() {
    let dir = tempfile::tempdir().unwrap();
    let gone = dir.path().join("gone");
    std::fs::create_dir(&gone).unwrap();
    let gone_c = std::ffi::CString::new(gone.as_os_str().as_bytes()).unwrap();
    let report = dir.path().join("report.json");
    // SAFETY: sched_param is plain data; all zero is priority 0 (what SCHED_BATCH needs).
    let param: libc::sched_param = unsafe { std::mem::zeroed() };
    let mut cmd = Command::new(helper_path().unwrap());
    cmd.arg("--report").arg(&report).current_dir(&gone);
    // SAFETY: only async-signal-safe syscalls on data prepared before the fork.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: 64,
                rlim_max: 64,
            };
            libc::umask(0o027);
            if libc::rmdir(gone_c.as_ptr()) != 0
                || libc::close(1) != 0
                || libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0
                // The raw syscall: musl's sched_setscheduler always fails with ENOSYS.
                || libc::syscall(libc::SYS_sched_setscheduler, 0, libc::SCHED_BATCH, &param) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let status = cmd.status().unwrap();
    assert!(status.success());
    let s = ChildState::read(&report).unwrap();
    assert_eq!(s.errors, Vec::<String>::new());
    assert!(s.fd(1).is_none(), "{:?}", s.fds);
    assert_eq!(
        (s.cwd.as_deref(), s.cwd_errno.as_deref()),
        (None, Some("ENOENT"))
    );
    assert_eq!(s.umask, 0o027);
    assert_eq!(s.rlimit_nofile, [64, 64]);
    let sched = s.sched.unwrap();
    assert_eq!((sched.policy.as_str(), sched.priority), ("SCHED_BATCH", 0));
}
