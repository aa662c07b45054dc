"""The deal of a dungeon exploration and what the log shows of it: hands, deck, draws.

A deal may be left out of a ``game/1`` log, wholly or in part (``hands`` and/or ``deck``).
The replay then counts the tiles nobody saw (:data:`UNSEEN`) and rules only on what the log
itself still shows (docs/rules.md R8):

- a draw of START, of a tile not in play in the mode, of a tile already in the dungeon, of a
  tile drawn before, of a tile dealt to a hand, or from an empty deck (or no draw from a deck
  that still holds tiles);
- a tile placed that is START, not in play, already in the dungeon, still in a recorded deck,
  or that the player cannot hold (their dealt tiles and draws are all accounted for);
- a recorded deck whose length does not fit the players and the mode;
- a tile placed that another player's unverified draw record names: the dungeon shows the
  tile was placed, so the draw record is the one that is wrong (the drawer keeps an unseen
  tile).

What cannot be checked is listed, rule by rule, in the ruling's notes
(:func:`unchecked_rules`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pathcheck.errors import pointer_join
from pathcheck.facts import DealtTileFact, DealtTileReason, DeckSizeFact, MissingTilesFact, Mode
from pathcheck.games.dungeon.log import Exploration, GameLog, Turn
from pathcheck.games.dungeon.rules import DEAL, DRAW, EXPLORATION_END, FROM_HAND, hand_size
from pathcheck.render.words import counted
from pathcheck.ruling import (
    ExplorationEndFact,
    Fact,
    HandSizeFact,
    MoveRef,
    NotCheckedFact,
    Rule,
    TileFact,
    Violation,
)
from pathcheck.tracer.check import LostCard
from pathcheck.tracer.dungeon import Placement

UNSEEN = "?"
"""A tile nobody saw: what a hand or the deck holds when the deal was not recorded."""


@dataclass(slots=True)
class Table:
    """The state of one exploration while it is replayed."""

    team: list[str]
    hands: dict[str, list[str]]
    deck: list[str]
    placements: list[Placement]
    cards: list[LostCard]
    ended: str | None = None
    ended_fact: ExplorationEndFact | None = None
    active: str | None = None
    placed: dict[str, int] = field(default_factory=dict)
    """Tile -> its 1-based place in the stack (START is tile 1)."""
    drawn: dict[str, tuple[str, int, Turn]] = field(default_factory=dict)
    """Only when the deck was not recorded: tile -> who drew it by the log, in which turn
    (1-based) and that turn, for the draws of turns played in turn order. Such a draw is the
    drawer's word alone."""
    dealt: dict[str, str] = field(default_factory=dict)
    """Only when the hands were recorded and the deck not: tile -> the player dealt it."""
    whole_deal: bool = True
    """Both the hands and the deck were recorded."""
    adrift: int = 0
    """Turns played out of turn order: with a hand nobody saw, whose hand each of their tiles
    came from or went to is in doubt, so as many tiles may be laid by anyone."""
    owed: list[tuple[str, str, int, Turn]] = field(default_factory=list)
    """Tiles laid by a player who held no tile for them but tiles they drew by their word
    alone: (player, a drawn tile set aside as the draw in doubt, the turn of that laying
    (1-based), that turn). Settled at the end of the exploration (:meth:`settle`)."""
    deck_in_doubt: bool = False
    """Only the deck was recorded, and its length is wrong: which tiles it holds is in doubt
    (a tile laid from a hand nobody saw may be one it names)."""


def unchecked_rules(exp: Exploration) -> str:
    """What a deal-less exploration leaves unchecked, rule by rule (the ruling's notes).

    >>> from pathcheck.games.dungeon.log import Exploration
    >>> unchecked_rules(Exploration("Ann", {}, (), (), "", False, True))[:30]
    'dungeon/deal (which tiles each'
    """
    end = ("dungeon/exploration-end (a hand running out, counted with the tiles nobody saw "
           "after a draw or a tile laid the log gets wrong)")
    if not exp.hands_recorded and not exp.deck_recorded:
        return ("dungeon/deal (hand sizes, every tile dealt once), dungeon/from-hand (which "
                "tiles a hand holds, beyond what the draws recorded show), dungeon/draw (the "
                f"order of the deck) and {end}: the deal was not recorded")
    if not exp.hands_recorded:
        return ("dungeon/deal (which tiles each hand holds), dungeon/from-hand (which of the "
                f"tiles not in the deck a hand holds) and {end}: the hands were not recorded")
    return ("dungeon/deal (the deck: its length and that it holds every other tile once), "
            "dungeon/draw (the order of the deck, so which tile each draw takes), "
            "dungeon/from-hand (a tile drawn without a record may be any tile of the deck) and "
            f"{end}: the deck was not recorded")


