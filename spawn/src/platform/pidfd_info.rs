//! Which process a pidfd refers to (Linux), for `pidfd_spawn`, which returns a pidfd and no
//! pid. First the pidfd's own `PIDFD_GET_INFO` ioctl (Linux 6.13), which answers in this
//! process's pid namespace and needs no `/proc`; on an older kernel the pidfd's
//! `/proc/self/fdinfo`, whose `NSpid:` list is matched against this process's own, so a
//! `/proc` of an ancestor pid namespace still gives the pid as this process sees it.
//!
//! The struct and constants are the kernel's `include/uapi/linux/pidfd.h` (read at
//! torvalds/linux@212c4053): `struct pidfd_info`'s first published size
//! (`PIDFD_INFO_SIZE_VER0`, 64 bytes, `exit_code` in what 6.13 called `spare0`),
//! `PIDFD_INFO_PID` (bit 0), `PIDFD_INFO_EXIT` (bit 3, Linux 6.15) and
//! `PIDFD_GET_INFO = _IOWR(0xFF, 11, struct pidfd_info)`.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};

/// `struct pidfd_info` up to `PIDFD_INFO_SIZE_VER0`.
#[repr(C)]
#[derive(Default)]
struct PidfdInfo {
    mask: u64,
    cgroupid: u64,
    pid: u32,
    tgid: u32,
    ppid: u32,
    ids: [u32; 8],
    exit_code: i32,
}

const PIDFD_INFO_PID: u64 = 1 << 0;
const PIDFD_INFO_EXIT: u64 = 1 << 3;

/// `_IOC_READ | _IOC_WRITE` at its place in an ioctl number: 3 << 30 in the generic
/// encoding (`include/uapi/asm-generic/ioctl.h`); 6 << 29 where the direction has three
/// bits (powerpc, mips, sparc: their `asm/ioctl.h`).
const IOC_READ_WRITE: u32 = match cfg!(any(
    target_arch = "powerpc",
    target_arch = "powerpc64",
    target_arch = "mips",
    target_arch = "mips64",
    target_arch = "sparc",
    target_arch = "sparc64"
)) {
    true => 6 << 29,
    false => 3 << 30,
};

/// `PIDFD_GET_INFO` for a 64-byte struct.
const PIDFD_GET_INFO: u32 =
    IOC_READ_WRITE | ((std::mem::size_of::<PidfdInfo>() as u32) << 16) | (0xFF << 8) | 11;

/// What a pidfd says about its process.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Identity {
    /// Its pid in this process's pid namespace.
    Pid(libc::pid_t),
    /// It has been reaped already (its raw wait status, where the kernel keeps it: Linux
    /// 6.15).
    Reaped(Option<libc::c_int>),
}

/// The process behind `fd`, or an error when neither the ioctl nor a usable `/proc` can say.
pub(crate) fn identify(fd: &OwnedFd) -> io::Result<Identity> {
    match get_info(fd, PIDFD_INFO_PID | PIDFD_INFO_EXIT) {
        Ok(info) => Ok(from_info(&info)),
        // The process is reaped (a 6.13/6.14 kernel keeps no exit information).
        Err(e) if e.raw_os_error() == Some(libc::ESRCH) => Ok(Identity::Reaped(None)),
        // No such ioctl: a kernel before 6.13.
        Err(e) if matches!(e.raw_os_error(), Some(libc::ENOTTY | libc::EINVAL)) => {
            from_fdinfo(fd)
        }
        Err(e) => Err(e),
    }
}

/// The status of a reaped process, where the kernel kept it (`PIDFD_INFO_EXIT`, 6.15).
pub(crate) fn exit_status(fd: &OwnedFd) -> Option<libc::c_int> {
    let info = get_info(fd, PIDFD_INFO_EXIT).ok()?;
    (info.mask & PIDFD_INFO_EXIT != 0).then_some(info.exit_code)
}

fn get_info(fd: &OwnedFd, mask: u64) -> io::Result<PidfdInfo> {
    let mut info = PidfdInfo {
        mask,
        ..PidfdInfo::default()
    };
    // SAFETY: the ioctl writes at most the struct's size, which its number encodes.
    let rc = unsafe { libc::ioctl(fd.as_raw_fd(), PIDFD_GET_INFO as _, &mut info) };
    if rc == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(info)
}

