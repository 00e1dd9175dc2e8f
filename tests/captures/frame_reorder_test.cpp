// SPDX-License-Identifier: GPL-2.0-or-later
// The reorder buffer behind per-point clock offsets: file order is true
// time + the point's shift, ties in simulation order, and held frames own
// their bytes.
#include "captures/gen/frame_reorder.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace roceshark::gen {
namespace {

struct Out {
  size_t point;
  Ns time;
  uint64_t id;
  std::vector<uint8_t> data;
  const uint8_t* where;
};

class Harness {
 public:
  explicit Harness(std::vector<Ns> shift)
      : reorder(std::move(shift), [this](const Frame& f) {
          out.push_back({f.point, f.time, f.info->psn, {f.data.begin(), f.data.end()}, f.data.data()});
        }) {}
  // A frame of `point` at true time `t`, its PSN as a label.
  void push(size_t point, Ns t, uint32_t label) {
    info.psn = label;
    bytes.assign(4, static_cast<uint8_t>(label));
    Frame f;
    f.point = point;
    f.time = t;
    f.info = &info;
    f.data = bytes;
    reorder.push(f);
    bytes.assign(4, 0xEE);  // the simulation reuses its buffers
    info.psn = 0xDEAD;
  }
  std::vector<uint64_t> order() const {
    std::vector<uint64_t> v;
    for (const Out& o : out) v.push_back(o.id);
    return v;
  }

  FrameReorder reorder;
  std::vector<Out> out;
  FrameInfo info;
  std::vector<uint8_t> bytes;
};

TEST(FrameReorder, OneShiftForAllPassesFramesThroughUncopied) {
  Harness h({5, 5});
  h.push(0, 100, 1);
  ASSERT_EQ(h.out.size(), 1u);
  EXPECT_EQ(h.reorder.held(), 0u);
  EXPECT_EQ(h.out[0].time, 100);  // times are left alone: Output adds the shift
}

TEST(FrameReorder, SortsByShiftedTimeTiesInArrivalOrder) {
  // Point 1's clock is 50 ahead: its frame at true time 10 sorts at 60.
  Harness h({0, 50});
  h.push(1, 10, 1);   // key 60
  h.push(0, 20, 2);   // key 20
  h.push(0, 60, 3);   // key 60: a tie with 1, which came first
  h.push(1, 10, 4);   // key 60, later still
  h.push(0, 70, 5);   // key 70
  h.reorder.flush();
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{2, 1, 3, 4, 5}));
  EXPECT_EQ(h.reorder.held(), 0u);
}

TEST(FrameReorder, ReleasesAsSoonAsNothingCanComeFirst) {
  Harness h({0, 50});
  h.push(1, 10, 1);  // key 60: a frame of point 0 up to true time 60 could still sort before it
  EXPECT_TRUE(h.out.empty());
  h.push(0, 59, 2);
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{2}));
  h.push(0, 60, 3);  // now nothing can come before key 60
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{2, 1, 3}));
}

TEST(FrameReorder, NegativeShiftsToo) {
  Harness h({0, -30});
  h.push(0, 100, 1);  // key 100, held: a frame of point 1 up to true time 130 sorts before it
  EXPECT_TRUE(h.out.empty());
  h.push(1, 120, 2);  // key 90
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{2}));
  h.push(1, 125, 3);  // key 95: goes, 1 still waits
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{2, 3}));
  h.reorder.flush();
  EXPECT_EQ(h.order(), (std::vector<uint64_t>{2, 3, 1}));
}

TEST(FrameReorder, HeldFramesKeepTheirOwnBytes) {
  Harness h({0, 50});
  h.push(1, 10, 7);
  h.reorder.flush();
  ASSERT_EQ(h.out.size(), 1u);
  EXPECT_EQ(h.out[0].id, 7u);  // the info was copied too
  EXPECT_EQ(h.out[0].data, (std::vector<uint8_t>{7, 7, 7, 7}));
  EXPECT_NE(h.out[0].where, h.bytes.data());
}

}  // namespace
}  // namespace roceshark::gen
