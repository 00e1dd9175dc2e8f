// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/ethers.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace roceshark::ethers {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// g_strstrip's white space (isspace in the C locale).
bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

std::string_view strip(std::string_view s) {
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// strtok(line, " \t"): the next token, and the rest after it.
std::string_view token(std::string_view& rest) {
  const auto delim = [](char c) { return c == ' ' || c == '\t'; };
  while (!rest.empty() && delim(rest.front())) rest.remove_prefix(1);
  size_t n = 0;
  while (n < rest.size() && !delim(rest[n])) ++n;
  const std::string_view t = rest.substr(0, n);
  rest.remove_prefix(n);
  return t;
}

uint64_t key(const Mac& m) {
  uint64_t k = 0;
  for (uint8_t b : m) k = k << 8 | b;
  return k;
}

}  // namespace

// addr_resolv.c's parse_ether_address without a mask: each octet hex digits
// worth at most 0xFF (leading zeros allowed, as strtoul takes them), the
// separator after the first octet the one for all. Wireshark also takes a
// separator and anything after the sixth octet; this does not.
std::optional<Mac> parse_address(std::string_view t) {
  Mac m{};
  char sep = 0;
  size_t i = 0;
  for (size_t octet = 0; octet < 6; ++octet) {
    if (i >= t.size() || hex_digit(t[i]) < 0) return std::nullopt;
    unsigned v = 0;
    for (; i < t.size() && hex_digit(t[i]) >= 0; ++i) {
      v = v << 4 | static_cast<unsigned>(hex_digit(t[i]));
      if (v > 0xFF) return std::nullopt;
    }
    m[octet] = static_cast<uint8_t>(v);
    if (octet == 5) return i == t.size() ? std::optional<Mac>(m) : std::nullopt;
    if (i >= t.size()) return std::nullopt;  // fewer than six octets
    const char c = t[i++];
    if (!sep) {
      if (c != ':' && c != '-' && c != '.') return std::nullopt;
      sep = c;
    } else if (c != sep) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<Entry> parse_line(std::string_view line) {
  line = strip(line);
  if (line.empty() || line.front() == '#') return std::nullopt;
  if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = strip(line.substr(0, hash));
  std::string_view rest = line;
  const std::optional<Mac> mac = parse_address(token(rest));
  if (!mac) return std::nullopt;
  const std::string_view name = token(rest);
  if (name.empty()) return std::nullopt;
  return Entry{*mac, std::string(name.substr(0, kMaxName))};
}

void Names::add_line(std::string_view line) {
  // fgets/strcspn: the line ends at the first CR (or NUL).
  line = line.substr(0, line.find_first_of(std::string_view("\r\0", 2)));
  if (const std::optional<Entry> e = parse_line(line); e && !full()) names_.try_emplace(key(e->mac), e->name);
}

void Names::add_text(std::string_view text) {
  while (!text.empty() && !full()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    // Wireshark reads with fgets into a buffer of kMaxLine + 1: a longer
    // line is read, and parsed, as several.
    do {
      add_line(line.substr(0, kMaxLine));
      line.remove_prefix(std::min(line.size(), kMaxLine));
    } while (!line.empty());
  }
}

bool Names::add_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string text(static_cast<size_t>(std::min<uintmax_t>(size, kMaxBytes)), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) return false;
  add_text(text);
  return true;
}

const std::string* Names::find(const Mac& m) const {
  const auto it = names_.find(key(m));
  return it == names_.end() ? nullptr : &it->second;
}

std::vector<std::string> default_paths(const std::function<const char*(const char*)>& env,
                                       const std::function<bool(const std::string&)>& is_dir,
                                       const std::string& home) {
  const auto get = [&](const char* name) -> std::string {
    const char* v = env(name);
    return v ? v : "";
  };
  std::string personal;
  if (const std::string dir = get("WIRESHARK_CONFIG_DIR"); !dir.empty()) {
    personal = dir;
  } else {
    const std::string home_dir = get("HOME").empty() ? home : get("HOME");
    const std::string xdg = get("XDG_CONFIG_HOME");
    const std::string xdg_dir = (xdg.empty() ? home_dir + "/.config" : xdg) + "/wireshark";
    const std::string old_dir = home_dir + "/.wireshark";
    personal = !is_dir(xdg_dir) && is_dir(old_dir) ? old_dir : xdg_dir;
  }
  return {personal + "/ethers", "/etc/ethers"};
}

}  // namespace roceshark::ethers
