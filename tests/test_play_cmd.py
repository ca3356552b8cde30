"""`riftsim play`: a judge types actions and reads the trace, the state and the legal actions."""
import io
import sys
import textwrap

import pytest

from simulator.game.actions import Action
from simulator.cli.main import main
from simulator.cli.play import ParseError, parse_action

POSITION = textwrap.dedent("""\
    name: play probe
    mode: duel
    players: [A, B]
    battlefields: [North, South]
    units:
      - {id: a1, owner: A, at: base, might: 2}
    hands:
      A: [rune-prison]
    steps: []
""")


def play(tmp_path, monkeypatch, capsys, commands: str) -> list[str]:
    f = tmp_path / "p.yaml"
    f.write_text(POSITION)
    monkeypatch.setattr(sys, "stdin", io.StringIO(commands))
    assert main(["play", str(f)]) == 0
    return capsys.readouterr().out.splitlines()


def test_parse_action_covers_the_scenario_vocabulary():
    assert parse_action("A play rune-prison unit=b1") == Action("play", "A", card="rune-prison", targets=(("unit", "b1"),))
    assert parse_action("A play unit-2 at=North") == Action("play", "A", card="unit-2", at="North")
    assert parse_action("B activate g1 add") == Action("activate", "B", source="g1", ability="add")
    assert parse_action("A choose North") == Action("choose", "A", battlefield="North")
    with pytest.raises(ParseError):
        parse_action("A pass now")


def test_showdown_on_empty_battlefield_seed_000_step_by_step(tmp_path, monkeypatch, capsys):
    """Seed 000 / 345: moving in opens a showdown; A gets focus; two passes and A conquers (348.2.a)."""
    out = play(tmp_path, monkeypatch, capsys, "A move a1 North\nlegal\nA pass\nB pass\n")
    assert "[showdown-open | turn A | focus A | priority A | chain [] | showdown at North | score A:0 B:0]" in out
    assert "  A: concede, pass, play rune-prison" in out and "  B: concede" in out
    assert out[-1] == "[neutral-open | turn A | focus None | priority A | chain [] | score A:1 B:0]"


def test_an_illegal_action_is_refused_with_its_rule_and_changes_nothing(tmp_path, monkeypatch, capsys):
    """144: no standard move during a showdown."""
    out = play(tmp_path, monkeypatch, capsys, "A move a1 North\nA move a1 base\nstate\n")
    assert "illegal: no standard move during a showdown or combat [144]" in out
    assert out[-1].startswith("[showdown-open | turn A | focus A | priority A")


def test_undo_restores_the_previous_position(tmp_path, monkeypatch, capsys):
    out = play(tmp_path, monkeypatch, capsys, "A move a1 North\nundo\n")
    assert out[-1] == "undone. [neutral-open | turn A | focus None | priority A | chain [] | score A:0 B:0]"
