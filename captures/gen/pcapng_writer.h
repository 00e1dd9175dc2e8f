// SPDX-License-Identifier: GPL-2.0-or-later
// pcapng output through libwiretap: one SHB whose only option is
// shb_userappl, one IDB per capture point (if_name, if_tsresol = 9,
// Ethernet), and EPBs without options. Nothing host- or time-dependent
// goes into the file, so the same scenario always gives the same bytes.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace roceshark::gen {

class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Interface {
  std::string name;
  uint32_t snaplen = 65535;
};

class PcapngWriter {
 public:
  PcapngWriter(const std::string& path, const std::vector<Interface>& interfaces);
  ~PcapngWriter();
  PcapngWriter(const PcapngWriter&) = delete;
  PcapngWriter& operator=(const PcapngWriter&) = delete;

  // `ts_ns`: nanoseconds since 1970. data.size() is the captured length.
  void write(uint32_t interface, int64_t ts_ns, std::span<const uint8_t> data, uint32_t wire_len);
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace roceshark::gen
