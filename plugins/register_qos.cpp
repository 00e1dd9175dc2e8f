// SPDX-License-Identifier: GPL-2.0-or-later
// QoS fields and the lossless-policy preferences; the checks' own are the
// catalogue's (register_checks.cpp).
#include <epan/prefs.h>

#include <string>

#include "epan-ext/qos_policy.h"
#include "plugins/register.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

const true_false_string kPresent = {"Yes", "No"};

// Defaults: common NVIDIA/Mellanox lossless setups (docs/qos.md).
const char* pref_map = "26:3,48:6";
const char* pref_lossless = "3";
guint pref_cnp_dscp = qos::kCnpDscp;
guint pref_cnp_priority = qos::kCnpPriority;
// Words rather than enum preferences: Wireshark silently ignores an unknown
// enum word, and a typo must not go unnoticed.
const char* pref_trust = "dscp";
ws::pref_bool pref_expect_ecn = TRUE;
const char* pref_mode = "configured";

}  // namespace

void register_qos_fields() {
  static hf_register_info hf[] = {
      {&ids.qos_priority, {"Priority (QoS)", "roce.qos.priority", FT_UINT8, BASE_DEC, nullptr, 0,
                           "The priority the fabric gives the packet under the trust mode", HFILL}},
      {&ids.qos_dscp, {"DSCP", "roce.qos.dscp", FT_UINT8, BASE_DEC, nullptr, 0,
                       "IP DSCP, or the GRH traffic class's (RoCEv1)", HFILL}},
      {&ids.qos_pcp, {"PCP", "roce.qos.pcp", FT_UINT8, BASE_DEC, nullptr, 0, "VLAN PCP of the RoCE packet", HFILL}},
      {&ids.qos_pcp_check, {"PCP check", "roce.qos.pcp_check", FT_STRING, BASE_NONE, nullptr, 0,
                            "Why the PCP check did not run", HFILL}},
      {&ids.qos_learning, {"Learning", "roce.qos.learning", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                           "Learned mode: too few packets yet to judge", HFILL}},
      {&ids.dcbx_pfc_enabled, {"DCBX PFC enabled", "roce.dcbx.pfc_enabled", FT_UINT8, BASE_HEX, nullptr, 0,
                               "Priorities this port announces PFC on (bit n = priority n)", HFILL}},
      {&ids.dcbx_app, {"DCBX APP DSCP", "roce.dcbx.app", FT_STRING, BASE_NONE, nullptr, 0,
                       "DSCP to priority entries (APP selector 5) this port announces", HFILL}},
      {&ids.dcbx_ets, {"DCBX ETS", "roce.dcbx.ets", FT_STRING, BASE_NONE, nullptr, 0,
                       "The ETS Configuration this port runs: traffic class per priority, and each class's algorithm "
                       "and bandwidth", HFILL}},
  };
  static gint* ett[] = {&ids.ett_qos, &ids.ett_dcbx};
  proto_register_field_array(ids.proto, hf, array_length(hf));
  proto_register_subtree_array(ett, array_length(ett));
}

void register_qos_preferences(module_t* m) {
  prefs_register_string_preference(m, "dscp_priority_map", "DSCP to priority map",
                                   "DSCP:priority overrides on top of DSCP>>3, e.g. 26:3,48:6", &pref_map);
  prefs_register_string_preference(m, "lossless_priorities", "Lossless priorities",
                                   "Priorities with PFC, e.g. 3 or 0,3", &pref_lossless);
  prefs_register_uint_preference(m, "cnp_dscp", "CNP DSCP", "The DSCP CNPs must carry (0-63)", 10, &pref_cnp_dscp);
  prefs_register_uint_preference(m, "cnp_priority", "CNP priority", "The PCP tagged CNPs must carry (0-7)", 10,
                                 &pref_cnp_priority);
  prefs_register_string_preference(m, "trust", "Trust mode", "Which marking the fabric queues by: dscp or pcp",
                                   &pref_trust);
  prefs_register_bool_preference(m, "expect_ecn", "Expect ECN",
                                 "RoCE data must be ECN-capable (ECT(0) or ECT(1)): DCQCN on", &pref_expect_ecn);
  prefs_register_string_preference(m, "policy_mode", "Policy mode",
                                   "configured: check against this policy; learned: learn the dominant marking from "
                                   "the capture",
                                   &pref_mode);
}

void apply_qos_preferences(Config& cfg, PrefErrors& errors) {
  qos::Policy& p = cfg.policy;
  std::string why;
  if (const auto map = qos::parse_dscp_map(pref_map ? pref_map : "", why)) p.dscp_priority = *map;
  else pref_error(errors, "dscp_priority_map", why);
  if (const auto lossless = qos::parse_priorities(pref_lossless ? pref_lossless : "", why)) p.lossless_mask = *lossless;
  else pref_error(errors, "lossless_priorities", why);
  apply_uint(errors, "cnp_dscp", pref_cnp_dscp, 0, 63, [&](uint64_t v) { p.cnp_dscp = static_cast<uint8_t>(v); });
  apply_uint(errors, "cnp_priority", pref_cnp_priority, 0, 7,
             [&](uint64_t v) { p.cnp_priority = static_cast<uint8_t>(v); });
  if (const auto trust = qos::parse_trust(pref_trust ? pref_trust : "", why)) p.trust = *trust;
  else pref_error(errors, "trust", why);
  if (const auto mode = qos::parse_mode(pref_mode ? pref_mode : "", why)) p.mode = *mode;
  else pref_error(errors, "policy_mode", why);
  p.expect_ecn = pref_expect_ecn;
}

}  // namespace roceshark::glue
