"""608.2c: every effect primitive a card may be written in (core.effects.Effect) is carried out by one
entry of the effect table: no card's instruction reaches a resolution that does not know it."""

from __future__ import annotations

from typing import get_args

from mtg_ledger.core import effects as fx
from mtg_ledger.core.effect_table import EFFECTS


def test_608_2c_every_effect_primitive_has_one_entry_of_the_effect_table() -> None:
    assert set(EFFECTS) == set(get_args(fx.Effect))
