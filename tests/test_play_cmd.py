"""`riftsim play`: a judge types actions and reads the trace, the state and the legal actions.

Tested as a user meets it: a subprocess fed on stdin (a pipe: no prompt), and a pseudo-terminal for the
prompt, Tab completion and history (readline).
"""
import os
import pty
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from simulator.game.actions import Action
from simulator.cli.play import ParseError, parse_action

ROOT = Path(__file__).resolve().parents[1]
POSITION = textwrap.dedent("""\
    name: play probe
    mode: duel
    players: [A, B]
    battlefields: [North, South]
    units:
      - {id: a1, owner: A, at: base, might: 2}
      - {id: b1, owner: B, at: South, might: 1}
    hands:
      A: [rune-prison, move-spell]
    steps: []
""")


def riftsim_cmd() -> list[str]:
    return [sys.executable, "-m", "simulator.cli.main"]


@pytest.fixture
def position(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text(POSITION)
    return f


def play(position, commands: str, *extra) -> list[str]:
    done = subprocess.run([*riftsim_cmd(), "play", str(position), *extra], input=commands, capture_output=True,
                          text=True, timeout=120, cwd=position.parent)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout.splitlines()


def test_parse_action_covers_the_scenario_vocabulary():
    assert parse_action("A play rune-prison unit=b1") == Action("play", "A", card="rune-prison", targets=(("unit", "b1"),))
    assert parse_action("A play unit-2 at=North") == Action("play", "A", card="unit-2", at="North")
    assert parse_action("B activate g1 add") == Action("activate", "B", source="g1", ability="add")
    assert parse_action("A choose North") == Action("choose", "A", battlefield="North")
    with pytest.raises(ParseError):
        parse_action("A pass now")


def test_showdown_on_empty_battlefield_seed_000_step_by_step(position):
    """Seed 000 / 345: moving in opens a showdown; A gets focus; two passes and A conquers (348.2.a)."""
    out = play(position, "A move a1 North\nlegal\nA pass\nB pass\n")
    assert "[showdown-open | turn A | focus A | priority A | chain empty | showdown at North | score A:0 B:0]" in out
    a_line, = [x for x in out if x.startswith("  A: ")]
    assert a_line.startswith("  A: concede, pass, play move-spell [") and "  B: concede" in out
    assert a_line.endswith(", play rune-prison [unit=a1 | unit=b1]")
    assert out[-1] == "[neutral-open | turn A | focus nobody | priority A | chain empty | score A:1 B:0]"
    assert not any(x in line for line in out for x in ("None", "[]", "('", "Action("))   # no Python reprs


def test_legal_shows_the_targets_each_card_needs(position):
    out = play(position, "legal A\n")
    line, = [x for x in out if x.startswith("  A: ")]
    # move-spell moves any unit, to a place it is not at (356)
    assert "play move-spell [unit=a1 to=North | unit=a1 to=South | unit=b1 to=base | unit=b1 to=North]" in line
    assert "play rune-prison [unit=a1 | unit=b1]" in line
    assert "move a1 North" in line and not any(x.startswith("  B: ") for x in out)


def test_an_illegal_action_is_refused_with_its_rule_and_changes_nothing(position):
    """144: no standard move during a showdown."""
    out = play(position, "A move a1 North\nA move a1 base\nstate\n")
    assert "illegal: no standard move during a showdown or combat [144]" in out
    assert out[-1].startswith("[showdown-open | turn A | focus A | priority A")


def test_a_typo_is_a_one_line_message(position):
    out = play(position, "A jump\nfoo\nstate\n")
    assert any(x.startswith("? unknown action 'jump': one of move, play, activate, pass, choose,") for x in out)
    assert "? expected 'PLAYER ACTION ...', got 'foo' (type help)" in out


def test_undo_restores_the_previous_position(position):
    out = play(position, "A move a1 North\nundo\nundo\n")
    assert out[-2] == "undone. [neutral-open | turn A | focus nobody | priority A | chain empty | score A:0 B:0]"
    assert out[-1] == "nothing to undo"


def test_save_writes_a_scenario_that_simulate_replays(position):
    """The session becomes a scenario: its position, the actions, and the final position as an expectation."""
    out = play(position, "A move a1 North\nA pass\nB pass\nA play move-spell unit=a1 to=base\nundo\nsave s.yaml\n")
    assert "saved 3 action(s) to s.yaml (replay: riftsim simulate s.yaml)" in out
    done = subprocess.run([*riftsim_cmd(), "simulate", "s.yaml"], capture_output=True, text=True, cwd=position.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "-- PASS: 4 steps, 1 expectations held" in done.stdout
    assert "3  A conquers North and scores 1 (now 1)  [469.1, 470]" in done.stdout
    assert not list(position.parent.glob(".s.yaml.*"))                    # written atomically: no leftovers
    play(position, "save /nonexistent-dir/s.yaml\n")                      # a one-line message, exit 0, no traceback


def test_play_lang_fr(position):
    """The trace, the status line (focus, priority, chain: 313, 334) and play's own messages in French."""
    out = play(position, "A move a1 North\nundo\nundo\n", "--lang", "fr")
    assert "1  A déplace a1 vers North  [144]" in out
    assert ("[showdown-open | tour A | focalisation A | priorité A | chaîne vide | confrontation à North | "
            "score A:0 B:0]") in out
    assert "annulé. [neutral-open | tour A | focalisation personne | priorité A | chaîne vide | score A:0 B:0]" in out
    assert out[-1] == "rien à annuler"


def test_replay_starts_from_the_scenario_end():
    out = play(ROOT / "scenarios" / "seed000-showdown-on-an-empty-battlefield.yaml", "state\nundo\n", "--replay")
    assert out[-2] == out[-3] and out[-1] == "nothing to undo"


# -- at a terminal: prompt, completion, history --------------------------------------------------------

class Terminal:
    """riftsim play in a pseudo-terminal; read() collects its output until it goes quiet."""

    def __init__(self, position, tmp_path):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:                                       # the child: riftsim play at a terminal
            os.environ.update(TERM="dumb", HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"),
                              INPUTRC="/dev/null")
            os.chdir(position.parent)
            os.execv(sys.executable, [*riftsim_cmd(), "play", str(position)])
        self.buf = b""

    def read(self, until: bytes, timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while until not in self.buf and time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], 0.2)
            if r:
                try:
                    self.buf += os.read(self.fd, 4096)
                except OSError:
                    break
        assert until in self.buf, f"never saw {until!r} in {self.buf.decode(errors='replace')!r}"
        out, self.buf = self.buf.decode(errors="replace"), b""
        return out

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def close(self) -> int:
        self.send("\x15\x04")                                   # Ctrl-U, then Ctrl-D at the empty prompt
        end = time.monotonic() + 30
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            select.select([self.fd], [], [], 0.2) and self._drain()
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return -9

    def _drain(self) -> None:
        try:
            os.read(self.fd, 4096)
        except OSError:
            pass


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")
def test_the_prompt_completes_actions_cards_units_and_targets_and_keeps_history(position, tmp_path):
    t = Terminal(position, tmp_path)
    try:
        assert "Tab to complete" in t.read(b"riftsim> ")
        t.send("A pl\t")                                        # action
        assert t.read(b"play ").endswith("play ")
        t.send("ru\t")                                          # card in A's hand
        assert "rune-prison " in t.read(b"rune-prison ")
        t.send("u\t")                                           # its target field
        assert "unit=" in t.read(b"unit=")
        t.send("b\t")                                           # a unit it can target
        assert t.read(b"b1 ").endswith("b1 ")
        t.send("\n")
        out = t.read(b"riftsim> ")
        assert "A plays rune-prison (unit: b1)  [353]" in out and "[neutral-closed | turn A" in out
        t.send("A pass\n")
        t.read(b"riftsim> ")
        t.send("\x1b[A\x1b[A")                                  # history: the line before the last
        assert "rune-prison unit=b1" in t.read(b"unit=b1")        # (readline redraws only what changed)
        t.send("\x15st\t")                                      # Ctrl-U, then a command name
        assert "state " in t.read(b"state ")
        t.send("\n")
        assert "[neutral-closed | turn A | focus nobody | priority B" in t.read(b"riftsim> ")
    finally:
        assert t.close() == 0
    assert "A play rune-prison unit=b1" in (tmp_path / "state" / "riftsim" / "history").read_text()


def test_play_from_the_trash_and_a_discard_choice(tmp_path):
    """Z3, Z4: `A play CARD from=trash` (419.1.a) and `A choose card CARD` while a discard waits (422)."""
    assert parse_action("A play revenant from=trash") == Action("play", "A", card="revenant", origin="trash")
    assert parse_action("A choose card jolt") == Action("choose", "A", card="jolt")
    f = tmp_path / "z.yaml"
    f.write_text(textwrap.dedent("""\
        name: zones probe
        players: [A, B]
        battlefields: [North]
        hands: {A: [purge, unit-1, unit-2]}
        trash: {A: [revenant]}
        cards:
          purge: {type: spell, effect: [{discard: {count: 1}}]}
          revenant: {type: unit, might: 3, play-from-trash: {}}
        steps: []
    """))
    out = play(f, "A play revenant from=trash\nA play purge\nA pass\nB pass\nlegal A\nA choose card unit-2\n")
    assert "1  A plays revenant from the trash  [353, 419.1.a]" in out
    assert "  A: choose card unit-1, choose card unit-2, concede" in out
    assert "5  A discards unit-2  [422]" in out
