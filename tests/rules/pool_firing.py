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
from mtg_ledger.core.vocabulary import ABILITY_KINDS, FLAG_KEYWORDS
from tests.rules.pool_effects import aimed, did_each_effect, paid_each_cost
from tests.rules.pool_exerciser import (
    MAIN_PHASES,
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

NOT_STATIC = ("mana", "mana_choice", "activated", "triggered")  # the ability kinds that are no static ability (604)
STATIC_NAMES = {cls: name for name, cls in ABILITY_KINDS.items() if name not in NOT_STATIC}


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
        found.extend(Ability("mana_choice" if isinstance(m, fx.ManaChoiceAbility) else "mana", i, m, face, back) for i, m in enumerate(face.mana_abilities))
        for i, a in enumerate(face.activated):
            found.append(Ability("loyalty" if a.loyalty is not None else "activated", len(face.mana_abilities) + i, a, face, back))
        found.extend(Ability(f"triggered:{t.event}", i, t, face, back) for i, t in enumerate(face.triggered))
        found.extend(Ability(f"static:{STATIC_NAMES.get(type(s), type(s).__name__)}", -1, s, face, back) for s in face.statics)
        flags = [k for k in FLAG_KEYWORDS if getattr(face, k)]
        found.extend(Ability(f"keyword:{k}", -1, k, face, back) for k in [*sorted(face.keywords), *flags])
    return found


# --- firing, seen in the events -------------------------------------------------------------------

MANA = (*COLORS, "C")  # 106.1


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


def mana_choice(game: Game, ability: Ability) -> None:
    """605.1a, 106.1: "Add {G} or {W}.": the legal actions list it once for each colour; activated naming
    its last colour, it adds that one."""
    game.on_battlefield(ability.label)
    choices: tuple[str, ...] = ability.spec.choices
    listed: list[tuple[str | None, ...]] = []

    def act(g: Game, d: Decision) -> Command | None:
        found = legal(g, d, ActivateAbility, lambda c: c.source == g.subject and c.ability == ability.index)
        if found:
            listed.append(tuple(c.mana for c in found))
        return next((c for c in found if c.mana == choices[-1]), None)

    def done() -> bool:
        return any(e["source"] == game.subject for e in game.of_type("ManaAbilityActivated"))

    play_until(game, done, f"{ability.label} being activated", yours(DecisionKind.PRIORITY, act))
    assert listed[-1] == choices, f"{ability.label}: the legal actions list it for {listed[-1]}, not once for each of {choices}"
    made = [e["mana"] for e in game.of_type("ManaAbilityActivated") if e["source"] == game.subject]
    assert made == [choices[-1]], f"{ability.label}: activated for {choices[-1]}, it added {made}"


def activated(game: Game, ability: Ability) -> None:
    """602.2 (606.3 for a loyalty ability: while its loyalty is too low for a minus ability, the
    card's first plus ability is activated, once a turn, to raise it)."""
    game.on_battlefield(ability.label)
    spec: fx.ActivatedAbility = ability.spec
    plus = next((len(ability.face.mana_abilities) + i for i, a in enumerate(ability.face.activated) if (a.loyalty or 0) > 0), None)

    def act(g: Game, d: Decision) -> Command | None:
        if spec.loyalty is not None and (g.state.active_player != YOU or g.state.step not in MAIN_PHASES or g.state.stack):
            return None  # 606.3: only as a sorcery
        found = legal(g, d, ActivateAbility, lambda c: c.source == g.subject and c.ability == ability.index)
        if found and spec.up_to_one:  # 115.1, 601.2c: choosing no target is listed too
            assert any(not c.targets for c in found), f"{ability.label}: the legal actions do not list it without a target"
        chosen = best(g, aimed(g, found, spec.effects))
        perm = g.permanent()
        if chosen is None and perm is not None and spec.loyalty is not None and ch.loyalty(perm) < -spec.loyalty and plus is not None:
            chosen = best(g, legal(g, d, ActivateAbility, lambda c: c.source == g.subject and c.ability == plus))
        return chosen

    def done() -> bool:
        return any(e["source"] == game.subject and e["ability"] == ability.index for e in game.of_type("AbilityActivated"))

    turns = 4 + 2 * max(0, -(spec.loyalty or 0))  # time for a plus ability to raise the loyalty, once a turn of yours
    play_until(game, done, f"{ability.label} being activated", yours(DecisionKind.PRIORITY, act), turns)
    obj = game.of_type("AbilityActivated")[-1]["object"]
    paid_each_cost(game, obj, ability)
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


def cast_yours(card: str) -> Callable[[Game, Decision], Command | None]:
    """You cast ``card`` (from your hand)."""

    def act(game: Game, d: Decision) -> Command | None:
        return best(game, legal(game, d, CastSpell, lambda c: c.card == card and c.player == YOU))

    return act


cast_helper = cast_yours(NONCREATURE_SPELL)


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
