// SPDX-License-Identifier: GPL-2.0-or-later
// The engine's folders are layers (DEVELOPERS.md, "How the pieces fit"):
//   common/   settings, the check catalogue, text and JSON helpers: sees only itself;
//   decode/   bytes to records: sees common/;
//   analysis/ records to verdicts and events: sees decode/ and common/;
//   report/   verdicts and events to statistics, findings and views: reaches
//             the analysis only through AnalysisFacts and the tapped records,
//             never the Analyzer, so it cannot read the analysis' per-packet
//             state and ignore a display filter;
//   session/  one capture from records to every view, for front ends that
//             keep no result per frame: sees them all.
// Includes are followed through headers, so a layer cannot reach past its
// rule by way of another file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
const fs::path kSource = ROCESHARK_SOURCE_DIR;

// Every project header `file` includes, followed through the headers.
void includes(const std::string& file, std::set<std::string>& seen) {
  std::ifstream in(kSource / file);
  static const std::regex inc(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, inc) && fs::exists(kSource / m[1].str()) && seen.insert(m[1].str()).second)
      includes(m[1].str(), seen);
}

std::vector<std::string> files_of(const std::string& layer) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kSource / "epan-ext" / layer))
    out.push_back("epan-ext/" + layer + "/" + e.path().filename().string());
  return out;
}

bool in_layer(const std::string& path, const std::vector<std::string>& layers) {
  for (const auto& l : layers)
    if (path.starts_with("epan-ext/" + l + "/")) return true;
  return false;
}

// Each file of `layer` reaches only engine files of `allowed`.
void expect_sees_only(const std::string& layer, const std::vector<std::string>& allowed, size_t at_least = 10) {
  const auto files = files_of(layer);
  EXPECT_GE(files.size(), at_least) << layer;  // the rule found the files it is about
  for (const auto& file : files) {
    std::set<std::string> seen;
    includes(file, seen);
    for (const auto& h : seen)
      EXPECT_TRUE(!h.starts_with("epan-ext/") || in_layer(h, allowed)) << file << " reaches " << h;
  }
}

TEST(Layering, CommonSeesOnlyItself) { expect_sees_only("common", {"common"}); }
TEST(Layering, DecodeSeesOnlyCommon) { expect_sees_only("decode", {"decode", "common"}); }
TEST(Layering, AnalysisSeesNoReport) { expect_sees_only("analysis", {"analysis", "decode", "common"}); }

TEST(Layering, NothingSeesTheSession) {
  for (const char* layer : {"common", "decode", "analysis", "report"})
    for (const auto& file : files_of(layer)) {
      std::set<std::string> seen;
      includes(file, seen);
      for (const auto& h : seen) EXPECT_FALSE(h.starts_with("epan-ext/session/")) << file << " reaches " << h;
    }
  expect_sees_only("session", {"session", "report", "analysis", "decode", "common"}, 2);
}

TEST(Layering, ReportSideSeesNoAnalyzer) {
  const auto files = files_of("report");
  EXPECT_GE(files.size(), 30u);
  for (const auto& file : files) {
    std::set<std::string> seen;
    includes(file, seen);
    for (const char* engine : {"epan-ext/analysis/analyzer.h", "epan-ext/analysis/stored_analysis.h"})
      EXPECT_FALSE(seen.contains(engine)) << file << " includes " << engine
                                          << ": ask epan-ext/analysis/analysis_facts.h, or carry it in the tap record";
  }
}

// The generator is an independent model of RoCE: sharing the engine's
// reading of the spec (PSN arithmetic, the ICRC) would let one misreading
// be made, and passed, on both sides.
TEST(Layering, TheGeneratorSeesNoEngine) {
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(kSource / "captures" / "gen")) {
    std::set<std::string> seen;
    const std::string file = "captures/gen/" + e.path().filename().string();
    includes(file, seen);
    ++files;
    for (const auto& h : seen) EXPECT_FALSE(h.starts_with("epan-ext/")) << file << " reaches " << h;
  }
  EXPECT_GE(files, 30u);
}

TEST(Layering, IncludesAreFollowed) {
  std::set<std::string> seen;
  includes("epan-ext/analysis/stored_analysis.h", seen);
  EXPECT_TRUE(seen.contains("epan-ext/analysis/analyzer.h"));
  EXPECT_TRUE(seen.contains("epan-ext/analysis/flow_table.h"));  // through analyzer.h
}

TEST(Layering, EveryEngineFileHasALayer) {
  for (const auto& e : fs::directory_iterator(kSource / "epan-ext"))
    EXPECT_TRUE(e.is_directory() || e.path().filename() == "CMakeLists.txt")
        << e.path().filename() << ": put it in decode/, analysis/, report/, session/ or common/";
}

}  // namespace
