"""The second, plain analysis: each mover's knowledge recomputed from scratch at every move,
from the raw JSON log, with no replay state carried from one move to the next (the dungeon's
Lost points by the networkx reference tracer). Only the marks, chances and costs are made,
to be compared with :mod:`pathcheck.analysis` (tests/analysis/test_differential.py). It reads
legal logs: what an illegal log does to the flow is the main analysis's business.

Costs (docs/analysis.md) are worked out here by enumeration: Memoarrr!'s chances by going
through the cards not seen one by one, the dungeon's points from the LOST cards the turns
before left lying, the robot game's from its scoring table, Memo Dice's from the cup.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pathcheck.games.dungeon.state import clockwise_after
from pathcheck.games.memo_dice.rules import same_symbol
from pathcheck.games.memoarrr.rules import ALL_CARDS, CENTRE, SIDES, Animal, Card, Pos
from pathcheck.tracer.dungeon import LostReason
from pathcheck.tracer.geometry import Direction, Move
from pathcheck.tracer.reference import trace_reference
from pathcheck.tracer.tileset import load_tileset

Plain = tuple[int, int, str, str, float | None]
"""(round, index, player, mark, chance) of one move."""
Costed = tuple[int, int, str, str, float | None, float, int | None]
"""(round, index, player, mark, chance, cost, age) of one move: a slip that cost nothing is
``harmless``; the age is Memoarrr!'s (None for the other games here)."""


def plain_marks(log: dict[str, Any]) -> list[Plain]:
    return [m[:5] for m in plain_costs(log)]


def plain_costs(log: dict[str, Any]) -> list[Costed]:
    out = {"memoarrr/1": _memoarrr, "memo-dice/1": _memo_dice, "robot-memory/1": _robot,
           "game/1": _dungeon, "solo/1": _solo}[log["format"]](log)
    return [(m[0], m[1], m[2], "harmless" if m[3] == "slip" and m[5] == 0 else m[3], m[4],
             float(m[5]), m[6] if len(m) > 6 else None) for m in out]


# --- Memoarrr! --------------------------------------------------------------------------

