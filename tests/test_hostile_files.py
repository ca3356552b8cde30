"""Hostile files and paths (issue 37 items 1, 3 and 6): no command deletes or replaces a file it did not
create, a checkpoint is read as if anyone wrote it, and Ctrl-C ends a command cleanly from its first instant.

Every case runs the real command in a new process, on files under a temporary folder; the FIFO and device
cases make their own nodes there (skipped where the test may not make one).
"""
from __future__ import annotations

import json
import os
import resource
import select
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from simulator.verify import checkpoint as cp
from simulator.verify import explore as ex

POSITION = textwrap.dedent("""\
    positions:
      - name: duel-small
        explore: {turns: 2, concede: true}
        players: [A, B]
        battlefields: [North, South]
        units: [{id: a1, owner: A, at: base, might: 2}, {id: b1, owner: B, at: base, might: 1}]
""")
PLAY = textwrap.dedent("""\
    name: play probe
    players: [A, B]
    battlefields: [North]
    units: [{id: a1, owner: A, at: base, might: 2}]
    steps: []
""")
SCENARIO = textwrap.dedent("""\
    name: one move
    players: [A, B]
    battlefields: [North]
    units: [{id: a1, owner: A, at: base, might: 2}]
    steps:
      - {do: move, player: A, units: [a1], to: North}
""")


