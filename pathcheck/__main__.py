"""``python -m pathcheck``: the same as the ``pathcheck`` command."""

import os
import sys

try:
    from pathcheck.cli import entry
except ModuleNotFoundError as exc:
    if exc.name != "pathcheck.cli":
        raise
    # Run inside a source checkout after a plain `pip install .`: the checkout's pathcheck/
    # folder (which has no cli/ in it) hides the installed package.
    sys.stderr.write(
        f"pathcheck: error: the folder {os.path.dirname(os.path.abspath(__file__))} hides the "
        "installed pathcheck (a source checkout?): run `pathcheck`, or `python -m pathcheck` "
        "from another folder, or install with `pip install -e .`\n")
    sys.exit(2)

entry()
