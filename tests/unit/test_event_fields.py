"""Each event's fields are declared once, in its ``<Event>Fields`` TypedDict, the type its applier's map is
checked against by mypy: the event class declares none of its own, and has exactly those fields, in the
same order, of the same types; and each applier takes its own event's TypedDict (core/events/base.py)."""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import pytest
from typing_extensions import is_typeddict

from mtg_ledger.core.events import APPLIERS, EVENT_TYPES


@pytest.mark.parametrize("name", list(EVENT_TYPES))
def test_event_fields_typeddict_declares_the_events_fields_in_order_and_type(name: str) -> None:
    cls = EVENT_TYPES[name]
    fields_type = cls.__dict__["fields_type"]  # its own, not one inherited
    assert fields_type.__name__ == f"{name}Fields"
    assert is_typeddict(fields_type)
    event_hints = typing.get_type_hints(cls)
    assert typing.get_type_hints(fields_type) == {f: event_hints[f] for f in cls.field_names}
    assert tuple(fields_type.__annotations__) == cls.field_names
    assert fields_type.__required_keys__ == frozenset(cls.field_names)


def test_no_event_class_declares_a_field_of_its_own_beside_its_typeddict() -> None:
    events = Path(__file__).parents[2] / "core" / "events"
    declared = []
    for path in sorted(events.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name in EVENT_TYPES:
                declared += [f"{path.name}: {node.name}.{ast.unparse(a.target)}" for a in node.body if isinstance(a, ast.AnnAssign)]
    assert len(list(events.glob("*.py"))) > 5
    assert declared == []


@pytest.mark.parametrize("name", list(EVENT_TYPES))
def test_event_applier_takes_its_events_fields_typeddict(name: str) -> None:
    applier = APPLIERS[name]
    _state, fields = inspect.signature(applier).parameters
    assert typing.get_type_hints(applier)[fields] is EVENT_TYPES[name].fields_type