def riftsim(*args, cwd=None, limit: int | None = None, timeout: float = 300):
    """The command in a new process: (exit status, stdout, stderr); ``limit``: its address space, in bytes."""
    def bounded():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    done = subprocess.run([sys.executable, "-m", "simulator.cli.main", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd, preexec_fn=bounded if limit else None)
    return done.returncode, done.stdout, done.stderr


def one_line(err: str) -> str:
    """The one line a refusal prints (never a traceback, never an internal error)."""
    assert err.count("\n") == 1 and err.startswith("riftsim: "), err
    assert "Traceback" not in err and "internal error" not in err, err
    return err.strip()


def tree(p: Path) -> dict:
    """What is at ``p``: each path under it with its kind and content (links not followed)."""
    out = {}
    for q in [p, *sorted(p.rglob("*"))] if p.is_dir() and not p.is_symlink() else [p]:
        st = q.lstat()
        out[str(q)] = (stat.S_IFMT(st.st_mode), os.readlink(q) if q.is_symlink() else
                       q.read_bytes() if stat.S_ISREG(st.st_mode) else None)
    return out


def node(path: Path, kind: int, device=(1, 3)) -> Path:
    """A FIFO or a device node made by the test (a character device 1:3 is what /dev/null is)."""
    try:
        if kind == stat.S_IFIFO:
            os.mkfifo(path)
        else:
            os.mknod(path, kind | 0o666, os.makedev(*device))
    except (OSError, AttributeError) as e:
        pytest.skip(f"cannot make a {'FIFO' if kind == stat.S_IFIFO else 'device node'} here: {e}")
    return path


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    """A checkpoint the command wrote (stopped after its first level), copied by each test that damages it."""
    d = tmp_path_factory.mktemp("stopped")
    (d / "one.yaml").write_text(POSITION)
    rc, _out, err = riftsim("verify", "--positions", d / "one.yaml", "--jobs", "1", "--no-graph",
                            "--checkpoint", d / "ck", "--stop-after", "0")
    assert rc == cp.STOPPED, err
    return d


def copy_of(stopped: Path, tmp_path: Path) -> Path:
    shutil.copytree(stopped / "ck", tmp_path / "ck")
    return tmp_path / "ck"


# -- item 1: a checkpoint folder replaces only a folder riftsim marked ----------------------------------------

def _user_folder(p: Path) -> Path:
    p.mkdir()
    (p / "thesis.txt").write_text("two years of work\n")
    return p


@pytest.mark.parametrize("case", ["existing folder", "unrelated DIR.old", "unrelated DIR.writing", "a file",
                                  "a link to a folder", "a dangling link", "dot", "dot-dot"])
def test_checkpoint_refuses_a_path_riftsim_did_not_make_and_touches_nothing(tmp_path, case):
    """`--checkpoint DIR` where DIR (or its DIR.old, DIR.writing) is something riftsim did not make: exit 2, one
    line naming it, before any search, and everything there left exactly as it was."""
    (tmp_path / "one.yaml").write_text(POSITION)
    work = tmp_path / "work"
    work.mkdir()
    target = {"dot": ".", "dot-dot": ".."}.get(case, "ck")
    if case == "existing folder":
        _user_folder(work / "ck")
    elif case == "unrelated DIR.old":
        _user_folder(work / "ck.old")
    elif case == "unrelated DIR.writing":
        _user_folder(work / "ck.writing")
    elif case == "a file":
        (work / "ck").write_text("notes\n")
    elif case == "a link to a folder":
        (work / "ck").symlink_to(_user_folder(tmp_path / "elsewhere"))
    elif case == "a dangling link":
        (work / "ck").symlink_to(tmp_path / "nowhere")
    before = tree(tmp_path)
    rc, out, err = riftsim("verify", "--positions", tmp_path / "one.yaml", "--jobs", "1", "--no-graph",
                           "--checkpoint", target, "--stop-after", "0", cwd=work)
    assert rc == 2 and out == "", (rc, out, err)
    line = one_line(err)
    assert "not a checkpoint riftsim wrote" in line or "names no folder a checkpoint may replace" in line, line
    assert tree(tmp_path) == before


def test_a_marked_checkpoint_is_replaced_and_nothing_else_is_touched(tmp_path):
    """The checkpoint riftsim marked is replaced by the next one, level after level; a user's file beside it and
    one in the folder above stay."""
    (tmp_path / "one.yaml").write_text(POSITION)
    (tmp_path / "ck.notes").write_text("mine\n")
    args = ("verify", "--positions", tmp_path / "one.yaml", "--jobs", "1", "--no-graph", "--checkpoint",
            tmp_path / "ck", "--stop-after", "0")
    rc, _out, err = riftsim(*args)
    assert rc == cp.STOPPED, err
    assert (tmp_path / "ck" / cp.MARKER).read_bytes() == cp.MARK
    rc, _out, err = riftsim(*args)                      # the same path again: the marked folder is replaced
    assert rc == cp.STOPPED, err
    rc, _out, err = riftsim("verify", "--resume", tmp_path / "ck", "--stop-after", "0")
    assert rc == cp.STOPPED, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ck", "ck.notes", "one.yaml"]
    assert (tmp_path / "ck.notes").read_text() == "mine\n"


def test_resume_of_a_folder_without_the_marker_is_refused(stopped, tmp_path):
    d = copy_of(stopped, tmp_path)
    (d / cp.MARKER).unlink()
    rc, _out, err = riftsim("verify", "--resume", d)
    assert rc == 2 and one_line(err) == f"riftsim: {d}: not a checkpoint riftsim wrote (no {cp.MARKER} marker in it)"


# -- item 1: outputs are written over nothing or a regular file, through a FIFO or a device, never over the rest --

def _play_save(tmp_path: Path, target: str) -> list[str]:
    (tmp_path / "p.yaml").write_text(PLAY)
    done = subprocess.run([sys.executable, "-m", "simulator.cli.main", "play", "p.yaml"], input=f"save {target}\n",
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout.splitlines()


def test_play_save_to_a_character_device_writes_through_it(tmp_path):
    """`save /dev/null` as root made /dev/null a regular file: now a device is written through (like `cat >`)."""
    null = node(tmp_path / "null", stat.S_IFCHR)
    out = _play_save(tmp_path, str(null))
    assert any("saved 0 action(s) to" in line for line in out), out
    assert stat.S_ISCHR(null.lstat().st_mode) and null.lstat().st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null", "p.yaml"]


def test_play_save_to_a_fifo_writes_through_it(tmp_path):
    """A FIFO is written through: a reader gets the scenario, the FIFO stays a FIFO."""
    fifo = node(tmp_path / "fifo", stat.S_IFIFO)
    fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)      # a reader (and a writer: the open never blocks)
    try:
        _play_save(tmp_path, "fifo")
        got = os.read(fd, 1 << 16) if select.select([fd], [], [], 5)[0] else b""
    finally:
        os.close(fd)
    assert b"name: play probe" in got and stat.S_ISFIFO(fifo.lstat().st_mode)


def test_an_output_through_a_link_writes_its_target_and_keeps_the_link(tmp_path):
    """`--html` to a symbolic link: the file it points to gets the page, the link stays a link."""
    (tmp_path / "s.yaml").write_text(SCENARIO)
    real = tmp_path / "pages" / "real.html"
    real.parent.mkdir()
    real.write_text("old")
    (tmp_path / "link.html").symlink_to(real)
    rc, _out, err = riftsim("simulate", "s.yaml", "--html", "link.html", cwd=tmp_path)
    assert rc == 0, err
    assert (tmp_path / "link.html").is_symlink() and os.readlink(tmp_path / "link.html") == str(real)
    assert "<html" in real.read_text().lower() and sorted(p.name for p in real.parent.iterdir()) == ["real.html"]


def test_a_replaced_output_keeps_its_permissions(tmp_path):
    (tmp_path / "s.yaml").write_text(SCENARIO)
    page = tmp_path / "page.html"
    page.write_text("old")
    page.chmod(0o600)
    rc, _out, err = riftsim("simulate", "s.yaml", "--html", "page.html", cwd=tmp_path)
    assert rc == 0 and "<html" in page.read_text().lower(), err
    assert stat.S_IMODE(page.stat().st_mode) == 0o600


def test_verify_export_to_a_character_device_writes_through_it(tmp_path):
    (tmp_path / "one.yaml").write_text(POSITION)
    null = node(tmp_path / "null.graphml", stat.S_IFCHR)
    rc, _out, err = riftsim("verify", "--positions", "one.yaml", "--jobs", "1", "--export", "null.graphml",
                            "--depth", "3", cwd=tmp_path)
    assert rc == 4 and "Traceback" not in err, err      # 4: the depth bound ended the search, as asked
    assert stat.S_ISCHR(null.lstat().st_mode)


@pytest.mark.parametrize("kind", ["folder", "block device"])
def test_an_output_over_a_folder_or_a_block_device_is_refused_in_one_line(tmp_path, kind):
    (tmp_path / "s.yaml").write_text(SCENARIO)
    target = tmp_path / "out.dot"
    if kind == "folder":
        target.mkdir()
    else:
        node(target, stat.S_IFBLK, (7, 250))            # a loop device: refused before it is opened
    before = tree(tmp_path)
    rc, _out, err = riftsim("simulate", "s.yaml", "--diagram", "out.dot", cwd=tmp_path)
    assert rc == 2 and "Traceback" not in err, err
    assert f"out.dot: cannot write: is a {'directory' if kind == 'folder' else 'block device'}: not written" in err
    assert tree(tmp_path) == before


# -- item 3: meta.json is checked field by field; the position is the saved states' ---------------------------

def _set(path: str, value):
    def damage(meta):
        *up, last = path.split(".")
        d = meta
        for k in up:
            d = d[k]
        d[last] = value
        return meta
    return damage


def _drop(key: str):
    def damage(meta):
        del meta[key]
        return meta
    return damage


META_DAMAGE = {
    "a list": (lambda meta: [meta], "a list, not a checkpoint's fields"),
    "position missing": (_drop("position"), "missing field(s) position"),
    "an unknown field": (_set("extra", 1), "unknown field(s) extra"),
    "turns a text": (_set("position.turns", "2"), 'position.turns is "2", not a number of turns'),
    "backend unknown": (_set("options.backend", "quantum"), "options.backend is \"quantum\", not compiled or"),
    "shards a text": (_set("shards", "1"), 'shards is "1", not a number of shards'),
    "shards huge": (_set("shards", 10 ** 12), "shards is 1000000000000, not a number of shards from 1 to 1024"),
    "shards zero": (_set("shards", 0), "shards is 0, not a number of shards"),
    "python a text": (_set("python", "3.11"), 'python is "3.11", not [major, minor]'),
    "setup not a mapping": (_set("position.setup", 42), "position.setup is 42, not a starting position"),
    "setup invalid": (_set("position.setup.players", ["A"]), "position.setup: mode duel needs 2 players, got 1"),
    "ruling unknown": (_set("position.rulings", {"R99": "x"}), "position.rulings: unknown ruling R99"),
    "max_states negative": (_set("options.max_states", -1), "options.max_states is -1, not null or a count"),
    "level negative": (_set("level", -1), "level is -1, not a count"),
    "depth a text": (_set("options.depth", "x"), 'options.depth is "x", not null or a count'),
    "seconds not a number": (_set("seconds", float("nan")), "seconds is NaN, not seconds"),
    "commit a number": (_set("commit", 5), "commit is 5, not a git commit or null"),
    "start missing": (_drop("start"), "missing field(s) start"),
    "another position": (_set("position.setup.units", [{"id": "a1", "owner": "A", "at": "North", "might": 5}]),
                         "position is not the one this search started from"),
}


@pytest.mark.parametrize("damage", list(META_DAMAGE))
def test_a_malformed_meta_json_is_refused_in_one_line_naming_the_field(stopped, tmp_path, damage):
    d = copy_of(stopped, tmp_path)
    change, why = META_DAMAGE[damage]
    meta = change(json.loads((d / "meta.json").read_text()))
    (d / "meta.json").write_text(json.dumps(meta))
    rc, out, err = riftsim("verify", "--resume", d)
    assert rc == 2 and out == "", (rc, out, err)
    line = one_line(err)
    assert line.startswith(f"riftsim: {d / 'meta.json'}: ") and why in line, line


def test_a_meta_json_nested_beyond_reason_is_one_line(stopped, tmp_path):
    d = copy_of(stopped, tmp_path)
    (d / "meta.json").write_text("[" * 200_000 + "]" * 200_000)
    rc, _out, err = riftsim("verify", "--resume", d)
    assert rc == 2 and "meta.json: unreadable checkpoint (RecursionError" in one_line(err)


def test_another_position_with_its_own_fingerprint_is_refused_by_the_saved_states(stopped, tmp_path):
    """meta.json made consistent for another position (its start fingerprint too): the saved states are not that
    position's search (its start state is not among them), refused naming the shard's file."""
    d = copy_of(stopped, tmp_path)
    meta = json.loads((d / "meta.json").read_text())
    meta["position"]["setup"]["units"][0]["might"] = 7
    meta["start"] = ex.start_fingerprint(meta["position"], "compiled", False)
    (d / "meta.json").write_text(json.dumps(meta))
    rc, _out, err = riftsim("verify", "--resume", d)
    assert rc == 2 and one_line(err).startswith(f"riftsim: {d / 'shard-0.pkl'}: its states are not the search of "
                                                "the position in meta.json"), err


def test_a_checkpoint_of_the_previous_format_is_refused_naming_its_commit(stopped, tmp_path):
    d = copy_of(stopped, tmp_path)
    meta = json.loads((d / "meta.json").read_text())
    (d / "meta.json").write_text(json.dumps({**meta, "format": 1, "commit": "0123456789abcdef0123"}))
    rc, _out, err = riftsim("verify", "--resume", d)
    assert rc == 2 and one_line(err) == (f"riftsim: {d / 'meta.json'}: checkpoint format 1, this riftsim reads "
                                         f"{cp.FORMAT} (resume it with the riftsim that wrote it at commit 0123456789ab)")


@pytest.mark.parametrize("part", ["meta.json", "search.pkl", "shard-0.pkl"])
def test_a_fifo_in_a_checkpoint_is_refused_not_waited_on(stopped, tmp_path, part):
    d = copy_of(stopped, tmp_path)
    (d / part).unlink()
    node(d / part, stat.S_IFIFO)
    t0 = time.monotonic()
    rc, _out, err = riftsim("verify", "--resume", d, timeout=120)
    assert rc == 2 and time.monotonic() - t0 < 60
    line = one_line(err)
    assert str(d / part) in line and ("FIFO" in line or "not a regular file" in line), line


#: 46 bytes: a pickle calling FlatTable(2**28), whose constructor would allocate 8 GB of zeros
SIZED = (b"\x80\x02csimulator.verify.visited\nFlatTable\nJ" + (2 ** 28).to_bytes(4, "little") + b"\x85R.")


def test_the_unpickler_runs_no_constructor_sized_by_the_bytes():
    """Under a 1 GB address space: the 46 bytes are refused with one line before anything is allocated."""
    code = ("from simulator.verify import unpickle\n"
            "try:\n    unpickle.loads(%r)\nexcept unpickle.Refused as e:\n    print(e)\n" % SIZED)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)))
    assert len(SIZED) < 50
    assert done.returncode == 0 and done.stdout == \
        "it calls FlatTable with arguments, which no riftsim checkpoint does\n", done.stderr


