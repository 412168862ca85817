"""The permanent fields schema 5 added are sparse: the canonical form of the state (its hash, snapshots)
leaves each out while it holds the value every older game had, so older games keep their state hashes."""

from __future__ import annotations

from mtg_ledger.core.state import GameState, Permanent
from mtg_ledger.core.state_hash import reference_state_hash


def test_a_permanent_whose_schema_5_fields_hold_their_defaults_has_the_canonical_form_it_had_before():
    state = GameState(battlefield=[Permanent(object=1, card="Grizzly Bears", owner="alice", controller="alice")])
    plain = state.to_dict()["battlefield"][0]
    assert not set(Permanent.SPARSE) & set(plain)
    assert state.state_hash() == reference_state_hash(state)
    assert GameState.from_dict(state.to_dict()).state_hash() == state.state_hash()


def test_a_schema_5_field_that_is_set_is_part_of_the_canonical_form_and_the_hash():
    state = GameState(battlefield=[Permanent(object=1, card="Bonesplitter", owner="alice", controller="alice")])
    before = state.state_hash()
    state.battlefield[0].attached_to = 2
    assert state.to_dict()["battlefield"][0]["attached_to"] == 2
    assert state.state_hash() == reference_state_hash(state) != before
    assert GameState.from_dict(state.to_dict()).battlefield[0].attached_to == 2