def _events(log: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
    return [(r, k, a) for r, rnd in enumerate(log["rounds"], 1)
            for k, a in enumerate(rnd["actions"], 1)]


View = tuple[dict[Pos, Card], set[Pos], Card | None, Pos | None, dict[Pos, Card],
             dict[Pos, int], int]


def _memoarrr_view(log: dict[str, Any], player: str, upto: int) -> View:
    """From scratch: what ``player`` knows before event ``upto``, the face-up positions, the
    last card revealed in the round, the walrus mark, the true grid, when ``player`` last saw
    each place known (the count of reveals then: 0 before round 1) and the reveals so far."""
    grid = {Pos(r, c): Card.parse(card) for r, row in enumerate(log["island"])
            for c, card in enumerate(row) if card is not None}
    known = {p: grid[p] for p in SIDES[log["peeks"][player]] if p in grid}
    when = dict.fromkeys(known, 0)
    expert = log.get("variants", {}).get("expert", False)
    reveals = 0
    events = _events(log)
    face_up: set[Pos] = set()
    last: Card | None = None
    mark: Pos | None = None
    current = 0
    for r, _k, action in events[:upto]:
        if r != current:
            current, face_up, last, mark = r, set(), None, None
        mark = None  # a walrus mark binds the very next turn only
        if "reveal" not in action:
            continue
        pos = Pos.parse(action["reveal"])
        card = grid[pos]
        face_up.add(pos)
        succeeded = last is None or card.connects(last)
        last = card
        known[pos] = card
        reveals += 1
        when[pos] = reveals
        other = Pos.parse(action["swap"]) if "swap" in action else pos
        if other not in (pos, CENTRE):  # a swap is made as played, even one not earned
            moved = {pos: grid.get(other), other: grid.get(pos)}
            for p, c in moved.items():
                grid.pop(p, None)
                if c is not None:
                    grid[p] = c
            up = {pos: other in face_up, other: pos in face_up}
            for p, is_up in up.items():
                (face_up.add if is_up else face_up.discard)(p)
            kn = {pos: known.get(other), other: known.get(pos)}
            for p, c in kn.items():
                known.pop(p, None)
                if c is not None:
                    known[p] = c
            seen_then = {pos: when.get(other), other: when.get(pos)}
            for p, t in seen_then.items():
                when.pop(p, None)
                if t is not None:
                    when[p] = t
        if "mark" in action and succeeded and card.animal is Animal.WALRUS and expert:
            mark = Pos.parse(action["mark"])  # only an earned mark binds (an illegal log)
        if "peek" in action and action["player"] == player:
            peeked = Pos.parse(action["peek"])
            if peeked in grid:
                known[peeked] = grid[peeked]
                when[peeked] = reveals
    if upto < len(events) and events[upto][0] != current:
        face_up, last, mark = set(), None, None
    return known, face_up, last, mark, grid, when, reveals


def _memoarrr(log: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    for i, (r, k, action) in enumerate(_events(log)):
        if "reveal" not in action:
            continue
        player = action["player"]
        known, face_up, last, mark, _, when, reveals = _memoarrr_view(log, player, i)
        if last is None:
            continue  # the round's first reveal always succeeds: not a move
        now = reveals + 1  # this reveal's number: an age of 1 is the reveal just before
        allowed = [p for p in (Pos(a, b) for a in range(5) for b in range(5))
                   if p != CENTRE and p not in face_up and p != mark]
        chosen = Pos.parse(action["reveal"])
        if chosen not in allowed and chosen not in known:
            continue  # a card the rules bar (the walrus mark) and never seen: no move judged
        matches = [p for p in allowed if p in known and known[p].connects(last)]
        unknown = [p for p in allowed if p not in known]
        pool = [c for c in ALL_CARDS if c not in set(known.values())]
        share = Fraction(0)
        for card in pool:  # each card not seen, one by one
            share += Fraction(int(card.connects(last)), len(pool))
        chance = share if unknown and pool else Fraction(0)
        made = Fraction(int(known[chosen].connects(last))) if chosen in known else share
        # the age (docs/analysis.md): since the deciding card was last seen
        if matches:  # the youngest card seen that connects, whichever was revealed
            age = now - max(when[p] for p in matches)
            out.append((r, k, player, "sound" if chosen in matches else "slip", None,
                        max(Fraction(0), 1 - made), age))
        elif chance == 0:
            out.append((r, k, player, "sound", None, 0, None))
        elif chosen in unknown and chance == 1:  # every card not seen connects
            seen = [when[p] for p in allowed if p in known]  # none of them connects
            out.append((r, k, player, "sound", None, 0, now - min(seen) if seen else None))
        elif chosen in unknown:
            out.append((r, k, player, "guess", float(chance), 0, None))
        else:  # a card seen not to connect
            out.append((r, k, player, "slip", None, chance - made, now - when[chosen]))
    return out


def plain_unseen(log: dict[str, Any]) -> list[tuple[int, int, int]]:
    """(round, index, places not seen) of each Memoarrr! reveal that is a move: the places
    the mover could reveal whose card they had not seen, as far as the log names it."""
    out: list[tuple[int, int, int]] = []
    for i, (r, k, action) in enumerate(_events(log)):
        if "reveal" not in action:
            continue
        known, face_up, last, mark, *_ = _memoarrr_view(log, action["player"], i)
        if last is not None:
            out.append((r, k, sum(1 for a in range(5) for b in range(5)
                                  if Pos(a, b) not in known and Pos(a, b) != CENTRE
                                  and Pos(a, b) not in face_up and Pos(a, b) != mark)))
    return out


# --- Memo Dice and the robot game --------------------------------------------------------

def _memo_dice(log: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    for r, rnd in enumerate(log["rounds"], 1):
        for j, guess in enumerate(rnd["uncovering"], 1):
            symbol = rnd["covering"][guess["cup"] - 1]["symbol"]  # what everyone saw rolled
            right = guess["guess"] is not None and same_symbol(guess["guess"], symbol)
            cup = 2 if rnd["covering"][guess["cup"] - 1]["cup"] == "golden" else 1
            out.append((r, len(rnd["covering"]) + j, guess["player"],
                        "sound" if right else "slip", None, 0 if right else cup))
    return out


def _robot_points(guess: Any, card: Any, solo: bool) -> int:
    """What naming ``guess`` for ``card`` is worth (a short circuit named outside solo play:
    the other card it lets the player choose, named in full)."""
    if card == "short-circuit":
        return (1 if solo else 6) if guess == "short-circuit" else 0
    if not isinstance(guess, dict) or not guess:
        return 0
    if any(card[name] != value for name, value in guess.items()):
        return 0
    return {1: 1, 2: 3, 3: 6}[len(guess)]


def _robot(log: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    solo = log.get("variant") == "solo"
    for r, rnd in enumerate(log["rounds"], 1):
        for t, turn in enumerate(rnd["turns"], 1):
            for pick in [turn, *turn.get("chain", ())]:
                card = rnd["grid"]["cards"][pick["position"]["row"] - 1][
                    pick["position"]["column"] - 1]  # what everyone saw at setup
                if card == "unknown":
                    continue  # not recorded: what they saw is not known, nothing to judge
                guess = pick["guess"]
                if card == "short-circuit" or guess == "short-circuit":
                    right = card == guess
                else:
                    right = guess == card  # all three features, all right
                cost = _robot_points(card, card, solo) - _robot_points(guess, card, solo)
                out.append((r, t, turn["guesser"], "sound" if right else "slip", None,
                            max(cost, 0)))
    return out


# --- dungeon in memory ---------------------------------------------------------------------

def _lost(tiles: list[tuple[str, Direction]], rules: frozenset[int],
          move: Move = Move.STRAIGHT) -> tuple[int | None, str | None]:
    result = trace_reference(load_tileset(), tiles, rules, move)
    return result.lost_at, result.reason


def _dungeon(log: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    rules = frozenset(log.get("rules", ()))
    players = log["players"]
    perfect_turns = plain_perfect_turns(log)
    for e, exp in enumerate(log["explorations"], 1):
        turns = exp["turns"]
        full = [("START", Direction.N)] + [(x["tile"], Direction[x["dir"]]) for x in turns]
        lost_tile, _ = _lost(full, rules)
        cards = _cards(players, turns, rules)
        for t, turn in enumerate(turns, 1):
            stack = [("START", Direction.N)] + [(x["tile"], Direction[x["dir"]])
                                                 for x in turns[:t]]
            before, _ = _lost(stack[:-1], rules)
            now, reason = _lost(stack, rules)
            active = turn["player"]
            if before is None:
                bad = now == t + 1 and reason == LostReason.MISPLACED.value
                out.append((e, t, active, "slip" if bad else "sound", None, int(bad)))
            team = _team(players, turns[:t - 1], rules)  # from scratch: every earlier turn
            leaving = _leaving(players, turn, team, rules)
            order = clockwise_after(players, active)
            for player in players:
                if player == active or player not in team:
                    continue
                said = player in turn.get("lost", ())
                if 1 in rules and leaving and leaving[0] != player:
                    # rule #1: the log may list only the announcement that stood
                    if now is not None and order.index(leaving[0]) < order.index(player):
                        out.append((e, t, player, "sound", None, 0))  # it would have been void
                    continue  # else speaking could be sound or a slip: not judged
                if said == (now is not None):
                    cost = 0
                elif said:  # too early: the point the perfect announcement scored
                    cost = _perfect_points(player, perfect_turns[e - 1][player], lost_tile,
                                           cards)
                else:  # stayed once Lost: the point announcing now would score
                    cost = _perfect_points(player, t, lost_tile, cards)
                out.append((e, t, player, "sound" if said == (now is not None) else "slip",
                            None, cost))
    return out


def _cards(players: list[str], turns: list[dict[str, Any]],
           rules: frozenset[int]) -> list[tuple[str, int]]:
    """The LOST cards that stood: (player, the tile they lie on)."""
    cards: list[tuple[str, int]] = []
    for t, turn in enumerate(turns, 1):
        team = _team(players, turns[:t - 1], rules)
        cards += [(p, t + 1) for p in _leaving(players, turn, team, rules)]
    return cards


def _perfect_points(player: str, turn: int | None, lost_tile: int | None,
                    cards: list[tuple[str, int]]) -> int:
    """What an announcement by ``player`` in ``turn`` scores (rule II), the others' cards as
    they lay; the path held: staying scores (rule III)."""
    if lost_tile is None:
        return 1
    if turn is None:
        return 0
    return int(all(tile >= turn + 1 for p, tile in cards if p != player and tile >= lost_tile))


def _leaving(players: list[str], turn: dict[str, Any], team: set[str],
             rules: frozenset[int]) -> list[str]:
    """The players whose announcement in ``turn`` stands."""
    said = [p for p in dict.fromkeys(turn.get("lost", ())) if p != turn["player"] and p in team]
    if 1 in rules and said and turn.get("simultaneous", True) is False:
        said = said[:1]  # one after the other: the first to speak stands
    elif 1 in rules and said:
        order = clockwise_after(players, turn["player"])
        said = [min(said, key=order.index)]
    return said


def _team(players: list[str], turns: list[dict[str, Any]], rules: frozenset[int]) -> set[str]:
    team = set(players)
    for turn in turns:
        team -= set(_leaving(players, turn, team, rules))
    return team


def _solo(log: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    rules = frozenset(log.get("rules", ()))
    dungeons = [[(p["tile"], Direction[p["dir"]]) for p in d] for d in log["dungeons"]]
    for d, dungeon in enumerate(dungeons, 1):
        move = _entry_move(dungeons[:d - 1], rules)
        for i in range(1, len(dungeon) + 1):
            if d == 1 and i == 1:
                continue
            if i == 1:
                held = _lost(dungeons[d - 2], rules, _entry_move(dungeons[:d - 2], rules))[0]
                out.append((d, i, "solo", "slip" if held is None else "sound", None,
                            int(held is None)))
                continue
            before, _ = _lost(dungeon[:i - 1], rules, move)
            now, reason = _lost(dungeon[:i], rules, move)
            if before is not None:
                out.append((d, i, "solo", "slip", None, 1))
            else:
                bad = now == i and reason == LostReason.MISPLACED.value
                out.append((d, i, "solo", "slip" if bad else "sound", None, int(bad)))
    return out


def _entry_move(dungeons: list[list[tuple[str, Direction]]], rules: frozenset[int]) -> Move:
    move = Move.STRAIGHT
    for dungeon in dungeons:
        move = trace_reference(load_tileset(), dungeon, rules, move).last_move
    return move


def plain_perfect_turns(log: dict[str, Any]) -> list[dict[str, int | None]]:
    """A ``game/1`` log's perfect announcement turns, exploration by exploration: for each
    player, the first turn at or after the one that made the path Lost in which they are not
    active and no announcement of a player before them in turn order stood (rule #1); None
    when the path held or no such turn came."""
    rules = frozenset(log.get("rules", ()))
    players = log["players"]
    out: list[dict[str, int | None]] = []
    for exp in log["explorations"]:
        turns = exp["turns"]
        stack = [("START", Direction.N)] + [(x["tile"], Direction[x["dir"]]) for x in turns]
        lost_tile, _ = _lost(stack, rules)
        perfect: dict[str, int | None] = {p: None for p in players}
        for player in players:
            if lost_tile is None:
                continue
            for t in range(lost_tile - 1, len(turns) + 1):
                turn = turns[t - 1]
                if turn["player"] == player:
                    continue
                leaving = _leaving(players, turn, _team(players, turns[:t - 1], rules), rules)
                order = clockwise_after(players, turn["player"])
                if (1 in rules and leaving and leaving[0] != player
                        and order.index(leaving[0]) < order.index(player)):
                    continue
                perfect[player] = t
                break
        out.append(perfect)
    return out


def plain_verdicts(log: dict[str, Any]) -> list[dict[str, str]]:
    """A ``game/1`` log's announcement verdicts, exploration by exploration, from the LOST
    cards that stood (:func:`_leaving`), the Lost tile and :func:`plain_perfect_turns`."""
    rules = frozenset(log.get("rules", ()))
    players = log["players"]
    out: list[dict[str, str]] = []
    for exp, perfect in zip(log["explorations"], plain_perfect_turns(log), strict=True):
        turns = exp["turns"]
        stack = [("START", Direction.N)] + [(x["tile"], Direction[x["dir"]]) for x in turns]
        lost_tile, _ = _lost(stack, rules)
        stood: dict[int, list[str]] = {}  # turn -> the players whose card lies after it
        team = set(players)
        for t, turn in enumerate(turns, 1):
            stood[t] = _leaving(players, turn, team, rules)
            team -= set(stood[t])
        card = {p: t for t, who in stood.items() for p in who}
        verdicts: dict[str, str] = {}
        for player in players:
            turn_of = card.get(player)
            best = perfect[player]
            if lost_tile is None:
                verdicts[player] = "held-on" if turn_of is None else "too-early"
            elif turn_of is None:
                verdicts[player] = ("no-chance" if best is None
                                    else "not-judged" if 1 in rules and stood[best]
                                    else "missed")
            elif turn_of + 1 < lost_tile:
                verdicts[player] = "too-early"
            else:
                verdicts[player] = "on-time" if turn_of == best else "late"
        out.append(verdicts)
    return out
