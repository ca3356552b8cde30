"""The rules cited by what is not a machine transition: the trace lines an effect or an action writes, and
the checks that refuse an action. Each has a name; the code cites it by that name (``cite("effects.killed")``),
so a rule id is written once, here, and ``riftsim rules ID`` lists these rows with the transitions, the
schedule, the timing tables and the rulings citing it.

A row: its name (``module.what``, after the module of ``simulator/`` that uses it), its kind (``event``: a
trace line; ``refusal``: a reason an action is illegal), the rule ids, and what the line says or the check
refuses (the trace template or the refusal's reason, ``...`` for a field).

>>> cite("effects.killed"), CITED["effects.killed"].kind
('340', 'event')
>>> cite("effects.kiled")
Traceback (most recent call last):
KeyError: "'effects.kiled' is not a declared citation (statecharts/citations.py)"
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cited:
    name: str
    kind: str                   # event | refusal
    rules: tuple[str, ...]
    what: str

    def __post_init__(self) -> None:
        if self.kind not in ("event", "refusal") or not self.rules:
            raise ValueError(f"citation {self.name}: kind {self.kind!r}, rules {self.rules!r}")


CITED: dict[str, Cited] = {c.name: c for c in (
    # -- simulator/game/actions.py
    Cited('actions.shapes-move', 'refusal', ('144',), "SHAPES['move']: the action's shape"),
    Cited('actions.shapes-play', 'refusal', ('353',), "SHAPES['play']: the action's shape"),
    Cited('actions.shapes-activate', 'refusal', ('381',), "SHAPES['activate']: the action's shape"),
    Cited('actions.shapes-pass', 'refusal', ('312', '313'), "SHAPES['pass']: the action's shape"),
    Cited('actions.shapes-choose', 'refusal', ('323.12',), "SHAPES['choose']: the action's shape"),
    Cited('actions.shapes-concede', 'refusal', ('651',), "SHAPES['concede']: the action's shape"),
    Cited('actions.shapes-end-turn', 'refusal', ('R14',), "SHAPES['end-turn']: the action's shape"),
    Cited('actions.shapes-invite', 'refusal', ('R13',), "SHAPES['invite']: the action's shape"),
    Cited('actions.shapes-order', 'refusal', ('383.3.d',), "SHAPES['order']: the action's shape"),
    Cited('actions.shapes-target', 'refusal', ('356',), "SHAPES['target']: the action's shape"),
    Cited('actions.shapes-assign', 'refusal', ('465.2.c',), "SHAPES['assign']: the action's shape"),
    Cited('actions.shapes-hide', 'refusal', ('811.1.b',), "SHAPES['hide']: the action's shape"),
    Cited('actions.unknown-action', 'refusal', ('410',), 'unknown action ...'),
    Cited('actions.not-action', 'refusal', ('410',), 'not an action: ...'),
    Cited('actions.player-must-player-name-not', 'refusal', ('103',), 'the player must be a player name, not ...'),
    Cited('actions.not-player-game', 'refusal', ('103',), '... is not a player in this game'),
    Cited('actions.game-over', 'refusal', ('323.1',), 'the game is over'),
    Cited('actions.has-left-game-makes-no', 'refusal', ('651',), '... has left the game and makes no more choices'),
    Cited('actions.there-no-choice-battlefield-make', 'refusal', ('323.12',), 'there is no choice of battlefield to make'),
    Cited('actions.there-are-no-simultaneous-triggers', 'refusal', ('383.3.d',), 'there are no simultaneous triggers to order'),
    Cited('actions.there-no-optional-ability-decide', 'refusal', ('383.3.a',), 'there is no optional ability to decide'),
    Cited('actions.there-no-triggered-ability-waiting', 'refusal', ('383.3.a',), 'there is no triggered ability waiting for its targets'),
    Cited('actions.there-no-combat-damage-assign', 'refusal', ('465.2.c',), 'there is no combat damage to assign now'),
    Cited('actions.must-first-order-their-simultaneous', 'refusal', ('383.3.d',), '... must first order their simultaneous triggers; nobody has priority'),
    Cited('actions.only-orders-now-players-order', 'refusal', ('383.3.d', '464.2.e'), 'only ... orders now: players order their triggers in placement order'),
    Cited('actions.order-names-least-next-trigger', 'refusal', ('383.3.d',), 'an order names at least the next trigger to place'),
    Cited('actions.nobody-deciding-triggered-ability-now', 'refusal', ('383.3.a',), 'nobody is deciding a triggered ability now'),
    Cited('actions.must-first-nobody-has-priority', 'refusal', ('383.3.a',), "... must first ... for ...'s ...; nobody has priority"),
    Cited('actions.only-who-controls-decides', 'refusal', ('383.3.a',), "only ..., who controls ...'s ..., decides"),
    Cited('actions.must-first-assign-their-combat', 'refusal', ('465.2.c',), '... must first assign their combat damage; nobody has priority'),
    Cited('actions.assigns-now-attacker-assigns-first', 'refusal', ('465.2.c',), '... assigns now: the attacker assigns first, then the defender'),
    Cited('actions.not-hand', 'refusal', ('811.1.b',), "... is not in ...'s hand"),
    Cited('actions.has-no-hidden-can-t', 'refusal', ('811',), "... has no Hidden: it can't be hidden"),
    Cited('actions.not-battlefield', 'refusal', ('811.1.b',), '... is not a battlefield'),
    Cited('actions.does-not-control-cards-are', 'refusal', ('811.1.b',), '... does not control ...: cards are hidden only where their controller has control'),
    Cited('actions.already-has-facedown-card', 'refusal', ('811.1.b',), '... already has a facedown card at ...'),
    Cited('actions.standard-moves-happen-main-phase', 'refusal', ('144',), 'standard moves happen in the Main Phase'),
    Cited('actions.move-names-least-one-unit', 'refusal', ('144',), 'a move names at least one unit'),
    Cited('actions.named-twice-move-moves-each', 'refusal', ('144',), '... is named twice: a move moves each of its units once'),
    Cited('actions.not-battlefield-or-base', 'refusal', ('144',), '... is not a battlefield or base'),
    Cited('actions.has-no-accelerate', 'refusal', ('805',), '... has no Accelerate'),
    Cited('actions.not-board', 'refusal', ('381',), '... is not on the board'),
    Cited('actions.does-not-control', 'refusal', ('381',), '... does not control ...'),
    Cited('actions.has-no-activated-ability', 'refusal', ('381',), '... has no activated ability ...'),
    Cited('actions.exhausted-exhausting-cost', 'refusal', ('381', '377'), "... is exhausted: exhausting it is ...'s cost"),
    Cited('actions.used-once-per-turn-was', 'refusal', ('381',), "...'s ... is used once per turn and was used this turn"),
    Cited('actions.costs-energy-has-pool-ready', 'refusal', ('377', '354'), "...'s ... costs ... energy; ... has ... in the pool and ... ready runes"),
    Cited('actions.not-card-game', 'refusal', ('353',), '... is not a card of this game'),
    Cited('actions.only-playing-unit', 'refusal', ('353',), '... is a ...: at is only for playing a unit'),
    Cited('actions.target-field-named-twice', 'refusal', ('356',), 'a target field is named twice: ...'),
    Cited('actions.takes-no-target-takes', 'refusal', ('356',), '... takes no target ... (it takes: ...)'),
    Cited('actions.must-first-choose-which-staged', 'refusal', ('323.12', '323.13'), '... must first choose which staged showdown or combat opens'),
    Cited('actions.only-turn-player-chooses', 'refusal', ('323.12',), 'only the turn player ... chooses'),
    Cited('actions.not-among-candidates', 'refusal', ('323.12',), '... is not among the candidates (...)'),
    Cited('actions.holds-neither-priority-nor-focus', 'refusal', ('312', '313'), '... holds neither priority nor focus'),
    Cited('actions.only-turn-player-may-end', 'refusal', ('316.9', 'R14'), 'only the turn player ... may end the turn'),
    Cited('actions.does-not-hold-priority', 'refusal', ('R14',), '... does not hold priority'),
    Cited('actions.invitations-exist-only-magma-chamber', 'refusal', ('R13',), 'invitations exist only in magma-chamber'),
    Cited('actions.not-teammate-game', 'refusal', ('489.8.a', 'R13'), "... is not ...'s teammate in the game"),
    Cited('actions.not-one-pending-triggers', 'refusal', ('383.3.d',), "... is not one of ...'s pending triggers (...)"),
    Cited('actions.may-decided-with-option-yes', 'refusal', ('383.3.a',), 'a may is decided with option yes or no'),
    Cited('actions.must-first-decide-optional-part', 'refusal', ('383.3.a.3',), '... must first decide whether ... does its optional part as it resolves; nobody has priority'),
    Cited('actions.only-controller-decides-optional-part', 'refusal', ('383.3.a.3',), 'only ..., who controls ..., decides'),
    Cited('actions.optional-part-option-yes-or-no', 'refusal', ('383.3.a.3',), 'a may is decided with option yes or no (an optional part as it resolves)'),
    Cited('actions.not-unit-board', 'refusal', ('144',), '... is not a unit on the board'),
    Cited('actions.not-unit', 'refusal', ('144',), "... is not ...'s unit"),
    Cited('actions.exhausted', 'refusal', ('144',), '... is exhausted'),
    Cited('actions.already', 'refusal', ('144',), '... is already at ...'),
    Cited('actions.can-t-move-from-one', 'refusal', ('144', '810'), "... can't move from one battlefield to another without Ganking"),
    Cited('actions.has-no-facedown', 'refusal', ('811.1.d',), '... has no facedown ... at ...'),
    Cited('actions.was-hidden-turn-can-played', 'refusal', ('811.1.d',), '... was hidden this turn: it can be played from the next turn'),
    Cited('actions.not-hand-2', 'refusal', ('353',), "... is not in ...'s hand"),
    Cited('actions.must-first-choose-discard', 'refusal', ('422', '158.3'), '... must first choose the card to discard for ...; nobody has priority'),
    Cited('actions.only-discarder-chooses', 'refusal', ('422',), 'only ... chooses the card to discard'),
    Cited('actions.discard-not-in-hand', 'refusal', ('422',), "... is not in ...'s hand"),
    Cited('actions.nothing-lets-play-from-trash', 'refusal', ('419.1.a',), 'nothing lets ... play ... from the trash'),
    Cited('actions.not-in-trash', 'refusal', ('419.1.a',), "... is not in ...'s trash"),
    Cited('actions.hide-from-hand-only', 'refusal', ('811.1.b', '811.1.c.1'), 'Hidden lets a card be hidden from the hand only; a permission to play from the trash does not allow hiding'),
    Cited('actions.unit-played-from-facedown-enters', 'refusal', ('811.1.d.1',), 'a unit played from facedown enters where it was hidden (...)'),
    Cited('actions.costs-energy-has-pool-ready-2', 'refusal', ('354',), '... costs ... energy; ... has ... in the pool and ... ready runes'),
    Cited('actions.trigger-each-player-orders-only', 'refusal', ('383.3.d',), "... is ...'s trigger: each player orders only their own"),
    Cited('actions.listed-more-times-than-has', 'refusal', ('383.3.d',), '... is listed more times than ... has it pending'),
    Cited('actions.teammate-unit-no-standard-move', 'refusal', ('489', '144'), "... is a teammate's unit: no standard move of it"),
    Cited('actions.not-battlefield-2', 'refusal', ('359.2',), '... is not a battlefield'),
    Cited('actions.has-staged-or-ongoing-combat', 'refusal', ('462', '447.2.a'), '... has a staged or ongoing combat between two other players: ... may not play a unit there'),
    Cited('actions.targets-must-field-value-pairs', 'refusal', ('356',), 'targets must be (field, value) pairs of texts'),
    Cited('actions.unit-played-base-or-battlefield', 'refusal', ('359.2', '806'), 'a unit is played to its base or a battlefield its controller controls; ... does not control ...'),
    Cited('actions.unit-played-base-or-battlefield-ambush', 'refusal', ('359.2', '806', '822.1.b'), 'the same, for a unit with Ambush where its controller has no units (822.1.b)'),
    # -- simulator/rules/chain.py
    Cited('chain.turn-player-gets-priority', 'event', ('335.1', '312.2.a'), '{player} gets priority'),
    # -- simulator/rules/cleanup.py
    Cited('cleanup.ward-replaces-death', 'event', ('R21',), '{unit} would die: its ward replaces the death; instead it is healed and exhausted'),
    Cited('cleanup.replaced-no-own-death', 'event', ('R21', '808.1.d'), '{unit} does not die, so its {abilities} does not trigger'),
    Cited('cleanup.ward-recall', 'event', ('R21', '455'), 'recall in replace_deaths: {unit} is recalled to base'),
    Cited('cleanup.dies-lethal-damage', 'event', ('323', '142.4'), '{unit} dies (lethal damage)'),
    Cited('cleanup.corrective-trash-uncontrolled', 'event', ('323.7', '811'), 'trash_uncontrolled in corrective'),
    Cited('cleanup.win-check-declare-winner', 'event', ('323.1',), 'declare_winner in win_check'),
    Cited('cleanup.recalled-base-defenders-remain', 'event', ('466.1',), '{unit} is recalled to base: defenders remain'),
    Cited('cleanup.units-remain-which-doesn-t', 'event', ('323.11.a', 'R7'), "{player}'s units remain at {bf}, which {player} doesn't control: {player} applies Contested"),
    Cited('cleanup.must-choose-where-open', 'event', ('323.12',), '{player} must choose where to open a {kind}: {choices}'),
    Cited('cleanup.must-choose-where-open-2', 'event', ('323.13',), '{player} must choose where to open a {kind}: {choices}'),
    # -- simulator/rules/combat.py
    Cited('combat.combat-damage-deals-deals-stunned', 'event', ('465.2', '423.1.b'), 'combat damage at {bf}: {attacker} deals {attacker2}, {defender} deals {defender2} (stunned, adding nothing: {stunned})'),
    Cited('combat.now-applies-contested-none-applier', 'event', ('464.2.c.1', '323.11.a', 'R7'), "{player} now applies Contested at {bf}: none of the applier's units are left there"),
    Cited('combat.takes-combat-damage', 'event', ('465.2', '465.3'), '{unit} takes {amount} combat damage'),
    Cited('combat.combat-no-result', 'event', ('466.3.d',), 'combat at {bf}: no result'),
    Cited('combat.combat-wins-loses', 'event', ('466.3',), 'combat at {bf}: {winner} wins, {loser} loses'),
    Cited('combat.resolve-trash-uncontrolled', 'event', ('466.5.c', '811'), 'trash_uncontrolled in combat_control'),
    Cited('combat.place-combat-triggers-pend', 'event', ('464.2.e',), 'pend in combat_chain'),
    # -- simulator/rules/concede.py
    Cited('concede.only-one-side-left-game', 'event', ('651.1', '195'), 'only one side is left in the game'),
    Cited('concede.concede-declare-winner', 'event', ('651.1',), 'declare_winner in concede'),
    Cited('concede.turn-passes-once-nothing-ongoing', 'event', ('652.5', 'R10'), 'the turn passes to {player} once nothing is ongoing'),
    Cited('concede.banished', 'event', ('652.1',), '{unit} is banished'),
    Cited('concede.replaced-token-battlefield-with-no', 'event', ('652.2', 'R9'), '{bf} is replaced by a token battlefield with no abilities; units there stay'),
    Cited('concede.countered-controller-left', 'event', ('652.4',), '{item} is countered: its controller left'),
    Cited('concede.keeps-priority', 'event', ('652.4', '652.5'), '{player} keeps priority'),
    # -- simulator/rules/damage.py
    Cited('damage.must-assign-exactly-damage-their', 'refusal', ('465.2.a', '465.2.c'), "... must assign exactly ... damage (their units' summed might), not ..."),
    Cited('damage.both-have-less-than-lethal', 'refusal', ('465.2.c.3',), '... and ... both have less than lethal damage: a unit must be assigned lethal damage before the next one gets any'),
    Cited('damage.assigned-more-than-lethal-damage', 'refusal', ('465.2.c.4',), '... is assigned more than lethal damage while ... still lacks lethal damage'),
    Cited('damage.not-enemy-unit-combat', 'refusal', ('465.2.c',), '... is not an enemy unit in the combat at ...'),
    Cited('damage.damage-can-t-negative', 'refusal', ('465.2.c',), "damage to ... can't be negative"),
    Cited('damage.has-backline-must-assigned-lethal', 'refusal', ('826.3', '465.2.c.6'), '... has Backline: ... must be assigned lethal damage first'),
    Cited('damage.has-tank-must-assigned-lethal', 'refusal', ('815.1.b', '465.2.c.6'), '... has Tank: it must be assigned lethal damage before ... gets any'),
    # -- simulator/rules/effects.py
    Cited('effects.gets-ward', 'event', ('340', 'R21'), '{unit} gets a ward: the next time it would die, instead it is healed, exhausted and recalled'),
    Cited('effects.might-enters-play-has-finished', 'event', ('354.3', '359.2'), '{unit} (might {might}) enters play at {at}: {item} has finished resolving'),
    Cited('effects.plays-enters-once-has-finished', 'event', ('354.3',), '{who} plays {value} at {at}: it enters once {item} has finished resolving'),
    Cited('effects.banished', 'event', ('340',), '{unit} is banished'),
    Cited('effects.played-again-new-object', 'event', ('124',), '{unit} is played again as {value}: a new object'),
    Cited('effects.nothing-named-chain-counter', 'event', ('340',), 'nothing named {item} is on the chain to counter'),
    Cited('effects.gear-enters-play-base', 'event', ('337.2', '359.2'), "{player}'s gear {unit} enters play in base"),
    Cited('effects.resolves', 'event', ('340',), '{item} resolves'),
    Cited('effects.resolves-2', 'event', ('337.2', '429'), '{item} resolves'),
    Cited('effects.enters-play-ready-accelerate', 'event', ('337.2', '805'), '{unit} enters play ready at {at} (Accelerate)'),
    Cited('effects.enters-play', 'event', ('337.2', '359.2'), '{unit} enters play at {at}'),
    Cited('effects.gear-enters-play-base-has', 'event', ('354.3', '158.3', '359.2'), "{player}'s gear {unit} enters play in base: {item} has finished resolving"),
    Cited('effects.plays-gear-enters-base-once', 'event', ('354.3', '158.3'), '{who} plays the gear {value}: it enters its base once {item} has finished resolving'),
    Cited('effects.may-not-played-played-base', 'event', ('359.2', '462'), '{card} may not be played to {at}: it is played to base instead'),
    Cited('effects.was-not-made-from-card', 'event', ('124',), '{unit} was not made from a card: nothing is played'),
    Cited('effects.no-battlefield-was-named-triggering', 'event', ('359.3.f.3',), '{verb}: no battlefield was named by the triggering event; nothing happens'),
    Cited('effects.has-left-board-so-here', 'event', ('359.3.f.2',), "{verb}: {source} has left the board, so 'here' is unavailable; the instruction does nothing"),
    Cited('effects.countered', 'event', ('340',), '{item} is countered'),
    Cited('effects.false-part-does-nothing', 'event', ('383.2.b',), '{verb}: {value} is false; this part does nothing'),
    Cited('effects.no-longer-board-nothing-happens', 'event', ('340',), '{verb}: {unit} is no longer on the board; nothing happens'),
    Cited('effects.no-longer-board-nothing-happens-2', 'event', ('340', '354.3'), '{verb}: {unit} is no longer on the board; nothing happens'),
    Cited('effects.run-effects-recall', 'event', ('455',), 'recall in run_effects'),
    Cited('effects.stunned-deals-no-combat-damage', 'event', ('423.1',), '{unit} is stunned: it deals no combat damage this turn'),
    Cited('effects.gets-might-turn-now', 'event', ('340',), '{unit} gets {might} might this turn (now {now})'),
    Cited('effects.gets-might-turn-now-only', 'event', ('340',), '{unit} gets +{might} might this turn (now {now}): it is the only unit its controller has there'),
    Cited('effects.takes-damage', 'event', ('340',), '{unit} takes {amount} damage'),
    Cited('effects.killed', 'event', ('340',), '{unit} is killed'),
    Cited('effects.readied-or-exhausted', 'event', ('340',), '{unit} is {readied}'),
    Cited('effects.gains-turn', 'event', ('340',), '{unit} gains {keyword} this turn'),
    Cited('effects.gains-assault-adds-up', 'event', ('340', '807.2'), '{unit} gains {keyword} {value} this turn ({keyword} {total} in all)'),
    Cited('effects.gains-shield-adds-up', 'event', ('340', '814.2'), '{unit} gains {keyword} {value} this turn ({keyword} {total} in all)'),
    Cited('effects.plays-might-enters-once-has', 'event', ('354.3', '462'), '{player} plays {unit} (might {might}) at {at}: it enters once {item} has finished resolving'),
    Cited('effects.may-not-play-unit-into', 'event', ('462', '447.2'), "{player} may not play a unit into the combat at {bf}: it is played to base instead, and 'here' now means that base"),
    Cited('effects.adds-energy', 'event', ('429',), '{player} adds {energy} energy'),
    Cited('effects.draws', 'event', ('340',), '{player} draws {count}'),
    Cited('effects.will-take-extra-turn-after', 'event', ('735', 'R11'), '{who} will take an extra turn after this one'),
    Cited('effects.rest-not-carried-out-controller', 'event', ('652.4',), 'the rest of {item} is not carried out: its controller left'),
    Cited('effects.declines-part-does-nothing', 'event', ('383.3.a.3',), '{player} declines {verb}: this part of {item} does nothing'),
    # -- simulator/rules/zones.py
    Cited('zones.token-ceases-to-exist', 'event', ('186', '186.1'), '{unit} ceases to exist: a token cannot exist outside the board or the chain'),
    Cited('zones.returns-to-hand', 'event', ('056', '124'), "{object} returns to {owner}'s hand"),
    Cited('zones.discards', 'event', ('422',), '{player} discards {card}'),
    Cited('zones.recycled', 'event', ('416',), "{card} is recycled to the bottom of {owner}'s Main Deck"),
    Cited('zones.banished-from', 'event', ('427',), "{card} is banished from {owner}'s {zone}"),
    Cited('zones.no-such-card', 'event', ('340', '055'), '{verb}: {card} is not where the instruction looks for it; nothing happens'),
    # -- simulator/rules/draw.py
    Cited('draw.draws-from-deck', 'event', ('413',), '{player} draws {count} ({left} left in the Main Deck)'),
    Cited('scoring.burns-out', 'event', ('413.4', '431.1.a'), '{player} must draw from an empty Main Deck: {player} burns out'),
    Cited('scoring.recycles-trash', 'event', ('431.2.b', '416.5'), '{player} recycles {n} card(s) from the trash into the Main Deck'),
    Cited('scoring.burn-out-point', 'event', ('431.2.c',), "{opponent} gains 1 point from {player}'s burn out (now {points})"),
    Cited('scoring.wins-at-once', 'event', ('431.3.c', '431.3.c.1'), '{player} wins at once: a point from a repeated burn out'),
    Cited('concede.removed-from-game', 'event', ('652.3',), '{unit} is removed from the game'),
    # -- simulator/game/engine.py
    Cited('engine.chooses-use', 'event', ('383.3.a',), "{player} chooses to use {source}'s {name}"),
    Cited('engine.chooses-optional-part', 'event', ('383.3.a.3',), "{player} chooses to {verb} ({item}'s optional part)"),
    Cited('engine.loop', 'event', ('R22',), 'the position of schedule step {first} repeats at step {now} with no decision between'),
    Cited('engine.declined', 'event', ('383.3.a',), "{player} declines {source}'s {name}: it is removed"),
    Cited('engine.chooses-targets', 'event', ('383.3.a', '356'), "{player} chooses targets for {source}'s {item}: {targets}"),
    Cited('engine.chooses', 'event', ('323.12', '323.13'), '{player} chooses {bf}'),
    Cited('engine.orders-their-simultaneous-triggers-last', 'event', ('383.3.d',), '{player} orders their simultaneous triggers: {rest} (the last resolves first)'),
    Cited('engine.places-next-among-their-simultaneous', 'event', ('383.3.d',), '{player} places {triggers} next among their simultaneous triggers; {rest} remain to be ordered'),
    Cited('engine.declines-invitation-priority-returns', 'event', ('R13',), '{player} declines the invitation; priority returns to {turn}'),
    Cited('engine.passes-priority', 'event', ('338.2',), '{player} passes priority'),
    Cited('engine.passes-focus', 'event', ('347.2',), '{player} passes focus'),
    Cited('engine.invites-act-with-priority', 'event', ('316.5.b.1', '489.8.a', 'R13'), "{player} invites {teammate} to act with {player}'s priority"),
    Cited('engine.plays-from-facedown', 'event', ('811.1.d',), '{player} plays {card} from facedown at {at} ({targets})'),
    Cited('engine.plays', 'event', ('353',), '{player} plays {card} (PLAYS)'),
    Cited('engine.chooses-discard', 'event', ('422',), '{player} chooses {card} to discard ({item})'),
    Cited('engine.plays-from-trash', 'event', ('353', '419.1.a'), '{player} plays {card} from the trash'),
    Cited('engine.assigns-combat-damage', 'event', ('465.2.c',), '{player} assigns combat damage: {damage}'),
    Cited('engine.activates', 'event', ('377',), "{player} activates {source}'s {ability} ({targets})"),
    Cited('engine.unknown-action', 'refusal', ('410',), 'unknown action ...'),
    # -- simulator/rules/hidden.py
    Cited('hidden.hides-facedown', 'event', ('811.1.b',), '{player} hides {card} facedown at {bf}'),
    Cited('hidden.facedown-banished', 'event', ('652.1',), "{player}'s facedown {card} at {bf} is banished"),
    # -- simulator/rules/moves.py
    Cited('moves.forced-move-relocate', 'event', ('446', '450'), 'relocate in forced_move'),
    Cited('moves.moves', 'event', ('144',), '{player} moves {units} to {dest}'),
    Cited('moves.has-staged-or-ongoing-combat', 'refusal', ('447.2.a', '462'), '... has a staged or ongoing combat between two other players'),
    Cited('moves.occupied-teammate-units', 'refusal', ('447.2.b', '489'), "... is occupied by a teammate's units"),
    Cited('moves.already-has-units-two-other', 'refusal', ('144', '462'), '... already has units of two other players'),
    Cited('moves.already-move-does-nothing-no', 'event', ('355.4.a', '055', 'R20'), '{unit} is already at {dest}: the move does nothing (no move, no recall)'),
    Cited('moves.cannot-move-recalled-instead', 'event', ('447.2.c',), '{unit} cannot move to {dest} ({problem}): it is recalled instead'),
    Cited('moves.forced-move-recall', 'event', ('447.2.c', '455'), 'recall in forced_move'),
    Cited('moves.units-arrive-together-applies-contested', 'event', ('303.2.a', 'R7'), 'units of {players} arrive at {bf} together: {player} applies Contested'),
    # -- simulator/rules/phases.py
    Cited('phases.takes-extra-turn', 'event', ('735', 'R11'), '{player} takes an extra turn'),
    # -- simulator/rules/resources.py
    Cited('resources.pays-energy-left-pool-ready', 'event', ('354',), '{player} pays {amount} energy for {what} ({p} left in the pool, {p2} ready rune{value})'),
    Cited('resources.exhausts-rune-adds-energy', 'event', ('429',), '{player} exhausts {short} rune{value}: adds {short} energy'),
    # -- simulator/rules/scoring.py
    Cited('scoring.was-already-scored-turn-no', 'event', ('470',), '{bf} was already scored this turn: no Conquer point'),
    Cited('scoring.was-controlled-ally-scoring-step', 'event', ('469.1.a', '489.8.b'), "{bf} was controlled by an ally at the scoring step: {player}'s team can't score it this turn"),
    Cited('scoring.conquers-scores-1-now', 'event', ('469.1', '470'), '{player} conquers {bf} and scores 1 (now {points})'),
    Cited('scoring.conquers-one-point-short-victory', 'event', ('471.1.b', '470', '383.4.c.2.c', 'R16', 'R18'), '{player} conquers {bf} one point short of victory without having scored every battlefield this turn: draws a card instead of the point; {bf} counts as scored this turn'),
    Cited('scoring.holds-scores-1-now', 'event', ('469.2', '315.2.b'), '{player} holds {bf} and scores 1 (now {points})'),
    # -- simulator/rules/targets.py
    Cited('targets.not-gear-board', 'refusal', ('356',), '... is not gear on the board'),
    Cited('targets.not-in-a-trash', 'refusal', ('356', '108'), '... targets a card in a trash; ... is not in a trash'),
    Cited('targets.was-played-from-facedown-not', 'refusal', ('811.1.d.2',), '... chooses only at ... (played from facedown there): ... is not there'),
    Cited('targets.was-played-from-facedown-choices', 'refusal', ('811.1.d.2',), '... chooses only at ... (played from facedown there), not ...'),
    Cited('targets.takes-no-target', 'refusal', ('356',), '... takes no target ...'),
    Cited('targets.needs-target', 'refusal', ('356',), '... needs a target for ...'),
    Cited('targets.not-unit-board', 'refusal', ('356',), '... is not a unit on the board'),
    Cited('targets.targets-friendly-unit-not', 'refusal', ('356',), '... targets a friendly unit; ... is not'),
    Cited('targets.not-battlefield-or-base', 'refusal', ('356',), '... is not a battlefield or base'),
    Cited('targets.targets-chain-item-not-chain', 'refusal', ('356',), '... targets a chain item; ... is not on the chain'),
    Cited('targets.not-player-game', 'refusal', ('356',), '... is not a player in the game'),
    Cited('targets.already', 'refusal', ('356',), '... is already at ...'),
    # -- simulator/rules/triggers.py
    Cited('triggers.pend-default', 'event', ('383',), "pend's default citation"),
    Cited('triggers.has-no-legal-target-removed', 'event', ('402.4',), "{source}'s {item} has no legal target: it is removed"),
    Cited('triggers.does-not-trigger-once-per', 'event', ('383',), "{source}'s {name} does not trigger: once per turn, already used"),
    Cited('triggers.does-not-trigger-false', 'event', ('383.2.a.1', '383.2.c'), "{source}'s {name} does not trigger: {condition} is false"),
    Cited('triggers.showdown-start-before-designations', 'event', ('464.2.b', '383.3.d.1'), "a combat's showdown begins at {bf}: its start-of-showdown abilities trigger before attacker and defender are designated"),
    # -- simulator/game/validate.py (a starting position refused at load)
    Cited('validate.won-at-the-start', 'refusal', ('323.1', '194.2'), '... starts with ... points, at least the victory score and more than every opponent: the game would be over before anyone acts'),
    Cited('validate.activated-names', 'refusal', ('377',), 'two activated abilities are named ...: an activate step names one by its name, so the second could never be activated'),
    Cited('triggers.triggers-before-reaches-trash', 'event', ('808.1.d',), "{uid}'s {mine} triggers (at {at}) before {uid} reaches the trash"),
)}
_TEXT = {name: ", ".join(c.rules) for name, c in CITED.items()}


def cite(name: str) -> str:
    """The rule ids of the declared citation ``name``, as a trace or a refusal writes them (``"340, 354.3"``)."""
    try:
        return _TEXT[name]
    except KeyError:
        raise KeyError(f"{name!r} is not a declared citation (statecharts/citations.py)") from None
