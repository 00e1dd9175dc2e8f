// SPDX-License-Identifier: GPL-2.0-or-later
#include "plugins/extract.h"

#include <wiretap/wtap.h>

#include "plugins/points.h"

namespace roceshark::glue {
namespace {

decode::LinkType link_type(const packet_info* pinfo) {
  if (!pinfo->rec || pinfo->rec->rec_type != REC_TYPE_PACKET) return decode::LinkType::other;
  const auto& h = pinfo->rec->rec_header.packet_header;
  if (h.pkt_encap == WTAP_ENCAP_ETHERNET) return decode::LinkType::ethernet;
  if (h.pkt_encap == WTAP_ENCAP_ERF) return decode::erf_link(h.pseudo_header.erf.phdr.type);
  return decode::LinkType::other;
}

}  // namespace

uint64_t frame_ts(const packet_info* pinfo) {
  return static_cast<uint64_t>(pinfo->abs_ts.secs) * 1'000'000'000u + static_cast<uint64_t>(pinfo->abs_ts.nsecs);
}

decode::Decoded extract(tvbuff_t* tvb, packet_info* pinfo, bool check_icrc) {
  const auto captured = tvb_captured_length(tvb);
  decode::FrameIn in;
  if (captured) in.bytes = {tvb_get_ptr(tvb, 0, static_cast<gint>(captured)), captured};
  in.wire_len = pinfo->fd->pkt_len;
  in.link = link_type(pinfo);
  in.frame = pinfo->num;
  in.point = interface_point(pinfo);
  in.ts_ns = frame_ts(pinfo);
  in.check_icrc = check_icrc;
  decode::Decoded d = decode::decode_frame(in);
  if (d.kind != decode::Kind::not_ours) d.set_point(frame_point(pinfo, d.erspan_session, d.outer_vlan));
  return d;
}

}  // namespace roceshark::glue
