//! `spawn::Command` refuses bad input before anything is spawned, for every strategy: no
//! child appears, no fd is left behind, the parent's cwd is unchanged.

use std::io;
use std::os::fd::OwnedFd;

use spawnmatrix::spawn::{Command, InputError, Strategy};

use super::subprocess::isolated;

/// Every strategy the caller can force (`Vfork` is never offered).
const STRATEGIES: [Strategy; 5] = [
    Strategy::Auto,
    Strategy::PosixSpawn,
    Strategy::Clone3,
    Strategy::CloneVfork,
    Strategy::Fork,
];

fn dev_null() -> OwnedFd {
    std::fs::File::open("/dev/null").expect("/dev/null").into()
}

/// The open fds of this process.
fn open_fds() -> Vec<i32> {
    (0..4096)
        // SAFETY: F_GETFD only queries.
        .filter(|fd| unsafe { libc::fcntl(*fd, libc::F_GETFD) } >= 0)
        .collect()
}

/// A bad request and the words its error must contain.
fn request(which: &str) -> (Command, &'static str) {
    let helper = spawnmatrix::child::helper_path().expect("child helper");
    match which {
        "program" => (Command::new("spawn\0matrix"), "program"),
        "arg" => {
            let mut c = Command::new(&helper);
            c.arg("a\0b");
            (c, "argument")
        }
        "env-key" => {
            let mut c = Command::new(&helper);
            c.env("K\0EY", "v");
            (c, "environment")
        }
        "env-value" => {
            let mut c = Command::new(&helper);
            c.env("KEY", "v\0v");
            (c, "environment")
        }
        "cwd" => {
            let mut c = Command::new(&helper);
            c.current_dir("/tmp\0x");
            (c, "directory")
        }
        "negative-fd" => {
            let mut c = Command::new(&helper);
            c.fd(-3, dev_null());
            (c, "negative")
        }
        "reset-sigkill" => {
            let mut c = Command::new(&helper);
            c.reset_signals(&[libc::SIGKILL]);
            (c, "signal")
        }
        "empty-program" => (Command::new(""), ""),
        other => panic!("no such request {other}"),
    }
}

/// One bad request with one strategy; panics with what went wrong.
fn refused(which: &str, strategy: Strategy) {
    let cwd = std::env::current_dir().unwrap();
    let (mut cmd, names) = request(which);
    let fds_before = open_fds();
    let err = cmd
        .strategy(strategy)
        .spawn()
        .expect_err("bad input was accepted");
    drop(cmd);
    if err.kind() == io::ErrorKind::Unsupported {
        // The strategy is not available here; that answer may come first.
        assert!(!strategy.is_available(), "{strategy}: {err}");
        return;
    }
    let what = format!("{which} with {strategy}");
    if which == "empty-program" {
        assert_eq!(err.raw_os_error(), Some(libc::ENOENT), "{what}: {err}");
    } else {
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{what}: {err}");
        let typed = err.get_ref().and_then(|e| e.downcast_ref::<InputError>());
        assert!(typed.is_some(), "{what}: not an InputError: {err:?}");
        assert!(
            err.to_string().contains(names),
            "{what}: the error does not say what is wrong: {err}"
        );
    }
    assert_eq!(
        std::env::current_dir().unwrap(),
        cwd,
        "{what}: the parent's cwd changed"
    );
    let after = open_fds();
    assert!(
        after.iter().all(|fd| fds_before.contains(fd)),
        "{what}: fds left behind: {after:?} (before: {fds_before:?})"
    );
    // No child exists, not even a zombie.
    // SAFETY: waitpid with WNOHANG and a valid status pointer.
    let r = unsafe { libc::waitpid(-1, &mut 0, libc::WNOHANG) };
    let errno = io::Error::last_os_error().raw_os_error();
    assert!(
        r == -1 && errno == Some(libc::ECHILD),
        "{what}: a child exists (waitpid gave {r})"
    );
}

/// Every bad request with every strategy, in a sub-process of its own: the checks look at the
/// whole process (its fds, its children), which parallel tests would disturb.
#[test]
fn refused_before_spawning() {
    isolated("spawn::refused_before_spawning", || {
        let _ = Strategy::available();
        for which in [
            "program",
            "arg",
            "env-key",
            "env-value",
            "cwd",
            "negative-fd",
            "reset-sigkill",
            "empty-program",
        ] {
            for strategy in STRATEGIES {
                refused(which, strategy);
            }
        }
    });
}
