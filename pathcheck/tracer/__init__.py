"""The dungeon tracer: the rules of dungeon in memory as data and code.

``constants`` (additional rules, the 9x9 bound, Lost reasons in precedence order),
``geometry`` (directions, cells), ``tileset`` (tile kinds, KIND_PATHS, TOML tile sets),
``fast`` (the compiled integer tracer), ``reference`` (the plain tracer on a networkx port
graph, the reference every fast path is checked against), ``dungeon`` (the public tracing
API: ``trace``, ``trace_notation``, ``Placement``, ``TraceResult``, ``LostReason``) and
``check`` (the LOST-card check, rules I-III).

May import: the shared top modules and ``pathcheck.reading`` (tile-set files are read
through the bounded readers).
"""
