// SPDX-License-Identifier: GPL-2.0-or-later
// The roce statistics as tables, for Wireshark's Statistics menu and
// `tshark -z roce,{qp,hop,pfc,qos}_table`, and the triage under Analyze.
// Registered with the tap listeners: Wireshark builds its menus from them
// afterwards.
#pragma once

namespace roceshark::ui_stats {

void register_tables();     // all below
void register_hop_table();  // hop_table.cpp
void register_qp_table();   // qp_table.cpp
void register_pfc_table();  // pfc_table.cpp
void register_qos_table();  // qos_table.cpp
void register_triage_window();  // triage_window.cpp: Analyze -> RoCE

}  // namespace roceshark::ui_stats
