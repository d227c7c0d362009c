#!/usr/bin/env bash
# The library as a C/C++ package, as a host project gets it. Installs it with
# `cargo run -p xtask -- install --prefix target/package/prefix` (release, stripped) and checks:
#   - Linux hygiene: the SONAME libsinew.so.0.1 (readelf -d), the links libsinew.so ->
#     libsinew.so.0.1 -> libsinew.so.0.1.0, no debug sections in the library and all of them in
#     libsinew.so.0.1.0.debug, named by its .gnu_debuglink; every sinew_ function of the header
#     still exported;
#   - tests/c/client.c linked against the shared library (records NEEDED libsinew.so.0.1) and
#     against libsinew.a with gcc alone, PATH without cargo or rustc, and only the system
#     libraries -lpthread -ldl -lm; both run;
#   - pkg-config: sinew.pc and sinew-static.pc compile and link the client;
#   - tests/cpp/math.cpp (the math helpers of sinew.hpp, -Wall -Wextra -Werror -pedantic
#     -Wconversion -Wold-style-cast), statically linked, runs;
#   - CMake: examples/cmake/ configured from clean build directories with find_package(Sinew
#     CONFIG) against the installed package, shared and static, built and run; and once
#     through add_subdirectory of the sources, shared and static (the FetchContent path: cargo
#     builds the library, here into the same target directory, so nothing is rebuilt);
#   - a failed install (a patchelf that fails after the build) leaves no new prefix and nothing
#     staged beside it, and an existing prefix unchanged, file for file.
# Outputs and logs in target/package/. Installs gcc, g++, cmake, pkg-config, binutils and
# patchelf (the install step sets the SONAME with it) when missing.
#
#   bash scripts/test-package.sh
#
# Ends with "package: N passed, M failed"; exits non-zero when M > 0.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
out=$root/target/package
prefix=$out/prefix
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -O1)
cxxflags=(-std=c++17 -Wall -Wextra -Werror -pedantic -Wconversion -Wold-style-cast -O1)

# check and summary: scripts/lib.sh.
source scripts/lib.sh

# ---- tools ---------------------------------------------------------------------------
missing=()
command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v cmake >/dev/null 2>&1 || missing+=(cmake make)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v readelf >/dev/null 2>&1 && command -v objcopy >/dev/null 2>&1 || missing+=(binutils)
command -v patchelf >/dev/null 2>&1 || missing+=(patchelf)
install_missing "${missing[@]}"

# ---- install ---------------------------------------------------------------------------
rm -rf "$out"
mkdir -p "$out"
if ! cargo run -q -p xtask -- install --prefix "$prefix" >"$out/install.log" 2>&1; then
    echo "FAIL install (log: $out/install.log)"
    tail -n 25 "$out/install.log" | sed 's/^/    /'
    failed=$((failed + 1))
    summary package
    exit 1
fi
echo "installed into $prefix"
lib=$prefix/lib
so=$lib/libsinew.so.0.1.0

# ---- Linux hygiene -----------------------------------------------------------------------
check soname bash -c "readelf -d '$so' | tee /dev/stderr | grep -F 'Library soname: [libsinew.so.0.1]'"
check links bash -c "[ \"\$(readlink '$lib/libsinew.so')\" = libsinew.so.0.1 ] && [ \"\$(readlink '$lib/libsinew.so.0.1')\" = libsinew.so.0.1.0 ]"
check stripped bash -c "! readelf -S '$so' | grep -E '\\.debug_|\\.symtab' && ls -l '$so' '$so.debug'"
check debug-file bash -c "readelf -S '$so.debug' | grep -E '\.debug_(info|line)' && readelf --string-dump=.gnu_debuglink '$so' | grep -F libsinew.so.0.1.0.debug"
# The functions of the header (declarations start in column 0), all still in the dynamic table.
check exports bash -c "gcc -E -P -x c include/sinew.h | grep -E '^[A-Za-z].*\bsinew_[a-z0-9_]+\(' | grep -oE '\bsinew_[a-z0-9_]+\(' | tr -d '(' | sort -u >'$out/header-functions.txt'
    nm -D --defined-only '$so' | awk '{print \$3}' | grep '^sinew_' | sort -u >'$out/exports.txt'
    wc -l '$out/header-functions.txt' '$out/exports.txt'
    [ -s '$out/exports.txt' ] && comm -23 '$out/header-functions.txt' '$out/exports.txt' | tee /dev/stderr | wc -l | grep -qx 0"

# ---- C, shared and static ---------------------------------------------------------------
check c-shared-link gcc "${cflags[@]}" -I"$prefix/include" tests/c/client.c -o "$out/client-shared" -L"$lib" -lsinew -Wl,-rpath,"$lib" -lm
check c-shared-needs-soname bash -c "readelf -d '$out/client-shared' | grep -F 'Shared library: [libsinew.so.0.1]'"
check c-shared-run "$out/client-shared"
# No Rust toolchain at link time: gcc from /usr/bin alone.
check c-static-link env -i PATH=/usr/bin:/bin bash -c "! command -v cargo && ! command -v rustc && \
    gcc ${cflags[*]} -I'$prefix/include' tests/c/client.c -o '$out/client-static' '$lib/libsinew.a' -lpthread -ldl -lm"
