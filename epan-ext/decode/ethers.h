// SPDX-License-Identifier: GPL-2.0-or-later
// MAC names from `ethers` files, read as Wireshark's addr_resolv.c reads
// them (ethers(5)): a line is an address and a name, separated by spaces or
// tabs; the address has six octets of one or two hex digits with one
// separator throughout, `:`, `-` or `.`; `#` starts a comment; anything after
// the name is ignored; a line that does not parse is skipped. The first line
// naming an address wins, and the first file read (the personal one) before
// the next (the global one). For the roceshark command, which does not load
// Wireshark's resolver (docs/command.md, "MAC names"); the plugin asks
// Wireshark itself.
//
// A hostile file costs bounded time and memory: lines are cut at
// kMaxLine bytes (as Wireshark's buffer cuts them), names at kMaxName,
// reading stops after kMaxBytes of a file and kMaxEntries names, and only
// regular files are opened (never a FIFO or a device).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "epan-ext/decode/ethernet.h"

namespace roceshark::ethers {

inline constexpr size_t kMaxLine = 1023;                  // Wireshark's MAX_LINELEN less its NUL
inline constexpr size_t kMaxName = 63;                    // Wireshark's MAXNAMELEN less its NUL
inline constexpr size_t kMaxBytes = size_t{64} << 20;     // of one file
inline constexpr size_t kMaxEntries = size_t{1} << 20;    // names in all

// One address token ("02:00:00:01:10:01", "2-0-0-1-10-1", "0200.0001.1001"
// is not one: six octets), or nothing.
std::optional<Mac> parse_address(std::string_view token);

struct Entry {
  Mac mac{};
  std::string name;
};

// One line (without its newline), or nothing for a comment, a blank or a
// line that does not parse.
std::optional<Entry> parse_line(std::string_view line);

class Names {
 public:
  // Adds the names of a file's text (lines by \n, \r\n too) that no earlier
  // text named.
  void add_text(std::string_view text);
  // Adds a file's names; false when it is not a regular file or cannot be
  // read (a missing file is no error: the caller decides).
  bool add_file(const std::string& path);
  // The name of `m`, or nullptr.
  const std::string* find(const Mac& m) const;
  size_t size() const { return names_.size(); }
  bool full() const { return names_.size() >= kMaxEntries; }

 private:
  void add_line(std::string_view line);
  std::unordered_map<uint64_t, std::string> names_;
};

// The files Wireshark reads, in its order (wsutil/filesystem.c's personal
// configuration directory, without a profile): the personal one, in
// $WIRESHARK_CONFIG_DIR if set, else in $XDG_CONFIG_HOME/wireshark (or
// $HOME/.config/wireshark) if that directory exists, else in ~/.wireshark if
// that one exists, else in the XDG one; then the global /etc/ethers. `env`
// reads the environment (nullptr or "" for unset), `is_dir` says whether a
// directory exists, `home` is the password file's home for an unset $HOME.
std::vector<std::string> default_paths(const std::function<const char*(const char*)>& env,
                                       const std::function<bool(const std::string&)>& is_dir,
                                       const std::string& home);

}  // namespace roceshark::ethers
