//! Interoperation with std's types: `From<std::process::Stdio>` and `Command::from_std`.
//!
//! std exposes a `Command`'s program, arguments, environment changes and working directory
//! through getters, but neither its `env_clear`, ids, process group, stdio nor a `Stdio`'s
//! kind. Its `{:#?}` output shows all of them, in a shape `spawn/tests/std_parity` pins
//! (this crate prints the same shape): that is what is read here, field by field, and a field
//! this crate cannot carry is a [`FromStdError`] naming it, never dropped.

use std::fmt;
use std::os::fd::{BorrowedFd, FromRawFd, OwnedFd, RawFd};

use crate::front::Command;
use crate::platform::errno::check;
use crate::front::Stdio;
use crate::request::StdioKind;

/// What [`Command::from_std`] could not carry over from a `std::process::Command`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FromStdError {
    /// The std setting, by the name std's `{:#?}` gives it (`arg0`, `chroot`, ...).
    pub what: String,
    /// Why it cannot be carried.
    pub why: &'static str,
}

impl fmt::Display for FromStdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot carry {} over from std::process::Command: {}", self.what, self.why)
    }
}

impl std::error::Error for FromStdError {}

impl From<FromStdError> for std::io::Error {
    fn from(e: FromStdError) -> Self {
        std::io::Error::new(std::io::ErrorKind::Unsupported, e)
    }
}

/// The top-level fields of a `{:#?}`-printed struct: `(name, text after "name: ")`, the text
/// spanning the field's nested lines. std escapes newlines in strings, so a line that starts
/// with exactly four spaces and a name is always a field.
fn fields(debug: &str) -> Vec<(&str, String)> {
    let mut out: Vec<(&str, String)> = Vec::new();
    for line in debug.lines().skip(1) {
        let field = line
            .strip_prefix("    ")
            .filter(|rest| !rest.starts_with(' '))
            .and_then(|rest| rest.split_once(": "))
            .filter(|(name, _)| name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        match (field, out.last_mut()) {
            (Some((name, value)), _) => out.push((name, value.to_string())),
            (None, Some((_, value))) => {
                value.push('\n');
                value.push_str(line.trim());
            }
            (None, None) => {}
        }
    }
    out
}

/// The integers in `text`, in order (negative ones included).
fn integers(text: &str) -> Vec<i64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// The one integer of a field such as `Some(\n3,\n)`.
fn one_integer(name: &str, text: &str) -> Result<i64, FromStdError> {
    match integers(text)[..] {
        [n] => Ok(n),
        _ => Err(unreadable(name)),
    }
}

fn unreadable(name: &str) -> FromStdError {
    FromStdError {
        what: name.to_string(),
        why: "this std prints it in a shape this crate does not know",
    }
}

/// std's stdio kind, as its `Debug` names it (`Inherit`, `Null`, `MakePipe`,
/// `Fd(FileDesc(OwnedFd { fd: 3 }))`, `StaticFd(BorrowedFd { fd: 1 })`), as this crate's.
/// A given fd is duplicated (close-on-exec): std's value keeps its own.
fn stdio_from_debug(name: &str, text: &str) -> Result<Stdio, FromStdError> {
    let fd = || -> Result<RawFd, FromStdError> {
        let n = one_integer(name, text)?;
        RawFd::try_from(n).map_err(|_| unreadable(name))
    };
    if text.contains("StaticFd") {
        // SAFETY: std's StaticFd is a `BorrowedFd<'static>` (this process's stdout/stderr).
        return Ok(Stdio(StdioKind::Static(unsafe { BorrowedFd::borrow_raw(fd()?) })));
    }
    if text.contains("Fd(") {
        let src = fd()?;
        // SAFETY: the std value that owns `src` is alive for this call; the copy is ours.
        let copy = check(unsafe { libc::fcntl(src, libc::F_DUPFD_CLOEXEC, 3) }).map_err(|_| {
            FromStdError {
                what: name.to_string(),
                why: "its fd could not be duplicated",
            }
        })?;
        // SAFETY: a new fd owned by nobody else.
        return Ok(Stdio::from(unsafe { OwnedFd::from_raw_fd(copy) }));
    }
    if text.contains("MakePipe") {
        return Ok(Stdio::piped());
    }
    if text.contains("Null") {
        return Ok(Stdio::null());
    }
    if text.contains("Inherit") {
        return Ok(Stdio::inherit());
    }
    Err(unreadable(name))
}

impl From<std::process::Stdio> for Stdio {
    /// The same connection: inherit, `/dev/null`, a new pipe, or the same file (std's fd is
    /// duplicated, close-on-exec, and std's own closed with it). std exposes no accessor, so
    /// this reads the kind from std's `Debug` output (see the module docs of `from_std.rs`).
    ///
    /// # Errors, at spawn
    /// If this std prints a `Stdio` in a shape this crate does not know (a std newer than
    /// this crate, with a new kind), or a given fd cannot be duplicated (`EMFILE`), a `From`
    /// cannot fail and guessing would connect the child to the wrong file: the result is a
    /// `Stdio` whose spawn fails with `ErrorKind::InvalidInput` saying so, before anything
    /// is created.
    ///
    /// ```
    /// use spawnmatrix_spawn::{Command, Stdio};
    ///
    /// let out = Command::new("echo").arg("hi").stdout(Stdio::from(std::process::Stdio::piped())).output()?;
    /// assert_eq!(out.stdout, b"hi\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    fn from(s: std::process::Stdio) -> Stdio {
        let mut probe = std::process::Command::new("");
        probe.stdin(s);
        let debug = format!("{probe:#?}");
        let text = fields(&debug)
            .into_iter()
            .find(|(name, _)| *name == "stdin")
            .map(|(_, text)| text)
            .unwrap_or_default();
        stdio_from_debug("stdin", &text)
            .unwrap_or_else(|e| Stdio(StdioKind::Unusable(format!("{e}: {text:?}"))))
    }
}

