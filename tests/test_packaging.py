"""A regular, non-editable install works from any folder (issue 17).

The source tree is copied, built into a wheel offline (``pip wheel --no-deps --no-build-isolation``)
and installed into a fresh virtual environment whose only other packages are the test
environment's dependencies (a ``.pth`` line, so nothing is downloaded). From a folder that is not
the checkout, the installed ``riftsim`` then finds its default verify positions, its schema and its
message catalogues inside the package, simulates a scenario, and reports its version; only
``statecharts`` and ``simulator`` are installed at top level. tests/test_standalone.py builds it as a clone
would (the ``simulator/examples`` link kept) and runs every command that needs the bundled scenarios.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
# each test here builds or uses a non-editable install (a wheel built offline): .ci/run's slow step
pytestmark = pytest.mark.slow


def _run(cmd, cwd, **kw):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, env=env, **kw)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the installed riftsim command, its site-packages, a folder outside the checkout)."""
    work = tmp_path_factory.mktemp("pkg")
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for pkg in ("statecharts", "simulator"):          # simulator/examples: the link's files themselves
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return install(work, src)


def install(work: Path, src: Path):
    """Build ``src`` into a wheel offline and install it into a fresh virtual environment under ``work``:
    (the riftsim command or None, its python, its site-packages, an empty folder outside any checkout)."""
    wheels = work / "wheels"
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                 "-w", str(wheels), str(src)], cwd=work)
    assert done.returncode == 0, done.stderr
    wheel, = wheels.glob("riftsim-*.whl")
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=False)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / "python"
    site = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     cwd=work).stdout.strip())
    # the test environment's dependencies (transitions, networkx, ...), without its editable riftsim:
    # a path added by a .pth line is not a site dir, so the editable install's own .pth is not run
    (site / "_riftsim_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = _run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", "-q",
                 str(wheel)], cwd=work)
    if done.returncode != 0 and "no such option: --python" in done.stderr:      # pip < 22.3
        done = _run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                     "--target", str(site), str(wheel)], cwd=work)
    assert done.returncode == 0, done.stderr
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    exe = bindir / "riftsim"
    if not exe.exists():                                            # installed with --target: no script
        exe = None
    return (exe, py, site, elsewhere)


def riftsim(installed, *args):
    exe, py, _, elsewhere = installed
    cmd = [str(exe)] if exe else [str(py), "-m", "simulator.cli.main"]
    return _run([*cmd, *args], cwd=elsewhere)


def test_the_installed_package_is_not_the_checkout(installed):
    _, py, site, elsewhere = installed
    where = _run([str(py), "-c", "import simulator; print(simulator.__file__)"], cwd=elsewhere).stdout.strip()
    assert Path(where).resolve().is_relative_to(site.resolve()), where


def test_only_statecharts_and_simulator_are_installed_at_top_level(installed):
    site = installed[2]
    top = {p.name for p in site.iterdir() if not p.name.endswith((".dist-info", ".pth")) and p.name != "__pycache__"}
    top -= {"_riftsim_test_deps.pth"}
    assert top == {"simulator", "statecharts"}, top


