"""Issue 37, items 2 and 4 (escaping): bounded searches, loops no decision can end, and output that says only what is so.

Each test reproduces a case of the issue as a user meets it (a small position or scenario, the command line) and
checks what a rules judge or a user would: the loop reported with its path and ruling R22, the bound that ended a
search named with its exit status, the refusals in one line, and forged or hidden text shown visibly. Each is quick:
the bounds cut what used to run for hours.
"""
from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.core.errors import Loop
from simulator.core.text import shown
from simulator.game import engine, loops
from simulator.game.setup import build
from simulator.scenario import loader
from simulator.verify import command

#: a death loop: phoenix's play trigger kills it, its death trigger plays a copy of it, which enters and so on
DEATH_POSITION = """\
    players: [A, B]
    battlefields: [North]
    cards:
      phoenix: {type: unit, might: 1, abilities: [
        {name: burn, trigger: on-play, effect: [{damage: {unit: self, amount: 1}}]},
        {name: rise, trigger: on-death, effect: [{play: {card: phoenix}}]}]}
    hands: {A: [phoenix]}
"""
DEATH_LOOP = """\
positions:
  - name: death-loop
    explore: {turns: 1}
""" + DEATH_POSITION

#: an on-play that plays a copy of itself: the board grows by one unit a round, no position ever repeats
ECHO = """\
positions:
  - name: echo
    explore: {turns: 1}
    players: [A, B]
    battlefields: [North]
    cards:
      echo: {type: unit, might: 1, abilities: [{name: again, trigger: on-play, effect: [{play: {card: echo}}]}]}
    hands: {A: [echo]}
"""


