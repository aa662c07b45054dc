"""Inputs: bytes to typed records and logs, the one way in for every command.

``records`` (dungeon/1 and solo/1 records and ``.dgn`` lines from files, errors naming
file, line and JSON pointer), ``record_values`` (the record types and their validation),
``dgn`` (the compact ``.dgn`` notation), ``logformat`` (a game-log format defined once as
msgspec types, its JSON Schema and reader) and ``logs`` (the game logs of one file,
notation or JSON, streamed one log at a time).

May import: the shared top modules, ``pathcheck.reading``, ``pathcheck.tracer``,
``pathcheck.notation`` and ``pathcheck.solo.seed_codes`` (a solo record's seed code sets
its rules).
"""
