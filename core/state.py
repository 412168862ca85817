"""The game state that the events rebuild. Plain data: appliers assign it, rules read it.

It is deliberately made of dataclasses of builtins, so that it converts losslessly to a
msgpack-able dict (snapshots, canonical state hashes) and back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from mtg_ledger.core import state_hash
from mtg_ledger.core.cards import CLASSIC
from mtg_ledger.core.catalog import Catalog
from mtg_ledger.core.hashing import GENESIS_HASH
from mtg_ledger.core.outcome import Outcome, Reason
from mtg_ledger.core.written import Written

_set = object.__setattr__  # a write that is not noted: a record being made


@dataclass
class Player:
    name: str
    life: int = 20
    library: list[str] = field(default_factory=list)  # top card first
    hand: list[str] = field(default_factory=list)
    graveyard: list[str] = field(default_factory=list)  # bottom first
    mana_pool: dict[str, int] = field(default_factory=dict)
    lands_played: int = 0  # this turn (305.2)
    drew_from_empty_library: bool = False  # since the last state-based action check (704.5b)
    lost: bool = False
    loss_reason: str | None = None
    exile: list[str] = field(default_factory=list)  # 406: cards exiled, in the order they were (schema 5, sparse)

    SPARSE: ClassVar[dict[str, Any]] = {"exile": []}  # as ``Permanent.SPARSE``: left out of the canonical form while empty


@dataclass(init=False)
class Permanent(Written):
    """A permanent on the battlefield. It notes its writes (``core.written``), so that what is worked out of
    it can be known unchanged since; its ``__init__`` (below) is written out rather than made by
    ``dataclass`` so that making one is not 17 noted writes."""

    object: int
    card: str
    owner: str
    controller: str
    tapped: bool = False
    damage: int = 0
    fresh: bool = True  # not continuously controlled since its controller's turn began (302.6)
    attacking: str | None = None  # the player it attacks
    blocking: list[int] = field(default_factory=list)  # attackers it blocks
    blocked: bool = False  # an attacking creature that became blocked (509.1h)
    blocked_by: list[int] = field(default_factory=list)  # in declaration order
    phased_out: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    token: bool = False  # 111: a token's definition is the game's token named ``card``
    transformed: bool = False  # 712: a double-faced permanent showing its back face
    # Fields added with schema 5 (sparse: see ``SPARSE``)
    attached_to: int | None = None  # 301.5, 303.4: the permanent an Aura or Equipment is attached to
    attacking_object: int | None = None  # 506.3, 508.1b: the planeswalker or battle it attacks (``attacking``: its defending player)
    protector: str | None = None  # 310.8: a battle's protector, chosen as it enters (310.11)
    deathtouched: bool = False  # 704.5h: dealt damage by a source with deathtouch since the last check
    loyalty_turn: int = 0  # 606.3: the turn in which one of its loyalty abilities was last activated

    # The fields above, with the value they hold on every permanent of an older game: the canonical
    # form (``state.to_dict``, the state hash, snapshots) leaves a field out while it holds it, so every
    # game recorded before them keeps its state hashes and snapshot bytes.
    SPARSE: ClassVar[dict[str, Any]] = {
        "attached_to": None,
        "attacking_object": None,
        "protector": None,
        "deathtouched": False,
        "loyalty_turn": 0,
    }

    def __init__(
        self,
        object: int,
        card: str,
        owner: str,
        controller: str,
        tapped: bool = False,
        damage: int = 0,
        fresh: bool = True,
        attacking: str | None = None,
        blocking: list[int] | None = None,
        blocked: bool = False,
        blocked_by: list[int] | None = None,
        phased_out: bool = False,
        counters: dict[str, int] | None = None,
        token: bool = False,
        transformed: bool = False,
        attached_to: int | None = None,
        attacking_object: int | None = None,
        protector: str | None = None,
        deathtouched: bool = False,
        loyalty_turn: int = 0,
    ) -> None:
        """The dataclass's own ``__init__``, field for field (a test compares them), without the writes."""
        _set(
            self,
            "__dict__",
            {
                "object": object,
                "card": card,
                "owner": owner,
                "controller": controller,
                "tapped": tapped,
                "damage": damage,
                "fresh": fresh,
                "attacking": attacking,
                "blocking": [] if blocking is None else blocking,
                "blocked": blocked,
                "blocked_by": [] if blocked_by is None else blocked_by,
                "phased_out": phased_out,
                "counters": {} if counters is None else counters,
                "token": token,
                "transformed": transformed,
                "attached_to": attached_to,
                "attacking_object": attacking_object,
                "protector": protector,
                "deathtouched": deathtouched,
                "loyalty_turn": loyalty_turn,
            },
        )

    @classmethod
    def entering(cls, object: int, card: str, owner: str, controller: str) -> Permanent:
        """``Permanent(object=object, card=card, owner=owner, controller=controller)``: every other field at its
        default, made from a copy of a permanent made so (its fields in the same order), without the call's
        twenty parameters: 0.6 against 1.4 us (a land played, each turn of every game)."""
        made = _new(cls)
        fields = _ENTERING.copy()
        fields["object"], fields["card"], fields["owner"], fields["controller"] = object, card, owner, controller
        fields["blocking"], fields["blocked_by"], fields["counters"] = [], [], {}
        _set(made, "__dict__", fields)
        return made


