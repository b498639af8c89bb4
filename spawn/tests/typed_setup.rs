//! `Command::rlimit` and `Command::umask`, under every strategy: the child sees them, an
//! invalid limit is the child's errno, and `posix_spawn`, which cannot express them, is
//! `Unsupported` (so `Auto` never picks it for them).

use std::io;

use rstest::rstest;
use spawnmatrix_spawn::{Command, Strategy};

/// A soft open-files limit no parent here starts with, so the child's report shows it was set.
const NOFILE_SOFT: libc::rlim_t = 123;

fn nofile_hard() -> libc::rlim_t {
    // SAFETY: getrlimit writes the struct.
    unsafe {
        let mut r: libc::rlimit = std::mem::zeroed();
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut r), 0);
        r.rlim_max
    }
}

/// A command reporting the child's core and open-files limits and its umask.
fn reporting(strategy: Strategy) -> Command {
    let mut c = Command::new("sh");
    c.args(["-c", "ulimit -c; ulimit -n; umask"])
        .rlimit(libc::RLIMIT_CORE, 0, 0)
        .rlimit(libc::RLIMIT_NOFILE, NOFILE_SOFT, nofile_hard())
        .umask(0o027)
        .strategy(strategy);
    c
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[cfg_attr(target_os = "linux", case(Strategy::Clone3))]
#[cfg_attr(target_os = "linux", case(Strategy::CloneVfork))]
fn the_child_gets_its_limits_and_umask(#[case] strategy: Strategy) {
    let child = match reporting(strategy)
        .stdout(spawnmatrix_spawn::Stdio::piped())
        .spawn()
    {
        Err(e) if e.kind() == io::ErrorKind::Unsupported && strategy == Strategy::Clone3 => {
            eprintln!("clone3 refused here: {e}");
            return;
        }
        r => r.expect("spawn"),
    };
    let used = child.strategy();
    assert_ne!(
        used,
        Strategy::PosixSpawn,
        "{strategy}: posix_spawn cannot set them"
    );
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success(), "{strategy}: {out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("0\n{NOFILE_SOFT}\n0027\n"),
        "{strategy} (used {used}): core, nofile, umask as the child saw them"
    );
}

#[rstest]
#[case(Strategy::Auto)]
#[case(Strategy::Fork)]
#[cfg_attr(target_os = "linux", case(Strategy::Clone3))]
#[cfg_attr(target_os = "linux", case(Strategy::CloneVfork))]
fn an_invalid_limit_is_the_childs_einval(#[case] strategy: Strategy) {
    let err = Command::new("true")
        .rlimit(libc::RLIMIT_NOFILE, 10, 5)
        .strategy(strategy)
        .status()
        .expect_err("soft above hard must fail the spawn");
    if err.kind() == io::ErrorKind::Unsupported && strategy == Strategy::Clone3 {
        return;
    }
    assert_eq!(err.raw_os_error(), Some(libc::EINVAL), "{strategy}: {err}");
}

#[rstest]
#[case::rlimit(true, false, "resource limits")]
#[case::umask(false, true, "umask")]
fn forced_posix_spawn_is_unsupported(
    #[case] rlimit: bool,
    #[case] umask: bool,
    #[case] names: &str,
) {
    let mut c = Command::new("true");
    if rlimit {
        c.rlimit(libc::RLIMIT_CORE, 0, 0);
    }
    if umask {
        c.umask(0o077);
    }
    let err = c.strategy(Strategy::PosixSpawn).status().unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::Unsupported, "{err}");
    assert!(err.to_string().contains(names), "{err}");
}
