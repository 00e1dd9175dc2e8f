// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/live_capture.h"

#include <poll.h>

#include <algorithm>
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
  // Not immediate mode: on Linux that is a ring of snaplen-sized slots (8
  // of 256 KiB in 2 MiB, so a burst of 9 drops), where the default packs
  // frames into blocks that the timeout hands over at least every 200 ms.
  pcap_set_timeout(p, kTimeoutMs);
  pcap_set_buffer_size(p, buffer_mib << 20);
  nanoseconds_ = pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO) == 0;
  if (const int rc = pcap_activate(p); rc < 0) throw fail(p, interface, "cannot capture");
  // The kernel hands over a block only once it holds a packet, so an idle
  // link would block pcap_next_ex for ever: the wait is ours (poll).
  if (pcap_setnonblock(p, 1, err) != 0) throw fail(p, interface, std::string("cannot set non-blocking: ") + err);
  fd_ = pcap_get_selectable_fd(p);
  if (fd_ < 0) throw fail(p, interface, "no selectable descriptor");
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
  if (stopped_) return false;
  const uint64_t now = wall_ns();
  if (now - last_tick_ns_ >= uint64_t{kTimeoutMs} * 1'000'000) {
    last_tick_ns_ = now;
    r.tick = true;
    r.ts_ns = now;
    return true;
  }
  int rc = pcap_next_ex(pcap_, &h, &data);
  if (rc == 0) {  // nothing yet: wait for the kernel, at most until the next tick
    const uint64_t wait_ms = kTimeoutMs - std::min<uint64_t>(kTimeoutMs, (now - last_tick_ns_) / 1'000'000);
    pollfd pfd{fd_, POLLIN, 0};
    if (poll(&pfd, 1, int(wait_ms)) > 0) rc = pcap_next_ex(pcap_, &h, &data);
    if (stopped_) return false;  // the signal that ended the poll
  }
  switch (rc) {
    case 1:
      r.bytes = {data, h->caplen};
      r.wire_len = h->len;
      r.link = pcap_datalink(pcap_) == DLT_EN10MB ? decode::LinkType::ethernet : decode::LinkType::other;
      r.ts_ns = uint64_t(h->ts.tv_sec) * 1'000'000'000 + uint64_t(h->ts.tv_usec) * (nanoseconds_ ? 1 : 1000);
      return true;
    case 0:  // no packet within the tick
      last_tick_ns_ = wall_ns();
      r.tick = true;
      r.ts_ns = last_tick_ns_;
      return true;
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
