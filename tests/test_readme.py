"""The README's samples are real output: every ```text block that starts with `$ riftsim ...` is run from the
checkout's root and must print exactly what the block shows (issue 17: the sample had gone stale)."""
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def samples() -> list[tuple[str, str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```text\n(.*?)```", text, re.S):
        first, _, rest = block.partition("\n")
        if first.startswith("$ riftsim "):
            out.append((first[2:], rest))
    return out


def test_the_readme_has_samples():
    assert len(samples()) >= 2


def test_every_readme_sample_is_what_the_command_prints():
    for command, shown in samples():
        args = shlex.split(command)[1:]
        done = subprocess.run([sys.executable, "-m", "simulator.cli.main", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=300)
        assert done.stdout == shown, (f"README.md's sample of `{command}` is stale: replace the block's lines after "
                                      f"the $ line with the command's real output:\n{done.stdout}")


def test_every_subcommand_help_has_examples():
    """`riftsim COMMAND --help` shows how to use it, with at least one example line."""
    from simulator.cli.main import COMMANDS
    for name in COMMANDS:
        done = subprocess.run([sys.executable, "-m", "simulator.cli.main", name, "--help"], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (name, done.stderr)
        assert re.search(r"^examples?:\n  riftsim " + re.escape(name), done.stdout, re.M), \
            f"riftsim {name} --help has no 'examples:' section starting with `riftsim {name} ...`"
