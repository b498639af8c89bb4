use rstest::rstest;

use super::{decode_hex, Access, ChildState, ChildStateError, FdType, KernelSource};

/// A report as the helper writes it (one fd, one read and write, non-UTF-8 argv byte).
const SAMPLE: &str = r#"{"pid":42,"ppid":1,"pgid":42,"sid":7,"uid":1000,"euid":1000,"gid":100,
"egid":100,"argv":["child","\u00ff"],"argv_hex":["6368696c64","ff"],"env":["A=1","B=x=y"],
"env_hex":["413d31","423d783d79"],"cwd":"/tmp","cwd_errno":null,"umask":18,
"fds":[{"fd":3,"cloexec":false,"access":"rw","append":true,"nonblock":false,"type":"reg",
"dev":2049,"ino":77,"offset":5,"target":"/tmp/f"}],"sigmask":["SIGUSR1"],"ignored":["SIGPIPE"],
"handled":[],"pending":["SIGUSR2"],"kernel_signals":{"source":"proc","pending":[12],
"blocked":[10],"ignored":[13,32,33],"caught":[]},
"sched":{"policy":"SCHED_OTHER","priority":0},"rlimit_nofile":[1024,4096],
"reads":{"3":"hello"},"writes":{"4":"EBADF"},"errors":[]}"#;

#[test]
fn parses_every_field() {
    let s = ChildState::parse(SAMPLE).unwrap();
    assert_eq!((s.pid, s.ppid, s.pgid, s.sid), (42, 1, 42, 7));
    assert_eq!(s.argv_bytes(), vec![b"child".to_vec(), vec![0xff]]);
    assert_eq!(s.argv[1], "\u{ff}");
    let fd = s.fd(3).unwrap();
    assert_eq!(
        (fd.access, fd.kind, fd.append, fd.offset),
        (Access::ReadWrite, FdType::Reg, true, Some(5))
    );
    assert!(s.fd(4).is_none());
    assert_eq!(s.reads[&3], "hello");
    assert_eq!(s.writes[&4], "EBADF");
    assert_eq!(s.rlimit_nofile, [1024, 4096]);
    assert_eq!(s.sched.as_ref().unwrap().policy, "SCHED_OTHER");
    assert_eq!(s.pending, ["SIGUSR2"]);
    let kernel = s.kernel_signals.as_ref().unwrap();
    assert_eq!(kernel.source, KernelSource::Proc);
    assert_eq!(
        (&kernel.pending, &kernel.blocked, &kernel.ignored),
        (&vec![12], &vec![10], &vec![13, 32, 33])
    );
}

#[test]
fn kernel_signals_may_be_absent() {
    let text = SAMPLE.replace(
        r#""kernel_signals":{"source":"proc","pending":[12],
"blocked":[10],"ignored":[13,32,33],"caught":[]}"#,
        r#""kernel_signals":null"#,
    );
    assert_eq!(ChildState::parse(&text).unwrap().kernel_signals, None);
}

#[rstest]
#[case("A", Some("1"))]
#[case("B", Some("x=y"))]
#[case("C", None)]
#[case("", None)]
fn env_var(#[case] name: &str, #[case] expected: Option<&str>) {
    assert_eq!(ChildState::parse(SAMPLE).unwrap().env_var(name), expected);
}

#[rstest]
#[case("", Some(vec![]))]
#[case("00ff7F", Some(vec![0, 0xff, 0x7f]))]
#[case("abc", None)]
#[case("zz", None)]
#[case("+f", None)]
fn hex(#[case] text: &str, #[case] expected: Option<Vec<u8>>) {
    assert_eq!(decode_hex(text), expected);
}

#[rstest]
#[case::unknown_field(SAMPLE.replace("\"umask\":18", "\"umask\":18,\"extra\":1"), "unknown field")]
#[case::bad_type(SAMPLE.replace("\"type\":\"reg\"", "\"type\":\"door\""), "unknown variant")]
#[case::bad_source(SAMPLE.replace("\"source\":\"proc\"", "\"source\":\"guess\""), "unknown variant")]
#[case::kernel_names(SAMPLE.replace("\"blocked\":[10]", "\"blocked\":[\"SIGUSR1\"]"), "invalid type")]
#[case::truncated(SAMPLE[..40].to_string(), "EOF")]
fn rejects_bad_json(#[case] text: String, #[case] expected: &str) {
    let err = ChildState::parse(&text).unwrap_err();
    assert!(matches!(err, ChildStateError::Json { .. }), "{err}");
    assert!(err.to_string().contains(expected), "{err}");
}

#[test]
fn rejects_bad_hex_naming_the_field() {
    let err = ChildState::parse(&SAMPLE.replace("\"ff\"]", "\"f\"]")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "<child report>: argv_hex[1] is not hex: \"f\""
    );
}

#[test]
fn read_names_the_missing_file() {
    let err = ChildState::read(std::path::Path::new("/nonexistent/report.json")).unwrap_err();
    assert!(
        err.to_string().contains("/nonexistent/report.json"),
        "{err}"
    );
}
