"""Play a position step by step: type actions, see the trace, the state and everyone's legal actions.

Starts from a scenario file's starting position (its steps are replayed first with --replay). At a
terminal it is an interactive prompt with history (kept in ~/.local/state/riftsim/history, or
--history FILE) and Tab completion of commands, players, actions, cards, units, targets and places;
from a pipe it reads one command per line and prints no prompt.

actions (the scenario vocabulary, player first):
  A pass | A end-turn | A concede | A choose North | A invite C
  A move a1 a2 North           a standard move (144); `legal` shows one move per destination with
                               every unit that may go there: move any of them, alone or together
  A play rune-prison unit=b1   play a card; its targets as field=value
  A play unit-2 at=North       a unit and where it is played
  A activate g1 add            activate an ability
  A order a1:brace             place your next simultaneous trigger (or several), first placed first (383.3.d)
  A choose yes | A choose no   decide an optional triggered ability as it is finalized (383.3.a)
  A choose card jolt           the card to discard while a discard waits for A's choice (422)
  A play revenant from=trash   play a card from the trash where something allows it (419.1.a)
  A target unit=b1             choose a triggered ability's targets as it is finalized (383.3.a)
  A activate b1 snare unit=a1  activate an ability, with its targets
other commands:
  legal [PLAYER]   the legal actions, with the targets each card can take
  state            the position (turn state, focus, priority, chain, score)
  trace            the whole trace so far
  undo             take the last action back
  save FILE.yaml   write the session as a scenario: its position, every action, the position now
                   as an expectation (`riftsim simulate FILE.yaml` replays and checks it)
  help [COMMAND]   this text, or one command's
  quit             leave (end of input and Ctrl-D do too)

examples:
  riftsim play scenarios/seed000-showdown-on-an-empty-battlefield.yaml
  riftsim play scenarios/seed002-showdown-becomes-a-combat.yaml --replay --lang fr
  printf 'A move a1 North\\nA pass\\nB pass\\nsave done.yaml\\n' | riftsim play scenarios/seed000-showdown-on-an-empty-battlefield.yaml
"""
from __future__ import annotations

import argparse
import cmd
import os
import sys
from pathlib import Path
from typing import Any

import yaml

from simulator.cli.atomic import write_atomic
from simulator.core.errors import IllegalAction, Loop, RulesBug
from simulator.core.text import shown
from simulator.game import loops
from simulator.core.i18n import gettext_for, languages, value_word
from simulator.core.model import Event, State
from simulator.game.action_kinds import KINDS, LISTS, Action, ParseError, read, step_of, words_of
from simulator.game.actions import legal
from simulator.game.decision import decision
from simulator.scenario.view import view

COMMANDS = ("legal", "state", "trace", "undo", "save", "help", "quit")


def parse_action(text: str, g: State | None = None) -> Action:
    """``"A play rune-prison unit=b1"`` -> Action: the text form of :func:`simulator.game.action_kinds.read`
    (the one parser, the tests' too), a play's targets in its card's order when the game ``g`` is given.

    >>> parse_action("A move a1 a2 North").describe()
    'A move a1 a2 North'
    >>> parse_action("A order a1:brace a2:guard").triggers
    ('a1:brace', 'a2:guard')
    """
    return read(text, g.cfg.cards if g is not None else None)


def _word(v, lang: str = "en") -> str:
    """A value as the user writes it: no Python reprs."""
    _ = gettext_for(lang)
    if v is None:
        return _("nobody")
    if isinstance(v, (list, tuple)):
        return " ".join(map(str, v)) if v else _("empty")
    return str(v)


def status(g: State, lang: str = "en") -> str:
    """One line: ``[showdown-open | turn A | focus A | priority A | chain empty | showdown at North | score A:0 B:0]``,
    its words in ``lang`` (the values are the ones the user types)."""
    _ = gettext_for(lang)
    v = view(g, with_legal=False)
    act = v["active"]
    where = " | " + _("{kind} at {bf}").format(kind=value_word(act["kind"], lang), bf=act["at"]) if act else ""
    if act and act["kind"] == "combat":
        where += " " + _("({attacker} attacks {defender})").format(attacker=act["attacker"], defender=act["defender"])
    staged = "".join(" | " + _("staged {kinds} at {bf}").format(kinds="+".join(value_word(x, lang) for x in k), bf=b)
                     for b, k in v["staged"].items())
    score = " ".join(f"{p}:{n}" for p, n in v["score"].items())
    win = " | " + _("winner {player}").format(player=_word(v["winner"], lang)) if v["winner"] else ""
    d = decision(g)
    kind = d.kind if d is not None else None
    order = (" | " + _("{player} orders {items} (383.3.d)").format(player=d.player, items=" ".join(d.options))
             if d is not None and kind == "order" else "")
    if d is not None and kind == "assign":
        order += " | " + _("{player} assigns combat damage: {player} assign UNIT=N ... (465.2.c)").format(player=d.player)
    choose = (" | " + _("{player} chooses among {options}").format(player=d.player, options=" ".join(d.options))
              if d is not None and kind == "battlefield" else "")
    return "[" + _("{state} | turn {turn} | focus {focus} | priority {priority} | chain {chain}").format(
        state=v["state"], turn=v["turn"], focus=_word(v["focus"], lang), priority=_word(v["priority"], lang),
        chain=_word(v["chain"], lang)) + f"{order}{choose}{where}{staged} | " + _("score {score}").format(score=score) \
        + f"{win}]"


