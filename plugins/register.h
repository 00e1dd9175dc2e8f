// SPDX-License-Identifier: GPL-2.0-or-later
// Registration pieces of the `roce` protocol, one file per analysis.
#pragma once
#include <epan/prefs.h>

#include <string>

#include "epan-ext/config.h"

namespace roceshark::glue {

void register_pfc_fields();
void register_pfc_preferences(module_t* m);
// Copies the PFC preferences into `cfg`; false with a message if one is bad.
bool apply_pfc_preferences(Config& cfg, std::string& error);

void register_qos_fields();
void register_qos_preferences(module_t* m);
bool apply_qos_preferences(Config& cfg, std::string& error);

void register_hop_fields();
void register_hop_preferences(module_t* m);
bool apply_hop_preferences(Config& cfg, std::string& error);

void register_health_preferences(module_t* m);
bool apply_health_preferences(Config& cfg, std::string& error);

}  // namespace roceshark::glue
