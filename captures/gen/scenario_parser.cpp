// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/scenario_parser.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "captures/gen/pfc_frame.h"
#include "captures/gen/prng.h"
#include "captures/gen/route.h"

namespace roceshark::gen {

ScenarioError::ScenarioError(const std::string& file, int line, const std::string& what)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + what), line_(line) {}

namespace {

constexpr uint32_t kPsnMask = 0xFFFFFF;
constexpr Ns kMaxShift = 1'000'000'000;  // clock offsets, mirror latencies and bursts: at most 1s

struct Option {
  std::string_view key, value;
  bool used = false;
};

class Parser {
 public:
  explicit Parser(std::string file) : file_(std::move(file)) { sc_.file = file_; }

  Scenario run(std::string_view text) {
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string_view::npos) nl = text.size();
      ++line_;
      parse_line(text.substr(pos, nl - pos));
      pos = nl + 1;
    }
    line_ = 0;
    finish();
    return std::move(sc_);
  }

 private:
  // ---- plumbing -------------------------------------------------------

  [[noreturn]] void fail(const std::string& what) const { throw ScenarioError(file_, line_, what); }

  void parse_line(std::string_view raw) {
    raw = raw.substr(0, raw.find('#'));
    words_.clear();
    opts_.clear();
    size_t i = 0;
    while (i < raw.size()) {
      if (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r') {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < raw.size() && raw[j] != ' ' && raw[j] != '\t' && raw[j] != '\r') ++j;
      std::string_view w = raw.substr(i, j - i);
      if (auto eq = w.find('='); eq != std::string_view::npos && !words_.empty()) {
        if (eq == 0 || eq + 1 == w.size()) fail("option '" + std::string(w) + "' needs key=value");
        for (const auto& o : opts_)
          if (o.key == w.substr(0, eq)) fail("option '" + std::string(o.key) + "' given twice");
        opts_.push_back({w.substr(0, eq), w.substr(eq + 1)});
      } else {
        words_.push_back(w);
      }
      i = j;
    }
    if (words_.empty()) return;
    dispatch(words_[0]);
    for (const auto& o : opts_)
      if (!o.used) fail("'" + std::string(words_[0]) + "' has no option '" + std::string(o.key) + "'");
  }

  std::optional<std::string_view> opt(std::string_view key) {
    for (auto& o : opts_)
      if (o.key == key) {
        o.used = true;
        return o.value;
      }
    return std::nullopt;
  }

  void want_words(size_t min, size_t max, const char* usage) const {
    if (words_.size() < min || words_.size() > max) fail(std::string("usage: ") + usage);
  }

  uint64_t number(std::string_view what, std::string_view text, uint64_t max) const {
    auto v = parse_uint(text);
    if (!v) fail(std::string(what) + ": '" + std::string(text) + "' is not a number");
    if (*v > max) fail(std::string(what) + ": " + std::string(text) + " is above " + std::to_string(max));
    return *v;
  }

  Ns duration(std::string_view what, std::string_view text) const {
    auto v = parse_duration(text);
    if (!v) fail(std::string(what) + ": '" + std::string(text) + "' is not a duration (ns, us, ms, s)");
    return *v;
  }

  template <typename T>
  size_t find(const std::vector<T>& v, std::string_view name, const char* what) const {
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i].name == name) return i;
    fail(std::string("unknown ") + what + " '" + std::string(name) + "'");
  }
  size_t host(std::string_view n) const { return find(sc_.hosts, n, "host"); }
  size_t point(std::string_view n) const { return find(sc_.points, n, "point"); }
  // A point on a path: one that taps a link, not a collector.
  size_t tap_point(std::string_view n) const {
    const size_t p = point(n);
    if (sc_.points[p].collector) fail("'" + sc_.points[p].name + "' is a collector, not a point on a path");
    return p;
  }
  size_t qp(std::string_view n) const { return find(sc_.qps, n, "qp"); }

  int side_of(const Qp& q, std::string_view host_name) const {
    size_t h = host(host_name);
    for (int s = 0; s < 2; ++s)
      if (q.side[s].host == h) return s;
    fail("host '" + std::string(host_name) + "' is not an end of qp '" + q.name + "'");
  }

  void check_name(std::string_view n) const {
    if (n.empty() || n.find_first_of(":,=>") != std::string_view::npos || n == "-")
      fail("bad name '" + std::string(n) + "'");
  }

  // ---- directives -----------------------------------------------------

  void dispatch(std::string_view d) {
    using Handler = void (Parser::*)();
    static const std::unordered_map<std::string_view, Handler> kTable{
        {"seed", &Parser::seed},           {"epoch", &Parser::epoch},
        {"link_gbps", &Parser::link_gbps}, {"snaplen", &Parser::snaplen},
        {"host", &Parser::host_line},      {"path", &Parser::path},
        {"switch", &Parser::switch_line},  {"bridged", &Parser::bridged},
        {"mirror", &Parser::mirror},       {"capture", &Parser::capture},
        {"qp", &Parser::qp_line},          {"cm", &Parser::cm},
        {"send", &Parser::message},        {"write", &Parser::message},
        {"read", &Parser::message},        {"atomic", &Parser::atomic},
        {"drop", &Parser::drop},
        {"tapmiss", &Parser::tap_miss},
        {"corrupt", &Parser::corrupt},     {"ecn_mark", &Parser::ecn_mark},
        {"reorder", &Parser::reorder},
        {"rnr", &Parser::rnr},             {"nak", &Parser::nak},
        {"expect", &Parser::expect},       {"speed", &Parser::speed},
        {"marking", &Parser::marking},     {"rewrite", &Parser::rewrite},
        {"mtu", &Parser::mtu},
        {"pfc", &Parser::pfc},             {"xon", &Parser::pfc},
        {"lldp", &Parser::lldp},
        {"clock", &Parser::clock},         {"queue", &Parser::queue},
        {"ecn_red", &Parser::ecn_red},     {"besteffort", &Parser::besteffort},
        {"collector", &Parser::collector}, {"erspan", &Parser::erspan},
    };
    static const std::unordered_map<std::string_view, Ns Timing::*> kDurations{
        {"jitter", &Timing::jitter},
        {"timeout", &Timing::timeout},
        {"ack_coalesce", &Timing::ack_coalesce},
        {"ack_delay", &Timing::ack_delay},
        {"read_delay", &Timing::read_delay},
        {"nak_turnaround", &Timing::nak_turnaround},
        {"cnp_interval", &Timing::cnp_interval},
        {"max_time", &Timing::max_time},
    };
    if (auto it = kTable.find(d); it != kTable.end()) return (this->*it->second)();
    if (auto it = kDurations.find(d); it != kDurations.end()) {
      want_words(2, 2, "<setting> <duration>");
      sc_.timing.*(it->second) = duration(d, words_[1]);
      if (d == "timeout" && sc_.timing.timeout == 0) fail("timeout must be above 0");
      return;
    }
    static const std::unordered_map<std::string_view, std::pair<uint8_t Timing::*, uint64_t>> kCnp{
        {"cnp_dscp", {&Timing::cnp_dscp, 63}},
        {"cnp_ecn", {&Timing::cnp_ecn, 3}},
        {"cnp_pcp", {&Timing::cnp_pcp, 7}},
    };
    if (auto it = kCnp.find(d); it != kCnp.end()) {
      want_words(2, 2, "cnp_dscp|cnp_ecn|cnp_pcp <value>");
      sc_.timing.*(it->second.first) = static_cast<uint8_t>(number(d, words_[1], it->second.second));
      return;
    }
    fail("unknown directive '" + std::string(d) + "'");
  }

  void seed() {
    want_words(2, 2, "seed <number>");
    sc_.seed = number("seed", words_[1], UINT64_MAX);
  }

  void epoch() {
    want_words(2, 2, "epoch <seconds since 1970>");
    sc_.epoch_s = static_cast<int64_t>(number("epoch", words_[1], 1ull << 40));
  }

  double gbps(std::string_view what, std::string_view text) const {
    std::string s(text);
    char* end = nullptr;
    double g = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !(g >= 0.001 && g <= 100000))
      fail(std::string(what) + ": bad speed '" + s + "'");
    return g;
  }

  void link_gbps() {
    want_words(2, 2, "link_gbps <Gbit/s>");
    sc_.timing.link_gbps = gbps("link_gbps", words_[1]);
  }

  void speed() {
    want_words(3, 3, "speed <point> <Gbit/s>");
    Point& p = sc_.points[tap_point(words_[1])];
    if (p.gbps) fail("point '" + p.name + "' already has a speed");
    p.gbps = gbps("speed", words_[2]);
  }

  void snaplen() {
    want_words(2, 2, "snaplen <bytes> [point=NAME]");
    auto n = static_cast<uint32_t>(number("snaplen", words_[1], 262144));
    if (n < 64) fail("snaplen below 64 would cut the RoCE headers");
    if (auto p = opt("point")) sc_.points[point(*p)].snaplen = n;
    else sc_.snaplen = n;
  }

  void host_line() {
    want_words(4, 4, "host <name> <ipv4> <mac> [ip6=ADDR] [ipid=inc|zero] [resend_ipid=new|same]");
    check_name(words_[1]);
    check_unused_name(words_[1]);
    Host h;
    h.name = words_[1];
    auto ip = parse_ipv4(words_[2]);
    if (!ip) fail("bad IPv4 address '" + std::string(words_[2]) + "'");
    auto mac = parse_mac(words_[3]);
    if (!mac) fail("bad MAC address '" + std::string(words_[3]) + "'");
    h.ip4 = *ip;
    h.mac = *mac;
    if (auto v6 = opt("ip6")) {
      auto a = parse_ipv6(*v6);
      if (!a) fail("bad IPv6 address '" + std::string(*v6) + "'");
      h.ip6 = *a;
    }
    if (auto v = opt("ipid")) {
      if (*v != "inc" && *v != "zero") fail("ipid must be inc (the default) or zero");
      h.ipid_zero = *v == "zero";
    }
    if (auto v = opt("resend_ipid")) {
      if (*v != "new" && *v != "same") fail("resend_ipid must be new (the default) or same");
      h.resend_ipid_same = *v == "same";
    }
    sc_.hosts.push_back(std::move(h));
  }

  // Hosts, switches and points share one name space: a path word is a switch
  // or a point by its name.
  void check_unused_name(std::string_view n) const {
    for (const auto& h : sc_.hosts)
      if (h.name == n) fail("'" + h.name + "' is already defined as a host");
    for (const auto& w : sc_.switches)
      if (w.name == n) fail("'" + w.name + "' is already defined as a switch");
    for (const auto& p : sc_.points)
      if (p.name == n) fail("'" + p.name + "' is already defined as a capture point");
  }

  std::optional<size_t> find_switch(std::string_view n) const {
    for (size_t i = 0; i < sc_.switches.size(); ++i)
      if (sc_.switches[i].name == n) return i;
    return std::nullopt;
  }

  void switch_line() {
    want_words(3, 3, "switch <name> <mac> [port_mac=MAC]");
    check_name(words_[1]);
    check_unused_name(words_[1]);
    auto mac = parse_mac(words_[2]);
    if (!mac) fail("bad MAC address '" + std::string(words_[2]) + "'");
    std::optional<Mac> port_mac;
    if (auto pm = opt("port_mac")) {
      port_mac = parse_mac(*pm);
      if (!port_mac) fail("bad MAC address '" + std::string(*pm) + "'");
      if (*port_mac == *mac) fail("port_mac= is the switch's own MAC: leave it out");
    }
    sc_.switches.push_back({std::string(words_[1]), *mac, port_mac, false, line_});
  }

  void bridged() {
    want_words(1, 1, "bridged");
    if (sc_.bridged) fail("'bridged' given twice");
    sc_.bridged = true;
  }

  // The switch `path` puts between two adjacent points when none is named:
  // one per pair of points, named "P+Q" after the first path joining them,
  // with the MAC 02:53:57:00:00:01, ...:02, ... in order of creation.
  size_t implicit_switch(size_t a, size_t b) {
    const auto key = std::minmax(a, b);
    if (auto it = implicit_.find(key); it != implicit_.end()) return it->second;
    const std::string name = sc_.points[a].name + "+" + sc_.points[b].name;
    check_unused_name(name);
    const size_t n = implicit_.size() + 1;
    if (n > 0xFFFF) fail("too many implicit switches");
    const Mac mac{0x02, 0x53, 0x57, 0x00, static_cast<uint8_t>(n >> 8), static_cast<uint8_t>(n)};
    sc_.switches.push_back({name, mac, std::nullopt, true, line_});
    implicit_[key] = sc_.switches.size() - 1;
    return sc_.switches.size() - 1;
  }

  void path() {
    constexpr const char* kUsage = "usage: path <host> <latency> [<point>|<switch> <latency>]... <host>";
    if (words_.size() < 4 || words_.size() % 2 != 0) fail(kUsage);
    Path p;
    p.line = line_;
    p.hosts = {host(words_[1]), host(words_.back())};
    if (p.hosts[0] == p.hosts[1]) fail("a path joins two different hosts");
    for (const auto& other : sc_.paths)
      if ((other.hosts[0] == p.hosts[0] && other.hosts[1] == p.hosts[1]) ||
          (other.hosts[0] == p.hosts[1] && other.hosts[1] == p.hosts[0]))
        fail("these hosts already have a path");
    p.latency.push_back(0);
    p.switches.emplace_back();
    std::set<size_t> switches_seen;
    for (size_t i = 2; i + 1 < words_.size(); i += 2) {
      p.latency.back() += duration("latency", words_[i]);  // a switch adds its hops to the segment
      std::string_view name = words_[i + 1];
      if (i + 2 == words_.size()) break;
      check_name(name);
      for (const auto& h : sc_.hosts)
        if (h.name == name) fail("'" + h.name + "' is a host, not a point or switch, in the middle of a path");
      if (auto w = find_switch(name)) {
        if (!switches_seen.insert(*w).second) fail("a path passes a switch twice");
        p.switches.back().push_back(*w);
        continue;
      }
      size_t idx = sc_.points.size();
      for (size_t k = 0; k < sc_.points.size(); ++k)
        if (sc_.points[k].name == name) idx = k;
      if (idx < sc_.points.size() && sc_.points[idx].collector)
        fail("'" + std::string(name) + "' is a collector: it records ERSPAN copies and is on no path");
      if (idx == sc_.points.size()) {
        Point pt;
        pt.name = std::string(name);
        sc_.points.push_back(std::move(pt));
      }
      if (std::find(p.points.begin(), p.points.end(), idx) != p.points.end()) fail("a path passes a point twice");
      p.points.push_back(idx);
      p.latency.push_back(0);
      p.switches.emplace_back();
    }
    // Two taps are never on one link: a routed hop sits between them.
    for (size_t k = 1; k < p.points.size(); ++k)
      if (p.switches[k].empty()) p.switches[k].push_back(implicit_switch(p.points[k - 1], p.points[k]));
    sc_.paths.push_back(std::move(p));
  }

  void mirror() {
    want_words(2, 2, "mirror <point> dup=<duration> [rewrite=on|off]");
    auto d = opt("dup");
    if (!d) fail("mirror needs dup=<duration>");
    Ns dup = duration("dup", *d);
    if (dup <= 0) fail("dup must be above 0");
    Point& p = sc_.points[tap_point(words_[1])];
    p.mirror_dup = dup;
    if (auto r = opt("rewrite")) {
      if (*r != "on" && *r != "off") fail("rewrite must be on or off");
      p.mirror_rewrite = *r == "on";
    }
  }

  std::array<size_t, 2> direction(std::string_view d) const {
    auto arrow = d.find("->");
    if (arrow == std::string_view::npos) fail("dir must be <host>-><host>");
    return {host(d.substr(0, arrow)), host(d.substr(arrow + 2))};
  }

  void capture() {
    want_words(2, 2, "capture <point> dir=<host>-><host>");
    auto d = opt("dir");
    if (!d) fail("capture needs dir=<host>-><host>");
    sc_.points[tap_point(words_[1])].only_dir = direction(*d);
  }

  QpSide qp_end(std::string_view text) const {
    auto colon = text.find(':');
    if (colon == std::string_view::npos) fail("a qp end is <host>:<qpn>");
    QpSide s;
    s.host = host(text.substr(0, colon));
    s.qpn = static_cast<uint32_t>(number("qpn", text.substr(colon + 1), kPsnMask));
    if (s.qpn < 2) fail("QPN 0 and 1 are the special QPs");
    return s;
  }

  std::pair<uint64_t, uint64_t> pair_of(std::string_view what, std::string_view text, uint64_t max) const {
    auto comma = text.find(',');
    if (comma == std::string_view::npos) fail(std::string(what) + " takes <a>,<b>");
    return {number(what, text.substr(0, comma), max), number(what, text.substr(comma + 1), max)};
  }

  void qp_line() {
    want_words(4, 4, "qp <name> <host>:<qpn> <host>:<qpn> [options]");
    check_name(words_[1]);
    for (const auto& q : sc_.qps)
      if (q.name == words_[1]) fail("qp '" + q.name + "' defined twice");
    Qp q;
    q.line = line_;
    q.name = words_[1];
    q.side = {qp_end(words_[2]), qp_end(words_[3])};
    if (q.side[0].host == q.side[1].host) fail("a qp joins two different hosts");
    if (auto v = opt("psn")) {
      auto [a, b] = pair_of("psn", *v, kPsnMask);
      q.side[0].start_psn = static_cast<uint32_t>(a);
      q.side[1].start_psn = static_cast<uint32_t>(b);
      explicit_psn_.insert(sc_.qps.size());
    }
    if (auto v = opt("mtu")) {
      q.mtu = static_cast<uint32_t>(number("mtu", *v, 4096));
      if (q.mtu != 256 && q.mtu != 512 && q.mtu != 1024 && q.mtu != 2048 && q.mtu != 4096)
        fail("mtu must be 256, 512, 1024, 2048 or 4096");
    }
    if (auto v = opt("ver")) {
      if (*v == "v2") q.transport = Transport::v2_ipv4;
      else if (*v == "v2-ipv6") q.transport = Transport::v2_ipv6;
      else if (*v == "v1") q.transport = Transport::v1;
      else fail("ver must be v2, v2-ipv6 or v1");
    }
    if (auto v = opt("vlan")) {
      q.vlan = static_cast<uint16_t>(number("vlan", *v, 4094));
      if (*q.vlan == 0) fail("vlan 0 is a priority tag; leave vlan= out for untagged");
    }
    if (auto v = opt("pcp")) {
      q.pcp = static_cast<uint8_t>(number("pcp", *v, 7));
      if (!q.vlan) fail("pcp needs a vlan");
    }
    if (auto v = opt("dscp")) q.dscp = static_cast<uint8_t>(number("dscp", *v, 63));
    if (auto v = opt("ecn")) q.ecn = static_cast<uint8_t>(number("ecn", *v, 3));
    if (auto v = opt("cnp_dscp")) q.cnp_dscp = static_cast<uint8_t>(number("cnp_dscp", *v, 63));
    if (auto v = opt("cnp_pcp")) {
      q.cnp_pcp = static_cast<uint8_t>(number("cnp_pcp", *v, 7));
      if (!q.vlan) fail("cnp_pcp needs a vlan: an untagged QP's CNPs carry no PCP");
    }
    if (auto v = opt("np")) hosts_of(q, *v, "np", "off:", q.np_off);
    if (auto v = opt("ooo")) hosts_of(q, *v, "ooo", "", q.ooo);
    if (auto v = opt("ooo_nak")) {
      if (*v == "off") q.ooo_nak.reset();
      else if ((q.ooo_nak = duration("ooo_nak", *v)) <= 0) fail("ooo_nak must be above 0, or off");
      if (!opt_given("ooo")) fail("ooo_nak needs ooo=<host>");
    }
    if (auto v = opt("recovery")) {
      if (!v->starts_with("selective:")) fail("recovery takes selective:<host>[,<host>]");
      hosts_of(q, *v, "recovery", "selective:", q.selective);
      for (int s = 0; s < 2; ++s)
        if (q.selective[s] && !q.ooo[1 - s])
          fail("recovery=selective:" + sc_.hosts[q.side[s].host].name + " needs ooo=" +
               sc_.hosts[q.side[1 - s].host].name + ": only a receiver that places out of order keeps what follows a hole");
    }
    if (auto v = opt("pkey")) q.pkey = static_cast<uint16_t>(number("pkey", *v, 0xFFFF));
    if (auto v = opt("ackreq_every")) q.ackreq_every = static_cast<uint32_t>(number("ackreq_every", *v, 1 << 20));
    if (auto v = opt("window")) {
      q.window = static_cast<uint32_t>(number("window", *v, 1 << 22));
      if (q.window == 0) fail("window must be at least 1");
    }
    if (auto v = opt("retry_cnt")) q.retry_cnt = static_cast<uint32_t>(number("retry_cnt", *v, 7));
    if (auto v = opt("start")) q.start = duration("start", *v);
    if (auto v = opt("after")) q.after = qp(*v);
    if (auto v = opt("gap")) {
      if (!q.after) fail("gap needs after=");
      q.after_gap = duration("gap", *v);
    }
    if (q.transport == Transport::v1 && q.ecn != 0 && opt_given("ecn")) fail("RoCEv1 has no ECN");
    if (q.transport == Transport::v1) q.ecn = 0;
    sc_.qps.push_back(std::move(q));
  }

  // PREFIX HOST[,HOST]: the ends of the QP an option names (np=off:, ooo=, recovery=selective:).
  void hosts_of(Qp& q, std::string_view v, std::string_view what, std::string_view prefix,
                std::array<bool, 2>& out) const {
    if (v.substr(0, prefix.size()) != prefix || v.size() == prefix.size())
      fail(std::string(what) + " takes " + std::string(prefix) + "<host>[,<host>]");
    for (std::string_view rest = v.substr(prefix.size());;) {
      const auto comma = rest.find(',');
      const int s = side_of(q, rest.substr(0, comma));
      if (out[s]) fail(std::string(what) + " names host '" + sc_.hosts[q.side[s].host].name + "' twice");
      out[s] = true;
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }

  bool opt_given(std::string_view key) const {
    return std::any_of(opts_.begin(), opts_.end(), [&](const Option& o) { return o.key == key; });
  }

  void cm() {
    want_words(2, 2, "cm <qp> [comm=A,B] [service_id=N] [delay=T]");
    const size_t index = qp(words_[1]);
    Qp& q = sc_.qps[index];
    if (q.cm) fail("qp '" + q.name + "' already has a cm exchange");
    CmExchange c;
    // Distinct per connection, as a CM's random local communication IDs are.
    c.comm_id = {static_cast<uint32_t>(mix64(index * 2 + 1)), static_cast<uint32_t>(mix64(index * 2 + 2))};
    if (auto v = opt("comm")) {
      auto [a, b] = pair_of("comm", *v, 0xFFFFFFFF);
      c.comm_id = {static_cast<uint32_t>(a), static_cast<uint32_t>(b)};
    }
    c.service_id = 0x0000000001064853;  // rdma_cm, RDMA_PS_TCP, port 18515 (perftest)
    if (auto v = opt("service_id")) c.service_id = number("service_id", *v, UINT64_MAX);
    c.delay = 10'000;
    if (auto v = opt("delay")) c.delay = duration("delay", *v);
    q.cm = c;
  }

  void message() {
    want_words(4, 5, "send|write|read <qp> <from-host> <bytes> [imm] [id=NAME] [at=T] [repeat=N] [every=T]");
    Message m;
    m.line = line_;
    m.type = words_[0] == "send" ? MsgType::send : words_[0] == "write" ? MsgType::write : MsgType::read;
    m.qp = qp(words_[1]);
    m.side = side_of(sc_.qps[m.qp], words_[2]);
    auto len = parse_size(words_[3]);
    if (!len || *len > 0x80000000ull) fail("message size must be 0 .. 2G bytes");
    m.length = *len;
    if (words_.size() == 5) {
      if (words_[4] != "imm") fail("unexpected '" + std::string(words_[4]) + "' (only 'imm' may follow the size)");
      if (m.type == MsgType::read) fail("a READ carries no immediate data");
      m.imm = true;
    }
    post(m);
  }

  void atomic() {
    want_words(4, 4, "atomic <qp> <from-host> fetchadd|cmpswap [add=N | compare=N swap=N] [id=NAME] [at=T] "
                     "[repeat=N] [every=T]");
    Message m;
    m.line = line_;
    if (words_[3] == "fetchadd") m.type = MsgType::fetch_add;
    else if (words_[3] == "cmpswap") m.type = MsgType::cmp_swap;
    else fail("an ATOMIC is 'fetchadd' or 'cmpswap', not '" + std::string(words_[3]) + "'");
    m.qp = qp(words_[1]);
    m.side = side_of(sc_.qps[m.qp], words_[2]);
    m.length = kAtomicLength;
    const bool fetch_add = m.type == MsgType::fetch_add;
    m.atomic.swap_add = fetch_add ? 1 : 0;
    const char* operand = fetch_add ? "add" : "swap";
    if (auto v = opt(operand)) m.atomic.swap_add = number(operand, *v, UINT64_MAX);
    if (!fetch_add)
      if (auto v = opt("compare")) m.atomic.compare = number("compare", *v, UINT64_MAX);
    post(m);
  }

  // The options every work request takes, then onto its send queue.
  void post(Message& m) {
    if (auto v = opt("at")) m.at = duration("at", *v);
    if (auto v = opt("repeat")) {
      m.repeat = number("repeat", *v, 1ull << 40);
      if (m.repeat == 0) fail("repeat must be at least 1");
    }
    if (auto v = opt("every")) m.every = duration("every", *v);
    if (auto v = opt("id")) {
      check_name(*v);
      if (m.repeat > 1) fail("id= names one message; it cannot be used with repeat=");
      for (const auto& o : sc_.messages)
        if (o.id == *v) fail("message id '" + o.id + "' used twice");
      m.id = *v;
    }
    sc_.messages.push_back(std::move(m));
  }

  PacketSelect select(std::string_view allowed_kinds) {
    const Qp& q = sc_.qps[qp(words_[1])];
    PacketSelect s;
    s.qp = qp(words_[1]);
    s.side = side_of(q, words_[2]);
    auto p = opt("psn");
    if (!p) fail("which packets? psn=<offset> or psn=<first>-<last>");
    auto dash = p->find('-');
    s.first = static_cast<uint32_t>(number("psn", p->substr(0, dash), kPsnMask));
    s.last = dash == std::string_view::npos ? s.first : static_cast<uint32_t>(number("psn", p->substr(dash + 1), kPsnMask));
    if (s.last < s.first) fail("psn range runs backwards");
    if (auto k = opt("kind")) {
      if (allowed_kinds.find(std::string(*k) + ",") == std::string_view::npos)
        fail("kind must be one of " + std::string(allowed_kinds.substr(0, allowed_kinds.size() - 1)));
      s.traffic = *k == "req" ? Traffic::req : *k == "ack" ? Traffic::ack : Traffic::readresp;
    }
    if (auto t = opt("times")) {
      if (*t == "all") {
        s.times = 0;
      } else {
        s.times = static_cast<uint32_t>(number("times", *t, 1 << 20));
        if (s.times == 0) fail("times must be at least 1, or 'all'");
      }
    }
    return s;
  }

  Where where() {
    auto w = opt("where");
    if (!w) fail("where=sender|receiver|before:<point>|after:<point>|between:<point>,<point>");
    Where r;
    if (*w == "sender") r.kind = Where::Kind::sender;
    else if (*w == "receiver") r.kind = Where::Kind::receiver;
    else if (w->starts_with("before:")) r.kind = Where::Kind::before, r.point = point(w->substr(7));
    else if (w->starts_with("after:")) r.kind = Where::Kind::after, r.point = point(w->substr(6));
    else if (w->starts_with("between:")) {
      auto rest = w->substr(8);
      auto comma = rest.find(',');
      if (comma == std::string_view::npos) fail("between:<point>,<point>");
      r.kind = Where::Kind::between;
      r.point = point(rest.substr(0, comma));
      r.point2 = point(rest.substr(comma + 1));
    } else {
      fail("where=sender|receiver|before:<point>|after:<point>|between:<point>,<point>");
    }
    return r;
  }

  // A fault on the packets of a path: which ones (select) and where (where=).
  template <typename Fault>
  Fault on_path(const char* usage, std::string_view kinds) {
    want_words(3, 3, usage);
    Fault f;
    f.line = line_;
    f.sel = select(kinds);
    f.where = where();
    return f;
  }

  void drop() {
    sc_.drops.push_back(on_path<Drop>(
        "drop <qp> <requester-host> psn=N[-M] where=... [kind=req|ack|readresp] [times=N|all]", "req,ack,readresp,"));
  }

  void reorder() {
    Reorder r = on_path<Reorder>(
        "reorder <qp> <requester-host> psn=N[-M] by=T where=... [kind=req|readresp] [times=N|all]", "req,readresp,");
    auto by = opt("by");
    if (!by) fail("reorder needs by=<duration>: how much longer the chosen packet's way is");
    r.delay = duration("by", *by);
    if (r.delay <= 0 || r.delay > kMaxShift) fail("by must be above 0 and at most 1s");
    sc_.reorders.push_back(r);
  }

  void corrupt() {
    Corrupt c = on_path<Corrupt>("corrupt <qp> <requester-host> psn=N[-M] where=... [byte=N] [times=N|all]", "req,");
    if (auto b = opt("byte")) c.byte = static_cast<uint32_t>(number("byte", *b, 4095));
    sc_.corrupts.push_back(c);
  }

  // Something that happens to the chosen packets at one point (at=).
  template <typename Event>
  Event at_point(const char* usage, std::string_view kinds) {
    want_words(3, 3, usage);
    Event e;
    e.line = line_;
    e.sel = select(kinds);
    auto at = opt("at");
    if (!at) fail(std::string(words_[0]) + " needs at=<point>");
    e.point = point(*at);
    return e;
  }

  void ecn_mark() {
    EcnMark e = at_point<EcnMark>(
        "ecn_mark <qp> <requester-host> psn=N[-M] at=<point> [kind=req|readresp] [times=N|all]", "req,readresp,");
    const Qp& q = sc_.qps[e.sel.qp];
    if (q.transport == Transport::v1) fail("RoCEv1 has no ECN to mark");
    if (q.ecn == 0) fail("qp '" + q.name + "' is Not-ECT (ecn=0): no switch marks it CE");
    sc_.marks.push_back(e);
  }

  void tap_miss() {
    sc_.tap_misses.push_back(at_point<TapMiss>(
        "tapmiss <qp> <requester-host> psn=N[-M] at=<point> [kind=req|ack|readresp] [times=N|all]", "req,ack,readresp,"));
  }

  size_t message_id(std::string_view id) const {
    for (size_t i = 0; i < sc_.messages.size(); ++i)
      if (sc_.messages[i].id == id) return i;
    fail("unknown message id '" + std::string(id) + "'");
  }

  void check_one_reply(size_t msg) const {
    for (const auto& r : sc_.replies)
      if (r.message == msg) fail("message '" + sc_.messages[msg].id + "' already has a forced reply");
  }

  void rnr() {
    want_words(2, 2, "rnr <message-id> [timer=CODE]");
    ForcedReply r;
    r.line = line_;
    r.message = message_id(words_[1]);
    r.rnr = true;
    if (auto t = opt("timer")) r.rnr_timer = static_cast<uint8_t>(number("timer", *t, 31));
    const Message& m = sc_.messages[r.message];
    if (m.type != MsgType::send && !(m.type == MsgType::write && m.imm))
      fail("only a SEND or a WRITE with immediate consumes a receive WQE, so only those get RNR");
    check_one_reply(r.message);
    sc_.replies.push_back(r);
  }

  void nak() {
    want_words(3, 3, "nak <message-id> inv-req|rem-access|rem-op");
    ForcedReply r;
    r.line = line_;
    r.message = message_id(words_[1]);
    if (words_[2] == "inv-req") r.code = NakCode::inv_req;
    else if (words_[2] == "rem-access") r.code = NakCode::rem_access;
    else if (words_[2] == "rem-op") r.code = NakCode::rem_op;
    else fail("nak code must be inv-req, rem-access or rem-op");
    check_one_reply(r.message);
    sc_.replies.push_back(r);
  }

  // ---- QoS marking ----------------------------------------------------

  void marking() {
    want_words(3, 3, "marking <qp> <sending-host> [dscp=N] [ecn=N] [pcp=N] at=T");
    MarkingChange m;
    m.line = line_;
    m.qp = qp(words_[1]);
    const Qp& q = sc_.qps[m.qp];
    m.side = side_of(q, words_[2]);
    auto at = opt("at");
    if (!at) fail("marking needs at=<time>: from when the host marks this way");
    m.at = duration("at", *at);
    if (auto v = opt("dscp")) m.dscp = static_cast<uint8_t>(number("dscp", *v, 63));
    if (auto v = opt("ecn")) {
      m.ecn = static_cast<uint8_t>(number("ecn", *v, 3));
      if (q.transport == Transport::v1) fail("RoCEv1 has no ECN");
    }
    if (auto v = opt("pcp")) {
      m.pcp = static_cast<uint8_t>(number("pcp", *v, 7));
      if (!q.vlan) fail("pcp needs a tagged qp (vlan=)");
    }
    if (!m.dscp && !m.ecn && !m.pcp) fail("marking changes nothing: give dscp=, ecn= or pcp=");
    sc_.markings.push_back(m);
  }

  // "NEW" or "OLD:NEW" for a rewrite.
  void rewrite_value(std::string_view what, std::string_view text, uint64_t max, std::optional<uint8_t>& from,
                     std::optional<uint8_t>& to) const {
    auto colon = text.find(':');
    if (colon != std::string_view::npos) from = static_cast<uint8_t>(number(what, text.substr(0, colon), max));
    to = static_cast<uint8_t>(number(what, colon == std::string_view::npos ? text : text.substr(colon + 1), max));
  }

  void rewrite() {
    want_words(2, 2,
               "rewrite <point> [dscp=[OLD:]NEW] [pcp=[OLD:]NEW] [vlan=strip|[OLD:]NEW] [dir=<host>-><host>] [at=T]");
    Rewrite r;
    r.line = line_;
    r.point = tap_point(words_[1]);
    if (auto v = opt("dscp")) rewrite_value("dscp", *v, 63, r.dscp_from, r.dscp);
    if (auto v = opt("pcp")) rewrite_value("pcp", *v, 7, r.pcp_from, r.pcp);
    if (auto v = opt("vlan")) {
      if (*v == "strip") {
        r.vlan_strip = true;
      } else {
        auto colon = v->find(':');
        if (colon != std::string_view::npos) r.vlan_from = static_cast<uint16_t>(number("vlan", v->substr(0, colon), 4094));
        r.vlan = static_cast<uint16_t>(number("vlan", colon == std::string_view::npos ? *v : v->substr(colon + 1), 4094));
      }
    }
    if (!r.dscp && !r.pcp && !r.vlan && !r.vlan_strip) fail("rewrite changes nothing: give dscp=, pcp= or vlan=");
    if (auto d = opt("dir")) r.dir = direction(*d);
    if (auto v = opt("at")) r.at = duration("at", *v);
    sc_.rewrites.push_back(r);
  }

  void mtu() {
    want_words(3, 3, "mtu <point>|<switch> <bytes> [dir=<host>-><host>] [icmp=IPV4] [icmp6=IPV6]");
    Mtu m;
    m.line = line_;
    if (auto w = find_switch(words_[1])) m.sw = *w;
    else m.point = tap_point(words_[1]);
    if (auto v = opt("icmp")) {
      m.icmp4 = parse_ipv4(*v);
      if (!m.icmp4) fail("bad IPv4 address '" + std::string(*v) + "'");
    }
    if (auto v = opt("icmp6")) {
      m.icmp6 = parse_ipv6(*v);
      if (!m.icmp6) fail("bad IPv6 address '" + std::string(*v) + "'");
    }
    m.bytes = static_cast<uint32_t>(number("mtu", words_[2], 65535));
    if (m.bytes < 68) fail("mtu below the IPv4 minimum of 68");
    if (auto d = opt("dir")) m.dir = direction(*d);
    sc_.mtus.push_back(m);
  }

  // ---- multi-point: clocks, queueing, ERSPAN ------------------------

  // "37us", "-1.5us": a duration with an optional minus sign.
  Ns signed_duration(std::string_view what, std::string_view text) const {
    const bool negative = !text.empty() && text[0] == '-';
    const Ns d = duration(what, negative ? text.substr(1) : text);
    if (d > kMaxShift) fail(std::string(what) + ": " + std::string(text) + " is more than 1s");
    return negative ? -d : d;
  }

  void clock() {
    want_words(3, 3, "clock <point> <offset>");
    Point& p = sc_.points[point(words_[1])];
    if (p.clock != 0) fail("point '" + p.name + "' already has a clock offset");
    p.clock = signed_duration("clock", words_[2]);
    if (p.clock == 0) fail("clock offset 0 is the default; leave it out");
  }

  void queue() {
    want_words(3, 3, "queue <point> <delay> at=T for=T [dir=<host>-><host>] [cnp=shared|strict]");
    QueueBurst q;
    q.line = line_;
    q.point = tap_point(words_[1]);
    q.delay = duration("queue delay", words_[2]);
    auto at = opt("at");
    auto length = opt("for");
    if (!at || !length) fail("queue needs at=<time> and for=<duration>: when the burst fills the queue");
    q.at = duration("at", *at);
    q.length = duration("for", *length);
    if (q.delay <= 0 || q.length <= 0) fail("queue delay and for= must be above 0");
    if (q.delay > kMaxShift || q.length > kMaxShift) fail("queue delay and for= are at most 1s");
    if (auto d = opt("dir")) q.dir = direction(*d);
    if (auto c = opt("cnp")) {
      if (*c != "shared" && *c != "strict") fail("queue cnp= is shared or strict, not '" + std::string(*c) + "'");
      q.cnp_strict = *c == "strict";
    }
    sc_.queues.push_back(q);
  }

  // "20gbps", "500mbps": a flow's rate in Gb/s.
  double rate(std::string_view what, std::string_view text) const {
    for (auto [unit, scale] : {std::pair<std::string_view, double>{"gbps", 1}, {"mbps", 1e-3}})
      if (text.size() > unit.size() && text.ends_with(unit))
        return gbps(what, text.substr(0, text.size() - unit.size())) * scale;
    fail(std::string(what) + ": '" + std::string(text) + "' needs a unit: gbps or mbps (20gbps)");
  }

  void besteffort() {
    want_words(3, 3,
               "besteffort <point> <rate> at=T for=T dir=<host>-><host> sched=strict|ets:<pct> [size=<bytes>] [dscp=N] "
               "[pcp=N]");
    BestEffort b;
    b.line = line_;
    b.point = tap_point(words_[1]);
    b.gbps = rate("besteffort rate", words_[2]);
    auto at = opt("at");
    auto length = opt("for");
    if (!at || !length) fail("besteffort needs at=<time> and for=<duration>: when the flow sends");
    b.at = duration("at", *at);
    b.length = duration("for", *length);
    if (b.length <= 0) fail("besteffort for= must be above 0");
    if (b.length > kMaxShift) fail("besteffort for= is at most 1s");
    auto d = opt("dir");
    if (!d) fail("besteffort needs dir=<host>-><host>: the direction of the RoCE traffic it competes with");
    b.dir = direction(*d);
    auto sched = opt("sched");
    if (!sched) fail("besteffort needs sched=strict or sched=ets:<pct>: how the queue serves it against RoCE");
    if (*sched == "strict") {
      b.sched = BestEffort::Sched::strict;
    } else if (sched->starts_with("ets:")) {
      b.sched = BestEffort::Sched::ets;
      auto pct = parse_uint(sched->substr(4));
      if (!pct || *pct < 1 || *pct > 99)
        fail("besteffort sched=ets:<pct> gives RoCE's class 1-99 percent, not '" + std::string(sched->substr(4)) + "'");
      b.ets_pct = static_cast<uint8_t>(*pct);
    } else {
      fail("besteffort sched= is strict or ets:<pct>, not '" + std::string(*sched) + "'");
    }
    if (auto v = opt("size")) b.size = static_cast<uint32_t>(number("size", *v, 9216));
    if (auto v = opt("dscp")) b.dscp = static_cast<uint8_t>(number("dscp", *v, 63));
    if (auto v = opt("pcp")) b.pcp = static_cast<uint8_t>(number("pcp", *v, 7));
    sc_.besteffort.push_back(b);
  }

  void ecn_red() {
    want_words(2, 2, "ecn_red <point> kmin=T kmax=T [pmax=PERCENT]");
    Point& p = sc_.points[tap_point(words_[1])];
    if (p.ecn_red) fail("point '" + p.name + "' already has an ecn_red");
    auto kmin = opt("kmin");
    auto kmax = opt("kmax");
    if (!kmin || !kmax) fail("ecn_red needs kmin=<time> and kmax=<time>");
    EcnRed r;
    r.kmin = duration("kmin", *kmin);
    r.kmax = duration("kmax", *kmax);
    if (r.kmax < r.kmin || r.kmax > kMaxShift) fail("ecn_red needs kmin <= kmax <= 1s");
    if (auto v = opt("pmax")) r.pmax = static_cast<double>(number("pmax", *v, 100)) / 100;
    if (r.pmax <= 0) fail("ecn_red pmax= must be 1-100 (percent)");
    p.ecn_red = r;
  }

  void collector() {
    want_words(2, 2, "collector <name>");
    check_name(words_[1]);
    check_unused_name(words_[1]);
    Point p;
    p.name = std::string(words_[1]);
    p.collector = true;
    sc_.points.push_back(std::move(p));
  }

  void erspan() {
    want_words(2, 2, "erspan <point> session=N type=2|3 src=IPV4 dst=IPV4 [collector=NAME] [latency=T]");
    Point& p = sc_.points[tap_point(words_[1])];
    if (p.erspan) fail("point '" + p.name + "' already has an erspan session");
    ErspanSession e;
    e.line = line_;
    auto session = opt("session");
    auto type = opt("type");
    auto src = opt("src");
    auto dst = opt("dst");
    if (!session || !type || !src || !dst) fail("erspan needs session=, type=, src= and dst=");
    e.session = static_cast<uint16_t>(number("session", *session, 1023));
    if (*type != "2" && *type != "3") fail("erspan type must be 2 (type II) or 3 (type III)");
    e.type = *type == "2" ? 2 : 3;
    auto s4 = parse_ipv4(*src);
    auto d4 = parse_ipv4(*dst);
    if (!s4 || !d4) fail("erspan src= and dst= are IPv4 addresses");
    e.src = *s4;
    e.dst = *d4;
    if (auto c = opt("collector")) {
      const size_t ci = point(*c);
      if (!sc_.points[ci].collector) fail("'" + std::string(*c) + "' is not a collector (declare it with 'collector NAME')");
      e.collector = ci;
    }
    if (auto l = opt("latency")) {
      e.latency = duration("latency", *l);
      if (e.latency > kMaxShift) fail("latency is at most 1s");
    }
    p.erspan = e;
  }

  // ---- link-local frames: PFC and LLDP -------------------------------

  std::vector<uint64_t> list_of(std::string_view what, std::string_view text, uint64_t max) const {
    std::vector<uint64_t> v;
    size_t pos = 0;
    while (true) {
      size_t comma = text.find(',', pos);
      v.push_back(number(what, text.substr(pos, comma - pos), max));
      if (comma == std::string_view::npos) return v;
      pos = comma + 1;
    }
  }

  // "3" or "3,4": a bitmap of priorities.
  uint8_t priorities(std::string_view what, std::string_view text, std::vector<uint64_t>* order = nullptr) const {
    uint8_t bits = 0;
    const auto list = list_of(what, text, 7);
    for (uint64_t p : list) {
      if (bits >> p & 1) fail(std::string(what) + ": priority " + std::to_string(p) + " given twice");
      bits = static_cast<uint8_t>(bits | 1u << p);
    }
    if (order) *order = list;
    return bits;
  }

  // "3:3,6:6": KEY:VALUE pairs, each key once, keys up to `max_key`.
  std::vector<std::pair<size_t, uint64_t>> pairs(std::string_view what, std::string_view text, uint64_t max_key,
                                                 uint64_t max_value) const {
    std::vector<std::pair<size_t, uint64_t>> out;
    uint16_t seen = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
      const size_t comma = text.find(',', pos);
      const std::string_view entry = text.substr(pos, comma - pos);
      const auto colon = entry.find(':');
      if (colon == std::string_view::npos) fail(std::string(what) + "= takes KEY:VALUE entries, e.g. 3:3,6:6");
      const auto key = static_cast<size_t>(number(what, entry.substr(0, colon), max_key));
      if (seen >> key & 1u) fail(std::string(what) + ": " + std::to_string(key) + " given twice");
      seen = static_cast<uint16_t>(seen | 1u << key);
      out.emplace_back(key, number(what, entry.substr(colon + 1), max_value));
      if (comma == std::string_view::npos) break;
      pos = comma + 1;
    }
    return out;
  }

  // from=NODE: the host (its NIC) or the switch (its port) at one end of
  // the link the point taps, with that node's MAC; finish() checks the end.
  LinkPort link_port() {
    auto from = opt("from");
    if (!from) fail("which device sends it? from=<host or switch at an end of the tapped link>");
    if (from->find(':') != std::string_view::npos)
      fail("from= names a host or a switch (declare it with 'switch NAME MAC'); a switch port sends with its "
           "switch's MAC");
    LinkPort port;
    bool found = false;
    for (size_t i = 0; i < sc_.hosts.size() && !found; ++i)
      if (sc_.hosts[i].name == *from) port.node = {NodeRef::Kind::host, i}, found = true;
    if (auto w = find_switch(*from); w && !found) port.node = {NodeRef::Kind::sw, *w}, found = true;
    if (!found) {
      for (const auto& p : sc_.points)
        if (p.name == *from)
          fail("'" + p.name + "' is a capture point: from= names the host or switch at an end of the link it taps");
      fail("unknown host or switch '" + std::string(*from) + "'");
    }
    port.name = sc_.node_name(port.node);
    port.mac = sc_.node_mac(port.node);
    if (port.node.kind == NodeRef::Kind::sw) port.mac = sc_.switches[port.node.index].port_mac.value_or(port.mac);
    return port;
  }

  Schedule schedule() {
    Schedule w;
    auto at = opt("at");
    if (!at) fail("when? at=<time>");
    w.at = duration("at", *at);
    auto repeat = opt("repeat");
    auto every = opt("every");
    auto until = opt("until");
    if (repeat && until) fail("give repeat= or until=, not both");
    if ((repeat || until) && !every) fail("repeat= and until= need every=<time>");
    if (every) {
      w.every = duration("every", *every);
      if (w.every <= 0) fail("every must be above 0");
      if (!repeat && !until) fail("every= needs repeat=N or until=T");
    }
    if (repeat) {
      w.count = number("repeat", *repeat, 1 << 20);
      if (w.count == 0) fail("repeat must be at least 1");
    }
    if (until) {
      const Ns end = duration("until", *until);
      if (end < w.at) fail("until is before at");
      w.count = static_cast<uint64_t>((end - w.at) / w.every) + 1;
      if (w.count > (1u << 20)) fail("until/every make more than 2^20 frames");
    }
    return w;
  }

  void pfc() {
    const bool xon = words_[0] == "xon";
    want_words(2, 3,
               xon ? "xon <point> [storm] from=NODE prio=P[,P...] at=T [repeat=N every=T | every=T until=T]"
                   : "pfc <point> [storm] from=NODE prio=P[,P...] quanta=Q[,Q...] at=T "
                     "[repeat=N every=T | every=T until=T] [reserved=N] [truncate=N] [dst=MAC]");
    PfcDirective d;
    d.line = line_;
    d.point = tap_point(words_[1]);
    if (words_.size() == 3) {
      if (words_[2] != "storm") fail("unexpected '" + std::string(words_[2]) + "' (only 'storm' may follow the point)");
      d.storm = true;
    }
    d.from = link_port();
    auto prio = opt("prio");
    if (!prio) fail("which classes? prio=P[,P...]");
    std::vector<uint64_t> order;
    d.enable = priorities("prio", *prio, &order);
    if (!xon) {
      auto q = opt("quanta");
      if (!q) fail("how long? quanta=Q (0..65535, one per class or one for all)");
      const auto quanta = list_of("quanta", *q, 0xFFFF);
      if (quanta.size() != 1 && quanta.size() != order.size()) fail("quanta= needs one value, or one per prio= class");
      for (size_t i = 0; i < order.size(); ++i)
        d.quanta[order[i]] = static_cast<uint16_t>(quanta.size() == 1 ? quanta[0] : quanta[i]);
      if (auto v = opt("reserved")) {
        d.reserved = static_cast<uint8_t>(number("reserved", *v, 0xFF));
        if (d.reserved == 0) fail("reserved=0 is the normal frame; leave it out");
      }
      if (auto v = opt("truncate")) {
        d.truncate = static_cast<uint32_t>(number("truncate", *v, 64));
        if (*d.truncate < 18 || *d.truncate >= kPfcFullLength)
          fail("truncate=N: 18 (opcode and vector) to " + std::to_string(kPfcFullLength - 1) +
               " (short of the eight pause times)");
      }
      if (auto v = opt("dst")) {
        auto mac = parse_mac(*v);
        if (!mac) fail("bad MAC address '" + std::string(*v) + "' in dst=");
        if (*mac == kPfcDestination) fail("dst= is for a non-standard destination; 01:80:c2:00:00:01 is the default");
        d.dst = *mac;
      }
    }
    d.when = schedule();
    sc_.pfcs.push_back(std::move(d));
  }

  void lldp() {
    want_words(2, 2, "lldp <point> from=NODE [port=NAME] [pfc=P[,P...]|none] [app=DSCP:PRIO[,...]] [willing=0|1] "
                     "[mbc=0|1] [cap=N] [maxframe=BYTES] [ets=P:TC,... etsbw=TC:PCT,... [strict=TC,...]] [ttl=S] at=T [repeat=N every=T | every=T until=T]");
    LldpDirective d;
    d.line = line_;
    d.point = tap_point(words_[1]);
    d.from = link_port();
    d.port = d.from.name;
    if (auto v = opt("port")) d.port = std::string(*v);
    if (auto v = opt("pfc")) d.pfc_enable = *v == "none" ? uint8_t{0} : priorities("pfc", *v);
    if (auto v = opt("app")) {
      size_t pos = 0;
      while (pos <= v->size()) {
        size_t comma = v->find(',', pos);
        std::string_view entry = v->substr(pos, comma - pos);
        auto colon = entry.find(':');
        if (colon == std::string_view::npos) fail("app= takes DSCP:PRIO entries, e.g. app=26:3,48:6");
        d.app.push_back({static_cast<uint16_t>(number("app DSCP", entry.substr(0, colon), 63)),
                         static_cast<uint8_t>(number("app priority", entry.substr(colon + 1), 7))});
        if (comma == std::string_view::npos) break;
        pos = comma + 1;
      }
    }
    if (auto v = opt("maxframe")) {
      d.max_frame = static_cast<uint16_t>(number("maxframe", *v, 0xFFFF));
      if (d.max_frame < 64) fail("maxframe below the 64-byte Ethernet minimum");
    }
    if (auto v = opt("ets")) {
      d.ets = true;
      for (auto [prio, tc] : pairs("ets", *v, 7, 7)) d.ets_tc[prio] = static_cast<uint8_t>(tc);
      if (auto bw = opt("etsbw"))
        for (auto [tc, pct] : pairs("etsbw", *bw, 7, 100)) d.ets_bw[tc] = static_cast<uint8_t>(pct);
      if (auto s = opt("strict")) d.ets_strict = priorities("strict", *s);  // classes, 0..7 like priorities
    } else if (opt("etsbw") || opt("strict")) {
      fail("etsbw= and strict= describe an ETS table: give ets=P:TC,... too");
    }
    if (!d.pfc_enable && d.app.empty() && !d.max_frame && !d.ets)
      fail("lldp says nothing: give pfc=, app=, maxframe= or ets=");
    if (auto v = opt("willing")) d.willing = number("willing", *v, 1) == 1;
    if (auto v = opt("mbc")) d.mbc = number("mbc", *v, 1) == 1;
    if (auto v = opt("cap")) d.pfc_cap = static_cast<uint8_t>(number("cap", *v, 15));
    if (auto v = opt("ttl")) d.ttl = static_cast<uint16_t>(number("ttl", *v, 0xFFFF));
    d.when = schedule();
    sc_.lldps.push_back(std::move(d));
  }

  void expect() {
    want_words(1, 1, "expect <key>=<value>...");
    if (opts_.empty()) fail("usage: expect <key>=<value>...");
    for (auto& o : opts_) {
      o.used = true;
      sc_.expect[std::string(o.key)] = std::string(o.value);
    }
  }

  // ---- whole-scenario checks -----------------------------------------

  // Index of the segment a Where names, counted in the travel direction.
  size_t resolve(const Where& w, const std::vector<size_t>& pts, int line) {
    line_ = line;
    auto pos = [&](size_t p) -> size_t {
      auto it = std::find(pts.begin(), pts.end(), p);
      if (it == pts.end()) fail("point '" + sc_.points[p].name + "' is not on this qp's path");
      return static_cast<size_t>(it - pts.begin());
    };
    switch (w.kind) {
      case Where::Kind::sender: return 0;
      case Where::Kind::receiver: return pts.size();
      case Where::Kind::before: return pos(w.point);
      case Where::Kind::after: return pos(w.point) + 1;
      case Where::Kind::between: {
        size_t a = pos(w.point), b = pos(w.point2);
        if (b != a + 1) fail("between: the second point must follow the first in the packet's direction");
        return a + 1;
      }
    }
    return 0;
  }

  // Points in the order a packet from side `from` of `q` meets them.
  std::vector<size_t> points_from(const Qp& q, int from) const {
    const Path& p = sc_.paths[q.path];
    std::vector<size_t> pts = p.points;
    if (q.side[from].host != p.hosts[0]) std::reverse(pts.begin(), pts.end());
    return pts;
  }

  static int sender_side(const PacketSelect& s) { return s.traffic == Traffic::req ? s.side : 1 - s.side; }

  // A best-effort flow's way: the point must have another one before it on
  // the path of its direction (its packets are recorded there first); its
  // VLAN and IP version follow the RoCE traffic between the hosts.
  void resolve_besteffort(BestEffort& b) {
    line_ = b.line;
    const std::string way = sc_.hosts[b.dir[0]].name + " to " + sc_.hosts[b.dir[1]].name;
    auto path = std::find_if(sc_.paths.begin(), sc_.paths.end(), [&](const Path& p) {
      return (p.hosts[0] == b.dir[0] && p.hosts[1] == b.dir[1]) || (p.hosts[0] == b.dir[1] && p.hosts[1] == b.dir[0]);
    });
    if (path == sc_.paths.end()) fail("besteffort: no path joins " + way);
    b.path = static_cast<size_t>(path - sc_.paths.begin());
    b.forward = path->hosts[0] == b.dir[0];
    std::vector<size_t> pts = path->points;
    if (!b.forward) std::reverse(pts.begin(), pts.end());
    const auto at = std::find(pts.begin(), pts.end(), b.point);
    const std::string& name = sc_.points[b.point].name;
    if (at == pts.end()) fail("besteffort: point '" + name + "' is not on the path from " + way);
    if (at == pts.begin())
      fail("besteffort: no capture point before '" + name + "' on the way from " + way +
           ": the flow's packets are recorded at the point before it, then at it");
    b.hop = static_cast<size_t>(at - pts.begin());
    if (b.gbps > sc_.gbps_of(b.point)) {
      std::ostringstream m;
      m << "besteffort at " << b.gbps << " Gb/s is above the " << sc_.gbps_of(b.point) << " Gb/s link of point '"
        << name << "'";
      fail(m.str());
    }
    bool any = false, all_v6 = true;
    for (const Qp& q : sc_.qps) {
      const std::array<size_t, 2> hosts{q.side[0].host, q.side[1].host};
      if (hosts != b.dir && hosts != std::array<size_t, 2>{b.dir[1], b.dir[0]}) continue;
      if (!b.vlan) b.vlan = q.vlan;  // the first tagged QP's
      any = true;
      all_v6 = all_v6 && q.transport == Transport::v2_ipv6;
    }
    b.ipv6 = any && all_v6;
    if (b.pcp && !b.vlan) fail("besteffort pcp= needs tagged RoCE traffic between the hosts (a qp with vlan=)");
    const uint32_t least = std::max<uint32_t>(60, 14 + (b.vlan ? 4 : 0) + (b.ipv6 ? 40 : 20) + 20);
    if (b.size && *b.size < least)
      fail("besteffort size=" + std::to_string(*b.size) + " is below the " + std::to_string(least) +
           " bytes of an Ethernet frame with its headers");
  }

  // A SPAN session with rewrite=on mirrors a switch port: one end of the
  // tapped link is the switch, the other a host.
  void check_mirror_rewrite() {
    for (size_t pt = 0; pt < sc_.points.size(); ++pt) {
      if (!sc_.points[pt].mirror_rewrite) continue;
      for (const Path& path : sc_.paths)
        for (size_t i = 0; i < path.points.size(); ++i) {
          if (path.points[i] != pt) continue;
          const bool a = path.before(i).kind == NodeRef::Kind::sw, b = path.after(i).kind == NodeRef::Kind::sw;
          line_ = path.line;
          if (a == b)
            fail("mirror " + sc_.points[pt].name + " rewrite=on: the point must tap a link between a host and a switch");
        }
    }
  }

  void finish() {
    if (sc_.hosts.empty()) fail("no hosts");
    if (sc_.points.empty()) fail("no capture points: add a path with at least one point");
    for (size_t i = 0; i < sc_.qps.size(); ++i) {
      Qp& q = sc_.qps[i];
      line_ = q.line;
      bool found = false;
      for (size_t p = 0; p < sc_.paths.size(); ++p) {
        const Path& path = sc_.paths[p];
        if ((path.hosts[0] == q.side[0].host && path.hosts[1] == q.side[1].host) ||
            (path.hosts[1] == q.side[0].host && path.hosts[0] == q.side[1].host)) {
          q.path = p;
          q.reversed = path.hosts[1] == q.side[0].host;
          found = true;
        }
      }
      if (!found) fail("no path joins the hosts of qp '" + q.name + "'");
      if (q.transport != Transport::v2_ipv4)
        for (int s = 0; s < 2; ++s)
          if (q.transport == Transport::v2_ipv6 && !sc_.hosts[q.side[s].host].ip6)
            fail("ver=v2-ipv6 needs ip6= on host '" + sc_.hosts[q.side[s].host].name + "'");
      if (!explicit_psn_.count(i))
        for (int s = 0; s < 2; ++s)
          q.side[s].start_psn = static_cast<uint32_t>(hash_combine(hash_combine(sc_.seed, i), s) & kPsnMask);
      // A QPN is reused only once the previous user is finished with it.
      for (size_t j = 0; j < i; ++j)
        for (int s = 0; s < 2; ++s)
          for (int t = 0; t < 2; ++t)
            if (sc_.qps[j].side[t].host == q.side[s].host && sc_.qps[j].side[t].qpn == q.side[s].qpn &&
                !runs_after(i, j))
              fail("qp '" + q.name + "' reuses a QPN of '" + sc_.qps[j].name + "' without after=" + sc_.qps[j].name);
    }
    for (auto& d : sc_.drops) d.where.segment = resolve(d.where, points_from(sc_.qps[d.sel.qp], sender_side(d.sel)), d.line);
    for (auto& r : sc_.reorders)
      r.where.segment = resolve(r.where, points_from(sc_.qps[r.sel.qp], sender_side(r.sel)), r.line);
    for (auto& c : sc_.corrupts)
      c.where.segment = resolve(c.where, points_from(sc_.qps[c.sel.qp], sender_side(c.sel)), c.line);
    for (auto& e : sc_.marks) {
      Where at{Where::Kind::before, e.point, 0, 0};
      e.hop = resolve(at, points_from(sc_.qps[e.sel.qp], sender_side(e.sel)), e.line);
    }
    for (auto& t : sc_.tap_misses) {
      Where at{Where::Kind::before, t.point, 0, 0};
      t.hop = resolve(at, points_from(sc_.qps[t.sel.qp], sender_side(t.sel)), t.line);
    }
    for (const auto& m : sc_.messages)
      if (packet_count(m.length, sc_.qps[m.qp].mtu) > (1u << 22)) {
        line_ = m.line;
        fail("message too long: it needs more than 2^22 PSNs");
      }
    check_links();
    check_mirror_rewrite();
    for (const auto& d : sc_.pfcs) check_end(d.point, d.from.node, d.line);
    for (const auto& d : sc_.lldps) check_end(d.point, d.from.node, d.line);
    check_macs();
    for (auto& b : sc_.besteffort) resolve_besteffort(b);
    check_multipoint();
    std::stable_sort(sc_.markings.begin(), sc_.markings.end(), [](const MarkingChange& a, const MarkingChange& b) {
      return std::tie(a.qp, a.side, a.at) < std::tie(b.qp, b.side, b.at);
    });
  }

  // A point taps one link: every path through it must agree on its two ends.
  void check_links() {
    link_.assign(sc_.points.size(), std::nullopt);
    for (const Path& p : sc_.paths)
      for (size_t i = 0; i < p.points.size(); ++i) {
        std::array<NodeRef, 2> ends{p.before(i), p.after(i)};
        auto& known = link_[p.points[i]];
        if (!known) {
          known = ends;
          continue;
        }
        if ((ends[0] == (*known)[0] && ends[1] == (*known)[1]) || (ends[0] == (*known)[1] && ends[1] == (*known)[0]))
          continue;
        line_ = p.line;
        fail("point '" + sc_.points[p.points[i]].name + "' taps the link " + link_text(*known) +
             " on an earlier path but " + link_text(ends) + " on this one: name the switch that joins them "
             "(switch NAME MAC) on both paths");
      }
  }

  std::string link_text(const std::array<NodeRef, 2>& ends) const {
    return sc_.node_name(ends[0]) + " - " + sc_.node_name(ends[1]);
  }

  // PFC and LLDP are link-local: the device must sit at an end of the link the point taps.
  void check_end(size_t pt, NodeRef device, int line) {
    const auto& ends = *link_[pt];
    if (device == ends[0] || device == ends[1]) return;
    line_ = line;
    fail("'" + sc_.node_name(device) + "' is not at an end of the link point '" + sc_.points[pt].name + "' taps (" +
         link_text(ends) + "): a link-local frame comes from one of them");
  }

  // Frames name their link's ends by MAC, and the analyser tells PFC
  // directions apart by them: no two switches, and no switch and host, share one.
  void check_macs() {
    for (size_t i = 0; i < sc_.switches.size(); ++i) {
      const Switch& w = sc_.switches[i];
      line_ = w.line;
      for (const auto& h : sc_.hosts)
        if (h.mac == w.mac || h.mac == w.port_mac)
          fail("switch '" + w.name + "' has the MAC of host '" + h.name + "'");
      for (size_t j = 0; j < i; ++j) {
        const Switch& o = sc_.switches[j];
        if (o.mac == w.mac || o.mac == w.port_mac || o.port_mac == w.mac || (o.port_mac && o.port_mac == w.port_mac))
          fail("switches '" + o.name + "' and '" + w.name + "' share a MAC");
      }
    }
  }

  // What only makes sense once every point is known: ERSPAN sessions,
  // collectors, clocks that show, queue bursts that do not overlap.
  void check_multipoint() {
    std::map<std::pair<size_t, uint16_t>, size_t> sessions;  // (interface, session) -> point
    std::vector<bool> fed(sc_.points.size(), false);
    for (size_t i = 0; i < sc_.points.size(); ++i) {
      const Point& p = sc_.points[i];
      if (!p.erspan) continue;
      line_ = p.erspan->line;
      const size_t in = sc_.interface_of(i);
      fed[in] = true;
      auto [it, fresh] = sessions.try_emplace({in, p.erspan->session}, i);
      if (!fresh)
        fail("points '" + sc_.points[it->second].name + "' and '" + p.name + "' both send session " +
             std::to_string(p.erspan->session) + " to '" + sc_.points[in].name + "': only the session tells them apart");
      if (in != i && p.snaplen) fail("point '" + p.name + "' is recorded at collector '" + sc_.points[in].name +
                                     "': give the snaplen to the collector");
      if (in != i && p.clock && p.erspan->type == 2)
        fail("the clock of point '" + p.name + "' shows nowhere: its frames go to collector '" + sc_.points[in].name +
             "' (whose clock stamps them), and ERSPAN type II carries no timestamp");
    }
    for (size_t i = 0; i < sc_.points.size(); ++i)
      if (sc_.points[i].collector && !fed[i]) {
        line_ = 0;
        fail("collector '" + sc_.points[i].name + "' receives no erspan session");
      }
    for (const auto& d : sc_.pfcs) link_local_at(d.point, d.line);
    for (const auto& d : sc_.lldps) link_local_at(d.point, d.line);
    for (size_t i = 0; i < sc_.queues.size(); ++i)
      for (size_t j = 0; j < i; ++j) {
        const QueueBurst &a = sc_.queues[j], &b = sc_.queues[i];
        const bool same_way = !a.dir || !b.dir || *a.dir == *b.dir;
        if (a.point == b.point && same_way && a.at < b.end() && b.at < a.end()) {
          line_ = b.line;
          fail("this queue burst overlaps the one on line " + std::to_string(a.line) +
               " (a burst lasts at + for + its delay, while the queue drains)");
        }
      }
    // One model per queue: a best-effort flow does not share its point and
    // direction with a queue burst or another flow at the same time. It
    // holds the queue from `at` until its last packet has crossed the segment.
    for (size_t i = 0; i < sc_.besteffort.size(); ++i) {
      const BestEffort& b = sc_.besteffort[i];
      const Ns end = b.at + b.length + Route{&sc_.paths[b.path], b.forward}.latency(b.hop);
      for (const QueueBurst& q : sc_.queues) {
        if (q.point != b.point || (q.dir && *q.dir != b.dir) || q.at >= end || b.at >= q.end()) continue;
        line_ = std::max(q.line, b.line);
        fail("the besteffort flow on line " + std::to_string(b.line) + " and the queue burst on line " +
             std::to_string(q.line) + " share the queue feeding '" + sc_.points[b.point].name +
             "' at the same time: one model per queue");
      }
      for (size_t j = 0; j < i; ++j) {
        const BestEffort& o = sc_.besteffort[j];
        const Ns o_end = o.at + o.length + Route{&sc_.paths[o.path], o.forward}.latency(o.hop);
        if (o.point != b.point || o.dir != b.dir || o.at >= end || b.at >= o_end) continue;
        line_ = b.line;
        fail("this besteffort flow shares the queue feeding '" + sc_.points[b.point].name +
             "' with the one on line " + std::to_string(o.line) + " at the same time: one flow per queue");
      }
    }
    Ns earliest = 0;
    for (size_t i = 0; i < sc_.points.size(); ++i) earliest = std::min(earliest, sc_.shift_of(i));
    if (sc_.epoch_s * 1'000'000'000 + earliest < 0) {
      line_ = 0;
      fail("a negative clock offset puts timestamps before 1970: raise the epoch");
    }
  }

  // A mirror session copies the traffic, not the link-local frames the port consumes.
  void link_local_at(size_t pt, int line) {
    if (!sc_.points[pt].erspan) return;
    line_ = line;
    fail("point '" + sc_.points[pt].name + "' is mirrored by ERSPAN, which does not copy PFC or LLDP frames");
  }

  bool runs_after(size_t later, size_t earlier) const {
    for (auto a = sc_.qps[later].after; a; a = sc_.qps[*a].after)
      if (*a == earlier) return true;
    return false;
  }

  std::string file_;
  int line_ = 0;
  Scenario sc_;
  std::vector<std::string_view> words_;
  std::vector<Option> opts_;
  std::set<size_t> explicit_psn_;
  std::map<std::pair<size_t, size_t>, size_t> implicit_;   // (point, point) -> its implicit switch
  std::vector<std::optional<std::array<NodeRef, 2>>> link_;  // [point]: the ends of the link it taps
};

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& file) { return Parser(file).run(text); }

Scenario load_scenario(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path, 0, "cannot read the scenario file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_scenario(ss.str(), path);
}

}  // namespace roceshark::gen
