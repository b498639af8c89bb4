//! Symbolic names in case files (signals, open flags, spawn flags) and their numbers here.

use libc::c_int;

use super::sys;

const SIGNALS: &[(&str, c_int)] = &[
    ("SIGHUP", libc::SIGHUP),
    ("SIGINT", libc::SIGINT),
    ("SIGQUIT", libc::SIGQUIT),
    ("SIGILL", libc::SIGILL),
    ("SIGTRAP", libc::SIGTRAP),
    ("SIGABRT", libc::SIGABRT),
    ("SIGBUS", libc::SIGBUS),
    ("SIGFPE", libc::SIGFPE),
    ("SIGKILL", libc::SIGKILL),
    ("SIGUSR1", libc::SIGUSR1),
    ("SIGSEGV", libc::SIGSEGV),
    ("SIGUSR2", libc::SIGUSR2),
    ("SIGPIPE", libc::SIGPIPE),
    ("SIGALRM", libc::SIGALRM),
    ("SIGTERM", libc::SIGTERM),
    ("SIGCHLD", libc::SIGCHLD),
    ("SIGCONT", libc::SIGCONT),
    ("SIGSTOP", libc::SIGSTOP),
    ("SIGTSTP", libc::SIGTSTP),
    ("SIGTTIN", libc::SIGTTIN),
    ("SIGTTOU", libc::SIGTTOU),
    ("SIGURG", libc::SIGURG),
    ("SIGXCPU", libc::SIGXCPU),
    ("SIGXFSZ", libc::SIGXFSZ),
    ("SIGVTALRM", libc::SIGVTALRM),
    ("SIGPROF", libc::SIGPROF),
    ("SIGWINCH", libc::SIGWINCH),
    ("SIGIO", libc::SIGIO),
    ("SIGSYS", libc::SIGSYS),
];

const OPEN_FLAGS: &[(&str, c_int)] = &[
    ("O_RDONLY", libc::O_RDONLY),
    ("O_WRONLY", libc::O_WRONLY),
    ("O_RDWR", libc::O_RDWR),
    ("O_CREAT", libc::O_CREAT),
    ("O_EXCL", libc::O_EXCL),
    ("O_TRUNC", libc::O_TRUNC),
    ("O_APPEND", libc::O_APPEND),
    ("O_CLOEXEC", libc::O_CLOEXEC),
    ("O_DIRECTORY", libc::O_DIRECTORY),
    ("O_NONBLOCK", libc::O_NONBLOCK),
    ("O_NOFOLLOW", libc::O_NOFOLLOW),
];

/// The number of a signal name.
pub fn signal(name: &str) -> Option<c_int> {
    SIGNALS.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// The name of a signal number (`SIG<n>` for one this table does not name).
pub fn signal_name(number: c_int) -> String {
    SIGNALS
        .iter()
        .find(|(_, v)| *v == number)
        .map(|(n, _)| (*n).to_string())
        .unwrap_or_else(|| format!("SIG{number}"))
}

/// The bitwise or of open flag names; the first unknown name is the error.
pub fn open_flags(names: &[String]) -> Result<c_int, String> {
    names.iter().try_fold(0, |acc, name| {
        OPEN_FLAGS
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| acc | v)
            .ok_or_else(|| name.clone())
    })
}

/// A `setflags` bit that no `POSIX_SPAWN_*` flag of glibc, musl, FreeBSD, NetBSD, OpenBSD,
/// Cygwin, bionic or illumos uses (macOS spends it on a private flag), for the case that asks
/// what `setflags` does with an undefined bit.
pub const UNDEFINED_BIT: libc::c_short = 0x2000;

/// Whether `name` is a spawn flag this suite knows on some platform (`SETSID`, ...).
pub fn is_spawn_flag(name: &str) -> bool {
    const KNOWN: &[&str] = &[
        "UNDEFINED_BIT",
        "RESETIDS",
        "SETPGROUP",
        "SETSIGDEF",
        "SETSIGMASK",
        "SETSCHEDPARAM",
        "SETSCHEDULER",
        "SETSID",
        "USEVFORK",
    ];
    KNOWN.contains(&name)
}

/// The value of spawn flag `name` (`SETSID`) here, `None` when this target has no value.
pub fn spawn_flag(name: &str) -> Option<libc::c_short> {
    if name == "UNDEFINED_BIT" {
        return Some(UNDEFINED_BIT);
    }
    crate::sys::flags::by_name(&format!("POSIX_SPAWN_{name}")).map(|f| f.value)
}

/// The number of a scheduling policy name, where this platform defines it.
pub fn sched_policy(name: &str) -> Option<c_int> {
    sys::SCHED_POLICIES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    #[rstest]
    #[case("SIGUSR1", Some(libc::SIGUSR1))]
    #[case("SIGNOPE", None)]
    fn signals(#[case] name: &str, #[case] number: Option<i32>) {
        assert_eq!(super::signal(name), number);
        if let Some(n) = number {
            assert_eq!(super::signal_name(n), name);
        }
    }

    #[rstest]
    #[case(&["O_WRONLY", "O_CREAT"], Ok(libc::O_WRONLY | libc::O_CREAT))]
    #[case(&["O_RDONLY", "O_BOGUS"], Err("O_BOGUS".to_string()))]
    fn flags(#[case] names: &[&str], #[case] expected: Result<i32, String>) {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        assert_eq!(super::open_flags(&names), expected);
    }

    #[rstest]
    #[case("SETPGROUP", true)]
    #[case("SETSID", true)]
    #[case("UNDEFINED_BIT", true)]
    #[case("NOPE", false)]
    fn spawn_flags(#[case] name: &str, #[case] known: bool) {
        assert_eq!(super::is_spawn_flag(name), known);
        if !known {
            assert_eq!(super::spawn_flag(name), None);
        }
    }
}
