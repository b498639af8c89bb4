//! `/etc/os-release` (os-release(5)): shell-style `KEY=value` lines.

use std::collections::BTreeMap;

/// Where os-release(5) says to look, in order.
pub(super) const PATHS: &[&str] = &["/etc/os-release", "/usr/lib/os-release"];

/// The first readable os-release file, parsed.
pub(super) fn read() -> Option<BTreeMap<String, String>> {
    PATHS
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok())
        .map(|text| parse(&text))
}

/// `KEY=value` pairs. Values may be unquoted or in single or double quotes, with `\` escapes
/// inside double quotes. Lines that are not assignments (comments, blanks, junk) are skipped,
/// as os-release(5) tells readers to do.
pub(super) fn parse(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| {
            let (key, raw) = line.trim().split_once('=')?;
            let valid =
                !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            valid.then_some(())?;
            Some((key.to_string(), unquote(raw.trim())?))
        })
        .collect()
}

fn unquote(raw: &str) -> Option<String> {
    let Some(quote) = raw.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return Some(raw.to_string());
    };
    let inner = raw[1..].strip_suffix(quote)?;
    if quote == '\'' {
        return Some(inner.to_string());
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next()? } else { c });
    }
    Some(out)
}

/// The os version to report: `ID VERSION_ID` (`debian 12`), else `PRETTY_NAME`, else `ID`.
pub(super) fn os_version(fields: &BTreeMap<String, String>) -> Option<String> {
    let get = |k: &str| fields.get(k).filter(|v| !v.is_empty());
    match (get("ID"), get("VERSION_ID")) {
        (Some(id), Some(version)) => Some(format!("{id} {version}")),
        _ => get("PRETTY_NAME").or(get("ID")).cloned(),
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::{os_version, parse};

    #[rstest]
    #[case(
        "ID=debian\nVERSION_ID=\"12\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n",
        Some("debian 12")
    )]
    #[case(
        "ID=debian\nPRETTY_NAME=\"Debian GNU/Linux trixie/sid\"\n",
        Some("Debian GNU/Linux trixie/sid")
    )]
    #[case("ID='alpine'\nVERSION_ID=3.20.1\n", Some("alpine 3.20.1"))]
    #[case("# comment\n\njunk line\nID=arch\n", Some("arch"))]
    #[case("NAME=\"unterminated\nID=\n", None)]
    #[case("", None)]
    fn versions(#[case] text: &str, #[case] expected: Option<&str>) {
        assert_eq!(os_version(&parse(text)).as_deref(), expected);
    }

    #[rstest]
    #[case(r#"X="a \"b\" \\ c""#, "a \"b\" \\ c")]
    #[case(r"X='single \ kept'", r"single \ kept")]
    #[case("X=  plain  ", "plain")]
    fn values(#[case] line: &str, #[case] expected: &str) {
        assert_eq!(parse(line)["X"], expected);
    }

    #[rstest]
    #[case("X=\"open")]
    #[case("X=\"ends with escape\\\"")]
    #[case("-X=1")]
    fn bad_lines_are_skipped(#[case] line: &str) {
        assert!(parse(line).is_empty(), "{line}");
    }
}
