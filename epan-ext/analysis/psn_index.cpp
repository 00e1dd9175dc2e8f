// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/psn_index.h"

#include <bit>
#include <cstring>

namespace roceshark {

void FirstSeenIndex::grow() {
  const uint32_t cap = slots_.empty() ? kMinCapacity : static_cast<uint32_t>(slots_.size()) * 2;
  std::vector<Slot> bigger(cap);
  for (const Slot& s : slots_)
    if (s.tag & kValid) bigger[s.tag & (cap - 1)] = s;
  slots_.swap(bigger);
}

void FirstSeenIndex::note(uint32_t psn, uint32_t frame) {
  if (slots_.size() < kMaxCapacity && noted_ >= slots_.size()) grow();
  Slot& s = slots_[psn & (slots_.size() - 1)];
  if (s.tag == (psn | kValid)) return;
  s = {psn | kValid, frame};
  ++noted_;
}

uint32_t FirstSeenIndex::find(uint32_t psn) const {
  if (slots_.empty()) return 0;
  const Slot& s = slots_[psn & (slots_.size() - 1)];
  return s.tag == (psn | kValid) ? s.frame : 0;
}

void FirstSeenIndex::clear() {
  slots_.clear();
  noted_ = 0;
}

void RecentPackets::push(const Entry& e) {
  if (ring_.size() < kSize) {
    ring_.push_back(e);
    next_ = ring_.size() % kSize;
    return;
  }
  ring_[next_] = e;
  next_ = (next_ + 1) % kSize;
}

RecentPackets::Entry RecentPackets::Entry::of(const PacketInfo& p) {
  Entry e;
  e.ts_ns = p.ts_ns, e.frame = p.frame, e.psn = p.psn, e.icrc = p.icrc_value, e.payload_len = p.payload_len;
  e.opcode = p.opcode, e.has_icrc = p.icrc == IcrcState::good || p.icrc == IcrcState::bad;
  e.has_ip_id = p.has_ip_id, e.ip_id = p.ip_id, e.syndrome = p.syndrome, e.msn = p.msn, e.ttl = p.ttl;
  uint64_t src = 0, dst = 0;
  std::memcpy(&src, p.src_mac.data(), p.src_mac.size());
  std::memcpy(&dst, p.dst_mac.data(), p.dst_mac.size());
  const uint64_t h = (src * 0x9E3779B97F4A7C15ull) ^ ((dst ^ 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full);
  e.macs = static_cast<uint32_t>(h ^ (h >> 32));
  return e;
}

const RecentPackets::Entry* RecentPackets::find_same(const Entry& e) const {
  for (size_t i = 1; i <= ring_.size(); ++i) {
    const Entry& c = ring_[(next_ + ring_.size() - i) % ring_.size()];
    if (c.psn != e.psn || c.opcode != e.opcode || c.payload_len != e.payload_len || c.syndrome != e.syndrome ||
        c.msn != e.msn)
      continue;
    if (c.has_icrc && e.has_icrc && c.icrc != e.icrc) continue;
    if (c.has_ip_id && e.has_ip_id && c.ip_id != e.ip_id) continue;
    return &c;
  }
  return nullptr;
}

const RecentPackets::Entry* RecentPackets::after(const Entry* e) const {
  const size_t n = ring_.size();
  const auto i = static_cast<size_t>(e - ring_.data());
  return i == (next_ + n - 1) % n ? nullptr : &ring_[(i + 1) % n];  // none after the newest
}

void RecentPackets::clear() {
  ring_.clear();
  next_ = 0;
}

}  // namespace roceshark
