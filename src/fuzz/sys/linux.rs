//! Linux (any libc): moving an fd with `dup3`, which sets `O_CLOEXEC` atomically; the open
//! fds from `/proc/self/fd`; fixtures on tmpfs.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

/// Duplicates `src` onto `target` with `FD_CLOEXEC` set in one step.
pub fn dup_cloexec_to(src: i32, target: i32) -> io::Result<()> {
    // SAFETY: plain syscall on caller-owned fds.
    if unsafe { libc::dup3(src, target, libc::O_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A pipe whose both ends are close-on-exec from the start.
pub fn pipe_cloexec() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two fds into the array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both fds were just created and are owned here only.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// This process's children (every thread's), from `/proc/self/task/*/children`; `None` when
/// the kernel does not provide that file.
pub fn live_children() -> Option<Vec<u32>> {
    let mut kids = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let list = std::fs::read_to_string(task.ok()?.path().join("children")).ok()?;
        kids.extend(
            list.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    Some(kids)
}

/// This process's open fds, ascending: the numbers `/proc/self/fd` lists, each confirmed with
/// `F_GETFD` once the listing's own fd is closed (one directory read instead of an `fcntl`
/// per possible fd up to `RLIMIT_NOFILE`). Falls back to `scan_fds` without `/proc`.
pub fn open_fds() -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc/self/fd") else {
        return super::scan_fds();
    };
    let mut listed: Vec<i32> = dir
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    listed.sort_unstable();
    listed.retain(|&fd| super::fd_flags(fd).is_some());
    listed
}

/// Where fixture trees go: `/dev/shm` (tmpfs) when it is a writable directory. On a disk
/// file system creating and deleting a tree per executor run cost more than the spawns
/// (ext4's mkdir and discard on delete), and waited for the disk.
pub fn scratch_dir() -> std::path::PathBuf {
    let shm = std::path::Path::new("/dev/shm");
    let c = c"/dev/shm";
    // SAFETY: c is NUL-terminated; access only checks permissions.
    if shm.is_dir() && unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } == 0 {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// Resident memory of this process, from the second field of `/proc/self/statm` (pages).
pub fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * u64::try_from(page).ok()?)
}