fn from_info(info: &PidfdInfo) -> Identity {
    match (info.mask & PIDFD_INFO_PID, info.mask & PIDFD_INFO_EXIT) {
        (0, 0) => Identity::Reaped(None),
        (0, _) => Identity::Reaped(Some(info.exit_code)),
        _ => Identity::Pid(info.pid as libc::pid_t),
    }
}

/// From `/proc/self/fdinfo/FD`: `Pid: -1` once reaped; else the `NSpid:` entry at this
/// process's own namespace level (its own `NSpid:` in `/proc/self/status` has one entry per
/// level from the `/proc`'s namespace down to its own).
fn from_fdinfo(fd: &OwnedFd) -> io::Result<Identity> {
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{}", fd.as_raw_fd()))?;
    let own = std::fs::read_to_string("/proc/self/status")?;
    pid_in_fdinfo(&info, &own)
}

fn numbers(text: &str, field: &str) -> Option<Vec<i64>> {
    let line = text.lines().find_map(|l| l.strip_prefix(field))?;
    line.split_whitespace().map(|n| n.parse().ok()).collect()
}

/// The pid an fdinfo text gives for this process's namespace, `own` being this process's
/// `/proc/self/status` from the same `/proc`.
fn pid_in_fdinfo(info: &str, own: &str) -> io::Result<Identity> {
    let unknown = || {
        io::Error::other("the pidfd's fdinfo gives no pid in this process's pid namespace")
    };
    let pid = numbers(info, "Pid:").and_then(|v| v.first().copied()).ok_or_else(unknown)?;
    if pid == -1 {
        return Ok(Identity::Reaped(None));
    }
    let pid = match (numbers(info, "NSpid:"), numbers(own, "NSpid:")) {
        (Some(child), Some(me)) if !me.is_empty() => child.get(me.len() - 1).copied(),
        // A kernel without pid namespaces: one namespace, the /proc's own.
        _ => Some(pid),
    };
    match pid.and_then(|p| libc::pid_t::try_from(p).ok()) {
        Some(p) if p > 0 => Ok(Identity::Pid(p)),
        _ => Err(unknown()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn the_struct_is_the_first_published_size() {
        assert_eq!(std::mem::size_of::<PidfdInfo>(), 64);
        assert_eq!(std::mem::offset_of!(PidfdInfo, exit_code), 60);
    }

    #[rstest]
    // Same namespace as the /proc.
    #[case("Pid:\t42\nNSpid:\t42\n", "NSpid:\t7\n", Ok(Identity::Pid(42)))]
    // A /proc of the parent namespace: the second entries are this namespace's.
    #[case("Pid:\t4242\nNSpid:\t4242\t12\n", "NSpid:\t4200\t1\n", Ok(Identity::Pid(12)))]
    #[case("Pid:\t-1\nNSpid:\t-1\n", "NSpid:\t7\n", Ok(Identity::Reaped(None)))]
    // Not visible in the /proc's namespace.
    #[case("Pid:\t0\nNSpid:\t0\n", "NSpid:\t7\n", Err(()))]
    // No namespaces compiled in: the Pid line.
    #[case("Pid:\t42\n", "Pid:\t7\n", Ok(Identity::Pid(42)))]
    #[case("", "NSpid:\t7\n", Err(()))]
    fn fdinfo_gives_the_pid_of_this_namespace(
        #[case] info: &str,
        #[case] own: &str,
        #[case] want: Result<Identity, ()>,
    ) {
        assert_eq!(pid_in_fdinfo(info, own).map_err(drop), want);
    }

    /// On a kernel with the ioctl it gives the pid of a live child, as this process sees it.
    #[test]
    fn the_ioctl_names_a_live_child() {
        let mut child = std::process::Command::new("sleep").arg("10").spawn().unwrap();
        let fd = crate::platform::pidfd::open(child.id() as libc::pid_t).unwrap();
        let r = get_info(&fd, PIDFD_INFO_PID);
        child.kill().unwrap();
        child.wait().unwrap();
        match r {
            Ok(info) => assert_eq!(from_info(&info), Identity::Pid(child.id() as libc::pid_t)),
            Err(e) => {
                assert!(matches!(e.raw_os_error(), Some(libc::ENOTTY | libc::EINVAL)), "{e}");
                println!("no PIDFD_GET_INFO on this kernel: {e}");
            }
        }
    }
}
