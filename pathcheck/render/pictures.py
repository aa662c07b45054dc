"""Pictures of verdicts: SVG drawings and port-graph exports, named after their record."""

from __future__ import annotations

from pathlib import Path

from pathcheck.output import write_atomic
from pathcheck.verify import DungeonVerdict, Verdict


def picture_stems(sources: list[str]) -> tuple[tuple[str, str], ...]:
    """The file-name stem of each input's pictures: its own stem, numbered from the second
    input on whose stem an earlier input already has (so no picture replaces another).

    >>> picture_stems(["a/x.dgn", "b/x.dgn", "y.jsonl", "c/x.json", "a/x.dgn"])
    (('a/x.dgn', 'x'), ('b/x.dgn', 'x.2'), ('y.jsonl', 'y'), ('c/x.json', 'x.3'))
    """
    stems: dict[str, str] = {}
    taken: dict[str, int] = {}
    for source in sources:
        if source in stems:
            continue
        stem = "stdin" if source == "-" else Path(source).stem
        taken[stem] = taken.get(stem, 0) + 1
        stems[source] = stem if taken[stem] == 1 else f"{stem}.{taken[stem]}"
    return tuple(stems.items())


def picture_name(verdict: Verdict, suffix: str,
                 stems: tuple[tuple[str, str], ...] = ()) -> str:
    """``<input stem>-<line>[<pointer>]<suffix>``, e.g. ``examples-5.svg`` (``stems`` from
    :func:`picture_stems` tells apart inputs of one name in different folders)."""
    record = verdict.record
    source = "-" if record.source == "<stdin>" else record.source
    stem = dict(stems).get(source) or (
        Path(record.source).stem if not record.source.startswith("<") else "stdin")
    extra = record.pointer.replace("/", "-") if record.pointer else ""
    return f"{stem}-{record.line}{extra}{suffix}"


def verdict_svg(verdict: Verdict) -> str:
    """One SVG for a verdict; for a solo record, its last dungeon checked (the failing one,
    if any). ``write_pictures`` draws every dungeon of a solo record."""
    from pathcheck.render.svg import dungeon_svg

    record = verdict.record
    title = f"{record.source}:{record.line}"
    if isinstance(verdict, DungeonVerdict):
        return dungeon_svg(verdict.trace, title=title, tileset=record.tileset, rules=record.rules)
    traced = verdict.result.traces[-1]
    number = len(verdict.result.traces)
    return dungeon_svg(traced, title=f"{title} dungeon {number}", tileset=record.tileset,
                       rules=record.rules)


def verdict_graph(verdict: Verdict, path: str = ".graphml") -> bytes | None:
    """The reference tracer's port graph of a dungeon record, in the format ``path`` names
    (GraphML for ``*.graphml``, else node-link JSON); None for a solo record."""
    if not isinstance(verdict, DungeonVerdict):
        return None
    from pathcheck.tracer.reference import export_graph, trace_reference
    from pathcheck.tracer.tileset import load_tileset

    record = verdict.record
    ref = trace_reference(record.tileset or load_tileset(),
                          [(p.tile, p.dir) for p in record.tiles], record.rules)
    return export_graph(ref.graph, path)


def write_pictures(verdict: Verdict, svg_dir: str | None, graph_dir: str | None,
                   stems: tuple[tuple[str, str], ...] = ()) -> None:
    """Write a verdict's SVG picture(s) and port graph into folders (atomically)."""
    record = verdict.record
    if svg_dir is not None:
        from pathcheck.render.svg import dungeon_svg

        if isinstance(verdict, DungeonVerdict):
            write_atomic(Path(svg_dir) / picture_name(verdict, ".svg", stems),
                         verdict_svg(verdict))
        else:
            for number, traced in enumerate(verdict.result.traces, start=1):
                svg = dungeon_svg(traced, title=f"{record.source}:{record.line} dungeon {number}",
                                  tileset=record.tileset, rules=record.rules)
                write_atomic(Path(svg_dir) / picture_name(verdict, f"-d{number}.svg", stems),
                             svg)
    if graph_dir is not None:
        graph = verdict_graph(verdict)
        if graph is not None:
            write_atomic(Path(graph_dir) / picture_name(verdict, ".graphml", stems), graph)
