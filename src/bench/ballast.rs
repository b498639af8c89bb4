//! Parent memory for the benchmark: mapped in this process in the shape asked for (touched
//! page by page, so the page tables a fork must copy are real; fragmented into many mappings;
//! or only reserved), and unmapped again before the next size.

use std::io;
use std::ptr;

use crate::report::ParentShape;

use super::parent::Parent;

/// The size of each mapping of a fragmented parent. Neighbours alternate between read-only
/// and read-write, so the kernel cannot merge them: 1 GiB becomes 16,384 mappings.
pub const FRAGMENT: usize = 64 << 10;

/// Touched anonymous memory owned by this process; unmapped on drop.
pub struct Ballast {
    base: *mut libc::c_void,
    len: usize,
    /// Bytes of `PROT_NONE` guard mapped on each side of `[base, base + len)`.
    guard: usize,
}

impl Ballast {
    /// Makes this process the parent `parent` describes. Zero bytes maps nothing.
    pub fn new(parent: Parent) -> io::Result<Ballast> {
        match parent.shape {
            ParentShape::Touched => Ballast::touched(parent.bytes),
            ParentShape::Fragmented => Ballast::fragmented(parent.bytes),
            ParentShape::Reserved => Ballast::reserved(parent.bytes),
        }
    }

    /// Maps `bytes` of private anonymous memory and writes one byte to every page of it.
    pub fn touched(bytes: u64) -> io::Result<Ballast> {
        let ballast = Ballast::map(bytes, libc::PROT_READ | libc::PROT_WRITE)?;
        ballast.touch(page_size()?);
        Ok(ballast)
    }

    /// Writes one byte to every page of the (read-write) ballast.
    fn touch(&self, page: usize) {
        let base = self.base.cast::<u8>();
        for offset in (0..self.len).step_by(page) {
            // SAFETY: `offset < len`, inside the read-write mapping this value owns.
            unsafe { ptr::write_volatile(base.add(offset), 1) };
        }
    }

    /// Touched memory in alternating read-write and read-only [`FRAGMENT`]s: as many
    /// mappings as fragments, all of them populated. A `PROT_NONE` guard page on each side
    /// keeps the kernel from merging the first or last fragment with a neighbour of the same
    /// protection that another thread maps next to it.
    pub fn fragmented(bytes: u64) -> io::Result<Ballast> {
        let page = page_size()?;
        let len = usize::try_from(bytes)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "size exceeds usize"))?;
        if len == 0 {
            return Ballast::map(0, libc::PROT_NONE);
        }
        let outer = len
            .checked_add(2 * page)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "size exceeds usize"))?;
        Ballast::map(outer as u64, libc::PROT_NONE)?.into_fragments(page)
    }

    /// Shapes a `PROT_NONE` reservation (no guards yet) into a fragmented ballast: its first
    /// and last page become the guards, the inside alternating touched fragments.
    fn into_fragments(mut self, page: usize) -> io::Result<Ballast> {
        let len = self.len - 2 * page;
        // SAFETY: one page into the mapping this value owns; `len` bytes of it follow.
        self.base = unsafe { self.base.cast::<u8>().add(page) }.cast();
        self.len = len;
        self.guard = page;
        // SAFETY: the inside of the mapping this value owns, page-aligned.
        if unsafe { libc::mprotect(self.base, len, libc::PROT_READ | libc::PROT_WRITE) } != 0 {
            return Err(io::Error::last_os_error());
        }
        self.touch(page);
        let base = self.base.cast::<u8>();
        for offset in (FRAGMENT..self.len).step_by(2 * FRAGMENT) {
            let len = FRAGMENT.min(self.len - offset);
            // SAFETY: a page-aligned range inside the mapping this value owns; nothing of
            // this process points into the ballast.
            if unsafe { libc::mprotect(base.add(offset).cast(), len, libc::PROT_READ) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(self)
    }

    /// Maps `bytes` of `PROT_NONE` address space and touches none of it.
    pub fn reserved(bytes: u64) -> io::Result<Ballast> {
        Ballast::map(bytes, libc::PROT_NONE)
    }

    fn map(bytes: u64, prot: libc::c_int) -> io::Result<Ballast> {
        let len = usize::try_from(bytes)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "size exceeds usize"))?;
        if len == 0 {
            return Ok(Ballast {
                base: ptr::null_mut(),
                len: 0,
                guard: 0,
            });
        }
        // SAFETY: a fresh private anonymous mapping; the result is checked below.
        let base = unsafe {
            libc::mmap(
                ptr::null_mut(),
                len,
                prot,
                libc::MAP_PRIVATE | libc::MAP_ANON,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Ballast {
            base,
            len,
            guard: 0,
        })
    }
}

impl Drop for Ballast {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: unmaps exactly the mapping this value owns, guards included. A failure
            // (impossible for a mapping we made) would only leave memory mapped until exit.
            unsafe {
                let start = self.base.cast::<u8>().sub(self.guard);
                libc::munmap(start.cast(), self.len + 2 * self.guard)
            };
        }
    }
}

/// The number of mappings a fragmented parent of `bytes` has.
pub fn fragments(bytes: u64) -> u64 {
    bytes.div_ceil(FRAGMENT as u64)
}

/// The system page size.
pub fn page_size() -> io::Result<usize> {
    // SAFETY: sysconf has no memory-safety preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if page <= 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(page as usize)
}

