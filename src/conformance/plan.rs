//! A case with every template expanded: the bytes each subject passes to its spawn call.

use std::path::Path;

use super::case::{Action, Arg, Case, Env, Image};
use super::template::Vars;

/// One file action with paths expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlannedAction {
    Open {
        fd: i32,
        path: Vec<u8>,
        flags: i32,
        mode: u32,
    },
    Close(i32),
    Dup2(i32, i32),
    Chdir(Vec<u8>, super::case::ChdirApi),
    Fchdir(i32, super::case::ChdirApi),
    Closefrom(i32),
}

/// What to spawn, as bytes.
#[derive(Debug, Clone)]
pub struct Plan {
    pub program: Vec<u8>,
    /// Everything after the report path is fixed; see [`Plan::argv`].
    argv_override: Option<Vec<Vec<u8>>>,
    helper_opts: Vec<Vec<u8>>,
    args: Vec<Vec<u8>>,
    image: Image,
    /// `None`: a null envp pointer.
    pub envp: Option<Vec<Vec<u8>>>,
    pub actions: Option<Vec<PlannedAction>>,
}

/// An argv or environment element as bytes.
pub fn arg_bytes(arg: &Arg, vars: &Vars) -> Result<Vec<u8>, String> {
    match arg {
        Arg::Text(t) => Ok(vars.expand(t).into_bytes()),
        Arg::Hex { hex } => decode_hex(hex).ok_or_else(|| format!("`{hex}` is not hex")),
        Arg::Repeat { repeat, times } => Ok(vars.expand(repeat).repeat(*times).into_bytes()),
    }
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

impl Plan {
    /// Expands `case` for one run in the directory `vars.tmp`.
    pub fn new(case: &Case, vars: &Vars) -> Result<Plan, String> {
        let all = |list: &[Arg]| {
            list.iter()
                .map(|a| arg_bytes(a, vars))
                .collect::<Result<Vec<_>, _>>()
        };
        let mut helper_opts = Vec::new();
        for fd in &case.helper.read_fds {
            helper_opts.push(b"--read-fd".to_vec());
            helper_opts.push(fd.to_string().into_bytes());
        }
        for (fd, text) in &case.helper.write_fds {
            helper_opts.push(b"--write-fd".to_vec());
            helper_opts.push(format!("{fd}:{}", vars.expand(text)).into_bytes());
        }
        if let Some(code) = case.helper.exit {
            helper_opts.push(b"--exit".to_vec());
            helper_opts.push(code.to_string().into_bytes());
        }
        if let Some(sig) = &case.helper.raise {
            helper_opts.push(b"--raise".to_vec());
            helper_opts.push(sig.clone().into_bytes());
        }
        let envp = match &case.env {
            Env::NullPointer => None,
            Env::Exact { entries } => Some(all(entries)?),
            Env::Inherit { set, unset } => {
                let mut vars_now: Vec<(Vec<u8>, Vec<u8>)> = std::env::vars_os()
                    .map(|(k, v)| {
                        use std::os::unix::ffi::OsStringExt;
                        (k.into_vec(), v.into_vec())
                    })
                    .filter(|(k, _)| !unset.iter().any(|u| u.as_bytes() == k.as_slice()))
                    .filter(|(k, _)| !set.keys().any(|s| s.as_bytes() == k.as_slice()))
                    .collect();
                for (k, v) in set {
                    vars_now.push((k.clone().into_bytes(), vars.expand(v).into_bytes()));
                }
                Some(
                    vars_now
                        .into_iter()
                        .map(|(mut k, v)| {
                            k.push(b'=');
                            k.extend(v);
                            k
                        })
                        .collect(),
                )
            }
        };
        let actions = match &case.actions {
            None => None,
            Some(list) => Some(
                list.iter()
                    .map(|a| plan_action(a, vars))
                    .collect::<Result<_, _>>()?,
            ),
        };
        let plan = Plan {
            program: vars.expand(&case.program).into_bytes(),
            argv_override: case.argv.as_deref().map(all).transpose()?,
            helper_opts,
            args: all(&case.args)?,
            image: case.image,
            envp,
            actions,
        };
        let strings = [&plan.program]
            .into_iter()
            .chain(plan.argv_override.iter().flatten())
            .chain(&plan.args)
            .chain(plan.envp.iter().flatten());
        if strings.into_iter().any(|s| s.contains(&0)) {
            return Err("a program, argv or envp string contains a NUL byte".into());
        }
        Ok(plan)
    }

    /// The argv for one spawn whose helper reports to `report`, with `extra` appended.
    pub fn argv(&self, report: &Path, extra: &[String]) -> Vec<Vec<u8>> {
        if let Some(argv) = &self.argv_override {
            return argv.clone();
        }
        let mut argv = vec![self.program.clone()];
        if self.image == Image::Helper {
            argv.push(b"--report".to_vec());
            argv.push(report.display().to_string().into_bytes());
            argv.extend(self.helper_opts.iter().cloned());
            argv.push(b"--".to_vec());
        }
        argv.extend(self.args.iter().cloned());
        argv.extend(extra.iter().map(|e| e.clone().into_bytes()));
        argv
    }

    /// The environment for one spawn: with an argv override the helper finds its report
    /// path in `SPAWNMATRIX_REPORT` instead.
    pub fn envp(&self, report: &Path) -> Option<Vec<Vec<u8>>> {
        let mut envp = self.envp.clone()?;
        if self.argv_override.is_some() && self.image == Image::Helper {
            envp.push(format!("SPAWNMATRIX_REPORT={}", report.display()).into_bytes());
        }
        Some(envp)
    }
}

fn plan_action(action: &Action, vars: &Vars) -> Result<PlannedAction, String> {
    Ok(match action {
        Action::Open {
            fd,
            path,
            flags,
            mode,
        } => PlannedAction::Open {
            fd: *fd,
            path: vars.expand(path).into_bytes(),
            flags: super::names::open_flags(flags).map_err(|f| format!("unknown flag {f}"))?,
            mode: *mode,
        },
        Action::Close { fd } => PlannedAction::Close(*fd),
        Action::Dup2 { fd, to } => PlannedAction::Dup2(*fd, *to),
        Action::Chdir { path, api } => PlannedAction::Chdir(vars.expand(path).into_bytes(), *api),
        Action::Fchdir { fd, api } => PlannedAction::Fchdir(*fd, *api),
        Action::Closefrom { fd } => PlannedAction::Closefrom(*fd),
    })
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::decode_hex;

    #[rstest]
    #[case("41ff00", Some(vec![0x41, 0xff, 0x00]))]
    #[case("", Some(vec![]))]
    #[case("4", None)]
    #[case("zz", None)]
    fn hex(#[case] text: &str, #[case] bytes: Option<Vec<u8>>) {
        assert_eq!(decode_hex(text), bytes);
    }
}
