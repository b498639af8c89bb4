//! An fd handed to a `Command` (`fd`, `current_dir_fd`) or made into a `Stdio` is
//! close-on-exec from that moment, not only from the spawn: a child that another thread
//! spawns in between (here with `std::process`, which inherits every fd without
//! `FD_CLOEXEC`) does not get it.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::Mutex;

use rstest::rstest;
use spawnmatrix_spawn::{Command, Stdio};

/// One case at a time: a number another case closed and reopened would confuse the check.
static SERIAL: Mutex<()> = Mutex::new(());

/// How the fd is handed over.
#[derive(Clone, Copy, Debug)]
enum Handover {
    Fd,
    CurrentDirFd,
    Stdio,
}

/// An inheritable fd (no `FD_CLOEXEC`): one end of a pipe, or `/` for `current_dir_fd`.
fn inheritable(dir: bool) -> OwnedFd {
    // SAFETY: open/pipe make new fds, owned below; the other pipe end is closed.
    unsafe {
        if dir {
            let fd = libc::open(c"/".as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
            assert!(fd >= 0);
            return OwnedFd::from_raw_fd(fd);
        }
        let mut fds = [0; 2];
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        libc::close(fds[0]);
        OwnedFd::from_raw_fd(fds[1])
    }
}

/// Whether a child spawned by another thread (std's `Command`) has fd `n` open.
fn open_in_child_of_other_thread(n: i32) -> bool {
    std::thread::spawn(move || {
        let script = format!("if true >&{n}; then echo open; else echo closed; fi");
        let out = std::process::Command::new("/bin/sh")
            .args(["-c", &script])
            .stderr(std::process::Stdio::null())
            .output()
            .unwrap();
        match String::from_utf8_lossy(&out.stdout).trim() {
            "open" => true,
            "closed" => false,
            other => panic!("unexpected: {other:?}"),
        }
    })
    .join()
    .unwrap()
}

#[rstest]
#[case(Handover::Fd)]
#[case(Handover::CurrentDirFd)]
#[case(Handover::Stdio)]
fn handed_over_fd_is_close_on_exec_at_once(#[case] how: Handover) {
    let _g = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let fd = inheritable(matches!(how, Handover::CurrentDirFd));
    let n = fd.as_raw_fd();
    assert!(
        open_in_child_of_other_thread(n),
        "the set-up fd must be inheritable"
    );
    let mut c = Command::new("true");
    let stdio = match how {
        Handover::Fd => {
            c.fd(9, fd);
            None
        }
        Handover::CurrentDirFd => {
            c.current_dir_fd(fd);
            None
        }
        Handover::Stdio => Some(Stdio::from(fd)),
    };
    assert!(
        !open_in_child_of_other_thread(n),
        "{how:?}: fd {n} reached a child spawned by another thread before this spawn"
    );
    drop((c, stdio));
}
