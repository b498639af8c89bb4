//! Bodies about the child's environment: inherited, set, removed, cleared, captured at
//! spawn time, and entries without `=`.

macro_rules! env_bodies {
    () => {
        /// The child's environment entries, exact bytes, in order.
        fn child_env(mut c: p::Command) -> Vec<Vec<u8>> {
            observe!(c).env
        }

        /// This process's environment as `vars_os` gives it, as `NAME=VALUE` bytes.
        fn own_env() -> Vec<Vec<u8>> {
            use std::os::unix::ffi::OsStrExt;
            std::env::vars_os()
                .map(|(k, v)| [k.as_bytes(), b"=", v.as_bytes()].concat())
                .collect()
        }

        #[test]
        fn unchanged_environment_is_inherited() {
            start!();
            let mut seen = child_env(observer_cmd());
            let mut own = own_env();
            seen.sort();
            own.sort();
            assert_eq!(seen, own);
        }

        #[test]
        fn set_remove_and_clear() {
            start!();
            std::env::set_var("PARITY_REMOVE_ME", "1");
            let mut c = observer_cmd();
            c.env("RUN_TEST_NEW_ENV", "123")
                .env_remove("PARITY_REMOVE_ME");
            c.envs([("MULTI_A", "a"), ("MULTI_B", "b")]);
            let seen = child_env(c);
            std::env::remove_var("PARITY_REMOVE_ME");
            assert!(seen.contains(&b"RUN_TEST_NEW_ENV=123".to_vec()));
            assert!(seen.contains(&b"MULTI_A=a".to_vec()) && seen.contains(&b"MULTI_B=b".to_vec()));
            assert!(!seen.iter().any(|e| e.starts_with(b"PARITY_REMOVE_ME=")));

            let mut c = observer_cmd();
            c.env_clear().env("ONLY", "this");
            assert_eq!(child_env(c), [b"ONLY=this".to_vec()]);

            let mut c = observer_cmd();
            c.env("GONE", "x").env_clear();
            assert_eq!(child_env(c), Vec::<Vec<u8>>::new());
        }

        #[test]
        fn funky_keys_and_values() {
            start!();
            let mut c = observer_cmd();
            c.env_clear()
                .env("=leading-equals", "v")
                .env("K", "a=b=c")
                .env("EMPTY", "");
            let mut seen = child_env(c);
            seen.sort();
            assert_eq!(
                seen,
                [
                    b"=leading-equals=v".to_vec(),
                    b"EMPTY=".to_vec(),
                    b"K=a=b=c".to_vec()
                ]
            );
            use std::os::unix::ffi::OsStrExt;
            let mut c = observer_cmd();
            c.env_clear().env(
                std::ffi::OsStr::from_bytes(b"NON\xffUTF8"),
                std::ffi::OsStr::from_bytes(b"\xfe"),
            );
            assert_eq!(child_env(c), [b"NON\xffUTF8=\xfe".to_vec()]);
        }

        #[test]
        fn environment_is_captured_at_spawn() {
            start!();
            let mut c = observer_cmd();
            c.env("RUN_TEST_NEW_ENV1", "123");
            std::env::set_var("RUN_TEST_NEW_ENV2", "456");
            let seen = child_env(c);
            std::env::remove_var("RUN_TEST_NEW_ENV2");
            assert!(seen.contains(&b"RUN_TEST_NEW_ENV1=123".to_vec()));
            assert!(seen.contains(&b"RUN_TEST_NEW_ENV2=456".to_vec()));
        }

        #[test]
        fn cleared_path_searches_the_default_path() {
            start!();
            let status = cmd("sh")
                .env_clear()
                .arg("-c")
                .arg("exit 7")
                .status()
                .unwrap();
            assert_eq!(status.code(), Some(7));
            let status = cmd("sh")
                .env_remove("PATH")
                .arg("-c")
                .arg("exit 8")
                .status()
                .unwrap();
            assert_eq!(status.code(), Some(8));
            // A PATH set for the child is the one searched.
            let dir = tempfile::tempdir().unwrap();
            let e = cmd("sh")
                .env("PATH", dir.path())
                .spawn()
                .map(drop)
                .unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
        }

        /// An entry without `=` in this process's environment reaches a child whose
        /// environment is unchanged (std hands over `environ` as it is), and not one whose
        /// environment changed (std rebuilds it from `vars_os`, which skips it).
        #[test]
        fn entries_without_equals_pass_through_unchanged_environment() {
            start!();
            let (status, out) =
                run_role(api_of(module_path!()), "malformed-env", &[b"FOOBAR", b"=X"]);
            assert_eq!(status, 0, "{out}");
        }
    };
}
