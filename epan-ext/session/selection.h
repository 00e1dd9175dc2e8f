// SPDX-License-Identifier: GPL-2.0-or-later
// A front end's selection of frames (`roceshark --qp, --host, --point`),
// applied as the filter of `tshark -z roce,VIEW,FILTER` applies: every
// frame is analysed, only the selected ones are tapped into the
// statistics, and an event learned later counts only if its frame was
// selected (FrameSet). filter() is that display filter, so the command's
// output is tshark's with it, byte for byte (docs/command.md, "Selecting
// frames").
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "epan-ext/decode/address.h"
#include "epan-ext/decode/dcbx_announcement.h"
#include "epan-ext/decode/icmp.h"
#include "epan-ext/decode/packet.h"
#include "epan-ext/decode/pfc_frame.h"

namespace roceshark {

class Selection {
 public:
  // Values of one kind are alternatives; kinds must all match.
  std::set<uint32_t> qps;            // infiniband.bth.destqp
  std::vector<Address> hosts;        // ip.addr / ipv6.addr (RoCEv2)
  std::vector<std::string> points;   // by name, or a point id in decimal: roce.point

  bool any() const { return !qps.empty() || !hosts.empty() || !points.empty(); }
  // A point as it is named: selected when its name (or id) is asked for.
  void name_point(uint32_t point, const std::string& name);
  // Names asked for that no point has had so far.
  std::vector<std::string> unmatched_points() const;

  // Whether the frame would pass the display filter filter().
  bool selects(const PacketInfo& p) const;
  bool selects(const pfc::PauseFrame& f) const;
  bool selects(const qos::DcbxAnnouncement& a) const;
  bool selects(const icmp::TooBig& m) const;

  // The display filter for the same frames: "" without a selection.
  std::string filter() const;

 private:
  bool has_host(const Address& a) const;
  bool at_point(uint32_t point) const { return points.empty() || point_ids_.contains(point); }
  std::set<uint32_t> point_ids_;
  std::set<std::string> matched_;
};

}  // namespace roceshark
