//! Integration tests of `spawnmatrix::spawn`: every behaviour is checked with every strategy
//! (a strategy this platform lacks must refuse with `Unsupported`). Tests run one at a time
//! (`serial()`), because the no-zombie checks look at all of this process's children. It is a
//! test of the tool, not of the library, because what the child saw comes from the C child
//! helper's report, which only the tool builds.

use std::ffi::OsStr;
use std::fs;
use std::io::ErrorKind;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use rstest::rstest;
use rstest_reuse::apply;
mod support;
#[path = "support/trampoline.rs"]
mod trampoline;

use spawnmatrix::child::ChildState;
use spawnmatrix::spawn::os::unix::process::{CommandExt, ExitStatusExt};
use spawnmatrix::spawn::{Command, Output, Stdio, Strategy};
use support::*;

/// `Command::output`, or `None` after checking the refusal of an unavailable strategy.
fn output_or_refused(c: &mut Command, strategy: Strategy) -> Option<Output> {
    match c.output() {
        Err(e) if !strategy.is_available() => {
            assert_eq!(e.kind(), ErrorKind::Unsupported, "{e}");
            None
        }
        r => Some(r.expect("output")),
    }
}

/// A file at `dir/name` with `contents` and `mode`.
fn file(dir: &Path, name: &str, contents: &str, mode: u32) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(&p, contents).unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(mode)).unwrap();
    p
}

/// The calling thread's signal mask.
fn thread_mask() -> Vec<i32> {
    let mut set: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: querying the mask into `set`.
    assert_eq!(
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, std::ptr::null(), &mut set) },
        0
    );
    (1..65)
        .filter(|&s| unsafe { libc::sigismember(&set, s) } == 1)
        .collect()
}

/// Sets the calling thread's mask to exactly `signals`.
fn set_thread_mask(signals: &[i32]) {
    let mut set: libc::sigset_t = unsafe { std::mem::zeroed() };
    unsafe {
        libc::sigemptyset(&mut set);
        for &s in signals {
            libc::sigaddset(&mut set, s);
        }
        assert_eq!(
            libc::pthread_sigmask(libc::SIG_SETMASK, &set, std::ptr::null_mut()),
            0
        );
    }
}

#[apply(every_strategy)]
fn missing_program_is_enoent_with_no_child(
    strategy: Strategy,
    #[values("/nonexistent/program", "spawnmatrix-no-such-program")] program: &str,
) {
    let _g = serial();
    let Some(r) = spawn_or_refused(&mut command(program, strategy), strategy) else {
        return;
    };
    let e = r.expect_err("a missing program must be an error");
    assert_eq!(e.kind(), ErrorKind::NotFound);
    assert_eq!(e.raw_os_error(), Some(libc::ENOENT));
    assert_no_children();
}

#[apply(every_strategy)]
#[case::not_executable("#!/bin/sh\nexit 0\n", 0o644, libc::EACCES)]
#[case::no_shebang("this is not a program\n", 0o755, libc::ENOEXEC)]
fn exec_errors_are_returned_with_no_child(
    strategy: Strategy,
    #[case] contents: &str,
    #[case] mode: u32,
    #[case] errno: i32,
) {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let prog = file(dir.path(), "prog", contents, mode);
    let Some(r) = spawn_or_refused(&mut command(&prog, strategy), strategy) else {
        return;
    };
    assert_eq!(r.expect_err("must fail").raw_os_error(), Some(errno));
    assert_no_children();
    // The same through a PATH search: EACCES is remembered past later misses; ENOEXEC stops.
    let mut c = command("prog", strategy);
    c.env(
        "PATH",
        format!("/nonexistent:{}:/nonexistent2", dir.path().display()),
    );
    let r = c.spawn();
    assert_eq!(r.expect_err("must fail").raw_os_error(), Some(errno));
    assert_no_children();
}

