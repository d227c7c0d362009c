#!/usr/bin/env bash
# Fills the Unity package unity-sample/Packages/com.sinew.physics with what is built, not
# committed:
#   Runtime/Wrapper/   the C# wrapper, copied from bindings/csharp/*.cs and
#                      bindings/csharp/Unity/SinewUnity.cs, each with a .meta of a fixed GUID
#                      (bindings/csharp stays the only source: the copies are git-ignored);
#   Runtime/Plugins/Linux/x86_64/libsinew.so     cargo build --release (this machine, x86_64 Linux)
#   Runtime/Plugins/Windows/x86_64/sinew.dll     x86_64-pc-windows-gnu, built and checked by
#                                                scripts/check-windows-dll.sh (no MinGW runtime DLLs)
#   Runtime/Plugins/macOS/libsinew.dylib         with --macos only: universal x86_64 + arm64, built
#                                                with cargo-zigbuild (PyPI); UNTESTED on a Mac
# The plugins' .meta files (per-platform import settings) are committed and left as they are.
#
#   scripts/package-unity.sh                 wrapper + Linux + Windows
#   scripts/package-unity.sh --macos         also macOS
#   scripts/package-unity.sh --wrapper-only  only the wrapper copies (no cargo; scripts/test-unity.sh uses it)
#
# Installs what is missing (the Windows part through check-windows-dll.sh; for --macos a Python
# venv in target/zigbuild-venv with cargo-zigbuild and ziglang, and the two Apple rustup targets).
# Binaries are stripped of debug info (exports stay). Stops before building when the wrapper's
# ExpectedAbiVersion differs from the library's SINEW_ABI_VERSION: such a package would refuse
# to load its own library (SinewLoadException).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
pkg=unity-sample/Packages/com.sinew.physics
plugins=$pkg/Runtime/Plugins

macos=0
wrapper_only=0
for arg in "$@"; do
    case "$arg" in
        --macos) macos=1 ;;
        --wrapper-only) wrapper_only=1 ;;
        -h | --help)
            sed -n '2,22p' "$0"
            exit 0
            ;;
        *)
            echo "unknown argument: $arg (see --help)" >&2
            exit 2
            ;;
    esac
done

# A Unity GUID that does not change between machines or runs: md5 of the package-relative path.
guid_for() {
    printf '%s' "com.sinew.physics/$1" | md5sum | cut -c1-32
}

# ---- the C# wrapper ----
copy_wrapper() {
    local dest=$pkg/Runtime/Wrapper
    mkdir -p "$dest"
    rm -f "$dest"/*.cs "$dest"/*.cs.meta
    local seen=" "
    local f name
    for f in bindings/csharp/*.cs bindings/csharp/Unity/*.cs; do
        name=$(basename "$f")
        if [[ "$seen" == *" $name "* ]]; then
            echo "two wrapper files are named $name; Runtime/Wrapper is flat" >&2
            exit 1
        fi
        seen="$seen$name "
        cp "$f" "$dest/$name"
        cat >"$dest/$name.meta" <<EOF
fileFormatVersion: 2
guid: $(guid_for "Runtime/Wrapper/$name")
MonoImporter:
  externalObjects: {}
  serializedVersion: 2
  defaultReferences: []
  executionOrder: 0
  icon: {instanceID: 0}
  userData: 
  assetBundleName: 
  assetBundleVariant: 
EOF
    done
    echo "wrapper: $(ls "$dest"/*.cs | wc -l) files from bindings/csharp -> $dest"
}

copy_wrapper
if [ "$wrapper_only" -eq 1 ]; then
    exit 0
fi

header_abi=$(sed -nE 's/^#define SINEW_ABI_VERSION ([0-9]+).*/\1/p' include/sinew.h)
wrapper_abi=$(sed -nE 's/.*const uint ExpectedAbiVersion = ([0-9]+);.*/\1/p' bindings/csharp/SinewLibrary.cs)
if [ "$header_abi" != "$wrapper_abi" ]; then
    echo "include/sinew.h has SINEW_ABI_VERSION $header_abi but bindings/csharp/SinewLibrary.cs expects $wrapper_abi:" >&2
    echo "the package's wrapper would refuse this library (SinewLoadException). Update the wrapper first." >&2
    exit 1
fi

for meta in "$plugins/Linux/x86_64/libsinew.so.meta" "$plugins/Windows/x86_64/sinew.dll.meta" "$plugins/macOS/libsinew.dylib.meta"; do
    if [ ! -f "$meta" ]; then
        echo "$meta is missing: Unity deletes a plugin's .meta when it opens the project before the" >&2
        echo "plugin exists. Restore it from git (git checkout -- $plugins), then run this again." >&2
        exit 1
    fi
done

# ---- Linux ----
cargo build --release
mkdir -p "$plugins/Linux/x86_64"
cp target/release/libsinew.so "$plugins/Linux/x86_64/libsinew.so"
strip --strip-debug "$plugins/Linux/x86_64/libsinew.so"

# ---- Windows: the same build as the DLL check, and the check itself ----
bash scripts/check-windows-dll.sh
mkdir -p "$plugins/Windows/x86_64"
cp target/x86_64-pc-windows-gnu/release/sinew.dll "$plugins/Windows/x86_64/sinew.dll"
x86_64-w64-mingw32-strip --strip-debug "$plugins/Windows/x86_64/sinew.dll"

# ---- macOS (optional, untested on a Mac) ----
if [ "$macos" -eq 1 ]; then
    venv=target/zigbuild-venv
    if [ ! -x "$venv/bin/cargo-zigbuild" ]; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet cargo-zigbuild ziglang
    fi
    for t in x86_64-apple-darwin aarch64-apple-darwin; do
        if ! rustup target list --installed | grep -qx "$t"; then
            rustup target add "$t"
        fi
    done
    # zig links against its own macOS stubs; no Apple SDK here (cargo warns that xcrun is missing).
    PATH="$(pwd)/$venv/bin:$PATH" cargo zigbuild --release --target universal2-apple-darwin
    mkdir -p "$plugins/macOS"
    cp target/universal2-apple-darwin/release/libsinew.dylib "$plugins/macOS/libsinew.dylib"
elif [ -f "$plugins/macOS/libsinew.dylib" ]; then
    # Built by an earlier run from older sources: it could implement another ABI version.
    rm "$plugins/macOS/libsinew.dylib"
    echo "removed the macOS library of an earlier run (rebuild it with --macos)"
fi

echo
echo "package: $pkg"
for f in "$plugins/Linux/x86_64/libsinew.so" "$plugins/Windows/x86_64/sinew.dll" "$plugins/macOS/libsinew.dylib"; do
    if [ -f "$f" ]; then
        printf '  %-60s %8d bytes  %s\n' "$f" "$(stat -c %s "$f")" "$(file -b "$f" | cut -c1-60)"
    fi
done
if [ "$macos" -eq 0 ]; then
    echo "  (macOS: not built; add --macos for an untested universal libsinew.dylib)"
fi
echo "ABI version $header_abi: the wrapper and the library agree."
