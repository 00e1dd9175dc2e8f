// SPDX-License-Identifier: GPL-2.0-or-later
// PFC fields and expert infos of the `roce` protocol.
#include <epan/expert.h>

#include "plugins/register.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

const true_false_string kPresent = {"Yes", "No"};

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

}  // namespace roceshark::glue
