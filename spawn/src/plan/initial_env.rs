//! The entries of the process's initial environment that have no `=` (after the first
//! byte), which `std::env::vars_os` skips. std passes them through to a child whose
//! environment is unchanged (it hands over the live `environ` array), so this crate must
//! too; but it never reads `environ` while another thread may change it (see `env.rs`).
//! Such entries cannot be added later through `setenv`/`putenv` (they refuse or unset), nor
//! removed by `unsetenv` (which matches `NAME=` only), so the ones present at start-up are
//! the ones present now, unless C code rewrites `environ` itself.
//!
//! They are recorded by a constructor (`.init_array` on ELF platforms, `__mod_init_func` on
//! Apple's), which runs before `main`, or when a library holding this crate is loaded with
//! `dlopen` (a Python extension, a JVM native library). Only then may other threads exist,
//! and one of them may `setenv` (reallocating `environ`) while the constructor reads it; so
//! the constructor reads `environ` only while the process has a single thread (Linux:
//! `/proc/self/status`, or without `/proc` the kernel's check in `unshare(CLONE_THREAD)`;
//! FreeBSD, Apple: libc's "ever threaded" flag), and otherwise records
//! nothing: such entries are then not passed on. Elsewhere none are recorded.

use std::ffi::{c_char, CStr};
use std::sync::OnceLock;

/// `(index in environ, bytes)` of each entry without `=`, in order.
static MALFORMED: OnceLock<Vec<(usize, Vec<u8>)>> = OnceLock::new();

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
#[used]
#[link_section = ".init_array"]
static RECORD: extern "C" fn() = record;

#[cfg(target_vendor = "apple")]
#[used]
#[link_section = "__DATA,__mod_init_func"]
static RECORD: extern "C" fn() = record;

extern "C" {
    static environ: *const *const c_char;
}

/// Runs before `main` (or at `dlopen`): keeps a copy of each entry without `=`.
#[allow(dead_code)] // Not referenced on platforms without a constructor section.
extern "C" fn record() {
    record_if_alone();
}

/// Records the entries if this is the process's only thread; whether it did.
#[allow(dead_code)]
fn record_if_alone() -> bool {
    if !crate::platform::single_threaded() {
        return false;
    }
    // SAFETY: with no other thread, nothing else changes the environment meanwhile (this
    // thread is in the constructor); each entry is a C string.
    let found = unsafe { malformed_in(environ) };
    let _ = MALFORMED.set(found);
    true
}

/// The entries of `envp` (a null-terminated array, or null) that `vars_os` would skip.
///
/// # Safety
/// `envp` is null or a valid environment array nobody changes meanwhile.
unsafe fn malformed_in(envp: *const *const c_char) -> Vec<(usize, Vec<u8>)> {
    let mut found = Vec::new();
    if envp.is_null() {
        return found;
    }
    let mut i = 0;
    loop {
        let p = *envp.add(i);
        if p.is_null() {
            return found;
        }
        let bytes = CStr::from_ptr(p).to_bytes();
        if !has_separator(bytes) {
            found.push((i, bytes.to_vec()));
        }
        i += 1;
    }
}

/// std's rule: a name is at least one byte, so the `=` is searched after the first byte.
pub(crate) fn has_separator(entry: &[u8]) -> bool {
    entry.get(1..).is_some_and(|rest| rest.contains(&b'='))
}

/// The initial environment's entries without `=`, with their positions.
pub(crate) fn malformed() -> &'static [(usize, Vec<u8>)] {
    MALFORMED.get().map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(b"A=1".as_slice(), true)]
    #[case(b"=A=1".as_slice(), true)]
    #[case(b"A=".as_slice(), true)]
    #[case(b"FOOBAR".as_slice(), false)]
    #[case(b"=".as_slice(), false)]
    #[case(b"=A".as_slice(), false)]
    #[case(b"".as_slice(), false)]
    fn separator_as_std_parses(#[case] entry: &[u8], #[case] want: bool) {
        assert_eq!(has_separator(entry), want);
    }

    /// With another thread alive (one that could `setenv`), `environ` is not read; the test
    /// harness's own threads already count, and one more is made to be sure. (Before `main`
    /// the process has one thread: the std-parity suite's `malformed-env` role sees the
    /// entries recorded then.)
    #[cfg(any(target_os = "linux", target_os = "freebsd", target_vendor = "apple"))]
    #[test]
    fn the_recorder_reads_nothing_beside_other_threads() {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let other = std::thread::spawn(move || rx.recv().ok());
        assert!(!crate::platform::single_threaded());
        let before = MALFORMED.get().map(Vec::len);
        assert!(!record_if_alone(), "read environ beside another thread");
        assert_eq!(MALFORMED.get().map(Vec::len), before);
        tx.send(()).unwrap();
        other.join().unwrap();
    }

    #[test]
    fn finds_entries_without_separator_in_order() {
        let strings = [c"A=1", c"FOOBAR", c"B=2", c"=X", c"Z"];
        let mut ptrs: Vec<*const c_char> = strings.iter().map(|s| s.as_ptr()).collect();
        ptrs.push(std::ptr::null());
        // SAFETY: a null-terminated array of C strings that outlive the call.
        let found = unsafe { malformed_in(ptrs.as_ptr()) };
        assert_eq!(
            found,
            vec![
                (1, b"FOOBAR".to_vec()),
                (3, b"=X".to_vec()),
                (4, b"Z".to_vec())
            ]
        );
        // SAFETY: null is allowed.
        assert!(unsafe { malformed_in(std::ptr::null()) }.is_empty());
    }
}
