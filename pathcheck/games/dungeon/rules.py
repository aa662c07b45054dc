"""dungeon in memory: the static facts of a game log and every rule a ruling quotes.

The Lost reasons' rules live with the tracer (:data:`pathcheck.tracer.dungeon.LOST_RULES`),
the check rules I-III with the check (:mod:`pathcheck.tracer.check`), the solo rules with
:mod:`pathcheck.solo.play`; this module holds the rules of multiplayer play that only a game
log can break.

>>> hand_size(advanced=False), hand_size(advanced=True), WIN_POINTS
(3, 2, 3)
>>> TURN_ORDER.id
'dungeon/turn-order'
"""

from __future__ import annotations

from collections.abc import Iterable

from pathcheck.ruling import Rule

GAME = "dungeon"
TITLE = "dungeon in memory"

BASIC_HAND = 3
ADVANCED_HAND = 2
WIN_POINTS = 3
"""Who reaches this score first wins (all of them, on a tie)."""
MIN_PLAYERS, MAX_PLAYERS = 2, 5


def hand_size(advanced: bool) -> int:
    """Tiles dealt to each player: 3 with the basic rules, 2 with the advanced rules."""
    return ADVANCED_HAND if advanced else BASIC_HAND


def rules_text(rules: Iterable[int]) -> str:
    """Additional rules as a ruling names them.

    >>> rules_text({3, 1}), rules_text(())
    ('#1, #3', 'none')
    """
    return ", ".join(f"#{r}" for r in sorted(rules)) or "none"


DEAL = Rule(
    "dungeon/deal", "1. Dungeon Exploration Setup",
    "Place the Start tile in the center of the table as the \"Dungeon\". Shuffle all other Path "
    "tiles face down and deal 3 tiles to each player (or 2 tiles in the advanced rules) as their "
    "hand. Place the remaining pile of Path tiles face down as the \"deck\" next to the Dungeon.")
TURN_ORDER = Rule(
    "dungeon/turn-order", "Overview; 2-B. Lost Announcement",
    "Then take turns clockwise from the start player. ... If any non-active player did not "
    "announce Lost, continue exploring the Dungeon with the remaining players. Move the turn "
    "clockwise to the next player and return to \"2-A. Exploration\".")
FROM_HAND = Rule(
    "dungeon/from-hand", "2-A. Exploration (Active Player)",
    "The active player chooses a tile from their hand and places it face down on the Dungeon, "
    "making sure that the direction of the arrow on that tile is in line with that on the "
    "last-taken path.")
DRAW = Rule(
    "dungeon/draw", "2-A. Exploration (Active Player)",
    "After placing a tile on the Dungeon, draw a tile from the deck and add it to your hand. If "
    "the deck runs out, continue the game with the tiles in your hand.")
ANNOUNCE_ACTIVE = Rule(
    "dungeon/announce-non-active", "2-B. Lost Announcement",
    "* Only non-active players can announce Lost.")
ANNOUNCE_TEAM = Rule(
    "dungeon/announce-in-team", "2-B. Lost Announcement",
    "If you think that you are Lost, announce \"Lost!\", place your LOST card on top of the "
    "Dungeon, and leave the Dungeon exploration team.")
PRIORITY = Rule(
    "dungeon/rule-1-priority", "Additional rule #1",
    "It is not allowed for multiple players to announce Lost during the same turn. If multiple "
    "players simultaneously announce Lost, the earliest player in the subsequent turn order has "
    "priority.")
EXPLORATION_END = Rule(
    "dungeon/exploration-end", "2-B. Lost Announcement",
    "If all non-active players announce Lost (and only the active player remains), proceed to "
    "\"3. Checking the Memorized Path\". ... However, if the next active player does not have "
    "any card in hand, proceeds to \"3. Checking the Memorized Path\".")
NEXT_START = Rule(
    "dungeon/next-start", "3. Checking the Memorized Path",
    "Return to \"1. Dungeon Exploration Setup\" with the last player in the turn order being the "
    "next start player.")
GAME_END = Rule(
    "dungeon/game-end", "End of the Game",
    "The first player to score 3 pt wins the game. In the case of a tie, the tied players share "
    "the victory.")
SOLO_ALL_TILES = Rule(
    "solo/all-tiles", "Solo Variant",
    "Play the game with all Path tiles. In the solo variant, instead of playing a hand of cards, "
    "draw each tile directly from the deck and place it on the Dungeon. ... If the deck runs "
    "out, proceed to \"3. Checking the Memorized Path\".")

SOLO_SEED = Rule(
    "solo/seed", "Solo Variant; pathcheck spec 5 (solo-challenge seed)",
    "A solo-challenge seed fixes the deck order and the additional rules.")

GAME_RULES: tuple[Rule, ...] = (
    DEAL, TURN_ORDER, FROM_HAND, DRAW, ANNOUNCE_ACTIVE, ANNOUNCE_TEAM, PRIORITY,
    EXPLORATION_END, NEXT_START, GAME_END,
)
"""Every rule a game/1 violation can cite, in the order of the rulebook."""
