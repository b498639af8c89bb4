//! Whether this machine can hold a parent of a given size: refuse early with a clear message
//! instead of swapping the machine or dying half-way through a run.

use crate::report::ParentShape;

use super::ballast::fragments;
use super::parent::Parent;
use super::size::{format_size, MIB};
use super::BenchError;

#[cfg(target_os = "linux")]
#[path = "linux.rs"]
mod sys;
#[cfg(not(target_os = "linux"))]
#[path = "other.rs"]
mod sys;

/// Memory kept free beyond the parent size: page tables, the children, everyone else.
pub const HEADROOM: u64 = 512 * MIB;

/// What limits the parent's size, as far as this platform can tell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Limits {
    /// Memory that can be used without swapping, and what the figure is (`MemAvailable`,
    /// or only `physical memory` where availability is not known).
    pub available: Option<(u64, &'static str)>,
    /// RLIMIT_AS (soft), when it is not unlimited.
    pub address_space_limit: Option<u64>,
    /// This process's current address space size, when known.
    pub address_space_used: Option<u64>,
    /// How many mappings one process may have (`vm.max_map_count`), when known.
    pub max_mappings: Option<u64>,
}

/// The physical memory size (`sysconf`): the weaker figure where what is available is not
/// known, on other Unixes and on Linux without /proc mounted (a chroot, a bare root), so a
/// parent larger than the machine is still refused before anything is mapped.
fn physical_memory() -> Option<(u64, &'static str)> {
    // SAFETY: sysconf has no memory-safety preconditions.
    let (pages, page) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    if pages <= 0 || page <= 0 {
        return None;
    }
    Some(((pages as u64).checked_mul(page as u64)?, "physical memory"))
}

/// Mappings left for everything but a fragmented ballast (the program, its libraries, the
/// allocator, the children's stacks).
pub const MAPPING_HEADROOM: u64 = 4096;

impl Limits {
    /// Reads this machine's and this process's limits now.
    pub fn current() -> Limits {
        Limits {
            available: sys::available().or_else(physical_memory),
            address_space_limit: address_space_limit(),
            address_space_used: sys::address_space_used(),
            max_mappings: sys::max_mappings(),
        }
    }

    /// Refuses `parent` if its memory and [`HEADROOM`] do not fit in the available memory
    /// (a reserved parent uses none), if the mapping would exceed RLIMIT_AS, or if a
    /// fragmented parent needs more mappings than the kernel allows.
    pub fn check(&self, parent: Parent) -> Result<(), BenchError> {
        let size = parent.bytes;
        let refuse = |reason: String| BenchError::SizeRefused {
            size: parent.label(),
            reason,
        };
        if size == 0 {
            return Ok(());
        }
        if let (ParentShape::Fragmented, Some(max)) = (parent.shape, self.max_mappings) {
            let needed = fragments(size).saturating_add(MAPPING_HEADROOM);
            if needed > max {
                return Err(refuse(format!(
                    "it needs {needed} mappings (one per 64 KiB plus {MAPPING_HEADROOM}) but \
                     vm.max_map_count is {max}"
                )));
            }
        }
        if let (false, Some((available, what))) =
            (parent.shape == ParentShape::Reserved, self.available)
        {
            let needed = size.saturating_add(HEADROOM);
            if needed > available {
                return Err(refuse(format!(
                    "it needs {} (the size plus {} headroom) but {what} is {}",
                    format_size_approx(needed),
                    format_size(HEADROOM),
                    format_size_approx(available),
                )));
            }
        }
        if let Some(limit) = self.address_space_limit {
            let used = self.address_space_used.unwrap_or(0);
            if size.saturating_add(used) > limit {
                return Err(refuse(format!(
                    "RLIMIT_AS is {} and this process already uses {}",
                    format_size_approx(limit),
                    format_size_approx(used),
                )));
            }
        }
        Ok(())
    }
}

/// Sizes that are not whole MiB, rounded down to MiB for messages.
fn format_size_approx(bytes: u64) -> String {
    format_size(bytes - bytes % MIB)
}

fn address_space_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `lim` is a valid, writable rlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    // rlim_t is u64 here but i64 on FreeBSD.
    #[allow(clippy::useless_conversion)]
    u64::try_from(lim.rlim_cur).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const GIB: u64 = 1 << 30;

    fn limits(available: Option<u64>, as_limit: Option<u64>, used: Option<u64>) -> Limits {
        Limits {
            available: available.map(|a| (a, "MemAvailable")),
            address_space_limit: as_limit,
            address_space_used: used,
            max_mappings: Some(65530),
        }
    }

    fn shaped(shape: ParentShape, bytes: u64) -> Parent {
        Parent { shape, bytes }
    }

    #[rstest]
    #[case(0, limits(Some(0), Some(0), Some(GIB)))]
    #[case(8 * GIB, limits(Some(24 * GIB), None, None))]
    #[case(8 * GIB, limits(Some(8 * GIB + HEADROOM), None, None))]
    #[case(GIB, limits(None, Some(2 * GIB), Some(GIB / 2)))]
    #[case(GIB, limits(None, None, None))]
    fn accepts(#[case] size: u64, #[case] limits: Limits) {
        limits.check(Parent::touched(size)).unwrap();
    }

    #[rstest]
    #[case(
        8 * GIB,
        limits(Some(6 * GIB), None, None),
        "parent size 8 GiB refused: it needs 8.50 GiB (the size plus 512 MiB headroom) but MemAvailable is 6 GiB"
    )]
    #[case(
        8 * GIB,
        limits(Some(8 * GIB), None, None),
        "but MemAvailable is 8 GiB"
    )]
    #[case(
        4 * GIB,
        limits(Some(24 * GIB), Some(4 * GIB), Some(GIB)),
        "parent size 4 GiB refused: RLIMIT_AS is 4 GiB and this process already uses 1 GiB"
    )]
    fn refuses(#[case] size: u64, #[case] limits: Limits, #[case] message: &str) {
        let err = limits.check(Parent::touched(size)).unwrap_err().to_string();
        assert!(err.contains(message), "{err}");
    }

    #[rstest]
    #[case(shaped(ParentShape::Reserved, 64 * GIB), limits(Some(8 * GIB), None, None))]
    #[case(shaped(ParentShape::Fragmented, GIB), limits(Some(8 * GIB), None, None))]
    fn accepts_shapes(#[case] parent: Parent, #[case] limits: Limits) {
        limits.check(parent).unwrap();
    }

    #[rstest]
    #[case(
        shaped(ParentShape::Reserved, 64 * GIB),
        limits(Some(24 * GIB), Some(32 * GIB), Some(0)),
        "parent size 64 GiB reserved refused: RLIMIT_AS is 32 GiB"
    )]
    #[case(
        shaped(ParentShape::Fragmented, 4 * GIB),
        limits(Some(24 * GIB), None, None),
        "it needs 69632 mappings (one per 64 KiB plus 4096) but vm.max_map_count is 65530"
    )]
    #[case(
        shaped(ParentShape::Fragmented, 2 * GIB),
        limits(Some(GIB), None, None),
        "but MemAvailable is 1 GiB"
    )]
    fn refuses_shapes(#[case] parent: Parent, #[case] limits: Limits, #[case] message: &str) {
        let err = limits.check(parent).unwrap_err().to_string();
        assert!(err.contains(message), "{err}");
    }
}
