// SPDX-License-Identifier: GPL-2.0-or-later
// The catalogue's fields and expert infos (epan-ext/common/checks.h), registered
// row by row: a field several rows share is registered once.
#include <epan/expert.h>
#include <epan/proto.h>

#include <array>
#include <vector>

#include "epan-ext/common/checks.h"
#include "plugins/register.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

const true_false_string kPresent = {"Yes", "No"};

std::array<std::array<int, 3>, checks::kRows> field_ids;
std::array<std::array<expert_field, 3>, checks::kRows> expert_ids;

constexpr int group(checks::Group g) {
  switch (g) {
    case checks::Group::sequence: return PI_SEQUENCE;
    case checks::Group::protocol: return PI_PROTOCOL;
    case checks::Group::checksum: return PI_CHECKSUM;
    case checks::Group::malformed: return PI_MALFORMED;
    case checks::Group::response_code: return PI_RESPONSE_CODE;
    case checks::Group::assumption: return PI_ASSUMPTION;
  }
  return PI_PROTOCOL;
}

constexpr int severity(checks::Level l) {
  switch (l) {
    case checks::Level::chat: return PI_CHAT;
    case checks::Level::note: return PI_NOTE;
    case checks::Level::warn: return PI_WARN;
    case checks::Level::error: return PI_ERROR;
  }
  return PI_WARN;
}

// The id of the field an earlier row declared under this abbreviation.
int* declared(std::string_view abbrev, size_t before) {
  for (size_t r = 0; r < before; ++r)
    for (size_t i = 0; i < checks::field_count(checks::kCatalogue[r]); ++i)
      if (checks::kCatalogue[r].fields[i].abbrev == abbrev && !checks::kCatalogue[r].fields[i].name.empty())
        return &field_ids[r][i];
  return nullptr;
}

}  // namespace

void register_check_fields() {
  // Wireshark keeps pointers into both arrays: they live as long as the plugin.
  static std::vector<hf_register_info> hf;
  static std::vector<ei_register_info> ei;
  for (auto& row : field_ids) row.fill(-1);
  for (size_t r = 0; r < checks::kRows; ++r) {
    const checks::Check& c = checks::kCatalogue[r];
    for (size_t i = 0; i < checks::field_count(c); ++i) {
      const checks::Field& f = c.fields[i];
      if (f.name.empty()) continue;  // another row's: check_field() finds it there
      const bool flag = f.type == checks::FieldType::flag, number = f.type == checks::FieldType::number;
      hf.push_back({&field_ids[r][i], {f.name.data(), f.abbrev.data(), flag ? FT_BOOLEAN : number ? FT_UINT32 : FT_STRING,
                                       number ? BASE_DEC : BASE_NONE, flag ? TFS(&kPresent) : nullptr, 0,
                                       f.description.data(), HFILL}});
    }
    for (size_t i = 0; i < checks::expert_count(c); ++i) {
      const checks::Expert& e = c.experts[i];
      expert_ids[r][i] = EI_INIT;
      ei.push_back({&expert_ids[r][i], {e.name.data(), group(e.group), severity(checks::expert_level(c)), e.summary.data(), EXPFILL}});
    }
  }
  proto_register_field_array(ids.proto, hf.data(), static_cast<int>(hf.size()));
  expert_register_field_array(expert_register_protocol(ids.proto), ei.data(), static_cast<int>(ei.size()));
}

int check_field(checks::Kind k, size_t i) {
  const checks::Field& f = checks::row(k).fields[i];
  if (!f.name.empty()) return field_ids[k.row][i];
  const int* id = declared(f.abbrev, k.row);
  return id ? *id : -1;
}

expert_field* check_expert(checks::Kind k, size_t i) { return &expert_ids[k.row][i]; }

}  // namespace roceshark::glue
