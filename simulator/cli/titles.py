"""Short titles for the rule ids a trace cites: what the viewer shows when you hover a rule.

A rule id takes the title of its longest listed prefix (``340.2.a`` -> ``340.2``, else ``340``);
ruling ids (``R1``..) take their name and default from ``statecharts.rulings``. The titles are ours,
written from Core Rules v1.4. When the project grows one table of rule titles (``riftsim rules``),
:func:`title` should read it instead of :data:`TITLES`.

>>> title("340.2.a"), title("R1").startswith("R1 focus-on-conversion")
('340.2: the newest finalized item resolves (last in, first out)', True)
>>> title("999.9")
''
"""
from __future__ import annotations

from statecharts.rulings import RULINGS

TITLES = {
    "055": "do as much as you can; an impossible instruction is ignored",
    "103": "players and teams",
    "142.4": "lethal damage: damage at least the unit's Might",
    "144": "moving a unit between locations",
    "155": "default timing of spells",
    "158.3": "what a resolving item creates waits until it has fully resolved",
    "190.3": "Contested: a unit arrives where its controller has no control",
    "190.3.b": "a battlefield stays Contested until control is settled",
    "190.4": "gaining and keeping control of a battlefield",
    "194.2": "winning: the Victory Score and strictly more points than every opponent",
    "195": "winning as the last player left, or by an effect",
    "303": "one thing at a time; simultaneous things in turn order",
    "308": "Neutral or Showdown: is a showdown or combat in progress",
    "309": "Open or Closed: does a chain exist",
    "310": "the four turn states",
    "312": "priority: the exclusive right to take discretionary actions",
    "312.2": "when a player receives priority",
    "313": "focus: who acts in a Showdown Open state",
    "313.2": "gaining focus also grants priority",
    "313.3": "passing priority does not give up focus",
    "313.5": "nobody has focus in a Neutral state",
    "315": "start of turn: awaken, beginning, channel, draw",
    "315.2": "the beginning phase and its scoring step (hold)",
    "316": "the main phase",
    "316.8": "showdowns arise in the main phase",
    "316.8.b.1.a": "a non-combat showdown becomes a combat when opposing units arrive",
    "316.9": "the turn player declares the turn over",
    "317": "the ending phase",
    "319": "when a cleanup becomes outstanding",
    "320": "no priority or focus hand-off during a cleanup",
    "322": "a cleanup that changes something is followed by another",
    "323": "the cleanup tasks, in order",
    "323.1": "cleanup task 1: the win check",
    "323.8": "cleanup task 6: stage a showdown where Contested was applied",
    "323.9": "cleanup task 7: stage a combat where opposing units meet",
    "323.10": "a staged combat whose sides are gone stops being staged",
    "323.11": "cleanup task 8: clear a stale Contested",
    "323.12": "cleanup task 9: open a non-combat showdown (the turn player picks)",
    "323.13": "cleanup task 10: open a combat (the turn player picks)",
    "323.14": "a running non-combat showdown becomes a combat showdown",
    "324": "special cleanups (combat, ending)",
    "329": "the chain and its items",
    "329.1": "an item goes on the chain pending",
    "334": "HOT FEPR: handle outstanding tasks, finalize, execute, pass, resolve",
    "335": "who gets priority when nothing is outstanding",
    "337": "finalize: the oldest pending item completes being played",
    "337.2": "units, gear and Add abilities resolve when finalized",
    "337.3": "more pending items: finalize the next",
    "337.4": "all finalized: the next item's controller gets priority",
    "338": "execute: the priority holder plays a Reaction or passes",
    "338.1": "playing on the chain adds a pending item",
    "338.2": "passing priority to the next player in turn order",
    "339": "pass: every player passed in succession, or priority moves on",
    "340": "resolve: the newest finalized item resolves",
    "340.2": "the newest finalized item resolves (last in, first out)",
    "340.4": "items left: the newest item's controller gets priority",
    "341": "showdowns",
    "344": "a showdown begins in a cleanup at a Contested battlefield",
    "344.1": "a contest between two players: the showdown is a combat's first step",
    "344.2": "contested with one player's units: a non-combat showdown",
    "345": "first focus: the player who applied Contested",
    "346.1": "a chain started by a trigger or an Add ability passes no focus",
    "347": "the focus holder plays or passes",
    "347.1": "a play in a showdown starts a chain",
    "347.1.b": "when that chain closes, focus passes to the next player",
    "347.2": "passing focus",
    "347.2.a": "every player passed focus in succession: the showdown ends",
    "347.2.b": "otherwise focus moves to the next player",
    "348": "the end of a showdown",
    "348.1": "a combat showdown goes on with the rest of the combat",
    "348.2": "a non-combat showdown: the only player left establishes control (conquer)",
    "353": "playing a card",
    "354.1": "putting a card on the chain closes the state",
    "354.3": "a card played by an effect waits until the playing item has finished resolving",
    "355.4.a": "a move's destination is a place other than the unit's own",
    "356": "choosing targets: only what the card allows",
    "359.2": "a unit played goes to its place on the board",
    "359.3.f": "information an instruction needs, read as it executes",
    "359.3.f.2": "the location of a source that has left the board is unavailable: the instruction does nothing",
    "377": "activating an ability",
    "377.3.a.1": "activating or triggering an ability closes the state",
    "383": "triggered abilities",
    "383.3.d": "a player orders their own simultaneous triggers",
    "383.4": "attack and defend triggers",
    "383.4.a.2": "play triggers: pending once the unit or gear has entered",
    "400.2": "the board",
    "410": "what a player may do, and when",
    "423.1": "stun: a stunned unit adds no might to combat",
    "429": "Add abilities",
    "445": "movement",
    "446": "a standard move",
    "447.2": "where a standard move may go",
    "450": "a move into a battlefield applies Contested",
    "455": "recall: back to base",
    "459": "combat",
    "460": "when a combat starts",
    "461": "staging combats",
    "462": "exactly two players per combat; outsiders are barred",
    "464": "combat step 1: the combat showdown step",
    "464.1": "how a combat opens",
    "464.2": "the combat showdown step's tasks",
    "464.2.c": "attacker and defender are designated",
    "464.2.c.1.a": "a new showdown: the attacker gets focus",
    "464.2.c.1.b": "a showdown already running: the focus holder keeps focus",
    "464.2.d": "the attacker gains focus",
    "464.2.e": "the combat chain: attack and defend triggers",
    "465": "combat step 2: damage",
    "465.1": "damage is dealt only if both sides are still there",
    "465.2": "assigning damage, attacker first",
    "465.3": "damage dealt together; outstanding tasks cancelled",
    "466": "combat step 3: resolution",
    "466.1": "the combat cleanup",
    "466.3": "the combat's result: win, lose or no result",
    "466.5": "the winner establishes control; Contested is cleared",
    "466.7": "the combat ends: designations removed",
    "467": "scoring",
    "469.1": "conquer: gaining control of a battlefield not yet scored",
    "469.2": "hold: keeping control at the beginning phase",
    "470": "at most one score per battlefield per turn",
    "481": "modes of play",
    "489": "Magma Chamber: two teams of two",
    "649": "conceding",
    "651": "a player who concedes leaves the game",
    "652": "removing a player from the game",
    "652.1": "their objects leave the game",
    "652.2": "focus and priority pass on",
    "652.4": "their chain items leave the chain",
    "652.5": "the game goes on with the players left",
    "734": "extra turns",
    "813": "Reaction: may be played in a Closed state",
}


def title(rule: str) -> str:
    """The title of a rule id, or of its longest listed prefix; a ruling's name and default; else ''."""
    rule = rule.strip()
    if rule in RULINGS:
        r = RULINGS[rule]
        return f"{rule} {r['name']}: {r['default']}"
    parts = rule.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in TITLES:
            return f"{key}: {TITLES[key]}"
    return ""


def titles(rules) -> dict[str, str]:
    """rule id -> title for every id in ``rules`` (comma-separated strings or ids) that has one."""
    out = {}
    for r in rules:
        for x in str(r).split(","):
            x = x.strip()
            if x and x not in out:
                t = title(x)
                if t:
                    out[x] = t
    return out
