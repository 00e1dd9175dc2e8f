#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The shipped monitoring assets agree with monitoring/metrics.txt.

    check_metrics.py [--promtool PATH]

- metrics.txt itself: one `name type labels help` line a metric, Prometheus
  naming (roceshark_ prefix, _total on counters and only there);
- monitoring/roceshark-alerts.yml and monitoring/grafana-dashboard.json use
  only those metrics, with their labels, rate() and increase() only on
  counters, a check="..." only of the check catalogue
  (epan-ext/common/checks.h);
- every alert has a severity (critical or warning), a summary and a
  description, and a firing and a quiet case in roceshark-alerts_test.yml;
- the dashboard is JSON, takes its data source from ${DS_PROMETHEUS}, and
  with --promtool every query parses (as recording rules under
  `promtool check rules`);
- docs/monitoring.md names every metric and every alert, and no metric
  that is not in the list.

Exits 0 when all hold, 1 with one line a problem otherwise.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MON = os.path.join(ROOT, "monitoring")
TYPES = ("counter", "gauge", "histogram")
# Labels every scraped series may have besides its own.
SCRAPE_LABELS = {"job", "instance"}
# Series that Prometheus makes itself.
PROMETHEUS_SERIES = {"up": set()}
KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring",
            "group_left", "group_right", "inf", "nan", "atan2"}
GROUPING = {"by", "without", "on", "ignoring", "group_left", "group_right"}
COUNTER_FUNCTIONS = {"rate", "irate", "increase", "resets"}
AGGREGATIONS = {"sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values",
                "bottomk", "topk", "quantile"}

problems = []


def problem(where, text):
    problems.append(f"{where}: {text}")


def read_metrics(path):
    metrics = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 3)
            where = f"metrics.txt:{n}"
            if len(parts) < 4:
                problem(where, "want NAME TYPE LABELS HELP")
                continue
            name, kind, labels, help_text = parts
            if not re.fullmatch(r"roceshark_[a-z0-9_]+", name):
                problem(where, f"{name}: not roceshark_ and lower-case snake case")
            if kind not in TYPES:
                problem(where, f"{name}: type {kind} is none of {', '.join(TYPES)}")
            if (kind == "counter") != name.endswith("_total"):
                problem(where, f"{name}: _total goes on counters, and only on them")
            names = [] if labels == "-" else labels.split(",")
            for label in names:
                if not re.fullmatch(r"[a-z][a-z0-9_]*", label) or label in SCRAPE_LABELS | {"le"}:
                    problem(where, f"{name}: bad label {label!r}")
            if name in metrics:
                problem(where, f"{name} listed twice")
            metrics[name] = (kind, set(names), help_text)
    return metrics


def catalogue_checks():
    """The finding kinds of the check catalogue: its rows open with {"id","""
    text = open(os.path.join(ROOT, "epan-ext", "common", "checks.h"), encoding="utf-8").read()
    table = text.split("kCatalogue[] = {", 1)[-1]
    return set(re.findall(r'^    \{"([a-z0-9_]+)",$', table, re.M))


TOKEN = re.compile(r"""
    (?P<space>\s+|\#[^\n]*)
  | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)
  | (?P<range>\[[^\]]*\])
  | (?P<var>\$\{[^}]*\}|\$\w+|\[\[\w+\]\])
  | (?P<duration>\d+(?:ms|[smhdwy])(?:\d+(?:ms|[smhdwy]))*\b)
  | (?P<number>0x[0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<ident>[a-zA-Z_:][a-zA-Z0-9_:]*)
  | (?P<op>=~|!~|!=|==|>=|<=|[-+*/%^<>=(){},])
""", re.X)


def tokens(expr):
    pos = 0
    out = []
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m:
            raise ValueError(f"cannot read {expr[pos:pos + 20]!r}")
        pos = m.end()
        if m.lastgroup != "space":
            out.append((m.lastgroup, m.group()))
    return out


