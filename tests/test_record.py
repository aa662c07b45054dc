"""``pathcheck record`` driven as a person would: a whole game of each kind through
prompt-toolkit's pipe input, with a typo corrected, an illegal move kept, an undo, and a resume
after the recording process is killed mid-game (SIGKILL, in a real pseudo-terminal)."""

from __future__ import annotations

import importlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from pathcheck import notation
from pathcheck.render.words import counted

record = importlib.import_module("pathcheck.cli.record")
ROOT = Path(__file__).resolve().parents[1]
CLEAR = "\x15"  # Ctrl-U: clear the line (a prompt may come filled in)
DROPPED = ("note:", "comment:", "event:", "hand ", "deck ", "row1:", "row2:", "row3:", "row4:",
           "row5:", "die")


def body(path: str) -> tuple[list[str], list[str]]:
    """The fixture's header lines and its move lines (the deal and island rows left out)."""
    text = (ROOT / "fixtures" / path).read_text(encoding="utf-8")
    first = next(notation.Reader(text, path).lines).number
    lines = text.splitlines()
    head = [x for x in lines[:first - 1] if not x.startswith(DROPPED)]
    moves = [x for x in lines[first - 1:] if x.strip() and not x.startswith(DROPPED)]
    return head, moves


# game, fixture, settings typed, (typo line, its correction's index), illegal line kept
GAMES = [
    ("dungeon", "dungeon/legal-3p-basic.pcn", ["Ann Bob Cy", "basic", "none"],
     "Ann R1@N zz", "Bob I4@W"),
    ("solo", "dungeon/legal-solo-perfect-standard-order.pcn", ["none"],
     "START@N I1N", "START@N I1@E"),
    ("memoarrr", "memoarrr/legal-handmade-2p-2023.pcn",
     ["2023", "expert=no ordered_stack=no", "Ann Ben", "Ann", "Ann north Ben south"],
     "Ann A1 penguin/water zz", "Ben A1 penguin/water"),
    ("memo-dice", "memo-dice/legal-short-game.pcn", ["Linda Nora"],
     "Linda 1 umbrella/red", "Linda 1 umbrella/red blue"),
    ("robot-memory", "robot-memory/legal-custom-2x2.pcn", ["custom", "Ann Ben"],
     "Ben Ann r1c2 short-circuit =0 zz", "Ann Ben r1c2 short-circuit =0"),
]


def expected(game: str, fixture: str, settings: list[str]) -> dict[str, object]:
    """The log the keeper records: the fixture as typed (without what is not asked)."""
    head, moves = body(fixture)
    return notation.parse("\n".join(head + moves) + "\n", source=fixture)


def run_keys(keys: str, game: str | None, path: Path, resume: bool = False) -> tuple[int, str]:
    out: list[str] = []
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()  # then the keeper's input ends (EOF: Ctrl-D), so a test cannot hang
        code = record.run(None if resume else game, str(path), str(path) if resume else None,
                          echo=out.append, input=pipe, output=DummyOutput())
    return code, "\n".join(out)


