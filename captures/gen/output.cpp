// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/output.h"

#include <vector>

namespace roceshark::gen {
namespace {

std::vector<Interface> interfaces(const Scenario& sc, std::optional<size_t> only) {
  std::vector<Interface> v;
  for (size_t p = 0; p < sc.points.size(); ++p)
    if (!only || *only == p) v.push_back({sc.points[p].name, sc.snaplen_of(p)});
  return v;
}

}  // namespace

Output::Output(const Scenario& sc, const OutputOptions& opt)
    : sc_(sc), only_(opt.only_point), pcap_(opt.pcapng, interfaces(sc, opt.only_point)) {
  if (opt.truth) truth_ = std::make_unique<TruthWriter>(*opt.truth);
}

std::string Output::note(const Frame& f) const {
  std::string n;
  auto add = [&](std::string_view s) {
    if (!n.empty()) n += ';';
    n += s;
  };
  if (f.info->message != kNoMessage && !sc_.messages[f.info->message].id.empty())
    add("msg=" + sc_.messages[f.info->message].id);
  if (f.ce) add("ce");
  if (f.icrc_bad) add("icrc-bad");
  if (f.data.size() < f.wire_len) add("truncated");
  if (!f.lost_before.empty()) add("lost-before=" + std::string(f.lost_before));
  return n.empty() ? "-" : n;
}

void Output::frame(const Frame& f) {
  if (only_ && *only_ != f.point) return;
  ++count_;
  const int64_t ts = sc_.epoch_s * 1'000'000'000 + f.time;
  pcap_.write(static_cast<uint32_t>(only_ ? 0 : f.point), ts, f.data, f.wire_len);
  Judgement j = observer_.judge(f, count_);
  if (!truth_) return;
  const FrameInfo& in = *f.info;
  const std::string n = note(f);
  TruthRow r;
  r.frame = count_;
  r.point = sc_.points[f.point].name;
  r.ts_ns = ts;
  r.src = sc_.hosts[in.src_host].name;
  r.dst = sc_.hosts[in.dst_host].name;
  r.kind = kind_name(in.kind);
  r.qpn = in.dest_qpn;
  r.psn = in.psn;
  r.opcode = in.opcode;
  r.verdict = j.verdict;
  r.cause = cause_name(in.cause, f.mirror);
  r.request_frame = j.request_frame;
  r.note = n;
  truth_->row(r);
}

void Output::close() {
  pcap_.close();
  if (truth_) truth_->close();
}

}  // namespace roceshark::gen
