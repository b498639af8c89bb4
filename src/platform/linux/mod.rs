//! Linux: the distribution from os-release; the libc per target environment.

#[cfg_attr(target_env = "gnu", path = "glibc.rs")]
#[cfg_attr(target_env = "musl", path = "musl.rs")]
#[cfg_attr(not(any(target_env = "gnu", target_env = "musl")), path = "unknown.rs")]
mod libc_impl;

use super::os_release;
use super::uname::Uname;
use crate::report::Libc;

pub(super) fn os_version(_uname: Option<&Uname>) -> Option<String> {
    os_release::read().and_then(|fields| os_release::os_version(&fields))
}

pub(super) fn libc(_uname: Option<&Uname>) -> Libc {
    libc_impl::libc()
}