@pytest.mark.parametrize(("game", "fixture", "settings", "typo", "illegal"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_record_a_whole_game(tmp_path: Path, game: str, fixture: str, settings: list[str],
                             typo: str, illegal: str) -> None:
    _, moves = body(fixture)
    log_file = tmp_path / "game.pcn"
    keys = "".join(CLEAR + s + "\n" for s in settings)
    first_turn = next(i for i, m in enumerate(moves)
                      if not m.startswith(("exploration", "round", "row")))
    for i, move in enumerate(moves):
        if i == first_turn:
            keys += typo + "\n"  # not read: the line comes back filled in
            keys += CLEAR + illegal + "\n"  # corrected, but it breaks a rule:
            keys += "k\n"  # kept as played
            keys += ":show\n:undo\n"  # then taken back
        keys += move + "\n"
    if game == "memoarrr":  # the treasure cards, turned over when the game is over
        keys += "2 1 4 2 1 3 2\n"
    keys += ":done\n"
    code, shown = run_keys(keys, game, log_file)
    assert code == 0, shown
    assert "not read: column" in shown
    assert "this breaks a rule:" in shown and "kept as played" in shown
    assert f"undone: {illegal}" in shown
    assert "Verdict: legal" in shown
    recorded = notation.parse(log_file.read_text(encoding="utf-8"), source=str(log_file))
    assert recorded == expected(game, fixture, settings)


NAMES = {"memoarrr": {"Bob": "Ben", "dark light": "dark"}, "robot-memory": {"Bob": "Ben"},
         "memo-dice": {"Ann": "Linda", "Bob": "Nora"}}
"""The examples as GAMES' settings take them: other players than the examples' Ann, Bob
(and Cy), and 2 players play Memoarrr! with one volcano."""


@pytest.mark.parametrize(("game", "settings"), [(g[0], g[2]) for g in GAMES],
                         ids=[g[0] for g in GAMES])
def test_help_shows_example_lines_the_game_takes(tmp_path: Path, game: str,
                                                 settings: list[str]) -> None:
    from pathcheck.recorder import EXAMPLES
    from pathcheck.recorder import GAMES as FORMATS

    examples = [line for line, _ in EXAMPLES[FORMATS[game]]]
    lines = []
    for line in examples:
        for name, other in NAMES.get(game, {}).items():
            line = line.replace(name, other)
        lines.append(line)
    keys = "".join(CLEAR + s + "\n" for s in settings) + ":help\n"
    keys += "".join(x + "\n" for x in lines) + ":done\n"
    code, shown = run_keys(keys, game, tmp_path / "game.pcn")
    assert code == 0
    assert all(line in shown for line in lines if "dark" not in line)  # with these names
    for trouble in ("this breaks a rule", "not read", "no longer be ruled on"):
        assert trouble not in shown, shown
    recorded = tmp_path.joinpath("game.pcn").read_text(encoding="utf-8").splitlines()
    if game == "solo":  # one dungeon, typed a tile or a few at a time
        lines = [" ".join(lines)]
    assert recorded[-len(lines):] == lines


def test_a_line_that_does_not_read_gets_one_line_of_error(tmp_path: Path) -> None:
    keys = f"{CLEAR}Ann Bob\nround\nAnn 3 cat/blue bleu\n{CLEAR}:done\n"
    _, shown = run_keys(keys, "memo-dice", tmp_path / "dice.pcn")
    flat = " ".join(shown.split())  # one message (wrapped at the terminal's width)
    assert flat.count("no longer be ruled on with it") == 1
    message = flat.split("no longer be ruled on with it")[1].split(":help)")[0]
    assert "'bleu' is not one of" in message and "Ctrl-U clears it" in message
    assert flat.count("correct") == 1


def test_an_illegal_move_kept_stays_in_the_log(tmp_path: Path) -> None:
    log_file = tmp_path / "dungeon.pcn"
    keys = (f"{CLEAR}Ann Bob\n{CLEAR}basic\n{CLEAR}none\nexploration Ann\n"
            "Ann R1@N\nAnn R2@E\nk\n:done\n")
    code, shown = run_keys(keys, "dungeon", log_file)
    assert code == 0
    assert "dungeon/turn-order" in shown and "ILLEGAL" in shown
    last = log_file.read_text(encoding="utf-8").splitlines()[-1]
    assert last == "Ann R2@E  # kept as played: dungeon/turn-order"


def test_correcting_instead_of_keeping(tmp_path: Path) -> None:
    log_file = tmp_path / "dice.pcn"
    keys = f"{CLEAR}Ann Bob\nround\nAnn 3 cat/blue red\nc\n{CLEAR}Ann 3 cat/blue blue\n:done\n"
    code, shown = run_keys(keys, "memo-dice", log_file)
    assert code == 0 and "memo-dice/cup-colour" in shown
    assert log_file.read_text(encoding="utf-8").splitlines()[-1] == "Ann 3 cat/blue blue"


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    from pathcheck.errors import InputError

    log_file = tmp_path / "mine.pcn"
    log_file.write_text("precious\n")
    with pytest.raises(InputError, match="exists"):
        run_keys("", "memo-dice", log_file)
    assert log_file.read_text() == "precious\n"


def test_ctrl_c_stops_with_the_log_saved(tmp_path: Path) -> None:
    log_file = tmp_path / "dice.pcn"
    code, shown = run_keys(f"{CLEAR}Ann Bob\nround\nAnn 3 cat/blue blue\n\x03", "memo-dice",
                           log_file)
    assert code == 130 and "--resume" in shown
    assert log_file.read_text().splitlines()[-1] == "Ann 3 cat/blue blue"


def _expect(fd: int, text: bytes, seen: bytearray, timeout: float = 30.0) -> None:
    """Read the terminal until ``text`` appears (the recorder is waiting for input)."""
    deadline = time.monotonic() + timeout
    while text not in seen:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no {text!r} on the terminal; got {bytes(seen[-300:])!r}"
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                raise AssertionError(f"terminal closed; got {bytes(seen[-300:])!r}")
            seen.extend(chunk)
            if b"\x1b[6n" in chunk:  # the terminal is asked where its cursor is: answer
                os.write(fd, b"\x1b[1;1R")
    del seen[:]


def _drain(fd: int, seen: bytearray) -> None:
    ready, _, _ = select.select([fd], [], [], 0.05)
    if ready:
        chunk = os.read(fd, 4096)
        if b"\x1b[6n" in chunk:
            os.write(fd, b"\x1b[1;1R")
        seen.extend(chunk)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX)")
def test_resume_after_the_recorder_is_killed(tmp_path: Path) -> None:
    fixture = "memo-dice/legal-short-game.pcn"
    _, moves = body(fixture)
    log_file = tmp_path / "killed.pcn"
    master, slave = os.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "40"}
    proc = subprocess.Popen([sys.executable, "-m", "pathcheck", "record", "memo-dice", "-o",
                             str(log_file)], stdin=slave, stdout=slave, stderr=slave, env=env,
                            cwd=tmp_path, start_new_session=True)
    os.close(slave)
    seen = bytearray()
    try:
        _expect(master, b"Players", seen)
        os.write(master, b"Linda Nora\r")
        half = len(moves) // 2
        for move in moves[:half]:
            _expect(master, b" >", seen)
            os.write(master, move.encode() + b"\r")
        deadline = time.monotonic() + 30
        while not log_file.exists() or log_file.read_text().splitlines()[-1] != moves[half - 1]:
            assert time.monotonic() < deadline, "the recorder did not save the moves"
            _drain(master, seen)
        os.kill(proc.pid, signal.SIGKILL)  # mid-game, without a chance to clean up
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert proc.returncode == -signal.SIGKILL
    saved = log_file.read_text(encoding="utf-8").splitlines()
    assert saved[-half:] == moves[:half]
    assert not list(tmp_path.glob("*.tmp*"))  # no half-written temporary file left over

    keys = "".join(m + "\n" for m in moves[half:]) + ":done\n"
    code, shown = run_keys(keys, None, log_file, resume=True)
    assert code == 0, shown
    assert f"resuming {log_file}: {counted(half, 'move line')} so far" in " ".join(shown.split())
    assert "Verdict: legal" in shown
    recorded = notation.parse(log_file.read_text(encoding="utf-8"), source="resumed")
    assert recorded == expected("memo-dice", fixture, ["Linda Nora"])


