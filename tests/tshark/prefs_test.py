# SPDX-License-Identifier: GPL-2.0-or-later
"""Bad preference values get a clear message through Wireshark's preference
error path, never a crash or a silent default; good ones take effect, also
next to a bad one; a reached flow limit shows in every report. The
choices (enum preferences) accept the same words in the plugin and in the
roceshark command."""
import json
import os
import re
import subprocess

import rslib

CAPTURE = rslib.capture_path("clean")

BAD = [
    ("roce.dscp_priority_map:26:9", "roce.dscp_priority_map"),
    ("roce.dscp_priority_map:64:3", "roce.dscp_priority_map"),
    ("roce.dscp_priority_map:garbage", "roce.dscp_priority_map"),
    ("roce.lossless_priorities:9", "roce.lossless_priorities"),
    ("roce.lossless_priorities:", "roce.lossless_priorities"),
    ("roce.cnp_dscp:99", "roce.cnp_dscp"),
    ("roce.cnp_priority:8", "roce.cnp_priority"),
    ("roce.point_link_gbps:nic-a", "roce.point_link_gbps"),
    ("roce.link_gbps:0", "roce.link_gbps"),
    ("roce.trust:sideways", "roce.trust"),
    ("roce.policy_mode:auto", "roce.policy_mode"),
    ("roce.clock:maybe", "roce.clock"),
    ("roce.point_key:mac", "roce.point_key"),
    ("roce.point_names:leaf-1", "roce.point_names"),
    ("roce.match_window_us:0", "roce.match_window_us"),
    ("roce.health_loss_pct:abc", "roce.health_loss_pct"),
    ("roce.health_stall_pct:5,1", "roce.health_stall_pct"),
    ("roce.health_pfc_per_s:100", "roce.health_pfc_per_s"),
    # Numbers: finite, in range, no overflow.
    ("roce.point_link_gbps:nic-a:nan", "roce.point_link_gbps"),
    ("roce.point_link_gbps:nic-a:inf", "roce.point_link_gbps"),
    ("roce.point_link_gbps:nic-a:1e-300", "roce.point_link_gbps"),
    ("roce.point_link_gbps:nic-a:99999999999999", "roce.point_link_gbps"),
    ("roce.link_gbps:5000", "roce.link_gbps"),
    ("roce.lossless_priorities:4294967295", "roce.lossless_priorities"),
    ("roce.dscp_priority_map:99999999999999999999:3", "roce.dscp_priority_map"),
    ("roce.health_ce_pct:nan,1", "roce.health_ce_pct"),
    ("roce.health_loss_pct:1,inf", "roce.health_loss_pct"),
    ("roce.health_paused_pct:50,200", "roce.health_paused_pct"),
    # Lists: no duplicates, no empty entries.
    ("roce.dscp_priority_map:26:3,,48:6", "roce.dscp_priority_map"),
    ("roce.dscp_priority_map:26:3,", "roce.dscp_priority_map"),
    ("roce.lossless_priorities:3,3", "roce.lossless_priorities"),
    ("roce.path_order:nic-a,leaf-1,nic-a", "roce.path_order"),
    ("roce.path_order:nic-a,,nic-b", "roce.path_order"),
    # Names are printable text: no escape sequence reaches a terminal through them.
    ("roce.path_order:nic-a,\x1b[31mleaf-1", "roce.path_order"),
    ("roce.point_names:5=a\x07b", "roce.point_names"),
    ("roce.point_names:5=a,5=b", "roce.point_names"),
    ("roce.point_names:5=a,", "roce.point_names"),
    ("roce.point_link_gbps:nic-a:25,nic-a:100", "roce.point_link_gbps"),
    # Windows: 0 means nothing.
    ("roce.timeout_us:0", "roce.timeout_us"),
    ("roce.duplicate_window_us:0", "roce.duplicate_window_us"),
    ("roce.reorder_window_us:0", "roce.reorder_window_us"),
    ("roce.storm_ms:0", "roce.storm_ms"),
    ("roce.storm_gap_us:0", "roce.storm_gap_us"),
    ("roce.ecn_window_us:0", "roce.ecn_window_us"),
    ("roce.propagation_window_us:0", "roce.propagation_window_us"),
    ("roce.microburst_us:0", "roce.microburst_us"),
    # Limits: at least one flow.
    ("roce.max_flows:0", "roce.max_flows"),
]


def run_with(option, *extra, stats=("-z", "roce,qos")):
    cmd = [rslib.RS_TSHARK, "--build", rslib.BUILD, "-n", "-q", "-o", option, *extra, "-r", CAPTURE, *stats]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def errors(p):
    return [line for line in p.stderr.splitlines() if "RoCE preference error" in line]


def report(p):
    """The JSON report in tshark's stdout."""
    at = p.stdout.index("{")
    return json.JSONDecoder().raw_decode(p.stdout, at)[0]


