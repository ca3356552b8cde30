"""The trace viewer: one self-contained HTML page that steps through recorded scenarios.

``riftsim simulate FILE... --html OUT.html`` and ``riftsim compare FILE --ruling ... --html OUT.html``
write it. The page loads nothing (no network, no other file): its data is one JSON block, the
statechart diagrams are inline SVG rendered from the declarations (``diagrams.inline_svgs``), and a small
script draws each step: the board, the chain, focus and priority, scores, the step's trace lines with
their rules (a rule's title on hover), and every machine with its current state highlighted and the
transitions the step fired marked. Several scenarios give a picker; two readings of one scenario
(``compare``) are drawn side by side with the first difference marked.

Every sentence the page narrates comes from the trace events (their text and rules), so a translated
trace gives a translated page; the few words of the page itself are :data:`CHROME`, in one table.
"""
from __future__ import annotations

import html
import re
import json
from pathlib import Path

import statecharts

from simulator.cli.atomic import write_atomic
from simulator.cli.titles import titles
from simulator.core.i18n import gettext_for, rule_title
from simulator.core.log import N_
from simulator.core.text import shown

#: the page's own words (buttons, headings): everything else on the page comes from the trace
CHROME = {
    "title": N_("riftsim trace viewer"),
    "scenario": N_("Scenario"),
    "first": N_("First step"),
    "prev": N_("Previous step"),
    "next": N_("Next step"),
    "last": N_("Last step"),
    "keys": N_("keys: \u2190 \u2192 step, Shift+\u2190 \u2192 event, Space play, Home / End"),
    "prev_event": N_("Previous event"),
    "next_event": N_("Next event"),
    "play": N_("Play"),
    "pause": N_("Pause"),
    "event": N_("event"),
    "events": N_("Events of this step, one by one"),
    "events_hint": N_("each transition the step fired, in order, named by its rules; hover for the guard and effect identifiers"),
    "filter": N_("Filter by rule"),
    "filter_hint": N_("a rule id, e.g. 466 (also 466.2, 466.3.a...)"),
    "lines_cite": N_("lines cite"),
    "changed": N_("changed since the previous step"),
    "whole_step": N_("players, chain and board: as the whole step leaves them"),
    "damage": N_("damage"),
    "stunned": N_("stunned"),
    "exhausted": N_("exhausted"),
    "attacker": N_("attacker"),
    "defender": N_("defender"),
    "trash": N_("trash"),
    "removed": N_("removed from the game"),
    "guards": N_("guards"),
    "effects": N_("effects"),
    "step": N_("step"),
    "of": N_("of"),
    "start": N_("starting position"),
    "board": N_("Board"),
    "chain": N_("Chain"),
    "chain_empty": N_("no chain"),
    "pending": N_("pending"),
    "finalized": N_("finalized"),
    "status": N_("Players"),
    "turn": N_("turn"),
    "phase": N_("phase"),
    "state": N_("state"),
    "focus": N_("focus"),
    "priority": N_("priority"),
    "decision": N_("decision"),
    "score": N_("score"),
    "winner": N_("winner"),
    "nobody": N_("nobody"),
    "base": N_("base"),
    "gone": N_("out of play"),
    "zones": N_("Zones"),
    "hand": N_("hand"),
    "deck": N_("Main Deck"),
    "banished": N_("banished"),
    "cards": N_("cards"),
    "no_units": N_("no units"),
    "controller": N_("controlled by"),
    "uncontrolled": N_("uncontrolled"),
    "contested": N_("Contested"),          # a word shown on the page, not a state
    "staged": N_("staged"),
    "active": N_("active"),
    "trace": N_("This step"),
    "whole_trace": N_("Whole trace"),
    "diagrams": N_("Statecharts"),
    "diagrams_hint": N_("current state of every machine highlighted; the transitions this step fired in blue (click a diagram to enlarge)"),
    "diagrams_ids": N_("state names and edge labels are the declared identifiers, kept as written: "
                       "trigger [guards] (rules) / effects => sends"),
    "silent": N_("silent transitions"),
    "expect": N_("expect"),
    "held": N_("held"),
    "failed": N_("FAILED"),
    "no_events": N_("no trace line at this step"),
    "legal": N_("legal actions (moves one unit at a time)"),
    "pass": N_("PASS"),
    "fail": N_("FAIL"),
    "reading": N_("reading"),
    "diverge": N_("first difference"),
    "same": N_("both readings give the same trace"),
    "stopped": N_("this reading stopped earlier"),
    "highlight": N_("diagrams show"),
}


def machines_data() -> list[dict]:
    return [{"name": m.name, "title": m.title, "per": m.per, "leaves": [leaf.name for leaf in m.leaves()]}
            for m in statecharts.MACHINES]


def scenario_data(rec, label: str = "") -> dict:
    """One recorded reading as page data (:meth:`Recorded.as_dict`, with a label)."""
    d = rec.as_dict()
    d["label"] = label
    return d


