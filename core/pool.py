"""The card pool: every card the engine knows, as data. Oracle text exactly as printed."""

from __future__ import annotations

from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.effects import (
    ActivatedAbility,
    AddCounters,
    AdditionalCombatAndMain,
    CreateToken,
    DealDamage,
    DestroyNonland,
    DiscardCards,
    DrawCards,
    GainLife,
    LoseLife,
    ManaAbility,
    NoMaximumHandSizeUntilYourNextTurn,
    PumpUntilEndOfTurn,
    PumpYoursUntilEndOfTurn,
    SkipNextCombat,
    TriggeredAbility,
    UntapAttackers,
    UntapSelf,
)

PHASING = (
    "Phasing (This phases in or out before you untap during each of your untap steps. "
    "While it's phased out, it's treated as though it doesn't exist.)"
)
KNIGHT = CreateToken("Knight")


def _basic(name: str, land_type: str, color: str) -> CardDef:
    return CardDef(
        name=name,
        types=("Land",),
        supertypes=("Basic",),
        subtypes=(land_type,),
        oracle=f"({{T}}: Add {{{color}}}.)",
        mana_abilities=(ManaAbility(color),),
    )


FIRST_POOL: tuple[CardDef, ...] = (
    _basic("Plains", "Plains", "W"),
    _basic("Island", "Island", "U"),
    _basic("Swamp", "Swamp", "B"),
    _basic("Mountain", "Mountain", "R"),
    _basic("Forest", "Forest", "G"),
    CardDef(
        name="Grizzly Bears",
        cost="{1}{G}",
        types=("Creature",),
        subtypes=("Bear",),
        power=2,
        toughness=2,
        oracle="",
    ),
    CardDef(
        name="Llanowar Elves",
        cost="{G}",
        types=("Creature",),
        subtypes=("Elf", "Druid"),
        power=1,
        toughness=1,
        oracle="{T}: Add {G}.",
        mana_abilities=(ManaAbility("G"),),
    ),
    CardDef(
        name="Hill Giant",
        cost="{3}{R}",
        types=("Creature",),
        subtypes=("Giant",),
        power=3,
        toughness=3,
        oracle="",
    ),
    CardDef(
        name="Savannah Lions",
        cost="{W}",
        types=("Creature",),
        subtypes=("Cat",),
        power=2,
        toughness=1,
        oracle="",
    ),
    CardDef(
        name="Lightning Bolt",
        cost="{R}",
        types=("Instant",),
        oracle="Lightning Bolt deals 3 damage to any target.",
        target="any",
        effects=(DealDamage(3),),
    ),
    CardDef(
        name="Giant Growth",
        cost="{G}",
        types=("Instant",),
        oracle="Target creature gets +3/+3 until end of turn.",
        target="creature",
        effects=(PumpUntilEndOfTurn(3, 3),),
    ),
    CardDef(
        name="Divination",
        cost="{2}{U}",
        types=("Sorcery",),
        oracle="Draw two cards.",
        effects=(DrawCards(2),),
    ),
    CardDef(
        name="Youthful Knight",
        cost="{1}{W}",
        types=("Creature",),
        subtypes=("Human", "Knight"),
        power=2,
        toughness=1,
        oracle="First strike",
        keywords=frozenset({"first strike"}),
    ),
    CardDef(
        name="Fencing Ace",
        cost="{1}{W}",
        types=("Creature",),
        subtypes=("Human", "Soldier"),
        power=1,
        toughness=1,
        oracle="Double strike",
        keywords=frozenset({"double strike"}),
    ),
    CardDef(
        name="Serra Angel",
        cost="{3}{W}{W}",
        types=("Creature",),
        subtypes=("Angel",),
        power=4,
        toughness=4,
        oracle="Flying, vigilance",
        keywords=frozenset({"flying", "vigilance"}),
    ),
    CardDef(
        name="Giant Spider",
        cost="{3}{G}",
        types=("Creature",),
        subtypes=("Spider",),
        power=2,
        toughness=4,
        oracle="Reach",
        keywords=frozenset({"reach"}),
    ),
    CardDef(
        name="Colossal Dreadmaw",
        cost="{4}{G}{G}",
        types=("Creature",),
        subtypes=("Dinosaur",),
        power=6,
        toughness=6,
        oracle="Trample",
        keywords=frozenset({"trample"}),
    ),
    CardDef(
        name="Ghostly Prison",
        cost="{2}{W}",
        types=("Enchantment",),
        oracle="Creatures can't attack you unless their controller pays {2} for each creature they control that's attacking you.",
        attack_tax=2,
    ),
    CardDef(
        name="Kindled Fury",
        cost="{R}",
        types=("Instant",),
        oracle="Target creature gets +1/+0 and gains first strike until end of turn.",
        target="creature",
        effects=(PumpUntilEndOfTurn(1, 0, ("first strike",)),),
    ),
    CardDef(
        name="Spellbook",
        cost="{0}",
        types=("Artifact",),
        oracle="You have no maximum hand size.",
        no_maximum_hand_size=True,
    ),
)

