// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/printable.h"

#include <cstdint>
#include <cstdio>

namespace roceshark {
namespace {

void hex(std::string& out, uint8_t b) {
  char buf[5];
  std::snprintf(buf, sizeof buf, "\\x%02x", b);
  out += buf;
}

// The length of the valid UTF-8 sequence at `s[i]` (2 to 4), or 0.
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  const uint8_t c = b(0);
  const size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
  if (!n || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(k) & 0xc0) != 0x80) return 0;
  const uint32_t lead = n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
  if (n == 2 && lead == 2 && b(1) < 0xa0) return 0;                     // U+0080..U+009F: C1 controls
  if (n == 3 && ((lead == 0 && b(1) < 0xa0) || (lead == 0xd && b(1) >= 0xa0))) return 0;  // overlong, surrogates
  if (n == 4 && ((lead == 0 && b(1) < 0x90) || (lead == 4 && b(1) >= 0x90))) return 0;   // overlong, past U+10FFFF
  return n;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<uint8_t>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      if (c == '\\') out += '\\';
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (const size_t n = utf8_length(text, i)) {
        out.append(text.substr(i, n));
        i += n;
        continue;
      }
    }
    switch (c) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      default: hex(out, c);
    }
    ++i;
  }
  return out;
}

bool is_printable(std::string_view text) {
  std::string same;
  same.reserve(text.size());
  for (char c : text) {
    if (c == '\\') same += '\\';
    same += c;
  }
  return printable(text) == same;
}

}  // namespace roceshark