def test_version(installed):
    done = riftsim(installed, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "riftsim " + _project_version()


def _project_version() -> str:
    import tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_simulate_from_another_folder(installed):
    elsewhere = installed[3]
    shutil.copy(ROOT / "scenarios" / "seed000-showdown-on-an-empty-battlefield.yaml", elsewhere / "s.yaml")
    done = riftsim(installed, "simulate", "s.yaml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2  A moves a1 to North  [144]" in done.stdout
    assert done.stdout.rstrip().endswith("1 scenario: 1 passed, 0 failed, 0 invalid, 0 pending")
    done = riftsim(installed, "simulate", "s.yaml", "--lang", "fr")          # the compiled catalogue is shipped
    assert done.returncode == 0 and "2  A déplace a1 vers North  [144]" in done.stdout, done.stdout + done.stderr


def test_verify_finds_its_default_positions_inside_the_package(installed):
    """Every default position is explored (bounded here: the full run is CI's `riftsim verify`)."""
    from simulator.verify.command import DEFAULT_FILES
    names = [p["name"] for f in DEFAULT_FILES for p in yaml.safe_load(Path(f).read_text())["positions"]]
    done = riftsim(installed, "verify", "--max-states", "50", "--no-graph", "--jobs", "1")
    assert "Traceback" not in done.stderr and done.returncode == 4, done.stderr      # 4: the state bound cut them
    assert f"explore: {len(names)} starting positions" in done.stdout
    for n in names:
        assert f"  {n}: " in done.stdout
    assert "invariants: all hold" in done.stdout


def test_schema_is_shipped(installed):
    done = riftsim(installed, "schema")
    assert done.returncode == 0 and '"title": "riftsim scenario"' in done.stdout


def test_diagrams_outside_a_checkout_checks_the_checkouts_diagrams(installed):
    """The example traces come from the bundled scenarios: the installed riftsim finds the checkout's
    diagrams up to date (tests/test_standalone.py writes them from an empty folder)."""
    done = riftsim(installed, "diagrams", "--check", "--out", str(ROOT / "diagrams"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_default_positions_live_in_the_package():
    """`riftsim verify` explores simulator/verify/positions/*.yaml; a positions file elsewhere is never run."""
    stray = sorted((ROOT / "verify").glob("*.yaml")) if (ROOT / "verify").is_dir() else []
    assert not stray, (f"{', '.join(p.name for p in stray)} in verify/ is not shipped and not explored by default: "
                       f"git mv it to simulator/verify/positions/ (docs/verification.md lists the figures)")


def test_asking_from_another_folder(installed):
    """Issue 34 item 1 from a non-editable install: show: steps, --show, --json (format 1) and its schema."""
    import json
    elsewhere = installed[3]
    text = (ROOT / "scenarios" / "seed000-showdown-on-an-empty-battlefield.yaml").read_text()
    (elsewhere / "ask.yaml").write_text(text + "  - show: [priority, decision]\n")
    done = riftsim(installed, "simulate", "ask.yaml", "--show", "--lang", "fr")
    assert done.returncode == 0 and "position : état " in done.stdout and "décision" in done.stdout, done.stderr
    done = riftsim(installed, "simulate", "ask.yaml", "--json")
    doc = json.loads(done.stdout)
    assert done.returncode == 0 and doc["format"] == 1 and doc["steps"][-1]["kind"] == "show", done.stderr
    schema = riftsim(installed, "schema", "--trace")
    assert schema.returncode == 0 and json.loads(schema.stdout)["properties"]["format"] == {"const": 1}


def test_verify_progress_and_mutate_from_an_installed_package(installed):
    """Issue 34 item 5 from a non-editable install in an empty folder: verify's progress lines (not a terminal:
    a plain line every --progress-every seconds, by states); mutate names what an install lacks, in one line."""
    done = riftsim(installed, "verify", "--max-states", "3000", "--no-graph", "--jobs", "1", "--progress-every", "0.05")
    assert "Traceback" not in done.stderr and done.returncode in (0, 4), done.stderr
    lines = done.stderr.splitlines()
    assert lines and all(ln.startswith("explore: ") and " states (" in ln for ln in lines), done.stderr
    done = riftsim(installed, "mutate", "--sample", "2")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "in a clone" in done.stderr, done.stderr


def test_the_viewer_page_from_an_installed_package(installed):
    """Issue 34 item 7: the page written by an installed riftsim has the inspector's controls and, in French,
    the rules' titles from the shipped catalogue."""
    import json
    import re
    elsewhere = installed[3]
    shutil.copy(ROOT / "scenarios" / "seed002-showdown-becomes-a-combat.yaml", elsewhere / "s2.yaml")
    done = riftsim(installed, "simulate", "-q", "s2.yaml", "--html", "v.html", "--lang", "fr")
    assert done.returncode == 0, done.stdout + done.stderr
    text = (elsewhere / "v.html").read_text(encoding="utf-8")
    assert all(f'id="{i}"' in text for i in ("prev-event", "next-event", "play", "filter"))
    data = json.loads(re.search(r'id="riftsim-data">(.*?)</script>', text, re.S).group(1))
    assert data["titles"]["144"] == "144: déplacer une unité d’un emplacement à un autre"
    assert data["ui"]["play"] == "Lecture"
