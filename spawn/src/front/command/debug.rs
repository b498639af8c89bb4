//! `Debug` for `Command` in std's format, so logs read the same after switching: `{:?}` is a
//! shell-like command line (`cd "dir" && env -i A="1" "prog" "arg"`), `{:#?}` a struct with
//! std's field names. The extensions follow std's fields in `{:#?}`, each only when set.

use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt;

use super::Command;
use crate::request::Cwd;
use crate::request::EnvChanges;

/// An `OsStr` printed as std prints the C string it becomes (quoted, as `OsStr` prints);
/// a string with a NUL byte prints as `"<string-with-nul>"`, std's stand-in for it.
pub(crate) struct CStrDebug<'a>(pub &'a OsStr);

impl fmt::Debug for CStrDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.as_bytes().contains(&0) {
            fmt::Debug::fmt(OsStr::new("<string-with-nul>"), f)
        } else {
            fmt::Debug::fmt(self.0, f)
        }
    }
}

/// The environment changes, as std's `CommandEnv` prints them.
struct EnvDebug<'a>(&'a EnvChanges);

impl fmt::Debug for EnvDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CommandEnv")
            .field("clear", &self.0.clear)
            .field("vars", &self.0.vars)
            .finish()
    }
}

/// The whole argv, as std prints its argument array.
struct ArgvDebug<'a>(&'a Command);

impl fmt::Debug for ArgvDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.0.req.argv.iter().map(|a| CStrDebug(a)))
            .finish()
    }
}

impl fmt::Debug for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            self.fmt_struct(f)
        } else {
            self.fmt_line(f)
        }
    }
}

impl Command {
    /// `cd DIR && ` (or `env -i `, `env -u K `), `K="v" `, `[PROGRAM] ` when `argv[0]`
    /// differs, then argv, each quoted.
    fn fmt_line(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(dir) = self.get_current_dir() {
            write!(f, "cd {:?} && ", CStrDebug(dir.as_os_str()))?;
        }
        if self.req.env.clear {
            f.write_str("env -i ")?;
        } else {
            let mut removed = self.get_envs().filter(|(_, v)| v.is_none()).peekable();
            if removed.peek().is_some() {
                f.write_str("env ")?;
            }
            for (k, _) in removed {
                write!(f, "-u {} ", k.to_string_lossy())?;
            }
        }
        for (k, v) in self.get_envs() {
            if let Some(v) = v {
                write!(f, "{}={v:?} ", k.to_string_lossy())?;
            }
        }
        let arg0 = self.req.argv.first().map_or(OsStr::new(""), |a| a.as_os_str());
        if self.req.program.as_os_str() != arg0 {
            write!(f, "[{:?}] ", CStrDebug(&self.req.program))?;
        }
        write!(f, "{:?}", CStrDebug(arg0))?;
        for a in self.get_args() {
            write!(f, " {:?}", CStrDebug(a))?;
        }
        Ok(())
    }

    /// std's fields in std's order (each only when set, as std does), then this crate's.
    fn fmt_struct(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Command");
        d.field("program", &CStrDebug(&self.req.program))
            .field("args", &ArgvDebug(self));
        if self.req.env.clear || !self.req.env.vars.is_empty() {
            d.field("env", &EnvDebug(&self.req.env));
        }
        if let Some(dir) = self.get_current_dir() {
            d.field("cwd", &Some(CStrDebug(dir.as_os_str())));
        }
        if self.req.ids.uid.is_some() {
            d.field("uid", &self.req.ids.uid);
        }
        if self.req.ids.gid.is_some() {
            d.field("gid", &self.req.ids.gid);
        }
        if self.req.ids.groups.is_some() {
            d.field("groups", &self.req.ids.groups);
        }
        for (name, s) in ["stdin", "stdout", "stderr"].into_iter().zip(&self.req.stdio) {
            if let Some(s) = s {
                d.field(name, &Some(s));
            }
        }
        if self.req.pgid.is_some() {
            d.field("pgroup", &self.req.pgid);
        }
        if cfg!(target_os = "linux") {
            d.field("create_pidfd", &self.req.create_pidfd);
        }
        if self.req.setsid {
            d.field("setsid", &self.req.setsid);
        }
        if !self.req.rlimits.is_empty() {
            d.field("rlimits", &self.req.rlimits);
        }
        if self.req.umask.is_some() {
            d.field("umask", &self.req.umask);
        }
        if self.req.exit_fd {
            d.field("exit_fd", &self.req.exit_fd);
        }
        if let Some(Cwd::Fd(fd)) = &self.req.cwd {
            d.field("cwd_fd", fd);
        }
        if !self.req.fds.is_empty() {
            d.field("fds", &self.req.fds);
        }
        if !self.req.reset_signals.is_empty() {
            d.field("reset_signals", &self.req.reset_signals);
        }
        if self.req.close_fds {
            d.field("close_fds", &self.req.close_fds);
        }
        if let Some(sig) = self.req.pdeathsig {
            d.field("parent_death_signal", &sig);
        }
        if self.req.kill_on_parent_death {
            d.field("kill_on_parent_death", &true);
        }
        if self.req.no_new_privs {
            d.field("no_new_privs", &true);
        }
        if let Some(fd) = &self.req.ctty {
            d.field("controlling_terminal", fd);
        }
        if let Some(fd) = &self.req.foreground {
            d.field("foreground", fd);
        }
        if let Some(fd) = &self.req.cgroup {
            d.field("cgroup", fd);
        }
        if self.req.retry_etxtbsy > 0 {
            d.field("retry_etxtbsy", &self.req.retry_etxtbsy);
        }
        if self.req.kill_on_drop {
            d.field("kill_on_drop", &self.req.kill_on_drop);
        }
        if self.req.strategy != crate::request::Strategy::Auto {
            d.field("strategy", &self.req.strategy);
        }
        d.finish()
    }
}
