//! Scheduling attributes where the platform declares their setters.

use libc::c_int;

use super::Attr;

/// Sets policy and priority on `attr`; the error is the setter's return value.
///
/// # Safety
/// `attr` must point to an initialised attribute object.
pub unsafe fn set_sched(attr: *mut Attr, policy: c_int, priority: c_int) -> Result<(), c_int> {
    let rc = libc::posix_spawnattr_setschedpolicy(attr, policy);
    if rc != 0 {
        return Err(rc);
    }
    let mut param: libc::sched_param = std::mem::zeroed();
    param.sched_priority = priority;
    match libc::posix_spawnattr_setschedparam(attr, &param) {
        0 => Ok(()),
        rc => Err(rc),
    }
}

/// Policy and priority as `attr` holds them; the error is the getter's return value.
///
/// # Safety
/// `attr` must point to an initialised attribute object.
pub unsafe fn get_sched(attr: *const Attr) -> Result<(c_int, c_int), c_int> {
    let mut policy: c_int = -1;
    let rc = libc::posix_spawnattr_getschedpolicy(attr, &mut policy);
    if rc != 0 {
        return Err(rc);
    }
    let mut param: libc::sched_param = std::mem::zeroed();
    match libc::posix_spawnattr_getschedparam(attr, &mut param) {
        0 => Ok((policy, param.sched_priority)),
        rc => Err(rc),
    }
}
