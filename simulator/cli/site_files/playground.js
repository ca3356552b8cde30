// The riftsim playground: this script only draws. Every answer comes from riftsim itself, run by Pyodide
// (simulator/cli/playground.py): checking, running, the viewer page, playing on, the share link's packing.
(function () {
  "use strict";
  const SITE = JSON.parse(document.getElementById("site-data").textContent);
  const FILES = (window.RIFTSIM_FILES = {});        // name -> base64, filled by files/NAME.js
  const $ = (id) => document.getElementById(id);
  let lang = SITE.lang, W = SITE.words[lang], app = null, examples = [], result = null, timer = null;

  // -- the page's own words -------------------------------------------------------------------
  function words() {
    W = SITE.words[lang];
    document.documentElement.lang = lang;
    for (const e of document.querySelectorAll("[data-word]")) e.textContent = W[e.dataset.word];
    document.title = W.title;
    $("lang").value = lang;
    const pick = $("example").options[0];
    if (pick) pick.textContent = W.pick;
  }
  function say(text, bad) { $("status").textContent = text; $("status").className = bad ? "bad" : ""; }
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }

  // -- the site's files, served from memory: a page opened from disk (file://) may load scripts, not fetch --
  function script(src) {
    return new Promise((ok, ko) => {
      const s = document.createElement("script");
      s.src = src; s.onload = ok; s.onerror = () => ko(new Error("cannot load " + src));
      document.head.append(s);
    });
  }
  function bytes(name) {
    const b64 = FILES[name];
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(b64);
    const s = atob(b64), out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  window.fetch = function (input) {                  // nothing leaves the page: only the site's own files
    const url = String(input && input.url !== undefined ? input.url : input);
    const name = url.split(/[?#]/)[0].split("/").pop();
    if (!Object.prototype.hasOwnProperty.call(FILES, name))
      return Promise.reject(new TypeError("riftsim playground: no network (" + url + ")"));
    const type = name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
    return Promise.resolve(new Response(bytes(name), {status: 200, headers: {"Content-Type": type}}));
  };

  async function start() {
    const t0 = performance.now();
    say(W.loading);
    await Promise.all(SITE.files.map(script));
    window.RIFTSIM_ASM_URL = new URL("pyodide/pyodide.asm.js", location.href).href;
    await script("pyodide/pyodide.asm.js");
    const py = await window.loadPyodide({
      indexURL: new URL("pyodide/", location.href).href,
      lockFileContents: new TextDecoder().decode(bytes("pyodide-lock.json")),
      createPyodideModule: window.createPyodideModule,
      stdout: (t) => console.log(t), stderr: (t) => console.warn(t),
    });
    py.unpackArchive(bytes("riftsim.zip"), "zip", {extractDir: "/riftsim"});
    py.runPython("import sys, os; sys.path.insert(0, '/riftsim'); os.chdir(os.path.expanduser('~'))");
    app = py.pyimport("simulator.cli.playground");
    examples = JSON.parse(app.start("/riftsim"));
    $("example").append(el("option", {value: "", text: W.pick}));
    examples.forEach((x, i) => $("example").append(el("option", {value: i, text: x.name})));
    for (const id of ["run", "share"]) $(id).disabled = false;
    document.body.dataset.loadMs = String(Math.round(performance.now() - t0));
    say(W.ready);
    fromHash();
    document.body.dataset.ready = "yes";
  }

  // -- the editor: checked as you type --------------------------------------------------------
  function check() {
    if (!app) return;
    const error = JSON.parse(app.check($("source").value)).error;
    $("check").textContent = error || "\u2713 " + W.valid;
    $("check").className = error ? "bad" : "ok";
    document.body.dataset.checked = error ? "bad" : "ok";
  }
  $("source").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 250); });
  $("example").addEventListener("change", (e) => {
    if (e.target.value === "") return;
    $("source").value = examples[Number(e.target.value)].text;
    check();
  });

  // -- run: result, expectations, trace with rule titles, the viewer ------------------------------
  function traceLine(line) {
    return el("li", {"data-step": line.step}, el("span", {class: "n", text: line.step}), "  ",
      el("span", {class: "text", text: line.text}), " ", ruleLinks(line.rules));
  }
  function ruleLinks(ids) {
    const out = document.createDocumentFragment();
    for (const r of ids) {
      const a = el("a", {class: "rule", href: "#rule-" + r, "data-rule": r, title: result.titles[r] || r, text: r});
      a.addEventListener("click", (e) => {
        e.preventDefault();                          // the address keeps the share link; scroll to the title
        const dt = document.getElementById("rule-" + r);
        if (dt) { dt.scrollIntoView({block: "center"}); document.querySelectorAll("#rules .now").forEach((x) => x.classList.remove("now")); dt.classList.add("now"); }
      });
      out.append(a);
    }
    return out;
  }
  function run() {
    check();
    result = JSON.parse(app.run($("source").value, lang));
    const box = $("summary");
    box.textContent = "";
    $("result-section").hidden = false;
    if (result.error) {
      box.append(el("span", {class: "badge fail", text: W.invalid}), " ", el("span", {text: result.error}));
      for (const id of ["expectations", "trace", "rules"]) $(id).textContent = "";
      $("viewer-section").hidden = $("play-section").hidden = true;
      document.body.dataset.status = "invalid";
      return;
    }
    box.append(el("span", {class: "badge " + result.status, "data-status": result.status, text: W[result.status]}), " ",
      el("b", {text: result.name}));
    if (result.message) box.append(el("div", {class: "fail", text: result.message}));
    const ex = $("expectations");
    ex.textContent = "";
    for (const x of result.expectations)
      ex.append(el("li", {class: x.verdict, "data-verdict": x.verdict},
        W[x.verdict] + " \u2014 " + x.step + ": " + W.expect + " ", el("span", {translate: "no", text: x.text}), x.failure ? el("div", {text: x.failure}) : null));
    const ol = $("trace");
    ol.textContent = "";
    for (const line of result.lines) ol.append(traceLine(line));
    const dl = $("rules");
    dl.textContent = "";
    for (const [r, t] of Object.entries(result.titles)) {
      const cut = t.indexOf(": ");
      dl.append(el("dt", {id: "rule-" + r, text: r}), el("dd", {text: cut < 0 ? t : t.slice(cut + 2)}));
    }
    $("viewer").srcdoc = result.viewer;
    $("viewer-section").hidden = false;
    const pick = $("play-step");
    pick.textContent = "";
    for (const s of result.steps) pick.append(el("option", {value: s.n, text: s.n + " \u2014 " + s.label}));
    pick.value = String(result.steps[result.steps.length - 1].n);
    $("play-section").hidden = false;
    $("play-board").hidden = true;
    document.body.dataset.status = result.status;
  }
  $("run").addEventListener("click", run);

  // -- play on from a step: legal actions as buttons, undo, save --------------------------------
  function board(answer) {
    const a = JSON.parse(answer);
    if (a.error) { $("play-said").textContent = a.error; return; }
    $("play-board").hidden = false;
    $("play-status").textContent = a.status;
    $("play-said").textContent = a.said;
    const legal = $("play-legal");
    legal.textContent = "";
    for (const [p, options] of Object.entries(a.legal)) {
      const row = el("div", {class: "player", "data-player": p}, el("b", {text: p + ": "}));
      if (!options.length) row.append(el("span", {class: "muted", text: W.nothing}));
      for (const o of options) {
        const b = el("button", {type: "button", "data-action": o.label, text: o.label});
        b.addEventListener("click", () => board(app.act(o.index)));
        row.append(b);
      }
      legal.append(row);
    }
    const ol = $("play-trace");
    ol.textContent = "";
    for (const line of a.trace) ol.append(traceLine(line));
    ol.scrollTop = ol.scrollHeight;
    $("undo").disabled = !a.undo;
    document.body.dataset.actions = String(a.played);
  }
  function playFrom(n) { $("saved-box").hidden = true; board(app.play($("source").value, n, lang)); }
  $("play-start").addEventListener("click", () => playFrom(Number($("play-step").value)));
  $("play-viewer").addEventListener("click", () => {
    const doc = $("viewer").contentDocument;
    const i = doc && doc.body ? Number(doc.body.dataset.step || 0) : 0;
    playFrom(result.steps[Math.min(i, result.steps.length - 1)].n);
  });
  $("play-do").addEventListener("click", () => board(app.typed($("play-typed").value)));
  $("play-typed").addEventListener("keydown", (e) => { if (e.key === "Enter") board(app.typed($("play-typed").value)); });
  $("undo").addEventListener("click", () => board(app.undo()));
  $("save").addEventListener("click", () => {
    const text = app.save();
    $("saved").value = text;
    $("download").href = URL.createObjectURL(new Blob([text], {type: "text/yaml"}));
    $("saved-box").hidden = false;
  });
  $("to-editor").addEventListener("click", () => { $("source").value = $("saved").value; check(); $("source").scrollIntoView(); });

  // -- the share link: the scenario, compressed, in the address -----------------------------------
  function share() {
    const h = "lang=" + lang + "&s=" + app.pack($("source").value);
    history.replaceState(null, "", "#" + h);
    $("share-link").value = location.href;
    $("share-box").hidden = false;
  }
  $("share").addEventListener("click", share);
  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.get("lang") && SITE.words[h.get("lang")]) { lang = h.get("lang"); words(); }
    if (!h.get("s") || !app) return;
    const text = app.unpack(h.get("s"));
    if (!text) { say(W.failed_start + " #s=", true); return; }
    $("source").value = text;
    run();
  }
  window.addEventListener("hashchange", fromHash);
  $("lang").addEventListener("change", (e) => {
    lang = e.target.value;
    words();
    if (app && result) run(); else check();
  });

  words();
  start().catch((e) => { say(W.failed_start + " " + e, true); document.body.dataset.ready = "failed"; });
})();
