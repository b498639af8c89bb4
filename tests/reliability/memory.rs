//! Fault: the address space nearly at its limit (`RLIMIT_AS`). Linux only (`VmSize` comes
//! from `/proc`, or without it from a search under the limit); runs in a sub-process because
//! limits are process-wide.

use spawnmatrix::fuzz::load::{run_once, Ended, Spawner};
use spawnmatrix::fuzz::rawload::RawPosixSpawn;
use spawnmatrix::fuzz::sharedload::SharedSpawn;
use spawnmatrix::spawn::Strategy;

use super::rlimit::{limit, set_soft};
use super::strategies::each;
use super::subprocess::isolated;

/// `VmSize` of this process in bytes, from `/proc/self/status`; without `/proc` mounted (a
/// bare root), [`searched_vm_size`].
fn vm_size() -> u64 {
    let status = match std::fs::read_to_string("/proc/self/status") {
        Ok(status) => status,
        Err(_) if std::fs::metadata("/proc/self").is_err() => return searched_vm_size(),
        Err(e) => panic!("/proc/self/status: {e}"),
    };
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmSize in /proc/self/status");
    kb * 1024
}

/// The address space's size found by bisection, to a page: with `RLIMIT_AS` at `x`, a
/// one-page mapping succeeds exactly when the size plus a page is at most `x`. Called in the
/// test's own sub-process, where nothing else maps meanwhile; the limit is restored.
fn searched_vm_size() -> u64 {
    const PAGE: u64 = 4096;
    let old = limit(libc::RLIMIT_AS);
    // A mapping fails at `lo` and succeeds at `hi`.
    let (mut lo, mut hi) = (0u64, old.rlim_cur.min(1 << 47));
    while hi - lo > PAGE {
        let mid = lo + (hi - lo) / 2;
        set_soft(libc::RLIMIT_AS, mid as libc::rlim_t);
        let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
        // SAFETY: a fresh anonymous page, unmapped at once.
        let fits = unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                PAGE as usize,
                libc::PROT_NONE,
                flags,
                -1,
                0,
            );
            p != libc::MAP_FAILED && libc::munmap(p, PAGE as usize) == 0
        };
        if fits {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    set_soft(libc::RLIMIT_AS, old.rlim_cur);
    hi - PAGE
}

/// Bytes of address space left between the current size and the lowered limit.
pub const AS_SLACK: u64 = 8 << 20;

/// Touches 256 MiB, lowers `RLIMIT_AS` to the current size plus [`AS_SLACK`], spawns once,
/// restores the limit. Returns the child's end or the spawn error, for the caller to judge.
pub fn address_space(name: &str, spawner: &dyn Spawner) -> Result<Ended, String> {
    let helper = spawnmatrix::child::helper_path().expect("child helper");
    let ballast = vec![1u8; 256 << 20];
    let old = limit(libc::RLIMIT_AS);
    set_soft(libc::RLIMIT_AS, (vm_size() + AS_SLACK) as libc::rlim_t);
    let result = run_once(spawner, &helper).map(|f| f.ended);
    set_soft(libc::RLIMIT_AS, old.rlim_cur);
    println!(
        "{name}: spawn from a {} MiB parent {} MiB below RLIMIT_AS: {result:?}",
        vm_size() >> 20,
        AS_SLACK >> 20
    );
    drop(ballast);
    result
}

#[test]
fn raw_posix_spawn_near_address_space_limit() {
    isolated("memory::raw_posix_spawn_near_address_space_limit", || {
        // glibc and musl spawn with CLONE_VM: the child shares the parent's address space and
        // needs only a small stack, so the spawn must succeed.
        let r = address_space("libc posix_spawn", &RawPosixSpawn);
        assert_eq!(r, Ok(Ended::Code(0)));
    });
}

/// The vfork-class strategies share the parent's memory and must succeed; `fork` copies the
/// page tables but not the address-space limit's headroom, so it may succeed or fail, and
/// either way must report (never hang or crash). What it did is printed.
#[test]
fn shared_near_address_space_limit() {
    isolated("memory::shared_near_address_space_limit", || {
        each(|strategy| {
            let r = address_space(&format!("shared {strategy}"), &SharedSpawn(strategy));
            if strategy == Strategy::Fork {
                assert!(
                    matches!(r, Ok(Ended::Code(0)))
                        || r.as_ref().is_err_and(|e| e.contains("spawn failed")),
                    "fork near RLIMIT_AS: {r:?}"
                );
            } else {
                assert_eq!(r, Ok(Ended::Code(0)), "{strategy} near RLIMIT_AS");
            }
        })
    });
}
