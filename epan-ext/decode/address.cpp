// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/address.h"

#include <algorithm>
#include <cstdio>

namespace roceshark {

Address Address::from(std::span<const uint8_t> raw) {
  Address a;
  a.len = static_cast<uint8_t>(std::min<size_t>(raw.size(), a.bytes.size()));
  std::copy_n(raw.begin(), a.len, a.bytes.begin());
  return a;
}

std::string Address::to_string() const {
  char buf[48];
  if (len == 4) {
    std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", bytes[0], bytes[1], bytes[2], bytes[3]);
    return buf;
  }
  if (len != 16) return "?";
  // RFC 5952: lower case, longest run of zero groups collapsed.
  uint16_t g[8];
  for (int i = 0; i < 8; ++i) g[i] = static_cast<uint16_t>(bytes[2 * i] << 8 | bytes[2 * i + 1]);
  int best = -1, best_len = 1;
  for (int i = 0; i < 8;) {
    int j = i;
    while (j < 8 && g[j] == 0) ++j;
    if (j - i > best_len) best = i, best_len = j - i;
    i = j == i ? i + 1 : j;
  }
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    std::snprintf(buf, sizeof buf, "%x", g[i]);
    out += buf;
  }
  return out;
}

}  // namespace roceshark
