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

/// A signal named by number or relative to the real-time range, as case files may write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Numbered {
    /// `SIG<n>`.
    Plain(c_int),
    /// `SIGRTMIN` or `SIGRTMIN+k`.
    AboveRtMin(c_int),
    /// `SIGRTMAX` or `SIGRTMAX-k`.
    BelowRtMax(c_int),
}

fn numbered(name: &str) -> Option<Numbered> {
    let offset = |text: &str, sign: char| match text {
        "" => Some(0),
        _ => text
            .strip_prefix(sign)
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse().ok()),
    };
    if let Some(rest) = name.strip_prefix("SIGRTMIN") {
        return offset(rest, '+').map(Numbered::AboveRtMin);
    }
    if let Some(rest) = name.strip_prefix("SIGRTMAX") {
        return offset(rest, '-').map(Numbered::BelowRtMax);
    }
    let digits = name.strip_prefix("SIG")?;
    if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().map(Numbered::Plain)
}

/// Signal names of some platforms the suite runs on that not every platform has.
const PLATFORM_SIGNALS: &[&str] = &[
    "SIGSTKFLT",
    "SIGPWR",
    "SIGINFO",
    "SIGEMT",
    "SIGTHR",
    "SIGLIBRT",
];

/// Whether `name` is a signal name case files may use: a name of the table or of
/// [`PLATFORM_SIGNALS`], `SIG<n>`, `SIGRTMIN+k` or `SIGRTMAX-k`. It need not exist here
/// ([`signal`] says whether it does).
pub fn is_signal_name(name: &str) -> bool {
    signal(name).is_some() || numbered(name).is_some() || PLATFORM_SIGNALS.contains(&name)
}

/// The number of a signal name here: a named signal, `SIG<n>` (a number this platform's
/// signal calls accept), or one relative to this libc's real-time range (`SIGRTMIN+2` is
/// 36 on glibc, 37 on musl); `None` where the platform has no such signal.
pub fn signal(name: &str) -> Option<c_int> {
    if let Some((_, v)) = SIGNALS
        .iter()
        .chain(sys::EXTRA_SIGNALS)
        .find(|(n, _)| *n == name)
    {
        return Some(*v);
    }
    let (low, high) = sys::realtime_signals().unwrap_or((0, -1));
    let number = match numbered(name)? {
        Numbered::Plain(n) => return (1..=sys::max_signal()).contains(&n).then_some(n),
        Numbered::AboveRtMin(k) => low.checked_add(k)?,
        Numbered::BelowRtMax(k) => high.checked_sub(k)?,
    };
    (low..=high).contains(&number).then_some(number)
}

/// The name of a signal number (`SIG<n>` for one this table does not name).
pub fn signal_name(number: c_int) -> String {
    SIGNALS
        .iter()
        .chain(sys::EXTRA_SIGNALS)
        .find(|(_, v)| *v == number)
        .map(|(n, _)| (*n).to_string())
        .unwrap_or_else(|| format!("SIG{number}"))
}

/// The name a helper report uses for `name` (`SIGRTMIN+2` becomes `SIG36` on glibc), so a
/// case's list compares with the helper's; a name with no number here is kept as written.
pub fn canonical_signal(name: &str) -> String {
    signal(name).map_or_else(|| name.to_string(), signal_name)
}

/// Open flags of some platforms the suite runs on that not every platform has.
const PLATFORM_OPEN_FLAGS: &[&str] = &["O_PATH"];

/// The bitwise or of open flag names; the first name without a value here is the error.
pub fn open_flags(names: &[String]) -> Result<c_int, String> {
    names.iter().try_fold(0, |acc, name| {
        OPEN_FLAGS
            .iter()
            .chain(sys::EXTRA_OPEN_FLAGS)
            .find(|(n, _)| n == name)
            .map(|(_, v)| acc | v)
            .ok_or_else(|| name.clone())
    })
}

/// The first name in `names` that is no open flag case files may use (one that exists on
/// some platform, not necessarily here).
pub fn unknown_open_flag(names: &[String]) -> Option<&String> {
    names.iter().find(|name| {
        !PLATFORM_OPEN_FLAGS.contains(&name.as_str())
            && open_flags(std::slice::from_ref(name)).is_err()
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
    #[case("SIG5", Some(5))]
    #[case("SIG0", None)]
    #[case("SIG05", None)]
    #[case("SIG99999", None)]
    fn signals(#[case] name: &str, #[case] number: Option<i32>) {
        assert_eq!(super::signal(name), number);
        if let Some(n) = number.filter(|_| !name.starts_with("SIG0")) {
            assert_eq!(super::canonical_signal(name), super::signal_name(n));
        }
    }

    #[rstest]
    #[case("SIGRTMIN", true)]
    #[case("SIGRTMIN+3", true)]
    #[case("SIGRTMAX-1", true)]
    #[case("SIGRTMIN-1", false)]
    #[case("SIGRTMAX+1", false)]
    #[case("SIGRTMIN+", false)]
    #[case("SIG40", true)]
    #[case("SIGNOPE", false)]
    fn signal_grammar(#[case] name: &str, #[case] valid: bool) {
        assert_eq!(super::is_signal_name(name), valid);
    }

    /// The real-time names resolve inside this libc's range, or nowhere.
    #[test]
    fn realtime_names_stay_in_the_range() {
        match crate::conformance::sys::realtime_signals() {
            Some((low, high)) => {
                assert_eq!(super::signal("SIGRTMIN"), Some(low));
                assert_eq!(super::signal("SIGRTMIN+2"), Some(low + 2));
                assert_eq!(super::signal("SIGRTMAX-1"), Some(high - 1));
                assert_eq!(super::signal(&format!("SIGRTMIN+{}", high - low + 1)), None);
                assert_eq!(super::canonical_signal("SIGRTMAX"), format!("SIG{high}"));
            }
            None => assert_eq!(super::signal("SIGRTMIN"), None),
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
