//! The generated compile-time caps against the matrix data: `docs/spawnmatrix_caps.rs` (as a
//! build script would `include!` it) answers known boundaries and agrees with every stored
//! link column; `docs/spawnmatrix_caps.h`, compiled by zig for a link column's sysroot,
//! agrees with it, and stops agreeing when a boundary is moved.
//!
//! The zig tests need zig (`ci/setup.sh` installs it) and the preprocessor tests a C
//! compiler; without one they skip and say so (`tools`). The family tests hold on any host:
//! they ask the header which family this compiler is, or simulate the one
//! `SPAWNMATRIX_TEST_FAMILY` names (how `ci/checks/81-bare-runner.sh` runs them for each
//! family off Linux).

use std::path::{Path, PathBuf};

use rstest::rstest;
use spawnmatrix::caps_header::check::{self, Outcome};
use spawnmatrix::caps_header::family::FAMILIES;
use spawnmatrix::report::Report;

mod tools;

mod generated {
    include!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/spawnmatrix_caps.rs"
    ));
}
use generated::{spawnmatrix_baseline, spawnmatrix_cfgs, spawnmatrix_have};

/// The Rust file's baselines give the release to ask for; a musl baseline has none (no ranges).
#[rstest]
#[case("manylinux2014", Some(false))]
#[case("ubuntu-20.04", Some(true))]
#[case("macos-10.15", Some(true))]
fn baseline_presets_answer(#[case] id: &str, #[case] want: Option<bool>) {
    let (os, env, release) = spawnmatrix_baseline(id).expect("a preset");
    assert_eq!(spawnmatrix_have(ADDCHDIR, os, env, release), want);
    assert!(spawnmatrix_baseline("alpine-3.18").is_none());
}

/// The family macros some host compiler predefines: a simulated platform undefines them
/// all first, so no host's own family wins over the simulated one.
const HOST_MACROS: &[&str] = &[
    "__linux__",
    "__gnu_linux__",
    "__APPLE__",
    "__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__",
    "__FreeBSD__",
    "__NetBSD__",
    "__OpenBSD__",
    "__CYGWIN__",
    "__sun",
    "__ANDROID__",
];

/// The version headers the header includes, stubbed empty on a simulated platform.
const STUBS: &[&str] = &[
    "features.h",
    "android/api-level.h",
    "AvailabilityMacros.h",
    "sys/param.h",
    "cygwin/version.h",
];

/// What a compiler of `family` predefines (one release's version macros); `None` for a name
/// this table lacks.
fn family_defines(family: &str) -> Option<&'static [&'static str]> {
    Some(match family {
        "linux-glibc" => &["-D__linux__", "-D__GLIBC__=2", "-D__GLIBC_MINOR__=36"],
        "linux-musl" => &["-D__linux__"],
        "android" => &["-D__linux__", "-D__ANDROID__", "-D__ANDROID_API__=34"],
        "macos" => &[
            "-D__APPLE__",
            "-D__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__=150000",
        ],
        "freebsd" => &["-D__FreeBSD__=14", "-D__FreeBSD_version=1401000"],
        "netbsd" => &["-D__NetBSD__", "-D__NetBSD_Version__=1001000000"],
        "openbsd" => &["-D__OpenBSD__", "-DOpenBSD=202510"],
        "cygwin" => &[
            "-D__CYGWIN__",
            "-DCYGWIN_VERSION_DLL_MAJOR=3005",
            "-DCYGWIN_VERSION_DLL_MINOR=0",
        ],
        "illumos-gate" => &["-D__sun", "-D__SVR4", "-D__illumos__"],
        "solaris" => &["-D__sun", "-D__SVR4"],
        _ => return None,
    })
}

/// `SPAWNMATRIX_TEST_FAMILY`, a test-only switch: the family whose compiler the family
/// tests simulate instead of asking the host's.
fn test_family() -> Option<String> {
    std::env::var("SPAWNMATRIX_TEST_FAMILY")
        .ok()
        .filter(|f| !f.is_empty())
}

/// How [`preprocess`] sees the platform.
enum As<'a> {
    /// The host compiler, or the family `SPAWNMATRIX_TEST_FAMILY` names, plus these defines.
    Detected(&'a [&'a str]),
    /// A platform given by its macros alone (the host's undefined, version headers stubbed).
    Simulated(&'a [&'a str]),
}

