#!/usr/bin/env bash
# Sinew under the sanitizers (nightly toolchain):
#
#   asan-c        libsinew built with -Zsanitizer=address, the C and C++ clients of
#                 tests/c and tests/cpp built with gcc -fsanitize=address against it, run
#                 (LeakSanitizer at exit); also the dlopen/dlclose host (tests/c/unload.c,
#                 memory errors only)
#   asan-async    the Rust tests that step asynchronously (step_begin/step_end on worker
#                 threads) and across thread counts, under AddressSanitizer
#   tsan-c        libsinew and the standard library built with -Zsanitizer=thread
#                 (-Zbuild-std, needs the rust-src component), the C clients that step
#                 asynchronously built with gcc -fsanitize=thread (and tests/c/tsan_shim.c)
#   tsan-async    the same Rust tests under ThreadSanitizer
#   miri          the kernels' unit tests under Miri (scalar paths: Miri runs no AVX), and the
#                 SoA layout's raw-pointer views
#
#   bash scripts/sanitize.sh [part ...]        (default: every part)
#
# Installs what is missing (nightly, with rust-src for the tsan parts and miri for miri; gcc,
# g++). Every part takes 15-30 minutes on a 2-core machine (two instrumented builds of the
# standard library); scripts/test.sh runs the short set asan-c asan-async, with
# the random-call test at SINEW_RANDOM_CALL_ROUNDS=800 of its 4000 rounds; this script with no
# argument runs everything, the random calls whole. Build outputs and logs go to
# ${CARGO_TARGET_DIR:-target}/sanitize/. Ends with "sanitize: N passed, M failed" and exits
# non-zero when a part found something or could not run.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(asan-c asan-async tsan-c tsan-async miri)
base="${CARGO_TARGET_DIR:-target}/sanitize"
mkdir -p "$base"
triple=x86_64-unknown-linux-gnu
export RUST_BACKTRACE=0
# The deliberate-panic tests unwind through the boundary; a sanitizer must not call that an error.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"

# The Rust tests that step asynchronously or on several threads.
async_tests=(--test ffi_contract --test regression_stale_handle_in_busy_world --test determinism --test ragdoll_determinism --test ffi_random_calls)
# What test-c.sh runs, with the same arguments.
clients=("client" "character" "ragdoll errors" "ragdoll physics" "softbody errors" "softbody physics" "softbody meshes")

passed=0
failed=0
failures=()
result() {
    if [ "$2" -eq 0 ]; then
        echo "==== $1: passed$(took $part_start)"
        passed=$((passed + 1))
    else
        echo "==== $1: FAILED"
        failed=$((failed + 1))
        failures+=("$1")
    fi
}

# ---- tools --------------------------------------------------------------------------------
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    rustup toolchain install nightly --profile minimal || { echo "no nightly toolchain"; exit 1; }
fi
# Only what the parts asked for need: rust-src for ThreadSanitizer's -Zbuild-std, miri for Miri.
components=()
[[ " ${parts[*]} " == *" tsan-"* ]] && components+=(rust-src)
[[ " ${parts[*]} " == *" miri "* ]] && components+=(miri)
for c in "${components[@]}"; do
    rustup component list --toolchain nightly --installed 2>/dev/null | grep -q "^$c" || rustup component add "$c" --toolchain nightly
done
source scripts/lib.sh
missing=()
command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
install_missing "${missing[@]}"

# A sanitizer that reported something leaves "ERROR: AddressSanitizer", "ERROR:
# LeakSanitizer" or "WARNING: ThreadSanitizer" in the log; the exit status alone is not
# enough (a report in a worker thread after the last check still exits 0 with halt_on_error
# off in some paths).
clean_log() {
    ! grep -E "ERROR: (Address|Leak)Sanitizer|WARNING: ThreadSanitizer|SUMMARY: (Address|Leak|Thread)Sanitizer" "$1"
}

# The library, instrumented: $1 = address | thread.
build_lib() {
    local san=$1 dir="$base/$1" extra=()
    [ "$san" = thread ] && extra=(-Zbuild-std)
    echo "building libsinew with -Zsanitizer=$san ${extra[*]}"
    RUSTFLAGS="-Zsanitizer=$san" cargo +nightly build "${extra[@]}" --features debug-panic --target "$triple" --target-dir "$dir" \
        >"$base/build-$san.log" 2>&1 || { tail -n 20 "$base/build-$san.log"; return 1; }
    # The library calls the sanitizer's checks: it really is instrumented.
    local hook=__asan_report_load
    [ "$san" = thread ] && hook=__tsan_read
    local hooks
    hooks=$(nm -D "$dir/$triple/debug/libsinew.so" | grep -c " U $hook")
    [ "$hooks" -gt 0 ] || { echo "libsinew.so is not instrumented ($hook missing)"; return 1; }
    echo "libsinew.so is instrumented: it imports $hooks ${hook}* hooks"
}