#[apply(every_strategy)]
#[case::program("a\0b", &[], None, None)]
#[case::argument("sh", &["-c", "x\0y"], None, None)]
#[case::env_key("sh", &[], Some(("K\0", "v")), None)]
#[case::env_value("sh", &[], Some(("K", "v\0")), None)]
#[case::cwd("sh", &[], None, Some("/tmp\0x"))]
fn nul_byte_is_invalid_input_before_spawning(
    strategy: Strategy,
    #[case] program: &str,
    #[case] args: &[&str],
    #[case] env: Option<(&str, &str)>,
    #[case] cwd: Option<&str>,
) {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let mut c = command(program, strategy);
    c.args(args)
        .arg("-c")
        .arg(format!("touch {}", marker.display()));
    if let Some((k, v)) = env {
        c.env(k, v);
    }
    if let Some(d) = cwd {
        c.current_dir(d);
    }
    let e = c.spawn().expect_err("a NUL byte must be rejected");
    assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
    assert!(e.to_string().contains("nul byte"), "{e}");
    assert!(!marker.exists());
    assert_no_children();
}

#[rstest]
fn empty_program_is_enoent() {
    let _g = serial();
    let e = Command::new("").spawn().expect_err("must fail");
    assert_eq!(e.raw_os_error(), Some(libc::ENOENT));
    assert_no_children();
}

#[apply(every_strategy)]
fn missing_directory_is_an_error_and_nothing_runs(strategy: Strategy) {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let mut c = command("/bin/sh", strategy);
    c.arg("-c")
        .arg(format!("touch {}", marker.display()))
        .current_dir(dir.path().join("missing"));
    let Some(r) = spawn_or_refused(&mut c, strategy) else {
        return;
    };
    assert_eq!(r.expect_err("must fail").raw_os_error(), Some(libc::ENOENT));
    assert!(!marker.exists());
    assert_no_children();
}

#[apply(every_strategy)]
fn parent_cwd_and_mask_unchanged_after_1000_spawns(strategy: Strategy) {
    let _g = serial();
    if !strategy.is_available() {
        return;
    }
    let before_mask = thread_mask();
    set_thread_mask(&[libc::SIGUSR2, libc::SIGWINCH]);
    let cwd = std::env::current_dir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for i in 0..1000 {
        let mut c = command(true_program(), strategy);
        if i % 2 == 1 {
            c.current_dir(dir.path().join("missing"));
            assert!(c.spawn().is_err());
        } else {
            c.current_dir(dir.path());
            assert!(c.status().unwrap().success());
        }
    }
    assert_eq!(std::env::current_dir().unwrap(), cwd);
    assert_eq!(thread_mask(), vec![libc::SIGUSR2, libc::SIGWINCH]);
    set_thread_mask(&before_mask);
    assert_no_children();
}

#[apply(every_strategy)]
fn relative_program_is_resolved_in_the_new_directory(
    strategy: Strategy,
    #[values(false, true)] by_fd: bool,
) {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    file(
        dir.path(),
        "sub/prog",
        "#!/bin/sh\necho in-new-dir\n",
        0o755,
    );
    let mut c = command("sub/prog", strategy);
    if by_fd {
        c.current_dir_fd(fs::File::open(dir.path()).unwrap());
    } else {
        c.current_dir(dir.path());
    }
    c.stdout(Stdio::piped());
    let Some(r) = spawn_or_refused(&mut c, strategy) else {
        return;
    };
    let out = r.unwrap().wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, b"in-new-dir\n");
}

