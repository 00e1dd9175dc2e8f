// SPDX-License-Identifier: GPL-2.0-or-later
// A packet's way along a path, in the direction it travels. Segment k leads
// to node k: nodes 0 .. points()-1 are the capture points, node points() is
// the receiving host.
#pragma once
#include <cstddef>

#include "captures/gen/scenario.h"

namespace roceshark::gen {

struct Route {
  const Path* path = nullptr;
  bool forward = true;  // from path->hosts[0] to path->hosts[1]

  size_t points() const { return path->points.size(); }
  size_t point(size_t hop) const { return path->points[forward ? hop : points() - 1 - hop]; }
  Ns latency(size_t segment) const { return path->latency[forward ? segment : points() - segment]; }
  // Routed hops on the segment: each takes one off the TTL.
  size_t switches(size_t segment) const { return path->switches[forward ? segment : points() - segment].size(); }
  size_t sender() const { return path->hosts[forward ? 0 : 1]; }
  size_t receiver() const { return path->hosts[forward ? 1 : 0]; }
};

inline Route route_from(const Scenario& sc, const Qp& q, size_t sender_host) {
  const Path& p = sc.paths[q.path];
  return Route{&p, p.hosts[0] == sender_host};
}

}  // namespace roceshark::gen
