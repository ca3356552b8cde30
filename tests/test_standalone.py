"""A pip install stands alone, and starts fast (issue 34, items 2 and 3).

The checkout is copied as a clone has it (``simulator/examples`` stays a link to ``scenarios/``), built into a
wheel offline and installed, not editable, into a fresh virtual environment (tests/test_packaging.py's
``install``). Every command then runs from an empty folder: ``riftsim examples`` lists, prints and copies the
bundled scenarios (package data), ``riftsim new`` prints a starting file that ``simulate`` passes, ``riftsim
diagrams --out D`` writes every diagram, ``riftsim rules ID`` names the bundled scenarios whose trace cites ID,
``riftsim export`` writes the bundled scenarios' fixtures, and the files a ``--help`` names exist. The same commands are run in the checkout, in process. Start-up is
checked by what it imports (never by a clock): bench/bench_startup.py measures it.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from simulator.cli import new as new_cmd
from simulator.cli.main import COMMANDS, main
from simulator.cli.rules import exercised
from simulator.scenario import bundled, loader
from test_packaging import _run, install

ROOT = Path(__file__).resolve().parents[1]
# each test here builds or uses a non-editable install (a wheel built offline): .ci/run's slow step
pytestmark = pytest.mark.slow
SCENARIOS = bundled.under(ROOT / "scenarios")     # the folder's, then its subfolders' (cards/)
MODES = ("duel", "skirmish", "war", "magma-chamber")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the riftsim command or None, its python, its site-packages, a folder outside the checkout)."""
    work = tmp_path_factory.mktemp("standalone")
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for tree in ("statecharts", "simulator", "scenarios"):
        shutil.copytree(ROOT / tree, src / tree, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    assert (src / "simulator" / "examples").is_symlink()
    return install(work, src)


@pytest.fixture
def empty(installed, tmp_path):
    """A fresh empty folder outside the checkout, and a function running the installed riftsim in it."""
    exe, py, _, _ = installed
    cmd = [str(exe)] if exe else [str(py), "-m", "simulator.cli.main"]
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder, lambda *args: _run([*cmd, *args], cwd=folder)


def test_the_bundled_scenarios_are_the_checkouts():
    """simulator/examples is the one copy: the link to scenarios/ (no duplicated file in the repository)."""
    assert (ROOT / "simulator" / "examples").is_symlink()
    assert [p.name for p in bundled.paths()] == [p.name for p in SCENARIOS]


def test_the_wheel_ships_the_scenarios(installed):
    site = installed[2]
    shipped = bundled.under(site / "simulator" / "examples")
    assert [p.name for p in shipped] == [p.name for p in SCENARIOS]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(shipped, SCENARIOS))


# -- riftsim examples ---------------------------------------------------------------------------

def test_examples_lists_every_bundled_scenario_with_its_name(empty):
    folder, riftsim = empty
    done = riftsim("examples")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(SCENARIOS) + 1 and lines[-1].startswith(f"{len(SCENARIOS)} bundled scenarios")
    for line, path in zip(lines, SCENARIOS):
        stem, name = line.split(None, 1)
        assert stem == path.stem and name == yaml.safe_load(path.read_text(encoding="utf-8"))["name"]
    assert list(folder.iterdir()) == []


def test_examples_prints_one_and_it_simulates(empty):
    folder, riftsim = empty
    done = riftsim("examples", "seed000-showdown-on-an-empty-battlefield")
    assert done.returncode == 0 and done.stdout == (ROOT / "scenarios" / "seed000-showdown-on-an-empty-battlefield.yaml"
                                                     ).read_text(encoding="utf-8")
    (folder / "s.yaml").write_text(done.stdout, encoding="utf-8")
    done = riftsim("simulate", "s.yaml")
    assert done.returncode == 0 and "7  A conquers North and scores 1 (now 1)  [469.1, 470]" in done.stdout


def test_examples_copy_then_simulate_all_of_them(empty):
    folder, riftsim = empty
    done = riftsim("examples", "--copy", "scenarios")
    assert done.returncode == 0, done.stderr
    copied = bundled.under(folder / "scenarios")              # the subfolder cards/ kept, as in the checkout
    relative = [p.relative_to(ROOT / "scenarios").as_posix() for p in SCENARIOS]
    assert [p.relative_to(folder / "scenarios").as_posix() for p in copied] == relative
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(copied, SCENARIOS))
    done = riftsim("simulate", "-q", *(f"scenarios/{r}" for r in relative))
    assert done.returncode == 0, done.stdout[-2000:]
    assert done.stdout.splitlines()[-1] == f"{len(SCENARIOS)} scenarios: {len(SCENARIOS)} passed, 0 failed, 0 invalid, 0 pending"


