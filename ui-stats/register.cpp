// SPDX-License-Identifier: GPL-2.0-or-later
#include "ui-stats/register.h"

namespace roceshark::ui_stats {

void register_tables() {
  register_qp_table();
  register_hop_table();
  register_pfc_table();
  register_qos_table();
  register_triage_window();
}

}  // namespace roceshark::ui_stats
