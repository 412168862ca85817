"""Property: random legal play with the cards that make a player discard (Mind Rot, Ravenous Rats, Dimir
Cutpurse), discard or pay life for a cost (Zombie Infestation, Burning-Fist Minotaur, Greed, Unspeakable
Symbol), and trigger on casting or on combat damage (Beast Whisperer, Enchantress's Presence, Satyr
Enchanter, Stealer of Secrets) never crashes, never offers an illegal action, rebuilds from its events to
the same state, replays from its recorded decisions to the same events, and never shows a player a card
they may not know (400.2, 402.3): each player's cards have names the other's do not, so a hand leaking
through a discard, a pause for a choice or a paid cost would show."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import ActivateAbility, Concede, PassPriority
from mtg_ledger.core.legal import legal_actions
from mtg_ledger.core.table import LocalTable
from mtg_ledger.replays.audit.replay import replay
from tests.conftest import examples
from tests.redaction import check_every_view
from tests.rules.mechanics_cards import with_cards

CARDS = {
    "alice": ["Swamp", "Island"] * 7
    + ["Mind Rot", "Ravenous Rats", "Dimir Cutpurse", "Stealer of Secrets", "Greed", "Zombie Infestation", "Unspeakable Symbol", "Megrim"] * 2,
    "bob": ["Forest", "Mountain", "Plains"] * 5
    + ["Beast Whisperer", "Enchantress's Presence", "Satyr Enchanter", "Burning-Fist Minotaur", "Pacifism", "Grizzly Bears"] * 2,
}
NAMES = frozenset(name for cards in CARDS.values() for name in cards) | {"Zombie"}


def play(seed: int, decisions: int) -> LocalTable:
    setup = {
        "seed": seed,
        "shuffle": True,
        "starting_player": "alice",
        "players": [{"name": name, "library": list(cards)} for name, cards in CARDS.items()],
    }
    table = LocalTable.start(with_cards(setup))
    choices = random.Random(seed)
    for _ in range(decisions):
        if table.state.ended:
            break
        legal = [c for c in legal_actions(table.state) if not isinstance(c, Concede)]
        assert legal, "a pending decision always has at least one legal answer"
        lands = {p.object for p in table.state.battlefield if ch.face(table.state, p).is_type("Land")}
        acting = [c for c in legal if not isinstance(c, PassPriority) and not (isinstance(c, ActivateAbility) and c.source in lands)]
        table.handle(choices.choice(acting) if acting and choices.random() < 0.7 else choices.choice(legal))
    return table


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_with_discards_and_costs_replays_and_shows_no_player_a_card_they_may_not_know(seed: int) -> None:
    table = play(seed, 400)
    state = check_every_view(table.events, NAMES)
    assert state.state_hash() == table.state.state_hash()
    result = replay(table.events)
    assert result.ok, [f.message for f in result.findings][:3]
