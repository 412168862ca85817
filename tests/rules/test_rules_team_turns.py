"""Shared team turns (805) read whole, on concrete Archenemy boards (904): eve, the archenemy,
against the team of alice (its primary player) and bob. Wherever a rule speaks of "a player's
turn", the team's turn is each of its players' turn; these tests pin that down for bob, the
teammate who is not the primary player."""

from __future__ import annotations

from mtg_ledger.core.commands import ActivateAbility, AssignDamage, CastSpell, DeclareAttackers, DeclareBlockers, Discard, PassPriority, PlayLand
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import events as ev
from mtg_ledger.core.decision import pending_decision
from mtg_ledger.core.table import LocalTable
from tests.helpers import advance_to, archenemy, last, obj, perm, refused, start

PUNY = "Your Puny Minds Cannot Fathom"


def test_302_6_805_4_a_teammates_creatures_lose_summoning_sickness_as_the_teams_next_turn_begins() -> None:
    table = start(archenemy([PUNY] * 2, bob={"hand": ["Llanowar Elves", "Grizzly Bears"], "battlefield": ["Forest"] * 3}))
    advance_to(table, 2, "precombat_main")
    for spell in ("Llanowar Elves", "Grizzly Bears"):
        table.handle(CastSpell("bob", spell))
        table.handle(PassPriority("bob"))
        table.handle(PassPriority("eve"))
    elves, bears = obj(table, "Llanowar Elves"), obj(table, "Grizzly Bears")
    refused(table, ActivateAbility("bob", elves), "302.6")  # they came under bob's control this turn
    advance_to(table, 3, "upkeep")
    assert ch.sick(table.state, perm(table, "Grizzly Bears"))  # eve's turn is not bob's
    advance_to(table, 4, "upkeep")
    assert not ch.sick(table.state, perm(table, "Grizzly Bears"))  # the team's turn is bob's turn too
    table.handle(ActivateAbility("bob", elves))  # 605.3a: a {T} mana ability, now allowed
    assert last(table, "ManaAbilityActivated")["source"] == elves
    advance_to(table, 4, "declare_attackers")
    assert pending_decision(table.state).kind == "declare_attackers"  # the engine no longer declares "no attackers"
    table.handle(DeclareAttackers("bob", ((bears, None),)))
    assert last(table, "AttackersDeclared")["attackers"] == [{"object": bears, "card": "Grizzly Bears", "defender": "eve"}]


def test_805_7_any_player_of_the_active_team_may_send_the_teams_declaration_of_attackers() -> None:
    table = start(archenemy([PUNY], alice={"battlefield": ["Grizzly Bears"]}, bob={"battlefield": ["Hill Giant"]}))
    advance_to(table, 2, "declare_attackers")
    assert pending_decision(table.state).player == "alice"  # the team's primary player is asked
    refused(table, DeclareAttackers("eve", ()), "508.1")  # not eve's to send
    table.handle(DeclareAttackers("bob", ((obj(table, "Grizzly Bears"), None), (obj(table, "Hill Giant"), None))))
    declared = last(table, "AttackersDeclared")
    assert declared["player"] == "bob"  # the event records who sent it
    assert [a["card"] for a in declared["attackers"]] == ["Grizzly Bears", "Hill Giant"]



def untap_changes(table: LocalTable) -> list[tuple[int, str]]:
    """(turn, day or night) for each change of day and night made as an untap step began (502.2)."""
    out, turn = [], 0
    for e in table.events:
        turn = e["turn"] if e["type"] == "TurnBegan" else turn
        if e["type"] == "DayNightChanged" and e["rule"] == "502.2":
            out.append((turn, e["to"]))
    return out


def bolt(table: LocalTable, player: str, target: str) -> None:
    """``player`` casts Lightning Bolt at ``target``, and it resolves."""
    table.handle(CastSpell(player, "Lightning Bolt", targets=(target,)))
    table.handle(PassPriority(player))
    table.handle(PassPriority("alice" if player == "eve" else "eve"))  # the other team passes


def test_726_3a_805_4_a_spell_cast_by_a_teammate_who_is_not_the_primary_player_keeps_it_day() -> None:
    bolts = {"hand": ["Lightning Bolt"], "battlefield": ["Mountain"]}
    table = start(archenemy([PUNY] * 2, bob=bolts, eve={**bolts, "battlefield": ["Village Watch", "Mountain"]}))
    advance_to(table, 1, "upkeep")
    assert table.state.day_night == "day"  # 726.2: a daybound permanent
    bolt(table, "eve", "alice")  # so that it stays day into the team's turn
    advance_to(table, 2, "upkeep")
    bolt(table, "bob", "eve")  # the team's only spell, cast by bob
    advance_to(table, 4, "upkeep")
    assert untap_changes(table) == [(4, "night")]  # not at turn 3: bob is "the previous turn's active player" too
    assert table.state.day_night == "night"  # eve cast nothing in turn 3


