//! Sysroots named by zig target strings (`x86_64-linux-gnu.2.28`, `x86_64-macos.10.14`) and the
//! report column each one becomes.

use crate::report::{Libc, Platform, Provenance};

/// The sysroots `spawnmatrix linkcheck` checks by default. The last entry of each family is the
/// newest that zig 0.17 knows (its `zig targets` glibc list and its OS version ranges).
pub const DEFAULT: &[&str] = &[
    "x86_64-linux-gnu.2.17",
    "x86_64-linux-gnu.2.28",
    "x86_64-linux-gnu.2.29",
    "x86_64-linux-gnu.2.34",
    "x86_64-linux-gnu.2.39",
    "x86_64-linux-gnu.2.44",
    "x86_64-linux-musl",
    "x86_64-macos.10.14",
    "x86_64-macos.10.15",
    "x86_64-macos.26.0",
    "x86_64-macos.27.0",
    "x86_64-freebsd.13.1",
    "x86_64-freebsd.14.0",
    "x86_64-freebsd.15.1",
    "x86_64-netbsd.10.1",
    "x86_64-netbsd.11.0",
    "x86_64-openbsd.7.8",
];

/// The newest version zig 0.17 knows per family: zig's headers are this version's (it ships one
/// set of headers, the newest, for every version of a family).
const NEWEST: &[(Os, &str)] = &[
    (Os::LinuxGnu, "2.44"),
    (Os::Macos, "27.0"),
    (Os::Freebsd, "15.1"),
    (Os::Netbsd, "11.0"),
];

/// A zig target string that linkcheck does not know how to turn into a report column.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("zig target `{target}`: {reason}")]
pub struct SysrootError {
    pub target: String,
    pub reason: &'static str,
}

/// One sysroot to link against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sysroot {
    /// The zig target string, passed to `zig cc -target` as is.
    pub target: String,
    pub arch: String,
    pub os: Os,
    /// The OS version for macOS and the BSDs, the glibc version for glibc.
    pub version: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    LinuxGnu,
    LinuxMusl,
    Macos,
    Freebsd,
    Netbsd,
    Openbsd,
}

impl Sysroot {
    /// Reads `arch-os[.version][-abi[.version]]` as zig spells it.
    pub fn parse(target: &str) -> Result<Self, SysrootError> {
        let err = |reason| SysrootError {
            target: target.to_string(),
            reason,
        };
        let mut parts = target.split('-');
        let arch = parts
            .next()
            .filter(|a| !a.is_empty())
            .ok_or(err("no arch"))?;
        let os_part = parts.next().ok_or(err("no OS"))?;
        let abi_part = parts.next();
        if parts.next().is_some() {
            return Err(err("more than three dash-separated parts"));
        }
        let (os_name, os_version) = split_version(os_part);
        let (abi, abi_version) = match abi_part {
            Some(a) => split_version(a),
            None => ("", None),
        };
        let (os, version) = match (os_name, abi) {
            ("linux", "gnu") => (Os::LinuxGnu, abi_version),
            ("linux", "musl") => (Os::LinuxMusl, None),
            ("linux", _) => return Err(err("only the gnu and musl ABIs are supported on linux")),
            ("macos", "" | "none") => (Os::Macos, os_version),
            ("freebsd", "" | "none") => (Os::Freebsd, os_version),
            ("netbsd", "" | "none") => (Os::Netbsd, os_version),
            ("openbsd", "" | "none") => (Os::Openbsd, os_version),
            _ => {
                return Err(err(
                    "unsupported OS (linux, macos, freebsd, netbsd, openbsd)",
                ))
            }
        };
        if os != Os::LinuxMusl && version.is_none() {
            return Err(err("give a version (`x86_64-linux-gnu.2.28`, `x86_64-freebsd.14.0`) so the column says which one"));
        }
        Ok(Sysroot {
            target: target.to_string(),
            arch: arch.to_string(),
            os,
            version: version.map(str::to_string),
        })
    }

    /// Whether zig's headers are this version's own: true for the newest version of a family
    /// and for the libcs zig builds from source (musl, OpenBSD). Elsewhere a macro the headers
    /// define says nothing about this version, since a macro leaves no trace at link time.
    pub fn headers_are_own(&self) -> bool {
        match self.os {
            Os::LinuxMusl | Os::Openbsd => true,
            os => NEWEST
                .iter()
                .any(|(o, v)| *o == os && self.version.as_deref() == Some(*v)),
        }
    }

