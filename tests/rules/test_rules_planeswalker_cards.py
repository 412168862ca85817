"""The pool's planeswalkers beyond Jace Beleren, each ability of each resolving on a concrete board with
the pool's own card files (606: loyalty abilities), and the rules they brought: a player with hexproof
(702.11c), players who can't gain life (119.7), "whenever an opponent draws a card" (603.2, 121.2), and
"its controller" of a destroyed permanent (608.2h), "up to one target" (601.2c), and tokens counted as the
ability resolves (608.2h)."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import targeting
from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell, DeclareAttackers, OrderTriggers
from mtg_ledger.core.errors import IllegalTarget
from mtg_ledger.core.legal import legal_actions
from tests.helpers import advance_to, both_pass, events_of, last, obj, perm, refused, two_players
from tests.rules.mechanics_cards import start

TEYO = CardRef("Teyo, the Shieldmage")
TIBALT = CardRef("Tibalt, Rakish Instigator")
OB_NIXILIS = CardRef("Ob Nixilis, the Hate-Twisted")
AJANI = CardRef("Ajani, Caller of the Pride")
GARRUK = CardRef("Garruk, Primal Hunter")


# --- Teyo, the Shieldmage ----------------------------------------------------------------------


def test_a_player_with_hexproof_cannot_be_the_target_of_what_an_opponent_controls_702_11c():
    table = start(
        two_players(
            alice={"battlefield": ["Teyo, the Shieldmage", "Jace Beleren"]},
            bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]},
        )
    )
    teyo = obj(table, "Teyo, the Shieldmage")
    advance_to(table, 2, "precombat_main")
    refused(table, CastSpell("bob", "Lightning Bolt", targets=("alice",)), "702.11c", IllegalTarget)
    bolts = [a.targets for a in legal_actions(table.state) if isinstance(a, CastSpell)]
    assert ("alice",) not in bolts and ("bob",) in bolts and (teyo,) in bolts  # the planeswalker itself has no hexproof
    assert targeting.legal_targets(table.state, "any", "bob") == ["bob", teyo, obj(table, "Jace Beleren")]  # a trigger's choices too
    assert targeting.legal_targets(table.state, "player", "alice") == ["alice", "bob"]  # her own abilities may target her
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(teyo,)))
    both_pass(table, "bob", "alice")
    assert ch.loyalty(perm(table, "Teyo, the Shieldmage")) == 2
    advance_to(table, 3, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Jace Beleren"), 1, targets=("alice",)))
    assert last(table, "AbilityActivated")["targets"] == ["alice"]


def test_teyo_makes_a_0_3_wall_with_defender_for_two_loyalty_606_4():
    table = start(two_players(alice={"battlefield": ["Teyo, the Shieldmage"]}))
    advance_to(table, 1, "precombat_main")
    assert ch.loyalty(perm(table, "Teyo, the Shieldmage")) == 5  # 306.5b
    listed = [a for a in legal_actions(table.state) if isinstance(a, ActivateAbility)]
    assert listed == [ActivateAbility("alice", obj(table, "Teyo, the Shieldmage"), 0)]  # 606: its one loyalty ability
    table.handle(ActivateAbility("alice", TEYO, 0))
    assert ch.loyalty(perm(table, "Teyo, the Shieldmage")) == 3
    both_pass(table)
    wall = perm(table, "Wall")
    assert (wall.token, wall.controller, ch.power(table.state, wall), ch.toughness(table.state, wall)) == (True, "alice", 0, 3)
    assert ch.has_keyword(table.state, wall, "defender")


# --- Tibalt, Rakish Instigator -------------------------------------------------------------------


def test_the_opponents_of_a_player_whose_permanent_says_they_cant_gain_life_gain_none_119_7():
    table = start(
        two_players(
            alice={"battlefield": ["Tibalt, Rakish Instigator", "Mountain", "Plains"], "hand": ["Lightning Helix"]},
            bob={"battlefield": ["Child of Night", "Mountain", "Plains"], "hand": ["Lightning Helix"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Lightning Helix", targets=("bob",)))
    both_pass(table)
    assert (table.state.players["alice"].life, table.state.players["bob"].life) == (23, 17)  # Tibalt's controller still gains
    advance_to(table, 2, "precombat_main")
    table.handle(CastSpell("bob", "Lightning Helix", targets=("alice",)))
    both_pass(table, "bob", "alice")
    advance_to(table, 2, "declare_attackers")
    table.handle(DeclareAttackers("bob", ((CardRef("Child of Night"), "alice"),)))  # lifelink (702.15b)
    advance_to(table, 2, "end_of_combat")
    assert (table.state.players["alice"].life, table.state.players["bob"].life) == (18, 17)
    assert [e["player"] for e in events_of(table, "LifeGained")] == ["alice"]


def test_tibalts_devil_deals_1_damage_to_any_target_when_it_dies_606_4_700_4():
    table = start(two_players(alice={"battlefield": ["Tibalt, Rakish Instigator"]}, bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", TIBALT, 0))
    assert ch.loyalty(perm(table, "Tibalt, Rakish Instigator")) == 3
    both_pass(table)
    devil = perm(table, "Devil")
    assert (devil.token, ch.power(table.state, devil), ch.toughness(table.state, devil)) == (True, 1, 1)
    advance_to(table, 2, "precombat_main")
    table.handle(CastSpell("bob", "Lightning Bolt", targets=(devil.object,)))
    both_pass(table, "bob", "alice")
    trigger = last(table, "AbilityTriggered")
    assert (trigger["player"], trigger["card"]) == ("alice", "Devil")
    table.handle(OrderTriggers("alice", (trigger["object"],), (("bob",),)))
    both_pass(table, "bob", "alice")
    assert table.state.players["bob"].life == 19


# --- Ob Nixilis, the Hate-Twisted --------------------------------------------------------------


def test_whenever_an_opponent_draws_a_card_ob_nixilis_deals_1_damage_to_that_player_603_2_121_2():
    library = ["Island"] * 10
    table = start(two_players(alice={"battlefield": ["Ob Nixilis, the Hate-Twisted"], "library": library}, bob={"library": library}))
    nixilis = obj(table, "Ob Nixilis, the Hate-Twisted")
    advance_to(table, 2, "draw")  # bob's draw
    trigger = last(table, "AbilityTriggered")
    assert (trigger["player"], trigger["source"], trigger["context"]) == ("alice", nixilis, {"player": "bob"})
    both_pass(table, "bob", "alice")
    assert last(table, "DamageDealt") == {**last(table, "DamageDealt"), "source": nixilis, "target": "bob", "amount": 1}
    assert table.state.players["bob"].life == 19
    advance_to(table, 3, "precombat_main")  # alice's own draw triggers nothing
    assert len(events_of(table, "AbilityTriggered")) == 1


def test_ob_nixilis_destroys_target_creature_and_its_controller_draws_two_cards_608_2h():
    library = ["Island"] * 10
    table = start(
        two_players(alice={"battlefield": ["Ob Nixilis, the Hate-Twisted"], "library": library}, bob={"battlefield": ["Grizzly Bears"], "library": library})
    )
    advance_to(table, 1, "precombat_main")
    hand = len(table.state.players["bob"].hand)
    table.handle(ActivateAbility("alice", OB_NIXILIS, 0, targets=(CardRef("Grizzly Bears"),)))
    assert ch.loyalty(perm(table, "Ob Nixilis, the Hate-Twisted")) == 3
    both_pass(table)
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]
    assert len(table.state.players["bob"].hand) == hand + 2
    assert [t["context"] for t in events_of(table, "AbilityTriggered")] == [{"player": "bob"}, {"player": "bob"}]  # one a card drawn
    both_pass(table)
    both_pass(table)
    assert table.state.players["bob"].life == 18


def test_the_controller_of_a_creature_that_isnt_destroyed_still_draws_608_2h_702_12b():
    library = ["Island"] * 10
    table = start(
        two_players(alice={"battlefield": ["Ob Nixilis, the Hate-Twisted", "Darksteel Myr"], "library": library}, bob={"library": library})
    )
    advance_to(table, 1, "precombat_main")
    hand = len(table.state.players["alice"].hand)
    table.handle(ActivateAbility("alice", OB_NIXILIS, 0, targets=(CardRef("Darksteel Myr"),)))
    both_pass(table)
    assert perm(table, "Darksteel Myr").controller == "alice"  # indestructible
    assert len(table.state.players["alice"].hand) == hand + 2
    assert events_of(table, "AbilityTriggered") == []  # alice is no opponent of her own Ob Nixilis


# --- Ajani, Caller of the Pride ------------------------------------------------------------------


def test_an_ability_with_up_to_one_target_may_be_activated_with_no_target_601_2c():
    table = start(two_players(alice={"battlefield": ["Ajani, Caller of the Pride"]}, bob={"battlefield": ["Grizzly Bears"]}))
    ajani, bears = obj(table, "Ajani, Caller of the Pride"), obj(table, "Grizzly Bears")
    advance_to(table, 1, "precombat_main")
    listed = [a for a in legal_actions(table.state) if isinstance(a, ActivateAbility)]
    assert listed == [ActivateAbility("alice", ajani, 0), ActivateAbility("alice", ajani, 0, (bears,)), ActivateAbility("alice", ajani, 1, (bears,))]
    table.handle(ActivateAbility("alice", AJANI, 0))
    assert last(table, "AbilityActivated")["targets"] == []
    both_pass(table)
    assert ch.loyalty(perm(table, "Ajani, Caller of the Pride")) == 5
    assert events_of(table, "CountersAdded")[-1]["kind"] == "loyalty"  # no +1/+1 counter anywhere
    advance_to(table, 3, "precombat_main")
    table.handle(ActivateAbility("alice", AJANI, 0, targets=(bears,)))
    both_pass(table)
    assert perm(table, "Grizzly Bears").counters == {"+1/+1": 1}
    assert ch.loyalty(perm(table, "Ajani, Caller of the Pride")) == 6


def test_ajani_gives_target_creature_flying_and_double_strike_until_end_of_turn_606_4():
    table = start(two_players(alice={"battlefield": ["Ajani, Caller of the Pride", "Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", AJANI, 1, targets=(CardRef("Grizzly Bears"),)))
    assert ch.loyalty(perm(table, "Ajani, Caller of the Pride")) == 1
    both_pass(table)
    bears = perm(table, "Grizzly Bears")
    assert ch.has_keyword(table.state, bears, "flying") and ch.has_keyword(table.state, bears, "double strike")
    advance_to(table, 2, "upkeep")
    assert not ch.has_keyword(table.state, perm(table, "Grizzly Bears"), "flying")  # 514.2


def test_ajani_creates_as_many_cats_as_its_controllers_life_total_as_it_resolves_608_2h():
    table = start(two_players(alice={"battlefield": ["Ajani, Caller of the Pride"], "life": 3}))
    for turn in (1, 3, 5, 7):  # +1 each of alice's turns, with no target: 4, 5, 6, 7, 8
        advance_to(table, turn, "precombat_main")
        table.handle(ActivateAbility("alice", AJANI, 0))
        both_pass(table)
    advance_to(table, 9, "precombat_main")
    assert ActivateAbility("alice", obj(table, "Ajani, Caller of the Pride"), 2) in list(legal_actions(table.state))
    table.handle(ActivateAbility("alice", AJANI, 2))
    both_pass(table)
    cats = [p for p in table.state.battlefield if p.card == "Cat"]
    assert len(cats) == 3 and all(p.token and p.controller == "alice" and ch.power(table.state, p) == 2 for p in cats)
    assert table.state.players["alice"].graveyard == ["Ajani, Caller of the Pride"]  # 704.5i: no loyalty left


# --- Garruk, Primal Hunter -----------------------------------------------------------------------


def test_garruk_makes_a_3_3_green_beast_606_4():
    table = start(two_players(alice={"battlefield": ["Garruk, Primal Hunter"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", GARRUK, 0))
    assert ch.loyalty(perm(table, "Garruk, Primal Hunter")) == 4
    both_pass(table)
    beast = perm(table, "Beast")
    assert (beast.token, ch.power(table.state, beast), ch.toughness(table.state, beast), ch.face(table.state, beast).colors) == (True, 3, 3, ("G",))


def test_garruk_draws_cards_equal_to_the_greatest_power_among_creatures_its_controller_controls_608_2h():
    library = ["Forest"] * 10
    table = start(
        two_players(alice={"battlefield": ["Garruk, Primal Hunter", "Hill Giant", "Grizzly Bears"], "library": library}, bob={"battlefield": ["Colossal Dreadmaw"]})
    )
    advance_to(table, 1, "precombat_main")
    hand = len(table.state.players["alice"].hand)
    table.handle(ActivateAbility("alice", GARRUK, 1))
    assert table.state.players["alice"].graveyard == ["Garruk, Primal Hunter"]  # 704.5i: the −3 left no loyalty
    both_pass(table)  # 113.7a: the ability resolves without its source
    assert len(table.state.players["alice"].hand) == hand + 3  # Hill Giant's 3; bob's 6/6 is not hers


def test_garruk_draws_nothing_without_a_creature_107_1b():
    table = start(two_players(alice={"battlefield": ["Garruk, Primal Hunter"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", GARRUK, 1))
    both_pass(table)
    assert table.state.players["alice"].hand == [] and last(table, "ObjectResolved")["outcome"] == "resolved"


def test_garruk_makes_a_6_6_wurm_for_each_land_its_controller_controls_608_2h():
    table = start(two_players(alice={"battlefield": ["Garruk, Primal Hunter", "Forest", "Forest", "Forest", "Forest"]}, bob={"battlefield": ["Forest"]}))
    for turn in (1, 3, 5):  # +1: 4, 5, 6
        advance_to(table, turn, "precombat_main")
        table.handle(ActivateAbility("alice", GARRUK, 0))
        both_pass(table)
    advance_to(table, 7, "precombat_main")
    table.handle(ActivateAbility("alice", GARRUK, 2))
    both_pass(table)
    wurms = [p for p in table.state.battlefield if p.card == "Wurm"]
    assert len(wurms) == 4 and all(p.controller == "alice" and ch.power(table.state, p) == 6 for p in wurms)
    assert len([p for p in table.state.battlefield if p.card == "Beast"]) == 3
