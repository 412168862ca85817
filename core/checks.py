"""The checks of the decisions a player takes outside combat (combat's are in ``core.combat``): playing
a land, casting a spell, activating an ability, discarding, putting triggered abilities on the stack.
Each returns the plan the engine records, or raises an ``IllegalAction`` naming the rule.
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import player_statics, targeting, teams, triggers
from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell, Concede, Discard, OrderTriggers, PassPriority, PlayLand, Target
from mtg_ledger.core.decision import DecisionKind, pending_decision
from mtg_ledger.core.effects import ability_targets
from mtg_ledger.core.errors import CannotPay, IllegalAction, IllegalTarget, Phrase, WrongTiming
from mtg_ledger.core.mana import parse_cost
from mtg_ledger.core.payment import plan_payment
from mtg_ledger.core.plans import AbilityPlan, CastPlan, ConcedePlan, DiscardPlan, LandPlan, ManaAbilityPlan, PassPlan, StackPlan, pass_plan
from mtg_ledger.core.state import GameState
from mtg_ledger.core.turn import MAIN_STEPS, Step


STEP_NAMES: dict[Step, Phrase] = {  # a step's name, in "not in the ... step"
    Step.UNTAP: Phrase("rules.step_untap"),
    Step.UPKEEP: Phrase("rules.step_upkeep"),
    Step.DRAW: Phrase("rules.step_draw"),
    Step.PRECOMBAT_MAIN: Phrase("rules.step_precombat_main"),
    Step.BEGINNING_OF_COMBAT: Phrase("rules.step_beginning_of_combat"),
    Step.DECLARE_ATTACKERS: Phrase("rules.step_declare_attackers"),
    Step.DECLARE_BLOCKERS: Phrase("rules.step_declare_blockers"),
    Step.COMBAT_DAMAGE: Phrase("rules.step_combat_damage"),
    Step.END_OF_COMBAT: Phrase("rules.step_end_of_combat"),
    Step.POSTCOMBAT_MAIN: Phrase("rules.step_postcombat_main"),
    Step.END: Phrase("rules.step_end"),
    Step.CLEANUP: Phrase("rules.step_cleanup"),
}


def _sorcery_timing(state: GameState, player: str, what: Phrase, rule: str) -> None:
    """307.1 / 505.6a: own turn, a main phase, the stack empty."""
    if not teams.is_active(state, player):
        raise WrongTiming(rule, "rules.what_only_during_own_turn", what=what, player=state.active_player)
    if state.step not in MAIN_STEPS:
        raise WrongTiming(rule, "rules.what_only_in_main_phase", what=what, step=STEP_NAMES[Step(str(state.step))])
    if state.stack:
        raise WrongTiming(rule, "rules.what_only_while_stack_empty", what=what, n=len(state.stack))


def check_land(state: GameState, command: PlayLand) -> LandPlan:
    """505.6b, 305.1-305.2: one land per turn, own main phase, empty stack, from hand."""
    ch.require_in_hand(state, command.player, command.card, "305.1")
    if not state.cards.card(command.card).is_type("Land"):
        raise IllegalAction("305.1", "rules.card_is_not_land_spells_are_cast", card=command.card)
    _sorcery_timing(state, command.player, Phrase("rules.what_card_can_be_played", {"card": command.card}), "505.6b")
    if state.players[command.player].lands_played >= 1:
        raise WrongTiming("305.2", "rules.player_has_already_played_land_this_turn", player=command.player)
    return LandPlan(command.player, command.card)


def check_cast(state: GameState, command: CastSpell) -> CastPlan:
    """601.2: announce (from hand), timing, targets, then costs that can be paid."""
    player = command.player
    ch.require_in_hand(state, player, command.card, "601.2a")
    definition = state.cards.card(command.card)
    if definition.is_type("Land"):
        raise IllegalAction("305.9", "rules.card_is_land_it_is_played_special", card=command.card)
    if definition.sorcery_speed:
        kind = Phrase("rules.kind_sorcery" if definition.is_type("Sorcery") else "rules.kind_permanent_spell")
        rule = "307.1" if definition.is_type("Sorcery") else "505.6a"
        _sorcery_timing(state, player, Phrase("rules.what_card_kind_can_be_cast", {"card": command.card, "kind": kind}), rule)
    targets = check_target_list(state, definition.spell_targets, command.targets, command.card, player)
    what = Phrase("rules.what_card_cost", {"card": command.card, "cost": definition.cost})
    taps, spent = plan_payment(state, player, definition.mana_cost, command.pay, what=what, rule="601.2h")
    return CastPlan(player, command.card, targets, taps, spent)


PLAYER_SPECS = {
    "any": Phrase("rules.wanted_creature_or_player"),
    "player": Phrase("rules.wanted_player"),
    "opponent": Phrase("rules.wanted_opponent"),
    "player_or_planeswalker": Phrase("rules.wanted_player_or_planeswalker"),
}
WANTED = {
    "creature_you_control": Phrase("rules.wanted_creature_you_control"),
    "permanent": Phrase("rules.wanted_permanent"),
    "nonland_permanent": Phrase("rules.wanted_nonland_permanent"),
    "spell": Phrase("rules.wanted_spell"),
    "creature_spell": Phrase("rules.wanted_creature_spell"),
    "noncreature_spell": Phrase("rules.wanted_noncreature_spell"),
    "artifact_or_enchantment": Phrase("rules.wanted_artifact_or_enchantment"),
    "enchantment": Phrase("rules.wanted_enchantment"),
    "creature_with_flying": Phrase("rules.wanted_creature_with_flying"),
    "nonblack_creature": Phrase("rules.wanted_nonblack_creature"),
    "creature_opponent_controls": Phrase("rules.wanted_creature_an_opponent_controls"),
    "attacking_or_blocking_creature": Phrase("rules.wanted_attacking_or_blocking_creature"),
    "black_or_red_permanent": Phrase("rules.wanted_black_or_red_permanent"),
    "artifact_creature_or_land": Phrase("rules.wanted_artifact_creature_or_land"),
    "creature_you_dont_control": Phrase("rules.wanted_creature_you_dont_control"),
    "land": Phrase("rules.wanted_land"),
}


def check_target_list(state: GameState, specs: tuple[str, ...], given: tuple[Target, ...], name: str, controller: str) -> list[Any]:
    """601.2c, 115.1: a spell or ability with several targets has exactly one for each of its specs, each
    legal for its own; targets of one spec ("two target lands") are different objects (601.2c: an object
    is chosen once for one instance of the word "target"). One target or none: ``check_targets``."""
    if len(specs) <= 1:
        return check_targets(state, specs[0] if specs else None, given, name, controller)
    if len(given) != len(specs):
        raise IllegalTarget("601.2c", "rules.card_needs_exactly_count_targets_n_chosen", card=name, count=len(specs), n=len(given))
    chosen = [check_targets(state, spec, (target,), name, controller)[0] for spec, target in zip(specs, given, strict=True)]
    for i, target in enumerate(chosen):
        if any(chosen[j] == target and specs[j] == specs[i] for j in range(i)):
            other = target if isinstance(target, str) else ch.name(state, ch.find_permanent(state, target))
            raise IllegalTarget("601.2c", "rules.card_cannot_choose_other_twice_as_target", card=name, other=other)
    return chosen


def check_targets(state: GameState, spec: str | None, given: tuple[Target, ...], name: str, controller: str) -> list[Any]:
    """601.2c, 115.1: exactly the targets the spell or ability asks for, each legal (core.targeting;
    702.11b: not a permanent with hexproof an opponent controls)."""
    if spec is None:
        if given:
            raise IllegalTarget("115.1", "rules.card_has_no_targets_but_n_were", card=name, n=len(given))
        return []
    if len(given) != 1:
        raise IllegalTarget("601.2c", "rules.card_needs_exactly_one_target_n_chosen", card=name, n=len(given))
    chosen = given[0]
    wanted = PLAYER_SPECS.get(spec) or WANTED.get(spec, Phrase("rules.wanted_creature"))
    if isinstance(chosen, str) and chosen in state.players:
        if spec not in PLAYER_SPECS or (spec == "opponent" and chosen == controller):
            raise IllegalTarget("115.1", "rules.card_must_target_wanted_not_player", card=name, wanted=wanted, player=chosen)
        if state.players[chosen].lost:
            raise IllegalTarget("115.1", "rules.player_has_left_game_and_cannot_be", player=chosen)
        if player_statics.hexproof_from(state, chosen, controller):
            raise IllegalTarget("702.11c", "rules.player_has_hexproof_card_cannot_target", player=chosen, card=name)
        return [chosen]
    if spec in targeting.SPELL_SPECS:
        return [_spell_on_stack(state, chosen, name, spec, wanted)]
    ref = CardRef(chosen) if isinstance(chosen, str) else chosen
    perm = ch.find_permanent(state, ref, what=Phrase("rules.thing_target"))
    if spec in ("player", "opponent") or not targeting.kind_fits(state, spec, perm, controller):
        raise IllegalTarget("115.1", "rules.card_must_target_wanted_not_other", card=name, wanted=wanted, other=ch.name(state, perm))
    if targeting.hexproof_from(state, perm, controller):
        raise IllegalTarget("702.11b", "rules.other_has_hexproof_card_cannot_target", card=name, other=ch.name(state, perm))
    return [perm.object]


def _spell_on_stack(state: GameState, chosen: Target, name: str, spec: str, wanted: Phrase) -> int:
    """115.1, 601.2c: a spell on the stack, by its object id or its card's name (the topmost of that name
    first), of the kind the spec accepts (a creature spell, a noncreature spell)."""
    spells = [o for o in reversed(state.stack) if o.kind == "spell"]
    if isinstance(chosen, int):
        found = [o for o in spells if o.object == chosen]
    else:
        ref = CardRef(chosen) if isinstance(chosen, str) else chosen
        found = [o for o in spells if o.card == ref.card][ref.index : ref.index + 1]
    if not found:
        raise IllegalTarget("115.1", "rules.card_must_target_a_spell_on_the_stack", card=name, ref=chosen)
    if not targeting.spell_kind_fits(state, spec, found[0].card, found[0].context.get("transformed", False)):
        raise IllegalTarget("115.1", "rules.card_must_target_wanted_not_other", card=name, wanted=wanted, other=found[0].card)
    return found[0].object


def spec_of_target(specs: tuple[str, ...], index: int) -> str | None:
    """The spec the target in position ``index`` was chosen for (601.2c): its own, or the one spec of them all."""
    if not specs:
        return None
    return specs[index] if index < len(specs) else specs[-1]


def target_still_legal(state: GameState, spec: str | None, target: Any, controller: str) -> bool:
    """608.2b: a target is illegal on resolution if it is gone or no longer fits."""
    if spec in targeting.SPELL_SPECS:
        return targeting.spell_fits(state, target, spec)
    if isinstance(target, str):
        return targeting.player_fits(state, spec, target, controller)
    perm = state.permanent(target)
    return perm is not None and targeting.permanent_fits(state, spec, perm, controller)


def check_activate(state: GameState, command: ActivateAbility) -> ManaAbilityPlan | AbilityPlan:
    """605.3a: a mana ability may be activated whenever its controller has priority ({T}: 302.6);
    602.2, 602.5b: other activated abilities go on the stack, within their timing restriction."""
    perm = ch.find_permanent(state, command.source, what=Phrase("rules.thing_source"))
    definition = ch.face(state, perm)
    label = ch.name(state, perm)
    if perm.controller != command.player:
        raise IllegalAction("602.2", "rules.player_does_not_control_card", player=command.player, card=label)
    mana_count = len(definition.mana_abilities)
    if command.ability < 0 or command.ability >= mana_count + len(definition.activated):
        raise IllegalAction("602.1", "rules.card_has_no_activated_ability_number_n", card=label, n=command.ability)
    if command.ability < mana_count:
        if perm.tapped:
            raise CannotPay("602.2b", "rules.card_is_already_tapped", card=label)
        if ch.sick(state, perm):
            raise CannotPay("302.6", "rules.card_has_summoning_sickness_cannot_use_tap_ability", card=label)
        colors = definition.mana_abilities[command.ability].colors
        return ManaAbilityPlan(command.player, perm.object, perm.card, _mana_chosen(colors, command.mana, label))
    activated = definition.activated[command.ability - mana_count]
    if activated.timing == "your_upkeep" and (not teams.is_active(state, command.player) or state.step != Step.UPKEEP):
        raise WrongTiming("602.5b", "rules.card_ability_can_be_activated_only_during", card=label)
    if activated.loyalty is not None:  # 606.3: as a sorcery, once each turn for each permanent
        _sorcery_timing(state, command.player, Phrase("rules.what_loyalty_ability_of_card", {"card": label}), "606.3")
        if perm.loyalty_turn == state.turn:
            raise WrongTiming("606.3", "rules.card_loyalty_ability_already_activated_this_turn", card=label)
        if activated.loyalty < 0 and ch.loyalty(perm) < -activated.loyalty:  # 606.6
            raise CannotPay("606.6", "rules.card_has_too_few_loyalty_counters", card=label, n=ch.loyalty(perm), cost=-activated.loyalty)
    elif activated.timing == "sorcery":  # 602.5d: "Activate only as a sorcery" (equip, 702.6a)
        _sorcery_timing(state, command.player, Phrase("rules.what_ability_of_card", {"card": label}), "602.5d")
    if activated.tap:  # 107.5, 602.2b: {T} in the cost
        if perm.tapped:
            raise CannotPay("602.2b", "rules.card_is_already_tapped", card=label)
        if ch.sick(state, perm):
            raise CannotPay("302.6", "rules.card_has_summoning_sickness_cannot_use_tap_ability", card=label)
    life = state.players[command.player].life
    if activated.life and life < activated.life:  # 119.4, 118.3
        raise CannotPay("119.4", "rules.player_has_less_life_than_ability_costs", player=command.player, life=life, n=activated.life, card=label)
    in_hand = len(state.players[command.player].hand)
    if activated.discard and in_hand < activated.discard:  # 118.3: a cost is paid in full or not at all
        raise CannotPay("118.3", "rules.player_has_fewer_cards_than_ability_discards", player=command.player, n=in_hand, count=activated.discard, card=label)
    if activated.up_to_one and not command.targets:  # 601.2c: "up to one target", and none chosen
        targets: list[Any] = []
    else:
        targets = check_target_list(state, ability_targets(activated), command.targets, label, command.player)
    what = Phrase("rules.what_ability_cost", {"card": label, "cost": activated.cost})
    itself = frozenset({perm.object}) if activated.tap else frozenset()  # tapped for {T}, not for mana too
    taps, spent = plan_payment(state, command.player, parse_cost(activated.cost), None, what=what, rule="602.2b", unavailable=itself)
    return AbilityPlan(
        command.player, perm.object, definition.name, command.ability, taps, spent, targets, activated.loyalty, activated.sacrifice, activated.tap,
        activated.life, activated.discard,
    )


def _mana_chosen(colors: tuple[str, ...], chosen: str | None, label: str) -> str:
    """106.1, 605.1a: the mana an ability adds: its one kind, or the colour chosen among those it names."""
    said = " / ".join(f"{{{c}}}" for c in colors)
    if chosen is None and len(colors) > 1:
        raise IllegalAction("106.1", "rules.card_adds_one_of_colors_choose_one", card=label, colors=said)
    if chosen is not None and chosen not in colors:
        raise IllegalAction("106.1", "rules.card_cannot_add_mana_it_adds_colors", card=label, mana=f"{{{chosen}}}", colors=said)
    return chosen or colors[0]


def check_pass(state: GameState, command: PassPriority) -> PassPlan:
    """117.3d: the player holding priority may pass it (rules.check has made sure they hold it)."""
    return pass_plan(command.player)


def check_concede(state: GameState, command: Concede) -> ConcedePlan:
    """104.3a: a player may concede at any time."""
    return ConcedePlan(command.player)


def check_discard(state: GameState, command: Discard) -> DiscardPlan:
    """514.1: exactly enough cards to reach the maximum hand size; 608.2d: as many as the resolving
    ability says; 601.2h: as many as the cost of the ability being activated discards (rules.check has
    made sure the pending decision is this player's discard)."""
    asked = pending_decision(state)
    assert asked is not None and asked.kind == DecisionKind.DISCARD
    count, rule = asked.count, asked.rule_cited
    if len(command.cards) != count:
        raise IllegalAction(rule, "rules.player_must_discard_exactly_count_cards_not", player=command.player, count=count, n=len(command.cards))
    hand = list(state.players[command.player].hand)
    for name in command.cards:
        state.cards.card(name)
        if name not in hand:
            raise IllegalAction(rule, "rules.player_has_no_card_left_in_hand", player=command.player, card=name)
        hand.remove(name)
    return DiscardPlan(command.player, command.cards)


def check_order(state: GameState, command: OrderTriggers) -> StackPlan:
    """603.3b-d: every waiting trigger of the player, once, in the order given, with legal targets."""
    mine = [t for t in state.pending_triggers if t.player == command.player]
    chosen: list[int] = []
    for ref in command.order:
        if isinstance(ref, int):
            match = next((t for t in mine if t.object == ref), None)
        else:
            named = [t for t in mine if t.card == ref.card or (t.source is not None and _source_name(state, t.source) == ref.card)]
            match = named[ref.index] if ref.index < len(named) else None
        if match is None:
            raise IllegalAction("603.3b", "rules.player_has_no_waiting_triggered_ability_ref", player=command.player, ref=ref)
        if match.object in chosen:
            raise IllegalAction("603.3b", "rules.triggered_ability_of_card_object_n_is", card=match.card, n=match.object)
        chosen.append(match.object)
    if sorted(chosen) != sorted(t.object for t in mine):
        names = ", ".join(f"{t.card} (object {t.object})" for t in mine)
        raise IllegalAction("603.3b", "rules.player_must_put_all_of_their_waiting", player=command.player, cards=names)
    if len(command.targets) > len(command.order):
        raise IllegalTarget("115.1", "rules.n_target_choices_for_count_triggered_abilities", n=len(command.targets), count=len(command.order))
    by_object = {t.object: t for t in mine}
    order: list[int] = []
    targets: dict[str, list[Any]] = {}
    removed: list[int] = []
    for i, obj in enumerate(chosen):
        trigger = by_object[obj]
        spec = triggers.ability(state, trigger).target
        options = triggers.legal_targets(state, spec, command.player)
        given = command.targets[i] if i < len(command.targets) else None
        if spec is None:
            if given:
                raise IllegalTarget("115.1", "rules.ability_of_card_has_no_targets_but", card=trigger.card, n=len(given))
            order.append(obj)
            continue
        if not options:
            removed.append(obj)  # 603.3d
            continue
        if given is None:
            picked = options[0]
        else:
            if len(given) != 1:
                raise IllegalTarget("603.3d", "rules.ability_of_card_needs_exactly_one_target", card=trigger.card)
            picked = ch.resolve_target(state, given[0])
            if picked not in options:
                raise IllegalTarget("115.1", "rules.ref_is_not_legal_target_for_ability", ref=picked, card=trigger.card)
        order.append(obj)
        targets[str(obj)] = [picked]
    return StackPlan(command.player, order, targets, removed)


def _source_name(state: GameState, obj: int) -> str | None:
    perm = state.permanent(obj)
    return None if perm is None else ch.name(state, perm)
