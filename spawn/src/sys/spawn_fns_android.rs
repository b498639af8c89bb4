//! bionic's `posix_spawn` family, found with `dlsym` on first use: `<spawn.h>` declares each
//! `__INTRODUCED_IN(28)` (`libc/include/spawn.h` at aosp-mirror/platform_bionic@fab5093a),
//! and a binary that linked them directly would not load before Android 9.

use std::ffi::{c_char, c_int, c_short, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};

use libc::{pid_t, posix_spawn_file_actions_t, posix_spawnattr_t, sigset_t};

/// Not looked up yet (0 means looked up and absent).
const UNRESOLVED: usize = 1;

/// The address of `name` (NUL-terminated) in the loaded libc, looked up once.
fn resolve(slot: &AtomicUsize, name: &'static str) -> Option<usize> {
    let mut addr = slot.load(Ordering::Acquire);
    if addr == UNRESOLVED {
        // SAFETY: `name` is NUL-terminated; dlsym has no other precondition.
        addr = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr().cast()) } as usize;
        slot.store(addr, Ordering::Release);
    }
    (addr != 0).then_some(addr)
}

/// One function: its `dlsym` lookup, then a call through the found pointer, or `ENOSYS`.
macro_rules! bionic {
    ($(fn $name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        #[doc = concat!("`", stringify!($name), "`, or `ENOSYS` where bionic lacks it.")]
        ///
        /// # Safety
        /// As for the C function.
        pub unsafe fn $name($($arg: $ty),*) -> c_int {
            static SLOT: AtomicUsize = AtomicUsize::new(UNRESOLVED);
            match resolve(&SLOT, concat!(stringify!($name), "\0")) {
                Some(addr) => {
                    let f: unsafe extern "C" fn($($ty),*) -> c_int =
                        std::mem::transmute(addr as *const c_void);
                    f($($arg),*)
                }
                None => libc::ENOSYS,
            }
        }
    )*};
}

bionic! {
    fn posix_spawn(
        pid: *mut pid_t,
        path: *const c_char,
        actions: *const posix_spawn_file_actions_t,
        attr: *const posix_spawnattr_t,
        argv: *const *mut c_char,
        envp: *const *mut c_char
    );
    fn posix_spawnattr_init(attr: *mut posix_spawnattr_t);
    fn posix_spawnattr_destroy(attr: *mut posix_spawnattr_t);
    fn posix_spawnattr_setflags(attr: *mut posix_spawnattr_t, flags: c_short);
    fn posix_spawnattr_setpgroup(attr: *mut posix_spawnattr_t, pgroup: pid_t);
    fn posix_spawnattr_setsigmask(attr: *mut posix_spawnattr_t, mask: *const sigset_t);
    fn posix_spawnattr_setsigdefault(attr: *mut posix_spawnattr_t, set: *const sigset_t);
    fn posix_spawn_file_actions_init(actions: *mut posix_spawn_file_actions_t);
    fn posix_spawn_file_actions_destroy(actions: *mut posix_spawn_file_actions_t);
    fn posix_spawn_file_actions_addclose(actions: *mut posix_spawn_file_actions_t, fd: c_int);
    fn posix_spawn_file_actions_adddup2(
        actions: *mut posix_spawn_file_actions_t,
        fd: c_int,
        new_fd: c_int
    );
}
