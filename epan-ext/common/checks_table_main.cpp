// SPDX-License-Identifier: GPL-2.0-or-later
// checks-table DOC: rewrites the table the check catalogue generates in
// DOC (docs/triage.md); `cmake --build build --target update-docs`.
// checks-table --json OUT: writes the catalogue as JSON to OUT (the build
// writes build/checks.json, which roceshark-mcp's `explain` reads).
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

#include "epan-ext/common/checks.h"

int main(int argc, char** argv) {
  if (argc == 3 && std::string_view(argv[1]) == "--json") {
    std::ofstream out(argv[2]);
    out << roceshark::checks::catalogue_json();
    if (!out.flush()) {
      std::cerr << argv[2] << ": cannot write\n";
      return 1;
    }
    return 0;
  }
  if (argc != 2) {
    std::cerr << "usage: checks-table DOC\n       checks-table --json OUT\n";
    return 2;
  }
  std::stringstream text;
  text << std::ifstream(argv[1]).rdbuf();
  const std::string doc = text.str();
  const std::string updated = roceshark::checks::with_table(doc);
  if (doc.find(roceshark::checks::kTableBegin) == std::string::npos) {
    std::cerr << argv[1] << ": no generated-table marker\n";
    return 1;
  }
  if (updated != doc) std::ofstream(argv[1]) << updated;
  return 0;
}
