// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/truth_writer.h"

#include <cinttypes>

#include "captures/gen/pcapng_writer.h"

namespace roceshark::gen {

TruthWriter::TruthWriter(const std::string& path) : path_(path) {
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) throw WriteError(path + ": cannot create the truth file");
  std::fwrite(kHeader.data(), 1, kHeader.size(), f_);
}

TruthWriter::~TruthWriter() {
  if (f_) std::fclose(f_);
}

void TruthWriter::row(const TruthRow& r) {
  char req[24] = "-", qpn[16] = "-", psn[16] = "-", opcode[8] = "-", paused[4] = "-", pause[24] = "-";
  if (r.request_frame) std::snprintf(req, sizeof req, "%" PRIu64, *r.request_frame);
  if (r.qpn) std::snprintf(qpn, sizeof qpn, "0x%06x", *r.qpn);
  if (r.psn) std::snprintf(psn, sizeof psn, "%u", *r.psn);
  if (r.opcode) std::snprintf(opcode, sizeof opcode, "0x%02x", *r.opcode);
  if (r.paused) std::snprintf(paused, sizeof paused, "%d", *r.paused ? 1 : 0);
  if (r.pause_frame) std::snprintf(pause, sizeof pause, "%" PRIu64, *r.pause_frame);
  char id[24] = "-", lost[4] = "-", queue[24] = "-", span[8] = "-";
  if (r.packet_id) std::snprintf(id, sizeof id, "%" PRIu64, *r.packet_id);
  if (r.lost_after) std::snprintf(lost, sizeof lost, "%d", *r.lost_after ? 1 : 0);
  if (r.queue_ns) std::snprintf(queue, sizeof queue, "%" PRId64, *r.queue_ns);
  if (r.span_id) std::snprintf(span, sizeof span, "%u", unsigned{*r.span_id});
  char head[1024], tail[512];
  std::snprintf(head, sizeof head,
                "%" PRIu64 "\t%.*s\t%" PRId64 "\t%.*s->%.*s\t%.*s\t%s\t%s\t%s\t%.*s\t%.*s\t%s\t", r.frame,
                static_cast<int>(r.point.size()), r.point.data(), r.ts_ns, static_cast<int>(r.src.size()), r.src.data(),
                static_cast<int>(r.dst.size()), r.dst.data(), static_cast<int>(r.kind.size()), r.kind.data(), qpn, psn,
                opcode, static_cast<int>(r.verdict.size()), r.verdict.data(), static_cast<int>(r.cause.size()),
                r.cause.data(), req);
  std::snprintf(tail, sizeof tail, "\t%s\t%s\t%" PRId64 "\t%s\t%s\t%s\t%.*s\t%s\n", paused, pause, r.true_ts_ns,
                id, lost, queue, static_cast<int>(r.interface.size()), r.interface.data(), span);
  held_.push_back({r.frame, head, std::string(r.note), tail});
  flush(kHeld);
}

void TruthWriter::add_note(uint64_t frame, std::string_view note) {
  for (Held& h : held_) {
    if (h.frame != frame) continue;
    h.note = h.note == "-" ? std::string(note) : h.note + ";" + std::string(note);
    return;
  }
}

void TruthWriter::flush(size_t keep) {
  for (; held_.size() > keep; held_.pop_front()) {
    const Held& h = held_.front();
    for (const std::string* part : {&h.head, &h.note, &h.tail}) std::fwrite(part->data(), 1, part->size(), f_);
  }
}

void TruthWriter::close() {
  if (!f_) return;
  flush(0);
  const bool ok = std::ferror(f_) == 0;
  const bool closed = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!ok || !closed) throw WriteError(path_ + ": write failed");
}

}  // namespace roceshark::gen