#[apply(every_strategy)]
#[case::absolute_entry(true, false)]
#[case::relative_entry_in_new_cwd(false, true)]
fn bare_name_is_searched_in_the_childs_path(
    strategy: Strategy,
    #[case] absolute: bool,
    #[case] set_cwd: bool,
) {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    file(
        dir.path(),
        "bin/spawnmatrix-test-prog",
        "#!/bin/sh\necho found\n",
        0o755,
    );
    let entry = if absolute {
        dir.path().join("bin")
    } else {
        PathBuf::from("bin")
    };
    let mut c = command("spawnmatrix-test-prog", strategy);
    c.env("PATH", &entry).stdout(Stdio::piped());
    if set_cwd {
        c.current_dir(dir.path());
    }
    let Some(r) = spawn_or_refused(&mut c, strategy) else {
        return;
    };
    let out = r.unwrap().wait_with_output().unwrap();
    assert_eq!(out.stdout, b"found\n");
}

#[apply(every_strategy)]
fn without_path_the_default_path_is_searched(strategy: Strategy) {
    let _g = serial();
    let mut c = command("sh", strategy);
    c.env_clear().args(["-c", "echo \"$PATH|ok\""]);
    let Some(out) = output_or_refused(&mut c, strategy) else {
        return;
    };
    // sh sets no PATH of its own here, so the child saw none: the program came from the
    // default /bin:/usr/bin.
    assert!(
        out.stdout.ends_with(b"|ok\n"),
        "{:?}",
        OsStr::from_bytes(&out.stdout)
    );
}

#[apply(every_strategy)]
fn output_captures_stdout_and_stderr(strategy: Strategy) {
    let _g = serial();
    let big = "x".repeat(100_000);
    let mut c = command("/bin/sh", strategy);
    c.args(["-c", "printf %s \"$1\"; printf err >&2; exit 3", "sh", &big]);
    let Some(out) = output_or_refused(&mut c, strategy) else {
        return;
    };
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(out.stdout, big.as_bytes());
    assert_eq!(out.stderr, b"err");
    assert_no_children();
}

#[apply(every_strategy)]
fn piped_stdin_reaches_the_child(strategy: Strategy) {
    use std::io::Write;
    let _g = serial();
    let mut c = command(on_path("cat"), strategy);
    c.stdin(Stdio::piped()).stdout(Stdio::piped());
    let Some(r) = spawn_or_refused(&mut c, strategy) else {
        return;
    };
    let mut child = r.unwrap();
    child.stdin.take().unwrap().write_all(b"hello").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.stdout, b"hello");
}

#[rstest]
fn kill_and_try_wait() {
    let _g = serial();
    let mut child = Command::new(on_path("sleep")).arg("10").spawn().unwrap();
    assert_eq!(child.try_wait().unwrap(), None);
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    assert_eq!(
        std::process::ExitStatus::from(status).to_string(),
        status.to_string()
    );
    child.kill().unwrap();
    assert_no_children();
}

// ---- What the child saw, through the child helper ----

/// A new file in `dir` and its inode.
fn file_with_ino(dir: &Path, name: &str) -> (OwnedFd, u64) {
    let f = fs::File::create(dir.join(name)).unwrap();
    let ino = f.metadata().unwrap().ino();
    (f.into(), ino)
}

#[apply(every_strategy)]
fn only_stdio_and_mapped_fds_reach_the_child(strategy: Strategy) {
    let _g = serial();
    cloexec_all_inherited();
    let dir = tempfile::tempdir().unwrap();
    let (a, a_ino) = file_with_ino(dir.path(), "a");
    let (b, b_ino) = file_with_ino(dir.path(), "b");
    let b_inheritable = dup_inheritable(&b);
    let (mut c, report) = helper(strategy);
    c.fd(5, a).fd(9, b_inheritable);
    let Some(state) = observe((&mut c, report), strategy) else {
        return;
    };
    let fds: Vec<i32> = state.fds.iter().map(|f| f.fd).collect();
    assert_eq!(fds, vec![0, 1, 2, 5, 9]);
    assert_eq!(state.fd(5).unwrap().ino, a_ino);
    assert_eq!(state.fd(9).unwrap().ino, b_ino);
    assert!(state.fds.iter().all(|f| !f.cloexec));
    drop(b);
    assert_no_children();
}

