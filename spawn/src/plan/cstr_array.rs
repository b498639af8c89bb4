//! A null-terminated array of C strings kept in one byte buffer: the `argv` and `envp` of one
//! spawn. One buffer rather than a `CString` per string: at 10,000 arguments or variables the
//! allocations (and frees) per string were a visible part of the spawn's cost, and musl's
//! malloc maps and unmaps a page for a buffer of this size each time, so a thread keeps the
//! buffers of its last arrays for its next spawn.

use std::cell::Cell;
use std::ffi::c_char;

/// Emptied buffers kept per thread: one spawn holds an argv and an envp at once.
const SPARES: usize = 2;

type Buffers = (Vec<u8>, Vec<*const c_char>);

thread_local! {
    /// The buffers of this thread's last dropped arrays, emptied.
    static SPARE: Cell<Vec<Buffers>> = const { Cell::new(Vec::new()) };
}

/// A finished array: `as_ptr` is what `execve` takes.
pub(crate) struct CStrArray {
    bytes: Vec<u8>,
    ptrs: Vec<*const c_char>,
}

/// An array being filled. Until [`finish`](Builder::finish) the pointer slots hold offsets
/// into `bytes`, which may still move as it grows.
pub(crate) struct Builder {
    array: CStrArray,
}

impl Builder {
    /// An empty array, on this thread's spare buffers when it has any.
    pub(crate) fn new() -> Builder {
        let (bytes, ptrs) = SPARE
            .try_with(|s| {
                let mut spares = s.take();
                let one = spares.pop();
                s.set(spares);
                one
            })
            .ok()
            .flatten()
            .unwrap_or_default();
        Builder {
            array: CStrArray { bytes, ptrs },
        }
    }

    /// Appends one string, the concatenation of `parts`; the caller has checked that none
    /// holds a NUL byte.
    pub(crate) fn push(&mut self, parts: &[&[u8]]) {
        let a = &mut self.array;
        a.ptrs
            .push(std::ptr::null::<c_char>().wrapping_add(a.bytes.len()));
        for p in parts {
            a.bytes.extend_from_slice(p);
        }
        a.bytes.push(0);
    }

    /// Strings pushed so far.
    pub(crate) fn len(&self) -> usize {
        self.array.ptrs.len()
    }

    /// The array, its offsets turned into pointers now that the buffer no longer moves.
    pub(crate) fn finish(mut self) -> CStrArray {
        let base = self.array.bytes.as_ptr().cast::<c_char>();
        for p in &mut self.array.ptrs {
            *p = base.wrapping_add(*p as usize);
        }
        self.array.ptrs.push(std::ptr::null());
        self.array
    }
}

impl CStrArray {
    /// The null-terminated pointer array.
    pub(crate) fn as_ptr(&self) -> *const *const c_char {
        self.ptrs.as_ptr()
    }

    /// The strings (without their NULs), for tests.
    #[cfg(test)]
    pub(super) fn strings(&self) -> Vec<&[u8]> {
        let mut out = Vec::new();
        for &p in self.ptrs.iter().take_while(|p| !p.is_null()) {
            // SAFETY: every non-null pointer is a NUL-terminated string in `bytes`.
            out.push(unsafe { std::ffi::CStr::from_ptr(p) }.to_bytes());
        }
        assert_eq!(self.ptrs.last(), Some(&std::ptr::null()));
        assert_eq!(self.ptrs.len(), out.len() + 1);
        out
    }
}

impl Drop for CStrArray {
    fn drop(&mut self) {
        let mut bytes = std::mem::take(&mut self.bytes);
        let mut ptrs = std::mem::take(&mut self.ptrs);
        bytes.clear();
        ptrs.clear();
        // During thread teardown the buffers are simply freed.
        let _ = SPARE.try_with(|s| {
            let mut spares = s.take();
            if spares.len() < SPARES {
                spares.push((bytes, ptrs));
            }
            s.set(spares);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn array(strings: &[&[&str]]) -> CStrArray {
        let mut b = Builder::new();
        for parts in strings {
            let parts: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
            b.push(&parts);
        }
        b.finish()
    }

    #[rstest]
    #[case(&[], &[])]
    #[case(&[&["a"][..]], &["a"])]
    #[case(&[&["K", "=", "V"][..], &[""], &["x", "y"]], &["K=V", "", "xy"])]
    fn strings_come_out_as_pushed(#[case] input: &[&[&str]], #[case] want: &[&str]) {
        let a = array(input);
        let want: Vec<&[u8]> = want.iter().map(|s| s.as_bytes()).collect();
        assert_eq!(a.strings(), want);
    }

    /// A thread's next array reuses the buffers of its last one, and an array larger than
    /// the last (the buffer moves while it grows) still comes out whole.
    #[test]
    fn buffers_are_reused_and_grow() {
        let first = array(&[&["A=1"]]);
        let first_ptrs = first.as_ptr();
        drop(first);
        let again = array(&[&["A=1"]]);
        assert_eq!(
            again.as_ptr(),
            first_ptrs,
            "the spare buffers were not reused"
        );
        drop(again);
        let long = "x".repeat(10_000);
        let keys: Vec<String> = (0..100).map(|i| format!("K{i}=")).collect();
        let parts: Vec<[&str; 2]> = keys.iter().map(|k| [k.as_str(), &long]).collect();
        let refs: Vec<&[&str]> = parts.iter().map(|p| p.as_slice()).collect();
        let got = array(&refs);
        assert_eq!(got.strings().len(), 100);
        assert!(got
            .strings()
            .iter()
            .enumerate()
            .all(|(i, s)| *s == format!("K{i}={long}").as_bytes()));
    }
}
