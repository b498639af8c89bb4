#!/usr/bin/env bash
# A short soak: 20,000 spawns of spawnmatrix-true from 4 threads through the shared Command,
# sampling this process's resident memory, open fds and children. `spawnmatrix soak` exits 1
# when any of them grew (a leaked fd or zombie per spawn shows within the first samples).
# The full run (1,000,000 spawns) is `spawnmatrix soak` with its defaults.
cargo run -q -- soak --spawns 20000 --threads 4 --time 2m