# The C/C++ clients against an instrumented library: $1 = address | thread, then clients.
run_clients() {
    local san=$1 lib="$base/$1/$triple/debug" out="$base/$1-clients" rc=0
    shift
    mkdir -p "$out"
    for spec in "$@"; do
        set -- $spec
        local name=$1 src=tests/c/$1.c
        shift
        local shim=()
        [ "$san" = thread ] && shim=(tests/c/tsan_shim.c -rdynamic)
        gcc -std=c99 -Wall -Wextra -Werror -pedantic -g -fsanitize="$san" -Iinclude -DSINEW_DEBUG_PANIC "$src" "${shim[@]}" -o "$out/$name" -L"$lib" -lsinew -lm \
            || { echo "FAIL compile $name"; rc=1; continue; }
        local log="$out/$name${1:+-$1}.log"
        if LD_LIBRARY_PATH="$lib" "$out/$name" "$@" >"$log" 2>&1 && clean_log "$log" >/dev/null; then
            echo "ok   $name $* ($(tail -n 1 "$log"))"
        else
            echo "FAIL $name $* (log: $log)"
            grep -E "Sanitizer|SUMMARY|FAIL" "$log" | head -n 8 | sed 's/^/     /'
            rc=1
        fi
    done
    return $rc
}

for part in "${parts[@]}"; do
    echo
    echo "==== $part"
    part_start=$SECONDS
    case $part in
    asan-c)
        rc=0
        build_lib address || rc=1
        if [ $rc -eq 0 ]; then
            run_clients address "${clients[@]}" || rc=1
            # The C++ client, and the unload host (which dlopens the instrumented library). The
            # unload host runs without LeakSanitizer: the leaks of a copy of the library that
            # was unmapped have no symbols left to name them by, so the per-load statics of
            # crossbeam-epoch cannot be told apart; valgrind (scripts/test-c.sh) checks its
            # leaks with tests/c/unload.supp.
            lib="$base/address/$triple/debug"
            out="$base/address-clients"
            if g++ -std=c++17 -Wall -Wextra -Werror -pedantic -g -fsanitize=address -Iinclude -DSINEW_DEBUG_PANIC tests/cpp/client.cpp -o "$out/cpp_client" -L"$lib" -lsinew \
                && LD_LIBRARY_PATH="$lib" "$out/cpp_client" >"$out/cpp_client.log" 2>&1 && clean_log "$out/cpp_client.log" >/dev/null; then
                echo "ok   cpp_client ($(tail -n 1 "$out/cpp_client.log"))"
            else
                echo "FAIL cpp_client (log: $out/cpp_client.log)"
                rc=1
            fi
            if gcc -std=c99 -Wall -Wextra -Werror -pedantic -g -pthread -fsanitize=address -Iinclude tests/c/unload.c -o "$out/unload" -ldl -lm \
                && ASAN_OPTIONS="detect_leaks=0:halt_on_error=1" "$out/unload" "$lib/libsinew.so" 20 >"$out/unload.log" 2>&1 \
                && clean_log "$out/unload.log" >/dev/null; then
                echo "ok   unload, 20 rounds ($(tail -n 1 "$out/unload.log"))"
            else
                echo "FAIL unload (log: $out/unload.log)"
                grep -E "Sanitizer|SUMMARY|FAIL" "$out/unload.log" | head -n 8 | sed 's/^/     /'
                rc=1
            fi
        fi
        result asan-c $rc
        ;;
    asan-async | tsan-async)
        san=address
        extra=()
        if [ "$part" = tsan-async ]; then
            san=thread
            extra=(-Zbuild-std)
        fi
        log="$base/$part.log"
        RUSTFLAGS="-Zsanitizer=$san" cargo +nightly test "${extra[@]}" --features debug-panic --target "$triple" --target-dir "$base/$san" "${async_tests[@]}" >"$log" 2>&1
        rc=$?
        grep -E "^test result|Running" "$log" | sed 's/^/     /'
        clean_log "$log" >/dev/null || rc=1
        [ $rc -eq 0 ] || grep -E "Sanitizer|SUMMARY|panicked|FAILED" "$log" | head -n 10 | sed 's/^/     /'
        result "$part" $rc
        ;;
    tsan-c)
        rc=0
        build_lib thread || rc=1
        [ $rc -eq 0 ] && { run_clients thread "client" "ragdoll physics" "softbody physics" || rc=1; }
        result tsan-c $rc
        ;;
    miri)
        # Miri interprets the kernels' unit tests and checks every unsafe access (aliasing,
        # bounds, alignment, uninitialised reads). It runs the scalar paths: the AVX kernels
        # detect that the CPU (Miri's) has no AVX and fall back, as on such a machine. Tree
        # Borrows: under Stacked Borrows crossbeam-epoch 0.9.21 (rayon's deques; the bands
        # tests start a pool) is reported at its internal.rs:567, in a dependency, before
        # any of Sinew's code is reached (docs/reliability.md). MIRI_FILTER narrows the tests
        # (default: the kernels, the SoA layout and bands, the grid kernel's equality tests).
        log="$base/miri.log"
        # Leaks at exit are ignored: the bands tests leave rayon's pool and crossbeam-epoch's
        # statics behind, as every rayon program does.
        MIRIFLAGS="-Zmiri-disable-isolation -Zmiri-tree-borrows -Zmiri-ignore-leaks" cargo +nightly miri test --lib --target-dir "$base/miri" -- ${MIRI_FILTER:-solver:: cloth::kernel_tests} >"$log" 2>&1
        rc=$?
        grep -E "^test result|Undefined Behavior|error:" "$log" | head -n 10 | sed 's/^/     /'
        result miri $rc
        ;;
    *)
        echo "unknown part $part (asan-c asan-async tsan-c tsan-async miri)"
        result "$part" 1
        ;;
    esac
done

echo
[ "$failed" -eq 0 ] || echo "failed parts: ${failures[*]}"
echo "sanitize: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
