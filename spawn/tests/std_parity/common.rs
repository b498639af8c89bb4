//! What every instantiation shares: running tests one at a time, deciding when a strategy
//! must refuse, reading the child helper's report, and re-running this binary for a role.

use std::ffi::OsString;
use std::io;
use std::sync::{Mutex, MutexGuard};

pub use spawnmatrix_spawn::Strategy;

/// The strategy a module forces: `Std` is none (std itself).
macro_rules! strategy_of {
    (Std) => {
        None
    };
    ($s:ident) => {
        Some(spawnmatrix_spawn::Strategy::$s)
    };
}

/// Forces `$c` to the strategy (nothing for std, which has none).
macro_rules! force {
    ($c:ident, Std) => {};
    ($c:ident, $s:ident) => {
        $c.strategy(spawnmatrix_spawn::Strategy::$s);
    };
}

/// The start of every body: one test at a time; a forced strategy this platform lacks must
/// refuse (checked on a trivial command), and the body ends there.
macro_rules! start {
    () => {
        let _serial = serial();
        if unavailable(STRATEGY) {
            assert_refused(cmd("/bin/sh").arg("-c").arg("true").status().map(drop));
            return;
        }
    };
}

/// Runs `$c` (a command made with `observer()`'s program and arguments; stdio on
/// `/dev/null`) and returns what the child saw.
macro_rules! observe {
    ($c:expr) => {{
        let report = tempfile::NamedTempFile::new().unwrap();
        let mut arg = std::ffi::OsString::from(REPORT_ARG);
        arg.push(report.path());
        let status = $c
            .arg(arg)
            .stdin(p::Stdio::null())
            .stdout(p::Stdio::null())
            .stderr(p::Stdio::null())
            .status()
            .expect("the observer must start");
        assert!(status.success(), "observer: {status}");
        Seen::read(report.path())
    }};
}

static SERIAL: Mutex<()> = Mutex::new(());

/// Runs tests one at a time (a failed test must not stop the others, so poison is ignored).
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether `strategy` is forced and this platform lacks it.
pub fn unavailable(strategy: Option<Strategy>) -> bool {
    strategy.is_some_and(|s| !s.is_available())
}

/// What a request needs that some strategies cannot give.
#[derive(Clone, Copy, Debug)]
pub enum Need {
    /// A forked child: `pre_exec` closures.
    Fork,
    /// Changing ids in the child: only a forked child may (`posix_spawn` cannot, and a
    /// `CLONE_VM` child would make the parent non-dumpable).
    Ids,
}

/// Whether `strategy` must refuse a request that needs `need`.
pub fn must_refuse(strategy: Option<Strategy>, need: Need) -> bool {
    match (strategy, need) {
        (None | Some(Strategy::Auto | Strategy::Fork), _) => false,
        (Some(_), Need::Fork | Need::Ids) => true,
    }
}

/// The refusal of a strategy that cannot do a request.
pub fn assert_refused(r: io::Result<()>) {
    let e = r.expect_err("the strategy must refuse");
    assert_eq!(e.kind(), io::ErrorKind::Unsupported, "{e}");
}

/// This process has no child at all: none running, no zombie.
pub fn assert_no_children() {
    // SAFETY: waitpid with a null status pointer.
    let r = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
    let e = io::Error::last_os_error();
    assert_eq!(r, -1, "a child is left over (pid {r})");
    assert_eq!(e.raw_os_error(), Some(libc::ECHILD));
}

/// The arguments that make this test binary run only its `role` test.
pub const ROLE_ARGS: [&str; 5] = [
    "--ignored",
    "--exact",
    "--nocapture",
    "--test-threads=1",
    "role",
];

/// The argument that makes the `role` test report what it sees to the file named after it.
pub const REPORT_ARG: &str = "parity-report=";

/// This test binary, the observer: with [`ROLE_ARGS`] and [`REPORT_ARG`] it writes what it
/// saw (ids, argv, environment, open fds) to the report file and exits 0.
pub fn observer() -> std::path::PathBuf {
    // Without /proc (a FreeBSD-like root) current_exe has nothing to read: argv[0] is the path
    // the binary was started by, absolute under cargo and ci/bare-root.sh.
    std::env::current_exe()
        .or_else(|e| std::env::args_os().next().map(Into::into).ok_or(e))
        .unwrap()
}

/// What an observer child saw.
#[derive(Debug, Default)]
pub struct Seen {
    pub pid: i32,
    pub pgid: i32,
    pub argv0: Vec<u8>,
    /// `environ`, exact bytes, in order (entries without `=` included).
    pub env: Vec<Vec<u8>>,
    pub fds: Vec<i32>,
}

