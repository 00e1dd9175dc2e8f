// SPDX-License-Identifier: GPL-2.0-or-later
// `roceshark partial`: one shard of a set of capture files, decoded to a
// partial report (cli/partial_file.h) that `roceshark merge` puts back
// together with the others, on any machine (docs/fabric.md).
#include "cli/partial.h"

#include <getopt.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
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

struct Options {
  std::string out;
  std::vector<uint32_t> files;
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

Options parse(int argc, char** argv) {
  enum { kFile = 256, kShard };
  static const option kLong[] = {{"file", required_argument, nullptr, kFile},
                                 {"shard", required_argument, nullptr, kShard},
                                 {"concatenate", no_argument, nullptr, 'a'},
                                 {"help", no_argument, nullptr, 'h'},
                                 {nullptr, 0, nullptr, 0}};
  Options o;
  opterr = 0;
  optind = 1;
  for (int c; (c = getopt_long(argc, argv, ":w:o:ah", kLong, nullptr)) != -1;) {
    switch (c) {
      case 'w': o.out = optarg; break;
      case 'a': o.concatenate = true; break;
      case 'o':
        set_preference(o.settings, optarg);
        o.options.emplace_back(optarg);
        break;
      case 'h': std::fputs(kUsage, stdout); std::exit(0);
      case kFile: o.files.push_back(number("--file", optarg, 1u << 20)); break;
      case kShard: {
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
  if (o.out.empty()) throw UsageError{"no -w PARTIAL: where to write the partial report"};
  if (o.inputs.empty()) throw UsageError{"no capture file"};
  if (std::count(o.inputs.begin(), o.inputs.end(), "-"))
    throw UsageError{"'-': a partial report needs files, which every task of a job names alike"};
  std::sort(o.files.begin(), o.files.end());
  o.files.erase(std::unique(o.files.begin(), o.files.end()), o.files.end());
  for (uint32_t f : o.files)
    if (f >= o.inputs.size())
      throw UsageError{"--file " + std::to_string(f) + ": there are " + std::to_string(o.inputs.size()) + " FILEs"};
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

}  // namespace

int partial_main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "roceshark partial: %s\nTry 'roceshark partial --help' for more information.\n", e.why.c_str());
    return 2;
  }
  bool cut_short = false;
  try {
    Manifest m;
    m.roceshark = ROCESHARK_VERSION;
    m.options = o.options;
    m.shard = o.shard, m.shards = o.shards, m.files = o.files, m.concatenate = o.concatenate;
    for (const std::string& path : o.inputs) {
      Manifest::Input& in = m.inputs.emplace_back();
      in.path = path;
      in.fingerprint = capture_fingerprint(path, in.size);
    }
    PartialWriter w(o.out, m);
    for (uint32_t f : o.files) {
      // One file at a time, with its own interface ids and frame numbers:
      // the merge numbers them across the set as reading the set does.
      CaptureSet in({o.inputs[f]});
      w.begin_file(f);
      uint32_t frames = 0;
      Batch spare;
      read_all(in, o.settings, [&] { return std::move(spare); }, [&](Batch b) {
        for (const Batch::Item& it : b.items) {
          frames = it.number;
          if (shard_of(b, it, o.shards) == o.shard) w.item(b, it);
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
        std::fprintf(stderr, "roceshark partial: %s; the records before it are kept\n", t.error.c_str());
      }
      w.end_file(std::move(t));
    }
    w.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roceshark partial: %s\n", e.what());
    return 2;
  }
  return cut_short ? 1 : 0;
}

}  // namespace roceshark::cli
