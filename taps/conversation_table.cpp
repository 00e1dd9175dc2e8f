// SPDX-License-Identifier: GPL-2.0-or-later
// The RoCE tab of Statistics > Conversations and > Endpoints, and tshark's
// -z conv,roce and -z endpoints,roce: Wireshark's own tables, filled from
// the roce tap's verdicts (docs/gui.md, "Conversations and endpoints").
//
// A conversation is a stream (roce.qp.stream: one RC connection, both
// directions, every capture point); its port slots hold the QP number at
// each end, the destination QP of the frames sent to it (0 while none was).
// Its row is keyed by the stream alone, so a QP learnt later (the first
// response names the requester's) fills the slot without splitting the row,
// and one pass, two passes and the GUI give the same table. An endpoint is
// a host: its QPs are its conversations' port slots.
#include <epan/packet.h>  // before conversation_table.h, which needs GLib's types on 4.0
#include <epan/conversation_table.h>
#include <epan/tap.h>

#include <set>
#include <string>

#include "epan-ext/report/conversation_filter.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

using conversation::Family;
using conversation::Side;

// A flow key's address as Wireshark's (pointing into the key: the tables copy it).
bool to_address(const Address& a, address& out) {
  if (a.len != 4 && a.len != 16) return false;
  set_address(&out, a.len == 4 ? AT_IPv4 : AT_IPv6, a.len, a.bytes.data());
  return true;
}

Family family(const address& a) { return a.type == AT_IPv4 ? Family::ipv4 : Family::ipv6; }

// Wireshark keeps the returned text only while it writes the filter, and
// frees none: one copy of each, for the plugin's life.
const char* kept(std::string text) {
  static std::set<std::string> texts;
  return texts.insert(std::move(text)).first->c_str();
}

const char* conversation_field(conv_item_t* row, conv_filter_type_e type) {
  const Family f = family(row->src_address);
  switch (type) {
    case CONV_FT_SRC_ADDRESS: return kept(conversation::filter_field(row->conv_id, f, Side::src));
    case CONV_FT_DST_ADDRESS: return kept(conversation::filter_field(row->conv_id, f, Side::dst));
    case CONV_FT_ANY_ADDRESS: return kept(conversation::filter_field(row->conv_id, f, Side::any));
    default: return CONV_FILTER_INVALID;  // ports: Wireshark filters on them for TCP, UDP, SCTP and NCP only
  }
}

const char* endpoint_field(endpoint_item_t* row, conv_filter_type_e type) {
  const Family f = family(row->myaddress);
  switch (type) {
    case CONV_FT_SRC_ADDRESS: return conversation::address_field(f, Side::src);
    case CONV_FT_DST_ADDRESS: return conversation::address_field(f, Side::dst);
    case CONV_FT_ANY_ADDRESS: return conversation::address_field(f, Side::any);
    default: return CONV_FILTER_INVALID;
  }
}

ct_dissector_info_t conversation_info = {&conversation_field};
et_dissector_info_t endpoint_info = {&endpoint_field};

// The frame's verdict and its connection's addresses, when it has a stream.
const Verdict* connection(const void* data, address& src, address& dst) {
  const auto& rec = *static_cast<const TapRecord*>(data);
  const Verdict* v = rec.verdict;
  if (!v || v->stream == kNoId || v->flow == kNoId) return nullptr;
  const FlowKey& k = rec.facts->flow_key(v->flow);
  return to_address(k.src, src) && to_address(k.dst, dst) ? v : nullptr;
}

tap_packet_status conversation_packet(void* table, packet_info* pinfo, epan_dissect_t*, const void* data,
                                      tap_flags_t flags) {
  auto* ch = static_cast<conv_hash_t*>(table);
  ch->flags = flags;
  address src, dst;
  const Verdict* v = connection(data, src, dst);
  if (!v) return TAP_PACKET_DONT_REDRAW;
  const auto& rec = *static_cast<const TapRecord*>(data);
  conv_item_t* row = ws::add_conversation(ch, &src, &dst, 0, 0, v->stream, static_cast<int>(rec.frame_len),
                                          &pinfo->rel_ts, &pinfo->abs_ts, &conversation_info, CONVERSATION_IBQP);
  // The destination's port slot: the QP this frame was sent to.
  if (row) (addresses_equal(&row->dst_address, &dst) ? row->dst_port : row->src_port) = rec.facts->flow_key(v->flow).qp;
  return TAP_PACKET_REDRAW;
}

tap_packet_status endpoint_packet(void* table, packet_info*, epan_dissect_t*, const void* data, tap_flags_t flags) {
  auto* ch = static_cast<conv_hash_t*>(table);
  ch->flags = flags;
  address src, dst;
  if (!connection(data, src, dst)) return TAP_PACKET_DONT_REDRAW;
  const int bytes = static_cast<int>(static_cast<const TapRecord*>(data)->frame_len);
  add_endpoint_table_data(ch, &src, 0, true, 1, bytes, &endpoint_info, ENDPOINT_NONE);
  add_endpoint_table_data(ch, &dst, 0, false, 1, bytes, &endpoint_info, ENDPOINT_NONE);
  return TAP_PACKET_REDRAW;
}

}  // namespace

void register_conversation_table() {
  register_conversation_table(ids.proto, false, conversation_packet, endpoint_packet);
}

}  // namespace roceshark::glue
