"""The settings ``pathcheck record`` asks for, and their check as they are entered.

Each setting is one header line of the game's notation. An answer is checked at once against
the log format's own field type (the typed definition the JSON Schema is generated from), the
format's ``uniqueItems``, and what the game's reader checks across fields (a start player who
is at the table, a treasure stack the box holds); every problem is reported at once, each with
its fix, so that no dead end is written.

>>> problems = check("game/1", {"players": "Ann Ann", "rules": "7"})
>>> [p.text() for p in problems]  # doctest: +NORMALIZE_WHITESPACE
["players: 'Ann' is named twice (fix: 2 to 5 names, each once, separated by spaces)",
  'rules: 7 is not one of the choices (fix: some of 1 2 3 4, or none)']
>>> choices("robot-memory/1", "variant")
('standard', 'solo', 'team', '5+', 'custom')
"""

from __future__ import annotations

import typing
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import msgspec

from pathcheck import notation
from pathcheck.errors import RecordError


@dataclass(frozen=True)
class Setting:
    """One header setting the recorder asks for: its key, the question, the usual answers,
    the log field it fills and how to fix a wrong answer."""

    key: str
    question: str
    field: str
    fix: str
    default: str = ""
    offered: tuple[str, ...] = ()
    """Answers offered beside the field's own choices (completion; e.g. ``none``)."""
    asked_if: str = ""
    """``KEY=VALUE`` or ``KEY!=VALUE``: asked only when an earlier answer is (is not) that
    (robot memory's team play names teams, the other variants players)."""
    required: bool = False
    """An empty answer is refused (a setting whose absence the header reads as nothing)."""

    def asked(self, answers: Mapping[str, str]) -> bool:
        """Whether this setting is asked, given the ``answers`` so far."""
        if not self.asked_if:
            return True
        key, _, value = self.asked_if.replace("!=", "=").partition("=")
        equal = answers.get(key, "").strip() == value
        return equal != ("!=" in self.asked_if)


SETTINGS: Mapping[str, tuple[Setting, ...]] = {
    "game/1": (
        Setting("players", "Players, clockwise (names separated by spaces)", "players",
                "2 to 5 names, each once, separated by spaces"),
        Setting("mode", "Mode", "advanced", "basic or advanced", "basic",
                ("basic", "advanced")),
        Setting("rules", "Additional rules (e.g. 1 2, or none)", "rules",
                "some of 1 2 3 4, or none", "none", ("none",)),
    ),
    "solo/1": (
        Setting("rules", "Additional rules (e.g. 2 3, or none)", "rules",
                "some of 2 3 4, or none", "none", ("none",)),
    ),
    "memoarrr/1": (
        Setting("edition", "Edition", "edition", "2023 or 2018", "2023"),
        Setting("variants", "Variants", "variants",
                "expert=yes|no ordered_stack=yes|no", "expert=no ordered_stack=no",
                ("expert=no ordered_stack=no", "expert=yes ordered_stack=no",
                 "expert=no ordered_stack=yes", "expert=yes ordered_stack=yes")),
        Setting("players", "Players in seat order (names separated by spaces)", "players",
                "2 to 4 names, each once, separated by spaces"),
        Setting("start", "Who starts round 1", "start_player", "one of the players"),
        Setting("peeks", "The side each player peeked at (e.g. Ann north Ben south)", "peeks",
                "each player once, with north, east, south or west"),
    ),
    "memo-dice/1": (
        Setting("players", "Players, clockwise (names separated by spaces)", "players",
                "2 to 4 names, each once, separated by spaces"),
    ),
    "robot-memory/1": (
        Setting("variant", "Variant", "variant", "one of standard solo team 5+ custom",
                "standard"),
        Setting("players", "Players, clockwise (names separated by spaces)", "players",
                "names, each once: 1 for solo, 5 or more for 5+, else 2 or more",
                asked_if="variant!=team"),
        Setting("team1", "Team 1, which sits first (NAME captain MEMBER members MEMBER...)",
                "teams", "a team name, then captain and one of its members, then members and "
                "every member, e.g. Red captain Ann members Ann Bob", asked_if="variant=team",
                required=True),
        Setting("team2", "Team 2 (NAME captain MEMBER members MEMBER...)", "teams",
                "a team name, then captain and one of its members, then members and every "
                "member, e.g. Blue captain Cy members Cy Dee", asked_if="variant=team",
                required=True),
    ),
}
"""The settings asked for at the start of a recording, per log format."""