/// Preprocesses `source` next to the header; `None` (printed) without a C compiler.
fn preprocess(source: &str, platform: As) -> Option<std::process::Output> {
    let cc = tools::c_compiler()?;
    let switched = test_family().map(|f| {
        family_defines(&f)
            .unwrap_or_else(|| panic!("SPAWNMATRIX_TEST_FAMILY={f}: not a family this test knows"))
    });
    let (simulate, defines): (bool, Vec<&str>) = match platform {
        As::Detected(extra) => match switched {
            Some(own) => (true, own.iter().chain(extra).copied().collect()),
            None => (false, extra.to_vec()),
        },
        As::Simulated(own) => (true, own.to_vec()),
    };
    let dir = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = Vec::new();
    if simulate {
        args.extend(HOST_MACROS.iter().map(|m| format!("-U{m}")));
        for stub in STUBS {
            let path = dir.path().join(stub);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
    }
    args.extend(defines.iter().map(|d| d.to_string()));
    std::fs::write(dir.path().join("spawnmatrix_caps.h"), header()).unwrap();
    let probe = dir.path().join("probe.c");
    std::fs::write(&probe, source).unwrap();
    let out = std::process::Command::new(cc)
        .args(&args)
        .arg("-I")
        .arg(dir.path())
        .arg("-E")
        .arg(&probe)
        .output()
        .unwrap();
    Some(out)
}

/// The baselines the header offers, as `(macro, family)`, from its own list.
fn baselines() -> Vec<(String, String)> {
    header()
        .lines()
        .filter_map(|l| {
            let mut words = l.trim_start_matches(" *").split_whitespace();
            let name = words.next()?;
            name.strip_prefix("SPAWNMATRIX_BASELINE_")?;
            Some((name.to_string(), words.next()?.to_string()))
        })
        .filter(|(name, _)| !name.ends_with("<ID>"))
        .collect()
}

/// A baseline of another family than the one detected stops the build and names the
/// detected family; where no family is detected (musl, illumos), a baseline changes nothing
/// and every answer stays unknown.
#[test]
fn a_baseline_of_another_family_is_an_error() {
    let source = check::probe_source(&[ADDCHDIR.to_string()], None);
    let Some(out) = preprocess(&source, As::Detected(&[])) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let detected = check::parse_values(&text).family;
    if let Some(family) = test_family() {
        let has_macro = FAMILIES.iter().any(|(f, _)| *f == family);
        assert_eq!(detected, has_macro.then_some(family));
    }
    let all = baselines();
    assert!(all.len() >= 20, "{all:?}");
    let (baseline, other) = all
        .iter()
        .find(|(_, family)| Some(family) != detected.as_ref())
        .expect("a baseline of another family");
    let define = format!("-D{baseline}");
    let out = preprocess(&source, As::Detected(&[&define])).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    match &detected {
        Some(family) => {
            assert!(
                !out.status.success(),
                "{baseline} ({other}) accepted as {family}"
            );
            let want = format!("not a {family} baseline");
            assert!(stderr.contains(&want), "{baseline} ({other}): {stderr}");
        }
        None => {
            assert!(out.status.success(), "{stderr}");
            let values = check::parse_values(&String::from_utf8_lossy(&out.stdout));
            assert!(values.unknown_libc, "{values:?}");
        }
    }
}

const ADDCHDIR: &str = "posix_spawn_file_actions_addchdir_np";

#[rstest]
#[case(ADDCHDIR, "linux", "gnu", "2.28", Some(false))]
#[case(ADDCHDIR, "linux", "gnu", "2.29", Some(true))]
#[case(ADDCHDIR, "linux", "gnu", "2.45", Some(true))]
#[case(ADDCHDIR, "linux", "gnu", "2.16", None)]
#[case(ADDCHDIR, "linux", "musl", "1.2.5", None)]
#[case(ADDCHDIR, "macos", "", "10.14", Some(false))]
#[case(ADDCHDIR, "macos", "", "10.15", Some(true))]
#[case(ADDCHDIR, "freebsd", "", "13.0", Some(false))]
#[case(ADDCHDIR, "freebsd", "", "13.1", None)]
#[case(ADDCHDIR, "freebsd", "", "14.0", Some(true))]
#[case(ADDCHDIR, "cygwin", "", "3.4.10", Some(false))]
#[case(ADDCHDIR, "cygwin", "", "3.5.0", Some(true))]
#[case(ADDCHDIR, "android", "", "14", Some(true))]
#[case(ADDCHDIR, "netbsd", "", "11.0", Some(false))]
#[case(ADDCHDIR, "netbsd", "", "12.0", None)]
#[case(
    "functions.posix_spawn_file_actions_addchdir_np",
    "linux",
    "gnu",
    "2.29",
    Some(true)
)]
#[case("pidfd_spawn", "linux", "gnu", "2.36", Some(false))]
#[case("pidfd_spawn", "linux", "gnu", "2.38", None)]
#[case("pidfd_spawn", "linux", "gnu", "2.39", Some(true))]
#[case("POSIX_SPAWN_SETSID", "macos", "", "10.15", Some(true))]
#[case("posix_spawn", "linux", "gnu", "2.2", Some(true))]
#[case("no_such_function", "linux", "gnu", "2.29", None)]
#[case(ADDCHDIR, "windows", "msvc", "10", None)]
fn answers(
    #[case] feature: &str,
    #[case] os: &str,
    #[case] env: &str,
    #[case] version: &str,
    #[case] want: Option<bool>,
) {
    assert_eq!(spawnmatrix_have(feature, os, env, version), want);
}

