// SPDX-License-Identifier: GPL-2.0-or-later
// PFC fields, expert infos and preferences of the `roce` protocol.
#include <epan/expert.h>
#include <epan/prefs.h>

#include <string>
#include <utility>
#include <vector>

#include "plugins/register.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

const true_false_string kPresent = {"Yes", "No"};

guint pref_link_gbps = 100;
const char* pref_point_gbps = "";
guint pref_storm_ms = 1;
guint pref_storm_gap_us = 100;
guint pref_ecn_window_us = 1000;
guint pref_propagation_us = 1000;

}  // namespace

void register_pfc_fields() {
  static hf_register_info hf[] = {
      {&ids.pfc_priority, {"Priority", "roce.pfc.priority", FT_UINT8, BASE_DEC, nullptr, 0,
                           "A class this PFC frame enables", HFILL}},
      {&ids.pfc_pause_ns, {"Pause (ns)", "roce.pfc.pause_ns", FT_UINT64, BASE_DEC, nullptr, 0,
                           "Pause time of the class at this link's speed (quanta x 512 bit times)", HFILL}},
      {&ids.pfc_xon, {"XON", "roce.pfc.xon", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                      "Quanta 0: the class may send again", HFILL}},
      {&ids.pfc_storm_frame, {"Storm frame", "roce.pfc.storm_frame", FT_FRAMENUM, BASE_NONE, nullptr, 0,
                              "The frame that started the storm this pause follows", HFILL}},
      {&ids.pfc_paused, {"Paused", "roce.pfc.paused", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                         "A pause of this packet's priority on its link held it: its direction was silent while "
                         "the pause was in force and it left in the backlog released right after",
                         HFILL}},
      {&ids.pfc_pause_frame, {"Pause frame", "roce.pfc.pause_frame", FT_FRAMENUM, BASE_NONE, nullptr, 0,
                              "The PFC frame whose pause held this packet", HFILL}},
      {&ids.pfc_stall_ns, {"Stall (ns)", "roce.pfc.stall_ns", FT_UINT64, BASE_DEC, nullptr, 0,
                           "Pause time newly attributed to this packet's QP", HFILL}},
      {&ids.pfc_unattributed, {"Unattributed", "roce.pfc.unattributed", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                               "Released back to back after a pause, but its MACs put it on both sides of the link: "
                               "neither held nor counted",
                               HFILL}},
      {&ids.priority, {"Priority", "roce.priority", FT_UINT8, BASE_DEC, nullptr, 0,
                       "The packet's priority: VLAN PCP when tagged, else from its DSCP", HFILL}},
  };
  static ei_register_info ei[] = {
      {&ids.ei_pfc_unattributed, {"roce.pfc.unattributed.expert", PI_SEQUENCE, PI_NOTE,
                                  "Pause attribution ambiguous", EXPFILL}},
  };
  static gint* ett[] = {&ids.ett_pfc, &ids.ett_pfc_class};
  proto_register_field_array(ids.proto, hf, array_length(hf));
  proto_register_subtree_array(ett, array_length(ett));
  expert_register_field_array(expert_register_protocol(ids.proto), ei, array_length(ei));
}

void register_pfc_preferences(module_t* m) {
  prefs_register_uint_preference(m, "link_gbps", "Link speed (Gb/s)",
                                 "Speed of the tapped links: a PFC quantum is 512 bit times", 10, &pref_link_gbps);
  prefs_register_string_preference(m, "point_link_gbps", "Link speed per capture point",
                                   "Overrides by capture point name, e.g. nic-a:25,leaf-1:400", &pref_point_gbps);
  prefs_register_uint_preference(m, "storm_ms", "PFC storm threshold (ms)",
                                 "Pause asserted this long (refreshed with gaps under roce.storm_gap_us) is a storm",
                                 10, &pref_storm_ms);
  prefs_register_uint_preference(m, "storm_gap_us", "PFC storm gap (us)",
                                 "Pauses this close together count as one continuous pause", 10, &pref_storm_gap_us);
  prefs_register_uint_preference(m, "ecn_window_us", "ECN-before-pause window (us)",
                                 "A pause with no ECN-CE mark or CNP on its link this long before it is flagged", 10,
                                 &pref_ecn_window_us);
  prefs_register_uint_preference(m, "propagation_window_us", "Pause propagation window (us)",
                                 "A pause at one point this soon after a storm at another is its propagation", 10,
                                 &pref_propagation_us);
}

void apply_pfc_preferences(Config& cfg, PrefErrors& errors) {
  apply_uint(errors, "link_gbps", pref_link_gbps, kMinGbps, kMaxGbps, [&](uint64_t v) { cfg.link_gbps = double(v); });
  apply_uint(errors, "storm_ms", pref_storm_ms, 1, kMaxWindowUs / 1000, [&](uint64_t v) { cfg.storm_ns = v * 1'000'000; });
  apply_uint(errors, "storm_gap_us", pref_storm_gap_us, 1, kMaxWindowUs, [&](uint64_t v) { cfg.storm_gap_ns = v * 1000; });
  apply_uint(errors, "ecn_window_us", pref_ecn_window_us, 1, kMaxWindowUs,
             [&](uint64_t v) { cfg.ecn_window_ns = v * 1000; });
  apply_uint(errors, "propagation_window_us", pref_propagation_us, 1, kMaxWindowUs,
             [&](uint64_t v) { cfg.propagation_window_ns = v * 1000; });
  // "name:gbps,name:gbps"; a name may hold colons, the speed is after the last one.
  std::string why;
  const auto pairs = options::parse_pairs(pref_point_gbps ? pref_point_gbps : "", ':', why, options::SplitAt::last);
  if (!pairs) return pref_error(errors, "point_link_gbps", why + " (expected point:gbps, e.g. nic-a:25,leaf-1:400)");
  std::vector<std::pair<std::string, double>> by_name;
  for (const auto& [name, text] : *pairs) {
    const auto gbps = options::parse_decimal(text, kMinGbps, kMaxGbps, why);
    if (!gbps) return pref_error(errors, "point_link_gbps", name + ": " + why);
    by_name.emplace_back(name, *gbps);
  }
  cfg.point_gbps_by_name = std::move(by_name);
}

}  // namespace roceshark::glue
