"""``python -m pathcheck``: the same as the ``pathcheck`` command."""

from pathcheck.cli import entry

entry()
