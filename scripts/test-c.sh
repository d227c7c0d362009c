#!/usr/bin/env bash
# The C and C++ clients of the C ABI: builds libsinew (debug), compiles tests/c/*.c as
# strict C99 against the committed include/sinew.h (client.c: the core API; character.c:
# skinning, tethers, root, wind, LOD, tearing, generators, kernels; include_twice.c: the
# header's guards; recording.c and tests/cpp/recording.cpp (sinew::RagdollRecording): a
# ragdoll's recorded poses saved, loaded and replayed onto another ragdoll bit for bit, the two
# programs' files of the same scene byte for byte the same; ragdoll.c (and tests/cpp/ragdoll.cpp through sinew::Ragdoll): every ragdoll call, its error paths ("errors") and its physics; examples/ragdoll_chapter.c: the chapter's sections 1–4 as one program
# ("physics", which needs the rigid-body core); examples/ragdoll_getup.c: a powered ragdoll
# walking, knocked down, getting up (section 5); softbody.c (and tests/cpp/softbody.cpp through
# World::create_soft_*): every soft-body call, its error paths ("errors") and a jelly and a
# tet cube resting on a plane with their volume ("physics")) and tests/cpp/client.cpp as strict C++17
# against include/sinew.hpp, runs them, then runs the clients under valgrind (0 errors,
# 0 bytes lost of any kind: definitely, indirectly or possibly; the ragdoll and soft-body physics runs, which the
# suite's AddressSanitizer part also runs, only with SINEW_VALGRIND=all), and tests/c/unload.c: 200 rounds of dlopen, worlds
# of one and two worker threads with every object kind, dlclose (threads joined, the library
# really unmapped), then 10 rounds under valgrind (with tests/c/unload.supp: the per-load
# statics of crossbeam-epoch, docs/reliability.md "Unload"). The library is built with the cargo feature
# debug-panic and the clients with -DSINEW_DEBUG_PANIC, so their panic-guard checks run (a
# client built so cannot link against a library without the feature). Build outputs and
# logs go to target/c-tests/.
#
#   bash scripts/test-c.sh        (from the repository root)
#
# Ends with "c-clients: N passed, M failed"; exits non-zero when M > 0.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=target/c-tests
lib_dir="${CARGO_TARGET_DIR:-target}/debug"
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -g -Iinclude -DSINEW_DEBUG_PANIC)
cxxflags=(-std=c++17 -Wall -Wextra -Werror -pedantic -g -Iinclude -DSINEW_DEBUG_PANIC)
ldflags=(-L"$lib_dir" -lsinew)

# The deliberate-panic check would otherwise print a backtrace.
export RUST_BACKTRACE=0
export LD_LIBRARY_PATH="$lib_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# check and summary: scripts/lib.sh.
source scripts/lib.sh

# ---- tools: install only what is missing ---------------------------------------------
missing=()
command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
# gcc only recommends the C library headers, which --no-install-recommends leaves out.
if command -v gcc >/dev/null 2>&1 && ! printf '#include <stdio.h>\n' | gcc -x c -E - >/dev/null 2>&1; then
    missing+=(libc6-dev)
fi
install_missing "${missing[@]}"
command -v cargo >/dev/null 2>&1 || { echo "cargo not found: install a Rust toolchain (rustup)"; exit 1; }

# ---- the library -----------------------------------------------------------------------
mkdir -p "$out"
build_start=$SECONDS
if ! cargo build --features debug-panic >"$out/cargo-build.log" 2>&1; then
    echo "FAIL cargo build (log: $out/cargo-build.log)"
    tail -n 25 "$out/cargo-build.log" | sed 's/^/    /'
    failed=$((failed + 1))
    summary c-clients
    exit 1
fi
echo "built $lib_dir/libsinew.so (feature debug-panic)$(took $build_start)"

# The clients compile against the committed header; if src/ffi has changed without
# regenerating it, the structs they pass no longer match the library's (xtask says how to
# regenerate it).
check header-matches-src cargo run -q -p xtask --features generate -- check include/sinew.h

