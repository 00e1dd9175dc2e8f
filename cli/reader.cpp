// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/reader.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unordered_set>
#include <utility>

#include "epan-ext/common/points.h"

namespace roceshark::cli {
namespace {

// On a terminal, a line on stderr every second or so: packets, rate, time;
// when the input's size is known (files), how much of it is read and the
// time left at the rate so far.
class Progress {
 public:
  Progress(bool on, RecordSource& in)
      : in_(in), on_(on && isatty(STDERR_FILENO)), start_(Clock::now()), last_(start_) {}
  void tick(uint64_t packets) {
    if (!on_ || (packets & 0xffff) != 0) return;
    const auto now = Clock::now();
    if (now - last_ < std::chrono::seconds(1)) return;
    last_ = now;
    const double s = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "\rroceshark: %llu packets, %.2f M/s, %.0f s", static_cast<unsigned long long>(packets),
                 double(packets) / s / 1e6, s);
    if (const RecordSource::Position p = in_.position(); p.total && p.done) {
      const double share = std::min(1.0, double(p.done) / double(p.total));
      std::fprintf(stderr, ", %.0f%%, %.0f s left", 100 * share, s * (1 - share) / share);
    }
    std::fputs(" \033[K", stderr);  // what a longer line before left
    shown_ = true;
  }
  ~Progress() {
    if (shown_) std::fputs("\r\033[K", stderr);  // leave the terminal as it was
  }

 private:
  using Clock = std::chrono::steady_clock;
  RecordSource& in_;
  bool on_, shown_ = false;
  Clock::time_point start_, last_;
};

// The decoded record into its kind's vector.
uint32_t keep(Batch& b, decode::Decoded& d) {
  const auto put = [](auto& v, auto&& x) {
    v.push_back(std::move(x));
    return static_cast<uint32_t>(v.size() - 1);
  };
  switch (d.kind) {
    case decode::Kind::roce: return put(b.packets, d.packet);
    case decode::Kind::pause: return put(b.pauses, d.pause);
    case decode::Kind::dcbx: return put(b.dcbx, std::move(d.dcbx));
    case decode::Kind::icmp: return put(b.icmp, d.icmp);
    case decode::Kind::cross: return put(b.cross, d.cross);
    case decode::Kind::not_ours: break;
  }
  return 0;
}

}  // namespace

void read_all(RecordSource& in, const prefs::Settings& settings, const std::function<Batch()>& take,
              const std::function<void(Batch)>& give, bool show_progress, bool every_frame) {
  Progress progress(show_progress, in);
  PointNamer namer;
  Batch b = take();
  b.clear();
  Record r;
  for (uint32_t n = 1; in.next(r); ++n) {
    if (r.tick) {
      --n;
      b.idle_ns = r.ts_ns;
      give(std::move(b));
      b = take();
      b.clear();
      continue;
    }
    progress.tick(n);
    decode::FrameIn f;
    f.bytes = r.bytes, f.wire_len = r.wire_len, f.frame = n, f.point = r.interface, f.ts_ns = r.ts_ns;
    f.link = r.link;
    f.check_icrc = settings.check_icrc;
    decode::Decoded d = decode::decode_frame(f);
    if (d.kind == decode::Kind::not_ours && !every_frame) continue;
    if (d.kind != decode::Kind::not_ours) {
      const uint32_t point = points::frame_point(settings.cfg.naming.key, r.interface, d.erspan_session, d.outer_vlan);
      d.set_point(point);
      namer.note(b, point, d.kind, [&] {
        return points::name(settings.cfg.naming, point, points::is_interface(point) ? in.interface_name(point) : nullptr);
      });
    }
    b.items.push_back({d.kind, keep(b, d), n, r.wire_len, r.ts_ns, r.interface});
    if (b.full()) {
      give(std::move(b));
      b = take();
      b.clear();
    }
  }
  if (!b.empty()) give(std::move(b));
}

}  // namespace roceshark::cli
