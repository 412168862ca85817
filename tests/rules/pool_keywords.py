"""Keywords (702) of a card of the pool: the permanent has each on the battlefield, and, where it is cheap
to see, what its rule changes: a refusal it causes (flying, menace, defender, hexproof), an event of
one attack of the card's (vigilance, first strike, double strike, lifelink, deathtouch), a block it
allows (reach), a destruction it survives (indestructible), the step it was cast in (flash), or the turn
it arrived in (haste)."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CastSpell, Command, DeclareAttackers, DeclareBlockers
from mtg_ledger.core.decision import Decision, DecisionKind
from mtg_ledger.core.errors import IllegalAction
from mtg_ledger.core.rules import check
from mtg_ledger.core.vocabulary import KEYWORDS
from tests.rules.pool_exerciser import (
    NONCREATURE_SPELL,
    OPPONENT,
    REMOVAL,
    YOU,
    Game,
    cast,
    either,
    legal,
    play_until,
    resolve,
    theirs,
    yours,
)
from tests.rules.pool_firing import Ability, attack_with_it, block_with_it
from tests.rules.pool_statics import refused


def has_keyword(game: Game, ability: Ability) -> None:
    perm = game.on_battlefield(ability.label)
    assert ch.has_keyword(game.state, perm, ability.spec), f"{ability.label}: {game.card} on the battlefield has no {ability.spec}"


def haste(game: Game, ability: Ability) -> None:
    """702.10: the turn it arrived, it is not summoning sick (302.6)."""
    has_keyword(game, ability)
    perm = game.on_battlefield(ability.label)
    assert perm.fresh and not ch.sick(game.state, perm), f"{ability.label}: {game.card} is summoning sick"


def flash(game: Game, ability: Ability) -> None:
    """702.8a: it was cast outside a main phase (in your upkeep)."""
    assert game.cast_step not in (None, "precombat_main", "postcombat_main"), f"{ability.label}: cast in {game.cast_step}"


def phasing(game: Game, ability: Ability) -> None:
    """702.26a: it phases out in your next untap step."""
    has_keyword(game, ability)
    done = lambda: any(game.subject in e["phased_out"] for e in game.of_type("PermanentsPhased"))  # noqa: E731
    play_until(game, done, f"{game.card} phasing out")


def defender(game: Game, ability: Ability) -> None:
    """702.3b: declared as an attacker (once it could otherwise), it is refused."""
    has_keyword(game, ability)
    seen: list[bool] = []

    def refuse(g: Game, d: Decision) -> Command | None:
        perm = g.on_battlefield(ability.label)
        if not ch.sick(g.state, perm) and not perm.tapped:
            seen.append(refused(g, DeclareAttackers(YOU, ((perm.object, None),)), "702.3b", "rules.card_has_defender_and_cannot_attack"))
        return None

    play_until(game, lambda: bool(seen), f"{ability.label} refusing an attack", yours(DecisionKind.DECLARE_ATTACKERS, refuse))


def daybound(game: Game, ability: Ability) -> None:
    """726.2: with a daybound permanent on the battlefield and neither day nor night, it becomes day."""
    game.on_battlefield(ability.label)
    assert any(e["to"] == "day" and e["rule"] == "726.2" for e in game.of_type("DayNightChanged")), f"{ability.label}: it did not become day"


def nightbound(game: Game, ability: Ability) -> None:
    """702.145: at night it shows its nightbound face."""
    perm = game.on_battlefield(ability.label)
    assert game.state.day_night == "night" and perm.transformed and ch.face(game.state, perm).nightbound, f"{ability.label}: not at night"


def hexproof(game: Game, ability: Ability) -> None:
    """702.11b: the opponent's spell can't target it."""
    has_keyword(game, ability)
    seen: list[bool] = []

    def probe(g: Game, d: Decision) -> Command | None:
        shock = CastSpell(OPPONENT, NONCREATURE_SPELL, targets=(g.on_battlefield(ability.label).object,))
        seen.append(refused(g, shock, "702.11b", "rules.other_has_hexproof_card_cannot_target"))
        return None

    play_until(game, lambda: bool(seen), f"{ability.label} refusing a target", theirs(DecisionKind.PRIORITY, probe))


def indestructible(game: Game, ability: Ability) -> None:
    """702.12b: "Destroy target creature." resolves, and it stays on the battlefield."""
    has_keyword(game, ability)
    obj = cast(game, REMOVAL, match=lambda c: c.targets == (game.subject,))
    resolve(game, obj, REMOVAL)
    game.on_battlefield(f"{ability.label} (after {REMOVAL})")


def _blocks_a_flyer(game: Game, ability: Ability, rule: str) -> None:
    """It blocks a creature with flying (the opponent's weakest flyer attacks)."""

    def flyer_attacks(g: Game, d: Decision) -> Command | None:
        flying = lambda c: len(c.attackers) == 1 and ch.has_keyword(g.state, g.state.permanent(c.attackers[0][0]), "flying")  # noqa: E731
        return min(legal(g, d, DeclareAttackers, flying), key=lambda c: ch.power(g.state, g.state.permanent(c.attackers[0][0])), default=None)  # type: ignore[arg-type]

    def done() -> bool:
        blocked = [b["attacker"] for e in game.of_type("BlockersDeclared") for b in e["blockers"] if b["object"] == game.subject]
        return any(p is not None and ch.has_keyword(game.state, p, "flying") for p in map(game.state.permanent, blocked))

    chooser = either(theirs(DecisionKind.DECLARE_ATTACKERS, flyer_attacks), yours(DecisionKind.DECLARE_BLOCKERS, block_with_it))
    play_until(game, done, f"{ability.label} blocking a creature with flying ({rule})", chooser)


def reach(game: Game, ability: Ability) -> None:
    """702.17b: it blocks a creature with flying."""
    has_keyword(game, ability)
    _blocks_a_flyer(game, ability, "702.17b")


# --- one attack of the card's, shared by the keywords that show in combat ------------------------------


def _probe_blocks(game: Game, d: Decision) -> Command | None:
    """At the opponent's declaration of blockers against the card: a block by one creature without
    flying or reach (flying, 702.9b) and by any one creature (menace, 702.111b) are asked of the rules;
    then no block, or, against deathtouch, the block by their creatures of least power (704.5h)."""
    perm = game.permanent()
    if perm is None or perm.attacking is None:
        return None
    notes = game.notes.setdefault("blocks", {})
    theirs_ = [p for p in ch.on_battlefield(game.state) if p.controller == OPPONENT and ch.is_creature(game.state, p) and not p.tapped]
    ground = [p for p in theirs_ if not ch.has_keyword(game.state, p, "flying") and not ch.has_keyword(game.state, p, "reach")]
    if ground:
        notes["one without flying"] = _why(game, DeclareBlockers(OPPONENT, ((ground[0].object, perm.object),)))
    for blocker in theirs_:
        why = _why(game, DeclareBlockers(OPPONENT, ((blocker.object, perm.object),)))
        if why is None or why[0] == "702.111b":
            notes["one"] = why
            break
    if not ch.has_keyword(game.state, perm, "deathtouch"):
        return DeclareBlockers(OPPONENT, ())
    blocks = legal(game, d, DeclareBlockers, lambda c: any(b[1] == perm.object for b in c.blockers))
    return min(blocks, key=lambda c: sum(ch.power(game.state, game.state.permanent(b[0])) for b in c.blockers), default=None)  # type: ignore[arg-type]


def _why(game: Game, command: Command) -> tuple[str, str] | None:
    """Why the rules refuse ``command`` (its rule and reason), or None if they accept it."""
    try:
        check(game.state, command)
    except IllegalAction as refusal:
        return (refusal.rule, refusal.code)
    return None


def attack(game: Game, ability: Ability) -> dict[str, Any]:
    """The card attacks the opponent once (as soon as it can), and the combat ends: its AttackersDeclared."""
    if "attack" not in game.notes:
        declared = lambda: [e for e in game.of_type("AttackersDeclared") if game.subject in [a["object"] for a in e["attackers"]]]  # noqa: E731

        def over() -> bool:
            found = declared()
            return bool(found) and any(e["step"] == "end_of_combat" for e in game.events[found[0]["v"] :] if e["type"] == "StepBegan")

        def declare(g: Game, d: Decision) -> Command | None:
            command = attack_with_it(g, d)
            if command is not None:  # what it has as it attacks: it may not survive the combat
                g.notes["keywords"] = {k for k in KEYWORDS if ch.has_keyword(g.state, g.on_battlefield(ability.label), k)}
            return command

        chooser = either(yours(DecisionKind.DECLARE_ATTACKERS, declare), theirs(DecisionKind.DECLARE_BLOCKERS, _probe_blocks))
        play_until(game, over, f"{game.card} attacking", chooser)
        game.notes["attack"] = declared()[0]
    attacked: dict[str, Any] = game.notes["attack"]
    return attacked


def attacking_with(game: Game, ability: Ability) -> None:
    """It had the keyword as it attacked."""
    attack(game, ability)
    assert ability.spec in game.notes["keywords"], f"{ability.label}: {game.card} attacked without {ability.spec}"


def _damage(game: Game, ability: Ability) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The combat damage of the card's attack: (CombatDamageDealt event, the card's assignment) pairs."""
    since = attack(game, ability)["v"]
    return [(e, a) for e in game.of_type("CombatDamageDealt", since) for a in e["assignments"] if a["source"] == game.subject]


def flying(game: Game, ability: Ability) -> None:
    """702.9b: a creature without flying or reach can't block it; one that can't attack shows it
    blocking a creature with flying (702.9c)."""
    perm = game.on_battlefield(ability.label)
    if ch.has_keyword(game.state, perm, "defender"):
        has_keyword(game, ability)
        _blocks_a_flyer(game, ability, "702.9c")
        return
    attacking_with(game, ability)
    why = game.notes.get("blocks", {}).get("one without flying")
    assert why == ("702.9b", "rules.card_has_flying_other_neither_flying_nor_reach"), f"{ability.label}: a block by a creature without flying or reach: {why}"


def menace(game: Game, ability: Ability) -> None:
    """702.111b: one creature alone can't block it."""
    attacking_with(game, ability)
    why = game.notes.get("blocks", {}).get("one")
    assert why == ("702.111b", "rules.card_has_menace_blocked_by_one"), f"{ability.label}: a block by one creature: {why}"


