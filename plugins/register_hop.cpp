// SPDX-License-Identifier: GPL-2.0-or-later
// Multi-point fields and preferences: capture points, the same packet at
// several of them, clocks. The checks' fields and expert infos are the
// catalogue's (register_checks.cpp).
#include <epan/prefs.h>

#include <string>
#include <utility>

#include "plugins/points.h"
#include "plugins/register.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

const true_false_string kPresent = {"Yes", "No"};

const char* pref_clock = "synced";
const char* pref_point_key = "interface";
const char* pref_point_names = "";
const char* pref_path_order = "";
guint pref_match_window_us = 10'000;
guint pref_microburst_us = 10;
guint pref_ecn_onset_tolerance_us = 20;
guint pref_mtu_min_lost = 3;

// The capture point naming last applied: a bad key or name list keeps it.
points::Naming naming;

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

void register_hop_preferences(module_t* m) {
  prefs_register_string_preference(m, "clock", "Clocks", "synced: trust the timestamps (PTP/hardware taps); estimate: "
                                   "estimate each point's offset from traffic seen both ways", &pref_clock);
  prefs_register_string_preference(m, "point_key", "Capture point key",
                                   "interface (pcapng interface), erspan (ERSPAN session id) or vlan (outer VLAN id)",
                                   &pref_point_key);
  prefs_register_string_preference(m, "point_names", "Capture point names",
                                   "key=name pairs: interface name or id, ERSPAN session or VLAN id, e.g. 5=leaf-1",
                                   &pref_point_names);
  prefs_register_string_preference(m, "path_order", "Path order",
                                   "Capture point names from one end of the path to the other, e.g. nic-a,leaf-1,nic-b",
                                   &pref_path_order);
  prefs_register_uint_preference(m, "match_window_us", "Match window (us)",
                                 "How long copies of a packet are looked for at other points (default 10 ms; a packet held longer is not matched)", 10,
                                 &pref_match_window_us);
  prefs_register_uint_preference(m, "microburst_us", "Microburst threshold (us)",
                                 "Queueing above a hop's minimum latency this much is a microburst", 10,
                                 &pref_microburst_us);
  prefs_register_uint_preference(m, "ecn_onset_tolerance_us", "ECN onset tolerance (us)",
                                 "A hop whose ECN marking starts this much later than another's of the same priority, "
                                 "or that queues this much beyond the other's onset without marking, is configured "
                                 "differently (default 20 us: 250 KB at 100 Gb/s)",
                                 10, &pref_ecn_onset_tolerance_us);
  prefs_register_uint_preference(m, "mtu_min_lost", "MTU: lost frames needed",
                                 "Frames lost on a hop, all longer than any that crossed it, before their size is taken "
                                 "as the cause (an MTU); default 3: one or two long frames lost is congestion as often",
                                 10, &pref_mtu_min_lost);
}

void apply_hop_preferences(Config& cfg, PrefErrors& errors) {
  const std::string clock(options::trim(pref_clock ? pref_clock : ""));
  if (clock == "synced" || clock == "estimate") cfg.clock_mode = clock == "estimate" ? ClockMode::estimate : ClockMode::synced;
  else pref_error(errors, "clock", "unknown mode '" + clock + "': use synced or estimate");
  const std::string key_text(options::trim(pref_point_key ? pref_point_key : ""));
  if (const auto key = points::parse_key(key_text)) naming.key = *key;
  else pref_error(errors, "point_key", "unknown key '" + key_text + "': use interface, erspan or vlan");
  std::string why;
  if (auto names = options::parse_pairs(pref_point_names ? pref_point_names : "", '=', why)) naming.names = std::move(*names);
  else pref_error(errors, "point_names", why + " (expected key=name, e.g. 5=leaf-1)");
  set_point_naming(naming);
  if (auto order = options::parse_list(pref_path_order ? pref_path_order : "", why)) cfg.path_order_names = std::move(*order);
  else pref_error(errors, "path_order", why + " (expected point names, e.g. nic-a,leaf-1,nic-b)");
  apply_uint(errors, "match_window_us", pref_match_window_us, 1, kMaxWindowUs,
             [&](uint64_t v) { cfg.match_window_ns = v * 1000; });
  apply_uint(errors, "microburst_us", pref_microburst_us, 1, kMaxWindowUs,
             [&](uint64_t v) { cfg.microburst_ns = v * 1000; });
  apply_uint(errors, "ecn_onset_tolerance_us", pref_ecn_onset_tolerance_us, 1, kMaxWindowUs,
             [&](uint64_t v) { cfg.ecn_onset_tolerance_ns = v * 1000; });
  apply_uint(errors, "mtu_min_lost", pref_mtu_min_lost, 1, 1'000'000,
             [&](uint64_t v) { cfg.mtu_min_lost = static_cast<uint32_t>(v); });
}

}  // namespace roceshark::glue
