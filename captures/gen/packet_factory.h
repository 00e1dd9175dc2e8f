// SPDX-License-Identifier: GPL-2.0-or-later
// Turns simulation events (a request packet, a reply, a CNP, a CM message)
// into frames: picks addresses, ports, header fields and payload bytes.
#pragma once
#include <cstdint>
#include <vector>

#include "captures/gen/in_flight.h"
#include "captures/gen/requester.h"
#include "captures/gen/responder.h"
#include "captures/gen/scenario.h"

namespace roceshark::gen {

class PacketFactory {
 public:
  explicit PacketFactory(const Scenario& sc);

  PacketPtr request(size_t qp, int side, const RequestPacket& r);
  // An ACK or NAK from the responder at `resp_side`.
  PacketPtr reply(size_t qp, int resp_side, const Reply& r);
  // Packet `index` of the response to the READ at `read_psn`.
  PacketPtr read_response(size_t qp, int resp_side, const Reply& read, uint32_t index);
  // Congestion notification from the side that saw CE, to its peer's QP.
  PacketPtr cnp(size_t qp, int np_side);
  PacketPtr cm(size_t qp, uint16_t attr);

 private:
  PacketPtr make(size_t qp, int from_side, const Bth& bth, const Extensions& ext, std::span<const uint8_t> payload,
                 uint8_t dscp, uint8_t ecn);
  uint64_t key(size_t qp, int side, uint64_t a, uint64_t b, uint64_t c) const;

  const Scenario& sc_;
  std::vector<uint16_t> ip_id_;    // per host
  std::vector<uint32_t> mad_psn_;  // per host: the PSN of its QP1
  std::vector<uint8_t> scratch_;
};

}  // namespace roceshark::gen
