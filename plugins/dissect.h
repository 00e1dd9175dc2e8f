// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
#include <epan/packet.h>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/stored_analysis.h"
#include "epan-ext/analysis/verdict.h"

namespace roceshark::glue {

// The postdissector: extract, analyse on the first pass, render, tap.
int dissect_roce(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, void* data);
void set_check_icrc(bool on);

// Tree items, expert infos and the Info column for one verdict (render.cpp);
// each render returns the frame's roce tree.
proto_tree* render(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const Verdict& v, const StoredAnalysis& a);
// The same for a PFC frame (render_pfc.cpp), and the PFC part of a RoCE packet.
proto_tree* render_pause(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const pfc::PauseVerdict& v, const Analyzer& a);
void render_packet_pfc(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const Analyzer& a);
// QoS (render_qos.cpp): the checks on a RoCE packet, and an LLDP frame's DCBX findings.
void render_packet_qos(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const Analyzer& a);
// Multi-point (render_hop.cpp): the same packet at an earlier point.
void render_packet_hop(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const StoredAnalysis& a);
proto_tree* render_dcbx(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const qos::DcbxVerdict& v, const Analyzer& a);
// An ICMP too-big message about RoCE (render_icmp.cpp).
proto_tree* render_icmp(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const icmp::Verdict& v, const Analyzer& a);

}  // namespace roceshark::glue
