//! Measuring at one parent size: a warm-up for every method, then the iterations in rounds.
//! Each round gives every method one block of spawns, in an order shuffled per round: noise
//! then falls on all methods alike, and no method always runs right after an expensive one
//! (a fork of a large parent leaves work behind that slows whatever comes next).

use super::clock::now_ns;
use super::methods::Method;
use super::progress::Progress;
use super::workload::Workload;
use super::BenchError;

/// Spawns per method in one round.
pub const BLOCK: u32 = 10;

/// Runs `warmup` unmeasured and `iterations` measured spawns of every method; returns each
/// method's samples in nanoseconds, in the order of `methods`.
pub fn measure(
    methods: &mut [Box<dyn Method>],
    workload: &Workload,
    warmup: u32,
    iterations: u32,
    progress: &mut Progress,
) -> Result<Vec<Vec<u64>>, BenchError> {
    for method in methods.iter_mut() {
        for _ in 0..warmup {
            method.spawn_wait(workload)?;
        }
    }
    let mut samples: Vec<Vec<u64>> = methods
        .iter()
        .map(|_| Vec::with_capacity(iterations as usize))
        .collect();
    let mut order: Vec<usize> = (0..methods.len()).collect();
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut done = 0;
    while done < iterations {
        let block = BLOCK.min(iterations - done);
        rng.shuffle(&mut order);
        for &i in &order {
            for _ in 0..block {
                let start = now_ns().map_err(BenchError::Clock)?;
                methods[i].spawn_wait(workload)?;
                let end = now_ns().map_err(BenchError::Clock)?;
                samples[i].push(end.saturating_sub(start));
            }
        }
        done += block;
        progress.tick(done, iterations);
    }
    Ok(samples)
}

/// A small fixed-seed generator: the order varies per round but every run is reproducible.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Fisher–Yates.
    fn shuffle(&mut self, items: &mut [usize]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(1)]
    #[case(2)]
    #[case(9)]
    fn shuffle_keeps_every_method_once(#[case] n: usize) {
        let mut rng = XorShift(42);
        let mut order: Vec<usize> = (0..n).collect();
        let mut seen_orders = std::collections::BTreeSet::new();
        for _ in 0..50 {
            rng.shuffle(&mut order);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>());
            seen_orders.insert(order.clone());
        }
        assert!(seen_orders.len() > 1 || n == 1, "order never changes");
    }
}
