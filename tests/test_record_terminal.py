"""``pathcheck record`` at a table: the real command in a pseudo-terminal (pexpect), keystrokes
in, the screen's text out, one test per promise of issue 22 for every game it concerns."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pathcheck.cli import record

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[(\d*)C|\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]"
                  r"|\x1b[=>]")
"""The terminal's escapes (a cursor moved right stands for that many spaces)."""
CTRL_C, CTRL_D, TAB = "\x03", "\x04", "\t"


class Table:
    """``pathcheck record ARGS`` in a terminal of ``columns`` x ``rows``."""

    def __init__(self, tmp_path: Path, *args: str, columns: int = 100, rows: int = 40,
                 stderr: str | None = None) -> None:
        env = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1",
               "COLUMNS": str(columns), "LINES": str(rows)}
        command = [sys.executable, "-m", "pathcheck", "record", *args]
        if stderr is not None:  # stderr to that file (exec: the recorder leads the session)
            command = ["/bin/sh", "-c", f'exec "$@" 2>{stderr}', "sh", *command]
        self.child = pexpect.spawn(command[0], command[1:],
                                   cwd=str(tmp_path), env=env, encoding="utf-8",
                                   dimensions=(rows, columns), timeout=15)
        self.screen = ""
        self.tail = ""
        """What the terminal got since the last line typed (its escapes kept)."""

    def _read(self) -> None:
        try:
            chunk = self.child.read_nonblocking(65536, timeout=0.2)
        except pexpect.TIMEOUT:
            return
        def spaces(match: re.Match[str]) -> str:
            return " " * int(match.group(1) or 1) if match.group(0).endswith("C") else ""

        self.tail += chunk
        self.screen += ANSI.sub(spaces, chunk).replace("\r", "")

    def ready(self) -> None:
        """Wait for a prompt (keys typed before it shows may be lost as it starts)."""
        import time

        deadline = time.monotonic() + 15
        # a prompt turns bracketed paste on as it starts, then shows the cursor when drawn
        while "\x1b[?25h" not in self.tail[max(0, self.tail.rfind("\x1b[?2004h")):] \
                or "\x1b[?2004h" not in self.tail:
            assert time.monotonic() < deadline, f"no prompt:\n{self.screen[-800:]}"
            self._read()

    def wait(self, text: str) -> str:
        """Read the screen until ``text`` shows (any whitespace between its words: it may be
        wrapped); returns the screen up to it, and keeps what follows for the next wait."""
        import time

        pattern = re.compile(r"\s+".join(map(re.escape, text.split())))
        deadline = time.monotonic() + 15
        while (found := pattern.search(self.screen)) is None:
            assert time.monotonic() < deadline, f"no {text!r} on screen:\n{self.screen[-800:]}"
            try:
                self._read()
            except pexpect.EOF:
                raise AssertionError(f"ended without {text!r}:\n{self.screen[-800:]}") from None
        seen, self.screen = self.screen[:found.end()], self.screen[found.end():]
        return seen

    def type(self, *lines: str) -> None:
        for line in lines:
            self.keys(line + "\r")

    def keys(self, keys: str) -> None:
        self.ready()
        if keys.endswith("\r"):
            self.tail = ""
        self.child.send(keys)

    def hang_up(self) -> int:
        """Close the terminal (the recorder, leading its session, gets SIGHUP) and wait for its
        exit code; not pexpect's close(), which signals the child again after 0.1 s."""
        import time

        pty = self.child.ptyproc
        pty.fileobj.close()
        deadline = time.monotonic() + 30
        while pty.isalive():
            assert time.monotonic() < deadline, "the recorder did not end after a hang-up"
            time.sleep(0.05)
        pty.closed = True  # closed here: nothing left for pexpect to close
        return int(pty.exitstatus) if pty.exitstatus is not None else -int(pty.signalstatus)

    def end(self) -> int:
        self.rest = ""
        """What the terminal showed from the last wait to the end, every page of it."""
        while self.child.expect([pexpect.EOF, r"-- more \(\d+ lines\)"]) == 1:
            self.rest += str(self.child.before)
            self.child.send("\r")  # the ruling is paged: the next screenful
        self.rest = ANSI.sub("", self.rest + str(self.child.before)).replace("\r", "")
        self.child.close()
        return int(self.child.exitstatus)


