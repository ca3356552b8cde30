"""The playground (``riftsim site``, docs/playground.md): riftsim in the browser, offline.

Quick checks (every run): the pure-Python ``rpds`` stand-in the site ships agrees with the real rpds-py,
operation by operation; the page's Python entry points (simulator/cli/playground.py) under CPython; a
missing npm is one line; the site builds.

The browser tests (``slow``, .ci/run's second step) drive the built site as a person would, in Debian's
Chromium through Playwright (``executable_path``, no browser download), with every request outside the
site aborted: load (from disk and over HTTP), pick an example, run it, step through the viewer, play two
actions from a step, undo, save, the share link's round trip, a broken file's error, French. Every answer
the page shows is compared with riftsim's own under CPython (the same entry points): the status line
(turn state, focus, priority, chain: 307-310, 336, 340), the trace lines and their rules, the legal actions.
With CI=true a missing browser or npm fails; elsewhere those tests skip and say why.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from simulator.cli import playground, rpds_pure, site
from simulator.scenario import bundled
from simulator.scenario.loader import loads, run

ROOT = Path(__file__).resolve().parents[1]
SEED2 = "seed002-showdown-becomes-a-combat"
CHROMIUM = os.environ.get("RIFTSIM_CHROMIUM", "/usr/bin/chromium")
CI = os.environ.get("CI") == "true"


def _missing(why: str):
    if CI:
        pytest.fail(f"CI needs it: {why}")
    pytest.skip(why)


# -- the rpds stand-in, against the real one ---------------------------------------------------------

#: operations jsonschema 4.26 and referencing use (and their neighbours), each as a plain value
RPDS_CASES = {
    "map": lambda r: sorted(r.HashTrieMap({"a": 1}, b=2).items()),
    "map ops": lambda r: sorted(r.HashTrieMap({"a": 1}, b=2).insert("c", 3).remove("a").discard("zz")
                                .update({"d": 4}, [("e", 5)]).items()),
    "map unchanged": lambda r: (lambda m: (m.insert("z", 0), sorted(m.items()))[1])(r.HashTrieMap({"a": 1})),
    "map == dict": lambda r: r.HashTrieMap({"x": 1}) == {"x": 1},
    "map == map": lambda r: r.HashTrieMap({"x": 1}) == r.HashTrieMap([("x", 1)]),
    "map hash": lambda r: hash(r.HashTrieMap({"a": 1, "b": 2})) == hash(r.HashTrieMap({"b": 2, "a": 1})),
    "convert": lambda r: (lambda m: r.HashTrieMap.convert(m) == m)(r.HashTrieMap({"a": 1})),
    "convert dict": lambda r: sorted(r.HashTrieMap.convert({"x": 1}).items()),
    "fromkeys": lambda r: sorted(r.HashTrieMap.fromkeys(["p", "q"], 0).items()),
    "get, len, in": lambda r: (lambda m: (m.get("zz"), m.get("a"), len(m), "a" in m))(r.HashTrieMap({"a": 1})),
    "remove missing": lambda r: _raises(lambda: r.HashTrieMap().remove("zz")),
    "set ops": lambda r: sorted(r.HashTrieSet([1, 2]).insert(3).discard(1).update([7], {8})),
    "set unchanged": lambda r: (lambda s: (s.insert(5), sorted(s))[1])(r.HashTrieSet([1, 2])),
    "set discard missing": lambda r: sorted(r.HashTrieSet([1]).discard(9)),
    "set remove missing": lambda r: _raises(lambda: r.HashTrieSet([1]).remove(9)),
    "set == set": lambda r: r.HashTrieSet([1, 2]) == r.HashTrieSet([2, 1]),
    "list": lambda r: (list(r.List([1, 2])), list(r.List(1, 2, 3)), list(r.List()), len(r.List([1, 2]))),
    "list ops": lambda r: (lambda x: (list(x.push_front(0)), list(x), list(x.drop_first()), x.first, list(x.rest)))(
        r.List([1, 2])),
    "list ==": lambda r: r.List([1, 2]) == r.List([1, 2]),
}


def _raises(f):
    try:
        f()
    except Exception as e:
        return type(e).__name__
    return None


@pytest.mark.parametrize("case", sorted(RPDS_CASES))
def test_rpds_stand_in_agrees_with_rpds_py(case):
    """Each operation on the real rpds-py and on the stand-in the site ships gives the same value."""
    import rpds
    assert RPDS_CASES[case](rpds_pure) == RPDS_CASES[case](rpds)


def test_jsonschema_over_the_stand_in_gives_riftsim_s_messages(monkeypatch):
    """A broken file checked with the stand-in in place of rpds: the same FILE:LINE message as with rpds-py."""
    text = bundled.find(SEED2).read_text().replace("players: [A, B]", "players: A")
    want = json.loads(playground.check(text))["error"]
    assert want.startswith("scenario.yaml:") and want
    code = ("import sys, json; from simulator.cli import rpds_pure; sys.modules['rpds'] = rpds_pure; "
            "from simulator.cli import playground; "
            "print(json.loads(playground.check(sys.stdin.read()))['error']); import rpds; print(rpds.__file__)")
    done = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    got, where = done.stdout.strip().splitlines()
    assert got == want and where.endswith("rpds_pure.py"), done.stderr[-2000:]


# -- the page's Python, under CPython ------------------------------------------------------------------

def test_playground_runs_plays_undoes_and_saves(tmp_path, monkeypatch):
    """seed 002 from step 3: the legal actions are riftsim's (A holds focus and priority in the showdown,
    340, 336); an action, its undo leaving the position as it was, and the saved session replaying to PASS."""
    monkeypatch.chdir(tmp_path)
    text = bundled.find(SEED2).read_text()
    r = json.loads(playground.run(text, "en"))
    assert r["status"] == "pass" and all(x["verdict"] == "held" for x in r["expectations"])
    assert len(r["lines"]) == len(run(loads(text)).events) and "<html" in r["viewer"]
    assert r["titles"]["144"].startswith("144: ")
    a = json.loads(playground.play(text, 3, "en"))        # A moved to North and passed focus (466)
    assert a["status"].startswith("[showdown-open | turn A | focus B | priority B | chain empty")
    labels = [o["label"] for o in a["legal"]["A"] + a["legal"]["B"]]
    assert "A concede" in labels and "B pass" in labels and "A pass" not in labels
    assert any(x.startswith("B play move-spell") for x in labels)
    b = json.loads(playground.act(labels.index("B pass")))
    assert b["status"] != a["status"] and b["undo"] and b["played"] == 1 and "B passes" in b["said"]
    c = json.loads(playground.undo())
    assert c["status"] == a["status"] and not c["undo"] and c["trace"] == a["trace"]
    playground.act(labels.index("B pass"))
    saved = playground.save()
    assert run(loads(saved, "saved.yaml")).status == "pass"


def test_the_page_opens_in_the_language_it_was_built_for():
    """`riftsim site OUT --lang fr`: <html lang="fr">, the French title, both languages' words for the switch."""
    html = site.page("fr", ["files/x.js"]).decode()
    assert '<html lang="fr">' in html and f"<title>{site.words('fr')['title']}</title>" in html
    data = json.loads(html.split('id="site-data">', 1)[1].split("</script>", 1)[0])
    assert data["lang"] == "fr" and data["words"]["fr"]["run"] == "Lancer" and data["words"]["en"]["run"] == "Run"
    assert set(data["words"]["fr"]) == set(site.WORDS) and data["files"] == ["files/x.js"]


