// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/observer.h"

#include <algorithm>

#include "captures/gen/opcodes.h"

#include "captures/gen/aeth.h"
#include "captures/gen/cm_mad.h"
#include "captures/gen/rnr_timer.h"
#include "captures/gen/scenario.h"
#include "captures/gen/psn.h"

namespace roceshark::gen {

std::string_view kind_name(FrameKind k) {
  switch (k) {
    case FrameKind::req: return "req";
    case FrameKind::ack: return "ack";
    case FrameKind::nak: return "nak";
    case FrameKind::cnp: return "cnp";
    case FrameKind::cm: return "cm";
    case FrameKind::readresp: return "readresp";
    case FrameKind::pfc: return "pfc";
    case FrameKind::lldp: return "lldp";
    case FrameKind::icmp: return "icmp";
    case FrameKind::besteffort: return "besteffort";
  }
  return "?";
}

std::string_view pfc_verdict(uint8_t enable, const std::array<uint16_t, 8>& quanta) {
  for (int c = 0; c < 8; ++c)
    if (enable >> c & 1 && quanta[c] > 0) return "pfc-xoff";
  return "pfc-xon";
}

std::string_view cause_name(Cause c, bool mirror) {
  if (mirror) return "mirror";
  switch (c) {
    case Cause::none: return "-";
    case Cause::original: return "original";
    case Cause::gbn: return "gbn";
    case Cause::timeout: return "timeout";
    case Cause::rnr: return "rnr";
    case Cause::selective: return "selective";
    case Cause::read_retry: return "read-retry";
  }
  return "?";
}

std::string nak_verdict(uint8_t syndrome) {
  if (aeth::is_rnr(syndrome)) return "nak:rnr";
  switch (syndrome) {
    case aeth::kNakPsnSeqError: return "nak:seq";
    case aeth::kNakInvalidRequest: return "nak:inv-req";
    case aeth::kNakRemoteAccess: return "nak:rem-access";
    case aeth::kNakRemoteOperational: return "nak:rem-op";
    default: return "nak:other";
  }
}

std::string Observer::request_verdict(Stream& s, const FrameInfo& in, Ns time, uint64_t number, Judgement& j) {
  auto it = naks_.find({in.qp, in.req_side});
  auto recorded = [&](std::optional<Ns> RecordedNaks::*which, Ns wait) {
    if (it == naks_.end() || !(it->second.*which)) return false;
    const Ns nak = *(it->second.*which);
    return nak <= time && time - nak <= wait + kTimeoutThresholdNs;
  };
  const Ns rnr_wait = it == naks_.end() ? 0 : it->second.rnr_wait_ns;
  const uint32_t last = psn::add(in.psn, static_cast<int64_t>(in.psn_span) - 1);
  // A READ REQUEST at a PSN one of its READ's responses used: re-issued for the rest.
  auto reissued = [&] {
    if (in.opcode != op::kReadRequest) return false;
    for (const auto& [p, span] : s.reads)
      if (const int32_t k = psn::diff(in.psn, p); k > 0 && static_cast<uint32_t>(k) < span) return true;
    return false;
  };
  RecordedNaks& mode = naks_[{in.qp, in.req_side}];
  if (s.lone_resend && in.psn != psn::add(*s.lone_resend, 1)) {
    mode.selective_shown = true;
    j.shown_selective = std::move(mode.gbn_looking);
    mode.gbn_looking.clear();
  }
  s.lone_resend.reset();
  if (in.cause != Cause::original) mode.last_resend_ns = time;
  s.passed.push_back(in.psn);
  if (s.passed.size() > 256) s.passed.pop_front();
  std::string v;
  bool overtaken = false;
  if (!s.highest) {
    v = "in-order";
  } else {
    const int32_t d = psn::diff(in.psn, psn::add(*s.highest, 1));
    if (d == 0) v = "in-order";
    else if (d > 0) v = "gap:" + std::to_string(d);
    else if (in.cause == Cause::original && in.psn != *s.highest) {  // a first transmission later ones overtook
      v = "ooo:" + std::to_string(psn::diff(*s.highest, in.psn));
      overtaken = true;
      s.ooo.push_back(in.psn);
      if (s.ooo.size() > 64) s.ooo.pop_front();
      // The latest sequence NAK asked for this PSN: it and its copies were
      // reordering's doing, not a loss, whether its resends overtook this
      // packet or not.
      if (mode.seq_ns && *mode.seq_ns <= time && !mode.seq_reorder && mode.seq_psn == in.psn) {
        mode.seq_reorder = true;
        mode.reorder_packets.insert(mode.seq_packet);
        j.taken_back = std::move(mode.seq_frames);
        mode.seq_frames.clear();
      }
    } else if (reissued()) v = "read-retry";
    else if (in.cause == Cause::selective) {
      // Until the requester has shown selective repeat, its first lone resend looks like go-back-N.
      v = !recorded(&RecordedNaks::seq_ns, 0) ? "retransmission" : mode.selective_shown ? "selective" : "gbn";
      if (v == "gbn") mode.gbn_looking.push_back(number);
      if (psn::diff(*s.highest, in.psn) > 0) s.lone_resend = in.psn;
    }
    else if (in.cause == Cause::gbn && recorded(&RecordedNaks::seq_ns, 0)) v = "gbn";
    else if (in.cause == Cause::timeout) v = timeout_verdict(s, in, time);
    else if (in.cause == Cause::rnr && recorded(&RecordedNaks::rnr_ns, rnr_wait)) v = "rnr-retry";
    else v = "retransmission";  // its NAK is not in the capture: the cause can't be seen
  }
  if (in.cause != Cause::timeout || v == "in-order" || v.starts_with("gap:")) s.run.reset();
  if (!overtaken && (!s.highest || psn::diff(last, *s.highest) > 0)) s.highest = last;
  s.last_request = time;
  if (in.opcode == op::kReadRequest) {
    s.reads.emplace_back(in.psn, in.psn_span);
    if (s.reads.size() > 16) s.reads.pop_front();
  }
  return v;
}

// A response that skips responses of its READ (the latest READ REQUEST seen
// here whose response PSNs hold it) that never passed here.
std::string Observer::read_response_verdict(Stream& s, const FrameInfo& in) {
  std::string v = "readresp";
  for (auto it = s.reads.rbegin(); it != s.reads.rend(); ++it) {
    const auto [p, span] = *it;
    const int32_t k = psn::diff(in.psn, p);
    if (k < 0 || static_cast<uint32_t>(k) >= span) continue;
    uint32_t expected = p;
    if (s.resp_last && psn::diff(*s.resp_last, p) >= 0 && psn::diff(*s.resp_last, in.psn) < 0)
      expected = psn::add(*s.resp_last, 1);
    if (const int32_t missing = psn::diff(in.psn, expected); missing > 0) v = "readresp-gap:" + std::to_string(missing);
    break;
  }
  s.resp_last = in.psn;
  return v;
}

// A timer resend shows as one only after a silence the observer can see:
// a pause may have held the originals, so that they and the resends pass
// here back to back. The silence before a run's first packet decides for
// the whole run, as it continues in PSN order up to the highest PSN seen.
std::string Observer::timeout_verdict(Stream& s, const FrameInfo& in, Ns time) {
  if (s.run && psn::diff(in.psn, s.run_last) > 0 && psn::diff(in.psn, s.run_end) <= 0) {
    s.run_last = in.psn;
    return *s.run;
  }
  const bool quiet = !s.last_request || time - *s.last_request >= kTimeoutThresholdNs;
  s.run = quiet ? "timeout" : "retransmission";
  s.run_last = in.psn;
  s.run_end = *s.highest;
  return *s.run;
}

std::optional<uint64_t> Observer::cover(Stream& s, uint32_t limit, bool inclusive) {
  std::optional<uint64_t> newest;
  while (!s.waiting.empty()) {
    const int32_t d = psn::diff(s.waiting.front().psn, limit);
    if (d > 0 || (d == 0 && !inclusive)) break;
    newest = s.waiting.front().frame;
    s.waiting.pop_front();
  }
  return newest;
}

std::vector<Observer::Unit> Observer::fitting(size_t requester, size_t responder, uint32_t psn) const {
  std::vector<Unit> out;
  for (const auto& [u, q] : pairing_)
    if (!pinned_.contains(u.first) && q.requests && q.requester == requester && q.responder == responder &&
        psn::diff(psn, psn::add(q.first, -1)) >= 0 && psn::diff(psn, psn::add(q.highest, 1)) <= 0)
      out.push_back(u);
  return out;
}

// A request of a QP not yet paired pins it when exactly one unpinned QP's
// responses, the other way, end at most 65,536 PSNs before it: its own.
void Observer::note_request_for_pairing(const FrameInfo& in) {
  Pairing& q = pairing_[{in.qp, in.req_side}];
  q.requester = in.src_host, q.responder = in.dst_host;
  if (!q.requests) q.first = q.highest = in.psn;
  else if (psn::diff(in.psn, q.highest) > 0) q.highest = in.psn;
  q.requests = true;
  if (pinned_.contains(in.qp)) return;
  std::vector<size_t> fit;
  for (const auto& [u, r] : pairing_) {
    const int32_t d = psn::diff(in.psn, r.last_response);
    if (!pinned_.contains(u.first) && r.responses && r.requester == in.src_host && r.responder == in.dst_host &&
        d >= 0 && d <= (1 << 16))
      fit.push_back(u.first);
  }
  if (fit.size() == 1 && fit.front() == in.qp) pinned_.insert(in.qp);
}

Judgement Observer::judge(const Frame& f, uint64_t number) {
  const FrameInfo& in = *f.info;
  if (f.mirror) return {"duplicate", std::nullopt};  // a copy tells nothing new and changes nothing
  if (in.kind == FrameKind::pfc) return {std::string(pfc_verdict(in.pfc->enable, in.pfc->quanta)), std::nullopt};
  if (in.kind == FrameKind::lldp) return {"lldp", std::nullopt};
  if (in.kind == FrameKind::icmp) return {"icmp-too-big", std::nullopt};
  if (in.kind == FrameKind::besteffort) return {"besteffort", std::nullopt};  // cross traffic: no RoCE stream
  Stream& s = streams_[Key{f.point, in.qp, in.req_side}];
  if (in.kind == FrameKind::cm && in.cm_attr == cm::kAttrRep) pinned_.insert(in.qp);
  if (in.kind == FrameKind::req) note_request_for_pairing(in);
  if (in.kind == FrameKind::ack || in.kind == FrameKind::nak || in.kind == FrameKind::readresp) {
    Pairing& q = pairing_[{in.qp, in.req_side}];
    q.requester = in.dst_host, q.responder = in.src_host;
    q.responses = true;
    q.last_response = in.psn;
    if (!pinned_.contains(in.qp)) {
      const std::vector<Unit> fit = fitting(in.dst_host, in.src_host, in.psn);
      if (fit.size() == 1 && fit.front().first == in.qp) pinned_.insert(in.qp);
      if (fit.size() >= 2) {
        // Nothing tells which QP's requests it answers: it is credited to
        // none, and the requests it could cover in each give no RTT later.
        const bool seq_nak = in.kind == FrameKind::nak && in.syndrome == aeth::kNakPsnSeqError;
        for (const Unit& u : fit) cover(streams_[Key{f.point, u.first, u.second}], in.psn, !seq_nak);
        std::string v;
        if (in.kind == FrameKind::ack) {
          const bool advances = !s.last_ack || psn::diff(in.psn, *s.last_ack) > 0;
          if (advances) s.last_ack = in.psn;
          v = advances ? "ack" : "dup-ack";
        } else if (in.kind == FrameKind::nak) {
          v = nak_verdict(in.syndrome);
        } else {
          v = read_response_verdict(s, in);
        }
        return {v, std::nullopt, "pair-ambiguous"};
      }
    }
  }
  switch (in.kind) {
    case FrameKind::req: {
      Judgement j{"", std::nullopt};
      std::string v = request_verdict(s, in, f.time, number, j);
      const bool fresh = v == "in-order" || v.starts_with("gap:");
      // Karn's rule: once a PSN is resent, no response can be credited to its
      // earlier copies, nor to anything after it (go-back-N resends those too).
      // A late original is no resend: it leaves the others answerable.
      if (!fresh && !v.starts_with("ooo:"))
        while (!s.waiting.empty() && psn::diff(s.waiting.back().psn, in.psn) >= 0) s.waiting.pop_back();
      // Only requests the observer takes for new can be what a response answers.
      if (in.ackreq && fresh) s.waiting.push_back({in.psn, number});
      j.verdict = v;
      return j;
    }
    case FrameKind::ack: {
      const bool advances = !s.last_ack || psn::diff(in.psn, *s.last_ack) > 0;
      if (advances) s.last_ack = in.psn;  // the highest ACK so far
      return {advances ? "ack" : "dup-ack", cover(s, in.psn, true)};
    }
    case FrameKind::nak: {
      RecordedNaks& n = naks_[{in.qp, in.req_side}];
      if (aeth::is_rnr(in.syndrome)) {
        n.rnr_ns = f.time;
        n.rnr_wait_ns = rnr_timer_ns(in.syndrome & 0x1F);
      }
      // Caused by reordering, not loss: the NAKed PSN passed here already,
      // overtaken; or it follows such a NAK, with no resend anywhere since,
      // for a PSN that passed here (the receiver dropped it waiting for the
      // late one, or this is that NAK again at another point).
      // Or it is a `reorder` NAK again, the same transmission, at another
      // point, whatever resends passed here before it.
      const bool passed = std::find(s.passed.begin(), s.passed.end(), in.psn) != s.passed.end();
      const bool reorder =
          in.syndrome == aeth::kNakPsnSeqError &&
          (std::find(s.ooo.begin(), s.ooo.end(), in.psn) != s.ooo.end() ||
           (n.seq_ns && n.seq_reorder && (!n.last_resend_ns || *n.last_resend_ns < *n.seq_ns) && passed) ||
           (f.packet_id && n.reorder_packets.contains(f.packet_id)));
      if (in.syndrome == aeth::kNakPsnSeqError) {
        // The same NAK again at another point, or a new one.
        if (reorder || n.seq_reorder || !n.seq_ns || n.seq_psn != in.psn) n.seq_frames.clear();
        if (!reorder) n.seq_frames.push_back(number);
        n.seq_ns = f.time;
        n.seq_reorder = reorder;
        n.seq_psn = in.psn;
        n.seq_packet = f.packet_id;
        if (reorder) n.reorder_packets.insert(f.packet_id);
      }
      // A sequence-error NAK at p acknowledges p-1 and below; the others include p.
      return {nak_verdict(in.syndrome), cover(s, in.psn, in.syndrome != aeth::kNakPsnSeqError),
              reorder ? "reorder" : ""};
    }
    case FrameKind::cnp: return {"cnp", std::nullopt};
    case FrameKind::readresp: {
      std::string v = read_response_verdict(s, in);
      return {v, cover(s, in.psn, true)};  // answers the READ and all before
    }
    case FrameKind::cm:
      if (in.cm_attr == cm::kAttrReq) return {"cm-req", std::nullopt};
      if (in.cm_attr == cm::kAttrRep) return {"cm-rep", std::nullopt};
      return {"cm-rtu", std::nullopt};
    case FrameKind::pfc:
    case FrameKind::lldp:
    case FrameKind::icmp:
    case FrameKind::besteffort: break;  // judged above
  }
  return {"?", std::nullopt};
}

}  // namespace roceshark::gen
