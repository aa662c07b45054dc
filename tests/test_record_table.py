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
    assert "not checked yet; kept at the end of the log, --resume checks them): " \
        "Bob 5 sun/blue blue" in seen
    assert table.end() == 130
    assert saved(tmp_path)[-2:] == ["Ann 3 cat/blue blue",
                                    "# waiting (pasted, not checked yet): Bob 5 sun/blue blue"]
    again = Table(tmp_path, "--resume", "game.pcn")
    again.wait("1 pasted line not checked yet")
    again.wait("Bob 5 sun/blue blue")
    again.wait("Ann to roll")
    again.keys("\x04")
    assert again.end() == 0
    assert saved(tmp_path)[-1] == "Bob 5 sun/blue blue"


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
SOLO_GAME = ["START@N", "BL1@N", "BL2@W", "BR1@S", "BR2@W", "I1@N", "I2@N", "I3@N", "I4@N",
             "I5@N", "I6@N", "I7@N", "I8@N", "I9@N", "L1@N", "L2@W", "L3@S", "L4@N", "L5@W",
             "L6@S", "L7@E", "L8@N", "L9@W", "R1@S", "R2@W", "R3@N", "R4@N", "R5@E", "R6@S",
             "R7@W", "R8@N", "R9@E", "RE1@S", "RE2@W", "RE3@N", "RE4@E", "X1@S", "X2@S"]
"""A legal solo game of all 38 tiles, in six dungeons (each Lost one starts the next)."""


def test_issue_31_12_as_reported_and_the_prompt_after_the_last_tile(tmp_path: Path) -> None:
    table = started(tmp_path, "solo")
    at = SOLO_GAME.index("L8@N") + 1
    table.type(*SOLO_GAME[:at])
    table.wait("dungeon 3, tile 2:")
    paste(table, *SOLO_GAME[at:at + 4])  # L9@W R1@S R2@W R3@N
    table.keys("\r")
    seen = table.wait("dungeon 4, tile 1:")  # R3@N got Lost
    assert "breaks a rule" not in seen and "internal error" not in seen
    table.type(*SOLO_GAME[at + 4:])
    table.wait("all 38 tiles are placed: the game is over - :done finishes")
    table.type(":done")
    assert table.end() == 0 and "Verdict: legal" in table.rest
    assert "L8@N L9@W R1@S R2@W R3@N" in saved(tmp_path)


# 6: names that would drive the terminal are escaped --------------------------------------

def test_a_name_that_would_set_the_title_is_escaped_in_the_rule_line(tmp_path: Path) -> None:
    (tmp_path / "game.pcn").write_text(
        '#! memo-dice/1\nplayers: "Ann\\u001b]0;pwned\\u0007" "Bob\\u202eevil"\nround\n'
        '"Bob\\u202eevil" 3 cat/blue blue\n',
        encoding="utf-8")
    table = Table(tmp_path, "--resume", "game.pcn")
    table.wait("recording to")
    table.type('"Bob\\u202eevil" 4 sun/red red')  # not Bob's turn: the rule line names both
    seen = table.wait("keep it as played (k) or correct it (c)?")
    assert "this breaks a rule" in seen and "\\u202e" in seen
    assert "\x1b]0;" not in table.tail and "\u202e" not in table.tail
    table.type("c", CLEAR + ":done")
    table.end()
    assert "\x1b]0;" not in table.rest and "\u202e" not in table.rest


# 14: no card the table has not seen is named ---------------------------------------------

def test_a_memoarrr_card_recorded_differently_is_not_named(tmp_path: Path) -> None:
    table = started(tmp_path, "memoarrr")
    table.type("round dark", "Ann A1 penguin/water", "Bob B2 octopus/lava", "round dark")
    table.wait("Bob to play")
    table.type("Bob B2 walrus/lava")  # B2 is face down again
    seen = table.wait("(correct the line below")
    assert "recorded as another card before (round 1, move 2)" in " ".join(seen.split())
    assert "octopus" not in seen.split("Bob B2 walrus/lava", 1)[-1]
    table.type(CLEAR + ":done")
    table.end()


# 15: no dead ends ----------------------------------------------------------------------------

def test_a_rule_named_twice_is_refused_at_entry(tmp_path: Path) -> None:
    table = Table(tmp_path, "dungeon", "-o", "game.pcn")
    table.type(CLEAR + "Ann Bob", "")
    table.wait("Additional rules")
    table.type("1 1 7")  # typed over the pre-filled none
    seen = " ".join(table.wait("7 is not one of the choices").split())
    assert "rules: 1 is there twice (fix: some of 1 2 3 4, or none)" in seen  # both problems
    table.type(CLEAR + "1")
    table.wait("recording to")
    table.type(":done")
    table.end()
    assert "rules: 1" in saved(tmp_path)


