# SPDX-License-Identifier: GPL-2.0-or-later
"""MAC names in tshark: a personal ethers file naming the leaf's port MAC
that sends PFC in pfc_port_mac makes the triage, -z roce,pfc, the expert
infos and the JSON report show `leaf3-eth1/12` with the MAC, while filters
and finding ids keep the bare MAC; with -n the output is the golden's, byte
for byte (docs/command.md, "MAC names")."""
import json
import os
import tempfile

import jsonschema

import rslib

CAPTURE = rslib.capture_path("pfc_port_mac")
MAC, NAME = "02:00:00:01:10:01", "leaf3-eth1/12"
LABEL = f"{NAME} ({MAC})"


def golden(kind):
    with open(os.path.join(rslib.GOLDEN, f"pfc_port_mac.{kind}")) as f:
        return f.read()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        ethers = os.path.join(tmp, "ethers")
        with open(ethers, "w") as f:
            # Wireshark's format: '-' separators, tabs, a comment, an
            # earlier line of garbage. No second line for the MAC: 4.0 and
            # 4.4 keep the first, 4.6 the last (docs/command.md).
            f.write("# switch ports\nnot-a-mac leaf9\n02-00-00-01-10-01\tleaf3-eth1/12   # leaf3, port 1/12\n")
        named = lambda *a: rslib.tshark("--ethers", ethers, *a)  # noqa: E731

        triage = named("-q", "-r", CAPTURE, "-z", "roce,triage")
        for want in (f"Where:    point tor-1, MAC {LABEL}, priority 3", f"2 pauses from {NAME} ({MAC})",
                     f"queue on the switch port towards {NAME}", f"eth.src == {MAC} &&"):
            if want not in triage:
                raise rslib.Failure(f"triage with an ethers file lacks {want!r}:\n{triage}")
        pfc = named("-q", "-r", CAPTURE, "-z", "roce,pfc")
        if f"tor-1  {LABEL}     3" not in pfc:
            raise rslib.Failure(f"-z roce,pfc does not name the pausing MAC:\n{pfc}")
        expert = named("-q", "-r", CAPTURE, "-z", "expert")
        if f"at tor-1 from {LABEL} with no ECN-CE" not in expert:
            raise rslib.Failure(f"the expert info does not name the MAC:\n{expert}")

        report = json.loads(named("-q", "-r", CAPTURE, "-z", "roce,report"))
        with open(os.path.join(rslib.ROOT, "docs", "report-schema.json")) as f:
            jsonschema.validate(report, json.load(f))
        pause = report["pfc"]["pauses"][0]
        if (pause["pausing_mac"], pause.get("pausing_mac_name")) != (MAC, NAME):
            raise rslib.Failure(f"report pause row {pause}")
        finding = report["triage"]["findings"][0]
        if (finding["location"]["mac"], finding["location"].get("mac_name")) != (MAC, NAME) or \
                finding["id"] != f"ecn_above_xoff|tor-1|{MAC}|3":
            raise rslib.Failure(f"report finding {finding['id']} {finding['location']}")

        # -n: no names, the goldens' output exactly.
        for z, kind in (("roce,triage", "triage.txt"), ("roce,pfc", "pfc.txt")):
            got = named("-n", "-q", "-r", CAPTURE, "-z", z)
            if got != golden(kind):
                raise rslib.Failure(f"-n -z {z} with an ethers file differs from the golden")
        plain = json.loads(named("-n", "-q", "-r", CAPTURE, "-z", "roce,report"))
        if plain != json.loads(golden("report.json")):
            raise rslib.Failure("-n -z roce,report with an ethers file differs from the golden")
    # No ethers file, default resolution: 02:... is locally administered, no
    # vendor names it: the golden's text.
    if rslib.tshark("-q", "-r", CAPTURE, "-z", "roce,triage") != golden("triage.txt"):
        raise rslib.Failure("the triage without an ethers file differs from the golden")
    print("OK")


if __name__ == "__main__":
    main()
