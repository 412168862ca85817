"""310.11a: "As a Siege enters the battlefield, its controller chooses an opponent to protect it." With more
than one opponent (a free-for-all), the game asks its controller (the ``choose_protector`` decision) and
records ProtectorChosen with the player chosen; with one, that opponent is chosen at once, nothing asked."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import CardRef, CastSpell, ChooseProtector, Concede, DeclareAttackers, PassPriority
from mtg_ledger.core.decision import DecisionKind, pending_decision
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.rules import check
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.audit.replay import replay
from mtg_ledger.replays.demo.policy import choose
from mtg_ledger.replays.scenario.actions import action_json
from tests.helpers import advance_to, events_of, last, perm, refused, three_players, two_players
from tests.rules.mechanics_cards import start

SIEGE = "Invasion of Dominaria"


def siege_entering(carol_life: int | None = None) -> LocalTable:
    """A three-player free-for-all: alice casts Invasion of Dominaria in her first main phase and every
    player passes, so that it resolves and enters; bob and carol each have a Grizzly Bears."""
    carol = {"battlefield": ["Grizzly Bears"], **({"life": carol_life} if carol_life is not None else {})}
    table = start(
        three_players(
            "free-for-all",
            alice={"battlefield": ["Plains"] * 3, "hand": [SIEGE], "library": ["Plains"] * 8},
            bob={"battlefield": ["Grizzly Bears"], "library": ["Forest"] * 8},
            carol={**carol, "library": ["Forest"] * 8},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", SIEGE))
    for player in ("alice", "bob", "carol"):
        table.handle(PassPriority(player))
    return table


def obj_of(table: LocalTable) -> int:
    return int(perm(table, SIEGE).object)


def test_in_a_free_for_all_the_siege_s_controller_chooses_the_opponent_who_protects_it_310_11a() -> None:
    table = siege_entering()
    asked = pending_decision(table.state)
    assert asked is not None and (asked.kind, asked.player, asked.rule_cited) == (DecisionKind.CHOOSE_PROTECTOR, "alice", "310.11a")
    assert last(table, "ProtectorAsked") == {**last(table, "ProtectorAsked"), "object": obj_of(table), "player": "alice", "rule": "310.11a"}
    assert perm(table, SIEGE).protector is None and not events_of(table, "ProtectorChosen")
    assert [action_json(c) for c in legal_actions(table.state) if isinstance(c, ChooseProtector)] == [
        {"player": "alice", "action": "choose_protector", "protector": "bob"},
        {"player": "alice", "action": "choose_protector", "protector": "carol"},
    ]
    table.handle(ChooseProtector("alice", "carol"))
    siege = perm(table, SIEGE)
    assert (siege.protector, ch.defense(siege)) == ("carol", 5)  # 310.4b: its defense counters, once it is protected
    assert last(table, "ProtectorChosen") == {**last(table, "ProtectorChosen"), "object": siege.object, "player": "carol"}
    for player in ("alice", "bob", "carol"):  # its enters ability resolves
        table.handle(PassPriority(player))
    assert table.state.players["alice"].life == 24
    # 310.8: bob, who is not its protector, may attack it; carol, its protector, may not (508.1b)
    advance_to(table, 2, "declare_attackers")
    check(table.state, DeclareAttackers("bob", ((CardRef("Grizzly Bears"), siege.object),)))
    advance_to(table, 3, "declare_attackers")
    refused(table, DeclareAttackers("carol", ((CardRef("Grizzly Bears", 1), siege.object),)), "508.1b")


def test_a_siege_s_protector_is_one_of_its_controller_s_opponents_not_herself_nor_a_stranger_310_11a() -> None:
    table = siege_entering()
    refused(table, ChooseProtector("alice", "alice"), "310.11a")
    refused(table, ChooseProtector("alice", "dave"), "310.11a")
    refused(table, ChooseProtector("bob", "carol"), "310.11a")  # the choice is its controller's
    asked = pending_decision(table.state)
    assert asked is not None and asked.kind == DecisionKind.CHOOSE_PROTECTOR


def test_with_one_opponent_the_siege_s_protector_is_chosen_without_asking_310_11a() -> None:
    table = start(two_players(alice={"battlefield": ["Plains"] * 3, "hand": [SIEGE], "library": ["Plains"] * 8}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", SIEGE))
    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))
    assert perm(table, SIEGE).protector == "bob" and not events_of(table, "ProtectorAsked")
    asked = pending_decision(table.state)
    assert asked is not None and asked.kind == DecisionKind.PRIORITY


def test_a_game_where_the_protector_was_chosen_replays_to_the_same_state_310_11a() -> None:
    table = siege_entering()
    table.handle(ChooseProtector("alice", "carol"))
    result = replay(table.events)
    assert result.ok and result.state is not None and result.state.state_hash() == table.state.state_hash()


def test_the_demo_player_makes_the_opponent_with_the_most_life_the_protector_310_11a() -> None:
    table = siege_entering(carol_life=25)
    assert choose(table.state) == ChooseProtector("alice", "carol")


def test_an_opponent_who_concedes_while_the_protector_is_chosen_leaves_the_choice_to_be_made_310_11a() -> None:
    table = siege_entering()
    table.handle(Concede("bob"))
    asked = pending_decision(table.state)
    assert asked is not None and asked.kind == DecisionKind.CHOOSE_PROTECTOR
    refused(table, ChooseProtector("alice", "bob"), "310.11a")  # 800.4a: bob has left the game
    table.handle(ChooseProtector("alice", "carol"))
    assert perm(table, SIEGE).protector == "carol"