def legal_lines(g: State, only: str | None = None) -> list[str]:
    """Each player's legal actions; a card with targets lists the choices it can take (356)."""
    out = []
    for p in view(g, with_legal=False)["players"]:
        if only and p != only:
            continue
        entries: dict[str, list[str]] = {}
        for a in legal(g, p):
            options = entries.setdefault(a.summary(), [])
            choice = " ".join([f"{f}={x}" for f, x in a.targets] + ([f"at={a.at}"] if a.at else []))
            if choice:
                options.append(choice)
        parts = [s + (f" [{' | '.join(o)}]" if o else "") for s, o in sorted(entries.items())]
        out.append(f"  {p}: {', '.join(parts) if parts else 'nothing (no priority, focus or choice)'}")
    return out


#: what a saved session expects at its end (the position the user saw)
SAVED_KEYS = ("state", "turn", "focus", "priority", "chain", "active", "staged", "contested", "controller",
              "score", "players", "winner")


class Session(cmd.Cmd):
    """The interactive loop: one game, its history for undo, and the actions for save."""

    intro = ""
    doc_header = "commands (type help COMMAND); an action is PLAYER ACTION ..., e.g. A pass"

    def __init__(self, sc, game, *, lang: str = "en", stdin=None, stdout=None, tty: bool = False) -> None:
        super().__init__(stdin=stdin, stdout=stdout)
        self.sc, self.game, self.lang = sc, game, lang
        self._ = gettext_for(lang)
        self.history: list[tuple[State, Action]] = []
        self.watch = loops.Watch()                  # a loop no player decision can end (R22)
        self.actions: list[Action] = []
        self.number = 0
        self.source: str | None = None              # the scenario's text, when it is not read from sc.file
        self.use_rawinput = tty
        self.prompt = "riftsim> " if tty else ""

    # -- output -------------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def show(self, events: list[Event]) -> None:
        from simulator.scenario.loader import trace_line
        for e in events:
            self.say(shown(trace_line(e, self.lang)))

    # -- the loop -------------------------------------------------------------------------------------
    def emptyline(self) -> bool:
        return False

    def precmd(self, line: str) -> str:
        return "" if line.strip().startswith("#") else line

    def default(self, line: str) -> bool:  # type: ignore[override]  # True ends the loop (cmd.Cmd.onecmd)
        if line == "EOF":
            return True
        try:
            action = parse_action(line, self.game.state)
        except ParseError as e:
            self.say(shown(f"? {e}"))
            return False
        self.act(action)
        return False

    def act(self, action: Action) -> bool:
        """Carry out ``action``: its trace lines and the status, or why it is refused (the state unchanged)."""
        g = self.game
        before, prev = len(g.state.trace), g.state
        self.watch.before(g.state, self.number)
        try:
            g.apply(action, self.number + 1)
        except IllegalAction as e:
            self.say(shown(self._("illegal: {reason} [{rule}]").format(reason=e.reason, rule=e.rule)))
            return False
        except Loop as e:
            self.say(shown(self._("riftsim: a loop no player decision can end: {error}").format(error=e)))
            return False
        except RulesBug as e:
            self.say(shown(self._("riftsim: a gap in the rules model (please report it): {error}").format(error=e)))
            return False
        self.history.append((prev, action))
        self.actions.append(action)
        self.number += 1
        self.show(g.state.trace[before:])
        self.say(shown(status(g.state, self.lang)))
        looped = self.watch.after(g.state, self.number, action.describe())
        if looped:
            self.say(shown(f"riftsim: {looped}"))
        return True

    def do_legal(self, arg: str) -> bool:
        """legal [PLAYER]: the legal actions, with the targets each card can take"""
        self.say("\n".join(shown(line) for line in legal_lines(self.game.state, arg.strip() or None)))
        return False

    def do_state(self, arg: str) -> bool:
        """state: the position (turn state, focus, priority, chain, score)"""
        self.say(shown(status(self.game.state, self.lang)))
        return False

    def do_trace(self, arg: str) -> bool:
        """trace: the whole trace so far"""
        self.show(self.game.state.trace)
        return False

    def do_undo(self, arg: str) -> bool:
        """undo: take the last action back"""
        if not self.history:
            self.say(self._("nothing to undo"))
            return False
        self.game.state, _ = self.history.pop()
        self.actions.pop()
        self.number -= 1
        self.watch = loops.Watch()
        self.say(shown(self._("undone.") + " " + status(self.game.state, self.lang)))
        return False

    def do_save(self, arg: str) -> bool:
        """save FILE.yaml: write the session as a scenario that `riftsim simulate` replays and checks"""
        target = arg.strip()
        if not target:
            self.say("? " + self._("save needs a file name: save session.yaml"))
            return False
        try:
            path = write_atomic(target, self.scenario_text().encode("utf-8"))
        except OSError as e:
            self.say(shown(self._("cannot write {file}: {why}").format(file=target, why=e.strerror or e)))
            return False
        self.say(shown(self._("saved {n} action(s) to {file} (replay: riftsim simulate {file})").format(n=len(self.actions), file=path)))
        return False

    def do_help(self, arg: str) -> bool:
        """help [COMMAND]: the commands and the action vocabulary"""
        if arg.strip():
            return bool(super().do_help(arg))
        self.say(__doc__.split("examples:")[0].rstrip())
        return False

    def do_quit(self, arg: str) -> bool:
        """quit: leave (end of input does too)"""
        return True

    do_exit = do_quit

    def do_EOF(self, arg: str) -> bool:
        if self.use_rawinput:
            self.say()
        return True

    # -- save ------------------------------------------------------------------------------------
    def scenario_text(self) -> str:
        """The session as a scenario file: the source file's position, this session's actions, the end."""
        from simulator.scenario.loader import read_text
        doc = yaml.safe_load(read_text(self.sc.file) if self.source is None else self.source) or {}
        out = {k: v for k, v in doc.items() if k not in ("steps", "pending")}
        out["name"] = f"{doc.get('name', 'session')} (riftsim play session)"
        seen = view(self.game.state, with_legal=False)
        out["steps"] = [step_of(a) for a in self.actions] + [{"expect": {k: seen[k] for k in SAVED_KEYS}}]
        head = (f"# Saved by `riftsim play` from {self.sc.file}: every action of the session, then the position\n"
                f"# it ended in as an expectation. Replay it: riftsim simulate FILE\n")
        return head + yaml.safe_dump(out, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)

    # -- completion ------------------------------------------------------------------------------
    def players(self) -> list[str]:
        return list(self.game.state.cfg.order)

    def completenames(self, text: str, *ignored) -> list[str]:
        return [w + " " for w in (*COMMANDS, *self.players()) if w.startswith(text)]

    def complete_legal(self, text, line, begidx, endidx):
        return [p + " " for p in self.players() if p.startswith(text)]

    def completedefault(self, text: str, line: str, begidx: int, endidx: int) -> list[str]:
        words = line[:begidx].split()
        return [w for w in self.candidates(words, text) if w.startswith(text)]

    def candidates(self, words: list[str], text: str) -> list[str]:
        """What may come next after ``words`` (``PLAYER [ACTION ...]``), from the legal actions: the next word
        of the kind's text form (:data:`simulator.game.action_kinds.KINDS`: its ``words``), then its
        ``field=value`` parameters."""
        g = self.game.state
        if not words or words[0] not in self.players():
            return []
        p = words[0]
        acts = legal(g, p)
        if len(words) == 1:
            return [k + " " for k in dict.fromkeys(a.kind for a in acts)] or [k + " " for k in KINDS]
        return _after_kind(g, p, acts, words[1], words[2:], text)


