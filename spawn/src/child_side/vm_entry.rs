//! The entry of a child that shares the parent's memory (`CLONE_VM`), on its private stack:
//! mark the start where the parent must see it, prepare and exec, or store the errno and
//! exit. Valgrind and qemu-user turn `CLONE_VM|CLONE_VFORK` into a plain fork; the parent
//! tells by the missing sentinel (`strategies/clone_vm/parent.rs`).

use std::ffi::c_void;
use std::ptr;

use super::calls;
use super::ids::ChildIds;
use super::ChildView;

/// What a child writes first, where the parent must see it.
pub(crate) const SENTINEL: libc::c_int = 0x5ba7_e5c0;

/// What parent and child share: the child writes `started`, reads `view` and writes `err`
/// (0 until it fails).
pub(crate) struct Shared {
    pub started: libc::c_int,
    pub view: ChildView,
    pub err: libc::c_int,
}

/// The child's entry: mark the start, prepare and exec, or store the errno and exit. Never
/// returns, so it never unwinds into the parent's frames.
///
/// # Safety
/// `arg` is a `*mut Shared` the suspended parent keeps alive.
pub(crate) unsafe extern "C" fn child_main(arg: *mut c_void) -> ! {
    let shared = arg.cast::<Shared>();
    ptr::write_volatile(ptr::addr_of_mut!((*shared).started), SENTINEL);
    let e = super::run::<ChildIds>(&(*shared).view);
    ptr::write_volatile(ptr::addr_of_mut!((*shared).err), e);
    calls::exit(127)
}

/// The probe child's entry: writes the sentinel and exits at once.
///
/// # Safety
/// `arg` is a `*mut c_int` the parent keeps alive until it has reaped the child.
pub(crate) unsafe extern "C" fn probe_main(arg: *mut c_void) -> ! {
    ptr::write_volatile(arg.cast::<libc::c_int>(), SENTINEL);
    calls::exit(0)
}

/// [`child_main`] with the signature `clone(2)`'s libc wrapper calls (`clone_vfork`).
pub(crate) extern "C" fn clone_main(arg: *mut c_void) -> libc::c_int {
    // SAFETY: `arg` is what the parent's spawn passed to clone.
    unsafe { child_main(arg) }
}

/// [`probe_main`] with the signature `clone(2)`'s libc wrapper calls.
pub(crate) extern "C" fn clone_probe_main(arg: *mut c_void) -> libc::c_int {
    // SAFETY: `arg` is what the parent's probe passed to clone.
    unsafe { probe_main(arg) }
}
