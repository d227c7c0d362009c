#!/usr/bin/env bash
# Checks the layering of src/ (see README "Architecture"): every `crate::<module>` reference
# in a module must point to a module of a lower layer (or to itself), which also proves there
# is no import circle between modules. The same rule holds between the kernel modules inside
# src/solver/. Exits non-zero and names each offending line.
#
#   bash scripts/check-layers.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python3 - <<'PY'
import os, re, sys

# Layers, lowest first. A module may use any module of a lower layer, never a higher one,
# and none of its own layer but itself.
LAYERS = [
    ["math", "error"],
    ["geometry"],
    ["solver"],
    ["state"],
    ["collider", "wind"],
    ["step"],
    ["particles", "ragdoll"],
    ["cloth", "rope", "strands"],
    ["softbody"],
    ["world"],
    ["ffi"],
]
# Inside src/solver/: the kernels' own order.
SOLVER = [
    ["xpbd", "integrate", "velocity", "aero"],
    ["contact"],
    ["layout"],
    ["constraints"],
    ["rigid"],
]

def rank(table, name):
    for i, layer in enumerate(table):
        if name in layer:
            return i
    return None

bad = []
ref = re.compile(r"\bcrate::([a-z_]+)(?:::([a-z_]+))?")
for root, _, files in os.walk("src"):
    for f in files:
        if not f.endswith(".rs"):
            continue
        path = os.path.join(root, f)
        parts = os.path.relpath(path, "src").split(os.sep)
        top = parts[0][:-3] if len(parts) == 1 else parts[0]
        if top == "lib":
            continue
        sub = None
        if top == "solver" and len(parts) > 1:
            sub = parts[1][:-3] if len(parts) == 2 else parts[1]
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            code = line.split("//")[0]
            for m in ref.finditer(code):
                target, tsub = m.group(1), m.group(2)
                if rank(LAYERS, top) is None or rank(LAYERS, target) is None:
                    bad.append(f"{path}:{n}: module '{top}' or '{target}' is not in the layer table")
                    continue
                if target == top:
                    if top == "solver" and sub and tsub and sub != tsub and sub != "mod":
                        rs, rt = rank(SOLVER, sub), rank(SOLVER, tsub)
                        if rs is None or rt is None:
                            bad.append(f"{path}:{n}: solver module '{sub}' or '{tsub}' is not in the solver table")
                        elif rt >= rs:
                            bad.append(f"{path}:{n}: solver/{sub} uses solver/{tsub} (same or higher layer): {line.strip()}")
                    continue
                if rank(LAYERS, target) >= rank(LAYERS, top):
                    bad.append(f"{path}:{n}: {top} uses {target} (same or higher layer): {line.strip()}")
if bad:
    print("layering violations:")
    print("\n".join(bad))
    sys.exit(1)
print("layers: every crate:: reference in src/ points down (no circles)")
PY
# The two rules the README states, as plain greps (the table above implies them).
if grep -rnE "crate::(cloth|world|collider|skin|wind|particles|ragdoll|rope|strands|ffi)\b" src/solver; then
    echo "src/solver/ must not use object kinds, the world or the ABI" >&2; exit 1
fi
if grep -rn "crate::ffi" src --include=*.rs | grep -v "^src/ffi/"; then
    echo "crate::ffi is used outside src/ffi/" >&2; exit 1
fi
if grep -rlnE '^[^/]*extern "C"' src --include=*.rs | grep -v "^src/ffi/"; then
    echo 'extern "C" outside src/ffi/' >&2; exit 1
fi
# Validation lives in the core, once (issue 30): src/ffi converts and calls. It calls none of
# the core's range checks itself and compares no value with a float limit of its own (a limit
# there would be a second range, which drifted from the core's before).
if grep -rnE 'check_(within|unit|magnitude|length|non_negative|positive)\(|[<>]=? *-?[0-9.]+e-?[0-9]+|[<>]=? *-?[0-9]+\.[0-9]+\b|-?[0-9.]+f32?\.\.=?|\(-?[0-9.]+(e-?[0-9]+)?\.\.=?-?[0-9.]+(e-?[0-9]+)?\)\.contains' src/ffi --include=*.rs | grep -vE '^[^:]+:[0-9]+: *//'; then
    echo "src/ffi range-checks a value itself: call the core, which checks it once (src/error.rs and the core's validate)" >&2; exit 1
fi
echo "greps: no object kinds in src/solver/, no crate::ffi or extern \"C\" outside src/ffi/, no range checks in src/ffi/"