def _after_kind(g: State, p: str, acts: list[Action], kind: str, rest: list[str], text: str) -> list[str]:
    """What may come after ``PLAYER KIND REST...``: the kind's next word, or its ``field=value`` parameters."""
    row = KINDS.get(kind)
    if row is None:
        return []
    mine = [a for a in acts if a.kind == kind]
    plain = [w for w in rest if "=" not in w]
    if "=" in text or not row.words or (len(plain) >= len(row.words) and row.words[0] not in LISTS):
        return _named_next(mine, plain, rest, text)
    if kind == "play" and not plain and not mine:
        return [c + " " for c in dict.fromkeys(g.hands.get(p, []))]
    return [f"{w} " for w in dict.fromkeys(_next_words(mine, row.words, plain))]


def _next_words(mine: list[Action], names: tuple[str, ...], plain: list[str]) -> list[str]:
    """The next positional word of the actions ``mine`` after ``plain``: a list's next item (and, once one is
    given, what follows the list), or the next word of the actions whose first words are ``plain``."""
    if names and names[0] in LISTS:
        items = [x for a in mine for x in getattr(a, names[0]) if x not in plain]
        after = [str(getattr(a, names[1])) for a in mine if set(plain) <= set(getattr(a, names[0]))] \
            if plain and len(names) > 1 else []
        return [*items, *after]
    if len(plain) >= len(names):
        return []
    return [words_of(a)[len(plain)] for a in mine if words_of(a)[:len(plain)] == plain]


