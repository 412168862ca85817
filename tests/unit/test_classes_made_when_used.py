"""Event classes and the card vocabulary's kinds are declared as their modules are imported and made frozen
dataclasses when first used (core/when_used.py, core/events/lazy.py): a reader of a stored game makes no
event class and only the kinds its cards are written in; a completed class holds exactly what the
eventsourcing library's metaclass (an event) or ``@dataclass(frozen=True)`` (a kind) makes, by the same
code; and whatever asks for a class's dataclass (an object made, its fields, its repr, its equality)
completes the class first. Each check runs in a fresh interpreter, where no class has been used yet."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> Any:
    """What a fresh interpreter prints as JSON after running ``code``."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def described(cls: type) -> dict[str, Any]:
    """What the dataclass machinery put in ``cls``, comparably across interpreters: each method's code
    (and that of the functions it closes over), the fields, the parameters, the match arguments, the
    signature and the docstring."""
    import dataclasses

    from mtg_ledger.core.events.lazy import MADE

    out: dict[str, Any] = {"__doc__": cls.__doc__, "own": sorted(cls.__dict__)}
    for name in MADE:
        value = cls.__dict__.get(name)
        if name == "__dataclass_fields__":
            out[name] = [[f.name, repr(f.type), plain(f.default), plain(f.default_factory), f.init, f.repr, f.compare, plain(f.hash),
                          plain(f.kw_only), f._field_type.name] for f in value.values()]  # type: ignore[attr-defined]
        else:
            out[name] = plain(value)
    out["fields"] = [f.name for f in dataclasses.fields(cls)]
    return out


def plain(value: Any) -> Any:
    """``value`` without what differs from one interpreter to the next (addresses): a function as its code."""
    import dataclasses
    import types

    if value is dataclasses.MISSING:
        return "MISSING"
    if isinstance(value, types.FunctionType):
        code = value.__code__
        return {"qualname": value.__qualname__, "code": code.co_code.hex(), "consts": repr(code.co_consts), "names": code.co_names,
                "varnames": code.co_varnames, "defaults": repr(value.__defaults__), "kwdefaults": repr(value.__kwdefaults__),
                "annotations": {k: repr(v) for k, v in value.__annotations__.items()},
                "closure": [c.cell_contents.__qualname__ if isinstance(c.cell_contents, type) else plain(c.cell_contents)
                            for c in value.__closure__ or ()]}
    return repr(value)


DESCRIBE_ALL = textwrap.dedent("""
    import json
    from mtg_ledger.core import vocabulary
    from mtg_ledger.core.events import EVENT_TYPES
    from mtg_ledger.core.when_used import complete_all
    from tests.unit.test_classes_made_when_used import described
    complete_all()
    kinds = {**vocabulary.EFFECT_KINDS, **vocabulary.ABILITY_KINDS}
    print(json.dumps({"events": {n: described(c) for n, c in EVENT_TYPES.items()}, "kinds": {n: described(c) for n, c in kinds.items()}}))
""")


def test_a_completed_class_holds_what_the_librarys_metaclass_or_a_frozen_dataclass_makes_of_it() -> None:
    made_at_once = run(textwrap.dedent("""
        # every event class made a dataclass as it is declared, by the library's metaclass alone, and every kind by
        # @dataclass(frozen=True): core.events.lazy loaded (EventType made the library's metaclass, frozen_dataclass
        # the standard library's) before the events package or the vocabulary declares any
        import dataclasses, importlib.util, sys
        from mtg_ledger.core import when_used
        when_used.frozen_dataclass = dataclasses.dataclass(frozen=True)
        spec = importlib.util.spec_from_file_location("mtg_ledger.core.events.lazy", "core/events/lazy.py")
        lazy = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(lazy)
        lazy.EventType.__new__ = lambda mcs, name, bases, namespace: lazy.LibraryEventType.__new__(mcs, name, bases, namespace)
        import mtg_ledger.core.events, mtg_ledger.core.vocabulary
        assert not when_used.pending() and mtg_ledger.core.events.base.EventType is lazy.EventType
    """) + DESCRIBE_ALL)
    completed = run(DESCRIBE_ALL)
    for group, count in (("events", 60), ("kinds", 40)):
        assert len(completed[group]) == len(made_at_once[group]) > count
        for name, made in made_at_once[group].items():
            assert completed[group][name] == made, name


def test_reading_a_stored_game_makes_no_event_class_a_dataclass_and_only_the_kinds_its_cards_are_written_in(tmp_path: Path) -> None:
    from mtg_ledger.replays import cli

    db = str(tmp_path / "d.sqlite")
    assert cli.main(["demo", "--seed", "7", "--quiet", "--json", "--db", db]) == 0
    read = run(textwrap.dedent(f"""
        import contextlib, io, json
        from mtg_ledger.core.events import EVENT_TYPES
        from mtg_ledger.core.when_used import pending
        from mtg_ledger.replays import cli
        events = set(EVENT_TYPES.values())
        declared = len(pending() & events)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            cli.main(["games", "--json", "--db", {db!r}])
            game = json.loads(out.getvalue())["game"]
            codes = [cli.main(["state", game, "--db", {db!r}]), cli.main(["state", game, "--at", "40", "--json", "--db", {db!r}]),
                     cli.main(["events", game, "--format", "text", "--db", {db!r}])]
        from mtg_ledger.core import vocabulary
        kinds = set(vocabulary.EFFECT_KINDS.values()) | set(vocabulary.ABILITY_KINDS.values())
        print(json.dumps([len(events), declared, len(pending() & events), len(kinds), len(pending() & kinds), codes]))
    """))
    events, declared, still, kinds, kinds_still, codes = read
    assert codes == [0, 0, 0]
    assert declared == still == events
    assert 0 < kinds - kinds_still < kinds / 2  # the kinds the two decks' cards are written in, made as they were compiled


