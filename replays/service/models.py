"""The service's bodies and answers as pydantic models: requests are parsed by them once, and the
OpenAPI description is derived from them. An action's body and a new game's body are the scenario's
own models (``scenario.actions``, ``scenario.schema``) with what HTTP adds: ``expected_version``, and at
most eight players. What a card or a player means is then the actions' ``to_command``'s and the rules'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mtg_ledger.replays.scenario.actions import DECISIONS, Decision
from mtg_ledger.replays.scenario.schema import PlayerSetup, Setup, one_of, with_fields

# --- creating a game -----------------------------------------------------------------------


class NewKey(BaseModel):
    model_config = ConfigDict(extra="forbid")

    public: str = Field(description="an Ed25519 public key: its 32 bytes in base64")
    proof: str = Field(description="the key's own signature (base64) of 'mtg-ledger player-key\\n\\n<player>\\n<public>\\n0' (no game id yet)")


class NewGame(Setup):
    """A scenario (docs/reference/scenario-files.md) without its actions."""

    players: Annotated[list[PlayerSetup], Field(max_length=8)]
    keys: dict[str, NewKey] | None = Field(
        None, description="players' Ed25519 public keys by name, each with its proof: their decisions must then be signed (docs/receipts.md)"
    )


class PlayerKeyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    public: str = Field(description="an Ed25519 public key: its 32 bytes in base64")
    since: int = Field(description="the game's version now: every decision after it must be signed (409 if the game has moved on)")
    proof: str = Field(description="the key's own signature (base64) of 'mtg-ledger player-key\\n<game>\\n<player>\\n<public>\\n<since>'")


class Registration(BaseModel):
    key: str = Field(description="the id of the service key that signed (GET /keys)")
    signature: str = Field(description="Ed25519, base64, over 'mtg-ledger player-key registered\\n<game>\\n<player>\\n<public>\\n<since>'")


class PlayerKeyOut(BaseModel):
    game: str
    player: str
    public: str
    since: int = Field(description="the game's version when it was registered: every decision after it must be signed")
    registration: Registration = Field(description="the service's signature of this registration: keep it (docs/receipts.md)")


class GameCreated(BaseModel):
    game: str
    version: int | None = None
    tokens: dict[str, str] = Field(description="one token per player, and the judge's; shown once, never again")
    registrations: dict[str, Registration] | None = Field(None, description="with keys: the service's signature of each player's key registration")


# --- actions ---------------------------------------------------------------------------------

ExpectedVersion = Annotated[int | None, Field(ge=0, le=2**62, description="409, nothing stored, unless the game is at this version")]
BodyPlayer = Annotated[
    str | None,
    Field(description="optional: the token says who acts; given (as `mtg-ledger legal` prints it), it must be the token's own player"),
]
# A player's decision as a body: section 2's action, its ``player`` optional (the token says who acts).
BODIES: tuple[type[Decision], ...] = tuple(
    with_fields(model, player=(BodyPlayer, None), expected_version=(ExpectedVersion, None)) for model in DECISIONS
)
if TYPE_CHECKING:
    Action = Decision
else:
    Action = one_of(BODIES)


class Receipt(BaseModel):
    """The service's signature over a game's public chain at one version (docs/receipts.md)."""

    game: str
    version: int
    head: str = Field(description="the public chain's head after event `version`, in hex")
    key: str = Field(description="the id of the service key that signed (GET /keys)")
    signature: str = Field(description="Ed25519, base64, over the UTF-8 bytes of 'mtg-ledger receipt\\n<game>\\n<version>\\n<head>'")


class Openings(BaseModel):
    """Every hidden value of an ended game with its salt (docs/receipts.md)."""

    game: str
    version: int
    openings: list[dict[str, Any]] = Field(description='each event that hid a value: {"v", "openings": {path: {"salt" (hex), "value"}}}')


class ActionTaken(BaseModel):
    version: int
    events: list[dict[str, Any]] = Field(description="the events the decision caused, as this player may see them")
    receipt: Receipt = Field(description="the service's receipt for the version this decision stored")


class PublicKey(BaseModel):
    id: str
    alg: Literal["Ed25519"]
    public: str = Field(description="the 32 bytes of the public key, base64")


class Keys(BaseModel):
    keys: list[PublicKey] = Field(description="every key the service's receipts were signed with, the one it signs with now first")


class ReceiptsIn(BaseModel):
    """Receipts a player kept, for the judge to check against the game's log."""

    model_config = ConfigDict(extra="forbid")

    receipts: list[dict[str, Any]] = Field(max_length=100_000)


# --- reading -------------------------------------------------------------------------------


class DecisionOut(BaseModel):
    version: int
    player: str | None = Field(description="who must decide; null once the game is over")
    kind: str | None = Field(description="priority, declare_attackers, declare_blockers, assign_damage, discard, order_triggers, choose_defender, cast_transformed, choose_protector")
    rule: str | None = None
    legal: list[Action] | None = Field(
        description="every legal action (the body of POST /games/{id}/actions), for the player who must decide and the judge; null for others"
    )
    complete: bool | None = Field(None, description="false where a choice is too large to list: `shapes` describes it")
    shapes: list[dict[str, Any]] | None = None


class Open(BaseModel):
    """An answer with the contract's keys at least: more may come (more keys may be added, never fewer)."""

    model_config = ConfigDict(extra="allow")


class StateOut(Open):
    """The state (docs/reference/http.md, StateOut), as the token's holder may see it: hidden cards are null."""

    version: int
    turn: int
    phase: str | None
    step: str | None
    active_player: str | None
    priority: str | None = Field(description="who holds priority, or null")
    stack: list[dict[str, Any]] = Field(description="bottom first")
    day_night: Literal["day", "night"] | None
    players: dict[str, dict[str, Any]]
    battlefield: list[dict[str, Any]]
    # how the game ended, typed (104): a generated client reads it without digging in the extra keys
    ended: bool = Field(description="true once the game is over (104)")
    winner: str | None = Field(description="a winning player still in the game (a team's primary player, 805.2); null while it goes on or on a draw")
    winners: list[str] = Field(description="every winning player, in turn order (a whole team, 805); empty while it goes on or on a draw")


class AuditOut(Open):
    """The audit report, as ``mtg-ledger audit --json``."""

    game: str | None
    events: int
    clean: bool
    first: int | None = Field(description="the first bad event's version, or null when clean")
    findings: list[dict[str, Any]]


class ErrorOut(BaseModel):
    error: str
    rule: str | None = None
    field: str | None = None


class Health(BaseModel):
    ok: bool
    store: str
    streams: Literal["listen", "poll"] = Field(
        description="how live streams learn of new decisions: listen (PostgreSQL's NOTIFY), poll (every 50 ms: SQLite)"
    )