_new = object.__new__  # (``object`` is a field name in ``Permanent.entering``)
_ENTERING: dict[str, Any] = dict(vars(Permanent(object=0, card="", owner="", controller="")))


@dataclass
class StackObject:
    object: int
    card: str  # the spell's card, or the ability's source card
    controller: str
    kind: str = "spell"  # spell | activated | triggered
    targets: list[Any] = field(default_factory=list)  # player names (str) or objects (int)
    source: int | None = None  # an ability's source permanent
    ability: int = 0  # which of the source's activated or triggered abilities
    context: dict[str, Any] = field(default_factory=dict)  # what the trigger saw ("that player", a chapter)


@dataclass
class Trigger:
    """A triggered ability that has triggered and waits to be put on the stack (603.2, 603.3)."""

    object: int
    player: str
    card: str
    source: int | None
    ability: int
    context: dict[str, Any] = field(default_factory=dict)


class EffectKind(StrEnum):
    """What a continuous effect does; the value is the ``kind`` its ``EffectCreated`` event records."""

    PT = "pt"  # +power/+toughness, layer 7c (611.2)
    NO_MAX_HAND_SIZE = "no_max_hand_size"  # 402.2
    SKIP_COMBAT = "skip_combat"  # 500.10


@dataclass
class Effect:
    """A continuous effect from a resolved spell or ability (611)."""

    id: int
    kind: str  # an EffectKind's value, as the event recorded it
    object: int  # the permanent affected (0 for effects on players)
    power: int = 0
    toughness: int = 0
    keywords: list[str] = field(default_factory=list)  # abilities gained (layer 6)
    until: str = "end_of_turn"  # end_of_turn (ends in cleanup, 514.2) | next_turn (ends as player's next turn begins)
    player: str | None = None  # the player affected, for effects on players
    source: int = 0  # the spell or ability that created it


