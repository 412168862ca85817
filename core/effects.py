"""Effect primitives and abilities: the vocabulary card definitions are written in.

Each primitive names the rule it implements; core.resolve carries them out.
"""

from __future__ import annotations

from mtg_ledger.core.when_used import frozen_dataclass


@frozen_dataclass
class DealDamage:
    """"deals N damage to <target>" or, for a trigger, "to that player" (120.3)."""

    amount: int
    to: str = "target"  # target | that_player | each_opponent


@frozen_dataclass
class PumpUntilEndOfTurn:
    """"<target> gets +P/+T [and gains <keywords>] until end of turn" (611.2; layers 6 and 7c; ends in cleanup, 514.2)."""

    power: int
    toughness: int
    keywords: tuple[str, ...] = ()


@frozen_dataclass
class PumpYoursUntilEndOfTurn:
    """"<Subtype>s you control get +P/+T [and gain <keywords>] until end of turn", or, without a subtype,
    "Creatures you control ...": the ones there as it resolves (611.2c; layers 6 and 7c, 613.1f, 613.4c)."""

    power: int
    toughness: int
    subtype: str | None = None
    keywords: tuple[str, ...] = ()


@frozen_dataclass
class DrawCards:
    """"Draw N cards" (121.2)."""

    count: int


@frozen_dataclass
class LoseLife:
    """"you lose N life" / "each opponent loses N life" (119.3)."""

    amount: int
    who: str = "you"  # you | each_opponent | target (the target players)


@frozen_dataclass
class GainLife:
    """"you gain N life" (119.3)."""

    amount: int


@frozen_dataclass
class AddCounters:
    """"put N <kind> counters on <target>" (122.1)."""

    kind: str
    count: int = 1


@frozen_dataclass
class CreateToken:
    """"create a <token>" (111.1); the token's definition is among the game's (``GameState.cards``)."""

    token: str


@frozen_dataclass
class DiscardCards:
    """"discard N cards": the player chooses on resolution (608.2d, 701.9b)."""

    count: int


@frozen_dataclass
class UntapSelf:
    """"Untap <this permanent>" (701.21)."""


@frozen_dataclass
class UntapAttackers:
    """"Untap all creatures that attacked this turn."""


@frozen_dataclass
class AdditionalCombatAndMain:
    """"After this main phase, there is an additional combat phase followed by an additional main phase." (500.8)"""


@frozen_dataclass
class SkipNextCombat:
    """"Target player skips their next combat phase this turn." (500.10)"""


@frozen_dataclass
class NoMaximumHandSizeUntilYourNextTurn:
    """"You have no maximum hand size until your next turn." (402.2, 611.2a)"""


@frozen_dataclass
class DestroyNonland:
    """"destroy all nonland permanents target opponent controls" (701.8)."""


@frozen_dataclass
class PumpSelfUntilEndOfTurn:
    """"<this creature> gets +P/+T [and gains <keywords>] until end of turn" (611.2; prowess, 702.108a)."""

    power: int
    toughness: int
    keywords: tuple[str, ...] = ()


@frozen_dataclass
class EachPlayerDraws:
    """"Each player draws N cards" (121.2), in APNAP order (101.4)."""

    count: int


@frozen_dataclass
class TargetPlayerDraws:
    """"Target player draws N cards" (121.2)."""

    count: int


@frozen_dataclass
class TargetPlayerMills:
    """"Target player mills N cards": the top N cards of their library go to their graveyard (701.17)."""

    count: int


@frozen_dataclass
class Attach:
    """"Attach <this permanent> to target creature you control" (Equip, 702.6a; 701.3)."""


@frozen_dataclass
class Destroy:
    """"Destroy target <permanent>" (701.8; not an indestructible one, 702.12b); ``controller_draws``:
    "Its controller draws N cards." (121.2; 608.2h: its controller as it last existed on the battlefield,
    whether or not it was destroyed)."""

    controller_draws: int = 0


