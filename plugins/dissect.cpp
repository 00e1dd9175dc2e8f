// SPDX-License-Identifier: GPL-2.0-or-later
#include "plugins/dissect.h"

#include <epan/epan.h>
#include <epan/tap.h>
#include <wsutil/wmem/wmem.h>

#include <cstring>
#include <new>
#include <string>

#include "plugins/extract.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

bool check_icrc = true;

template <typename T>
const T* pool_copy(packet_info* pinfo, const T& value) {
  return new (wmem_alloc(pinfo->pool, sizeof(T))) T(value);  // trivially destructible: the pool frees it
}

void name_point(packet_info* pinfo, Analyzer& a, uint32_t point) {
  if (a.point_named(point)) return;
  const char* name = pinfo->epan ? epan_get_interface_name(pinfo->epan, point) : nullptr;
  // Files without interface names (pcap) report "unknown": name the point by its id.
  const bool named = name && *name && std::strcmp(name, "unknown") != 0;
  a.name_point(point, named ? name : "if" + std::to_string(point));
}

}  // namespace

void set_check_icrc(bool on) { check_icrc = on; }

int dissect_roce(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, void*) {
  PacketInfo p;
  switch (extract(pinfo, tree, check_icrc, p)) {
    case Extracted::not_roce: return 0;
    case Extracted::truncated: render_truncated(tvb, pinfo, tree); return 0;
    case Extracted::ok: break;
  }
  Analyzer& a = session();
  const Verdict* v = PINFO_FD_VISITED(pinfo) ? a.find(p.frame) : nullptr;
  if (!v && !PINFO_FD_VISITED(pinfo)) {
    name_point(pinfo, a, p.point);
    v = &a.process(p);
  }
  if (!v) return 0;  // the engine was reset since the first pass; nothing to show
  render(tvb, pinfo, tree, p, *v);

  // The tap runs after this frame's dissection: hand it copies in the packet pool.
  auto* rec = pool_copy(pinfo, TapRecord{pool_copy(pinfo, p), pool_copy(pinfo, *v), &a});
  tap_queue_packet(ids.tap, pinfo, rec);
  return tvb_captured_length(tvb);
}

}  // namespace roceshark::glue
