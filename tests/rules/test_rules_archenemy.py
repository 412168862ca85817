"""The Archenemy variant (904) with shared team turns (805), on concrete boards."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_ledger.core.commands import CastSpell, DeclareAttackers, OrderTriggers, PassPriority, PlayLand
from mtg_ledger.core.errors import IllegalAction, NotYourPriority
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.scenario import ScenarioError, parse
from tests.helpers import advance_to, archenemy, events_of, last, perm, refused, start

PUNY = "Your Puny Minds Cannot Fathom"
BEHOLD = "Behold the Power of Destruction"


def test_the_archenemy_starts_at_40_life_and_takes_the_first_turn_904_5_904_6() -> None:
    table = start(archenemy([PUNY]))
    started = table.events[0]
    assert started["archenemy"] == "eve" and started["starting_player"] == "eve"
    assert started["teams"] == [["eve"], ["alice", "bob"]]
    assert {n: p.life for n, p in table.state.players.items()} == {"alice": 20, "bob": 20, "eve": 40}
    assert last(table, "TurnBegan")["active_player"] == "eve"


def test_a_scheme_is_set_in_motion_as_the_archenemys_precombat_main_phase_begins_without_the_stack_505_3_904_9() -> None:
    table = start(archenemy([PUNY, BEHOLD], eve={"library": ["Swamp"] * 20}))
    advance_to(table, 1, "precombat_main")
    kinds = [e["type"] for e in table.events]
    began = max(i for i, e in enumerate(table.events) if e["type"] == "StepBegan" and e["step"] == "precombat_main")
    assert kinds[began + 1 : began + 3] == ["SchemeSetInMotion", "AbilityTriggered"]
    assert table.events[began + 1]["scheme"] == PUNY
    assert [(o.kind, o.card) for o in table.state.stack] == [("triggered", PUNY)]
    table.handle(PassPriority("eve"))
    table.handle(PassPriority("alice"))  # for the team (805.5)
    # the scheme's "when you set this scheme in motion" ability resolved: four cards, no maximum hand size
    assert len(events_of(table, "CardDrawn")) == 1 + 4  # eve's draw step, then the scheme
    assert table.state.players["eve"].hand == ["Swamp"] * 5
    assert last(table, "SchemePutOnBottom")["scheme"] == PUNY  # 904.10: not ongoing
    assert table.state.schemes == [BEHOLD, PUNY]


def test_no_maximum_hand_size_lasts_until_the_archenemys_next_turn_402_2_611_2a() -> None:
    table = start(archenemy([PUNY], eve={"hand": ["Swamp"] * 6}))
    advance_to(table, 2, "upkeep")
    assert table.state.players["eve"].hand.count("Plains") + table.state.players["eve"].hand.count("Swamp") == 11
    assert events_of(table, "CardsDiscarded") == []  # no maximum hand size in this turn's cleanup
    assert table.state.players["eve"].hand and table.state.effects[0].kind == "no_max_hand_size"
    advance_to(table, 3, "upkeep")
    ended = last(table, "EffectsEnded")
    assert ended["rule"] == "611.2a"
    assert table.state.effects == []


def test_behold_the_power_of_destruction_destroys_the_target_opponents_nonland_permanents_701_8() -> None:
    table = start(
        archenemy(
            [BEHOLD],
            alice={"battlefield": ["Grizzly Bears", "Forest", "Spellbook"]},
            bob={"battlefield": ["Hill Giant"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    decision = pending_decision(table.state)
    assert decision is not None and decision.kind == "order_triggers"  # two opponents to target (603.3d)
    refused(table, OrderTriggers("eve", (table.state.pending_triggers[0].object,), (("eve",),)), "115.1")
    table.handle(OrderTriggers("eve", (table.state.pending_triggers[0].object,), (("alice",),)))
    advance_to(table, 1, "beginning_of_combat")
    destroyed = last(table, "PermanentsPutIntoGraveyard")
    assert destroyed["rule"] == "701.8"
    assert sorted(p["card"] for p in destroyed["permanents"]) == ["Grizzly Bears", "Spellbook"]
    assert [p.card for p in table.state.battlefield] == ["Forest", "Hill Giant"]


def test_each_player_of_the_active_team_untaps_draws_and_may_play_a_land_805_4b_805_4c() -> None:
    table = start(archenemy([PUNY], alice={"hand": ["Forest"], "library": ["Forest"] * 5}, bob={"hand": ["Mountain"], "library": ["Mountain"] * 5}))
    advance_to(table, 2, "precombat_main")
    draws = [e["player"] for e in table.events if e["type"] == "CardDrawn" and e["v"] > last(table, "TurnBegan")["v"]]
    assert draws == ["alice", "bob"]  # 805.6a: in the team's order
    assert table.state.priority == "alice"  # the team's primary player
    table.handle(PlayLand("alice", "Forest"))
    table.handle(PlayLand("bob", "Mountain"))  # 805.5a: a teammate acts while the team has priority
    assert [e["player"] for e in events_of(table, "LandPlayed")] == ["alice", "bob"]
    refused(table, PlayLand("bob", "Mountain"), "305.2")


def test_teams_have_priority_so_one_pass_passes_for_the_team_805_5() -> None:
    table = start(archenemy([PUNY]))
    advance_to(table, 2, "upkeep")
    assert table.state.priority == "alice"
    table.handle(PassPriority("bob"))  # a teammate passes for the team
    assert table.state.priority == "eve"
    with pytest.raises(NotYourPriority):
        table.handle(PassPriority("alice"))
    table.handle(PassPriority("eve"))
    assert table.state.step == "draw"  # every team passed in succession


def test_the_team_attacks_only_the_archenemy_and_its_primary_player_declares_for_it_802_805_2() -> None:
    table = start(archenemy([PUNY], alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Hill Giant"]}))
    advance_to(table, 2, "declare_attackers")
    assert pending_decision(table.state).player == "alice"
    refused(table, DeclareAttackers("alice", ((perm(table, "Hill Giant").object, "bob"),)), "508.1b")
    table.handle(DeclareAttackers("alice", ((perm(table, "Grizzly Bears").object, None), (perm(table, "Hill Giant").object, None))))
    attacked = last(table, "AttackersDeclared")
    assert {a["card"]: a["defender"] for a in attacked["attackers"]} == {"Grizzly Bears": "eve", "Hill Giant": "eve"}


def test_the_archenemy_may_attack_several_players_of_the_team_at_once_802_2() -> None:
    table = start(archenemy([PUNY], eve={"battlefield": ["Grizzly Bears", "Hill Giant"]}))
    advance_to(table, 1, "declare_attackers")
    bears, giant = perm(table, "Grizzly Bears").object, perm(table, "Hill Giant").object
    refused(table, DeclareAttackers("eve", ((bears, None),)), "508.1b")  # which player must be said
    table.handle(DeclareAttackers("eve", ((bears, "alice"), (giant, "bob"))))
    advance_to(table, 1, "end_of_combat")
    assert (table.state.players["alice"].life, table.state.players["bob"].life) == (18, 17)


def test_the_team_wins_when_the_archenemy_leaves_the_game_104_2c() -> None:
    table = start(archenemy([PUNY], alice={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}, eve={"life": 3}))
    advance_to(table, 2, "upkeep")
    table.handle(CastSpell("alice", "Lightning Bolt", targets=("eve",)))
    table.handle(PassPriority("alice"))
    table.handle(PassPriority("eve"))
    ended = last(table, "GameEnded")
    assert ended["winner"] == "alice" and ended["winners"] == ["alice", "bob"]


def test_the_archenemy_wins_only_when_every_player_of_the_team_has_left_104_2c() -> None:
    table = start(archenemy([PUNY], alice={"life": 1}, bob={"life": 1}, eve={"battlefield": ["Grizzly Bears", "Savannah Lions"]}))
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("eve", ((perm(table, "Grizzly Bears").object, "alice"),)))
    advance_to(table, 1, "end_of_combat")
    assert table.state.players["alice"].lost and not table.state.ended
    assert table.state.priority == "eve"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"starting_player": "alice"}, "takes the first turn (rule 904.6)"),
        ({"players": [{"name": "eve", "schemes": [PUNY]}, {"name": "bob", "schemes": [PUNY]}]}, "rule 904.2a"),
    ],
)
def test_an_archenemy_scenario_must_seat_one_archenemy_who_plays_first_904_2a_904_6(change: dict[str, Any], message: str) -> None:
    data = archenemy([PUNY])
    data.update(change)
    with pytest.raises(ScenarioError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse(data)


def test_a_scheme_card_can_only_be_in_a_scheme_deck_312_1() -> None:
    with pytest.raises(IllegalAction) as refusal:
        LocalTable.start(archenemy([PUNY], alice={"hand": [PUNY]}))
    assert refusal.value.rule == "312.1"