def check_independent():
    """A bad value next to good ones: the good ones apply, the bad one is named once."""
    whole = run_with("roce.link_gbps:100", stats=("-z", "roce,report"))
    flows = len(report(whole)["qps"])
    if flows < 2:
        raise rslib.Failure(f"{CAPTURE} needs two flows or more for this test, has {flows}")
    p = run_with("roce.max_flows:1", "-o", "roce.link_gbps:0", stats=("-z", "roce,report", "-z", "roce,triage"))
    errs = errors(p)
    if len(errs) != 1 or "roce.link_gbps" not in errs[0] or "'0'" not in errs[0] or "1-1600" not in errs[0]:
        raise rslib.Failure(f"max_flows:1 + link_gbps:0: expected one error naming roce.link_gbps, its value and "
                            f"range:\n{p.stderr}")
    doc = report(p)
    if len(doc["qps"]) != 1:
        raise rslib.Failure(f"roce.max_flows:1 next to a bad roce.link_gbps was not applied: {len(doc['qps'])} QPs")
    # The limit is visible: JSON, triage text, health verdict.
    limits = doc["limits"]
    if len(limits) != 1 or limits[0]["name"] != "max_flows" or limits[0]["value"] != 1 \
            or limits[0]["packets_beyond"] <= 0:
        raise rslib.Failure(f"the reached flow limit is not in the JSON limits: {limits}")
    if doc["triage"]["health"]["verdict"] != "INCOMPLETE":
        raise rslib.Failure(f"health verdict with a reached limit: {doc['triage']['health']['verdict']}")
    if "Overall: INCOMPLETE" not in p.stdout or not re.search(r"Limit: +roce\.max_flows \(1\) was reached", p.stdout):
        raise rslib.Failure(f"the triage text does not say the limit was reached:\n{p.stdout}")
    if "Health: PASS" in p.stdout:
        raise rslib.Failure("the triage says PASS although part of the capture was not analysed")
    if report(whole)["limits"] != [] or report(whole)["triage"]["health"]["verdict"] == "INCOMPLETE":
        raise rslib.Failure("a capture within the limits reports a limit")
    # Several bad values: each reported once, every good one still applied.
    p = run_with("roce.link_gbps:0", "-o", "roce.cnp_dscp:99", "-o", "roce.lossless_priorities:0,3")
    names = sorted(re.search(r"(roce\.\w+)", e).group(1) for e in errors(p))
    if names != ["roce.cnp_dscp", "roce.link_gbps"] or "Lossless priorities: 0,3" not in p.stdout:
        raise rslib.Failure(f"two bad values and a good one: errors {names}\n{p.stdout}")


COMMAND = os.path.join(rslib.BUILD, "roceshark")
# The enum preferences and their words (README "Preferences").
CHOICES = {
    "trust": ["dscp", "pcp"],
    "policy_mode": ["configured", "learned"],
    "clock": ["synced", "estimate"],
    "point_key": ["interface", "erspan", "vlan"],
}


def check_choices():
    """Each choice's words, in other cases, with a leading space, and words it
    does not know: the plugin (Wireshark's enum, which keeps its value on an
    unknown word, checked by the engine's rule) and the command take or refuse
    each alike, and a word taken is the one in force (the QoS view's trust and
    mode lines)."""
    for name, words in CHOICES.items():
        tries = [*words, *(w.upper() for w in words), words[-1].capitalize(), " " + words[-1],
                 "sideways", words[0] + "s", words[0][:-1]]
        for word in tries:
            option = f"roce.{name}:{word}"
            plugin = run_with(option)
            plugin_ok = not errors(plugin)
            command = subprocess.run([COMMAND, "-o", option, "qos", CAPTURE], capture_output=True, text=True,
                                     timeout=120)
            command_ok = command.returncode == 0
            if plugin_ok != command_ok:
                raise rslib.Failure(f"-o {option}: the plugin {'takes' if plugin_ok else 'refuses'} it, the "
                                    f"command {'takes' if command_ok else 'refuses'} it:\n{plugin.stderr}"
                                    f"{command.stderr}")
            taken = word.strip().lower() in words
            if plugin_ok != taken:
                raise rslib.Failure(f"-o {option}: {'refused' if taken else 'taken'} by both")
            if name in ("trust", "policy_mode") and taken:
                shown = {"trust": f"Trust: {word.strip().lower()}", "policy_mode": "Policy in force (learned"
                         if word.strip().lower() == "learned" else "Policy in force (configured"}[name]
                for who, out in (("plugin", plugin.stdout), ("command", command.stdout)):
                    if shown not in out:
                        raise rslib.Failure(f"-o {option}: the {who}'s QoS view lacks {shown!r}:\n{out}")


def run(argv):
    for option, name in BAD:
        p = run_with(option)
        if p.returncode < 0 or any(m in p.stderr for m in rslib.BAD_STDERR):
            raise rslib.Failure(f"-o {option} crashed tshark:\n{p.stderr}")
        errs = errors(p)
        if len(errs) != 1 or name + ":" not in errs[0]:
            raise rslib.Failure(f"-o {option}: not one clear error naming {name} on stderr:\n{p.stderr}")
        # The previous (default) policy stays in force.
        if "Lossless priorities: 3" not in p.stdout:
            raise rslib.Failure(f"-o {option}: the default policy did not stay in force:\n{p.stdout}")
    good = run_with("roce.lossless_priorities:0,3")
    if good.returncode or "RoCE preference error" in good.stderr or "Lossless priorities: 0,3" not in good.stdout:
        raise rslib.Failure(f"a good value was not applied:\n{good.stderr}\n{good.stdout}")
    learned = run_with("roce.policy_mode:learned")
    if learned.returncode or "Policy in force (learned" not in learned.stdout:
        raise rslib.Failure(f"learned mode was not applied:\n{learned.stderr}\n{learned.stdout}")
    for option in ("roce.point_link_gbps: nic-a : 25 ,leaf-1:400.5", "roce.path_order: nic-a , leaf-1",
                   "roce.health_ce_pct:1,1", "roce.max_flows:1"):
        p = run_with(option)
        if p.returncode or errors(p):
            raise rslib.Failure(f"-o {option} is valid but was rejected:\n{p.stderr}")
    check_independent()
    check_choices()


if __name__ == "__main__":
    rslib.main(run)
