"""The linter and the type checker (pinned in the test extras; configured in pyproject.toml) are clean, so every
merge gate runs them: ruff (pyflakes, pycodestyle, bugbear) and mypy (every module; none excused in pyproject.toml).
Functions stay small: radon's cyclomatic complexity, no function above 20 and the mean bounded (below)."""
from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean():
    r = _run("ruff", "check", "--no-cache", "simulator", "statecharts", "tests", "bench")
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_module_is_excused_from_mypy():
    """The known-debt list is gone: a module may not be put back under ignore_errors."""
    assert "ignore_errors" not in (ROOT / "pyproject.toml").read_text()


def test_mypy_is_clean():
    r = _run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert r.returncode == 0, r.stdout + r.stderr


# -- small functions: radon's cyclomatic complexity ------------------------------------------------------------
#
# Measured with radon's own API (radon.complexity.cc_visit, pinned in the test extras) over every .py file of
# simulator/ and statecharts/. "A function" is every function and method radon reports there, and every function
# nested in one (a closure: radon does not add its decisions to the enclosing function's, so it is counted as a
# function of its own); classes are not functions (radon's class score is the mean of its methods).

#: no function may be more complex than this (issue 29)
MAX_COMPLEXITY = 20
#: the mean complexity over those functions may not rise above this. Issue 29 asks for 4; the figure reached
#: (2 Dec 2026: 4.25 over 1,742 functions, from 5.50 over 982) is the ceiling until then: lower it as functions
#: are split, down to 4 (the largest shares above 4 a function: scenario/loader.py, game/action_kinds.py,
#: verify/mutate.py, game/shape.py, game/validate.py)
MEAN_COMPLEXITY = 4.25
#: functions above MAX_COMPLEXITY excused for now (none); the list may only shrink (an entry no longer above the
#: limit, or gone, fails: delete it)
OVER_THE_LIMIT = {
}


def complexities() -> dict[str, int]:
    """{"path: function": radon's cyclomatic complexity} for every function of simulator/ and statecharts/."""
    from radon.complexity import cc_visit
    from radon.visitors import Class

    def nested(f):
        yield f
        for c in f.closures:
            yield from nested(c)
    out: dict[str, int] = {}
    for path in sorted([*(ROOT / "simulator").rglob("*.py"), *(ROOT / "statecharts").rglob("*.py")]):
        name = path.relative_to(ROOT).as_posix()
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if not isinstance(block, Class):
                for f in nested(block):
                    key = f"{name}: {f.fullname}"
                    while key in out:                    # two functions of one name (e.g. under an if): both
                        key += "'"
                    out[key] = f.complexity
    return out


def test_no_function_is_above_the_complexity_limit():
    cc = complexities()
    over = sorted(f"{k} ({v})" for k, v in cc.items() if v > MAX_COMPLEXITY and k not in OVER_THE_LIMIT)
    assert not over, (f"cyclomatic complexity above {MAX_COMPLEXITY} (radon): {over}; split them into small, "
                      f"well-named functions (docs/testing.md)")
    fixed = sorted(k for k in OVER_THE_LIMIT if cc.get(k, 0) <= MAX_COMPLEXITY)
    assert not fixed, f"no longer above {MAX_COMPLEXITY} (or gone): delete them from OVER_THE_LIMIT: {fixed}"


def test_mean_complexity_stays_down():
    cc = complexities()
    mean = sum(cc.values()) / len(cc)
    assert mean <= MEAN_COMPLEXITY, (f"mean cyclomatic complexity {mean:.3f} over {len(cc)} functions is above "
                                     f"{MEAN_COMPLEXITY} (radon; docs/testing.md)")
