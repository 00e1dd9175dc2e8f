// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/faults.h"

#include <algorithm>

namespace roceshark::gen {

FaultBook::FaultBook(const Scenario& sc)
    : sc_(sc), drops_(sc.drops.size()), corrupts_(sc.corrupts.size()), marks_(sc.marks.size()), reorders_(sc.reorders.size()),
      misses_(sc.tap_misses.size()) {}

bool FaultBook::hit(const PacketSelect& s, Counter& c, size_t qp, int side, Traffic t, uint32_t offset) {
  if (s.qp != qp || s.side != side || s.traffic != t || offset < s.first || offset > s.last) return false;
  uint32_t& n = c.sent[offset];
  ++n;
  if (s.times != 0 && n > s.times) return false;
  c.fired = true;
  return true;
}

Fates FaultBook::decide(size_t qp, int req_side, Traffic traffic, uint32_t offset) {
  Fates f;
  for (size_t i = 0; i < drops_.size(); ++i)
    if (hit(sc_.drops[i].sel, drops_[i], qp, req_side, traffic, offset))
      f.drop_segment = std::min(f.drop_segment.value_or(SIZE_MAX), sc_.drops[i].where.segment);
  for (size_t i = 0; i < corrupts_.size(); ++i)
    if (hit(sc_.corrupts[i].sel, corrupts_[i], qp, req_side, traffic, offset) && !f.corrupt_segment) {
      f.corrupt_segment = sc_.corrupts[i].where.segment;
      f.corrupt_byte = sc_.corrupts[i].byte;
    }
  for (size_t i = 0; i < marks_.size(); ++i)
    if (hit(sc_.marks[i].sel, marks_[i], qp, req_side, traffic, offset))
      f.mark_hop = std::min(f.mark_hop.value_or(SIZE_MAX), sc_.marks[i].hop);
  for (size_t i = 0; i < reorders_.size(); ++i)
    if (hit(sc_.reorders[i].sel, reorders_[i], qp, req_side, traffic, offset) && !f.reorder_segment) {
      f.reorder_segment = sc_.reorders[i].where.segment;
      f.reorder_delay = sc_.reorders[i].delay;
    }
  for (size_t i = 0; i < misses_.size(); ++i)
    if (hit(sc_.tap_misses[i].sel, misses_[i], qp, req_side, traffic, offset) && !f.miss_hop)
      f.miss_hop = sc_.tap_misses[i].hop;
  return f;
}

std::vector<int> FaultBook::unused() const {
  std::vector<int> lines;
  for (size_t i = 0; i < drops_.size(); ++i)
    if (!drops_[i].fired) lines.push_back(sc_.drops[i].line);
  for (size_t i = 0; i < corrupts_.size(); ++i)
    if (!corrupts_[i].fired) lines.push_back(sc_.corrupts[i].line);
  for (size_t i = 0; i < marks_.size(); ++i)
    if (!marks_[i].fired) lines.push_back(sc_.marks[i].line);
  for (size_t i = 0; i < reorders_.size(); ++i)
    if (!reorders_[i].fired) lines.push_back(sc_.reorders[i].line);
  for (size_t i = 0; i < misses_.size(); ++i)
    if (!misses_[i].fired) lines.push_back(sc_.tap_misses[i].line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace roceshark::gen