AT_THE_END: Mapping[str, tuple[Setting, ...]] = {
    "memoarrr/1": (
        Setting("treasures", "The treasure cards, turned over now, in the order taken",
                "treasures", "the rubies 1 1 2 2 2 3 4, the card of round 1's winner first"),
    ),
}
"""What the table sees only when the game is over, asked then (Memoarrr!: "A player will not
know how many rubies they have earned for winning a round until the end of the game")."""

_READS_WITH = {"game/1": {"players": "A B"}, "memoarrr/1": {"edition": "2023", "players": "A B",
                                                          "start": "A", "peeks": "A north B south",
                                                          "treasures": "1 1 2 2 2 3 4"},
               "robot-memory/1": {"variant": "custom", "players": "A B"},
               "robot-memory/1 team": {"variant": "team", "team1": "T1 captain a members a",
                                       "team2": "T2 captain b members b"},
               "memo-dice/1": {"players": "A B"}}
"""Answers that make a header read, beside the one setting being read on its own."""

_PLAYER_COUNTS = {"solo": (1, 1), "standard": (2, None), "custom": (2, None), "5+": (5, None),
                  "team": (0, 0)}
"""Robot memory's players per variant (the schema's conditions; team play lists teams)."""


_EACH_ONCE = ("players", "rules")
"""The list settings whose items are each named once (the formats' ``uniqueItems``)."""


@dataclass(frozen=True)
class Problem:
    """What is wrong with one setting, and how to put it right."""

    key: str
    message: str
    fix: str

    def text(self) -> str:
        return f"{self.key}: {self.message} (fix: {self.fix})"


@cache
def _struct(fmt: str) -> type[msgspec.Struct]:
    from pathcheck import games

    adjudicator = games.for_format(fmt)
    name = fmt.split("/", 1)[0]
    for log_format in getattr(adjudicator, "log_formats", ()):
        if log_format.name == name:
            return typing.cast(type[msgspec.Struct], log_format.struct)
    raise LookupError(fmt)


def _field_type(fmt: str, field: str) -> Any:
    return typing.get_type_hints(_struct(fmt), include_extras=True)[field]


def choices(fmt: str, key: str) -> tuple[str, ...]:
    """The answers a setting takes, when they are few: the field's literal values and the
    setting's offered ones (``variant`` -> its five variants)."""
    setting = next(s for s in SETTINGS[fmt] if s.key == key)
    found: list[str] = list(setting.offered)

    def walk(tp: Any) -> None:
        origin = typing.get_origin(tp)
        if origin is typing.Literal:
            found.extend(str(v) for v in typing.get_args(tp) if str(v) not in found)
        elif origin is not None:
            for arg in typing.get_args(tp):
                walk(arg)

    if setting.field not in ("players", "start_player", "peeks", "treasures", "advanced"):
        walk(_field_type(fmt, setting.field))
    return tuple(found)


def _header(fmt: str, answers: Mapping[str, str]) -> str:
    return "\n".join([f"#! {fmt}", *(f"{k}: {v}" for k, v in answers.items() if v.strip())])


def check(fmt: str, answers: Mapping[str, str], only: str | None = None) -> list[Problem]:
    """Every problem of the settings ``answers`` (setting key -> answer), each with its fix;
    ``only``: the problems of that setting alone (checked against the others given)."""
    problems: list[Problem] = []
    settings = {s.key: s for s in (*SETTINGS[fmt], *AT_THE_END.get(fmt, ()))}
    values: dict[str, Any] = {}
    for key, answer in answers.items():
        setting = settings.get(key)
        if setting is None or (only is not None and key != only and key in values):
            continue
        if not setting.asked(answers):
            continue
        if setting.required and not answer.strip():
            problems.append(Problem(key, "an answer is needed", setting.fix))
            continue
        try:
            reads_with = _READS_WITH.get(f"{fmt} team" if key.startswith("team") else fmt, {})
            alone = {**reads_with, key: answer}
            log = notation.parse(_header(fmt, alone) + "\n", source="settings")
        except RecordError as exc:
            message = str(getattr(exc, "message", exc))
            problems.append(Problem(key, message.removeprefix(f"{key}: "), setting.fix))
            continue
        if setting.field not in log:
            continue
        value = log[setting.field]
        found: list[Problem] = []  # every problem of the answer, not only the first
        if isinstance(value, list) and setting.field in _EACH_ONCE:
            for twice in [v for v, n in Counter(map(str, value)).items() if n > 1]:
                said = f"{twice!r} is named twice" if setting.field == "players" \
                    else f"{twice} is there twice"
                found.append(Problem(key, said, setting.fix))
        items = value if isinstance(value, list) and setting.field == "rules" else []
        for bad in dict.fromkeys(v for v in items if not _choice_ok(fmt, setting.field, v)):
            found.append(Problem(key, f"{bad} is not one of the choices", setting.fix))
        if not found:
            try:
                msgspec.convert({setting.field: value}, msgspec.defstruct(
                    "Setting", [(setting.field, _field_type(fmt, setting.field))]))
            except msgspec.ValidationError as exc:
                found.append(Problem(key, _worded(str(exc), value), setting.fix))
        elif setting.field == "players":  # a count that is wrong too
            count = _worded_count(fmt, setting.field, value)
            if count:
                found.append(Problem(key, count, setting.fix))
        problems.extend(found)
        if found:
            continue
        values[setting.field] = value
    problems.extend(_across(fmt, values, settings))
    if only is not None:
        problems = [p for p in problems if p.key == only]
    return problems


