"""Rules five named cards of the pool brought, each pinned on a concrete board with the pool's own card
files: a land that enters tapped as it is played and a mana ability with a choice of colour (Selesnya
Guildgate); a spell with two targets and the fight between them (Prey Upon); an attack trigger by which the
defending player reveals the top card of their library, public to every player (Goblin Guide); a loyalty
ability with two targets, a token, and a pump with a keyword for the creatures there as it resolves (Garruk
Wildspeaker); counters and a keyword for each creature you control, and a token whose power and toughness are
its controller's life total (Ajani Goldmane)."""

from __future__ import annotations

from mtg_ledger.core.commands import ActivateAbility, CardRef, CastSpell, DeclareAttackers, PassPriority, PlayLand
from mtg_ledger.core.public import hidden_values
from mtg_ledger.core.redact import view
from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.errors import IllegalTarget
from mtg_ledger.core.legal import legal_actions
from tests.helpers import advance_to, attack, both_pass, events_of, last, obj, perm, refused, three_players, two_players
from tests.rules.mechanics_cards import start

GATE = "Selesnya Guildgate"


def test_a_land_that_enters_tapped_is_tapped_as_it_is_played_614_1c():
    table = start(two_players(alice={"hand": [GATE]}))
    advance_to(table, 1, "precombat_main")
    table.handle(PlayLand("alice", GATE))
    assert perm(table, GATE).tapped
    assert last(table, "PermanentsTapped") == {**last(table, "PermanentsTapped"), "permanents": [obj(table, GATE)], "rule": "614.1c"}


def test_a_mana_ability_that_adds_one_of_two_colours_adds_the_one_chosen_106_1():
    table = start(two_players(alice={"battlefield": [GATE]}))
    advance_to(table, 1, "precombat_main")
    refused(table, ActivateAbility("alice", CardRef(GATE), 0), "106.1")  # which colour is not said
    refused(table, ActivateAbility("alice", CardRef(GATE), 0, mana="U"), "106.1")
    gate = obj(table, GATE)
    offered = [a for a in legal_actions(table.state) if isinstance(a, ActivateAbility) and a.source == gate]
    assert offered == [ActivateAbility("alice", gate, 0, mana="G"), ActivateAbility("alice", gate, 0, mana="W")]
    table.handle(ActivateAbility("alice", CardRef(GATE), 0, mana="W"))
    assert table.state.players["alice"].mana_pool == {"W": 1}
    assert perm(table, GATE).tapped


