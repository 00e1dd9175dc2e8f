// SPDX-License-Identifier: GPL-2.0-or-later
// checks-table DOC: rewrites the table the check catalogue generates in
// DOC (docs/triage.md); `cmake --build build --target update-docs`.
#include <fstream>
#include <iostream>
#include <sstream>

#include "epan-ext/common/checks.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: checks-table DOC\n";
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