#[apply(every_strategy)]
fn permuted_fd_mappings_land_where_asked(strategy: Strategy) {
    let _g = serial();
    cloexec_all_inherited();
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<(OwnedFd, u64)> = (0..3)
        .map(|i| file_with_ino(dir.path(), &format!("f{i}")))
        .collect();
    let nums: Vec<i32> = files.iter().map(|(f, _)| f.as_raw_fd()).collect();
    let inos: Vec<u64> = files.iter().map(|(_, i)| *i).collect();
    // A 3-cycle over the parent's own numbers: child nums[i] gets file i+1; one file also
    // goes to a fourth number and to its own number.
    let extra = nums.iter().max().unwrap() + 3;
    let (mut c, report) = helper(strategy);
    c.fd(extra, dup_inheritable(&files[0].0));
    for (i, (f, _)) in files.into_iter().enumerate() {
        c.fd(nums[(i + 2) % 3], f);
    }
    let Some(state) = observe((&mut c, report), strategy) else {
        return;
    };
    for i in 0..3 {
        let got = state.fd(nums[(i + 2) % 3]).expect("mapped fd missing");
        assert_eq!(got.ino, inos[i], "child fd {} should be file {i}", got.fd);
        assert!(!got.cloexec);
    }
    assert_eq!(state.fd(extra).unwrap().ino, inos[0]);
    assert_eq!(state.fds.len(), 3 + 3 + 1);
}

#[apply(every_strategy)]
fn setsid_and_process_group_are_applied(strategy: Strategy, #[values(false, true)] setsid: bool) {
    let _g = serial();
    let (mut c, report) = helper(strategy);
    if setsid {
        c.setsid(true);
    } else {
        c.process_group(0);
    }
    let Some(state) = observe((&mut c, report), strategy) else {
        return;
    };
    assert_eq!(state.pgid, state.pid);
    // SAFETY: getsid(0) has no preconditions.
    let parent_sid = unsafe { libc::getsid(0) };
    if setsid {
        assert_eq!(state.sid, state.pid);
    } else {
        assert_eq!(state.sid, parent_sid);
    }
}

/// A handler that does nothing, to make a signal "caught".
extern "C" fn do_nothing(_: libc::c_int) {}

/// Sets `sig`'s disposition, returning the old one.
fn set_handler(sig: i32, handler: libc::sighandler_t) -> libc::sighandler_t {
    // SAFETY: installing SIG_IGN, SIG_DFL or a handler that does nothing.
    unsafe { libc::signal(sig, handler) }
}

#[apply(every_strategy)]
fn signal_mask_and_dispositions_seen_by_the_child(
    strategy: Strategy,
    #[values(None, Some(libc::SIGHUP))] mask: Option<i32>,
) {
    let _g = serial();
    let before_mask = thread_mask();
    set_thread_mask(&[libc::SIGUSR1]);
    let old = [
        (libc::SIGUSR2, set_handler(libc::SIGUSR2, libc::SIG_IGN)),
        (libc::SIGTERM, set_handler(libc::SIGTERM, libc::SIG_IGN)),
        (
            libc::SIGINT,
            set_handler(libc::SIGINT, do_nothing as *const () as libc::sighandler_t),
        ),
    ];
    let (mut c, report) = helper(strategy);
    c.reset_signals(&[libc::SIGUSR2]);
    if let Some(m) = mask {
        c.signal_mask(&[m]);
    }
    let state = observe((&mut c, report), strategy);
    for (sig, h) in old {
        set_handler(sig, h);
    }
    assert_eq!(thread_mask(), vec![libc::SIGUSR1]);
    set_thread_mask(&before_mask);
    let Some(state) = state else {
        return;
    };
    let want_mask = if mask.is_some() { "SIGHUP" } else { "SIGUSR1" };
    assert_eq!(state.sigmask, vec![want_mask.to_string()]);
    assert!(
        state.ignored.contains(&"SIGTERM".to_string()),
        "{:?}",
        state.ignored
    );
    assert!(!state.ignored.contains(&"SIGUSR2".to_string()));
    assert!(!state.ignored.contains(&"SIGPIPE".to_string()));
    assert_eq!(state.handled, Vec::<String>::new());
}

