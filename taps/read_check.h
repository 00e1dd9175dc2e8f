// SPDX-License-Identifier: GPL-2.0-or-later
// Whether tshark read its capture file to the end. tshark still draws the
// -z statistics after a read error (it says so on stderr and exits 2), and
// a tap cannot see the error: so the file tshark was given is read again
// here, records only, with the same libwiretap, and its error is the
// report's cut_short limit, as the command gives it.
#pragma once
#include <optional>
#include <string>

namespace roceshark::glue {

// The read error of tshark's -r file ("FILE: record N: ..."), once per
// process; none when it reads to its end, or this is not tshark reading a
// file (the GUI shows a read error itself).
const std::optional<std::string>& tshark_read_error();

}  // namespace roceshark::glue
