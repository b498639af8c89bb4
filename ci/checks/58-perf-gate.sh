#!/usr/bin/env bash
# The performance gate: a short pinned bench of shared:auto against the floor (measured in the
# same run, interleaved in shuffled blocks) at parent sizes 0 and 256 MiB. Fails when
# shared:auto's median is above 1.25x the floor's at either size, or when its own median at
# 256 MiB is above 1.15x its median at 0 (bench/targets.rs, `gate`). A few seconds once built.
# Where it may (root or CAP_SYS_NICE), it runs SCHED_FIFO: on the loaded 2-CPU build machine
# that took false alarms from 2 in 10 runs (both on growth) to 0 in 10.
cargo build --release -q
rt=()
if chrt -f 10 true 2>/dev/null; then rt=(chrt -f 10); fi
"${rt[@]}" target/release/spawnmatrix bench --gate --sizes 0,256M --methods shared:auto \
  --iterations 1000 --warmup 50 --quiet
