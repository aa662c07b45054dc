"""``-o FILE`` is left as it was when no input could be read or ruled on (docs/cli.md, Batch
work): the errors are on stderr, and a report of nothing must not replace the user's file."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
BAD_LOG = "#! game/1\nplayers: Ann Bob\nmode: basic\nrules: none\nexploration Ann\nAnn R1@N {x\n"


@pytest.mark.parametrize("command", ["adjudicate", "analyse"])
@pytest.mark.parametrize("output_format", ["text", "json", "jsonl"])
def test_only_invalid_logs_leave_o_as_it_was(command: str, output_format: str,
                                             tmp_path: Path) -> None:
    bad = tmp_path / "bad.pcn"
    bad.write_text(BAD_LOG, "utf-8")
    kept = tmp_path / "rulings.txt"
    kept.write_text("last night's rulings\n", "utf-8")
    result = CliRunner().invoke(cli, [command, str(bad), "-o", str(kept),
                                      "--format", output_format])
    assert result.exit_code == 3
    assert kept.read_text("utf-8") == "last night's rulings\n"
    assert f"{bad}:6:10: unclosed note" in result.stderr
    assert f"could be {'ruled on' if command == 'adjudicate' else 'analysed'}: {kept} is left " \
           "as it was" in result.stderr
    # one log that is read: the report replaces the file, with the invalid one in it
    good = FIXTURES / "memo-dice" / "legal-2p.json"
    result = CliRunner().invoke(cli, [command, str(bad), str(good), "-o", str(kept),
                                      "--format", output_format])
    assert result.exit_code == 3 and str(good) in kept.read_text("utf-8")


def test_only_invalid_records_leave_verify_o_as_it_was(tmp_path: Path) -> None:
    bad = tmp_path / "bad.dgn"
    bad.write_text("START@N R1@Q\n", "utf-8")
    kept = tmp_path / "report.txt"
    kept.write_text("yesterday\n", "utf-8")
    result = CliRunner().invoke(cli, ["verify", str(bad), "-o", str(kept)])
    assert result.exit_code == 3 and kept.read_text("utf-8") == "yesterday\n"
    assert "no record could be verified" in result.stderr
    assert "Summary: 1 record, 0 held, 0 Lost, 1 invalid" in result.stderr  # not lost either
