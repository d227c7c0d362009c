#!/usr/bin/env bash
# Coverage-guided fuzzing of Sinew with libFuzzer (cargo-fuzz, nightly toolchain): runs every
# target of fuzz/ (or the ones named) for as long as asked, starting from the committed
# corpus fuzz/corpus/<target>/, and prints each target's executions, coverage (libFuzzer's
# cov: edges and ft: features) and crashes.
#
#   bash scripts/fuzz.sh [seconds per target] [target ...]     (default 60 s, every target)
#   bash scripts/fuzz.sh --runs N [target ...]                 (N executions per target)
#   bash scripts/fuzz.sh --merge [target ...]                  (minimise the work corpus into
#                                                               fuzz/corpus/<target>/)
#
# Environment:
#   FUZZ_WORK        where new corpus entries, crashes and logs go (default
#                    ${CARGO_TARGET_DIR:-target}/fuzz-work); the committed corpus is only read
#   FUZZ_TARGET_DIR  cargo's target dir for the instrumented build (default
#                    ${CARGO_TARGET_DIR:-target}/fuzz-nightly)
#   FUZZ_SANITIZER   none (default: the fastest; scripts/sanitize.sh runs AddressSanitizer on
#                    the C clients and the async step) or address
#   FUZZ_TRACE_COMPARES  1: instrument comparisons too (cargo fuzz's default). Off here: the
#                    physics' inner loops are full of index comparisons, and tracing them took
#                    37 % of abi_calls' time; side by side from the same corpus, 30 s each on
#                    one core (2026-12-02), abi_calls ran 1,805 executions per CPU second
#                    without it against 928 with it, descriptors 1,462 against 951, and both
#                    reached more coverage in the same time without it (abi_calls cov 12,312 /
#                    ft 52,298 against 12,202 / 50,039; descriptors 6,757 / 27,935 against
#                    6,692 / 26,625). The inputs are decoded by `Gen` (fuzz/src/input.rs) into
#                    bounded choices, so comparison-guided mutation has little to find that
#                    coverage does not.
#
# Installs what is missing: the nightly toolchain (rustup) and cargo-fuzz (cargo install,
# about 70 s here). The instrumented build of the library takes 4-7 minutes on a 2-core
# machine, so the test command (scripts/test.sh) does not run this: it replays the committed
# corpus on stable instead (cargo test --manifest-path fuzz/Cargo.toml).
#
# A crash leaves its input in $FUZZ_WORK/artifacts/<target>/; replay it on stable with
#   SINEW_FUZZ_TRACE=1 SINEW_FUZZ_INPUT=<file> cargo test --manifest-path fuzz/Cargo.toml
# (the file's path must name the target). Ends with "fuzz: N passed, M failed" (one per
# target) and exits non-zero when a target crashed.
#
# Each run prints its executions, libFuzzer's executions per second (wall clock), the CPU time
# the target used and executions per CPU second (the rate on one core whatever else runs), and
# the load average before and after: the machine is shared.
#
# A hang is a finding: an input taking over 1 s of CPU time panics in the harness
# (sinew_fuzz::fuzz_one), a crash-* input in $FUZZ_WORK/artifacts/<target>/. libFuzzer's own
# -timeout (wall clock) is 10 s, for an input that blocks without using CPU: at -timeout=1,
# with load 9-12 on the 2 cores, inputs of 4-50 ms (alone) ran past 1 s waiting for their
# world's worker thread to be scheduled. The harnesses bound every input's work (sizes,
# substeps, steps: see fuzz/src/), so that one runs in milliseconds. Entropic scheduling is off
# (-entropic=0): with these targets' features per input its rare-feature bookkeeping took 40 %
# of the run; abi_calls ran 793 instead of 546 executions per CPU second without it, and
# reached more coverage in the same 30 s.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=time
seconds=60
runs=0
if [ "${1:-}" = "--runs" ]; then
    mode=runs
    runs=${2:?--runs needs a count}
    shift 2
elif [ "${1:-}" = "--merge" ]; then
    mode=merge
    shift
elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi
all=(abi_calls cook_mesh cook_soft descriptors)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