def test_a_checkpoint_part_sized_by_its_bytes_is_refused_by_the_command(stopped, tmp_path):
    d = copy_of(stopped, tmp_path)
    (d / "search.pkl").write_bytes(SIZED)
    rc, _out, err = riftsim("verify", "--resume", d, limit=3 << 30)
    assert rc == 2 and one_line(err) == (f"riftsim: {d / 'search.pkl'}: unreadable checkpoint part (Refused: it "
                                         "calls FlatTable with arguments, which no riftsim checkpoint does)")


# -- item 6: Ctrl-C from the first instant; a binary ids file ---------------------------------------------------

def _command() -> list[str]:
    script = Path(sys.executable).parent / "riftsim"
    return [str(script)] if script.exists() else [sys.executable, "-m", "simulator.cli.main"]


#: the test's sitecustomize: says (one byte on READY_FD) when the command sets its first SIGINT handler
SPY = """\
import os, signal
_fd, _set = int(os.environ["READY_FD"]), signal.signal
def _spy(sig, handler):
    global _fd
    old = _set(sig, handler)
    if sig == signal.SIGINT and _fd >= 0:
        os.write(_fd, b"H")
        os.close(_fd)
        _fd = -1
    return old
signal.signal = _spy
"""


@pytest.mark.parametrize("delay", [0.0, 0.001, 0.005, 0.02, 0.06, 0.15, 0.4])
def test_ctrl_c_at_start_up_is_one_line_and_exit_130(tmp_path, delay):
    """SIGINT sent `delay` seconds after the command's first statement set its handler (a sitecustomize the test
    writes says when), while it loads its modules or has begun: one line, exit 130, no traceback."""
    (tmp_path / "sitecustomize.py").write_text(SPY)
    r, w = os.pipe()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])),
           "READY_FD": str(w)}
    proc = subprocess.Popen([*_command(), "verify", "--no-graph", "--jobs", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, pass_fds=(w,), cwd=tmp_path)
    os.close(w)
    try:
        assert select.select([r], [], [], 60)[0] and os.read(r, 1) == b"H"
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        os.close(r)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130 and err == "riftsim: interrupted\n", (proc.returncode, err)


def test_riftsim_version_starts_without_loading_the_commands():
    t0 = time.perf_counter()
    done = subprocess.run([*_command(), "--version"], capture_output=True, text=True, timeout=60)
    code = "import sys, simulator.cli.main as m; m.parser(); print(sorted(k for k in sys.modules if 'engine' in k))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("riftsim ") and time.perf_counter() - t0 < 30
    assert loaded.stdout.strip() == "[]", loaded.stdout


def test_mutate_json_log_over_a_folder_is_refused_before_any_work(tmp_path):
    (tmp_path / "log").mkdir()
    rc, out, err = riftsim("mutate", "--json", tmp_path / "log", "--sample", "1", "--stages", "scenarios")
    assert rc == 2 and out == "" and one_line(err) == f"riftsim: {tmp_path / 'log'}: is a directory: not written"
    assert list((tmp_path / "log").iterdir()) == []


def test_mutate_ids_from_a_binary_file_is_one_line(tmp_path):
    (tmp_path / "ids.bin").write_bytes(b"drop-guard x\n\xff\xfe\x00\x01 not text")
    rc, _out, err = riftsim("mutate", "--ids", tmp_path / "ids.bin", "--list")
    assert rc == 2 and one_line(err) == f"riftsim: {tmp_path / 'ids.bin'}:2: the file is not UTF-8 text"
