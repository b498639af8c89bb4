//! Cygwin: `uname -s` carries the Windows version (`CYGWIN_NT-10.0-19045`) and `uname -r` the
//! Cygwin DLL version (`3.5.4-1.x86_64`), and the DLL is the libc.

use super::uname::Uname;
use crate::report::Libc;

pub(super) fn os_version(uname: Option<&Uname>) -> Option<String> {
    let sysname = &uname?.sysname;
    Some(
        sysname
            .strip_prefix("CYGWIN_")
            .unwrap_or(sysname)
            .to_string(),
    )
}

pub(super) fn libc(uname: Option<&Uname>) -> Libc {
    let version = uname
        .and_then(|u| u.release.split(['-', '(']).next().map(str::to_string))
        .filter(|v| !v.is_empty());
    Libc {
        name: "cygwin".to_string(),
        version,
        detail: Some("uname -r: the Cygwin DLL version (the DLL is the libc)".to_string()),
    }
}
