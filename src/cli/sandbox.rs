//! `spawnmatrix sandbox PROFILE -- CMD [ARGS...]`: installs a seccomp profile
//! (`spawnmatrix::sandbox`) and execs the command under it, so a whole test binary runs in the
//! sandbox (the filter stays on across `execve`). With `--observe` instead of a command, it
//! prints (JSON) what the shared spawn does under the profile: the report's `sandbox` rows.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::Command;

use spawnmatrix::sandbox::Profile;

use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// clone3-enosys, clone3-eperm, no-clone-vm (seccomp filters), nproc-reached (RLIMIT_NPROC at 1, as `nobody` when root), or valgrind, qemu-user (environments: --observe only, run under the tool).
    profile: Profile,
    /// Print what the shared spawn does under the profile (the strategy `Auto` takes, what
    /// each forced strategy answers) as JSON, instead of running a command.
    #[arg(long, conflicts_with = "command")]
    observe: bool,
    /// The command to run under the profile, and its arguments.
    #[arg(last = true, required_unless_present = "observe")]
    command: Vec<OsString>,
}

pub fn run(args: Args) -> CliResult {
    if args.observe {
        let program = spawnmatrix::child::true_path()?;
        args.profile.apply()?;
        let run = spawnmatrix::sandbox::observe(&program);
        outln!("{}", serde_json::to_string(&run)?)?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let Some((program, rest)) = args.command.split_first() else {
        return Err("no command given".into());
    };
    args.profile.apply()?;
    let e = Command::new(program).args(rest).exec();
    Err(format!(
        "running {} under {}: {e}",
        program.to_string_lossy(),
        args.profile
    )
    .into())
}
