"""Solo challenges of dungeon in memory (spec section 5, docs/seeds.md), one module per job.

- :mod:`pathcheck.solo.seed_codes`: seed codes (``VRSSS-SSSSC``) and the documented shuffle.
- :mod:`pathcheck.solo.play`: checking a solo record, and perfect play (the answer key).
- :mod:`pathcheck.solo.deal`: one deal played perfectly: its statistics, difficulty, grade.
- :mod:`pathcheck.solo.kernel`: the same statistics for many seeds from the C kernel.
- :mod:`pathcheck.solo.stats`: statistics over many deals, seed searches, divergence.
- :mod:`pathcheck.solo.challenge`: challenges and answer keys as values (``solo new|key|check``).
- :mod:`pathcheck.solo.census`: the census of a seed range, in chunks, resumable.

Ruling on a ``solo/1`` record as a game is the dungeon plug-in's job
(:mod:`pathcheck.games.dungeon.solo`). This package imports none of its modules, so importing
one of them costs only what it needs.
"""
