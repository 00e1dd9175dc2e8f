// SPDX-License-Identifier: GPL-2.0-or-later
// MAC names from ethers files as Wireshark reads them (epan-ext/decode/ethers.h),
// and how the views show a named MAC (mac_label, mac_device).
#include "epan-ext/decode/ethers.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "epan-ext/analysis/analyzer.h"

namespace roceshark::ethers {
namespace {

using namespace std::string_literals;

const Mac kLeaf{0x02, 0x00, 0x00, 0x01, 0x10, 0x01};

TEST(Ethers, AddressesWithEachSeparator) {
  EXPECT_EQ(parse_address("02:00:00:01:10:01"), kLeaf);
  EXPECT_EQ(parse_address("02-00-00-01-10-01"), kLeaf);
  EXPECT_EQ(parse_address("02.00.00.01.10.01"), kLeaf);
  EXPECT_EQ(parse_address("2:0:0:1:10:1"), kLeaf);              // one digit an octet
  EXPECT_EQ(parse_address("002:0:0:01:10:1"), kLeaf);           // leading zeros, as strtoul takes them
  EXPECT_EQ(parse_address("B8:CE:F6:00:02:16"), (Mac{0xb8, 0xce, 0xf6, 0x00, 0x02, 0x16}));
}

TEST(Ethers, MalformedAddresses) {
  for (const char* bad : {"", "02:00:00:01:10", "02:00:00:01:10:01:02", "02:00:00:01:10:", "02:00-00:01:10:01",
                          "02;00;00;01;10;01", "0200.0001.1001", "02:00:00:01:10:100", "02:00:00:01:10:1g",
                          "-2:00:00:01:10:01", "+2:00:00:01:10:01", "02:00:00:01:10:01/28", "0x2:0:0:1:10:1",
                          "02::00:01:10:01", ":02:00:00:01:10:01", "000000000000000000000000000000002:0:0:1:10:1g"})
    EXPECT_FALSE(parse_address(bad)) << bad;
}

TEST(Ethers, Lines) {
  const auto name = [](std::string_view line) {
    const auto e = parse_line(line);
    return e ? mac_to_string(e->mac) + " " + e->name : std::string("-");
  };
  EXPECT_EQ(name("02:00:00:01:10:01 leaf3-eth1/12"), "02:00:00:01:10:01 leaf3-eth1/12");
  EXPECT_EQ(name("  \t02-00-00-01-10-01\t\tleaf3-eth1/12  # the leaf \r"), "02:00:00:01:10:01 leaf3-eth1/12");
  EXPECT_EQ(name("02:00:00:01:10:01 leaf3 the long name"), "02:00:00:01:10:01 leaf3");  // the rest is ignored
  EXPECT_EQ(name("02:00:00:01:10:01 leaf3#comment"), "02:00:00:01:10:01 leaf3");
  EXPECT_EQ(name("# 02:00:00:01:10:01 commented"), "-");
  EXPECT_EQ(name("02:00:00:01:10:01"), "-");            // no name
  EXPECT_EQ(name("02:00:00:01:10:01   # none"), "-");
  EXPECT_EQ(name("leaf3 02:00:00:01:10:01"), "-");      // the wrong way round
  EXPECT_EQ(name("02:00:00:01:10 leaf3"), "-");
  EXPECT_EQ(name(""), "-");
  EXPECT_EQ(name("   \t  "), "-");
  EXPECT_EQ(name(std::string(70, 'x')), "-");
  // A name is cut at 63 bytes, as Wireshark's MAXNAMELEN buffer cuts it.
  EXPECT_EQ(parse_line("02:00:00:01:10:01 " + std::string(100, 'n'))->name, std::string(kMaxName, 'n'));
}

TEST(Ethers, TheFirstNameWins) {
  Names n;
  n.add_text("02:00:00:01:10:01 first\n02-00-00-01-10-01 second\n");
  n.add_text("02:00:00:01:10:01 global\n02:00:00:01:10:02 other\n");  // a later file names only what is new
  ASSERT_TRUE(n.find(kLeaf));
  EXPECT_EQ(*n.find(kLeaf), "first");
  EXPECT_EQ(*n.find(Mac{2, 0, 0, 1, 0x10, 2}), "other");
  EXPECT_FALSE(n.find(Mac{2, 0, 0, 1, 0x10, 3}));
  EXPECT_EQ(n.size(), 2u);
}

TEST(Ethers, HostileText) {
  Names n;
  // Garbage, NULs, CRs, no final newline, a line far over the buffer.
  std::string text = "\xff\xfe garbage\n\0\0\0\n02:00:00:01:10:01 a\rb\n"s;
  text += std::string(5000, 'z') + "\n";
  text += std::string(kMaxLine, ' ') + "02:00:00:01:10:05 split\n";  // past the buffer: read as a line of its own
  text += "02:00:00:01:10:04 \x1b[2Jnasty\n02:00:00:01:10:03 last";
  n.add_text(text);
  EXPECT_EQ(*n.find(kLeaf), "a");  // ends at the CR
  EXPECT_EQ(*n.find(Mac{2, 0, 0, 1, 0x10, 3}), "last");
  EXPECT_EQ(*n.find(Mac{2, 0, 0, 1, 0x10, 5}), "split");
  EXPECT_EQ(*n.find(Mac{2, 0, 0, 1, 0x10, 4}), "\x1b[2Jnasty");  // kept; the views print it escaped
}

TEST(Ethers, NamesStopAtTheCap) {
  std::string text;
  for (size_t i = 0; i < kMaxEntries + 10; ++i) {
    char line[40];
    std::snprintf(line, sizeof line, "02:00:%02zx:%02zx:%02zx:%02zx n\n", i >> 24 & 0xff, i >> 16 & 0xff,
                  i >> 8 & 0xff, i & 0xff);
    text += line;
  }
  Names n;
  n.add_text(text);
  EXPECT_EQ(n.size(), kMaxEntries);
  EXPECT_TRUE(n.full());
}

TEST(Ethers, Files) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("ethers_test." + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "ethers") << "02:00:00:01:10:01 leaf3-eth1/12\n";
  Names n;
  EXPECT_TRUE(n.add_file((dir / "ethers").string()));
  EXPECT_FALSE(n.add_file((dir / "missing").string()));
  EXPECT_FALSE(n.add_file(dir.string()));        // a directory
  EXPECT_FALSE(n.add_file("/dev/zero"));         // a device is never read (it never ends)
  EXPECT_EQ(*n.find(kLeaf), "leaf3-eth1/12");
  std::filesystem::remove_all(dir);
}

TEST(Ethers, WiresharksPaths) {
  std::map<std::string, std::string> env;
  std::set<std::string> dirs;
  const auto paths = [&] {
    return default_paths([&](const char* k) { return env.contains(k) ? env[k].c_str() : nullptr; },
                         [&](const std::string& d) { return dirs.contains(d); }, "/home/pw");
  };
  env["HOME"] = "/home/u";
  EXPECT_EQ(paths(), (std::vector<std::string>{"/home/u/.config/wireshark/ethers", "/etc/ethers"}));
  dirs.insert("/home/u/.wireshark");  // only the old directory exists: that one
  EXPECT_EQ(paths()[0], "/home/u/.wireshark/ethers");
  dirs.insert("/home/u/.config/wireshark");  // both: the XDG one
  EXPECT_EQ(paths()[0], "/home/u/.config/wireshark/ethers");
  env["XDG_CONFIG_HOME"] = "/x";
  EXPECT_EQ(paths()[0], "/home/u/.wireshark/ethers");  // /x/wireshark does not exist
  dirs.insert("/x/wireshark");
  EXPECT_EQ(paths()[0], "/x/wireshark/ethers");
  env["WIRESHARK_CONFIG_DIR"] = "/w";
  EXPECT_EQ(paths()[0], "/w/ethers");
  env.clear();
  EXPECT_EQ(paths()[0], "/home/pw/.config/wireshark/ethers");  // no $HOME: the password file's
}

TEST(Ethers, ViewsShowTheNameWithTheMac) {
  Analyzer a;
  EXPECT_EQ(a.mac_name(kLeaf), "");
  EXPECT_EQ(mac_label(a, kLeaf), "02:00:00:01:10:01");
  EXPECT_EQ(mac_device(a, kLeaf), "with MAC 02:00:00:01:10:01");
  a.name_macs([](const Mac& m) { return m == kLeaf ? std::string("leaf3-eth1/12") : std::string("bad\nname"); });
  EXPECT_EQ(mac_label(a, kLeaf), "leaf3-eth1/12 (02:00:00:01:10:01)");
  EXPECT_EQ(mac_device(a, kLeaf), "leaf3-eth1/12 (MAC 02:00:00:01:10:01)");
  EXPECT_EQ(mac_label(a, Mac{}), "bad\\nname (00:00:00:00:00:00)");  // printable
}

}  // namespace
}  // namespace roceshark::ethers