@pytest.mark.parametrize(("fixture", "unfinished"), [
    ("dungeon/illegal-exploration-unfinished.json", True),
    ("dungeon/illegal-game-unfinished.json", True),
    ("dungeon/illegal-turn-order.json", False),
    ("memo-dice/illegal-uncover-all.json", True),
    ("memo-dice/illegal-wrong-guess.json", False),
    ("robot-memory/illegal-three-rounds.json", True),
    ("robot-memory/illegal-score-3.json", False),
])
def test_violations_say_whether_the_log_only_stops_early(fixture: str, unfinished: bool) -> None:
    """The recorder keeps quiet about "the log stops here" violations by this mark alone."""
    import json

    from pathcheck import games

    path = Path(__file__).resolve().parent.parent / "fixtures" / fixture
    log = json.loads(path.read_text(encoding="utf-8"))
    ruling = games.for_format(log["format"]).adjudicate(
        log, source=str(path), options=games.AdjudicateOptions())
    assert ruling.violations
    assert any(v.unfinished for v in ruling.violations) is unfinished


def test_completion_offers_the_players_hand_first_when_the_deal_is_recorded() -> None:
    from pathcheck.recorder import Recording

    recording = Recording.new("dungeon", {"players": "Ann Bob", "mode": "basic"})
    for line in ("exploration Ann", "hand Ann R1 I4 R6", "hand Bob R2 R4 I1", "Ann R1@N"):
        recording.add(line)
    tiles = [w for w in recording.words("Bob") if "@" in w]
    assert tiles[:12] == [f"{t}@{d}" for t in ("R2", "R4", "I1") for d in "NESW"]
    assert "R1@N" not in recording.words("Bob")  # placed already


def test_a_comment_above_the_format_line_is_resumed_with_its_format(tmp_path: Path) -> None:
    log_file = tmp_path / "c.pcn"
    text = (ROOT / "fixtures/dungeon/legal-3p-basic.pcn").read_text(encoding="utf-8")
    log_file.write_text("# my game\n" + text, encoding="utf-8")
    code, shown = run_keys(":settings\n\n\n\n\n\n:done\n", None, log_file, resume=True)
    assert code in (0, 1), shown  # :done rules on the log: never an internal error (70)
    assert "players" in shown
    assert log_file.read_text(encoding="utf-8").startswith("# my game\n")


def test_settings_read_the_header_by_the_text_readers_line_ends() -> None:
    from pathcheck.recorder import Recording

    recording = Recording.new("dungeon", {"players": "Ann Bob", "mode": "basic"})
    recording.header += "# seats\u2028players: Zed\n"  # U+2028 ends no line: all a comment
    assert recording.settings()["players"] == "Ann Bob"
    again = recording.header_with({"players": "Ann Cy"}, ["players"])
    assert again.count("players:") == 2 and "players: Ann Cy\n" in again  # one, and the comment
