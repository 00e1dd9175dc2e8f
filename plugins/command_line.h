// SPDX-License-Identifier: GPL-2.0-or-later
// This process's own arguments (Linux: /proc/self/cmdline), for the few
// things Wireshark does not tell a plugin: how a flag preference was
// spelt, and the file tshark reads.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace roceshark::glue {

std::vector<std::string> own_arguments();

// The capture file tshark was given with -r (also -rFILE, -nr FILE); none
// when this is not tshark, or it reads a pipe ("-"). Not --read-file: 4.0's
// tshark takes it for no option and captures live.
std::optional<std::string> tshark_read_file(const std::vector<std::string>& args);

}  // namespace roceshark::glue
