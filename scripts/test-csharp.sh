#!/usr/bin/env bash
# Tests the C# binding on Mono (Unity's scripting runtime) against the real libsinew.so.
#
#   scripts/test-csharp.sh          (from anywhere; works in the repository root)
#
# 1. installs what is missing: mono-mcs, mono-runtime, gcc (Debian/Ubuntu apt);
# 2. cargo build (debug) -> target/debug/libsinew.so;
# 3. compiles bindings/csharp on its own with mcs, as a library with warnings as errors
#    and no UnityEngine, exactly as a plain Mono/.NET user would;
# 4. runs tests/csharp/c_reference.c (the reference scene through the C ABI, and the
#    header's struct layout) and tests/csharp/WrapperTests.cs, which compares against it,
#    with the character-cloth groups of tests/csharp/CharacterTests.cs (skinning, tethers,
#    root and teleport, wind, LOD, tearing, cape / skirt / hair, errors) and the ragdoll
#    groups of tests/csharp/RagdollTests.cs (errors, disposal, physics, no allocation; powered
#    ragdolls and getting up: muscles, pins, hits, balance loss, snapshot and blend, face up /
#    face down, at rest) and the soft-body groups of tests/csharp/SoftBodyTests.cs (every call,
#    errors, readback of the surface, a jelly dropped on a plane, no allocation) and the
#    snapshot groups of tests/csharp/SnapshotTests.cs (rewind and replay to the same bits, a
#    second world, refusals that change nothing, per object, no allocation) and the recording
#    groups of tests/csharp/RecordingTests.cs (a ragdoll's and a cloth's fall recorded and
#    replayed bit for bit, the saved layout byte for byte the one tests/c/recording.c writes,
#    and the C program replaying the C# file; no allocation; errors);
# 5. checks the load-time ABI check against a missing library and a fake one of another
#    version, and the Unity NativeArray extensions against stand-in Unity types.
#
# Outputs go to target/csharp-tests/. The last line is "csharp: N passed, M failed";
# the exit code is non-zero on any failure.
#
# Language level: mcs implements C# 7.2, one short of Unity's 7.3 (it lacks the
# `unmanaged` constraint), and Span<T>/MemoryMarshal come from Mono's own mscorlib (Mono
# 6.x); in Unity they come from its .NET Standard 2.1 profile (Unity 2021.2 and newer).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
out=target/csharp-tests
export RUST_BACKTRACE=0

# ---- tools ----
source scripts/lib.sh
missing=()
command -v mcs >/dev/null 2>&1 || missing+=(mono-mcs)
command -v mono >/dev/null 2>&1 || missing+=(mono-runtime)
# xbuild and the reference assemblies it resolves System, System.Core and System.Numerics from
command -v xbuild >/dev/null 2>&1 && [ -d /usr/lib/mono/4.5-api ] || missing+=(mono-xbuild mono-devel)
command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
install_missing "${missing[@]}"

