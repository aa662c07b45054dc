"""Reading: bytes in, bounded. The lowest wing above the shared modules.

Everything pathcheck reads passes through here first: files opened and checked as regular
files (``regular_files``), the limits on one record and the bounded line and array readers
that enforce them (``bounded``), the one reader that sniffs an input's shape and streams its
JSON documents with errors naming file and line (``reader``), the one reader of text (lines,
strict UTF-8, ASCII numbers: ``text``) and the advice for an input meant for another command
(``meant_for``).

May import: the shared top modules (``pathcheck.errors``, ``pathcheck.safe`` ...) only.
"""
