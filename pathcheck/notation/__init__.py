"""Game notation (``.pcn``): every game's log as lines a person can write and read.

``core`` is the lexer and the reading and writing of any game's log (each game's keys and
move tokens are in ``games/<game>/notation.py``); ``values`` how every value is written and
read back (quoting, escapes, ``$`` JSON values, the exact round trip); ``places`` where each
part of a log read from notation was written (JSON pointer -> line). The package re-exports
``core``, so ``from pathcheck import notation; notation.parse(...)`` reads a log.

May import: the shared top modules and ``pathcheck.reading``.
"""

from pathcheck.notation.core import ALIASES as ALIASES
from pathcheck.notation.core import EXTENSION as EXTENSION
from pathcheck.notation.core import LITERAL as LITERAL
from pathcheck.notation.core import SAME_TEXTS as SAME_TEXTS
from pathcheck.notation.core import SEPARATORS as SEPARATORS
from pathcheck.notation.core import Line as Line
from pathcheck.notation.core import NotationError as NotationError
from pathcheck.notation.core import Places as Places
from pathcheck.notation.core import Reader as Reader
from pathcheck.notation.core import Token as Token
from pathcheck.notation.core import checked as checked
from pathcheck.notation.core import formats as formats
from pathcheck.notation.core import fragment as fragment
from pathcheck.notation.core import integer as integer
from pathcheck.notation.core import is_notation as is_notation
from pathcheck.notation.core import line_of as line_of
from pathcheck.notation.core import literal as literal
from pathcheck.notation.core import note as note
from pathcheck.notation.core import one_turn as one_turn
from pathcheck.notation.core import parse as parse
from pathcheck.notation.core import parse_lines as parse_lines
from pathcheck.notation.core import pretty_json as pretty_json
from pathcheck.notation.core import quote as quote
from pathcheck.notation.core import read_literal as read_literal
from pathcheck.notation.core import read_quoted as read_quoted
from pathcheck.notation.core import same as same
from pathcheck.notation.core import scalar as scalar
from pathcheck.notation.core import text_value as text_value
from pathcheck.notation.core import turns as turns
from pathcheck.notation.core import word as word
from pathcheck.notation.core import write as write
