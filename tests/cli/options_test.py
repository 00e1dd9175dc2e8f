# SPDX-License-Identifier: GPL-2.0-or-later
"""The command line: roce.* preferences as -o (a bad one is an error, exit
2, naming it), usage errors (a short usage and "Try 'roceshark --help'",
"did you mean" for a view), GNU-style options (--opt=value, options after
the files, --), --help with the exit statuses, --version, an empty standard
input, and `roceshark health`, whose exit status is scripts/roce-health's
on the same capture and options."""
import json
import os
import re
import shutil
import subprocess
import tempfile

import cli
import rslib

HEALTH = os.path.join(rslib.ROOT, "scripts", "roce-health")


def health(capture, *options):
    """The exit statuses of `roceshark health` and scripts/roce-health."""
    fail_on = [o for o in options if o.startswith("--fail-on")]
    prefs = [o for o in options if not o.startswith("--fail-on")]
    fail_on = ["--fail-on", fail_on[0].split("=")[1]] if fail_on else []
    status, out, err = cli.command(*prefs, *fail_on, "health", capture)
    script = subprocess.run([HEALTH, "--build", rslib.BUILD, *fail_on, capture, *prefs], capture_output=True,
                            text=True, timeout=600)
    return status, script.returncode, out


def help_and_version():
    for flag in ("-h", "--help"):
        status, out, err = cli.command(flag)
        # The exit statuses and what each means; health's own.
        codes = re.findall(r"^  ([012])  ", out[out.find("Exit status:"):], re.M)
        if status or err or codes != ["0", "1", "2"] or "--fail-on warn" not in out or "INCOMPLETE" not in out:
            raise rslib.Failure(f"roceshark {flag}: exit {status}, exit statuses {codes}, stderr {err!r}")
        for option in ("--qp", "--host", "--point", "--threads", "--version", "--fail-on", "-o roce.NAME:VALUE"):
            if option not in out:
                raise rslib.Failure(f"roceshark {flag} does not document {option}")
    with open(os.path.join(rslib.ROOT, "CMakeLists.txt")) as f:
        version = re.search(r"project\(roceshark VERSION (\S+)", f.read()).group(1)
    status, out, err = cli.command("--version")
    lines = out.splitlines()
    if status or err or lines[0] != f"roceshark {version}" or not lines[1].startswith(
            f"built against Wireshark {rslib.WS_VERSION}."):
        raise rslib.Failure(f"roceshark --version: exit {status}, {out!r} (want {version}, Wireshark {rslib.WS_VERSION})")
    # --version wins wherever it stands, as --help does.
    if cli.command("qp", "--version")[1] != out:
        raise rslib.Failure("roceshark qp --version does not print the version")


def gnu_style(clean):
    """--opt=value and --opt value, options after the files, -- ends them."""
    want = cli.command("-o", "roce.lossless_priorities:0,3", "qos", clean)[1]
    for args in (["qos", clean, "-o", "roce.lossless_priorities:0,3"], ["qos", "-oroce.lossless_priorities:0,3", clean],
                 ["-j1", "qos", clean, "-o", "roce.lossless_priorities:0,3"],
                 ["--threads=1", "-o", "roce.lossless_priorities:0,3", "--", "qos", clean]):
        status, out, err = cli.command(*args)
        if status or out != want:
            raise rslib.Failure(f"roceshark {' '.join(args)}: exit {status}, not the output of -o before the view\n{err}")
    warn = rslib.capture_path("qos_ecn_off")  # WARN: exit 0, 1 with --fail-on warn
    for args in (["--fail-on=warn", "health", warn], ["health", warn, "--fail-on", "warn"],
                 ["health", "--fail-on=warn", warn]):
        status = cli.command(*args)[0]
        if status != 1:
            raise rslib.Failure(f"roceshark {' '.join(args)}: exit {status}, want 1 (WARN)")
    if cli.command("health", warn, "--fail-on=fail")[0] != 0:
        raise rslib.Failure("roceshark health --fail-on=fail: WARN must pass")
    # After --, a file whose name starts with '-' is a file.
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(clean, os.path.join(tmp, "-x.pcapng"))
        p = subprocess.run([cli.COMMAND, "qp", "--", "-x.pcapng"], capture_output=True, text=True, cwd=tmp,
                           env=cli.ENV, timeout=600)
        if p.returncode or p.stdout != cli.command("qp", clean)[1]:
            raise rslib.Failure(f"roceshark qp -- -x.pcapng: exit {p.returncode}\n{p.stderr}")


