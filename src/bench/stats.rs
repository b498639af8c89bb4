//! Order statistics of one method's samples, and ratios to the floor.

/// The figures a benchmark reports for one method at one parent size, in microseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub min_us: f64,
    pub median_us: f64,
    pub p90_us: f64,
}

impl Summary {
    /// Summarises samples given in nanoseconds. The median of an even count is the mean of the
    /// two middle samples; p90 is the nearest-rank percentile (the smallest sample that at
    /// least 90 % of the samples do not exceed). `None` for no samples.
    pub fn of_nanos(samples: &[u64]) -> Option<Summary> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2] as f64
        } else {
            (sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0
        };
        let p90_rank = (n * 9).div_ceil(10).max(1);
        Some(Summary {
            min_us: sorted[0] as f64 / 1e3,
            median_us: median / 1e3,
            p90_us: sorted[p90_rank - 1] as f64 / 1e3,
        })
    }
}

/// `value` divided by the floor's figure; `None` when the floor has no positive figure (a
/// ratio to nothing would be a made-up number).
pub fn ratio(value: f64, floor: f64) -> Option<f64> {
    (floor > 0.0 && floor.is_finite()).then(|| value / floor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(&[5000], 5.0, 5.0, 5.0)]
    #[case(&[3000, 1000, 2000], 1.0, 2.0, 3.0)]
    #[case(&[4000, 1000, 3000, 2000], 1.0, 2.5, 4.0)]
    #[case(&[10_000, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000], 1.0, 5.5, 9.0)]
    #[case(&[1500; 20], 1.5, 1.5, 1.5)]
    fn summarises(
        #[case] samples: &[u64],
        #[case] min: f64,
        #[case] median: f64,
        #[case] p90: f64,
    ) {
        let s = Summary::of_nanos(samples).unwrap();
        assert_eq!((s.min_us, s.median_us, s.p90_us), (min, median, p90));
    }

    #[test]
    fn no_samples_no_summary() {
        assert_eq!(Summary::of_nanos(&[]), None);
    }

    #[rstest]
    #[case(120.0, 60.0, Some(2.0))]
    #[case(60.0, 60.0, Some(1.0))]
    #[case(30.0, 120.0, Some(0.25))]
    #[case(30.0, 0.0, None)]
    #[case(30.0, -1.0, None)]
    #[case(30.0, f64::NAN, None)]
    fn ratios(#[case] value: f64, #[case] floor: f64, #[case] expected: Option<f64>) {
        assert_eq!(ratio(value, floor), expected);
    }
}
