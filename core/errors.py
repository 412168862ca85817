"""Narrow errors a judge could read aloud: every illegal action names its rule.

An error carries a message id (``code``) and its ``params``: the sentence is data, rendered in
English here (``message``, and ``str(error)`` with its rule) from ``ENGLISH``, the rules' own
templates. They live in core as a mapping, not in a file, so that core reads nothing from disk; the
audit's catalogues (replays/audit/messages/) add the log checks' English and give the French of every
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
    "rules.card_is_not_land_spells_are_cast": "{card} is not a land; spells are cast, not played",
    "rules.player_has_already_played_land_this_turn": "{player} has already played a land this turn",
    "rules.card_is_land_it_is_played_special": "{card} is a land: it is played (a special action), never cast",
    "rules.card_needs_exactly_one_target_n_chosen": "{card} needs exactly one target, {n} chosen",
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
}


@dataclass(frozen=True)
class Phrase:
    """A part of a sentence that is itself a message: its id and params (a step, a reason, ...)."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)


def render(templates: Mapping[str, str], code: str, params: Mapping[str, Any]) -> str:
    """The template of ``code`` with its holes filled, each ``Phrase`` rendered from the same templates."""
    values = {k: render(templates, v.id, v.params) if isinstance(v, Phrase) else v for k, v in params.items()}
    return templates[code].format_map(values)


class RulesError(ValueError):
    """Base of every error the rules raise; ``rule`` is a Comprehensive Rules number, ``code`` the
    message id in ``ENGLISH`` and ``params`` its holes."""

    def __init__(self, rule: str, code: str, /, **params: Any) -> None:
        if code in ENGLISH:
            self.code: str | None = code
            self.params: dict[str, Any] = params
            self.message = render(ENGLISH, code, params)
        else:  # OLD PATH, until every raise site passes an id: ``code`` is the English sentence itself
            self.code, self.params, self.message = None, {}, code
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
