// SPDX-License-Identifier: GPL-2.0-or-later
// The check catalogue: its rows agree with each other, with the filters
// the triage prints and with the docs.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "epan-ext/common/checks.h"
#include "epan-ext/report/findings.h"

namespace roceshark::checks {
namespace {

std::string read(const std::string& path) {
  std::stringstream s;
  s << std::ifstream(std::string(ROCESHARK_SOURCE_DIR) + "/" + path).rdbuf();
  return s.str();
}

std::set<std::string> catalogue_fields() {
  std::set<std::string> out(std::begin(kPlaceFields), std::end(kPlaceFields));
  for (const Check& c : kCatalogue)
    for (size_t i = 0; i < field_count(c); ++i) out.insert(std::string(c.fields[i].abbrev));
  return out;
}

// The field names a filter text uses, outside quoted strings and holes.
std::set<std::string> fields_in(std::string_view filter) {
  const std::string text = std::regex_replace(std::string(filter), std::regex(R"("[^"]*"|\{[a-z_]*\})"), " ");
  std::set<std::string> out;
  const std::regex name(R"([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+)");
  for (std::sregex_iterator it(text.begin(), text.end(), name), end; it != end; ++it) out.insert(it->str());
  return out;
}

// Wireshark's own fields the filters use.
const std::set<std::string> kWiresharkFields = {"eth.src", "ip.dsfield.ecn", "ipv6.tclass.ecn"};

TEST(Checks, FiltersNameOnlyCatalogueOrWiresharkFields) {
  const auto ours = catalogue_fields();
  std::vector<std::string_view> filters{kLossSigns};
  for (const Check& c : kCatalogue) filters.push_back(c.filter);
  for (std::string_view f : filters)
    for (const std::string& name : fields_in(f)) {
      if (name.starts_with("roce.")) EXPECT_TRUE(ours.contains(name)) << name << " in " << f;
      else EXPECT_TRUE(kWiresharkFields.contains(name)) << name << " in " << f;
    }
}

TEST(Checks, FiltersUseOnlyKnownHoles) {
  const std::set<std::string> holes = {"field", "fields", "point", "prev_point", "priority", "mac",
                                       "nak", "points", "streams", "loss_signs", "place"};
  const std::regex hole(R"(\{([a-z_]*)\})");
  for (const Check& c : kCatalogue) {
    const std::string f(c.filter);
    for (std::sregex_iterator it(f.begin(), f.end(), hole), end; it != end; ++it)
      EXPECT_TRUE(holes.contains((*it)[1].str())) << c.id << ": {" << (*it)[1] << "}";
  }
}

TEST(Checks, EveryCheckHasAFieldAndAnExpertInfo) {
  for (const Check& c : kCatalogue) EXPECT_TRUE(field_count(c) >= 1 && expert_count(c) >= 1) << c.id;
}

TEST(Checks, NamesAreUniqueAndSharedFieldsDeclaredFirst) {
  std::set<std::string_view> ids, declared, experts;
  for (const Check& c : kCatalogue) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    for (size_t i = 0; i < field_count(c); ++i) {
      const Field& f = c.fields[i];
      if (f.name.empty()) EXPECT_TRUE(declared.contains(f.abbrev)) << c.id << ": " << f.abbrev << " not declared above";
      else EXPECT_TRUE(declared.insert(f.abbrev).second) << f.abbrev << " declared twice";
    }
    for (size_t i = 0; i < expert_count(c); ++i) {
      EXPECT_TRUE(experts.insert(c.experts[i].name).second) << c.experts[i].name;
      // A flag field and an expert info of one name make `field == 1` fail.
      EXPECT_TRUE(c.experts[i].name.ends_with(".expert")) << c.experts[i].name;
    }
  }
}

// The expert infos' severity is read off the triage's (expert_level): the
// text must start with the worst severity, and two summaries must differ
// (the Expert Information dialog lists them side by side).
TEST(Checks, SeverityStartsTheTriageTextAndSummariesDiffer) {
  std::set<std::string_view> summaries;
  for (const Check& c : kCatalogue) {
    const std::string_view s = c.doc.severity;
    EXPECT_TRUE(s.starts_with("error") || s.starts_with("warning") || s.starts_with("note")) << c.id << ": " << s;
    for (size_t i = 0; i < expert_count(c); ++i)
      EXPECT_TRUE(summaries.insert(c.experts[i].summary).second) << c.experts[i].summary;
  }
  EXPECT_EQ(expert_level(row(kind("pfc_storm"))), Level::error);
  EXPECT_EQ(expert_level(row(kind("pcp_mismatch"))), Level::warn);
  EXPECT_EQ(expert_level(row(kind("rnr"))), Level::note);
}

TEST(Checks, FillingTheHolesGivesTheFilter) {
  EXPECT_EQ(evidence_filter(kind("pfc_storm"), {{"point", "0"}, {"mac", "02:00:00:00:00:0b"}, {"priority", "3"}}),
            "roce.pfc.storm && roce.point == 0 && eth.src == 02:00:00:00:00:0b && roce.pfc.priority == 3");
  EXPECT_EQ(evidence_filter(kind("bad_pfc_frames"), {{"point", "1"}}),
            "(roce.pfc.reserved_bits || roce.pfc.nonstandard_dst || roce.pfc.truncated) && roce.point == 1");
  EXPECT_EQ(evidence_filter(kind("rnr"), {{"streams", one_of({0, 2})}}),
            "roce.ack.nak == \"RNR\" && roce.qp.stream in {0, 2}");
  EXPECT_EQ(evidence_filter(kind("loss"), {{"streams", one_of({4})}}),
            "roce.qp.stream == 4 && (" + std::string(kLossSigns) + ")");
}

TEST(Checks, KindNamesAreTheRowsInRankOrder) {
  EXPECT_STREQ(triage::kind_name(kind("pfc_storm")), "pfc_storm");
  EXPECT_LT(kind("dscp_remarked"), kind("lossy_queue"));  // the rewrite before the lossy class it causes
  EXPECT_LT(kind("hop_loss"), kind("lossy_queue"));       // the hop before the queue it shows
  EXPECT_EQ(kind(kCatalogue[kRows - 1].id).row, kRows - 1);
}

// GitHub's heading anchors: lower case, punctuation dropped, spaces to '-'.
std::set<std::string> anchors(const std::string& doc) {
  std::set<std::string> out;
  std::istringstream in(doc);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("#")) continue;
    std::string slug;
    for (char ch : line.substr(line.find_first_not_of("# ")))
      if (std::isalnum(static_cast<unsigned char>(ch))) slug += static_cast<char>(std::tolower(ch));
      else if (ch == ' ' || ch == '-' || ch == '_') slug += ch == ' ' ? '-' : ch;
    out.insert(slug);
  }
  return out;
}

TEST(Checks, DocsSectionsExist) {
  for (const Check& c : kCatalogue) {
    const std::string docs(c.docs);
    const size_t hash = docs.find('#');
    ASSERT_NE(hash, std::string::npos) << c.id;
    const std::string file = docs.substr(0, hash);
    EXPECT_TRUE(file == "triage.md" || file == "analysis.md" || file == "multipoint.md" || file == "qos.md" ||
                file == "pfc.md")
        << c.id;
    EXPECT_TRUE(anchors(read("docs/" + file)).contains(docs.substr(hash + 1))) << c.id << ": " << docs;
  }
}

TEST(Checks, TriageDocTableIsTheCatalogues) {
  const std::string doc = read("docs/triage.md");
  ASSERT_NE(doc.find(kTableBegin), std::string::npos);
  EXPECT_EQ(with_table(doc), doc) << "run: cmake --build build --target update-docs";
}

// explain (roceshark-mcp) gives each row's fix: one for every row, in sentences.
TEST(Checks, EveryRowHasAFix) {
  for (const Check& c : kCatalogue) {
    EXPECT_GT(c.fix.size(), 40u) << c.id;
    EXPECT_TRUE(c.fix.ends_with(".")) << c.id;
  }
}

// build/checks.json: every row, its fix and its filter with the holes the
// findings fill left as {name}.
TEST(Checks, CatalogueJsonHasEveryRow) {
  const std::string json = catalogue_json();
  ASSERT_TRUE(json.starts_with("{") && json.ends_with("}\n")) << json.substr(0, 80);
  size_t at = 0;
  for (const Check& c : kCatalogue) {
    const size_t row = json.find("\"id\":\"" + std::string(c.id) + "\"", at);
    ASSERT_NE(row, std::string::npos) << c.id << ": missing or out of order";
    at = row;
  }
  EXPECT_NE(json.find("\"filter\":\"roce.pfc.storm && roce.point == {point} && eth.src == {mac}"), std::string::npos);
  EXPECT_NE(json.find("\"fix\":\"Find the NIC or switch port with the pausing MAC"), std::string::npos);
  EXPECT_EQ(json.find("\"name\":\"\""), std::string::npos) << "a shared field without its declaring row's name";
}

}  // namespace
}  // namespace roceshark::checks
