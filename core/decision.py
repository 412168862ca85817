"""What the game is waiting for, and from whom: the pending decision, derived from the state alone."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import combat, teams
from mtg_ledger.core.errors import ENGLISH, Phrase, render
from mtg_ledger.core.state import GameState
from mtg_ledger.core.turn import Step


class DecisionKind(StrEnum):
    """What a decision asks for; its value is the name it is shown and exported by (``kind``)."""

    PRIORITY = "priority"
    ORDER_TRIGGERS = "order_triggers"
    CHOOSE_DEFENDER = "choose_defender"
    DECLARE_ATTACKERS = "declare_attackers"
    DECLARE_BLOCKERS = "declare_blockers"
    ASSIGN_DAMAGE = "assign_damage"
    DISCARD = "discard"
    CAST_TRANSFORMED = "cast_transformed"
    CHOOSE_PROTECTOR = "choose_protector"


@dataclass(frozen=True)
class Decision:
    """What the game is waiting for, and from whom."""

    kind: DecisionKind
    player: str
    count: int = 0  # cards to discard
    rule: str = ""  # the rule that asks for it, where the kind alone doesn't say (608.2d)

    @property
    def rule_cited(self) -> str:
        return self.rule or RULE_OF_DECISION[self.kind]

    def phrase(self) -> Phrase:
        """What the game is waiting for, as a message (its id and params)."""
        if self.kind is DecisionKind.PRIORITY:
            return Phrase("rules.decision_priority", {"player": self.player})
        if self.kind is DecisionKind.DISCARD:
            return Phrase("rules.decision_discard", {"player": self.player, "count": self.count})
        return Phrase("rules.decision_waiting", {"player": self.player, "to_do": TO_DO[self.kind]})

    def describe(self) -> str:
        """The same in English."""
        p = self.phrase()
        return render(ENGLISH, p.id, p.params)


TO_DO: dict[DecisionKind, Phrase] = {  # a decision's name after "waiting for alice to", "not the time to"
    DecisionKind.PRIORITY: Phrase("rules.to_priority"),
    DecisionKind.ORDER_TRIGGERS: Phrase("rules.to_order_triggers"),
    DecisionKind.CHOOSE_DEFENDER: Phrase("rules.to_choose_defender"),
    DecisionKind.DECLARE_ATTACKERS: Phrase("rules.to_declare_attackers"),
    DecisionKind.DECLARE_BLOCKERS: Phrase("rules.to_declare_blockers"),
    DecisionKind.ASSIGN_DAMAGE: Phrase("rules.to_assign_damage"),
    DecisionKind.DISCARD: Phrase("rules.to_discard"),
    DecisionKind.CAST_TRANSFORMED: Phrase("rules.to_cast_transformed"),
    DecisionKind.CHOOSE_PROTECTOR: Phrase("rules.to_choose_protector"),
}

RULE_OF_DECISION: dict[DecisionKind, str] = {
    DecisionKind.PRIORITY: "117.3",
    DecisionKind.ORDER_TRIGGERS: "603.3b",
    DecisionKind.CHOOSE_DEFENDER: "507.1",
    DecisionKind.DECLARE_ATTACKERS: "508.1",
    DecisionKind.DECLARE_BLOCKERS: "509.1",
    DecisionKind.ASSIGN_DAMAGE: "510.1",
    DecisionKind.DISCARD: "514.1",
    DecisionKind.CAST_TRANSFORMED: "310.11b",
    DecisionKind.CHOOSE_PROTECTOR: "310.11a",
}


@lru_cache(maxsize=1 << 10)
def _priority(player: str) -> Decision:
    """117.3: the player holds priority. One decision a player, made once: it is immutable, and this is
    asked before every decision (a frozen dataclass's ``__init__`` costs a microsecond)."""
    return Decision(DecisionKind.PRIORITY, player)


def pending_decision(state: GameState) -> Decision | None:
    """The decision the rules ask for now, derived from the state alone."""
    if state.ended:
        return None
    # 603.3b: triggers to order come before priority, even for the player who just cast a spell (117.3c)
    if state.priority is not None and state.ordering is None:
        return _priority(state.priority)
    if state.paused is not None:  # 608.2d; 601.2h for an activation's discard cost; 310.11a
        if state.paused["choice"] == "cast_transformed":  # 310.11b: cast the exiled Siege transformed, or not
            return Decision(DecisionKind.CAST_TRANSFORMED, state.paused["player"])
        if state.paused["choice"] == "choose_protector":  # 310.11a: a Siege entering, its protector to choose
            return Decision(DecisionKind.CHOOSE_PROTECTOR, state.paused["player"])
        return Decision(DecisionKind.DISCARD, state.paused["player"], state.paused["count"], state.paused.get("rule", "608.2d"))
    if state.ordering is not None:  # 603.3b
        return Decision(DecisionKind.ORDER_TRIGGERS, state.ordering["player"])
    active = teams.acting(state)  # 805.2: a team's choices are made by its primary player
    if active is None:  # 800.4: the turn goes on without its player
        return None
    if state.step == Step.BEGINNING_OF_COMBAT and combat.must_choose_defender(state):
        return Decision(DecisionKind.CHOOSE_DEFENDER, active)
    if state.step == Step.DECLARE_ATTACKERS and not state.attackers_declared:
        return Decision(DecisionKind.DECLARE_ATTACKERS, active)
    if state.step == Step.DECLARE_BLOCKERS and state.attackers_declared:
        waiting = combat.defenders_to_declare(state)
        if waiting:
            return Decision(DecisionKind.DECLARE_BLOCKERS, waiting[0])
    if state.step == Step.COMBAT_DAMAGE and not state.combat_damage_dealt:
        if any(combat.needs_assignment(state, p) for p in ch.on_battlefield(state)):
            return Decision(DecisionKind.ASSIGN_DAMAGE, active)
    if state.step == Step.CLEANUP:  # 514.1, 805.6: each player of the active team, in order
        for member in teams.live_members(state, teams.active_team(state)):
            n = ch.cards_to_discard(state, member)
            if n:
                return Decision(DecisionKind.DISCARD, member, n)
    return None
