// SPDX-License-Identifier: GPL-2.0-or-later
// Shared by the `-z roce,...` listeners: argument parsing and registration.
#pragma once
#include <epan/tap.h>

#include <string>

namespace roceshark::glue {

// "roce,qp,ip.addr==10.0.0.1" -> "ip.addr==10.0.0.1"; "" without a filter.
std::string cli_filter(const char* opt_arg, const char* command);

// Registers a listener on the roce tap; exits tshark with a message if the
// filter doesn't compile, as tshark's own -z statistics do.
void start_listener(void* tapdata, const std::string& filter, tap_reset_cb reset, tap_packet_cb packet,
                    tap_draw_cb draw, tap_finish_cb finish);


}  // namespace roceshark::glue