def empty_stdin():
    """Nothing on the standard input, from /dev/null or an empty pipe: said so, exit 2."""
    with open(os.devnull, "rb") as null:
        runs = [("< /dev/null", cli.command("qp", "-", stdin=null))]
    p = subprocess.run([cli.COMMAND, "triage", "-"], input=b"", capture_output=True, env=cli.ENV, timeout=600)
    runs.append(("from an empty pipe", (p.returncode, p.stdout.decode(), p.stderr.decode())))
    for how, (status, out, err) in runs:
        if status != 2 or out or err != "roceshark: the standard input is empty: nothing to read\n":
            raise rslib.Failure(f"roceshark - {how}: exit {status}, stdout {out[:200]!r}, stderr {err!r}")


def run(argv):
    clean = rslib.capture_path("clean")
    # Bad preferences and usage: exit 2, the reason on stderr, nothing on stdout.
    for args, says in (
            (["-o", "roce.link_gbps:0", "qp", clean], "roce.link_gbps: '0'"),
            (["-oroce.clock:maybe", "qp", clean], "roce.clock"),
            (["-o", "roce.no_such:1", "qp", clean], "no preference roce.no_such"),
            (["-o", "gui.column.format:x", "qp", clean], "only roce.*"),
            (["-o", "roce.timeout_us", "qp", clean], "expected roce.NAME:VALUE"),
            (["-o"], "needs a value"),
            (["--fail-on", "maybe", "health", clean], "--fail-on maybe"),
            (["--fail-on", "warn", "qp", clean], "health only"),
            (["-x", "qp", clean], "unknown option -x"),
            (["qp", clean, "-x"], "unknown option -x"),
            (["--bogus=1", "qp", clean], "unknown option --bogus"),
            (["--help=yes"], "--help takes no value"),
            (["qp", clean, "--fail-on"], "--fail-on needs a value"),
            (["--qp", "0x1000000", "qp", clean], "--qp 0x1000000: a QP number of 24 bits"),
            (["--qp=-1", "qp", clean], "--qp -1"),
            (["--host", "10.0.0.300", "qp", clean], "--host 10.0.0.300: an IPv4 or IPv6 address"),
            (["nonsense", clean], "unknown view 'nonsense': one of qp, pfc"),
            (["triag", clean], "unknown view 'triag': did you mean 'triage'?"),
            (["hop", clean], "did you mean 'hops'?"),
            (["monitr", clean], "did you mean 'monitor'?"),
            (["splt", clean], "did you mean 'split'?"),
            (["REPORT", clean], "unknown view 'REPORT'"),
            ([clean, "triage"], "the view comes before the files (roceshark triage FILE...)"),
            (["-j", "1", "monitor", clean], "monitor comes first"),
            (["--", "-x", "qp", clean], "unknown view '-x'"),
            (["qp"], "no capture file"),
            ([], "no view"),
            (["qp", "-", "-"], "standard input"),
            (["-j", "0", "qp", clean], "-j 0: a whole number from 1 to 256"),
            (["-j2.5", "qp", clean], "-j 2.5"),
            (["-j", "many", "qp", clean], "-j many"),
            (["-j"], "-j needs a value"),
            # Names are printable text: no escape sequence reaches a terminal through them.
            (["-o", "roce.path_order:nic-a,\x1b[31mleaf-1", "qp", clean], "roce.path_order: '\\x1b[31mleaf-1' holds"),
            (["-o", "roce.path_order:nic-a,leaf\n#1 ERROR", "qp", clean], "holds a control character"),
            (["-o", "roce.point_names:1=a\x07b", "qp", clean], "roce.point_names"),
            (["-o", "roce.point_link_gbps:nic\x9b:25", "qp", clean], "roce.point_link_gbps"),
    ):
        status, out, err = cli.command(*args)
        if status != 2 or says not in err or "usage:" not in err or out:
            raise rslib.Failure(f"roceshark {' '.join(args)}: exit {status}, stderr {err!r}")
        # A short usage, not the whole help.
        if "Try 'roceshark --help' for more information." not in err or "Exit status" in err or len(
                err.splitlines()) > 4:
            raise rslib.Failure(f"roceshark {' '.join(args)}: not a short usage:\n{err}")
    # A typo far from every view gets no guess.
    err = cli.command("xyzzy", clean)[2]
    if "did you mean" in err:
        raise rslib.Failure(f"roceshark xyzzy: a guess for a word far from every view: {err!r}")
    help_and_version()
    gnu_style(clean)
    empty_stdin()
    # A good preference applies (the QoS view prints the policy in force).
    status, out, _ = cli.command("-o", "roce.lossless_priorities:0,3", "qos", clean)
    if status or "Lossless priorities: 0,3" not in out:
        raise rslib.Failure(f"-o roce.lossless_priorities:0,3 was not applied:\n{out}")
    # A path_order name that no capture point has is said in the report, not ignored.
    mp = rslib.capture_path("mp_clock")
    status, out, _ = cli.command("-o", "roce.path_order:nic-a,leaf-9,nic-b", "triage", mp)
    if "roce.path_order names leaf-9, which no capture point" not in " ".join(out.split()):
        raise rslib.Failure(f"an unmatched roce.path_order name is not in the triage:\n{out}")
    status, out, _ = cli.command("-o", "roce.path_order:nic-a,leaf-9,nic-b", "report", mp)
    if '"kind": "path_order_unmatched"' not in out and '"kind":"path_order_unmatched"' not in out:
        raise rslib.Failure(f"an unmatched roce.path_order name is not in capture_quality:\n{out[-2000:]}")
    status, out, _ = cli.command("-o", "roce.path_order:nic-a,leaf-1,nic-b", "triage", mp)
    if "path_order" in out:
        raise rslib.Failure(f"every roce.path_order name is a point, yet the triage notes it:\n{out}")
    # roce.point_names / roce.point_link_gbps entries no point took are listed
    # as settings, in the command and in tshark alike, and a clean capture stays PASS.
    names = ("-o", "roce.point_names:7=leaf-7", "-o", "roce.point_link_gbps:lef-1:25")
    status, out, _ = cli.command(*names, "health", clean)
    if status or "Overall: PASS" not in out:
        raise rslib.Failure(f"unmatched point names changed clean's verdict (exit {status}):\n{out}")
    status, out, _ = cli.command(*names, "triage", clean)
    flat = " ".join(out.split())
    for want in ("Setting: roce.point_names gives 7=leaf-7, which no capture point",
                 "Setting: roce.point_link_gbps gives lef-1, which no capture point"):
        if want not in flat:
            raise rslib.Failure(f"{want!r} is not in the triage:\n{out}")
    in_tshark = rslib.tshark("-q", "-r", clean, *names, "-z", "roce,triage")
    if in_tshark.strip() not in out:
        raise rslib.Failure(f"tshark's triage differs from the command's:\n{in_tshark}\n---\n{out}")
    status, out, _ = cli.command(*names, "report", clean)
    kinds = {q["kind"] for q in json.loads(out)["capture_quality"]}
    if kinds != {"point_names_unmatched", "point_link_gbps_unmatched"}:
        raise rslib.Failure(f"capture_quality kinds {kinds} with unmatched point names")
    # health: PASS, FAIL, WARN with and without --fail-on warn, INCOMPLETE (a reached limit).
    seen = set()
    for scenario, *options in (("clean",), ("pfc_storm",), ("qos_ecn_off",), ("qos_ecn_off", "--fail-on=warn"),
                               ("gbn", "-o", "roce.max_flows:1"), ("mp_burst",), ("mp_burst", "--fail-on=warn")):
        capture = rslib.capture_path(scenario)
        got, want, out = health(capture, *options)
        if got != want:
            raise rslib.Failure(f"roceshark health {scenario} {options}: exit {got}, roce-health exits {want}")
        if "Health:" not in out:
            raise rslib.Failure(f"roceshark health {scenario}: no triage printed")
        seen.add(got)
    if seen != {0, 1, 2}:
        raise rslib.Failure(f"health exit statuses seen: {sorted(seen)}; the cases must cover 0, 1 and 2")


rslib.main(run)
