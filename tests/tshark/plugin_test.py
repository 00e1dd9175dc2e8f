# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin exports what Wireshark needs, loads, registers its fields
and statistics, and `cmake --install` puts it where tshark finds it."""
import os
import shutil
import subprocess
import tempfile

import rslib

SO = rslib.PLUGIN_SO


def exports():
    out = subprocess.run(["nm", "-D", "--defined-only", SO], capture_output=True, text=True, check=True).stdout
    wanted = ["plugin_version", "plugin_want_major", "plugin_want_minor", "plugin_register"]
    if tuple(map(int, rslib.WS_VERSION.split("."))) >= (4, 4):
        wanted.append("plugin_describe")
    for sym in wanted:
        if f" {sym}\n" not in out:
            raise rslib.Failure(f"{sym} is not exported by {SO}")


def loads():
    if "roceshark.so" not in rslib.tshark("-G", "plugins"):
        raise rslib.Failure("tshark -G plugins does not list roceshark.so")
    fields = rslib.tshark("-G", "fields")
    for f in ("roce.qp.stream", "roce.seq.retransmission", "roce.fecn", "roce.becn", "roce.cnp", "roce.icrc_bad"):
        if f"\t{f}\t" not in fields:
            raise rslib.Failure(f"field {f} not registered")
    listing = subprocess.run([rslib.RS_TSHARK, "--build", rslib.BUILD, "-z", "help"], capture_output=True, text=True)
    if "     roce,qp\n" not in listing.stdout + listing.stderr:  # tshark prints the list on stderr
        raise rslib.Failure("-z roce,qp not registered")


def install_as_user():
    """An ordinary user's install goes to ~/.local/lib/wireshark/plugins, where
    tshark finds it with no environment variable."""
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o777)
        home = os.path.join(tmp, "home")
        os.mkdir(home)
        env = ["env", "-u", "WIRESHARK_PLUGIN_DIR", f"HOME={home}"]
        drop, install = [], ["cmake", "--install", rslib.BUILD]
        if os.getuid() == 0:
            # As nobody, run the plugin directory's own install script, on a
            # copy that points at a copy of the plugin: `cmake --install`
            # would write its manifest into root's build tree, which nobody
            # may not even be able to read.
            with open(os.path.join(rslib.BUILD, "plugins", "cmake_install.cmake")) as f:
                script = f.read()
            if SO not in script:
                raise rslib.Failure("the plugin install script does not install the built plugin")
            so_copy = os.path.join(tmp, "roceshark.so")
            shutil.copy(SO, so_copy)
            with open(os.path.join(tmp, "install.cmake"), "w") as f:
                f.write(script.replace(SO, so_copy))
            subprocess.run(["chown", "-R", "65534:65534", tmp], check=True)
            drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            install = ["cmake", "-P", os.path.join(tmp, "install.cmake")]
        subprocess.run(drop + env + install, check=True, capture_output=True)
        so = os.path.join(home, ".local/lib/wireshark/plugins", rslib.PLUGIN_SUBDIR, "roceshark.so")
        if not os.path.exists(so):
            raise rslib.Failure(f"user install did not create {so}")
        listed = subprocess.run(drop + env + ["tshark", "-G", "plugins"], capture_output=True, text=True).stdout
        if so not in listed:
            raise rslib.Failure(f"tshark does not load the user-installed plugin:\n{listed}")
        # The RoCE profile beside it, where `-C RoCE` finds it.
        if not os.path.exists(os.path.join(home, ".config/wireshark/profiles/RoCE/colorfilters")):
            raise rslib.Failure("user install did not put the RoCE profile in ~/.config/wireshark/profiles")


def install_as_root():
    """Root's install goes to Wireshark's global plugin directory (checked
    under DESTDIR so the test leaves the system alone)."""
    if os.getuid() != 0:
        return
    with tempfile.TemporaryDirectory() as dest:
        subprocess.run(["cmake", "--install", rslib.BUILD], check=True, capture_output=True,
                       env=dict(os.environ, DESTDIR=dest))
        found = [os.path.join(d, f) for d, _, fs in os.walk(dest) for f in fs if f == "roceshark.so"]
        if not found or f"/wireshark/plugins/{rslib.PLUGIN_SUBDIR}/" not in found[0] or "/.local/" in found[0]:
            raise rslib.Failure(f"root install went to {found}")
        profile = [d for d, _, fs in os.walk(dest) if "colorfilters" in fs]
        if len(profile) != 1 or not profile[0].endswith("/share/wireshark/profiles/RoCE"):
            raise rslib.Failure(f"root install put the RoCE profile in {profile}")


def run(argv):
    exports()
    loads()
    install_as_user()
    install_as_root()


if __name__ == "__main__":
    rslib.main(run)