# ---- compile -------------------------------------------------------------------------
check_async compile-c-client gcc "${cflags[@]}" tests/c/client.c -o "$out/client" "${ldflags[@]}" -lm
check_async compile-c-character gcc "${cflags[@]}" tests/c/character.c -o "$out/character" "${ldflags[@]}" -lm
check_async compile-c-ragdoll gcc "${cflags[@]}" tests/c/ragdoll.c -o "$out/ragdoll" "${ldflags[@]}" -lm
check_async compile-c-ragdoll-chapter gcc "${cflags[@]}" examples/ragdoll_chapter.c -o "$out/ragdoll_chapter" "${ldflags[@]}" -lm
check_async compile-c-ragdoll-getup gcc "${cflags[@]}" examples/ragdoll_getup.c -o "$out/ragdoll_getup" "${ldflags[@]}" -lm
check_async compile-c-softbody gcc "${cflags[@]}" tests/c/softbody.c -o "$out/softbody" "${ldflags[@]}" -lm
check_async compile-c-recording gcc "${cflags[@]}" tests/c/recording.c -o "$out/recording" "${ldflags[@]}" -lm
check_async compile-c-snapshot gcc "${cflags[@]}" tests/c/snapshot.c -o "$out/snapshot" "${ldflags[@]}" -lm
# -Wpadded: no struct of the header has padding, so every byte the library writes is defined
# (a client may memcmp what it reads back).
check_async compile-c-include-twice gcc "${cflags[@]}" -Wpadded tests/c/include_twice.c -o "$out/include_twice" "${ldflags[@]}"
# The header without SINEW_DEBUG_PANIC (a release user's build) declares no panic trigger.
check_async header-without-debug-panic bash -c "gcc -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only tests/c/include_twice.c \
    && ! gcc -std=c99 -Iinclude -E -P include/sinew.h | grep -q sinew_debug_trigger_panic"
check_async compile-cpp-client g++ "${cxxflags[@]}" tests/cpp/client.cpp -o "$out/cpp_client" "${ldflags[@]}"
check_async compile-cpp-ragdoll g++ "${cxxflags[@]}" tests/cpp/ragdoll.cpp -o "$out/cpp_ragdoll" "${ldflags[@]}"
check_async compile-cpp-softbody g++ "${cxxflags[@]}" tests/cpp/softbody.cpp -o "$out/cpp_softbody" "${ldflags[@]}"
# Not linked to libsinew: it dlopens it.
check_async compile-c-unload gcc "${cflags[@]}" -pthread tests/c/unload.c -o "$out/unload" -ldl -lm
check_async compile-cpp-recording g++ "${cxxflags[@]}" tests/cpp/recording.cpp -o "$out/cpp_recording" "${ldflags[@]}"
check_async compile-cpp-snapshot g++ "${cxxflags[@]}" tests/cpp/snapshot.cpp -o "$out/cpp_snapshot" "${ldflags[@]}"
# The compilers run two at a time (each on one thread).
check_wait

# ---- run -------------------------------------------------------------------------------
check run-c-client "$out/client"
check run-c-character "$out/character"
check run-c-include-twice "$out/include_twice"
check run-c-ragdoll-errors "$out/ragdoll" errors
check run-c-ragdoll-physics "$out/ragdoll" physics
check run-cpp-client "$out/cpp_client"
check run-c-ragdoll-chapter "$out/ragdoll_chapter"
check run-c-ragdoll-getup "$out/ragdoll_getup"
check run-cpp-ragdoll-errors "$out/cpp_ragdoll" errors
check run-cpp-ragdoll-physics "$out/cpp_ragdoll" physics
check run-c-softbody-errors "$out/softbody" errors
check run-c-softbody-physics "$out/softbody" physics
check run-c-softbody-meshes "$out/softbody" meshes
check run-cpp-softbody-errors "$out/cpp_softbody" errors
check run-cpp-softbody-physics "$out/cpp_softbody" physics
check run-c-unload "$out/unload" "$lib_dir/libsinew.so" 200
check run-c-snapshot "$out/snapshot"
check run-c-recording "$out/recording" write "$out/c_recording.snwr"
check run-cpp-recording "$out/cpp_recording" write "$out/cpp_recording.snwr"
# The same scene recorded from C and from C++ (sinew::RagdollRecording::save): the same bytes.
check recording-c-and-cpp-same-bytes cmp "$out/c_recording.snwr" "$out/cpp_recording.snwr"
check run-cpp-snapshot "$out/cpp_snapshot"
# The panic-guard checks ran (they are compiled only with SINEW_DEBUG_PANIC).
check panic-guard-checked bash -c "grep -q 'ok   SINEW_PANIC *sinew_debug_trigger_panic()' '$out/run-c-client.log' \
    && grep -q 'ok   sinew_debug_trigger_panic() returns SINEW_PANIC' '$out/run-cpp-client.log'"

