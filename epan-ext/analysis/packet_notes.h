// SPDX-License-Identifier: GPL-2.0-or-later
// What a RoCE packet's verdict says on it: the flags and counted items it
// sets, in tree order, and the expert info text on each. The glue adds them
// as they are (the item's type says whether it is a flag, a number or a
// name), so a per-packet check is a catalogue row and a line here, not glue.
// Hop verdicts have theirs in hop_notes.h.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "epan-ext/analysis/verdict.h"
#include "epan-ext/common/checks.h"

namespace roceshark {

// The per-packet facts shown that are not catalogue checks: what the
// sequence did, not a misconfiguration.
enum class Fact : uint8_t {
  check,  // not a fact: the catalogue row of NoteItem::kind
  qp_reuse,
  gap,  // field only: the number of PSNs missing
  psn_gap,
  response_gap,
  ambiguous,
  selective_resend,
  read_retry,
  gbn_resend,
  rnr_retry,
  dup_ack,
  cnp,
  icrc_unchecked,
  clock_back,
  ambiguous_pair,  // a response whose QP pairing nothing tells
};

// A field or expert info: a fact's, or the `index`-th of a catalogue row's.
struct NoteItem {
  Fact fact = Fact::check;
  checks::Kind kind{};
  uint8_t index = 0;
  bool operator==(const NoteItem&) const = default;
};
inline NoteItem check_item(checks::Kind k, uint8_t index = 0) { return {Fact::check, k, index}; }
inline NoteItem fact_item(Fact f) { return {f, {}, 0}; }

struct PacketNote {
  std::optional<NoteItem> field;   // the item added; none: the expert info sits on the packet's roce item
  uint32_t value = 0;              // a number field's value
  const char* name = "";           // a text field's value
  std::optional<NoteItem> expert;  // with `text`
  std::string text;
};

// What the glue knows from the session's later events (on later passes).
struct NoteContext {
  uint32_t qp = 0;
  std::string_view point;
  bool nak_taken_back = false;     // a request: the NAK it answers was caused by reordering
  uint32_t late_original = 0;      // a PSN sequence error NAK: the late original's frame, 0 if none
  bool selective_qp = false;       // a request: its QP has shown selective repeat by now
};

// The sequence class shown: a QP's first NAK resend passes as go-back-N
// until the QP shows its mode; once it has (by now, or on later passes in
// the whole capture) it is shown as the selective resend it was.
SeqClass shown_seq(const Verdict& v, const NoteContext& c);

std::vector<PacketNote> request_notes(const Verdict& v, const NoteContext& c);
std::vector<PacketNote> response_notes(const Verdict& v, const NoteContext& c);
std::vector<PacketNote> cnp_notes(const Verdict& v, const NoteContext& c);
// A bad ICRC, or the first packet of a flow whose ICRC the snaplen cut.
std::vector<PacketNote> icrc_notes(const Verdict& v, const NoteContext& c);
// A packet stamped before an earlier frame of its point: the capture's clock, not the network.
std::vector<PacketNote> clock_notes(const Verdict& v, const NoteContext& c);
// The expert text on any frame stamped back (PFC frames' too).
std::string clock_back_text(std::string_view point);

}  // namespace roceshark
