"""The engine of ``pathcheck record``: a game's log kept at the table, checked line by line.

``recording`` (a Recording: the notation being typed, each line checked against the games'
rulings with and without it; re-exported here), ``settings`` (a log's settings checked by
its format's field types), ``up_next`` (whose turn, what to type, what the table sees),
``words`` (help examples, completion words) and ``cards`` (robot memory: cards a line turns
that the log does not know yet).

May import: every wing below it; nothing imports it but the CLI.
"""

from pathcheck.recorder.recording import EXAMPLES as EXAMPLES
from pathcheck.recorder.recording import GAMES as GAMES
from pathcheck.recorder.recording import SETTINGS as SETTINGS
from pathcheck.recorder.recording import Check as Check
from pathcheck.recorder.recording import Recording as Recording
from pathcheck.recorder.recording import Setting as Setting
from pathcheck.recorder.recording import at_this_table as at_this_table
from pathcheck.recorder.recording import for_the_table as for_the_table
