# SPDX-License-Identifier: GPL-2.0-or-later
"""The .deb (`--target package`): `apt install ./roceshark_*.deb` puts the
plugin in Wireshark's global plugin directory, where tshark loads it as root
and as an ordinary user; removing the package takes it away again.

It installs into the system, and a globally installed roceshark next to a
WIRESHARK_PLUGIN_DIR one makes every other tshark test fail (the protocol
registers twice), so it runs alone (RUN_SERIAL) and only where the system
is a throwaway: in scripts/ws-chroot, which sets ROCESHARK_PACKAGE_TEST=1.
Elsewhere it is skipped."""
import glob
import os
import subprocess
import sys
import tempfile

import rslib

SKIP = 77


def sh(*cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def tshark_plugins(as_nobody, home):
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if as_nobody else []
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
        p = sh("apt-get", "install", "-y", "-q", "--no-install-recommends", deb, env=env)
        if p.returncode != 0:
            raise rslib.Failure(f"apt-get install {deb} failed:\n{p.stdout}{p.stderr}")
        try:
            installed = sh("dpkg-query", "-L", "roceshark").stdout.split()
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
        finally:
            p = sh("apt-get", "remove", "-y", "-q", "--purge", "roceshark", env=env)
        if p.returncode != 0:
            raise rslib.Failure(f"apt-get remove roceshark failed:\n{p.stdout}{p.stderr}")
        if "roceshark.so" in tshark_plugins(False, home):
            raise rslib.Failure("tshark still loads roceshark after the package was removed")


if __name__ == "__main__":
    rslib.main(run)
