#!/usr/bin/env bash
# Tests the Unity package and sample project as far as is possible without the Unity editor.
#
#   scripts/test-unity.sh          (from anywhere)
#
# 1. installs what is missing: mono-mcs, mono-runtime, python3 (Debian/Ubuntu apt; cargo is assumed);
# 2. builds tests/unity-stub/UnityEngine.Stub.cs and UnityEditor.Stub.cs -- a COMPILE-ONLY stub
#    of exactly the Unity API the scripts use, with Unity's documented signatures -- as
#    UnityEngine.dll and UnityEditor.dll;
# 3. compiles, with mcs -langversion:7.2 and warnings as errors, the assemblies Unity would:
#      Sinew.Runtime.dll           the wrapper straight from bindings/csharp (with
#                                  UNITY_2021_2_OR_NEWER) + the package's Runtime/ components,
#                                  unsafe, like Runtime/Sinew.Runtime.asmdef;
#      Assembly-CSharp.dll         the package's Samples~ (ClothBenchmark, RagdollShooting, RagdollCrowd,
#                                  JellyDrop, RiggedCharacter)
#                                  + the project's Assets/Scripts;
#      Sinew.Editor.dll            the package's Editor/ (inspectors, the paint tool, gizmos,
#                                  presets, the Unity Cloth converter, the debug window, the
#                                  missing-library message), against UnityEditor.dll and Sinew.Runtime;
#      Assembly-CSharp-Editor.dll  the project's Assets/Editor, against UnityEditor.dll;
#    and checks that the stub does catch mistakes (a misspelt member, UnityEditor in runtime code);
# 4. runs tests/unity-stub/UnityScriptChecks.cs on Mono: file names, [Tooltip]s, misspelt Unity
#    messages, and inspector defaults against the native library's sinew_*_default (needs the
#    debug libsinew.so: cargo build);
# 5. runs tests/csharp/EditorLogicTests.cs on Mono against the debug libsinew.so and the package's
#    Sinew.Runtime.dll: the paint brush, painted values into a native cloth, the tearing rebuild
#    against the wrapper's topology readback, presets, the Unity Cloth mapping field by field; it
#    draws docs/unity-paint.png and docs/unity-gizmos.png again, and they must be the committed ones;
#    and tests/csharp/ClipBakeTests.cs: a humanoid's simulated fall recorded (SinewTransformRecording)
#    and baked into an AnimationClip by the package's editor baker, its curves read back through the
#    stub's AnimationUtility (bindings, key count, times, values, tangents, rotation hemispheres);
# 6. copies the wrapper into the package (scripts/package-unity.sh --wrapper-only) and runs
#    tests/unity-stub/check_project.py: package.json, manifest.json, .meta files and GUIDs, the
#    plugins' import settings, the scenes' references and fields, the build settings.
#
# What this cannot test: anything Unity does at run time (the components were never run in the
# editor or a player); see docs/unity.md. Outputs go to target/unity-tests/. The last line is
# "unity: N passed, M failed"; the exit code is non-zero on any failure.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)
out=target/unity-tests
export RUST_BACKTRACE=0

# ---- tools ----
source scripts/lib.sh
missing=()
command -v mcs >/dev/null 2>&1 || missing+=(mono-mcs)
command -v mono >/dev/null 2>&1 || missing+=(mono-runtime)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
install_missing "${missing[@]}"