base="${CARGO_TARGET_DIR:-target}"
work="${FUZZ_WORK:-$base/fuzz-work}"
tdir="${FUZZ_TARGET_DIR:-$base/fuzz-nightly}"
sanitizer="${FUZZ_SANITIZER:-none}"
compares=(--no-trace-compares)
[ "${FUZZ_TRACE_COMPARES:-0}" = 1 ] && compares=()
export RUST_BACKTRACE=0

# ---- tools -------------------------------------------------------------------------------
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "installing the nightly toolchain (cargo-fuzz needs it)"
    rustup toolchain install nightly --profile minimal || { echo "could not install nightly"; exit 1; }
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
    start=$SECONDS
    cargo install cargo-fuzz --locked || { echo "could not install cargo-fuzz"; exit 1; }
    echo "installed cargo-fuzz in $((SECONDS - start)) s"
fi

# ---- build ---------------------------------------------------------------------------------
# Release with debug assertions and overflow checks (-a), like the dev profile CI tests.
start=$SECONDS
echo "building the fuzz targets (sanitizer: $sanitizer, ${compares[*]:-tracing comparisons}) into $tdir"
if ! cargo +nightly fuzz build -O -a -s "$sanitizer" "${compares[@]}" --features libfuzzer --target-dir "$tdir" >"$base/fuzz-build.log" 2>&1; then
    tail -n 30 "$base/fuzz-build.log"
    echo "fuzz: 0 passed, ${#targets[@]} failed"
    exit 1
fi
echo "built in $((SECONDS - start)) s"
bin="$tdir/x86_64-unknown-linux-gnu/release"

passed=0
failed=0
for t in "${targets[@]}"; do
    corpus="fuzz/corpus/$t"
    mkdir -p "$work/corpus/$t" "$work/artifacts/$t" "$work/logs"
    log="$work/logs/$t.log"
    if [ "$mode" = merge ]; then
        # The committed corpus, minimised together with everything the fuzzer kept since.
        fresh="$work/merged/$t"
        rm -rf "$fresh"
        mkdir -p "$fresh"
        log="$work/logs/$t-merge.log"
        # Edges only (-use_counters=0): a set cover of every edge reached, a third of the
        # inputs the hit-count features keep (abi_calls: 1,030 inputs against 3,293).
        "$bin/$t" -merge=1 -use_counters=0 "$fresh" "$corpus" "$work/corpus/$t" >"$log" 2>&1 || { tail -n 20 "$log"; failed=$((failed + 1)); continue; }
        # Regression inputs keep their names (the regression tests cite them).
        find "$corpus" -type f ! -name 'regression-*' -delete
        for f in "$fresh"/*; do
            cp "$f" "$corpus/"
        done
        echo "$t: corpus merged into $(find "$corpus" -type f | wc -l) inputs, $(du -sk "$corpus" | cut -f1) KB"
        passed=$((passed + 1))
        continue
    fi
    limit=(-max_total_time="$seconds")
    [ "$mode" = runs ] && limit=(-runs="$runs")
    start=$SECONDS
    load0=$(cut -d' ' -f1 /proc/loadavg)
    TIMEFORMAT='%U %S'
    { time "$bin/$t" "$work/corpus/$t" "$corpus" "${limit[@]}" -max_len=4096 -timeout=10 -rss_limit_mb=3072 \
        -entropic=0 -artifact_prefix="$work/artifacts/$t/" -print_final_stats=1 >"$log" 2>&1; } 2>"$work/logs/$t.cpu"
    rc=$?
    load1=$(cut -d' ' -f1 /proc/loadavg)
    cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$work/logs/$t.cpu")
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1)
    per_cpu=$(awk -v n="${execs:-0}" -v c="$cpu" 'BEGIN { if (c > 0) printf "%d", n / c; else print "?" }')
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*')
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*')
    if [ $rc -eq 0 ]; then
        echo "ok   $t: ${execs:-?} executions in $((SECONDS - start)) s (${rate:-?}/s; ${cpu} CPU s, $per_cpu per CPU s; load $load0 → $load1), cov ${cov:-?}, ft ${ft:-?}"
        passed=$((passed + 1))
    else
        echo "FAIL $t: crashed after ${execs:-?} executions (log: $log)"
        grep -E 'panicked at|^[a-z_ ]+:.*(not finite|changed world|refused|wrote)|ALARM|SUMMARY|Test unit written' "$log" | head -n 6 | sed 's/^/     /'
        failed=$((failed + 1))
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
