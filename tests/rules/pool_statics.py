"""Static abilities (604) of a card of the pool, seen to apply: the characteristics of what they affect
differ with the card on the battlefield and without it (613), the refusal they cause, or the event they
change."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import player_statics
from mtg_ledger.core.commands import ActivateAbility, CastSpell, Command, DeclareAttackers, DeclareBlockers
from mtg_ledger.core.decision import Decision, DecisionKind
from mtg_ledger.core.errors import IllegalAction
from mtg_ledger.core.rules import check
from mtg_ledger.core.vocabulary import KEYWORDS
from tests.rules.pool_exerciser import (
    NONCREATURE_SPELL,
    OPPONENT,
    YOU,
    Board,
    Chooser,
    Game,
    cast,
    either,
    legal,
    live_pool,
    play_until,
    resolve,
    theirs,
    without,
    yours,
)
from tests.rules.pool_effects import resolution
from tests.rules.pool_firing import Ability, attack_on_the_ground, attack_with_it

LIFE_GAIN = "Lightning Helix"  # the opponent's instant by which its controller gains life ("... and you gain 3 life.")


# --- static abilities: an observable effect ----------------------------------------------------------


def _characteristics(game: Game, state: Any, obj: int) -> tuple[int, int, frozenset[str]]:
    perm = state.permanent(obj)
    assert perm is not None
    return ch.power(state, perm), ch.toughness(state, perm), frozenset(k for k in KEYWORDS if ch.has_keyword(state, perm, k))


def _changes(game: Game, ability: Ability, affected: int) -> None:
    """613: the affected permanent's power and toughness with the card and without it differ by what
    the ability says, and it has the keywords the ability gives, which it lacks without it (or prints)."""
    spec = ability.spec
    p1, t1, k1 = _characteristics(game, game.state, affected)
    p0, t0, k0 = _characteristics(game, without(game.state, game.on_battlefield(ability.label).object), affected)
    gives = set(getattr(spec, "keywords", ())) | ({spec.keyword} if hasattr(spec, "keyword") else set())
    seen = f"{ability.label}: with it the permanent is {p1}/{t1} {sorted(k1)}, without it {p0}/{t0} {sorted(k0)}"
    assert (p1 - p0, t1 - t0) == (getattr(spec, "power", 0), getattr(spec, "toughness", 0)), seen
    assert gives <= k1 and k1 - k0 <= gives and (p1, t1, k1) != (p0, t0, k0), seen


def attached_gets(game: Game, ability: Ability) -> None:
    host = game.on_battlefield(ability.label).attached_to
    assert host is not None, f"{ability.label}: {game.card} is attached to nothing"
    _changes(game, ability, host)


def creatures_you_control_get(game: Game, ability: Ability) -> None:
    perm = game.on_battlefield(ability.label)
    others = [p.object for p in ch.on_battlefield(game.state) if p.controller == perm.controller and p.object != perm.object and ch.is_creature(game.state, p)]
    assert others, f"{ability.label}: no other creature of yours to see it on"
    _changes(game, ability, others[0])


def grant_keyword(game: Game, ability: Ability) -> None:
    perm = game.on_battlefield(ability.label)
    wanted = set(ability.spec.subtypes)
    others = [p.object for p in ch.on_battlefield(game.state) if p.controller == perm.controller and p.object != perm.object and wanted & set(ch.face(game.state, p).subtypes)]
    assert others, f"{ability.label}: no other permanent of yours of {sorted(wanted)} to see it on"
    _changes(game, ability, others[0])


def _a_creature_of(subtypes: tuple[str, ...]) -> str:
    """The plainest creature card of the pool with one of these subtypes."""
    pool = live_pool().definitions
    fits = [n for n, d in pool.items() if not d.get("token") and "Creature" in d["types"] and set(subtypes) & set(d.get("subtypes", ()))]
    assert fits, f"the pool has no creature of {subtypes}"
    return min(fits, key=lambda n: (len(pool[n].get("abilities", ())) + len(pool[n].get("keywords", ())), n))


def subtype_creature(board: Board, ability: Ability) -> None:
    board.you["battlefield"].append(_a_creature_of(ability.spec.subtypes))


def refused(game: Game, command: Command, rule: str, why: str) -> bool:
    """The rules refuse ``command`` under ``rule``, for the reason ``why`` (the message's id)."""
    try:
        check(game.state, command)
    except IllegalAction as refusal:
        assert (refusal.rule, refusal.code) == (rule, why), f"{game.card}: {command} refused under {refusal.rule} ({refusal}), not {rule} {why}"
        return True
    raise AssertionError(f"{game.card}: {command} was not refused ({rule})")


def cant_block(game: Game, ability: Ability) -> None:
    """509.1a: declared as a blocker, it is refused."""
    seen: list[bool] = []

    def refuse(g: Game, d: Decision) -> Command | None:
        attacker = next(p.object for p in ch.on_battlefield(g.state) if p.attacking)
        seen.append(refused(g, DeclareBlockers(YOU, ((g.subject, attacker),)), "509.1a", "rules.card_cannot_block_an_ability_says_so"))  # type: ignore[arg-type]
        return None

    chooser = either(theirs(DecisionKind.DECLARE_ATTACKERS, attack_on_the_ground), yours(DecisionKind.DECLARE_BLOCKERS, refuse))
    play_until(game, lambda: bool(seen), f"{ability.label} refusing a block", chooser)


def attached_cant_attack_or_block(game: Game, ability: Ability) -> None:
    """508.1a: the creature it is attached to, declared as an attacker, is refused."""
    host = game.state.permanent(game.on_battlefield(ability.label).attached_to or 0)
    assert host is not None, f"{ability.label}: {game.card} is attached to nothing"
    seen: list[bool] = []

    def refuse(g: Game, d: Decision) -> Command | None:
        if d.player == host.controller:
            seen.append(refused(g, DeclareAttackers(host.controller, ((host.object, None),)), "508.1a", "rules.card_cannot_attack_an_ability_says_so"))
        return None

    chooser: Chooser = lambda g, d: refuse(g, d) if d.kind is DecisionKind.DECLARE_ATTACKERS else None  # noqa: E731
    play_until(game, lambda: bool(seen), f"{ability.label} refusing an attack", chooser)


def attack_tax(game: Game, ability: Ability) -> None:
    """508.1d, 508.1h: the opponent's attack at you is paid for."""

    def attack(g: Game, d: Decision) -> Command | None:
        return next(iter(legal(g, d, DeclareAttackers, lambda c: len(c.attackers) == 1)), None)

    def done() -> bool:
        return any(c["source"] == game.subject for e in game.of_type("AttackersDeclared") for c in e["costs_paid"])

    play_until(game, done, f"{ability.label} taxing an attack", theirs(DecisionKind.DECLARE_ATTACKERS, attack))


def no_maximum_hand_size(game: Game, ability: Ability) -> None:
    """402.2: your maximum hand size is none with it, seven without it."""
    perm = game.on_battlefield(ability.label)
    with_it, without_it = ch.max_hand_size(game.state, YOU), ch.max_hand_size(without(game.state, perm.object), YOU)
    assert (with_it, without_it) == (None, 7), f"{ability.label}: maximum hand size {with_it} with it, {without_it} without"


def doesnt_untap(game: Game, ability: Ability) -> None:
    """502.3: tapped (by attacking, or for mana), it is still tapped after your next untap step."""
    perm = game.on_battlefield(ability.label)

    def tap(g: Game, d: Decision) -> Command | None:
        if d.kind is DecisionKind.DECLARE_ATTACKERS and d.player == YOU:
            return attack_with_it(g, d)
        if d.kind is DecisionKind.PRIORITY and d.player == YOU and ability.face.mana_abilities:
            return next(iter(legal(g, d, ActivateAbility, lambda c: c.source == g.subject)), None)
        return None

    play_until(game, lambda: perm.tapped, f"tapping {game.card}", tap)
    turns = len(game.of_type("TurnBegan"))
    play_until(game, lambda: game.state.active_player == YOU and len(game.of_type("TurnBegan")) > turns and game.state.step == "upkeep", "your next upkeep")
    assert perm.tapped, f"{ability.label}: {game.card} untapped in your untap step"


def enters_tapped(game: Game, ability: Ability) -> None:
    """614.1c."""
    tapped = [e for e in game.of_type("PermanentsTapped") if e["rule"] == "614.1c" and game.subject in e["permanents"]]
    assert tapped, f"{ability.label}: {game.card} did not enter tapped"


def transformed(game: Game, ability: Ability) -> None:
    """712, 702.145: a back face's ability waits for the card to transform (night comes after a turn without spells)."""
    perm = game.on_battlefield(ability.label)
    play_until(game, lambda: perm.transformed, f"{game.card} transforming")


# --- static abilities that apply to players (604.1) --------------------------------------------------


def you_have_hexproof(game: Game, ability: Ability) -> None:
    """702.11c: the opponent's spell can't target you while the card is on the battlefield; without it, it can."""
    perm = game.on_battlefield(ability.label)
    seen: list[bool] = []

    def probe(g: Game, d: Decision) -> Command | None:
        shock = CastSpell(OPPONENT, NONCREATURE_SPELL, targets=(YOU,))
        seen.append(refused(g, shock, "702.11c", "rules.player_has_hexproof_card_cannot_target"))
        check(without(g.state, perm.object), shock)  # accepted without it
        return None

    play_until(game, lambda: bool(seen), f"{ability.label} refusing a target", theirs(DecisionKind.PRIORITY, probe))


def opponents_cant_gain_life(game: Game, ability: Ability) -> None:
    """119.7: the opponent's spell that says they gain life resolves, and they gain none (none is recorded);
    without the card they could."""
    perm = game.on_battlefield(ability.label)
    assert not player_statics.can_gain_life(game.state, OPPONENT), f"{ability.label}: the opponent can gain life"
    assert player_statics.can_gain_life(without(game.state, perm.object), OPPONENT), f"{ability.label}: without it the opponent cannot gain life"
    obj = cast(game, LIFE_GAIN, OPPONENT, match=lambda c: c.targets == (YOU,))
    resolve(game, obj, LIFE_GAIN)
    gained = [e for e in resolution(game, obj) if e["type"] == "LifeGained"]
    assert gained == [], f"{ability.label}: the opponent's {LIFE_GAIN} recorded {gained}"


def power_toughness_equal_to_life(game: Game, ability: Ability) -> None:
    """604.3, 613.4a: its power and toughness are its controller's life total, now and at another one."""
    perm = game.on_battlefield(ability.label)
    life = game.state.players[perm.controller].life
    other = copy.copy(game.state)
    other.players = {**game.state.players, perm.controller: dataclasses.replace(game.state.players[perm.controller], life=life + 7)}
    seen = [(ch.power(s, perm), ch.toughness(s, perm)) for s in (game.state, other)]
    assert seen == [(life, life), (life + 7, life + 7)], f"{ability.label}: at life {life} and {life + 7} it is {seen}"
