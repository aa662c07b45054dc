"""Hostile records (issue 13): no record stops a run, and every path rules alike.

Each input goes through every path of ``verify``: the C fast path with ``-j 1`` and ``-j 2``,
and the pure-Python path (the extension switched off); results, summary and exit code must
be the same, and every other record must still be verified.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from pathcheck import speedups
from pathcheck.cli import cli
from pathcheck.reading import bounded

GOOD = {"tiles": [{"tile": "START", "dir": "N"}, {"tile": "I1", "dir": "N"}]}
DEAD_END = {"tiles": [{"tile": t, "dir": d} for t, d in [
    ("START", "N"), ("R1", "N"), ("R2", "E"), ("R3", "S"), ("I4", "W"), ("R4", "W"), ("R5", "N"),
    ("R6", "E")]]}
LOOP = {"advanced": True, "tiles": [{"tile": t, "dir": d} for t, d in [
    ("START", "N"), ("RE1", "N"), ("R1", "N"), ("R2", "E"), ("R3", "S")]]}
PATHS = ("c -j 1", "c -j 2", "python")


def line(value: Any) -> bytes:
    return json.dumps(value).encode()


def every_path(monkeypatch: pytest.MonkeyPatch, args: Sequence[str]) -> dict[str, Any]:
    """``pathcheck verify ARGS`` on every path: path -> (exit code, stdout, stderr)."""
    out = {}
    for path in PATHS:
        with monkeypatch.context() as patch:
            jobs = ["--jobs", "2"] if path.endswith("2") else ["--jobs", "1"]
            if path == "python":
                patch.setattr(speedups, "_speedups", None)
            result = CliRunner().invoke(cli, ["verify", *jobs, *args])
            assert result.exception is None or isinstance(result.exception, SystemExit)
            out[path] = (result.exit_code, result.stdout, result.stderr)
    return out


def same_everywhere(monkeypatch: pytest.MonkeyPatch, args: Sequence[str]
                    ) -> tuple[int, list[dict[str, Any]], str]:
    """Run every path, assert they agree; the exit code, result lines and stderr."""
    runs = every_path(monkeypatch, args)
    assert runs["c -j 1"] == runs["c -j 2"] == runs["python"], runs
    code, stdout, stderr = runs["python"]
    return code, [json.loads(x) for x in stdout.splitlines()], stderr


def jsonl(tmp_path: Path, *lines: bytes, name: str = "in.jsonl") -> str:
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines) + b"\n")
    return str(path)


def kinds(results: list[dict[str, Any]]) -> list[str]:
    return [r["kind"] for r in results]


def test_invalid_utf8_in_a_string_is_that_records_error(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    bad = b'{"tiles":[{"tile":"START","dir":"N"}],"note":"caf\xe9"}'
    path = jsonl(tmp_path, line(GOOD), bad, line(GOOD))
    code, results, stderr = same_everywhere(monkeypatch, ["--format", "jsonl", path])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "dungeon"]
    assert results[1]["line"] == 2 and "not UTF-8 text (byte 49)" in results[1]["error"]
    assert "internal error" not in stderr


@pytest.mark.parametrize("blank", [b"\x0c", b"\x0b", b" \x0c\t"])
def test_a_line_of_form_feeds_is_one_verdict_everywhere(tmp_path: Path, blank: bytes,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Blank, as Python's bytes.strip() sees it: skipped on every path.
    path = jsonl(tmp_path, line(GOOD), blank, b"   ", line(GOOD))
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", path])
    assert code == 0 and kinds(results) == ["dungeon", "dungeon"]
    assert [r["line"] for r in results] == [1, 4]


def folder_with_own_tileset(tmp_path: Path) -> Path:
    """``tmp_path/data`` holding ``mine.toml``: the standard tile set under another name."""
    data = tmp_path / "data"
    data.mkdir()
    standard = Path(__file__).resolve().parent.parent / "tiles" / "standard.toml"
    (data / "mine.toml").write_text(standard.read_text().replace('name = "standard"',
                                                                 'name = "mine"'))
    return data


def test_a_relative_tileset_beside_the_file_is_found_from_another_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = folder_with_own_tileset(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    jsonl(data, line({**GOOD, "tileset": "mine.toml"}), line(GOOD))
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", "../data/in.jsonl"])
    assert code == 0 and kinds(results) == ["dungeon", "dungeon"]


def test_a_dgn_tileset_setting_is_found_beside_the_file_from_another_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = folder_with_own_tileset(tmp_path)
    (data / "in.dgn").write_text("#! tileset=mine.toml\nSTART@N R1@N R2@E\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", "../data/in.dgn"])
    assert code == 0 and kinds(results) == ["dungeon"]
    (elsewhere / "out.dgn").write_text("#! tileset=../data/mine.toml\nSTART@N R1@N\n")
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", "out.dgn"])
    assert code == 3 and kinds(results) == ["invalid"]


@pytest.mark.parametrize("cut", [b'{"tiles":[{"tile":"STA', b'{"tiles":[{"tile":"\\',
                                 b'{"tiles":[{"tile":"\\u00', b'{"advanced":1', b'{"advanced":-',
                                 b'{"advanced":1e', b'{"advanced":tru', b'{"advanced":nul',
                                 b'{"tiles":[{"tile":"START","dir":"N"}]'])
@pytest.mark.parametrize("ending", [b"\n", b"\r\n"])
def test_a_line_cut_anywhere_is_one_message_on_its_own_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut: bytes, ending: bytes) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(ending.join([line(GOOD), cut, line(GOOD), b""]))
    code, results, stderr = same_everywhere(monkeypatch, ["--format", "jsonl", str(path)])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "dungeon"]
    assert results[1]["line"] == 2 and f"{path}:2: /: not valid JSON" in stderr


@pytest.mark.parametrize("field", ["note", "id", "tiles", "rules", "players", "lost", "tileset"])
@pytest.mark.parametrize("depth", [65, 985, 1000, 100_000])
def test_deep_nesting_in_any_field_is_that_records_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: str, depth: int) -> None:
    deep = b'{"tiles":[{"tile":"START","dir":"N"}],"' + field.encode() + b'":' + \
        b"[" * depth + b"]" * depth + b"}"
    path = jsonl(tmp_path, line(GOOD), deep, line(GOOD))
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", path])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "dungeon"]
    assert "nested deeper than the limit of 64" in results[1]["error"]


def test_nesting_up_to_the_limit_is_judged_on_its_merits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ok = b'{"tiles":[{"tile":"START","dir":"N"}],"note":' + b"[" * 63 + b"]" * 63 + b"}"
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl",
                                                     jsonl(tmp_path, ok)])
    assert code == 0 and kinds(results) == ["dungeon"]


def test_a_line_past_the_record_limit_is_that_records_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "MAX_RECORD_BYTES", 1000)
    monkeypatch.setattr(bounded, "BLOCK_SIZE", 300)  # the long line spans many reads
    long = b'{"tiles":[{"tile":"START","dir":"N"}],"note":"' + b"x" * 5000 + b'"}'
    path = jsonl(tmp_path, line(GOOD), long, line(GOOD), long[:990])
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", path])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "dungeon", "invalid"]
    assert results[1]["error"] == ("record of 5048 bytes is longer than the limit of 1000 bytes "
                                   "(see Limits in docs/cli.md)")
    assert "not valid JSON" in results[3]["error"]  # under the limit: judged as it is


def test_tied_lost_reasons_are_listed_in_one_order(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for records in ([LOOP, DEAD_END], [DEAD_END, LOOP]):
        path = jsonl(tmp_path, *map(line, records))
        _, _, stderr = same_everywhere(monkeypatch, ["--format", "jsonl", path])
        assert "2 Lost (dead-end 1, loop 1)" in stderr


@pytest.mark.parametrize("dup", [
    b'{"rules":[2],"tiles":[{"tile":"START","dir":"N"}],"rules":[]}',
    b'{"tiles":[{"tile":"START","dir":"N","dir":"S"}]}',
    b'{"tiles":[{"tile":"START","dir":"N"}],"note":{"a":1,"a":1}}',
    b'{"tiles":[{"tile":"START","dir":"N"}],"tiles":[{"tile":"START","dir":"N"}]}',
])
def test_a_key_given_twice_is_that_records_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 dup: bytes) -> None:
    path = jsonl(tmp_path, line(GOOD), dup, line({**GOOD, "note": "a:b:c"}))
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", path])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "dungeon"]
    assert "appears twice in one object" in results[1]["error"]
    assert results[1]["pointer"] in ("/rules", "/tiles/0/dir", "/note/a", "/tiles")


def test_a_key_given_twice_in_a_json_array_fails_only_its_element(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(b"[" + line(GOOD) + b',{"rules":[2],"rules":[],"tiles":[]},' + line(GOOD)
                     + b"]")
    code, results, stderr = same_everywhere(monkeypatch, ["--format", "jsonl", str(path)])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "dungeon"]
    assert f"{path}:1: /1/rules: key 'rules' appears twice" in stderr


def custom_tileset(count: int, id_length: int = 2) -> str:
    tiles = "".join(f'[[tile]]\nid = "{"I" * (id_length - 1)}{n}"\nkind = "straight"\n'
                    for n in range(count - 1))
    return f'name = "wide"\n[[tile]]\nid = "START"\nkind = "straight"\n{tiles}'


def test_a_tile_set_at_the_limit_traces_straight_without_wrapping(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "wide.toml").write_text(custom_tileset(bounded.MAX_TILESET_TILES))
    ids = ["START", *(f"I{n}" for n in range(bounded.MAX_TILESET_TILES - 1))]
    record = {"tileset": "wide.toml", "tiles": [{"tile": i, "dir": "N"} for i in ids]}
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl",
                                                     jsonl(tmp_path, line(record))])
    assert code == 0 and results[0]["reason"] is None
    assert results[0]["layout"][-1]["y"] == bounded.MAX_TILESET_TILES - 1


def test_a_tile_set_past_the_limits_is_refused(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "big.toml").write_text(custom_tileset(bounded.MAX_TILESET_TILES + 1))
    (tmp_path / "long.toml").write_text(custom_tileset(3, id_length=bounded.MAX_NAME + 1))
    path = jsonl(tmp_path, *(line({**GOOD, "tileset": name}) for name in ("big.toml",
                                                                             "long.toml")))
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", path])
    assert code == 3 and kinds(results) == ["invalid", "invalid"]
    assert "257 tiles: more than the limit of 256 tiles in a tile set" in results[0]["error"]
    assert "an id of 101 characters: longer than the limit of 100" in results[1]["error"]
    result = CliRunner().invoke(cli, ["trace", "START@N", "--tileset",
                                      str(tmp_path / "big.toml")])
    assert result.exit_code == 3 and "more than the limit of 256" in result.stderr


@pytest.mark.parametrize(("record", "pointer", "message"), [
    ({**GOOD, "players": [f"P{n}" for n in range(65)]}, "/players",
     "65 players: more than the limit of 64"),
    ({**GOOD, "players": ["A" * 101]}, "/players/0",
     "a name of 101 characters: longer than the limit of 100"),
    ({**GOOD, "lost": [{"player": "A" * 101, "after": 1}]}, "/lost/0/player",
     "a name of 101 characters: longer than the limit of 100"),
    ({**GOOD, "lost": [{"player": f"P{n}", "after": 1} for n in range(65)]}, "/lost",
     "65 LOST cards: more than the limit of 64 players"),
    ({"tiles": [{"tile": "START", "dir": "N"}] * 300}, "/tiles",
     "300 placements: more than the limit of 256 tiles in a dungeon"),
    ({"tiles": [{"tile": "Q" * 10_000, "dir": "N"}]}, "/tiles/0/tile",
     "unknown tile '" + "Q" * 80 + "'... (10000 characters)"),
])
def test_records_past_a_limit_name_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      record: dict[str, Any], pointer: str, message: str) -> None:
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl",
                                                     jsonl(tmp_path, line(record), line(GOOD))])
    assert code == 3 and kinds(results) == ["invalid", "dungeon"]
    assert results[0]["pointer"] == pointer and message in results[0]["error"]


def test_dgn_lines_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "MAX_RECORD_BYTES", 100_000)
    path = tmp_path / "in.dgn"
    path.write_text("\n".join([
        "START@N I1@N",
        " ".join(f"I{n % 8 + 1}@N" for n in range(2000)),   # too many tokens
        "X" * 50_000 + "@N",                                  # a long bad token: quoted briefly
        "START@N " * 20_000,                                  # past the record limit
        "START@N I2@N",
    ]) + "\n")
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", str(path)])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "invalid", "invalid", "dungeon"]
    assert "more than the limit of 1024 tokens" in results[1]["error"]
    assert len(results[2]["error"]) < 200 and "(50000 characters)" in results[2]["error"]
    assert "longer than the limit of 100000 bytes" in results[3]["error"]


@given(data=st.binary(max_size=80).map(lambda b: b.replace(b"\r", b"\n")),
       limit=st.integers(0, 20), block_size=st.integers(1, 25))
def test_line_blocks_split_like_lines_in_any_blocks(data: bytes, limit: int,
                                                    block_size: int) -> None:
    def expected() -> list[bytes | bounded.Oversized]:
        pieces = data.split(b"\n")
        ends = [b"\n"] * (len(pieces) - 1) + [b""]
        out: list[bytes | bounded.Oversized] = []
        for piece, end in zip(pieces, ends, strict=True):
            if len(piece) > limit and b"\0" in piece:  # binary: the input ends there
                return [*out, bounded.Oversized(-1, binary=True)]
            if len(piece) > limit:
                out.append(bounded.Oversized(len(piece)))
            elif piece + end:
                out.append(piece + end)
        return out

    got: list[bytes | bounded.Oversized] = []
    for block in bounded.line_blocks(io.BytesIO(data), limit, block_size):
        if isinstance(block, bounded.Oversized):  # the head only serves #! lines; the size
            # of a binary line is where reading stopped
            got.append(bounded.Oversized(-1 if block.binary else block.size,
                                         binary=block.binary))
        else:
            got += [p + b"\n" for p in block.split(b"\n")[:-1]] + [
                p for p in block.split(b"\n")[-1:] if p]
    assert got == expected()


@pytest.mark.parametrize("name", ["in.jsonl", "in.json", "in.dgn"])
def test_a_byte_order_mark_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      name: str) -> None:
    path = tmp_path / name
    if name.endswith(".dgn"):
        path.write_bytes(b"\xef\xbb\xbf#! rules=2\nSTART@N I4@N I5@N I6@N I7@N I8@N\n")
    else:
        path.write_bytes(b"\xef\xbb\xbf" + line({**DEAD_END, "rules": [2]}) + b"\n")
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", str(path)])
    assert code == 0 and len(results) == 1
    assert results[0]["reason"] == ("out-of-bounds" if name.endswith(".dgn") else "dead-end")


def test_lines_after_a_dropped_setting_are_not_ruled(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "in.dgn"
    path.write_text("#! rules=2\nSTART@N I1@N\n#! rules=two\nSTART@N I1@N\n"
                    "  \ufeff#! rules=3\nSTART@N I1@N\n")
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", str(path)])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "invalid", "dungeon"]
    assert [r["line"] for r in results] == [2, 3, 4, 6]
    assert "not ruled: the #! line before it could not be read" in results[2]["error"]


def test_lines_after_a_settings_line_past_the_limit_are_not_ruled(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "MAX_RECORD_BYTES", 200)
    monkeypatch.setattr(bounded, "BLOCK_SIZE", 64)
    path = tmp_path / "in.dgn"
    path.write_text("#! rules=2\nSTART@N I1@N\n#! players=" + "A," * 200 + "\nSTART@N I1@N\n"
                    "#! rules=3\nSTART@N I1@N\n")
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", str(path)])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "invalid", "dungeon"]
    assert "longer than the limit of 200 bytes" in results[1]["error"]
    assert "not ruled" in results[2]["error"] and results[3]["line"] == 6


def hostile_tilesets(folder: Path) -> list[str]:
    os.mkfifo(folder / "fifo.toml")
    (folder / "link.toml").symlink_to("/etc/passwd")
    (folder / "huge.toml").write_bytes(b"#" * (bounded.MAX_TILESET_BYTES + 1))
    (folder / "dir.toml").mkdir()
    return ["/etc/passwd", "../../..", "/dev/zero", "fifo.toml", "link.toml", "huge.toml",
            "dir.toml", "x" * 300 + ".toml", "../in.toml", "nothere.toml", "a\x00.toml"]


def test_a_record_names_only_builtin_sets_or_files_in_its_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = hostile_tilesets(tmp_path)
    path = jsonl(tmp_path, *(line({**GOOD, "tileset": name}) for name in names), line(GOOD))
    code, results, stderr = same_everywhere(monkeypatch, ["--format", "jsonl", path])
    assert code == 3 and kinds(results) == ["invalid"] * len(names) + ["dungeon"]
    assert all(r["pointer"] == "/tileset" for r in results[:-1])
    errors = [r["error"] for r in results[:-1]]
    assert all("inside its own folder" in e for e in errors[:3] + errors[7:9])
    assert "not a regular file" in errors[3] and "inside its own folder" in errors[4]
    assert "larger than the limit of 1048576 bytes" in errors[5]
    assert "not a regular file" in errors[6] and "beside the record" in errors[9]
    assert "root:" not in stderr  # nothing of another file is shown


def test_adjudicate_refuses_the_same_tile_sets_with_the_same_messages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = hostile_tilesets(tmp_path)
    log = json.loads((Path(__file__).resolve().parent.parent / "fixtures" / "dungeon"
                      / "legal-2p-basic.json").read_text())
    jsonl(tmp_path, *(line({**GOOD, "tileset": name}) for name in names))
    (tmp_path / "logs.jsonl").write_bytes(b"\n".join(line({**log, "tileset": n}) for n in names))
    verified = CliRunner().invoke(cli, ["verify", "--format", "jsonl", str(tmp_path / "in.jsonl")])
    judged = CliRunner().invoke(cli, ["adjudicate", str(tmp_path / "logs.jsonl")])
    assert verified.exit_code == judged.exit_code == 3
    messages = [json.loads(x)["error"] for x in verified.stdout.splitlines()]
    assert [e.split("/tileset: ", 1)[1] for e in judged.stderr.splitlines()] == messages


def test_the_command_line_tileset_stays_free(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    standard = Path(__file__).resolve().parent.parent / "tiles" / "standard.toml"
    elsewhere = tmp_path / "sets" / "any-name.txt"
    elsewhere.parent.mkdir()
    elsewhere.write_text(standard.read_text())
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", "--tileset",
                                                     str(elsewhere), jsonl(tmp_path, line(GOOD))])
    assert code == 0 and kinds(results) == ["dungeon"]


def test_a_huge_number_fails_only_its_element_with_a_json_pointer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(b"[\n" + line(GOOD) + b",\n" + b'{"tiles":[{"tile":"START","dir":"N"}],'
                     b'"note":{"a":[1, 1e400]}},\n' + line(GOOD) + b"\n]\n")
    code, results, stderr = same_everywhere(monkeypatch, ["--format", "jsonl", str(path)])
    assert code == 3 and kinds(results) == ["dungeon", "invalid", "dungeon"]
    assert [r["line"] for r in results] == [2, 3, 4]
    assert f"{path}:3: /1/note/a/1: not valid JSON: number out of range" in stderr


def test_a_json_array_is_read_element_by_element(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "BLOCK_SIZE", 16)  # elements cut across many reads
    monkeypatch.setattr(bounded, "MAX_RECORD_BYTES", 2000)
    big = {**GOOD, "note": "x" * 3000}
    path = tmp_path / "in.json"
    path.write_bytes(b"[" + b",".join([line(GOOD), line(DEAD_END), line(big), line(GOOD)])
                     + b"]")
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", str(path)])
    # Past the limit the array stops there: what comes after is not read.
    assert code == 3 and kinds(results) == ["dungeon", "dungeon", "invalid"]
    assert "longer than the limit of 2000 bytes" in results[2]["error"]
    assert results[2]["pointer"] == "/2"


@pytest.mark.parametrize(("document", "message"), [
    (b"[" + line(GOOD) + b",", "the array is cut short"),
    (b"[" + line(GOOD) + b"] []", "text after the closing ]"),
    (b"[" + line(GOOD) + b',"\\', "the array is cut short"),
])
def test_a_broken_array_keeps_the_elements_before_the_break(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, document: bytes, message: str) -> None:
    path = tmp_path / "in.json"
    path.write_bytes(document)
    code, results, _ = same_everywhere(monkeypatch, ["--format", "jsonl", str(path)])
    assert code == 3 and kinds(results) == ["dungeon", "invalid"]
    assert message in results[1]["error"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab,[]{}"\\\n :'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=10)


@given(values=st.lists(json_values, max_size=5), indent=st.sampled_from([None, 0, 2]),
       block_size=st.integers(1, 40))
def test_array_elements_match_a_whole_decode(values: list[Any], indent: int | None,
                                             block_size: int) -> None:
    text = json.dumps(values, indent=indent).encode()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bounded, "BLOCK_SIZE", block_size)
        elements = list(bounded.array_elements(io.BytesIO(b"  " + text + b"\n")))
    assert [json.loads(e.data) for e in elements] == values
    assert all(e.error is None for e in elements)
    assert [e.position for e in elements] == list(range(len(values)))
