// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/ecn_threshold.h"

#include "epan-ext/common/histogram.h"

namespace roceshark::hop {
namespace {

// Marks past the largest unmarked queueing needed to call it the full
// marking point: one mark there could be chance.
constexpr uint64_t kMinPastFull = 5;

struct Bucket {
  double center;
  double all, marked;
};

}  // namespace

const char* state_name(EcnEstimate::State s) {
  switch (s) {
    case EcnEstimate::State::never_marked: return "never marked";
    case EcnEstimate::State::marks: return "marks";
    case EcnEstimate::State::not_enough: break;
  }
  return "not enough evidence";
}

void EcnThreshold::add(uint64_t queue_ns, bool marked) {
  const uint32_t b = Histogram::bucket_of(queue_ns);
  if (b >= all_.size()) {
    all_.resize(b + 1);
    marked_.resize(b + 1);
  }
  ++all_[b];
  ++samples_;
  if (marked) {
    ++marked_[b];
    ++marks_;
  } else if (!any_unmarked_ || queue_ns > max_unmarked_ns_) {
    max_unmarked_ns_ = queue_ns;
    any_unmarked_ = true;
  }
}

uint64_t EcnThreshold::unmarked_above(uint64_t ns) const {
  uint64_t n = 0;
  for (size_t b = Histogram::bucket_of(ns) + size_t{1}; b < all_.size(); ++b) n += all_[b] - marked_[b];
  return n;
}

uint64_t EcnThreshold::unmarked_depth(uint64_t n) const {
  uint64_t seen = 0;
  for (size_t b = all_.size(); n && b-- > 0;)
    if ((seen += all_[b] - marked_[b]) >= n) return Histogram::bucket_low(static_cast<uint32_t>(b));
  return 0;
}

// The onset is the knee of a hinge, share marked = floor + s x (queue - onset)
// above it and the floor below (marks the queue does not explain: another
// hop's, a queueing measured wrong), fitted by weighted least squares to the
// buckets below the largest unmarked queueing's (from it on every packet is
// marked: a RED ramp that stops below 100% jumps there, which the hinge would
// not fit). The knee is tried at every bucket edge and midpoint on the way.
EcnEstimate EcnThreshold::estimate() const {
  EcnEstimate e;
  e.samples = samples_;
  e.marked = marks_;
  e.max_unmarked_ns = max_unmarked_ns_;
  if (samples_ < kMinSamples) return e;
  if (!marks_) {
    e.state = EcnEstimate::State::never_marked;
    return e;
  }
  if (marks_ < kMinMarked) return e;
  const uint32_t top = any_unmarked_ ? Histogram::bucket_of(max_unmarked_ns_) : static_cast<uint32_t>(all_.size() - 1);
  std::vector<Bucket> fit;
  uint64_t past_full = 0, ramp = 0;
  for (uint32_t b = 0; b < all_.size(); ++b) {
    if (!all_[b]) continue;
    if (b >= top) {  // the top bucket mixes unmarked and full marking: in neither
      if (b > top) past_full += marked_[b];
      continue;
    }
    ramp += marked_[b];
    const double low = static_cast<double>(Histogram::bucket_low(b));
    fit.push_back({low + static_cast<double>(Histogram::bucket_width(b) - 1) / 2, static_cast<double>(all_[b]),
                   static_cast<double>(marked_[b])});
  }
  if (any_unmarked_ && past_full >= kMinPastFull) e.full_ns = max_unmarked_ns_;
  e.ramp_marked = ramp;
  if (ramp < kMinMarked) {
    if (!e.full_ns || past_full < kMinMarked) return e;
    e.onset_ns = *e.full_ns;  // a step: no share of marks below the full point
    e.state = EcnEstimate::State::marks;
    return e;
  }
  // Every sum over the buckets above a knee k follows from suffix sums of
  // n, n x c, n x c^2, m, m x c: the knees are tried from the top down in
  // one pass.
  double w = 0, sy = 0;
  for (const Bucket& b : fit) w += b.all, sy += b.marked;
  double n = 0, nc = 0, ncc = 0, m = 0, mc = 0;
  auto next = fit.rbegin();
  double best = -1, onset = 0;
  const auto fit_at = [&](double k) {
    for (; next != fit.rend() && next->center > k; ++next)
      n += next->all, nc += next->all * next->center, ncc += next->all * next->center * next->center,
          m += next->marked, mc += next->marked * next->center;
    const double sx = nc - k * n, sxx = ncc - 2 * k * nc + k * k * n, sxy = mc - k * m;
    const double vxx = sxx - sx * sx / w, vxy = sxy - sx * sy / w;
    if (vxx <= 0 || vxy <= 0) return;
    if (const double gain = vxy * vxy / vxx; gain > best) best = gain, onset = k;
  };
  for (uint32_t b = top; b-- > 0;) {
    const double low = static_cast<double>(Histogram::bucket_low(b));
    fit_at(low + static_cast<double>(Histogram::bucket_width(b)) / 2);
    fit_at(low);
  }
  e.state = EcnEstimate::State::marks;
  e.onset_ns = static_cast<uint64_t>(onset);
  return e;
}

}  // namespace roceshark::hop