// Read from /proc/self/maps, so Linux only; without /proc mounted the tests skip and say so.
#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Whether `/proc/self/maps` can be read; if not, prints why the test skips (on
    /// stderr, uncaptured, so a bare runner's log shows it).
    fn maps_readable() -> bool {
        let readable = std::fs::metadata("/proc/self/maps").is_ok();
        if !readable {
            use std::io::Write;
            let name = std::thread::current().name().unwrap_or("?").to_string();
            let _ = writeln!(std::io::stderr(), "skipped: {name}: no /proc/self/maps");
        }
        readable
    }

    /// The mappings of this process, as `(start, end, perms)`, whose range passes `keep`
    /// (given the mapping's start and end and the ballast's bounds).
    fn maps_where(
        ballast: &Ballast,
        keep: impl Fn(usize, usize, usize, usize) -> bool,
    ) -> Vec<(usize, usize, String)> {
        let (lo, hi) = (ballast.base as usize, ballast.base as usize + ballast.len);
        std::fs::read_to_string("/proc/self/maps")
            .unwrap()
            .lines()
            .filter_map(|line| {
                let mut fields = line.split_whitespace();
                let (start, end) = fields.next()?.split_once('-')?;
                let start = usize::from_str_radix(start, 16).ok()?;
                let end = usize::from_str_radix(end, 16).ok()?;
                let perms = fields.next()?.to_string();
                keep(start, end, lo, hi).then_some((start, end, perms))
            })
            .collect()
    }

    /// The mappings that lie inside `ballast`.
    fn maps_inside(ballast: &Ballast) -> Vec<(usize, usize, String)> {
        maps_where(ballast, |start, end, lo, hi| start >= lo && end <= hi)
    }

    /// The mappings that overlap `ballast`.
    fn maps_overlapping(ballast: &Ballast) -> Vec<(usize, usize, String)> {
        maps_where(ballast, |start, end, lo, hi| start < hi && end > lo)
    }

    /// Takes `[at, at + len)` of a mapping the caller made and hands it over as its own
    /// value, `prot` applied.
    fn own(at: *mut u8, len: usize, prot: libc::c_int) -> Ballast {
        // SAFETY: the range lies inside a mapping this test made and no other value owns.
        assert_eq!(unsafe { libc::mprotect(at.cast(), len, prot) }, 0);
        Ballast {
            base: at.cast(),
            len,
            guard: 0,
        }
    }

    /// One mapping per fragment, alternating, even with a neighbour of the same protection
    /// right against either side, as another thread's allocation can be (the kernel merges
    /// adjacent anonymous mappings of the same protection: amid the parallel suite the first
    /// fragment once became part of a neighbour, 15 mappings where 16 were expected). The
    /// neighbours and the reservation are carved from one mapping, so the test does not
    /// depend on where the kernel places things (planting a neighbour after the fact found
    /// the place below taken on i686 and could not run).
    #[test]
    fn fragmented_is_one_mapping_per_fragment_alternating() {
        if !maps_readable() {
            return;
        }
        let page = page_size().unwrap();
        let bytes = 16 * FRAGMENT as u64;
        let outer = bytes as usize + 2 * page;
        let region = Ballast::map((FRAGMENT + outer + FRAGMENT) as u64, libc::PROT_NONE).unwrap();
        let start = region.base.cast::<u8>();
        std::mem::forget(region);
        // The first fragment is read-write and the last (the 16th) read-only: each
        // neighbour has the protection that would merge with it were there no guard.
        let _below = own(start, FRAGMENT, libc::PROT_READ | libc::PROT_WRITE);
        // SAFETY: both offsets lie inside the region just mapped.
        let (mid, top) = unsafe { (start.add(FRAGMENT), start.add(FRAGMENT + outer)) };
        let _above = own(top, FRAGMENT, libc::PROT_READ);
        let ballast = own(mid, outer, libc::PROT_NONE)
            .into_fragments(page)
            .unwrap();
        let maps = maps_inside(&ballast);
        assert_eq!(maps.len() as u64, fragments(bytes), "{maps:?}");
        for (i, (start, end, perms)) in maps.iter().enumerate() {
            assert_eq!(end - start, FRAGMENT);
            let want = if i % 2 == 0 { "rw-p" } else { "r--p" };
            assert_eq!(perms, want, "mapping {i}");
        }
        let around = maps_overlapping(&ballast);
        assert_eq!(around, maps, "a fragment merged with a neighbour");
    }

    /// One `PROT_NONE` mapping covers the reservation. The kernel may merge it with an
    /// adjacent `PROT_NONE` anonymous mapping (a thread stack's guard pages, often on i686),
    /// so the mapping seen can be larger than the reservation, never split or accessible.
    #[test]
    fn reserved_is_one_inaccessible_mapping_without_resident_pages() {
        if !maps_readable() {
            return;
        }
        let ballast = Ballast::reserved(1 << 30).unwrap();
        let maps = maps_overlapping(&ballast);
        assert_eq!(maps.len(), 1, "{maps:?}");
        let (start, end, perms) = &maps[0];
        assert_eq!(perms, "---p");
        assert!(
            *start <= ballast.base as usize && *end >= ballast.base as usize + ballast.len,
            "{maps:?}"
        );
        let page = page_size().unwrap();
        let mut resident = vec![0u8; ballast.len / page];
        // SAFETY: `resident` has one byte per page of the mapping.
        let rc = unsafe { libc::mincore(ballast.base, ballast.len, resident.as_mut_ptr().cast()) };
        assert_eq!(rc, 0, "{}", io::Error::last_os_error());
        assert!(
            resident.iter().all(|&r| r & 1 == 0),
            "a reserved page is resident"
        );
    }
}
