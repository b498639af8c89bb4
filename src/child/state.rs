//! The helper's JSON report as a Rust type. Field meanings follow the helper contract in
//! `conformance/child/spawnmatrix-child.c`; unknown fields are rejected so that helper and
//! parser cannot drift apart silently.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Everything the helper observed about the process it ran in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChildState {
    pub pid: i32,
    pub ppid: i32,
    pub pgid: i32,
    pub sid: i32,
    pub uid: u32,
    pub euid: u32,
    pub gid: u32,
    pub egid: u32,
    /// The whole argv, `argv[0]` included; invalid UTF-8 bytes appear as U+0000..U+00FF.
    pub argv: Vec<String>,
    /// The exact bytes of each argv element, hex.
    pub argv_hex: Vec<String>,
    pub env: Vec<String>,
    pub env_hex: Vec<String>,
    /// `None` when `getcwd` failed; then `cwd_errno` says why.
    pub cwd: Option<String>,
    pub cwd_errno: Option<String>,
    pub umask: u32,
    /// Every open fd, ascending; the helper's own report fd is never among them.
    pub fds: Vec<FdInfo>,
    /// Signal names (`SIGUSR1`; `SIG<n>` for unnamed ones).
    pub sigmask: Vec<String>,
    pub ignored: Vec<String>,
    pub handled: Vec<String>,
    /// Signals pending for the helper (its thread's and its process's), as `sigpending` says.
    pub pending: Vec<String>,
    /// The kernel's own view of the signal state (Linux), which also shows the numbers the
    /// libc hides from its calls; `None` where the kernel cannot be asked.
    pub kernel_signals: Option<KernelSignals>,
    pub sched: Option<Sched>,
    /// Soft and hard `RLIMIT_NOFILE`.
    pub rlimit_nofile: [u64; 2],
    /// What `--read-fd N` read to end of file, by fd.
    pub reads: BTreeMap<i32, String>,
    /// What `--write-fd N:TEXT` got: `ok` or an errno name, by fd.
    pub writes: BTreeMap<i32, String>,
    /// Problems the helper met (bad options, failed queries).
    pub errors: Vec<String>,
}

/// One open file descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FdInfo {
    pub fd: i32,
    pub cloexec: bool,
    pub access: Access,
    pub append: bool,
    pub nonblock: bool,
    #[serde(rename = "type")]
    pub kind: FdType,
    pub dev: u64,
    pub ino: u64,
    /// `None` for fds that cannot seek (pipes, sockets, terminals).
    pub offset: Option<i64>,
    /// The path the kernel names for it, when the platform can tell.
    pub target: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Access {
    #[serde(rename = "r")]
    Read,
    #[serde(rename = "w")]
    Write,
    #[serde(rename = "rw")]
    ReadWrite,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FdType {
    Reg,
    Dir,
    Chr,
    Blk,
    Fifo,
    Sock,
    Lnk,
    Unknown,
}

/// Signal numbers as the kernel holds them for the helper.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelSignals {
    /// Where they were read: `proc` (`/proc/self/status`) or `syscall` (raw `rt_sig*`).
    pub source: KernelSource,
    /// The thread's and the process's pending signals together.
    pub pending: Vec<i32>,
    pub blocked: Vec<i32>,
    pub ignored: Vec<i32>,
    /// Signals with a handler (none should survive an exec).
    pub caught: Vec<i32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KernelSource {
    Proc,
    Syscall,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sched {
    /// `SCHED_OTHER`, `SCHED_FIFO`, ...; `|SCHED_RESET_ON_FORK` is appended when set.
    pub policy: String,
    pub priority: i32,
}

/// Why a helper report could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ChildStateError {
    #[error("reading the child report {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{origin}:{line}:{column}: not a valid child report: {source}")]
    Json {
        origin: String,
        line: usize,
        column: usize,
        source: serde_json::Error,
    },
    #[error("{origin}: {field}[{index}] is not hex: {value:?}")]
    Hex {
        origin: String,
        field: &'static str,
        index: usize,
        value: String,
    },
}

impl ChildState {
    /// Parses a report from its JSON text.
    pub fn parse(text: &str) -> Result<ChildState, ChildStateError> {
        Self::parse_from(text, "<child report>")
    }

    /// Reads and parses the report file the helper wrote.
    pub fn read(path: &Path) -> Result<ChildState, ChildStateError> {
        let text = std::fs::read_to_string(path).map_err(|source| ChildStateError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse_from(&text, &path.display().to_string())
    }

    fn parse_from(text: &str, origin: &str) -> Result<ChildState, ChildStateError> {
        let state: ChildState =
            serde_json::from_str(text).map_err(|source| ChildStateError::Json {
                origin: origin.to_string(),
                line: source.line(),
                column: source.column(),
                source,
            })?;
        for (field, list) in [("argv_hex", &state.argv_hex), ("env_hex", &state.env_hex)] {
            if let Some(index) = list.iter().position(|h| decode_hex(h).is_none()) {
                return Err(ChildStateError::Hex {
                    origin: origin.to_string(),
                    field,
                    index,
                    value: list[index].clone(),
                });
            }
        }
        Ok(state)
    }

    /// The exact bytes of each argv element.
    pub fn argv_bytes(&self) -> Vec<Vec<u8>> {
        self.argv_hex.iter().filter_map(|h| decode_hex(h)).collect()
    }

    /// The exact bytes of each `NAME=VALUE` environment entry.
    pub fn env_bytes(&self) -> Vec<Vec<u8>> {
        self.env_hex.iter().filter_map(|h| decode_hex(h)).collect()
    }

    /// The value of environment variable `name` (first match, as `getenv` would).
    pub fn env_var(&self, name: &str) -> Option<&str> {
        self.env.iter().find_map(|entry| {
            entry
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('='))
        })
    }

    /// The entry for `fd`, if it was open.
    pub fn fd(&self, fd: i32) -> Option<&FdInfo> {
        self.fds.iter().find(|f| f.fd == fd)
    }
}

/// Lower- or upper-case hex, two digits per byte.
fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    let digits = hex.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let nibble = |d: u8| char::from(d).to_digit(16);
    digits
        .chunks(2)
        .map(|pair| Some((nibble(pair[0])? * 16 + nibble(pair[1])?) as u8))
        .collect()
}

#[cfg(test)]
mod tests;
