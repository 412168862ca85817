"""Every card of the pool is played in a real game, and each of its abilities fires at least once.

For each card (and each token, made by the first card of the pool that creates it) a game starts on a
board built for it (``tests.rules.pool_games``): the card in your hand, or your scheme deck, is played;
then each of its abilities is driven by its kind's entry of ``tests.rules.pool_drivers.DRIVERS`` until
the recorded events (or the state) show that it fired, each effect recording its part. Every game's
log replays clean (``replays.audit.replay``).
"""

from __future__ import annotations

import pytest

from mtg_ledger.core.vocabulary import ABILITY_KINDS, EFFECT_KINDS, KEYWORDS, TRIGGER_EVENTS, kind_fields
from mtg_ledger.replays.audit.replay import replay
from mtg_ledger.replays.cards import live_pool
from tests.rules.pool_drivers import DRIVERS, order_of
from tests.rules.pool_exerciser import definition
from tests.rules.pool_effects import COSTS, EFFECT_EVENTS
from tests.rules.pool_firing import NOT_STATIC, Ability
from tests.rules.pool_games import exercise


@pytest.mark.parametrize("name", sorted(live_pool().definitions))
def test_every_card_of_the_pool_is_played_and_each_of_its_abilities_fires(name: str) -> None:
    game = exercise(name)
    result = replay(game.events)
    assert result.ok, f"{name}: the game's log does not replay: {result.findings[:1]}"


def test_an_ability_kind_without_a_driver_fails_naming_the_kind() -> None:
    fights = Ability("triggered:fights", 0, None, definition("Grizzly Bears"))
    with pytest.raises(AssertionError, match="no driver for ability kind 'triggered:fights'"):
        order_of("Grizzly Bears", fights)


def test_every_kind_of_the_vocabulary_has_a_driver_and_every_effect_kind_its_events() -> None:
    """A kind the engine learns is one entry here too, before a card of the pool uses it; so is each kind of
    activation cost (a field of the activated ability's)."""
    kinds = [
        "spell", "mana", "mana_choice", "activated", "loyalty",
        *(f"triggered:{event}" for event in TRIGGER_EVENTS),
        "triggered:defeated",  # 310.11b: every Siege's, never written in a card's data
        *(f"static:{name}" for name in ABILITY_KINDS if name not in NOT_STATIC),
        *(f"keyword:{keyword}" for keyword in KEYWORDS),
    ]
    assert [k for k in kinds if k not in DRIVERS] == []
    assert [k for k in EFFECT_KINDS if k not in EFFECT_EVENTS] == []
    not_costs = ("cost", "effects", "timing", "text", "target", "targets", "up_to_one")  # its mana cost is paid as a spell's is
    assert [f for f in kind_fields(ABILITY_KINDS["activated"]) if f not in not_costs and f not in COSTS] == []
