// SPDX-License-Identifier: GPL-2.0-or-later
// The event list through a Session, as `roceshark events` draws it.
#include <gtest/gtest.h>

#include "epan-ext/report/event_view.h"
#include "epan-ext/session/session.h"
#include "packets.h"

namespace roceshark {
namespace {

using test::Wire;
constexpr uint64_t us = 1000;
constexpr uint64_t t0 = 1'700'000'000'000'000'000;

std::string tsv(Session& s) {
  std::string out;
  s.write_events(events::Format::tsv, [&](std::string_view t) { out += t; });
  return out;
}

// The kind, frames and count of each row.
std::vector<std::string> rows(const std::string& text) {
  std::vector<std::string> r;
  size_t at = text.find('\n') + 1;  // past the header
  for (size_t end; (end = text.find('\n', at)) != std::string::npos; at = end + 1) {
    std::vector<std::string> cells;
    for (size_t c = at, tab; c <= end; c = tab + 1) {
      tab = std::min(text.find('\t', c), end);
      cells.push_back(text.substr(c, tab - c));
    }
    r.push_back(cells[2] + " " + cells[9] + " " + cells[10]);
  }
  return r;
}

TEST(EventList, AGapFilledLateIsReorderingAndOneStillOpenIsAGap) {
  prefs::Settings settings;
  Session s(settings);
  s.keep_events();
  Wire w;
  s.feed(w.req(t0, 1), 128);
  s.feed(w.req(t0 + us, 3), 128);      // 2: PSN 2 missing
  s.feed(w.req(t0 + 2 * us, 2), 128);  // 3: ... arrived late
  s.feed(w.req(t0 + 3 * us, 6), 128);  // 4: PSNs 4-5 missing
  s.feed(w.req(t0 + 4 * us, 4), 128);  // 5: one of them late
  EXPECT_EQ(rows(tsv(s)), (std::vector<std::string>{"reorder 2,3 1", "psn_gap 4,5 2"}));
}

TEST(EventList, TimesAreIsoUtcFromTheFirstFrame) {
  EXPECT_EQ(events::iso_time(t0 + 590, true), "2023-11-14T22:13:20.000000590Z");
  EXPECT_EQ(events::iso_time(t0 + 590'000, false), "2023-11-14T22:13:20.000590Z");
  prefs::Settings settings;
  Session s(settings);
  s.keep_events();
  Wire w;
  s.feed(w.req(t0, 1), 128);
  s.feed(w.req(t0 + 2 * us, 3), 128);
  const std::string text = tsv(s);
  // Whole microseconds: the stamps carry no nanoseconds.
  EXPECT_NE(text.find("\n2023-11-14T22:13:20.000002Z\t0.000002000\tpsn_gap\t"), std::string::npos) << text;
}

}  // namespace
}  // namespace roceshark
