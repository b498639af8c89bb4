use super::{addchdir, addclosefrom, find_symbol, How};
use crate::sys::symbols::SPAWN_SYMBOLS;

#[test]
fn posix_spawn_itself_is_always_found() {
    for name in ["posix_spawn", "posix_spawnp"] {
        let found = find_symbol(name).unwrap_or_else(|| panic!("{name} not found"));
        assert_eq!(found.how, How::for_this_build());
        assert!(!found.func.is_null());
    }
}

#[test]
fn lookups_are_cached_and_agree_with_find_symbol() {
    assert_eq!(addchdir(), addchdir());
    assert_eq!(
        addclosefrom().map(|f| f.func as *mut std::ffi::c_void),
        find_symbol("posix_spawn_file_actions_addclosefrom_np").map(|f| f.func)
    );
}

#[test]
fn symbol_list_has_no_duplicates() {
    let mut names = SPAWN_SYMBOLS.to_vec();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), SPAWN_SYMBOLS.len());
}

/// Calls a found `addchdir` and `addfchdir` on a real file-actions object.
#[test]
fn found_functions_are_callable() {
    let (Some(chdir), Some(fchdir)) = (addchdir(), super::addfchdir()) else {
        return; // Absent here; the per-target tests below say where it must be present.
    };
    let mut fa = std::mem::MaybeUninit::<libc::posix_spawn_file_actions_t>::uninit();
    // SAFETY: init before use, destroy after; the path is NUL-terminated and outlives the call.
    unsafe {
        assert_eq!(
            crate::sys::spawn_fns::posix_spawn_file_actions_init(fa.as_mut_ptr()),
            0
        );
        assert_eq!((chdir.func)(fa.as_mut_ptr(), c"/".as_ptr()), 0);
        assert_eq!((fchdir.func)(fa.as_mut_ptr(), 0), 0);
        assert_eq!(
            crate::sys::spawn_fns::posix_spawn_file_actions_destroy(fa.as_mut_ptr()),
            0
        );
    }
}

/// This machine's glibc (2.36) has addchdir_np (2.29) and addclosefrom_np (2.34), found by
/// dlsym although the binary is not linked against them.
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    not(target_feature = "crt-static")
))]
#[test]
fn glibc_has_addchdir_and_addclosefrom() {
    assert_eq!(
        addchdir().map(|f| (f.name, f.how)),
        Some(("posix_spawn_file_actions_addchdir_np", How::Dlsym))
    );
    assert_eq!(addclosefrom().map(|f| f.how), Some(How::Dlsym));
}

/// Rust's bundled musl has addchdir_np (1.1.24) and no addclosefrom_np (musl has none).
#[cfg(all(target_os = "linux", target_env = "musl"))]
#[test]
fn musl_has_addchdir_but_not_addclosefrom() {
    assert_eq!(
        addchdir().map(|f| (f.name, f.how)),
        Some(("posix_spawn_file_actions_addchdir_np", How::StaticLink))
    );
    assert_eq!(addclosefrom(), None);
}

/// Nothing newer than the baseline is linked hard: in this very test binary, every newer
/// spawn symbol is either unreferenced or a weak reference (std's own), never a strong one.
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    not(target_feature = "crt-static")
))]
#[test]
fn no_newer_spawn_symbol_is_linked_hard() {
    // Without /proc (a bare root) current_exe has nothing to read: argv[0] is the path cargo
    // and ci/bare-root.sh start the test binary by.
    let exe = std::env::current_exe()
        .or_else(|e| {
            std::env::args_os()
                .next()
                .map(std::path::PathBuf::from)
                .filter(|p| p.components().count() > 1 && p.is_file())
                .ok_or(e)
        })
        .unwrap();
    let out = match std::process::Command::new("objdump")
        .arg("-T")
        .arg(&exe)
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "skipped: no_newer_spawn_symbol_is_linked_hard: no objdump (binutils): {e}"
            );
            return;
        }
    };
    assert!(out.status.success());
    let table = String::from_utf8_lossy(&out.stdout);
    for line in table.lines() {
        let mut words = line.split_whitespace();
        let (Some(_addr), Some(binding)) = (words.next(), words.next()) else {
            continue;
        };
        let Some(symbol) = line.split_whitespace().last() else {
            continue;
        };
        let newer = SPAWN_SYMBOLS[2..].contains(&symbol);
        assert!(!newer || binding == "w", "strong reference: {line}");
    }
}