def _file(tmp_path, text: str, name: str = "p.yaml") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def _verify(capsys, *argv) -> tuple[int, str, str]:
    rc = main(["verify", "--no-graph", "--jobs", "1", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


# -- loops ------------------------------------------------------------------------------------------------

def test_a_death_loop_is_reported_as_a_loop_with_its_path_and_ruling(tmp_path, capsys):
    """R22: phoenix dies and comes back as phoenix#2, #3...: the same position up to the numbering of new objects,
    with only passes between. verify says LOOP, names R22, gives the trace to it and one round, and writes it as a
    scenario (before: one state deeper per level, no word of a loop, until the state bound)."""
    rc, out, _err = _verify(capsys, "--positions", _file(tmp_path, DEATH_LOOP), "--out", str(tmp_path / "out"))
    assert rc == 1
    line = next(ln for ln in out.splitlines() if ln.startswith("LOOP"))
    assert "[R22] in death-loop" in line and "the game is a draw" in line
    assert "the forced actions A pass; B pass; A pass; B pass come back to the same position" in line
    assert "    1. A play phoenix at base" in out
    written = sorted((tmp_path / "out").glob("*.yaml"))
    assert len(written) == 1 and "a-loop-no-player-decision-can-end" in written[0].name


def test_the_loop_identity_forgets_the_numbering_of_new_objects():
    """A trashed phoenix#1 and a phoenix#2 on the board is the position of phoenix#1 on the board: one identity, two
    keys; with no new object gone, the identity is the key (the default searches are unchanged)."""
    def game(units):
        g = build({"players": ["A", "B"], "battlefields": ["North"], "units": units})
        g.counters = {"phoenix": sum(1 for u in units if u["id"].startswith("phoenix"))}
        return g
    one = game([{"id": "phoenix#1", "owner": "A", "at": "base", "might": 1}])
    two = game([{"id": "phoenix#1", "owner": "A", "at": "base", "might": 1},
                {"id": "phoenix#2", "owner": "A", "at": "base", "might": 1}])
    two.edit(two.units["phoenix#1"]).zone = "trash"
    assert one.key() != two.key() and loops.identity(one) == loops.identity(two)
    assert loops.identity(one) == one.key() and loops.renamed(two) and not loops.renamed(one)


def test_a_loop_of_the_schedule_alone_stops_with_its_round(monkeypatch):
    """A forced loop inside settle (no player decision) comes back to a position: Loop, citing R22, with one round
    of the trace, after a few steps past LOOP_FROM (before: 10,000 steps, then "did not settle", no path)."""
    g = build({"players": ["A", "B"], "battlefields": ["North"], "units": [{"id": "a1", "owner": "A", "might": 1}]})

    def flip(g):
        g.edit(g.units["a1"]).exhausted = not g.units["a1"].exhausted
        g.trace.append(type("E", (), {"event": "a1 flips"})())
        return True
    monkeypatch.setattr(engine, "schedule", lambda: flip)
    with pytest.raises(Loop) as e:
        engine.settle(g)
    assert e.value.rule == "R22" and e.value.path == ("a1 flips", "a1 flips")
    assert f"schedule step {engine.LOOP_FROM} repeats at step {engine.LOOP_FROM + 2}" in str(e.value)


def test_simulate_reports_a_schedule_loop_as_the_steps_failure(monkeypatch):
    """The same loop met by a scenario's step: the step fails with one message naming the loop and R22."""
    sc = loader.loads("name: t\nplayers: [A, B]\nbattlefields: [North]\nunits: [{id: a1, owner: A, might: 1}]\n"
                      "steps:\n  - {do: end-turn, player: A}\n", "t.yaml")

    def flip(g):
        g.edit(g.units["a1"]).exhausted = not g.units["a1"].exhausted
        return True
    monkeypatch.setattr(engine, "schedule", lambda: flip)
    res = loader.run(sc)
    assert res.status == "fail"
    assert res.message.startswith("t.yaml:6: step 1: A end-turn starts a loop no player decision can end: the position")
    assert "the game is a draw [R22]" in res.message


#: the death loop's position (the positions file's, one level up) as a scenario
DEATH_STEPS = "name: a death loop\n" + textwrap.dedent(DEATH_POSITION) + "steps:\n"


def test_simulate_reports_a_loop_of_forced_passes_with_its_round(tmp_path, capsys):
    """R22 in a scenario: the passes that kill phoenix#1 and play phoenix#2 bring back the position after step 3;
    the step that closes the loop fails with one line naming both steps, the round and the ruling."""
    steps = "  - {do: play, player: A, card: phoenix}\n" + "".join(
        f"  - {{do: pass, player: {p}}}\n" for _ in range(5) for p in "AB")
    rc = main(["simulate", _file(tmp_path, DEATH_STEPS + steps, "s.yaml")])
    out = capsys.readouterr().out
    assert rc == 1
    assert ("-- FAIL: " + str(tmp_path / "s.yaml") + ":16: step 7: B pass brings back the position after step 3 (up to "
            "the numbering of new objects) with only forced actions between (A pass; B pass; A pass; B pass): a loop no "
            "player decision can end, the game is a draw [R22]") in out


def test_play_says_when_the_players_close_a_loop(tmp_path, capsys, monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("A play phoenix\n" + "A pass\nB pass\n" * 3 + "quit\n"))
    assert main(["play", _file(tmp_path, DEATH_STEPS + "  - expect: {turn: A}\n", "s.yaml")]) == 0
    out = capsys.readouterr().out
    assert "riftsim: B pass brings back the position after step 3" in out and "[R22]" in out


# -- bounds -----------------------------------------------------------------------------------------------

def test_a_growing_loop_ends_at_the_default_depth_bound_and_says_so(tmp_path, capsys):
    """An on-play playing a copy of itself never repeats a position: the default depth bound (200) ends it, the
    line says which bound, and the exit status is 4 (before: unbounded in depth, hours to the state bound)."""
    rc, out, _err = _verify(capsys, "--positions", _file(tmp_path, ECHO))
    assert f"STOPPED by the depth bound (depth {command.DEPTH}; --depth)" in out
    assert "1 of 1 searches ended by a bound, not exhaustive" in out
    assert "FINDING never exercised" not in out and rc == command.BOUNDED == 4


CHOSEN = """\
positions:
  - name: chosen
    explore: {turns: 1}
    players: [A, B]
    battlefields: [North]
    cards:
      bless: {type: spell, timing: action, effect: [{ready: {unit: target}}]}
    units: [{id: a1, owner: A, at: base, might: 1, abilities: [
      {name: echo, trigger: on-chosen, effect: [{ready: {unit: target}}]}]}]
    hands: {A: [bless]}
"""


def test_an_on_chosen_trigger_choosing_its_own_unit_ends_at_the_depth_bound(tmp_path, capsys):
    """383.4.b.2: echo targets a1, which is chosen, which triggers echo again: the chain grows by one item a
    round (no position repeats, no loop to report), and the depth bound ends the search, named."""
    rc, out, _err = _verify(capsys, "--positions", _file(tmp_path, CHOSEN), "--depth", "40")
    assert "chosen: 122 states, 121 transitions, depth 40" in out
    assert "STOPPED by the depth bound (depth 40; --depth)" in out and "LOOP" not in out and rc == 4


def test_the_time_bound_ends_a_search_between_two_levels(tmp_path, capsys):
    rc, out, _err = _verify(capsys, "--positions", _file(tmp_path, ECHO), "--max-time", "0")
    assert "echo: 3 states" in out and "STOPPED by the time bound (0 s of wall time; --max-time)" in out and rc == 4


def test_the_state_bound_is_named_too(tmp_path, capsys):
    rc, out, _err = _verify(capsys, "--positions", _file(tmp_path, ECHO), "--max-states", "5")
    assert "STOPPED by the state bound (5 states; --max-states)" in out and rc == 4


@pytest.mark.parametrize("text, why", [("nan", "not a finite duration: 'nan'"), ("inf", "not a finite duration: 'inf'"),
                                       ("-1", "a negative duration: '-1'")])
def test_stop_after_and_max_time_refuse_what_is_no_duration(tmp_path, capsys, text, why):
    for flag in ("--stop-after", "--max-time"):
        with pytest.raises(SystemExit) as e:
            main(["verify", flag, text, "--checkpoint", str(tmp_path / "c")])
        err = capsys.readouterr().err.strip().splitlines()
        assert e.value.code == 2 and err[-1] == f"riftsim verify: error: argument {flag}: {why} (seconds, or 90m, 2h)" \
            if "finite" in why else err[-1] == f"riftsim verify: error: argument {flag}: {why}"


def test_jobs_is_capped_to_the_cores(tmp_path, capsys, monkeypatch):
    """--jobs 300 on a 52-state position: at most one worker per core is started (before: 300 forked shards)."""
    from simulator.verify import cluster
    started = []
    real = cluster.Processes

    def counting(n, make):
        started.append(n)
        return real(n, make)
    monkeypatch.setattr(cluster, "Processes", counting)
    rc, out, err = _verify(capsys, "--positions", _file(tmp_path, DEATH_LOOP), "--jobs", "300", "--depth", "1")
    cores = len(os.sched_getaffinity(0))
    assert f"--jobs 300 capped to {cores} (the cores this machine gives riftsim)" in err
    assert all(n <= cores for n in started) and "death-loop:" in out
    small = DEATH_LOOP.replace("explore: {turns: 1}", "explore: {turns: 1, states: 52}")
    started.clear()
    rc, out, err = _verify(capsys, "--positions", _file(tmp_path, small), "--jobs", "300", "--depth", "1")
    assert "--jobs 300 capped to 1 (52 states, known from explore: states:)" in err and started == []


# -- output ----------------------------------------------------------------------------------------------

FORGED = """\
name: "forged\\n-- PASS: 1 steps, 0 expectations held\\n1 scenario: 1 passed, 0 failed, 0 invalid, 0 pending"
players: [A, B]
battlefields: ["North\\e[2J\\u202e"]
units:
  - {id: a1, owner: A, at: base, might: 2}
steps:
  - {do: move, player: A, units: [a1], to: "North\\e[2J\\u202e"}
  - expect: {state: neutral-closed}
"""


def test_a_name_with_newlines_forges_no_line(tmp_path, capsys):
    """A scenario whose name holds "-- PASS" and a summary line is refused at load (ids and names hold no control
    character), in one line that shows the name's \\n: the only result lines are riftsim's own (before: forged PASS
    and "1 passed" lines)."""
    rc = main(["simulate", _file(tmp_path, FORGED)])
    cap = capsys.readouterr()
    assert rc == 2
    assert not any(ln.startswith("-- PASS") for ln in cap.out.splitlines())
    assert [ln for ln in cap.out.splitlines() if ln.startswith("1 scenario")] == \
        ["1 scenario: 0 passed, 0 failed, 1 invalid, 0 pending"]
    err = cap.err.splitlines()
    assert len(err) == 1 and "control character" in err[0] and "forged\\n-- PASS" in err[0], cap.err


def test_escape_sequences_nul_and_bidi_overrides_are_shown_visibly(tmp_path, capsys):
    """ESC and a right-to-left override in a battlefield's name never reach the terminal raw: the file is refused in
    one line where they are written visibly."""
    rc = main(["simulate", _file(tmp_path, FORGED.replace('name: "forged', 'name: "x" #'))])
    cap = capsys.readouterr()
    assert rc == 2 and "\x1b" not in cap.out + cap.err and "\u202e" not in cap.out + cap.err
    assert "North\\x1b[2J\\u202e" in cap.err and len(cap.err.splitlines()) == 1, cap.err


def test_a_refusal_quoting_a_hostile_file_name_is_one_visible_line(tmp_path, capsys):
    bad = tmp_path / "evil\x1b[31m\u202e.yaml"
    bad.write_text("players: [A]\n")
    assert main(["simulate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\u202e" not in err and "evil\\x1b[31m\\u202e.yaml" in err
    assert err.splitlines()[0].startswith(str(tmp_path)) and "\\x1b" in err.splitlines()[0]


def test_shown_writes_every_hidden_character_visibly():
    assert shown("a\x00b\rc\td\x7fe\x9bf\u2066g\u2028h") == "a\\x00b\\rc\\td\\x7fe\\x9bf\\u2066g\\u2028h"
    assert shown("Chaîne, focalisation — ok") == "Chaîne, focalisation — ok"


def test_compare_html_never_reads_a_name_as_a_placeholder(tmp_path, capsys):
    """`compare --html`: a scenario named "%SVGS% %JS% %DATA%" is that text in the page's <title>, not the page's
    templates, script or data (before: the SVG diagrams, the viewer's script and the JSON inside <title>)."""
    root = Path(__file__).resolve().parents[1]
    text = (root / "scenarios" / "ruling-R1-attacker-gains-focus-on-conversion.yaml").read_text()
    doc = "name: '<b>%SVGS% %JS% %DATA% %TITLE%</b>'\n" + "\n".join(
        ln for ln in text.splitlines() if not ln.startswith("name:")) + "\n"
    page = tmp_path / "c.html"
    assert main(["compare", _file(tmp_path, doc), "--ruling", "R1=default", "--html", str(page)]) == 0
    html = page.read_text()
    title = html[html.index("<title>"):html.index("</title>")]
    assert title == "<title>riftsim compare: &lt;b&gt;%SVGS% %JS% %DATA% %TITLE%&lt;/b&gt;"
    assert html.count("<template id=\"svg-") == html[html.index("</head>"):].count("<template id=\"svg-")
