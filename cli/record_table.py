"""The dialogue of ``pathcheck record`` at the table: the settings questions, the move prompt
(whose turn it is, what waits), the commands (``:undo``, ``:show``, ``:ruling``...) and the
``:help`` text. The command and its files are in :mod:`pathcheck.cli.record`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pathcheck.cli.record_terminal import (
    Ended,
    ask,
    show,
    wrap,
)
from pathcheck.errors import ExitCode
from pathcheck.render.words import counted
from pathcheck.safe import keep_lines
from pathcheck.safe import one_line as safe

HELP = """\
Type each move as a line of game notation ({how}); Tab completes names, tiles and positions.
For example, at this table:
{examples}
Commands:
  :undo      take back the last line (with no move yet: the settings)
  :settings  change the settings        :show      what everyone at the table sees
  :show all  the referee's view          :ruling    the ruling so far
  :help      this text                   :done      finish and print the ruling
Ctrl-C clears the line; Ctrl-C on an empty line or Ctrl-D stops (the log is saved)."""

HOW = {"solo/1": "one tile a line as TILE@DIR, or a dungeon a line; | starts the next "
                 "dungeon"}
"""How move lines are typed, per format (else: several turns may share a line)."""


def help_text(fmt: str, players: list[str] | None = None, edition: str = "2023") -> str:
    """The recorder's ``:help``, with example move lines of the game ``fmt`` being recorded,
    written with the names of the players at this table.

    >>> print(help_text("memo-dice/1", ["Linda", "Nora"]).splitlines()[3])
      Linda 2 bell/red red · Nora 7 lemon/red red   covering: PLAYER DIE SYMBOL/COLOUR CUP
    """
    from pathcheck.recorder import EXAMPLES, at_this_table
    from pathcheck.render.align import ljust, text_width

    pairs = [(at_this_table(line, players or [], edition), what)
             for line, what in EXAMPLES.get(fmt, ())]
    width = max((text_width(line) for line, _ in pairs), default=0)
    how = HOW.get(fmt, "several turns may share a line, separated by '·', ';' or ' . '")
    return HELP.format(how=how, examples="\n".join(f"  {ljust(line, width)}   {what}"
                                                   for line, what in pairs))


class Table:
    """The dialogue with the keeper: the move prompt (its history holds moves only) and the
    questions (settings, keep or correct, paging)."""

    def __init__(self, moves: Any, answers: Any, echo: Callable[[str], None]) -> None:
        self.moves_prompt, self.answers, self.echo = moves, answers, echo
        self.waiting: list[str] = []
        """The lines of a pasted block after the one being checked."""
        self.recording: Any = None

    def wrap(self, text: str) -> str:
        from pathcheck.cli.record_terminal import width

        return wrap(text, width(self.answers) - 1, "  ")

    def say(self, text: str) -> None:
        """Say ``text`` wrapped, a name's control and bidi characters escaped (an ESC ] 0 ;
        ... BEL in a name would set the terminal's title, U+202E reverse the line)."""
        self.echo(self.wrap(keep_lines(text)))

    # --- settings ---------------------------------------------------------------------

    def settings(self, fmt: str, current: dict[str, str]) -> dict[str, str] | None:
        from pathcheck.recorder import Recording

        """Ask every setting of ``fmt`` (``current``: the answers so far, shown to keep),
        each checked as it is entered and all together at the end; None: the keeper
        stopped."""
        from prompt_toolkit.completion import WordCompleter

        from pathcheck.recorder.settings import SETTINGS, check, choices

        answers = dict(current)
        pending = [s.key for s in SETTINGS[fmt]]
        while pending:
            for setting in SETTINGS[fmt]:
                if not setting.asked(answers):  # (robot memory: teams or players)
                    answers.pop(setting.key, None)
                    continue
                if setting.key not in pending:
                    continue
                offered = list(choices(fmt, setting.key))
                if setting.key in ("start", "peeks"):
                    offered += _names(answers.get("players", ""))
                listed = f" ({', '.join(offered)})" if 2 <= len(offered) <= 5 else ""
                default = answers.get(setting.key, setting.default)
                while True:
                    try:
                        answer = self.question(
                            f"{setting.question}{listed}:", setting=True, default=default,
                            completer=WordCompleter(offered, WORD=True) if offered else None)
                    except Ended:
                        return None
                    before = dict(answers)
                    answers[setting.key] = answer.strip()
                    for key, value in answers.items():  # a player renamed: everywhere
                        if key not in ("players", "team1", "team2", setting.key):
                            answers[key] = Recording.rename(value, renames(before, answers))
                    problems = check(fmt, answers, only=setting.key)
                    if not problems:
                        break
                    for problem in problems:
                        self.say(f"  {problem.text()}")
                    default = answer.strip()
            problems = check(fmt, answers)
            for problem in problems:
                self.say(f"  {problem.text()}")
            pending = [p.key for p in problems]
        return answers

    def edit_settings(self, recording: Any, path: str) -> None:
        """``:settings`` (and ``:undo`` with no move yet): ask the settings again; the new ones
        are kept only if every move recorded still reads with them."""
        from pathcheck.recorder import Recording
        from pathcheck.recorder.settings import SETTINGS

        current = recording.settings()
        answers = self.settings(recording.format, current)
        if answers is None or answers == current:
            self.say("  the settings are unchanged")
            return
        edited = Recording.new(recording.format, answers, path)
        renamed = renames(current, answers)
        edited.lines = [Recording.rename(line, renamed) for line in recording.lines]
        edited.header = recording.header_with(answers, [s.key for s in SETTINGS[
            recording.format]])
        trouble = edited.trouble()
        if trouble is not None:
            self.say(f"  not changed: the moves recorded do not fit them ({trouble})")
            return
        recording.header = edited.header
        if renamed:  # the moves name the players as they are called now
            recording.lines = edited.lines
            recording.back_to(len(recording.lines))  # (:undo cannot bring old names back)
            self.say("  renamed in every move: " + ", ".join(f"{a} -> {b}"
                                                            for a, b in renamed.items()))
        recording.save(path)
        self.say("  settings changed: " + "; ".join(f"{k}: {v}" for k, v in answers.items()))

    # --- moves ------------------------------------------------------------------------

    def moves(self, recording: Any, path: str) -> int:
        from pathcheck.cli.record_complete import MoveCompleter
        from pathcheck.recorder import for_the_table

        completer = MoveCompleter(recording)
        recording.waiting[:0] = self.waiting  # pasted into the settings' last answer
        self.waiting = recording.waiting  # (one list: saved with the log)
        self.recording = recording
        default = ""
        while True:
            try:
                self.at_the_end(recording, path)
                if self.waiting and not default:
                    # a pasted block goes on, line by line, each checked as a typed one
                    line = self.waiting.pop(0)
                    self.echo(keep_lines(f"{recording.prompt()} {line}"))
                else:
                    line = self.pasted(ask(self.moves_prompt, self.prompt(recording),
                                           default=default, completer=completer,
                                           complete_while_typing=False))
                    if self.waiting:
                        recording.save(path)  # the pasted lines that wait: kept too
            except Ended as end:
                return self.stop(path, end)
            default = ""
            line = line.strip()
            if not line:
                continue
            if line.startswith(":"):
                done = self.command(line, recording, path)
                if done is not None:
                    return done
                continue
            line = recording.canonical(line)
            try:
                line = self.together(recording, line)
                line = self.revealed(recording, line)
            except Ended as end:
                self.say(f"  the line was not recorded: {line}")
                return self.stop(path, end)
            check = recording.check(line)
            # a line that does not read, or makes the log impossible to rule on (an unknown
            # player or tile, a round left unfinished), must be corrected; a move that breaks
            # a rule may be kept
            if check.error is not None or check.malformed is not None:
                why = (f"not read: {check.error}" if check.error is not None
                       else f"the log could no longer be ruled on with it: {check.malformed}")
                if recording.in_settings(check):  # not the line's fault: the settings'
                    self.say("  the settings are wrong, whatever the line: :settings changes "
                             "them")
                elif recording.trouble() is not None:  # an earlier line's fault
                    self.say(f"  the log cannot be ruled on even without this line: "
                             f"{recording.trouble()} (:undo takes back the last line)")
                self.say(f"  {why} (correct the line below, Ctrl-U clears it; :help)")
                default = line
                continue
            if check.new_violations:
                self.echo("  this breaks a rule:")
                for v in check.new_violations:
                    self.say(f"    {v.rule.id} ({v.rule.section}): {for_the_table(v.message)}")
                try:
                    keep = self.keep_or_correct()
                except Ended as end:
                    self.say(f"  the line was not recorded: {line}")
                    return self.stop(path, end)
                if not keep:
                    default = line
                    if check.culprit is not None:  # the rule was broken by an earlier line
                        taken = recording.back_to(check.culprit)
                        recording.save(path)
                        default = taken[0]
                        for later in [*taken[1:], line]:
                            self.moves_prompt.history.append_string(later)
                        after = ("the line after it" if len(taken) == 1 else
                                 f"the {len(taken)} lines after it")
                        self.say(f"  the line that broke it comes back: {taken[0]} ({after}: "
                                 "Up-arrow)")
                    continue
                self.echo("  kept as played")
            recording.add(line, kept=tuple(v.rule.id for v in check.new_violations))
            recording.save(path)

    def question(self, message: str, setting: bool = False, **options: Any) -> str:
        """The keeper's answer to a question (not a move line). A pasted block answers with
        its first line; its other lines wait for the next settings (``setting``) or moves,
        each checked there as a typed line is."""
        if setting and self.waiting:  # (over the default shown, as typed keys would be)
            answer = self.waiting.pop(0)
            self.echo(keep_lines(f"{message} {answer}"))
            return answer
        return self.pasted(ask(self.answers, message, **options))

    def prompt(self, recording: Any) -> str:
        """The move prompt, saying how many pasted lines wait behind the line asked for."""
        text = recording.prompt()
        if self.waiting:
            text = text.removesuffix(">").rstrip() + \
                f" [{counted(len(self.waiting), 'pasted line')} wait] >"
        return str(text)

    def pasted(self, text: str) -> str:
        """The first line of ``text`` (one typed line, or a pasted block); the block's other
        lines wait (:attr:`waiting`), to be checked one by one after it, as typed lines are."""
        lines = [x for x in text.splitlines() if x.strip()]
        if len(lines) <= 1:
            return lines[0] if lines else ""
        self.waiting[:0] = lines[1:]
        self.say(f"  a pasted block of {len(lines)} lines: each is checked as if typed")
        return lines[0]

    def at_the_end(self, recording: Any, path: str) -> None:
        """Once the game is over, ask what the table sees only then (Memoarrr!'s treasure
        cards, turned over), checked as the settings are, and write it into the header."""
        from pathcheck.games.memoarrr.rules import TREASURES
        from pathcheck.recorder.settings import AT_THE_END, check

        missing = [s for s in AT_THE_END.get(recording.format, ())
                   if s.key not in recording.settings()]
        if not missing or not recording.next().over:
            return
        for setting in missing:
            if "ordered_stack=yes" in recording.settings().get("variants", ""):
                answer = " ".join(map(str, TREASURES))  # the ordered stack: known to all
                self.say(f"  the treasures, from the ordered stack: {answer}")
            else:
                winners = recording.round_winners()
                self.say(f"  the game is over: the winners of rounds 1-{len(winners)} were "
                         f"{', '.join(winners)}; they turn their treasure cards over")
                answer = ""
                while True:
                    answer = self.question(f"{setting.question} (e.g. 2 1 4 2 1 3 2):",
                                 default=answer).strip()
                    problems = check(recording.format, {setting.key: answer},
                                     only=setting.key)
                    if not problems:
                        break
                    for problem in problems:
                        self.say(f"  {problem.text()}")
            recording.header = recording.header_with({setting.key: answer}, [setting.key])
            recording.save(path)

    def together(self, recording: Any, line: str) -> str:
        """Dungeon rule #1: when two or more players announce Lost on one turn, whether at
        the same moment or one after the other decides who scores; the line says it with
        ``!=`` / ``!>``, asked here when it does not."""
        marks: list[bool | None] = []
        for names in recording.unsaid_together(line):
            if not names:
                marks.append(None)
                continue
            while True:
                answer = self.question(f"  {' and '.join(names)} announced Lost: at the "
                                           "same moment (=) or one after the other (>)? [=]")
                word = answer.strip()
                if word in ("", "=", ">"):
                    marks.append(word != ">")
                    break
                self.say(f"  {word!r} is not an answer: = (the same moment, the default) or "
                         "> (one after the other, in the order typed)")
        return recording.say_together(line, marks) if any(m is not None for m in marks) \
            else line

    def revealed(self, recording: Any, line: str) -> str:
        """Robot memory: the card each guess of ``line`` turns face up, asked when neither
        the line (``is CARD``) nor the grid says it, and written into the line."""
        from pathcheck.recorder.cards import CARD_WORDS, card_problem, say_cards, unsaid_cards

        places = unsaid_cards(recording.text(), line, source=recording.source)
        if not any(places):
            return line
        cards: list[str | None] = []
        for place in places:
            if place is None:
                cards.append(None)
                continue
            while True:
                answer = self.question(f"  {place} is turned face up: which card? "
                                           f"({CARD_WORDS})").strip()
                problem = card_problem(answer)
                if problem is None:
                    cards.append(answer)
                    break
                self.say(f"  {answer!r} is not a card: {problem}")
        return say_cards(line, cards)

    def keep_or_correct(self) -> bool:
        """Only k, c or Enter (correct) answer; anything else is refused and asked again."""
        while True:
            answer = self.question("  keep it as played (k) or correct it (c)? [c]")
            word = answer.strip().lower()
            if word in ("k", "keep"):
                return True
            if word in ("", "c", "correct"):
                return False
            self.say(f"  {answer.strip()!r} is not an answer: type k to keep the move as "
                     "played, c or Enter to correct it")

    def stop(self, path: str, end: Ended) -> int:
        if self.recording is not None:  # the lines that wait, as they are now
            self.recording.save(path)
        if self.waiting:  # said, so that none is lost
            self.say("  not recorded (pasted after the line asked for, not checked yet; kept "
                     "at the end of the log, --resume checks them):\n"
                     + "\n".join(f"    {safe(x)}" for x in self.waiting))
        self.say(f"stopped; the log is saved: pathcheck record --resume {path}")
        return 130 if end.interrupted else 0

    def command(self, line: str, recording: Any, path: str) -> int | None:
        from pathcheck.errors import RecordError
        from pathcheck.ruling import render_text

        words = line[1:].split()
        name = words[0].lower() if words else ""
        if name in ("u", "undo"):
            taken = recording.undo()
            if taken is None:
                self.say("  no move yet: the settings (Enter keeps each one)")
                self.edit_settings(recording, path)
            else:
                recording.save(path)
                self.say(f"  undone: {taken}")
        elif name in ("settings", "set"):
            self.edit_settings(recording, path)
        elif name in ("s", "show"):
            referee = words[1:2] == ["all"]
            try:
                show(self.answers, self.echo, recording.picture(referee=referee))
            except RecordError as exc:
                self.say(f"  nothing to show yet ({exc.message})")
        elif name in ("r", "ruling"):
            try:
                show(self.answers, self.echo, render_text(recording.ruling()))
            except RecordError as exc:
                self.say(f"  no ruling yet: {exc}")
        elif name in ("d", "done", "q", "quit"):
            recording.save(path)
            try:
                ruling = recording.ruling()
            except RecordError as exc:
                self.say(f"saved {path}; it cannot be ruled on: {exc}")
                return int(ExitCode.INVALID_INPUT)
            show(self.answers, self.echo, keep_lines(render_text(ruling)))
            self.say(f"saved {path}")
            return 0
        else:
            if name not in ("h", "help", "?"):
                self.say(f"  unknown command {line.split()[0]!r}; the commands:")
            show(self.answers, self.echo, help_text(recording.format, recording.players(),
                                                      recording.settings().get("edition", "2023")))
        return None


def renames(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    """The players renamed from the settings ``before`` to ``after`` (old -> new): the same
    number of names, some of them changed, matched by their place in the list."""
    out: dict[str, str] = {}
    for key in ("players", "team1", "team2"):
        old, new = _names(before.get(key, ""), True), _names(after.get(key, ""), True)
        if old and len(old) == len(new):
            out.update((a, b) for a, b in zip(old, new, strict=True) if a != b)
    return out


def _names(players: str, raw: bool = False) -> list[str]:
    """The names of a ``players:`` answer, as typed in a move line (``raw``: as they are)."""
    from pathcheck import notation

    try:
        log = notation.parse(f"#! memo-dice/1\nplayers: {players}\n", source="settings")
    except notation.NotationError:  # names that do not read: nothing to offer
        return []
    return [str(p) if raw else notation.word(str(p)) for p in log.get("players", ())]
