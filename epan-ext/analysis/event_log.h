// SPDX-License-Identifier: GPL-2.0-or-later
// The Wireshark front end's event sink: every event in the order it was
// learned, for the statistics to consume at draw time (one pass learns a
// frame's loss after the tap saw the frame), and the per-frame answers the
// tree needs on later passes. Events are rare (losses, episodes, skews):
// the log grows with them, not with packets.
#pragma once
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "epan-ext/analysis/event_sink.h"

namespace roceshark {

class EventLog final : public EventSink {
 public:
  // A hop event: a loss when `reordered_frame` is 0, else the loss of
  // `lost_frame` taken back: the packet arrived at `reordered_frame`, or,
  // when `missed`, the ACK there proved it arrived unseen.
  struct HopChange {
    hop::HopKey key;
    uint32_t lost_frame;
    uint32_t reordered_frame;
    uint16_t len;  // the lost frame's length at key.from
    bool missed = false;
    uint64_t ts_ns = 0;  // a loss: the lost frame's time at key.from
    uint32_t psn = 0;    // ... and its PSN
  };

  void hop_lost(const hop::HopKey& key, uint32_t frame, uint16_t len, uint64_t ts_ns, uint32_t psn) override;
  void hop_reordered(const hop::HopKey& key, uint32_t lost_frame, uint32_t frame) override;
  void hop_missed(const hop::HopKey& key, uint32_t lost_frame, uint32_t ack_frame) override;
  void nak_reordered(const NakReorder& n) override {
    naks_.push_back(n);
    late_of_nak_.insert_or_assign(n.nak_frame, n.late_frame);
  }
  void clock_skew(const hop::Skew& s) override { skews_.push_back(s); }
  void episode_ended(const pfc::Episode& e) override { episodes_.push_back(e); }
  void propagation(const pfc::Propagation& p) override { propagations_.push_back(p); }
  void at_end(std::vector<pfc::Episode> open, std::vector<hop::ClockEstimator::Estimate> clocks) override {
    open_ = std::move(open);
    clocks_ = std::move(clocks);
  }

  const std::vector<HopChange>& hop_changes() const { return hops_; }
  const std::vector<NakReorder>& nak_reorders() const { return naks_; }
  const std::vector<hop::Skew>& skews() const { return skews_; }  // in frame order
  const std::vector<pfc::Propagation>& propagations() const { return propagations_; }
  // Every episode, the open ones ending where they stood at the last at_end().
  std::vector<pfc::Episode> episodes() const;
  const std::vector<pfc::Episode>& open_episodes() const { return open_; }  // of those, still open
  const std::vector<hop::ClockEstimator::Estimate>& clock_estimates() const { return clocks_; }

  // Per frame, for the tree on later passes.
  // The hop a frame was lost on, or null.
  const hop::HopKey* lost_after(uint32_t frame) const {
    const auto it = lost_after_.find(frame);
    return it == lost_after_.end() ? nullptr : &it->second;
  }
  std::span<const hop::Skew> skews_at(uint32_t frame) const;
  // The frame whose late arrival took this NAK back, or 0.
  uint32_t nak_taken_back(uint32_t frame) const {
    const auto it = late_of_nak_.find(frame);
    return it == late_of_nak_.end() ? 0 : it->second;
  }

 private:
  std::vector<HopChange> hops_;
  std::unordered_map<uint32_t, hop::HopKey> lost_after_;
  std::vector<NakReorder> naks_;
  std::unordered_map<uint32_t, uint32_t> late_of_nak_;
  std::vector<hop::Skew> skews_;
  std::vector<pfc::Episode> episodes_, open_;
  std::vector<pfc::Propagation> propagations_;
  std::vector<hop::ClockEstimator::Estimate> clocks_;
};

}  // namespace roceshark
