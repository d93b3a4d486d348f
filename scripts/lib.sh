# scripts/lib.sh - what the project's scripts share: installing the Debian
# packages the build needs, and building.  Sourced, not run.

SB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The packages the build and the tests need, from Debian.  chromium (and a
# font for it) shows the HTML reports to tests/test_pages.py.
SB_PACKAGES=(gcc make cmake pkg-config libgsl-dev libcmocka-dev libjansson-dev libgmp-dev libyaml-dev
             groff-base g++ chromium fonts-dejavu-core)
# Open MPI: optional for the build (it works without), needed for the MPI
# jobs the scripts build and test (docs/scale.md).
SB_PACKAGES_MPI=(libopenmpi-dev openmpi-bin)

# Install whatever of SB_PACKAGES (and of "$@") is missing; 'apt-get update'
# runs once, only when something is missing.
sb_install_deps() {
    local missing=() p
    for p in "${SB_PACKAGES[@]}" "${SB_PACKAGES_MPI[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
            || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || {
            echo "missing packages (${missing[*]}) and not root: install them first" >&2
            return 1
        }
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# sb_build DIR [cmake options...]: configure (once) and build into DIR.
sb_build() {
    local dir=$1
    shift
    cmake -S "$SB_ROOT" -B "$dir" "$@" >/dev/null
    cmake --build "$dir" -j "$(nproc)"
}