#[apply(every_strategy)]
fn directory_argv_and_environment_seen_by_the_child(
    strategy: Strategy,
    #[values(false, true)] by_fd: bool,
) {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let (mut c, report) = helper(strategy);
    if by_fd {
        c.current_dir_fd(fs::File::open(&dir).unwrap());
    } else {
        c.current_dir(&dir);
    }
    c.env_clear()
        .env("ONLY", "this")
        .arg("--")
        .arg(OsStr::from_bytes(b"a\xffb"));
    let Some(state) = observe((&mut c, report), strategy) else {
        return;
    };
    assert_eq!(state.cwd.as_deref(), dir.to_str());
    assert_eq!(state.env, vec!["ONLY=this".to_string()]);
    let argv = state.argv_bytes();
    assert_eq!(argv.len(), 5);
    assert_eq!(argv[3..], [b"--".to_vec(), b"a\xffb".to_vec()]);
}

#[rstest]
fn command_and_child_can_move_between_threads_like_std() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Command>();
    send_sync::<spawnmatrix::spawn::Child>();
    send_sync::<Stdio>();
}

/// How a child-side step is made to fail.
#[derive(Debug, Clone, Copy)]
enum ChildFailure {
    /// `setpgid` into a group that does not exist.
    MissingGroup,
    /// `setpgid` after `setsid` (a session leader cannot move).
    GroupAfterSetsid,
    /// A target fd beyond any fd limit.
    HugeTarget,
    /// The same, with a permutation that needs a temporary copy.
    HugeTargetPermuted,
    /// `chdir` to a regular file.
    CwdIsFile,
    /// `fchdir` to a regular file.
    CwdFdIsFile,
}

#[apply(every_strategy)]
fn child_side_failures_return_their_errno(
    strategy: Strategy,
    #[values(
        ChildFailure::MissingGroup,
        ChildFailure::GroupAfterSetsid,
        ChildFailure::HugeTarget,
        ChildFailure::HugeTargetPermuted,
        ChildFailure::CwdIsFile,
        ChildFailure::CwdFdIsFile
    )]
    failure: ChildFailure,
) {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let (regular, _) = file_with_ino(dir.path(), "regular");
    let mut c = command("/bin/sh", strategy);
    c.arg("-c").arg(format!("touch {}", marker.display()));
    let errno = match failure {
        ChildFailure::MissingGroup => {
            c.process_group(0x3fff_fff0);
            libc::EPERM
        }
        ChildFailure::GroupAfterSetsid => {
            c.setsid(true).process_group(0);
            libc::EPERM
        }
        ChildFailure::HugeTarget => {
            c.fd(1 << 30, regular);
            libc::EBADF
        }
        ChildFailure::HugeTargetPermuted => {
            let n = regular.as_raw_fd();
            c.fd(1 << 30, dup_inheritable(&regular)).fd(n + 1, regular);
            let (other, _) = file_with_ino(dir.path(), "other");
            c.fd(n, other);
            libc::EBADF
        }
        ChildFailure::CwdIsFile => {
            c.current_dir(dir.path().join("regular"));
            libc::ENOTDIR
        }
        ChildFailure::CwdFdIsFile => {
            c.current_dir_fd(regular);
            libc::ENOTDIR
        }
    };
    let Some(r) = spawn_or_refused(&mut c, strategy) else {
        return;
    };
    let e = r.expect_err("the child-side step must fail");
    assert_eq!(e.raw_os_error(), Some(errno), "{e}");
    assert!(!marker.exists());
    assert_no_children();
}