# ---- valgrind --------------------------------------------------------------------------
# Worker threads are joined on destroy and what they left in crossbeam-epoch is collected
# (src/world/pool.rs), so nothing may be lost at all: definitely, indirectly or possibly.
# VALGRIND_SUPP: a suppressions file for one run (only the unload host has one).
under_valgrind() {
    local name=$1 program=$2 report="$out/$1.valgrind.txt"
    shift 2
    valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
        ${VALGRIND_SUPP:+--suppressions="$VALGRIND_SUPP"} --log-file="$report" "$program" "$@" >"$out/$name.out" 2>&1 || {
        tail -n 5 "$out/$name.out"
        echo "valgrind failed; see $report and $out/$name.out"
        return 1
    }
    grep -E "ERROR SUMMARY|definitely lost:|indirectly lost:|possibly lost:|no leaks are possible" "$report"
    grep -q "ERROR SUMMARY: 0 errors" "$report" || { echo "valgrind reports errors; see $report"; return 1; }
    if grep -E "(definitely|indirectly|possibly) lost: [1-9]" "$report"; then
        echo "memory was leaked; see $report"
        return 1
    fi
}
check_async valgrind-c-client under_valgrind valgrind-c-client "$out/client"
check_async valgrind-c-character under_valgrind valgrind-c-character "$out/character"
check_async valgrind-cpp-client under_valgrind valgrind-cpp-client "$out/cpp_client"
check_async valgrind-c-ragdoll-errors under_valgrind valgrind-c-ragdoll-errors "$out/ragdoll" errors
# The physics runs that the suite's AddressSanitizer part (scripts/sanitize.sh asan-c) also
# runs go under valgrind only in the full run: SINEW_VALGRIND=all.
full=${SINEW_VALGRIND:-short}
[ "$full" = all ] && check_async valgrind-c-ragdoll-physics under_valgrind valgrind-c-ragdoll-physics "$out/ragdoll" physics
check_async valgrind-c-ragdoll-chapter under_valgrind valgrind-c-ragdoll-chapter "$out/ragdoll_chapter"
check_async valgrind-c-ragdoll-getup under_valgrind valgrind-c-ragdoll-getup "$out/ragdoll_getup"
check_async valgrind-cpp-ragdoll-errors under_valgrind valgrind-cpp-ragdoll-errors "$out/cpp_ragdoll" errors
check_async valgrind-c-softbody-errors under_valgrind valgrind-c-softbody-errors "$out/softbody" errors
[ "$full" = all ] && check_async valgrind-c-softbody-physics under_valgrind valgrind-c-softbody-physics "$out/softbody" physics
[ "$full" = all ] && check_async valgrind-c-softbody-meshes under_valgrind valgrind-c-softbody-meshes "$out/softbody" meshes
check_async valgrind-cpp-softbody under_valgrind valgrind-cpp-softbody "$out/cpp_softbody"
VALGRIND_SUPP=tests/c/unload.supp check_async valgrind-c-unload under_valgrind valgrind-c-unload "$out/unload" "$lib_dir/libsinew.so" 10
check_async valgrind-c-recording under_valgrind valgrind-c-recording "$out/recording"
check_async valgrind-cpp-recording under_valgrind valgrind-cpp-recording "$out/cpp_recording"
check_async valgrind-c-snapshot under_valgrind valgrind-c-snapshot "$out/snapshot"
check_async valgrind-cpp-snapshot under_valgrind valgrind-cpp-snapshot "$out/cpp_snapshot"

