#!/usr/bin/env bash
# Cross-builds the Windows library (x86_64-pc-windows-gnu, Debian's mingw-w64) and checks
# that Unity on Windows can load it as it is:
#   - it is target/x86_64-pc-windows-gnu/release/sinew.dll, a PE32+ x86-64 DLL
#     (DllImport("sinew") looks for sinew.dll);
#   - it exports every sinew_ function declared in include/sinew.h, and nothing else;
#   - it imports only DLLs that every Windows has: no libgcc_s_seh-1.dll,
#     libwinpthread-1.dll or libstdc++-6.dll that a player would have to ship beside it.
#
#   scripts/check-windows-dll.sh
#
# Installs what is missing: the Rust target (rustup), the mingw-w64 C toolchain and
# binutils (apt). The last line is "windows-dll: N passed, M failed"; the exit code is
# non-zero on any failure.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
target=x86_64-pc-windows-gnu
out=target/windows-dll
dll=target/$target/release/sinew.dll

# ---- tools ----
source scripts/lib.sh
if ! rustup target list --installed | grep -qx "$target"; then
    rustup target add "$target"
fi
missing=()
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1 || missing+=(binutils-mingw-w64-x86-64)
install_missing "${missing[@]}"

# ---- build ----
cargo build --release --target "$target"
mkdir -p "$out"

passed=0
failed=0
check() { # check <name> <condition result 0/1> [detail]
    if [ "$2" -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok     $1"
    else
        failed=$((failed + 1))
        echo "FAILED $1${3:+: $3}"
    fi
}

if [ ! -f "$dll" ]; then
    check "the build produced $dll" 1
    echo "windows-dll: $passed passed, $failed failed"
    exit 1
fi
check "the build produced $dll" 0

x86_64-w64-mingw32-objdump -f "$dll" >"$out/file-header.txt"
x86_64-w64-mingw32-objdump -p "$dll" >"$out/private-headers.txt"
grep -q 'file format pei-x86-64' "$out/file-header.txt" && r=0 || r=1
check "sinew.dll is a PE32+ x86-64 image" "$r" "$(grep 'file format' "$out/file-header.txt" || true)"

# Exports: the name table objdump prints after "[Ordinal/Name Pointer] Table".
sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' "$out/private-headers.txt" |
    sed -nE 's/^[[:space:]]*\[[[:space:]]*[0-9]+\][[:space:]]+([A-Za-z_][A-Za-z0-9_@]*).*/\1/p' | sort -u >"$out/exports.txt"
# Functions of the header: declarations start in column 0 (comments are indented).
# Through the preprocessor without SINEW_DEBUG_PANIC: the release DLL has no debug-panic feature.
x86_64-w64-mingw32-gcc -E -P -x c include/sinew.h | grep -E '^[A-Za-z].*\bsinew_[a-z0-9_]+\(' |
    grep -oE '\bsinew_[a-z0-9_]+\(' | tr -d '(' | sort -u >"$out/header-functions.txt"

[ -s "$out/exports.txt" ] && r=0 || r=1
check "the export table was read ($(wc -l <"$out/exports.txt") names)" "$r"
header_count=$(wc -l <"$out/header-functions.txt")
[ "$header_count" -gt 0 ] && r=0 || r=1
check "include/sinew.h declares sinew_ functions ($header_count)" "$r"
while read -r fn; do
    grep -qx "$fn" "$out/exports.txt" && r=0 || r=1
    check "exports $fn" "$r"
done <"$out/header-functions.txt"
extra=$(comm -23 "$out/exports.txt" "$out/header-functions.txt" | tr '\n' ' ')
[ -z "$extra" ] && r=0 || r=1
check "exports nothing that the header does not declare" "$r" "$extra"

# Imports: each must be part of Windows itself.
grep -E '^[[:space:]]*DLL Name:' "$out/private-headers.txt" | sed -E 's/.*DLL Name:[[:space:]]*//' | sort -u >"$out/imports.txt"
system_dll='^(kernel32|kernelbase|ntdll|msvcrt|ucrtbase|advapi32|bcrypt|bcryptprimitives|crypt32|dbghelp|iphlpapi|ole32|oleaut32|psapi|secur32|shell32|synchronization|user32|userenv|ws2_32|api-ms-win-[a-z0-9-]+|ext-ms-win-[a-z0-9-]+)\.dll$'
[ -s "$out/imports.txt" ] && r=0 || r=1
check "the import table was read ($(wc -l <"$out/imports.txt") DLLs)" "$r"
while read -r imp; do
    grep -qiE "$system_dll" <<<"$imp" && r=0 || r=1
    check "imports only system DLLs: $imp" "$r" "not part of Windows; link it statically (see .cargo/config.toml)"
done <"$out/imports.txt"

echo "windows-dll: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
