//! `POSIX_SPAWN_*` flag values for this target, and where each value comes from.
//!
//! A flag missing from [`for_target`] is not declared for this target by the `libc` crate
//! nor by this crate: its value is unknown here, so it cannot even be tried.

// The flag values the `libc` crate lacks, per platform.
crate::family_module!(platform, linux = "linux.rs");

/// Every flag name the project reports on, in report order.
pub const ALL: &[&str] = &[
    "POSIX_SPAWN_RESETIDS",
    "POSIX_SPAWN_SETPGROUP",
    "POSIX_SPAWN_SETSIGDEF",
    "POSIX_SPAWN_SETSIGMASK",
    "POSIX_SPAWN_SETSCHEDPARAM",
    "POSIX_SPAWN_SETSCHEDULER",
    "POSIX_SPAWN_SETSID",
    "POSIX_SPAWN_USEVFORK",
    "POSIX_SPAWN_SETCGROUP",
    "POSIX_SPAWN_CLOEXEC_DEFAULT",
    "POSIX_SPAWN_SETEXEC",
    "POSIX_SPAWN_START_SUSPENDED",
];

/// One flag value known for this target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpawnFlag {
    /// The macro's name: `POSIX_SPAWN_SETSID`.
    pub name: &'static str,
    /// For `posix_spawnattr_setflags` (which takes a `short`).
    pub value: libc::c_short,
    /// Where the value comes from.
    pub declared_by: DeclaredBy,
}

/// Who declares a flag's value for this target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclaredBy {
    /// The `libc` crate has the constant for this target.
    LibcCrate,
    /// This crate declares it.
    ThisCrate {
        /// The system header the value was taken from.
        source: &'static str,
    },
}

/// The flags whose value is known for this target.
pub fn for_target() -> impl Iterator<Item = SpawnFlag> {
    platform::FLAGS
        .iter()
        .flat_map(|group| group.iter().copied())
}

/// The flag called `name`, if its value is known for this target.
///
/// ```
/// use spawnmatrix_spawn::sys::flags;
///
/// let setsid = flags::by_name("POSIX_SPAWN_SETSID");
/// println!("POSIX_SPAWN_SETSID here: {:?}", setsid.map(|f| f.value));
/// let setpgroup = flags::by_name("POSIX_SPAWN_SETPGROUP").expect("POSIX has it");
/// assert_eq!(setpgroup.value as libc::c_int, libc::POSIX_SPAWN_SETPGROUP as libc::c_int);
/// ```
pub fn by_name(name: &str) -> Option<SpawnFlag> {
    for_target().find(|f| f.name == name)
}

/// Table rows for constants the `libc` crate declares for the target.
macro_rules! libc_flags {
    ($($name:ident),* $(,)?) => {
        &[$($crate::sys::flags::SpawnFlag {
            name: stringify!($name),
            value: libc::$name as libc::c_short,
            declared_by: $crate::sys::flags::DeclaredBy::LibcCrate,
        }),*]
    };
}
pub(super) use libc_flags;

/// The four flags every POSIX `<spawn.h>` has.
macro_rules! posix_base_flags {
    () => {
        $crate::sys::flags::libc_flags![
            POSIX_SPAWN_RESETIDS,
            POSIX_SPAWN_SETPGROUP,
            POSIX_SPAWN_SETSIGDEF,
            POSIX_SPAWN_SETSIGMASK,
        ]
    };
}
pub(super) use posix_base_flags;

/// The two POSIX scheduling flags (Process Scheduling option; macOS lacks them).
#[allow(unused_macros)] // Not every platform module uses it.
macro_rules! posix_sched_flags {
    () => {
        $crate::sys::flags::libc_flags![POSIX_SPAWN_SETSCHEDPARAM, POSIX_SPAWN_SETSCHEDULER]
    };
}
#[allow(unused_imports)]
pub(super) use posix_sched_flags;
#[cfg(test)]
mod tests {
    use super::{by_name, for_target, ALL};

    #[test]
    fn every_known_flag_is_listed_once_with_a_distinct_value() {
        let flags: Vec<_> = for_target().collect();
        for (i, f) in flags.iter().enumerate() {
            assert!(ALL.contains(&f.name), "{} is not in ALL", f.name);
            assert!(
                f.value != 0 && f.value & (f.value - 1) == 0,
                "{} is not one bit",
                f.name
            );
            for g in &flags[i + 1..] {
                assert!(
                    f.name != g.name && f.value != g.value,
                    "{f:?} and {g:?} clash"
                );
            }
        }
    }

    #[test]
    fn posix_flags_are_known_everywhere() {
        for name in [
            "POSIX_SPAWN_SETPGROUP",
            "POSIX_SPAWN_SETSIGMASK",
            "POSIX_SPAWN_SETSIGDEF",
        ] {
            assert!(by_name(name).is_some(), "{name}");
        }
    }
}
