// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/live_capture.h"

#include <chrono>
#include <stdexcept>

namespace roceshark::cli {
namespace {

constexpr int kTimeoutMs = 200;  // a tick at least this often, busy link or idle

uint64_t wall_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch()).count());
}

std::runtime_error fail(pcap_t* p, const std::string& interface, const std::string& what) {
  std::string why = interface + ": " + what + ": " + (p ? pcap_geterr(p) : "");
  if (p) pcap_close(p);
  return std::runtime_error(why);
}

}  // namespace

LiveCapture::LiveCapture(const std::string& interface, const std::string& filter, int buffer_mib, int snaplen)
    : interface_(interface) {
  char err[PCAP_ERRBUF_SIZE] = "";
  pcap_t* p = pcap_create(interface.c_str(), err);
  if (!p) throw std::runtime_error(interface + ": " + err);
  pcap_set_snaplen(p, snaplen);
  pcap_set_promisc(p, 1);
  pcap_set_timeout(p, kTimeoutMs);
  pcap_set_immediate_mode(p, 1);  // each packet as it comes: windows end on time
  if (buffer_mib > 0) pcap_set_buffer_size(p, buffer_mib << 20);
  nanoseconds_ = pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO) == 0;
  if (const int rc = pcap_activate(p); rc < 0) throw fail(p, interface, "cannot capture");
  bpf_program prog;
  if (!filter.empty()) {
    if (pcap_compile(p, &prog, filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0)
      throw fail(p, interface, "bad filter '" + filter + "'");
    const int rc = pcap_setfilter(p, &prog);
    pcap_freecode(&prog);
    if (rc != 0) throw fail(p, interface, "cannot set the filter");
  }
  pcap_ = p;
}

LiveCapture::~LiveCapture() { pcap_close(pcap_); }

bool LiveCapture::next(Record& r) {
  pcap_pkthdr* h = nullptr;
  const u_char* data = nullptr;
  r = Record{};
  const uint64_t now = wall_ns();
  if (now - last_tick_ns_ >= uint64_t{kTimeoutMs} * 1'000'000) {
    last_tick_ns_ = now;
    r.tick = true;
    r.ts_ns = now;
    return true;
  }
  switch (pcap_next_ex(pcap_, &h, &data)) {
    case 1:
      r.bytes = {data, h->caplen};
      r.wire_len = h->len;
      r.link = pcap_datalink(pcap_) == DLT_EN10MB ? decode::LinkType::ethernet : decode::LinkType::other;
      r.ts_ns = uint64_t(h->ts.tv_sec) * 1'000'000'000 + uint64_t(h->ts.tv_usec) * (nanoseconds_ ? 1 : 1000);
      return true;
    case 0:  // the timeout: no packet
      last_tick_ns_ = now;
      r.tick = true;
      r.ts_ns = wall_ns();
      return true;
    case PCAP_ERROR_BREAK: return false;
    default:  // the interface went away, or another error
      errors_.push_back(interface_ + ": " + pcap_geterr(pcap_));
      return false;
  }
}

RecordSource::Drops LiveCapture::drops() {
  // pcap_stat's counts are 32 bits: they wrap, so the growth is added up.
  pcap_stat s{};
  if (pcap_stats(pcap_, &s) == 0) {
    drops_.kernel += uint32_t(s.ps_drop - last_.ps_drop);
    drops_.interface += uint32_t(s.ps_ifdrop - last_.ps_ifdrop);
    last_ = s;
  }
  return drops_;
}

}  // namespace roceshark::cli
