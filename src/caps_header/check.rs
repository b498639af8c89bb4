//! The header against the link columns: for each stored `link-*.json` report, `zig cc` for
//! that sysroot preprocesses a probe that includes the header and prints every
//! `SPAWNMATRIX_HAVE_<X>`; each must equal the column's link evidence for X. A column whose
//! family has no version macro (musl) must get `SPAWNMATRIX_CAPS_UNKNOWN_LIBC` and no claim.
//! Where zig's version macro names another release than the column (zig's
//! `__FreeBSD_version` ignores the minor release) the probe is run again with the release's
//! own value given by `-D`, and the column says so. The header must also compile
//! (`-c`, each HAVE/KNOWN asserted to be 0 or 1).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

use super::family::Scheme;
use crate::linkcheck::{Sysroot, Zig};
use crate::matrix::version::Version;
use crate::report::{Capability, Report};

/// What the preprocessor said for one column.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Values {
    pub family: Option<String>,
    pub unknown_libc: bool,
    /// The column's release lies in the detected `SPAWNMATRIX_VERSION`'s range.
    pub release_ok: bool,
    /// Suffix → (HAVE, KNOWN); a suffix the header does not define is missing.
    pub features: BTreeMap<String, (bool, bool)>,
    pub missing: Vec<String>,
}

/// One difference between the header and a link column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub feature: String,
    pub link: bool,
    /// `None`: the header does not define the macro.
    pub header: Option<(bool, bool)>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let link = self.link as u8;
        match self.header {
            None => write!(
                f,
                "SPAWNMATRIX_HAVE_{} undefined, link says {link}",
                self.feature
            ),
            Some((have, known)) => write!(
                f,
                "SPAWNMATRIX_HAVE_{} = {} (KNOWN {}), link says {link}",
                self.feature, have as u8, known as u8
            ),
        }
    }
}

/// What came of one column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Compared every capability the column has; `note` says when the version macro had to
    /// be given by hand.
    Compared {
        compared: usize,
        mismatches: Vec<Mismatch>,
        note: Option<String>,
    },
    /// A family without a version macro: the header must claim nothing. `claims` lists
    /// what it claimed anyway.
    NoMacro { family: String, claims: Vec<String> },
    /// zig could not compile the probe, or the header detected the wrong family or release.
    Failed(String),
}

impl Outcome {
    pub fn passed(&self) -> bool {
        match self {
            Outcome::Compared { mismatches, .. } => mismatches.is_empty(),
            Outcome::NoMacro { claims, .. } => claims.is_empty(),
            Outcome::Failed(_) => false,
        }
    }
}

/// The summary family and release of a link column (`linux-glibc`, `2.28`).
pub fn column_family(report: &Report) -> Option<(&'static str, Option<Version>)> {
    let p = &report.platform;
    let family = match (p.os.as_str(), p.libc.name.as_str()) {
        ("linux", "glibc") => "linux-glibc",
        ("linux", "musl") => "linux-musl",
        ("macos", _) => "macos",
        ("freebsd", _) => "freebsd",
        ("netbsd", _) => "netbsd",
        ("openbsd", _) => "openbsd",
        _ => return None,
    };
    let release = match family {
        "linux-glibc" | "linux-musl" => p.libc.version.as_deref(),
        _ => p.os_version.as_deref(),
    };
    Some((family, release.and_then(Version::parse)))
}

/// The capability name's macro suffix (`posix_spawn` → `POSIX_SPAWN`).
fn suffix_of(name: &str) -> String {
    super::suffix(&format!("x.{name}"))
}

/// The preprocessor probe: family, release range, then each feature's HAVE and KNOWN.
pub fn probe_source(names: &[String], release: Option<(u64, u64)>) -> String {
    let mut s = String::from(
        "#include \"spawnmatrix_caps.h\"\nspawnmatrix_family SPAWNMATRIX_FAMILY_NAME\n\
         spawnmatrix_unknown SPAWNMATRIX_CAPS_UNKNOWN_LIBC\n",
    );
    if let Some((lo, hi)) = release {
        s.push_str(&format!(
            "#if !SPAWNMATRIX_CAPS_UNKNOWN_LIBC && SPAWNMATRIX_VERSION >= {lo} && SPAWNMATRIX_VERSION < {hi}\n\
             spawnmatrix_release 1\n#endif\n"
        ));
    }
    for name in names {
        let x = suffix_of(name);
        s.push_str(&format!(
            "#if !defined(SPAWNMATRIX_HAVE_{x}) || !defined(SPAWNMATRIX_KNOWN_{x})\n\
             spawnmatrix_missing {x}\n#else\n\
             #if SPAWNMATRIX_HAVE_{x}\nspawnmatrix_have {x} 1\n#else\nspawnmatrix_have {x} 0\n#endif\n\
             #if SPAWNMATRIX_KNOWN_{x}\nspawnmatrix_known {x} 1\n#else\nspawnmatrix_known {x} 0\n#endif\n\
             #endif\n"
        ));
    }
    s
}

