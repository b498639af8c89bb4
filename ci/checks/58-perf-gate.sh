#!/usr/bin/env bash
# The performance gate: a short pinned bench of shared:auto against the floor (measured in the
# same run, interleaved in shuffled blocks) at parent sizes 0 and 256 MiB. Fails when
# shared:auto's median is above 1.25x the floor's at either size, or when its own median at
# 256 MiB is above 1.15x its median at 0 (bench/targets.rs, `gate`). A few seconds once built.
# Where it may (root or CAP_SYS_NICE), it runs SCHED_FIFO. False alarms in 10 runs each on the
# 2-CPU build machine: quiet (load 1.2): 0 plain, 0 SCHED_FIFO (ratios 1.088-1.107x, growth
# 0.94-1.01x); under parallel builds and fuzzing (load 14-15): 0 plain, 0 SCHED_FIFO (growth
# up to 1.10x plain, 1.02x SCHED_FIFO); an earlier run at load 28 had 2 plain, both on growth.
cargo build --release -q
rt=()
if chrt -f 10 true 2>/dev/null; then rt=(chrt -f 10); fi
"${rt[@]}" target/release/spawnmatrix bench --gate --sizes 0,256M --methods shared:auto \
  --iterations 1000 --warmup 50 --quiet
