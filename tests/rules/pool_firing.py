"""Firing a card's abilities, seen in the events the game records: the card's abilities as the engine
numbers them (``abilities_of``), and the drivers of its spell, mana, activated and loyalty abilities and
of its triggered abilities, each kind by what makes it trigger (``tests.rules.pool_drivers.DRIVERS``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import effects as fx
from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.commands import ActivateAbility, CastSpell, Command, DeclareAttackers, DeclareBlockers
from mtg_ledger.core.decision import Decision, DecisionKind
from mtg_ledger.core.mana import COLORS
from mtg_ledger.core.vocabulary import ABILITY_KINDS, EFFECT_KINDS, FLAG_KEYWORDS
from tests.rules.pool_exerciser import (
    NONCREATURE_SPELL,
    REMOVAL,
    YOU,
    Board,
    Chooser,
    Game,
    best,
    legal,
    play_until,
    resolve,
    yours,
)

STATIC_NAMES = {cls: name for name, cls in ABILITY_KINDS.items() if name not in ("mana", "activated", "triggered")}


@dataclass(frozen=True)
class Ability:
    """One ability of a card: its ``kind`` (the key of ``DRIVERS``), its number as the engine counts it
    (``ActivateAbility.ability``, a trigger's ``ability``; -1 for the others), the vocabulary's object."""

    kind: str
    index: int
    spec: Any
    face: CardDef
    back: bool = False

    @property
    def label(self) -> str:
        text = getattr(self.spec, "text", "") or ""
        return f"{self.face.name}'s {self.kind}" + (f" ({text})" if text else f" #{self.index}" if self.index >= 0 else "")


def abilities_of(card: CardDef) -> list[Ability]:
    """Every ability of the card, each face's, in the order the engine numbers them."""
    found: list[Ability] = []
    for face, back in ((card, False), *(((card.back, True),) if card.back is not None else ())):
        if face.effects or face.is_type("Instant") or face.is_type("Sorcery"):
            found.append(Ability("spell", -1, face.effects, face, back))
        found.extend(Ability("mana", i, m, face, back) for i, m in enumerate(face.mana_abilities))
        for i, a in enumerate(face.activated):
            found.append(Ability("loyalty" if a.loyalty is not None else "activated", len(face.mana_abilities) + i, a, face, back))
        found.extend(Ability(f"triggered:{t.event}", i, t, face, back) for i, t in enumerate(face.triggered))
        found.extend(Ability(f"static:{STATIC_NAMES.get(type(s), type(s).__name__)}", -1, s, face, back) for s in face.statics)
        flags = [k for k in FLAG_KEYWORDS if getattr(face, k)]
        found.extend(Ability(f"keyword:{k}", -1, k, face, back) for k in [*sorted(face.keywords), *flags])
    return found


# --- firing, seen in the events -------------------------------------------------------------------

EFFECT_NAMES = {cls: name for name, cls in EFFECT_KINDS.items()}
MANA = (*COLORS, "C")  # 106.1
# What each kind of effect records as its spell or ability resolves (608.2c): one of these event types.
EFFECT_EVENTS: dict[str, tuple[str, ...]] = {
    "deal_damage": ("DamageDealt",),
    "pump_until_end_of_turn": ("EffectCreated",),
    "pump_yours_until_end_of_turn": ("EffectCreated",),
    "draw_cards": ("CardDrawn",),
    "lose_life": ("LifeLost",),
    "gain_life": ("LifeGained",),
    "add_counters": ("CountersAdded",),
    "create_token": ("TokenCreated",),
    "discard_cards": ("CardsDiscarded",),
    "untap_self": ("PermanentsUntappedByEffect",),
    "untap_attackers": ("PermanentsUntappedByEffect",),
    "additional_combat_and_main": ("ExtraPhaseAdded",),
    "skip_next_combat": ("EffectCreated",),
    "no_maximum_hand_size_until_your_next_turn": ("EffectCreated",),
    "destroy_nonland": ("PermanentsPutIntoGraveyard",),
    "pump_self_until_end_of_turn": ("EffectCreated",),
    "each_player_draws": ("CardDrawn",),
    "target_player_draws": ("CardDrawn",),
    "target_player_mills": ("CardsMilled",),
    "attach": ("Attached",),
    "destroy": ("PermanentsPutIntoGraveyard",),
    "counter_unless_pays": ("ObjectCountered", "ManaSpent"),  # 702.21a: countered, or paid for
    "return_to_owners_hand": ("PermanentsReturnedToHand",),
    "counter_target_spell": ("ObjectCountered",),
    "exile": ("PermanentsExiled",),
    "tap": ("PermanentsTapped",),
}


def effects_of(ability: Ability) -> tuple[Any, ...]:
    return tuple(ability.spec) if ability.kind == "spell" else tuple(getattr(ability.spec, "effects", ()))


def hand_to_discard(board: Board, ability: Ability) -> None:
    """A discard needs cards in hand (701.9)."""
    board.you["hand"].extend(["Plains", "Island"])


# What an effect kind needs on the starting board to do something.
EFFECT_BOARD: dict[str, Callable[[Board, Ability], None]] = {"discard_cards": hand_to_discard}


def prepare_effects(board: Board, ability: Ability) -> None:
    for kind in dict.fromkeys(EFFECT_NAMES.get(type(e), "") for e in effects_of(ability)):
        if kind in EFFECT_BOARD:
            EFFECT_BOARD[kind](board, ability)


def resolution(game: Game, obj: int) -> list[dict[str, Any]]:
    """The events of the stack object's resolution: those after the last pass before its ObjectResolved."""
    at = next(i for i, e in enumerate(game.events) if e["type"] == "ObjectResolved" and e["object"] == obj)
    begun = max(i for i in range(at) if game.events[i]["type"] == "PriorityPassed")
    return game.events[begun + 1 : at + 1]


def did_each_effect(game: Game, obj: int, effects: tuple[Any, ...], label: str) -> None:
    """608.2c: each of the resolved object's effects recorded what it did."""
    recorded = {e["type"] for e in resolution(game, obj)}
    for effect in effects:
        kind = EFFECT_NAMES.get(type(effect), type(effect).__name__)
        if kind not in EFFECT_EVENTS:
            raise AssertionError(f"{game.card}: the pool exerciser does not know what effect kind {kind!r} records; add it to EFFECT_EVENTS")
        assert recorded & set(EFFECT_EVENTS[kind]), f"{label}: its effect {kind} recorded none of {EFFECT_EVENTS[kind]} as it resolved"


def trigger_resolved(game: Game, ability: Ability) -> bool:
    """603.2, 603.3, 608.2: the ability triggered, went on the stack and resolved, each effect doing its part."""
    triggered = {e["object"] for e in game.of_type("AbilityTriggered") if e["card"] == ability.face.name and e["ability"] == ability.index}
    done = [e["object"] for e in game.of_type("ObjectResolved") if e["object"] in triggered and e["outcome"] == "resolved"]
    if done:
        did_each_effect(game, done[0], ability.spec.effects, ability.label)
    return bool(done)


def triggered(game: Game, ability: Ability, since: int = 0) -> bool:
    return any(e["card"] == ability.face.name and e["ability"] == ability.index for e in game.of_type("AbilityTriggered", since))


def until_triggered(chooser: Chooser | None = None, turns: int = 4) -> Callable[[Game, Ability], None]:
    """Play, ``chooser`` acting until the ability has triggered, then passing, until it has resolved."""

    def run(game: Game, ability: Ability) -> None:
        mark = len(game.events)
        acting: Chooser | None = None
        if chooser is not None:
            acting = lambda g, d: None if triggered(g, ability, mark) else chooser(g, d)  # noqa: E731
        play_until(game, lambda: trigger_resolved(game, ability), f"{ability.label} triggering and resolving", acting, turns)

    return run


def spell(game: Game, ability: Ability) -> None:
    cast_ = [e for e in game.of_type("SpellCast") if e["card"] == game.card and e["player"] == YOU]
    assert cast_, f"{game.card}: never cast"
    outcomes = [e["outcome"] for e in game.of_type("ObjectResolved") if e["object"] == cast_[0]["object"]]
    assert outcomes == ["resolved"], f"{game.card}: the spell left the stack as {outcomes}, not resolved"
    did_each_effect(game, cast_[0]["object"], ability.spec, ability.label)


def mana(game: Game, ability: Ability) -> None:
    game.on_battlefield(ability.label)

    def act(g: Game, d: Decision) -> Command | None:
        return best(g, legal(g, d, ActivateAbility, lambda c: c.source == g.subject and c.ability == ability.index))

    produces = ability.spec.produces

    def done() -> bool:  # 605.1a: the mana it makes (any, for a choice of colour)
        return any(e["source"] == game.subject and (e["mana"] == produces or produces not in MANA) for e in game.of_type("ManaAbilityActivated"))

    play_until(game, done, f"{ability.label} being activated", yours(DecisionKind.PRIORITY, act))


def activated(game: Game, ability: Ability) -> None:
    """602.2 (606.3 for a loyalty ability: while its loyalty is too low for a minus ability, the
    card's first plus ability is activated, once a turn, to raise it)."""
    game.on_battlefield(ability.label)
    spec: fx.ActivatedAbility = ability.spec
    plus = next((len(ability.face.mana_abilities) + i for i, a in enumerate(ability.face.activated) if (a.loyalty or 0) > 0), None)

    def act(g: Game, d: Decision) -> Command | None:
        found = best(g, legal(g, d, ActivateAbility, lambda c: c.source == g.subject and c.ability == ability.index))
        perm = g.permanent()
        if found is None and perm is not None and spec.loyalty is not None and ch.loyalty(perm) < -spec.loyalty and plus is not None:
            found = best(g, legal(g, d, ActivateAbility, lambda c: c.source == g.subject and c.ability == plus))
        return found

    def done() -> bool:
        return any(e["source"] == game.subject and e["ability"] == ability.index for e in game.of_type("AbilityActivated"))

    turns = 4 + 2 * max(0, -(spec.loyalty or 0))  # time for a plus ability to raise the loyalty, once a turn of yours
    play_until(game, done, f"{ability.label} being activated", yours(DecisionKind.PRIORITY, act), turns)
    obj = game.of_type("AbilityActivated")[-1]["object"]
    resolve(game, obj, ability.label)
    did_each_effect(game, obj, spec.effects, ability.label)


# --- what makes a trigger trigger ------------------------------------------------------------------


def attack_with_it(game: Game, d: Decision) -> Command | None:
    options = legal(game, d, DeclareAttackers, lambda c: [a[0] for a in c.attackers] == [game.subject])
    return options[0] if options else None


def attack_it_can_block(game: Game, d: Decision) -> Command | None:
    """The opponent attacks with one creature the card can block (one without flying, unless it flies or has reach)."""
    perm = game.permanent()
    if perm is None or perm.tapped:
        return None
    return attack_on_the_ground(game, d, ch.has_keyword(game.state, perm, "flying") or ch.has_keyword(game.state, perm, "reach"))


def attack_on_the_ground(game: Game, d: Decision, reaches: bool = False) -> Command | None:
    """The opponent attacks with one creature without flying (any, if ``reaches``)."""
    for command in legal(game, d, DeclareAttackers, lambda c: len(c.attackers) == 1):
        attacker = game.state.permanent(command.attackers[0][0])
        if attacker is not None and (reaches or not ch.has_keyword(game.state, attacker, "flying")):
            return command
    return None


def block_with_it(game: Game, d: Decision) -> Command | None:
    options = legal(game, d, DeclareBlockers, lambda c: [b[0] for b in c.blockers] == [game.subject])
    return options[0] if options else None


def block_it(game: Game, d: Decision) -> Command | None:
    options = legal(game, d, DeclareBlockers, lambda c: any(b[1] == game.subject for b in c.blockers))
    return min(options, key=lambda c: len(c.blockers)) if options else None


def cast_at_it(card: str, player: str) -> Callable[[Game, Decision], Command | None]:
    def act(game: Game, d: Decision) -> Command | None:
        return best(game, legal(game, d, CastSpell, lambda c: c.card == card and c.player == player and game.subject in c.targets))

    return act


def cast_helper(game: Game, d: Decision) -> Command | None:
    return best(game, legal(game, d, CastSpell, lambda c: c.card == NONCREATURE_SPELL and c.player == YOU))


def in_hand(player: str, card: str) -> Callable[[Board, Ability], None]:
    def prepare(board: Board, ability: Ability) -> None:
        (board.you if player == YOU else board.opponent)["hand"].append(card)

    return prepare


def big_hand(board: Board, ability: Ability) -> None:
    board.opponent["hand"].extend(["Swamp"] * 9)  # 514.1: more than seven cards: a discard in their cleanup


def dies(game: Game, ability: Ability) -> None:
    """700.4: a removal spell at it, unless it has already died (sacrificed)."""
    chooser = yours(DecisionKind.PRIORITY, cast_at_it(REMOVAL, YOU))
    play_until(game, lambda: trigger_resolved(game, ability), f"{ability.label} triggering and resolving", chooser)