    /// Compiler flags this family needs: on macOS, availability annotations become errors so
    /// that a function newer than the deployment target is rejected, as Xcode does with
    /// `-Werror=unguarded-availability-new`.
    pub fn extra_flags(&self) -> &'static [&'static str] {
        match self.os {
            Os::Macos => &[
                "-Werror=unguarded-availability-new",
                "-Werror=unguarded-availability",
            ],
            _ => &[],
        }
    }

    /// The report column: platform identity with provenance `link` and the zig target as image.
    /// `musl_version` is the release of zig's bundled musl ([`super::Zig::musl_version`]).
    pub fn platform(&self, zig_version: &str, musl_version: Option<&str>) -> Platform {
        let musl_what = match musl_version {
            Some(v) => format!(
                "its bundled musl {v} (lib/libc/musl/src/internal/version.h), built from source"
            ),
            None => String::from(
                "its bundled musl, built from source (no version.h in zig's lib/libc/musl)",
            ),
        };
        let (os, libc_name, what) = match self.os {
            Os::LinuxGnu => (
                "linux",
                "glibc",
                "the newest glibc headers, libc.so stubs of this version",
            ),
            Os::LinuxMusl => ("linux", "musl", musl_what.as_str()),
            Os::Macos => (
                "macos",
                "libSystem",
                "its macOS SDK, availability checked for this deployment target",
            ),
            Os::Freebsd => (
                "freebsd",
                "freebsd-libc",
                "the newest FreeBSD headers, libc stubs of this version",
            ),
            Os::Netbsd => (
                "netbsd",
                "netbsd-libc",
                "the newest NetBSD headers, libc stubs of this version",
            ),
            Os::Openbsd => (
                "openbsd",
                "openbsd-libc",
                "its OpenBSD libc, built from source",
            ),
        };
        // Linux versions name the libc; the BSDs' and macOS's name the OS (and, on the BSDs,
        // the libc that comes with it).
        let os_version = match self.os {
            Os::LinuxGnu | Os::LinuxMusl => None,
            _ => self.version.clone(),
        };
        let libc_version = match self.os {
            Os::LinuxMusl => musl_version.map(str::to_string),
            Os::Macos => None,
            _ => self.version.clone(),
        };
        Platform {
            os: os.to_string(),
            os_version,
            kernel: None,
            arch: self.arch.clone(),
            target: self.target.clone(),
            libc: Libc {
                name: libc_name.to_string(),
                version: libc_version,
                detail: Some(format!("zig {zig_version}: {what}")),
            },
            provenance: Provenance {
                kind: "link".to_string(),
                image: Some(self.target.clone()),
                host: Some(format!("zig {zig_version}")),
            },
        }
    }

    /// The file name of this sysroot's report: `link-<zig target>.json`.
    pub fn report_file_name(&self) -> String {
        format!("link-{}.json", self.target)
    }
}

/// `freebsd.14.0` → (`freebsd`, `14.0`); `gnu` → (`gnu`, none).
fn split_version(part: &str) -> (&str, Option<&str>) {
    match part.split_once('.') {
        Some((name, version)) if !version.is_empty() => (name, Some(version)),
        _ => (part, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("x86_64-linux-gnu.2.28", Os::LinuxGnu, Some("2.28"))]
    #[case("x86_64-linux-musl", Os::LinuxMusl, None)]
    #[case("x86_64-macos.10.14", Os::Macos, Some("10.14"))]
    #[case("x86_64-freebsd.13.1", Os::Freebsd, Some("13.1"))]
    #[case("aarch64-netbsd.10.1-none", Os::Netbsd, Some("10.1"))]
    #[case("x86_64-openbsd.7.8", Os::Openbsd, Some("7.8"))]
    fn parses(#[case] target: &str, #[case] os: Os, #[case] version: Option<&str>) {
        let s = Sysroot::parse(target).unwrap();
        assert_eq!((s.os, s.version.as_deref()), (os, version));
    }

    #[rstest]
    #[case("x86_64-linux-gnu")]
    #[case("x86_64-windows-gnu")]
    #[case("x86_64-macos")]
    #[case("x86_64")]
    #[case("x86_64-linux-gnu.2.28-extra")]
    fn rejects(#[case] target: &str) {
        assert!(Sysroot::parse(target).is_err());
    }

    #[rstest]
    #[case("x86_64-linux-gnu.2.28", false)]
    #[case("x86_64-linux-gnu.2.44", true)]
    #[case("x86_64-linux-musl", true)]
    #[case("x86_64-macos.10.14", false)]
    #[case("x86_64-freebsd.15.1", true)]
    #[case("x86_64-openbsd.7.8", true)]
    fn own_headers(#[case] target: &str, #[case] own: bool) {
        assert_eq!(Sysroot::parse(target).unwrap().headers_are_own(), own);
    }

    #[test]
    fn defaults_parse() {
        for t in DEFAULT {
            Sysroot::parse(t).unwrap();
        }
    }

    #[rstest]
    #[case(
        "x86_64-linux-gnu.2.28",
        "linux-x86_64-glibc-2.28@link:x86_64-linux-gnu.2.28"
    )]
    #[case(
        "x86_64-macos.10.14",
        "macos-10.14-x86_64-libSystem@link:x86_64-macos.10.14"
    )]
    #[case("x86_64-linux-musl", "linux-x86_64-musl-1.2.5@link:x86_64-linux-musl")]
    fn column_keys(#[case] target: &str, #[case] key: &str) {
        let p = Sysroot::parse(target)
            .unwrap()
            .platform("0.17.1", Some("1.2.5"));
        assert_eq!(p.key(), key);
    }

    /// Every stored link column says which release it is: the OS's on macOS, else the libc's
    /// (musl's from zig's bundled `version.h`), so none sorts as an unknown release.
    #[test]
    fn every_stored_link_column_has_a_version() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("targets/reports");
        let reports = crate::matrix::load::read_report_dir(&dir).unwrap();
        let mut seen = 0;
        for r in reports
            .iter()
            .filter(|r| r.report.platform.provenance.kind == "link")
        {
            let p = &r.report.platform;
            let version = match p.os.as_str() {
                "macos" => &p.os_version,
                _ => &p.libc.version,
            };
            assert!(version.is_some(), "{}: no version", r.origin.display());
            seen += 1;
        }
        assert!(seen >= 10, "{seen} link reports");
    }
}
