// SPDX-License-Identifier: GPL-2.0-or-later
// The health baseline's thresholds (`-z roce,triage`), as "WARN,FAIL"
// preferences whose defaults are HealthLimits'.
#include <array>
#include <string>

#include "epan-ext/health.h"
#include "plugins/register.h"

namespace roceshark::glue {
namespace {

struct HealthPref {
  const char* name;
  const char* title;
  const char* description;
  Threshold HealthLimits::*limit;
  double max;  // percentages stop at 100
  std::string initial;
  const char* value = nullptr;
};

std::array<HealthPref, 6> prefs = {{
    {"health_loss_pct", "Health: loss (%)", "WARN,FAIL: loss or timer recoveries per request, in percent",
     &HealthLimits::loss_pct, 100, {}},
    {"health_hop_latency_us", "Health: hop latency (us)", "WARN,FAIL: the worst hop's average latency",
     &HealthLimits::hop_latency_us, 1e9, {}},
    {"health_pfc_per_s", "Health: PFC frames per second",
     "WARN,FAIL: PFC frames per second of the busiest (point, MAC, priority)", &HealthLimits::pfc_per_s, 1e9, {}},
    {"health_paused_pct", "Health: paused (%)", "WARN,FAIL: share of the capture span the busiest class was paused",
     &HealthLimits::paused_pct, 100, {}},
    {"health_ce_pct", "Health: ECN-CE (%)", "WARN,FAIL: requests marked ECN-CE, in percent", &HealthLimits::ce_pct,
     100, {}},
    {"health_stall_pct", "Health: stalled (%)", "WARN,FAIL: share of QP time stalled by the network",
     &HealthLimits::stall_pct, 100, {}},
}};

}  // namespace

void register_health_preferences(module_t* m) {
  const HealthLimits defaults;
  for (HealthPref& p : prefs) {
    p.initial = triage::format_threshold(defaults.*p.limit);
    p.value = p.initial.c_str();
    prefs_register_string_preference(m, p.name, p.title, p.description, &p.value);
  }
}

void apply_health_preferences(Config& cfg, PrefErrors& errors) {
  for (const HealthPref& p : prefs) {
    std::string why;
    if (const auto t = triage::parse_threshold(p.value ? p.value : "", why, p.max)) cfg.health.*p.limit = *t;
    else pref_error(errors, p.name, why);
  }
}

}  // namespace roceshark::glue
