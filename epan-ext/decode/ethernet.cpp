// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/ethernet.h"

#include <cstdio>

namespace roceshark {

std::string mac_to_string(const Mac& m) {
  char b[18];
  std::snprintf(b, sizeof b, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
  return b;
}

}  // namespace roceshark
