// SPDX-License-Identifier: GPL-2.0-or-later
// `roceshark partial`: one shard of a set of capture files, decoded to a
// partial report (cli/partial_file.h) that `roceshark merge` puts back
// together with the others, on any machine (docs/fabric.md). `roceshark
// split` writes every shard's in one read: the same files, byte for byte.
#include "cli/partial.h"

#include <getopt.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/capture_set.h"
#include "cli/command_line.h"
#include "cli/partial_file.h"
#include "cli/reader.h"
#include "epan-ext/common/option_list.h"

namespace roceshark::cli {
namespace {

constexpr const char* kUsage =
    "usage: roceshark partial -w PARTIAL [--file I]... [--shard K/N] [-a] [-o roce.NAME:VALUE]... FILE...\n"
    "Decode capture files to a partial report, for `roceshark merge VIEW PARTIAL...`.\n"
    "Every task of one job is given the same FILEs (the whole set, in the same order):\n"
    "  -w FILE               where to write the partial report (written whole, or not at all)\n"
    "  --file I              read only the I-th FILE (from 0; repeat for several); default all\n"
    "  --shard K/N           keep only host-pair shard K of N (from 0): each unordered pair of\n"
    "                        addresses (IP or GID) falls in one shard, with both directions,\n"
    "                        its CNPs and every capture point's copies; the port-level frames\n"
    "                        (PFC, LLDP, and frames not analysed) fall in shard 0. Default 0/1\n"
    "  -a, --concatenate     the FILEs are one capture cut in pieces, as for the views\n"
    "  -o roce.NAME:VALUE    a roce.* preference, as for the views; kept in the partial, and\n"
    "                        the merge applies it (every partial must have the same)\n"
    "  -h, --help            this text\n"
    "Exit status: 0 written; 1 written, but a FILE could not be read to the end (the partial\n"
    "says so, and so will the merged report); 2 nothing written (a bad command line, a FILE\n"
    "that cannot be opened, the output cannot be written).\n";

constexpr const char* kSplitUsage =
    "usage: roceshark split -n N -w DIR [--file I]... [-a] [-o roce.NAME:VALUE]... FILE...\n"
    "Decode capture files once into the partial reports of all N host-pair shards, for\n"
    "`roceshark merge VIEW PARTIAL...`: each is the file `roceshark partial --shard K/N` writes.\n"
    "Every task of one job is given the same FILEs (the whole set, in the same order):\n"
    "  -n N                  the number of host-pair shards, 1-256 (a file open for each)\n"
    "  -w DIR                the directory to write them in (made if missing): shard-K-of-N.rsp,\n"
    "                        or with --file, file-I.shard-K-of-N.rsp (I: the files, joined by +)\n"
    "  --file I              read only the I-th FILE (from 0; repeat for several); default all\n"
    "  -a, --concatenate     the FILEs are one capture cut in pieces, as for the views\n"
    "  -o roce.NAME:VALUE    a roce.* preference, as for the views; kept in every partial\n"
    "  -h, --help            this text\n"
    "Exit status: as for `roceshark partial`; on 2, shards already written may remain and the\n"
    "merge refuses the set as incomplete.\n";

struct Options {
  bool split = false;
  std::string out;  // partial: the file; split: the directory
  std::vector<uint32_t> files;
  bool files_given = false;  // --file: split names its shards by them
  uint32_t shard = 0, shards = 1;
  bool concatenate = false;
  std::vector<std::string> options;
  prefs::Settings settings;
  std::vector<std::string> inputs;
};

uint32_t number(const char* what, std::string_view v, uint64_t max) {
  std::string why;
  const auto n = options::parse_decimal(v, 0, double(max), why);
  if (!n || *n != uint64_t(*n)) throw UsageError{std::string(what) + " " + std::string(v) + ": a whole number up to " + std::to_string(max)};
  return uint32_t(*n);
}

Options parse(int argc, char** argv, bool split) {
  enum { kFile = 256, kShard };
  static const option kLong[] = {{"file", required_argument, nullptr, kFile},
                                 {"shard", required_argument, nullptr, kShard},
                                 {"concatenate", no_argument, nullptr, 'a'},
                                 {"help", no_argument, nullptr, 'h'},
                                 {nullptr, 0, nullptr, 0}};
  Options o;
  o.split = split;
  bool have_shards = false;
  opterr = 0;
  optind = 1;
  for (int c; (c = getopt_long(argc, argv, split ? ":n:w:o:ah" : ":w:o:ah", kLong, nullptr)) != -1;) {
    switch (c) {
      case 'w': o.out = optarg; break;
      case 'n':
        have_shards = true;
        o.shards = number("-n", optarg, 256);
        if (o.shards == 0) throw UsageError{"-n 0: at least one shard"};
        break;
      case 'a': o.concatenate = true; break;
      case 'o':
        set_preference(o.settings, optarg);
        o.options.emplace_back(optarg);
        break;
      case 'h': std::fputs(split ? kSplitUsage : kUsage, stdout); std::exit(0);
      case kFile: o.files.push_back(number("--file", optarg, 1u << 20)); break;
      case kShard: {
        if (split) throw UsageError{"--shard: split writes every shard; see -n"};
        const std::string_view v(optarg);
        const size_t slash = v.find('/');
        if (slash == v.npos) throw UsageError{"--shard " + std::string(v) + ": K/N, e.g. 0/4"};
        o.shards = number("--shard", v.substr(slash + 1), 1u << 16);
        o.shard = number("--shard", v.substr(0, slash), 1u << 16);
        if (o.shards == 0 || o.shard >= o.shards) throw UsageError{"--shard " + std::string(v) + ": K from 0 to N-1"};
        break;
      }
      default: throw getopt_error(c, argv);
    }
  }
  o.inputs.assign(argv + optind, argv + argc);
  if (o.out.empty())
    throw UsageError{split ? "no -w DIR: where to write the shards" : "no -w PARTIAL: where to write the partial report"};
  if (split && !have_shards) throw UsageError{"no -n N: how many shards"};
  if (o.inputs.empty()) throw UsageError{"no capture file"};
  if (std::count(o.inputs.begin(), o.inputs.end(), "-"))
    throw UsageError{"'-': a partial report needs files, which every task of a job names alike"};
  std::sort(o.files.begin(), o.files.end());
  o.files.erase(std::unique(o.files.begin(), o.files.end()), o.files.end());
  for (uint32_t f : o.files)
    if (f >= o.inputs.size())
      throw UsageError{"--file " + std::to_string(f) + ": there are " + std::to_string(o.inputs.size()) + " FILEs"};
  o.files_given = !o.files.empty();
  if (o.files.empty())
    for (uint32_t i = 0; i < o.inputs.size(); ++i) o.files.push_back(i);
  return o;
}

// The unordered host pair's shard; 0 for a frame of no host pair.
uint32_t shard_of(const Batch& b, const Batch::Item& it, uint32_t shards) {
  const auto pair = [&](const Address& a, const Address& c) {
    const uint64_t x = hash_address(a), y = hash_address(c);
    const uint64_t h = (std::min(x, y) * 0x9E3779B97F4A7C15ull) ^ std::max(x, y);
    return uint32_t((h ^ (h >> 29)) % shards);
  };
  switch (it.kind) {
    case decode::Kind::roce: {
      const PacketInfo& p = b.packets[it.index];
      return p.truncated ? 0 : pair(p.src, p.dst);
    }
    case decode::Kind::icmp: return pair(b.icmp[it.index].src, b.icmp[it.index].dst);  // about the quoted RoCE packet
    case decode::Kind::cross: return pair(b.cross[it.index].src, b.cross[it.index].dst);
    default: return 0;  // PFC and LLDP: the port's
  }
}

// The file of shard K: -w as given for partial; in split's directory, a
// name that says the files and the shard.
std::string shard_path(const Options& o, uint32_t k) {
  if (!o.split) return o.out;
  std::string name;
  if (o.files_given) {
    name = "file-";
    for (size_t i = 0; i < o.files.size(); ++i) name += (i ? "+" : "") + std::to_string(o.files[i]);
    name += ".";
  }
  return o.out + "/" + name + "shard-" + std::to_string(k) + "-of-" + std::to_string(o.shards) + ".rsp";
}

// Decodes the files once and writes each wanted shard's partial report.
int write_partials(const Options& o) {
  Manifest m;
  m.roceshark = ROCESHARK_VERSION;
  m.options = o.options;
  m.shards = o.shards, m.files = o.files, m.concatenate = o.concatenate;
  for (const std::string& path : o.inputs) {
    Manifest::Input& in = m.inputs.emplace_back();
    in.path = path;
    in.fingerprint = capture_fingerprint(path, in.size);
  }
  if (o.split && mkdir(o.out.c_str(), 0777) != 0 && errno != EEXIST)
    throw std::runtime_error(o.out + ": " + std::strerror(errno));
  // Shard k's writer at k - first: one for partial, all N for split.
  const uint32_t first = o.split ? 0 : o.shard, count = o.split ? o.shards : 1;
  std::vector<std::unique_ptr<PartialWriter>> writers;
  for (uint32_t k = first; k < first + count; ++k) {
    m.shard = k;
    writers.push_back(std::make_unique<PartialWriter>(shard_path(o, k), m));
  }
  bool cut_short = false;
  for (uint32_t f : o.files) {
    // One file at a time, with its own interface ids and frame numbers:
    // the merge numbers them across the set as reading the set does.
    CaptureSet in({o.inputs[f]});
    for (auto& w : writers) w->begin_file(f);
    uint32_t frames = 0;
    Batch spare;
    read_all(in, o.settings, [&] { return std::move(spare); }, [&](Batch b) {
      for (const Batch::Item& it : b.items) {
        frames = it.number;
        const uint32_t k = shard_of(b, it, o.shards);
        if (k >= first && k < first + count) writers[k - first]->item(b, it);
      }
      spare = std::move(b);
    }, true, true);
    FileTrailer t;
    t.file = f, t.frames = frames;
    CaptureReader& r = in.file(0);
    t.declared_interfaces = in.declared_interfaces(0);  // a late one's point depends on them
    for (uint32_t i = 0; i < r.interfaces(); ++i) t.interface_names.emplace_back(r.interface_name(i));
    if (!in.errors().empty()) {
      t.error = in.errors().front();
      cut_short = true;
      std::fprintf(stderr, "roceshark %s: %s; the records before it are kept\n", o.split ? "split" : "partial",
                   t.error.c_str());
    }
    for (auto& w : writers) w->end_file(t);
  }
  for (auto& w : writers) w->finish();
  return cut_short ? 1 : 0;
}

}  // namespace

int partial_main(int argc, char** argv, bool split) {
  const char* name = split ? "split" : "partial";
  Options o;
  try {
    o = parse(argc, argv, split);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "roceshark %s: %s\nTry 'roceshark %s --help' for more information.\n", name, e.why.c_str(), name);
    return 2;
  }
  try {
    return write_partials(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roceshark %s: %s\n", name, e.what());
    return 2;
  }
}

}  // namespace roceshark::cli