SETUP = {"dungeon": ["Ann Bob", "basic", "none"],
         "memo-dice": ["Ann Bob"],
         "robot-memory": ["custom", "Ann Bob"],
         "memoarrr": ["2023", "expert=no ordered_stack=no", "Ann Bob", "Ann",
                      "Ann north Bob south"],
         "solo": ["none"]}
CLEAR = "\x15"


def started(tmp_path: Path, game: str, columns: int = 100, rows: int = 40) -> Table:
    table = Table(tmp_path, game, "-o", "game.pcn", columns=columns, rows=rows)
    for answer in SETUP[game]:
        table.type(CLEAR + answer)
    table.wait("recording to game.pcn")
    return table


def saved(tmp_path: Path) -> list[str]:
    return (tmp_path / "game.pcn").read_text(encoding="utf-8").splitlines()


# 1. no dead ends in the settings -------------------------------------------------------

def test_settings_are_checked_as_entered_with_every_fix(tmp_path: Path) -> None:
    table = Table(tmp_path, "dungeon", "-o", "game.pcn")
    table.wait("Players")
    table.type("Ann Ann")
    table.wait("'Ann' is named twice (fix: 2 to 5 names")
    table.type(CLEAR + "Ann")
    table.wait("1 given, >= 2 wanted")
    table.type(CLEAR + "Ann Bob")
    table.wait("Mode (basic, advanced)")
    table.type("")
    table.wait("Additional rules")
    table.type(CLEAR + "7 9")
    table.wait("7 is not one of the choices (fix: some of 1 2 3 4, or none)")
    table.type(CLEAR + "none")
    table.wait("open exploration 1")
    table.type(":undo")  # no move yet: back into the settings
    table.wait("Players")
    table.type(CLEAR + "Ann Bob Cy", "", "")
    table.wait("settings changed")
    table.type(":done")
    table.end()
    assert "players: Ann Bob Cy" in saved(tmp_path)


def test_robot_memory_variant_choices_are_listed_and_checked(tmp_path: Path) -> None:
    robot = Table(tmp_path, "robot-memory", "-o", "robot.pcn")
    robot.wait("Variant (standard, solo, team, 5+, custom)")
    robot.type(CLEAR + "basic")
    robot.wait("'basic' is not one of the choices (fix: one of standard solo team 5+ custom)")
    robot.type(CLEAR + "solo", CLEAR + "Ann Bob")
    robot.wait("the solo variant is played by exactly 1 player, not 2")
    robot.child.terminate(force=True)
    assert not (tmp_path / "robot.pcn").exists()


def test_settings_edited_mid_game_must_fit_the_moves(tmp_path: Path) -> None:
    table = started(tmp_path, "memo-dice")
    table.type("round", "Ann 3 cat/blue blue", ":settings")
    table.wait("Players")
    table.type(CLEAR + "Cy Dee Eve")  # not a renaming (three names): Ann's move fits no one
    table.wait("not changed: the moves recorded do not fit them")
    table.type(":done")
    table.end()
    assert "players: Ann Bob" in saved(tmp_path)


# 2. never stops checking silently ------------------------------------------------------

def test_a_round_left_without_its_grid_is_said_at_once(tmp_path: Path) -> None:
    table = started(tmp_path, "robot-memory")
    table.type("round 2x2 first Ann", "row ? short-circuit")  # a grid begun, then left
    table.wait("row 2 of 2")
    table.type("round 2x2 first Bob")
    table.wait("could no longer be ruled on with it")
    table.type(CLEAR + ":done")
    table.wait("it cannot be ruled on")
    assert table.end() == 3  # as documented: a log that cannot be ruled on
    assert saved(tmp_path)[-1] == "row ? short-circuit"


# 9. only what the table knows when it happens -------------------------------------------

