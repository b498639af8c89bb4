//! Reading and lowering resource limits (the tests that do so run in sub-processes).

/// The type `getrlimit` takes its resource as (glibc names it; musl uses `int`).
#[cfg(target_env = "gnu")]
pub type Resource = libc::__rlimit_resource_t;
#[cfg(not(target_env = "gnu"))]
pub type Resource = libc::c_int;

/// The current limits for `resource`.
pub fn limit(resource: Resource) -> libc::rlimit {
    // SAFETY: getrlimit writes into the struct.
    unsafe {
        let mut rl: libc::rlimit = std::mem::zeroed();
        assert_eq!(libc::getrlimit(resource, &mut rl), 0, "getrlimit");
        rl
    }
}

/// Sets the soft limit of `resource`, keeping the hard one.
pub fn set_soft(resource: Resource, soft: libc::rlim_t) {
    let mut rl = limit(resource);
    rl.rlim_cur = soft;
    // SAFETY: setrlimit reads the struct; lowering or restoring up to the hard limit is allowed.
    assert_eq!(unsafe { libc::setrlimit(resource, &rl) }, 0, "setrlimit");
}
