"""Batch work: many records or game logs streamed, spread over cores, kept in input order.

``records`` (verifying dungeon/1 and solo/1 records: the run, its summary), ``items`` (one
record of an input as an Item, verified and rendered), ``fast`` (whole-line blocks on the C
fast path), ``parallel`` (tasks on worker processes, in input order) and ``logs`` (game logs
for ``adjudicate`` and ``analyse``: one log at a time, its outcome, the output contract).
The package re-exports ``records``.

May import: every wing below it (shared, reading, tracer, notation, inputs, speedups, solo,
``pathcheck.verify``, render, games).
"""

from pathcheck.batch.records import CHUNK as CHUNK
from pathcheck.batch.records import DGN_LINE as DGN_LINE
from pathcheck.batch.records import ERROR as ERROR
from pathcheck.batch.records import JSON_LINE as JSON_LINE
from pathcheck.batch.records import MEANT_FOR as MEANT_FOR
from pathcheck.batch.records import NO_RECORD as NO_RECORD
from pathcheck.batch.records import VALUE as VALUE
from pathcheck.batch.records import WRONG_PRAGMA as WRONG_PRAGMA
from pathcheck.batch.records import Block as Block
from pathcheck.batch.records import FileEnd as FileEnd
from pathcheck.batch.records import Item as Item
from pathcheck.batch.records import Rendered as Rendered
from pathcheck.batch.records import Result as Result
from pathcheck.batch.records import RunSummary as RunSummary
from pathcheck.batch.records import Settings as Settings
from pathcheck.batch.records import Task as Task
from pathcheck.batch.records import input_size as input_size
from pathcheck.batch.records import iter_items as iter_items
from pathcheck.batch.records import misdirected as misdirected
from pathcheck.batch.records import parallel_map as parallel_map
from pathcheck.batch.records import process_item as process_item
from pathcheck.batch.records import process_task as process_task
from pathcheck.batch.records import render_verdict as render_verdict
from pathcheck.batch.records import run as run
from pathcheck.batch.records import usable_cores as usable_cores
