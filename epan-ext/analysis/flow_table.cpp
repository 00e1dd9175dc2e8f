// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/flow_table.h"


#include "epan-ext/decode/psn.h"

namespace roceshark {

uint32_t FlowTable::find_or_add(const FlowKey& key, uint32_t limit) {
  if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
  if (flows_.size() >= limit) return kNoId;
  const auto id = static_cast<uint32_t>(flows_.size());
  flows_.emplace_back().key = key;
  by_key_.emplace(key, id);
  by_hosts_[{key.src, key.dst}].push_back(id);
  return id;
}

void FlowTable::pair(uint32_t a, uint32_t b) {
  for (uint32_t id : {a, b})
    if (Flow& f = flows_[id]; f.paired != kNoId && f.paired != a && f.paired != b) flows_[f.paired].paired = kNoId;
  flows_[a].paired = b;
  flows_[b].paired = a;
}

bool FlowTable::pair_by_response(uint32_t id, bool has_psn, uint32_t psn, std::vector<uint32_t>& fits) {
  fits.clear();
  const Flow& f = flows_[id];
  auto it = by_hosts_.find({f.key.dst, f.key.src});
  if (it == by_hosts_.end()) return true;
  for (uint32_t c : it->second) {
    const Flow& r = flows_[c];
    if (r.paired != kNoId || !r.requests_seen) continue;
    // An ACK names a PSN in [first, highest]; a NAK may name highest + 1.
    if (has_psn && (psn::diff(psn, psn::add(r.first_psn, -1)) < 0 || psn::diff(psn, psn::add(r.highest_psn, 1)) > 0))
      continue;
    fits.push_back(c);
  }
  if (fits.size() == 1) pair(id, fits.front());
  // Without a PSN (a CNP) only an unambiguous candidate will do, and a CNP
  // says nothing about the pairing: it is not called ambiguous.
  return fits.size() < 2 || !has_psn;
}

void FlowTable::pair_by_request(uint32_t id, uint32_t psn) {
  const Flow& f = flows_[id];
  auto it = by_hosts_.find({f.key.dst, f.key.src});
  if (it == by_hosts_.end()) return;
  uint32_t found = kNoId;
  for (uint32_t c : it->second) {
    const Flow& r = flows_[c];
    // The reverse flow's responses acknowledged PSNs just before this one.
    const int32_t d = psn::diff(psn, r.last_response_psn);
    if (r.paired == kNoId && r.psn_responses_seen && d >= 0 && d <= (1 << 16)) {
      if (found != kNoId) return;  // two fit: nothing tells which
      found = c;
    }
  }
  if (found != kNoId) pair(id, found);
}

uint32_t FlowTable::find(const FlowKey& key) const {
  auto it = by_key_.find(key);
  return it == by_key_.end() ? kNoId : it->second;
}

std::span<const uint32_t> FlowTable::between(const Address& src, const Address& dst) const {
  auto it = by_hosts_.find({src, dst});
  return it == by_hosts_.end() ? std::span<const uint32_t>{} : std::span<const uint32_t>(it->second);
}

}  // namespace roceshark
