# Shared by the scripts (sourced, from the repository root).

# install_missing PKG...: installs the Debian packages named (nothing when none are), with
# sudo when not root and sudo is there.
install_missing() {
    [ "$#" -gt 0 ] || return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo=(sudo); fi
    echo "installing: $*"
    # One install at a time: the test command runs its sanitizer part beside the others, and
    # two apt-gets at once fail on dpkg's lock.
    (
        flock 9
        "${sudo[@]}" apt-get update
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
    ) 9>"${TMPDIR:-/tmp}/sinew-apt.lock"
}

# check NAME COMMAND...: runs COMMAND with its output in $out/NAME.log ($out: the sourcing
# script's log folder) and counts the result in $passed and $failed.
: "${passed:=0}" "${failed:=0}"
check() {
    local name=$1 start=$SECONDS
    shift
    if "$@" >"$out/$name.log" 2>&1; then
        echo "PASS $name$(took $start)"
        passed=$((passed + 1))
    else
        echo "FAIL $name (log: $out/$name.log)"
        tail -n 25 "$out/$name.log" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}

# check_async NAME COMMAND...: as check, in the background, at most CHECK_JOBS (default 2)
# at once: for single-threaded runs such as valgrind's, which leave a core idle one by one.
# check_wait waits for them, then prints and counts them in the order they were started.
async_names=()
check_async() {
    local name=$1
    while [ "$(jobs -rp | wc -l)" -ge "${CHECK_JOBS:-2}" ]; do
        wait -n || true
    done
    (check "$@" >"$out/$name.async" 2>&1) &
    async_names+=("$name")
}
check_wait() {
    wait
    local name
    for name in "${async_names[@]}"; do
        cat "$out/$name.async"
        if grep -q "^PASS $name" "$out/$name.async"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
    done
    async_names=()
}

# took START: " (N s)" when N = SECONDS - START is 2 or more (where the suite's time goes).
took() {
    local s=$((SECONDS - $1))
    [ "$s" -ge 2 ] && echo " ($s s)"
    return 0
}

# summary LABEL: prints "LABEL: N passed, M failed"; fails when M > 0.
summary() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
