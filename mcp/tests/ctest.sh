#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The MCP server's tests under ctest (tests/mcp/CMakeLists.txt):
#   ctest.sh setup   npm ci in mcp/ (the mcp fixture), skipped while
#                    node_modules matches package-lock.json
#   ctest.sh NAME    node's test runner on mcp/tests/NAME.test.js
# Where there is no Node.js (the Wireshark chroots of scripts/ws-chroot),
# setup passes and the tests exit 77: skipped. scripts/run-tests installs
# nodejs and npm.
set -euo pipefail
mcp=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
name=${1:?usage: ctest.sh setup|NAME}

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [[ $name == setup ]]; then
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "no node or npm here: the MCP tests are skipped"
    exit 0
  fi
  stamp=$mcp/node_modules/.roceshark-package-lock.json
  if cmp -s "$mcp/package-lock.json" "$stamp"; then
    echo "mcp/node_modules matches package-lock.json"
    exit 0
  fi
  cd "$mcp"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
  exit 0
fi

if ! command -v node >/dev/null; then
  echo "no node here: skipped"
  exit 77
fi
if [[ $name == conformance ]] && (($(node_major) < 20)); then
  echo "the conformance suite needs Node.js 20 or later (this is $(node --version)): skipped"
  exit 77
fi
if [[ ! -d $mcp/node_modules/@modelcontextprotocol/sdk ]]; then
  echo "no mcp/node_modules: run the mcp.setup test (npm ci in mcp/) first" >&2
  exit 1
fi
exec node --test "$mcp/tests/$name.test.js"
