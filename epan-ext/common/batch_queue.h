// SPDX-License-Identifier: GPL-2.0-or-later
// Batches from one producer thread to one consumer, bounded: at most
// `depth` full batches wait, so a fast reader cannot outrun the analysis by
// more than that. Emptied batches go back to the producer to be refilled,
// so their buffers are allocated once.
#pragma once
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace roceshark {

template <class Batch>
class BatchQueue {
 public:
  explicit BatchQueue(size_t depth) : depth_(depth) {}

  // Producer: an empty batch to fill (a recycled one when there is one).
  Batch take_empty() {
    std::lock_guard lock(m_);
    if (free_.empty()) return Batch{};
    Batch b = std::move(free_.back());
    free_.pop_back();
    return b;
  }
  // Producer: waits while `depth` batches are queued.
  void push(Batch b) {
    std::unique_lock lock(m_);
    room_.wait(lock, [&] { return full_.size() < depth_; });
    full_.push_back(std::move(b));
    ready_.notify_one();
  }
  // Producer: no more batches.
  void close() {
    std::lock_guard lock(m_);
    closed_ = true;
    ready_.notify_one();
  }

  // Consumer: the next batch, or nothing once closed and drained.
  std::optional<Batch> pop() {
    std::unique_lock lock(m_);
    ready_.wait(lock, [&] { return !full_.empty() || closed_; });
    if (full_.empty()) return std::nullopt;
    Batch b = std::move(full_.front());
    full_.pop_front();
    room_.notify_one();
    return b;
  }
  // Consumer: hands a used batch back for refilling.
  void recycle(Batch b) {
    std::lock_guard lock(m_);
    if (free_.size() < depth_ + 1) free_.push_back(std::move(b));
  }

 private:
  const size_t depth_;
  std::mutex m_;
  std::condition_variable ready_, room_;
  std::deque<Batch> full_, free_;
  bool closed_ = false;
};

}  // namespace roceshark
