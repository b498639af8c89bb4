//! Documented claims against facts checked by hand in each libc's own tree (issue 14): every row
//! pins one corrected boundary or citation of `targets/*/platform.yaml`, the way
//! `tests/linkcheck_facts.rs` pins link evidence. `None` means no claim may cover that release
//! (the evidence does not settle it).

use std::path::Path;

use rstest::rstest;
use serde_json::json;
use spawnmatrix::matrix::docs::{Docs, Family};
use spawnmatrix::matrix::version::Release;
use spawnmatrix::matrix::Value;

fn family(name: &str) -> Family {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets");
    let docs = Docs::load(&targets).unwrap();
    docs.families
        .into_iter()
        .find(|f| f.spec.family == name)
        .unwrap_or_else(|| panic!("no family {name}"))
}

fn value(v: serde_json::Value) -> Value {
    serde_json::from_value(v).unwrap()
}

#[rstest]
// FreeBSD: absent in 13.0 (gnulib), present from 14.0 (FBSD_1.7 in Symbol.map); 13.1 is not
// settled, so nothing may claim it (the zig 13.1 "absent" came from a shared-object link).
#[case("freebsd", "functions.posix_spawn_file_actions_addchdir_np", "13.0", Some(json!(false)), "GNULIB-NP")]
#[case(
    "freebsd",
    "functions.posix_spawn_file_actions_addchdir_np",
    "13.1",
    None,
    ""
)]
#[case(
    "freebsd",
    "functions.posix_spawn_file_actions_addfchdir_np",
    "13.1",
    None,
    ""
)]
#[case(
    "freebsd",
    "functions.posix_spawn_file_actions_addclosefrom_np",
    "13.1",
    None,
    ""
)]
#[case("freebsd", "functions.posix_spawn_file_actions_addchdir_np", "14.0", Some(json!(true)), "FB-SYMBOLS")]
// FreeBSD citations: the close rule and the negative-fd check are in posix_spawn.c.
#[case("freebsd", "cases.fa-close-not-open.libc", "14.0", Some(json!("ok")), "FB-SRC")]
#[case("freebsd", "cases.fchdir-add-negative-fd.libc", "14.0", Some(json!("add:EBADF")), "FB-SRC")]
// macOS: the kernel's close fails the spawn (kern_exec.c); the four functions are absent in 14
// by gnulib and in 15 by xnu-11417's own <spawn.h>.
#[case("macos", "cases.fa-close-not-open.libc", "15", Some(json!("returned:EBADF")), "XNU-KEXEC")]
#[case("macos", "functions.posix_spawn_file_actions_addclosefrom_np", "14", Some(json!(false)), "GNULIB-MAC14")]
#[case("macos", "functions.posix_spawn_file_actions_addclosefrom_np", "15", Some(json!(false)), "XNU-H-ALL")]
#[case("macos", "functions.pidfd_spawn", "15", Some(json!(false)), "XNU-H-ALL")]
#[case(
    "macos",
    "functions.posix_spawn_file_actions_addtcsetpgrp_np",
    "26",
    None,
    ""
)]
#[case("macos", "cases.spawnp-script-no-shebang.libc", "15", Some(json!("ok")), "APPLE-LIBC")]
// Cygwin: addtcsetpgrp_np's absence is read from newlib's <spawn.h>, not from gnulib.
#[case("cygwin", "functions.posix_spawn_file_actions_addtcsetpgrp_np", "3.6.10", Some(json!(false)), "CYG-H")]
#[case("cygwin", "cases.spawnp-script-no-shebang.libc", "3.4.10", Some(json!("ok")), "GNULIB-SPAWNP")]
#[case("cygwin", "cases.spawnp-script-no-shebang.libc", "3.5.0", Some(json!("returned:ENOEXEC")), "CYG-REL-3.5.0")]
#[case("cygwin", "cases.exec-enotdir.libc", "3.6.10", Some(json!("returned:ENOENT")), "CYG-TEST")]
// OpenBSD: the scheduling flags are defined and accepted but '#if 0 /* NOT IMPLEMENTED */'.
#[case("openbsd", "flags.POSIX_SPAWN_SETSCHEDULER", "7.8", Some(json!("ignored")), "OB-SRC")]
#[case("openbsd", "flags.POSIX_SPAWN_SETSCHEDPARAM", "7.8", Some(json!("ignored")), "OB-SRC")]
#[case("openbsd", "cases.exec-enoent.libc", "7.8", Some(json!("child-exit:127")), "OB-SRC")]
// Solaris 11.4: which SRU added the POSIX names is unknown, so no claim.
#[case(
    "solaris",
    "functions.posix_spawn_file_actions_addchdir",
    "11.4",
    None,
    ""
)]
#[case(
    "solaris",
    "functions.posix_spawn_file_actions_addfchdir",
    "11.4",
    None,
    ""
)]
// glibc: the /bin/sh retry came back by mistake in 2.24-2.27 (BZ 23264).
#[case("linux-glibc", "cases.spawnp-script-no-shebang.libc", "2.23", Some(json!("child-exit:127")), "GL-POSIXSPAWNI-2.23")]
#[case("linux-glibc", "cases.spawnp-script-no-shebang.libc", "2.24", Some(json!("ok")), "GL-SPAWNI-2.27")]
#[case("linux-glibc", "cases.spawnp-script-no-shebang.libc", "2.27", Some(json!("ok")), "GL-SPAWNI-2.27")]
#[case("linux-glibc", "cases.spawnp-script-no-shebang.libc", "2.28", Some(json!("returned:ENOEXEC")), "GL-SPAWNI-2.28")]
#[case("linux-glibc", "cases.exec-enoent.libc", "2.23", Some(json!("child-exit:127")), "GL-POSIXSPAWNI-2.23")]
#[case("linux-glibc", "cases.exec-enoent.libc", "2.24", Some(json!("returned:ENOENT")), "GL-SPAWNI-2.24")]
// adddup2(fd, fd) clearing FD_CLOEXEC: glibc from 2.29 (BZ 23640), musl from 1.1.19; macOS
// never (the kernel's dup2 returns early).
#[case("linux-glibc", "cases.fa-dup2-self-cloexec-visible.libc", "2.28", Some(json!("child-exit:7")), "GL-DUP2-OLD")]
#[case("linux-glibc", "cases.fa-dup2-self-cloexec-visible.libc", "2.29", Some(json!("ok")), "GL-SPAWNI-2.29")]
#[case("linux-musl", "cases.fa-dup2-self-cloexec-visible.libc", "1.1.17", Some(json!("child-exit:7")), "MUSL-1.1.17-DUP2")]
#[case("linux-musl", "cases.fa-dup2-self-cloexec-visible.libc", "1.1.19", Some(json!("ok")), "MUSL-1.1.19")]
#[case("macos", "cases.fa-dup2-self-cloexec-visible.libc", "15", Some(json!("child-exit:7")), "XNU-DUP2")]
// musl: scheduling flags accepted but ignored; addclose of a closed fd ignored from 1.1.6.
#[case("linux-musl", "flags.POSIX_SPAWN_SETSCHEDULER", "1.2.5", Some(json!("ignored")), "MUSL-SCHED")]
#[case("linux-musl", "cases.fa-close-not-open.libc", "1.1.6", Some(json!("ok")), "MUSL-1.1.6")]
// bionic and NetBSD error styles.
#[case("android", "cases.exec-enoent.libc", "14", Some(json!("child-exit:127")), "BIO-2017")]
#[case("netbsd", "cases.exec-enoent.libc", "10.0", Some(json!("returned:ENOENT")), "NB-KERN")]
// Error semantics off Linux (issue 14, part 3): one row per filled cell of the summary's
// error section, read from each libc's own tree.
#[case("linux-glibc", "cases.fchdir-add-negative-fd.libc", "2.29", Some(json!("returned:EBADF")), "GL-CHDIR-2.29")]
#[case("linux-glibc", "cases.chdir-enoent.libc", "2.29", Some(json!("returned:ENOENT")), "GL-CHDIR-2.29")]
#[case("linux-glibc", "cases.fchdir-add-negative-fd.libc", "2.28", None, "")]
#[case("linux-glibc", "cases.fchdir-add-negative-fd-posix.libc", "2.43", Some(json!("unsupported")), "GNULIB-POSIXNAMES")]
#[case(
    "linux-glibc",
    "cases.fchdir-add-negative-fd-posix.libc",
    "2.44",
    None,
    ""
)]
#[case("linux-glibc", "cases.attr-setflags-undefined-bit.libc", "2.3.3", Some(json!("ok")), "GL-SETFLAGS-2.2")]
#[case("linux-glibc", "cases.attr-setflags-undefined-bit.libc", "2.3.4", Some(json!("add:EINVAL")), "GL-SETFLAGS-2.3.4")]
#[case("linux-musl", "cases.attr-setflags-undefined-bit.libc", "1.1.16", Some(json!("ok")), "MUSL-SETFLAGS-OLD")]
#[case("linux-musl", "cases.attr-setflags-undefined-bit.libc", "1.1.17", Some(json!("add:EINVAL")), "MUSL-SCHED")]
#[case("linux-musl", "cases.dup2-add-fd-beyond-open-max.libc", "1.2.3", Some(json!("returned:EBADF")), "MUSL-DUP2-1.2.3")]
#[case("linux-musl", "cases.fchdir-add-negative-fd-posix.libc", "1.2.5", Some(json!("unsupported")), "MUSL-SRC")]
#[case("cygwin", "cases.dup2-add-fd-beyond-open-max.libc", "3.1.7", Some(json!("returned:EBADF")), "CYG-DUP2")]
#[case("cygwin", "cases.fchdir-add-negative-fd-posix.libc", "3.5.0", Some(json!("unsupported")), "CYG-REL-3.6.0")]
#[case("cygwin", "cases.fchdir-add-negative-fd-posix.libc", "3.6.0", Some(json!("add:EBADF")), "CYG-FCHDIR-POSIX")]
#[case("macos", "cases.attr-setflags-undefined-bit.libc", "15", Some(json!("ok")), "XNU-DATAEXEC")]
#[case("macos", "cases.fchdir-add-negative-fd-posix.libc", "14", Some(json!("unsupported")), "GNULIB-POSIXNAMES")]
#[case("macos", "cases.fchdir-add-negative-fd-posix.libc", "15", Some(json!("unsupported")), "XNU-H-ALL")]
#[case("macos", "cases.fchdir-add-negative-fd-posix.libc", "26", None, "")]
#[case("freebsd", "cases.fchdir-add-negative-fd-posix.libc", "14.0", Some(json!("unsupported")), "GNULIB-POSIXNAMES")]
#[case("freebsd", "cases.fchdir-add-negative-fd-posix.libc", "15.0", None, "")]
#[case("netbsd", "cases.fa-dup2-self-cloexec-visible.libc", "10.0", Some(json!("child-exit:7")), "NB-DUP")]
#[case("netbsd", "cases.attr-setflags-undefined-bit.libc", "10.0", Some(json!("ok")), "NB-ATTR")]
#[case("openbsd", "cases.fchdir-add-negative-fd-posix.libc", "7.8", Some(json!("unsupported")), "GNULIB-POSIXNAMES")]
#[case("android", "cases.chdir-enoent.libc", "13", Some(json!("unsupported")), "BIO-H")]
#[case("android", "cases.chdir-enoent.libc", "14", Some(json!("child-exit:127")), "BIO-SRC")]
#[case("android", "cases.fchdir-add-negative-fd.libc", "13", Some(json!("unsupported")), "BIO-H")]
#[case("android", "cases.fa-dup2-self-cloexec-visible.libc", "12", Some(json!("child-exit:7")), "BIO-DUP2-FIX")]
#[case("android", "cases.fa-dup2-self-cloexec-visible.libc", "13", None, "")]
#[case("android", "cases.fchdir-add-negative-fd-posix.libc", "14", Some(json!("unsupported")), "BIO-H-ALL")]
#[case("illumos-gate", "cases.dup2-add-fd-beyond-open-max.libc", "2008", Some(json!("returned:EBADF")), "IL-FCNTL")]
#[case("illumos-gate", "cases.fchdir-add-negative-fd-posix.libc", "2008", Some(json!("unsupported")), "IL-SRC-2008")]
// Solaris 11.4: closed source, and the Oracle pages read give no error semantics.
#[case("solaris", "cases.fchdir-add-negative-fd.libc", "11.4", Some(json!("unsupported")), "GNULIB-NP")]
#[case("solaris", "cases.exec-enoent.libc", "11.4", None, "")]
#[case("solaris", "cases.attr-setflags-undefined-bit.libc", "11.4", None, "")]
fn documented_claims_match_their_sources(
    #[case] fam: &str,
    #[case] row: &str,
    #[case] release: &str,
    #[case] expected: Option<serde_json::Value>,
    #[case] source_key: &str,
) {
    let f = family(fam);
    let claim = f.claim(row, &Release::parse(release).unwrap());
    match (claim, expected) {
        (None, None) => {}
        (Some(c), Some(want)) => {
            assert_eq!(c.value, value(want), "{fam} {row} at {release}");
            assert!(
                c.source.starts_with(&format!("{source_key}: ")),
                "{fam} {row} at {release}: source {:?} is not {source_key}",
                c.source
            );
        }
        (got, want) => panic!("{fam} {row} at {release}: claim {got:?}, expected {want:?}"),
    }
}

