// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/output.h"

#include <vector>

namespace roceshark::gen {
namespace {

// "prio:quanta" for each class the PFC frame enables, then what is odd about it.
void pfc_note(const PfcDirective& d, std::string& n) {
  auto add = [&](const std::string& s) { n += (n.empty() ? "" : ";") + s; };
  for (int c = 0; c < 8; ++c)
    if (d.enable >> c & 1) add(std::to_string(c) + ":" + std::to_string(d.quanta[c]));
  if (d.storm) add("storm");
  if (d.reserved) add("reserved-bits");
  if (d.truncate) add("short");
  if (d.dst) add("bad-dst");
}

// "pfc=3,4" (or "pfc=none"), "app=DSCP:PRIO,...", "maxframe=BYTES" and the
// ETS tables (priority -> TC, TC -> %, strict classes) as the LLDPDU announces them.
void lldp_note(const LldpDirective& d, std::string& n) {
  auto add = [&](const std::string& s) { n += (n.empty() ? "" : ";") + s; };
  if (d.pfc_enable) {
    std::string p;
    for (int c = 0; c < 8; ++c)
      if (*d.pfc_enable >> c & 1) p += (p.empty() ? "" : ",") + std::to_string(c);
    add("pfc=" + (p.empty() ? std::string("none") : p));
  }
  if (!d.app.empty()) {
    std::string a;
    for (const AppEntry& e : d.app)
      a += (a.empty() ? "" : ",") + std::to_string(e.dscp) + ":" + std::to_string(e.priority);
    add("app=" + a);
  }
  if (d.max_frame) add("maxframe=" + std::to_string(d.max_frame));
  if (d.ets) {
    std::string tc, bw, strict;
    for (int i = 0; i < 8; ++i) {
      tc += (i ? "," : "") + std::to_string(d.ets_tc[i]);
      bw += (i ? "," : "") + std::to_string(d.ets_bw[i]);
      if (d.ets_strict >> i & 1) strict += (strict.empty() ? "" : ",") + std::to_string(i);
    }
    add("ets=" + tc);
    add("etsbw=" + bw);
    if (!strict.empty()) add("strict=" + strict);
  }
}

// One IDB per point with an interface of its own and per collector, in point order.
std::vector<Interface> interfaces(const Scenario& sc, std::optional<size_t> only) {
  std::vector<Interface> v;
  for (size_t p = 0; p < sc.points.size(); ++p)
    if (sc.has_interface(p) && (!only || *only == p)) v.push_back({sc.points[p].name, sc.snaplen_of(p)});
  return v;
}

std::vector<uint32_t> interface_numbers(const Scenario& sc) {
  std::vector<uint32_t> own(sc.points.size(), 0), idb(sc.points.size(), 0);
  uint32_t n = 0;
  for (size_t p = 0; p < sc.points.size(); ++p)
    if (sc.has_interface(p)) own[p] = n++;
  for (size_t p = 0; p < sc.points.size(); ++p) idb[p] = own[sc.interface_of(p)];
  return idb;
}

std::vector<Ns> shifts(const Scenario& sc) {
  std::vector<Ns> v;
  for (size_t p = 0; p < sc.points.size(); ++p) v.push_back(sc.shift_of(p));
  return v;
}

}  // namespace

Output::Output(const Scenario& sc, const OutputOptions& opt)
    : sc_(sc),
      only_(opt.only_point),
      idb_(interface_numbers(sc)),
      pcap_(opt.pcapng, interfaces(sc, opt.only_point)),
      reorder_(shifts(sc), [this](const Frame& f) { write(f); }) {
  if (opt.truth) truth_ = std::make_unique<TruthWriter>(*opt.truth);
}

std::string Output::note(const Frame& f) const {
  std::string n;
  auto add = [&](std::string_view s) {
    if (!n.empty()) n += ';';
    n += s;
  };
  if (f.info->pfc) pfc_note(*f.info->pfc, n);
  if (f.info->lldp) lldp_note(*f.info->lldp, n);
  if (f.info->mtu) add("mtu=" + std::to_string(f.info->mtu->bytes));
  if (f.info->message != kNoMessage && !sc_.messages[f.info->message].id.empty())
    add("msg=" + sc_.messages[f.info->message].id);
  if (f.ce) add("ce");
  if (f.icrc_bad) add("icrc-bad");
  if (f.data.size() < f.wire_len) add("truncated");
  if (!f.lost_before.empty()) add("lost-before=" + std::string(f.lost_before));
  return n.empty() ? "-" : n;
}

void Output::frame(const Frame& f) {
  if (only_ && *only_ != sc_.interface_of(f.point)) return;
  reorder_.push(f);
}

void Output::write(const Frame& f) {
  ++count_;
  const Ns shift = sc_.shift_of(f.point);
  const int64_t true_ts = sc_.epoch_s * 1'000'000'000 + f.time;
  const int64_t ts = true_ts + shift;
  pcap_.write(only_ ? 0 : idb_[f.point], ts, f.data, f.wire_len);
  // The observer reads the file: its times are the shifted ones.
  Frame seen = f;
  seen.time += shift;
  Judgement j = observer_.judge(seen, count_);
  if (f.ctrl_id) pfc_frames_[f.ctrl_id] = count_;
  if (!truth_) return;
  const FrameInfo& in = *f.info;
  std::string n = note(f);
  if (!j.note.empty()) n = n == "-" ? j.note : n + ";" + j.note;
  TruthRow r;
  r.frame = count_;
  r.point = sc_.points[f.point].name;
  r.ts_ns = ts;
  r.true_ts_ns = true_ts;
  r.interface = sc_.points[sc_.interface_of(f.point)].name;
  if (const auto& e = sc_.points[f.point].erspan) r.span_id = e->session;
  r.kind = kind_name(in.kind);
  if (is_roce(in.kind)) {
    r.src = sc_.hosts[in.src_host].name;
    r.dst = sc_.hosts[in.dst_host].name;
    r.qpn = in.dest_qpn;
    r.psn = in.psn;
    r.opcode = in.opcode;
    r.paused = f.paused;
    if (f.paused) r.pause_frame = pfc_frames_.at(f.pause_id);
    r.packet_id = f.packet_id;
    r.lost_after = f.lost_after;
    r.queue_ns = f.queued;
  } else if (in.kind == FrameKind::besteffort) {
    r.src = sc_.hosts[in.src_host].name;
    r.dst = sc_.hosts[in.dst_host].name;
    r.packet_id = f.packet_id;  // its two copies, before the queue and after it
    r.queue_ns = f.queued;
  } else if (in.kind == FrameKind::icmp) {
    r.src = in.router;  // back to the dropped packet's sender; the row names that packet
    r.dst = sc_.hosts[in.src_host].name;
    r.qpn = in.dest_qpn;
    r.psn = in.psn;
    r.opcode = in.opcode;
  } else {
    r.src = in.pfc ? in.pfc->from.name : in.lldp->from.name;
    r.dst = "-";  // to the link partner
  }
  r.verdict = j.verdict;
  r.cause = cause_name(in.cause, f.mirror);
  r.request_frame = j.request_frame;
  r.note = n;
  truth_->row(r);
  for (uint64_t nak : j.taken_back) truth_->add_note(nak, "reorder");
  for (uint64_t resend : j.shown_selective) truth_->add_note(resend, "selective-later");
}

void Output::close() {
  reorder_.flush();
  pcap_.close();
  if (truth_) truth_->close();
}

}  // namespace roceshark::gen