def test_robot_memory_asks_for_each_card_when_it_is_turned(tmp_path: Path) -> None:
    table = started(tmp_path, "robot-memory")
    table.wait("each card is asked for when it is turned")  # no grid before the first turn
    table.type("round 2x2 first Ann")
    table.wait("Bob Ann rRcC GUESS [=POINTS]; Bob points, then the card turned is asked for")
    table.type("Bob Ann r1c1 bulb/red")
    table.wait("r1c1 is turned face up: which card?")
    table.type("bulb/red")
    table.wait("'bulb/red' is not a card: name all three features")
    table.type(CLEAR + "bulb/red/3")
    table.wait("Bob to guess")
    table.type("Ann Bob r1c2 short-circuit + Bob r2c1 3", "short-circuit")
    table.wait("r2c1 is turned face up")
    table.type("?")  # nobody noted it
    table.wait("Ann to guess")
    table.type(":show")
    seen = table.wait("the referee's view, with what is face down")
    assert "3R bulb" in seen and "SHORT" in seen and "(?)" in seen  # r2c2 still face down
    table.type(":done")
    seen = " ".join(table.wait("saved game.pcn").split())  # wrapped to the terminal
    assert "the guess of move 2 on r2c1" in seen and "2 cards not recorded (r2c1, r2c2)" in seen
    table.end()
    assert saved(tmp_path)[-2:] == [
        "Bob Ann r1c1 bulb/red is bulb/red/3",
        "Ann Bob r1c2 short-circuit is short-circuit + Bob r2c1 3 is ?"]


# 3. every rule break flagged on its line ----------------------------------------------

def test_a_new_exploration_while_one_goes_on_is_flagged_on_its_line(tmp_path: Path) -> None:
    table = started(tmp_path, "dungeon")
    table.type("exploration Ann", "Ann R1@N", "exploration Bob")
    table.wait("dungeon/exploration-end")
    table.wait("keep it as played (k) or correct it (c)?")
    table.type("c")
    table.wait("exploration Bob")  # the line that broke the rule comes back
    table.type(CLEAR + ":done")
    table.end()
    assert saved(tmp_path)[-1] == "Ann R1@N"


def test_memo_dice_round_while_cups_are_covered_is_flagged_on_its_line(tmp_path: Path) -> None:
    table = started(tmp_path, "memo-dice")
    table.type("round", "Ann 3 cat/blue blue", "round")
    table.wait("memo-dice/covering-end")
    table.type("k")
    table.wait("kept as played")
    table.type("Ann 4 sun/red red")
    seen = table.wait("Bob to roll")
    assert "covering-end" not in seen  # said once, on the line that broke it
    table.type(":done")
    table.end()
    assert "round  # kept as played: memo-dice/covering-end" in saved(tmp_path)


def test_robot_memory_wrong_first_player_hands_back_the_round_line(tmp_path: Path) -> None:
    table = started(tmp_path, "robot-memory")
    table.type("round 1x2 first Ann", "row bulb/red/3 short-circuit",
               "Bob Ann r1c1 bulb/red/3 =6", "Ann Bob r1c2 short-circuit =0",
               "round 1x2 first Ann")  # the grid is not needed: the first is checked at once
    table.wait("robot-memory/next-round-first")
    table.type("")  # Enter: correct
    table.type(CLEAR + "round 1x2 first Bob", "row gear/blue/1 short-circuit")
    table.wait("Bob to guess")
    table.type(":done")
    table.end()
    assert saved(tmp_path)[-2:] == ["round 1x2 first Bob", "row gear/blue/1 short-circuit"]


def test_rule_1_asks_whether_announcements_were_simultaneous(tmp_path: Path) -> None:
    """Issue 21's field: the recorder asks what the line does not say."""
    table = Table(tmp_path, "dungeon", "-o", "game.pcn")
    for answer in ("Ann Bob Cy", "basic", "1"):
        table.type(CLEAR + answer)
    table.wait("recording to")
    table.type("exploration Ann", "Ann R1@N !Bob !Cy")
    table.wait("Bob and Cy announced Lost: at the same moment (=) or one after the other (>)?")
    table.type("x")
    table.wait("'x' is not an answer")
    table.type(">")
    table.wait("Cy to play")  # Bob left the team with his LOST card
    table.type(":done")
    table.end()
    assert saved(tmp_path)[-1] == "Ann R1@N !Bob !Cy !>"


# 4. the keep/correct question never swallows input ------------------------------------

