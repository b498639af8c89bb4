//! Parent sizes as the user writes them (`0,256M,1G`), and back to text.

use super::BenchError;

const KIB: u64 = 1 << 10;
/// One mebibyte: the unit the report counts parent memory in.
pub const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;
const TIB: u64 = 1 << 40;

/// The sizes measured when `--sizes` is not given.
pub const DEFAULT_SIZES: &str = "0,256M,1G,4G,8G";

/// Parses one size: a whole number with an optional binary suffix (`K`, `M`, `G`, `T`, also
/// written `MiB` or `MB`; all mean powers of 1024). It must be a whole number of MiB, because
/// reports count parent memory in MiB.
pub fn parse_size(input: &str) -> Result<u64, BenchError> {
    let bad = |reason: &str| BenchError::BadSize {
        input: input.to_string(),
        reason: reason.to_string(),
    };
    let text = input.trim();
    let digits_end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, suffix) = text.split_at(digits_end);
    if digits.is_empty() {
        return Err(bad("expected a number such as 0, 256M, 1G or 8G"));
    }
    let number: u64 = digits.parse().map_err(|_| bad("number too large"))?;
    let unit = match suffix.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => KIB,
        "M" | "MB" | "MIB" => MIB,
        "G" | "GB" | "GIB" => GIB,
        "T" | "TB" | "TIB" => TIB,
        _ => return Err(bad("unknown unit; use K, M, G or T")),
    };
    let bytes = number
        .checked_mul(unit)
        .ok_or_else(|| bad("size too large"))?;
    if bytes % MIB != 0 {
        return Err(bad("not a whole number of MiB (reports count MiB)"));
    }
    Ok(bytes)
}

/// Writes a size the way people read it: `0`, `256 MiB`, `1 GiB`, `1.5 GiB`.
pub fn format_size(bytes: u64) -> String {
    match bytes {
        0 => "0".to_string(),
        b if b >= GIB && b % GIB == 0 => format!("{} GiB", b / GIB),
        b if b >= GIB => format!("{:.2} GiB", b as f64 / GIB as f64),
        b if b % MIB == 0 => format!("{} MiB", b / MIB),
        b => format!("{b} B"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("0", 0)]
    #[case("256M", 256 * MIB)]
    #[case("256MiB", 256 * MIB)]
    #[case("1g", GIB)]
    #[case(" 8G ", 8 * GIB)]
    #[case("1024K", MIB)]
    #[case("1048576", MIB)]
    #[case("1T", TIB)]
    fn parses(#[case] input: &str, #[case] bytes: u64) {
        assert_eq!(parse_size(input).unwrap(), bytes);
    }

    #[rstest]
    #[case("", "expected a number")]
    #[case("G", "expected a number")]
    #[case("-1G", "expected a number")]
    #[case("1.5G", "unknown unit")]
    #[case("4X", "unknown unit")]
    #[case("512K", "whole number of MiB")]
    #[case("99999999999999999999", "number too large")]
    #[case("99999999T", "size too large")]
    fn rejects(#[case] input: &str, #[case] reason: &str) {
        let err = parse_size(input).unwrap_err().to_string();
        assert!(err.contains(reason), "{err}");
    }

    #[rstest]
    #[case(0, "0")]
    #[case(256 * MIB, "256 MiB")]
    #[case(8 * GIB, "8 GiB")]
    #[case(GIB + GIB / 2, "1.50 GiB")]
    fn formats(#[case] bytes: u64, #[case] text: &str) {
        assert_eq!(format_size(bytes), text);
    }
}
