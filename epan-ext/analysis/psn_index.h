// SPDX-License-Identifier: GPL-2.0-or-later
// Bounded memory of what one flow sent at one point, for retransmission and
// duplicate verdicts. Sizes grow with the flow, up to a cap, so a capture of
// many small flows stays small and memory never grows with the capture span.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "epan-ext/decode/packet.h"

namespace roceshark {

// PSN -> frame of its first copy, for the most recent PSNs. Direct-mapped:
// a flow's PSNs are consecutive, so the last `capacity` PSNs never collide.
class FirstSeenIndex {
 public:
  static constexpr uint32_t kMinCapacity = 8;
  static constexpr uint32_t kMaxCapacity = 4096;  // deeper than any go-back-N window seen in practice

  void note(uint32_t psn, uint32_t frame);  // keeps the first frame of a PSN still held
  uint32_t find(uint32_t psn) const;        // 0 when not held
  void clear();

 private:
  struct Slot {
    uint32_t tag = 0;  // psn | kValid
    uint32_t frame = 0;
  };
  static constexpr uint32_t kValid = 0x80000000u;
  void grow();

  std::vector<Slot> slots_;
  uint32_t noted_ = 0;
};

// The last few packets themselves, to recognise an identical second copy.
class RecentPackets {
 public:
  struct Entry {
    uint64_t ts_ns = 0;
    uint32_t frame = 0;
    uint32_t psn = 0;
    uint32_t icrc = 0;
    uint32_t payload_len = 0;
    uint8_t opcode = 0;
    bool has_icrc = false;
    bool has_ip_id = false;
    uint16_t ip_id = 0;
    uint8_t syndrome = 0;  // responses: same PSN, different syndrome is a different packet
    uint32_t msn = 0;
    // Where the copy was taken: a router rewrites these, a resend from the
    // NIC keeps them. Not part of the identity.
    uint8_t ttl = 0;
    uint32_t macs = 0;

    // The same packet recorded at another place of the path (after a
    // router): the proof that a second copy is a mirror artefact.
    bool rewritten_from(const Entry& o) const { return ttl != o.ttl || macs != o.macs; }

    static Entry of(const PacketInfo& p);
  };
  // A mirror copy lags its original by the switch latency, which a burst
  // fills with dozens of packets at 100-400G. Grows with the flow up to this.
  static constexpr size_t kSize = 64;

  void push(const Entry& e);
  // Newest entry with the same PSN, opcode, length and AETH (and the same
  // ICRC and IPv4 ID where both copies hold them), or nullptr.
  const Entry* find_same(const Entry& e) const;
  // The entry pushed right after `e` (one find_same returned), or nullptr.
  const Entry* after(const Entry* e) const;
  void clear();

 private:
  std::vector<Entry> ring_;
  size_t next_ = 0;
};

}  // namespace roceshark
