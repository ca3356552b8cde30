"""Benchmark (not a test): the CPU time riftsim's commands cost to start, in one run (issue 34 item 3).

    python bench/bench_startup.py                        # the figures of docs/performance.md's start-up table
    python bench/bench_startup.py --against /tmp/before  # the same commands of another checkout, same rounds
    python bench/bench_startup.py --imports simulate     # plus the slowest imports of one command (-X importtime)

Each command runs as its own process, ``python -m simulator.cli.main ARGS``, from an empty temporary folder
(the scenario is named by its absolute path), and costs what ``resource.getrusage(RUSAGE_CHILDREN)`` says it
used: user plus system CPU seconds, the interpreter's own start included (the ``python -c pass`` row). The rounds
alternate the commands (and the checkouts) so that a change of load on the shared machine hits all of them; the
figure is each command's best round (the least disturbed), and the median is shown beside it.

Two columns: **cached**, with the modules' bytecode already compiled (as after ``pip install``, which compiles
it; here in a private ``PYTHONPYCACHEPREFIX`` folder, after one warm-up run), and **compiling**, with no bytecode
cache (``PYTHONDONTWRITEBYTECODE=1`` and an empty prefix: every module compiled from source at every start, as
in a checkout whose ``__pycache__`` cannot be written).
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = "scenarios/seed000-showdown-on-an-empty-battlefield.yaml"
#: targets of issue 34 item 3 (CPU seconds, bytecode cached)
TARGETS = {"--version": 0.15, "simulate": 0.40}


def commands(root: Path) -> dict[str, list[str]]:
    scenario = str(root / SCENARIO)
    return {
        "python -c pass": ["-c", "pass"],
        "--version": ["-m", "simulator.cli.main", "--version"],
        "--help": ["-m", "simulator.cli.main", "--help"],
        "simulate": ["-m", "simulator.cli.main", "simulate", scenario],
        "new": ["-m", "simulator.cli.main", "new"],
        "examples": ["-m", "simulator.cli.main", "examples"],
    }


def environment(root: Path, cache: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["PYTHONPATH"] = str(root)                # this checkout's simulator, before any installed one
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="riftsim-nocache-")    # stays empty
    else:
        env["PYTHONPYCACHEPREFIX"] = cache
    return env


def cpu(args: list[str], env: dict[str, str], cwd: str) -> float | None:
    """CPU seconds (user + system) of one process running ``python ARGS``; None if it failed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *args], env=env, cwd=cwd, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        return None
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(roots: dict[str, Path], rounds: int) -> dict[tuple[str, str, str], list[float]]:
    """(checkout label, mode, command) -> the CPU seconds of each round."""
    out: dict[tuple[str, str, str], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="riftsim-startup-") as tmp:
        empty = Path(tmp, "empty")
        empty.mkdir()
        envs = {(label, mode): environment(root, str(Path(tmp, f"pyc-{label}")) if mode == "cached" else None)
                for label, root in roots.items() for mode in ("cached", "compiling")}
        runs = {}                                     # warm-up: the cached mode's bytecode gets written
        for (label, mode), env in envs.items():
            for name, args in commands(roots[label]).items():
                if cpu(args, env, str(empty)) is not None:
                    runs[(label, mode, name)] = (args, env)
                elif label == "now":
                    sys.exit(f"bench_startup: `python {' '.join(args)}` failed in {roots[label]}")
        for _ in range(rounds):
            for key, (args, env) in runs.items():
                t = cpu(args, env, str(empty))
                if t is not None:
                    out.setdefault(key, []).append(t)
    return out


def report(times: dict[tuple[str, str, str], list[float]], labels: list[str]) -> None:
    names = list(commands(ROOT))
    head = "".join(f" | {label} cached | {label} compiling" for label in labels)
    print(f"| command{head} |")
    print("| --- |" + " --- | --- |" * len(labels))
    for name in names:
        cells = []
        for label in labels:
            for mode in ("cached", "compiling"):
                t = times.get((label, mode, name))
                cells.append(f"{min(t):.3f} s (median {statistics.median(t):.3f})" if t else "- (no such command)")
        print(f"| `{name}` | " + " | ".join(cells) + " |")
    print()
    for name, goal in TARGETS.items():
        got = min(times[(labels[0], "cached", name)])
        print(f"target: {name} <= {goal:.2f} s CPU (bytecode cached): {got:.3f} s, "
              f"{'met' if got <= goal else 'NOT met'}")


def imports(command: str, top: int = 15) -> None:
    """The ``top`` imports costing most (cumulative microseconds) in one run of ``command``, bytecode cached."""
    args = commands(ROOT)[command]
    with tempfile.TemporaryDirectory(prefix="riftsim-imports-") as tmp:
        env = environment(ROOT, tmp)
        subprocess.run([sys.executable, *args], env=env, cwd=tmp, capture_output=True)      # warm-up
        done = subprocess.run([sys.executable, "-X", "importtime", *args], env=env, cwd=tmp, capture_output=True,
                              text=True)
    rows = [(int(m.group(2)), m.group(3).strip()) for m in
            re.finditer(r"^import time:\s+(\d+) \|\s+(\d+) \|(.*)$", done.stderr, re.M)]
    print(f"\nslowest imports of `{command}` (cumulative, bytecode cached):")
    for us, mod in sorted(rows, reverse=True)[:top]:
        print(f"  {us / 1000:7.1f} ms  {mod}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7, help="rounds per command (default 7)")
    ap.add_argument("--against", metavar="DIR", help="another checkout (e.g. a worktree of an older commit)")
    ap.add_argument("--imports", metavar="COMMAND", choices=list(commands(ROOT)),
                    help="also list the slowest imports of this command")
    args = ap.parse_args()
    roots = {"now": ROOT}
    if args.against:
        roots["before"] = Path(args.against).resolve()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; "
          f"{args.rounds} rounds; CPU seconds per process, best round (median)\n")
    report(measure(roots, args.rounds), list(roots))
    if args.imports:
        imports(args.imports)


if __name__ == "__main__":
    main()
