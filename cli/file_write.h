// SPDX-License-Identifier: GPL-2.0-or-later
// Writing the monitor's files: a whole file appears at once (written
// beside its name, then renamed), so a reader (Prometheus' textfile
// collector, roce-compare, a later --baseline-file) never sees half of one;
// or a line appended. Every write, flush and close is checked.
#pragma once
#include <string>
#include <string_view>

namespace roceshark::cli {

enum class Write { replace, append };

// False, with the reason (strerror) in `error`, when the file could not be
// written; a replacement's partial file is removed.
bool write_file(const std::string& path, std::string_view text, Write how, std::string& error);

}  // namespace roceshark::cli