# ---- the tour (docs/tour.md) ----------------------------------------------------------------
# Every ```c or ```cpp block after an "<!-- example: NAME (extracted by scripts/test-c.sh) -->"
# line of docs/tour.md or README.md, extracted as written, compiled with the strict flags above,
# run (each checks its own physics and exits 1 when a check fails) and run under valgrind
# (each is a short run: 1.5 to 3.5 s of simulated time). The names are listed here, so that a
# renamed or lost marker fails. Then README.md's "A short tour": every code block in it is such
# a program or follows an "<!-- excerpt of NAME in PAGE" line, and every line of an excerpt
# (but blank ones and elisions, "/* ... */" or "// ...", with or without words after the dots)
# is a line of that program.
tour_expected="c-tour c-softbody c-ragdoll c-wind-lod-tearing cpp-tour cpp-softbody cpp-ragdoll cpp-wind-lod-tearing"
tour_pages=(docs/tour.md README.md)
mkdir -p "$out/tour"
# tour_block PAGE NAME: the lines of the code block after NAME's example marker in PAGE.
tour_block() {
    awk -v name="$2" '$0 ~ "^<!-- example: " name " " {on=1; next} on && !body && /^```/ {body=1; next} body && /^```/ {exit} body {print}' "$1"
}
# tour_lang PAGE NAME: that block's language (the fence's word: c, cpp, csharp).
tour_lang() {
    awk -v name="$2" '$0 ~ "^<!-- example: " name " " {on=1; next} on && /^```/ {sub(/^```/, ""); print; exit}' "$1"
}
trim() { sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//'; }
mapfile -t tour < <(sed -nE 's/^<!-- example: ([a-z0-9-]+) \(extracted by scripts\/test-c\.sh\) -->$/\1/p' "${tour_pages[@]}")
check tour-examples-found test "${tour[*]}" = "$tour_expected"
for name in "${tour[@]}"; do
    page=$(grep -lF -- "<!-- example: $name (extracted by scripts/test-c.sh) -->" "${tour_pages[@]}" | head -n 1)
    lang=$(tour_lang "$page" "$name")
    case $lang in
        c) compile=(gcc "${cflags[@]}" -x c) libs=(-lm) ;;
        cpp) compile=(g++ "${cxxflags[@]}" -x c++) libs=() ;;
        *) compile=(false "$page: example $name is a \`\`\`$lang block, not c or cpp") libs=() ;;
    esac
    tour_block "$page" "$name" >"$out/tour/$name.$lang"
    check "compile-tour-$name" "${compile[@]}" "$out/tour/$name.$lang" -o "$out/tour/$name" "${ldflags[@]}" "${libs[@]}"
    check "run-tour-$name" "$out/tour/$name"
    check_async "valgrind-tour-$name" under_valgrind "valgrind-tour-$name" "$out/tour/$name"
done
# The valgrind runs, two at a time (each runs on one thread).
check_wait
readme_excerpts() {
    local section="$out/tour/readme-tour.md" k=0 bad=0 name page line
    # The section, from its heading to the next "## " heading.
    awk '/^## / {on = ($0 == "## A short tour")} on' README.md >"$section"
    [ -s "$section" ] || { echo "README.md has no section \"## A short tour\""; return 1; }
    # Every fence that opens a block follows (blank lines aside) an example or excerpt marker.
    awk '/^```/ && !inside {inside=1; if (last !~ /^<!-- (example: [a-z0-9-]+ |excerpt of [a-z0-9-]+ in [^ ]+ )/) {print "README.md, A short tour: a code block with no example or excerpt marker: " $0; bad=1}; next}
         /^```/ && inside {inside=0; last=$0; next}
         !inside && NF {last=$0}
         END {exit bad}' "$section" || bad=1
    rm -f "$out/tour"/excerpt-*
    awk -v out="$out/tour" '/^<!-- excerpt of / {k++; print $4, $6 > (out "/excerpt-list"); file = out "/excerpt-" k; printf "" > file; on=1; next}
         on && !body && /^```/ {body=1; next}
         body && /^```/ {on=0; body=0; close(file); next}
         body {print > file}' "$section"
    while read -r name page; do
        k=$((k + 1))
        tour_block "$page" "$name" | trim >"$out/tour/program-lines"
        if [ ! -s "$out/tour/program-lines" ]; then
            echo "excerpt $k: $page has no example $name"
            bad=1
            continue
        fi
        while IFS= read -r line; do
            line=$(trim <<<"$line")
            case $line in "" | "/* ..."*"*/" | "// ..."*) continue ;; esac
            grep -qxF -- "$line" "$out/tour/program-lines" || { echo "excerpt $k of $name: not a line of $page's $name: $line"; bad=1; }
        done <"$out/tour/excerpt-$k"
        echo "excerpt $k: $(grep -c . "$out/tour/excerpt-$k") lines of $name ($page)"
    done < <(cat "$out/tour/excerpt-list" 2>/dev/null)
    echo "$k excerpts"
    [ "$k" -eq "$1" ] || { echo "expected $1 excerpts in README.md's tour, found $k"; bad=1; }
    return "$bad"
}
check readme-tour-excerpts readme_excerpts 4

summary c-clients
