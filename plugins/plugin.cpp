// SPDX-License-Identifier: GPL-2.0-or-later
// The four symbols Wireshark looks for in a plugin, and nothing else.
#include <epan/packet.h>
#include <epan/tap.h>

#include "plugins/roce.h"
#include "ui-stats/register.h"

extern "C" {
// `extern` gives these external linkage in C++; without it a namespace-scope
// const is internal and Wireshark can't find it.
extern WS_DLL_PUBLIC_DEF const char plugin_version[];
extern WS_DLL_PUBLIC_DEF const int plugin_want_major;
extern WS_DLL_PUBLIC_DEF const int plugin_want_minor;
WS_DLL_PUBLIC void plugin_register(void);
}

const char plugin_version[] = ROCESHARK_VERSION;
const int plugin_want_major = 4;
const int plugin_want_minor = 0;

void plugin_register(void) {
  static proto_plugin proto = {roceshark::glue::register_protocol, roceshark::glue::register_handoff};
  proto_register_plugin(&proto);
  static tap_plugin taps = {roceshark::glue::register_taps};
  tap_register_plugin(&taps);
  static tap_plugin tables = {roceshark::ui_stats::register_tables};
  tap_register_plugin(&tables);
}