def unchecked_fact(exp: Exploration) -> NotCheckedFact:
    """What :func:`unchecked_rules` words, as fields."""
    if not exp.hands_recorded and not exp.deck_recorded:
        return NotCheckedFact("deal", (DEAL.id, FROM_HAND.id, DRAW.id, EXPLORATION_END.id))
    if not exp.hands_recorded:
        return NotCheckedFact("hands", (DEAL.id, FROM_HAND.id, EXPLORATION_END.id))
    return NotCheckedFact("deck", (DEAL.id, DRAW.id, FROM_HAND.id, EXPLORATION_END.id))


class DealReplay:
    """The deal's part of :class:`~pathcheck.games.dungeon.state.Replay` (which sets these)."""

    log: GameLog
    _in_play: tuple[str, ...]
    _in_play_set: frozenset[str]
    violations: list[Violation]
    unchecked: list[tuple[int, str]]

    def _violate(self, rule: Rule, move: MoveRef, message: str, *, fact: Fact,
                 unfinished: bool = False) -> None:
        self.violations.append(Violation(rule, move, message, fact, unfinished))

    def _mode(self) -> Mode:
        return "advanced" if self.log.advanced else "basic"

    def deal(self, number: int, exp: Exploration, table: Table) -> None:
        """Fill ``table``'s hands and deck from the log; a part not recorded is made of
        UNSEEN tiles (only their counts matter: they decide when a hand runs out, the end
        of an exploration, and when the deck does)."""
        log = self.log
        size = hand_size(log.advanced)
        if exp.hands_recorded:
            table.hands = {p: list(exp.hands.get(p, ())) for p in log.players}
        else:
            table.hands = {p: [UNSEEN] * size for p in log.players}
        if exp.deck_recorded:
            table.deck = list(exp.deck)
            table.deck_in_doubt = not exp.hands_recorded and \
                len(exp.deck) != len(self._in_play) - len(log.players) * size
        else:
            held = sum(len(h) for h in table.hands.values())
            table.deck = [UNSEEN] * max(0, len(self._in_play) - held)
            if exp.hands_recorded:
                table.dealt = {t: p for p, hand in exp.hands.items() for t in hand}
        if not (exp.hands_recorded and exp.deck_recorded):
            table.whole_deal = False
            self.unchecked.append((number - 1, unchecked_rules(exp)))

    def check_deal(self, number: int, exp: Exploration) -> None:
        log = self.log
        if not exp.hands_recorded and not exp.deck_recorded:
            return
        size = hand_size(log.advanced)
        mode = self._mode()
        in_play = self._in_play
        for player in log.players if exp.hands_recorded else ():
            hand = exp.hands.get(player)
            if hand is not None and len(hand) == size:
                continue
            at = pointer_join(exp.pointer, "hands", player)
            if hand is None:
                self._violate(DEAL, MoveRef(round=number, player=player,
                                            pointer=exp.pointer + "/hands"),
                              f"{player} was dealt no hand; the {mode} rules deal {size} tiles",
                              unfinished=True, fact=HandSizeFact(player, None, size))
            elif len(hand) != size:
                self._violate(DEAL, MoveRef(round=number, player=player, pointer=at),
                              f"{player} was dealt {counted(len(hand), 'tile')}; the {mode} "
                              f"rules deal {size}", fact=HandSizeFact(player, len(hand), size))
        if exp.deck_recorded and not exp.hands_recorded:
            players = len(log.players)
            right = len(in_play) - players * size
            if len(exp.deck) != right:
                self._violate(DEAL, MoveRef(round=number, pointer=exp.pointer + "/deck"),
                              f"the deck holds {counted(len(exp.deck), 'tile')}; after dealing "
                              f"{size} to each of {players} players the {mode} rules leave "
                              f"{right} of the {len(in_play)}",
                              fact=DeckSizeFact(len(exp.deck), right, players, size,
                                                len(in_play), mode))
        hands = exp.hands.values()  # (the reader let only the players' hands in)
        if len(exp.deck) + sum(map(len, hands)) == len(in_play) and \
                self._in_play_set == set(exp.deck).union(*hands):
            return  # every tile of the mode once, START not among them: a right deal
        # Where each tile lies, as pointer parts: pointers are written only for a message.
        seen: dict[str, tuple[str | int, ...]] = {}
        dealt: list[tuple[tuple[str | int, ...], str]] = [
            (("hands", p, i), t) for p in log.players for i, t in enumerate(exp.hands.get(p, ()))]
        dealt += [(("deck", i), t) for i, t in enumerate(exp.deck)]
        playable = self._in_play_set
        start = log.tileset.start
        for where, tile in dealt:
            if tile == start or tile not in playable or tile in seen:
                first = None
                if tile == start:
                    reason: DealtTileReason = "start"
                    message = f"{tile} lies in the middle of the table: it is not dealt"
                elif tile not in playable:
                    reason = "not-in-play"
                    message = f"{tile} is not in play with the {mode} rules"
                else:
                    reason, first = "twice", pointer_join(exp.pointer, *seen[tile])
                    message = f"{tile} is dealt twice (also at {first})"
                self._violate(DEAL, MoveRef(round=number, pointer=pointer_join(exp.pointer,
                                                                                 *where)),
                              message, fact=DealtTileFact(tile, reason, mode, first))
            seen.setdefault(tile, where)
        missing = [t for t in in_play if t not in seen]
        if missing and exp.hands_recorded and exp.deck_recorded:
            self._violate(DEAL, MoveRef(round=number, pointer=exp.pointer + "/deck"),
                          f"{counted(len(missing), 'tile')} of the {mode} set "
                          f"{'is' if len(missing) == 1 else 'are'} in no hand and not in the "
                          f"deck: {', '.join(missing)}",
                          fact=MissingTilesFact(tuple(missing), mode))

    def _not_in_play(self, tile: str) -> str | None:
        """Why ``tile`` can be in no hand and in no deck (None: it can)."""
        if tile == self.log.tileset.start:
            return f"{tile} lies in the middle of the table: it is never dealt"
        if tile not in self._in_play_set:
            return f"{tile} is not in play with the {self._mode()} rules"
        return None

    def place_unheld(self, number: int, t: int, turn: Turn, table: Table,
                     exp: Exploration, *, in_turn: bool) -> None:
        """The active player lays a tile that is not in their hand as far as the replay
        knows: rule on what the log shows, then lay it (the log as played). ``in_turn``:
        the player is the one whose turn it is (else who laid the tile is in doubt)."""
        tile = turn.placement.tile
        player = turn.player
        hand = table.hands[player]
        holder = next((p for p, h in table.hands.items() if tile in h), None)
        placed = table.placed.get(tile)
        where = self._not_in_play(tile)
        drawn = table.drawn.get(tile)
        if where is not None:
            pass
        elif placed is not None:
            where = f"{tile} already lies in the dungeon as tile {placed}"
        elif self._repay(number, table, turn):
            return
        elif holder is not None and drawn is not None and drawn[0] == holder \
                and UNSEEN in hand and in_turn:
            # Only the holder's unverified draw record says the tile is theirs; the dungeon
            # shows that the player, whose turn it was, laid it: the draw record is wrong.
            drawer, s, draw_turn = drawn
            self._violate(DRAW, MoveRef(round=number, index=s, player=drawer,
                                        pointer=draw_turn.pointer + "/draw"),
                          f"{drawer} draws {tile}, but {player} lays {tile} in turn {t}: "
                          f"{player} held it, so {drawer} drew another tile",
                          fact=TileFact(drawer, tile))
            table.hands[holder].remove(tile)
            del table.drawn[tile]
            if not self._explains_owed(table, holder, s):
                table.hands[holder].append(UNSEEN)
            hand.remove(UNSEEN)
            self._lay(table, turn)
            return
        elif holder is not None:
            if drawn is not None and drawn[0] == holder:
                how = f"drawn in turn {drawn[1]}"
            elif exp.hands_recorded and tile in exp.hands.get(holder, ()):
                how = "dealt to them"
            else:
                how = "drawn"
            where = f"{tile} is in {holder}'s hand ({how})"
            table.hands[holder].remove(tile)
        elif exp.deck_recorded and tile in table.deck and not (
                table.deck_in_doubt and UNSEEN in hand):
            where = (f"{tile} is still in the deck (position {table.deck.index(tile) + 1} "
                     "from the top)")
            table.deck.remove(tile)
        elif UNSEEN in hand:  # a tile nobody saw (dealt or drawn unrecorded), taken as played
            hand.remove(UNSEEN)
            self._lay(table, turn)
            return
        elif table.adrift and not table.whole_deal:
            table.adrift -= 1
            self._lay(table, turn)
            return
        elif self._set_aside(table, player, t, turn):
            self._lay(table, turn)
            return
        elif exp.hands_recorded and exp.deck_recorded:
            where = f"{tile} was not dealt in this exploration"
        elif exp.hands_recorded:
            where = (f"{tile} lies in the deck (it was dealt to no hand) and no draw of "
                     f"{player}'s is left unrecorded to have taken it")
        elif exp.deck_recorded:
            where = (f"{tile} was dealt to a hand, but the tiles dealt to {player} and "
                     "drawn by them are all accounted for")
        else:
            where = f"the tiles dealt to {player} and drawn by them are all accounted for"
        held = held_text(hand)
        self._violate(FROM_HAND, MoveRef(round=number, index=t, player=player,
                                         pointer=turn.pointer + "/tile"),
                      f"{player} plays {tile}, which is not in their hand (they hold "
                      f"{held}): {where}", fact=TileFact(player, tile))
        self._lay(table, turn)

    @staticmethod
    def _suspects(table: Table, player: str) -> list[str]:
        """The tiles ``player`` holds by their own unverified draw record, earliest first."""
        drawn = table.drawn
        held = [x for x in table.hands[player] if x in drawn and drawn[x][0] == player]
        return sorted(held, key=lambda x: drawn[x][1])

    def _set_aside(self, table: Table, player: str, t: int, turn: Turn) -> bool:
        """``player`` lays a tile they cannot hold, but holds tiles drawn by their word
        alone: one of those draws is wrong; set the earliest aside (the hand shrinks as the
        tile is laid) and decide at the end which (False: no such tile)."""
        suspects = self._suspects(table, player)
        if not suspects:
            return False
        table.hands[player].remove(suspects[0])
        table.owed.append((player, suspects[0], t, turn))
        return True

    @staticmethod
    def _explains_owed(table: Table, player: str, drawn_at: int) -> bool:
        """``player``'s draw in turn ``drawn_at`` turns out to be of a tile nobody saw: if
        they laid, after it, a tile they could not hold (a draw of theirs set aside for it),
        that is the tile they drew, and the draw set aside stands again (False: none)."""
        owed = next((o for o in table.owed if o[0] == player and o[2] > drawn_at), None)
        if owed is None:
            return False
        table.owed.remove(owed)
        table.hands[player].append(owed[1])
        return True

    def _repay(self, number: int, table: Table, turn: Turn) -> bool:
        """``turn`` lays a tile its player had set aside: that draw was right after all; set
        aside the next one, or, with none left, the laying that set it aside had no tile."""
        player, tile = turn.player, turn.placement.tile
        owed = next((o for o in table.owed if o[0] == player and o[1] == tile), None) \
            if table.owed else None
        if owed is None:
            return False
        table.owed.remove(owed)
        if not self._set_aside(table, player, owed[2], owed[3]):
            laying = owed[3]
            self._violate(FROM_HAND, MoveRef(round=number, index=owed[2], player=player,
                                             pointer=laying.pointer + "/tile"),
                          f"{player} plays {laying.placement.tile}, which is not in their "
                          f"hand: the tiles dealt to {player} and drawn by them are all "
                          "accounted for (every tile they drew is laid)",
                          fact=TileFact(player, laying.placement.tile))
        self._lay(table, turn)
        return True

    def settle(self, number: int, table: Table) -> None:
        """The tiles still set aside at the end of an exploration: their draw records are
        the wrong ones (the player laid another tile instead)."""
        for player, tile, t, turn in table.owed:
            # (a tile is set aside only while its draw record stands: drawn[tile] is there)
            _, s, draw_turn = table.drawn[tile]
            self._violate(DRAW, MoveRef(round=number, index=s, player=player,
                                        pointer=draw_turn.pointer + "/draw"),
                          f"{player} draws {tile}, but {player} lays {turn.placement.tile} in "
                          f"turn {t}: with the tiles dealt and drawn all laid, that draw was "
                          f"another tile ({tile} is never laid by {player})",
                          fact=TileFact(player, tile))
        table.owed.clear()

    @staticmethod
    def _lay(table: Table, turn: Turn) -> None:
        table.placements.append(turn.placement)
        table.placed.setdefault(turn.placement.tile, len(table.placements))

    def draw_other(self, number: int, t: int, turn: Turn, table: Table,
                   top: str | None, *, in_turn: bool) -> None:
        """The log records a draw that is not ``top``, the tile taken off the deck (UNSEEN
        when the deck was not recorded). ``in_turn`` as for :meth:`place_unheld`."""
        got = turn.draw
        hand = table.hands[turn.player]
        move = MoveRef(round=number, index=t, player=turn.player, pointer=turn.pointer + "/draw")
        if top == UNSEEN and got is not None:  # the deck was not recorded: is the draw possible?
            why = self._undrawable(got, table)
            if why is None:
                hand.append(got)
                if in_turn:
                    table.drawn[got] = (turn.player, t, turn)
                return
            self._violate(DRAW, move, f"{turn.player} draws {got}, but {why}",
                          fact=TileFact(turn.player, got))
            hand.append(UNSEEN)  # a tile was drawn; which one the log does not tell
            return
        what = (f"the deck still holds {counted(len(table.deck) + 1, 'tile')}" if top == UNSEEN
                else f"the top of the deck is {top or 'empty (nothing to draw)'}")
        self._violate(DRAW, move, f"{turn.player} draws {got or 'nothing'}, but {what}",
                      fact=TileFact(turn.player, got))
        if top is not None:
            table.deck.insert(0, top)
        if got is not None and got in table.deck:
            table.deck.remove(got)
        if got is not None:
            # With a hand nobody saw, the tile named may be someone else's: the drawer holds
            # a tile, which one the log does not tell.
            hand.append(got if table.whole_deal else UNSEEN)

    def _undrawable(self, tile: str, table: Table) -> str | None:
        """Why ``tile`` cannot be the top of a deck nobody recorded (None: it can)."""
        why = self._not_in_play(tile)
        if why is not None:
            return why.replace("never dealt", "never in the deck")
        placed = table.placed.get(tile)
        if placed is not None:
            return f"{tile} already lies in the dungeon as tile {placed}"
        drawn = table.drawn.get(tile)
        if drawn is not None:
            return f"{drawn[0]} already drew {tile} in turn {drawn[1]}"
        dealt = table.dealt.get(tile)
        if dealt is not None:
            return f"{tile} was dealt to {dealt}'s hand"
        return None


def held_text(hand: list[str]) -> str:
    """What a hand holds, for a message: the tiles seen, and how many nobody saw.

    >>> held_text(["I1", UNSEEN, UNSEEN]), held_text([UNSEEN]), held_text([])
    ('I1 and 2 tiles nobody saw', '1 tile nobody saw', 'nothing')
    """
    seen = [t for t in hand if t != UNSEEN]
    unseen = len(hand) - len(seen)
    parts = [", ".join(seen)] if seen else []
    if unseen:
        parts.append(f"{unseen} tile{'s' if unseen > 1 else ''} nobody saw")
    return " and ".join(parts) or "nothing"
