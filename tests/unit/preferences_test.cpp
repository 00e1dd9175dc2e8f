// SPDX-License-Identifier: GPL-2.0-or-later
// The roce.* preference table: defaults that are the engine's defaults,
// values that apply, bad values that leave everything as it was.
#include "epan-ext/common/preferences.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace roceshark::prefs {
namespace {

TEST(Preferences, NamesAreUniqueAndDescribed) {
  std::set<std::string> names;
  for (const Preference& p : all()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    EXPECT_STRNE(p.title, "") << p.name;
    EXPECT_STRNE(p.description, "") << p.name;
    EXPECT_EQ(find(p.name), &p);
  }
  EXPECT_EQ(find("no_such_preference"), nullptr);
  EXPECT_EQ(find("roce.timeout_us"), nullptr);  // the name is without "roce."
}

// Every default, applied, changes nothing: the table and the engine agree.
TEST(Preferences, DefaultsAreTheEnginesDefaults) {
  Settings s;
  for (const Preference& p : all()) {
    std::string error;
    EXPECT_TRUE(set(s, p, p.initial, error)) << error;
  }
  const Config d;
  EXPECT_EQ(s.cfg.timeout_ns, d.timeout_ns);
  EXPECT_EQ(s.cfg.duplicate_window_ns, d.duplicate_window_ns);
  EXPECT_EQ(s.cfg.reorder_window_ns, d.reorder_window_ns);
  EXPECT_EQ(s.cfg.max_flows, d.max_flows);
  EXPECT_EQ(s.cfg.max_pfc_ports, d.max_pfc_ports);
  EXPECT_EQ(s.cfg.link_gbps, d.link_gbps);
  EXPECT_EQ(s.cfg.storm_ns, d.storm_ns);
  EXPECT_EQ(s.cfg.propagation_window_ns, d.propagation_window_ns);
  EXPECT_EQ(s.cfg.match_window_ns, d.match_window_ns);
  EXPECT_EQ(s.cfg.ecn_onset_tolerance_ns, d.ecn_onset_tolerance_ns);
  EXPECT_EQ(s.cfg.mtu_min_lost, d.mtu_min_lost);
  EXPECT_EQ(s.cfg.besteffort_share_pct, d.besteffort_share_pct);
  EXPECT_TRUE(s.cfg.policy == d.policy);
  EXPECT_EQ(s.cfg.health.loss_pct.warn, d.health.loss_pct.warn);
  EXPECT_EQ(s.cfg.health.stall_pct.fail, d.health.stall_pct.fail);
  EXPECT_EQ(s.cfg.clock_mode, ClockMode::synced);
  EXPECT_EQ(s.cfg.naming.key, points::Key::interface);
  EXPECT_TRUE(s.check_icrc);
}

TEST(Preferences, ValuesApply) {
  Settings s;
  std::string error;
  ASSERT_TRUE(set(s, *find("timeout_us"), "250", error)) << error;
  EXPECT_EQ(s.cfg.timeout_ns, 250'000u);
  ASSERT_TRUE(set(s, *find("storm_ms"), "5", error)) << error;
  EXPECT_EQ(s.cfg.storm_ns, 5'000'000u);
  ASSERT_TRUE(set(s, *find("lossless_priorities"), "0,3", error)) << error;
  EXPECT_EQ(s.cfg.policy.lossless_mask, 0x09);
  ASSERT_TRUE(set(s, *find("check_icrc"), "FALSE", error)) << error;
  EXPECT_FALSE(s.check_icrc);
  ASSERT_TRUE(set(s, *find("expect_ecn"), "false", error)) << error;
  EXPECT_FALSE(s.cfg.policy.expect_ecn);
  ASSERT_TRUE(set(s, *find("expect_ecn"), "True", error)) << error;
  EXPECT_TRUE(s.cfg.policy.expect_ecn);
  ASSERT_TRUE(set(s, *find("clock"), " estimate ", error)) << error;
  EXPECT_EQ(s.cfg.clock_mode, ClockMode::estimate);
  ASSERT_TRUE(set(s, *find("point_key"), "erspan", error)) << error;
  EXPECT_EQ(s.cfg.naming.key, points::Key::erspan);
  ASSERT_TRUE(set(s, *find("point_link_gbps"), "nic-a:25, leaf:1:400.5", error)) << error;
  ASSERT_EQ(s.cfg.point_gbps_by_name.size(), 2u);
  EXPECT_EQ(s.cfg.point_gbps_by_name[1].first, "leaf:1");  // the speed is after the last colon
  EXPECT_EQ(s.cfg.point_gbps_by_name[1].second, 400.5);
  ASSERT_TRUE(set(s, *find("health_ce_pct"), "2,7", error)) << error;
  EXPECT_EQ(s.cfg.health.ce_pct.fail, 7);
}

// A bad value: one sentence naming the preference and the value; the
// settings are as they were, even for a list whose first items were good.
TEST(Preferences, BadValuesChangeNothing) {
  const struct {
    const char* name;
    const char* text;
    const char* says;
  } bad[] = {
      {"timeout_us", "0", "'0'"},
      {"timeout_us", "abc", "abc"},
      {"link_gbps", "5000", "1-1600"},
      {"check_icrc", "maybe", "maybe"},
      // Wireshark reads them as FALSE; they are not what the user meant.
      {"check_icrc", "1", "'1' is not TRUE or FALSE"},
      {"check_icrc", "yes", "yes"},
      {"expect_ecn", "abc", "abc"},
      {"clock", "maybe", "synced or estimate"},
      {"point_key", "mac", "interface, erspan or vlan"},
      {"point_names", "5=a,5=b", "key=name"},
      {"point_link_gbps", "nic-a:25,leaf-1:nan", "leaf-1"},
      {"dscp_priority_map", "26:9", "26:9"},
      {"health_paused_pct", "50,200", "200"},
      // Names are printable text: an escape sequence or a newline would reach
      // the terminal (or forge a report line) through them.
      {"path_order", "nic-a,\x1b[31mleaf-1", "'\\x1b[31mleaf-1' holds a control character"},
      {"path_order", "nic-a,leaf\n#1 ERROR", "'leaf\\n#1 ERROR' holds a control character"},
      {"path_order", "nic-a,\xc2\x9b" "2J", "control character or invalid UTF-8"},
      {"path_order", "nic-a,\xff", "invalid UTF-8"},
      {"point_names", "5=a\ab", "control character"},
      {"point_names", "eth\x7f=a", "control character"},
      {"point_link_gbps", "nic\x1b:25", "control character"},
  };
  for (const auto& b : bad) {
    Settings s;
    s.cfg.point_gbps_by_name = {{"x", 10}};
    const Settings before = s;
    std::string error;
    EXPECT_FALSE(set(s, *find(b.name), b.text, error)) << b.name << ' ' << b.text;
    EXPECT_EQ(error.rfind(std::string("roce.") + b.name + ": ", 0), 0u) << error;
    EXPECT_NE(error.find(b.says), std::string::npos) << error;
    EXPECT_EQ(s.cfg.timeout_ns, before.cfg.timeout_ns);
    EXPECT_EQ(s.cfg.link_gbps, before.cfg.link_gbps);
    EXPECT_EQ(s.check_icrc, before.check_icrc);
    EXPECT_EQ(s.cfg.clock_mode, before.cfg.clock_mode);
    EXPECT_EQ(s.cfg.naming.names, before.cfg.naming.names);
    EXPECT_EQ(s.cfg.path_order_names, before.cfg.path_order_names);
    EXPECT_EQ(s.cfg.point_gbps_by_name, before.cfg.point_gbps_by_name);
    EXPECT_TRUE(s.cfg.policy == before.cfg.policy);
    EXPECT_EQ(s.cfg.health.paused_pct.fail, before.cfg.health.paused_pct.fail);
  }
}

}  // namespace
}  // namespace roceshark::prefs