def test_726_3b_805_4_spells_cast_by_every_player_of_the_previous_active_team_count_together() -> None:
    bolts = {"hand": ["Lightning Bolt"], "battlefield": ["Mountain"]}
    table = start(archenemy([PUNY] * 2, alice=bolts, bob=bolts, eve={"battlefield": ["Village Watch"]}))
    advance_to(table, 2, "upkeep")
    assert untap_changes(table) == [(2, "night")]  # eve cast no spell in turn 1 (726.3a)
    bolt(table, "alice", "eve")
    bolt(table, "bob", "eve")
    advance_to(table, 3, "upkeep")
    assert untap_changes(table) == [(2, "night"), (3, "day")]  # two spells from the team's turn


def test_500_10_805_10_a_teammate_skipping_their_next_combat_phase_makes_the_whole_team_skip_it() -> None:
    table = start(
        archenemy(
            [PUNY],
            alice={"battlefield": ["Grizzly Bears"]},
            eve={"hand": ["Moment of Silence"], "battlefield": ["Plains"]},
        )
    )
    advance_to(table, 2, "upkeep")
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("eve", "Moment of Silence", targets=("bob",)))
    table.handle(PassPriority("eve"))
    table.handle(PassPriority("alice"))
    advance_to(table, 2, "end")
    skipped = last(table, "PhaseSkipped")
    assert (skipped["phase"], skipped["player"]) == ("combat", "bob")
    steps = [e["step"] for e in table.events if e["type"] == "StepBegan" and e["turn"] == 2]
    assert steps == ["untap", "upkeep", "draw", "precombat_main", "postcombat_main", "end"]  # alice's Bears never got to attack


