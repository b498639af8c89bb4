//! Reading clang and lld diagnostics: why a probe did not build.
//!
//! Only messages that are recognised count as evidence; anything else is reported as an
//! unexpected failure rather than guessed into "absent".

/// Why a probe's compile-and-link failed, as far as its diagnostics tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The header does not declare (or define) the name.
    Undeclared,
    /// Declared, but the availability annotations reject it for this deployment target; holds
    /// the compiler's phrase (`only available on macOS 10.15 or newer`).
    Unavailable(String),
    /// Compiled, but the linker could not resolve these symbols.
    Undefined(Vec<String>),
    /// Something else; holds the first error line.
    Other(String),
}

/// Classifies the stderr of a failed `zig cc` run that referenced `name`.
pub fn classify(stderr: &str, name: &str) -> Failure {
    let quoted = format!("'{name}'");
    for line in stderr.lines().filter(|l| l.contains("error")) {
        if let Some(pos) = line.find(" is only available on ") {
            if line.contains(&quoted) {
                let phrase = &line[pos + " is ".len()..];
                let phrase = phrase.split(" [-W").next().unwrap_or(phrase);
                return Failure::Unavailable(phrase.trim().to_string());
            }
        }
        if line.contains(&quoted) && line.contains(" is unavailable") {
            return Failure::Unavailable(line_after(line, "error: ").to_string());
        }
        if (line.contains("use of undeclared identifier") || line.contains("undeclared function"))
            && line.contains(&quoted)
        {
            return Failure::Undeclared;
        }
    }
    let undefined = undefined_symbols(stderr);
    if !undefined.is_empty() {
        return Failure::Undefined(undefined);
    }
    let first = stderr
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| stderr.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("no diagnostics");
    Failure::Other(first.trim().to_string())
}

/// The symbols lld reports as undefined, in order, without repeats.
pub fn undefined_symbols(stderr: &str) -> Vec<String> {
    let mut symbols: Vec<String> = Vec::new();
    for line in stderr.lines() {
        if let Some(rest) = line.split("undefined symbol: ").nth(1) {
            let symbol = rest.trim().to_string();
            if !symbols.contains(&symbol) {
                symbols.push(symbol);
            }
        }
    }
    symbols
}

/// A deprecation warning about `name` (`first deprecated in macOS 26.0 - ...`), if any.
pub fn deprecation(stderr: &str, name: &str) -> Option<String> {
    let needle = format!("'{name}' is deprecated");
    stderr
        .lines()
        .find(|l| l.contains(&needle))
        .map(|l| {
            let text = line_after(l, &needle);
            let text = text.trim_start_matches(':').trim();
            text.split(" [-W").next().unwrap_or(text).trim().to_string()
        })
        .map(|t| {
            if t.is_empty() {
                "deprecated".to_string()
            } else {
                format!("deprecated: {t}")
            }
        })
}

fn line_after<'a>(line: &'a str, marker: &str) -> &'a str {
    line.find(marker)
        .map(|p| &line[p + marker.len()..])
        .unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const NAME: &str = "posix_spawn_file_actions_addchdir_np";

    #[rstest]
    #[case(
        "p.c:4:46: error: 'posix_spawn_file_actions_addchdir_np' is only available on macOS 10.15 or newer [-Werror,-Wunguarded-availability-new]",
        Failure::Unavailable("only available on macOS 10.15 or newer".into())
    )]
    #[case(
        "p.c:4:46: error: use of undeclared identifier 'posix_spawn_file_actions_addchdir_np'\n1 error generated.",
        Failure::Undeclared
    )]
    #[case(
        "ld.lld: error: undefined symbol: posix_spawn_file_actions_addchdir_np\n>>> referenced by p.c:4\nld.lld: error: undefined symbol: posix_spawn_file_actions_addchdir_np",
        Failure::Undefined(vec![NAME.into()])
    )]
    #[case(
        "p.c:2:10: fatal error: 'spawn.h' file not found",
        Failure::Other("p.c:2:10: fatal error: 'spawn.h' file not found".into())
    )]
    #[case("", Failure::Other("no diagnostics".into()))]
    fn classifies(#[case] stderr: &str, #[case] expected: Failure) {
        assert_eq!(classify(stderr, NAME), expected);
    }

    #[test]
    fn undeclared_other_name_is_not_ours() {
        let stderr = "p.c:1:1: error: use of undeclared identifier 'something_else'";
        assert!(matches!(classify(stderr, NAME), Failure::Other(_)));
    }

    #[rstest]
    #[case(
        "q.c:4:46: warning: 'posix_spawn_file_actions_addchdir_np' is deprecated: first deprecated in macOS 26.0 - posix_spawn_file_actions_addchdir(3) has replaced posix_spawn_file_actions_addchdir_np(3) [-Wdeprecated-declarations]",
        Some("deprecated: first deprecated in macOS 26.0 - posix_spawn_file_actions_addchdir(3) has replaced posix_spawn_file_actions_addchdir_np(3)")
    )]
    #[case("", None)]
    fn deprecations(#[case] stderr: &str, #[case] expected: Option<&str>) {
        assert_eq!(deprecation(stderr, NAME).as_deref(), expected);
    }
}