# ---- bookkeeping: each step and each test program adds to the totals ----
passed=0
failed=0
step() { # step <name> <command...>: one check, passed when the command succeeds
    local name=$1 start=$SECONDS
    shift
    if "$@" >"$out/step.log" 2>&1; then
        passed=$((passed + 1))
        echo "ok     $name$(took $start)"
    else
        failed=$((failed + 1))
        echo "FAILED $name"
        sed 's/^/    /' "$out/step.log"
    fi
}
program() { # program <log> <env...> -- <command...>: a test program; adds its own counts
    local log=$1
    shift
    local envs=()
    while [ "$1" != "--" ]; do
        envs+=("$1")
        shift
    done
    shift
    local rc=0
    env "${envs[@]}" "$@" >"$log" 2>&1 || rc=$?
    cat "$log"
    local summary
    summary=$(grep -E '^csharp-program .*: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
    if [ -z "$summary" ]; then
        failed=$((failed + 1))
        echo "FAILED $* did not finish (exit code $rc, no summary line)"
        return
    fi
    local p f
    p=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1/' <<<"$summary")
    f=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\2/' <<<"$summary")
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        failed=$((failed + 1))
        echo "FAILED $* exited with code $rc"
    fi
}
finish() {
    echo "csharp: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

# ---- build ----
# The feature debug-panic exports sinew_debug_trigger_panic; the wrapper and the tests are
# compiled with SINEW_DEBUG_PANIC to call it (a library without it fails that test).
cargo build --features debug-panic
lib=${CARGO_TARGET_DIR:-$root/target}/debug
test -f "$lib/libsinew.so"
rm -rf "$out"
mkdir -p "$out/fake" "$out/none" "$out/unity"

mcs_flags=(-unsafe -langversion:7.2 -nologo -debug -define:SINEW_DEBUG_PANIC)
wrapper=(bindings/csharp/*.cs bindings/csharp/Unity/*.cs)

step "the wrapper compiles alone, without UnityEngine, warnings as errors" \
    mcs "${mcs_flags[@]}" -warn:4 -warnaserror+ -target:library -out:"$out/Sinew.dll" "${wrapper[@]}"
step "the wrapper compiles without SINEW_DEBUG_PANIC too (a user's build)" \
    mcs -unsafe -langversion:7.2 -nologo -warn:4 -warnaserror+ -target:library -out:"$out/Sinew.nodebug.dll" "${wrapper[@]}"
# Code lines only: doc comments may name Unity types. (Unity/*.cs is compiled only in Unity.)
step "the core wrapper has no UnityEngine or Unity.* code" \
    bash -c "! grep -nE '^[^/]*\b(UnityEngine|Unity\.[A-Z])' bindings/csharp/*.cs"
step "NativeMethods.g.cs is csbindgen's output (header intact)" \
    grep -q 'This code is generated by csbindgen' bindings/csharp/NativeMethods.g.cs
# csbindgen reads a list of src/ffi files (xtask): a file left off it drops its calls from C#
# without failing the drift check, so every function the header declares must be declared here.
step "every function of include/sinew.h has a P/Invoke declaration in NativeMethods.g.cs" \
    bash -c "diff <(grep -E '^[A-Za-z].*\bsinew_[a-z0-9_]+\(' include/sinew.h | grep -oE '\bsinew_[a-z0-9_]+\(' | tr -d '(' | sort -u) \
        <(grep -oE 'EntryPoint = \"sinew_[a-z0-9_]+\"' bindings/csharp/NativeMethods.g.cs | sed -E 's/.*\"(.*)\"/\1/' | sort -u)"
step "the test programs compile against Sinew.dll" \
    bash -c "mcs ${mcs_flags[*]} -r:$out/Sinew.dll -out:$out/WrapperTests.exe tests/csharp/Check.cs tests/csharp/WrapperTests.cs tests/csharp/CharacterTests.cs tests/csharp/RagdollTests.cs tests/csharp/SoftBodyTests.cs tests/csharp/SnapshotTests.cs tests/csharp/RecordingTests.cs \
        && mcs ${mcs_flags[*]} -r:$out/Sinew.dll -out:$out/LoadTests.exe tests/csharp/Check.cs tests/csharp/LoadTests.cs"
step "the Unity NativeArray extensions compile with UNITY_2021_2_OR_NEWER (stand-in Unity types)" \
    mcs "${mcs_flags[@]}" -warn:4 -warnaserror+ -define:UNITY_2021_2_OR_NEWER -out:"$out/unity/UnityExtensionTests.exe" \
        "${wrapper[@]}" tests/csharp/UnityStubs.cs tests/csharp/Check.cs tests/csharp/UnityExtensionTests.cs
step "the C reference program compiles against include/sinew.h" \
    gcc -std=c11 -Wall -Wextra -Werror -Iinclude tests/csharp/c_reference.c -L"$lib" -lsinew -o "$out/c_reference"
step "the C reference program runs the scene" \
    env LD_LIBRARY_PATH="$lib" "$out/c_reference" "$out/c_reference.bin" "$out/layout.txt"
# The recording's C side (tests/c/recording.c): writes its recording of the scene the C# test
# records too (the same bytes expected), and replays the one C# writes.
step "the C recording program compiles against include/sinew.h" \
    gcc -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude tests/c/recording.c -L"$lib" -lsinew -lm -o "$out/c_recording"
step "the C recording program records a humanoid's fall to $out/c_recording.snwr" \
    env LD_LIBRARY_PATH="$lib" "$out/c_recording" write "$out/c_recording.snwr"
fake_version=$(( $(sed -nE 's/^#define SINEW_ABI_VERSION ([0-9]+).*/\1/p' include/sinew.h) + 1000 ))
step "a fake libsinew.so reporting ABI version $fake_version builds" \
    gcc -shared -fPIC -DFAKE_ABI_VERSION="$fake_version" tests/csharp/fake_sinew.c -o "$out/fake/libsinew.so"

# ---- run ----
if [ -f "$out/WrapperTests.exe" ] && [ -f "$out/c_reference.bin" ]; then
    program "$out/WrapperTests.log" LD_LIBRARY_PATH="$lib" -- \
        mono --debug "$out/WrapperTests.exe" "$out/c_reference.bin" "$out/layout.txt" "$out/c_recording.snwr" "$out/csharp_recording.snwr"
fi
step "the C recording program replays the recording C# wrote, bit for bit every frame" \
    env LD_LIBRARY_PATH="$lib" "$out/c_recording" replay "$out/csharp_recording.snwr"
step "the panic guard was checked (not compiled out)" \
    grep -q '^ok     a panic inside the library' "$out/WrapperTests.log"
if [ -f "$out/LoadTests.exe" ]; then
    program "$out/LoadTests-mismatch.log" LD_LIBRARY_PATH="$root/$out/fake" -- \
        mono --debug "$out/LoadTests.exe" mismatch "$fake_version"
    program "$out/LoadTests-missing.log" LD_LIBRARY_PATH="$root/$out/none" -- \
        mono --debug "$out/LoadTests.exe" missing
fi
if [ -f "$out/unity/UnityExtensionTests.exe" ]; then
    program "$out/UnityExtensionTests.log" LD_LIBRARY_PATH="$lib" -- \
        mono --debug "$out/unity/UnityExtensionTests.exe"
fi

# ---- the README's examples and the project files ----
# Every documented program (a ```csharp block after an "<!-- example: NAME" line in
# bindings/csharp/README.md), extracted and built with the documented command (as written
# there, but with the output in $out), then run: each checks its own physics and throws if wrong.
mapfile -t examples < <(sed -nE 's/^<!-- example: ([a-z0-9-]+) .*/\1/p' bindings/csharp/README.md)
step "README: ${#examples[@]} examples found (tour, hair, jelly, ragdoll, wind-lod-tearing)" \
    test "${examples[*]}" = "tour hair jelly ragdoll wind-lod-tearing"
for name in "${examples[@]}"; do
    awk -v name="$name" '$0 ~ "^<!-- example: " name " " {on=1; next} on && /^```csharp/ {body=1; next} body && /^```/ {exit} body {print}' \
        bindings/csharp/README.md >"$out/example-$name.cs"
    step "README: example '$name' was extracted ($(wc -l <"$out/example-$name.cs") lines)" test -s "$out/example-$name.cs"
    step "README: example '$name' compiles with the documented mcs command" \
        mcs -unsafe -langversion:experimental -r:System.Numerics.dll -out:"$out/example-$name.exe" "$out/example-$name.cs" \
            bindings/csharp/*.cs bindings/csharp/Unity/*.cs
    step "README: example '$name' runs and its checks hold" \
        env LD_LIBRARY_PATH="$lib" mono "$out/example-$name.exe"
done
# The classic project for Mono's build tool: built with xbuild, then the tour is compiled
# against that Sinew.dll (not the sources) and run.
step "bindings/csharp/Sinew.Mono.csproj builds with Mono's xbuild" \
    xbuild /nologo /v:minimal /p:OutputPath="$root/$out/xbuild/" /p:BaseIntermediateOutputPath="$root/$out/xbuild-obj/" \
        bindings/csharp/Sinew.Mono.csproj
step "README: the tour compiles against the xbuild-built Sinew.dll (mcs -r:Sinew.dll)" \
    mcs -r:"$out/xbuild/Sinew.dll" -r:System.Numerics.dll -out:"$out/xbuild/Example.exe" "$out/example-tour.cs"
step "README: the tour runs against the xbuild-built Sinew.dll" \
    env LD_LIBRARY_PATH="$lib" MONO_PATH="$out/xbuild" mono "$out/xbuild/Example.exe"
# Well-formed (an XML comment must not hold a double hyphen) and what the docs say it is.
step "bindings/csharp/Sinew.csproj is an SDK-style netstandard2.1 project with unsafe code" \
    python3 -c 'import sys, xml.etree.ElementTree as E; p = E.parse(sys.argv[1]).getroot(); g = lambda k: p.findtext("PropertyGroup/" + k)
sys.exit(not (p.get("Sdk") == "Microsoft.NET.Sdk" and g("TargetFramework") == "netstandard2.1" and g("AllowUnsafeBlocks") == "true"))' \
        bindings/csharp/Sinew.csproj
# Both project files compile the same sources with the same settings.
step "Sinew.csproj and Sinew.Mono.csproj agree: unsafe code, warnings as errors, assembly name" \
    python3 -c 'import sys, xml.etree.ElementTree as E
ns = "{http://schemas.microsoft.com/developer/msbuild/2003}"
sdk = E.parse(sys.argv[1]).getroot(); mono = E.parse(sys.argv[2]).getroot()
a = lambda k: sdk.findtext("PropertyGroup/" + k)
b = lambda k: mono.findtext(ns + "PropertyGroup/" + ns + k)
keys = ("AllowUnsafeBlocks", "TreatWarningsAsErrors", "AssemblyName", "RootNamespace")
bad = [k for k in keys if a(k) != b(k)]
print("differ:", bad) if bad else None
sys.exit(bool(bad))' bindings/csharp/Sinew.csproj bindings/csharp/Sinew.Mono.csproj
if command -v dotnet >/dev/null 2>&1; then
    step "bindings/csharp/Sinew.csproj builds with the .NET SDK (netstandard2.1)" \
        dotnet build bindings/csharp/Sinew.csproj -c Release -o "$out/dotnet" -p:BaseIntermediateOutputPath="$root/$out/obj/"
else
    echo "--     bindings/csharp/Sinew.csproj not built: no .NET SDK here (Debian 12 packages none; its xbuild 6.8 refuses SDK-style projects, hence Sinew.Mono.csproj above)"
fi

finish
