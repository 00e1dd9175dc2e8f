// SPDX-License-Identifier: GPL-2.0-or-later
#include <memory>

#include "plugins/roce.h"

namespace roceshark::glue {
namespace {
std::unique_ptr<Analyzer> current;
}  // namespace

Analyzer& session() {
  if (!current) current = std::make_unique<Analyzer>();
  return *current;
}

void session_reset(const Config& cfg) {
  current = std::make_unique<Analyzer>(cfg);
}

void session_drop() { current.reset(); }

}  // namespace roceshark::glue
