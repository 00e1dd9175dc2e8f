// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/lldp.h"

namespace roceshark::qos {
namespace {
constexpr uint8_t kOrgSpecific = 127, kEnd = 0;
constexpr uint8_t kIeee8021[3] = {0x00, 0x80, 0xC2}, kIeee8023[3] = {0x00, 0x12, 0x0F};
constexpr uint8_t kPfcConfig = 0x0B, kAppPriority = 0x0C, kSelectorDscp = 5;
constexpr uint8_t kMaxFrameSize = 4;  // 802.3 subtype
constexpr uint8_t kEtsConfig = 0x09, kEtsRecommendation = 0x0A;
constexpr size_t kEtsTables = 4 + 8 + 8;  // priority assignment, bandwidth, TSA

// The three tables after the TLV's first byte (willing/CBS/max TCs, or reserved).
EtsTable ets_tables(std::span<const uint8_t> t) {
  EtsTable e;
  for (size_t prio = 0; prio < 8; ++prio)
    e.tc[prio] = static_cast<uint8_t>(prio % 2 ? t[prio / 2] & 0x0F : t[prio / 2] >> 4);
  for (size_t tc = 0; tc < 8; ++tc) {
    e.bw[tc] = t[4 + tc];
    e.tsa[tc] = t[12 + tc];
  }
  return e;
}

bool oui_is(std::span<const uint8_t> info, const uint8_t (&oui)[3]) {
  return info[0] == oui[0] && info[1] == oui[1] && info[2] == oui[2];
}
}  // namespace

std::optional<DcbxAnnouncement> parse_lldp_dcbx(std::span<const uint8_t> pdu) {
  DcbxAnnouncement a;
  bool any = false;
  for (size_t at = 0; at + 2 <= pdu.size();) {
    const auto type = static_cast<uint8_t>(pdu[at] >> 1);
    const size_t len = size_t{pdu[at] & 1u} << 8 | pdu[at + 1];
    at += 2;
    if (type == kEnd || at + len > pdu.size()) break;  // a cut TLV ends what can be read
    const auto info = pdu.subspan(at, len);
    at += len;
    if (type != kOrgSpecific || len < 4) continue;
    if (oui_is(info, kIeee8023)) {
      // A zero size says nothing a port could enforce.
      if (info[3] == kMaxFrameSize && len >= 6 && (info[4] | info[5])) {
        a.max_frame_size = static_cast<uint16_t>(info[4] << 8 | info[5]);
        any = true;
      }
      continue;
    }
    if (!oui_is(info, kIeee8021)) continue;
    if ((info[3] == kEtsConfig || info[3] == kEtsRecommendation) && len >= 5 + kEtsTables) {
      (info[3] == kEtsConfig ? a.ets : a.ets_recommended) = ets_tables(info.subspan(5, kEtsTables));
      any = true;
    } else if (info[3] == kPfcConfig && len >= 6) {
      a.has_pfc = true;
      a.pfc_enabled = info[5];
      any = true;
    } else if (info[3] == kAppPriority && len >= 5) {
      for (size_t e = 5; e + 3 <= len; e += 3) {
        const uint8_t b = info[e];
        if ((b & 0x07) != kSelectorDscp) continue;
        const auto dscp = static_cast<uint16_t>(info[e + 1] << 8 | info[e + 2]);
        if (dscp < 64) a.app_dscp.emplace_back(static_cast<uint8_t>(dscp), static_cast<uint8_t>(b >> 5));
      }
      any = true;
    }
  }
  return any ? std::optional(a) : std::nullopt;
}

}  // namespace roceshark::qos
