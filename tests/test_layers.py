"""The import contract: ``simulator/`` is layered, and a layer imports only the layers below it.

statecharts < simulator.core < simulator.rules < simulator.game < simulator.scenario
< simulator.verify, simulator.cli (the two top layers do not import each other's modules,
except ``cli`` which starts every command).  Imports inside a function count too: a lazy import
that runs back up is still a dependency running the wrong way.
"""
from __future__ import annotations

import ast
import pathlib

import networkx as nx

ROOT = pathlib.Path(__file__).resolve().parents[1]
LAYERS = ["statecharts", "core", "rules", "game", "scenario", "verify", "cli"]
RANK = {name: i for i, name in enumerate(LAYERS)}

# Imports that run back up and are still to be removed (each one a known debt, named here so that
# no new one can appear silently).  Empty means the contract holds with no exception.
KNOWN_UPWARD: set[tuple[str, str]] = set()


def module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "statecharts":
        return "statecharts"
    if parts[0] == "simulator" and len(parts) > 1 and parts[1] in RANK:
        return parts[1]
    return None


def imports() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for base in ("simulator", "statecharts"):
        for path in sorted((ROOT / base).rglob("*.py")):
            mod = module_name(path)
            deps: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    deps.add(node.module)
                    for alias in node.names:            # `from simulator.rules import chain`
                        deps.add(f"{node.module}.{alias.name}")
                elif isinstance(node, ast.Import):
                    deps.update(a.name for a in node.names)
            out[mod] = {d for d in deps if d.split(".")[0] in ("simulator", "statecharts")}
    known = set(out)
    return {m: {d for d in ds if d in known} for m, ds in out.items()}


def test_every_module_sits_in_a_layer():
    loose = [m for m in imports() if layer_of(m) is None and m not in ("simulator",)]
    assert loose == [], f"modules outside the layers {LAYERS}: {loose}"


def test_no_layer_imports_a_layer_above_it():
    upward = set()
    for mod, deps in imports().items():
        src = layer_of(mod)
        if src is None:
            continue
        for dep in deps:
            dst = layer_of(dep)
            if dst is not None and RANK[dst] > RANK[src] and not (src == "verify" and dst == "cli"):
                upward.add((mod, dep))
    assert upward - KNOWN_UPWARD == set(), f"imports running up the layers: {sorted(upward - KNOWN_UPWARD)}"
    assert KNOWN_UPWARD - upward == set(), f"KNOWN_UPWARD lists an import that is gone: {sorted(KNOWN_UPWARD - upward)}"


def test_verify_and_cli_do_not_import_each_other_downwards():
    bad = [(m, d) for m, ds in imports().items() for d in ds
           if layer_of(m) == "verify" and layer_of(d) == "cli"]
    assert bad == []


def test_the_module_graph_has_no_cycle():
    g = nx.DiGraph()
    for mod, deps in imports().items():
        for dep in deps:
            if dep != mod and not mod.startswith(dep + "."):   # a package's own submodules are not a cycle
                g.add_edge(mod, dep)
    cycles = sorted(sorted(c) for c in nx.simple_cycles(g) if len(c) > 1)
    # package __init__ files re-exporting their children give 2-cycles with them; those are fine
    cycles = [c for c in cycles if not any(a != b and b.startswith(a + ".") for a in c for b in c)]
    assert cycles == KNOWN_CYCLES, f"import cycles: {cycles}"


KNOWN_CYCLES: list[list[str]] = []


def test_no_import_is_done_only_for_its_side_effect():
    """Guards and effects are registered by an explicit call (``simulator.rules.install``), not by importing
    a module for its side effect: no ``noqa: F401`` outside a package's re-exports."""
    bad = [f"{path.relative_to(ROOT)}:{i}" for base in ("simulator", "statecharts")
           for path in sorted((ROOT / base).rglob("*.py")) if path.name != "__init__.py"
           for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "F401" in line]
    assert bad == []


def test_every_rule_module_is_registered_and_every_declared_name_is_implemented():
    """Each module of ``simulator/rules`` is listed in ``MODULES`` (so its guards and effects are installed),
    and every guard and effect the declarations name is installed by ``install()``."""
    import statecharts
    from simulator import rules
    from simulator.core import registry

    files = {p.stem for p in (ROOT / "simulator" / "rules").glob("*.py") if p.stem != "__init__"}
    assert {m.__name__.rsplit(".", 1)[1] for m in rules.MODULES} == files
    rules.install()
    for m in statecharts.MACHINES:
        for leaf in m.leaves():
            named_guards = {g for t in leaf.transitions for g in (*t.guards, *t.unless)}
            named_effects = {e for t in leaf.transitions for e in t.effects} | set(leaf.enter.values())
            assert named_guards <= set(registry.GUARDS), (leaf.name, named_guards - set(registry.GUARDS))
            assert named_effects <= set(registry.EFFECTS), (leaf.name, named_effects - set(registry.EFFECTS))


def test_a_name_marked_twice_is_refused():
    import types

    from simulator.core import registry

    a, b = types.ModuleType("a"), types.ModuleType("b")

    def twice(g, inst, ctx):
        return True

    twice.__module__ = "a"
    a.f = registry.guard(twice)

    def twice(g, inst, ctx):       # noqa: F811 - a second function of the same name, in another module
        return False

    twice.__module__ = "b"
    b.f = registry.guard(twice)
    try:
        registry.register(a, b)
    except ValueError as e:
        assert "'twice' is marked twice" in str(e)
    else:
        raise AssertionError("a guard name marked by two functions was accepted")
    finally:
        registry.GUARDS.pop("twice", None)
