// SPDX-License-Identifier: GPL-2.0-or-later
// Multi-point fields: capture points, the same packet at
// several of them, clocks. The checks' fields and expert infos are the
// catalogue's (register_checks.cpp).
#include "plugins/register.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

const true_false_string kPresent = {"Yes", "No"};

}  // namespace

void register_hop_fields() {
  static hf_register_info hf[] = {
      {&ids.hop_prev_point, {"Previous point", "roce.hop.prev_point", FT_UINT32, BASE_DEC, nullptr, 0,
                             "The capture point that saw this packet just before (its id)", HFILL}},
      {&ids.hop_prev_point_name, {"Previous point name", "roce.hop.prev_point_name", FT_STRING, BASE_NONE, nullptr, 0,
                                  "The capture point that saw this packet just before", HFILL}},
      {&ids.hop_prev_frame, {"Previous frame", "roce.hop.prev_frame", FT_FRAMENUM, BASE_NONE, nullptr, 0,
                             "The same packet at the previous point", HFILL}},
      {&ids.hop_latency_ns, {"Hop latency (ns)", "roce.hop.latency_ns", FT_INT64, BASE_DEC, nullptr, 0,
                             "From the previous point to this one (clock-corrected with roce.clock:estimate)", HFILL}},
      {&ids.hop_queue_ns, {"Queueing (ns)", "roce.hop.queue_ns", FT_UINT64, BASE_DEC, nullptr, 0,
                           "Hop latency above the hop's minimum so far: time spent queueing", HFILL}},
      {&ids.hop_ce_set, {"CE set", "roce.hop.ce_set", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                         "ECN-CE here but not at the previous point: marked in between", HFILL}},
      {&ids.hop_ttl_delta, {"TTL change", "roce.hop.ttl_delta", FT_INT32, BASE_DEC, nullptr, 0,
                            "TTL (hop limit) here minus at the previous point", HFILL}},
  };
  static gint* ett[] = {&ids.ett_hop};
  proto_register_field_array(ids.proto, hf, array_length(hf));
  proto_register_subtree_array(ett, array_length(ett));
}

}  // namespace roceshark::glue
