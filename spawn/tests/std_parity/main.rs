//! The std-parity suite: every test body is written once (the `*_bodies!` macros) and
//! compiled against `std::process` (module `std_process`) and against this crate's
//! `spawn` under each strategy (`auto`, `posix_spawn`, `clone3`, `clone_vfork`, `vfork`,
//! `fork`). A forced strategy this platform lacks must refuse every spawn with
//! `Unsupported`; a strategy that cannot express one request (a `pre_exec` closure needs a
//! fork, and so do ids) must refuse that request with `Unsupported`.
//!
//! The bodies cover what std's own tests check (`library/std/src/process/tests.rs`,
//! `tests/ui/process/`, `tests/ui/command/` in rust-lang/rust), written anew: exit codes and
//! signals, stdio piping and inheritance, environment set/remove/clear and entries without
//! `=`, interior NULs, the working directory, `Debug` output, `try_wait`/`kill`, `SIGPIPE`,
//! close-on-exec fds, spawn failures, `exec`, `pre_exec`, `arg0`, `uid`/`gid`/`groups`.
//! What the child saw comes from `/bin/sh`, or from this test binary run as an observer
//! (`common::Seen`), so the suite needs nothing but the spawn library.
//!
//! Tests run one at a time (`serial()`): some change the process environment, and the
//! no-zombie checks see every child. Bodies that need a fresh process (`exec`, `exit`, an
//! environment entry without `=`) re-run this binary with `--ignored --exact role` and a
//! role in `PARITY_ROLE`.
//!
//! The suite lives in the library, not in the tool, so that its crate graph holds only `libc`
//! (std's own `assert_eq!(stderr, Vec::new())` then compiles as written); `cargo test` runs it,
//! and so does `ci/checks/20-musl-tests.sh`.
//!
//! The documented differences from std are listed in the `spawn` module docs; the bodies
//! assert std's behaviour except where one of them applies, and say so.

#[macro_use]
mod common;
#[macro_use]
mod process_bodies;
#[macro_use]
mod env_bodies;
#[macro_use]
mod unix_bodies;
#[macro_use]
mod role_bodies;

/// One instantiation of every body: `$process` is the `std::process` equivalent, `$unix`
/// the `std::os::unix::process` one, `$strategy` the forced strategy (`Std`: none, std).
macro_rules! instantiate {
    ($name:ident, $process:path, $unix:path, $strategy:ident) => {
        mod $name {
            #![allow(unused_imports)]
            use std::ffi::OsStr;
            use $process as p;
            use $unix as unix;

            use super::common::*;

            /// The forced strategy (`None`: this is std).
            const STRATEGY: Option<spawnmatrix_spawn::Strategy> = strategy_of!($strategy);

            /// `Command::new`, forced to this module's strategy.
            fn cmd(program: impl AsRef<OsStr>) -> p::Command {
                #[allow(unused_mut)]
                let mut c = p::Command::new(program);
                force!(c, $strategy);
                c
            }

            process_bodies!();
            env_bodies!();
            unix_bodies!();
            role_bodies!();
        }
    };
}

/// Every instantiation, and the `role` test that dispatches to one of them by name.
macro_rules! every_api {
    ($($name:ident: $process:path, $unix:path, $strategy:ident;)*) => {
        $(instantiate!($name, $process, $unix, $strategy);)*

        /// Runs the role named in `PARITY_ROLE` in the module named in `PARITY_API`; started
        /// by bodies that need a process of their own (see `common::run_role`), or as the
        /// observer (`common::report_if_observer`). Ignored in normal runs, where there is
        /// nothing to do.
        #[test]
        #[ignore = "run by other tests of this suite in a child process"]
        fn role() {
            if common::report_if_observer() {
                return;
            }
            let api = std::env::var("PARITY_API").expect("PARITY_API");
            let role = std::env::var("PARITY_ROLE").expect("PARITY_ROLE");
            match api.as_str() {
                $(stringify!($name) => $name::role(&role),)*
                other => panic!("unknown PARITY_API {other}"),
            }
        }
    };
}

every_api! {
    std_process: std::process, std::os::unix::process, Std;
    auto: spawnmatrix_spawn, spawnmatrix_spawn::os::unix::process, Auto;
    posix_spawn: spawnmatrix_spawn, spawnmatrix_spawn::os::unix::process, PosixSpawn;
    clone3: spawnmatrix_spawn, spawnmatrix_spawn::os::unix::process, Clone3;
    clone_vfork: spawnmatrix_spawn, spawnmatrix_spawn::os::unix::process, CloneVfork;
    vfork: spawnmatrix_spawn, spawnmatrix_spawn::os::unix::process, Vfork;
    fork: spawnmatrix_spawn, spawnmatrix_spawn::os::unix::process, Fork;
}
