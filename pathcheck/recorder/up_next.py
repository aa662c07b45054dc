"""What comes next in a game being recorded: whose move, what to type, whether a round (an
exploration) has just ended and whether the game is over, as the game's replay sees it.

The replays of ``pathcheck/games/*/state.py`` decide: each keeps who moves next in the last
round it replayed (``up_next``); this module only words it for the recorder's prompt.

>>> log = {"format": "memo-dice/1", "players": ["Ann", "Bob"],
...        "rounds": [{"covering": [{"player": "Ann", "die": 3, "symbol": "cat",
...                                  "colour": "blue", "cup": "blue"}], "uncovering": []}]}
>>> next_move(log).prompt()
'Bob to roll (DIE SYMBOL/COLOUR CUP) >'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pathcheck.errors import RecordError


@dataclass(frozen=True)
class Next:
    """The next move: who makes it (None: whoever the line names) and what to type, what
    just ended (``status``) and whether the game is over."""

    player: str | None
    what: str
    status: str = ""
    over: bool = False
    verb: str = "to play"
    view: str = ""
    """What everyone at the table can see now (face-up cards, the top tile, scores)."""

    def prompt(self) -> str:
        """The prompt's words: ``Bob to play (TILE@DIR, !NAME to announce) >``."""
        if self.over:
            return f"{self.status} - :done finishes and prints the ruling >".lstrip(" -")
        who = f"{self.player} {self.verb} ({self.what})" if self.player else self.what
        return f"{self.status}; next: {who} >" if self.status else f"{who} >"


def _ordinal_over(noun: str, number: int) -> str:
    return f"{noun} {number} has ended"


def _dungeon(log: Mapping[str, Any]) -> Next:
    from pathcheck.games.dungeon.log import read_game_log
    from pathcheck.games.dungeon.state import Replay

    explorations = log.get("explorations") or []
    if not explorations:
        first = (log.get("players") or ["NAME"])[0]
        return Next(None, f"open exploration 1: exploration START_PLAYER (e.g. exploration "
                          f"{_quoted(str(first))})")
    replay = Replay(read_game_log(log, source="<recording>"))
    rounds = replay.run()
    number = len(explorations)
    turns = explorations[-1]["turns"]
    # while an exploration goes on, its check has not been made: the scores before it
    scores = replay.scores if replay.up_next is None else (
        rounds[-2].scores if len(rounds) > 1 else dict.fromkeys(replay.scores, 0))
    seen = [_scores(scores)]
    if turns:
        top = turns[-1]
        seen.append(f"top tile: {top['tile']}@{top['dir']} (laid by {top['player']}, tile "
                    f"{len(turns) + 1} of the stack)")
    if replay.up_next is not None:
        seen.append(f"still in exploration {number}: {', '.join(replay.team)}")
        return Next(replay.up_next, "TILE@DIR, !NAME to announce", view="\n".join(seen))
    if replay.ended_after is not None:
        winners = " and ".join(replay.winners)
        return Next(None, "", f"the game is over ({winners} won)", over=True,
                    view="\n".join(seen))
    starter = replay.last_player or ""
    return Next(None, f"exploration {_quoted(starter)} ({starter} starts)",
                _ordinal_over("exploration", number), view="\n".join(seen))


def _scores(scores: Mapping[str, int]) -> str:
    return "scores: " + ", ".join(f"{p} {s}" for p, s in scores.items())


def _solo(log: Mapping[str, Any]) -> Next:
    dungeons = log.get("dungeons") or []
    return Next(None, f"dungeon {len(dungeons) + 1}: its tiles TILE@DIR, bottom first "
                      "(| starts the next dungeon)")


def _memoarrr(log: Mapping[str, Any]) -> Next:
    from pathcheck.games.memoarrr.log import read_log
    from pathcheck.games.memoarrr.rules import ROUNDS
    from pathcheck.games.memoarrr.state import Replay

    rounds = log.get("rounds") or []
    opener = "round VOLCANOES (top first)"
    if not rounds:
        start = log.get("start_player")
        return Next(None, f"open round 1: {opener}" + (f" ({start} starts)" if start else ""))
    from pathcheck.games.common import Moment
    from pathcheck.games.memoarrr.at import render_island

    replay = Replay(read_log(log, source="<recording>"))
    replay.run()
    state = replay.state
    turned = state.round >= ROUNDS and state.round_over and log.get("treasures")
    # treasures lie face down until the game ends: only how many, then what they are
    treasures = ("treasure cards turned over: " + ", ".join(
        f"{p} {' + '.join(map(str, cards)) or '-'} ({sum(cards)} rubies)"
        for p, cards in state.treasures.items()) if turned else
        "treasure cards taken (face down): " + ", ".join(
            f"{p} {state.round_winners.count(p)}" for p in state.treasures))
    view = "\n".join([render_island(state, Moment(state.round, state.turns), public=True),
                      treasures])
    if not state.round_over:
        return Next(state.to_move, "POS ANIMAL/LANDSCAPE, or volcano", view=view)
    if state.round >= ROUNDS:
        return Next(None, "", f"round {state.round} has ended and the game is over", over=True,
                    view=view)
    return Next(None, f"{opener} ({state.next_start_player()} starts)",
                _ordinal_over("round", state.round), view=view)