def _choice_ok(fmt: str, field: str, value: Any) -> bool:
    """Whether ``value``, alone, is a good item of the list setting ``field`` (a rule)."""
    try:
        msgspec.convert({field: [value]}, msgspec.defstruct(
            "Setting", [(field, _field_type(fmt, field))]))
    except msgspec.ValidationError:
        return False
    return True


def _worded_count(fmt: str, field: str, value: list[Any]) -> str:
    """What is wrong with the length of ``value`` alone ('' if nothing)."""
    try:
        msgspec.convert({field: [f"{i}" for i in range(len(value))]}, msgspec.defstruct(
            "Setting", [(field, _field_type(fmt, field))]))
    except msgspec.ValidationError as exc:
        return _worded(str(exc), value)
    return ""


def _worded(message: str, value: Any) -> str:
    """msgspec's words for a field's value, said as the keeper typed it."""
    if "Expected `array` of length" in message:
        bound = message.split("length", 1)[1].split("`")[0].split(" - at")[0].strip()
        return f"{len(value)} given, {bound} wanted"
    if "Invalid enum value" in message or "Expected `" in message:
        bad = message.split("value", 1)[1].split(" - at")[0].strip() \
            if "Invalid enum value" in message else None
        return f"{bad} is not one of the choices" if bad else message.split(" - at")[0]
    return message.split(" - at")[0]


def _across(fmt: str, values: Mapping[str, Any], settings: Mapping[str, Setting]
            ) -> list[Problem]:
    """What the game's reader checks across fields (only for the fields that read)."""
    out: list[Problem] = []
    players = [str(p) for p in values.get("players", ())]
    if fmt == "memoarrr/1" and players:
        start = values.get("start_player")
        if start is not None and start not in players:
            out.append(Problem("start", f"{start!r} is not a player", settings["start"].fix))
        peeks = values.get("peeks")
        if peeks is not None and sorted(peeks) != sorted(players):
            missing = [p for p in players if p not in peeks]
            extra = [p for p in peeks if p not in players]
            what = (f"no side for {', '.join(missing)}" if missing
                    else f"{', '.join(extra)} is not a player")
            out.append(Problem("peeks", what, settings["peeks"].fix))
    if fmt == "memoarrr/1" and "treasures" in values:
        from pathcheck.games.memoarrr.rules import TREASURES

        if sorted(values["treasures"]) != sorted(TREASURES):
            out.append(Problem("treasures", "the box's stack holds 1 1 2 2 2 3 4",
                               settings["treasures"].fix))
    if fmt == "robot-memory/1" and "variant" in values:
        low, high = _PLAYER_COUNTS[str(values["variant"])]
        count = len(players)
        if count < low or (high is not None and count > high):
            wanted = {0: "two teams, not players", 1: "exactly 1 player"
                      }.get(high if high == low else -1, f"at least {low} players")
            out.append(Problem("players", f"the {values['variant']} variant is played by "
                                          f"{wanted}, not {count}", settings["players"].fix))
    if fmt == "game/1":
        rules = values.get("rules", ())
        if 4 in rules and values.get("advanced") is False:
            out.append(Problem("rules", "rule 4 needs the advanced mode",
                               "mode advanced, or leave rule 4 out"))
    return out
