"""Narrow errors a judge could read aloud: every illegal action names its rule.

An error carries a message id (``code``) and its ``params``: the sentence is data, rendered in
English here (``message``, and ``str(error)`` with its rule) from ``ENGLISH``, the rules' own
templates. They live in core as a mapping, not in a file, so that core reads nothing from disk; the
catalogues (replays/messages/) add the log checks' English and give the French of every
id, rendered by the same ``render``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Message id -> English template; "{name}" holes are the params, a param may itself be a ``Phrase``.
ENGLISH: dict[str, str] = {
    "rules.unknown_card_card_no_such_card_in": "unknown card {card!r}: no such card in the card pool",
    "rules.player_has_no_card_in_hand": "{player} has no {card!r} in hand",
    "rules.player_has_no_card_in_exile": "{player} has no {card!r} in exile",
    "rules.card_is_not_land_spells_are_cast": "{card} is not a land; spells are cast, not played",
    "rules.player_has_already_played_land_this_turn": "{player} has already played a land this turn",
    "rules.card_is_land_it_is_played_special": "{card} is a land: it is played (a special action), never cast",
    "rules.card_needs_exactly_one_target_n_chosen": "{card} needs exactly one target, {n} chosen",
    "rules.card_needs_exactly_count_targets_n_chosen": "{card} needs exactly {count} targets, {n} chosen",
    "rules.card_cannot_choose_other_twice_as_target": "{card} cannot choose {other} twice for one of its targets",
    "rules.card_adds_one_of_colors_choose_one": "{card} adds {colors}: choose one (mana)",
    "rules.card_cannot_add_mana_it_adds_colors": "{card} cannot add {mana}; it adds {colors}",
    "rules.player_does_not_control_card": "{player} does not control {card}",
    "rules.card_has_no_activated_ability_number_n": "{card} has no activated ability number {n}",
    "rules.card_ability_can_be_activated_only_during": "{card}'s ability can be activated only during its controller's upkeep",
    "rules.player_must_discard_exactly_count_cards_not": "{player} must discard exactly {count} card(s), not {n}",
    "rules.player_must_put_all_of_their_waiting": "{player} must put all of their waiting triggered abilities on the stack: {cards}",
    "rules.n_target_choices_for_count_triggered_abilities": "{n} target choices for {count} triggered abilities",
    "rules.card_has_no_targets_but_n_were": "{card} has no targets, but {n} were chosen",
    "rules.player_has_left_game_and_cannot_be": "{player} has left the game and cannot be targeted",
    "rules.card_is_already_tapped": "{card} is already tapped",
    "rules.player_has_no_card_left_in_hand": "{player} has no {card!r} left in hand to discard",
    "rules.player_has_no_waiting_triggered_ability_ref": "{player} has no waiting triggered ability {ref!r}",
    "rules.triggered_ability_of_card_object_n_is": "the triggered ability of {card} (object {n}) is listed twice",
    "rules.ability_of_card_has_no_targets_but": "the ability of {card} has no targets, but {n} were chosen",
    "rules.ability_of_card_needs_exactly_one_target": "the ability of {card} needs exactly one target",
    "rules.ref_is_not_legal_target_for_ability": "{ref!r} is not a legal target for the ability of {card}",
    "rules.card_must_assign_exactly_its_power_power": "{card} must assign exactly its power, {power}, not {n}",
    "rules.other_is_not_opponent_of_player_in": "{other!r} is not an opponent of {player} in the game",
    "rules.card_cannot_assign_combat_damage_to_other": "{card} cannot assign combat damage to {other!r}",
    "rules.card_cannot_assign_negative_damage": "{card} cannot assign negative damage",
    "rules.card_object_n_is_declared_as_attacker": "{card} (object {n}) is declared as an attacker twice",
    "rules.card_is_not_creature_player_team_controls": "{card} is not a creature {player}'s team controls",
    "rules.card_is_tapped_and_cannot_attack": "{card} is tapped and cannot attack",
    "rules.card_has_summoning_sickness_and_cannot_attack": "{card} has summoning sickness and cannot attack this turn",
    "rules.this_declaration_of_attackers_has_no_cost": "this declaration of attackers has no cost to pay",
    "rules.card_object_n_can_block_only_one": "{card} (object {n}) can block only one attacker",
    "rules.card_is_not_creature_player_controls": "{card} is not a creature {player} controls",
    "rules.card_is_not_attacking": "{card} is not attacking",
    "rules.card_is_not_creature_attacking_for_player": "{card} is not a creature attacking for {player}",
    "rules.card_deals_no_combat_damage_in_this": "{card} deals no combat damage in this combat damage step",
    "rules.card_damage_is_assigned_twice": "{card}'s damage is assigned twice",
    "rules.card_must_assign_lethal_damage_to_other": "{card} must assign lethal damage to {other} before assigning any to {player}",
    "rules.card_must_be_told_which_player_it": "{card} must be told which player it attacks: one of {players}",
    "rules.card_object_n_cannot_be_tapped_for": "{card} (object {n}) cannot be tapped for mana by {player} now",
    "rules.game_is_over_no_more_decisions_can": "the game is over: no more decisions can be taken",
    "rules.player_is_not_player_in_this_game": "{player!r} is not a player in this game",
    "rules.player_has_already_left_game": "{player} has already left the game",
    "rules.unknown_command_command": "unknown command {command!r}",
    "rules.no_player_decision_is_pending": "no player decision is pending",
    "rules.card_is_scheme_it_belongs_in_scheme": "{card} is a scheme: it belongs in a scheme deck, not in {player}'s cards",
    "rules.card_is_not_scheme_card_and_cannot": "{card} is not a scheme card and cannot be in a scheme deck",
    "rules.card_has_summoning_sickness_cannot_use_tap_ability": "{card} has summoning sickness: it can't use a {{T}} ability this turn",
    # sentences whose holes are themselves phrases (the ``Phrase`` params below)
    "rules.no_thing_with_object_id_ref": "no {thing} with object id {ref} is on the battlefield",
    "rules.no_thing_ref_on_battlefield_have_named": "no {thing} {ref} on the battlefield ({have} named {card!r})",
    "rules.what_only_during_own_turn": "{what} only during its controller's own turn; it is {player}'s turn",
    "rules.what_only_in_main_phase": "{what} only in a main phase, not in the {step} step",
    "rules.what_only_while_stack_empty": "{what} only while the stack is empty ({n} object(s) on it)",
    "rules.card_must_target_wanted_not_player": "{card} must target {wanted}, not the player {player}",
    "rules.card_must_target_wanted_not_other": "{card} must target {wanted}, not {other}",
    "rules.player_cannot_pay_what": "{player} cannot pay {what}: {pool} in pool and {n} untapped mana source(s)",
    "rules.pool_cannot_pay_what": "{pool} cannot pay {what}",
    "rules.card_cannot_attack_player_why": "{card} cannot attack {player!r}: {why}",
    "rules.card_is_not_creature_and_cannot_block": "{card} is not a creature and cannot block",
    "rules.card_is_tapped_and_cannot_block": "{card} is tapped and cannot block",
    "rules.card_can_block_only_creatures_attacking": "{card} can block only creatures attacking {player}; {other} is not",
    "rules.card_has_flying_other_neither_flying_nor_reach": "{card} has flying and {other} has neither flying nor reach",
    "rules.decision_not_for_verb": "{decision}, not for a {verb}",
    "rules.player_cannot_verb_other_holds_priority": "{player} cannot {verb}: {other} holds priority",
    "rules.decision_not_the_time_to": "{decision}; it is not the time to {to_do}",
    "rules.player_cannot_to_do_team_of_other": "{player} cannot {to_do}: it is for the team of {other} to do",
    "rules.player_cannot_to_do_other_to_do": "{player} cannot {to_do}: it is {other}'s to do",
    # the phrases: what is missing, how many there are, what is played, cast or paid for, which step
    "rules.thing_permanent": "permanent",
    "rules.thing_attacker": "attacker",
    "rules.thing_blocker": "blocker",
    "rules.thing_mana_source": "mana source",
    "rules.thing_target": "target",
    "rules.thing_source": "source",
    "rules.thing_creature": "creature",
    "rules.have_none": "none",
    "rules.have_only_n": "only {n}",
    "rules.what_card_can_be_played": "{card} can be played",
    "rules.what_card_kind_can_be_cast": "{card} ({kind}) can be cast",
    "rules.kind_sorcery": "sorcery",
    "rules.kind_permanent_spell": "permanent spell",
    "rules.what_card_cost": "{card}'s cost {cost}",
    "rules.what_ability_cost": "{card}'s ability cost {cost}",
    "rules.what_attack_cost": "{card}'s {{{generic}}} for {count} creature(s) attacking {player}",
    "rules.what_and": "{first} and {rest}",
    "rules.wanted_creature_or_player": "a creature or a player",
    "rules.wanted_player": "a player",
    "rules.wanted_opponent": "an opponent",
    "rules.wanted_creature": "a creature",
    "rules.why_not_chosen_defender": "not the defending player chosen (507.1)",
    "rules.why_not_opponent": "not an opponent in the game",
    "rules.decision_priority": "{player} holds priority",
    "rules.decision_discard": "the game is waiting for {player} to discard {count} card(s)",
    "rules.decision_waiting": "the game is waiting for {player} to {to_do}",
    "rules.step_untap": "untap",
    "rules.step_upkeep": "upkeep",
    "rules.step_draw": "draw",
    "rules.step_precombat_main": "precombat main",
    "rules.step_beginning_of_combat": "beginning of combat",
    "rules.step_declare_attackers": "declare attackers",
    "rules.step_declare_blockers": "declare blockers",
    "rules.step_combat_damage": "combat damage",
    "rules.step_end_of_combat": "end of combat",
    "rules.step_postcombat_main": "postcombat main",
    "rules.step_end": "end",
    "rules.step_cleanup": "cleanup",
    "rules.to_order_triggers": "order triggers",
    "rules.to_choose_defender": "choose defender",
    "rules.to_declare_attackers": "declare attackers",
    "rules.to_declare_blockers": "declare blockers",
    "rules.to_assign_damage": "assign damage",
    "rules.to_discard": "discard",
    "rules.to_priority": "priority",
    "rules.to_cast_transformed": "choose whether to cast the defeated Siege transformed",
    "rules.to_choose_protector": "choose the entering Siege's protector",
    "rules.verb_pass": "pass priority",
    "rules.verb_play_land": "play a land",
    "rules.verb_cast": "cast a spell",
    "rules.verb_activate": "activate an ability",
    "rules.verb_order_triggers": "order triggers",
    "rules.verb_choose_defender": "choice of defending player",
    "rules.verb_declare_attackers": "declaration of attackers",
    "rules.verb_declare_blockers": "declaration of blockers",
    "rules.verb_assign_damage": "combat damage assignment",
    "rules.verb_discard": "discard",
    "rules.verb_concede": "concede",
    "rules.verb_cast_transformed": "cast a defeated Siege transformed",
    "rules.verb_choose_protector": "choice of a Siege's protector",
    "rules.no_mana": "nothing",
    "rules.card_ref": "{card!r}",
    "rules.card_ref_index": "{card!r} (index {index})",
    "rules.one_or_other": "{first} or {rest}",
    # a log this engine cannot read or bring to its current form (core.schema.SchemaError)
    "schema.unknown_type_at": "event {v}: unknown event type {kind!r}",
    "schema.class_newer": "event {v}: {kind} version {version} is newer than this engine's {current}",
    "schema.no_upcaster": "event {v}: no upcaster for {kind} from version {version}",
    "schema.not_that_form": "event {v}: a {kind} of version {version} never held {fields}",
    "schema.not_a_version": "schema {schema!r} is not a schema version",
    "schema.newer": "schema {schema} is newer than this engine's schema {current}: upgrade mtg-ledger",
    # schema 5's mechanics
    "rules.card_has_defender_and_cannot_attack": "{card} has defender and cannot attack",
    "rules.thing_attacked": "planeswalker or battle to attack",
    "rules.card_cannot_attack_other": "{card} cannot attack {other}: not a planeswalker an opponent controls nor a battle an opponent protects",
    "rules.card_has_menace_blocked_by_one": "{card} has menace: it can't be blocked except by two or more creatures",
    "rules.wanted_creature_you_control": "a creature you control",
    "rules.wanted_creature_you_dont_control": "a creature you don't control",
    "rules.wanted_land": "a land",
    "rules.wanted_permanent": "a permanent",
    "rules.wanted_nonland_permanent": "a nonland permanent",
    "rules.other_has_hexproof_card_cannot_target": "{other} has hexproof: {card} cannot target it",
    "rules.what_loyalty_ability_of_card": "a loyalty ability of {card} can be activated",
    "rules.what_ability_of_card": "{card}'s ability can be activated",
    "rules.card_loyalty_ability_already_activated_this_turn": "a loyalty ability of {card} has already been activated this turn",
    "rules.card_has_too_few_loyalty_counters": "{card} has {n} loyalty counter(s), fewer than the {cost} its ability removes",
    "rules.what_ward_cost": "{card}'s ward cost {cost}",
    "rules.wanted_spell": "a spell",
    "rules.card_cannot_attack_an_ability_says_so": "{card} can't attack: an ability says so",
    "rules.card_cannot_block_an_ability_says_so": "{card} can't block: an ability says so",
    "rules.wanted_player_or_planeswalker": "a player or a planeswalker",
    "rules.wanted_artifact_or_enchantment": "an artifact or an enchantment",
    "rules.wanted_enchantment": "an enchantment",
    "rules.wanted_creature_with_flying": "a creature with flying",
    "rules.wanted_nonblack_creature": "a nonblack creature",
    "rules.wanted_creature_an_opponent_controls": "a creature an opponent controls",
    "rules.wanted_attacking_or_blocking_creature": "an attacking or blocking creature",
    "rules.wanted_black_or_red_permanent": "a black or red permanent",
    "rules.wanted_artifact_creature_or_land": "an artifact, a creature or a land",
    "rules.wanted_creature_spell": "a creature spell",
    "rules.wanted_noncreature_spell": "a noncreature spell",
    "rules.card_must_target_a_spell_on_the_stack": "{card} must target a spell on the stack: {ref!r} is none",
    "rules.player_has_hexproof_card_cannot_target": "{player} has hexproof: {card} cannot target them",
    "rules.player_has_less_life_than_ability_costs": "{player} has {life} life, less than the {n} life {card}'s ability costs",
    "rules.player_has_fewer_cards_than_ability_discards": "{player} has {n} card(s) in hand, fewer than the {count} {card}'s ability discards",
}


@dataclass(frozen=True)
class Phrase:
    """A part of a sentence that is itself a message: its id and params (a step, a reason, ...)."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)


