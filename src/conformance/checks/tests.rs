//! The comparisons on a synthetic helper report.

use rstest::rstest;

use super::{child, identity, Ctx};
use crate::child::ChildState;
use crate::conformance::case::ChildChecks;
use crate::conformance::template::Vars;

fn state() -> ChildState {
    ChildState::parse(
        r#"{"pid":100,"ppid":1,"pgid":100,"sid":7,"uid":0,"euid":0,"gid":0,"egid":0,
        "argv":["p","a"],"argv_hex":["70","61"],"env":["A=1"],"env_hex":["413d31"],
        "cwd":"/t/x/d","cwd_errno":null,"umask":18,
        "fds":[{"fd":0,"cloexec":false,"access":"r","append":false,"nonblock":false,
                "type":"chr","dev":5,"ino":6,"offset":0,"target":"/dev/null"},
               {"fd":10,"cloexec":true,"access":"w","append":true,"nonblock":false,
                "type":"reg","dev":1,"ino":2,"offset":3,"target":"/t/x/f"}],
        "sigmask":["SIGUSR1"],"ignored":["SIGTERM"],"handled":[],"pending":[],
        "kernel_signals":{"source":"proc","pending":[],"blocked":[10],"ignored":[15],
                          "caught":[]},
        "sched":null,"rlimit_nofile":[1024,4096],"reads":{},"writes":{"1":"ok"},"errors":[]}"#,
    )
    .unwrap()
}

fn checks(yaml: &str) -> ChildChecks {
    crate::yaml::from_str(std::path::Path::new("t.yaml"), yaml).unwrap()
}

#[rstest]
#[case("cwd: ${tmp}/d", true)]
#[case("cwd: ${tmp}/e", false)]
#[case("fds_exact: [0, 10]", true)]
#[case("fds_exact: [0, 1, 10]", false)]
#[case(
    "fds: [{fd: 10, cloexec: true, access: w, append: true, offset: 3}]",
    true
)]
#[case("fds: [{fd: 10, cloexec: false}]", false)]
#[case("fds: [{fd: 11, open: false}]", true)]
#[case("fds: [{fd: 11}]", false)]
#[case("env: [\"A=1\"]", true)]
#[case("env: [{hex: \"413d32\"}]", false)]
#[case("env_lacks: [B]", true)]
#[case("env_has: [\"A=2\"]", false)]
#[case("sigmask: [SIGUSR1]", true)]
#[case("sigmask: []", false)]
#[case("ignored_has: [SIGTERM]", true)]
#[case("ignored_lacks: [SIGTERM]", false)]
#[case("handled: []", true)]
#[case("pending: []", true)]
#[case("pending: [SIGUSR1]", false)]
#[case(
    "kernel: {blocked: [SIGUSR1], ignored: [SIGTERM], caught: [], pending: []}",
    true
)]
#[case("kernel: {blocked: []}", false)]
#[case("kernel: {ignored: [SIGTERM, SIGHUP]}", false)]
#[case("kernel: {pending: [SIGUSR1]}", false)]
#[case("pgid: pid", true)]
#[case("sid: pid", false)]
#[case("writes: {1: ok}", true)]
#[case("writes: {1: EBADF}", false)]
#[case("argv: [p, a]", true)]
#[case("argv: [p]", false)]
#[case("record_fds: [10, 11]", true)]
fn child_checks(#[case] yaml: &str, #[case] holds: bool) {
    let vars = Vars::new(std::path::Path::new("/t/x"), std::path::Path::new("/h"));
    let ctx = Ctx {
        vars: &vars,
        passed_argv: &[],
        argv_as_passed: false,
    };
    let found = child(&checks(yaml), &state(), &ctx);
    assert_eq!(
        found.failures.is_empty(),
        holds,
        "{yaml}: {:?}",
        found.failures
    );
    assert!(
        !found.facts.is_empty() || yaml.starts_with("cwd"),
        "{yaml} recorded no fact"
    );
}

#[rstest]
#[case(Some(100), false)]
#[case(Some(101), true)]
#[case(None, false)]
fn identity_checks_pid(#[case] returned: Option<i32>, #[case] pid_mismatch: bool) {
    let found = identity(&state(), returned);
    let mismatch = found
        .failures
        .iter()
        .any(|f| f.contains("the spawn returned"));
    assert_eq!(mismatch, pid_mismatch, "{:?}", found.failures);
}

/// The numbers the libc keeps for itself are a fact of their own, never part of the
/// compared set, so a libc that ignores them in its children is recorded, not failed.
#[test]
fn reserved_signals_are_facts_not_checks() {
    let reserved = crate::conformance::sys::libc_reserved_signals();
    let mut state = state();
    let kernel = state.kernel_signals.as_mut().unwrap();
    kernel.ignored.extend(&reserved);
    let vars = Vars::new(std::path::Path::new("/t/x"), std::path::Path::new("/h"));
    let ctx = Ctx {
        vars: &vars,
        passed_argv: &[],
        argv_as_passed: false,
    };
    let found = child(&checks("kernel: {ignored: [SIGTERM]}"), &state, &ctx);
    assert!(found.failures.is_empty(), "{:?}", found.failures);
    let names: Vec<String> = reserved
        .iter()
        .map(|&n| crate::conformance::signal_name(n))
        .collect();
    assert_eq!(
        found.facts["kernel ignored, libc-reserved"],
        serde_json::json!(names)
    );
    assert_eq!(
        found.facts["kernel ignored"],
        serde_json::json!(["SIGTERM"])
    );
}

/// A case names a real-time signal relative to the range; the helper reports its number.
#[test]
fn realtime_names_compare_by_number() {
    let Some((low, _)) = crate::conformance::sys::realtime_signals() else {
        println!("skipped: no real-time signals here");
        return;
    };
    let mut state = state();
    state.sigmask = vec![format!("SIG{}", low + 2)];
    state.kernel_signals.as_mut().unwrap().blocked = vec![low + 2];
    let vars = Vars::new(std::path::Path::new("/t/x"), std::path::Path::new("/h"));
    let ctx = Ctx {
        vars: &vars,
        passed_argv: &[],
        argv_as_passed: false,
    };
    for yaml in [
        "sigmask: [SIGRTMIN+2]",
        "sigmask_has: [SIGRTMIN+2]",
        "kernel: {blocked: [SIGRTMIN+2]}",
    ] {
        let found = child(&checks(yaml), &state, &ctx);
        assert!(found.failures.is_empty(), "{yaml}: {:?}", found.failures);
    }
    let found = child(&checks("sigmask: [SIGRTMIN+3]"), &state, &ctx);
    assert!(!found.failures.is_empty());
}