@dataclass
class GameState:
    game_format: str = "two-player"
    seed: int = 0
    rules: str = ""
    turn_order: list[str] = field(default_factory=list)
    teams: list[list[str]] = field(default_factory=list)  # in turn order; empty: every player on their own
    players: dict[str, Player] = field(default_factory=dict)
    battlefield: list[Permanent] = field(default_factory=list)  # in order of entering
    stack: list[StackObject] = field(default_factory=list)  # bottom first
    pending_triggers: list[Trigger] = field(default_factory=list)  # triggered, not yet on the stack (603.3)
    paused: dict[str, Any] | None = None  # a resolution waiting for a player's choice (608.2d)
    ordering: dict[str, Any] | None = None  # a player must put their triggers on the stack (603.3b)
    effects: list[Effect] = field(default_factory=list)
    next_object: int = 1
    next_effect: int = 1
    turn: int = 0
    active_player: str | None = None
    phase: str | None = None
    step: str | None = None
    first_strike_step: bool = False
    priority: str | None = None
    priority_given_this_step: bool = False  # 514.3a: a cleanup with priority is followed by another
    passes: list[str] = field(default_factory=list)  # who passed in succession (117.4)
    phase_plan: list[str] = field(default_factory=list)  # the phases still to come this turn (500.1, 500.8)
    attacked_this_turn: list[int] = field(default_factory=list)
    attackers_declared: bool = False
    blockers_declared_by: list[str] = field(default_factory=list)  # defending players who declared (509.1)
    defender_chosen: str | None = None  # single-defender format (507.1)
    defending_players: list[str] = field(default_factory=list)
    declared_attackers: list[int] = field(default_factory=list)  # this combat, as declared (508.8)
    combat_damage_dealt: bool = False  # in the current combat damage step
    first_strikers: list[int] = field(default_factory=list)  # had first or double strike as the first damage step began (510.4)
    day_night: str | None = None
    spells_cast_this_turn: dict[str, int] = field(default_factory=dict)
    spells_cast_last_turn: int = 0  # by the previous turn's active player (502.2, 726.3)
    archenemy: str | None = None  # 904
    schemes: list[str] = field(default_factory=list)  # the archenemy's scheme deck, top first
    scheme_in_motion: str | None = None
    winner: str | None = None
    winners: list[str] = field(default_factory=list)
    ended: bool = False
    end_reason: str | None = None  # an outcome.Reason code (schema 2)
    version: int = 0
    last_hash: str = GENESIS_HASH
    # The game's card definitions, as its GameStarted recorded them (schema 5; before, ``core.classic_cards``).
    # Fixed from the game's start and vouched for by GameStarted's hash: left out of the state hash.
    cards: Catalog = field(default=CLASSIC)

    # --- reading helpers (no mutation) -------------------------------------------------

    def permanent(self, obj: int) -> Permanent | None:
        for p in self.battlefield:
            if p.object == obj:
                return p
        return None

    def each(self, objects: list[int]) -> list[Permanent]:
        """The permanents with these object ids that are still on the battlefield, in that order."""
        if not objects:
            return []  # most events name none: no walk of the battlefield
        found = {p.object: p for p in self.battlefield}
        return [found[o] for o in objects if o in found]

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (104), once it has: a value, not free text."""
        if not self.ended or self.end_reason is None:
            return None
        return Outcome(Reason(self.end_reason), self.winner, tuple(self.winners))

    def live_players(self) -> list[str]:
        """Players still in the game, in turn order (800.4a: a player who left is gone)."""
        return [n for n in self.turn_order if not self.players[n].lost]

    def to_dict(self, permanents: bool = True) -> dict[str, Any]:
        """Every field as builtins (the same as ``dataclasses.asdict``, much faster: no deep copies,
        so encode or hash the result before the state changes again). ``permanents=False``: the
        battlefield's permanents left as records (a list of them), for a caller that makes the maps of
        only those it needs."""
        d = dict(vars(self))
        d["players"] = {name: state_hash.visible(p) for name, p in self.players.items()}
        d["battlefield"] = [state_hash.visible(p) for p in self.battlefield] if permanents else list(self.battlefield)
        d["stack"] = [dict(vars(o)) for o in self.stack]
        d["effects"] = [dict(vars(e)) for e in self.effects]
        d["pending_triggers"] = [dict(vars(t)) for t in self.pending_triggers]
        d["cards"] = self.cards.definitions
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        d = dict(data)
        d["players"] = {k: Player(**v) for k, v in d["players"].items()}
        d["battlefield"] = [Permanent(**p) for p in d["battlefield"]]
        d["stack"] = [StackObject(**s) for s in d["stack"]]
        d["pending_triggers"] = [Trigger(**t) for t in d["pending_triggers"]]
        d["effects"] = [Effect(**e) for e in d["effects"]]
        d["cards"] = Catalog.of(d["cards"]) if "cards" in d else CLASSIC  # a snapshot of schema 4 or before: 33 cards
        return cls(**d)

    def state_hash(self, remember: bool = True) -> str:
        """A canonical hash of everything in the state (replays compare it; TurnBegan records it, so
        the encoding is part of the log's schema): sha256 of the msgpack of the state as a map, keys
        sorted at every level (``core.hashing.sort_keys``). ``core.state_hash`` assembles those bytes
        from remembered pieces; ``core.state_hash.reference_state_hash`` is the plain definition.
        ``remember=False``: for a state read to be checked once (``core.state_hash.state_hash``)."""
        return state_hash.state_hash(self, remember)
