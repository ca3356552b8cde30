"""Build the playground: a static site that runs riftsim itself in the browser (Pyodide), offline.

OUT/index.html opens from any static host or straight from disk (file://) and loads nothing but its own
files: Pyodide's runtime (the npm package pyodide, pinned below; fetched once with `npm pack` into
~/.cache/riftsim, or $RIFTSIM_CACHE), riftsim and its pure-Python dependencies in one zip, and the
statechart diagrams drawn now (Graphviz runs here, not in the page). Every binary file is stored as a
script (base64), since a page opened from disk may load scripts but not fetch files; see docs/playground.md.

The page: pick a bundled scenario or paste one (checked as you type with the JSON Schema, errors as
`riftsim simulate` gives them: FILE:LINE: what), run it (trace with each rule's title, the expectations,
the `simulate --html` viewer), play on from any step (legal actions as buttons, undo, save as a
scenario), share a link that carries the scenario, in English or French.

examples:
  riftsim site playground/                  (then open playground/index.html)
  riftsim site playground/ --lang fr        (the page opens in French; it can switch)
  python -m http.server -d playground 8000  (or serve it from any static host)
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from importlib.util import find_spec
from pathlib import Path

from simulator.cli.atomic import write_atomic
from simulator.core.errors import RiftsimError
from simulator.core.i18n import gettext_for, languages
from simulator.core.log import N_
from simulator.core.text import shown

#: the npm package `pyodide` the site runs on, and its integrity as the npm registry records it
PYODIDE = "314.0.8"
INTEGRITY = "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
#: the files of the npm package the page needs (pyodide.asm.mjs becomes the classic script pyodide.asm.js)
RUNTIME = ("pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: riftsim's run-time dependencies the page imports, by import name: pure Python (PyYAML without its optional C
#: part); rpds (Rust, imported by jsonschema and referencing) is replaced by simulator/cli/rpds_pure.py
PURE = ("yaml", "jsonschema", "jsonschema_specifications", "referencing", "attr", "attrs", "typing_extensions",
        "idna")
#: riftsim's own packages
OWN = ("simulator", "statecharts")
#: the page's static parts (simulator/cli/site_files/)
STATIC = Path(__file__).resolve().parent / "site_files"
#: a fixed date for every zip entry: the same sources give the same bytes
EPOCH = (2020, 1, 1, 0, 0, 0)

#: the page's own words (the simulator's words come from riftsim: the trace, the viewer, the messages)
WORDS = {
    "title": N_("riftsim playground"),
    "loading": N_("Loading Python and riftsim (first time: a few seconds)\u2026"),
    "ready": N_("Ready: riftsim runs in this page, offline."),
    "failed_start": N_("riftsim could not start in this browser:"),
    "example": N_("Bundled example"),
    "pick": N_("\u2014 pick one \u2014"),
    "scenario": N_("Scenario (YAML): paste a file or edit"),
    "valid": N_("valid scenario"),
    "run": N_("Run"),
    "share": N_("Share link"),
    "share_hint": N_("this address carries the scenario: send it"),
    "result": N_("Result"),              # a heading of the page, not a state
    "expectations": N_("Expectations"),
    "held": N_("held"),
    "failed": N_("failed"),
    "not_reached": N_("not reached"),
    "trace": N_("Trace"),
    "rules": N_("Rules cited"),
    "viewer": N_("Step through (the viewer of simulate --html)"),
    "play": N_("Play on"),
    "play_from": N_("Play from step"),
    "play_viewer": N_("from the viewer's step"),
    "undo": N_("Undo"),
    "save": N_("Save as scenario"),
    "to_editor": N_("Open in the editor"),
    "download": N_("Download"),
    "action": N_("Action"),
    "do": N_("Do"),
    "nothing": N_("no legal action"),
    "language": N_("Language"),
    "pass": N_("PASS"),
    "fail": N_("FAIL"),
    "pending": N_("pending"),
    "invalid": N_("invalid"),
    "expect": N_("expect"),
}


def words(lang: str) -> dict[str, str]:
    """:data:`WORDS` in ``lang`` (the catalogue's entries; English where it has none).

    >>> words("fr")["run"], words("en")["run"]
    ('Lancer', 'Run')
    """
    _ = gettext_for(lang)
    return {k: _(v) for k, v in WORDS.items()}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("out", metavar="OUT", help="the folder to write the site into (created; its files replaced)")
    p.add_argument("--lang", choices=languages(), default="en", help="the language the page opens in")


def cache_dir() -> Path:
    return Path(os.environ.get("RIFTSIM_CACHE") or Path.home() / ".cache" / "riftsim")


def tarball() -> Path:
    """The npm package's tarball, checked against :data:`INTEGRITY`; fetched with `npm pack` when missing."""
    where = cache_dir()
    tgz = where / f"pyodide-{PYODIDE}.tgz"
    if not tgz.is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise RiftsimError(f"riftsim site needs the npm package pyodide@{PYODIDE}: npm is not installed "
                               f"(apt-get install npm), and {tgz} is not there")
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=where) as tmp:       # never a half-written tarball in the cache
            done = subprocess.run([npm, "pack", f"pyodide@{PYODIDE}", "--silent"], cwd=tmp, capture_output=True,
                                  text=True)
            got = Path(tmp) / tgz.name
            if done.returncode != 0 or not got.is_file():
                why = (done.stderr.strip().splitlines() or ["no answer"])[-1]
                raise RiftsimError(f"riftsim site: npm pack pyodide@{PYODIDE} failed (no network to the npm "
                                   f"registry?): {why}")
            os.replace(got, tgz)
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tgz.read_bytes()).digest()).decode()
    if digest != INTEGRITY:
        raise RiftsimError(f"{tgz}: its sha512 is not the npm registry's for pyodide@{PYODIDE}: delete it and "
                           f"build again")
    return tgz