def vigilance(game: Game, ability: Ability) -> None:
    """702.20b: attacking doesn't tap it."""
    attacking_with(game, ability)
    assert game.subject not in attack(game, ability)["tapped"], f"{ability.label}: attacking tapped {game.card}"


def first_strike(game: Game, ability: Ability) -> None:
    """702.7b: it deals its combat damage in the first-strike combat damage step."""
    attacking_with(game, ability)
    steps = [e["first_strike"] for e, _ in _damage(game, ability)]
    assert steps == [True], f"{ability.label}: its combat damage was dealt in steps {steps} (first strike: True)"


def double_strike(game: Game, ability: Ability) -> None:
    """702.4b: it deals combat damage in both combat damage steps."""
    attacking_with(game, ability)
    steps = [e["first_strike"] for e, _ in _damage(game, ability)]
    assert steps == [True, False], f"{ability.label}: its combat damage was dealt in steps {steps} (first strike: True, then False)"


def lifelink(game: Game, ability: Ability) -> None:
    """702.15b: its damage makes you gain that much life."""
    attacking_with(game, ability)
    dealt = sum(a["amount"] for _, a in _damage(game, ability))
    since = attack(game, ability)["v"]
    gained = sum(e["amount"] for e in game.of_type("LifeGained", since) if e["player"] == YOU and e["source"] == game.subject)
    assert dealt > 0 and gained == dealt, f"{ability.label}: dealt {dealt} combat damage, gained {gained} life"


def deathtouch(game: Game, ability: Ability) -> None:
    """702.2b, 704.5h: a creature it dealt damage to is destroyed."""
    attacking_with(game, ability)
    hit = [a["target"] for _, a in _damage(game, ability) if isinstance(a["target"], int) and a["amount"] > 0]
    assert hit and all(a.get("deathtouch") for _, a in _damage(game, ability)), f"{ability.label}: its combat damage {[a for _, a in _damage(game, ability)]}"
    died = {p["object"] for e in game.of_type("PermanentsPutIntoGraveyard") for p in e["permanents"]}
    assert set(hit) <= died, f"{ability.label}: the creatures it dealt damage to ({hit}) were not destroyed"

