"""A defeated Siege (310.11b): "When the last defense counter is removed from this permanent, exile it, then
you may cast it transformed without paying its mana cost."

``CardDef`` gives every Siege with a back face the ability (``carddef.SIEGE_DEFEATED``); ``core.triggers``
sees it trigger, and 704.5v leaves the Siege on the battlefield while the ability waits or is on the stack
(``core.sba_permanents``). As it resolves, the Siege is exiled (``core.effect_table``) and the resolution
pauses (608.2d): its controller chooses, with ``CastTransformed``, to cast the card from exile with its
back face up (712.11a), without paying its mana cost (118.9), or to leave it in exile. The spell is the
back face (712.8c): it resolves into a permanent showing its back face (``Permanent.transformed``), a new
object (400.7) and no battle any more.

A Siege entering whose controller has more than one opponent waits for its controller's choice of
protector (310.11a, ``core.entering``): ``ChooseProtector`` answers it, recorded by ProtectorChosen.

Here: the command table's entries for both choices (their checks, candidates, records and how a replay
reads them back).
"""

from __future__ import annotations

from typing import Any

from mtg_ledger.core import events as ev
from mtg_ledger.core import teams
from mtg_ledger.core.candidates import Options
from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CastTransformed, ChooseProtector
from mtg_ledger.core.entering import PROTECTOR_RULE, protector_chosen
from mtg_ledger.core.decision import Decision, DecisionKind, pending_decision
from mtg_ledger.core.errors import IllegalAction, IllegalTarget
from mtg_ledger.core.moves import Next, priority_to
from mtg_ledger.core.plans import CastTransformedPlan, ProtectorPlan
from mtg_ledger.core.record import Table, emit
from mtg_ledger.core.resolve import proceed
from mtg_ledger.core.state import GameState, StackObject

RULE = "310.11b"
CHOICE = "cast_transformed"  # the choice a paused resolution waits for (``ResolutionPaused.choice``)


def _paused_siege(state: GameState) -> StackObject:
    assert state.paused is not None
    return next(o for o in state.stack if o.object == state.paused["object"])


def check_cast_transformed(state: GameState, command: CastTransformed) -> CastTransformedPlan:
    """310.11b: the exiled Siege, cast with its back face up (no cost to pay, 118.9), or left in exile.
    ``rules.check`` has made sure the pending decision is this player's."""
    asked = pending_decision(state)
    assert asked is not None and asked.kind == DecisionKind.CAST_TRANSFORMED
    card = _paused_siege(state).card
    if card not in state.players[command.player].exile:  # 400.7: the card the ability exiled, still there
        raise IllegalAction(RULE, "rules.player_has_no_card_in_exile", player=command.player, card=card)
    back = state.cards.card(card).back
    if command.cast and back is not None and back.spell_target is not None:  # 601.2c: no targets are chosen here
        raise IllegalTarget("601.2c", "rules.card_needs_exactly_one_target_n_chosen", card=back.name, n=0)
    return CastTransformedPlan(command.player, card, command.cast)


def candidates(state: GameState, decision: Decision) -> Options[CastTransformed]:
    """Cast it, or not."""
    return Options([CastTransformed(decision.player, True), CastTransformed(decision.player, False)])


def apply_cast_transformed(table: Table, command: CastTransformed, checked: CastTransformedPlan) -> Next | None:
    """The choice is recorded, then the ability goes on resolving (608.2d); the active player receives
    priority once it has (117.3b)."""
    s = table.state
    paused = s.paused
    assert paused is not None
    if checked.cast:
        emit(table, ev.SpellCastTransformed, player=checked.player, card=checked.card, object=s.next_object, rule=RULE)
    else:
        emit(table, ev.CastDeclined, player=checked.player, card=checked.card, rule=RULE)
    return priority_to(teams.acting(s) or checked.player) if proceed(table, paused) else None


def cast_transformed(e: dict[str, Any], decision: Decision, state: GameState) -> CastTransformed:
    return CastTransformed(e["player"], True)


def declined(e: dict[str, Any], decision: Decision, state: GameState) -> CastTransformed:
    return CastTransformed(e["player"], False)


# --- 310.11a: the protector of a Siege entering ------------------------------------------------------


def check_choose_protector(state: GameState, command: ChooseProtector) -> ProtectorPlan:
    """310.11a: one of the controller's opponents still in the game (not the controller, a teammate or a
    name no player has). ``rules.check`` has made sure the pending decision is this player's."""
    asked = pending_decision(state)
    assert asked is not None and asked.kind == DecisionKind.CHOOSE_PROTECTOR and state.paused is not None
    if command.protector not in teams.opponents(state, command.player):
        raise IllegalAction(PROTECTOR_RULE, "rules.other_is_not_opponent_of_player_in", other=command.protector, player=command.player)
    return ProtectorPlan(command.player, state.paused["object"], command.protector)


def protectors(state: GameState, decision: Decision) -> Options[ChooseProtector]:
    """310.11a: each opponent still in the game, in turn order."""
    return Options(ChooseProtector(decision.player, p) for p in teams.opponents(state, decision.player))


def apply_choose_protector(table: Table, command: ChooseProtector, checked: ProtectorPlan) -> Next | None:
    """The protector is recorded and the Siege goes on entering (its defense counters, 310.4b); the
    resolution it entered by is over, and the active player receives priority (117.3b)."""
    s = table.state
    siege = s.permanent(checked.object)
    assert siege is not None
    protector_chosen(table, checked.object, ch.face(s, siege), checked.protector)
    return priority_to(teams.acting(s) or s.live_players()[0])


def protector_was_chosen(e: dict[str, Any], decision: Decision, state: GameState) -> ChooseProtector | None:
    """A player's choice only where the rules asked for one; the only opponent is chosen at once."""
    if decision.kind != DecisionKind.CHOOSE_PROTECTOR:
        return None
    return ChooseProtector(decision.player, e["player"])