#[rstest]
#[case("2.28", false)]
#[case("2.29", true)]
fn cfgs_follow_the_boundary(#[case] version: &str, #[case] have: bool) {
    let cfgs = spawnmatrix_cfgs("linux", "gnu", version);
    let cfg = format!("spawnmatrix_have_{ADDCHDIR}");
    assert_eq!(
        cfgs.iter().find(|(c, _)| *c == cfg).map(|(_, h)| *h),
        Some(have)
    );
    assert!(cfgs
        .iter()
        .any(|(c, _)| c == "spawnmatrix_have_posix_spawn_setsid"));
}

fn link_reports() -> Vec<(PathBuf, Report)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets/reports");
    let reports = check::link_reports(&dir).unwrap();
    assert!(reports.len() >= 10, "only {} link reports", reports.len());
    reports
}

/// Rust's `target_os`/`target_env` and the release of a link column.
fn rust_target(report: &Report) -> (&'static str, &'static str, String) {
    let (family, release) = check::column_family(report).unwrap();
    let release = release.map(|v| {
        let parts: Vec<String> = v.parts().iter().map(u64::to_string).collect();
        parts.join(".")
    });
    let (os, env) = match family {
        "linux-glibc" => ("linux", "gnu"),
        "linux-musl" => ("linux", "musl"),
        other => (other, ""),
    };
    (os, env, release.unwrap_or_default())
}

#[test]
fn every_link_column_agrees_with_the_rust_data() {
    let mut compared = 0;
    for (path, report) in link_reports() {
        let (os, env, release) = rust_target(&report);
        for (name, cap) in &report.capabilities {
            let got = spawnmatrix_have(name, os, env, &release);
            let want = match env {
                "musl" => None,
                _ => Some(cap.available),
            };
            assert_eq!(got, want, "{}: {name}", path.display());
            compared += 1;
        }
    }
    assert!(compared > 300, "{compared}");
}

fn column(file: &str) -> Report {
    link_reports()
        .into_iter()
        .find(|(p, _)| p.file_name().is_some_and(|n| n == file))
        .unwrap_or_else(|| panic!("no {file}"))
        .1
}

fn header() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/spawnmatrix_caps.h"))
        .unwrap()
}

#[rstest]
#[case("link-x86_64-linux-gnu.2.28.json")]
#[case("link-x86_64-linux-gnu.2.29.json")]
#[case("link-x86_64-macos.10.15.json")]
#[case("link-x86_64-linux-musl.json")]
fn the_header_agrees_with_a_link_column(#[case] file: &str) {
    let Some(zig) = tools::zig() else { return };
    let outcome = check::check_column(&zig, &header(), &column(file));
    assert!(outcome.passed(), "{outcome:?}");
}

#[test]
fn a_moved_boundary_fails_the_check() {
    let Some(zig) = tools::zig() else { return };
    let line = format!(
        "SPAWNMATRIX_HAVE_{} (SPAWNMATRIX_VERSION >= 2029)",
        ADDCHDIR.to_uppercase()
    );
    let header = header();
    assert!(
        header.contains(&line),
        "the glibc boundary is not where this test expects it"
    );
    let moved = header.replace(&line, &line.replace("2029", "2030"));
    match check::check_column(&zig, &moved, &column("link-x86_64-linux-gnu.2.29.json")) {
        Outcome::Compared { mismatches, .. } => {
            let names: Vec<&str> = mismatches.iter().map(|m| m.feature.as_str()).collect();
            assert_eq!(names, [ADDCHDIR.to_uppercase()]);
        }
        other => panic!("{other:?}"),
    }
}

