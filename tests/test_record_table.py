"""``pathcheck record`` at a table, round three (issue 31, points 6 and 12-16; issue 32, point
5): the real command in a pseudo-terminal, keystrokes in, the screen out."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_record_terminal import CLEAR, Table, saved, started

pytest.importorskip("pexpect")

PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def paste(table: Table, *lines: str) -> None:
    """Paste ``lines`` as a terminal does when the program turned bracketed paste on."""
    table.keys(PASTE_START + "\n".join(lines) + PASTE_END)


# 12, 13: a pasted block is checked line by line, as typed lines are -------------------------

def test_a_pasted_block_of_solo_tiles_is_checked_line_by_line(tmp_path: Path) -> None:
    """Issue 31.12: four one-tile lines pasted at once gave an internal error (exit 70)."""
    table = started(tmp_path, "solo")
    dungeon = ["START@N", "BL1@N", "BL2@W", "BR1@S", "BR2@W", "I1@N", "I2@N", "I3@N", "I4@N",
               "I5@N", "I6@N", "I7@N", "I8@N", "I9@N", "L1@N"]
    table.type(*dungeon)
    table.wait("dungeon 1, tile 16:")
    paste(table, "L2@N", "L2@W", "L3@S", "L4@N")  # the first one misplaced
    table.keys("\r")
    table.wait("a pasted block of 4 lines")
    seen = table.wait("keep it as played (k) or correct it (c)?")
    assert "solo/fail" in seen and "premature" not in seen
    table.type("")  # Enter: correct
    seen = table.wait("[3 pasted lines wait] >")
    assert "internal error" not in seen
    table.keys("\x03")  # the misplaced tile handed back is cleared
    table.type("")  # the pasted lines that wait go on, one by one
    seen = table.wait("dungeon 2, tile 2:")  # L3@S got Lost: L4@N started dungeon 2
    assert "premature" not in seen and "breaks a rule" not in seen
    table.keys("\x03")
    assert table.end() == 130
    assert saved(tmp_path)[-2:] == [" ".join([*dungeon, "L2@W", "L3@S"]), "L4@N"]


def test_lines_that_wait_are_said_when_the_recording_stops(tmp_path: Path) -> None:
    table = started(tmp_path, "memo-dice")
    table.type("round")
    table.wait("the first roll")
    paste(table, "Ann 3 cat/blue blue", "Ann 4 sun/red red", "Bob 5 sun/blue blue")
    table.keys("\r")
    table.wait("memo-dice/turn-order")
    table.type("c")
    table.wait("[1 pasted line wait] >")
    table.keys("\x03")
    table.keys("\x03")  # stops: the line not checked yet is said
    seen = " ".join(table.wait("--resume game.pcn").split())
    assert "not recorded (pasted after the line asked for, not checked yet): " \
        "Bob 5 sun/blue blue" in seen
    assert table.end() == 130
    assert saved(tmp_path)[-1] == "Ann 3 cat/blue blue"


def test_a_pasted_exploration_hands_back_its_own_line_and_keeps_the_others(
        tmp_path: Path) -> None:
    table = Table(tmp_path, "dungeon", "-o", "game.pcn")
    for answer in ("Ann Bob Cy", "basic", "none"):
        table.type(CLEAR + answer)
    table.wait("recording to")
    table.type("exploration Ann", "Ann R1@N · Bob R2@E")
    table.wait("Cy to play")
    paste(table, "exploration Cy", "Cy I2@N")
    table.keys("\r")
    table.wait("dungeon/exploration-end")
    table.type("")  # Enter: correct
    table.wait("[1 pasted line wait] >")
    table.keys("\x03")  # the line handed back cleared: it is dropped
    table.type("")
    table.wait("Cy I2@N")  # the pasted line that waited, checked now
    table.wait("Ann to play")
    table.keys("\x03")
    assert table.end() == 130
    assert saved(tmp_path)[-3:] == ["exploration Ann", "Ann R1@N · Bob R2@E", "Cy I2@N"]
