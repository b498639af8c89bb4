//! Per platform family: how a C compiler tells the family and its release at compile time,
//! and how a release number becomes that macro's value. One entry per family that has such a
//! macro; the others are listed with the reason they have none.

/// A family with a compile-time version macro.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `__GLIBC__`/`__GLIBC_MINOR__` (`<features.h>`): 2.29 → 2029.
    Glibc,
    /// The deployment target, `__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__` (clang) or
    /// `MAC_OS_X_VERSION_MIN_REQUIRED` (`<AvailabilityMacros.h>`), normalised to MMmmpp: 10.15
    /// → 101500 (the 4-digit form of 10.4–10.9, `1090`, becomes 100900).
    Macos,
    /// `__FreeBSD_version` (`<sys/param.h>`): X.Y-RELEASE is X0Y000 (14.1 → 1401000; X.0's
    /// value lies just above X00000), so a release is the range [X0Y000, X0(Y+1)000).
    Freebsd,
    /// `__NetBSD_Version__` (`<sys/param.h>`, MMmmrrpp00): 10.1 → 1001000000.
    Netbsd,
    /// `OpenBSD` (`<sys/param.h>`): the release's year and month, from [`OPENBSD`].
    Openbsd,
    /// `CYGWIN_VERSION_DLL_MAJOR` (major·1000 + minor) and `CYGWIN_VERSION_DLL_MINOR` (patch)
    /// from `<cygwin/version.h>`: 3.5.0 → 3005000.
    Cygwin,
    /// `__ANDROID_API__`: the API level of the minimum SDK, from [`ANDROID`].
    Android,
}

/// Android release → API level, as bionic's `<android/api-level.h>` names them
/// (`__ANDROID_API_P__ 28` … `__ANDROID_API_V__ 35`; 12L is 32, inside 12).
/// Source: <https://android.googlesource.com/platform/bionic/+/refs/heads/main/libc/include/android/api-level.h>
pub const ANDROID: &[(u64, u64)] = &[
    (9, 28),
    (10, 29),
    (11, 30),
    (12, 31),
    (13, 33),
    (14, 34),
    (15, 35),
    (16, 36),
];

/// OpenBSD release → its `OpenBSD` year-month macro. Only releases seen: 7.8's own headers
/// (zig 0.17.1 builds OpenBSD 7.8's libc from source and defines `OpenBSD` 202510 for
/// `x86_64-openbsd.7.8`). A release missing here has no boundary in the header.
pub const OPENBSD: &[((u64, u64), u64)] = &[((7, 8), 202510)];

/// The families with a scheme, in the order the header tests them (Android before glibc:
/// both are Linux, and only one defines each macro; uClibc fakes `__GLIBC__`, so it is
/// excluded).
pub const FAMILIES: &[(&str, Scheme)] = &[
    ("android", Scheme::Android),
    ("linux-glibc", Scheme::Glibc),
    ("macos", Scheme::Macos),
    ("freebsd", Scheme::Freebsd),
    ("netbsd", Scheme::Netbsd),
    ("openbsd", Scheme::Openbsd),
    ("cygwin", Scheme::Cygwin),
];

/// Families the header cannot decide at compile time, and why.
pub const NO_MACRO: &[(&str, &str)] = &[
    (
        "linux-musl",
        "musl defines no version macro (on purpose: its FAQ asks programs to test for \
         features, not versions)",
    ),
    (
        "solaris",
        "Solaris: compilers define `__sun`/`__SVR4` (gcc also `__SunOS_5_11`), which is the \
         same for every 11.x release and for illumos; no macro names 11.4",
    ),
    (
        "illumos-gate",
        "illumos: `__illumos__` (from `<sys/feature_tests.h>` on recent illumos) says only \
         that it is illumos; the distributions roll, with no release macro",
    ),
];

impl Scheme {
    pub fn of(family: &str) -> Option<Scheme> {
        FAMILIES.iter().find(|(f, _)| *f == family).map(|(_, s)| *s)
    }

