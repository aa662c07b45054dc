"""A log line read straight into its game's typed values (``rule_decoded``: ``game/1``,
``memo-dice/1``, ``robot-memory/1``; taken by ``adjudicate`` when no picture or page is asked
for) is ruled exactly as the same line decoded and read the usual way: the same ruling bytes,
the same one-line error, the same status, on random, mutated and hostile logs, as JSON Lines,
with and without the GAME named."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck import games
from pathcheck.batch.logs import StreamSettings, rule_logs
from pathcheck.games.dungeon.adjudicator import ADJUDICATOR
from pathcheck.reading import bounded
from tests.games.test_dungeon_c_trace import mutate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SPICE = ['"format":"game/1",', '"format":"solo/1",', '"format":7,', '"x":1,', '"players":[],',
         '"advanced":true,', '"rules":[4],', '"tileset":"none.toml",', '"\\u0066ormat":"a",']


def both_ways(path: Path, game: str | None, output: str) -> None:
    typed = list(rule_logs([str(path)], StreamSettings(game=game, output=output)))
    usual = list(rule_logs([str(path)], StreamSettings(game=game, output=output, keep=True)))
    assert [(r.status, r.text, r.error, r.line) for r in typed] == \
        [(r.status, r.text, r.error, r.line) for r in usual]


def spiced(text: str, rng: random.Random) -> str:
    """``text`` (a JSON object) with a member put in front or a byte changed."""
    if rng.random() < 0.5:
        return "{" + rng.choice(SPICE) + text[1:]
    at = rng.randrange(len(text))
    return text[:at] + rng.choice(['"', "1", "}", "é", "\\", " "]) + text[at + 1:]


def shaken(value: Any, rng: random.Random) -> Any:
    """``value`` with one member or item somewhere deleted, emptied or given another type."""
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        if rng.random() < 0.3:
            return {k: v for k, v in value.items() if k != key}
        return {**value, key: shaken(value[key], rng)}
    if isinstance(value, list) and value:
        i = rng.randrange(len(value))
        return [*value[:i], shaken(value[i], rng), *value[i + 1:]]
    return rng.choice([None, 0, -1, 2.5, "", "Ann", [], {}, True, "r9c9"])


OFFERED = ["dungeon", "memo-dice", "robot-memory"]
"""The games that offer ``rule_decoded``."""


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(OFFERED), st.booleans(),
       st.sampled_from(["jsonl", "json", "text"]))
def test_typed_lines_rule_as_decoded_ones(tmp_path_factory: Any, seed: int, name: str,
                                          named: bool, output: str) -> None:
    rng = random.Random(seed)
    plugin = games.load(name)
    lines = []
    for _ in range(6):
        log: dict[str, Any] = plugin.random_game(rng)
        if rng.random() < 0.5:
            log = mutate(log, rng) if name == "dungeon" else shaken(log, rng)
        text = json.dumps(log, separators=(",", ":"))
        lines.append(spiced(text, rng) if rng.random() < 0.3 else text)
    path = tmp_path_factory.mktemp("logs") / "logs.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    both_ways(path, name if named else None, output)


def test_every_game_fixture_rules_as_decoded(tmp_path: Path) -> None:
    lines = [json.dumps(json.loads(p.read_text("utf-8")))
             for p in sorted(FIXTURES.glob("*/*.json"))]
    path = tmp_path / "fixtures.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    both_ways(path, None, "jsonl")
    taken = []
    rule_decoded = ADJUDICATOR.rule_decoded

    def counting(data: bytes, fmt: str, *, source: str) -> Any:
        got = rule_decoded(data, fmt, source=source)
        taken.append(got is not None)
        return got

    with mock.patch.object(ADJUDICATOR, "rule_decoded", counting):
        typed = list(rule_logs([str(path)], StreamSettings(output="jsonl")))
    assert {r.status for r in typed} == {"legal", "illegal", "invalid"}
    game_logs = sum(1 for line in lines if json.loads(line).get("format") == "game/1")
    if getattr(bounded, "_json_guard") is not None:  # noqa: B009  (private)
        assert taken.count(True) >= game_logs // 2  # the legal and illegal game/1 fixtures
    else:  # without the C guard a repeated key is not ruled out cheaply: the usual way only
        assert taken == []
