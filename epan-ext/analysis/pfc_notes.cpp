// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/pfc_notes.h"

#include <cstdio>

#include "epan-ext/common/qos_policy.h"
#include "epan-ext/common/text_table.h"

namespace roceshark::pfc {
namespace {

// Milliseconds, one decimal: a storm's length reads better in them.
std::string ms(uint64_t ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", static_cast<double>(ns) / 1e6);
  return b;
}

std::string at(std::string_view point) { return " at " + std::string(point); }

}  // namespace

std::string storm_text(std::string_view point, std::string_view from, unsigned p, uint64_t storm_ns) {
  return "PFC storm" + at(point) + ": " + std::string(from) + " has paused priority " + std::to_string(p) + " for " +
         ms(storm_ns) + " ms and counting";
}

std::string chatter_text(std::string_view point, std::string_view from, unsigned p, uint64_t storm_ns,
                         uint64_t share_pct) {
  return "PFC pause chatter" + at(point) + ": " + std::string(from) + " has paused priority " + std::to_string(p) +
         " on and off for " + ms(storm_ns) + " ms, less than " + std::to_string(share_pct) +
         "% of the time: traffic flows between the pauses, not a storm";
}

std::string ecn_above_xoff_text(std::string_view point, std::string_view from, unsigned p, uint64_t window_ns) {
  return "Pause on priority " + std::to_string(p) + at(point) + " from " + std::string(from) +
         " with no ECN-CE or CNP on this link in the " + cell::us(window_ns, 0) +
         " us before: the ECN (DCQCN Kmin) threshold is likely above the PFC XOFF threshold";
}

std::string wrong_class_pause_text(std::string_view point, std::string_view from, unsigned p, uint8_t roce_priorities) {
  return "PFC on priority " + std::to_string(p) + at(point) + " (from " + std::string(from) +
         ") but RoCE runs on priority " + qos::format_priorities(roce_priorities) +
         " with no PFC: PFC is enabled on the wrong class";
}

std::string propagation_text(std::string_view point, unsigned p, std::string_view storm_point, uint32_t storm_frame) {
  return "Pause on priority " + std::to_string(p) + at(point) + " follows the PFC storm" + at(storm_point) +
         " (frame " + std::to_string(storm_frame) + "): the pause is propagating towards the hosts";
}

std::string nonstandard_dst_text(std::string_view point, std::string_view from, bool ignored) {
  return "PFC frame from " + std::string(from) + at(point) +
         (ignored ? " sent to a multicast address other than 01:80:c2:00:00:01: receivers ignore it, no pause assumed"
                  : " sent to a unicast address, not 01:80:c2:00:00:01: obeyed only by the port with that address");
}

std::string runt_text(std::string_view point, uint32_t wire_len) {
  return "Runt PFC frame" + at(point) + " (" + std::to_string(wire_len) +
         " bytes on the wire): receivers discard it, no pause assumed";
}

std::string cut_text(std::string_view point) {
  return "PFC frame cut by the snaplen" + at(point) + ": classes with no captured pause time are ignored";
}

std::string unattributed_text(std::string_view point) {
  return "Released right after a pause" + at(point) +
         ", but its MACs put it on both sides of the link: not counted as held";
}

std::string lossy_queue_text(std::string_view point, unsigned p) {
  return "RoCE loss on priority " + std::to_string(p) + at(point) + ", and no PFC frame for priority " +
         std::to_string(p) + " seen: RoCE is likely in a lossy queue";
}

std::string wrong_class_packet_text(std::string_view point, unsigned p, uint8_t paused_priorities) {
  return "RoCE on priority " + std::to_string(p) + at(point) + " has no PFC, while PFC pauses priority " +
         qos::format_priorities(paused_priorities) + ", which carries no RoCE: PFC is enabled on the wrong class";
}

}  // namespace roceshark::pfc
