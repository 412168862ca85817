"""What a spell or an ability of the pool does and pays, seen in the events the game records: the event
types each kind of effect records as it resolves (``EFFECT_EVENTS``, 608.2c), what an effect kind needs on
the starting board (``EFFECT_BOARD``) and is best aimed at (``EFFECT_AIM``), and what each kind of
activation cost records as it is paid (``COSTS``, 602.2b, 602.2h)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mtg_ledger.core import effects as fx
from mtg_ledger.core.vocabulary import EFFECT_KINDS
from tests.rules.pool_exerciser import BASICS, YOU, Board, Game, play_until

if TYPE_CHECKING:
    from tests.rules.pool_firing import Ability

# The vocabulary's effect kinds, and the one a rule gives (a Siege's, 310.11b; never written in a card's data).
EFFECT_NAMES = {**{cls: name for name, cls in EFFECT_KINDS.items()}, fx.ExileThenMayCastTransformed: "exile_then_may_cast_transformed"}
# What each kind of effect records as its spell or ability resolves (608.2c): one of these event types.
EFFECT_EVENTS: dict[str, tuple[str, ...]] = {
    "deal_damage": ("DamageDealt",),
    "pump_until_end_of_turn": ("EffectCreated",),
    "pump_yours_until_end_of_turn": ("EffectCreated",),
    "draw_cards": ("CardDrawn",),
    "lose_life": ("LifeLost",),
    "gain_life": ("LifeGained",),
    "add_counters": ("CountersAdded",),
    "create_token": ("TokenCreated",),
    "discard_cards": ("CardsDiscarded",),
    "untap_self": ("PermanentsUntappedByEffect",),
    "untap_attackers": ("PermanentsUntappedByEffect",),
    "additional_combat_and_main": ("ExtraPhaseAdded",),
    "skip_next_combat": ("EffectCreated",),
    "no_maximum_hand_size_until_your_next_turn": ("EffectCreated",),
    "destroy_nonland": ("PermanentsPutIntoGraveyard",),
    "pump_self_until_end_of_turn": ("EffectCreated",),
    "each_player_draws": ("CardDrawn",),
    "target_player_draws": ("CardDrawn",),
    "target_player_mills": ("CardsMilled",),
    "attach": ("Attached",),
    "destroy": ("PermanentsPutIntoGraveyard",),
    "counter_unless_pays": ("ObjectCountered", "ManaSpent"),  # 702.21a: countered, or paid for
    "return_to_owners_hand": ("PermanentsReturnedToHand",),
    "counter_target_spell": ("ObjectCountered",),
    "exile": ("PermanentsExiled",),
    "tap": ("PermanentsTapped",),
    "create_tokens": ("TokenCreated",),
    "draw_cards_equal_to_greatest_power": ("CardDrawn",),
    "fight": ("DamageDealt",),
    "reveal_top_land_to_hand": ("TopCardRevealed",),
    "untap": ("PermanentsUntappedByEffect",),
    "add_counters_each_yours": ("CountersAdded",),
    "player_discards": ("CardsDiscarded",),
    "exile_then_may_cast_transformed": ("SpellCastTransformed",),  # the card exiled, then cast (the driver casts it)
}
# What an effect records besides, when one of its optional fields is given: (kind, field) -> event type.
EFFECT_FIELD_EVENTS: dict[tuple[str, str], str] = {
    ("destroy", "controller_draws"): "CardDrawn",  # "Its controller draws two cards." (121.2)
}


def effects_of(ability: Ability) -> tuple[Any, ...]:
    return tuple(ability.spec) if ability.kind == "spell" else tuple(getattr(ability.spec, "effects", ()))


def hand_to_discard(board: Board, ability: Ability) -> None:
    """A discard needs cards in hand (701.9)."""
    board.you["hand"].extend(["Plains", "Island"])


def their_hand_to_discard(board: Board, ability: Ability) -> None:
    """A player made to discard (the opponent, 701.9b) needs cards in hand."""
    board.opponent["hand"].extend(["Plains", "Island"])


def life_to_count(board: Board, ability: Ability) -> None:
    """"X tokens, where X is your life total" (608.2h): a life total of ten, for ten tokens, not a hundred."""
    if any(getattr(e, "per", None) == "life_total" for e in effects_of(ability)):
        board.you["life"] = 10


# What an effect kind needs on the starting board to do something.
EFFECT_BOARD: dict[str, Callable[[Board, Ability], None]] = {
    "discard_cards": hand_to_discard,
    "player_discards": their_hand_to_discard,
    "create_tokens": life_to_count,
}


def _tapped(game: Game, target: Any) -> bool:
    perm = game.state.permanent(target) if isinstance(target, int) else None
    return perm is not None and perm.tapped


# What an effect kind is best aimed at, when it does nothing to some of the targets it may have: a
# predicate every target of the chosen command meets (where one does).
EFFECT_AIM: dict[str, Callable[[Game, Any], bool]] = {"untap": _tapped}  # 701.26b: untapping a tapped permanent


def aimed(game: Game, commands: list[Any], effects: tuple[Any, ...]) -> list[Any]:
    """The commands whose targets each effect is best aimed at, or all of them if none is."""
    for kind in dict.fromkeys(EFFECT_NAMES.get(type(e), "") for e in effects):
        if kind in EFFECT_AIM:
            fits = [c for c in commands if c.targets and all(EFFECT_AIM[kind](game, t) for t in c.targets)]
            commands = fits or commands
    return commands


def prepare_effects(board: Board, ability: Ability) -> None:
    for kind in dict.fromkeys(EFFECT_NAMES.get(type(e), "") for e in effects_of(ability)):
        if kind in EFFECT_BOARD:
            EFFECT_BOARD[kind](board, ability)


def resolution(game: Game, obj: int) -> list[dict[str, Any]]:
    """The events of the stack object's resolution: those after the last pass before its ObjectResolved."""
    at = next(i for i, e in enumerate(game.events) if e["type"] == "ObjectResolved" and e["object"] == obj)
    begun = max(i for i in range(at) if game.events[i]["type"] == "PriorityPassed")
    return game.events[begun + 1 : at + 1]