check c-static-has-no-libsinew bash -c "! readelf -d '$out/client-static' | grep -i sinew && readelf -d '$out/client-static' | grep NEEDED"
check c-static-run "$out/client-static"

# ---- pkg-config ----------------------------------------------------------------------------
export PKG_CONFIG_PATH=$lib/pkgconfig
check pkg-config-shared bash -c "gcc ${cflags[*]} tests/c/client.c -o '$out/client-pc' \$(pkg-config --cflags --libs sinew) -Wl,-rpath,'$lib' -lm && '$out/client-pc' >/dev/null"
check pkg-config-static bash -c "pkg-config --libs sinew-static && gcc ${cflags[*]} tests/c/client.c -o '$out/client-pc-static' \$(pkg-config --cflags --libs sinew-static) \
    && ! readelf -d '$out/client-pc-static' | grep -i sinew && '$out/client-pc-static' >/dev/null"

# ---- the math helpers of sinew.hpp ----------------------------------------------------------
check cpp-math-compile g++ "${cxxflags[@]}" -I"$prefix/include" tests/cpp/math.cpp -o "$out/cpp-math" "$lib/libsinew.a" -lpthread -ldl -lm
check cpp-math-run "$out/cpp-math"

# ---- CMake ---------------------------------------------------------------------------------
# cmake_example NAME ARGS...: configures examples/cmake in a fresh build directory, builds, runs.
cmake_example() {
    local dir=$out/cmake-$1
    shift
    rm -rf "$dir"
    cmake -S examples/cmake -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@"
    cmake --build "$dir" -j 2
    "$dir/drape"
    "$dir/rope_c"
}
check cmake-installed-shared cmake_example shared -DCMAKE_PREFIX_PATH="$prefix"
check cmake-shared-links-the-library bash -c "readelf -d '$out/cmake-shared/drape' | grep -F 'Shared library: [libsinew.so.0.1]'"
check cmake-installed-static cmake_example static -DCMAKE_PREFIX_PATH="$prefix" -DSINEW_EXAMPLE_STATIC=ON
check cmake-static-has-no-libsinew bash -c "! readelf -d '$out/cmake-static/drape' | grep -i sinew"
check cmake-version-refused bash -c "rm -rf '$out/cmake-probe' && mkdir -p '$out/cmake-probe' && cd '$out/cmake-probe' &&
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(p NONE)\nfind_package(Sinew 0.2 CONFIG REQUIRED)\n' >CMakeLists.txt &&
    ! cmake -S . -B b -DCMAKE_PREFIX_PATH='$prefix' 2>&1 | tee /dev/stderr | grep -q 'Configuring done' "
check cmake-subdirectory-shared cmake_example subdirectory-shared -DSINEW_SOURCE_DIR="$root"
check cmake-subdirectory-static cmake_example subdirectory-static -DSINEW_SOURCE_DIR="$root" -DSINEW_EXAMPLE_STATIC=ON

# ---- a failed install leaves nothing behind -------------------------------------------------
# A patchelf that answers --version (install's check before building) but fails its work:
# install builds (nothing left to rebuild here), stages every file beside or inside the prefix,
# and fails at the SONAME. A new prefix must not appear, nor anything staged beside it; the
# prefix installed above must be left file for file as it was. (Without patchelf at all,
# install stops before building: xtask/tests/install.rs.)
fake=$out/failing-patchelf
mkdir -p "$fake"
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "patchelf 0.0 (failing stand-in)"; exit 0; }\necho "failing stand-in patchelf: refusing $*" >&2\nexit 1\n' >"$fake/patchelf"
chmod +x "$fake/patchelf"
# failing_install PREFIX: the install must fail, and at the stand-in patchelf.
failing_install() {
    if PATH="$fake:$PATH" cargo run -q -p xtask -- install --prefix "$1" >"$out/failing-install.log" 2>&1; then
        echo "install succeeded with a failing patchelf"
        return 1
    fi
    cat "$out/failing-install.log"
    grep -F 'failing stand-in patchelf: refusing --set-soname' "$out/failing-install.log" &&
        grep -F "nothing was installed into $1" "$out/failing-install.log"
}
# tree_state DIR: every path with its type and link target, and every file's md5.
tree_state() { (cd "$1" && find . -printf '%p %y %l\n' | sort && find . -type f -exec md5sum {} + | sort); }
failed_install_into_a_new_prefix() {
    rm -rf "$out/failed"
    mkdir -p "$out/failed"
    failing_install "$out/failed/new/prefix" || return 1
    ls -A "$out/failed"
    [ -z "$(ls -A "$out/failed")" ]
}
failed_install_into_the_installed_prefix() {
    tree_state "$prefix" >"$out/prefix-before.txt"
    failing_install "$prefix" || return 1
    tree_state "$prefix" >"$out/prefix-after.txt"
    wc -l "$out/prefix-before.txt"
    diff "$out/prefix-before.txt" "$out/prefix-after.txt"
}
check failed-install-leaves-no-prefix failed_install_into_a_new_prefix
check failed-install-leaves-the-prefix-unchanged failed_install_into_the_installed_prefix

summary package
