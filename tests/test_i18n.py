"""French narration (issue 17): gettext catalogues over the trace templates, where they are declared.

Every template of the trace (``say=`` of a declared transition, the template given to ``log()``, the
``N_()``/``_()`` texts) has a French entry; every event of every bundled scenario is narrated from one;
the compiled catalogue is the .po's; translations keep the template's fields; the rules cited do not
change; English output is the events' own text (the golden traces pin it).
"""
from __future__ import annotations

import json
import re
import shutil
import string
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from simulator.cli.main import main
from simulator.core import i18n
from simulator.scenario.loader import load, run, trace_line

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "simulator" / "locale" / "fr" / "LC_MESSAGES" / "riftsim.po"
MO = PO.with_suffix(".mo")
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
HOW = """
How to add the French entry (the msgid is the English template, exactly as written in the code):
  1. pybabel extract -F babel.cfg --add-location=file --sort-output -w 100 -o simulator/locale/riftsim.pot .
  2. pybabel update -i simulator/locale/riftsim.pot -d simulator/locale -D riftsim -w 100 --no-fuzzy-matching --ignore-obsolete
  3. in simulator/locale/fr/LC_MESSAGES/riftsim.po, fill the empty msgstr of each sentence below (keep every
     {field}; vocabulary: confrontation, focalisation, priorité, chaîne, Contesté... see simulator/locale/README.md)
  4. pybabel compile -d simulator/locale -D riftsim      (commit both riftsim.po and riftsim.mo)
"""


def catalogue():
    with open(PO, "rb") as f:
        return read_po(f, locale="fr")


def snippet(missing) -> str:
    """The entries to fill, as they look in the .po (one example of where each comes from)."""
    seen: dict = {}
    for ctx, msg, where in missing:
        seen.setdefault((ctx, msg), where)
    return "\n".join(f"#. {where}\n" + (f'msgctxt "{ctx}"\n' if ctx else "")
                     + f'msgid {json.dumps(msg, ensure_ascii=False)}\nmsgstr ""\n' for (ctx, msg), where in seen.items())


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def declared():
    """(context, msgid, where) of every template in the sources, and the log() calls that have none."""
    out, problems = [], []
    for path in i18n.source_files(ROOT):
        messages, bad = i18n.scan(path.read_text(encoding="utf-8"), str(path))
        rel = path.relative_to(ROOT)
        out += [(ctx, msg, f"{rel}:{line}") for line, ctx, msg in messages]
        problems += [f"{rel}:{line}: {why}" for line, why in bad]
    return out, problems


def test_no_trace_line_is_written_from_a_preformatted_text():
    _, problems = declared()
    assert not problems, ("\n".join(problems) + "\nwrite the template with named fields instead, e.g.\n"
                          '  log(g, "{unit} is stunned: it deals no combat damage this turn", "423.1", '
                          "item.controller, unit=u.id)\n(a template picked by the code goes through N_(...) "
                          "from simulator.core.log)" + HOW)


def test_every_trace_sentence_has_a_french_entry():
    cat = catalogue()
    missing = []
    for ctx, msg, where in declared()[0]:
        m = cat.get(msg, context=ctx)
        if m is None or not m.string or m.fuzzy:
            missing.append((ctx, msg, where))
    assert not missing, (f"{len(missing)} trace sentence(s) with no French entry:\n" + snippet(missing) + "\n" + HOW)


def test_every_event_of_every_bundled_scenario_is_narrated_in_french():
    """The dynamic check: an event written from a text the extractor cannot see is caught here."""
    missing = {}
    for path in SCENARIOS:
        for e in run(load(str(path))).events:
            if not e.template or not i18n.has("fr", e.template):
                missing.setdefault((None, e.template or e.event), f"{path.name}, step {e.step}: {e.event!r}")
    assert not missing, (f"{len(missing)} event text(s) with no French entry (an event without a template was "
                         "written from a preformatted text: give log() a template):\n"
                         + snippet([(c, m, w) for (c, m), w in missing.items()]) + "\n" + HOW)


def test_translations_keep_the_fields_of_their_template():
    bad = [f"{m.id!r} -> {m.string!r}" for m in catalogue() if m.id and m.string
           and fields(m.string) != fields(m.id) and not (m.context or "").startswith("value")]
    assert not bad, "a translation must use exactly the fields of its msgid:\n" + "\n".join(bad)


def test_the_compiled_catalogue_is_the_po():
    """riftsim.mo is committed (an installed riftsim needs no Babel); it must be compiled from riftsim.po."""
    import gettext
    with open(MO, "rb") as f:
        mo = gettext.GNUTranslations(f)
    po = {(m.context, m.id): m.string for m in catalogue() if m.id and m.string and not m.fuzzy}
    compiled = {tuple(k.split("\x04")) if "\x04" in k else (None, k): v for k, v in mo._catalog.items() if k}
    assert compiled == po, "riftsim.mo is stale: run `pybabel compile -d simulator/locale -D riftsim` and commit it"


