//! One measured parent: how much memory, in which shape (`1G`, `fragmented:1G`,
//! `reserved:64G` in `--sizes`).
//!
//! Touched memory is the classic fork cost: page tables grow with it. The other two shapes are
//! the ones the fork literature adds. A fragmented parent has many small mappings, so a fork
//! also pays per VMA. A reserved parent has a huge `PROT_NONE` range and no page tables, so a
//! fork that copies only what is populated stays cheap there.

use crate::report::{ParentShape, PerfEntry};

use super::size::{format_size, parse_size, MIB};
use super::BenchError;

/// The parent this process becomes before a size is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Parent {
    pub shape: ParentShape,
    /// Whole MiB.
    pub bytes: u64,
}

impl Parent {
    /// Touched memory of `bytes`: what a plain size in `--sizes` means.
    pub fn touched(bytes: u64) -> Parent {
        Parent {
            shape: ParentShape::Touched,
            bytes,
        }
    }

    /// Whether `entry` was measured at this parent.
    pub fn measured(&self, entry: &PerfEntry) -> bool {
        entry.shape == self.shape && entry.parent_mib * MIB == self.bytes
    }

    /// The size as people read it, with the shape unless it is touched memory
    /// (`1 GiB`, `1 GiB fragmented`).
    pub fn label(&self) -> String {
        label(self.shape, self.bytes)
    }
}

/// [`Parent::label`] for a report entry.
pub fn entry_label(entry: &PerfEntry) -> String {
    label(entry.shape, entry.parent_mib * MIB)
}

fn label(shape: ParentShape, bytes: u64) -> String {
    match shape {
        ParentShape::Touched => format_size(bytes),
        other => format!("{} {}", format_size(bytes), other.name()),
    }
}

/// Parses one entry of `--sizes`: a size, optionally after `SHAPE:`.
pub fn parse_parent(input: &str) -> Result<Parent, BenchError> {
    let text = input.trim();
    let Some((shape, size)) = text.split_once(':') else {
        return parse_size(text).map(Parent::touched);
    };
    let shape = match shape.trim().to_ascii_lowercase().as_str() {
        "touched" => ParentShape::Touched,
        "fragmented" => ParentShape::Fragmented,
        "reserved" => ParentShape::Reserved,
        _ => {
            return Err(BenchError::BadSize {
                input: input.to_string(),
                reason: "unknown shape; use touched:, fragmented: or reserved:".to_string(),
            })
        }
    };
    Ok(Parent {
        shape,
        bytes: parse_size(size)?,
    })
}

/// Parses a comma-separated `--sizes` list into ascending order (touched sizes first, then
/// each other shape). An empty list or a parent listed twice is an error, so a typo cannot
/// silently drop a measurement.
pub fn parse_parents(list: &str) -> Result<Vec<Parent>, BenchError> {
    let mut parents = list
        .split(',')
        .map(parse_parent)
        .collect::<Result<Vec<_>, _>>()?;
    parents.sort_unstable();
    if let Some(w) = parents.windows(2).find(|w| w[0] == w[1]) {
        return Err(BenchError::BadSize {
            input: list.to_string(),
            reason: format!("{} is listed twice", w[0].label()),
        });
    }
    Ok(parents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const GIB: u64 = 1 << 30;

    #[rstest]
    #[case("1G", ParentShape::Touched, GIB)]
    #[case("touched:1G", ParentShape::Touched, GIB)]
    #[case("fragmented:256M", ParentShape::Fragmented, 256 * MIB)]
    #[case(" Reserved:64G ", ParentShape::Reserved, 64 * GIB)]
    fn parses(#[case] input: &str, #[case] shape: ParentShape, #[case] bytes: u64) {
        assert_eq!(parse_parent(input).unwrap(), Parent { shape, bytes });
    }

    #[rstest]
    #[case("sparse:1G", "unknown shape")]
    #[case("fragmented:", "expected a number")]
    #[case("reserved:1.5G", "unknown unit")]
    fn rejects(#[case] input: &str, #[case] reason: &str) {
        let err = parse_parent(input).unwrap_err().to_string();
        assert!(err.contains(reason), "{err}");
    }

    #[rstest]
    #[case("0,256M,1G,4G,8G", vec!["0", "256 MiB", "1 GiB", "4 GiB", "8 GiB"])]
    #[case("1G,0", vec!["0", "1 GiB"])]
    #[case("reserved:64G,1G,0,fragmented:1G", vec!["0", "1 GiB", "1 GiB fragmented", "64 GiB reserved"])]
    fn orders_lists(#[case] input: &str, #[case] labels: Vec<&str>) {
        let parsed: Vec<String> = parse_parents(input)
            .unwrap()
            .iter()
            .map(Parent::label)
            .collect();
        assert_eq!(parsed, labels);
    }

    #[rstest]
    #[case("1G,touched:1024M", "1 GiB is listed twice")]
    #[case("fragmented:1G,fragmented:1G", "1 GiB fragmented is listed twice")]
    #[case("0,,1G", "expected a number")]
    fn rejects_repeats(#[case] input: &str, #[case] reason: &str) {
        let err = parse_parents(input).unwrap_err().to_string();
        assert!(err.contains(reason), "{err}");
    }
}