def test_a_log_with_bad_settings_points_to_settings(tmp_path: Path) -> None:
    (tmp_path / "game.pcn").write_text("#! game/1\nplayers: Ann Bob\nrules: 2 2\n",
                                       encoding="utf-8")
    table = Table(tmp_path, "--resume", "game.pcn")
    table.type("exploration Ann")
    seen = " ".join(table.wait("(correct the line below").split())
    assert "/rules: 2 is there twice" in seen
    assert "the settings are wrong, whatever the line: :settings changes them" in seen
    table.type(":settings", "", "", CLEAR + "2")
    table.wait("settings changed")
    table.type("exploration Ann")
    table.wait("Ann to play")
    table.type(":done")
    table.end()
    assert "rules: 2" in saved(tmp_path) and saved(tmp_path)[-1] == "exploration Ann"


def test_robot_memory_team_play_is_entered_in_the_recorder(tmp_path: Path) -> None:
    table = Table(tmp_path, "robot-memory", "-o", "game.pcn")
    table.wait("Variant")
    table.type("team")  # typed over the pre-filled standard (issue 32.5)
    table.wait("Team 1")
    table.type("Red captain Ann")
    table.wait("team1: expected NAME captain NAME members NAME")
    table.type("Red captain Ann members Ann Bob")
    table.wait("Team 2")
    table.type("Blue captain Cy members Cy Dee")
    table.wait("recording to")
    table.type("round 1x2 first Red")  # a small grid: not the basic setup, kept as played
    table.wait("robot-memory/setup")
    table.type("k", "row bulb/red/3 short-circuit")
    table.wait("robot-memory/setup")
    table.type("k")
    table.wait("Ann to guess (Cy Ann rRcC")  # the captains guess and point
    table.type("Cy Ann r1c1 bulb/red/3 =6")
    table.wait("Cy to guess (Ann Cy rRcC")
    table.type(":done")
    table.end()
    assert saved(tmp_path)[1:4] == ["variant: team", "team1: Red captain Ann members Ann Bob",
                                    "team2: Blue captain Cy members Cy Dee"]


def test_the_variant_typed_replaces_the_one_shown(tmp_path: Path) -> None:
    """Issue 32.5: typing custom over the pre-filled standard gave standardcustom."""
    table = Table(tmp_path, "robot-memory", "-o", "game.pcn")
    table.wait("Variant")
    table.type("custom")
    table.wait("Players")
    table.type("Ann Bob")
    table.wait("recording to")
    table.type(":done")
    table.end()
    assert saved(tmp_path)[1:3] == ["variant: custom", "players: Ann Bob"]


def test_a_player_renamed_mid_game_is_renamed_in_every_move(tmp_path: Path) -> None:
    table = started(tmp_path, "dungeon")
    table.type("exploration Ann", "Ann R1@N · Bob R2@E !Ann", ":settings")
    table.wait("Players")
    table.type("Ann Robert", "", "")
    table.wait("renamed in every move: Bob -> Robert")
    table.type(":done")
    table.end()
    assert saved(tmp_path)[-2:] == ["exploration Ann", "Ann R1@N · Robert R2@E !Ann"]
    assert "players: Ann Robert" in saved(tmp_path)


# 16: smaller things ----------------------------------------------------------------------

def test_a_refused_line_is_typed_over_and_hand_tiles_take_any_case(tmp_path: Path) -> None:
    table = started(tmp_path, "dungeon")
    table.type("exploraton Ann")
    seen = " ".join(table.wait("(correct the line below").split())
    assert "did you mean 'exploration' for 'exploraton'?" in seen
    table.type("exploration Ann")  # typed over the line handed back: it replaces it
    table.wait("Ann to play")
    table.type("hand Ann i3 r1 l2")  # the basic rules deal 3
    table.wait("Ann to play")
    table.type(":done")
    table.end()
    assert saved(tmp_path)[-2:] == ["exploration Ann", "hand Ann I3 R1 L2"]


def test_memoarrr_show_after_the_treasures_and_the_2018_help(tmp_path: Path) -> None:
    from tests.test_record_terminal import MEMOARRR_GAME

    table = Table(tmp_path, "memoarrr", "-o", "game.pcn")
    for answer in ("2018", "expert=no ordered_stack=no", "Ann Bob", "Ann",
                   "Ann north Bob south"):
        table.type(CLEAR + answer)
    table.wait("recording to")
    table.type(":help")
    table.wait("round 1   ")  # one volcano for two, numbered in 2018
    moves = [m.replace("round dark", "round 1") for m in MEMOARRR_GAME]
    table.type(*moves[:4], ":show all")
    seen = table.wait("REFEREE'S VIEW")
    seen = table.wait("treasure cards taken (face down): Ann 1, Bob 0")
    assert "Final table" not in seen
    table.type(*moves[4:])
    table.wait("they turn their treasure cards over")
    table.type("2 1 4 2 1 3 2", ":show")
    seen = table.wait("(:show all is the referee's view")
    assert "treasure cards turned over: Ann 2 + 4 + 1 + 2 (9 rubies)" in " ".join(seen.split())
    assert "face down)" not in seen
    table.type(":done")
    table.end()


