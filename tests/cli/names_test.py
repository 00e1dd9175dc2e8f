# SPDX-License-Identifier: GPL-2.0-or-later
"""MAC names in the command (docs/command.md, "MAC names"): the personal
ethers file Wireshark would read (XDG_CONFIG_HOME, ~/.config, the older
~/.wireshark, WIRESHARK_CONFIG_DIR) names the leaf port MAC that sends PFC
in pfc_port_mac, and the triage, pfc view and JSON report show the name as
tshark does with the same file; -n gives the bare MACs, byte for byte the
goldens'; a hostile ethers file (garbage, huge lines, a FIFO) changes
nothing and never hangs."""
import json
import os
import subprocess
import tempfile

import cli
import rslib

CAPTURE = rslib.capture_path("pfc_port_mac")
MAC, NAME = "02:00:00:01:10:01", "leaf3-eth1/12"
ETHERS = f"# switch ports\n02.00.00.01.10.01 {NAME}\t# leaf3, port 1/12\n"


def run(home, *args, **env):
    e = {k: v for k, v in cli.ENV.items() if k not in ("XDG_CONFIG_HOME", "WIRESHARK_CONFIG_DIR")}
    e.update(HOME=home, **env)
    p = subprocess.run([cli.COMMAND, *args], capture_output=True, text=True, env=e, timeout=120)
    if p.returncode != 0:
        raise rslib.Failure(f"roceshark {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return p.stdout


def golden(kind):
    with open(os.path.join(rslib.GOLDEN, f"pfc_port_mac.{kind}")) as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home")
        write(os.path.join(home, ".config", "wireshark", "ethers"), ETHERS)
        triage = run(home, "triage", CAPTURE)
        if f"MAC {NAME} ({MAC})" not in triage or f"eth.src == {MAC} &&" not in triage:
            raise rslib.Failure(f"the command's triage does not name {MAC}:\n{triage}")
        # The same as tshark with the same ethers file.
        ethers = os.path.join(home, ".config", "wireshark", "ethers")
        for view in ("triage", "pfc", "report"):
            cli.same(f"{view} with names", run(home, view, CAPTURE),
                     rslib.tshark("--ethers", ethers, "-q", "-r", CAPTURE, "-z", f"roce,{view}"))
        report = json.loads(run(home, "report", CAPTURE))
        if report["pfc"]["pauses"][0].get("pausing_mac_name") != NAME:
            raise rslib.Failure(f"report: {report['pfc']['pauses'][0]}")
        # -n: the goldens (tshark -n), byte for byte.
        for view, kind in (("triage", "triage.txt"), ("pfc", "pfc.txt")):
            cli.same(f"-n {view}", run(home, "-n", view, CAPTURE), golden(kind))
        if json.loads(run(home, "report", "-n", CAPTURE)) != json.loads(golden("report.json")):
            raise rslib.Failure("-n report differs from the golden")

        # Where Wireshark looks: XDG_CONFIG_HOME, the older ~/.wireshark when
        # only it exists, WIRESHARK_CONFIG_DIR.
        xdg = os.path.join(tmp, "xdg")
        write(os.path.join(xdg, "wireshark", "ethers"), f"{MAC} xdg-name\n")
        if "MAC xdg-name (" not in run(home, "triage", CAPTURE, XDG_CONFIG_HOME=xdg):
            raise rslib.Failure("$XDG_CONFIG_HOME/wireshark/ethers not read")
        old = os.path.join(tmp, "old")
        write(os.path.join(old, ".wireshark", "ethers"), f"{MAC} old-name\n")
        if "MAC old-name (" not in run(old, "triage", CAPTURE):
            raise rslib.Failure("~/.wireshark/ethers not read when ~/.config/wireshark does not exist")
        conf = os.path.join(tmp, "conf")
        write(os.path.join(conf, "ethers"), f"{MAC} conf-name\n")
        if "MAC conf-name (" not in run(home, "triage", CAPTURE, WIRESHARK_CONFIG_DIR=conf):
            raise rslib.Failure("$WIRESHARK_CONFIG_DIR/ethers not read")

        # Hostile files: garbage and a 20 MB line name nothing; a FIFO is not
        # opened (it would block).
        bad = os.path.join(tmp, "bad")
        write(os.path.join(bad, ".config", "wireshark", "ethers"),
              "\x00\xff garbage\n" + "z" * (20 << 20) + "\n02:00:00:01:10 short\n02:00:00:01:10:01:02 long\n")
        cli.same("a hostile ethers file", run(bad, "triage", CAPTURE), golden("triage.txt"))
        fifo = os.path.join(tmp, "fifo")
        os.makedirs(os.path.join(fifo, ".config", "wireshark"))
        os.mkfifo(os.path.join(fifo, ".config", "wireshark", "ethers"))
        cli.same("an ethers FIFO", run(fifo, "triage", CAPTURE), golden("triage.txt"))
    print("OK")


if __name__ == "__main__":
    main()