/// Auto takes the first available strategy in its order (on Linux clone3, clone_vfork,
/// posix_spawn, fork; elsewhere posix_spawn, fork). Which are available depends on the kernel
/// and sandbox (`ci/checks/47-sandbox-profiles.sh` runs this suite under seccomp profiles).
#[rstest]
fn auto_takes_the_fastest_strategy_available_here() {
    let _g = serial();
    let available = Strategy::available();
    assert_eq!(available.first(), Some(&Strategy::Auto));
    assert!(available.contains(&Strategy::Fork));
    assert!(!available.contains(&Strategy::Vfork));
    let mut child = Command::new(true_program()).spawn().unwrap();
    assert!(child.wait().unwrap().success());
    let order: &[Strategy] = if cfg!(target_os = "linux") {
        &[
            Strategy::Clone3,
            Strategy::CloneVfork,
            Strategy::PosixSpawn,
            Strategy::Fork,
        ]
    } else {
        &[Strategy::PosixSpawn, Strategy::Fork]
    };
    let want = order.iter().find(|s| available.contains(s)).unwrap();
    assert_eq!(child.strategy(), *want);
}

#[apply(every_strategy)]
fn environment_changes_apply_to_the_parents_environment(strategy: Strategy) {
    let _g = serial();
    let (mut c, report) = helper(strategy);
    c.env_remove("HOME").env("SPAWNMATRIX_ADDED", "yes");
    let Some(state) = observe((&mut c, report), strategy) else {
        return;
    };
    assert_eq!(state.env_var("HOME"), None);
    assert_eq!(state.env_var("SPAWNMATRIX_ADDED"), Some("yes"));
    let path = std::env::var("PATH").ok();
    assert_eq!(state.env_var("PATH"), path.as_deref());
}

/// `std::env::set_var` is safe to call (edition 2021) while another thread spawns: std holds
/// its environment lock over the spawn. A spawn that passes the live `environ` array to the
/// child races with the `realloc` a growing environment does, and the child reads freed memory
/// (`EFAULT` from `execve`, or a corrupt environment).
#[apply(every_strategy)]
fn environment_growing_in_another_thread_does_not_break_spawns(strategy: Strategy) {
    let _g = serial();
    if !strategy.is_available() {
        return;
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut i = 0u32;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                // Adding many new names grows (reallocates) the environ array; removing them
                // shrinks it again so the test can repeat.
                std::env::set_var(format!("SPAWNMATRIX_RACE_{}", i % 512), "x");
                if i % 512 == 511 {
                    for j in 0..512 {
                        std::env::remove_var(format!("SPAWNMATRIX_RACE_{j}"));
                    }
                }
                i = i.wrapping_add(1);
            }
        })
    };
    let mut failures = Vec::new();
    for _ in 0..100 {
        match command(true_program(), strategy).status() {
            Ok(s) if s.success() => {}
            other => failures.push(format!("{other:?}")),
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    for j in 0..512 {
        std::env::remove_var(format!("SPAWNMATRIX_RACE_{j}"));
    }
    assert!(
        failures.is_empty(),
        "{} failed: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    assert_no_children();
}

/// Many threads spawn at once (each with piped stdout and a mapped fd) while other threads
/// open and close files: every spawn works, its child sees exactly stdio and its mapped fd,
/// and no process is left behind.
#[apply(every_strategy)]
fn concurrent_spawns_while_other_threads_open_and_close_fds(strategy: Strategy) {
    let _g = serial();
    if !strategy.is_available() {
        return;
    }
    cloexec_all_inherited();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let churn: Vec<_> = (0..2)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let files: Vec<fs::File> = (0..8)
                        .map(|_| fs::File::open("/dev/null").unwrap())
                        .collect();
                    drop(files);
                }
            })
        })
        .collect();
    let spawners: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(move || {
                for _ in 0..20 {
                    // The child helper lists its fds (through /proc/self/fd on Linux, a
                    // scan elsewhere): stdio and the mapped 7, nothing else.
                    let (mut c, report) = helper(strategy);
                    c.fd(7, fs::File::open("/dev/null").unwrap())
                        .stdout(Stdio::piped());
                    let out = c.output().expect("spawn");
                    assert!(out.status.success(), "helper: {}", out.status);
                    let state = ChildState::read(report.path()).unwrap();
                    assert_eq!(fd_numbers(&state), [0, 1, 2, 7]);
                }
            })
        })
        .collect();
    let results: Vec<_> = spawners.into_iter().map(|t| t.join()).collect();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for t in churn {
        t.join().unwrap();
    }
    assert!(
        results.iter().all(|r| r.is_ok()),
        "a spawning thread failed"
    );
    assert_no_children();
}

