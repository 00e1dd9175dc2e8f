// SPDX-License-Identifier: GPL-2.0-or-later
// QoS fields; the checks' own are the catalogue's (register_checks.cpp).
#include "plugins/register.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

const true_false_string kPresent = {"Yes", "No"};

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

}  // namespace roceshark::glue