def references(expr):
    """(metric, {label: [values]}, function applied directly) of each selector;
    and the labels named in by/without/on/ignoring/group_*."""
    toks = tokens(expr)
    selectors, grouping = [], set()
    i = 0

    def matchers(j):
        # toks[j] is "{": label op "value" pairs up to "}"
        found = {}
        j += 1
        while toks[j][1] != "}":
            if toks[j][1] == ",":
                j += 1
                continue
            label, value = toks[j][1], toks[j + 2][1]  # label, operator, "value"
            found.setdefault(label, []).append(value[1:-1])
            j += 3
        return found, j + 1

    while i < len(toks):
        kind, text = toks[i]
        nxt = toks[i + 1][1] if i + 1 < len(toks) else None
        if kind == "ident" and text in GROUPING and nxt == "(":
            j = i + 2
            while toks[j][1] != ")":
                if toks[j][0] == "ident":
                    grouping.add(toks[j][1])
                j += 1
            i = j + 1
            continue
        if kind == "ident" and (nxt == "(" or text.lower() in KEYWORDS
                                or (text in AGGREGATIONS and nxt in ("by", "without"))):
            i += 1
            continue
        if kind == "ident" or (kind == "op" and text == "{"):
            outer = toks[i - 2][1] if i >= 2 and toks[i - 1][1] == "(" else None
            name, labels = (text, {}) if kind == "ident" else (None, {})
            j = i + 1 if kind == "ident" else i
            if j < len(toks) and toks[j][1] == "{":
                labels, j = matchers(j)
            if name is None:
                name = (labels.pop("__name__", [None]) or [None])[0]
            selectors.append((name, labels, outer))
            i = j
            continue
        i += 1
    return selectors, grouping


def check_expr(where, expr, metrics, checks, all_labels):
    try:
        selectors, grouping = references(expr)
    except (ValueError, IndexError) as e:
        problem(where, f"cannot read the query: {e}")
        return
    if not selectors:
        problem(where, "the query names no metric")
    for name, labels, outer in selectors:
        if name is None:
            problem(where, "a selector without a metric name")
            continue
        own = None
        kind = None
        if name in metrics:
            kind, own, _ = metrics[name]
            if kind == "histogram":
                problem(where, f"{name} is a histogram: select {name}_bucket, _sum or _count")
                continue
        elif name in PROMETHEUS_SERIES:
            kind, own = "gauge", PROMETHEUS_SERIES[name]
        else:
            for suffix in ("_bucket", "_sum", "_count"):
                base = name[: -len(suffix)]
                if name.endswith(suffix) and metrics.get(base, ("",))[0] == "histogram":
                    kind = "counter"
                    own = metrics[base][1] | ({"le"} if suffix == "_bucket" else set())
        if own is None:
            problem(where, f"{name} is not in monitoring/metrics.txt")
            continue
        for label, values in labels.items():
            if label not in own | SCRAPE_LABELS:
                problem(where, f"{name} has no label {label!r}")
            if label == "check":
                for value in values:
                    if value not in checks and not value.startswith("$"):
                        problem(where, f"check={value!r} is not in the check catalogue")
        if outer in COUNTER_FUNCTIONS and kind != "counter":
            problem(where, f"{outer}() of {name}, a {kind}")
    for label in grouping - all_labels:
        problem(where, f"groups by {label!r}, which no metric has")


def check_rules(metrics, checks, all_labels):
    path = os.path.join(MON, "roceshark-alerts.yml")
    doc = yaml.safe_load(open(path, encoding="utf-8"))
    alerts = []
    for group in doc["groups"]:
        for rule in group["rules"]:
            name = rule.get("alert") or rule.get("record")
            where = f"roceshark-alerts.yml {name}"
            check_expr(where, rule["expr"], metrics, checks, all_labels)
            if "alert" not in rule:
                continue
            alerts.append(name)
            if rule.get("labels", {}).get("severity") not in ("critical", "warning"):
                problem(where, "severity is not critical or warning")
            for key in ("summary", "description"):
                if not rule.get("annotations", {}).get(key):
                    problem(where, f"no {key} annotation")
    tests = yaml.safe_load(open(os.path.join(MON, "roceshark-alerts_test.yml"), encoding="utf-8"))
    fires, quiet = set(), set()
    for test in tests["tests"]:
        for case in test.get("alert_rule_test", []):
            (fires if case.get("exp_alerts") else quiet).add(case["alertname"])
    for name in alerts:
        if name not in fires:
            problem("roceshark-alerts_test.yml", f"no case where {name} fires")
        if name not in quiet:
            problem("roceshark-alerts_test.yml", f"no case where {name} stays quiet")
    return alerts


def queries(dash):
    """(place, query) of every panel's target and every query variable."""
    def panels(items):
        for panel in items:
            yield panel
            yield from panels(panel.get("panels", []))
    for panel in panels(dash.get("panels", [])):
        for target in panel.get("targets", []):
            if "expr" in target:
                yield f"panel {panel.get('title')!r} query {target.get('refId')}", target["expr"]
    for var in dash.get("templating", {}).get("list", []):
        if var.get("type") != "query":
            continue
        query = var.get("definition", "")
        m = re.fullmatch(r"\s*label_values\((.*),\s*\w+\)\s*", query, re.S)
        if m:
            yield f"variable {var['name']!r}", m.group(1)
        elif not re.fullmatch(r"\s*label_values\(\w+\)\s*", query):
            yield f"variable {var['name']!r}", query


