"""The JSON Schemas of the record and log formats, shipped with the package.

>>> "dungeon" in names()
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from typing import Any

from pathcheck.errors import InputError, RecordError, pointer_join

_SUFFIX = ".schema.json"


def names() -> list[str]:
    """The names of every shipped schema (``dungeon``, ``game``, ``memo-dice``, ...)."""
    return sorted(
        p.name[: -len(_SUFFIX)] for p in files(__name__).iterdir() if p.name.endswith(_SUFFIX)
    )


@cache
def load(name: str) -> dict[str, Any]:
    """The schema called ``name`` as a dict."""
    if name not in names():
        raise InputError(f"no schema named {name!r} (known: {', '.join(names())})")
    text = files(__name__).joinpath(name + _SUFFIX).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def validate(document: Mapping[str, Any], name: str, *, source: str, line: int | None) -> None:
    """Check ``document`` against the schema ``name``; raise RecordError at the first problem.

    The error names the JSON pointer of the offending field and what was expected.
    """
    import jsonschema  # imported here: it is slow to import and only logs need it

    validator_cls = jsonschema.validators.validator_for(load(name))
    validator = validator_cls(load(name))
    errors = sorted(validator.iter_errors(document), key=lambda e: (len(e.absolute_path), e.path))
    if errors:
        err = errors[0]
        # Descend to the most specific sub-error of anyOf/oneOf failures.
        while err.context:
            err = sorted(err.context, key=lambda e: -len(e.absolute_path))[0]
        pointer = pointer_join("", *err.absolute_path)
        raise RecordError(source, line, pointer, _short(err.message))


def _short(message: str, limit: int = 160) -> str:
    return message if len(message) <= limit else message[: limit - 3] + "..."
