// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/checks.h"

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

}  // namespace roceshark::checks