impl Command {
    /// This crate's `Command` for a `std::process::Command`: its program, arguments (and an
    /// `arg0` equal to the program), environment changes (`env`, `env_remove`, `env_clear`),
    /// working directory, stdio (std's fds duplicated), `uid`, `gid`, `groups`,
    /// `process_group` and, on Linux, `create_pidfd`. Anything else it has set is a
    /// [`FromStdError`] naming it: an `arg0` other than the program, `chroot`, or a setting
    /// newer than this crate. Limit: std neither exposes nor prints `pre_exec` closures, so a command's
    /// closures are not seen, and not carried.
    ///
    /// ```
    /// use spawnmatrix_spawn::Command;
    ///
    /// let mut std_cmd = std::process::Command::new("sh");
    /// std_cmd.args(["-c", "echo $GREETING; pwd"]).env("GREETING", "hi").current_dir("/");
    /// let out = Command::from_std(&std_cmd)?.output()?;
    /// assert_eq!(out.stdout, b"hi\n/\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_std(std_cmd: &std::process::Command) -> Result<Command, FromStdError> {
        let mut cmd = Command::new(std_cmd.get_program());
        cmd.args(std_cmd.get_args());
        for (k, v) in std_cmd.get_envs() {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        if let Some(dir) = std_cmd.get_current_dir() {
            cmd.current_dir(dir);
        }
        let debug = format!("{std_cmd:#?}");
        let fields = fields(&debug);
        let program = fields
            .iter()
            .find(|(n, _)| *n == "program")
            .map(|(_, t)| t.trim_end_matches(','));
        for (name, text) in &fields {
            let int = || one_integer(name, text);
            let id = || u32::try_from(int()?).map_err(|_| unreadable(name));
            match *name {
                "program" => {}
                "args" => {
                    // The first element is argv[0]; std prints it as it prints the program.
                    let arg0 = text.lines().nth(1).map(|l| l.trim_end_matches(','));
                    if arg0 != program {
                        return Err(FromStdError {
                            what: "arg0".into(),
                            why: "std does not expose its bytes, only their Debug form",
                        });
                    }
                }
                "env" => {
                    if text.contains("clear: true") {
                        cmd.req.env.clear = true;
                    }
                }
                "cwd" => {}
                "create_pidfd" => cmd.req.create_pidfd = text.contains("true"),
                "uid" => cmd.req.ids.uid = Some(id()?),
                "gid" => cmd.req.ids.gid = Some(id()?),
                "groups" => {
                    let groups = integers(text)
                        .into_iter()
                        .map(|g| libc::gid_t::try_from(g).map_err(|_| unreadable(name)))
                        .collect::<Result<Box<[_]>, _>>()?;
                    cmd.req.ids.groups = Some(groups);
                }
                "pgroup" => {
                    cmd.req.pgid = Some(libc::pid_t::try_from(int()?).map_err(|_| unreadable(name))?)
                }
                "stdin" | "stdout" | "stderr" => {
                    let s = stdio_from_debug(name, text)?;
                    let slot = usize::from(*name != "stdin") + usize::from(*name == "stderr");
                    cmd.req.stdio[slot] = Some(s.0);
                }
                other => {
                    return Err(FromStdError {
                        what: other.to_string(),
                        why: "this crate has no such setting",
                    })
                }
            }
        }
        Ok(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// A std `Stdio` whose shape is unknown never panics: the spawn that uses it fails with
    /// `InvalidInput`, before any child exists.
    #[rstest]
    fn an_unreadable_std_stdio_fails_its_spawn() {
        let unknown = stdio_from_debug("stdin", "SomeNewKind(42)")
            .unwrap_or_else(|e| Stdio(StdioKind::Unusable(e.to_string())));
        let e = Command::new("true").stdin(unknown).spawn().unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
        assert!(e.to_string().contains("stdin"), "{e}");
    }
}