def test_wide_names_keep_the_help_aligned(tmp_path: Path) -> None:
    from pathcheck.cli.record_table import help_text
    from pathcheck.render.align import text_width

    examples = help_text("memo-dice/1", ["王小明", "李"]).splitlines()[2:5]
    starts = {text_width(line[:line.index(what)]) for line, what in zip(
        examples, ("opens a round", "covering:", "uncovering:"), strict=True)}
    assert len(starts) == 1
    table = Table(tmp_path, "memo-dice", "-o", "game.pcn", columns=100)
    table.type(CLEAR + "王小明 李")
    table.wait("recording to")
    table.type(":help")
    seen = table.wait("Commands:").splitlines()
    shown = [line for line in seen if line.startswith("  ") and ("round" in line or "王" in line)]
    assert len({text_width(line[:line.index(what)]) for line, what in zip(
        shown[-3:], ("opens a round", "covering:", "uncovering:"), strict=True)}) == 1
    table.type(":done")
    table.end()


def test_a_block_pasted_into_the_settings_answers_them_then_the_moves(tmp_path: Path) -> None:
    table = Table(tmp_path, "dungeon", "-o", "game.pcn")
    table.wait("Players")
    paste(table, "Ann Bob", "basic", "none", "exploration Ann", "Ann R1@N", "Ann R2@E",
          "Bob R3@S")
    table.keys("\r")
    table.wait("a pasted block of 7 lines")
    table.wait("this breaks a rule")  # Ann R2@E: Bob's turn
    table.type("c")
    table.wait("[1 pasted line wait] >")
    table.keys("\x03")
    table.type("")  # the line handed back dropped: Bob R3@S, checked as typed
    table.wait("Ann to play")
    table.type(":done")
    table.end()
    assert saved(tmp_path)[1:] == ["players: Ann Bob", "mode: basic", "rules: none",
                                   "exploration Ann", "Ann R1@N", "Bob R3@S"]


def test_a_block_pasted_into_keep_or_correct_answers_it_and_the_rest_wait(tmp_path: Path
                                                                           ) -> None:
    table = started(tmp_path, "memo-dice")
    table.type("round", "Ann 3 cat/blue blue", "Ann 4 sun/red red")
    table.wait("keep it as played (k) or correct it (c)?")
    paste(table, "c", "Bob 4 sun/red red")
    table.keys("\r")
    table.wait("[1 pasted line wait] >")
    table.keys("\x03")
    table.type("")
    table.wait("Ann to roll")
    table.type(":done")
    table.end()
    assert saved(tmp_path)[-1] == "Bob 4 sun/red red"


def test_kill_9_loses_no_pasted_line(tmp_path: Path) -> None:
    table = started(tmp_path, "dungeon")
    table.wait("open exploration 1")
    paste(table, "exploration Ann", "Ann R1@N", "Ann R2@E", "Bob R3@S")
    table.keys("\r")
    table.wait("keep it as played (k) or correct it (c)?")  # Ann R2@E: Bob's turn
    table.child.kill(9)
    table.child.close()
    assert saved(tmp_path)[-4:] == [
        "exploration Ann", "Ann R1@N", "# waiting (pasted, not checked yet): Ann R2@E",
        "# waiting (pasted, not checked yet): Bob R3@S"]
    again = Table(tmp_path, "--resume", "game.pcn")
    again.wait("2 pasted lines not checked yet")
    again.wait("keep it as played (k) or correct it (c)?")  # Ann R2@E, checked again
    again.type("")
    again.wait("[1 pasted line wait] >")
    again.keys("\x03")
    again.type("")
    again.wait("Ann to play")  # Bob R3@S recorded
    again.type(":done")
    again.end()
    assert saved(tmp_path)[-3:] == ["exploration Ann", "Ann R1@N", "Bob R3@S"]


def test_the_memoarrr_prompt_says_who_starts_round_1(tmp_path: Path) -> None:
    table = started(tmp_path, "memoarrr")
    table.wait("open round 1: round VOLCANOES (top first) (Ann starts) >")
    table.type(":done")
    table.end()


def test_a_tile_not_in_hand_does_not_name_the_hand(tmp_path: Path) -> None:
    table = started(tmp_path, "dungeon")
    table.type("exploration Ann", "hand Ann I3 R1 L2", "hand Bob I4 R2 L3", "Ann R5@N")
    seen = " ".join(table.wait("keep it as played (k) or correct it (c)?").split())
    assert "dungeon/from-hand" in seen and "what they hold is not named" in seen
    assert "I3, R1, L2" not in seen.split("Ann R5@N", 1)[-1]
    table.type("c", CLEAR + ":done")
    table.end()
