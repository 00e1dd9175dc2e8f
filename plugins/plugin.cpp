// SPDX-License-Identifier: GPL-2.0-or-later
// The symbols Wireshark looks for in a plugin, and nothing else.
#include <epan/packet.h>
#include <epan/tap.h>

#include "plugins/roce.h"
#include "plugins/compat/ws_compat.h"
#include "ui-stats/register.h"

extern "C" {
// `extern` gives these external linkage in C++; without it a namespace-scope
// const is internal and Wireshark can't find it.
extern WS_DLL_PUBLIC_DEF const char plugin_version[];
extern WS_DLL_PUBLIC_DEF const int plugin_want_major;
extern WS_DLL_PUBLIC_DEF const int plugin_want_minor;
WS_DLL_PUBLIC void plugin_register(void);
#if ROCESHARK_WS_PLUGIN_DESCRIBE
WS_DLL_PUBLIC uint32_t plugin_describe(void);
#endif
}

// A plugin loads only into the minor version it was built against.
const char plugin_version[] = ROCESHARK_VERSION;
const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

#if ROCESHARK_WS_PLUGIN_DESCRIBE
uint32_t plugin_describe(void) { return ROCESHARK_WS_PLUGIN_KINDS; }
#endif

void plugin_register(void) {
  static proto_plugin proto = {roceshark::glue::register_protocol, roceshark::glue::register_handoff};
  proto_register_plugin(&proto);
  static tap_plugin taps = {roceshark::glue::register_taps};
  tap_register_plugin(&taps);
  static tap_plugin tables = {roceshark::ui_stats::register_tables};
  tap_register_plugin(&tables);
}
