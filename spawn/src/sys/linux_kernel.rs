//! Linux kernel interfaces the `libc` crate lacks for some targets: `struct clone_args` (musl
//! on x86_64 has it, glibc on x86_64 does not) and the clone3-only flags (declared for glibc
//! targets only).

/// The kernel's `struct clone_args` up to `tls` (`CLONE_ARGS_SIZE_VER0`, 64 bytes;
/// include/uapi/linux/sched.h). Later fields (`set_tid`, `cgroup`) are not needed here.
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
}

/// Reset every caught signal to its default in the child (Linux 5.5).
pub const CLONE_CLEAR_SIGHAND: u64 = 0x1_0000_0000;
/// Start the child in the cgroup `clone_args.cgroup` names (Linux 5.7).
pub const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

// `CLONE_ARGS_SIZE_VER0` and the last field's offset: the same on every architecture (all
// fields are `__aligned_u64`).
const _: () = assert!(size_of::<CloneArgs>() == 64);
const _: () = assert!(std::mem::offset_of!(CloneArgs, tls) == 56);