# ---- bookkeeping ----
passed=0
failed=0
rm -rf "$out"
mkdir -p "$out/negative"
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
refused() { # refused <name> <error code> <command...>: the command fails with that compiler error
    local name=$1 code=$2
    shift 2
    if [ ! -f "$out/UnityEngine.dll" ] || [ ! -f "$out/UnityEditor.dll" ]; then
        failed=$((failed + 1))
        echo "FAILED $name (the stub did not build, so nothing can be refused)"
    elif "$@" >"$out/step.log" 2>&1; then
        failed=$((failed + 1))
        echo "FAILED $name (it was accepted)"
    elif ! grep -q "error $code" "$out/step.log"; then
        failed=$((failed + 1))
        echo "FAILED $name (refused, but not with $code)"
        sed 's/^/    /' "$out/step.log"
    else
        passed=$((passed + 1))
        echo "ok     $name ($code)"
    fi
}
program() { # program <summary prefix> <command...>: a test program that prints its own counts
    local prefix=$1
    shift
    local log=$out/program.log rc=0
    "$@" >"$log" 2>&1 || rc=$?
    cat "$log"
    local summary
    summary=$(grep -E "^$prefix: [0-9]+ passed, [0-9]+ failed$" "$log" | tail -n 1 || true)
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

pkg=unity-sample/Packages/com.sinew.physics
mcs_flags=(-langversion:7.2 -nologo -debug -warn:4 -warnaserror+)
wrapper=(bindings/csharp/*.cs bindings/csharp/Unity/*.cs)
runtime=("$pkg"/Runtime/*.cs)
samples=("$pkg"/Samples~/*/*.cs)
assets=(unity-sample/Assets/Scripts/*.cs)
editor=(unity-sample/Assets/Editor/*.cs)

# ---- compile ----
step "the UnityEngine stub compiles (UnityEngine.dll)" \
    mcs "${mcs_flags[@]}" -unsafe -target:library -out:"$out/UnityEngine.dll" tests/unity-stub/UnityEngine.Stub.cs
step "the UnityEditor stub compiles (UnityEditor.dll)" \
    mcs "${mcs_flags[@]}" -target:library -r:"$out/UnityEngine.dll" -out:"$out/UnityEditor.dll" tests/unity-stub/UnityEditor.Stub.cs
step "Sinew.Runtime: bindings/csharp + the package's Runtime/ (${#runtime[@]} scripts) compile against UnityEngine" \
    mcs "${mcs_flags[@]}" -unsafe -define:UNITY_2021_2_OR_NEWER -target:library -r:"$out/UnityEngine.dll" \
        -out:"$out/Sinew.Runtime.dll" "${wrapper[@]}" "${runtime[@]}"
step "Assembly-CSharp: the package's Samples~ + Assets/Scripts (${#samples[@]} + ${#assets[@]} scripts) compile, without unsafe code" \
    mcs "${mcs_flags[@]}" -target:library -r:"$out/UnityEngine.dll" -r:"$out/Sinew.Runtime.dll" \
        -out:"$out/Assembly-CSharp.dll" "${samples[@]}" "${assets[@]}"
step "Sinew.Editor: the package's Editor/ ($(ls "$pkg"/Editor/*.cs | wc -l) scripts: inspectors, paint tool, gizmos, presets, converter, debug window) compiles against UnityEditor" \
    mcs "${mcs_flags[@]}" -define:UNITY_EDITOR -define:UNITY_EDITOR_LINUX -target:library -r:"$out/UnityEngine.dll" \
        -r:"$out/UnityEditor.dll" -r:"$out/Sinew.Runtime.dll" -out:"$out/Sinew.Editor.dll" "$pkg"/Editor/*.cs
# Unity gives Assembly-CSharp-Editor every auto-referenced assembly: the package's two as well.
step "Assembly-CSharp-Editor: Assets/Editor (${#editor[@]} scripts) compiles against UnityEditor, Sinew.Runtime and Sinew.Editor" \
    mcs "${mcs_flags[@]}" -define:UNITY_EDITOR -target:library -r:"$out/UnityEngine.dll" -r:"$out/UnityEditor.dll" \
        -r:"$out/Assembly-CSharp.dll" -r:"$out/Sinew.Runtime.dll" -r:"$out/Sinew.Editor.dll" \
        -out:"$out/Assembly-CSharp-Editor.dll" "${editor[@]}"

# The stub must be strict enough to matter: these are refused.
cat >"$out/negative/Misspelt.cs" <<'EOF'
using UnityEngine;
public sealed class Misspelt : MonoBehaviour
{
    void LateUpdate() { transform.postion = Vector3.zero; }
}
EOF
cat >"$out/negative/WrongType.cs" <<'EOF'
using UnityEngine;
public sealed class WrongType : MonoBehaviour
{
    public Mesh mesh;
    void Start() { mesh.SetVertices(new Vector2[4]); }
}
EOF
cat >"$out/negative/EditorInRuntime.cs" <<'EOF'
using UnityEngine;
public sealed class EditorInRuntime : MonoBehaviour
{
    void Start() { UnityEditor.EditorApplication.delayCall += Start; }
}
EOF
cat >"$out/negative/NotInUnity.cs" <<'EOF'
using UnityEngine;
public sealed class NotInUnity : MonoBehaviour
{
    void Start() { GetComponent<SkinnedMeshRenderer>().BakeMeshAsync(null); }
}
EOF
cat >"$out/negative/NotInEditor.cs" <<'EOF'
using UnityEditor;
using UnityEngine;
public static class NotInEditor
{
    public static void Draw() { Handles.DrawWireCircle(Vector3.zero, Vector3.up, 1f); }
}
EOF
refused "the editor stub refuses an editor member Unity does not have (Handles.DrawWireCircle)" CS0117 \
    mcs "${mcs_flags[@]}" -target:library -r:"$out/UnityEngine.dll" -r:"$out/UnityEditor.dll" -out:"$out/negative/e.dll" "$out/negative/NotInEditor.cs"
refused "the stub refuses a misspelt member (transform.postion)" CS1061 \
    mcs "${mcs_flags[@]}" -target:library -r:"$out/UnityEngine.dll" -out:"$out/negative/a.dll" "$out/negative/Misspelt.cs"
refused "the stub refuses a wrong argument type (Mesh.SetVertices(Vector2[]))" CS1503 \
    mcs "${mcs_flags[@]}" -target:library -r:"$out/UnityEngine.dll" -out:"$out/negative/b.dll" "$out/negative/WrongType.cs"
refused "runtime code cannot use UnityEditor (it is a separate assembly, as in a player build)" CS0103 \
    mcs "${mcs_flags[@]}" -target:library -r:"$out/UnityEngine.dll" -out:"$out/negative/c.dll" "$out/negative/EditorInRuntime.cs"
refused "the stub refuses a member Unity does not have (SkinnedMeshRenderer.BakeMeshAsync)" CS1061 \
    mcs "${mcs_flags[@]}" -target:library -r:"$out/UnityEngine.dll" -out:"$out/negative/d.dll" "$out/negative/NotInUnity.cs"

# ---- checks on Mono ----
step "the script checks compile (tests/unity-stub/UnityScriptChecks.cs)" \
    mcs "${mcs_flags[@]}" -unsafe -r:"$out/UnityEngine.dll" -r:"$out/Sinew.Runtime.dll" -r:"$out/Assembly-CSharp.dll" \
        -r:System.Core.dll -out:"$out/UnityScriptChecks.exe" tests/unity-stub/UnityScriptChecks.cs
step "cargo build (the debug libsinew.so, for the defaults check)" cargo build --features debug-panic
if [ -f "$out/UnityScriptChecks.exe" ]; then
    program checks env LD_LIBRARY_PATH="${CARGO_TARGET_DIR:-$root/target}/debug" \
        mono --debug "$out/UnityScriptChecks.exe" "$out/Sinew.Runtime.dll" "$out/Assembly-CSharp.dll" \
        -- "${runtime[@]}" "${samples[@]}" "${assets[@]}" "${editor[@]}"
fi

# ---- the editor tools' logic, against the native library ----
step "the editor logic tests compile (tests/csharp/EditorLogicTests.cs)" \
    mcs "${mcs_flags[@]}" -unsafe -r:"$out/UnityEngine.dll" -r:"$out/Sinew.Runtime.dll" -r:System.Core.dll \
        -out:"$out/EditorLogicTests.exe" tests/csharp/Check.cs tests/csharp/EditorLogicTests.cs
preset_guid=$(sed -n 's/^guid: //p' "$pkg/Runtime/SinewClothPreset.cs.meta")
if [ -f "$out/EditorLogicTests.exe" ]; then
    program "csharp-program editor" env LD_LIBRARY_PATH="${CARGO_TARGET_DIR:-$root/target}/debug" \
        mono --debug "$out/EditorLogicTests.exe" "$out/pictures" "$out/presets" "$preset_guid"
fi
# The recorder baked to an AnimationClip: the stubs' AnimationUtility keeps the curves set.
step "the clip-bake tests compile (tests/csharp/ClipBakeTests.cs, against Sinew.Editor and the stubs)" \
    mcs "${mcs_flags[@]}" -unsafe -r:"$out/UnityEngine.dll" -r:"$out/UnityEditor.dll" -r:"$out/Sinew.Runtime.dll" \
        -r:"$out/Sinew.Editor.dll" -r:System.Core.dll -out:"$out/ClipBakeTests.exe" tests/csharp/Check.cs tests/csharp/ClipBakeTests.cs
if [ -f "$out/ClipBakeTests.exe" ]; then
    program "csharp-program clip" env LD_LIBRARY_PATH="${CARGO_TARGET_DIR:-$root/target}/debug" \
        mono --debug "$out/ClipBakeTests.exe"
fi
for picture in unity-paint.png unity-gizmos.png; do
    step "docs/$picture is the picture the tests draw (else: cp $out/pictures/$picture docs/)" \
        cmp "$out/pictures/$picture" "docs/$picture"
done
# The shipped presets are the built-in table, written as Unity assets (else: cp $out/presets/*.asset $pkg/Presets/).
step "$pkg/Presets/ holds exactly the built-in presets as assets" \
    diff <(cd "$out/presets" && ls) <(cd "$pkg/Presets" && ls | grep -v '\.meta$')
for asset in "$out"/presets/*.asset; do
    step "Presets/$(basename "$asset") is the built-in preset's values" cmp "$asset" "$pkg/Presets/$(basename "$asset")"
done

# ---- the project's files ----
step "scripts/package-unity.sh --wrapper-only copies bindings/csharp into the package" \
    bash scripts/package-unity.sh --wrapper-only
program project python3 tests/unity-stub/check_project.py "$root"

echo "unity: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