/// `execvp` skips a `PATH` entry too long to make a path of (glibc and musl check the length
/// before trying it); such an entry must not stop the search with `ENAMETOOLONG`.
#[apply(every_strategy)]
fn overlong_path_entry_is_skipped(strategy: Strategy) {
    let _g = serial();
    let long = format!("/{}", "x".repeat(5000));
    let true_dir = true_program().parent().unwrap().to_owned();
    let mut c = command("true", strategy);
    c.env("PATH", format!("{long}:{}", true_dir.display()));
    let Some(r) = spawn_or_refused(&mut c, strategy) else {
        return;
    };
    assert!(r
        .expect("true must be found after the long entry")
        .wait()
        .unwrap()
        .success());
    assert_no_children();
}

/// Every way a spawn can fail after its pipes, `/dev/null` and temporary copies were made
/// leaves the parent's fd table as it was.
#[apply(every_strategy)]
fn failed_spawns_leak_no_fd(strategy: Strategy) {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let regular = file(dir.path(), "regular", "", 0o644);
    let before = open_fds();
    for case in 0..6 {
        let mut c = command(true_program(), strategy);
        c.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let f = fs::File::open(&regular).unwrap();
        let n = f.as_raw_fd();
        // A permutation, so temporary copies are made too.
        c.fd(n + 1, f).fd(n, fs::File::open(&regular).unwrap());
        match case {
            0 => {
                c.current_dir(dir.path().join("missing"));
            }
            1 => {
                c.fd(-1, fs::File::open(&regular).unwrap());
            }
            2 => {
                c.arg("a\0b");
            }
            3 => {
                c.fd(1 << 30, fs::File::open(&regular).unwrap());
            }
            4 => {
                c = command("/nonexistent", strategy);
                c.stdout(Stdio::piped())
                    .fd(7, fs::File::open(&regular).unwrap());
            }
            _ => {
                c.process_group(0x3fff_fff0);
            }
        }
        assert!(c.spawn().is_err(), "case {case} must fail");
        drop(c);
        assert_eq!(open_fds(), before, "case {case} leaked an fd");
    }
    assert_no_children();
}

/// Where this crate has no clone3 trampoline (i686 here), a forced `Clone3` says so, not that
/// the kernel refuses clone3; `caps` keeps the kernel's answer (`clone3`) apart from the
/// crate's (`crate.clone3`).
#[cfg(target_os = "linux")]
#[rstest]
fn forced_clone3_without_a_trampoline_names_the_crate() {
    let _g = serial();
    let caps = spawnmatrix::spawn::caps::detect();
    let ours = &caps["crate.clone3"];
    let has = trampoline::CLONE3_TRAMPOLINE;
    assert_eq!(ours.available, has, "{ours:?}");
    if has {
        return;
    }
    assert!(!Strategy::Clone3.is_available());
    let e = Command::new("/bin/true")
        .strategy(Strategy::Clone3)
        .spawn()
        .expect_err("no trampoline: no clone3");
    assert_eq!(e.kind(), ErrorKind::Unsupported, "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("this crate has no clone3 support on this architecture"),
        "{msg}"
    );
    assert!(!msg.contains("kernel"), "{msg}");
    assert_no_children();
}