def runtime_files(tgz: Path) -> dict[str, bytes]:
    """The :data:`RUNTIME` files out of the npm tarball (``package/NAME``)."""
    out = {}
    with tarfile.open(tgz) as tar:
        for name in RUNTIME:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise RiftsimError(f"{tgz}: no package/{name}")
            out[name] = member.read()
    return out


def classic(asm: bytes) -> bytes:
    """pyodide.asm.mjs (an ES module) as a classic script: a page opened from disk may not import modules.
    Its one export becomes ``globalThis.createPyodideModule``, ``import.meta.url`` the URL the page sets."""
    text = asm.decode("utf-8")
    export = "export default _createPyodideModule"
    if text.count(export) != 1 or re.search(r"^\s*import\s", text, re.M):
        raise RiftsimError(f"pyodide {PYODIDE}: pyodide.asm.mjs is not laid out as expected (one default export)")
    text = text.replace(export, "globalThis.createPyodideModule=_createPyodideModule")
    return text.replace("import.meta.url", "globalThis.RIFTSIM_ASM_URL").encode("utf-8")


def _module_files(name: str) -> list[tuple[str, Path]]:
    """(path in the zip, file) for every file of the installed module ``name``: no compiled part, no cache."""
    spec = find_spec(name)
    if spec is None or spec.origin is None:
        raise RiftsimError(f"riftsim site: the module {name} is not installed (pip install -e .)")
    origin = Path(spec.origin)
    if origin.name != "__init__.py":
        return [(origin.name, origin)]
    root = origin.parent
    out = []
    for folder, dirs, files in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith((".so", ".pyd", ".pyc", ".c", ".pyx")):
                continue
            path = Path(folder) / f
            out.append((f"{name}/{path.relative_to(root).as_posix()}", path))
    return out


def bundle(extra: dict[str, bytes]) -> bytes:
    """One zip: riftsim, its pure-Python dependencies, the rpds stand-in, and ``extra`` (name -> bytes)."""
    entries: dict[str, bytes] = {}
    for name in (*OWN, *PURE):
        for arc, path in _module_files(name):
            entries[arc] = path.read_bytes()
    entries["rpds/__init__.py"] = (Path(__file__).parent / "rpds_pure.py").read_bytes()
    entries.update(extra)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for arc in sorted(entries):
            info = zipfile.ZipInfo(arc, EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, entries[arc])
    return buf.getvalue()


def as_script(name: str, data: bytes) -> bytes:
    """A file as a script that hands its bytes (base64) to the page: ``RIFTSIM_FILES[name] = "..."``."""
    return (f"RIFTSIM_FILES[{json.dumps(name)}]=\"".encode() + base64.b64encode(data) + b"\";\n")


def diagrams() -> dict[str, dict[str, str]]:
    """Every machine's diagram as inline SVG, per language (Graphviz runs here, as for ``simulate --html``)."""
    from simulator.cli.diagrams import inline_svgs
    return {lang: inline_svgs(lang=lang) for lang in languages()}


def page(lang: str, files: list[str]) -> bytes:
    """index.html: the page's words in every language, the language it opens in, the files it loads."""
    data = {"lang": lang, "words": {x: words(x) for x in languages()}, "files": files, "pyodide": PYODIDE}
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return (text.replace("%LANG%", lang).replace("%TITLE%", words(lang)["title"]).replace("%DATA%", blob)
            .encode("utf-8"))


def build(out: Path, lang: str = "en") -> dict[str, int]:
    """Write the site into ``out`` (each file atomically); returns file name -> size."""
    runtime = runtime_files(tarball())
    site = {"diagrams": diagrams(), "pyodide": PYODIDE}
    zipped = bundle({"riftsim-site.json": json.dumps(site, ensure_ascii=False).encode("utf-8")})
    assets = {"pyodide.asm.wasm": runtime["pyodide.asm.wasm"], "python_stdlib.zip": runtime["python_stdlib.zip"],
              "pyodide-lock.json": runtime["pyodide-lock.json"], "riftsim.zip": zipped}
    files: dict[str, bytes] = {
        "pyodide/pyodide.js": runtime["pyodide.js"],
        "pyodide/pyodide.asm.js": classic(runtime["pyodide.asm.mjs"]),
        **{f"files/{name}.js": as_script(name, data) for name, data in assets.items()},
        "playground.js": (STATIC / "playground.js").read_bytes(),
        "playground.css": (STATIC / "playground.css").read_bytes(),
    }
    files["index.html"] = page(lang, [f for f in files if f.startswith("files/")])
    out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)
    return {name: len(data) for name, data in files.items()}


def run(args) -> int:
    sizes = build(Path(args.out), args.lang)
    total = sum(sizes.values())
    print(shown(f"playground written to {args.out} ({len(sizes)} files, {total / 1e6:.1f} MB): open "
                f"{Path(args.out) / 'index.html'}"), file=sys.stderr)
    return 0
