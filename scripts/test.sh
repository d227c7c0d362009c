#!/usr/bin/env bash
# Sinew's whole test suite: what CI runs (.ci/run calls this and nothing else).
#
#   bash scripts/test.sh
#
# Each part installs what it needs when it is missing (apt packages, rustup targets):
#   1. cargo test            unit and integration tests: physics against analytic answers,
#                            the C ABI contract on bad input, determinism
#      cargo test -p xtask --features generate
#                            header drift: include/sinew.h, bindings/csharp/NativeMethods.g.cs and
#                            Properties.g.cs must equal a fresh generation from src/ffi; xtask's
#                            own tests (install refuses to start without patchelf and leaves the
#                            prefix as it was; the staged install's rollback); the feature also
#                            compiles the `generate` command itself
#   2. scripts/test-c.sh     C and C++ clients against the committed header, under valgrind
#   3. scripts/test-csharp.sh  the C# wrapper compiled with mcs and run on Mono
#      scripts/test-unity.sh   the Unity package's scripts compiled against the UnityEngine
#                            stub, package layout and .meta files checked
#      scripts/test-unity-package.sh  xtask package: the UPM tarball unpacked into a fresh
#                            project (package.json, GUIDs, plugins, import settings) and the
#                            C/C++ archives
#   4. scripts/check-windows-dll.sh  sinew.dll built with mingw, its exports and imports checked
#      scripts/test-wine.sh  the C and C++ clients built with MinGW and run under Wine
#                            against sinew.dll (release, and debug-panic for the panic guard)
#      scripts/test-package.sh  the C/C++ package (xtask install): SONAME, stripped library
#                            and debug file, static linking without Rust, pkg-config, the
#                            math helpers, examples/cmake built with find_package and
#                            add_subdirectory, shared and static; a failed install leaves no
#                            prefix behind and an existing one unchanged
#   5. the bench example, a few steps of every scene (a smoke run; speed is never asserted)
#   6. reliability (docs/reliability.md): the fuzz harnesses replay every committed corpus
#      and regression input on stable (cargo test --manifest-path fuzz/Cargo.toml; the
#      libFuzzer runs themselves are scripts/fuzz.sh, outside this command's time budget), a
#      2,000-step soak of every object kind (examples/soak.rs: flat memory, no NaN, no
#      rest-shape drift), and the sanitizers' short set (nightly): the C and C++ clients and
#      the dlopen/dlclose host under AddressSanitizer, the async-step and thread-count Rust
#      tests under AddressSanitizer (scripts/sanitize.sh asan-c asan-async, beside the other
#      parts; with no argument it adds ThreadSanitizer on the asynchronous C clients and the
#      Rust tests, and Miri). The dlopen/dlclose host runs in scripts/test-c.sh.
# Ends with "suites: N passed, M failed" and exits non-zero when any part failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# A deliberate-panic test would otherwise print a backtrace.
export RUST_BACKTRACE=0
# Debug builds keep line tables only (file and line in backtraces and valgrind's reports, no
# variable locations): the 70-odd test programs link in a fraction of the time full debug
# information takes (36 MB each with it). Every part shares the setting, so they share builds.
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-line-tables-only}"
export CARGO_TERM_COLOR=never

if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo is missing: install Rust with rustup (https://rustup.rs), then run this again." >&2
    exit 1
fi

passed=0
failed=0
failures=()

part() {
    local name=$1
    shift
    echo
    echo "==== $name: $*"
    local start=$SECONDS
    if "$@"; then
        echo "==== $name: passed ($((SECONDS - start)) s)"
        passed=$((passed + 1))
    else
        echo "==== $name: FAILED ($((SECONDS - start)) s)"
        failed=$((failed + 1))
        failures+=("$name")
    fi
}

# The short sanitizer set runs beside the other parts, from the start: it builds into its own
# target directory (target/sanitize, nightly), and the parts below leave a core idle for much
# of their time (valgrind, Wine, Mono and most test programs run on one thread). Its output
# is printed, and its result counted, at the end. The random-call test runs at 800 of its 4000
# rounds under ASan and at 1500 in cargo-test (the whole 4000 in a plain `cargo test` and under
# every sanitizer in `bash scripts/sanitize.sh`, the deep run). ThreadSanitizer (tsan-c, with
# std rebuilt instrumented: about 3 minutes of two cores) is in the deep run only.
mkdir -p "${CARGO_TARGET_DIR:-target}"
sanitizer_log="${CARGO_TARGET_DIR:-target}/sanitizers-part.log"
sanitizer_start=$SECONDS
env SINEW_RANDOM_CALL_ROUNDS=800 bash scripts/sanitize.sh asan-c asan-async >"$sanitizer_log" 2>&1 &
sanitizer_pid=$!
sanitizers() {
    local rc=0
    wait "$sanitizer_pid" || rc=$?
    cat "$sanitizer_log"
    echo "(the sanitizer part ran beside the others for $((SECONDS - sanitizer_start)) s)"
    return "$rc"
}

part cargo-test env SINEW_RANDOM_CALL_ROUNDS=1500 cargo test --all-targets --no-fail-fast --features debug-panic
part generated-files cargo test -p xtask --features generate
part layers bash scripts/check-layers.sh
part c-clients bash scripts/test-c.sh
part csharp bash scripts/test-csharp.sh
part unity bash scripts/test-unity.sh
part unity-package bash scripts/test-unity-package.sh
part windows-dll bash scripts/check-windows-dll.sh
part wine bash scripts/test-wine.sh
part package bash scripts/test-package.sh
part bench-smoke cargo run --release --example bench -- --steps 5
# The root's target dir: the replay then reuses the library cargo-test built (same features).
part fuzz-replay cargo test --manifest-path fuzz/Cargo.toml --target-dir "${CARGO_TARGET_DIR:-target}"
part soak-smoke cargo run --release --example soak -- --steps 2000
part sanitizers sanitizers

echo
[ "$failed" -eq 0 ] || echo "failed parts: ${failures[*]}"
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