/// A C program that must compile: each macro is 0 or 1 in a constant expression.
pub fn syntax_source(names: &[String]) -> String {
    let mut s = String::from("#include \"spawnmatrix_caps.h\"\n");
    for name in names {
        let x = suffix_of(name);
        s.push_str(&format!(
            "_Static_assert((SPAWNMATRIX_HAVE_{x} == 0 || SPAWNMATRIX_HAVE_{x} == 1) && \
             (SPAWNMATRIX_KNOWN_{x} == 0 || SPAWNMATRIX_KNOWN_{x} == 1), \"{x}\");\n"
        ));
    }
    s.push_str("int main(void) { return SPAWNMATRIX_CAPS_UNKNOWN_LIBC; }\n");
    s
}

/// Reads the preprocessed probe.
pub fn parse_values(preprocessed: &str) -> Values {
    let mut v = Values::default();
    for line in preprocessed.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["spawnmatrix_family", name] => {
                v.family = name
                    .strip_prefix('"')
                    .and_then(|n| n.strip_suffix('"'))
                    .map(str::to_string)
            }
            ["spawnmatrix_unknown", flag] => v.unknown_libc = *flag == "1",
            ["spawnmatrix_release", "1"] => v.release_ok = true,
            ["spawnmatrix_missing", x] => v.missing.push(x.to_string()),
            ["spawnmatrix_have", x, b] => {
                v.features.entry(x.to_string()).or_default().0 = *b == "1"
            }
            ["spawnmatrix_known", x, b] => {
                v.features.entry(x.to_string()).or_default().1 = *b == "1"
            }
            _ => {}
        }
    }
    v
}

/// Every capability of the link column against the header's values.
pub fn compare(link: &BTreeMap<String, Capability>, values: &Values) -> Vec<Mismatch> {
    link.iter()
        .filter_map(|(name, cap)| {
            let x = suffix_of(name);
            let header = values.features.get(&x).copied();
            (header.map(|h| h.0) != Some(cap.available)).then_some(Mismatch {
                feature: x,
                link: cap.available,
                header,
            })
        })
        .collect()
}

/// What the header claims where it should claim nothing (a family without a version macro).
pub fn claims(values: &Values) -> Vec<String> {
    let mut out: Vec<String> = values
        .features
        .iter()
        .filter(|(_, (have, known))| *have || *known)
        .map(|(x, (have, known))| format!("{x}: HAVE {} KNOWN {}", *have as u8, *known as u8))
        .collect();
    if !values.unknown_libc {
        out.push("SPAWNMATRIX_CAPS_UNKNOWN_LIBC is not 1".to_string());
    }
    out.extend(values.missing.iter().map(|x| format!("{x}: not defined")));
    out
}

