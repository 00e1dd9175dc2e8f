# SPDX-License-Identifier: GPL-2.0-or-later
"""Bad preference values get a clear message through Wireshark's preference
error path, never a crash or a silent default; good ones take effect."""
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
]


def run_with(option):
    cmd = [rslib.RS_TSHARK, "--build", rslib.BUILD, "-n", "-q", "-o", option, "-r", CAPTURE, "-z", "roce,qos"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def run(argv):
    for option, name in BAD:
        p = run_with(option)
        if p.returncode < 0 or any(m in p.stderr for m in rslib.BAD_STDERR):
            raise rslib.Failure(f"-o {option} crashed tshark:\n{p.stderr}")
        if "RoCE preference error" not in p.stderr or name not in p.stderr:
            raise rslib.Failure(f"-o {option}: no clear error on stderr:\n{p.stderr}")
        # The previous (default) policy stays in force.
        if "Lossless priorities: 3" not in p.stdout:
            raise rslib.Failure(f"-o {option}: the default policy did not stay in force:\n{p.stdout}")
    good = run_with("roce.lossless_priorities:0,3")
    if good.returncode or "RoCE preference error" in good.stderr or "Lossless priorities: 0,3" not in good.stdout:
        raise rslib.Failure(f"a good value was not applied:\n{good.stderr}\n{good.stdout}")
    learned = run_with("roce.policy_mode:learned")
    if learned.returncode or "Policy in force (learned" not in learned.stdout:
        raise rslib.Failure(f"learned mode was not applied:\n{learned.stderr}\n{learned.stdout}")


if __name__ == "__main__":
    rslib.main(run)
