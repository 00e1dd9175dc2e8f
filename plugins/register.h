// SPDX-License-Identifier: GPL-2.0-or-later
// Registration pieces of the `roce` protocol, one file per analysis.
#pragma once
#include "epan-ext/common/preferences.h"

namespace roceshark::glue {

// The roce.* preferences (register_prefs.cpp), from the engine's table.
void register_preferences();
void apply_preferences();           // Wireshark calls it after any change
const prefs::Settings& settings();  // what they last validated to

void register_pfc_fields();
void register_qos_fields();
void register_hop_fields();
void register_check_fields();  // the catalogue's fields and expert infos

}  // namespace roceshark::glue