@pytest.mark.parametrize("game", ["dungeon", "memo-dice"])
def test_keep_or_correct_takes_only_k_c_or_enter(tmp_path: Path, game: str) -> None:
    table = started(tmp_path, game)
    if game == "dungeon":
        table.type("exploration Ann", "Ann R1@N", "Ann R2@E")
    else:
        table.type("round", "Ann 3 cat/blue blue", "Ann 4 sun/red red")
    table.wait("keep it as played (k) or correct it (c)?")
    table.type(":ruling")
    table.wait("':ruling' is not an answer: type k to keep")
    table.type("k")
    table.wait("kept as played")
    table.keys("\x1b[A\r")  # Up-arrow: the last move (not the answer k), sent again
    seen = table.wait("keep it as played (k) or correct it (c)?")
    assert "this breaks a rule" in seen and "not read" not in seen
    table.type("c", CLEAR + ":done")
    table.end()
    assert "kept as played" in saved(tmp_path)[-1]


# 5. the prompt says whose turn it is, what to type, what ended ------------------------

def test_the_prompt_says_whose_turn_and_when_the_game_is_over(tmp_path: Path) -> None:
    table = started(tmp_path, "dungeon")
    table.wait("open exploration 1: exploration START_PLAYER")
    table.type("exploration Ann", "Ann R1@N")
    table.wait("Bob to play (TILE@DIR, !NAME to announce) >")
    table.type("Bob R2@W !Ann")
    table.wait("exploration 1 has ended; next: exploration")
    table.type(":done")
    table.end()


def test_the_memo_dice_prompt_follows_covering_and_uncovering(tmp_path: Path) -> None:
    table = started(tmp_path, "memo-dice")
    table.type("round", "Ann 3 cat/blue blue")
    table.wait("Bob to roll (DIE SYMBOL/COLOUR CUP) >")
    table.type(":done")
    table.end()


# 6. Ctrl-C clears, Ctrl-C on an empty line or Ctrl-D ends ------------------------------

def test_ctrl_c_clears_a_half_typed_line_then_ends(tmp_path: Path) -> None:
    table = started(tmp_path, "memo-dice")
    table.type("round")
    table.wait("the first roll")
    table.keys("Ann 3 cat/bl" + CTRL_C)
    table.type("Ann 3 cat/blue blue")  # the half-typed line was cleared, not sent
    table.wait("Bob to roll")
    table.keys(CTRL_C)
    table.wait("pathcheck record --resume game.pcn")
    assert table.end() == 130
    assert saved(tmp_path)[-1] == "Ann 3 cat/blue blue"


def test_a_terminal_that_hangs_up_ends_with_129_and_says_the_log_is_saved(
        tmp_path: Path) -> None:
    table = Table(tmp_path, "memo-dice", "-o", "game.pcn", stderr="err.txt")
    table.type(CLEAR + "Ann Bob")
    table.wait("recording to game.pcn")
    table.type("round")
    table.wait("the first roll")
    table.type("Ann 3 cat/blue blue")
    table.wait("Bob to roll")
    table.ready()
    assert table.hang_up() == 129
    assert (tmp_path / "err.txt").read_text("utf-8") == (
        "pathcheck record: the terminal hung up (SIGHUP): the log is saved: pathcheck record "
        "--resume game.pcn\n")
    assert saved(tmp_path)[-1] == "Ann 3 cat/blue blue"
    table = Table(tmp_path, "memo-dice", "-o", "new.pcn", stderr="err.txt")
    table.wait("Players")
    table.ready()
    assert table.hang_up() == 129 and not (tmp_path / "new.pcn").exists()  # before the game
    assert (tmp_path / "err.txt").read_text("utf-8") == (
        "pathcheck record: the terminal hung up (SIGHUP): nothing was written\n")


def test_ctrl_d_at_keep_or_correct_ends_without_correcting(tmp_path: Path) -> None:
    table = started(tmp_path, "dungeon")
    table.type("exploration Ann", "Ann R1@N", "Ann R2@E")
    table.wait("keep it as played")
    table.keys(CTRL_D)
    table.wait("the line was not recorded: Ann R2@E")
    table.wait("--resume game.pcn")
    assert table.end() == 0


# 7. completion knows where the cursor is ----------------------------------------------

def test_completion_offers_the_player_whose_turn_it_is_first(tmp_path: Path) -> None:
    table = started(tmp_path, "dungeon")
    table.type("exploration Ann", "Ann R1@N")
    table.wait("Bob to play")
    table.keys(TAB)  # the menu: Bob, whose turn it is, first
    table.wait("Bob")
    table.keys(TAB + " r2@e\r")  # tile ids in any case
    table.wait("Ann to play")
    table.type(":done")
    table.end()
    assert saved(tmp_path)[-1] == "Bob R2@E"


