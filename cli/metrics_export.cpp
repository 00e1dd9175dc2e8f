// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/metrics_export.h"

#include <cmath>
#include <stdexcept>

#include <prometheus/text_serializer.h>

#include "cli/file_write.h"

namespace roceshark::cli {

std::vector<prometheus::MetricFamily> to_prometheus(const std::vector<metrics::Family>& fs) {
  std::vector<prometheus::MetricFamily> out;
  for (const metrics::Family& f : fs) {
    prometheus::MetricFamily p;
    p.name = f.name;
    p.help = f.help;
    p.type = f.type == metrics::Type::counter     ? prometheus::MetricType::Counter
             : f.type == metrics::Type::histogram ? prometheus::MetricType::Histogram
                                                  : prometheus::MetricType::Gauge;
    for (const metrics::Sample& s : f.samples) {
      prometheus::ClientMetric m;
      for (const auto& [k, v] : s.labels) m.label.push_back({k, v});
      if (f.type == metrics::Type::counter) m.counter.value = s.value;
      else if (f.type == metrics::Type::gauge) m.gauge.value = s.value;
      else {
        m.histogram.sample_count = s.count;
        m.histogram.sample_sum = s.sum;
        for (size_t i = 0; i < s.buckets.size() && i < std::size(metrics::kLatencyBounds); ++i)
          m.histogram.bucket.push_back({s.buckets[i], metrics::kLatencyBounds[i]});
        m.histogram.bucket.push_back({s.count, INFINITY});
      }
      p.metric.push_back(std::move(m));
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<prometheus::MetricFamily> MetricsServer::Latest::Collect() const {
  std::lock_guard lock(m_);
  return families_;
}

void MetricsServer::Latest::set(std::vector<prometheus::MetricFamily> fs) {
  std::lock_guard lock(m_);
  families_ = std::move(fs);
}

MetricsServer::MetricsServer(const std::string& listen) {
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(listen);
  } catch (const std::exception& e) {
    throw std::runtime_error("--listen " + listen + ": cannot serve there (" + e.what() + ")");
  }
  exposer_->RegisterCollectable(latest_);
}

void MetricsServer::publish(const std::vector<metrics::Family>& fs) { latest_->set(to_prometheus(fs)); }

bool write_textfile(const std::string& dir, const std::vector<metrics::Family>& fs, std::string& error) {
  const std::string path = dir + "/roceshark.prom";
  if (write_file(path, prometheus::TextSerializer().Serialize(to_prometheus(fs)), Write::replace, error)) return true;
  error = path + ": " + error;
  return false;
}

}  // namespace roceshark::cli