def test_the_french_trace_of_seed_002_uses_the_seed_vocabulary_and_cites_the_same_rules():
    res = run(load(str(ROOT / "scenarios" / "seed002-showdown-becomes-a-combat.yaml")))
    fr = [trace_line(e, "fr") for e in res.events]
    en = [trace_line(e) for e in res.events]
    assert [re.findall(r"\[[^\]]*\]$", x) for x in fr] == [re.findall(r"\[[^\]]*\]$", x) for x in en]
    text = "\n".join(fr)
    for word in ("confrontation", "focalisation", "priorité", "chaîne", "Contesté", "combat", "conquiert"):
        assert word in text, word
    assert "1  North devient Contesté (appliqué par A)  [190.3.a.1, 450]" in fr
    assert "1  une confrontation sans combat commence à North  [323.12, 344.2]" in fr
    assert "3  la focalisation passe à B  [347.2.b, R2]" in fr
    assert "9  la confrontation à North devient une confrontation de combat  [323.14, 464.1, 316.8.b.1.a]" in fr
    assert "13  B conquiert North et marque 1 point (total 1)  [469.1, 470]" in fr
    assert not [x for x in fr if re.search(r"\b(passes|goes|becomes|the chain)\b", x)], "English left in the French trace"


def test_value_words_and_their_forms():
    """A value that is a word is translated; a form asked by the translation wraps any value."""
    from simulator.core.model import Event
    e = lambda at: Event(1, "", "A", template="{unit} enters play at {at}", values=(("unit", "u#1"), ("at", at)))  # noqa: E731
    assert i18n.narrate(e("base"), "fr") == "u#1 entre en jeu dans sa base"
    assert i18n.narrate(e("North"), "fr") == "u#1 entre en jeu à North"
    k = Event(1, "", "A", template="{player} must choose where to open a {kind}: {choices}",
              values=(("player", "A"), ("kind", "showdown"), ("choices", "North, South")))
    assert i18n.narrate(k, "fr") == "A doit choisir où ouvrir une confrontation : North, South"


def test_simulate_lang_fr(capsys):
    path = str(ROOT / "scenarios" / "seed000-showdown-on-an-empty-battlefield.yaml")
    assert main(["simulate", path, "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "2  A déplace a1 vers North  [144]" in out and "-- RÉUSSI :" in out
    assert main(["simulate", path, "--lang", "fr", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["events"][0]["event"] == "A déplace a1 vers North" and doc["events"][0]["rule"] == "144"
    assert main(["simulate", path]) == 0
    assert "2  A moves a1 to North  [144]" in capsys.readouterr().out


def test_a_third_language_is_only_a_catalogue(tmp_path, monkeypatch):
    """Copy the French catalogue as 'xx', change one entry, compile it: riftsim narrates in xx."""
    cat = catalogue()
    cat.locale = None
    cat.get("{player} passes focus").string = "{player} XX-passe"
    d = tmp_path / "xx" / "LC_MESSAGES"
    d.mkdir(parents=True)
    with open(d / "riftsim.mo", "wb") as f:
        write_mo(f, cat)
    shutil.copytree(ROOT / "simulator" / "locale" / "fr", tmp_path / "fr")
    monkeypatch.setattr(i18n, "LOCALEDIR", tmp_path)
    i18n.catalogue.cache_clear()
    try:
        assert i18n.languages() == ("en", "fr", "xx")
        res = run(load(str(ROOT / "scenarios" / "seed000-showdown-on-an-empty-battlefield.yaml")))
        assert "5  A XX-passe  [347.2]" in [trace_line(e, "xx") for e in res.events]
    finally:
        i18n.catalogue.cache_clear()


def test_every_machine_title_and_state_description_the_diagrams_draw_is_catalogued():
    """The dynamic check of the diagrams' words: every machine and region title and every state description
    of ``statecharts.MACHINES`` is extracted (context ``statechart``) and drawn in French by the translation
    hook of the diagrams (e.g. turn.window's Closed: "a chain exists; only Reaction (309.1.a)"); English is
    the declaration's own text, and a state name or an identifier is not looked up."""
    import statecharts
    texts = set()
    for m in statecharts.MACHINES:
        texts.add(m.title)
        for leaf in m.leaves():
            texts |= {leaf.title, *leaf.state_docs.values()}
    extracted = {msg for ctx, msg, _ in declared()[0] if ctx == i18n.STATECHART}
    assert texts - extracted == set()
    fr, en = i18n.diagram_words("fr"), i18n.diagram_words("en")
    untranslated = sorted(t for t in texts if fr(t) == t)
    assert untranslated == [], untranslated
    assert fr("a chain exists; only Reaction (309.1.a)") == "une chaîne existe ; Reaction seulement (309.1.a)"
    assert all(en(t) == t for t in texts)
    assert fr("Closed") == "Closed" and fr("close_state") == "close_state"
