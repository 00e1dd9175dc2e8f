// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/event_view.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>

#include "epan-ext/common/printable.h"
#include "epan-ext/common/text_table.h"
#include "epan-ext/decode/psn.h"
#include "epan-ext/report/evidence.h"
#include "epan-ext/report/findings_builder.h"

namespace roceshark::events {
namespace {

using triage::detail::duration;

// One event's cells; unset ones are "-" in TSV and left out of NDJSON.
struct Row {
  std::string time;
  uint64_t rel_ns = 0;
  std::string kind, point, src, dst, qp;
  std::optional<uint32_t> stream;
  int priority = -1;
  std::vector<uint32_t> frames;
  uint64_t count = 0;
  std::optional<uint64_t> duration_ns;
  std::string detail;
};

std::string psn_range(uint32_t first, uint64_t n) {
  if (n == 1) return "PSN " + std::to_string(first);
  return "PSNs " + std::to_string(first) + "-" + std::to_string(psn::add(first, static_cast<int64_t>(n) - 1));
}

std::string pcp_text(int pcp) { return pcp < 0 ? "untagged" : "PCP " + std::to_string(pcp); }

std::string run_cause(SeqClass c) {
  switch (c) {
    case SeqClass::gbn_resend: return "go-back-N";
    case SeqClass::timeout_retransmission: return "timeout";
    case SeqClass::selective_resend: return "selective";
    case SeqClass::rnr_retry: return "RNR retry";
    case SeqClass::read_retry: return "READ retry";
    default: return "resend, cause unknown,";
  }
}

std::string detail_of(const Event& e, const std::string& from, const std::string& to) {
  switch (e.kind) {
    case Kind::hop_loss: return "PSN " + std::to_string(e.psn) + " seen at " + from + ", never at " + to;
    case Kind::psn_gap: {
      std::string d = psn_range(e.psn, e.count) + " missing here";
      if (e.late) d += "; " + std::to_string(e.late) + " of them arrived late (last at frame " + std::to_string(e.last_frame) + ")";
      return d;
    }
    case Kind::reorder:
      return psn_range(e.psn, e.count) + " missing, then arrived late (last at frame " + std::to_string(e.last_frame) +
             "): reordering, not loss";
    case Kind::resend_run: {
      std::string d = run_cause(e.cause) + " run from PSN " + std::to_string(e.psn) + ", " + std::to_string(e.count) +
                      (e.count == 1 ? " packet" : " packets");
      if (e.nak_frame) d += ", after the NAK in frame " + std::to_string(e.nak_frame);
      if (e.reorder_nak) d += "; the NAK was reordering's doing, not a loss";
      return d;
    }
    case Kind::pause: {
      std::string d = "priority " + std::to_string(e.priority) + " paused " + duration(e.paused_ns) + " of " +
                      duration(e.duration_ns) + ", " + std::to_string(e.count) + (e.count == 1 ? " frame" : " frames");
      if (e.storm) d += "; storm";
      if (e.chatter) d += "; chatter";
      if (e.open) d += "; still paused at the capture's end";
      return d;
    }
    case Kind::remark: {
      const triage::Remark r = triage::Remark::of(e.key);
      std::string d;
      if (r.old_dscp != r.new_dscp) d = "DSCP " + std::to_string(r.old_dscp) + " -> " + std::to_string(r.new_dscp);
      if (r.old_pcp != r.new_pcp) d += (d.empty() ? "" : ", ") + pcp_text(r.old_pcp) + " -> " + pcp_text(r.new_pcp);
      return d + " between " + from + " and " + to;
    }
    case Kind::ce_onset:
      return e.to == kNoId ? "first ECN-CE request of the QP at " + from : "first ECN-CE set between " + from + " and " + to;
  }
  return {};
}

Row row_of(const Event& e, uint64_t start_ns, bool ns, const AnalysisFacts* a) {
  Row r;
  r.time = iso_time(e.ts_ns, ns);
  r.rel_ns = triage::since(e.ts_ns, start_ns);
  r.kind = kind_name(e.kind);
  const std::string from = a ? printable(a->point_name(e.point)) : std::to_string(e.point);
  const std::string to = e.to == kNoId ? "" : a ? printable(a->point_name(e.to)) : std::to_string(e.to);
  r.point = to.empty() ? from : from + " -> " + to;
  if (e.flow != kNoId && a) {
    const FlowKey& k = a->flow_key(e.flow);
    r.src = k.src.to_string(), r.dst = k.dst.to_string(), r.qp = cell::qp(k.qp);
    if (const uint32_t s = a->flow_stream(e.flow); s != kNoId) r.stream = s;
  }
  if (e.kind == Kind::pause) r.src = mac_to_string(e.mac);
  r.priority = e.priority;
  r.frames = {e.frame};
  if (e.last_frame && e.last_frame != e.frame) r.frames.push_back(e.last_frame);
  r.count = e.count;
  if (e.kind == Kind::pause || e.kind == Kind::resend_run) r.duration_ns = e.duration_ns;
  r.detail = detail_of(e, from, to);
  return r;
}

std::string tsv_line(const Row& r) {
  auto cell = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
  std::string frames;
  for (uint32_t f : r.frames) frames += (frames.empty() ? "" : ",") + std::to_string(f);
  std::string line = r.time + '\t' + cell::fixed(r.rel_ns, 9) + '\t' + r.kind + '\t' + cell(r.point) + '\t' + cell(r.src) + '\t' +
                     cell(r.dst) + '\t' + cell(r.qp) + '\t' + (r.stream ? std::to_string(*r.stream) : "-") + '\t' +
                     (r.priority < 0 ? "-" : std::to_string(r.priority)) + '\t' + frames + '\t' +
                     std::to_string(r.count) + '\t' + (r.duration_ns ? cell::fixed(*r.duration_ns, 9) : "-") + '\t' +
                     r.detail + '\n';
  return line;
}

std::string json_line(const Row& r) {
  JsonWriter w;
  w.begin_object().field("time", r.time).key("rel_s").fixed(r.rel_ns, 9).field("kind", r.kind);
  w.field("point", r.point);
  for (const auto& [k, v] : {std::pair{"src", &r.src}, {"dst", &r.dst}, {"qp", &r.qp}})
    if (!v->empty()) w.field(k, *v);
  if (r.stream) w.field("stream", *r.stream);
  if (r.priority >= 0) w.field("priority", r.priority);
  w.key("frames").begin_array();
  for (uint32_t f : r.frames) w.value(f);
  w.end_array().field("count", r.count);
  if (r.duration_ns) w.key("duration_s").fixed(*r.duration_ns, 9);
  w.field("detail", r.detail).end_object();
  return w.str() + "\n";
}

}  // namespace

std::string iso_time(uint64_t ts_ns, bool ns) {
  const std::time_t secs = static_cast<std::time_t>(ts_ns / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char b[64];
  const size_t n = std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%S", &tm);
  const uint64_t frac = ts_ns % 1'000'000'000;
  std::snprintf(b + n, sizeof b - n, ns ? ".%09llu" : ".%06llu",
                static_cast<unsigned long long>(ns ? frac : frac / 1000));
  return std::string(b) + "Z";
}

void write(const std::vector<Event>& list, uint64_t start_ns, bool ns, const AnalysisFacts* a, Format f,
           const TextOut& out) {
  if (f == Format::tsv) {
    std::string header;
    for (const char* c : kColumns) header += (header.empty() ? "" : "\t") + std::string(c);
    out(header + "\n");
  }
  for (const Event& e : list) {
    const Row r = row_of(e, start_ns, ns, a);
    out(f == Format::tsv ? tsv_line(r) : json_line(r));
  }
}

}  // namespace roceshark::events
