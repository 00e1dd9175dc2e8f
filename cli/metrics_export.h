// SPDX-License-Identifier: GPL-2.0-or-later
// The monitor's metric families through the Prometheus client library
// (Debian's prometheus-cpp): served on /metrics, or written for
// node_exporter's textfile collector. Neither the HTTP server nor the text
// format is ours.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <prometheus/collectable.h>
#include <prometheus/exposer.h>
#include <prometheus/metric_family.h>

#include "epan-ext/report/metrics.h"

namespace roceshark::cli {

std::vector<prometheus::MetricFamily> to_prometheus(const std::vector<metrics::Family>& fs);

// Serves the last families published on http://ADDR:PORT/metrics.
class MetricsServer {
 public:
  // Throws std::runtime_error when the address cannot be bound (in use,
  // not ours, malformed).
  explicit MetricsServer(const std::string& listen);
  void publish(const std::vector<metrics::Family>& fs);

 private:
  class Latest final : public prometheus::Collectable {
   public:
    std::vector<prometheus::MetricFamily> Collect() const override;
    void set(std::vector<prometheus::MetricFamily> fs);

   private:
    mutable std::mutex m_;
    std::vector<prometheus::MetricFamily> families_;
  };
  std::shared_ptr<Latest> latest_ = std::make_shared<Latest>();
  std::unique_ptr<prometheus::Exposer> exposer_;
};

// DIR/roceshark.prom, replaced atomically (written beside it, then
// renamed), as the textfile collector needs. False, with the reason, on an
// error.
bool write_textfile(const std::string& dir, const std::vector<metrics::Family>& fs, std::string& error);

}  // namespace roceshark::cli
