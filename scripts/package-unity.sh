#!/usr/bin/env bash
# A thin wrapper around the packaging command, which is Rust and runs on any OS with cargo:
#
#   cargo run -p xtask -- package [--out DIR] [--no-windows] [--macos] [--url BASE] [--sources-only]
#
# (see xtask/src/package/mod.rs). It fills unity-sample/Packages/com.sinew.physics (the C#
# wrapper copied from bindings/csharp, Documentation~, LICENSE.md, the native plugins and their
# .meta files with fixed GUIDs and import settings), then writes target/package/
# com.sinew.physics-<version>.tgz and a sinew-<version>-<triple>.tar.gz per target.
#
#   scripts/package-unity.sh                 Linux (the host) + Windows (MinGW, when present)
#   scripts/package-unity.sh --macos         also a universal libsinew.dylib, UNTESTED on a Mac
#   scripts/package-unity.sh --wrapper-only  only the copies (no build; scripts/test-unity.sh uses it)
#
# What this wrapper adds on Linux: it installs what is missing (MinGW with apt and the
# x86_64-pc-windows-gnu rustup target; for --macos a Python venv in target/zigbuild-venv with
# cargo-zigbuild and ziglang, and the two Apple rustup targets). Other arguments go to the
# command as they are.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
args=()
macos=0
build=1
for arg in "$@"; do
    case "$arg" in
        --wrapper-only) args+=(--sources-only); build=0 ;;
        --sources-only) args+=("$arg"); build=0 ;;
        --macos) args+=("$arg"); macos=1 ;;
        -h | --help)
            sed -n '2,18p' "$0"
            exit 0
            ;;
        *) args+=("$arg") ;;
    esac
done

if [ "$build" -eq 1 ]; then
    # The Windows part: MinGW and the rustup target, when missing (scripts/check-windows-dll.sh,
    # part windows-dll of the test command, checks the DLL's exports and imports).
    source scripts/lib.sh
    missing=()
    command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
    command -v x86_64-w64-mingw32-objcopy >/dev/null 2>&1 || missing+=(binutils-mingw-w64-x86-64)
    install_missing "${missing[@]}"
    if ! rustup target list --installed | grep -qx x86_64-pc-windows-gnu; then
        rustup target add x86_64-pc-windows-gnu
    fi
fi
if [ "$macos" -eq 1 ]; then
    venv=${CARGO_TARGET_DIR:-target}/zigbuild-venv
    if [ ! -x "$venv/bin/cargo-zigbuild" ]; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet cargo-zigbuild ziglang
    fi
    for t in x86_64-apple-darwin aarch64-apple-darwin; do
        if ! rustup target list --installed | grep -qx "$t"; then
            rustup target add "$t"
        fi
    done
    PATH="$(cd "$venv" && pwd)/bin:$PATH"
fi
exec cargo run -q -p xtask -- package "${args[@]}"