def did_each_effect(game: Game, obj: int, effects: tuple[Any, ...], label: str) -> None:
    """608.2c: each of the resolved object's effects recorded what it did."""
    recorded = {e["type"] for e in resolution(game, obj)}
    for effect in effects:
        kind = EFFECT_NAMES.get(type(effect), type(effect).__name__)
        if kind not in EFFECT_EVENTS:
            raise AssertionError(f"{game.card}: the pool exerciser does not know what effect kind {kind!r} records; add it to EFFECT_EVENTS")
        assert recorded & set(EFFECT_EVENTS[kind]), f"{label}: its effect {kind} recorded none of {EFFECT_EVENTS[kind]} as it resolved"
        for (of, name), also in EFFECT_FIELD_EVENTS.items():
            if of == kind and getattr(effect, name, None):
                assert also in recorded, f"{label}: its effect {kind} with {name} recorded no {also} as it resolved"



# --- activation costs ------------------------------------------------------------------------------


def _varied_hand(board: Board, ability: Ability) -> None:
    """One card more than the cost discards, each different: a real choice, which the activation waits for."""
    board.you["hand"].extend(BASICS[: ability.spec.discard + 1])


def _life_paid(game: Game, ability: Ability, paying: list[dict[str, Any]]) -> str | None:
    """119.4: its controller loses the life the cost says."""
    lost = [e["amount"] for e in paying if e["type"] == "LifeLost" and e["player"] == YOU and e["source"] == game.subject]
    return None if lost == [ability.spec.life] else f"paying {ability.spec.life} life lost {lost}"


def _cards_discarded(game: Game, ability: Ability, paying: list[dict[str, Any]]) -> str | None:
    """601.2h: the activation waits for its controller's choice, and the cards chosen are discarded."""
    paused = [e for e in paying if e["type"] == "ActivationPaused" and e["choice"] == "discard"]
    discarded = [e["cards"] for e in paying if e["type"] == "CardsDiscarded" and e["rule"] == "601.2h"]
    if not paused or [len(c) for c in discarded] != [ability.spec.discard]:
        return f"discarding {ability.spec.discard} waited {len(paused)} times and discarded {discarded}"
    return None


def _loyalty_paid(game: Game, ability: Ability, paying: list[dict[str, Any]]) -> str | None:
    """606.4: loyalty counters put on or removed from it, as many as the cost says."""
    changes = [e["change"] for e in paying if e["type"] == "LoyaltyCostPaid" and e["object"] == game.subject]
    return None if changes == [ability.spec.loyalty] else f"{ability.spec.loyalty:+} loyalty changed it by {changes}"


def _tapped_source(game: Game, ability: Ability, paying: list[dict[str, Any]]) -> str | None:
    """107.5: {T} taps it."""
    tapped = [e["permanents"] for e in paying if e["type"] == "PermanentsTapped" and e["rule"] == "107.5"]
    return None if tapped == [[game.subject]] else f"{{T}} tapped {tapped}"


def _sacrificed(game: Game, ability: Ability, paying: list[dict[str, Any]]) -> str | None:
    """701.21: sacrificing it puts it into its owner's graveyard."""
    gone = [p["object"] for e in paying if e["type"] == "PermanentsPutIntoGraveyard" and e["rule"] == "701.21" for p in e["permanents"]]
    return None if gone == [game.subject] else f"sacrificing it put {gone} into a graveyard"


# An activation cost besides mana (the field of the vocabulary's ability that names it): what it needs on
# the starting board, and a check of what its payment recorded (None, or what went wrong).
COSTS: dict[str, tuple[Callable[[Board, Ability], None] | None, Callable[[Game, Ability, list[dict[str, Any]]], str | None]]] = {
    "loyalty": (None, _loyalty_paid),
    "tap": (None, _tapped_source),
    "life": (None, _life_paid),
    "sacrifice": (None, _sacrificed),
    "discard": (_varied_hand, _cards_discarded),
}


def prepare_costs(board: Board, ability: Ability) -> None:
    for name, (needs, _) in COSTS.items():
        if needs is not None and getattr(ability.spec, name, 0):
            needs(board, ability)


def paid_each_cost(game: Game, obj: int, ability: Ability) -> None:
    """602.2b, 602.2h: the ability ``obj`` just activated; each of its costs recorded its payment, in the
    events from its AbilityActivated until a player next receives priority."""
    at = next(i for i, e in enumerate(game.events) if e["type"] == "AbilityActivated" and e["object"] == obj)
    given = lambda: next((i for i in range(at + 1, len(game.events)) if game.events[i]["type"] == "PriorityGiven"), None)  # noqa: E731
    play_until(game, lambda: given() is not None, f"{ability.label}'s costs being paid")  # a choice its payment waits for answered
    paying = game.events[at : given()]
    for name, (_, paid) in COSTS.items():
        if getattr(ability.spec, name, None):
            wrong = paid(game, ability, paying)
            assert wrong is None, f"{ability.label}: its cost: {wrong}"
