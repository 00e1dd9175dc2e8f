// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/checks.h"

#include "epan-ext/common/json_writer.h"

namespace roceshark::checks {

size_t field_count(const Check& c) {
  size_t n = 0;
  while (n < c.fields.size() && !c.fields[n].abbrev.empty()) ++n;
  return n;
}

size_t expert_count(const Check& c) {
  size_t n = 0;
  while (n < c.experts.size() && !c.experts[n].name.empty()) ++n;
  return n;
}

std::string evidence_filter(Kind k, std::initializer_list<Hole> holes) {
  const Check& c = row(k);
  const auto value = [&](std::string_view name) -> std::string {
    if (name == "field") return std::string(c.fields[0].abbrev);
    if (name == "loss_signs") return std::string(kLossSigns);
    if (name == "fields") {
      std::string all;
      for (size_t i = 0; i < field_count(c); ++i) all += (i ? " || " : "") + std::string(c.fields[i].abbrev);
      return all;
    }
    for (const Hole& h : holes)
      if (h.name == name) return h.value;
    return "{" + std::string(name) + "}";  // unfilled: the unit tests catch it
  };
  std::string out;
  std::string_view t = c.filter;
  for (size_t open; (open = t.find('{')) != std::string_view::npos;) {
    const size_t close = t.find('}', open);
    out += t.substr(0, open);
    out += value(t.substr(open + 1, close - open - 1));
    t.remove_prefix(close + 1);
  }
  return out += t;
}

std::string one_of(const std::set<uint32_t>& ids) {
  if (ids.size() == 1) return "== " + std::to_string(*ids.begin());
  std::string s = "in {";
  size_t n = 0;
  for (uint32_t id : ids) s += (n++ ? ", " : "") + std::to_string(id);
  return s + "}";
}

std::string markdown_table() {
  std::string out =
      "| kind | severity | from | where | impact | fields | expert infos |\n"
      "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const Check& c : kCatalogue) {
    std::string fields, experts;
    for (size_t i = 0; i < field_count(c); ++i) fields += (i ? ", `" : "`") + std::string(c.fields[i].abbrev) + "`";
    for (size_t i = 0; i < expert_count(c); ++i)
      experts += (i ? ", `" : "`") + std::string(c.experts[i].name) + "`";
    out += "| [`" + std::string(c.id) + "`](" + std::string(c.docs) + ") | " + std::string(c.doc.severity) + " | " +
           std::string(c.doc.from) + " | " + std::string(c.doc.where) + " | " + std::string(c.doc.impact) + " | " +
           fields + " | " + experts + " |\n";
  }
  return out;
}

std::string with_table(std::string doc) {
  const size_t begin = doc.find(kTableBegin), end = doc.find(kTableEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return doc;
  const size_t at = begin + kTableBegin.size();
  return doc.replace(at, end - at, markdown_table());
}

namespace {

constexpr std::string_view kFieldTypes[] = {"flag", "text", "number"};
constexpr std::string_view kGroups[] = {"sequence", "protocol", "checksum", "malformed", "response_code", "assumption"};
constexpr std::string_view kLevels[] = {"chat", "note", "warn", "error"};

// A field as the row that declares it has it (a later row may name it only).
const Field& declared(const Field& f) {
  for (const Check& c : kCatalogue)
    for (const Field& g : c.fields)
      if (g.abbrev == f.abbrev && !g.name.empty()) return g;
  return f;
}

}  // namespace

std::string catalogue_json() {
  JsonWriter w;
  w.begin_object().field("version", 1).field("source", "epan-ext/common/checks.h");
  w.field("loss_signs", kLossSigns);
  w.key("place_fields").begin_array();
  for (std::string_view f : kPlaceFields) w.value(f);
  w.end_array();
  w.key("checks").begin_array();
  for (size_t i = 0; i < kRows; ++i) {
    const Check& c = kCatalogue[i];
    w.begin_object().field("id", c.id).field("rank", static_cast<uint64_t>(i + 1));
    w.field("severity", c.doc.severity).field("from", c.doc.from).field("where", c.doc.where);
    w.field("impact", c.doc.impact).field("fix", c.fix).field("docs", c.docs);
    w.field("filter", evidence_filter(Kind{static_cast<uint8_t>(i)}));
    w.key("fields").begin_array();
    for (size_t f = 0; f < field_count(c); ++f) {
      const Field& d = declared(c.fields[f]);
      w.begin_object().field("abbrev", c.fields[f].abbrev).field("name", d.name);
      w.field("description", d.description).field("type", kFieldTypes[static_cast<size_t>(c.fields[f].type)]);
      w.end_object();
    }
    w.end_array().key("experts").begin_array();
    for (size_t e = 0; e < expert_count(c); ++e) {
      const Expert& x = c.experts[e];
      w.begin_object().field("name", x.name).field("group", kGroups[static_cast<size_t>(x.group)]);
      w.field("severity", kLevels[static_cast<size_t>(expert_level(c))]).field("summary", x.summary).end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().end_object();
  return w.str() + "\n";
}

}  // namespace roceshark::checks
