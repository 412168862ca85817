"""Real cards the rules tests of the schema-5 mechanics play with, each as its definition with its
Oracle text as it stands, and ``use``, which adds them to the card pool for one test."""

from __future__ import annotations

import pytest

from mtg_ledger.core.cards import CARDS, TOKENS
from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.effects import (
    ActivatedAbility,
    AddCounters,
    Attach,
    CreateToken,
    DealDamage,
    ExileTarget,
    CounterTargetSpell,
    Destroy,
    DrawCards,
    EachPlayerDraws,
    GainLife,
    ReturnToOwnersHand,
    TargetPlayerDraws,
    TargetPlayerMills,
    TriggeredAbility,
)
from mtg_ledger.core.statics import AttachedGets, CreaturesYouControlGet


def creature(name: str, cost: str, subtypes: tuple[str, ...], pt: tuple[int, int], oracle: str, *keywords: str, **more: object) -> CardDef:
    return CardDef(
        name=name, cost=cost, types=("Creature",), subtypes=subtypes, power=pt[0], toughness=pt[1], oracle=oracle,
        keywords=frozenset(keywords), **more,  # type: ignore[arg-type]
    )


TYPHOID_RATS = creature("Typhoid Rats", "{B}", ("Rat",), (1, 1), "Deathtouch", "deathtouch")
WALL_OF_WOOD = creature("Wall of Wood", "{G}", ("Wall",), (0, 3), "Defender", "defender")
AMBUSH_VIPER = creature("Ambush Viper", "{1}{G}", ("Snake",), (2, 1), "Flash\nDeathtouch", "flash", "deathtouch")
GLADECOVER_SCOUT = creature(
    "Gladecover Scout", "{G}", ("Elf", "Scout"), (1, 1),
    "Hexproof (This creature can't be the target of spells or abilities your opponents control.)", "hexproof",
)
DARKSTEEL_MYR = CardDef(
    name="Darksteel Myr", cost="{3}", types=("Artifact", "Creature"), subtypes=("Myr",), power=0, toughness=1,
    oracle="Indestructible", keywords=frozenset({"indestructible"}),
)
VAMPIRE_NIGHTHAWK = creature(
    "Vampire Nighthawk", "{1}{B}{B}", ("Vampire", "Shaman"), (2, 3), "Flying\nDeathtouch\nLifelink", "flying", "deathtouch", "lifelink"
)
BOGGART_BRUTE = creature("Boggart Brute", "{2}{R}", ("Goblin", "Warrior"), (3, 2), "Menace", "menace")
WATERFALL_AERIALIST = creature(
    "Waterfall Aerialist", "{3}{U}", ("Djinn", "Wizard"), (3, 1),
    "Flying\nWard {2} (Whenever this creature becomes the target of a spell or ability an opponent controls, "
    "counter it unless that player pays {2}.)",
    "flying", "ward", ward="{2}",
)
MONASTERY_SWIFTSPEAR = creature(
    "Monastery Swiftspear", "{R}", ("Human", "Monk"), (1, 2),
    "Haste\nProwess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.)", "haste", "prowess",
)
ISAMARU = CardDef(
    name="Isamaru, Hound of Konda", cost="{W}", types=("Creature",), supertypes=("Legendary",), subtypes=("Dog",),
    power=2, toughness=2, oracle="",
)
INSTILL_INFECTION = CardDef(
    name="Instill Infection", cost="{3}{B}", types=("Instant",), oracle="Put a -1/-1 counter on target creature.\nDraw a card.",
    target="creature", effects=(AddCounters("-1/-1"), DrawCards(1)),
)
JACE_BELEREN = CardDef(
    name="Jace Beleren", cost="{1}{U}{U}", types=("Planeswalker",), subtypes=("Jace",), supertypes=("Legendary",),
    oracle="+2: Each player draws a card.\n\u22121: Target player draws a card.\n\u221210: Target player mills twenty cards.",
    loyalty=3,
    activated=(
        ActivatedAbility("", (EachPlayerDraws(1),), loyalty=2, text="+2: Each player draws a card."),
        ActivatedAbility("", (TargetPlayerDraws(1),), loyalty=-1, target="player", text="\u22121: Target player draws a card."),
        ActivatedAbility("", (TargetPlayerMills(20),), loyalty=-10, target="player", text="\u221210: Target player mills twenty cards."),
    ),
)
INVASION_OF_DOMINARIA = CardDef(
    name="Invasion of Dominaria", cost="{2}{W}", types=("Battle",), subtypes=("Siege",),
    oracle=(
        "(As a Siege enters, choose an opponent to protect it. You and others can attack it. "
        "When it's defeated, exile it, then cast it transformed.)\nWhen this Siege enters, you gain 4 life and draw a card."
    ),
    defense=5,
    triggers=(TriggeredAbility("enters", (GainLife(4), DrawCards(1))),),
)
HOLY_STRENGTH = CardDef(
    name="Holy Strength", cost="{W}", types=("Enchantment",), subtypes=("Aura",),
    oracle="Enchant creature\nEnchanted creature gets +1/+2.", enchant="creature", statics=(AttachedGets(1, 2),),
)
BONESPLITTER = CardDef(
    name="Bonesplitter", cost="{1}", types=("Artifact",), subtypes=("Equipment",),
    oracle="Equipped creature gets +2/+0.\nEquip {1}", statics=(AttachedGets(2, 0),),
    activated=(ActivatedAbility("{1}", (Attach(),), timing="sorcery", target="creature_you_control", text="Equip {1}"),),
)
GLORIOUS_ANTHEM = CardDef(
    name="Glorious Anthem", cost="{1}{W}{W}", types=("Enchantment",), oracle="Creatures you control get +1/+1.",
    statics=(CreaturesYouControlGet(1, 1),),
)
MURDER = CardDef(name="Murder", cost="{1}{B}{B}", types=("Instant",), oracle="Destroy target creature.", target="creature", effects=(Destroy(),))
UNSUMMON = CardDef(
    name="Unsummon", cost="{U}", types=("Instant",), oracle="Return target creature to its owner's hand.", target="creature",
    effects=(ReturnToOwnersHand(),),
)
COUNTERSPELL = CardDef(
    name="Counterspell", cost="{U}{U}", types=("Instant",), oracle="Counter target spell.", target="spell", effects=(CounterTargetSpell(),)
)

