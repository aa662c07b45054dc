"""The module paths of pathcheck before the engine moved into wings, kept importable.

Before its move into wings the engine was one flat folder (``pathcheck/bounded.py``,
``pathcheck/dungeon.py``, ...). Each of those modules now lives in the wing that holds its
job (docs/design.md); code written against the old paths goes on working: importing an old
path gives the module at its new place (the same module object, so ``isinstance`` and
monkeypatching agree) and a :class:`DeprecationWarning` naming the new path.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     import pathcheck.dungeon as old
>>> import pathcheck.tracer.dungeon as new
>>> old is new, str(caught[0].message)
(True, 'pathcheck.dungeon is now pathcheck.tracer.dungeon; import it from there')
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import importlib.abc

MOVED: dict[str, str] = {  # old module path -> new module path
    "pathcheck.bounded": "pathcheck.reading.bounded",
    "pathcheck.regular_files": "pathcheck.reading.regular_files",
    "pathcheck.reader": "pathcheck.reading.reader",
    "pathcheck.text": "pathcheck.reading.text",
    "pathcheck.meant_for": "pathcheck.reading.meant_for",
    "pathcheck.constants": "pathcheck.tracer.constants",
    "pathcheck.geometry": "pathcheck.tracer.geometry",
    "pathcheck.tileset": "pathcheck.tracer.tileset",
    "pathcheck.fasttrace": "pathcheck.tracer.fast",
    "pathcheck.reference": "pathcheck.tracer.reference",
    "pathcheck.dungeon": "pathcheck.tracer.dungeon",
    "pathcheck.check": "pathcheck.tracer.check",
    "pathcheck.notation_places": "pathcheck.notation.places",
    "pathcheck.notation_values": "pathcheck.notation.values",
    "pathcheck.records": "pathcheck.inputs.records",
    "pathcheck.record_values": "pathcheck.inputs.record_values",
    "pathcheck.dgn": "pathcheck.inputs.dgn",
    "pathcheck.log_input": "pathcheck.inputs.logs",
    "pathcheck.games.logformat": "pathcheck.inputs.logformat",
    "pathcheck.batch_fast": "pathcheck.batch.fast",
    "pathcheck.batch_items": "pathcheck.batch.items",
    "pathcheck.parallel": "pathcheck.batch.parallel",
    "pathcheck.games.stream": "pathcheck.batch.logs",
    "pathcheck.recorder_cards": "pathcheck.recorder.cards",
    "pathcheck.recorder_next": "pathcheck.recorder.up_next",
    "pathcheck.recorder_settings": "pathcheck.recorder.settings",
    "pathcheck.recorder_words": "pathcheck.recorder.words",
    "pathcheck.render.safe": "pathcheck.safe",
    "pathcheck.render.analysis": "pathcheck.analysis.report",
    "pathcheck.render.analysis_page": "pathcheck.analysis.page",
    "pathcheck.render.accuracy_chart": "pathcheck.analysis.chart",
}


class _Alias:  # a Loader; not importlib.abc's subclass, whose import costs ms at start-up
    """Loads an old path as the module at its new place."""

    def __init__(self, new: str) -> None:
        self.new = new
        self.real_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"{spec.name} is now {self.new}; import it from there",
                      DeprecationWarning, stacklevel=4)
        real = importlib.import_module(self.new)
        self.real_spec = real.__spec__
        return real

    def exec_module(self, module: ModuleType) -> None:
        # The import machinery gave the module this alias's spec: it keeps its own.
        module.__spec__ = self.real_spec


class MovedFinder:  # a MetaPathFinder (a plain class, as _Alias)
    """Finds the old paths of :data:`MOVED` (last on ``sys.meta_path``: real modules first)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.util.spec_from_loader(fullname, cast("importlib.abc.Loader", _Alias(new)))


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedFinder())
