// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/frame_reorder.h"

#include <algorithm>

namespace roceshark::gen {

FrameReorder::FrameReorder(std::vector<Ns> shift, Emit emit) : shift_(std::move(shift)), emit_(std::move(emit)) {
  if (shift_.empty()) return;
  const auto [lo, hi] = std::minmax_element(shift_.begin(), shift_.end());
  min_shift_ = *lo;
  pass_through_ = *lo == *hi;
}

void FrameReorder::push(const Frame& f) {
  if (pass_through_) return emit_(f);
  auto h = std::make_unique<Held>();
  h->f = f;
  h->data.assign(f.data.begin(), f.data.end());
  h->info = *f.info;
  h->lost_before = std::string(f.lost_before);
  h->f.data = h->data;
  h->f.info = &h->info;
  h->f.lost_before = h->lost_before;
  h->key = f.time + shift_[f.point];
  h->seq = seq_++;
  heap_.push_back(std::move(h));
  std::push_heap(heap_.begin(), heap_.end(), later);
  release_up_to(f.time + min_shift_);
}

void FrameReorder::release_up_to(Ns key) {
  while (!heap_.empty() && heap_.front()->key <= key) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    HeldPtr h = std::move(heap_.back());
    heap_.pop_back();
    emit_(h->f);
  }
}

void FrameReorder::flush() {
  while (!heap_.empty()) release_up_to(heap_.front()->key);
}

}  // namespace roceshark::gen
