//! The `attr_read_back` scenario: a case's `attrs` set on a raw `posix_spawnattr_t` exactly
//! as the `libc` subject sets them for a spawn, then read back with every getter. Each getter
//! must give back exactly what was set: the flags, the process group, every member of the
//! signal sets (real-time ones too, so a 32-bit `sigset_t` shows) and the scheduling values.

use serde_json::json;

use super::libc_spawn::{requested_flags, set_attrs, sigset};
use super::NotStarted;
use crate::conformance::case::{Attrs, Case};
use crate::conformance::checks::Findings;
use crate::conformance::outcome::Outcome;
use crate::conformance::{names, sys};
use crate::sys::spawn_objects::SpawnAttr;

/// The members of `set` from 1 to the highest signal this libc's sets take, by number.
fn members(set: &libc::sigset_t) -> Vec<libc::c_int> {
    // SAFETY: `set` is an initialised signal set; sigismember only reads it.
    (1..=sys::max_signal())
        .filter(|&n| unsafe { libc::sigismember(set, n) } == 1)
        .collect()
}

fn signal_names(numbers: &[libc::c_int]) -> Vec<String> {
    numbers.iter().map(|&n| names::signal_name(n)).collect()
}

/// Sets `case.attrs` and reads every one back; a setter's error is the outcome (`add:ERRNO`,
/// or `unsupported` for what this libc lacks).
pub fn read_back_attrs(case: &Case) -> Result<Findings, NotStarted> {
    let attrs = case.attrs.clone().unwrap_or_default();
    let mut attr = SpawnAttr::new().map_err(|e| {
        NotStarted::new(
            Outcome::Skipped("init-failed".into()),
            format!("posix_spawnattr_init: {e}"),
        )
    })?;
    let mut f = Findings::default();
    if attrs.sched.is_some() {
        // Before anything is set: POSIX leaves these defaults unspecified, so they are facts.
        // SAFETY: the object is initialised.
        match unsafe { sys::get_sched(attr.as_ptr()) } {
            Ok((policy, priority)) => {
                f.facts
                    .insert("default schedpolicy".into(), json!(policy_name(policy)));
                f.facts
                    .insert("default schedparam priority".into(), json!(priority));
            }
            Err(rc) => return Err(sched_failed(rc)),
        }
    }
    set_attrs(attr.as_mut_ptr(), &attrs)?;
    compare(&mut f, &attr, &attrs)?;
    Ok(f)
}

fn sched_failed(rc: libc::c_int) -> NotStarted {
    match rc {
        libc::ENOSYS => NotStarted::new(
            Outcome::Unsupported,
            "the sched attribute getters return ENOSYS".to_string(),
        ),
        rc => NotStarted::new(
            Outcome::Add(crate::errno::name(rc)),
            format!(
                "posix_spawnattr_getsched* returned {}",
                crate::errno::name(rc)
            ),
        ),
    }
}

fn policy_name(policy: libc::c_int) -> String {
    sys::SCHED_POLICIES
        .iter()
        .find(|(_, v)| *v == policy)
        .map_or_else(|| format!("SCHED_{policy}"), |(n, _)| (*n).to_string())
}

/// Records one getter's answer: `holds` says whether it gave back what was set.
fn gave_back(f: &mut Findings, getter: &str, rc: libc::c_int, holds: bool, detail: String) {
    let ok = rc == 0 && holds;
    f.facts
        .insert(format!("{getter} gives back what was set"), json!(ok));
    if rc != 0 {
        f.failures
            .push(format!("{getter} returned {}", crate::errno::name(rc)));
    } else if !holds {
        f.failures.push(format!("{getter}: {detail}"));
    }
}

fn compare(f: &mut Findings, attr: &SpawnAttr, attrs: &Attrs) -> Result<(), NotStarted> {
    let at = attr.as_ptr();
    let want_flags = requested_flags(attrs)?;
    let mut flags: libc::c_short = 0;
    // SAFETY: `at` is initialised; every out-parameter is a local.
    let rc = unsafe { libc::posix_spawnattr_getflags(at, &mut flags) };
    let detail = format!("read {flags:#x}, set {want_flags:#x}");
    gave_back(f, "getflags", rc, flags == want_flags, detail);
    if let Some(pgroup) = attrs.pgroup {
        let want = super::pgid_for(pgroup);
        let mut pgid: libc::pid_t = -1;
        // SAFETY: as above.
        let rc = unsafe { libc::posix_spawnattr_getpgroup(at, &mut pgid) };
        gave_back(
            f,
            "getpgroup",
            rc,
            pgid == want,
            format!("read {pgid}, set {want}"),
        );
    }
    let getters = [
        (
            "getsigmask",
            &attrs.sigmask,
            libc::posix_spawnattr_getsigmask as unsafe extern "C" fn(_, _) -> _,
        ),
        (
            "getsigdefault",
            &attrs.sigdefault,
            libc::posix_spawnattr_getsigdefault,
        ),
    ];
    for (getter, list, get) in getters {
        if list.is_empty() {
            continue;
        }
        let want = members(&sigset(list)?);
        // SAFETY: the set is initialised before the getter overwrites it.
        let (rc, seen) = unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            (get(at, &mut set), members(&set))
        };
        let detail = format!(
            "read {:?}, set {:?}",
            signal_names(&seen),
            signal_names(&want)
        );
        gave_back(f, getter, rc, seen == want, detail);
    }
    if let Some(sched) = &attrs.sched {
        // The setters accepted it, so the name has a value here.
        let want_policy = names::sched_policy(&sched.policy).unwrap_or(-1);
        // SAFETY: `at` is initialised.
        let (policy, priority) = unsafe { sys::get_sched(at) }.map_err(sched_failed)?;
        let detail = format!("read {}, set {}", policy_name(policy), sched.policy);
        gave_back(f, "getschedpolicy", 0, policy == want_policy, detail);
        let detail = format!("read priority {priority}, set {}", sched.priority);
        gave_back(f, "getschedparam", 0, priority == sched.priority, detail);
    }
    Ok(())
}