@frozen_dataclass
class CounterUnlessPays:
    """"counter it unless that player pays <cost>" (ward, 702.21a): the spell or ability that made the
    trigger, unless its controller pays. The engine pays for them when they can (the choice not to pay
    is not yet asked)."""

    cost: str


@frozen_dataclass
class ReturnToOwnersHand:
    """"Return target <permanent> to its owner's hand" (400.7)."""


@frozen_dataclass
class CounterTargetSpell:
    """"Counter target spell" (701.6a): the spell leaves the stack for its owner's graveyard."""


@frozen_dataclass
class ExileTarget:
    """"Exile target <permanent>" (406.2); ``controller_gains_its_power``: "Its controller gains life equal
    to its power." (608.2h: its power as it last existed on the battlefield)."""

    controller_gains_its_power: bool = False


@frozen_dataclass
class TapTarget:
    """"Tap target <permanent>" (701.26a)."""


@frozen_dataclass
class CreateTokens(CreateToken):
    """"Create X <token>s, where X is your life total" (``per`` "life_total") or "Create a <token> for each
    land you control" (``per`` "land_you_control"): 111.1, the number counted as the ability resolves (608.2h)."""

    per: str


@frozen_dataclass
class DrawCardsEqualToGreatestPower:
    """"Draw cards equal to the greatest power among creatures you control." (121.2; 608.2h: counted as it
    resolves; none without a creature, and none for a negative power, 107.1b)."""


@frozen_dataclass
class Fight:
    """"<first target> fights <second target>": each deals damage equal to its power to the other (701.14a);
    if either is no longer on the battlefield or is an illegal target, no damage is dealt (701.14b)."""


@frozen_dataclass
class RevealTopLandToHand:
    """"<who> reveals the top card of their library. If it's a land card, that player puts it into their
    hand." (701.20a); ``who``: ``defending_player``, for an attacking creature's trigger the player it
    attacks, the planeswalker's controller or the battle's protector (508.5), as it triggered."""

    who: str = "defending_player"


@frozen_dataclass
class UntapTarget:
    """"Untap <targets>" (701.26b): "Untap two target lands"."""


@frozen_dataclass
class AddCountersEachYours:
    """"Put N <kind> counters on each creature you control. Those creatures gain <keywords> until end of
    turn." (122.1): the creatures there as it resolves (611.2c); the keywords in layer 6 (613.1f)."""

    kind: str
    count: int = 1
    keywords: tuple[str, ...] = ()


@frozen_dataclass
class ExileThenMayCastTransformed:
    """A Siege's intrinsic ability (310.11b): "exile it, then you may cast it transformed without paying its
    mana cost": its source is exiled (406.2); if it was, its controller chooses whether to cast it, back face
    up (712.11a), from exile, without paying its mana cost (118.9). No card writes it: ``CardDef`` brings it."""


@frozen_dataclass
class PlayerDiscards:
    """"Target player discards N cards" (``who`` "target") or, for a trigger, "that player discards N
    cards" (``who`` "that_player"): the discarding player chooses which (701.9b), on resolution (608.2d)."""

    count: int
    who: str = "target"  # target | that_player


Effect = (
    DealDamage
    | PumpUntilEndOfTurn
    | PumpYoursUntilEndOfTurn
    | DrawCards
    | LoseLife
    | GainLife
    | AddCounters
    | CreateToken
    | DiscardCards
    | UntapSelf
    | UntapAttackers
    | AdditionalCombatAndMain
    | SkipNextCombat
    | NoMaximumHandSizeUntilYourNextTurn
    | DestroyNonland
    | PumpSelfUntilEndOfTurn
    | EachPlayerDraws
    | TargetPlayerDraws
    | TargetPlayerMills
    | Attach
    | Destroy
    | CounterUnlessPays
    | ReturnToOwnersHand
    | CounterTargetSpell
    | ExileTarget
    | TapTarget
    | CreateTokens
    | DrawCardsEqualToGreatestPower
    | Fight
    | RevealTopLandToHand
    | UntapTarget
    | AddCountersEachYours
    | ExileThenMayCastTransformed
    | PlayerDiscards
)


