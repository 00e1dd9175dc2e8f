// SPDX-License-Identifier: GPL-2.0-or-later
#include "plugins/dissect.h"

#include <epan/epan.h>
#include <epan/proto_data.h>
#include <epan/tap.h>
#include <wsutil/wmem/wmem.h>

#include <cstring>
#include <new>
#include <string>
#include <type_traits>

#include "plugins/extract.h"
#include "plugins/points.h"
#include "plugins/roce.h"
#include "taps/read_check.h"

namespace roceshark::glue {
namespace {

bool check_icrc = true;
constexpr uint32_t kVerdictKey = 0;  // our only per-packet proto data: "this frame has a verdict"

template <typename T>
const T* pool_copy(packet_info* pinfo, const T& value) {
  static_assert(std::is_trivially_destructible_v<T>);
  return new (wmem_alloc(pinfo->pool, sizeof(T))) T(value);  // trivially destructible: the pool frees it
}

void name_point(packet_info* pinfo, Analyzer& a, uint32_t point) {
  if (!a.point_named(point)) a.name_point(point, point_name(pinfo, point));
}

}  // namespace

void set_check_icrc(bool on) { check_icrc = on; }

proto_item* verdict(packet_info* pinfo, proto_item* it) {
  if (!p_get_proto_data(pinfo->pool, pinfo, ids.proto, kVerdictKey))
    p_add_proto_data(pinfo->pool, pinfo, ids.proto, kVerdictKey, GUINT_TO_POINTER(1));
  return it;
}

int dissect_roce(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, void*) {
  StoredAnalysis& a = session();
  const Verdict* v = nullptr;
  const pfc::PauseVerdict* pause = nullptr;
  const qos::DcbxVerdict* dcbx = nullptr;
  const icmp::Verdict* icmp = nullptr;
  if (PINFO_FD_VISITED(pinfo)) {
    // Everything shown comes from the first pass: later passes (GUI packet
    // list, retap, -2) read the verdicts back, never decode again.
    if (const std::optional<Verdict> kept = a.find(pinfo->num)) v = pool_copy(pinfo, *kept);
    if (!v) pause = a.find_pause(pinfo->num);
    if (!v && !pause) dcbx = a.find_dcbx(pinfo->num);
    if (!v && !pause && !dcbx) icmp = a.find_icmp(pinfo->num);
  } else {
    frame_read_at(pinfo->fd->file_off);
    const decode::Decoded d = extract(tvb, pinfo, check_icrc);
    switch (d.kind) {
      case decode::Kind::not_ours: return 0;
      case decode::Kind::cross: a.process(d.cross); return 0;  // weighed, not shown
      case decode::Kind::pause:
        name_point(pinfo, a, d.pause.point);
        pause = &a.process(d.pause);
        break;
      case decode::Kind::dcbx:
        name_point(pinfo, a, d.dcbx.point);
        dcbx = &a.process(pinfo->num, frame_ts(pinfo), d.dcbx);
        break;
      case decode::Kind::icmp:
        name_point(pinfo, a, d.icmp.point);
        icmp = &a.process(d.icmp);
        break;
      case decode::Kind::roce:
        name_point(pinfo, a, d.packet.point);
        v = pool_copy(pinfo, a.process(d.packet));
        break;
    }
  }
  if (!v && !pause && !dcbx && !icmp) return 0;  // not ours, or the engine was reset since the first pass
  proto_tree* t = v       ? render(tvb, pinfo, tree, *v, a)
                  : pause ? render_pause(tvb, pinfo, tree, *pause, a)
                  : dcbx  ? render_dcbx(tvb, pinfo, tree, *dcbx, a)
                          : render_icmp(tvb, pinfo, tree, *icmp, a);
  if (t && p_get_proto_data(pinfo->pool, pinfo, ids.proto, kVerdictKey))
    proto_item_set_generated(proto_tree_add_item(t, ids.analysis_flags, tvb, 0, 0, ENC_NA));

  // The tap runs after this frame's dissection: the record and the RoCE
  // verdict live in the packet pool; the other verdicts stay put (the
  // engine keeps them in deques).
  const uint64_t ts = a.analysis_ts(pinfo->num, frame_ts(pinfo));
  const EventLog* events = &session_events();
  const hop::HopVerdict* hop = nullptr;
  if (v && v->has_hop)
    if (const std::optional<hop::HopVerdict> h = a.find_hop(v->frame)) hop = pool_copy(pinfo, *h);
  const TapRecord rec = v ? TapRecord{v, &a, ts, pinfo->fd->pkt_len, nullptr, nullptr, events, hop, a.rtt_samples(*v)}
                          : TapRecord{.verdict = nullptr, .facts = &a, .ts_ns = ts, .frame_len = pinfo->fd->pkt_len,
                                      .pause = pause, .dcbx = dcbx, .events = events, .icmp = icmp};
  // A dissector that threw inside an ICMP error's quoted packet leaves
  // in_error_pkt set, and taps then drop the frame: the views would miss a
  // verdict the tree shows. This record is the whole frame's, never a quote's.
  const bool in_error = pinfo->flags.in_error_pkt;
  pinfo->flags.in_error_pkt = false;
  tap_queue_packet(ids.tap, pinfo, pool_copy(pinfo, rec));
  pinfo->flags.in_error_pkt = in_error;
  return tvb_captured_length(tvb);
}

}  // namespace roceshark::glue
