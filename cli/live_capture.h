// SPDX-License-Identifier: GPL-2.0-or-later
// A live interface through libpcap, for `roceshark monitor -i`: a BPF
// filter, the kernel buffer size, and the kernel's and interface's drops.
#pragma once
#include <pcap/pcap.h>

#include <csignal>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/record_source.h"

namespace roceshark::cli {

class LiveCapture final : public RecordSource {
 public:
  // Throws std::runtime_error with libpcap's reason (no such interface,
  // no permission, a bad filter).
  LiveCapture(const std::string& interface, const std::string& filter, int buffer_mib, int snaplen);
  ~LiveCapture() override;
  LiveCapture(const LiveCapture&) = delete;
  LiveCapture& operator=(const LiveCapture&) = delete;

  bool next(Record& r) override;
  const char* interface_name(uint32_t) override { return interface_.c_str(); }
  const std::vector<std::string>& errors() const override { return errors_; }
  Drops drops() override;
  // Ends the capture at the next record or tick (from a signal handler).
  void stop() { stopped_ = 1; }

 private:
  pcap_t* pcap_ = nullptr;
  int fd_ = -1;
  volatile std::sig_atomic_t stopped_ = 0;
  std::string interface_;
  bool nanoseconds_ = false;
  std::vector<std::string> errors_;
  Drops drops_;
  pcap_stat last_{};
  uint64_t last_tick_ns_ = 0;
};

}  // namespace roceshark::cli
