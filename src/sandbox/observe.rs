//! What the shared spawn (and the raw libc's `posix_spawn`) does under a profile, as report data: run in a process that has
//! installed the profile (`spawnmatrix sandbox PROFILE --observe`), and collected for every
//! profile by the main job through [`record`], one such process per profile (a filter cannot
//! be taken back).

use std::collections::BTreeMap;
use std::io;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;

use crate::report::SandboxRun;
use crate::spawn::{Command, Strategy};

use super::Profile;

/// Strategies a caller can force (`Vfork` is never offered).
const FORCED: [Strategy; 4] = [
    Strategy::Clone3,
    Strategy::CloneVfork,
    Strategy::PosixSpawn,
    Strategy::Fork,
];

/// Spawns `program` (which must exit 0) with `Auto` and with each forced strategy, in this
/// process as it is now (call it after [`Profile::apply`]).
pub fn observe(program: &Path) -> SandboxRun {
    let auto = match spawn_wait(program, Strategy::Auto) {
        Ok(took) => took.name().to_string(),
        Err(e) => failure(&e),
    };
    let forced = FORCED
        .into_iter()
        .map(|s| {
            let outcome = match spawn_wait(program, s) {
                Ok(_) => String::from("works"),
                Err(e) if e.kind() == io::ErrorKind::Unsupported => String::from("unsupported"),
                Err(e) => failure(&e),
            };
            (s.name().to_string(), outcome)
        })
        .collect();
    let libc = [
        ("posix_spawn", libc_spawn(program, false)),
        ("posix_spawn_missing", libc_spawn(program, true)),
    ]
    .map(|(call, outcome)| (call.to_string(), outcome))
    .into();
    SandboxRun { auto, forced, libc }
}

/// The raw libc's `posix_spawn` (no attributes, no file actions) of `program`, or with
/// `missing` of a path next to it that does not exist, then waited for.
fn libc_spawn(program: &Path, missing: bool) -> String {
    use std::os::unix::ffi::OsStrExt;
    let path = match missing {
        true => program.with_file_name("spawnmatrix-no-such-program"),
        false => program.to_path_buf(),
    };
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return String::from("error: the path holds a NUL byte");
    };
    let argv = [c_path.as_ptr() as *mut libc::c_char, std::ptr::null_mut()];
    let envp = [std::ptr::null_mut::<libc::c_char>()];
    let mut pid: libc::pid_t = 0;
    // SAFETY: NUL-terminated path, argv and envp that outlive the call; null attributes and
    // file actions are allowed.
    let rc = unsafe {
        libc::posix_spawn(
            &mut pid,
            c_path.as_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            argv.as_ptr(),
            envp.as_ptr(),
        )
    };
    if rc != 0 {
        return format!("error: {}", crate::errno::name(rc));
    }
    let mut status = 0;
    // SAFETY: waits for the child just created; `status` outlives the call.
    while unsafe { libc::waitpid(pid, &mut status, 0) } == -1 {
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return format!("error: waitpid: {}", io::Error::last_os_error());
        }
    }
    let status = std::process::ExitStatus::from_raw(status);
    match (missing, status.success()) {
        (false, true) => String::from("works"),
        (false, false) => format!("error: the child ended with {status}"),
        (true, _) => match status.code() {
            Some(code) => format!("error lost: returned 0, the child exited {code}"),
            None => format!("error lost: returned 0, the child ended with {status}"),
        },
    }
}

/// A failure as a row value: `error: EAGAIN` for a system error (the same on every libc,
/// where the message text is not), else `error: ` and the message.
fn failure(e: &io::Error) -> String {
    match e.raw_os_error() {
        Some(n) => format!("error: {}", crate::errno::name(n)),
        None => format!("error: {e}"),
    }
}

/// One spawn and wait: the strategy taken, or why it failed (a non-zero exit included).
fn spawn_wait(program: &Path, strategy: Strategy) -> io::Result<Strategy> {
    let mut child = Command::new(program).strategy(strategy).spawn()?;
    let status = child.wait()?;
    match status.success() {
        true => Ok(child.strategy()),
        false => Err(io::Error::other(format!("the child ended with {status}"))),
    }
}

/// Every profile's run, each in a fresh `exe sandbox PROFILE --observe` process (`exe` is
/// this tool's binary), run through the profile's [`Profile::wrapper`] if it has one. A
/// profile whose process fails is an error naming it: a row is never filled in without a run.
/// A wrapped profile whose tool is not installed is left out, with a note on stderr.
pub fn record(exe: &Path) -> io::Result<BTreeMap<String, SandboxRun>> {
    let mut runs = BTreeMap::new();
    for p in Profile::ALL {
        let mut cmd = match p.wrapper() {
            Some(tool) if cannot_run(&tool[0]).is_some() => {
                let why = cannot_run(&tool[0]).unwrap_or_default();
                eprintln!("spawnmatrix: no sandbox row for {p}: {why}");
                continue;
            }
            Some(tool) => {
                let mut c = std::process::Command::new(&tool[0]);
                c.args(&tool[1..]).arg(exe).env(super::WRAPPED, p.name());
                c
            }
            None => std::process::Command::new(exe),
        };
        let out = cmd
            .args(["sandbox", p.name(), "--observe"])
            .stderr(std::process::Stdio::inherit())
            .output()?;
        let failed = |why: String| io::Error::other(format!("sandbox {p}: {why}"));
        if !out.status.success() {
            return Err(failed(format!("the observer ended with {}", out.status)));
        }
        let run = serde_json::from_slice(&out.stdout).map_err(|e| failed(e.to_string()))?;
        runs.insert(p.name().to_string(), run);
    }
    Ok(runs)
}

/// Why the wrapper `tool` cannot run here, or `None` when it can: it is not on `PATH`, or it
/// is valgrind and no `/proc` is mounted (valgrind starts by reading `/proc/self/maps`: "FATAL:
/// can't open /proc/self/maps", as in a bare root). Its profile's row is then left out.
pub fn cannot_run(tool: &str) -> Option<String> {
    if !installed(tool) {
        return Some(format!("{tool} is not installed"));
    }
    if tool == "valgrind" && std::fs::metadata("/proc/self/maps").is_err() {
        return Some("valgrind needs /proc/self/maps, and no /proc is mounted".into());
    }
    None
}

/// Whether `tool` is a program on `PATH`.
pub fn installed(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()))
}