    /// The macro the header defines when this family is detected.
    pub fn family_macro(self) -> &'static str {
        match self {
            Scheme::Glibc => "SPAWNMATRIX_FAMILY_GLIBC",
            Scheme::Macos => "SPAWNMATRIX_FAMILY_MACOS",
            Scheme::Freebsd => "SPAWNMATRIX_FAMILY_FREEBSD",
            Scheme::Netbsd => "SPAWNMATRIX_FAMILY_NETBSD",
            Scheme::Openbsd => "SPAWNMATRIX_FAMILY_OPENBSD",
            Scheme::Cygwin => "SPAWNMATRIX_FAMILY_CYGWIN",
            Scheme::Android => "SPAWNMATRIX_FAMILY_ANDROID",
        }
    }

    /// The preprocessor condition that detects the family with its version macro.
    pub fn detect(self) -> &'static str {
        match self {
            Scheme::Android => "defined(__ANDROID__) && defined(__ANDROID_API__)",
            Scheme::Glibc => {
                "defined(__linux__) && defined(__GLIBC__) && defined(__GLIBC_MINOR__) && !defined(__UCLIBC__)"
            }
            Scheme::Macos => {
                "defined(__APPLE__) && (defined(__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__) || defined(MAC_OS_X_VERSION_MIN_REQUIRED))"
            }
            Scheme::Freebsd => "defined(__FreeBSD__) && defined(__FreeBSD_version)",
            Scheme::Netbsd => "defined(__NetBSD__) && defined(__NetBSD_Version__)",
            Scheme::Openbsd => "defined(__OpenBSD__) && defined(OpenBSD)",
            Scheme::Cygwin => {
                "defined(__CYGWIN__) && defined(CYGWIN_VERSION_DLL_MAJOR) && defined(CYGWIN_VERSION_DLL_MINOR)"
            }
        }
    }

    /// `SPAWNMATRIX_VERSION`'s definition: the family's version as one number.
    pub fn version_expr(self) -> &'static str {
        match self {
            Scheme::Android => "__ANDROID_API__",
            Scheme::Glibc => "(__GLIBC__ * 1000 + __GLIBC_MINOR__)",
            Scheme::Macos => "SPAWNMATRIX__MACOS_NORMAL(SPAWNMATRIX__MACOS_RAW)",
            Scheme::Freebsd => "__FreeBSD_version",
            Scheme::Netbsd => "__NetBSD_Version__",
            Scheme::Openbsd => "OpenBSD",
            Scheme::Cygwin => "(CYGWIN_VERSION_DLL_MAJOR * 1000 + CYGWIN_VERSION_DLL_MINOR)",
        }
    }

    /// The raw macro a check may override when a compiler's value names another release
    /// (zig's `__FreeBSD_version` ignores the minor release), as `(name, value for release)`.
    pub fn raw_macro(self) -> &'static str {
        match self {
            Scheme::Android => "__ANDROID_API__",
            Scheme::Glibc => "__GLIBC_MINOR__",
            Scheme::Macos => "__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__",
            Scheme::Freebsd => "__FreeBSD_version",
            Scheme::Netbsd => "__NetBSD_Version__",
            Scheme::Openbsd => "___OpenBSD",
            Scheme::Cygwin => "CYGWIN_VERSION_DLL_MINOR",
        }
    }

    /// The value of `SPAWNMATRIX_VERSION` at the start of `release` (its components), or
    /// `None` when the scheme cannot say (a component out of range, a release missing from a
    /// table).
    pub fn key(self, parts: &[u64]) -> Option<u64> {
        let p = |i: usize| parts.get(i).copied().unwrap_or(0);
        let below = |i: usize, limit: u64| p(i) < limit;
        match self {
            Scheme::Glibc => (below(1, 1000) && p(2) == 0).then(|| p(0) * 1000 + p(1)),
            Scheme::Macos => {
                (below(1, 100) && below(2, 100)).then(|| p(0) * 10000 + p(1) * 100 + p(2))
            }
            Scheme::Freebsd => (below(1, 100) && p(2) == 0).then(|| p(0) * 100_000 + p(1) * 1000),
            Scheme::Netbsd => (below(1, 100) && below(2, 100))
                .then(|| p(0) * 100_000_000 + p(1) * 1_000_000 + p(2) * 100),
            Scheme::Cygwin => {
                (below(1, 1000) && below(2, 1000)).then(|| (p(0) * 1000 + p(1)) * 1000 + p(2))
            }
            Scheme::Android => {
                if parts.iter().skip(1).any(|&x| x != 0) {
                    return None;
                }
                ANDROID
                    .iter()
                    .find(|(r, _)| *r == p(0))
                    .map(|(_, api)| *api)
            }
            Scheme::Openbsd => {
                if parts.len() > 2 && p(2) != 0 {
                    return None;
                }
                OPENBSD
                    .iter()
                    .find(|(r, _)| *r == (p(0), p(1)))
                    .map(|(_, ym)| *ym)
            }
        }
    }

    /// The value a compiler would give the raw macro for a release: what a check passes
    /// with `-D` when the compiler's own value names another release.
    pub fn raw_value(self, parts: &[u64]) -> Option<u64> {
        let key = self.key(parts)?;
        Some(match self {
            Scheme::Glibc => key % 1000,
            Scheme::Cygwin => key % 1000,
            _ => key,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(Scheme::Glibc, &[2, 29], Some(2029))]
    #[case(Scheme::Glibc, &[2, 29, 1], None)]
    #[case(Scheme::Macos, &[10, 15], Some(101500))]
    #[case(Scheme::Macos, &[26], Some(260000))]
    #[case(Scheme::Freebsd, &[14, 1], Some(1401000))]
    #[case(Scheme::Netbsd, &[10, 1], Some(1001000000))]
    #[case(Scheme::Netbsd, &[9, 3], Some(903000000))]
    #[case(Scheme::Cygwin, &[3, 5, 0], Some(3005000))]
    #[case(Scheme::Cygwin, &[1, 7, 26], Some(1007026))]
    #[case(Scheme::Android, &[14], Some(34))]
    #[case(Scheme::Android, &[8], None)]
    #[case(Scheme::Openbsd, &[7, 8], Some(202510))]
    #[case(Scheme::Openbsd, &[7, 9], None)]
    fn keys(#[case] scheme: Scheme, #[case] parts: &[u64], #[case] want: Option<u64>) {
        assert_eq!(scheme.key(parts), want);
    }
}
