"""One table from a kind of ability to the driver that makes an ability of that kind fire and checks
that it did: ``DRIVERS``. A card's abilities are read from its compiled definition (``abilities_of``):
its spell, mana abilities, activated and loyalty abilities, triggered abilities (those its keywords
bring too), static abilities and keywords, of each face. A kind without an entry fails, naming it.

How each kind is seen to fire (the events the game recorded, or the state):
  spell          SpellCast, then ObjectResolved "resolved" (608.2)
  mana           ManaAbilityActivated from the card's permanent (605)
  mana_choice    the same, listed once for each colour and adding the one named (106.1)
  activated      AbilityActivated (602.2, 606 for loyalty), each cost recorded as paid (602.2h: life lost,
                 the cards a discard waited for discarded), then its ObjectResolved "resolved"
  triggered:*    AbilityTriggered (603.2), stacked, then its ObjectResolved "resolved"; driven by its event
                 (a Siege's "defeated", 310.11b: attacked until defeated, then cast transformed)
  static:*       an observable effect (604): the characteristics of what it affects differ with the card
                 on the battlefield and without it, the refusal it causes, or the event it changes
  keyword:*      the permanent has it (702), and where cheap what the rule changes
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mtg_ledger.core.decision import DecisionKind
from tests.rules import pool_effects as eff
from tests.rules import pool_firing as fire
from tests.rules import pool_keywords as kw
from tests.rules import pool_sieges as siege
from tests.rules import pool_statics as st
from tests.rules.pool_exerciser import CREATURE_SPELL, ENCHANTMENT_SPELL, NONCREATURE_SPELL, OPPONENT, REMOVAL, YOU, Board, Game, either, theirs, yours
from tests.rules.pool_firing import Ability


@dataclass(frozen=True)
class Driver:
    """``run`` makes the ability fire and checks it; ``order``: drivers run lowest first (what removes
    the card from the battlefield last); ``prepare`` adds what the ability needs to the starting board."""

    run: Callable[[Game, Ability], None]
    order: int
    prepare: Callable[[Board, Ability], None] | None = None


# --- the table ---------------------------------------------------------------------------------

# The order drivers run in: what is seen as the card arrives first; what may take the card off the
# battlefield (a sacrifice, its death) last.
ARRIVING, MANA, ACTIVATED, TRIGGERED, STATIC, LATER, SACRIFICED, DYING = range(8)
KEYWORD = Driver(kw.has_keyword, ARRIVING)
IN_COMBAT = LATER  # the keywords seen in the card's one attack (or block)
SEEN_ATTACKING = yours(DecisionKind.DECLARE_ATTACKERS, fire.attack_with_it)

DRIVERS: dict[str, Driver] = {
    "spell": Driver(fire.spell, ARRIVING),
    "mana": Driver(fire.mana, MANA),
    "mana_choice": Driver(fire.mana_choice, MANA),
    "activated": Driver(fire.activated, ACTIVATED),
    "loyalty": Driver(fire.activated, ACTIVATED),
    "triggered:enters": Driver(fire.until_triggered(), TRIGGERED),
    "triggered:beginning_of": Driver(fire.until_triggered(), TRIGGERED),
    "triggered:chapter": Driver(fire.until_triggered(turns=6), TRIGGERED),
    "triggered:set_in_motion": Driver(fire.until_triggered(), TRIGGERED),
    "triggered:phased_out": Driver(fire.until_triggered(turns=6), TRIGGERED),
    "triggered:phased_in": Driver(fire.until_triggered(turns=6), TRIGGERED),
    "triggered:opponent_discards": Driver(fire.until_triggered(), TRIGGERED, fire.big_hand),
    "triggered:attacks": Driver(fire.until_triggered(SEEN_ATTACKING), TRIGGERED),
    "triggered:blocks": Driver(
        fire.until_triggered(either(theirs(DecisionKind.DECLARE_ATTACKERS, fire.attack_it_can_block), yours(DecisionKind.DECLARE_BLOCKERS, fire.block_with_it))),
        TRIGGERED,
    ),
    "triggered:becomes_blocked": Driver(fire.until_triggered(either(SEEN_ATTACKING, theirs(DecisionKind.DECLARE_BLOCKERS, fire.block_it))), TRIGGERED),
    "triggered:you_cast_noncreature": Driver(
        fire.until_triggered(yours(DecisionKind.PRIORITY, fire.cast_helper)), TRIGGERED, fire.in_hand(YOU, NONCREATURE_SPELL)
    ),
    "triggered:becomes_target": Driver(
        fire.until_triggered(theirs(DecisionKind.PRIORITY, fire.cast_at_it(NONCREATURE_SPELL, OPPONENT))), TRIGGERED, fire.in_hand(OPPONENT, NONCREATURE_SPELL)
    ),
    "triggered:you_cast_creature": Driver(
        fire.until_triggered(yours(DecisionKind.PRIORITY, fire.cast_yours(CREATURE_SPELL))), TRIGGERED, fire.in_hand(YOU, CREATURE_SPELL)
    ),
    "triggered:you_cast_enchantment": Driver(
        fire.until_triggered(yours(DecisionKind.PRIORITY, fire.cast_yours(ENCHANTMENT_SPELL))), TRIGGERED, fire.in_hand(YOU, ENCHANTMENT_SPELL)
    ),
    "triggered:opponent_draws": Driver(fire.until_triggered(), TRIGGERED),  # in their draw step (504.1)
    "triggered:deals_combat_damage_to_player": Driver(fire.until_triggered(SEEN_ATTACKING), TRIGGERED),  # unblocked (510.2)
    "triggered:defeated": Driver(siege.defeated, SACRIFICED, siege.attackers),  # a Siege's (310.11b): it leaves
    "triggered:dies": Driver(fire.dies, DYING, fire.in_hand(YOU, REMOVAL)),
    "static:attack_tax": Driver(st.attack_tax, STATIC),
    "static:no_maximum_hand_size": Driver(st.no_maximum_hand_size, STATIC),
    "static:doesnt_untap": Driver(st.doesnt_untap, MANA),  # before an ability that untaps it
    "static:grant_keyword": Driver(st.grant_keyword, STATIC, st.subtype_creature),
    "static:attached_gets": Driver(st.attached_gets, STATIC),  # after equip
    "static:creatures_you_control_get": Driver(st.creatures_you_control_get, STATIC),
    "static:cant_block": Driver(st.cant_block, STATIC),
    "static:attached_cant_attack_or_block": Driver(st.attached_cant_attack_or_block, STATIC),
    "static:enters_tapped": Driver(st.enters_tapped, ARRIVING),
    "static:you_have_hexproof": Driver(st.you_have_hexproof, STATIC, fire.in_hand(OPPONENT, NONCREATURE_SPELL)),
    "static:opponents_cant_gain_life": Driver(st.opponents_cant_gain_life, STATIC, fire.in_hand(OPPONENT, st.LIFE_GAIN)),
    "static:power_toughness_equal_to_life": Driver(st.power_toughness_equal_to_life, ARRIVING),
    "keyword:first strike": Driver(kw.first_strike, IN_COMBAT),
    "keyword:double strike": Driver(kw.double_strike, IN_COMBAT),
    "keyword:flying": Driver(kw.flying, IN_COMBAT),
    "keyword:haste": Driver(kw.haste, ARRIVING),
    "keyword:reach": Driver(kw.reach, IN_COMBAT),
    "keyword:trample": KEYWORD,
    "keyword:vigilance": Driver(kw.vigilance, IN_COMBAT),
    "keyword:phasing": Driver(kw.phasing, LATER),
    "keyword:deathtouch": Driver(kw.deathtouch, IN_COMBAT),
    "keyword:defender": Driver(kw.defender, ACTIVATED),  # before a combat it might die in
    "keyword:flash": Driver(kw.flash, ARRIVING),
    "keyword:hexproof": Driver(kw.hexproof, STATIC, fire.in_hand(OPPONENT, NONCREATURE_SPELL)),
    "keyword:indestructible": Driver(kw.indestructible, STATIC, fire.in_hand(YOU, REMOVAL)),
    "keyword:lifelink": Driver(kw.lifelink, IN_COMBAT),
    "keyword:menace": Driver(kw.menace, IN_COMBAT),
    "keyword:prowess": KEYWORD,
    "keyword:ward": KEYWORD,
    "keyword:daybound": Driver(kw.daybound, ARRIVING),
    "keyword:nightbound": Driver(kw.nightbound, ARRIVING),
}


def driver_of(card: str, ability: Ability) -> Driver:
    """The ability's kind's driver; a kind without one fails, naming it."""
    found = DRIVERS.get(ability.kind)
    if found is None:
        raise AssertionError(f"{card}: the pool exerciser has no driver for ability kind {ability.kind!r} ({ability.label}); add one to DRIVERS")
    return found


def order_of(card: str, ability: Ability) -> tuple[int, int]:
    """A front face's abilities before the back face's; a sacrifice late."""
    sacrifices = bool(getattr(ability.spec, "sacrifice", False))
    return (int(ability.back), SACRIFICED if sacrifices else driver_of(card, ability).order)


def prepare(board: Board, card: str, abilities: list[Ability]) -> None:
    """What the abilities need on the starting board."""
    for ability in abilities:
        needs = driver_of(card, ability).prepare
        if needs is not None:
            needs(board, ability)
        eff.prepare_effects(board, ability)
        eff.prepare_costs(board, ability)


def run(game: Game, ability: Ability) -> None:
    """Fire the ability (a back face's once the card has transformed, 712)."""
    if ability.back:
        st.transformed(game, ability)
    driver_of(game.card, ability).run(game, ability)
