//! FreeBSD: the kernel release from `uname -r`; the libc belongs to the base system, whose
//! userland version `/bin/freebsd-version` records.

use super::uname::Uname;
use crate::report::Libc;

pub(super) fn os_version(uname: Option<&Uname>) -> Option<String> {
    uname.map(|u| u.release.clone())
}

/// `USERLAND_VERSION="14.1-RELEASE-p5"` in the `freebsd-version` script.
fn userland_version() -> Option<String> {
    let script = std::fs::read_to_string("/bin/freebsd-version").ok()?;
    script.lines().find_map(|line| {
        let value = line.trim().strip_prefix("USERLAND_VERSION=")?;
        Some(value.trim_matches('"').to_string()).filter(|v| !v.is_empty())
    })
}

pub(super) fn libc(_uname: Option<&Uname>) -> Libc {
    let version = userland_version();
    let detail = match version {
        Some(_) => "base-system userland version (USERLAND_VERSION in /bin/freebsd-version)",
        None => "libc has no version API and /bin/freebsd-version was not readable",
    };
    Libc {
        name: "freebsd-libc".to_string(),
        version,
        detail: Some(detail.to_string()),
    }
}
