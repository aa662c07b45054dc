"""No import circles among pathcheck's modules (docs/design.md): imports go one way.

The graph is read from the source with :mod:`ast`, so every import counts: at the top of a
module, inside a function (a circle hidden there is still a circle) and under
``TYPE_CHECKING``. ``cli/`` is laid out as ``pathcheck.cli``, as it is installed. An import
of a package is an edge to its ``__init__``; importing ``a.b`` is not counted as importing
``a`` too (a package's ``__init__`` re-exporting its modules is no circle).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
TREES = ((ROOT / "pathcheck", "pathcheck"), (ROOT / "cli", "pathcheck.cli"))


def _modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for folder, package in TREES:
        # A C extension is a module too, known by its stub (pathcheck/_speedups.pyi).
        stubs = [p for p in folder.rglob("*.pyi") if not p.with_suffix(".py").exists()]
        for path in [*folder.rglob("*.py"), *stubs]:
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _imported(name: str, path: Path, node: ast.Import | ast.ImportFrom,
              modules: dict[str, Path]) -> list[str]:
    """The modules of ours that one import statement names."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in modules]
    if node.level:  # relative: from its package, one level up per extra dot
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, node.module] if node.module else package)
    else:
        base = node.module or ""
    found = []
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        if submodule in modules:
            found.append(submodule)
        elif base in modules:
            found.append(base)
    return found


def import_graph() -> nx.DiGraph[str]:
    modules = _modules()
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _imported(name, path, node, modules):
                    if target != name:
                        where = f"{path.relative_to(ROOT)}:{node.lineno}"
                        graph.add_edge(name, target, where=where)
    return graph


def test_the_graph_sees_the_imports() -> None:
    graph = import_graph()
    assert graph.has_edge("pathcheck.cli.solo", "pathcheck.cli.census")  # relative import
    assert graph.has_edge("pathcheck.solo.stats", "pathcheck.solo.kernel")  # in a function
    assert graph.has_edge("pathcheck.games.memo_dice.at", "pathcheck.games.memo_dice.row")
    assert graph.has_edge("pathcheck.cli.census", "pathcheck.solo.census")  # a package
    assert graph.has_edge("pathcheck.reading.bounded", "pathcheck._speedups")  # C, by its stub
    assert not any(name.startswith(("pathcheck.seeds", "pathcheck.census")) for name in graph)


def test_no_import_circle() -> None:
    graph = import_graph()
    circles = []
    for circle in nx.simple_cycles(graph):
        steps = zip(circle, [*circle[1:], circle[0]], strict=True)
        circles.append(" -> ".join(f"{a} ({graph.edges[a, b]['where']})" for a, b in steps))
    assert circles == [], "import circles:\n" + "\n".join(circles)


# The wings of the engine from the bottom up (docs/design.md, "The house"): a module may import
# its own layer and the layers below it, never one above. A unit is a wing (a package right under
# pathcheck/), a module left at the top, or, where named, one module of a wing that sits lower
# than the rest of it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("pathcheck.errors", "pathcheck.facts", "pathcheck.ruling", "pathcheck.safe",
     "pathcheck.output", "pathcheck.lifeline", "pathcheck._moved",
     "pathcheck._speedups"),  # the C extension (its sources in speedups/) imports none of ours
    ("pathcheck.reading",),
    ("pathcheck.tracer",),
    ("pathcheck.solo.seed_codes",),  # a solo record's seed code: read by the record reader
    ("pathcheck.notation",),
    ("pathcheck.inputs",),
    ("pathcheck.speedups",),
    ("pathcheck.solo",),
    ("pathcheck.verify",),
    ("pathcheck.render",),
    ("pathcheck.games",),
    ("pathcheck.schemas",),
    ("pathcheck.batch",),
    ("pathcheck.analysis",),
    ("pathcheck.recorder",),
    ("pathcheck.cli", "pathcheck.__main__", "pathcheck"),
)


def unit_of(module: str) -> tuple[int, str]:
    """The layer and unit a module belongs to: the longest unit name that contains it."""
    best: tuple[int, str] | None = None
    for level, units in enumerate(LAYERS):
        for unit in units:
            inside = module == unit or (unit != "pathcheck" and module.startswith(unit + "."))
            if inside and (best is None or len(unit) > len(best[1])):
                best = (level, unit)
    assert best is not None, f"{module} is in no layer: add its wing to LAYERS"
    return best


def test_every_module_has_a_layer() -> None:
    for module in import_graph():
        unit_of(module)
    assert unit_of("pathcheck.solo.seed_codes") == (3, "pathcheck.solo.seed_codes")
    assert unit_of("pathcheck.solo.census.files") == (7, "pathcheck.solo")


def test_imports_run_down_the_layers() -> None:
    graph = import_graph()
    upward = []
    for a, b in graph.edges:
        (level_a, unit_a), (level_b, unit_b) = unit_of(a), unit_of(b)
        if level_b > level_a:
            upward.append(f"{a} -> {b} ({graph.edges[a, b]['where']}): "
                          f"{unit_a} may not import {unit_b}")
    assert upward == [], "imports that run up the layers:\n" + "\n".join(sorted(upward))
