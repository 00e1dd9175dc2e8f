// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/partial_set.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include "cli/file_merge.h"
#include "epan-ext/common/points.h"
#include "epan-ext/session/record_codec.h"

namespace roceshark::cli {
namespace {

std::string cell(const Manifest& m, uint32_t file, uint32_t shard) {
  return m.inputs[file].path + " (input " + std::to_string(file) + "), shard " + std::to_string(shard) + "/" +
         std::to_string(m.shards);
}

// One input file's records in its own order: its shards' records merged by
// frame number. A file cut short ends with its error, as reading it did.
class FileStream {
 public:
  FileStream(const std::vector<std::pair<const PartialFile*, const FileTrailer*>>& shards,
             std::optional<PartialError>& fatal)
      : trailer_(*shards.front().second), fatal_(fatal) {
    for (const auto& [p, t] : shards) heads_.push_back({PartialFile::Cursor(*p, *t), {}, false});
  }
  uint32_t interfaces() const { return trailer_.declared_interfaces; }
  const FileTrailer& trailer() const { return trailer_; }

  bool next(PartialRecord& r) {
    if (!started_) {
      for (Head& h : heads_) advance(h);
      started_ = true;
    }
    Head* best = nullptr;
    for (Head& h : heads_)
      if (h.has && (!best || h.rec.number < best->rec.number)) best = &h;
    if (!best) {
      if (!trailer_.error.empty() && !fatal_) throw std::runtime_error(trailer_.error);
      return false;
    }
    r = best->rec;
    advance(*best);
    return true;
  }

 private:
  struct Head {
    PartialFile::Cursor cursor;
    PartialRecord rec;
    bool has;
  };
  void advance(Head& h) {
    try {
      h.has = !fatal_ && h.cursor.next(h.rec);
    } catch (const PartialError& e) {
      fatal_ = e;  // not a capture's read error: the merge stops
      h.has = false;
    }
  }
  const FileTrailer& trailer_;
  std::optional<PartialError>& fatal_;
  std::vector<Head> heads_;
  bool started_ = false;
};

// The record into its kind's vector of `b`, renumbered and re-pointed as
// reading the whole set gives it: its index there and its point.
std::pair<uint32_t, uint32_t> keep(Batch& b, const PartialRecord& r, uint32_t frame) {
  codec::In in(r.payload);
  const auto put = [&](auto& v) {
    auto& x = v.emplace_back();
    try {
      codec::read(in, x);
    } catch (const codec::Malformed& e) {
      v.pop_back();
      throw PartialError(*r.origin + ": not a whole partial report: " + e.what());
    }
    if constexpr (requires { x.frame; }) x.frame = frame;  // codec::without_head left both out
    if constexpr (requires { x.ts_ns; }) x.ts_ns = r.ts_ns;
    if (points::is_interface(x.point)) x.point = r.interface;  // the merge's point of that interface
    return std::pair{uint32_t(v.size() - 1), x.point};
  };
  switch (r.kind) {
    case decode::Kind::roce: return put(b.packets);
    case decode::Kind::pause: return put(b.pauses);
    case decode::Kind::dcbx: return put(b.dcbx);
    case decode::Kind::icmp: return put(b.icmp);
    case decode::Kind::cross: return put(b.cross);
    case decode::Kind::not_ours: break;
  }
  return {0, 0};
}

}  // namespace

PartialSet::~PartialSet() = default;

PartialSet::PartialSet(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) files_.push_back(std::make_unique<PartialFile>(p));
  const PartialFile& first = *files_.front();
  const Manifest& m = first.manifest();
  for (const auto& f : files_) {
    const Manifest& o = f->manifest();
    const auto differ = [&](const char* what) {
      return PartialError(f->path() + ": not of the same job as " + first.path() + ": " + what + " differ");
    };
    if (o.roceshark != m.roceshark) throw differ("the roceshark versions");
    if (o.inputs != m.inputs) throw differ("the input files (names, sizes or contents)");
    if (o.options != m.options) throw differ("the -o preferences");
    if (o.concatenate != m.concatenate) throw differ("the ways the files join (-a)");
    if (o.shards != m.shards) throw differ("the shard counts (--shard K/N)");
  }
  if (m.segmented) {
    segments();
    return;
  }
  std::map<std::pair<uint32_t, uint32_t>, const PartialFile*> cells;
  shards_.assign(m.inputs.size(), {});
  for (const auto& f : files_)
    for (const FileTrailer& t : f->trailers()) {
      const auto [it, added] = cells.try_emplace({t.file, f->manifest().shard}, f.get());
      if (!added)
        throw PartialError(f->path() + ": " + cell(m, t.file, f->manifest().shard) + " is also in " +
                           it->second->path() + ": a shard given twice");
      shards_[t.file].push_back({f.get(), &t});
    }
  for (uint32_t file = 0; file < m.inputs.size(); ++file)
    for (uint32_t shard = 0; shard < m.shards; ++shard)
      if (!cells.contains({file, shard}))
        throw PartialError("no partial report holds " + cell(m, file, shard) + ": a shard is missing");
  for (const auto& shards : shards_) {
    const FileTrailer& a = *shards.front().second;
    for (const auto& [p, t] : shards)
      if (t->frames != a.frames || t->declared_interfaces != a.declared_interfaces ||
          t->interface_names != a.interface_names || t->error != a.error)
        throw PartialError(p->path() + ": read " + m.inputs[a.file].path + " otherwise than " +
                           shards.front().first->path() + " did (frames, interfaces or its end differ)");
  }
}