/// glibc's clone3-first path dates from 2.34 (`__clone_internal`), and 2.38 added
/// CLONE_CLEAR_SIGHAND to it; FreeBSD's RFSPAWN boundary names its merge and the first release
/// branched after it (12.2), not "13.0", and says why 13.1 stays open (FBSD_1.7).
#[rstest]
#[case("linux-glibc", &["since 2.34", "2.38 added", "CLONE_CLEAR_SIGHAND"], "clone3 first since 2.38")]
#[case("freebsd", &["rS353789", "releng/12.1", "12.2", "FBSD_1.7"], "vfork before 13.0")]
fn mechanism_descriptions_name_the_right_release(
    #[case] fam: &str,
    #[case] must: &[&str],
    #[case] wrong: &str,
) {
    let f = family(fam);
    let text = &f.spec.description;
    for m in must {
        assert!(text.contains(m), "{fam}: description lacks {m:?}: {text}");
    }
    assert!(
        !text.contains(wrong),
        "{fam}: description still says {wrong:?}"
    );
}

/// Every family the summary view lists has an error-reporting claim: the exec-failure row.
#[test]
fn every_family_documents_how_a_failed_exec_is_reported() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets");
    let docs = Docs::load(&targets).unwrap();
    for f in &docs.families {
        let rows = f.rows();
        let has = rows.contains(&"cases.exec-enoent.libc")
            || rows.contains(&"cases.spawnp-script-no-shebang.libc");
        assert!(has, "{}: no error-reporting claim", f.spec.family);
    }
}