def test_whatever_asks_for_an_event_classs_dataclass_completes_that_class_first() -> None:
    found = run(textwrap.dedent("""
        import dataclasses, inspect, json, uuid
        from datetime import datetime, timezone
        from mtg_ledger.core import events as ev
        from mtg_ledger.core.events import lazy
        out = {"declared": len(lazy.pending())}
        out["fields"] = [f.name for f in dataclasses.fields(ev.PriorityPassed)]
        out["one completed"] = len(lazy.pending()) == out["declared"] - 1 and not lazy.is_pending(ev.PriorityPassed)
        made = dict(originator_id=uuid.UUID(int=1), originator_version=2, timestamp=datetime(2026, 1, 1, tzinfo=timezone.utc), hash="ab",
                    player="bob", amount=3, source=7)
        e = ev.LifeLost(**made)
        out["made"] = repr(e)
        out["equal"] = e == ev.LifeLost(**made) and hash(e) == hash(ev.LifeLost(**made))
        out["map"] = e.to_map()
        read = object.__new__(ev.LifeGained)  # as the library's mapper makes an event, without its __init__
        object.__setattr__(read, "__dict__", dict(made))
        out["read"] = repr(read)
        out["read equal"] = read == read and read != e
        try:
            e.amount = 4
        except dataclasses.FrozenInstanceError:
            out["frozen"] = True
        out["match"] = list(ev.CardDrawn.__match_args__)
        out["signature"] = list(inspect.signature(ev.TurnBegan).parameters)
        out["completed"] = sorted(c.__name__ for c in set(ev.EVENT_TYPES.values()) - lazy.pending())
        from mtg_ledger.core import effects as fx
        from mtg_ledger.core.when_used import is_pending
        out["kind declared"] = is_pending(fx.DealDamage)
        deal = fx.DealDamage(3)
        out["kind"] = [repr(deal), deal == fx.DealDamage(3), hash(deal) == hash(fx.DealDamage(3)), is_pending(fx.DealDamage),
                       [f.name for f in dataclasses.fields(fx.DrawCards)], is_pending(fx.DrawCards), is_pending(fx.GainLife)]
        out["metaclasses"] = sorted({type(c).__qualname__ for c in set(ev.EVENT_TYPES.values()) - lazy.pending()})
        print(json.dumps(out))
    """))
    assert found["fields"] == ["originator_id", "originator_version", "timestamp", "hash", "player"]
    assert found["one completed"] is True
    assert found["made"] == ("LifeLost(originator_id=UUID('00000000-0000-0000-0000-000000000001'), originator_version=2, "
                             "timestamp=datetime.datetime(2026, 1, 1, 0, 0, tzinfo=datetime.timezone.utc), hash='ab', player='bob', amount=3, source=7)")
    assert found["equal"] is True
    assert found["map"] == {"v": 2, "type": "LifeLost", "player": "bob", "amount": 3, "source": 7, "hash": "ab"}
    assert found["read"] == found["made"].replace("LifeLost", "LifeGained")
    assert found["read equal"] is True
    assert found["frozen"] is True
    assert found["match"] == ["originator_id", "originator_version", "timestamp", "hash", "player", "card"]
    assert found["signature"] == ["self", "originator_id", "originator_version", "timestamp", "hash", "turn", "active_player", "state_hash"]
    assert found["completed"] == ["CardDrawn", "LifeGained", "LifeLost", "PriorityPassed", "TurnBegan"]
    assert found["metaclasses"] == ["MetaDomainEvent"]  # the library's, once completed
    assert found["kind declared"] is True
    assert found["kind"] == ["DealDamage(amount=3, to='target')", True, True, False, ["count"], False, True]


def test_a_ledger_that_writes_completes_every_class_as_it_opens_and_one_that_reads_none(tmp_path: Path) -> None:
    db = str(tmp_path / "w.sqlite")
    found = run(textwrap.dedent(f"""
        import json
        from mtg_ledger.core.events import EVENT_TYPES
        from mtg_ledger.core.when_used import pending
        from mtg_ledger.replays.ledger.application import Ledger
        env = {{"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": {db!r}}}
        Ledger(env=dict(env, CREATE_TABLE="false"), writes=False).close()
        after_reader = len(pending())
        Ledger(env=env, writes=True).close()
        from mtg_ledger.core import vocabulary
        print(json.dumps([len(EVENT_TYPES), after_reader, len(pending())]))
    """))
    events, after_reader, after_writer = found
    assert events > 60
    assert after_reader == events  # the events (a reader's ledger compiles no card)
    assert after_writer == 0  # the events and the vocabulary's kinds
