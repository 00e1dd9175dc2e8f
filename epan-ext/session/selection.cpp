// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/session/selection.h"

#include <algorithm>
#include <cstdio>

#include "epan-ext/common/checks.h"

namespace roceshark {

void Selection::name_point(uint32_t point, const std::string& name) {
  for (const std::string& p : points)
    if (p == name || p == std::to_string(point)) {
      point_ids_.insert(point);
      matched_.insert(p);
    }
}

std::vector<std::string> Selection::unmatched_points() const {
  std::vector<std::string> out;
  for (const std::string& p : points)
    if (!matched_.contains(p)) out.push_back(p);
  return out;
}

bool Selection::has_host(const Address& a) const {
  return hosts.empty() || std::find(hosts.begin(), hosts.end(), a) != hosts.end();
}

// What Wireshark's tree has of each record: a RoCEv2 packet its IP
// addresses and BTH (a RoCEv1 packet's GRH is not ip.addr), a PFC frame
// neither, an LLDP frame no roce.point either, an ICMP message its own and
// the quoted packet's addresses and the quoted BTH.
bool Selection::selects(const PacketInfo& p) const {
  if (!any()) return true;
  if (p.truncated) return false;  // only frame, time and point are known: see docs/command.md
  return (qps.empty() || qps.contains(p.dest_qp)) &&
         (hosts.empty() || (p.encap != Encap::rocev1 && (has_host(p.src) || has_host(p.dst)))) && at_point(p.point);
}

bool Selection::selects(const pfc::PauseFrame& f) const {
  return qps.empty() && hosts.empty() && at_point(f.point);
}

bool Selection::selects(const qos::DcbxAnnouncement&) const { return !any(); }

bool Selection::selects(const icmp::TooBig& m) const {
  if (!any()) return true;
  return (qps.empty() || (m.has_bth && qps.contains(m.dest_qp))) &&
         (hosts.empty() || has_host(m.reporter) || has_host(m.src) || has_host(m.dst)) && at_point(m.point);
}

std::string Selection::filter() const {
  std::vector<std::string> parts;
  if (!qps.empty()) {
    std::string s = "infiniband.bth.destqp ";
    char hex[16];
    if (qps.size() == 1) {
      std::snprintf(hex, sizeof hex, "0x%x", *qps.begin());
      s += "== " + std::string(hex);
    } else {
      s += "in {";
      size_t n = 0;
      for (uint32_t q : qps) {
        std::snprintf(hex, sizeof hex, "0x%x", q);
        s += (n++ ? ", " : "") + std::string(hex);
      }
      s += "}";
    }
    parts.push_back(s);
  }
  if (!hosts.empty()) {
    std::string s;
    for (const Address& a : hosts)
      s += (s.empty() ? "" : " || ") + std::string(a.len == 4 ? "ip.addr == " : "ipv6.addr == ") + a.to_string();
    parts.push_back(hosts.size() > 1 && parts.size() + !points.empty() > 0 ? "(" + s + ")" : s);
  }
  if (!points.empty()) {
    // A name no point has selects nothing: a point id no frame has.
    parts.push_back("roce.point " + (point_ids_.empty() ? std::string("== 4294967295") : checks::one_of(point_ids_)));
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " && ") + p;
  return out;
}

}  // namespace roceshark
