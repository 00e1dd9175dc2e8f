// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/cli.h"

#include <cstdio>
#include <stdexcept>

#include "captures/gen/output.h"
#include "captures/gen/scenario_parser.h"
#include "captures/gen/simulation.h"

namespace roceshark::gen {

CliOptions parse_cli(const std::vector<std::string>& args) {
  CliOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
      return args[++i];
    };
    if (a == "-o" || a == "--output") o.output = value();
    else if (a == "--truth") o.truth = value();
    else if (a == "--only-point") o.only_point = value();
    else if (a == "--stats") o.stats = true;
    else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option " + a);
    else if (o.scenario.empty()) o.scenario = a;
    else throw std::invalid_argument("more than one scenario given");
  }
  if (o.scenario.empty()) throw std::invalid_argument("no scenario given");
  if (o.output.empty()) throw std::invalid_argument("no output given (-o OUT.pcapng)");
  return o;
}

int run_cli(const std::vector<std::string>& args) {
  CliOptions cli;
  try {
    cli = parse_cli(args);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "roceshark-gen: %s\n%s", e.what(), kUsage);
    return 2;
  }
  try {
    Scenario sc = load_scenario(cli.scenario);
    OutputOptions out{cli.output, cli.truth, std::nullopt};
    if (cli.only_point) {
      for (size_t p = 0; p < sc.points.size(); ++p)
        if (sc.points[p].name == *cli.only_point) out.only_point = p;
      if (!out.only_point) throw std::invalid_argument("no point named '" + *cli.only_point + "' in the scenario");
      if (const size_t in = sc.interface_of(*out.only_point); in != *out.only_point)
        throw std::invalid_argument("point '" + *cli.only_point + "' is recorded at collector '" + sc.points[in].name +
                                    "': use --only-point " + sc.points[in].name);
    }
    Output sink(sc, out);
    Simulation sim(sc);
    sim.run(sink);
    sink.close();
    if (cli.stats)
      std::fprintf(stderr, "%s: %llu frames written, %llu packets sent, %llu events, %.6f s simulated\n",
                   cli.output.c_str(), static_cast<unsigned long long>(sink.frames()),
                   static_cast<unsigned long long>(sim.stats().sent), static_cast<unsigned long long>(sim.stats().events),
                   static_cast<double>(sim.stats().end) / 1e9);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roceshark-gen: %s\n", e.what());
    std::remove(cli.output.c_str());  // never leave a half-written capture behind
    if (cli.truth) std::remove(cli.truth->c_str());
    return 1;
  }
}

}  // namespace roceshark::gen
