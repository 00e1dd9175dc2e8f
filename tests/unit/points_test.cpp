// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/points.h"

#include <gtest/gtest.h>

namespace roceshark::points {
namespace {

TEST(Points, KeyChoosesTheId) {
  EXPECT_EQ(frame_point(Key::interface, 3, 7, 100), 3u);
  EXPECT_EQ(frame_point(Key::erspan, 3, 7, 100), kErspan | 7);
  EXPECT_EQ(frame_point(Key::vlan, 3, 7, 100), kVlan | 100);
  // A frame without the key's header stays at its interface.
  EXPECT_EQ(frame_point(Key::erspan, 3, std::nullopt, 100), 3u);
  EXPECT_EQ(frame_point(Key::vlan, 3, 7, std::nullopt), 3u);
}

TEST(Points, Names) {
  Naming n;
  EXPECT_EQ(name(n, 2, "leaf-1"), "leaf-1");
  EXPECT_EQ(name(n, 2, "unknown"), "if2");  // pcap files name no interface
  EXPECT_EQ(name(n, 2, nullptr), "if2");
  EXPECT_EQ(name(n, kErspan | 5, nullptr), "erspan-5");
  EXPECT_EQ(name(n, kVlan | 100, nullptr), "vlan-100");
  n.names = {{"leaf-1", "spine-in"}, {"3", "nic-b"}, {"5", "tor"}, {"100", "rack-7"}};
  EXPECT_EQ(name(n, 2, "leaf-1"), "spine-in");  // by interface name
  EXPECT_EQ(name(n, 3, "eth3"), "nic-b");       // by interface id
  EXPECT_EQ(name(n, kErspan | 5, nullptr), "tor");
  EXPECT_EQ(name(n, kVlan | 100, nullptr), "rack-7");
  EXPECT_EQ(name(n, kVlan | 101, nullptr), "vlan-101");
}

}  // namespace
}  // namespace roceshark::points