GRAFANA_VARIABLES = {"__rate_interval": "1m", "__interval": "15s", "__range": "1h"}


def substitute(expr):
    """A Grafana query as Prometheus gets it: time variables become
    durations, the others match anything."""
    def one(m):
        name = m.group(1) or m.group(2) or m.group(3)
        return GRAFANA_VARIABLES.get(name, ".*")
    return re.sub(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)|\[\[(\w+)\]\]", one, expr)


def check_dashboard(metrics, checks, all_labels, promtool):
    path = os.path.join(MON, "grafana-dashboard.json")
    try:
        dash = json.load(open(path, encoding="utf-8"))
    except ValueError as e:
        problem("grafana-dashboard.json", f"not JSON: {e}")
        return
    variables = {v["name"]: v for v in dash.get("templating", {}).get("list", [])}
    ds = variables.get("DS_PROMETHEUS")
    if not ds or ds.get("type") != "datasource" or ds.get("query") != "prometheus":
        problem("grafana-dashboard.json", "no DS_PROMETHEUS data source variable")
    for name in ("point", "priority"):
        if name not in variables:
            problem("grafana-dashboard.json", f"no template variable {name!r}")
    found = list(queries(dash))
    if not found:
        problem("grafana-dashboard.json", "no queries")
    for where, expr in found:
        check_expr(f"grafana-dashboard.json {where}", expr, metrics, checks, all_labels)

    def sources(node):
        if isinstance(node, dict):
            if "datasource" in node and isinstance(node["datasource"], dict) \
                    and node["datasource"].get("type") == "prometheus":
                yield node["datasource"].get("uid")
            for value in node.values():
                yield from sources(value)
        elif isinstance(node, list):
            for item in node:
                yield from sources(item)
    for uid in set(sources(dash)) - {"${DS_PROMETHEUS}"}:
        problem("grafana-dashboard.json", f"a Prometheus data source {uid!r}, not ${{DS_PROMETHEUS}}")

    if promtool:
        # promtool parses PromQL in rule files: each query as a recording rule.
        rules = [{"record": f"dashboard:query_{n}", "expr": substitute(expr)}
                 for n, (_, expr) in enumerate(found)]
        with tempfile.NamedTemporaryFile("w", suffix=".yml", delete=False) as f:
            yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}, f)
        try:
            run = subprocess.run([promtool, "check", "rules", f.name], capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        if run.returncode != 0:
            lines = (run.stdout + run.stderr).splitlines()
            named = [(re.search(r"dashboard:query_(\d+)", line), line) for line in lines]
            for m, line in [(m, line) for m, line in named if m] or [(None, line) for line in lines]:
                place = found[int(m.group(1))][0] + ": " if m else ""
                problem("grafana-dashboard.json", f"{place}promtool: {line.split(': ', 1)[-1].strip()}")
    return len(found)


def check_docs(metrics, alerts):
    path = os.path.join(ROOT, "docs", "monitoring.md")
    if not os.path.exists(path):
        problem("docs/monitoring.md", "missing")
        return
    text = open(path, encoding="utf-8").read()
    table = set(re.findall(r"^\| `(roceshark_[a-z0-9_]+)`", text, re.M))
    for name in metrics:
        if name not in table:
            problem("docs/monitoring.md", f"no row for {name} in the metric table")
    for name, wildcard in sorted(set(re.findall(r"\b(roceshark_[a-z0-9_]+)(\*?)", text))):
        if wildcard:
            continue
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        if name not in metrics and base not in metrics:
            problem("docs/monitoring.md", f"names {name}, which is not in monitoring/metrics.txt")
    for name in alerts:
        if name not in text:
            problem("docs/monitoring.md", f"does not describe the alert {name}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--promtool", help="also parse the dashboard's queries with this promtool")
    args = ap.parse_args()
    metrics = read_metrics(os.path.join(MON, "metrics.txt"))
    checks = catalogue_checks()
    all_labels = set().union(*(m[1] for m in metrics.values())) | SCRAPE_LABELS | {"le"}
    alerts = check_rules(metrics, checks, all_labels)
    n = check_dashboard(metrics, checks, all_labels, args.promtool)
    check_docs(metrics, alerts)
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} problem(s)")
        return 1
    print(f"{len(metrics)} metrics; {len(alerts)} alerts and {n} dashboard queries use only them; docs name them all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
