"""The adjudicator plug-in seam.

Each game's adjudicator is an object registered in the entry-point group ``pathcheck.games``
(see pyproject.toml); a third party adds a game by installing a package that registers one.
Plug-ins are loaded lazily, one at a time, and a broken plug-in is reported as a
:class:`~pathcheck.errors.PluginError` without affecting the others.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

from pathcheck.errors import PluginError
from pathcheck.games.common import EVERY_MOMENT, Moment, Pictures, wanted
from pathcheck.ruling import Ruling

ENTRY_POINT_GROUP = "pathcheck.games"


@dataclass(frozen=True)
class AdjudicateOptions:
    """Options the CLI passes to every adjudicator; a game ignores what it does not use.

    ``at``: show the game state at the moment ``ROUND.TURN`` (e.g. "2.5"; see
    :class:`~pathcheck.games.common.Moment`).
    """

    at: str | None = None


@runtime_checkable
class Adjudicator(Protocol):
    """What a game plug-in provides."""

    name: str
    """The name used on the command line, e.g. ``memo-dice``."""
    title: str
    """A human title, e.g. ``Memo Dice``."""
    formats: tuple[str, ...]
    """The log ``format`` values this adjudicator reads, e.g. ``("memo-dice/1",)``."""
    schemas: tuple[str, ...]
    """Names of the JSON Schemas it publishes (``pathcheck schema NAME``)."""

    def adjudicate(
        self, log: Mapping[str, Any], *, source: str, options: AdjudicateOptions
    ) -> Ruling:
        """Replay ``log`` and rule on it; raise RecordError for a malformed log."""
        ...

    def pictures(self, log: Mapping[str, Any], *, source: str) -> list[tuple[Moment, str]]:
        """The state drawn at every moment of ``log``, in order (what ``--at`` shows)."""
        ...

    def random_game(self, rng: random.Random) -> dict[str, Any]:
        """A random legal log drawn from ``rng`` (any variant the game has); the conformance
        suite rules on many and expects every one legal."""
        ...


class GameAdjudicator:
    """The base of the built-in plug-ins: ``adjudicate`` and ``pictures`` written once over
    the one method a game implements, :meth:`rule`.

    Fixtures: a game's example logs live in ``fixtures/<name>/`` of the repository, named
    ``legal-*``, ``illegal-*`` or ``malformed-*`` after how they rule (the conformance suite,
    tests/games/test_conformance.py, checks every one).
    """

    name: str
    title: str
    formats: tuple[str, ...]
    schemas: tuple[str, ...]

    def rule(self, log: Mapping[str, Any], *, source: str, pictures: Pictures) -> Ruling:
        """Replay ``log`` and rule on it, handing every moment it passes to ``pictures``."""
        raise NotImplementedError

    def adjudicate(
        self, log: Mapping[str, Any], *, source: str, options: AdjudicateOptions
    ) -> Ruling:
        """Replay ``log`` and rule on it; RecordError for a malformed log, InputError for an
        ``--at`` moment the log does not have."""
        return self.rule(log, source=source, pictures=wanted(options.at))

    def pictures(self, log: Mapping[str, Any], *, source: str) -> list[tuple[Moment, str]]:
        """The state drawn at every moment of ``log``, in order."""
        pictures = Pictures(EVERY_MOMENT)
        self.rule(log, source=source, pictures=pictures)
        return list(pictures)

    def random_game(self, rng: random.Random) -> dict[str, Any]:
        """A random legal log drawn from ``rng``."""
        raise NotImplementedError


def available() -> dict[str, str]:
    """Registered game names and their entry-point targets, without importing any plug-in."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def load(name: str) -> Adjudicator:
    """Import and return the adjudicator registered as ``name``."""
    matches = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not matches:
        known = ", ".join(sorted(available())) or "none"
        raise PluginError(f"no adjudicator named {name!r} (installed: {known})")
    try:
        obj = matches[0].load()
    except Exception as exc:  # a plug-in may fail in any way; report it, don't crash
        raise PluginError(
            f"adjudicator plug-in {name!r} ({matches[0].value}) failed to load: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(obj, Adjudicator):
        raise PluginError(f"adjudicator plug-in {name!r} does not provide the Adjudicator API")
    return obj


def for_format(fmt: str) -> Adjudicator:
    """The adjudicator whose ``formats`` include ``fmt`` (a log's ``format`` field).

    Plug-ins are tried by the prefix before ``/`` first (``memo-dice/1`` -> ``memo-dice``),
    then every other one; broken plug-ins are skipped here.
    """
    family = fmt.split("/", 1)[0]
    names = sorted(available(), key=lambda n: n != family)
    for name in names:
        try:
            adjudicator = load(name)
        except PluginError:
            continue
        if fmt in adjudicator.formats:
            return adjudicator
    raise PluginError(f"no installed adjudicator reads format {fmt!r}")