DOOMED_TRAVELER = creature(
    "Doomed Traveler", "{W}", ("Human", "Soldier"), (1, 1), "When Doomed Traveler dies, create a 1/1 white Spirit creature token with flying.",
    triggers=(TriggeredAbility("dies", (CreateToken("Spirit"),)),),
)
SPIRIT = CardDef(
    name="Spirit", types=("Creature",), subtypes=("Spirit",), power=1, toughness=1, colors=("W",), oracle="Flying", keywords=frozenset({"flying"})
)
MOGG_FANATIC = creature(
    "Mogg Fanatic", "{R}", ("Goblin",), (1, 1), "Sacrifice Mogg Fanatic: It deals 1 damage to any target.",
    activated=(ActivatedAbility("", (DealDamage(1),), sacrifice=True, target="any", text="Sacrifice Mogg Fanatic: It deals 1 damage to any target."),),
)

SWORDS_TO_PLOWSHARES = CardDef(
    name="Swords to Plowshares", cost="{W}", types=("Instant",),
    oracle="Exile target creature. Its controller gains life equal to its power.", target="creature",
    effects=(ExileTarget(controller_gains_its_power=True),),
)

MECHANICS = (
    TYPHOID_RATS, WALL_OF_WOOD, AMBUSH_VIPER, GLADECOVER_SCOUT, DARKSTEEL_MYR, VAMPIRE_NIGHTHAWK, BOGGART_BRUTE,
    MONASTERY_SWIFTSPEAR, ISAMARU, INSTILL_INFECTION, JACE_BELEREN, INVASION_OF_DOMINARIA, HOLY_STRENGTH, BONESPLITTER,
    GLORIOUS_ANTHEM, WATERFALL_AERIALIST, MURDER, UNSUMMON, COUNTERSPELL, DOOMED_TRAVELER, MOGG_FANATIC,
    SWORDS_TO_PLOWSHARES,
)
MECHANICS_TOKENS = (SPIRIT,)


@pytest.fixture
def cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cards above, in the pool for the test."""
    for definition in MECHANICS:
        monkeypatch.setitem(CARDS, definition.name, definition)
    for token in MECHANICS_TOKENS:
        monkeypatch.setitem(TOKENS, token.name, token)

