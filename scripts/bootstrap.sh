# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by run-demo and run-tests: install what is missing, then build.
#   bootstrap <extra apt packages...>
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="${ROCESHARK_BUILD:-$ROOT/build}"
export ROCESHARK_BUILD="$BUILD"

BUILD_PACKAGES=(tshark wireshark-dev libwireshark-dev libwiretap-dev libpcap-dev prometheus-cpp-dev nlohmann-json3-dev pkg-config libgtest-dev cmake g++ make)

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

build_project() {
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  if [[ ! -f $BUILD/CMakeCache.txt ]]; then
    # shellcheck disable=SC2086 # ROCESHARK_CMAKE_ARGS: extra options, split on spaces
    cmake -S "$ROOT" -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${ROCESHARK_CMAKE_ARGS:-} >&2
  fi
  # shellcheck disable=SC2086 # ROCESHARK_BUILD_TARGETS: a subset of targets, split on spaces
  cmake --build "$BUILD" -j "$(nproc)" ${ROCESHARK_BUILD_TARGETS:+--target $ROCESHARK_BUILD_TARGETS} >&2
}

bootstrap() {
  install_packages "${BUILD_PACKAGES[@]}" "$@"
  build_project
}