def test_share_link_round_trip_and_bounds():
    text = bundled.find(SEED2).read_text()
    assert playground.unpack(playground.pack(text)) == text
    assert playground.unpack("not*base64") == "" and playground.unpack("") == ""
    import base64
    import zlib
    bomb = base64.urlsafe_b64encode(zlib.compress(b"a" * (playground.MAX_TEXT + 10))).decode()
    assert playground.unpack(bomb) == ""                  # a link cannot make the page unpack without end


# -- building -------------------------------------------------------------------------------------------

def test_without_npm_or_its_tarball_one_line(tmp_path):
    env = {**os.environ, "RIFTSIM_CACHE": str(tmp_path / "cache"), "PATH": str(Path(sys.executable).parent)}
    done = subprocess.run([sys.executable, "-m", "simulator.cli.main", "site", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "npm is not installed" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


@functools.cache
def _built(where: str) -> Path:
    out = Path(where)
    site.build(out)
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if not (site.cache_dir() / f"pyodide-{site.PYODIDE}.tgz").is_file() and shutil.which("npm") is None:
        _missing(f"npm is not installed and pyodide-{site.PYODIDE}.tgz is not in {site.cache_dir()}")
    return _built(str(tmp_path_factory.mktemp("site")))


def test_site_builds_every_file_it_loads(built):
    names = sorted(str(p.relative_to(built)) for p in built.rglob("*") if p.is_file())
    assert names == ["files/pyodide-lock.json.js", "files/pyodide.asm.wasm.js", "files/python_stdlib.zip.js",
                     "files/riftsim.zip.js", "index.html", "playground.css", "playground.js", "pyodide/pyodide.asm.js",
                     "pyodide/pyodide.js"]
    html = (built / "index.html").read_text()
    assert "cdn.jsdelivr" not in html and "http://" not in html and "https://" not in html
    assert "import.meta" not in (built / "pyodide" / "pyodide.asm.js").read_text()


# -- the browser -----------------------------------------------------------------------------------------

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).is_file():
        _missing(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def served(built):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(built)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def _open(browser, url: str, allowed: str):
    """A page on ``url`` with every request outside ``allowed`` aborted (and listed), its console errors kept."""
    ctx = browser.new_context()
    ctx.set_default_timeout(120_000)            # a shared machine: Pyodide runs slowly there
    page = ctx.new_page()
    page.outside, page.errors = [], []

    def gate(route):
        if route.request.url.startswith(allowed):
            return route.continue_()
        page.outside.append(route.request.url)
        return route.abort()

    ctx.route("**/*", gate)
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("request", lambda r: None if r.url.startswith(allowed) or r.url.startswith(("data:", "blob:", "about:"))
            else page.outside.append(r.url))
    t0 = time.monotonic()
    page.goto(url, wait_until="domcontentloaded", timeout=180_000)
    page.wait_for_function("document.body.dataset.ready !== ''", timeout=180_000)
    assert page.evaluate("document.body.dataset.ready") == "yes", page.inner_text("#status")
    page.load_seconds = time.monotonic() - t0
    return page


@pytest.fixture(scope="module")
def page(browser, served):
    p = _open(browser, served, served)
    yield p
    p.context.close()


#: the trace as the page shows it: each line's step, text and rule links
TRACE = """[...document.querySelectorAll('#trace li')].map((li) => [li.dataset.step, li.querySelector('.text').textContent,
           [...li.querySelectorAll('a.rule')].map((a) => a.dataset.rule)])"""


def _pick(page, name: str) -> str:
    page.select_option("#example", label=name)
    page.wait_for_function("document.body.dataset.checked === 'ok'")
    return page.input_value("#source")


def _run(page) -> None:
    page.evaluate("document.body.dataset.status = ''")
    page.click("#run")
    page.wait_for_function("document.body.dataset.status !== ''")


@pytest.mark.slow
def test_opens_from_disk_and_requests_only_its_own_files(browser, built):
    """file://: Chromium forbids fetch there; the page loads its files as scripts and serves Pyodide from memory."""
    p = _open(browser, (built / "index.html").as_uri(), built.as_uri())
    try:
        assert p.outside == [] and p.errors == []
        assert "riftsim" in p.inner_text("#status") and p.locator("#example option").count() == len(bundled.paths()) + 1
        print(f"first load from disk: {p.evaluate('document.body.dataset.loadMs')} ms to ready")
    finally:
        p.context.close()


@pytest.mark.slow
def test_pick_an_example_run_it_and_read_the_trace(page):
    """seed 002 runs to PASS in the page: every expectation held, the trace riftsim's own (same lines, same
    rules), each rule id linked to its title."""
    text = _pick(page, SEED2)
    assert text == bundled.find(SEED2).read_text()
    _run(page)
    assert page.get_attribute("#summary .badge", "data-status") == "pass"
    want = json.loads(playground.run(text, "en"))
    assert page.inner_text("#summary .badge") == "PASS" and page.inner_text("#summary b") == want["name"]
    assert "null" not in page.inner_text("#summary") and page.locator("#summary div.fail").count() == 0
    assert page.locator("#expectations li[data-verdict=held]").count() == len(want["expectations"]) > 0
    assert page.evaluate(TRACE) == [[str(x["step"]), x["text"], x["rules"]] for x in want["lines"]]
    link = page.locator("#trace a.rule[data-rule='144']").first
    assert link.get_attribute("title") == want["titles"]["144"]
    link.click()
    assert page.locator("#rules dt.now").inner_text() == "144"
    assert page.inner_text("#rules dt.now + dd") == want["titles"]["144"].split(": ", 1)[1]
    assert page.outside == [] and page.errors == []


@pytest.mark.slow
def test_step_through_the_viewer_and_play_two_actions_from_its_step(page):
    """The viewer of `simulate --html` in the page (its diagrams highlight the current states); from its step 3,
    two actions by button, undo, save: the position each time is riftsim's (status line, legal actions)."""
    text = _pick(page, SEED2)
    _run(page)
    frame = page.frame_locator("#viewer")
    frame.locator("body[data-step='0']").wait_for()
    assert frame.locator("figure.machine").count() > 0 and frame.locator("g.node.current").count() > 0
    for _ in range(3):
        frame.locator("#next").click()
    frame.locator("body[data-step='3']").wait_for()
    page.click("#play-viewer")
    page.wait_for_selector("#play-board:not([hidden])")
    want = json.loads(playground.play(text, 3, "en"))
    for _ in range(2):
        assert page.inner_text("#play-status") == want["status"]
        options = [o["label"] for p in want["legal"].values() for o in p]
        assert page.locator("#play-legal button").all_inner_texts() == options
        label = next((x for x in options if x.endswith(" pass")), None) or \
            next(x for x in options if not x.endswith(" concede"))    # whoever may pass, else another action
        page.click(f"#play-legal button[data-action='{label}']")
        want = json.loads(playground.act(options.index(label)))
        assert page.inner_text("#play-status") == want["status"]
        assert page.locator("#play-trace li").count() == len(want["trace"])
    assert page.evaluate("document.body.dataset.actions") == "2"
    page.click("#undo")
    want = json.loads(playground.undo())
    assert page.inner_text("#play-status") == want["status"] and page.evaluate("document.body.dataset.actions") == "1"
    page.click("#save")
    saved = page.input_value("#saved")
    assert saved == playground.save() and run(loads(saved, "saved.yaml")).status == "pass"
    assert page.outside == [] and page.errors == []


@pytest.mark.slow
def test_a_broken_file_shows_riftsim_s_own_error(page):
    text = _pick(page, SEED2).replace("players: [A, B]", "players: A")
    page.fill("#source", text)
    page.wait_for_function("document.body.dataset.checked === 'bad'")
    want = json.loads(playground.check(text))["error"]
    assert want.startswith("scenario.yaml:") and page.inner_text("#check") == want
    _run(page)
    assert page.evaluate("document.body.dataset.status") == "invalid" and want in page.inner_text("#summary")


@pytest.mark.slow
def test_a_failed_expectation_is_marked_where_it_failed(page):
    """Step 2 of seed 002 expects focus B where A, who made North Contested, holds it (345): FAIL with riftsim's
    message; that expectation failed, the later ones not reached."""
    text = _pick(page, SEED2).replace("active: {kind: showdown, at: North}, focus: A}",
                                      "active: {kind: showdown, at: North}, focus: B}")
    page.fill("#source", text)
    page.wait_for_function("document.body.dataset.checked === 'ok'")
    _run(page)
    want = json.loads(playground.run(text, "en"))
    assert want["status"] == "fail" and "expected focus B, got A" in want["message"]
    assert page.get_attribute("#summary .badge", "data-status") == "fail"
    assert page.inner_text("#summary div.fail") == want["message"]
    verdicts = page.locator("#expectations li").evaluate_all("(xs) => xs.map((x) => x.dataset.verdict)")
    assert verdicts == [x["verdict"] for x in want["expectations"]] == ["failed"] + ["not_reached"] * (len(verdicts) - 1)


@pytest.mark.slow
def test_share_link_round_trip(browser, page, served):
    """The link carries the scenario: opened in another page, the same text, run at once."""
    text = _pick(page, "seed000-showdown-on-an-empty-battlefield") + "# shared by a judge\n"
    page.fill("#source", text)
    page.click("#share")
    link = page.input_value("#share-link")
    assert link.startswith(served + "#lang=en&s=")
    other = _open(browser, link, served)
    try:
        assert other.input_value("#source") == text
        other.wait_for_function("document.body.dataset.status === 'pass'")
        assert other.outside == [] and other.errors == []
    finally:
        other.context.close()


@pytest.mark.slow
def test_french(page):
    """The page's words, the trace's narration, the status line and the viewer in French (« Lancer »)."""
    text = _pick(page, SEED2)
    page.select_option("#lang", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert page.inner_text("#run") == site.words("fr")["run"] == "Lancer"
    _run(page)
    want = json.loads(playground.run(text, "fr"))
    assert page.evaluate(TRACE) == [[str(x["step"]), x["text"], x["rules"]] for x in want["lines"]]
    assert want["lines"][0]["text"] != json.loads(playground.run(text, "en"))["lines"][0]["text"]
    assert page.frame_locator("#viewer").locator("html[lang='fr']").count() == 1
    assert page.inner_text("#summary .badge") == site.words("fr")["pass"]
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