def test_examples_copy_never_replaces_a_different_file(empty):
    """Refused before anything is written: the folder is exactly as it was."""
    folder, riftsim = empty
    mine = folder / "mine"
    mine.mkdir()
    (mine / "keyword-ambush.yaml").write_text("name: my own edit\n")
    done = riftsim("examples", "keyword-tank-first-backline-last", "keyword-ambush", "--copy", "mine")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "keyword-ambush.yaml: exists and differs from the bundled scenario; nothing copied" in done.stderr
    assert [p.name for p in mine.iterdir()] == ["keyword-ambush.yaml"]
    assert (mine / "keyword-ambush.yaml").read_text() == "name: my own edit\n"


@pytest.mark.parametrize("name", ["seed000-showdown", "../scenarios/keyword-ambush", "/etc/passwd"])
def test_examples_accepts_only_a_bundled_name(capsys, name):
    assert main(["examples", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a bundled scenario" in err


def test_examples_in_the_checkout(capsys, tmp_path):
    assert main(["examples", "keyword-ambush.yaml"]) == 0
    assert capsys.readouterr().out == (ROOT / "scenarios" / "keyword-ambush.yaml").read_text(encoding="utf-8")
    assert main(["examples", "keyword-ambush", "--copy", str(tmp_path / "a" / "b")]) == 0
    assert [p.name for p in (tmp_path / "a" / "b").iterdir()] == ["keyword-ambush.yaml"]
    assert main(["examples", "keyword-ambush", "--copy", str(tmp_path / "a" / "b")]) == 0   # the same file: kept
    assert "copied 0 scenarios into" in capsys.readouterr().out


# -- riftsim new ------------------------------------------------------------------------------------

def test_new_from_an_installed_riftsim_passes(empty):
    folder, riftsim = empty
    done = riftsim("new", "--mode", "skirmish")
    assert done.returncode == 0, done.stderr
    (folder / "my.yaml").write_text(done.stdout, encoding="utf-8")
    done = riftsim("simulate", "my.yaml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "-- PASS: 7 steps, 3 expectations held" in done.stdout


@pytest.mark.parametrize("mode", MODES)
def test_new_is_a_valid_scenario_that_passes(mode, tmp_path):
    """As printed, and with every commented key uncommented: the starting position (first player's Main
    Phase, Neutral Open, priority), the showdown a move opens (344.2), the conquest after every player
    passed focus in succession (347.2.a, 469.1), the team's shared point in Magma Chamber (489)."""
    text = new_cmd.starting_file(mode)
    assert text.startswith("# A riftsim scenario") and text.count("\n# ") >= 4
    for variant in (text, re.sub(r"^# (control|score|cards|rulings):", r"\1:", text, flags=re.M)):
        path = tmp_path / f"{mode}.yaml"
        path.write_text(variant, encoding="utf-8")
        sc = loader.load(str(path))
        assert sc.setup["mode"] == mode and len(sc.setup["players"]) == {"duel": 2, "skirmish": 3}.get(mode, 4)
        res = loader.run(sc)
        assert res.status == "pass", res.message
        assert res.final["controller"]["North"] == "A" and res.final["focus"] is None
        assert res.final["state"] == "neutral-open" and res.final["priority"] == "A"
        shared = {"A": 1, "C": 1} if mode == "magma-chamber" else {"A": 1}
        assert {p: s for p, s in res.final["score"].items() if s} == shared
    assert variant != text


def test_new_prints_the_same_through_the_command(capsys):
    assert main(["new", "--mode", "war"]) == 0
    assert capsys.readouterr().out == new_cmd.starting_file("war")
    with pytest.raises(SystemExit):
        main(["new", "--mode", "chess"])


# -- riftsim diagrams, riftsim rules --------------------------------------------------------------

def test_diagrams_out_from_an_empty_folder(empty):
    """Every diagram is written (the example trace from the bundled scenario) and is then up to date; when the
    example scenario is missing the command says so in one line and makes no folder."""
    folder, riftsim = empty
    done = riftsim("diagrams", "--out", "D")
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in (folder / "D").iterdir())
    assert written == sorted(p.name for p in (ROOT / "diagrams").iterdir() if p.suffix in (".dot", ".svg", ".html"))
    for name in written:
        if name.endswith(".dot"):
            assert (folder / "D" / name).read_bytes() == (ROOT / "diagrams" / name).read_bytes(), name
    done = riftsim("diagrams", "--check", "--out", "D")
    assert done.returncode == 0 and "is up to date" in done.stdout, done.stdout
    (folder / "none").mkdir()
    done = riftsim("diagrams", "--out", "E", "--scenarios", "none")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--scenarios DIR" in done.stderr
    assert not (folder / "E").exists()


def test_rules_lists_the_bundled_scenarios_citing_a_rule(empty):
    """347.2.a (a showdown ends when every player passed focus in succession): the same scenarios as a run of
    the checkout's scenarios/ finds."""
    _, riftsim = empty
    done = riftsim("rules", "347.2.a")
    assert done.returncode == 0, done.stderr
    shown = re.findall(r"^  (\S+)  \((\d+) trace event\(s\)\)$", done.stdout, re.M)
    want = exercised("347.2.a", ROOT / "scenarios")
    assert len(want) > 10 and {s: int(n) for s, n in shown} == want
    assert "seed000-showdown-on-an-empty-battlefield" in want


def test_export_from_an_empty_folder_is_the_checkouts(empty, tmp_path):
    """`riftsim export` of the bundled scenarios: the same fixtures, byte for byte, from an installed riftsim as
    from the checkout, each naming its source as scenarios/NAME.yaml (never a path of the machine)."""
    folder, riftsim = empty
    done = riftsim("export", "--fixtures", "F")
    assert done.returncode == 0, done.stderr
    assert main(["export", "--fixtures", str(tmp_path / "here")]) == 0
    got, want = sorted((folder / "F").iterdir()), sorted((tmp_path / "here").iterdir())
    assert len(got) == len(SCENARIOS) and [p.name for p in got] == [p.name for p in want]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(got, want))
    assert '"source": "scenarios/keyword-ambush.yaml"' in (folder / "F" / "keyword-ambush.json").read_text()


# -- --help names real files ------------------------------------------------------------------------

def _helps() -> dict[str, str]:
    out = {}
    for name in (None, *COMMANDS):
        done = subprocess.run([sys.executable, "-m", "simulator.cli.main", *([name] if name else []), "--help"],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        out[name or "riftsim"] = done.stdout
    return out


def test_every_help_names_only_bundled_scenarios():
    named = {(cmd, f) for cmd, text in _helps().items() for f in re.findall(r"scenarios/([a-z0-9][\w.-]*\.yaml)", text)}
    assert len(named) >= 5
    missing = sorted((cmd, f) for cmd, f in named if not (bundled.FOLDER / f).is_file())
    assert missing == [], f"--help names scenarios that are not bundled: {missing}"


def test_simulate_help_from_an_installed_riftsim(empty):
    _, riftsim = empty
    done = riftsim("simulate", "--help")
    assert done.returncode == 0 and "riftsim examples --copy scenarios" in done.stdout


# -- start-up -----------------------------------------------------------------------------------------

HEAVY = ("yaml", "jsonschema", "networkx", "graphviz", "transitions", "tqdm", "wasmtime", "statecharts",
         "simulator.core.cards", "simulator.game.engine", "simulator.scenario.loader", "simulator.verify")


def _imported(*argv: str) -> set[str]:
    code = ("import sys\nfrom simulator.cli.main import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n"
            "    pass\nprint(' '.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120)
    return set(done.stderr.split())


def test_version_and_help_load_no_heavy_module():
    """riftsim --version (and the command list) imports none of the libraries, the card catalogue or the engine."""
    for argv in (["--version"], ["--help"]):
        loaded = _imported(*argv)
        assert "simulator.cli.main" in loaded
        assert sorted(m for m in loaded if m in HEAVY or m.startswith(tuple(h + "." for h in HEAVY))) == [], argv


def test_simulate_loads_only_what_it_runs():
    """One simulate loads the engine and the cards, not the verifier, the diagrams or their libraries."""
    loaded = _imported("simulate", "-q", str(ROOT / "scenarios" / "seed000-showdown-on-an-empty-battlefield.yaml"))
    assert {"simulator.game.engine", "simulator.core.cards"} <= loaded
    for mod in ("networkx", "graphviz", "tqdm", "wasmtime", "simulator.verify", "simulator.cli.diagrams",
                "simulator.cli.viewer"):
        assert mod not in loaded, mod
