# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/roce-plot on synthetic version-2 reports made here (no tshark):
the page is well-formed (as a whole and every <svg> block), self-contained,
escapes the report's text, has every section, draws what the numbers say,
and says so where a section has no data."""
import os
import re
import shutil
import tempfile

import synth
from synth import SVG, episode, expect, finding, hop, pause, report, section, svgs, texts, timeline_qp

TMP = tempfile.mkdtemp(prefix="roce-plot-test-")
SECTIONS = ("health", "findings", "hop-latency", "pfc-pauses", "qp-timeline")
NASTY = 'PFC storm <script>alert("x")</script> & more'


def full_report():
    hops = [hop("nic-a", "leaf-1", [(1500 + 10 * i, (i + 1) / 65) for i in range(65)]),
            hop("leaf-1", "nic-b", [(800 * 1.15 ** i, (i + 1) / 65) for i in range(65)]),
            hop("nic-b", "nowhere", [])]
    pauses = [pause("leaf-1", "02:00:00:00:00:0b", 3, [episode(50, 5000, 50, 28, storm=True), episode(6000, 6100)]),
              pause("nic-a", "02:00:00:00:00:0a", 3, [episode(200, 260), episode(7000, 7400)], dropped=3)]
    tl = [timeline_qp(0, [0, 3, 0, 0, 12] + [0] * 95, [0, 50_000, 100_000, 20_000] + [0] * 96,
                      [0, 60_000, 100_000] + [0] * 97),
          timeline_qp(1, [0] * 100, [0] * 100)]
    return report({"loss": 0.05, "stall": 4, "hop_latency": None},
                  findings=[finding("pfc_storm", "leaf-1", severity="error", share=0.42, stall_ns=4_950_000,
                                    title=NASTY, frames=(28, 29, 30, 31, 32, 33, 34)),
                            finding("dscp_remarked", "nic-a->leaf-1", rank=2, share=0.001)],
                  hops=hops, pauses=pauses, timeline_qps=tl, bins=100, bin_ns=100_000)


def plot(doc, name):
    src = synth.write(TMP, name + ".json", doc)
    out = os.path.join(TMP, name + ".html")
    rc, _, err = synth.run("roce-plot", src, "-o", out)
    expect(rc == 0, f"exit {rc}: {err}")
    with open(out, encoding="utf-8") as f:
        return f.read()


def test_well_formed_and_self_contained():
    page = plot(full_report(), "full")
    root = synth.parse_page(page)
    expect(root.tag == "{http://www.w3.org/1999/xhtml}html", f"root {root.tag}")
    for ident in SECTIONS:
        section(page, ident)
    expect(len(svgs(page)) == 3, f"{len(svgs(page))} charts, not 3")
    lower = page.lower()
    for bad in ("<script", "<link", "<img", "<iframe", "src=", "url(", "@import"):
        expect(bad not in lower, f"the page has {bad!r}")
    external = set(re.findall(r"https?://[^\"' ]+", page)) - {"http://www.w3.org/2000/svg",
                                                             "http://www.w3.org/1999/xhtml"}
    expect(not external, f"external references: {external}")
    expect(all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', page)), "only links within the page")
    expect("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more" in page, "the title is not escaped")
    expect(len(page) < 100_000, f"page of {len(page)} bytes")


def test_tables():
    page = plot(full_report(), "tables")
    health = section(page, "health")
    expect(health.count("<tr>") == 1 + len(synth.METRICS), "one row per metric")
    expect(all(f">{v}<" in health for v in ("N/A", "WARN", "PASS")), "metric verdicts")
    findings = section(page, "findings")
    rows = re.findall(r"<tr>.*?</tr>", findings, flags=re.S)[1:]
    expect(len(rows) == 2, f"{len(rows)} finding rows")
    expect(">1<" in rows[0] and "pfc_storm" in rows[0] and "42%" in rows[0], f"rank 1 row: {rows[0]}")
    expect("<td>28, 29, 30, 31, 32 <span" in rows[0], f"the first five evidence frames: {rows[0]}")
    expect("of 7" in rows[0], "evidence count")
    expect("fix pfc_storm at leaf-1" in rows[0], "the fix")
    expect("dscp_remarked" in rows[1] and "0.1%" in rows[1], f"rank 2 row: {rows[1]}")


def test_cdf_chart():
    page = plot(full_report(), "cdf")
    svg = svgs(section(page, "hop-latency"))[0]
    paths = [p for p in svg.iter(SVG + "path") if p.get("fill") == "none"]
    expect(len(paths) == 2, f"{len(paths)} CDF lines, not one per hop with samples")
    for p in paths:
        expect(len(p.get("d").split("L")) == 66, "a line has the CDF's 65 points and its start on the x axis")
    t = texts(svg)
    expect("nic-a → leaf-1 (p50 1.82 µs, p99 2.14 µs)" in t, f"legend: {t}")
    expect(any(s.startswith("leaf-1 → nic-b (p50 ") for s in t), f"legend: {t}")
    expect("latency (log scale)" in t, "0.8 µs .. 6.5 ms spans four decades: log axis")
    expect({"1 µs", "10 µs", "100 µs", "1 ms", "10 ms"} <= set(t), f"decade ticks: {t}")
    expect({"0.00", "0.50", "1.00"} <= set(t), "fraction ticks")
    # A narrow range stays linear, in µs.
    doc = report(hops=[hop("a", "b", [(2000, 0.5), (2100, 0.9), (2300, 1.0)])])
    t = texts(svgs(section(plot(doc, "linear"), "hop-latency"))[0])
    expect("latency (µs)" in t and "1.9" in t and "2.4" in t, f"linear axis around 2.0 .. 2.3 µs: {t}")


def test_pause_chart():
    page = plot(full_report(), "pauses")
    svg = svgs(section(page, "pfc-pauses"))[0]
    bars = [r for r in svg.iter(SVG + "rect") if r.find(SVG + "title") is not None]
    expect(len(bars) == 4, f"{len(bars)} episode bars, not 4")
    storms = [r for r in bars if "storm" in r.find(SVG + "title").text]
    expect(len(storms) == 1 and storms[0].get("fill") != bars[1].get("fill"), "the storm is highlighted")
    # Capture of 10 ms from x=250 to x=800: the storm from 50 µs to 5 ms.
    x, w = float(storms[0].get("x")), float(storms[0].get("width"))
    expect(abs(x - (250 + 550 * 0.005)) < 0.5 and abs(w - 550 * 0.495) < 0.5, f"storm bar at {x}, {w} wide")
    t = texts(svg)
    expect(any("leaf-1" in s and "prio 3" in s for s in t), f"row labels: {t}")
    expect("time since capture start (ms)" in t and "10" in t, f"time axis: {t}")
    expect(any("+3 ep." in s for s in t), "dropped episodes are said")


def test_qp_timeline_chart():
    page = plot(full_report(), "timeline")
    svg = svgs(section(page, "qp-timeline"))[0]
    tips = [e.find(SVG + "title").text for e in svg.iter() if e.find(SVG + "title") is not None]
    expect(sum("stalled" in s and "of the bin" in s for s in tips) == 3, "three bins with stall")
    expect(any("100% of the bin" in s for s in tips), "a fully stalled bin")
    expect(sum(s.endswith("retransmissions") for s in tips) == 2, "two bins with retransmissions")
    expect(sum("paused" in s and s.startswith("+") for s in tips) == 2, "two bins with pause")
    t = texts(svg)
    expect(any(s.startswith("#0 nic-a") for s in t) and any(s.startswith("#1 nic-a") for s in t), f"rows: {t}")
    expect("15 retx, 170 µs" in t and "0 retx, 0 ns" in t, f"row totals: {t}")


def test_empty_sections():
    page = plot(report(), "empty")
    expect(not svgs(page), "no chart without data")
    for ident, words in (("findings", "No findings"), ("hop-latency", "No hop latency"),
                         ("pfc-pauses", "No PFC pause frames"), ("qp-timeline", "No request flows")):
        expect(words in section(page, ident), f"{ident} does not say it has no data")
    xon_only = report(pauses=[pause("nic-a", "02:00:00:00:00:0a", 3, [])])
    expect("none paused" in section(plot(xon_only, "xon"), "pfc-pauses"), "PFC rows without pause time")


def test_rejected_inputs():
    v1 = report()
    v1["version"] = 1
    src = synth.write(TMP, "v1.json", v1)
    out = os.path.join(TMP, "v1.html")
    rc, _, err = synth.run("roce-plot", src, "-o", out)
    expect(rc == 2 and "version" in err and not os.path.exists(out), f"version 1: exit {rc}, {err!r}")
    rc, _, err = synth.run("roce-plot", src)
    expect(rc == 2 and "-o" in err, f"no -o: exit {rc}, {err!r}")
    rc, _, err = synth.run("roce-plot", synth.write(TMP, "ok.json", report()), "-o", os.path.join(TMP, "no", "x.html"))
    expect(rc == 2 and "cannot write" in err, f"unwritable page: exit {rc}, {err!r}")


if __name__ == "__main__":
    try:
        synth.main([test_well_formed_and_self_contained, test_tables, test_cdf_chart, test_pause_chart,
                    test_qp_timeline_chart, test_empty_sections, test_rejected_inputs])
    finally:
        shutil.rmtree(TMP, True)
