// SPDX-License-Identifier: GPL-2.0-or-later
// What one LLDP PDU announces about a port's DCB settings (IEEE 802.1Qaz
// DCBX TLVs, the 802.3 maximum frame size), as the decoder hands it over.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace roceshark::qos {

// An ETS table (802.1Qaz ETS Configuration or Recommendation TLV).
struct EtsTable {
  std::array<uint8_t, 8> tc{};   // by priority: its traffic class
  std::array<uint8_t, 8> bw{};   // by traffic class: its bandwidth share, percent
  std::array<uint8_t, 8> tsa{};  // by traffic class: its transmission selection algorithm
  bool operator==(const EtsTable&) const = default;
};
inline constexpr uint8_t kTsaStrict = 0, kTsaCbs = 1, kTsaEts = 2, kTsaVendor = 255;

struct DcbxAnnouncement {
  uint32_t point = 0;
  std::array<uint8_t, 6> mac{};  // the announcing port (LLDP source MAC)
  bool has_pfc = false;          // a PFC Configuration TLV was present
  uint8_t pfc_enabled = 0;       // bit p: PFC enabled on priority p
  std::vector<std::pair<uint8_t, uint8_t>> app_dscp;  // (dscp, priority), APP selector 5
  uint16_t max_frame_size = 0;   // 802.3 Maximum Frame Size TLV (bytes, FCS included); 0: not announced
  std::optional<EtsTable> ets;              // ETS Configuration: what the port runs
  std::optional<EtsTable> ets_recommended;  // ETS Recommendation: what it asks of a willing peer
  bool operator==(const DcbxAnnouncement&) const = default;
};

}  // namespace roceshark::qos
