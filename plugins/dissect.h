// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
#include <epan/packet.h>

#include "epan-ext/analyzer.h"
#include "epan-ext/verdict.h"

namespace roceshark::glue {

// The postdissector: extract, analyse on the first pass, render, tap.
int dissect_roce(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, void* data);
void set_check_icrc(bool on);

// Tree items, expert infos and the Info column for one verdict (render.cpp).
void render(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const Verdict& v, const Analyzer& a);

}  // namespace roceshark::glue
