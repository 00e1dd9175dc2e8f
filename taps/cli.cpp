// SPDX-License-Identifier: GPL-2.0-or-later
#include "taps/cli.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "epan-ext/common/text_table.h"
#include "plugins/roce.h"

namespace roceshark::glue {

std::string cli_filter(const char* opt_arg, const char* command) {
  const size_t n = std::strlen(command);
  if (!opt_arg || std::strncmp(opt_arg, command, n) != 0 || opt_arg[n] != ',') return {};
  return opt_arg + n + 1;
}

void start_listener(void* tapdata, const std::string& filter, tap_reset_cb reset, tap_packet_cb packet,
                    tap_draw_cb draw, tap_finish_cb finish) {
  GString* err = register_tap_listener("roce", tapdata, filter.empty() ? nullptr : filter.c_str(),
                                       TL_REQUIRES_NOTHING, reset, packet, draw, finish);
  if (err) {
    std::fprintf(stderr, "tshark: Couldn't register roce tap: %s\n", err->str);
    g_string_free(err, TRUE);
    std::exit(1);
  }
}


}  // namespace roceshark::glue
