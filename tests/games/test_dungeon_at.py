"""``pathcheck adjudicate ... --at R.T`` for dungeon in memory game logs and solo records."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import cli
from pathcheck.errors import InputError
from pathcheck.games.common import Moment

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GAME = str(FIXTURES / "dungeon" / "legal-3p-basic.json")
SOLO = str(FIXTURES / "dungeon" / "illegal-solo-late.json")


def adjudicate(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["adjudicate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_game_map_after_a_turn() -> None:
    code, out, _ = adjudicate(GAME, "--at", "1.5")
    assert code == 0
    assert "Exploration 1 after turn 5 (6 tiles):" in out
    assert "┃" in out and "never Lost" in out.split("Exploration 1 after turn 5")[1]


def test_game_map_at_the_end_of_an_exploration_shows_the_lost_tile() -> None:
    code, out, _ = adjudicate(GAME, "--at", "1.7")
    assert code == 0
    after = out.split("Exploration 1 after turn 7 (8 tiles):")[1]
    assert "Lost at tile 8 (R6@E, cell -1,1) by dead-end." in after


def test_game_map_before_the_first_turn_is_the_start_tile() -> None:
    code, out, _ = adjudicate(GAME, "--at", "2.0")
    assert code == 0 and "Exploration 2 before its first turn (1 tile):" in out


@pytest.mark.parametrize(("at", "message"), [
    ("9.1", "out of range; this log can show 1.0-1.7, 2.0-2.2, 3.0-3.2"),
    ("1.99", "out of range; this log can show 1.0-1.7,"),
])
def test_game_at_out_of_range_is_one_line_exit_3(at: str, message: str) -> None:
    code, _, err = adjudicate(GAME, "--at", at)
    assert code == 3 and message in err and err.count("\n") == 1


def test_solo_map_of_a_dungeon() -> None:
    code, out, _ = adjudicate(SOLO, "--at", "1.3")
    assert code == 1  # the record fails its check (late); the map is shown all the same
    assert "Dungeon 1 after its tile 3:" in out
    code, _, err = adjudicate(SOLO, "--at", "1.0")
    assert code == 3 and "--at 1.0: out of range; this log can show 1.1-1." in err


def test_moment_parse() -> None:
    assert Moment.parse(" 3.0 ") == Moment(3, 0)
    for bad in ("0.1", "1", "1.2.3", "-1.2", "", "2.x"):
        with pytest.raises(InputError):
            Moment.parse(bad)