def test_509_1a_805_9_a_teammates_creature_may_block_a_creature_attacking_the_primary_player() -> None:
    table = start(archenemy([PUNY], bob={"battlefield": ["Hill Giant"]}, eve={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("eve", ((obj(table, "Grizzly Bears"), "alice"),)))
    advance_to(table, 1, "declare_blockers")
    decision = pending_decision(table.state)
    assert (decision.kind, decision.player) == ("declare_blockers", "alice")  # asked, though alice has no creature
    table.handle(DeclareBlockers("bob", ((obj(table, "Hill Giant"), obj(table, "Grizzly Bears")),)))
    assert last(table, "BlockersDeclared")["player"] == "bob"
    advance_to(table, 1, "end")
    assert [p.card for p in table.state.battlefield] == ["Hill Giant"]  # 3 damage killed the Bears
    assert table.state.players["alice"].life == 20


def test_805_8_the_defending_team_declares_its_blockers_together_once_for_creatures_attacking_any_of_its_players() -> None:
    table = start(
        archenemy(
            [PUNY],
            alice={"battlefield": ["Grizzly Bears"]},
            bob={"battlefield": ["Hill Giant"]},
            eve={"battlefield": ["Savannah Lions", "Serra Angel"]},
        )
    )
    advance_to(table, 1, "declare_attackers")
    lions, angel = obj(table, "Savannah Lions"), obj(table, "Serra Angel")
    table.handle(DeclareAttackers("eve", ((lions, "alice"), (angel, "bob"))))
    advance_to(table, 1, "declare_blockers")
    refused(table, DeclareBlockers("eve", ()), "509.1")  # not the archenemy's to send
    refused(table, DeclareBlockers("bob", ((obj(table, "Hill Giant"), angel),)), "702.9b")  # restrictions still apply
    table.handle(DeclareBlockers("alice", ((obj(table, "Hill Giant"), lions),)))  # bob's creature, alice's declaration
    declared = [e for e in table.events if e["type"] == "BlockersDeclared"]
    assert [(e["player"], [b["card"] for b in e["blockers"]]) for e in declared] == [("alice", ["Hill Giant"])]
    assert pending_decision(table.state).kind == "priority"  # the team declared once, for both its players


def test_611_2a_805_4_until_a_teammates_next_turn_ends_as_the_teams_next_turn_begins() -> None:
    table = start(archenemy([PUNY], bob={"hand": ["Mountain"] * 9}))
    advance_to(table, 1, "upkeep")
    # the board: bob has no maximum hand size until his next turn (as a scheme like Your Puny
    # Minds Cannot Fathom says for its controller), an effect that began in eve's turn
    effect = {"id": 90, "kind": "no_max_hand_size", "object": 0, "power": 0, "toughness": 0, "keywords": [],
              "until": "next_turn", "player": "bob", "source": 0}
    table.emit(ev.EffectCreated, {"effect": effect})
    assert ch.max_hand_size(table.state, "bob") is None
    advance_to(table, 2, "upkeep")
    ended = last(table, "EffectsEnded")
    assert (ended["effects"], ended["rule"]) == ([90], "611.2a")
    assert ended["v"] == last(table, "TurnBegan")["v"] + 1  # as the team's turn began
    assert ch.max_hand_size(table.state, "bob") == 7


def test_502_3_805_4_each_player_of_the_active_team_untaps_their_own_permanents() -> None:
    table = start(archenemy([PUNY] * 2, alice={"battlefield": ["Forest"]}, bob={"battlefield": ["Mountain"]}))
    advance_to(table, 2, "upkeep")
    forest, mountain = obj(table, "Forest"), obj(table, "Mountain")
    table.handle(ActivateAbility("alice", forest))
    table.handle(ActivateAbility("bob", mountain))  # 805.5a: while the team has priority
    advance_to(table, 4, "upkeep")
    untapped = [e for e in table.events if e["type"] == "PermanentsUntapped"][-2:]
    assert [(e["player"], e["permanents"]) for e in untapped] == [("alice", [forest]), ("bob", [mountain])]
    assert not any(p.tapped for p in table.state.battlefield)


def test_117_3b_805_5_when_the_primary_player_leaves_the_game_the_rest_of_the_team_keeps_priority() -> None:
    table = start(archenemy([PUNY], alice={"life": 1, "battlefield": ["Phyrexian Arena"]}))
    advance_to(table, 2, "upkeep")
    assert [o.card for o in table.state.stack] == ["Phyrexian Arena"]
    table.handle(PassPriority("alice"))
    table.handle(PassPriority("eve"))  # the Arena's trigger resolves: alice loses her last life (704.5a)
    assert table.state.players["alice"].lost and not table.state.ended
    assert last(table, "PriorityGiven")["player"] == "bob"  # the active team still has priority (117.3b)


def test_603_2_805_4_a_teammates_at_the_beginning_of_your_upkeep_ability_triggers_in_the_teams_upkeep() -> None:
    table = start(archenemy([PUNY], bob={"battlefield": ["Phyrexian Arena"]}, eve={"battlefield": ["Phyrexian Arena"]}))
    advance_to(table, 2, "draw")
    triggered = [(e["player"], e["card"]) for e in table.events if e["type"] == "AbilityTriggered" and e["card"] != PUNY]
    assert triggered == [("eve", "Phyrexian Arena"), ("bob", "Phyrexian Arena")]  # eve's in turn 1, bob's in the team's turn 2
    assert table.state.players["bob"].life == 19


def test_514_1_805_4_each_player_of_the_active_team_discards_to_their_maximum_hand_size_in_cleanup() -> None:
    table = start(archenemy([PUNY], alice={"hand": ["Plains"] * 8}, bob={"hand": ["Plains"] * 9}))
    advance_to(table, 2, "end")
    table.handle(PassPriority("alice"))
    table.handle(PassPriority("eve"))
    asked = []
    while (decision := pending_decision(table.state)).kind == "discard":
        asked.append((decision.player, decision.count))
        refused(table, Discard("eve", ("Plains",) * decision.count), "514.1")  # not eve's turn, not her hand
        table.handle(Discard(decision.player, ("Plains",) * decision.count))
    assert asked == [("alice", 2), ("bob", 3)]  # each drew a card in the team's draw step (805.4b)
    assert [len(table.state.players[p].hand) for p in ("alice", "bob")] == [7, 7]


def test_805_5a_the_legal_actions_of_a_team_holding_priority_are_those_of_each_of_its_players() -> None:
    table = start(archenemy([PUNY], alice={"hand": ["Forest"]}, bob={"hand": ["Mountain", "Lightning Bolt"], "battlefield": ["Mountain"]}))
    advance_to(table, 2, "precombat_main")
    offered = list(legal_actions(table.state))
    assert PlayLand("alice", "Forest") in offered and PlayLand("bob", "Mountain") in offered
    assert CastSpell("bob", "Lightning Bolt", targets=("eve",)) in offered
    assert ActivateAbility("bob", obj(table, "Mountain")) in offered  # a mana ability (605.3a)
    assert {c.player for c in offered} == {"alice", "bob"}


def test_510_1c_805_7_a_teammate_divides_the_combat_damage_of_the_teams_attacker() -> None:
    table = start(archenemy([PUNY], bob={"battlefield": ["Colossal Dreadmaw"]}, eve={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 2, "declare_attackers")
    dreadmaw, bears = obj(table, "Colossal Dreadmaw"), obj(table, "Grizzly Bears")
    table.handle(DeclareAttackers("bob", ((dreadmaw, None),)))
    advance_to(table, 2, "declare_blockers")
    table.handle(DeclareBlockers("eve", ((bears, dreadmaw),)))
    advance_to(table, 2, "combat_damage")
    assert pending_decision(table.state).kind == "assign_damage"  # trample (702.19b): a real choice
    refused(table, AssignDamage("eve", ()), "510.1")
    table.handle(AssignDamage("bob", ((dreadmaw, ((bears, 3), ("eve", 3))),)))
    assert table.state.players["eve"].life == 40 - 3
