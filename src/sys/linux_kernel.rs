//! Linux kernel interfaces the `libc` crate lacks for some targets: `struct clone_args` (musl
//! on x86_64 has it, glibc on x86_64 does not) and the clone3-only flags (declared for glibc
//! targets only).

/// The kernel's `struct clone_args` up to `tls` (`CLONE_ARGS_SIZE_VER0`, 64 bytes;
/// include/uapi/linux/sched.h). Later fields (`set_tid`, `cgroup`) are not needed here.
#[repr(C)]
#[derive(Debug, Default, Clone, Copy)]
pub struct CloneArgs {
    pub flags: u64,
    pub pidfd: u64,
    pub child_tid: u64,
    pub parent_tid: u64,
    pub exit_signal: u64,
    pub stack: u64,
    pub stack_size: u64,
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
