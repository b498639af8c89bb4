//! Linux kernel interfaces the `libc` crate lacks for some targets: `struct clone_args` (musl
//! on x86_64 has it, glibc on x86_64 does not) and the clone3-only flags (declared for glibc
//! targets only).

/// The kernel's `struct clone_args` up to `cgroup` (`CLONE_ARGS_SIZE_VER2`, 88 bytes;
/// include/uapi/linux/sched.h). Pass [`CLONE_ARGS_SIZE_VER0`] as the size unless `set_tid`
/// or `cgroup` is used, so kernels before 5.5 (which know only the first 64 bytes) see the
/// struct they know.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct CloneArgs {
    /// `CLONE_*` flags (the exit signal goes in `exit_signal`, not here).
    pub flags: u64,
    /// With `CLONE_PIDFD`: where the kernel stores the child's pidfd (an `int *`).
    pub pidfd: u64,
    /// With `CLONE_CHILD_SETTID`/`CLONE_CHILD_CLEARTID`: the child's TID location.
    pub child_tid: u64,
    /// With `CLONE_PARENT_SETTID`: where the parent gets the child's TID.
    pub parent_tid: u64,
    /// The signal the parent receives when the child ends (`SIGCHLD`).
    pub exit_signal: u64,
    /// Lowest address of the child's stack (not its top, unlike `clone`).
    pub stack: u64,
    /// Size of the child's stack in bytes.
    pub stack_size: u64,
    /// With `CLONE_SETTLS`: the child's thread pointer.
    pub tls: u64,
    /// An array of pids to give the child, one per pid namespace level (Linux 5.5).
    pub set_tid: u64,
    /// The number of entries at `set_tid`.
    pub set_tid_size: u64,
    /// With `CLONE_INTO_CGROUP`: an fd of the cgroup v2 directory the child starts in
    /// (Linux 5.7).
    pub cgroup: u64,
}

/// The size of the struct up to `tls`, what every clone3 kernel knows.
pub const CLONE_ARGS_SIZE_VER0: usize = 64;
/// The size of the struct up to `cgroup` (Linux 5.7).
pub const CLONE_ARGS_SIZE_VER2: usize = 88;

/// Reset every caught signal to its default in the child (Linux 5.5).
pub const CLONE_CLEAR_SIGHAND: u64 = 0x1_0000_0000;
/// Start the child in the cgroup `clone_args.cgroup` names (Linux 5.7).
pub const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

// The sizes and offsets: the same on every architecture (all fields are `__aligned_u64`).
const _: () = assert!(size_of::<CloneArgs>() == CLONE_ARGS_SIZE_VER2);
const _: () = assert!(std::mem::offset_of!(CloneArgs, tls) == 56);
const _: () = assert!(std::mem::offset_of!(CloneArgs, set_tid) == CLONE_ARGS_SIZE_VER0);
const _: () = assert!(std::mem::offset_of!(CloneArgs, cgroup) == 80);

/// The child is reaped by the kernel when it exits: no zombie, no wait; needs `exit_signal`
/// 0 (Linux 7.1).
pub const CLONE_AUTOREAP: u64 = 1 << 34;
/// Sets `no_new_privs` in the child at clone time (Linux 7.1).
pub const CLONE_NNP: u64 = 1 << 35;
/// The child gets SIGKILL when the pidfd clone3 returned is closed (its last reference);
/// needs `CLONE_PIDFD` and `CLONE_AUTOREAP`, and `CLONE_NNP` or `CAP_SYS_ADMIN` (Linux 7.1).
pub const CLONE_PIDFD_AUTOKILL: u64 = 1 << 36;

/// The kernel's `struct pidfd_info` up to `exit_code` (`PIDFD_INFO_SIZE_VER0`, 64 bytes;
/// include/uapi/linux/pidfd.h), what `PIDFD_GET_INFO` fills. Kernels before 6.15 have a spare
/// field where `exit_code` is.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct PidfdInfo {
    /// In: the `PIDFD_INFO_*` fields wanted; out: the ones the kernel filled.
    pub mask: u64,
    /// The process's cgroup id (`PIDFD_INFO_CGROUPID`).
    pub cgroupid: u64,
    /// The process's pid in the caller's pid namespace (`PIDFD_INFO_PID`).
    pub pid: u32,
    /// Its thread-group id.
    pub tgid: u32,
    /// Its parent's pid.
    pub ppid: u32,
    /// Real uid (`PIDFD_INFO_CREDS`, as the ids below).
    pub ruid: u32,
    /// Real gid.
    pub rgid: u32,
    /// Effective uid.
    pub euid: u32,
    /// Effective gid.
    pub egid: u32,
    /// Saved uid.
    pub suid: u32,
    /// Saved gid.
    pub sgid: u32,
    /// Filesystem uid.
    pub fsuid: u32,
    /// Filesystem gid.
    pub fsgid: u32,
    /// With `PIDFD_INFO_EXIT`: the wait status of a reaped process (Linux 6.15).
    pub exit_code: i32,
}

/// `PIDFD_GET_INFO` fills `pid` (always, Linux 6.13).
pub const PIDFD_INFO_PID: u64 = 1 << 0;
/// `PIDFD_GET_INFO` fills `exit_code` once the process is reaped, if asked (Linux 6.15).
pub const PIDFD_INFO_EXIT: u64 = 1 << 3;
/// The pidfd ioctl that fills a [`PidfdInfo`] (Linux 6.13): `_IOWR(0xFF, 11, struct
/// pidfd_info)`, with the size of the struct this crate passes.
pub const PIDFD_GET_INFO: libc::Ioctl = libc::_IOWR::<PidfdInfo>(0xFF, 11);

const _: () = assert!(size_of::<PidfdInfo>() == 64);
const _: () = assert!(std::mem::offset_of!(PidfdInfo, exit_code) == 60);