/// The branches zig has no sysroot for (Cygwin, Android, Solaris, macOS's 4-digit and
/// `<AvailabilityMacros.h>` forms), preprocessed by the host's C compiler with the platform's
/// macros given by hand, the host's own undefined and the version headers stubbed empty.
#[rstest]
#[case(&["-U__linux__", "-D__CYGWIN__", "-DCYGWIN_VERSION_DLL_MAJOR=3005", "-DCYGWIN_VERSION_DLL_MINOR=0"], Some("cygwin"), ADDCHDIR, (true, true))]
#[case(&["-U__linux__", "-D__CYGWIN__", "-DCYGWIN_VERSION_DLL_MAJOR=3004", "-DCYGWIN_VERSION_DLL_MINOR=10"], Some("cygwin"), ADDCHDIR, (false, true))]
#[case(&["-U__linux__", "-D__CYGWIN__", "-DCYGWIN_VERSION_DLL_MAJOR=3002", "-DCYGWIN_VERSION_DLL_MINOR=0"], Some("cygwin"), ADDCHDIR, (false, true))]
#[case(&["-D__ANDROID__", "-D__ANDROID_API__=34"], Some("android"), ADDCHDIR, (true, true))]
#[case(&["-D__ANDROID__", "-D__ANDROID_API__=28"], Some("android"), ADDCHDIR, (false, true))]
// API 30 lies between the documented releases 9 (API 28) and 13 (API 33), both without it.
#[case(&["-D__ANDROID__", "-D__ANDROID_API__=30"], Some("android"), ADDCHDIR, (false, true))]
#[case(&["-U__linux__", "-D__APPLE__", "-D__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__=1090"], Some("macos"), "posix_spawn", (true, true))]
#[case(&["-U__linux__", "-D__APPLE__", "-D__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__=1090"], Some("macos"), ADDCHDIR, (false, false))]
#[case(&["-U__linux__", "-D__APPLE__", "-DMAC_OS_X_VERSION_MIN_REQUIRED=101500"], Some("macos"), ADDCHDIR, (true, true))]
#[case(&["-U__linux__", "-D__sun", "-D__SVR4"], None, "posix_spawn", (false, false))]
// A baseline preset answers for its release, not the compiler's glibc (2.36): manylinux2014
// is glibc 2.17, before addchdir_np (2.29); Ubuntu 20.04 is 2.31, after it.
#[case(&["-D__linux__", "-D__GLIBC__=2", "-D__GLIBC_MINOR__=36", "-DSPAWNMATRIX_BASELINE_MANYLINUX2014"], Some("linux-glibc"), ADDCHDIR, (false, true))]
#[case(&["-D__linux__", "-D__GLIBC__=2", "-D__GLIBC_MINOR__=36", "-DSPAWNMATRIX_BASELINE_UBUNTU_20_04"], Some("linux-glibc"), ADDCHDIR, (true, true))]
#[case(&["-D__ANDROID__", "-D__ANDROID_API__=28", "-DSPAWNMATRIX_BASELINE_ANDROID_API_34"], Some("android"), ADDCHDIR, (true, true))]
fn simulated_platforms(
    #[case] defines: &[&str],
    #[case] family: Option<&str>,
    #[case] feature: &str,
    #[case] want: (bool, bool),
) {
    let source = check::probe_source(&[feature.to_string()], None);
    let Some(out) = preprocess(&source, As::Simulated(defines)) else {
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let values = check::parse_values(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(values.family.as_deref(), family);
    assert_eq!(values.unknown_libc, family.is_none());
    let x = feature.to_uppercase();
    assert_eq!(values.features.get(&x), Some(&want), "{values:?}");
}

/// A header that does not compile, or detects no family, fails the column, labelled.
#[rstest]
#[case(
    "#endif /* SPAWNMATRIX_CAPS_H */",
    "#error broken\n#endif",
    "preprocessing failed"
)]
#[case(
    "defined(__GLIBC_MINOR__)",
    "defined(__NO_SUCH_MACRO__)",
    "the header detected None"
)]
fn a_broken_header_is_labelled(#[case] from: &str, #[case] to: &str, #[case] why: &str) {
    let Some(zig) = tools::zig() else { return };
    let header = header();
    assert!(header.contains(from));
    let broken = header.replace(from, to);
    match check::check_column(&zig, &broken, &column("link-x86_64-linux-gnu.2.28.json")) {
        Outcome::Failed(reason) => assert!(reason.contains(why), "{reason}"),
        other => panic!("{other:?}"),
    }
}
