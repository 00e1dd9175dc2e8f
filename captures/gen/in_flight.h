// SPDX-License-Identifier: GPL-2.0-or-later
// A packet on its way: its bytes (edited in place as switches would), what
// it means, and what will happen to it.
#pragma once
#include <memory>
#include <optional>

#include "captures/gen/atomic.h"
#include "captures/gen/faults.h"
#include "captures/gen/frame.h"
#include "captures/gen/packet_builder.h"
#include "captures/gen/route.h"

namespace roceshark::gen {

struct InFlight {
  FrameInfo info;
  BuiltFrame frame;
  Transport transport = Transport::v2_ipv4;
  Route route;
  Fates fates;
  size_t hop = 0;  // the node it is travelling to
  uint64_t msg_length = 0;  // of the message a request belongs to (a READ's DMA length)
  AtomicArgs atomic;        // an ATOMIC request's operands
  bool ce = false;
  bool corrupt = false;
  // Waits at the current point in a busy period a PFC pause began: recorded
  // as such when it leaves, naming the XOFF that opened that pause.
  bool held = false;
  uint64_t pause_id = 0;
  uint64_t id = 0;  // the transmission, set when a host sends it
  Ns queued = 0;    // waited in a `queue` burst at the current point
  std::optional<size_t> mtu_drop;  // the `mtu` that loses it on fates.drop_segment
};

using PacketPtr = std::shared_ptr<InFlight>;

}  // namespace roceshark::gen