impl Seen {
    /// Parses the report: one `KEY hex-or-number` per line.
    pub fn read(path: &std::path::Path) -> Seen {
        let text = std::fs::read_to_string(path).unwrap();
        let mut seen = Seen::default();
        for line in text.lines() {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "pid" => seen.pid = value.parse().unwrap(),
                "pgid" => seen.pgid = value.parse().unwrap(),
                "argv0" => seen.argv0 = unhex(value),
                "env" => seen.env.push(unhex(value)),
                "fd" => seen.fds.push(value.parse().unwrap()),
                _ => panic!("bad report line {line:?}"),
            }
        }
        seen
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// The observer's side: if this process was started with [`REPORT_ARG`], writes the report
/// and returns true.
pub fn report_if_observer() -> bool {
    let Some(path) = std::env::args_os().find_map(|a| {
        use std::os::unix::ffi::OsStrExt;
        a.as_bytes()
            .strip_prefix(REPORT_ARG.as_bytes())
            .map(|p| std::ffi::OsStr::from_bytes(p).to_owned())
    }) else {
        return false;
    };
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::new();
    // SAFETY: plain queries.
    let (pid, pgid) = unsafe { (libc::getpid(), libc::getpgrp()) };
    out += &format!("pid {pid}\npgid {pgid}\n");
    out += &format!(
        "argv0 {}\n",
        hex(std::env::args_os().next().unwrap_or_default().as_bytes())
    );
    extern "C" {
        static environ: *const *const libc::c_char;
    }
    // SAFETY: this process has not changed its environment; entries are C strings.
    unsafe {
        let mut e = environ;
        while !e.is_null() && !(*e).is_null() {
            out += &format!("env {}\n", hex(std::ffi::CStr::from_ptr(*e).to_bytes()));
            e = e.add(1);
        }
    }
    // fcntl opens nothing, so the list is exactly what the process inherited.
    for fd in 0..4096 {
        // SAFETY: a query on any number.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1 {
            out += &format!("fd {fd}\n");
        }
    }
    std::fs::write(path, out).unwrap();
    true
}

/// The name of the module a body runs in (`std_process`, `auto`, ...).
pub fn api_of(module_path: &str) -> &str {
    module_path.rsplit("::").next().unwrap_or(module_path)
}

/// Re-runs this test binary's `role` test with `PARITY_API=api`, `PARITY_ROLE=role`, the
/// extra environment `env` (raw `NAME=VALUE` or any bytes, passed as is) and nothing else
/// but `PATH`, through `posix_spawn` directly so that entries without `=` can be passed.
pub fn run_role(api: &str, role: &str, env: &[&[u8]]) -> (i32, String) {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let exe = observer();
    let args = ROLE_ARGS;
    let mut argv: Vec<CString> = vec![CString::new(exe.as_os_str().as_bytes()).unwrap()];
    argv.extend(args.iter().map(|a| CString::new(*a).unwrap()));
    let mut envp: Vec<CString> = vec![
        CString::new(format!("PARITY_API={api}")).unwrap(),
        CString::new(format!("PARITY_ROLE={role}")).unwrap(),
    ];
    if let Some(path) = std::env::var_os("PATH") {
        let mut e = OsString::from("PATH=");
        e.push(path);
        envp.push(CString::new(e.as_bytes()).unwrap());
    }
    envp.extend(env.iter().map(|e| CString::new(*e).unwrap()));
    let out = tempfile::tempfile().unwrap();
    let status = raw_spawn_wait(&argv, &envp, &out);
    let mut text = String::new();
    use std::io::{Read, Seek};
    let mut out = out;
    out.rewind().unwrap();
    out.read_to_string(&mut text).unwrap();
    (status, text)
}

/// `posix_spawn` of `argv` with exactly `envp`, stdout and stderr to `out`; the wait status.
fn raw_spawn_wait(
    argv: &[std::ffi::CString],
    envp: &[std::ffi::CString],
    out: &std::fs::File,
) -> i32 {
    use std::os::fd::AsRawFd;
    let ptrs = |v: &[std::ffi::CString]| -> Vec<*mut libc::c_char> {
        v.iter()
            .map(|c| c.as_ptr().cast_mut())
            .chain(std::iter::once(std::ptr::null_mut()))
            .collect()
    };
    let (argv_p, envp_p) = (ptrs(argv), ptrs(envp));
    let mut fa = std::mem::MaybeUninit::<libc::posix_spawn_file_actions_t>::uninit();
    let mut pid = 0;
    // SAFETY: the object is initialised before use and destroyed after; every pointer is
    // valid for the call.
    let rc = unsafe {
        assert_eq!(
            spawnmatrix_spawn::sys::spawn_fns::posix_spawn_file_actions_init(fa.as_mut_ptr()),
            0
        );
        assert_eq!(
            spawnmatrix_spawn::sys::spawn_fns::posix_spawn_file_actions_adddup2(
                fa.as_mut_ptr(),
                out.as_raw_fd(),
                1
            ),
            0
        );
        assert_eq!(
            spawnmatrix_spawn::sys::spawn_fns::posix_spawn_file_actions_adddup2(
                fa.as_mut_ptr(),
                out.as_raw_fd(),
                2
            ),
            0
        );
        let rc = spawnmatrix_spawn::sys::spawn_fns::posix_spawn(
            &mut pid,
            argv_p[0],
            fa.as_ptr(),
            std::ptr::null(),
            argv_p.as_ptr(),
            envp_p.as_ptr(),
        );
        spawnmatrix_spawn::sys::spawn_fns::posix_spawn_file_actions_destroy(fa.as_mut_ptr());
        rc
    };
    assert_eq!(
        rc,
        0,
        "posix_spawn of the role: {}",
        io::Error::from_raw_os_error(rc)
    );
    let mut status = 0;
    // SAFETY: our own child.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    status
}
