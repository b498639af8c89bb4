//! Platforms without a module of their own: the kernel release only.

use super::uname::Uname;
use crate::report::Libc;

pub(super) fn os_version(_uname: Option<&Uname>) -> Option<String> {
    None
}

pub(super) fn libc(_uname: Option<&Uname>) -> Libc {
    Libc {
        name: "unknown".to_string(),
        version: None,
        detail: Some(format!("no libc probe for target {}", super::TARGET)),
    }
}
