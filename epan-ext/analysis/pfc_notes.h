// SPDX-License-Identifier: GPL-2.0-or-later
// The expert info texts of PFC's checks: on the PFC frames, and on the RoCE
// packets their pauses held. The glue decides where each goes from the
// verdict's flags; the words are here, next to the analysis they report.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace roceshark::pfc {

// On a PFC frame, for its priority `p`; `from` is the pausing MAC.
std::string storm_text(std::string_view point, std::string_view from, unsigned p, uint64_t storm_ns);
std::string chatter_text(std::string_view point, std::string_view from, unsigned p, uint64_t storm_ns,
                         uint64_t share_pct);
std::string ecn_above_xoff_text(std::string_view point, std::string_view from, unsigned p, uint64_t window_ns);
std::string wrong_class_pause_text(std::string_view point, std::string_view from, unsigned p, uint8_t roce_priorities);
std::string propagation_text(std::string_view point, unsigned p, std::string_view storm_point, uint32_t storm_frame);
// Sent to an address other than 01:80:c2:00:00:01: a multicast one (ignored) or a unicast one.
std::string nonstandard_dst_text(std::string_view point, std::string_view from, bool ignored);
std::string runt_text(std::string_view point, uint32_t wire_len);
std::string cut_text(std::string_view point);

// On a RoCE packet.
std::string unattributed_text(std::string_view point);
std::string lossy_queue_text(std::string_view point, unsigned p);
std::string wrong_class_packet_text(std::string_view point, unsigned p, uint8_t paused_priorities);

}  // namespace roceshark::pfc
