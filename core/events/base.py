"""What every event is, and how events are registered with their appliers.

An event is a frozen fact named in the past tense, declared once, in one module of this package; its
applier (``@applies(Event)``) is the function right below it. The applier only assigns what the event
says: every decision (which card, which object id, how much damage) was taken before the event was
triggered and travels in it, so applying the same events always rebuilds the same state. Appliers
take the contract map of an event, so the aggregate, the fast projector and the replay checker share
them. Each event's fields are declared once, as a ``TypedDict`` right above the event (``<Event>Fields``,
the event's ``fields_type``, from ``typing_extensions`` so pydantic can check logs against it on Python
3.11): they become the event class's fields as it is declared, and its applier's map is typed with it, so
mypy checks every key an applier reads. At run time the map is a plain dict.
An applier reads the event's fields alone (``v``, ``type`` and ``hash`` are the dispatcher's:
the hot path of a rebuild, ``replays.checked``, hands it the fields without them), and it neither
changes the map nor keeps it (that path hands the rows of a body seen before one map).

``EVENT_TYPES`` is filled as each event class is declared (``GameEvent.__init_subclass__``), in
declaration order: the order log headers list the event types in (``core.schema.class_versions``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from eventsourcing.domain import Aggregate

from mtg_ledger.core.events.lazy import EventType, contract_fields, declared_fields, is_pending
from mtg_ledger.core.state import GameState
from mtg_ledger.core.topics import stored_as

Event = dict[str, Any]  # an event's contract map: {"v", "type", ...fields, "hash"}; an applier reads its fields
Applier = Callable[[GameState, Any], None]  # (state, the event's map, typed in each applier by its <Event>Fields)
A = TypeVar("A", bound=Applier)
Upcaster = Callable[[Event], Event]  # an older form of an event's map -> the next class version's (core.schema)


class GameEvent(Aggregate.Event, metaclass=EventType):  # each event made a dataclass when first used (``lazy``)
    hash: str

    class_version: ClassVar[int] = 1  # the form its fields are in; an event of a later form says so (core.schema)
    field_names: ClassVar[tuple[str, ...]] = ()
    fields_type: ClassVar[type[Any]]  # the event's fields as a TypedDict, which its applier's map is typed with

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The event's fields are declared once, in its ``<Event>Fields``: they become the event class's own
        # annotations here, before the library's metaclass makes the class a frozen dataclass of them.
        if "fields_type" in cls.__dict__:
            cls.__annotations__ = {**cls.fields_type.__annotations__, **cls.__dict__.get("__annotations__", {})}
        # The stored topic is the event's contract type name; ``core.events:<type>`` is how the
        # stores written before the mtg_ledger namespace named it.
        stored_as(cls.__name__, f"core.events:{cls.__name__}")(cls)
        EVENT_TYPES[cls.__name__] = cls
        cls.field_names = declared_fields(cls)  # its contract fields, before its dataclass is made

    def to_map(self) -> dict[str, Any]:
        """The contract map of this event: ``{"v", "type", ...fields, "hash"}``."""
        names = type(self).field_names or _field_names(type(self))
        out: dict[str, Any] = {"v": self.originator_version, "type": type(self).__name__}
        for name in names:
            out[name] = getattr(self, name)
        out["hash"] = self.hash
        return out

    def apply(self, aggregate: Any) -> None:
        apply_event(aggregate.state, self.to_map())


EVENT_TYPES: dict[str, type[GameEvent]] = {}  # every event type, by its stored name, in declaration order
APPLIERS: dict[str, Applier] = {}  # each event type's applier, by its stored name
UPCASTERS: dict[tuple[str, int], Upcaster] = {}  # (event type, class version it upgrades from) -> its upcaster
# (event type, class version) -> the fields its form never had (a later version added them): a stored event
# that says it was recorded in that version and holds one of them was not recorded so
NEVER_IN: dict[tuple[str, int], frozenset[str]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = contract_fields(cls)
    cls.field_names = names  # type: ignore[attr-defined]
    return names


def applies(event_class: type[GameEvent]) -> Callable[[A], A]:
    """Declare the function below an event class as its applier."""

    def register(fn: A) -> A:
        if event_class.__name__ in APPLIERS:
            raise ValueError(f"{event_class.__name__} already has an applier")
        APPLIERS[event_class.__name__] = fn
        if not is_pending(event_class):  # a class made a dataclass as declared: its contract fields, from it, once
            _field_names(event_class)  # (a class completed later checks its declared ones then: ``lazy.complete``)
        return fn

    return register


def apply_event(state: GameState, e: Event) -> None:
    """Apply one event's contract map to ``state``: its applier, then the version and chain hash."""
    APPLIERS[e["type"]](state, e)
    state.version = e["v"]
    state.last_hash = e["hash"]


def stored_upcaster(kind: str, from_version: int) -> Callable[[Event], None]:
    """The registered upcaster in the form the library's mapper calls (mutating the stored fields)."""

    def upcast(stored: Event) -> None:
        upgraded = UPCASTERS[(kind, from_version)]({"type": kind, **stored})
        upgraded.pop("type", None)
        stored.clear()
        stored.update(upgraded)

    return staticmethod(upcast)
