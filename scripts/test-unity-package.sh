#!/usr/bin/env bash
# The packaging command as a new user would meet its output:
#
#   scripts/test-unity-package.sh          (from anywhere)
#
# 1. runs `cargo run -p xtask -- package --out target/unity-package/dist --url BASE` (the host's
#    release library, and Windows' through MinGW, installed first when missing with the rustup
#    target), and the xtask's own tests (the plugin .meta templates against the
#    committed files, the tar writer);
# 2. makes a fresh Unity-style project in target/unity-package/project: Packages/manifest.json
#    naming the tarball with a file: path, ProjectSettings/ProjectVersion.txt, and the tarball's
#    package/ unpacked into Library/PackageCache/com.sinew.physics, where the Package Manager
#    puts it (with tar, as a user's tool would);
# 3. runs tests/unity-stub/check_tarball.py on it: package.json's fields, .meta files and GUIDs,
#    the plugins' formats and import settings, Documentation~, CHANGELOG.md, LICENSE.md, samples,
#    and the C/C++ archives' layout;
# 4. compiles the unpacked package's Runtime and Editor scripts (the wrapper from the tarball,
#    not from bindings/csharp) against the Unity stub, as Unity would on import.
#
# What this cannot test: Unity itself importing the tarball (no editor here). The last line is
# "unity-package: N passed, M failed"; the exit code is non-zero on any failure.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
out=${CARGO_TARGET_DIR:-target}/unity-package
export RUST_BACKTRACE=0

source scripts/lib.sh
missing=()
command -v mcs >/dev/null 2>&1 || missing+=(mono-mcs)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v tar >/dev/null 2>&1 || missing+=(tar)
# What `xtask install` (run per target by the command) needs: objcopy and strip, and patchelf
# for the SONAME (this part runs before scripts/test-package.sh, which installs the same).
command -v objcopy >/dev/null 2>&1 || missing+=(binutils)
command -v patchelf >/dev/null 2>&1 || missing+=(patchelf)
# The Windows part of the package (as scripts/check-windows-dll.sh installs it).
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
command -v x86_64-w64-mingw32-objcopy >/dev/null 2>&1 || missing+=(binutils-mingw-w64-x86-64)
install_missing "${missing[@]}"
if ! rustup target list --installed | grep -qx x86_64-pc-windows-gnu; then
    rustup target add x86_64-pc-windows-gnu
fi

passed=0
failed=0
rm -rf "$out"
mkdir -p "$out"
step() { # step <name> <command...>: one check, passed when the command succeeds
    local name=$1 start=$SECONDS
    shift
    if "$@" >"$out/step.log" 2>&1; then
        passed=$((passed + 1))
        echo "ok     $name$(took $start)"
    else
        failed=$((failed + 1))
        echo "FAILED $name"
        sed 's/^/    /' "$out/step.log" | tail -n 40
    fi
}

version=$(sed -nE '/^\[package\]/,/^\[/s/^version = "([^"]+)"/\1/p' Cargo.toml)
step "cargo test -p xtask package (plugin .meta templates, tar writer, package.json URLs)" \
    cargo test -q -p xtask --features generate --lib package
step "cargo run -p xtask -- package writes com.sinew.physics-$version.tgz and the C/C++ archives" \
    cargo run -q -p xtask -- package --out "$out/dist" --url https://example.org/sinew/tree/v"$version"

project=$out/project
mkdir -p "$project/Packages" "$project/ProjectSettings" "$project/Assets" "$project/Library/PackageCache/com.sinew.physics"
cat >"$project/Packages/manifest.json" <<EOF
{
  "dependencies": {
    "com.sinew.physics": "file:../../dist/com.sinew.physics-$version.tgz",
    "com.unity.modules.cloth": "1.0.0",
    "com.unity.modules.imgui": "1.0.0",
    "com.unity.modules.physics": "1.0.0",
    "com.unity.modules.wind": "1.0.0"
  }
}
EOF
cp unity-sample/ProjectSettings/ProjectVersion.txt "$project/ProjectSettings/"
step "tar unpacks the tarball's package/ into Library/PackageCache/com.sinew.physics" \
    tar -xzf "$out/dist/com.sinew.physics-$version.tgz" -C "$project/Library/PackageCache/com.sinew.physics" --strip-components=1

log=$out/check.log
rc=0
python3 tests/unity-stub/check_tarball.py "$root" "$out/dist" "$project" >"$log" 2>&1 || rc=$?
cat "$log"
summary=$(grep -E '^tarball: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
if [ -z "$summary" ]; then
    failed=$((failed + 1))
    echo "FAILED check_tarball.py did not finish (exit code $rc)"
else
    passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$summary")))
    failed=$((failed + $(sed -E 's/.*, ([0-9]+) failed$/\1/' <<<"$summary")))
fi

# As Unity compiles the package on import: Sinew.Runtime (wrapper + Runtime/, unsafe) and
# Sinew.Editor (Editor/, against UnityEditor), from the unpacked files.
pkg=$project/Library/PackageCache/com.sinew.physics
flags=(-langversion:7.2 -nologo -warn:4 -warnaserror+)
step "the Unity stub compiles" \
    mcs "${flags[@]}" -unsafe -target:library -out:"$out/UnityEngine.dll" tests/unity-stub/UnityEngine.Stub.cs
step "the UnityEditor stub compiles" \
    mcs "${flags[@]}" -target:library -r:"$out/UnityEngine.dll" -out:"$out/UnityEditor.dll" tests/unity-stub/UnityEditor.Stub.cs
step "the unpacked package's Runtime/ (with Runtime/Wrapper) compiles as Sinew.Runtime" \
    mcs "${flags[@]}" -unsafe -define:UNITY_2021_2_OR_NEWER -target:library -r:"$out/UnityEngine.dll" \
        -out:"$out/Sinew.Runtime.dll" -recurse:"$pkg/Runtime/*.cs"
for editor_os in LINUX WIN OSX; do
    step "the unpacked package's Editor/ compiles as Sinew.Editor (UNITY_EDITOR_$editor_os)" \
        mcs "${flags[@]}" -define:UNITY_EDITOR -define:UNITY_EDITOR_$editor_os -target:library -r:"$out/UnityEngine.dll" \
            -r:"$out/UnityEditor.dll" -r:"$out/Sinew.Runtime.dll" -out:"$out/Sinew.Editor.$editor_os.dll" "$pkg"/Editor/*.cs
done

echo "unity-package: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
