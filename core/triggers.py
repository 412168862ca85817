"""Triggered abilities (603): what triggers on an event, and how waiting triggers go on the stack.

Triggers are detected from each event as it is recorded and wait in ``state.pending_triggers``
until a player would receive priority (603.3; 502.4 for those from the untap step). Then each
player, in APNAP order, puts theirs on the stack (603.3b), choosing order and targets where that is
a real choice (``order_triggers``); otherwise the engine does it in the order they triggered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import targeting, teams
from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.effects import TriggeredAbility
from mtg_ledger.core.state import GameState, Trigger

Found = dict[str, Any]  # AbilityTriggered fields, without the object id


def definition_named(state: GameState, name: str) -> CardDef:
    """A card face, token or scheme by the name it had when its ability triggered."""
    return state.cards.named(name)


def ability(state: GameState, trigger: Trigger | Any) -> TriggeredAbility:
    return definition_named(state, trigger.card).triggered[trigger.ability]


def _found(perm_or_none: Any, player: str, name: str, index: int, context: dict[str, Any] | None = None) -> Found:
    return {
        "player": player,
        "source": None if perm_or_none is None else perm_or_none.object,
        "card": name,
        "ability": index,
        "context": context or {},
    }


# the event types detect() looks at; every other event is skipped without building its map
TRIGGERING = frozenset({"LandPlayed", "StepBegan", "PermanentsPhased", "CardsDiscarded", "LoreCounterAdded", "SchemeSetInMotion", "SpellCast", "ObjectResolved", "AbilityActivated", "TriggeredAbilitiesStacked", "PermanentsPutIntoGraveyard", "AttackersDeclared", "BlockersDeclared", "CardDrawn", "CombatDamageDealt", "CountersRemoved", "DamageDealt", "SpellCastTransformed"})


# "whenever you cast a <kind of> spell": each cast trigger event with the spells it waits for (601.2i)
CAST: dict[str, Callable[[CardDef], bool]] = {
    "you_cast_noncreature": lambda spell: not spell.is_type("Creature"),  # 702.108a
    "you_cast_creature": lambda spell: spell.is_type("Creature"),
    "you_cast_enchantment": lambda spell: spell.is_type("Enchantment"),
}


def detect(state: GameState, e: dict[str, Any]) -> list[Found]:
    """The abilities that trigger on event ``e`` (603.2), looking at the state after it."""
    kind = e["type"]
    found: list[Found] = []
    if kind == "StepBegan":  # "at the beginning of <step>"
        triggering = state.cards.triggering  # the others never trigger anything
        for perm in [p for p in state.battlefield if p.card in triggering and not p.phased_out] if triggering else ():
            face = ch.face(state, perm)
            for i, t in enumerate(face.triggered):
                if t.event == "beginning_of" and t.step == e["step"] and (t.whose == "each" or teams.is_active(state, perm.controller)):
                    found.append(_found(perm, perm.controller, face.name, i))
    elif kind == "PermanentsPhased":  # 702.26: "whenever this phases out / in"
        for key, event in (("phased_out", "phased_out"), ("phased_in", "phased_in")):
            for obj in e[key]:
                phased = state.permanent(obj)
                if phased is None:
                    continue
                face = ch.face(state, phased)
                found.extend(_found(phased, phased.controller, face.name, i) for i, t in enumerate(face.triggered) if t.event == event)
    elif kind == "CardsDiscarded":  # "whenever an opponent discards a card": once per card
        for perm in ch.on_battlefield(state):
            if teams.teammates(state, perm.controller, e["player"]):
                continue
            face = ch.face(state, perm)
            for i, t in enumerate(face.triggered):
                if t.event == "opponent_discards":
                    found.extend(_found(perm, perm.controller, face.name, i, {"player": e["player"]}) for _ in e["cards"])
    elif kind == "CardDrawn":  # 603.2, 121.2: "whenever an opponent draws a card": once per card
        found.extend(_opponent_draws(state, e["player"]))
    elif kind == "LoreCounterAdded":  # 714.2b: a chapter triggers as lore counters reach its number
        saga = state.permanent(e["saga"])
        if saga is not None:
            face = ch.face(state, saga)
            before = e["total"] - e["count"]
            for i, t in enumerate(face.triggered):
                if t.event == "chapter" and before < t.chapter <= e["total"]:
                    found.append(_found(saga, saga.controller, face.name, i, {"chapter": t.chapter}))
    if kind == "AttackersDeclared":  # 508.1m: "whenever this creature attacks"
        found.extend(_combat_triggers(state, [a["object"] for a in e["attackers"]], "attacks"))
    elif kind == "BlockersDeclared":  # 509.1i: "whenever this creature blocks / becomes blocked" (once, however many block it)
        found.extend(_combat_triggers(state, [b["object"] for b in e["blockers"]], "blocks"))
        found.extend(_combat_triggers(state, list(dict.fromkeys(b["attacker"] for b in e["blockers"])), "becomes_blocked"))
    elif kind == "CombatDamageDealt":  # 510.2, 603.2: "whenever this creature deals combat damage to a player"
        found.extend(_damage_to_player_triggers(state, e["assignments"]))
    if kind in ("SpellCast", "AbilityActivated"):  # ward (702.21a): a permanent becomes a target
        found.extend(_became_targets(state, e["player"], e["object"], e["targets"]))
    elif kind == "TriggeredAbilitiesStacked":
        for obj in e["objects"]:
            found.extend(_became_targets(state, e["player"], obj, e["targets"].get(str(obj), [])))
    if kind in ("DamageDealt", "CombatDamageDealt", "CountersRemoved"):
        found.extend(_defeated(state, e))
    if kind in ("SpellCast", "SpellCastTransformed"):  # "whenever you cast a <kind of> spell" (601.2i; prowess, 702.108a)
        spell = state.cards.card(e["card"])
        if kind == "SpellCastTransformed" and spell.back is not None:  # the spell is its back face (712.8c)
            spell = spell.back
        for perm in ch.on_battlefield(state):
            if perm.controller != e["player"] or perm.card not in state.cards.triggering:
                continue
            face = ch.face(state, perm)
            found.extend(_found(perm, perm.controller, face.name, i) for i, t in enumerate(face.triggered) if t.event in CAST and CAST[t.event](spell))
    elif (kind == "ObjectResolved" and e["permanent"] is not None) or kind == "LandPlayed":  # "when this <permanent> enters" (603.6a): a spell resolved, or a land played (305.1)
        entered = state.permanent(e["permanent"] if kind == "ObjectResolved" else e["object"]) if state.cards.triggering else None
        if entered is not None and entered.card in state.cards.triggering:
            face = ch.face(state, entered)
            found.extend(_found(entered, entered.controller, face.name, i) for i, t in enumerate(face.triggered) if t.event == "enters")
    elif kind == "PermanentsPutIntoGraveyard":  # "when <this creature> dies" (700.4, 603.10a: it looks back in time)
        for item in e["permanents"]:
            if item["card"] not in state.cards.triggering:
                continue
            face = definition_named(state, item["card"])
            if "Creature" not in face.types:
                continue
            # no effect in this engine changes control: the permanent's owner controlled it as it died
            found.extend(
                _found(None, item["owner"], face.name, i, {"object": item["object"]}) for i, t in enumerate(face.triggered) if t.event == "dies"
            )
    elif kind == "SchemeSetInMotion":  # 701.24: "when you set this scheme in motion"
        scheme = state.cards.card(e["scheme"])
        found.extend(_found(None, e["player"], scheme.name, i) for i, t in enumerate(scheme.triggered) if t.event == "set_in_motion")
    return found


def _opponent_draws(state: GameState, player: str) -> list[Found]:
    found: list[Found] = []
    if not state.cards.triggering:  # no card of the game triggers: no walk of the battlefield at each draw
        return found
    for perm in ch.on_battlefield(state):
        if perm.card not in state.cards.triggering or teams.teammates(state, perm.controller, player):
            continue
        face = ch.face(state, perm)
        found.extend(_found(perm, perm.controller, face.name, i, {"player": player}) for i, t in enumerate(face.triggered) if t.event == "opponent_draws")
    return found


def _defeated(state: GameState, e: dict[str, Any]) -> list[Found]:
    """310.11b: "when the last defense counter is removed from this permanent": damage (120.3h) or an
    effect took a Siege's defense to 0, and its ability isn't already waiting or on the stack (a Siege
    left at 0 stays on the battlefield only while it is, 704.5v)."""
    kind = e["type"]
    if kind == "DamageDealt":
        hit = [e["target"]] if e["amount"] > 0 else []
    elif kind == "CombatDamageDealt":
        hit = [a["target"] for a in e["assignments"] if a["amount"] > 0]
    else:
        hit = [e["object"]] if e["kind"] == "defense" and e["count"] > 0 else []
    found: list[Found] = []
    for obj in dict.fromkeys(t for t in hit if isinstance(t, int)):
        perm = state.permanent(obj)
        if perm is None or perm.counters.get("defense", 1) != 0 or perm.card not in state.cards.triggering:
            continue
        face = ch.face(state, perm)
        for i, t in enumerate(face.triggered):
            if t.event == "defeated" and not _waiting(state, obj, i):
                found.append(_found(perm, perm.controller, face.name, i))
    return found


def _waiting(state: GameState, source: int, index: int) -> bool:
    """Whether this ability of this source has triggered and not yet left the stack."""
    return any(t.source == source and t.ability == index for t in state.pending_triggers) or any(
        o.kind == "triggered" and o.source == source and o.ability == index for o in state.stack
    )


def _combat_triggers(state: GameState, objects: list[int], event: str) -> list[Found]:
    """The triggered abilities of these creatures that wait for ``event`` (attacks, blocks, becomes_blocked).
    508.5: an attacking creature's ability that speaks of the defending player sees, as it triggers, the
    player the creature attacks (``Permanent.attacking``: the planeswalker's controller, the battle's protector)."""
    found: list[Found] = []
    for obj in objects:
        perm = state.permanent(obj)
        if perm is None or perm.card not in state.cards.triggering:
            continue
        face = ch.face(state, perm)
        for i, t in enumerate(face.triggered):
            if t.event == event:
                defending = any(getattr(e, "who", None) == "defending_player" for e in t.effects) and perm.attacking is not None
                found.append(_found(perm, perm.controller, face.name, i, {"defending_player": perm.attacking} if defending else None))
    return found


def _damage_to_player_triggers(state: GameState, assignments: list[dict[str, Any]]) -> list[Found]:
    """Each creature that dealt combat damage to a player (once per player, however its damage was
    divided), with that player for "that player" (510.2, 603.2)."""
    found: list[Found] = []
    dealt = dict.fromkeys((a["source"], a["target"]) for a in assignments if isinstance(a["target"], str) and a["amount"] > 0)
    for source, player in dealt:
        perm = state.permanent(source)
        if perm is None or perm.card not in state.cards.triggering:
            continue
        face = ch.face(state, perm)
        found.extend(
            _found(perm, perm.controller, face.name, i, {"player": player})
            for i, t in enumerate(face.triggered)
            if t.event == "deals_combat_damage_to_player"
        )
    return found


def _became_targets(state: GameState, player: str, obj: int, targets: list[Any]) -> list[Found]:
    """702.21a: "whenever this permanent becomes the target of a spell or ability an opponent controls"."""
    found: list[Found] = []
    for target in dict.fromkeys(t for t in targets if isinstance(t, int)):
        perm = state.permanent(target)
        if perm is None or perm.phased_out or perm.card not in state.cards.triggering or teams.teammates(state, perm.controller, player):
            continue
        face = ch.face(state, perm)
        found.extend(
            _found(perm, perm.controller, face.name, i, {"object": obj, "player": player})
            for i, t in enumerate(face.triggered)
            if t.event == "becomes_target"
        )
    return found


# --- targets and order ------------------------------------------------------------------------


def legal_targets(state: GameState, spec: str | None, controller: str) -> list[Any]:
    """115.1: the legal targets for a triggered ability's target spec, in a deterministic order (core.targeting)."""
    return targeting.legal_targets(state, spec, controller)


def _signature(t: Trigger) -> tuple[Any, ...]:
    return (t.card, t.ability, tuple(sorted(t.context.items())))


def needs_choice(state: GameState, mine: list[Trigger]) -> bool:
    """603.3b-d: a real choice: triggers that differ (so their order can matter), or a target to pick among several."""
    if len({_signature(t) for t in mine}) > 1:
        return True
    return any(len(legal_targets(state, ability(state, t).target, t.player)) > 1 for t in mine)


def default_stacking(state: GameState, mine: list[Trigger]) -> tuple[list[int], dict[str, list[Any]], list[int]]:
    """In the order they triggered, each with its first legal target; those without one are removed (603.3d)."""
    order: list[int] = []
    targets: dict[str, list[Any]] = {}
    removed: list[int] = []
    for t in mine:
        spec = ability(state, t).target
        if spec is None:
            order.append(t.object)
            continue
        options = legal_targets(state, spec, t.player)
        if options:
            order.append(t.object)
            targets[str(t.object)] = [options[0]]
        else:
            removed.append(t.object)
    return order, targets, removed