def test_paying_a_cost_the_engine_has_a_land_with_a_choice_add_the_colour_the_cost_needs_106_1_601_2g():
    table = start(two_players(alice={"battlefield": [GATE, "Forest"], "hand": ["Savannah Lions"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Savannah Lions"))  # {W}: only the Guildgate can add it
    assert [(e["card"], e["mana"]) for e in events_of(table, "ManaAbilityActivated")] == [(GATE, "W")]
    both_pass(table)
    assert perm(table, "Savannah Lions").controller == "alice"


def test_a_land_with_a_choice_named_to_pay_adds_the_colour_that_pays_106_1_601_2h():
    table = start(two_players(alice={"battlefield": ["Forest", GATE], "hand": ["Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Grizzly Bears", pay=(CardRef(GATE), CardRef("Forest"))))  # {1}{G}
    assert [(e["card"], e["mana"]) for e in events_of(table, "ManaAbilityActivated")] == [(GATE, "G"), ("Forest", "G")]
    assert last(table, "SpellCast")["mana_spent"] == {"G": 2}


def test_two_creatures_that_fight_each_deal_damage_equal_to_its_power_to_the_other_701_14a():
    table = start(two_players(alice={"battlefield": ["Forest", "Hill Giant"], "hand": ["Prey Upon"]}, bob={"battlefield": ["Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Prey Upon", targets=(CardRef("Hill Giant"), CardRef("Grizzly Bears"))))
    both_pass(table)
    assert [(e["card"], e["amount"]) for e in events_of(table, "DamageDealt")] == [("Hill Giant", 3), ("Grizzly Bears", 2)]
    assert perm(table, "Hill Giant").damage == 2
    assert table.state.players["bob"].graveyard == ["Grizzly Bears"]  # 704.5g


def test_a_creature_with_deathtouch_that_fights_destroys_the_creature_it_damages_702_2b_704_5h():
    table = start(two_players(alice={"battlefield": ["Forest", "Typhoid Rats"], "hand": ["Prey Upon"]}, bob={"battlefield": ["Hill Giant"]}))
    advance_to(table, 1, "precombat_main")
    rats, giant = obj(table, "Typhoid Rats"), obj(table, "Hill Giant")
    table.handle(CastSpell("alice", "Prey Upon", targets=(CardRef("Typhoid Rats"), CardRef("Hill Giant"))))
    both_pass(table)
    assert last(table, "DeathtouchDamageMarked") == {**last(table, "DeathtouchDamageMarked"), "object": giant, "source": rats}
    assert table.state.players["bob"].graveyard == ["Hill Giant"]  # 1 damage, but from a source with deathtouch
    assert table.state.players["alice"].graveyard == ["Prey Upon", "Typhoid Rats"]  # the Giant's 3 damage


def test_noncombat_damage_from_a_source_without_deathtouch_marks_nothing_702_2b():
    table = start(two_players(alice={"battlefield": ["Forest", "Hill Giant"], "hand": ["Prey Upon"]}, bob={"battlefield": ["Colossal Dreadmaw"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Prey Upon", targets=(CardRef("Hill Giant"), CardRef("Colossal Dreadmaw"))))
    both_pass(table)
    assert events_of(table, "DeathtouchDamageMarked") == []
    assert perm(table, "Colossal Dreadmaw").damage == 3 and table.state.players["bob"].graveyard == []


def test_a_spell_with_two_targets_has_exactly_one_for_each_each_legal_for_its_own_601_2c():
    table = start(two_players(alice={"battlefield": ["Forest", "Hill Giant"], "hand": ["Prey Upon"]}, bob={"battlefield": ["Grizzly Bears", "Savannah Lions"]}))
    advance_to(table, 1, "precombat_main")
    refused(table, CastSpell("alice", "Prey Upon", targets=(CardRef("Hill Giant"),)), "601.2c", IllegalTarget)
    refused(table, CastSpell("alice", "Prey Upon", targets=(CardRef("Grizzly Bears"), CardRef("Hill Giant"))), "115.1", IllegalTarget)
    offered = [a.targets for a in legal_actions(table.state) if isinstance(a, CastSpell) and a.card == "Prey Upon"]
    giant, bears, lions = obj(table, "Hill Giant"), obj(table, "Grizzly Bears"), obj(table, "Savannah Lions")
    assert offered == [(giant, bears), (giant, lions)]
    table.handle(CastSpell("alice", "Prey Upon", targets=(CardRef("Hill Giant"), CardRef("Savannah Lions"))))
    assert last(table, "SpellCast")["targets"] == [giant, lions]


def test_when_one_of_two_fighters_is_an_illegal_target_as_the_spell_resolves_no_damage_is_dealt_701_14b_608_2b():
    table = start(
        two_players(
            alice={"battlefield": ["Forest", "Hill Giant"], "hand": ["Prey Upon"]},
            bob={"battlefield": ["Grizzly Bears", "Island"], "hand": ["Unsummon"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(CastSpell("alice", "Prey Upon", targets=(CardRef("Hill Giant"), CardRef("Grizzly Bears"))))
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Unsummon", targets=(CardRef("Grizzly Bears"),)))
    both_pass(table, "bob", "alice")  # the Bears go back to bob's hand
    both_pass(table)
    assert last(table, "ObjectResolved") == {**last(table, "ObjectResolved"), "card": "Prey Upon", "outcome": "resolved"}  # one target was still legal
    assert events_of(table, "DamageDealt") == []
    assert perm(table, "Hill Giant").damage == 0


GUIDE = CardRef("Goblin Guide")


def test_when_it_attacks_the_defending_player_reveals_their_top_card_and_puts_a_land_into_their_hand_701_20a():
    table = start(two_players(alice={"battlefield": ["Goblin Guide"]}, bob={"library": ["Forest"] * 5}))
    hand = len(table.state.players["bob"].hand)
    attack(table, GUIDE)
    both_pass(table)
    assert last(table, "TopCardRevealed") == {**last(table, "TopCardRevealed"), "player": "bob", "card": "Forest", "to_hand": True, "rule": "701.20a"}
    assert (len(table.state.players["bob"].hand), len(table.state.players["bob"].library)) == (hand + 1, 4)


def test_a_revealed_card_that_is_not_a_land_stays_on_top_of_the_library_701_20a():
    table = start(two_players(alice={"battlefield": ["Goblin Guide"]}, bob={"library": ["Grizzly Bears"] * 5}))
    hand = len(table.state.players["bob"].hand)
    attack(table, GUIDE)
    both_pass(table)
    assert (last(table, "TopCardRevealed")["card"], last(table, "TopCardRevealed")["to_hand"]) == ("Grizzly Bears", False)
    assert (len(table.state.players["bob"].hand), table.state.players["bob"].library) == (hand, ["Grizzly Bears"] * 5)


def test_the_revealed_card_is_shown_to_every_player_and_nothing_else_is_401_2_701_20a():
    table = start(two_players(alice={"battlefield": ["Goblin Guide"]}, bob={"library": ["Forest"] * 5}))
    attack(table, GUIDE)
    both_pass(table)
    revealed = last(table, "TopCardRevealed")
    assert view(revealed, "alice") == view(revealed, "bob") == {k: v for k, v in revealed.items() if k != "hash"}
    assert hidden_values(revealed) == []  # its public form is the event itself
    assert view(table.state, "alice")["players"]["bob"]["hand"] == [None] * len(table.state.players["bob"].hand)  # 402.3: in hand, hidden again


def test_attacking_a_battle_the_defending_player_is_its_protector_not_its_controller_508_5_310_8():
    table = start(two_players(alice={"battlefield": ["Goblin Guide", "Invasion of Dominaria"], "library": ["Forest"] * 5}, bob={"library": ["Forest"] * 5}))
    assert perm(table, "Invasion of Dominaria").protector == "bob"
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((GUIDE, CardRef("Invasion of Dominaria")),)))
    both_pass(table)
    assert last(table, "TopCardRevealed")["player"] == "bob"
    assert len(table.state.players["alice"].library) == 5


def test_in_a_multiplayer_game_the_defending_player_is_the_one_the_creature_attacks_508_5():
    table = start(three_players("free-for-all", alice={"battlefield": ["Goblin Guide"]}))
    advance_to(table, 1, "declare_attackers")
    table.handle(DeclareAttackers("alice", ((GUIDE, "carol"),)))
    assert last(table, "AbilityTriggered")["context"] == {"defending_player": "carol"}
    table.handle(PassPriority("alice"))
    table.handle(PassPriority("bob"))
    table.handle(PassPriority("carol"))
    assert [e["player"] for e in events_of(table, "TopCardRevealed")] == ["carol"]


GARRUK = CardRef("Garruk Wildspeaker")


def test_untap_two_target_lands_untaps_two_different_lands_701_26b_601_2c():
    table = start(two_players(alice={"battlefield": ["Garruk Wildspeaker", "Forest", "Forest", "Grizzly Bears"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", CardRef("Forest", 0), 0))
    table.handle(ActivateAbility("alice", CardRef("Forest", 1), 0))
    refused(table, ActivateAbility("alice", GARRUK, 0, targets=(CardRef("Forest", 0),)), "601.2c", IllegalTarget)
    refused(table, ActivateAbility("alice", GARRUK, 0, targets=(CardRef("Forest", 0), CardRef("Forest", 0))), "601.2c", IllegalTarget)
    refused(table, ActivateAbility("alice", GARRUK, 0, targets=(CardRef("Forest", 0), CardRef("Grizzly Bears"))), "115.1", IllegalTarget)
    forests = [obj(table, "Forest", 0), obj(table, "Forest", 1)]
    offered = [a.targets for a in legal_actions(table.state) if isinstance(a, ActivateAbility) and a.ability == 0 and a.source == obj(table, "Garruk Wildspeaker")]
    assert offered == [tuple(forests)]  # the two lands, once whatever their order
    table.handle(ActivateAbility("alice", GARRUK, 0, targets=(CardRef("Forest", 1), CardRef("Forest", 0))))
    assert ch.loyalty(perm(table, "Garruk Wildspeaker")) == 4  # 606.4
    both_pass(table)
    assert last(table, "PermanentsUntappedByEffect")["permanents"] == [forests[1], forests[0]]
    assert not perm(table, "Forest", 0).tapped and not perm(table, "Forest", 1).tapped


def test_an_ability_with_two_target_lands_cannot_be_activated_with_one_land_on_the_battlefield_601_2c():
    table = start(two_players(alice={"battlefield": ["Garruk Wildspeaker", "Forest"]}))
    advance_to(table, 1, "precombat_main")
    refused(table, ActivateAbility("alice", GARRUK, 0, targets=(CardRef("Forest"),)), "601.2c", IllegalTarget)
    garruk = obj(table, "Garruk Wildspeaker")
    assert sorted(a.ability for a in legal_actions(table.state) if isinstance(a, ActivateAbility) and a.source == garruk) == [1]  # not +1; not -4 (606.6)


def test_minus_one_creates_a_3_3_green_beast_creature_token_111_1():
    table = start(two_players(alice={"battlefield": ["Garruk Wildspeaker"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", GARRUK, 1))
    both_pass(table)
    beast = perm(table, "Beast")
    assert (beast.token, beast.controller, ch.power(table.state, beast), ch.toughness(table.state, beast)) == (True, "alice", 3, 3)
    assert ch.face(table.state, beast).colors == ("G",)
    assert ch.loyalty(perm(table, "Garruk Wildspeaker")) == 2


def test_creatures_you_control_get_plus_three_and_trample_only_those_there_as_it_resolves_611_2c_613_1f():
    table = start(
        two_players(
            alice={"battlefield": ["Garruk Wildspeaker", "Forest", "Forest", "Grizzly Bears"], "hand": ["Savannah Lions"], "library": ["Plains"] * 5},
            bob={"battlefield": ["Hill Giant"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", GARRUK, 0, targets=(CardRef("Forest", 0), CardRef("Forest", 1))))
    both_pass(table)
    advance_to(table, 3, "precombat_main")
    table.handle(ActivateAbility("alice", GARRUK, 2))  # -4, with 4 loyalty
    both_pass(table)
    bears, giant = perm(table, "Grizzly Bears"), perm(table, "Hill Giant")
    assert (ch.power(table.state, bears), ch.toughness(table.state, bears), ch.has_keyword(table.state, bears, "trample")) == (5, 5, True)
    assert (ch.power(table.state, giant), ch.has_keyword(table.state, giant, "trample")) == (3, False)  # not alice's
    table.handle(PlayLand("alice", "Plains"))
    table.handle(CastSpell("alice", "Savannah Lions"))
    both_pass(table)
    lions = perm(table, "Savannah Lions")
    assert (ch.power(table.state, lions), ch.has_keyword(table.state, lions, "trample")) == (2, False)  # 611.2c: it came later
    assert "Garruk Wildspeaker" in table.state.players["alice"].graveyard  # 704.5i: no loyalty left
    advance_to(table, 4, "upkeep")
    assert (ch.power(table.state, bears), ch.has_keyword(table.state, bears, "trample")) == (2, False)  # 514.2


AJANI = CardRef("Ajani Goldmane")


def test_plus_one_you_gain_two_life_119_3_606_4():
    table = start(two_players(alice={"battlefield": ["Ajani Goldmane"]}))
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", AJANI, 0))
    both_pass(table)
    assert (table.state.players["alice"].life, ch.loyalty(perm(table, "Ajani Goldmane"))) == (22, 5)


def test_a_counter_on_each_creature_you_control_and_vigilance_for_those_creatures_until_end_of_turn_122_1_611_2c():
    table = start(
        two_players(
            alice={"battlefield": ["Ajani Goldmane", "Grizzly Bears", "Savannah Lions", "Plains"], "hand": ["Savannah Lions"], "library": ["Plains"] * 5},
            bob={"battlefield": ["Hill Giant"]},
        )
    )
    advance_to(table, 1, "precombat_main")
    table.handle(ActivateAbility("alice", AJANI, 1))
    both_pass(table)
    s = table.state
    bears, lions, giant = perm(table, "Grizzly Bears"), perm(table, "Savannah Lions"), perm(table, "Hill Giant")
    assert [(ch.power(s, p), ch.toughness(s, p), ch.has_keyword(s, p, "vigilance")) for p in (bears, lions)] == [(3, 3, True), (3, 2, True)]
    assert (giant.counters, ch.has_keyword(s, giant, "vigilance")) == ({}, False)  # not alice's
    table.handle(CastSpell("alice", "Savannah Lions"))
    both_pass(table)
    later = perm(table, "Savannah Lions", 1)
    assert (later.counters, ch.has_keyword(s, later, "vigilance")) == ({}, False)  # 611.2c: it was not there
    advance_to(table, 2, "upkeep")
    assert (bears.counters, ch.has_keyword(s, bears, "vigilance")) == ({"+1/+1": 1}, False)  # the counter stays; vigilance ends (514.2)


def test_a_token_whose_power_and_toughness_equal_its_controller_s_life_total_follows_it_604_3_613_4a():
    table = start(
        two_players(alice={"battlefield": ["Ajani Goldmane"], "library": ["Plains"] * 8}, bob={"battlefield": ["Mountain"], "hand": ["Lightning Bolt"], "library": ["Mountain"] * 8})
    )
    for turn in (1, 3):
        advance_to(table, turn, "precombat_main")
        table.handle(ActivateAbility("alice", AJANI, 0))  # +1: 5, then 6 loyalty
        both_pass(table)
    advance_to(table, 5, "precombat_main")
    table.handle(ActivateAbility("alice", AJANI, 2))  # -6
    both_pass(table)
    avatar = perm(table, "Avatar")
    assert (avatar.token, ch.face(table.state, avatar).colors, table.state.players["alice"].life) == (True, ("W",), 24)
    assert (ch.power(table.state, avatar), ch.toughness(table.state, avatar)) == (24, 24)
    assert [(b["power"], b["toughness"]) for b in view(table.state, "bob")["battlefield"] if b["card"] == "Avatar"] == [(24, 24)]
    table.handle(PassPriority("alice"))
    table.handle(CastSpell("bob", "Lightning Bolt", targets=("alice",)))
    both_pass(table, "bob", "alice")
    assert (ch.power(table.state, avatar), ch.toughness(table.state, avatar)) == (21, 21)