def test_completion_quotes_names_with_spaces_and_offers_dice_not_rolled(tmp_path: Path
                                                                         ) -> None:
    table = Table(tmp_path, "memo-dice", "-o", "game.pcn")
    table.type(CLEAR + '"Ann Lee" Bob')
    table.wait("recording to")
    table.type("round", "Bob 3 cat/blue blue")
    table.wait("Ann Lee to roll")
    table.keys(TAB)  # the menu (completions come as a person types: wait for each)
    table.wait('"Ann Lee"')
    table.keys(TAB)  # the player whose turn it is, quoted, first
    table.wait('"Ann Lee"')
    table.keys(" " + TAB)  # the dice not rolled yet: 3 is not offered
    seen = table.wait("8")
    menu = re.findall(r"(?m)^\s+(\d)\s*$", seen)
    assert menu[:3] == ["1", "2", "4"]
    table.keys("5 sun/red red\r")  # after the name Tab put in
    table.wait("Bob to roll")
    table.type(":done")
    table.end()
    assert saved(tmp_path)[-1] == '"Ann Lee" 5 sun/red red'


# 8. :show shows what everyone can see ---------------------------------------------------

SHOWN = {  # game: the moves, what everyone sees, what only the referee sees
    "memo-dice": (["round", "Ann 3 walrus/blue blue"], "Bob to roll", "walrus"),
    "memoarrr": (["round dark", "Ann A1 penguin/water", "Bob B2 octopus/lava", "round dark"],
                 "treasure cards taken (face down): Ann 1, Bob 0", "(pen wat)"),
    "robot-memory": (["round 1x2 first Ann", "row bulb/red/3 short-circuit",
                      "Bob Ann r1c1 bulb =1"], "(?)", "SHORT"),
    "dungeon": (["exploration Ann", "Ann R1@N"], "scores: Ann 0, Bob 0", "The path holds"),
}


@pytest.mark.parametrize("game", list(SHOWN))
def test_show_is_what_the_table_sees_and_show_all_says_it_is_the_referees(
        tmp_path: Path, game: str) -> None:
    moves, public, secret = SHOWN[game]
    table = started(tmp_path, game)
    table.type(*moves, ":show")
    seen = table.wait("the referee's view, with what is face down")
    assert public in seen and secret not in seen.split(moves[-1])[-1]
    if game == "dungeon":
        assert "Bob to play" in seen and "top tile: R1@N" in seen
    table.type(":show all")
    seen = table.wait("REFEREE'S VIEW")
    table.wait(secret)
    table.type(":done")
    table.end()


MEMOARRR_GAME = [  # seven rounds of two reveals: the second never connects
    "round dark", "Ann A2 penguin/water", "Bob B2 octopus/flowers",
    "round dark", "Bob D2 crab/lava", "Ann E2 walrus/jungle",
    "round dark", "Ann A3 turtle/desert", "Bob B3 penguin/flowers",
    "round dark", "Bob D3 octopus/lava", "Ann E3 crab/jungle",
    "round dark", "Ann A4 walrus/desert", "Bob B4 turtle/water",
    "round dark", "Bob C4 penguin/lava", "Ann D4 octopus/desert",
    "round dark", "Ann E4 crab/water", "Bob A5 walrus/flowers"]


def test_memoarrr_treasures_are_asked_when_turned_over_at_the_end(tmp_path: Path) -> None:
    table = Table(tmp_path, "memoarrr", "-o", "game.pcn")
    for answer in SETUP["memoarrr"]:
        table.type(CLEAR + answer)
    seen = table.wait("recording to game.pcn")
    assert "treasure" not in seen.lower()  # nobody has seen the stack at setup
    table.type(*MEMOARRR_GAME)
    table.wait("the winners of rounds 1-7 were Ann, Bob, Ann, Bob, Ann, Bob, Ann")
    table.type("1 1 1 1 1 1 1")
    table.wait("fix: the rubies 1 1 2 2 2 3 4, the card of round 1's winner first")
    table.type(CLEAR + "2 1 4 2 1 3 2")
    table.wait("the game is over")
    table.type(":done")
    assert table.end() == 0 and "Winner: Ann" in table.rest
    assert "treasures: 2 1 4 2 1 3 2" in saved(tmp_path)


# 10. small terminals, resuming, kept violations ------------------------------------------

