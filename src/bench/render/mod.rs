//! Turning a [`Measurement`](super::Measurement) into what people read: a Markdown table and
//! an SVG plot. (The JSON form is the report's `Perf`, serialised as is.)

pub mod markdown;
pub mod svg;

use crate::report::{Perf, PerfEntry};

/// The entries of each method, methods in the order they were first measured (floor first).
pub fn by_method(perf: &Perf) -> Vec<(&str, Vec<&PerfEntry>)> {
    grouped(&perf.entries, |e| &e.strategy)
}

/// `items` grouped by `key`, groups in the order their key first appears (one plot series or
/// table row per group).
pub fn grouped<'a, T>(
    items: &'a [T],
    key: impl Fn(&'a T) -> &'a str,
) -> Vec<(&'a str, Vec<&'a T>)> {
    let mut groups: Vec<(&str, Vec<&T>)> = Vec::new();
    for item in items {
        let k = key(item);
        match groups.iter_mut().find(|(name, _)| *name == k) {
            Some((_, members)) => members.push(item),
            None => groups.push((k, vec![item])),
        }
    }
    groups
}

/// Microseconds for a table: one decimal below 100, whole numbers with thin grouping above.
pub fn micros(us: f64) -> String {
    if us < 100.0 {
        format!("{us:.1}")
    } else {
        group_thousands(us.round() as u64)
    }
}

/// A ratio: more digits where they matter (near 1), fewer where they do not.
pub fn times(ratio: f64) -> String {
    if ratio < 10.0 {
        format!("{ratio:.2}×")
    } else if ratio < 100.0 {
        format!("{ratio:.1}×")
    } else {
        format!("{}×", group_thousands(ratio.round() as u64))
    }
}

fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(52.14, "52.1")]
    #[case(99.94, "99.9")]
    #[case(121.4, "121")]
    #[case(89_512.0, "89,512")]
    #[case(1_234_567.0, "1,234,567")]
    fn formats_micros(#[case] us: f64, #[case] text: &str) {
        assert_eq!(micros(us), text);
    }

    #[rstest]
    #[case(1.0, "1.00×")]
    #[case(1.234, "1.23×")]
    #[case(12.34, "12.3×")]
    #[case(1620.4, "1,620×")]
    fn formats_ratios(#[case] ratio: f64, #[case] text: &str) {
        assert_eq!(times(ratio), text);
    }
}
