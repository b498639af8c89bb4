#!/usr/bin/env bash
# The performance gate: a short pinned bench of shared:auto against the floor (measured in the
# same run, interleaved in shuffled blocks) at parent sizes 0 and 256 MiB. Fails when
# shared:auto's median is above 1.25x the floor's at either size, or when its own median at
# 256 MiB is above 1.15x its median at 0 (bench/targets.rs, `gate`). ~10 s on a quiet machine.
cargo run --release -q -- bench --gate --sizes 0,256M --methods shared:auto \
  --iterations 1000 --warmup 50 --quiet
