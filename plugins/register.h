// SPDX-License-Identifier: GPL-2.0-or-later
// Registration pieces of the `roce` protocol, one file per analysis.
#pragma once
#include <epan/prefs.h>

#include <cstdint>
#include <string>
#include <vector>

#include "epan-ext/config.h"
#include "epan-ext/option_list.h"

namespace roceshark::glue {

// Preferences are applied one by one (docs: README "Preferences"): each
// apply_* copies every valid preference into `cfg`; a bad one leaves its
// setting as it was and adds one sentence to `errors`, naming the
// preference, the value and what is accepted.
using PrefErrors = std::vector<std::string>;

inline void pref_error(PrefErrors& errors, const char* name, const std::string& why) {
  errors.push_back(std::string("roce.") + name + ": " + why);
}

// A number preference in [lo, hi], handed to `store` only when it is.
template <class Store>
void apply_uint(PrefErrors& errors, const char* name, guint value, uint64_t lo, uint64_t hi, Store store) {
  std::string why;
  if (const auto v = options::parse_unsigned(std::to_string(value), lo, hi, why)) store(*v);
  else pref_error(errors, name, why);
}

// Windows in microseconds: above 0 and at most a minute.
constexpr uint64_t kMaxWindowUs = 60'000'000;
// Link speeds in Gb/s.
constexpr double kMinGbps = 1, kMaxGbps = 1600;

void register_pfc_fields();
void register_pfc_preferences(module_t* m);
void apply_pfc_preferences(Config& cfg, PrefErrors& errors);

void register_qos_fields();
void register_qos_preferences(module_t* m);
void apply_qos_preferences(Config& cfg, PrefErrors& errors);

void register_hop_fields();
void register_hop_preferences(module_t* m);
void apply_hop_preferences(Config& cfg, PrefErrors& errors);

void register_check_fields();  // the catalogue's fields and expert infos

void register_health_preferences(module_t* m);
void apply_health_preferences(Config& cfg, PrefErrors& errors);

}  // namespace roceshark::glue
