// SPDX-License-Identifier: GPL-2.0-or-later
// Text from a capture (interface names) or a user, made safe for a terminal,
// a text report or an SVG, as Wireshark's format_text() does: control
// characters become C escapes (\n, \t, \x1b), invalid UTF-8 bytes \xNN, and a
// backslash \\; printable ASCII and valid UTF-8 (but C1 controls) stay.
#pragma once
#include <string>
#include <string_view>

namespace roceshark {

std::string printable(std::string_view text);

// Whether printable() keeps `text` as it is (a backslash aside): no control
// character, no invalid UTF-8. Names a user types in a preference must be.
bool is_printable(std::string_view text);

}  // namespace roceshark