/// Error rows of the summary that no source settles (family, row): Solaris 11 is closed
/// source and the Oracle pages read give no error semantics (targets/solaris/platform.yaml
/// says so). Any other gap fails, and so does an entry here that has since been answered.
const UNSETTLED_ERROR_CELLS: &[(&str, &str)] = &[
    ("solaris", "cases.exec-enoent.libc"),
    ("solaris", "cases.dup2-add-fd-beyond-open-max.libc"),
    ("solaris", "cases.fa-close-not-open.libc"),
    ("solaris", "cases.fa-dup2-self-cloexec-visible.libc"),
    ("solaris", "cases.chdir-enoent.libc"),
    ("solaris", "cases.fchdir-add-negative-fd-posix.libc"),
    ("solaris", "cases.attr-setflags-undefined-bit.libc"),
];

/// The string `field` of every object in the JSON array `list`.
fn field_of_each<'a>(list: &'a serde_json::Value, field: &str) -> Vec<&'a str> {
    let items = list.as_array().unwrap();
    items.iter().map(|v| v[field].as_str().unwrap()).collect()
}

/// Every family of the committed summary (docs/summary.json, kept current by
/// ci/checks/45-published.sh) answers every error row, except the cells listed as unsettled.
#[test]
fn every_family_answers_every_error_row_or_says_it_is_unsettled() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/summary.json");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // The Linux kernel family answers its kernel rows only (src/published/kernel.rs).
    let mut families = field_of_each(&summary["families"], "id");
    families.retain(|f| *f != "linux-kernel");
    let errors = summary["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "errors")
        .expect("an errors section");
    let mut gaps = Vec::new();
    let mut settled = Vec::new();
    for row in errors["rows"].as_array().unwrap() {
        let id = row["id"].as_str().unwrap();
        let answered = field_of_each(&row["answers"], "family");
        for fam in &families {
            let listed = UNSETTLED_ERROR_CELLS.contains(&(*fam, id));
            match (answered.contains(fam), listed) {
                (false, false) => gaps.push(format!("{fam} {id}")),
                (true, true) => settled.push(format!("{fam} {id}")),
                _ => {}
            }
        }
    }
    assert!(gaps.is_empty(), "error cells without an answer: {gaps:?}");
    assert!(
        settled.is_empty(),
        "answered now, drop from UNSETTLED_ERROR_CELLS: {settled:?}"
    );
}
