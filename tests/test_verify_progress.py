"""`riftsim verify` shows its progress on a terminal and stays quiet when piped (issue 17)."""
import os
import pty
import select
import subprocess
import sys
import textwrap
import time

import pytest

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


def test_piped_verify_prints_no_progress(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text(POSITIONS)
    done = subprocess.run([*CMD, str(f)], capture_output=True, text=True, timeout=300)
    assert "explore: 2 starting positions" in done.stdout
    assert done.stderr == ""                                   # no bar, no carriage returns in a log


@pytest.mark.skipif(not hasattr(pty, "fork"), reason="needs a POSIX pseudo-terminal")
def test_verify_at_a_terminal_shows_a_progress_bar(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text(POSITIONS)
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
    assert "explore: 2 starting positions" in text
    assert "explore:" in text and "position" in text and "2/2" in text, text      # the tqdm bar, e.g. 2/2


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
