"""Seed codes, the documented shuffle and the pinned golden vectors (docs/seeds.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathcheck.errors import InputError
from pathcheck.solo.play import answer_key, max_score
from pathcheck.solo.seed_codes import (
    ALPHABET,
    SEED_LIMIT,
    SeedCode,
    SeedCodeError,
    check_value,
    deal,
    parse_rules,
    permutation,
    splitmix64,
)
from pathcheck.tracer.tileset import load_tileset

VECTORS = Path(__file__).parent.parent / "fixtures" / "seeds" / "vectors.json"

seeds = st.integers(min_value=0, max_value=SEED_LIMIT - 1)
rule_sets = st.frozensets(st.sampled_from([2, 3, 4]))


def load_vectors() -> list[dict[str, Any]]:
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    assert data["format"] == "pathcheck-seed-vectors/1"
    vectors: list[dict[str, Any]] = data["vectors"]
    return vectors


# --- codes -------------------------------------------------------------------------------


@given(seeds, rule_sets)
def test_codes_round_trip(seed: int, rules: frozenset[int]) -> None:
    code = SeedCode(seed, rules)
    text = str(code)
    assert len(text) == 11 and text[5] == "-"
    assert SeedCode.parse(text) == code
    assert SeedCode.parse(text.lower().replace("-", " ")) == code


@given(seeds, rule_sets, st.data())
def test_one_character_typos_are_detected(
    seed: int, rules: frozenset[int], data: st.DataObject
) -> None:
    text = str(SeedCode(seed, rules)).replace("-", "")
    position = data.draw(st.integers(0, len(text) - 1))
    wrong = data.draw(st.sampled_from([c for c in ALPHABET if c != text[position]]))
    typo = text[:position] + wrong + text[position + 1:]
    with pytest.raises(SeedCodeError, match="check character mismatch"):
        SeedCode.parse(typo)


@given(seeds, rule_sets, st.data())
def test_swapped_neighbours_are_detected(
    seed: int, rules: frozenset[int], data: st.DataObject
) -> None:
    text = str(SeedCode(seed, rules)).replace("-", "")
    i = data.draw(st.integers(0, len(text) - 2))
    if text[i] == text[i + 1]:
        return
    swapped = text[:i] + text[i + 1] + text[i] + text[i + 2:]
    with pytest.raises(SeedCodeError):
        SeedCode.parse(swapped)


@given(st.text(max_size=30))
def test_random_strings_never_crash_the_parser(text: str) -> None:
    try:
        SeedCode.parse(text)
    except SeedCodeError as exc:
        assert isinstance(exc, InputError)
        assert "\n" not in str(exc)


@given(st.text(alphabet=ALPHABET + "-ilo", min_size=10, max_size=13))
def test_random_codes_parse_or_explain(text: str) -> None:
    try:
        code = SeedCode.parse(text)
    except SeedCodeError:
        return
    assert SeedCode.parse(str(code)) == code


def test_crockford_aliases() -> None:
    code = SeedCode(0)
    assert str(code) == "10000-0000T"
    assert SeedCode.parse("iOooo oOOO-t") == code
    assert SeedCode.parse("L0000-0000T") == code


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("10000-0000", "9 characters, expected 10"),
        ("10U00-0000T", "bad character 'U' at position 3"),
        ("10000-0000*", "bad character '*' at position 11"),
        ("10000-0000V", "check character mismatch, probably a typo"),
    ],
)
def test_bad_codes_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(SeedCodeError, match=re.escape(message)):
        SeedCode.parse(text)


def _with_check(body: list[int]) -> str:
    return "".join(ALPHABET[d] for d in [*body, check_value(body)])


def test_unknown_version_is_named() -> None:
    with pytest.raises(SeedCodeError, match="unknown version 2"):
        SeedCode.parse(_with_check([2, 0, 0, 0, 0, 0, 0, 0, 1]))


def test_reserved_rule_bits_are_rejected() -> None:
    with pytest.raises(SeedCodeError, match="rules character 'Z' is not 0-7"):
        SeedCode.parse(_with_check([1, 31, 0, 0, 0, 0, 0, 0, 1]))


def test_out_of_range() -> None:
    with pytest.raises(SeedCodeError, match="out of range"):
        SeedCode(SEED_LIMIT)
    with pytest.raises(SeedCodeError, match="rule #1 is not a solo rule"):
        SeedCode(1, frozenset({1}))


def test_parse_rules() -> None:
    assert parse_rules("2,3") == {2, 3}
    assert parse_rules("#4") == {4}
    assert parse_rules("") == frozenset()
    assert parse_rules(None) == frozenset()
    with pytest.raises(SeedCodeError):
        parse_rules("1")
    with pytest.raises(SeedCodeError):
        parse_rules("two")


# --- the shuffle -------------------------------------------------------------------------


def test_splitmix64_reference_values() -> None:
    # The first outputs of Vigna's splitmix64.c from state 0.
    state, a = splitmix64(0)
    _, b = splitmix64(state)
    assert (a, b) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


@settings(max_examples=50)
@given(seeds)
def test_deal_is_a_permutation_of_the_set(seed: int) -> None:
    deck = deal(seed)
    ts = load_tileset()
    assert deck[0] == "START"
    assert sorted(deck) == sorted(ts.ids_for(advanced=True))
    assert sorted(permutation(seed, 37)) == list(range(37))


def test_deals_differ() -> None:
    assert len({tuple(deal(s)) for s in range(200)}) == 200


# --- golden vectors ----------------------------------------------------------------------


@pytest.mark.parametrize("vector", load_vectors(), ids=lambda v: str(v["code"]))
def test_golden_vector(vector: dict[str, Any]) -> None:
    code = SeedCode.parse(vector["code"])
    assert (code.seed, sorted(code.rules)) == (vector["seed"], vector["rules"])
    assert str(SeedCode(vector["seed"], frozenset(vector["rules"]))) == vector["code"]
    state, outputs = code.seed, []
    for _ in range(3):
        state, out = splitmix64(state)
        outputs.append(f"{out:016x}")
    assert outputs == vector["splitmix64_first"]
    assert permutation(code.seed, 37) == vector["permutation"]
    assert code.deck == vector["deck"]
    key = answer_key(code.deck, rules=code.rules)
    got = [
        {"tiles": " ".join(str(p) for p in d.placements), "lost_at": d.trace.lost_at,
         "reason": None if d.trace.reason is None else d.trace.reason.value}
        for d in key
    ]
    assert got == vector["key"]
    assert max_score(len(code.deck), code.rules) == vector["max_score"]
