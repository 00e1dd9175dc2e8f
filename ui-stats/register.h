// SPDX-License-Identifier: GPL-2.0-or-later
// The roce statistics as tables, for Wireshark's Statistics menu and
// `tshark -z roce,hop_table` / `-z roce,qp_table`. Registered with the
// tap listeners: Wireshark builds its menus from them afterwards.
#pragma once

namespace roceshark::ui_stats {

void register_tables();     // all below
void register_hop_table();  // hop_table.cpp
void register_qp_table();   // qp_table.cpp
void register_triage_window();  // triage_window.cpp: the RoCE menu

}  // namespace roceshark::ui_stats
