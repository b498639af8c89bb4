//! `spawnmatrix sandbox PROFILE -- CMD [ARGS...]`: installs a seccomp profile
//! (`spawnmatrix::sandbox`) and execs the command under it, so a whole test binary runs in the
//! sandbox (the filter stays on across `execve`).

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::Command;

use spawnmatrix::sandbox::Profile;

use super::CliResult;

#[derive(clap::Args)]
pub struct Args {
    /// clone3-enosys, clone3-eperm or no-clone-vm.
    profile: Profile,
    /// The command to run under the profile, and its arguments.
    #[arg(last = true, required = true)]
    command: Vec<OsString>,
}

pub fn run(args: Args) -> CliResult {
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
