//! What a re-run copy of this binary does for a body (`common::run_role`): things that end
//! or replace the process, or need an environment no test harness process has.

macro_rules! role_bodies {
    () => {
        /// Runs `role`; its output and exit status are what the calling body checks.
        pub fn role(role: &str) {
            use std::io::Write;
            use unix::CommandExt;
            let report = |e: std::io::Error| {
                let what = match e.raw_os_error() {
                    Some(n) => n.to_string(),
                    None => format!("{:?}", e.kind()),
                };
                println!("returned: {what}");
            };
            match role {
                "inherit" => {
                    let ok = sh("echo inherited-stdout; echo inherited-stderr >&2")
                        .status()
                        .unwrap();
                    assert!(ok.success());
                    let ok = sh("echo via-io-stdout")
                        .stdout(std::io::stdout())
                        .stderr(std::io::stderr())
                        .status()
                        .unwrap();
                    assert!(ok.success());
                    let ok = sh("echo via-io-stderr >&2")
                        .stderr(std::io::stderr())
                        .status()
                        .unwrap();
                    assert!(ok.success());
                }
                "exit" => {
                    std::io::stdout().flush().unwrap();
                    p::exit(3)
                }
                "abort" => p::abort(),
                "malformed-env" => {
                    let seen = observe!(observer_cmd()).env;
                    assert!(seen.contains(&b"FOOBAR".to_vec()), "{seen:?}");
                    assert!(seen.contains(&b"=X".to_vec()), "{seen:?}");
                    let mut changed = observer_cmd();
                    changed.env("SOMETHING", "else");
                    let seen = observe!(changed).env;
                    assert!(!seen.contains(&b"FOOBAR".to_vec()), "{seen:?}");
                }
                "exec-echo" => {
                    std::io::stdout().flush().unwrap();
                    let e = sh("echo passed").exec();
                    panic!("exec failed: {e}");
                }
                "exec-missing" => report(cmd("/path/to/nowhere").exec()),
                "exec-nul" => report(cmd("/bin/sh").arg("bad\0").exec()),
                "exec-bad-dir" => report(sh("true").current_dir("/path/to/nowhere").exec()),
                "exec-env-kept" => {
                    std::env::set_var("VARIABLE", "ABC");
                    let _ = cmd("definitely-not-a-real-binary")
                        .env("VARIABLE", "XYZ")
                        .exec();
                    assert_eq!(std::env::var("VARIABLE").unwrap(), "ABC");
                    println!("parent env kept");
                }
                "exec-env-clear" => {
                    std::io::stdout().flush().unwrap();
                    let e = cmd("echo").arg("passed").env_clear().exec();
                    panic!("exec failed: {e}");
                }
                "exec-path-removed" => {
                    std::io::stdout().flush().unwrap();
                    let e = cmd("echo").arg("passed").env_remove("PATH").exec();
                    panic!("exec failed: {e}");
                }
                other => panic!("unknown role {other}"),
            }
        }
    };
}
