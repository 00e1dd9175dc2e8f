# SPDX-License-Identifier: GPL-2.0-or-later
"""A 60-second soak of `roceshark monitor -` (bench/soak.py): no window
lost, memory flat. Labelled one_version: it tests the monitor, not Wireshark."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.exit(subprocess.run([sys.executable, os.path.join(ROOT, "bench", "soak.py"), "--seconds", "60"]).returncode)
