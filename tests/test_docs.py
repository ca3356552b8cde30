"""The docs cite the generated diagrams and the scenario files that demonstrate each rule area.

A page that cites a diagram that does not exist fails; a diagram that no page cites fails; a link
to a scenario or another page that does not exist fails. Every rule area has its page.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import statecharts
from simulator.cli import diagrams as render

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
DIAGRAMS = ROOT / "diagrams"
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
AREAS = ("turn-states", "chain-and-priority", "focus-and-showdowns", "cleanup", "combat",
         "multiplayer-and-teams", "conceding", "index")
OWN_PAGES = [DOCS / f"{a}.md" for a in AREAS]


def pages() -> list[Path]:
    """Every docs page, plus the README (which embeds the overview)."""
    return sorted(DOCS.glob("*.md")) + [ROOT / "README.md"]


def links(page: Path) -> list[tuple[str, Path]]:
    """(link text as written, resolved path) for every relative link in a page."""
    out = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if "://" in target:
            continue
        out.append((target, (page.parent / target).resolve()))
    return out


def cited_diagrams() -> dict[Path, list[Path]]:
    cited: dict[Path, list[Path]] = {}
    for page in pages():
        for _, path in links(page):
            if path.parent == DIAGRAMS.resolve():
                cited.setdefault(path, []).append(page)
    return cited


def test_every_rule_area_has_a_page():
    for page in OWN_PAGES:
        assert page.is_file(), f"missing docs page {page.relative_to(ROOT)}"


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_every_link_in_a_page_points_at_a_file_that_exists(page):
    """Diagrams, scenarios and other pages that a page cites must exist."""
    for target, path in links(page):
        assert path.exists(), f"{page.relative_to(ROOT)} cites {target}, which does not exist"


def test_every_diagram_is_cited_by_a_page():
    cited = cited_diagrams()
    for svg in sorted(DIAGRAMS.glob("*.svg")):
        assert svg.resolve() in cited, f"diagrams/{svg.name} is cited by no page"


def test_every_generated_diagram_is_committed_and_embedded():
    """What ``riftsim diagrams`` produces (machines, overview, example traces) is embedded as an image."""
    cited = cited_diagrams()
    images = {(page.parent / t).resolve() for page in pages()
              for t in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", page.read_text(encoding="utf-8"))}
    for stem in render.all_graphs():
        svg = (DIAGRAMS / f"{stem}.svg").resolve()
        assert svg in cited and svg in images, f"diagrams/{stem}.svg is not embedded in any page"
    assert (DIAGRAMS / "overview.svg").resolve() in {
        (ROOT / t).resolve() for t in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", (ROOT / "README.md").read_text())
    }, "the README does not embed the overview"


@pytest.mark.parametrize("page", OWN_PAGES, ids=lambda p: p.name)
def test_each_area_page_embeds_a_diagram_and_links_scenarios(page):
    text = page.read_text(encoding="utf-8")
    assert re.search(r"!\[[^\]]*\]\(\.\./diagrams/[^)]+\.svg\)", text), f"{page.name} embeds no diagram"
    if page.name != "index.md":
        assert re.search(r"\]\(\.\./scenarios/[^)]+\.yaml\)", text), f"{page.name} links no scenario"


@pytest.mark.parametrize("machine", statecharts.MACHINES, ids=lambda m: m.name)
def test_each_machine_page_cites_the_machines_own_rules(machine):
    """The page embedding a machine's diagram names at least one of the rules the machine declares."""
    svg = (DIAGRAMS / f"{machine.name}.svg").resolve()
    citing = cited_diagrams().get(svg, [])
    assert citing, f"{machine.name}.svg is cited by no page"
    rules = set(machine.all_rules())
    for page in citing:
        if page.name in ("index.md", "README.md"):
            continue
        text = page.read_text(encoding="utf-8")
        assert any(re.search(rf"(?<![\d.]){re.escape(r)}(?![\d])", text) for r in rules), \
            f"{page.name} embeds {machine.name}.svg but cites none of its rules"
