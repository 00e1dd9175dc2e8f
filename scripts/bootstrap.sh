# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by run-demo and run-tests: install what is missing, then build.
#   bootstrap <extra apt packages...>
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="${ROCESHARK_BUILD:-$ROOT/build}"
export ROCESHARK_BUILD="$BUILD"

BUILD_PACKAGES=(tshark wireshark-dev libwireshark-dev libwiretap-dev libpcap-dev prometheus-cpp-dev nlohmann-json3-dev pkg-config libgtest-dev cmake g++ make ccache)

missing_packages() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

install_packages() {
  local missing
  mapfile -t missing < <(missing_packages "$@")
  [[ ${#missing[@]} -eq 0 ]] && return 0
  echo "roceshark: installing ${missing[*]}" >&2
  local -a run=()
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null; then
      echo "roceshark: need root to install: ${missing[*]} (no sudo here); run as root: apt-get install ${missing[*]}" >&2
      exit 1
    fi
    run=(sudo)
  fi
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

# ccache, with the cache kept where the chroots are (root) or in the user's
# own cache: a fresh clone (CI's) then compiles only what changed since the
# last build anywhere on the machine. BASEDIR and NOHASHDIR let another
# clone's directory hit; the launcher carries them, so a later plain
# `cmake --build` uses the same cache.
build_project() {
  local gen=() launcher=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  if command -v ccache >/dev/null; then
    local dir=${CCACHE_DIR:-}
    [[ -n $dir || $(id -u) -ne 0 ]] || dir=/var/cache/roceshark/ccache
    local run="env;CCACHE_BASEDIR=$ROOT;CCACHE_NOHASHDIR=1;${dir:+CCACHE_DIR=$dir;}ccache"
    launcher=("-DCMAKE_C_COMPILER_LAUNCHER=$run" "-DCMAKE_CXX_COMPILER_LAUNCHER=$run")
  fi
  if [[ ! -f $BUILD/CMakeCache.txt ]]; then
    # shellcheck disable=SC2086 # ROCESHARK_CMAKE_ARGS: extra options, split on spaces
    cmake -S "$ROOT" -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" ${ROCESHARK_CMAKE_ARGS:-} >&2
  fi
  # shellcheck disable=SC2086 # ROCESHARK_BUILD_TARGETS: a subset of targets, split on spaces
  cmake --build "$BUILD" -j "$(nproc)" ${ROCESHARK_BUILD_TARGETS:+--target $ROCESHARK_BUILD_TARGETS} >&2
}

bootstrap() {
  install_packages "${BUILD_PACKAGES[@]}" "$@"
  build_project
}
