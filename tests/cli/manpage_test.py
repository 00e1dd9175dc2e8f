# SPDX-License-Identifier: GPL-2.0-or-later
"""roceshark(1), docs/roceshark.1, and its source docs/command.md name
every option and view of `roceshark --help`, so that neither drifts from the
command; and man renders the page without a warning (lintian runs the same
check on the package)."""
import os
import re
import shutil
import subprocess

import cli
import rslib

PAGE = os.path.join(rslib.ROOT, "docs", "roceshark.1")
REFERENCE = os.path.join(rslib.ROOT, "docs", "command.md")


def help_names(text):
    """The options and views --help lists: its option column and its views' lines."""
    options, views, section = set(), set(), None
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            section = line
        if section == "Views:" and line.startswith("  "):
            views.update(re.findall(r"[a-z]+", line.strip().split("  ")[0]))
        elif section and section.startswith("Options") and line.startswith("  ") and line.strip().startswith("-"):
            options.update(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", line.strip().split("  ")[0]))
    return options, views


def roff_text(path):
    """The page's words: roff's \\- as -, fonts and escapes dropped."""
    with open(path) as f:
        text = f.read()
    return re.sub(r"\\f[BIRP]|\\&", "", text.replace("\\-", "-"))


def run(argv):
    status, out, err = cli.command("--help")
    if status != 0:
        raise rslib.Failure(f"roceshark --help exited {status}: {err}")
    options, views = help_names(out)
    if not {"-o", "-j", "--threads", "--help", "--version"} <= options or "triage" not in views:
        raise rslib.Failure(f"could not read the options and views of --help: {sorted(options)} {sorted(views)}")
    with open(REFERENCE) as f:
        reference = f.read()
    for path, text in ((PAGE, roff_text(PAGE)), (REFERENCE, reference)):
        missing = [n for n in sorted(options | views) if not re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)]
        if missing:
            raise rslib.Failure(f"{os.path.relpath(path, rslib.ROOT)} does not name {missing} of roceshark --help")
    if shutil.which("man"):
        # As lintian renders it: every groff warning printed.
        p = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", PAGE], capture_output=True,
                           text=True, env=dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80"))
        if p.returncode != 0 or p.stderr:
            raise rslib.Failure(f"man warns on docs/roceshark.1:\n{p.stderr}")


if __name__ == "__main__":
    rslib.main(run)
