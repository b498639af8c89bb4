//! Bodies about the Unix extensions: `arg0`, `process_group`, `pre_exec`, `exec`, `uid`,
//! `gid` (`groups` is unstable in std: `tests/beyond_std.rs` tests it).

macro_rules! unix_bodies {
    () => {
        #[test]
        fn arg0_is_the_childs_argv0() {
            start!();
            use unix::CommandExt;
            let mut c = observer_cmd();
            c.arg0("exciting-name");
            let state = observe!(c);
            assert_eq!(state.argv0, b"exciting-name");
            let out = cmd("/bin/sh")
                .arg0("named-shell")
                .arg("-c")
                .arg("echo $0")
                .output()
                .unwrap();
            assert_eq!(out.stdout, b"named-shell\n");
        }

        #[test]
        fn process_group_zero_leads_a_new_group() {
            start!();
            use unix::CommandExt;
            let mut c = observer_cmd();
            c.process_group(0);
            let state = observe!(c);
            assert_eq!(state.pgid, state.pid);
        }

        #[test]
        fn pre_exec_runs_in_a_forked_child() {
            start!();
            use std::sync::atomic::{AtomicUsize, Ordering};
            use std::sync::Arc;
            use unix::CommandExt;
            let me = std::process::id();
            let mem = Arc::new(AtomicUsize::new(0));
            let mem2 = mem.clone();
            let r = unsafe {
                sh("echo hello2").pre_exec(move || {
                    assert_ne!(libc::getpid() as u32, me);
                    // A fork: the parent's memory does not change.
                    mem2.fetch_add(1, Ordering::SeqCst);
                    libc::write(1, b"hello\n".as_ptr().cast(), 6);
                    Ok(())
                })
            }
            .output();
            if must_refuse(STRATEGY, Need::Fork) {
                assert_refused(r.map(drop));
                return;
            }
            let out = r.unwrap();
            assert!(out.status.success());
            assert_eq!(out.stdout, b"hello\nhello2\n");
            assert_eq!(mem.load(Ordering::SeqCst), 0);

            let out = unsafe {
                sh("pwd").pre_exec(|| {
                    libc::chdir(c"/".as_ptr());
                    Ok(())
                })
            }
            .output()
            .unwrap();
            assert_eq!(out.stdout, b"/\n");

            let e =
                unsafe { sh("exit 0").pre_exec(|| Err(std::io::Error::from_raw_os_error(102))) }
                    .output()
                    .unwrap_err();
            assert_eq!(e.raw_os_error(), Some(102));
            let e = unsafe { sh("exit 0").pre_exec(|| Err(std::io::Error::other("no errno"))) }
                .spawn()
                .map(drop)
                .unwrap_err();
            assert_eq!(e.raw_os_error(), Some(libc::EINVAL));
            assert_no_children();
        }

        #[test]
        fn exec_replaces_the_process_or_returns_the_error() {
            start!();
            for (role, want) in [
                ("exec-echo", "passed\n"),
                ("exec-missing", "returned: 2\n"),
                ("exec-nul", "returned: InvalidInput\n"),
                ("exec-bad-dir", "returned: 2\n"),
                ("exec-env-kept", "parent env kept\n"),
                ("exec-env-clear", "passed\n"),
                ("exec-path-removed", "passed\n"),
            ] {
                let (status, out) = run_role(api_of(module_path!()), role, &[]);
                assert_eq!(status, 0, "{role}: {out}");
                assert!(out.contains(want), "{role}: {want:?} not in {out}");
            }
        }

        #[test]
        fn own_ids_are_accepted_and_others_refused_without_privilege() {
            start!();
            use unix::CommandExt;
            // SAFETY: getuid and getgid cannot fail.
            let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
            let r = sh("true").uid(uid).gid(gid).status();
            if must_refuse(STRATEGY, Need::Ids) {
                assert_refused(r.map(drop));
                return;
            }
            assert!(r.unwrap().success());
            if uid != 0 {
                let e = cmd("/bin/ls").uid(0).gid(0).spawn().map(drop).unwrap_err();
                assert_eq!(e.raw_os_error(), Some(libc::EPERM));
            } else {
                // Root: the child really runs as someone else; without `groups` (unstable in
                // std, so tested in beyond_std.rs), the supplementary groups are dropped.
                let out = sh("id -G").uid(65534).gid(65534).output().unwrap();
                assert_eq!(String::from_utf8_lossy(&out.stdout), "65534\n");
            }
            assert_no_children();
        }
    };
}
