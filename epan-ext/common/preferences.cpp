// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/preferences.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "epan-ext/common/option_list.h"
#include "epan-ext/common/printable.h"
#include "epan-ext/common/qos_policy.h"

namespace roceshark::prefs {
namespace {

// Windows in microseconds: above 0 and at most a minute.
constexpr uint64_t kMaxWindowUs = 60'000'000;
// Link speeds in Gb/s.
constexpr double kMinGbps = 1, kMaxGbps = 1600;
// Flows, points, (flow, point) states and pausing ports analysed per file:
// at least one, at most 2^24 (memory).
constexpr uint64_t kMaxLimit = 1u << 24;

using Apply = std::function<bool(Settings&, std::string_view, std::string&)>;

Preference number(const char* name, const char* title, const char* description, uint64_t initial, uint64_t lo,
                  uint64_t hi, std::function<void(Settings&, uint64_t)> store) {
  return {name, title, description, Type::number, std::to_string(initial),
          [lo, hi, store](Settings& s, std::string_view text, std::string& why) {
            const auto v = options::parse_unsigned(text, lo, hi, why);
            if (v) store(s, *v);
            return v.has_value();
          },
          {}};
}

// A window in microseconds, kept in the configuration in nanoseconds.
Preference window_us(const char* name, const char* title, const char* description, uint64_t Config::*ns) {
  return number(name, title, description, Config{}.*ns / 1000, 1, kMaxWindowUs,
                [ns](Settings& s, uint64_t us) { s.cfg.*ns = us * 1000; });
}

Preference limit(const char* name, const char* title, const char* description, uint32_t Config::*field) {
  return number(name, title, description, Config{}.*field, 1, kMaxLimit,
                [field](Settings& s, uint64_t v) { s.cfg.*field = static_cast<uint32_t>(v); });
}

Preference text(const char* name, const char* title, const char* description, std::string initial, Apply apply) {
  return {name, title, description, Type::text, std::move(initial), std::move(apply), {}};
}

// One word of `words`, any case, spaces around; `store` gets its index.
Preference choice(const char* name, const char* title, const char* description, std::vector<const char*> words,
                  size_t initial, std::function<void(Settings&, size_t)> store) {
  Preference p{name, title, description, Type::choice, words[initial], {}, words};
  p.apply = [words, store](Settings& s, std::string_view text, std::string& why) {
    std::string t(options::trim(text));
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (size_t i = 0; i < words.size(); ++i)
      if (t == words[i]) {
        store(s, i);
        return true;
      }
    why = "unknown value '" + std::string(options::trim(text)) + "': use ";
    for (size_t i = 0; i < words.size(); ++i)
      why += std::string(i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return false;
  };
  return p;
}

Preference flag(const char* name, const char* title, const char* description, bool initial,
                void (*store)(Settings&, bool)) {
  return {name, title, description, Type::flag, flag_text(initial),
          [store](Settings& s, std::string_view text, std::string& why) {
            // What Wireshark takes for a boolean: TRUE or FALSE in any case
            // (it reads anything else as FALSE; we reject it).
            std::string t(options::trim(text));
            std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
            if (t != "true" && t != "false") {
              why = "'" + std::string(text) + "' is not TRUE or FALSE";
              return false;
            }
            store(s, t == "true");
            return true;
          },
          {}};
}

// A parser returning optional<T> (qos::parse_*, parse_threshold)
// applied through `store` when it accepts the text.
template <class Parse, class Store>
Apply parsed(Parse parse, Store store, std::string hint = {}) {
  return [parse, store, hint](Settings& s, std::string_view text, std::string& why) {
    auto v = parse(text, why);
    if (!v) {
      why += hint;
      return false;
    }
    store(s, std::move(*v));
    return true;
  };
}

// A point name (or interface name) the user typed: printable text, so that
// no escape sequence reaches a terminal or a report through it.
bool printable_name(std::string_view name, std::string& why) {
  if (is_printable(name)) return true;
  why = "'" + printable(name) + "' holds a control character or invalid UTF-8: names are printable text";
  return false;
}

// "name:gbps,name:gbps"; a name may hold colons, the speed is after the last one.
bool apply_point_gbps(Settings& s, std::string_view text, std::string& why) {
  auto pairs = options::parse_pairs(text, ':', why, options::SplitAt::last);
  for (size_t i = 0; pairs && i < pairs->size(); ++i)
    if (!printable_name((*pairs)[i].first, why)) pairs.reset();
  if (!pairs) {
    why += " (expected point:gbps, e.g. nic-a:25,leaf-1:400)";
    return false;
  }
  std::vector<std::pair<std::string, double>> by_name;
  for (const auto& [name, speed] : *pairs) {
    const auto gbps = options::parse_decimal(speed, kMinGbps, kMaxGbps, why);
    if (!gbps) {
      why = name + ": " + why;
      return false;
    }
    by_name.emplace_back(name, *gbps);
  }
  s.cfg.point_gbps_by_name = std::move(by_name);
  return true;
}

Preference health(const char* name, const char* title, const char* description, Threshold HealthLimits::*limit,
                  double max) {
  return text(name, title, description, format_threshold(HealthLimits{}.*limit),
              parsed([max](std::string_view t, std::string& why) { return parse_threshold(t, why, max); },
                     [limit](Settings& s, Threshold v) { s.cfg.health.*limit = v; }));
}

std::vector<Preference> build() {
  const qos::Policy policy;
  std::vector<Preference> p;
  // Sequence analysis.
  p.push_back(window_us("timeout_us", "Timeout threshold (us)",
                        "A retransmission with no NAK before it, after at least this much silence on its flow, is a "
                        "timeout retransmission",
                        &Config::timeout_ns));
  p.push_back(window_us("duplicate_window_us", "Duplicate window (us)",
                        "The same packet again within this window, with no NAK between, is a capture duplicate (SPAN "
                        "mirroring both directions), not a retransmission",
                        &Config::duplicate_window_ns));
  p.push_back(window_us("reorder_window_us", "Reorder window (us)",
                        "A skipped PSN arriving within this time of the packet that skipped it, with no NAK, RNR NAK "
                        "or timer that could have made the sender resend it, is out of order (adaptive routing), not "
                        "a loss",
                        &Config::reorder_window_ns));
  p.push_back(flag("check_icrc", "Validate the ICRC", "Recompute the invariant CRC of every fully captured RoCE packet",
                   true, [](Settings& s, bool on) { s.check_icrc = on; }));
  // The limits on hostile captures (epan-ext/common/limits.h).
  p.push_back(limit("max_flows", "Flow limit",
                    "Flows analysed per file; packets of further flows are counted, not analysed", &Config::max_flows));
  p.push_back(limit("max_points", "Capture point limit",
                    "Capture points analysed per file; RoCE and PFC frames at further points are counted, not analysed",
                    &Config::max_points));
  p.push_back(limit("max_flow_points", "Flow and point limit",
                    "(Flow, capture point) pairs analysed per file; packets of further pairs are counted, not analysed",
                    &Config::max_flow_points));
  p.push_back(limit("max_pfc_ports", "Pausing port limit",
                    "(Capture point, source MAC) pairs whose PFC frames are analysed per file; PFC frames from "
                    "further ports are counted, not analysed",
                    &Config::max_pfc_ports));
  p.push_back(number("flow_idle_s", "Idle flow expiry (s)",
                     "A flow quiet this long at a capture point has its sequence state there freed (its statistics "
                     "are kept); its next packet there starts afresh. 0: never",
                     Config{}.flow_idle_ns / 1'000'000'000, 0, 86'400,
                     [](Settings& s, uint64_t v) { s.cfg.flow_idle_ns = v * 1'000'000'000; }));
  // PFC.
  p.push_back(number("link_gbps", "Link speed (Gb/s)", "Speed of the tapped links: a PFC quantum is 512 bit times",
                     uint64_t(Config{}.link_gbps), uint64_t(kMinGbps), uint64_t(kMaxGbps),
                     [](Settings& s, uint64_t v) { s.cfg.link_gbps = double(v); }));
  p.push_back(text("point_link_gbps", "Link speed per capture point",
                   "Overrides by capture point name, e.g. nic-a:25,leaf-1:400", "", apply_point_gbps));
  p.push_back(number("storm_ms", "PFC storm threshold (ms)",
                     "Pauses this long (gaps under roce.storm_gap_us) are a storm when paused roce.storm_share_pct of it",
                     Config{}.storm_ns / 1'000'000, 1, kMaxWindowUs / 1000,
                     [](Settings& s, uint64_t v) { s.cfg.storm_ns = v * 1'000'000; }));
  p.push_back(number("storm_share_pct", "PFC storm paused share (%)",
                     "An episode of roce.storm_ms is a storm when the class was paused this share of it or more; "
                     "less is pause chatter",
                     Config{}.storm_share_pct, 1, 100, [](Settings& s, uint64_t v) { s.cfg.storm_share_pct = v; }));
  p.push_back(window_us("storm_gap_us", "PFC storm gap (us)", "Pauses this close together count as one continuous pause",
                        &Config::storm_gap_ns));
  p.push_back(window_us("ecn_window_us", "ECN-before-pause window (us)",
                        "A pause with no ECN-CE mark or CNP on its link this long before it is flagged",
                        &Config::ecn_window_ns));
  p.push_back(window_us("propagation_window_us", "Pause propagation window (us)",
                        "A pause at one point this soon after a storm at another is its propagation",
                        &Config::propagation_window_ns));
  // The lossless policy (docs/qos.md). Words rather than Wireshark enum
  // preferences: Wireshark silently ignores an unknown enum word, and a typo
  // must not go unnoticed.
  p.push_back(text("dscp_priority_map", "DSCP to priority map",
                   "DSCP:priority overrides on top of DSCP>>3, e.g. 26:3,48:6", "26:3,48:6",
                   parsed(qos::parse_dscp_map, [](Settings& s, auto map) { s.cfg.policy.dscp_priority = map; })));
  p.push_back(text("lossless_priorities", "Lossless priorities", "Priorities with PFC, e.g. 3 or 0,3",
                   qos::format_priorities(policy.lossless_mask),
                   parsed(qos::parse_priorities, [](Settings& s, uint8_t m) { s.cfg.policy.lossless_mask = m; })));
  p.push_back(number("cnp_dscp", "CNP DSCP", "The DSCP CNPs must carry (0-63)", policy.cnp_dscp, 0, 63,
                     [](Settings& s, uint64_t v) { s.cfg.policy.cnp_dscp = static_cast<uint8_t>(v); }));
  p.push_back(number("cnp_priority", "CNP priority", "The PCP tagged CNPs must carry (0-7)", policy.cnp_priority, 0, 7,
                     [](Settings& s, uint64_t v) { s.cfg.policy.cnp_priority = static_cast<uint8_t>(v); }));
  p.push_back(choice("trust", "Trust mode", "Which marking the fabric queues by: dscp or pcp", {"dscp", "pcp"},
                     policy.trust == qos::Trust::pcp,
                     [](Settings& s, size_t i) { s.cfg.policy.trust = i ? qos::Trust::pcp : qos::Trust::dscp; }));
  p.push_back(flag("expect_ecn", "Expect ECN", "RoCE data must be ECN-capable (ECT(0) or ECT(1)): DCQCN on",
                   policy.expect_ecn, [](Settings& s, bool on) { s.cfg.policy.expect_ecn = on; }));
  p.push_back(choice("policy_mode", "Policy mode",
                     "configured: check against this policy; learned: learn the dominant marking from the capture",
                     {"configured", "learned"}, policy.mode == qos::Mode::learned,
                     [](Settings& s, size_t i) { s.cfg.policy.mode = i ? qos::Mode::learned : qos::Mode::configured; }));
  // Capture points and hops (docs/multipoint.md).
  p.push_back(choice("clock", "Clocks",
                     "synced: trust the timestamps (PTP/hardware taps); estimate: estimate each point's offset from "
                     "traffic seen both ways",
                     {"synced", "estimate"}, 0,
                     [](Settings& s, size_t i) { s.cfg.clock_mode = i ? ClockMode::estimate : ClockMode::synced; }));
  // In points::Key's order.
  p.push_back(choice("point_key", "Capture point key",
                     "interface (pcapng interface), erspan (ERSPAN session id) or vlan (outer VLAN id)",
                     {"interface", "erspan", "vlan"}, 0,
                     [](Settings& s, size_t i) { s.cfg.naming.key = static_cast<points::Key>(i); }));
  p.push_back(text("point_names", "Capture point names",
                   "key=name pairs: interface name or id, ERSPAN session or VLAN id, e.g. 5=leaf-1", "",
                   parsed([](std::string_view t, std::string& why) {
                            auto pairs = options::parse_pairs(t, '=', why);
                            for (size_t i = 0; pairs && i < pairs->size(); ++i)
                              if (!printable_name((*pairs)[i].first, why) || !printable_name((*pairs)[i].second, why))
                                pairs.reset();
                            return pairs;
                          },
                          [](Settings& s, auto names) { s.cfg.naming.names = std::move(names); },
                          " (expected key=name, e.g. 5=leaf-1)")));
  p.push_back(text("path_order", "Path order",
                   "Capture point names from one end of the path to the other, e.g. nic-a,leaf-1,nic-b", "",
                   parsed([](std::string_view t, std::string& why) {
                            auto order = options::parse_list(t, why);
                            for (size_t i = 0; order && i < order->size(); ++i)
                              if (!printable_name((*order)[i], why)) order.reset();
                            return order;
                          },
                          [](Settings& s, auto order) { s.cfg.path_order_names = std::move(order); },
                          " (expected point names, e.g. nic-a,leaf-1,nic-b)")));
  p.push_back(window_us("match_window_us", "Match window (us)",
                        "How long copies of a packet are looked for at other points (default 10 ms; a packet held "
                        "longer is not matched)",
                        &Config::match_window_ns));
  p.push_back(window_us("microburst_us", "Microburst threshold (us)",
                        "Queueing above a hop's minimum latency this much is a microburst", &Config::microburst_ns));
  p.push_back(window_us("ecn_onset_tolerance_us", "ECN onset tolerance (us)",
                        "A hop whose ECN marking starts this much later than another's of the same priority, or that "
                        "queues this much beyond the other's onset without marking, is configured differently "
                        "(default 20 us: 250 KB at 100 Gb/s)",
                        &Config::ecn_onset_tolerance_ns));
  p.push_back(number("mtu_min_lost", "MTU: lost frames needed",
                     "Frames lost on a hop, all longer than any that crossed it, before their size is taken as the "
                     "cause (an MTU); default 3: one or two long frames lost is congestion as often",
                     Config{}.mtu_min_lost, 1, 1'000'000,
                     [](Settings& s, uint64_t v) { s.cfg.mtu_min_lost = static_cast<uint32_t>(v); }));
  p.push_back(number("besteffort_share_pct", "Best-effort share limit (%)",
                     "While RoCE waits at a hop, best-effort traffic taking more than this share of the bytes that "
                     "leave through it is served ahead of RoCE (default 50: RoCE's ETS share is at least half)",
                     Config{}.besteffort_share_pct, 1, 99,
                     [](Settings& s, uint64_t v) { s.cfg.besteffort_share_pct = static_cast<uint8_t>(v); }));
  // The health baseline of -z roce,triage: "WARN,FAIL"; percentages stop at 100.
  p.push_back(health("health_loss_pct", "Health: loss (%)",
                     "WARN,FAIL: loss or timer recoveries per request, in percent", &HealthLimits::loss_pct, 100));
  p.push_back(health("health_hop_latency_us", "Health: hop latency (us)", "WARN,FAIL: the worst hop's average latency",
                     &HealthLimits::hop_latency_us, 1e9));
  p.push_back(health("health_ecn_spread_us", "Health: ECN onset spread (us)",
                     "WARN,FAIL: how much later than the earliest-marking hop of its priority another hop starts "
                     "marking ECN (default 10,20: WARN above two estimators' error, FAIL above the default "
                     "roce.ecn_onset_tolerance_us)",
                     &HealthLimits::ecn_spread_us, 1e9));
  p.push_back(health("health_pfc_per_s", "Health: PFC frames per second",
                     "WARN,FAIL: PFC frames per second of the busiest (point, MAC, priority)", &HealthLimits::pfc_per_s,
                     1e9));
  p.push_back(health("health_paused_pct", "Health: paused (%)",
                     "WARN,FAIL: share of the capture span the busiest class was paused", &HealthLimits::paused_pct,
                     100));
  p.push_back(health("health_ce_pct", "Health: ECN-CE (%)", "WARN,FAIL: requests marked ECN-CE, in percent",
                     &HealthLimits::ce_pct, 100));
  p.push_back(health("health_stall_pct", "Health: stalled (%)", "WARN,FAIL: share of QP time stalled by the network",
                     &HealthLimits::stall_pct, 100));
  return p;
}

}  // namespace

std::span<const Preference> all() {
  static const std::vector<Preference> table = build();
  return table;
}

const Preference* find(std::string_view name) {
  for (const Preference& p : all())
    if (name == p.name) return &p;
  return nullptr;
}

bool set(Settings& s, const Preference& p, std::string_view text, std::string& error) {
  std::string why;
  if (p.apply(s, text, why)) return true;
  error = std::string("roce.") + p.name + ": " + why;
  return false;
}

}  // namespace roceshark::prefs
