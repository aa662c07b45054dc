"""The adjudicator plug-in seam.

Each game's adjudicator is an object registered in the entry-point group ``pathcheck.games``
(see pyproject.toml); a third party adds a game by installing a package that registers one.
Plug-ins are loaded lazily, one at a time, and a broken plug-in is reported as a
:class:`~pathcheck.errors.PluginError` without affecting the others.

The four built-in games are registered there too, but found without scanning the entry
points (:data:`BUILT_IN`): the scan imports :mod:`importlib.metadata`, which costs a tenth of
a one-log ``adjudicate``'s start-up. A third-party plug-in may not take a built-in game's name
or format: the built-in one is used (docs/adjudicate.md, Plug-ins).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pathcheck.errors import PluginError
from pathcheck.games.common import EVERY_MOMENT, Moment, Pictures, wanted
from pathcheck.reading.bounded import brief
from pathcheck.ruling import Ruling

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from pathcheck.inputs.logformat import LogFormat

ENTRY_POINT_GROUP = "pathcheck.games"

BUILT_IN: dict[str, tuple[str, tuple[str, ...]]] = {
    "dungeon": ("pathcheck.games.dungeon.adjudicator:ADJUDICATOR", ("game/1", "solo/1")),
    "memoarrr": ("pathcheck.games.memoarrr.adjudicator:ADJUDICATOR", ("memoarrr/1",)),
    "memo-dice": ("pathcheck.games.memo_dice.adjudicator:ADJUDICATOR", ("memo-dice/1",)),
    "robot-memory": ("pathcheck.games.robot_memory.adjudicator:ADJUDICATOR",
                     ("robot-memory/1",)),
}
"""The built-in games: name -> (entry-point target, formats), as pyproject.toml registers
them (tests/games/test_dungeon_games.py checks both agree)."""
_BUILT_IN_BY_FORMAT = {fmt: name for name, (_, formats) in BUILT_IN.items() for fmt in formats}


def entry_points(*, group: str) -> Any:
    """:func:`importlib.metadata.entry_points`, imported only when called."""
    from importlib.metadata import entry_points as scan

    return scan(group=group)


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
    log_formats: tuple[LogFormat[Any], ...] = ()
    """The formats as typed definitions (:mod:`pathcheck.inputs.logformat`), in the order of
    ``schemas``: they read the logs and generate the published JSON Schemas."""

    def json_schema(self, name: str) -> dict[str, Any] | None:
        """The JSON Schema called ``name`` (one of ``schemas``), generated from its format."""
        for log_format in self.log_formats:
            if log_format.name == name:
                return log_format.json_schema()
        return None

    def rule(self, log: Mapping[str, Any], *, source: str, pictures: Pictures) -> Ruling:
        """Replay ``log`` and rule on it, handing every moment it passes to ``pictures``."""
        raise NotImplementedError

    def adjudicate(
        self, log: Mapping[str, Any], *, source: str, options: AdjudicateOptions
    ) -> Ruling:
        """Replay ``log`` and rule on it; RecordError for a malformed log, InputError for an
        ``--at`` moment the log does not have."""
        return self.rule(log, source=source, pictures=wanted(options.at))

    typed_readers: tuple[tuple[str, LogFormat[Any], Callable[..., Any]], ...] = ()
    """The formats whose logs :meth:`rule_decoded` reads from their JSON text: (the format,
    its LogFormat, ``read_entry(entry, *, source)``: the part of the game's ``read_log``
    after msgspec's reading). A game that lists any implements :meth:`rule_read` too."""

    def rule_read(self, game: Any, *, source: str, pictures: Pictures) -> Ruling:
        """Replay a log already read by the game (what ``read_log`` returns) and rule on it."""
        raise NotImplementedError

    def rule_decoded(self, data: bytes, fmt: str, *, source: str, for_json: bool = False
                     ) -> Ruling | None:
        """Rule on a log of format ``fmt`` given as its JSON text (passed by the reader's
        guard), with no picture, reading the text straight into the game's typed values (no
        dict is made: :attr:`typed_readers`). None when the game does not read ``fmt`` so or
        the text does not fit the format: the caller then decodes the text and calls
        :meth:`adjudicate`, which rules (or words the error) exactly as this would have.
        ``for_json``: the ruling is only to be encoded (``--format json|jsonl``, nothing
        kept), so :meth:`json_ruling` is asked first."""
        for name, log_format, read_entry in self.typed_readers:
            if name == fmt:
                entry = log_format.decode(data)
                if entry is None:
                    return None
                if for_json:
                    ruling = self.json_ruling(entry, source=source)
                    if ruling is not None:
                        return ruling
                return self.rule_typed(entry, read_entry, source=source)
        return None

    def json_ruling(self, entry: Any, *, source: str) -> Ruling | None:
        """The ruling on a log read into its typed values, only to be encoded: parts of it
        may come as the JSON msgspec would write of them (a :class:`msgspec.Raw`), the bytes
        encoded the same. None (the default): :meth:`rule_typed` rules on it."""
        return None

    def rule_typed(self, entry: Any, read_entry: Callable[..., Any], *, source: str) -> Ruling:
        """Rule, with no picture, on a log msgspec read into its typed values
        (:attr:`typed_readers`): by default read with ``read_entry`` and replayed
        (:meth:`rule_read`); a game with a fast path for such values overrides it."""
        return self.rule_read(read_entry(entry, source=source), source=source,
                              pictures=Pictures(None))

    def pictures(self, log: Mapping[str, Any], *, source: str) -> list[tuple[Moment, str]]:
        """The state drawn at every moment of ``log``, in order."""
        pictures = Pictures(EVERY_MOMENT)
        self.rule(log, source=source, pictures=pictures)
        return list(pictures)

    def random_game(self, rng: random.Random) -> dict[str, Any]:
        """A random legal log drawn from ``rng``."""
        raise NotImplementedError


@cache
def _entry_points() -> tuple[EntryPoint, ...]:
    """The group's entry points, scanned once per process (a scan costs about half a ms)."""
    return tuple(entry_points(group=ENTRY_POINT_GROUP))


def available() -> dict[str, str]:
    """Registered game names and their entry-point targets, without importing any plug-in
    (a built-in game's name is always its own: :data:`BUILT_IN`)."""
    return {**{ep.name: ep.value for ep in _entry_points()},
            **{name: target for name, (target, _) in BUILT_IN.items()}}


_loaded: dict[str, Adjudicator | PluginError] = {}


def load(name: str) -> Adjudicator:
    """Import and return the adjudicator registered as ``name`` (once per process: a plug-in
    that failed to load fails the same way again without a second import)."""
    if name in _loaded:
        found = _loaded[name]
        if isinstance(found, PluginError):
            raise found
        return found
    matches = [] if name in BUILT_IN else [ep for ep in _entry_points() if ep.name == name]
    if not matches and name not in BUILT_IN:
        known = ", ".join(sorted(available())) or "none"
        raise PluginError(f"no adjudicator named {name!r} (installed: {known})")
    try:
        _loaded[name] = _import_built_in(name) if not matches else _import(name, matches[0])
    except PluginError as exc:
        _loaded[name] = exc
        raise
    return _loaded[name]  # type: ignore[return-value]


def _import_built_in(name: str) -> Adjudicator:
    """A built-in game's adjudicator, imported as its entry point would be."""
    import importlib

    target = BUILT_IN[name][0]
    module, attribute = target.split(":")
    try:
        obj: Adjudicator = getattr(importlib.import_module(module), attribute)
    except Exception as exc:  # as _import: reported, never a crash
        raise PluginError(f"adjudicator plug-in {name!r} ({target}) failed to load: "
                          f"{type(exc).__name__}: {exc}") from exc
    return obj


def _import(name: str, entry: EntryPoint) -> Adjudicator:
    try:
        obj = entry.load()
    except Exception as exc:  # a plug-in may fail in any way; report it, don't crash
        raise PluginError(
            f"adjudicator plug-in {name!r} ({entry.value}) failed to load: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(obj, Adjudicator):
        raise PluginError(f"adjudicator plug-in {name!r} does not provide the Adjudicator API")
    return obj


_by_format: dict[str, Adjudicator] = {}


def forget() -> None:
    """Scan the entry points and import the plug-ins afresh (tests that install a plug-in)."""
    _entry_points.cache_clear()
    _loaded.clear()
    _by_format.clear()


def for_format(fmt: str) -> Adjudicator:
    """The adjudicator whose ``formats`` include ``fmt`` (a log's ``format`` field).

    Plug-ins are tried by the prefix before ``/`` first (``memo-dice/1`` -> ``memo-dice``),
    then every other one; broken plug-ins are skipped here. The answer is remembered.
    """
    found = _by_format.get(fmt)
    if found is not None:
        return found
    if fmt in _BUILT_IN_BY_FORMAT:
        found = _by_format[fmt] = load(_BUILT_IN_BY_FORMAT[fmt])
        return found
    family = fmt.split("/", 1)[0]
    names = sorted(available(), key=lambda n: n != family)
    for name in names:
        try:
            adjudicator = load(name)
        except PluginError:
            continue
        if fmt in adjudicator.formats:
            _by_format[fmt] = adjudicator
            return adjudicator
    from pathcheck.reading.meant_for import format_advice

    advice = format_advice(fmt)
    raise PluginError(f"no installed adjudicator reads format {brief(fmt)}"
                      + (f": {advice}" if advice else ""))


def json_schema(name: str) -> dict[str, Any] | None:
    """The JSON Schema called ``name`` that an installed plug-in generates (None: none does).

    The plug-in whose name is the schema's prefix is asked first; broken ones are skipped.
    """
    for game in sorted(available(), key=lambda n: not name.startswith(n)):
        try:
            plugin = load(game)
        except PluginError:
            continue
        maker = getattr(plugin, "json_schema", None)
        if name in plugin.schemas and callable(maker):
            schema: dict[str, Any] | None = maker(name)
            if schema is not None:
                return schema
    return None


def schema_names() -> list[str]:
    """The schema names the installed plug-ins publish (broken plug-ins skipped)."""
    out: list[str] = []
    for game in sorted(available()):
        try:
            out.extend(load(game).schemas)
        except PluginError:
            continue
    return out
