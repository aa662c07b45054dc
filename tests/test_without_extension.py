"""Every command works where the C extension was never built (no C compiler at install time):
each module that would use it imports, and the rulings are byte for byte those of the build
with it. Run in a fresh interpreter in which ``import pathcheck._speedups`` fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WITHOUT = ("import sys; sys.modules['pathcheck._speedups'] = None; "
           "from pathcheck.cli import entry; sys.argv[0] = 'pathcheck'; entry()")
WITH = "import sys; from pathcheck.cli import entry; sys.argv[0] = 'pathcheck'; entry()"


@pytest.mark.parametrize("args", [
    ["adjudicate", "fixtures/dungeon/legal-3p-basic.json", "--format", "json"],
    ["adjudicate", "fixtures/memoarrr/legal-3p-2023.json", "--format", "json"],
    ["analyse", "fixtures/batch/logs.jsonl", "--format", "jsonl"],
    ["verify", "fixtures/dungeons/examples.dgn", "--format", "jsonl"],
])
def test_a_command_without_the_extension_gives_what_it_gives_with_it(args: list[str]) -> None:
    runs = [subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                           timeout=120) for code in (WITHOUT, WITH)]
    without, with_c = runs
    assert without.returncode == with_c.returncode, without.stderr.decode()
    assert b"internal error" not in without.stderr
    assert without.stdout == with_c.stdout
