"""The core commands through click's CliRunner: verify, trace, tiles, schema, --help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pathcheck.cli import COMMANDS, cli, main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "fixtures" / "dungeons" / "examples.dgn"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("name", [*COMMANDS, None])
def test_help_of_every_command(name: str | None) -> None:
    code, out, _ = run(*([name] if name else []), "--help")
    assert code == 0
    assert "Usage:" in out


def test_verify_examples_text() -> None:
    code, out, _ = run("verify", str(EXAMPLES))
    assert code == 0
    assert "Lost at tile 8 (R6@E, cell -1,1) by dead-end." in out
    assert "Rule Lost (A)" in out
    assert "Points: Bob 0, Cy 1, Dee 1, Eve 0" in out
    assert "┃" in out  # the map
    assert out.rstrip().endswith("0 invalid")


def test_verify_jsonl_one_result_per_record_in_order(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    good = {"format": "dungeon/1", "tiles": [{"tile": "START", "dir": "N"},
                                             {"tile": "L4", "dir": "E"}]}
    path.write_text(json.dumps(good) + "\n{bad\n" + json.dumps(good) + "\n")
    code, out, err = run("verify", "--format", "jsonl", str(path))
    assert code == 3
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(r["line"], r["kind"]) for r in lines] == [(1, "dungeon"), (2, "invalid"),
                                                        (3, "dungeon")]
    assert lines[0]["lost_at"] == 2 and lines[0]["reason"] == "misplaced"
    assert lines[0]["layout"][1] == {"tile": "L4", "dir": "E", "x": 0, "y": 1}
    assert all(r["source"] == str(path) for r in lines)
    assert f"{path}:2: /: not valid JSON" in err
    assert "Traceback" not in err


def test_verify_json_document_and_points() -> None:
    code, out, _ = run("verify", "--format", "json", str(EXAMPLES))
    assert code == 0
    results = json.loads(out)
    check = next(r for r in results if "points" in r and "Eve" in r["points"])
    assert check["points"] == {"Bob": 0, "Cy": 1, "Dee": 1, "Eve": 0}
    assert check["lost_at"] == 5 and check["reason"] == "loop"


def test_rule_options_override_records() -> None:
    code, out, _ = run("trace", "START@N I4@N I5@N I6@N I7@N I8@N", "--rules", "2",
                       "--format", "json")
    assert code == 0 and json.loads(out)["reason"] == "out-of-bounds"
    code, out, _ = run("trace", "START@N I4@N I5@N I6@N I7@N I8@N", "--format", "json")
    assert json.loads(out)["reason"] is None


def test_trace_bad_token_is_one_line_error() -> None:
    code, _, err = run("trace", "START@N Q1@N")
    assert code == 3
    assert err.strip().count("\n") == 0 and "unknown tile 'Q1'" in err


def test_trace_of_nothing_is_one_line_error() -> None:
    code, _, err = run("trace", "# only a comment")
    assert code == 3 and err.strip() == (
        "pathcheck: invalid: no tiles to trace (the argument is blank or a comment)")


def test_trace_graph_json_is_node_link(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    code, _, _ = run("trace", "START@N R1@N R2@E", "--graph", str(path))
    graph = json.loads(path.read_text(encoding="utf-8"))
    assert code == 0 and len(graph["nodes"]) == 12 and graph["links"]
    assert {"0,0,N", "0,1,S"} <= {n["id"] for n in graph["nodes"]}


def test_trace_needs_advanced_for_repeat() -> None:
    code, _, err = run("trace", "START@N RE1@N")
    assert code == 3 and "advanced" in err
    code, out, _ = run("trace", "START@N RE1@N R1@N R2@E R3@S", "--advanced", "--no-map")
    assert code == 0 and "by loop" in out


def test_verify_stdin_dgn_and_json() -> None:
    code, out, _ = run("verify", "--format", "jsonl", "-", stdin="START@N L4@E\n")
    assert code == 0 and json.loads(out)["reason"] == "misplaced"
    doc = json.dumps({"tiles": [{"tile": "START", "dir": "N"}]}, indent=2)
    code, out, _ = run("verify", "--format", "jsonl", "-", stdin=doc)
    assert code == 0 and json.loads(out)["lost_at"] is None


def test_verify_writes_svg_and_graph(tmp_path: Path) -> None:
    svg_dir, graph = tmp_path / "svg", tmp_path / "g.graphml"
    code, _, _ = run("verify", "-q", str(EXAMPLES), "--svg", str(svg_dir))
    assert code == 0
    files = sorted(p.name for p in svg_dir.iterdir())
    assert "examples-5.svg" in files and len(files) == 10
    assert "<svg" in (svg_dir / "examples-5.svg").read_text()
    code, _, _ = run("trace", "START@N R1@N R2@E", "--graph", str(graph), "--svg",
                     str(tmp_path / "one.svg"))
    assert code == 0 and "<graphml" in graph.read_text()
    assert (tmp_path / "one.svg").read_text().startswith("<svg")


def test_graph_json_is_node_link(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    code, _, _ = run("trace", "START@N R1@N", "--graph", str(out))
    data = json.loads(out.read_text())
    assert code == 0 and {"nodes", "links"} <= set(data)
    assert any(link["kind"] == "border" for link in data["links"])


def test_output_file_is_written_atomically_and_not_on_error(tmp_path: Path) -> None:
    target = tmp_path / "report.jsonl"
    code, _, _ = run("verify", "--format", "jsonl", "-o", str(target), str(EXAMPLES))
    assert code == 0 and len(target.read_text().splitlines()) == 10
    assert [p.name for p in tmp_path.iterdir()] == ["report.jsonl"]


def test_missing_file_is_reported_and_others_verified(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    code, out, err = run("verify", "--format", "jsonl", str(missing), str(EXAMPLES))
    assert code == 4
    assert f"pathcheck: error: {missing}: cannot read: No such file or directory" in err
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["kind"] == "unreadable" and len(lines) == 11
    code, out, _ = run("verify", "--no-map", str(missing), str(EXAMPLES))
    assert code == 4 and "1 unreadable file" in out and "10 records" in out


def test_jobs_give_the_same_output_in_the_same_order(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _, one, _ = run("verify", "--format", "jsonl", str(EXAMPLES), str(EXAMPLES))
    _, two, _ = run("verify", "--format", "jsonl", "--jobs", "2", str(EXAMPLES), str(EXAMPLES))
    assert one == two and len(one.splitlines()) == 20
    # JSON Lines in blocks (the fast path, on threads with --jobs), with bad lines among them.
    lines = [json.loads(line) for line in one.splitlines() if '"kind":"dungeon"' in line]
    records = [json.dumps({"advanced": True, "rules": [2, 3, 4], "tiles": [
        {"tile": p["tile"], "dir": p["dir"]} for p in r["layout"]]}) for r in lines]
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join([*records, "{bad"] * 3000) + "\n")
    import pathcheck.reading.bounded

    monkeypatch.setattr(pathcheck.reading.bounded, "BLOCK_SIZE", 1 << 14)  # many blocks
    code1, one, _ = run("verify", "--format", "jsonl", str(path))
    code2, two, _ = run("verify", "--format", "jsonl", "--jobs", "2", str(path))
    assert code1 == code2 == 3
    assert one == two and len(one.splitlines()) == 3000 * (len(records) + 1)
    assert [json.loads(x)["line"] for x in two.splitlines()] == list(
        range(1, 3000 * (len(records) + 1) + 1))


def test_tiles_table_and_custom_set(tmp_path: Path) -> None:
    code, out, _ = run("tiles")
    assert code == 0 and "RE1" in out and "poltergeist" in out and "38 tiles" in out
    custom = tmp_path / "mini.toml"
    custom.write_text('name = "mini"\n[[tile]]\nid = "START"\nkind = "cross"\n'
                      '[[tile]]\nid = "A"\nkind = "left"\nghost = "wisp"\n')
    code, out, _ = run("tiles", "--tileset", str(custom))
    assert code == 0 and "mini" in out
    code, out, _ = run("trace", "START@N A@N", "--tileset", str(custom), "--format", "json")
    assert code == 0 and json.loads(out)["layout"][1]["tile"] == "A"


def test_bad_tileset_is_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[tile]]\nid = "START"\nkind = "zigzag"\n')
    code, _, err = run("tiles", "--tileset", str(bad))
    assert code == 3
    assert "/tile/0/kind: unknown kind 'zigzag'" in err


def test_schema_command() -> None:
    code, out, _ = run("schema", "dungeon")
    assert code == 0 and json.loads(out)["title"].startswith("pathcheck dungeon record")
    code, out, _ = run("schema", "--list")
    assert "dungeon" in out.split()
    code, out, err = run("schema", "nope")  # a usage error, as a mistyped command or GAME
    assert code == 2 and out == ""
    assert ("unknown schema 'nope' (known: dungeon, game, memo-dice, memoarrr, robot-memory, "
            "ruling, solo)") in err
    code, out, err = run("schema", "rulings")
    assert code == 2 and out == "" and "unknown schema 'rulings' (did you mean ruling?)" in err


def test_main_turns_usage_errors_into_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--format", "xml", str(EXAMPLES)]) == 2
    assert main(["nosuchcommand"]) == 2
    assert main(["--version"]) == 0


def test_a_bug_is_one_line_with_exit_70(monkeypatch: pytest.MonkeyPatch) -> None:
    import pathcheck.cli.tiles as tiles_command

    def broken(name: str = "standard") -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(tiles_command, "load_tileset", broken)
    code, _, err = run("tiles")
    assert code == 70
    assert err.strip() == ("pathcheck: internal error: RuntimeError: boom (set PATHCHECK_DEBUG=1 "
                           "for a traceback; please report it)")


def test_output_may_not_replace_an_input_file(tmp_path: Path) -> None:
    data = tmp_path / "mine.dgn"
    data.write_text("START@N R1@N\n")
    code, _, err = run("verify", str(data), "-o", str(data))
    assert code == 2 and "one of the input files" in err
    assert data.read_text() == "START@N R1@N\n"
