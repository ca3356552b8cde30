"""`riftsim verify` shows its progress by work done (states, levels, a rate; issue 34 item 5): one line redrawn
on a terminal, a plain line every --progress-every seconds when stderr is not a terminal, nothing with
--no-progress; a percentage and a time left only from the positions' expected counts (explore: states:)."""
import os
import pty
import select
import subprocess
import sys
import textwrap
import time

import pytest

from simulator.cli.main import main

POSITIONS = textwrap.dedent("""\
    positions:
      - name: tiny-a
        explore: {turns: 1}
        players: [A, B]
        battlefields: [North]
        units: [{id: a1, owner: A, at: base, might: 1}]
      - name: tiny-b
        explore: {turns: 1}
        players: [A, B]
        battlefields: [North]
        units: [{id: b1, owner: B, at: base, might: 1}]
""")
CMD = [sys.executable, "-m", "simulator.cli.main", "verify", "--no-graph", "--jobs", "1", "--positions"]


def test_no_progress_prints_nothing_on_stderr(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text(POSITIONS)
    done = subprocess.run([*CMD, str(f), "--no-progress"], capture_output=True, text=True, timeout=300)
    assert "explore: 2 starting positions" in done.stdout
    assert done.stderr == ""


def larger(tmp_path):
    """A shipped position of a few thousand states over a dozen levels: long enough for several progress lines."""
    import yaml
    from simulator.verify.command import DEFAULT_POSITIONS
    ps = yaml.safe_load(DEFAULT_POSITIONS.read_text(encoding="utf-8"))["positions"]
    f = tmp_path / "larger.yaml"
    f.write_text(yaml.safe_dump({"positions": [p for p in ps if p["name"] == "duel-units-and-move-spell"]}))
    return f


def test_piped_verify_prints_a_plain_line_every_few_seconds(tmp_path):
    """Not a terminal: plain lines (no carriage return), each counting states discovered so far and the rate,
    the states growing line by line; never more than the search found."""
    f = larger(tmp_path)
    done = subprocess.run([*CMD, str(f), "--progress-every", "0.05"], capture_output=True, text=True, timeout=300)
    states = int(done.stdout.split("duel-units-and-move-spell: ")[1].split(" states")[0])
    lines = done.stderr.splitlines()
    assert "\r" not in done.stderr and len(lines) >= 2, done.stderr
    counts = []
    for line in lines:
        assert line.startswith("explore: ") and "/s), " in line and "positions done" in line, line
        counts.append(int(line.split("explore: ")[1].split(" states")[0].replace(",", "")))
    assert counts == sorted(counts) and 0 < counts[-1] <= states
    assert any("level " in line for line in lines)


def test_the_time_left_only_from_expected_counts():
    """A percentage and a time left from the positions' explore: states: (the work to do), never from the
    number of positions; none when a position has no expected count."""
    import io
    from simulator.verify.explore import Position
    from simulator.verify.progress import Progress
    big, small = Position("big", {}, states=9000), Position("small", {}, states=1000)
    p = Progress([big, small], tty=False, stream=io.StringIO())
    p.t0 -= 10
    p.states.update(small=1000, big=1500)
    p.levels["big"] = 7
    p.closed.add("small")
    p.finished = 1
    line = p.line()
    assert "2,500 states" in line and "1/2 positions done" in line and "level 7 of big" in line
    assert "25% of ~10,000 expected" in line and "about 30 s left" in line        # 10 s for 2,500 of 10,000
    unknown = Progress([big, Position("new", {})], tty=False, stream=io.StringIO())
    unknown.states.update(big=1500)
    assert "expected" not in unknown.line() and "left" not in unknown.line()
    p.states["big"] = 12000                                  # past the expected count: no estimate that lies
    assert "left" not in p.line()


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")
def test_verify_at_a_terminal_redraws_one_progress_line(tmp_path):
    f = larger(tmp_path)
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "dumb"
        os.execv(sys.executable, [*CMD, str(f)])
    out, end = b"", time.monotonic() + 300
    while time.monotonic() < end:
        if select.select([fd], [], [], 0.5)[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        elif os.waitpid(pid, os.WNOHANG)[0]:
            break
    else:
        os.kill(pid, 9)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    os.close(fd)
    text = out.decode(errors="replace")
    assert "explore: 1 starting positions" in text
    assert "\r" in text and " states (" in text and "/s), " in text, text      # one line, redrawn in place


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_levels_prints_a_line_per_level_on_stderr(tmp_path, jobs):
    """`--levels`: one line per breadth-first level on stderr, its states adding up to the search's count."""
    f = tmp_path / "p.yaml"
    f.write_text(POSITIONS.split("  - name: tiny-b")[0])
    cmd = [sys.executable, "-m", "simulator.cli.main", "verify", "--no-graph", "--jobs", jobs, "--levels",
           "--positions", str(f)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith("tiny-a: level ") for line in lines), done.stderr
    depths = [int(line.split("level ")[1].split(":")[0]) for line in lines]
    assert depths == list(range(1, len(lines) + 1))
    states = int(done.stdout.split("tiny-a: ")[1].split(" states")[0])
    last = lines[-1].split(": ", 2)[2]
    assert last.startswith(f"{states:,} states (+") and "peak RSS" in last
    added = sum(int(line.split("(+")[1].split(")")[0].replace(",", "")) for line in lines)
    assert added + 1 == states                               # the start state and each level's new ones


# -- riftsim mutate: quick by default with --sample, progress while it records, a failure that says what to do --

def test_mutate_sample_is_quick_by_default(capsys, monkeypatch):
    """--sample N runs only the scenarios stage unless --stages asks for the slow ones (tests, verify)."""
    from simulator.verify import mutate
    ran = []

    def run_many(ms, stages, **kw):
        ran.append((len(ms), stages))
        yield from ()
    monkeypatch.setattr(mutate, "run_many", run_many)
    empty = {"coverage": "[]", "tests-coverage": '{"records": [], "tests": {}, "outside": []}'}
    monkeypatch.setattr(mutate, "run_stage", lambda mu, stage, **kw: (False, empty.get(stage, "")))
    assert main(["mutate", "--sample", "2"]) in (0, 1)
    out = capsys.readouterr().out
    assert ran == [(2, ("scenarios",))]
    assert "--sample: stage scenarios only" in out and "--stages scenarios,tests,verify" in out
    assert "stages scenarios;" in out
    ran.clear()
    assert main(["mutate", "--sample", "2", "--stages", "scenarios,tests"]) in (0, 1)
    assert ran == [(2, ("scenarios", "tests"))]                       # asked for: the slow stage runs


def test_mutate_failing_unmutated_says_it_is_the_suite_and_what_to_do(capsys, monkeypatch):
    from simulator.verify import mutate
    monkeypatch.setattr(mutate, "run_stage", lambda mu, stage, **kw: (
        (True, "tests/test_focus.py::test_x") if stage == "tests-coverage" else (False, "[]")))
    assert main(["mutate", "--sample", "2", "--stages", "scenarios,tests"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "stage 'tests' already fails on the unmutated declarations (tests/test_focus.py::test_x)" in err
    assert "not a mutant" not in err and "whatever the mutants" in err
    assert "python -m pytest tests/test_focus.py::test_x" in err and "--stages scenarios" in err


def test_mutate_outside_a_clone_names_what_is_missing(capsys, monkeypatch, tmp_path):
    """An installed riftsim has no scenarios/ nor tests/: one line saying so, exit 2, before any work."""
    from simulator.verify import mutate
    monkeypatch.setattr(mutate, "ROOT", tmp_path)
    monkeypatch.setattr(mutate, "run_stage", lambda *a, **kw: pytest.fail("ran a stage"))
    assert main(["mutate", "--sample", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"stage scenarios ({tmp_path / 'scenarios'})" in err and "in a clone" in err


def test_mutate_shows_progress_while_it_records_the_tests():
    """Recording what each test fires takes minutes: a line on stderr as it goes (here after every test)."""
    ids = ("tests/test_focus.py::test_focus_passes_after_a_card_started_chain",
           "tests/test_focus.py::test_passing_priority_mid_chain_keeps_focus")
    code = ("from simulator.verify import mutate; mutate.RECORDING_EVERY = 0; "
            f"failed, out = mutate._stage_tests(record=True, only_tests={ids!r}); assert not failed, out")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "  recording: 1/2 tests run, " in done.stderr and "  recording: 2/2 tests run, " in done.stderr
