# SPDX-License-Identifier: GPL-2.0-or-later
"""The .deb (`--target package`): lintian finds no error or warning that the
package does not override (README, "Install"); `apt install
./roceshark_*.deb` puts the plugin in Wireshark's global plugin directory,
where tshark loads it as root and as an ordinary user, who can also run the
command, read its man page and run the scripts; purging the package leaves
none of its files behind.

It installs into the system, and a globally installed roceshark next to a
WIRESHARK_PLUGIN_DIR one makes every other tshark test fail (the protocol
registers twice), so it runs alone (RUN_SERIAL) and only where the system
is a throwaway: in scripts/ws-chroot, which sets ROCESHARK_PACKAGE_TEST=1.
Elsewhere it is skipped."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import rslib

SKIP = 77
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def sh(*cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def apt_install(env, *packages):
    p = sh("apt-get", "install", "-y", "-q", "--no-install-recommends", *packages, env=env)
    if p.returncode != 0:
        raise rslib.Failure(f"apt-get install {' '.join(packages)} failed:\n{p.stdout}{p.stderr}")


def lintian(deb, env):
    """Fail on any error or warning the package does not override."""
    if not shutil.which("lintian"):  # the chroot is a throwaway: take it as the test needs it
        sh("apt-get", "update", "-q", env=env)
        apt_install(env, "lintian")
    # Every tag printed, the overridden as O:; with --show-overrides those
    # count for the exit status too, so the E: and W: lines decide.
    p = sh("lintian", "--display-info", "--show-overrides", "--tag-display-limit", "0", deb)
    print(f"lintian {os.path.basename(deb)}:\n{p.stdout}{p.stderr}", end="")
    bad = [line for line in p.stdout.splitlines() if line.startswith(("E: ", "W: "))]
    if p.returncode not in (0, 2) or bad:
        raise rslib.Failure(f"lintian on {os.path.basename(deb)} (exit {p.returncode}):\n" + "\n".join(bad or [p.stderr]))


def as_user(home, *cmd):
    """A command as an ordinary user (nobody), the way a user runs it."""
    return sh(*NOBODY, "env", f"HOME={home}", "LANG=C", "MANPAGER=cat", "PAGER=cat", "MANWIDTH=80", *cmd)


def user_checks(home, capture):
    p = as_user(home, "roceshark", "--version")
    if p.returncode != 0 or "roceshark" not in p.stdout:
        raise rslib.Failure(f"roceshark --version as nobody:\n{p.stdout}{p.stderr}")
    p = as_user(home, "roceshark", "triage", capture)
    if p.returncode != 0 or "Health:" not in p.stdout:
        raise rslib.Failure(f"roceshark triage as nobody:\n{p.stdout}{p.stderr}")
    p = as_user(home, "man", "roceshark")
    if p.returncode != 0 or "SYNOPSIS" not in p.stdout or "--fail-on" not in p.stdout:
        raise rslib.Failure(f"man roceshark as nobody:\n{p.stdout}{p.stderr}")
    for script in ("roce-health", "roce-compare", "roce-plot"):
        p = as_user(home, script, "--help")
        if p.returncode != 0 or script not in p.stdout:
            raise rslib.Failure(f"{script} --help as nobody:\n{p.stdout}{p.stderr}")
    # The installed scripts run tshark with the installed plugin.
    p = as_user(home, "roce-health", capture)
    if p.returncode != 0 or "PASS" not in p.stdout:
        raise rslib.Failure(f"roce-health on {os.path.basename(capture)} as nobody (exit {p.returncode}):\n"
                            f"{p.stdout}{p.stderr}")


def hardened(path, fortified):
    """What Debian's hardening flags leave in an ELF file: full RELRO (relro
    and bind-now) and, where it calls any, fortified libc calls (__*_chk)."""
    elf = sh("readelf", "-d", "-l", "--dyn-syms", "-W", path).stdout
    marks = ["GNU_RELRO", "BIND_NOW"] + (["_chk@"] if fortified else [])
    missing = [mark for mark in marks if mark not in elf]
    if missing:
        raise rslib.Failure(f"{path} is not hardened: no {missing}")


def left_behind(paths):
    """The package's files still there after a purge, and its directories
    no other package owns."""
    left = []
    for path in paths:
        if not os.path.lexists(path) or path == "/.":
            continue
        if not os.path.isdir(path) or os.path.islink(path) or sh("dpkg-query", "-S", path).returncode != 0:
            left.append(path)
    return left


def tshark_plugins(as_nobody, home):
    drop = NOBODY if as_nobody else []
    env = ["env", "-u", "WIRESHARK_PLUGIN_DIR", f"HOME={home}", "LANG=C"]
    p = sh(*drop, *env, "tshark", "-G", "plugins")
    return p.stdout + p.stderr


def run(argv):
    if os.environ.get("ROCESHARK_PACKAGE_TEST") != "1" or os.getuid() != 0:
        print("skipped: installs into the system; runs as root in scripts/ws-chroot (ROCESHARK_PACKAGE_TEST=1)")
        sys.exit(SKIP)
    if sh("dpkg-query", "-W", "-f=${Status}", "roceshark").stdout.startswith("install ok"):
        raise rslib.Failure("roceshark is already installed here; not touching it")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        p = sh("cpack", "-G", "DEB", "--config", os.path.join(rslib.BUILD, "CPackConfig.cmake"), "-B", tmp)
        if p.returncode != 0:
            raise rslib.Failure(f"cpack failed:\n{p.stdout}{p.stderr}")
        debs = glob.glob(os.path.join(tmp, "roceshark_*.deb"))
        want = f"+ws{rslib.WS_VERSION}_"
        if len(debs) != 1 or want not in os.path.basename(debs[0]):
            raise rslib.Failure(f"expected one roceshark_*{want}*.deb, got {debs}")
        deb = debs[0]
        depends = sh("dpkg-deb", "-f", deb, "Depends").stdout.strip()
        if not depends.startswith("libwireshark"):
            raise rslib.Failure(f"the package does not depend on libwireshark<soversion>: {depends!r}")
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        os.chmod(home, 0o777)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        lintian(deb, env)
        # A capture nobody can read, as a user's would be.
        capture = os.path.join(tmp, "clean.pcapng")
        shutil.copyfile(rslib.capture_path("clean"), capture)
        os.chmod(capture, 0o644)
        apt_install(env, deb)
        try:
            installed = sh("dpkg-query", "-L", "roceshark").stdout.splitlines()
            so = [f for f in installed if f.endswith(f"/wireshark/plugins/{rslib.PLUGIN_SUBDIR}/roceshark.so")]
            if not so:
                raise rslib.Failure(f"the package puts no roceshark.so in plugins/{rslib.PLUGIN_SUBDIR}: {installed}")
            for who, nobody in (("root", False), ("nobody", True)):
                listed = tshark_plugins(nobody, home)
                if so[0] not in listed:
                    raise rslib.Failure(f"tshark as {who} does not load {so[0]}:\n{listed}")
            # The command comes with it.
            p = sh("/usr/bin/roceshark", "qp", rslib.capture_path("clean"))
            if p.returncode != 0 or "RoCE QP Sequence Analysis" not in p.stdout:
                raise rslib.Failure(f"/usr/bin/roceshark from the package does not run:\n{p.stdout}{p.stderr}")
            hardened(so[0], fortified=False)  # fortified calls: seen in the command's
            hardened("/usr/bin/roceshark", fortified=True)
            user_checks(home, capture)
        finally:
            p = sh("apt-get", "remove", "-y", "-q", "--purge", "roceshark", env=env)
        if p.returncode != 0:
            raise rslib.Failure(f"apt-get remove roceshark failed:\n{p.stdout}{p.stderr}")
        left = left_behind(installed)
        if left:
            raise rslib.Failure(f"purging roceshark left {left}")
        if "roceshark.so" in tshark_plugins(False, home):
            raise rslib.Failure("tshark still loads roceshark after the package was removed")


if __name__ == "__main__":
    rslib.main(run)