def _named_next(mine: list[Action], plain: list[str], rest: list[str], text: str) -> list[str]:
    """``field=`` and ``field=value`` completions: the targets (and a unit's ``at``) of the actions named so far."""
    given = dict(w.split("=", 1) for w in rest if "=" in w)
    options = [a for a in mine if words_of(a)[:len(plain)] == plain and all(
        dict(a.targets).get(f, a.at if f == "at" else None) == x for f, x in given.items())]
    if "=" in text:
        field = text.split("=", 1)[0]
        values = dict.fromkeys(dict(a.targets).get(field) if field != "at" else a.at for a in options)
        return [f"{field}={x} " for x in values if x is not None]
    fields = dict.fromkeys(f for a in options for f, _ in a.targets)
    if any(a.at for a in options if "at" not in KINDS[a.kind].words):
        fields["at"] = None
    return [f"{f}=" for f in fields if f not in given]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a scenario file: its starting position (and, with --replay, its steps)")
    p.add_argument("--replay", action="store_true", help="replay the scenario's actions first")
    from simulator.cli.simulate import _ruling
    p.add_argument("--ruling", action="append", type=_ruling, default=[], metavar="ID=VALUE",
                   help="switch a ruling, e.g. R1=attacker")
    p.add_argument("--backend", choices=("compiled", "transitions"), default="compiled")
    p.add_argument("--lang", choices=languages(), default="en", help="narrate the trace in this language")
    p.add_argument("--history", metavar="FILE",
                   help="the prompt's history file (default: ~/.local/state/riftsim/history; only at a terminal)")


def _history_file(given: str | None) -> Path:
    if given:
        return Path(given)
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "riftsim" / "history"


def run(args) -> int:
    from simulator.scenario.loader import load

    sc = load(args.file)
    game = sc.game(backend=args.backend, rulings=dict(args.ruling))
    tty = sys.stdin.isatty() and sys.stdout.isatty()
    session = Session(sc, game, lang=args.lang, tty=tty)
    if args.replay:
        for st in sc.steps:
            if st.action and not st.illegal:
                try:
                    game.apply(st.action, st.number)
                except IllegalAction as e:
                    print(shown(f"riftsim play: {sc.file}:{st.line}: step {st.number}: {st.describe()} is illegal: "
                                f"{e.reason} [{e.rule}]"), file=sys.stderr)
                    return 1
                session.actions.append(st.action)
                session.number = st.number
        # replayed steps are the position: saved, never undone
    _ = gettext_for(args.lang)
    session.say(shown(_("{name}: type help for commands, Tab to complete").format(name=sc.name) if tty else
                      _("{name}: type 'help' for commands").format(name=sc.name)))
    session.show(game.state.trace)
    session.say(shown(status(game.state, args.lang)))
    readline: Any = None
    if tty:
        try:
            import readline                          # noqa: F811 - line editing, history, completion
        except ImportError:                          # pragma: no cover - e.g. Windows without pyreadline
            readline = None
    hist = _history_file(args.history)
    if readline is not None:
        readline.set_completer_delims(" \t\n")       # card ids hold '-', targets '=', trigger labels ':'
        try:
            readline.read_history_file(hist)
        except OSError:
            pass
    try:
        session.cmdloop()
    except KeyboardInterrupt:
        session.say()
    finally:
        if readline is not None:
            try:
                hist.parent.mkdir(parents=True, exist_ok=True)
                readline.set_history_length(1000)
                readline.write_history_file(hist)
            except OSError:
                pass
    return 0