uint64_t PartialSet::drops() const {
  uint64_t n = 0;
  for (const auto& shards : shards_) n += shards.front().second->drops;  // a file's shards all read it alike
  return n;
}

// A monitor run's periods: each once, none missing, the last there.
void PartialSet::segments() {
  std::map<uint32_t, const PartialFile*> by_index;
  for (const auto& f : files_) {
    const Manifest& o = f->manifest();
    if (!o.segmented) throw PartialError(f->path() + ": not a period of the run of " + files_.front()->path());
    const auto [it, added] = by_index.try_emplace(o.segment, f.get());
    if (!added)
      throw PartialError(f->path() + ": period " + std::to_string(o.segment) + " is also in " + it->second->path() +
                         ": a period given twice");
  }
  uint32_t next = 0;
  for (const auto& [index, f] : by_index) {
    if (index != next) throw PartialError("period " + std::to_string(next) + " of the run is missing (before " + f->path() + ")");
    if (f->trailers().size() != 1) throw PartialError(f->path() + ": a period of more than one stream");
    shards_.push_back({{f, &f->trailers().front()}});
    ++next;
  }
  const PartialFile& last = *by_index.rbegin()->second;
  if (!last.manifest().last_segment)
    throw PartialError(last.path() + ": the run's periods go on after it: the monitor was still running, or was "
                       "killed before it wrote its last period");
}

void PartialSet::read(const prefs::Settings& settings, const std::function<void(Batch&)>& analyse) {
  std::optional<PartialError> fatal;
  std::vector<std::unique_ptr<FileStream>> streams;
  for (const auto& shards : shards_) streams.push_back(std::make_unique<FileStream>(shards, fatal));
  FileMerge<FileStream, PartialRecord> files(
      std::move(streams), files_.front()->manifest().concatenate ? Joining::concatenate : Joining::interleave);
  Batch b;
  PointNamer namer;
  size_t file = 0;
  uint32_t n = 0;
  for (const PartialRecord* r; (r = files.next(&file));) {
    ++n;
    if (r->kind == decode::Kind::not_ours) continue;
    const auto kept = keep(b, *r, n);  // no structured binding: the lambda below takes it (clang 14)
    const uint32_t index = kept.first, point = kept.second;
    namer.note(b, point, r->kind, [&] {
      if (!points::is_interface(point)) return points::name(settings.cfg.naming, point, nullptr);
      const auto [f, interface] = files.interface_of(point);
      const auto& names = files.source(f).trailer().interface_names;
      return points::name(settings.cfg.naming, point, interface < names.size() ? names[interface].c_str() : "unknown");
    });
    b.items.push_back({r->kind, index, n, r->wire_len, r->ts_ns, r->interface});
    if (b.full()) {
      analyse(b);
      b.clear();
    }
  }
  if (fatal) throw *fatal;
  if (!b.empty()) analyse(b);
  errors_ = files.errors();
}

}  // namespace roceshark::cli
