#!/usr/bin/env bash
# The main demo: builds Sinew in release mode and runs examples/demo/, which drives a
# curtain on a moving bar plus a rope, a capsule character with a cape and a ponytail
# (walk, run, stop, teleport, turn, wind), and a powered ragdoll with a cape (walk, hit, fall,
# rest, get up), and two jelly cubes dropped onto the floor and onto each other, through the
# C ABI, prints a summary and draws moments of each run into a picture.
#
#   bash scripts/demo.sh        (from the repository root; outputs go to out/)
#
# Writes out/demo.png, out/character.png, out/ragdoll.png, out/softbody.png, out/presets.png,
# out/units.png and out/summary.txt; exits non-zero if the build or any call fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo was not found. Install Rust (stable, 1.89 or newer) with rustup:" >&2
    echo "    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh" >&2
    echo "then open a new shell (or run: . \"\$HOME/.cargo/env\") and run this script again." >&2
    echo "See https://www.rust-lang.org/tools/install for other platforms." >&2
    exit 1
fi

out=out
cargo run --release --example demo -- --out "$out"

echo
echo "pictures: $(pwd)/$out/demo.png"
echo "          $(pwd)/$out/character.png"
echo "          $(pwd)/$out/ragdoll.png"
echo "          $(pwd)/$out/softbody.png"
echo "          $(pwd)/$out/presets.png"
echo "          $(pwd)/$out/units.png"
