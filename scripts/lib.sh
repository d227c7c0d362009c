# Shared by the scripts (sourced, from the repository root).

# install_missing PKG...: installs the Debian packages named (nothing when none are), with
# sudo when not root and sudo is there.
install_missing() {
    [ "$#" -gt 0 ] || return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo=(sudo); fi
    echo "installing: $*"
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}
