// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target for a whole capture's analysis and every view, stateless
// (ROCESHARK_FUZZ=ON, clang; scripts/run-fuzz): each input is a capture of
// its own, decoded as the command's reader decodes it and fed through a
// fresh Session to each of kViewNames. Timestamps and capture points come
// from the input, so a clock that steps back, stands still or passes 2^64
// ns, and the report code behind every view, are fuzzed too.
//
// Input: one settings byte, then records until the input ends:
//   settings: bits 0-1 roce.point_key (interface, erspan, vlan, interface),
//             bit 2 roce.check_icrc off, bit 3 tight limits (max_flows 4,
//             max_points 3, max_flow_points 6, max_pfc_ports 3), bit 4
//             roce.path_order if0,if1,if9, bit 5 roce.clock estimate;
//   record:   one byte c: interface c & 7; time (c >> 3) & 3: 0 the last
//             plus u16 * 64 ns, 1 an absolute u64, 2 the last minus u16 *
//             64 ns (wrapping), 3 the last again; the wire length exceeds
//             the captured one by (c >> 5) * 512 (a snaplen cut);
//             then a u16 length (little-endian) and that many frame bytes.
// Every view's text must be printable: no control character but a newline.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "epan-ext/common/points.h"
#include "epan-ext/common/preferences.h"
#include "epan-ext/decode/frame_decoder.h"
#include "epan-ext/session/session.h"

namespace {

using namespace roceshark;

constexpr size_t kMaxRecords = 512;  // bounds one input's time

struct Frame {
  std::vector<uint8_t> bytes;
  uint32_t wire_len;
  uint32_t interface;
  uint64_t ts_ns;
};

uint64_t read_le(const uint8_t*& p, const uint8_t* end, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && p < end; ++i) v |= uint64_t{*p++} << (8 * i);
  return v;
}

prefs::Settings settings_of(uint8_t b) {
  prefs::Settings s;
  std::string error;
  const auto set = [&](const char* name, const char* text) {
    if (!prefs::set(s, *prefs::find(name), text, error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      std::abort();
    }
  };
  set("point_key", (b & 3) == 1 ? "erspan" : (b & 3) == 2 ? "vlan" : "interface");
  if (b & 4) set("check_icrc", "FALSE");
  if (b & 8) {
    set("max_flows", "4");
    set("max_points", "3");
    set("max_flow_points", "6");
    set("max_pfc_ports", "3");
  }
  if (b & 16) set("path_order", "if0,if1,if9");
  if (b & 32) set("clock", "estimate");
  return s;
}

std::vector<Frame> frames_of(const uint8_t* p, const uint8_t* end) {
  std::vector<Frame> out;
  uint64_t ts = 0;
  while (p < end && out.size() < kMaxRecords) {
    const uint8_t c = *p++;
    switch ((c >> 3) & 3) {
      case 0: ts += read_le(p, end, 2) * 64; break;
      case 1: ts = read_le(p, end, 8); break;
      case 2: ts -= read_le(p, end, 2) * 64; break;
      default: break;
    }
    const size_t len = read_le(p, end, 2);
    const size_t have = std::min<size_t>(len, static_cast<size_t>(end - p));
    Frame f{{p, p + have}, static_cast<uint32_t>(have + (c >> 5) * 512u), c & 7u, ts};
    p += have;
    out.push_back(std::move(f));
  }
  return out;
}

// As cli/reader.cpp decodes and keys each frame, and cli/main.cpp feeds it.
void feed(Session& s, const prefs::Settings& settings, const std::vector<Frame>& frames) {
  uint32_t n = 0;
  for (const Frame& f : frames) {
    decode::FrameIn in;
    in.bytes = f.bytes, in.wire_len = f.wire_len, in.frame = ++n, in.point = f.interface, in.ts_ns = f.ts_ns;
    in.check_icrc = settings.check_icrc;
    decode::Decoded d = decode::decode_frame(in);
    if (d.kind == decode::Kind::not_ours) continue;
    const uint32_t point = points::frame_point(settings.cfg.naming.key, f.interface, d.erspan_session, d.outer_vlan);
    d.set_point(point);
    if (d.kind != decode::Kind::cross) s.name_point(point, points::name(settings.cfg.naming, point, nullptr));
    switch (d.kind) {
      case decode::Kind::roce: s.feed(d.packet, f.wire_len); break;
      case decode::Kind::pause: s.feed(d.pause, f.wire_len); break;
      case decode::Kind::dcbx: s.feed(n, f.ts_ns, d.dcbx, f.wire_len); break;
      case decode::Kind::icmp: s.feed(d.icmp, f.wire_len); break;
      case decode::Kind::cross: s.feed(d.cross); break;
      case decode::Kind::not_ours: break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const prefs::Settings settings = settings_of(data[0]);
  const std::vector<Frame> frames = frames_of(data + 1, data + size);
  for (std::string_view view : kViewNames) {
    Session s(settings);
    feed(s, settings, frames);
    std::string text;
    const int status = s.view(view, false, [&](std::string_view t) { text += t; });
    if (status < 0 || status > 2) {
      std::fprintf(stderr, "%.*s: exit status %d\n", int(view.size()), view.data(), status);
      std::abort();
    }
    for (size_t i = 0; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if ((c < 0x20 && c != '\n') || c == 0x7f) {
        std::fprintf(stderr, "%.*s: control character 0x%02x at %zu:\n%s\n", int(view.size()), view.data(), c, i,
                     text.c_str());
        std::abort();
      }
    }
  }
  return 0;
}
