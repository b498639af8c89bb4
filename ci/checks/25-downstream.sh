#!/usr/bin/env bash
# A user's crate (tests/downstream) that depends on spawnmatrix-spawn by path, as a downstream
# project would: its normal and build dependencies are exactly the library and libc (no cc, no
# serde, nothing of the tool), and it builds and runs in a fresh target dir. It also builds with
# each optional feature of the library (tokio, async-io), whose adapters' tests and doc examples
# then run in the workspace. Last, `cargo package` of the library verifies (its own build, its
# README and license files).
manifest=tests/downstream/Cargo.toml
deps=$(cargo tree --locked --manifest-path "$manifest" -e normal,build --prefix none |
  awk '{print $1}' | sort -u)
expected=$(printf '%s\n' libc spawnmatrix-downstream spawnmatrix-spawn)
if [[ "$deps" != "$expected" ]]; then
  echo "tests/downstream depends on more than spawnmatrix-spawn and libc:" >&2
  cargo tree --locked --manifest-path "$manifest" -e normal,build >&2
  exit 1
fi
echo "dependencies: ${deps//$'\n'/ }"

target_dir=$(mktemp -d)
trap 'rm -rf "$target_dir"' EXIT
start=$SECONDS
CARGO_TARGET_DIR=$target_dir cargo build --locked --manifest-path "$manifest"
echo "clean build: $((SECONDS - start)) s"
"$target_dir"/debug/spawnmatrix-downstream

for feature in tokio async-io; do
  echo "-- downstream with --features $feature"
  CARGO_TARGET_DIR=$target_dir cargo build --locked --manifest-path "$manifest" --features "$feature"
done
echo "-- the adapters' tests and examples (spawnmatrix-spawn --features tokio,async-io)"
cargo test --locked -p spawnmatrix-spawn --features tokio,async-io --test async_adapters
cargo test --locked -p spawnmatrix-spawn --features tokio,async-io --doc

# The library as the registry would get it: `cargo package` builds the packed crate on its own
# (nothing outside spawn/ may be needed), and the files its manifest names (the README and
# both license files of `MIT OR Apache-2.0`) are in it. ~15 s warm (libc and the crate, debug).
echo "-- cargo package -p spawnmatrix-spawn"
start=$SECONDS
files=$(cargo package --locked --allow-dirty -p spawnmatrix-spawn --list)
for f in README.md LICENSE-MIT LICENSE-APACHE Cargo.toml src/lib.rs; do
  grep -qx "$f" <<<"$files" || { echo "the package lacks $f" >&2; exit 1; }
done
cargo package --locked --allow-dirty -p spawnmatrix-spawn
echo "package verified: $((SECONDS - start)) s"