/// Checks `header` (its text) against one link report.
pub fn check_column(zig: &Zig, header: &str, report: &Report) -> Outcome {
    let Some((family, release)) = column_family(report) else {
        return Outcome::Failed(format!(
            "no summary family for platform {}",
            report.platform.key()
        ));
    };
    let sysroot = match Sysroot::parse(&report.platform.target) {
        Ok(s) => s,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let names: Vec<String> = report.capabilities.keys().cloned().collect();
    let scheme = Scheme::of(family);
    let range = scheme.zip(release.as_ref()).and_then(|(scheme, r)| {
        let lo = scheme.key(r.parts())?;
        let next = {
            let mut p = r.parts().to_vec();
            if let Some(last) = p.last_mut() {
                *last += 1;
            }
            p
        };
        Some((lo, scheme.key(&next).unwrap_or(lo + 1)))
    });
    if scheme.is_some() && range.is_none() {
        return Outcome::Failed(format!(
            "{family}: the release {release:?} has no macro value"
        ));
    }
    let dir = match tempfile::Builder::new()
        .prefix("spawnmatrix-caps-")
        .tempdir()
    {
        Ok(d) => d,
        Err(e) => return Outcome::Failed(format!("creating a temporary directory: {e}")),
    };
    let run = |defines: &[String]| -> Result<Values, String> {
        let d = dir.path();
        std::fs::write(d.join("spawnmatrix_caps.h"), header).map_err(|e| e.to_string())?;
        std::fs::write(d.join("probe.c"), probe_source(&names, range))
            .map_err(|e| e.to_string())?;
        std::fs::write(d.join("syntax.c"), syntax_source(&names)).map_err(|e| e.to_string())?;
        let mut base: Vec<OsString> = vec!["-I".into(), d.as_os_str().into()];
        base.extend(defines.iter().map(OsString::from));
        let zig_run = |extra: &[OsString]| {
            let args: Vec<OsString> = base.iter().chain(extra).cloned().collect();
            zig.cc(&sysroot, &args)
                .map_err(|e| format!("running zig: {e}"))
        };
        let pre = zig_run(&["-E".into(), d.join("probe.c").into()])?;
        if !pre.success {
            return Err(format!(
                "preprocessing failed: {}",
                crate::linkcheck::summary(&pre.stderr)
            ));
        }
        // `-c`, not `-fsyntax-only`: zig cc still renames an output file after the latter.
        let syntax = zig_run(&[
            "-c".into(),
            d.join("syntax.c").into(),
            "-o".into(),
            d.join("syntax.o").into(),
        ])?;
        if !syntax.success {
            return Err(format!(
                "the header does not compile: {}",
                crate::linkcheck::summary(&syntax.stderr)
            ));
        }
        Ok(parse_values(&pre.stdout))
    };
    let mut values = match run(&[]) {
        Ok(v) => v,
        Err(e) => return Outcome::Failed(e),
    };
    let Some(scheme) = scheme else {
        return Outcome::NoMacro {
            family: family.to_string(),
            claims: claims(&values),
        };
    };
    if values.family.as_deref() != Some(family) {
        return Outcome::Failed(format!(
            "the header detected {:?}, the column is {family}",
            values.family
        ));
    }
    let mut note = None;
    if !values.release_ok {
        let parts = release
            .as_ref()
            .map(|r| r.parts().to_vec())
            .unwrap_or_default();
        let Some(raw) = scheme.raw_value(&parts) else {
            return Outcome::Failed("the release has no raw macro value".to_string());
        };
        let name = scheme.raw_macro();
        let defines = [format!("-U{name}"), format!("-D{name}={raw}")];
        values = match run(&defines) {
            Ok(v) if v.release_ok => v,
            Ok(_) => {
                return Outcome::Failed(format!(
                    "SPAWNMATRIX_VERSION does not name this release, even with -D{name}={raw}"
                ))
            }
            Err(e) => return Outcome::Failed(e),
        };
        note = Some(format!(
            "zig's {name} names another release; checked with -D{name}={raw}"
        ));
    }
    Outcome::Compared {
        compared: report.capabilities.len(),
        mismatches: compare(&report.capabilities, &values),
        note,
    }
}

/// Checks every link report in `reports` (sorted by file) on up to `jobs` threads.
pub fn check_all(
    zig: &Zig,
    header: &str,
    reports: &[(std::path::PathBuf, Report)],
    jobs: usize,
) -> Vec<(String, Outcome)> {
    let out = crate::linkcheck::pool::map(reports, jobs, |(_, report)| {
        check_column(zig, header, report)
    });
    reports
        .iter()
        .zip(out)
        .map(|((path, report), o)| {
            let name = path.file_name().map_or_else(
                || report.platform.target.clone(),
                |n| n.to_string_lossy().into_owned(),
            );
            (name, o)
        })
        .collect()
}

/// The stored link reports of `targets/reports`.
pub fn link_reports(
    dir: &Path,
) -> Result<Vec<(std::path::PathBuf, Report)>, crate::matrix::MatrixError> {
    let mut out: Vec<(std::path::PathBuf, Report)> = crate::matrix::load::read_report_dir(dir)?
        .into_iter()
        .filter(|r| r.report.platform.provenance.kind == "link")
        .map(|r| (r.origin, r.report))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn cap(available: bool) -> Capability {
        Capability {
            available,
            how: "link".to_string(),
            note: None,
            source: None,
        }
    }

    const PRE: &str =
        "# 1 \"probe.c\"\nspawnmatrix_family \"linux-glibc\"\nspawnmatrix_unknown 0\n\
        spawnmatrix_release 1\nspawnmatrix_have POSIX_SPAWN 1\nspawnmatrix_known POSIX_SPAWN 1\n\
        spawnmatrix_have POSIX_SPAWN_FILE_ACTIONS_ADDCHDIR_NP 0\n\
        spawnmatrix_known POSIX_SPAWN_FILE_ACTIONS_ADDCHDIR_NP 1\n";

    #[rstest]
    #[case("posix_spawn", true, None)]
    #[case("posix_spawn", false, Some(Some((true, true))))]
    #[case("posix_spawn_file_actions_addchdir_np", false, None)]
    #[case("posix_spawn_file_actions_addchdir_np", true, Some(Some((false, true))))]
    #[case("pidfd_spawn", false, Some(None))]
    fn compares(
        #[case] name: &str,
        #[case] link: bool,
        #[case] want: Option<Option<(bool, bool)>>,
    ) {
        let values = parse_values(PRE);
        assert_eq!(values.family.as_deref(), Some("linux-glibc"));
        assert!(values.release_ok && !values.unknown_libc);
        let link = BTreeMap::from([(name.to_string(), cap(link))]);
        let got = compare(&link, &values);
        assert_eq!(got.first().map(|m| m.header), want, "{got:?}");
    }

    #[test]
    fn a_family_without_macro_must_claim_nothing() {
        let quiet = parse_values("spawnmatrix_family SPAWNMATRIX_FAMILY_NAME\nspawnmatrix_unknown 1\nspawnmatrix_have POSIX_SPAWN 0\nspawnmatrix_known POSIX_SPAWN 0\n");
        assert_eq!(quiet.family, None);
        assert!(claims(&quiet).is_empty());
        let loud = parse_values("spawnmatrix_unknown 0\nspawnmatrix_have POSIX_SPAWN 1\n");
        assert_eq!(claims(&loud).len(), 2);
    }
}
