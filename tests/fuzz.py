"""Shared hypothesis helpers for fuzzing JSON documents (records and game logs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys and indices) inside a decoded JSON value, the empty path first."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += json_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += json_paths(item, (*prefix, index))
    return out


def json_values(words: Sequence[str], keys: Sequence[str], *, max_size: int = 4,
                max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Random JSON values built from plausible words and object keys of a format."""
    return st.recursive(
        st.none() | st.booleans() | st.integers(-3, 40) | st.floats(allow_nan=False)
        | st.sampled_from(list(words)),
        lambda inner: st.lists(inner, max_size=max_size)
        | st.dictionaries(st.sampled_from(list(keys)), inner, max_size=max_size),
        max_leaves=max_leaves,
    )


def mutate(data: st.DataObject, document: Any, values: st.SearchStrategy[Any], *,
           most: int = 3, renames: Sequence[str] = ()) -> None:
    """Change ``document`` in place 1 to ``most`` times: replace a value, delete it, or (with
    ``renames``) move it under another key."""
    actions = ["replace", "delete", *(["rename"] if renames else [])]
    for _ in range(data.draw(st.integers(1, most))):
        paths = [p for p in json_paths(document) if p]
        if not paths:
            return
        path = data.draw(st.sampled_from(paths))
        parent: Any = document
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(actions))
        if action == "replace":
            parent[path[-1]] = data.draw(values)
        elif isinstance(parent, dict):
            moved = parent.pop(path[-1])
            if action == "rename":
                parent[data.draw(st.sampled_from(list(renames)))] = moved
        else:
            del parent[path[-1]]


def examples(normal: int) -> int:
    """``normal`` examples for a fuzz test, or more under ``--hypothesis-profile fuzz``."""
    current = settings.default
    return max(normal, current.max_examples if current is not None else 0)


@st.composite
def dungeon_games(draw: st.DrawFn) -> dict[str, Any]:
    """A random legal ``game/1`` log of 2-5 players, basic or advanced, with any additional
    rules (#4 only with the advanced rules, which it needs)."""
    import random

    from pathcheck.games.dungeon.gen import random_game

    seed, players = draw(st.integers(0, 2**32 - 1)), draw(st.integers(2, 5))
    advanced = draw(st.booleans())
    rules = draw(st.sets(st.sampled_from([1, 2, 3, 4])))
    if not advanced:
        rules.discard(4)
    return random_game(random.Random(seed), players=players, advanced=advanced,
                       rules=sorted(rules))
