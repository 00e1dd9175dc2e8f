// SPDX-License-Identifier: GPL-2.0-or-later
// Turns simulation events (a request packet, a reply, a CNP, a CM message)
// into frames: picks addresses, ports, header fields and payload bytes.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <tuple>
#include <optional>
#include <vector>

#include "captures/gen/in_flight.h"
#include "captures/gen/requester.h"
#include "captures/gen/responder.h"
#include "captures/gen/scenario.h"

namespace roceshark::gen {

// What a sender puts in the headers that switches classify by.
struct Marking {
  std::optional<uint16_t> vlan;  // untagged when absent
  uint8_t pcp = 0;
  uint8_t dscp = 0;
  uint8_t ecn = 0;
};

class PacketFactory {
 public:
  explicit PacketFactory(const Scenario& sc);

  // `now` is when the packet is built: `marking` directives take effect by it.
  PacketPtr request(size_t qp, int side, const RequestPacket& r, Ns now);
  // An ACK, NAK or ATOMIC ACKNOWLEDGE from the responder at `resp_side`.
  PacketPtr reply(size_t qp, int resp_side, const Reply& r, Ns now);
  // Packet `index` of the response to the READ at `read_psn`.
  PacketPtr read_response(size_t qp, int resp_side, const Reply& read, uint32_t index, Ns now);
  // Congestion notification from the side that saw CE, to its peer's QP,
  // in the CNP class: the QP's VLAN with the CNP PCP, the CNP DSCP and ECN.
  PacketPtr cnp(size_t qp, int np_side);
  PacketPtr cm(size_t qp, uint16_t attr, Ns now);

  // The marking of what `side` of `qp` sends at `now` (CNPs excepted).
  Marking marking(size_t qp, int side, Ns now) const;
  // Source lines of `marking` directives no packet was built under.
  std::vector<int> unused_markings() const;

 private:
  PacketPtr make(size_t qp, int from_side, const Bth& bth, const Extensions& ext, std::span<const uint8_t> payload,
                 const Marking& m, std::optional<uint16_t> ip_id = std::nullopt);
  Marking marking_now(size_t qp, int side, Ns now);  // marking(), noting which change it used
  uint64_t key(size_t qp, int side, uint64_t a, uint64_t b, uint64_t c) const;

  const Scenario& sc_;
  std::vector<std::array<std::vector<size_t>, 2>> changes_;  // [qp][side]: indices into sc_.markings
  std::vector<bool> marking_used_;                          // [marking]: some packet was built under it
  std::vector<uint16_t> ip_id_;    // per host
  uint16_t last_ip_id_ = 0;        // the IPv4 ID make() gave the last packet
  // `resend_ipid=same`: the IPv4 ID of each request's first transmission, by (qp, side, PSN).
  std::map<std::tuple<size_t, int, uint32_t>, uint16_t> first_ip_id_;
  std::vector<uint32_t> mad_psn_;  // per host: the PSN of its QP1
  std::vector<uint8_t> scratch_;
};

}  // namespace roceshark::gen