TURN_POOL: tuple[CardDef, ...] = (
    CardDef(
        name="Phyrexian Arena",
        cost="{1}{B}{B}",
        types=("Enchantment",),
        oracle="At the beginning of your upkeep, you draw a card and you lose 1 life.",
        triggers=(TriggeredAbility("beginning_of", (DrawCards(1), LoseLife(1)), step="upkeep"),),
    ),
    CardDef(
        name="Megrim",
        cost="{2}{B}",
        types=("Enchantment",),
        oracle="Whenever an opponent discards a card, Megrim deals 2 damage to that player.",
        triggers=(TriggeredAbility("opponent_discards", (DealDamage(2, to="that_player"),)),),
    ),
    CardDef(
        name="History of Benalia",
        cost="{1}{W}{W}",
        types=("Enchantment",),
        subtypes=("Saga",),
        oracle=(
            "(As this Saga enters and after your draw step, add a lore counter. Sacrifice after III.)\n"
            "I, II \u2014 Create a 2/2 white Knight creature token with vigilance.\n"
            "III \u2014 Knights you control get +2/+1 until end of turn."
        ),
        triggers=(
            TriggeredAbility("chapter", (KNIGHT,), chapter=1),
            TriggeredAbility("chapter", (KNIGHT,), chapter=2),
            TriggeredAbility("chapter", (PumpYoursUntilEndOfTurn("Knight", 2, 1),), chapter=3),
        ),
    ),
    CardDef(
        name="Breezekeeper",
        cost="{3}{U}",
        types=("Creature",),
        subtypes=("Elemental",),
        power=4,
        toughness=4,
        oracle=f"Flying\n{PHASING}",
        keywords=frozenset({"flying", "phasing"}),
    ),
    CardDef(
        name="Village Watch",
        cost="{4}{R}",
        types=("Creature",),
        subtypes=("Human", "Werewolf"),
        power=4,
        toughness=3,
        oracle="Haste\nDaybound (If a player casts no spells during their own turn, it becomes night next turn.)",
        keywords=frozenset({"haste"}),
        daybound=True,
        back=CardDef(
            name="Village Reavers",
            types=("Creature",),
            subtypes=("Werewolf",),
            power=5,
            toughness=5,
            colors=("R",),
            oracle=(
                "Wolves and Werewolves you control have haste.\n"
                "Nightbound (If a player casts at least two spells during their own turn, it becomes day next turn.)"
            ),
            grants_haste_to=("Wolf", "Werewolf"),
            nightbound=True,
        ),
    ),
    CardDef(
        name="Colossus of Sardia",
        cost="{9}",
        types=("Artifact", "Creature"),
        subtypes=("Golem",),
        power=9,
        toughness=9,
        oracle=(
            "Trample\nColossus of Sardia doesn't untap during your untap step.\n"
            "{9}: Untap Colossus of Sardia. Activate only during your upkeep."
        ),
        keywords=frozenset({"trample"}),
        doesnt_untap=True,
        activated=(ActivatedAbility("{9}", (UntapSelf(),), timing="your_upkeep", text="{9}: Untap Colossus of Sardia."),),
    ),
    CardDef(
        name="Relentless Assault",
        cost="{2}{R}{R}",
        types=("Sorcery",),
        oracle=(
            "Untap all creatures that attacked this turn. After this main phase, "
            "there is an additional combat phase followed by an additional main phase."
        ),
        effects=(UntapAttackers(), AdditionalCombatAndMain()),
    ),
    CardDef(
        name="Moment of Silence",
        cost="{W}",
        types=("Instant",),
        oracle="Target player skips their next combat phase this turn.",
        target="player",
        effects=(SkipNextCombat(),),
    ),
    CardDef(
        name="Your Puny Minds Cannot Fathom",
        types=("Scheme",),
        oracle="When you set this scheme in motion, draw four cards. You have no maximum hand size until your next turn.",
        triggers=(TriggeredAbility("set_in_motion", (DrawCards(4), NoMaximumHandSizeUntilYourNextTurn())),),
    ),
    CardDef(
        name="Behold the Power of Destruction",
        types=("Scheme",),
        oracle="When you set this scheme in motion, destroy all nonland permanents target opponent controls.",
        triggers=(TriggeredAbility("set_in_motion", (DestroyNonland(),), target="opponent"),),
    ),
    CardDef(
        name="Teferi's Imp",
        cost="{2}{U}",
        types=("Creature",),
        subtypes=("Imp",),
        power=1,
        toughness=1,
        oracle=(
            f"Flying\n{PHASING}\n"
            "Whenever Teferi's Imp phases out, discard a card.\nWhenever Teferi's Imp phases in, draw a card."
        ),
        keywords=frozenset({"flying", "phasing"}),
        triggers=(TriggeredAbility("phased_out", (DiscardCards(1),)), TriggeredAbility("phased_in", (DrawCards(1),))),
    ),
    CardDef(
        name="Luminarch Aspirant",
        cost="{1}{W}",
        types=("Creature",),
        subtypes=("Human", "Cleric"),
        power=1,
        toughness=1,
        oracle="At the beginning of combat on your turn, put a +1/+1 counter on target creature you control.",
        triggers=(
            TriggeredAbility("beginning_of", (AddCounters("+1/+1"),), step="beginning_of_combat", target="creature_you_control"),
        ),
    ),
    CardDef(
        name="Dogged Pursuit",
        cost="{3}{B}",
        types=("Enchantment",),
        oracle="At the beginning of your end step, each opponent loses 1 life and you gain 1 life.",
        triggers=(TriggeredAbility("beginning_of", (LoseLife(1, who="each_opponent"), GainLife(1)), step="end"),),
    ),
)

KNIGHT_TOKEN = CardDef(
    name="Knight",
    types=("Creature",),
    subtypes=("Knight",),
    power=2,
    toughness=2,
    colors=("W",),
    oracle="Vigilance",
    keywords=frozenset({"vigilance"}),
)

CARD_POOL: tuple[CardDef, ...] = (*FIRST_POOL, *TURN_POOL)  # every card, in this order (core.cards looks them up)
TOKEN_POOL: tuple[CardDef, ...] = (KNIGHT_TOKEN,)