@frozen_dataclass
class ManaAbility:
    """"{T}: Add {C}." A mana ability (605.1a): no stack, no target."""

    produces: str  # one of W U B R G C

    @property
    def colors(self) -> tuple[str, ...]:
        """The mana it may add: its one kind."""
        return (self.produces,)


@frozen_dataclass
class ManaChoiceAbility:
    """"{T}: Add {G} or {W}.": a mana ability that adds one mana of a colour chosen among ``choices``.

    605.1a, 106.1: its controller chooses the colour as they activate it (the ``mana`` of ``activate``); paying
    a cost for them, the engine has it add the first colours that pay. No stack, no target."""

    choices: tuple[str, ...]  # each one of W U B R G C, in the order the text names them

    @property
    def colors(self) -> tuple[str, ...]:
        return self.choices


@frozen_dataclass
class ActivatedAbility:
    """"<cost>: <effect>" (602), on the stack; ``timing`` restricts when it may be activated."""

    cost: str
    effects: tuple[Effect, ...]
    timing: str | None = None  # "your_upkeep": "Activate only during your upkeep." (602.5b); "sorcery": "Activate only as a sorcery." (602.5d)
    text: str = ""
    loyalty: int | None = None  # a loyalty ability's cost: +N or -N loyalty counters (606.4); activated as a sorcery, once a turn (606.3)
    target: str | None = None  # what it targets: "player", "creature", "creature_you_control", "any" (115.1)
    targets: tuple[str, ...] = ()  # several targets (601.2c), one spec each: "Untap two target lands" is ("land", "land")
    sacrifice: bool = False  # "Sacrifice <this permanent>" as part of the cost (602.2b, 701.21)
    tap: bool = False  # "{T}" in the cost: tapping this permanent is part of it (107.5, 602.2b; 302.6 for a creature)
    up_to_one: bool = False  # "up to one target" (601.2c, 115.1): choosing no target is legal too
    life: int = 0  # "Pay N life" in the cost (118.3, 119.4): only with at least N life; its controller loses N life
    discard: int = 0  # "Discard N cards" in the cost (602.2b, 118.3): its controller chooses them as the cost is paid (601.2h)


@frozen_dataclass
class TriggeredAbility:
    """"When/Whenever/At <event>, <effect>" (603).

    ``event``: ``beginning_of`` (a step or phase, ``step``; ``whose`` "your" or "each"),
    ``you_cast_noncreature`` (its controller casts a noncreature spell: prowess, 702.108a),
    ``you_cast_creature``, ``you_cast_enchantment`` (its controller casts a creature or an enchantment spell, 601.2i),
    ``enters`` (this permanent enters the battlefield, 603.6a),
    ``dies`` (this creature is put into a graveyard from the battlefield, 700.4),
    ``attacks``, ``blocks``, ``becomes_blocked`` (this creature, as attackers or blockers are declared: 508.1m, 509.1i),
    ``becomes_target`` (this permanent becomes the target of a spell or ability an opponent controls: ward, 702.21a),
    ``phased_out``, ``phased_in`` (this permanent, 702.26), ``opponent_discards`` (each card an
    opponent discards), ``set_in_motion`` (this scheme, 701.24), ``chapter`` (lore counters reach
    ``chapter``, 714.2), ``opponent_draws`` (each card an opponent draws, 121.2; "that player" is
    the one who drew), ``defeated`` (the last defense counter is removed from this Siege: 310.11b, never
    written in a card's data), ``deals_combat_damage_to_player`` (this creature, as combat damage is dealt,
    510.2; "that player" is the player dealt damage).
    """

    event: str
    effects: tuple[Effect, ...]
    step: str | None = None
    whose: str = "your"
    chapter: int = 0
    target: str | None = None  # creature_you_control | opponent | player
    text: str = ""


def ability_targets(ability: ActivatedAbility) -> tuple[str, ...]:
    """601.2c, 602.2b: the spec of each target an activated ability has, in order."""
    if ability.targets:
        return ability.targets
    return () if ability.target is None else (ability.target,)