def _memo_dice(log: Mapping[str, Any]) -> Next:
    from pathcheck.games.memo_dice.log import read_log
    from pathcheck.games.memo_dice.state import Replay

    rounds = log.get("rounds") or []
    if not rounds:
        return Next(None, "open round 1: round")
    if not rounds[-1]["covering"]:  # a round just opened: the rounds before say who rolls
        first = None
        if len(rounds) > 1:
            before = Replay(read_log({**log, "rounds": rounds[:-1]}, source="<recording>"),
                            source="<recording>")
            before.play()
            first = before.next_first
        if first is None:
            return Next(None, "PLAYER DIE SYMBOL/COLOUR CUP: the first roll")
        return Next(first, "DIE SYMBOL/COLOUR CUP", verb="to roll")
    from pathcheck.games.memo_dice.at import draw_row

    replay = Replay(read_log(log, source="<recording>"), source="<recording>")
    replay.play()
    view = f"{draw_row(replay.row, public=True)}\n{_scores(replay.scores)}"
    if replay.up_next is not None:
        player, part = replay.up_next
        if part == "covering":
            return Next(player, "DIE SYMBOL/COLOUR CUP", verb="to roll", view=view)
        return Next(player, "CUP SYMBOL", verb="to uncover", view=view)
    if replay.game_end is not None:
        winners = ", ".join(p for p, s in replay.scores.items()
                            if s == max(replay.scores.values()))
        return Next(None, "", f"the game is over ({winners} won)", over=True, view=view)
    return Next(None, f"round ({replay.next_first} rolls first)",
                _ordinal_over("round", len(rounds)), view=view)


def _robot_memory(log: Mapping[str, Any]) -> Next:
    from pathcheck.games.robot_memory.log import read_log
    from pathcheck.games.robot_memory.rules import ROUNDS
    from pathcheck.games.robot_memory.state import Replay

    rounds = log.get("rounds") or []
    opener = "round ROWSxCOLUMNS first NAME; each card is asked for when it is turned"
    if not rounds:
        return Next(None, f"open round 1: {opener}")
    grid = rounds[-1].get("grid") or {}
    typed = len(grid.get("cards") or ())
    if typed < int(grid.get("rows", 0)):
        return Next(None, f"row {typed + 1} of {grid['rows']}: row and its {grid['columns']} "
                          "cards (type/colour/number, short-circuit, ? not known, - no card)")
    game = read_log(log, source="<recording>")
    from pathcheck.games.robot_memory.at import render_grid

    replay = Replay(game)
    replay.run()
    view = f"{render_grid(game.rounds[-1].grid, replay.face_up, public=True)}\n" \
           f"{_scores(replay.scores)}"
    if replay.up_next is not None:
        side = replay.up_next
        # in team play the captains point and answer (the line names them)
        guesser = replay.captains.get(side, side)
        pointer = replay.captains.get(replay.left_of(side), replay.left_of(side))
        if replay.solo:
            pointer = guesser
        return Next(guesser, f"{_quoted(pointer)} {_quoted(guesser)} rRcC GUESS [=POINTS]; "
                             f"{pointer} points, then the card turned is asked for",
                    verb="to guess", view=view)
    if len(rounds) >= ROUNDS:
        return Next(None, "", f"round {len(rounds)} has ended and the game is over",
                    over=True, view=view)
    fewest = min(replay.scores.values())
    lowest = " or ".join(s for s, p in replay.scores.items() if p == fewest)
    return Next(None, f"{opener} ({lowest}: fewest points)", _ordinal_over("round",
                                                                           len(rounds)),
                view=view)


def _quoted(name: str) -> str:
    from pathcheck.notation import word

    return word(name)


_NEXT: Mapping[str, Callable[[Mapping[str, Any]], Next]] = {
    "game/1": _dungeon, "solo/1": _solo, "memoarrr/1": _memoarrr, "memo-dice/1": _memo_dice,
    "robot-memory/1": _robot_memory}


def next_move(log: Mapping[str, Any]) -> Next:
    """What comes next in ``log`` (a log being recorded; it may stop anywhere)."""
    how = _NEXT.get(str(log.get("format")))
    if how is None:
        return Next(None, "the next move line")
    try:
        return how(log)
    except (RecordError, ValueError, KeyError, IndexError):
        # a log that stops mid-setup (a round without its grid yet): the notation says
        return Next(None, "the next move line (:help shows examples)")
