//! Bodies about running a process: exit codes and signals, stdio, waiting, failures, `Debug`.

macro_rules! process_bodies {
    () => {
        /// This test binary as an observer (see `common::Seen`).
        fn observer_cmd() -> p::Command {
            let mut c = cmd(observer());
            c.args(ROLE_ARGS);
            c
        }

        /// A shell command.
        fn sh(script: &str) -> p::Command {
            let mut c = cmd("/bin/sh");
            c.arg("-c").arg(script);
            c
        }

        #[test]
        fn smoke_spawn_and_wait() {
            start!();
            let mut child = sh("true").spawn().unwrap();
            assert!(child.wait().unwrap().success());
            assert_no_children();
        }

        #[test]
        fn exit_codes_are_reported() {
            start!();
            for code in [0, 1, 3, 127, 255] {
                let status = sh(&format!("exit {code}")).status().unwrap();
                assert_eq!(status.code(), Some(code));
                assert_eq!(status.success(), code == 0);
                assert_eq!(status.to_string(), format!("exit status: {code}"));
            }
        }

        #[test]
        fn signals_are_reported() {
            start!();
            use unix::ExitStatusExt;
            let mut child = sh("read a").stdin(p::Stdio::piped()).spawn().unwrap();
            child.kill().unwrap();
            let status = child.wait().unwrap();
            assert_eq!(status.signal(), Some(libc::SIGKILL));
            assert_eq!(status.code(), None);
            assert!(!status.core_dumped());
            assert_eq!(status.to_string(), "signal: 9 (SIGKILL)");
            let status = sh("kill -TERM $$").status().unwrap();
            assert_eq!(status.signal(), Some(libc::SIGTERM));
        }

        #[test]
        fn kill_after_exit_is_ok_and_wait_repeats() {
            start!();
            let mut child = sh("exit 1").stdout(p::Stdio::null()).spawn().unwrap();
            assert_eq!(child.wait().unwrap().code(), Some(1));
            assert_eq!(child.wait().unwrap().code(), Some(1));
            assert!(child.kill().is_ok());
            assert!(child.kill().is_ok());
            assert_no_children();
        }

        #[test]
        fn try_wait_before_and_after_exit() {
            start!();
            let mut child = sh("exec sleep 1000").spawn().unwrap();
            assert!(child.try_wait().unwrap().is_none());
            assert!(child.try_wait().unwrap().is_none());
            child.kill().unwrap();
            child.wait().unwrap();
            assert!(!child.try_wait().unwrap().unwrap().success());
            assert!(!child.try_wait().unwrap().unwrap().success());
            let mut quick = sh("exit 0").spawn().unwrap();
            let status = loop {
                match quick.try_wait().unwrap() {
                    Some(s) => break s,
                    None => std::thread::sleep(std::time::Duration::from_millis(1)),
                }
            };
            assert!(status.success());
            assert!(quick.try_wait().unwrap().unwrap().success());
            assert_no_children();
        }

        #[test]
        fn piped_stdout_and_stdin() {
            start!();
            use std::io::{Read, Write};
            let mut child = sh("echo foobar").stdout(p::Stdio::piped()).spawn().unwrap();
            let mut out = String::new();
            child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
            assert!(child.wait().unwrap().success());
            assert_eq!(out, "foobar\n");

            let mut child = sh("read line; echo $line")
                .stdin(p::Stdio::piped())
                .stdout(p::Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.as_mut().unwrap().write_all(b"foobar").unwrap();
            drop(child.stdin.take());
            let mut out = String::new();
            child.stdout.as_mut().unwrap().read_to_string(&mut out).unwrap();
            assert!(child.wait().unwrap().success());
            assert_eq!(out, "foobar\n");
        }

        #[test]
        fn output_captures_both_streams() {
            start!();
            let p::Output { status, stdout, stderr } = sh("echo hello").output().unwrap();
            assert!(status.success());
            assert_eq!(String::from_utf8(stdout).unwrap().trim(), "hello");
            assert_eq!(stderr, Vec::new());
            let out = cmd("mkdir").arg("./").output().unwrap();
            assert!(out.status.code().is_some_and(|c| c != 0));
            assert_eq!(out.stdout, Vec::new());
            assert!(!out.stderr.is_empty());
            // Large amounts on both pipes at once do not block each other.
            let out = sh("head -c 300000 /dev/zero; head -c 200000 /dev/zero >&2").output().unwrap();
            assert_eq!((out.stdout.len(), out.stderr.len()), (300000, 200000));
            // output() gives the child /dev/null as stdin.
            let out = sh("cat; echo done").output().unwrap();
            assert_eq!(out.stdout, b"done\n");
        }

        #[test]
        fn wait_with_output_once() {
            start!();
            let child = sh("echo hello").stdout(p::Stdio::piped()).spawn().unwrap();
            let p::Output { status, stdout, stderr } = child.wait_with_output().unwrap();
            assert!(status.success());
            assert_eq!(stdout, b"hello\n");
            assert_eq!(stderr, Vec::new());
        }

        #[test]
        fn one_child_feeds_another() {
            start!();
            let mut first = sh("echo piped through").stdout(p::Stdio::piped()).spawn().unwrap();
            let out = cmd("cat")
                .stdin(p::Stdio::from(first.stdout.take().unwrap()))
                .output()
                .unwrap();
            assert!(first.wait().unwrap().success());
            assert_eq!(out.stdout, b"piped through\n");
            // A File as stdin and as stdout.
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("in"), "from a file\n").unwrap();
            let input = std::fs::File::open(dir.path().join("in")).unwrap();
            let output = std::fs::File::create(dir.path().join("out")).unwrap();
            let status = cmd("cat").stdin(input).stdout(output).status().unwrap();
            assert!(status.success());
            assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), b"from a file\n");
            // An owned raw fd.
            use std::os::fd::{FromRawFd, IntoRawFd};
            let output = std::fs::File::create(dir.path().join("raw")).unwrap();
            // SAFETY: the fd comes from into_raw_fd, so the Stdio owns it.
            let stdio = unsafe { p::Stdio::from_raw_fd(output.into_raw_fd()) };
            assert!(sh("echo raw").stdout(stdio).status().unwrap().success());
            assert_eq!(std::fs::read(dir.path().join("raw")).unwrap(), b"raw\n");
        }

        #[test]
        fn spawn_failures_are_typed_errors() {
            start!();
            use std::io::ErrorKind;
            use std::os::unix::fs::PermissionsExt;
            let dir = tempfile::tempdir().unwrap();
            let not_exec = dir.path().join("not-exec");
            std::fs::write(&not_exec, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&not_exec, std::fs::Permissions::from_mode(0o644)).unwrap();
            // A path through a regular file (Cygwin has no /etc/passwd by default).
            let under_file = not_exec.join("x");
            let cases: [(std::path::PathBuf, Option<ErrorKind>, i32); 5] = [
                ("/no-binary-by-this-name-should-exist".into(), Some(ErrorKind::NotFound), libc::ENOENT),
                ("if-this-is-a-binary-then-the-world-has-ended".into(), Some(ErrorKind::NotFound), libc::ENOENT),
                (not_exec, Some(ErrorKind::PermissionDenied), libc::EACCES),
                ("/".into(), Some(ErrorKind::PermissionDenied), libc::EACCES),
                (under_file, None, libc::ENOTDIR),
            ];
            for (program, kind, errno) in cases {
                for e in [
                    cmd(&program).spawn().map(drop).unwrap_err(),
                    cmd(&program).output().map(drop).unwrap_err(),
                    cmd(&program).status().map(drop).unwrap_err(),
                ] {
                    assert_eq!(e.raw_os_error(), Some(errno), "{program:?}: {e}");
                    if let Some(kind) = kind {
                        assert_eq!(e.kind(), kind, "{program:?}");
                    }
                }
            }
            assert_no_children();
        }

        #[test]
        fn interior_nul_is_invalid_input() {
            start!();
            use std::io::ErrorKind;
            let nul = "has-some-\0\0s-inside";
            let errors = [
                cmd(nul).spawn().map(drop),
                cmd("echo").arg(nul).spawn().map(drop),
                cmd("echo").args([nul]).spawn().map(drop),
                cmd("echo").current_dir(nul).spawn().map(drop),
                cmd("env").env(nul, "value").spawn().map(drop),
                cmd("env").env("key", nul).spawn().map(drop),
            ];
            for r in errors {
                assert_eq!(r.unwrap_err().kind(), ErrorKind::InvalidInput);
            }
            assert_no_children();
        }

        #[test]
        fn current_dir_is_the_childs() {
            start!();
            let out = sh("pwd").current_dir("/").stdout(p::Stdio::piped()).output().unwrap();
            assert_eq!(out.stdout, b"/\n");
            // A relative program is found in the new directory (Linux: glibc and musl run
            // the chdir before the exec, and std's fork path does too).
            let dir = tempfile::tempdir().unwrap();
            std::fs::create_dir(dir.path().join("sub")).unwrap();
            let script = dir.path().join("sub/prog");
            std::fs::write(&script, "#!/bin/sh\necho in-sub\n").unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
            let out = cmd("./prog").current_dir(dir.path().join("sub")).output().unwrap();
            assert_eq!(out.stdout, b"in-sub\n");
            let e = cmd("/bin/sh").current_dir("/nonexistent/dir").spawn().map(drop).unwrap_err();
            assert_eq!(e.raw_os_error(), Some(libc::ENOENT));
            assert_no_children();
        }

        #[test]
        fn sigpipe_is_default_in_the_child() {
            start!();
            // Rust ignores SIGPIPE; `yes`-like loops must still end when `head` exits.
            let out = sh("while echo y; do :; done | head -n 3").output().unwrap();
            assert!(out.status.success());
            assert_eq!(out.stdout, b"y\ny\ny\n");
            assert_eq!(out.stderr, Vec::new());
        }

        #[test]
        fn fds_opened_by_std_are_cloexec() {
            start!();
            use std::os::fd::AsRawFd;
            let file = std::fs::File::open("/dev/null").unwrap();
            let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let tcp2 = tcp.try_clone().unwrap();
            let conn = std::net::TcpStream::connect(tcp.local_addr().unwrap()).unwrap();
            let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
            let mut other = sh("cat")
                .stdin(p::Stdio::piped())
                .stdout(p::Stdio::piped())
                .stderr(p::Stdio::piped())
                .spawn()
                .unwrap();
            let mine = [
                file.as_raw_fd(),
                tcp.as_raw_fd(),
                tcp2.as_raw_fd(),
                conn.as_raw_fd(),
                udp.as_raw_fd(),
                other.stdin.as_ref().unwrap().as_raw_fd(),
                other.stdout.as_ref().unwrap().as_raw_fd(),
                other.stderr.as_ref().unwrap().as_raw_fd(),
            ];
            let seen = observe!(observer_cmd()).fds;
            for fd in mine {
                assert!(!seen.contains(&fd), "fd {fd} reached the child: {seen:?}");
            }
            drop(other.stdin.take());
            other.wait().unwrap();
        }

        #[test]
        fn default_stdio_is_inherited() {
            start!();
            let (status, out) = run_role(api_of(module_path!()), "inherit", &[]);
            assert_eq!(status, 0, "{out}");
            assert!(out.contains("inherited-stdout\n"), "{out}");
            assert!(out.contains("inherited-stderr\n"), "{out}");
            assert!(out.contains("via-io-stdout\n"), "{out}");
            assert!(out.contains("via-io-stderr\n"), "{out}");
        }

        #[test]
        fn ids_and_process_helpers_match_std() {
            start!();
            assert_eq!(p::id(), std::process::id());
            let child = sh("exit 0").spawn().unwrap();
            assert!(child.id() > 0);
            let mut child = child;
            child.wait().unwrap();
            fn returns_termination() -> impl p::Termination {
                p::ExitCode::SUCCESS
            }
            let _ = returns_termination();
            assert_eq!(p::ExitCode::from(3), std::process::ExitCode::from(3));
            let (status, out) = run_role(api_of(module_path!()), "exit", &[]);
            assert_eq!((libc::WIFEXITED(status), libc::WEXITSTATUS(status)), (true, 3), "{out}");
            let (status, out) = run_role(api_of(module_path!()), "abort", &[]);
            assert!(libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGABRT, "{out}");
        }

        #[test]
        fn command_and_child_are_send_sync() {
            start!();
            fn send_sync<T: Send + Sync>(_: &T) {}
            let c = cmd("");
            send_sync(&c);
            fn send<T: Send>() {}
            send::<p::Child>();
            send::<p::Stdio>();
        }

        #[test]
        fn exit_status_views_and_default() {
            start!();
            use unix::ExitStatusExt;
            let d = p::ExitStatus::default();
            assert!(d.success());
            assert_eq!(d.to_string(), "exit status: 0");
            let s = p::ExitStatus::from_raw(3 << 8);
            assert_eq!((s.code(), s.signal(), s.into_raw()), (Some(3), None, 3 << 8));
            let s = p::ExitStatus::from_raw(libc::SIGSEGV | 0x80);
            assert_eq!((s.signal(), s.core_dumped()), (Some(libc::SIGSEGV), true));
            assert_eq!(s.to_string(), "signal: 11 (SIGSEGV) (core dumped)");
            let s = p::ExitStatus::from_raw((libc::SIGSTOP << 8) | 0x7f);
            assert_eq!((s.stopped_signal(), s.continued(), s.code()), (Some(libc::SIGSTOP), false, None));
            let s = p::ExitStatus::from_raw(0xffff);
            assert!(s.continued());
            assert_eq!(s.stopped_signal(), None);
        }

        #[test]
        fn debug_prints_like_std() {
            start!();
            use unix::CommandExt;
            let pidfd = if cfg!(target_os = "linux") { "    create_pidfd: false,\n" } else { "" };
            // Without a forced strategy: the strategy is this crate's extra field.
            let mut c = p::Command::new("some-boring-name");
            assert_eq!(format!("{c:?}"), r#""some-boring-name""#);
            assert_eq!(
                format!("{c:#?}"),
                format!("Command {{\n    program: \"some-boring-name\",\n    args: [\n        \"some-boring-name\",\n    ],\n{pidfd}}}")
            );
            c.args(["1", "2", "3"]);
            assert_eq!(format!("{c:?}"), r#""some-boring-name" "1" "2" "3""#);
            c.arg0("exciting-name");
            assert_eq!(format!("{c:?}"), r#"["some-boring-name"] "exciting-name" "1" "2" "3""#);
            assert_eq!(format!("{:?}", c.get_args()), r#"CommandArgs { inner: ["1", "2", "3"] }"#);
            let mut c = p::Command::new("boring-name");
            c.current_dir("/some/path").env("FOO", "bar");
            assert_eq!(format!("{c:?}"), r#"cd "/some/path" && FOO="bar" "boring-name""#);
            assert_eq!(
                format!("{c:#?}"),
                format!("Command {{\n    program: \"boring-name\",\n    args: [\n        \"boring-name\",\n    ],\n    env: CommandEnv {{\n        clear: false,\n        vars: {{\n            \"FOO\": Some(\n                \"bar\",\n            ),\n        }},\n    }},\n    cwd: Some(\n        \"/some/path\",\n    ),\n{pidfd}}}")
            );
            let mut c = p::Command::new("boring-name");
            c.env_remove("FOO").env_remove("BAR");
            assert_eq!(format!("{c:?}"), r#"env -u BAR -u FOO "boring-name""#);
            let mut c = p::Command::new("boring-name");
            c.env_clear().env("BAR", "val").env_remove("FOO");
            assert_eq!(format!("{c:?}"), r#"env -i BAR="val" "boring-name""#);
            // Bytes outside printable ASCII, and a NUL, as std prints them.
            use std::os::unix::ffi::OsStrExt;
            let mut c = p::Command::new("prog\u{e9}");
            c.arg("tab\there").arg("quote\"").arg("nul\0").arg(OsStr::from_bytes(b"bad\xff"));
            assert_eq!(format!("{c:?}"), r#""progé" "tab\there" "quote\"" "<string-with-nul>" "bad\xFF""#);
            // Stdio, ids and the process group in {:#?}.
            let mut c = p::Command::new("x");
            c.stdin(p::Stdio::piped()).stdout(p::Stdio::null()).stderr(p::Stdio::inherit());
            c.uid(7).gid(8).process_group(0);
            let s = format!("{c:#?}");
            for part in ["stdin: Some(\n        MakePipe,", "stdout: Some(\n        Null,", "stderr: Some(\n        Inherit,", "uid: Some(\n        7,", "gid: Some(\n        8,", "pgroup: Some(\n        0,"] {
                assert!(s.contains(part), "{part:?} not in {s}");
            }
            assert_eq!(format!("{:?}", p::Stdio::null()), "Stdio { .. }");
        }

        #[test]
        fn getters_return_what_was_set() {
            start!();
            let mut c = p::Command::new("ls");
            assert_eq!(c.get_program(), "ls");
            assert_eq!(c.get_args().len(), 0);
            assert_eq!(c.get_current_dir(), None);
            c.arg("-l").arg("/tmp").current_dir("/");
            c.env("B", "2").env("A", "1").env_remove("C");
            assert_eq!(c.get_args().collect::<Vec<_>>(), ["-l", "/tmp"]);
            assert_eq!(c.get_args().len(), 2);
            assert_eq!(c.get_current_dir(), Some(std::path::Path::new("/")));
            let envs: Vec<_> = c.get_envs().collect();
            use std::ffi::OsStr;
            assert_eq!(
                envs,
                [
                    (OsStr::new("A"), Some(OsStr::new("1"))),
                    (OsStr::new("B"), Some(OsStr::new("2"))),
                    (OsStr::new("C"), None)
                ]
            );
            assert_eq!(c.get_envs().len(), 3);
            c.env_clear();
            assert_eq!(c.get_envs().len(), 0);
            c.env_remove("D");
            assert_eq!(c.get_envs().len(), 0);
        }
    };
}
