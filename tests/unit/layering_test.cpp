// SPDX-License-Identifier: GPL-2.0-or-later
// The report side (statistics, findings, views) reaches the analysis only
// through AnalysisFacts and the tapped verdicts and events: no file of it
// includes the Analyzer, directly or through another header, so it cannot
// read the analysis' per-packet state and ignore a display filter.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;
const fs::path kSource = ROCESHARK_SOURCE_DIR;

// The report side by name (DEVELOPERS.md, "How the pieces fit").
bool report_side(const std::string& name) {
  static const std::regex re(
      R"((findings.*|.*_stats|.*_report|json_report|json_triage|triage|health|evidence|views|tapped|tap_record|timeline)\.(h|cpp))");
  return std::regex_match(name, re);
}

// Every project header `file` includes, followed through the headers.
void includes(const std::string& file, std::set<std::string>& seen) {
  std::ifstream in(kSource / file);
  static const std::regex inc(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, inc) && fs::exists(kSource / m[1].str()) && seen.insert(m[1].str()).second)
      includes(m[1].str(), seen);
}

TEST(Layering, ReportSideSeesNoAnalyzer) {
  size_t checked = 0;
  for (const auto& e : fs::directory_iterator(kSource / "epan-ext")) {
    const std::string name = e.path().filename().string();
    if (!report_side(name)) continue;
    ++checked;
    std::set<std::string> seen;
    includes("epan-ext/" + name, seen);
    for (const char* engine : {"epan-ext/analyzer.h", "epan-ext/stored_analysis.h"})
      EXPECT_FALSE(seen.contains(engine)) << "epan-ext/" << name << " includes " << engine
                                          << ": ask epan-ext/analysis_facts.h, or carry it in the tap record";
  }
  EXPECT_GE(checked, 30u);  // the rule found the files it is about
}

TEST(Layering, IncludesAreFollowed) {
  std::set<std::string> seen;
  includes("epan-ext/stored_analysis.h", seen);
  EXPECT_TRUE(seen.contains("epan-ext/analyzer.h"));
  EXPECT_TRUE(seen.contains("epan-ext/flow_table.h"));  // through analyzer.h
}

}  // namespace