def chrome(lang: str = "en") -> dict[str, str]:
    """:data:`CHROME` in ``lang`` (the catalogue's entries; English where it has none).

    >>> chrome("fr")["next"], chrome("en")["next"]
    ('Étape suivante', 'Next step')
    """
    _ = gettext_for(lang)
    return {k: _(v) for k, v in CHROME.items()}


def page_data(scenarios: list[dict], lang: str = "en") -> dict:
    """``scenarios``: [{"name", "file", "readings": [reading data...], "diverge": {...} | None}]; the page's
    own words in ``lang`` (the trace's sentences are already narrated in it)."""
    rules = set()
    for sc in scenarios:
        for r in sc["readings"]:
            for s in r["steps"]:
                for e in s["events"]:
                    rules.add(e["rule"])
                for f in s["fired"]:
                    rules.update(f["rules"])
            rules.update(r["rulings"])
    named = {r: rule_title(t, lang) for r, t in titles(sorted(rules)).items()}
    return {"ui": chrome(lang), "lang": lang, "titles": named, "machines": machines_data(), "scenarios": scenarios}


def page(scenarios: list[dict], svgs: dict[str, str], title: str | None = None, lang: str = "en") -> str:
    """The whole HTML page for ``scenarios`` (see :func:`page_data`); ``svgs``: machine name -> inline SVG
    of its diagram (``simulator.cli.diagrams.inline_svgs``)."""
    data = json.dumps(page_data(scenarios, lang), ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c")       # no markup at all inside the data block (JSON reads it back)
    templates = "\n".join(f'<template id="svg-{html.escape(name)}">{svg}</template>'
                          for name, svg in svgs.items())
    parts = {"TITLE": html.escape(shown(title or chrome(lang)["title"])), "LANG": html.escape(lang), "CSS": CSS,
             "JS": JS, "SVGS": templates, "DATA": data}
    # one pass over the page: a value is never read again, so a name holding "%SVGS%" stays that text
    return PLACEHOLDER.sub(lambda m: parts[m.group(1)], PAGE)


#: the page's placeholders, filled in one pass by :func:`page`
PLACEHOLDER = re.compile(r"%(TITLE|LANG|CSS|JS|SVGS|DATA)%")


def write_page(path: str | Path, scenarios: list[dict], svgs: dict[str, str], title: str | None = None,
               lang: str = "en") -> Path:
    """Write :func:`page` to ``path`` atomically (OSError on failure)."""
    return write_atomic(path, page(scenarios, svgs, title, lang).encode("utf-8"))


PAGE = """<!DOCTYPE html>
<html lang="%LANG%">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>%TITLE%</title>
<style>%CSS%</style>
</head>
<body>
<header>
  <h1 id="title"></h1>
  <label id="picker-wrap"><span id="picker-label"></span> <select id="picker"></select></label>
  <div id="scenario-info"></div>
</header>
<nav id="controls">
  <button id="first" type="button">\u00ab</button>
  <button id="prev" type="button">\u25c0</button>
  <input id="slider" type="range" min="0" max="0" value="0">
  <button id="next" type="button">\u25b6</button>
  <button id="last" type="button">\u00bb</button>
  <button id="prev-event" type="button">\u2039</button>
  <button id="next-event" type="button">\u203a</button>
  <button id="play" type="button"></button>
  <span id="position"></span>
  <span id="sub"></span>
  <span id="keys"></span>
</nav>
<div id="diverge"></div>
<p id="legend"><span class="changed">&#8203;</span> <span id="legend-text"></span></p>
<main id="panes"></main>
<section id="diagrams-section">
  <h2 id="diagrams-title"></h2>
  <p id="diagrams-hint"></p>
  <p id="diagrams-legend"></p>
  <div id="reading-choice"></div>
  <div id="diagrams"></div>
</section>
<section id="whole-section"><h2 id="whole-title"></h2>
  <label id="filter-wrap"><span id="filter-label"></span> <input id="filter" type="search" size="14"> <span id="filter-count"></span></label>
  <ol id="whole"></ol></section>
%SVGS%
<script type="application/json" id="riftsim-data">%DATA%</script>
<script>%JS%</script>
</body>
</html>
"""

CSS = """
:root { --ink:#111827; --muted:#6b7280; --line:#e5e7eb; --accent:#c2410c; --blue:#1d4ed8; --bad:#b91c1c; --ok:#15803d; }
* { box-sizing: border-box; }
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--ink); margin: 0; padding: 12px 16px; background: #fafafa; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 20px; }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 14px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
#scenario-info { flex-basis: 100%; color: var(--muted); }
#scenario-info b { color: var(--ink); }
.badge { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; }
.badge.pass { color: var(--ok); } .badge.fail { color: var(--bad); } .badge.pending { color: #a16207; }
nav#controls { position: sticky; top: 0; z-index: 2; background: #fafafa; display: flex; align-items: center; gap: 8px; padding: 8px 0; border-bottom: 1px solid var(--line); }
nav button { font-size: 16px; min-width: 36px; padding: 2px 8px; cursor: pointer; }
#slider { flex: 1; max-width: 520px; }
#position { font-weight: 600; } #keys { color: var(--muted); font-size: 12px; }
#diverge { margin: 8px 0; }
#diverge .note { background: #eff6ff; border: 1px solid #bfdbfe; padding: 6px 10px; border-radius: 6px; }
#panes { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 16px; margin-top: 8px; }
.pane { background: white; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.pane h3 { margin: 0 0 8px; font-size: 15px; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
.box { border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; margin-bottom: 10px; }
.kv { display: grid; grid-template-columns: auto 1fr; gap: 1px 10px; }
.kv dt { color: var(--muted); } .kv dd { margin: 0; font-weight: 600; }
.bfs { display: flex; flex-wrap: wrap; gap: 8px; }
.bf { border: 2px solid #d1d5db; border-radius: 8px; padding: 4px 8px; min-width: 150px; flex: 1; }
.bf.contested { border-color: #f59e0b; } .bf.active { border-color: var(--accent); box-shadow: 0 0 0 2px #fed7aa; }
.bf .name { font-weight: 700; } .bf .meta { font-size: 12px; color: var(--muted); }
.tag { display: inline-block; font-size: 11px; padding: 0 5px; border-radius: 3px; margin-right: 3px; background: #f3f4f6; }
.tag.contested { background: #fef3c7; } .tag.staged { background: #e0e7ff; } .tag.active { background: #ffedd5; }
.unit { display: inline-block; border: 1px solid #9ca3af; border-radius: 4px; padding: 0 4px; margin: 2px 3px 0 0; font-size: 12px; background: #f9fafb; }
.unit .m { font-weight: 700; } .unit.attacker { border-color: var(--bad); } .unit.defender { border-color: var(--blue); }
.unit.dead { text-decoration: line-through; color: var(--muted); }
ol.chain { list-style: none; margin: 0; padding: 0; }
ol.chain li { border: 1px solid #d1d5db; border-radius: 4px; padding: 2px 6px; margin-bottom: 3px; background: #fffbeb; }
ol.chain li.pending { background: white; border-style: dashed; }
.muted { color: var(--muted); }
ul.events { margin: 0; padding-left: 18px; } ul.events li { margin: 2px 0; }
.rule { font-size: 11px; color: var(--blue); border-bottom: 1px dotted var(--blue); cursor: help; margin-left: 4px; white-space: nowrap; }
.failure { color: white; background: var(--bad); padding: 4px 8px; border-radius: 4px; margin: 4px 0; font-weight: 600; }
.expect li.ok::marker { color: var(--ok); } .expect li.bad { color: var(--bad); font-weight: 600; }
.silent { font-size: 12px; color: var(--muted); margin-top: 4px; }
.legal { font-size: 12px; color: var(--muted); }
li.differs { background: #dbeafe; }
.diff { outline: 2px solid #60a5fa; outline-offset: 2px; }
#diagrams-section, #whole-section { margin-top: 16px; background: white; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
#diagrams-hint, #diagrams-legend { margin: 0 0 8px; color: var(--muted); font-size: 12px; }
#diagrams { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 10px; align-items: start; }
figure.machine { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 4px; cursor: zoom-in; background: white; }
figure.machine.big { grid-column: 1 / -1; cursor: zoom-out; }
figure.machine figcaption { font-size: 12px; font-weight: 600; }
figure.machine figcaption .st { color: var(--accent); }
figure.machine svg { width: 100%; height: auto; max-height: 520px; display: block; }
figure.machine.big svg { max-height: none; }
g.node.current path, g.node.current polygon, g.node.current ellipse { fill: #fdba74 !important; stroke: #9a3412 !important; stroke-width: 4px; }
g.node.current text { font-weight: 700; }
g.edge.fired path { stroke: var(--blue) !important; stroke-width: 4px; }
g.edge.fired polygon { stroke: var(--blue) !important; fill: var(--blue) !important; }
g.edge.fired text { fill: var(--blue) !important; font-weight: 700; }
#whole { font-size: 12px; max-height: 320px; overflow: auto; margin: 0; padding-left: 28px; }
#whole li { cursor: pointer; } #whole li.now { background: #ffedd5; } #whole li.after { color: var(--muted); }
#whole li.failed { color: var(--bad); font-weight: 600; }
nav#controls { flex-wrap: wrap; } #position, #sub, #play { white-space: nowrap; }
#sub { color: var(--muted); } #play { min-width: 80px; } #play.on { background: #fed7aa; }
.changed { background: #fef08a; box-shadow: 0 0 0 2px #facc15; border-radius: 3px; }
#legend { margin: 4px 0 0; font-size: 12px; color: var(--muted); } #legend .changed { display: inline-block; width: 14px; }
ol.fired { font-size: 12px; margin: 4px 0 0; padding-left: 24px; max-height: 240px; overflow: auto; }
ol.fired li { cursor: pointer; } ol.fired li.now { background: #dbeafe; font-weight: 600; } ol.fired li.after, ul.events li.after { color: #9ca3af; }
ol.fired .ids { color: var(--muted); font-family: ui-monospace, monospace; font-size: 11px; }
.box.trace h4 { margin: 8px 0 0; font-size: 12px; color: var(--muted); font-weight: 600; }
g.edge.now path { stroke: #f59e0b !important; stroke-width: 6px; } g.edge.now polygon { stroke: #f59e0b !important; fill: #f59e0b !important; }
#filter-wrap { display: block; margin: 0 0 6px; font-size: 12px; } #filter-count { color: var(--muted); }
"""

JS = r"""
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("riftsim-data").textContent);
  const UI = DATA.ui, TITLES = DATA.titles;
  const $ = (id) => document.getElementById(id);
  let sc = null, index = 0, shown = 0;           // scenario, step index, reading whose states the diagrams show
  let sub = -1, timer = null;                      // events of the step shown (-1: all of them), the autoplay
  const NO = {translate: "no"};                     // names, state names, scenario syntax: written as they are

  function words(tag, attrs, text) { return el(tag, Object.assign({translate: "no", text: text}, attrs || {})); }
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  function rules(text) {
    const out = document.createDocumentFragment();
    if (!text) return out;
    for (const r of text.split(",").map((x) => x.trim()).filter(Boolean))
      out.append(el("span", {class: "rule", title: TITLES[r] || r, "data-rule": r, text: r}));
    return out;
  }
  function steps(reading) { return reading.steps; }
  function count() { return Math.max(...sc.readings.map((r) => r.steps.length)); }
  function stepOf(reading, i) { return reading.steps[Math.min(i, reading.steps.length - 1)]; }
  function firedCount() { return stepOf(sc.readings[shown], index).fired.length; }
  function upTo() { const f = firedCount(); return sub < 0 || sub > f ? f : sub; }   // events of the step shown
  function ruleTitles(rs) {                        // "ID: title; ...": the id (and a ruling's name) as written
    const out = document.createDocumentFragment();
    rs.forEach((r, i) => {
      const t = TITLES[r] || r, cut = t.indexOf(": ");
      if (i) out.append("; ");
      if (cut < 0) out.append(words("span", {}, t)); else out.append(words("span", {}, t.slice(0, cut + 2)), t.slice(cut + 2));
    });
    return out;
  }

  // -- chrome ---------------------------------------------------------------------------------
  $("title").textContent = UI.title;
  document.title = UI.title;
  $("picker-label").textContent = UI.scenario;
  for (const [id, key] of [["first", "first"], ["prev", "prev"], ["next", "next"], ["last", "last"],
                           ["prev-event", "prev_event"], ["next-event", "next_event"]]) {
    $(id).title = UI[key]; $(id).setAttribute("aria-label", UI[key]);
  }
  $("keys").textContent = UI.keys;
  $("diagrams-title").textContent = UI.diagrams;
  $("diagrams-hint").textContent = UI.diagrams_hint;
  $("diagrams-legend").textContent = UI.diagrams_ids;
  $("whole-title").textContent = UI.whole_trace;
  $("filter-label").textContent = UI.filter;
  $("filter").placeholder = UI.filter_hint; $("filter").title = UI.filter_hint;
  $("legend-text").textContent = UI.changed;
  DATA.scenarios.forEach((s, i) => $("picker").append(el("option", {value: i, text: s.name})));
  if (DATA.scenarios.length < 2) $("picker-wrap").hidden = true;

  // -- diagrams -------------------------------------------------------------------------------
  let figures = [];                                // {fig, machine, inst, nodes: Map, edges: Map}
  function buildDiagrams() {
    const box = $("diagrams");
    box.textContent = "";
    figures = [];
    const first = sc.readings[0].steps[0].state;
    for (const m of DATA.machines) {
      let insts = [null];
      if (m.per === "battlefield") insts = first.board.map((b) => b.name);
      if (m.per === "player") insts = sc.readings[0].players;
      for (const inst of insts) {
        const tpl = document.getElementById("svg-" + m.name);
        const svg = tpl.content.firstElementChild.cloneNode(true);
        const cap = el("figcaption", NO, m.name + (inst ? " [" + inst + "]" : "") + " ", el("span", {class: "st"}));
        const fig = el("figure", {class: "machine", "data-machine": m.name, "data-instance": inst || ""}, cap, svg);
        fig.addEventListener("click", () => fig.classList.toggle("big"));
        const nodes = new Map(), edges = new Map();
        svg.querySelectorAll("g.node").forEach((g) => { const t = g.querySelector("title"); if (t) nodes.set(t.textContent, g); });
        svg.querySelectorAll("g.edge").forEach((g) => {
          const t = g.querySelector("title"); if (!t) return;
          const k = t.textContent; if (!edges.has(k)) edges.set(k, []); edges.get(k).push(g);
        });
        svg.querySelectorAll("[id]").forEach((n) => n.removeAttribute("id"));
        box.append(fig);
        figures.push({fig, machine: m, inst, nodes, edges});
      }
    }
  }
  function drawDiagrams(step, before, k) {
    // after the first k events of the step: the states before it, each fired transition applied in turn
    const done = step.fired.slice(0, k);
    const ms = k === step.fired.length ? step.state.machines : Object.assign({}, before.state.machines);
    if (k !== step.fired.length) for (const t of done) ms[t.key] = t.dest;
    for (const f of figures) {
      f.nodes.forEach((g) => g.classList.remove("current"));
      f.edges.forEach((gs) => gs.forEach((g) => g.classList.remove("fired", "now")));
      const states = [];
      for (const leaf of f.machine.leaves) {
        const key = f.inst ? leaf + "[" + f.inst + "]" : leaf;
        const state = ms[key];
        if (state === undefined) continue;
        states.push(f.machine.leaves.length > 1 ? leaf.split(".").pop() + ": " + state : state);
        const g = f.nodes.get(leaf + "." + state);
        if (g) g.classList.add("current");
        done.forEach((t, j) => {
          if (t.key !== key) return;
          for (const e of f.edges.get(leaf + "." + t.source + "->" + leaf + "." + t.dest) || []) {
            e.classList.add("fired");
            if (j === k - 1 && k < step.fired.length) e.classList.add("now");
          }
        });
      }
      f.fig.querySelector("figcaption .st").textContent = states.join(", ");
      f.fig.dataset.current = states.join(", ");
    }
  }

  // -- panels ---------------------------------------------------------------------------------
  // -- what changed since the previous step: keys "field:NAME", "unit:ID", "bf:NAME", "item:NAME" -----
  function changes(st, prev) {
    const out = new Set();
    if (!prev) return out;
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    for (const k of ["turn", "phase", "turn_state", "focus", "priority", "decision", "score", "winner", "chain_state"])
      if (!same(st[k], prev[k])) out.add("field:" + k);
    const units = (s) => {
      const m = new Map();
      for (const b of s.board) for (const u of b.units) m.set(u.id, [b.name, u]);
      for (const [p, us] of Object.entries(s.bases)) for (const u of us) m.set(u.id, ["base " + p, u]);
      for (const u of s.gone) m.set(u.id, ["gone", u]);
      return m;
    };
    const was = units(prev);
    units(st).forEach((v, id) => { if (!same(v, was.get(id))) out.add("unit:" + id); });
    const bfs = new Map(prev.board.map((b) => [b.name, b]));
    for (const b of st.board) {
      const o = bfs.get(b.name);
      if (!o || !same([b.status, b.controller, b.contested, b.staged, b.active], [o.status, o.controller, o.contested, o.staged, o.active]))
        out.add("bf:" + b.name);
    }
    const items = new Map(prev.chain.map((it) => [it.name, it]));
    for (const it of st.chain) if (!same(it, items.get(it.name))) out.add("item:" + it.name);
    return out;
  }
  function mark(e, ch, key) { if (ch.has(key)) { e.classList.add("changed"); e.dataset.changed = ""; } return e; }
  function unitEl(u, ch) {
    const cls = "unit" + (u.designation ? " " + u.designation : "") + (u.zone !== "board" ? " dead" : "");
    const bits = [words("span", {}, u.controller)];
    if (u.damage) bits.push(UI.damage + " " + u.damage);
    if (u.stunned) bits.push(UI.stunned);
    if (u.exhausted) bits.push(UI.exhausted);
    if (u.designation) bits.push(UI[u.designation] || u.designation);
    if (u.zone !== "board") bits.push(UI[u.zone] || u.zone);
    const list = [];
    bits.forEach((b, i) => { if (i) list.push(", "); list.push(b); });
    return mark(el("span", {class: cls, "data-unit": u.id, title: u.kind + (u.card ? " " + u.card : "")},
      words("span", {}, u.id), " ", el("span", {class: "m", text: String(u.might)}), " (", ...list, ")"), ch, "unit:" + u.id);
  }
  function statusBox(st, ch) {
    const kv = el("dl", {class: "kv"});
    const add = (k, v, attr) => {
      kv.append(el("dt", {text: UI[k]}), mark(el("dd", {"data-field": attr || k, translate: "no", text: v}), ch, "field:" + (k === "state" ? "turn_state" : k)));
    };
    add("turn", st.turn); add("phase", st.phase); add("state", st.turn_state);
    add("focus", st.focus || UI.nobody); add("priority", st.priority || UI.nobody);
    const d = st.decision;
    add("decision", d ? d.kind + " " + d.player + (d.item ? " (" + d.item + ")" : "") : UI.nobody);
    add("score", Object.entries(st.score).map(([p, n]) => p + " " + n).join(", "));
    if (st.winner) add("winner", [].concat(st.winner).join(", "));
    return el("div", {class: "box status"}, el("h2", {text: UI.status}), kv);
  }
  function boardBox(st, ch) {
    const bfs = el("div", {class: "bfs"});
    for (const b of st.board) {
      const tags = el("div", {class: "meta"});
      tags.append(words("span", {class: "tag", "data-field": "status"}, b.status));
      if (b.contested) tags.append(el("span", {class: "tag contested", text: UI.contested}));
      for (const k of b.staged) tags.append(el("span", {class: "tag staged"}, UI.staged + " ", words("span", {}, k)));
      if (b.active && st.active) tags.append(el("span", {class: "tag active"}, UI.active + " ", words("span", {}, st.active.kind)));
      const units = el("div", {class: "units"});
      if (!b.units.length) units.append(el("span", {class: "muted", text: UI.no_units}));
      for (const u of b.units) units.append(unitEl(u, ch));
      bfs.append(mark(el("div", {class: "bf" + (b.contested ? " contested" : "") + (b.active ? " active" : ""), "data-bf": b.name},
        words("div", {class: "name"}, b.name),
        el("div", {class: "meta", "data-field": "controller", text: b.controller ? UI.controller + " " + b.controller : UI.uncontrolled}),
        tags, units), ch, "bf:" + b.name));
    }
    const bases = el("div", {class: "meta"});
    for (const [p, us] of Object.entries(st.bases)) {
      const line = el("div", {"data-base": p}, UI.base + " ", words("span", {}, p), ": ");
      if (!us.length) line.append(el("span", {class: "muted", text: "\u2014"}));
      for (const u of us) line.append(unitEl(u, ch));
      bases.append(line);
    }
    if (st.gone.length) {
      const line = el("div", {"data-gone": ""}, UI.gone + ": ");
      for (const u of st.gone) line.append(unitEl(u, ch));
      bases.append(line);
    }
    if (st.zones) bases.append(zonesEl(st.zones));
    return el("div", {class: "box board"}, el("h2", {text: UI.board}), bfs, bases);
  }
  function zonesEl(z) {                                // Z1: each player's hand, deck, trash and banishment
    const box = el("div", {"data-zones": ""}, el("b", {text: UI.zones}));
    for (const p of Object.keys(z.hand)) {
      const parts = [UI.hand + " [" + z.hand[p].join(", ") + "]"];
      if (z.deck[p]) parts.push(UI.deck + " " + z.deck[p].count + " " + UI.cards + (z.deck[p].top.length ? " [" + z.deck[p].top.join(", ") + ", \u2026]" : ""));
      parts.push(UI.trash + " [" + z.trash[p].join(", ") + "]");
      if (z.banished[p].length) parts.push(UI.banished + " [" + z.banished[p].join(", ") + "]");
      box.append(el("div", {"data-zone": p, translate: "no", text: p + ": " + parts.join(" \u00b7 ")}));
    }
    return box;
  }
  function chainBox(st, ch) {
    const box = el("div", {class: "box chain-box"}, el("h2", {}, UI.chain + " ",
      mark(words("span", {class: "tag", "data-field": "chain_state"}, st.chain_state), ch, "field:chain_state")));
    if (!st.chain.length) { box.append(el("div", {class: "muted", text: UI.chain_empty})); return box; }
    const ol = el("ol", {class: "chain"});
    for (const it of [...st.chain].reverse()) {        // newest first: it resolves first
      const targets = it.targets.map(([f, v]) => f + ": " + v).join(", ");
      ol.append(mark(el("li", {class: it.finalized ? "finalized" : "pending", "data-item": it.name},
        words("b", {}, it.name), " \u2014 ", words("span", {}, it.controller + " \u00b7 " + it.kind + (targets ? " \u00b7 " + targets : "")), " \u00b7 ",
        el("i", {text: it.finalized ? UI.finalized : UI.pending})), ch, "item:" + it.name));
    }
    box.append(ol);
    return box;
  }
  function traceBox(reading, step, stopped, k) {
    const box = el("div", {class: "box trace"});
    const head = step.n === 0 ? el("b", {text: UI.start}) : el("b", {}, UI.step + " " + step.n + ": ", words("span", {}, step.label));
    box.append(el("h2", {text: UI.trace}), el("div", {class: "step-label"}, head));
    const partial = k < step.fired.length;
    let seen = -1;                                   // the last trace line written by the events shown
    for (const t of step.fired.slice(0, k)) if (t.event !== null && t.event !== undefined) seen = Math.max(seen, t.event);
    if (stopped) box.append(el("div", {class: "muted", text: UI.stopped}));
    if (step.failure) box.append(el("div", {class: "failure", "data-failure": ""}, UI.failed + ": " + step.failure));
    if (step.expect) {
      const ul = el("ul", {class: "expect"});
      for (const [k, v] of step.expect) ul.append(el("li", {class: step.failure ? "bad" : "ok"}, UI.expect + " ", words("span", {}, k + " " + v), step.failure ? "" : " \u2014 " + UI.held));
      box.append(ul);
    }
    const ul = el("ul", {class: "events"});
    const differs = sc.diverge && index === sc.diverge.index ? sc.diverge.event : Infinity;
    step.events.forEach((e, j) => ul.append(el("li", {"data-event": "", class: [j >= differs ? "differs" : "", partial && j > seen ? "after" : ""].join(" ").trim() || null}, e.event, rules(e.rule))));
    if (!step.events.length && !step.expect) box.append(el("div", {class: "muted", text: UI.no_events}));
    box.append(ul);
    const silent = step.fired.filter((f) => f.silent);
    if (silent.length) {
      const by = new Map();                          // per machine: its silent transitions, in order
      for (const f of silent) { if (!by.has(f.key)) by.set(f.key, []); by.get(f.key).push(f); }
      const parts = [...by].map(([key, fs]) => key + " \u00d7" + fs.length);
      box.append(el("div", {class: "silent", "data-silent": silent.length}, UI.silent + ": ", words("span", {}, parts.join("; "))));
    }
    if (step.fired.length) box.append(firedList(step, k));
    if (partial) box.append(el("div", {class: "muted", "data-whole-step": "", text: UI.whole_step}));
    const legal = Object.entries(step.state.legal).filter(([, a]) => a.length).map(([p, a]) => p + ": " + a.join(", "));
    if (legal.length) box.append(el("div", {class: "legal"}, UI.legal + " \u2014 ", words("span", {}, legal.join(" | "))));
    return box;
  }
  function firedList(step, k) {
    // every transition the step fired, in order: a judge reads the rules' titles; the identifiers on hover
    const ol = el("ol", {class: "fired"});
    step.fired.forEach((t, j) => {
      const ids = t.machine + (t.instance ? "[" + t.instance + "]" : "") + ": " + t.source + " --" + t.trigger
        + ((t.guards || []).length || (t.unless || []).length ? " [" + [...(t.guards || []), ...(t.unless || []).map((u) => "!" + u)].join(" & ") + "]" : "")
        + "--> " + t.dest + ((t.effects || []).length ? " / " + t.effects.join(", ") : "");
      const li = el("li", {"data-fired": j, title: ids, class: k < step.fired.length ? (j === k - 1 ? "now" : j >= k ? "after" : null) : null},
        el("span", {class: "label"}, ruleTitles(t.rules)), rules(t.rules.join(", ")), " ",
        words("span", {class: "ids"}, (t.instance ? t.instance + ": " : "") + t.source + " \u2192 " + t.dest));
      li.addEventListener("click", () => goEvent(index, j + 1));
      ol.append(li);
    });
    return el("div", {}, el("h4", {text: UI.events, title: UI.events_hint}), ol);
  }
  function pane(reading, r) {
    const step = stepOf(reading, index), st = step.state;
    const prev = index > 0 ? stepOf(reading, index - 1) : null;
    const ch = changes(st, prev && prev !== step ? prev.state : null);
    const stopped = index >= reading.steps.length;
    const k = r === shown ? upTo() : step.fired.length;
    const title = sc.readings.length > 1 ? UI.reading + " " + "AB"[r] + ": " + reading.label : null;
    const p = el("section", {class: "pane", "data-reading": r});
    if (title) p.append(el("h3", {}, title + " ", el("span", {class: "badge " + reading.status, text: UI[reading.status] || reading.status})));
    p.append(traceBox(reading, step, stopped, k), el("div", {class: "row"}, statusBox(st, ch), chainBox(st, ch)), boardBox(st, ch));
    return p;
  }

  // -- the whole trace ------------------------------------------------------------------------
  function drawWhole() {
    const ol = $("whole");
    ol.textContent = "";
    const reading = sc.readings[shown];
    reading.steps.forEach((s, i) => {
      const items = s.events.map((e) => [e.event, e.rule]);
      if (s.failure) items.push([UI.failed + ": " + s.failure, ""]);
      for (const [text, rule] of items) {
        const li = el("li", {"data-step": i, "data-rules": rule, class: (i === index ? "now" : i > index ? "after" : "") + (rule === "" && s.failure ? " failed" : "")},
          (s.n ? s.n + "  " : "") + text, rules(rule));
        li.addEventListener("click", () => go(i));
        ol.append(li);
      }
    });
    filter();
    const now = ol.querySelector("li.now:not([hidden])");
    if (now) ol.scrollTop = Math.max(0, now.offsetTop - ol.offsetTop - 60);   // the list scrolls, not the page
  }

  function cites(list, want) {                     // "466" matches 466, 466.2, 466.3.a; "R1" not R10
    return list.split(",").map((x) => x.trim()).some((r) => r === want || r.startsWith(want + "."));
  }
  function filter() {
    const want = $("filter").value.trim();
    let n = 0;
    for (const li of $("whole").children) {
      li.hidden = want !== "" && !cites(li.dataset.rules || "", want);
      if (!li.hidden) n++;
    }
    $("filter-count").textContent = want ? n + " " + UI.lines_cite + " " + want : "";
    document.body.dataset.filter = want;
  }

  // -- stepping -------------------------------------------------------------------------------
  function draw() {
    const n = count();
    $("slider").max = n - 1;
    $("slider").value = index;
    const step0 = stepOf(sc.readings[0], index);
    $("position").textContent = UI.step + " " + index + " " + UI.of + " " + (n - 1);
    const f = firedCount(), k = upTo();
    $("sub").textContent = f ? UI.event + " " + k + " " + UI.of + " " + f : "";
    const panes = $("panes");
    panes.textContent = "";
    sc.readings.forEach((r, i) => panes.append(pane(r, i)));
    if (sc.diverge && index >= sc.diverge.index) panes.querySelectorAll(".pane").forEach((p) => p.classList.add("diff"));
    const r = sc.readings[shown];
    drawDiagrams(stepOf(r, index), stepOf(r, Math.max(0, index - 1)), k);
    drawWhole();
    document.body.dataset.step = index;
    document.body.dataset.event = k;
    const h = (DATA.scenarios.length > 1 ? "scenario=" + DATA.scenarios.indexOf(sc) + "&" : "") + "step=" + index + (k < f ? "&event=" + k : "");
    if (location.hash.slice(1) !== h) {             // the address names this step
      try { history.replaceState(null, "", "#" + h); } catch (e) { /* a frame of the playground has no address of its own */ }
    }
    document.body.dataset.scenario = sc.file;
    $("first").disabled = $("prev").disabled = index === 0;
    $("next").disabled = $("last").disabled = index === n - 1;
    $("prev-event").disabled = index === 0 && k === 0;
    $("next-event").disabled = atEnd();
  }
  function go(i) { index = Math.max(0, Math.min(count() - 1, i)); sub = -1; draw(); }
  function goEvent(i, k) { index = Math.max(0, Math.min(count() - 1, i)); sub = k; draw(); }
  function atEnd() { return index === count() - 1 && upTo() === firedCount(); }
  function nextEvent() {                           // one transition at a time; a step without any is one stop
    if (upTo() < firedCount()) return goEvent(index, upTo() + 1);
    if (index === count() - 1) return;
    index += 1;
    goEvent(index, Math.min(1, firedCount()));
  }
  function prevEvent() {
    if (upTo() > 1) return goEvent(index, upTo() - 1);
    if (index === 0) return goEvent(0, 0);
    index -= 1;
    go(index);
  }
  function play(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on) {
      if (atEnd()) go(0);
      timer = setInterval(() => { nextEvent(); if (atEnd()) play(false); }, 700);
    }
    $("play").textContent = on ? "\u275a\u275a " + UI.pause : "\u25b6 " + UI.play;
    $("play").classList.toggle("on", on);
    document.body.dataset.playing = on ? "yes" : "";
  }
  function pick(k) {
    sc = DATA.scenarios[k];
    index = 0; shown = 0; sub = -1;
    const r0 = sc.readings[0];
    const info = $("scenario-info");
    info.textContent = "";
    info.append(el("b", {text: sc.name}), " \u2014 " + sc.file + " (" + r0.mode + ": " + r0.players.join(", ") + ") ");
    if (sc.readings.length === 1) {
      info.append(el("span", {class: "badge " + r0.status, text: UI[r0.status] || r0.status}));
      if (r0.message) info.append(" ", el("span", {text: r0.message}));
      const rs = Object.entries(r0.rulings);
      if (rs.length) info.append(" \u00b7 ", ...rs.map(([k, v]) => el("span", {class: "rule", title: TITLES[k] || k, text: k + "=" + v})));
    }
    const dv = $("diverge");
    dv.textContent = "";
    if (sc.readings.length > 1) {
      dv.append(el("div", {class: "note", "data-diverge": sc.diverge ? sc.diverge.index : ""},
        sc.diverge ? UI.diverge + ": " + UI.step + " " + sc.diverge.n + " (" + sc.diverge.label + ")" : UI.same));
      if (sc.diverge) { const b = el("button", {type: "button", text: "\u2192"}); b.addEventListener("click", () => go(sc.diverge.index)); dv.firstChild.append(" ", b); }
    }
    const rc = $("reading-choice");
    rc.textContent = "";
    if (sc.readings.length > 1) {
      rc.append(UI.highlight + ": ");
      sc.readings.forEach((r, i) => {
        const b = el("input", {type: "radio", name: "reading", value: i, id: "reading-" + i});
        if (i === 0) b.checked = true;
        b.addEventListener("change", () => { shown = i; draw(); });
        rc.append(b, el("label", {for: "reading-" + i, text: UI.reading + " " + "AB"[i] + " "}));
      });
    }
    buildDiagrams();
    draw();
  }
  $("first").addEventListener("click", () => go(0));
  $("prev-event").addEventListener("click", () => prevEvent());
  $("next-event").addEventListener("click", () => nextEvent());
  $("play").addEventListener("click", () => play(!timer));
  $("filter").addEventListener("input", () => filter());
  $("prev").addEventListener("click", () => go(index - 1));
  $("next").addEventListener("click", () => go(index + 1));
  $("last").addEventListener("click", () => go(count() - 1));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("picker").addEventListener("change", (e) => pick(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "SELECT" || e.target.id === "filter")) return;
    if (e.key === "ArrowRight" && e.shiftKey) { nextEvent(); e.preventDefault(); }
    else if (e.key === "ArrowLeft" && e.shiftKey) { prevEvent(); e.preventDefault(); }
    else if (e.key === " ") { play(!timer); e.preventDefault(); }
    else if (e.key === "ArrowRight") { go(index + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(index - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(count() - 1); e.preventDefault(); }
  });
  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    const k = Number(h.get("scenario") || 0), i = Number(h.get("step") || 0), ev = h.get("event");
    const want = k >= 0 && k < DATA.scenarios.length ? k : 0;
    if (sc !== DATA.scenarios[want]) pick(want);
    $("picker").value = want;
    if (ev !== null && Number(ev) >= 0) goEvent(i || 0, Number(ev)); else go(i || 0);
  }
  window.addEventListener("hashchange", fromHash);
  play(false);
  fromHash();
})();
"""