def test_help_is_paged_on_a_small_terminal_without_breaking_words(tmp_path: Path) -> None:
    table = started(tmp_path, "dungeon", columns=40, rows=10)
    table.type("exploration Ann", "Ann R1@N")
    table.wait("Bob to play")
    seen = table.wait("announce)")
    assert seen.endswith("(TILE@DIR, !NAME to\nannounce)")  # broken between words
    table.type(":help")
    table.wait("Type each move")
    seen = table.wait("-- more")
    help_words = set(record.help_text("game/1", ["Ann", "Bob"]).split())
    shown = [w for w in seen.split() if w.isprintable()][:-2]
    assert len(shown) > 20 and set(shown) <= help_words  # no word broken at the edge
    table.type("q", ":done")
    table.end()


def test_resume_shows_the_last_five_moves_and_whose_turn(tmp_path: Path) -> None:
    table = started(tmp_path, "memo-dice")
    moves = ["round", "Ann 1 umbrella/red red", "Bob 3 cat/blue blue", "Ann 9 sun/red red",
             "Bob 8 snail/black black", "Ann 5 ghost/blue blue"]
    table.type(*moves)
    table.wait("Bob to roll")
    table.keys(CTRL_D)
    table.end()
    again = Table(tmp_path, "--resume", "game.pcn")
    seen = again.wait("Bob to roll")
    assert all(m in seen for m in moves[1:]) and "the last moves" in seen
    again.type(":done")
    again.end()


# 11. help speaks to this table; no terminal --------------------------------------------

def test_help_uses_the_players_names_and_unknown_commands_are_said(tmp_path: Path) -> None:
    table = Table(tmp_path, "memo-dice", "-o", "game.pcn")
    table.wait("Players")
    table.type(CLEAR + "Linda Nora")
    table.wait("recording to")
    table.type(":shw")
    table.wait("unknown command ':shw'")
    table.wait("Linda 2 bell/red red · Nora 7 lemon/red red")
    table.type(":done")
    table.end()


def test_solo_help_says_one_tile_a_line(tmp_path: Path) -> None:
    table = started(tmp_path, "solo")
    table.type(":help")
    table.wait("one tile a line")
    table.type(":done")
    table.end()


# 9. ask only for what the table knows when it happens ----------------------------------

def test_a_solo_game_is_typed_one_tile_a_line(tmp_path: Path) -> None:
    table = started(tmp_path, "solo")
    dungeon = ["START@N", "I1@N", "I2@N", "I3@N", "I4@N", "I5@N", "I6@N", "I7@N", "I8@N",
               "I9@N", "L1@N", "L2@W", "L3@S"]
    for number, tile in enumerate(dungeon, 1):
        table.wait(f"dungeon 1, tile {number}:")
        table.type(tile.lower() if number == 2 else tile)
    table.wait("dungeon 2, tile 1:")  # L3@S got Lost: the next tile starts dungeon 2
    table.type("L4@N")
    seen = table.wait("dungeon 2, tile 2:")
    assert "premature" not in seen and "late" not in seen
    table.type(":undo")
    table.wait("undone: L4@N")
    table.type("L4@N", ":done")
    table.end()
    assert saved(tmp_path)[-2:] == [" ".join(dungeon), "L4@N"]


@pytest.mark.parametrize("stdin", ["devnull", "pipe"])
def test_without_a_terminal_it_says_it_needs_one(tmp_path: Path, stdin: str) -> None:
    feed = {"stdin": subprocess.DEVNULL} if stdin == "devnull" else {"input": "Ann Bob\n"}
    done = subprocess.run([sys.executable, "-m", "pathcheck", "record", "memo-dice"],
                          capture_output=True, cwd=tmp_path, text=True, timeout=30,
                          **feed)
    assert done.returncode == 2 and "needs a terminal" in done.stderr
    assert not list(tmp_path.iterdir())


def test_an_existing_log_is_said_before_any_setting_is_asked(tmp_path: Path) -> None:
    (tmp_path / "game.pcn").write_text("precious\n", encoding="utf-8")
    table = Table(tmp_path, "memo-dice", "-o", "game.pcn")
    shown = table.wait("game.pcn exists: give another --output, or --resume game.pcn")
    assert table.end() == 3 and "Players" not in shown
    assert saved(tmp_path) == ["precious"]
