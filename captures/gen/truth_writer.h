// SPDX-License-Identifier: GPL-2.0-or-later
// The truth file: one TSV row per frame, in file order, saying what the
// generator meant (columns in captures/README.md).
#pragma once
#include <cstdint>
#include <cstdio>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace roceshark::gen {

struct TruthRow {
  uint64_t frame = 0;
  std::string_view point;
  int64_t ts_ns = 0;
  std::string_view src, dst;  // host names
  std::string_view kind;
  std::optional<uint32_t> qpn, psn;  // "-" for link-local frames
  std::optional<uint8_t> opcode;
  std::string_view verdict;
  std::string_view cause;
  std::optional<uint64_t> request_frame;
  std::string_view note;  // "-" when empty
  std::optional<bool> paused;             // "-" for link-local frames
  std::optional<uint64_t> pause_frame;
  // For matching one packet across points.
  int64_t true_ts_ns = 0;                 // ts_ns without the clock offset and the mirror latency
  std::optional<uint64_t> packet_id;      // "-" for link-local frames
  std::optional<bool> lost_after;         // "-" for link-local frames
  std::optional<int64_t> queue_ns;        // "-" for link-local frames
  std::string_view interface;             // the pcapng interface: the point, or its collector
  std::optional<uint16_t> span_id;        // ERSPAN session, "-" if the frame is not encapsulated
};

class TruthWriter {
 public:
  explicit TruthWriter(const std::string& path);  // throws WriteError
  ~TruthWriter();
  TruthWriter(const TruthWriter&) = delete;
  TruthWriter& operator=(const TruthWriter&) = delete;

  void row(const TruthRow& r);
  // Adds to the note of a row written earlier (a later frame showed more).
  // Rows are held back kHeld frames for that; an older row is not changed.
  void add_note(uint64_t frame, std::string_view note);
  void close();
  static constexpr size_t kHeld = 4096;

  static constexpr std::string_view kHeader =
      "frame\tpoint\tts_ns\tdir\tkind\tqpn\tpsn\topcode\tverdict\tcause\trequest_frame\tnote\tpaused\tpause_frame"
      "\ttrue_ts_ns\tpacket_id\tlost_after\tqueue_ns\tinterface\tspan_id\n";

 private:
  struct Held {
    uint64_t frame;
    std::string head, note, tail;  // the line around its note column
  };
  void flush(size_t keep);
  std::deque<Held> held_;
  std::FILE* f_ = nullptr;
  std::string path_;
};

}  // namespace roceshark::gen