def either(names: list[str]) -> str | Phrase:
    """One of several names, as a phrase: "A or B or C" in each language."""
    first, *rest = names
    return Phrase("rules.one_or_other", {"first": first, "rest": either(rest)}) if rest else first


def render(templates: Mapping[str, str], code: str, params: Mapping[str, Any]) -> str:
    """The template of ``code`` with its holes filled, each ``Phrase`` rendered from the same templates."""
    values = {k: render(templates, v.id, v.params) if isinstance(v, Phrase) else v for k, v in params.items()}
    return templates[code].format_map(values)


class RulesError(ValueError):
    """Base of every error the rules raise; ``rule`` is a Comprehensive Rules number, ``code`` the
    message id in ``ENGLISH`` and ``params`` its holes."""

    def __init__(self, rule: str, code: str, /, **params: Any) -> None:
        self.code, self.params = code, params
        self.message = render(ENGLISH, code, params)
        super().__init__(f"{self.message} (rule {rule})")
        self.rule = rule


class IllegalAction(RulesError):
    """A player decision the rules forbid (733: the game returns to the moment before it)."""


class NotYourPriority(IllegalAction):
    """117.1: a player may act only while holding priority."""


class WrongTiming(IllegalAction):
    """307.1 / 505.6a / 117.1a: the action is not allowed at this time."""


class CannotPay(IllegalAction):
    """601.2h: the costs of a spell or ability cannot be paid."""


class IllegalTarget(IllegalAction):
    """601.2c / 115: a chosen target is not legal."""


class UnknownCard(IllegalAction):
    """A card name that no definition or zone holds."""


class GameOver(IllegalAction):
    """104: no decision can be taken once the game has ended."""
