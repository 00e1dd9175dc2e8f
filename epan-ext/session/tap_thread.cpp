// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/session/tap_thread.h"

#include <exception>
#include <utility>

namespace roceshark {

namespace {
// Records a batch holds: big enough that handing one over costs little per
// record (a lock and a wake-up per 256), small enough that every batch the
// queue may hold (tap_thread.h) stays under 1 MiB: that bound is reached
// sooner or later in a run, so it must not show as memory growing with the
// capture (tests/cli/memory_test.py).
constexpr size_t kBatchRecords = 256;
}  // namespace

void TapThread::Batch::clear() {
  items.clear(), verdicts.clear(), hops.clear(), rtts.clear(), pauses.clear(), dcbx.clear(), icmp.clear();
  names.clear(), keys.clear();
}

const std::string& TapThread::Frozen::point_name(uint32_t point) const {
  if (!current) return live_.point_name(point);
  auto it = names.find(point);
  // An analysis told of no point names it as the live one names a point it was not told of.
  return it == names.end() ? no_facts().point_name(point) : it->second;
}

const FlowKey& TapThread::Frozen::flow_key(uint32_t flow) const {
  return current ? keys.at(flow) : live_.flow_key(flow);
}

RecoveryMode TapThread::Frozen::recovery_mode(uint32_t flow) const {
  return current ? current->recovery : live_.recovery_mode(flow);
}

TapThread::TapThread(Tapped<ReportStats>& tapped, const AnalysisFacts& facts, const EventLog* events)
    : tapped_(tapped), events_(events), frozen_(facts), thread_([this] { run(); }) {}

TapThread::~TapThread() {
  queue_.close();
  thread_.join();
}

void TapThread::name_point(uint32_t point, const std::string& name) {
  filling_.names.emplace_back(point, name);
  filling_.items.push_back({Item::Kind::name, static_cast<uint32_t>(filling_.names.size() - 1)});
}

void TapThread::add(const TapRecord& r) {
  Item it{};
  it.ts_ns = r.ts_ns, it.frame_len = r.frame_len;
  Batch& b = filling_;
  if (const Verdict* v = r.verdict) {
    it.kind = Item::Kind::roce, it.index = static_cast<uint32_t>(b.verdicts.size());
    b.verdicts.push_back(*v);
    if (r.hop) it.hop = static_cast<uint32_t>(b.hops.size()), b.hops.push_back(*r.hop);
    it.rtt_begin = static_cast<uint32_t>(b.rtts.size());
    b.rtts.insert(b.rtts.end(), r.rtt_samples.begin(), r.rtt_samples.end());
    it.rtt_end = static_cast<uint32_t>(b.rtts.size());
    for (uint32_t flow : {v->flow, v->row_flow}) {
      if (flow == kNoId) continue;
      if (flow >= key_sent_.size()) key_sent_.resize(flow + 1);
      if (!key_sent_[flow]) key_sent_[flow] = true, b.keys.emplace_back(flow, r.facts->flow_key(flow));
    }
    if (v->flow != kNoId) it.recovery = r.facts->recovery_mode(v->flow);
  } else if (r.pause) {
    it.kind = Item::Kind::pause, it.index = static_cast<uint32_t>(b.pauses.size());
    b.pauses.push_back(*r.pause);
  } else if (r.dcbx) {
    it.kind = Item::Kind::dcbx, it.index = static_cast<uint32_t>(b.dcbx.size());
    b.dcbx.push_back(*r.dcbx);
  } else if (r.icmp) {
    it.kind = Item::Kind::icmp, it.index = static_cast<uint32_t>(b.icmp.size());
    b.icmp.push_back(*r.icmp);
  } else {
    return;
  }
  b.items.push_back(it);
  if (b.items.size() >= kBatchRecords) flush();
}

void TapThread::flush() {
  if (filling_.items.empty()) return;
  {
    std::lock_guard lock(m_);
    ++pushed_;
  }
  queue_.push(std::move(filling_));
  filling_ = queue_.take_empty();
  filling_.clear();
}

void TapThread::drain() {
  flush();
  std::unique_lock lock(m_);
  done_.wait(lock, [&] { return taken_ == pushed_; });
  if (failed_) std::rethrow_exception(std::exchange(failed_, nullptr));
}

void TapThread::run() {
  bool failed = false;
  while (auto b = queue_.pop()) {
    std::exception_ptr e;
    if (!failed) {
      try {
        take(*b);
      } catch (...) {  // the rest is not taken: the statistics would be short
        e = std::current_exception();
        failed = true;
      }
    }
    queue_.recycle(std::move(*b));
    std::lock_guard lock(m_);
    if (e) failed_ = e;
    ++taken_;
    done_.notify_all();
  }
}

void TapThread::take(const Batch& b) {
  for (const auto& [flow, key] : b.keys) {
    if (flow >= frozen_.keys.size()) frozen_.keys.resize(flow + 1);
    frozen_.keys[flow] = key;
  }
  for (const Item& it : b.items) {
    if (it.kind == Item::Kind::name) {
      frozen_.names.insert(b.names[it.index]);
      continue;
    }
    TapRecord r{nullptr, &frozen_, it.ts_ns, it.frame_len, nullptr, nullptr, events_};
    switch (it.kind) {
      case Item::Kind::roce:
        r.verdict = &b.verdicts[it.index];
        if (it.hop != UINT32_MAX) r.hop = &b.hops[it.hop];
        r.rtt_samples = std::span<const uint64_t>(b.rtts.data() + it.rtt_begin, it.rtt_end - it.rtt_begin);
        break;
      case Item::Kind::pause: r.pause = &b.pauses[it.index]; break;
      case Item::Kind::dcbx: r.dcbx = &b.dcbx[it.index]; break;
      case Item::Kind::icmp: r.icmp = &b.icmp[it.index]; break;
      case Item::Kind::name: break;
    }
    frozen_.current = &it;
    tapped_.add(r);
  }
  frozen_.current = nullptr;
}

}  // namespace roceshark
