# SPDX-License-Identifier: GPL-2.0-or-later
"""A 60-second soak of `roceshark monitor -` (bench/soak.py): no window
lost, memory flat. Native leg only: it tests the monitor, not Wireshark."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

if os.environ.get("ROCESHARK_CHROOT"):
    print(f"SKIP: in the {os.environ['ROCESHARK_CHROOT']} chroot; the soak runs in the native leg")
    sys.exit(77)
sys.exit(subprocess.run([sys.executable, os.path.join(ROOT, "bench", "soak.py"), "--seconds", "60"]).returncode)
