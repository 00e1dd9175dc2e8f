// SPDX-License-Identifier: GPL-2.0-or-later
// The oracle: what an observer at a capture point can and should conclude
// about each frame, from what has passed that point so far. The rules are
// the contract the analysis engine is tested against (captures/README.md,
// "Verdicts"); keep the two in step.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "captures/gen/frame.h"

namespace roceshark::gen {

struct Judgement {
  Judgement(std::string v, std::optional<uint64_t> rf, std::string n = {})
      : verdict(std::move(v)), request_frame(rf), note(std::move(n)) {}
  std::string verdict;
  std::optional<uint64_t> request_frame;
  std::string note;  // added to the truth file's note (`reorder`), empty if nothing
  // Earlier NAK frames this late original shows were reordering's doing:
  // their rows get the note `reorder` too.
  std::vector<uint64_t> taken_back;
  // Earlier resends that looked like go-back-N, now that this packet shows
  // their requester resends selectively: their rows get `selective-later`.
  std::vector<uint64_t> shown_selective;
};

class Observer {
 public:
  // Frames must come in file order; `number` is the 1-based frame number.
  Judgement judge(const Frame& f, uint64_t number);

 private:
  struct Eligible {
    uint32_t psn;
    uint64_t frame;
  };
  // One requester's PSN stream as seen at one point.
  struct Stream {
    std::optional<uint32_t> highest;   // highest request PSN seen (a READ counts to its last)
    std::optional<uint32_t> last_ack;  // highest ACK PSN so far
    std::deque<Eligible> waiting;      // AckReq requests no response has covered yet, PSN order
    std::optional<Ns> last_request;    // when the previous request passed
    // The timer-driven resend run in progress: its verdict holds for the
    // resends that follow it in PSN order up to `run_end`.
    std::optional<std::string> run;
    uint32_t run_last = 0, run_end = 0;
    std::deque<std::pair<uint32_t, uint32_t>> reads;  // READ REQUESTs seen: PSN, response count (the latest few)
    std::optional<uint32_t> resp_last;                // the last READ response PSN seen
    std::deque<uint32_t> ooo;                         // PSNs that arrived here overtaken (`ooo:D`), the latest few
    // A selective resend at a PSN below the highest: whether the next
    // request here is the PSN after it shows how the requester recovers.
    std::optional<uint32_t> lone_resend;
    std::deque<uint32_t> passed;  // request PSNs that passed here, the latest few
  };
  using Key = std::tuple<size_t, size_t, int>;  // point, qp, requester side
  // The latest NAKs of each kind recorded anywhere in the file, per (qp,
  // requester side): a resend is `gbn` or `rnr-retry` only if the NAK that
  // asked for it is in the capture.
  struct RecordedNaks {
    std::optional<Ns> seq_ns, rnr_ns;
    Ns rnr_wait_ns = 0;  // the timer the RNR NAK asked for
    // The requester has shown, at some point, that it resends only the NAKed
    // PSN: before that an observer cannot tell its resends from go-back-N.
    bool selective_shown = false;
    std::vector<uint64_t> gbn_looking;  // rows of its resends called `gbn` before that
    bool seq_reorder = false;          // the latest sequence NAK was caused by reordering
    uint32_t seq_psn = 0;              // the PSN it asked for
    std::vector<uint64_t> seq_frames;  // its rows at each point, while not `reorder`
    uint64_t seq_packet = 0;             // the latest sequence NAK's transmission (packet_id)
    std::set<uint64_t> reorder_packets;  // the `reorder` NAKs' transmissions
    std::optional<Ns> last_resend_ns;  // the latest resent request, any point
  };

  // Which requests a response answers, as the capture shows it (README,
  // "Verdicts": pairing): per QP and requester side, the requester and
  // responder hosts, the PSNs its requests spanned anywhere in the file, the
  // PSN of its latest response, and whether a CM exchange or a response (or
  // request) that fits only it has pinned its QP's two flows together.
  struct Pairing {
    size_t requester = 0, responder = 0;
    bool requests = false, responses = false;
    uint32_t first = 0, highest = 0, last_response = 0;
  };
  using Unit = std::pair<size_t, int>;  // qp, requester side
  // The unpinned units from `requester` to `responder` whose requests' PSN
  // range (first - 1 .. highest + 1) holds `psn`.
  std::vector<Unit> fitting(size_t requester, size_t responder, uint32_t psn) const;
  void note_request_for_pairing(const FrameInfo& in);
  std::string request_verdict(Stream& s, const FrameInfo& in, Ns time, uint64_t number, Judgement& j);
  static std::string read_response_verdict(Stream& s, const FrameInfo& in);
  static std::string timeout_verdict(Stream& s, const FrameInfo& in, Ns time);
  // Marks covered the waiting requests up to `limit` (or below it when
  // !inclusive) and returns the newest of them.
  static std::optional<uint64_t> cover(Stream& s, uint32_t limit, bool inclusive);

  std::map<Key, Stream> streams_;
  std::map<std::pair<size_t, int>, RecordedNaks> naks_;
  std::map<Unit, Pairing> pairing_;
  std::set<size_t> pinned_;  // scenario QPs whose flows the capture has paired
};

// How soon after its NAK a resend must follow to be seen as its answer, and
// the silence after which a resend is a timeout: the analysis's documented
// default (roce.timeout_us). Scenario timers stay well above it.
inline constexpr Ns kTimeoutThresholdNs = 1'000'000;

// Text forms used in the truth file.
std::string_view kind_name(FrameKind k);
// pfc-xoff when any enabled class pauses, pfc-xon when all resume.
std::string_view pfc_verdict(uint8_t enable, const std::array<uint16_t, 8>& quanta);
std::string_view cause_name(Cause c, bool mirror);
std::string nak_verdict(uint8_t syndrome);

}  // namespace roceshark::gen
