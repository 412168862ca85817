"""The game's start and the turn's own events: turns, steps and phases beginning and ending (500-514),
and the beginning phase's untapping and draws (502.3, 504); the phase's other turn-based actions are in
``turn_actions``."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from eventsourcing.domain import Aggregate

from mtg_ledger.core import teams
from mtg_ledger.core import turn as turn_plan
from mtg_ledger.core.cards import CLASSIC
from mtg_ledger.core.catalog import Catalog, used_names
from mtg_ledger.core.events.base import NEVER_IN, UPCASTERS, Event, GameEvent, applies, stored_upcaster
from mtg_ledger.core.state import GameState, Permanent, Player
from mtg_ledger.core.walks import Walks, walked_on


class PermanentEntry(TypedDict):
    """One permanent of a player's starting ``battlefield``."""

    object: int
    card: str


class PlayerEntry(TypedDict):
    """One player's entry of ``GameStarted.players``: their zones as the game starts with them."""

    name: str
    life: int
    schemes: list[str]
    library: list[str]
    hand: list[str]
    opening_hand: bool
    battlefield: list[PermanentEntry]


class GameStartedFields(TypedDict):
    players: list[PlayerEntry]
    format: str
    seed: int
    starting_player: str
    rules: str
    shuffle: bool
    teams: list[list[str]]  # 904.2, 805: teams sharing turns, in turn order; empty when every player is alone
    archenemy: str | None  # 904.2a
    cards: dict[str, dict[str, Any]]  # schema 5: every card's definition, by name (docs/cards.md)


def _pin_classic_cards(e: Event) -> Event:
    """Schema 5 (class version 2) records the definitions a game is played with; a game recorded
    before was played with the classic ones (``core.classic_cards``, frozen), which fill ``cards``."""
    if "cards" not in e:
        e["cards"] = CLASSIC.pinned(used_names(e["players"]))
    return e


UPCASTERS[("GameStarted", 1)] = _pin_classic_cards
NEVER_IN[("GameStarted", 1)] = frozenset({"cards"})


class GameStarted(GameEvent, Aggregate.Created):
    """103: the game starts; players, their zones as given, format, seed and rules edition."""

    fields_type = GameStartedFields

    class_version = 2
    upcast_v1_v2 = stored_upcaster("GameStarted", 1)


@applies(GameStarted)
def _game_started(s: GameState, e: GameStartedFields) -> None:
    s.game_format = e["format"]
    s.seed = e["seed"]
    s.rules = e["rules"]
    s.teams = [list(team) for team in e["teams"]]
    s.archenemy = e["archenemy"]
    # schema 5; a GameStarted applied as recorded before (a rebuild that does not upcast): the classic cards
    s.cards = Catalog.of(e["cards"]) if "cards" in e else CLASSIC
    names = [p["name"] for p in e["players"]]
    start = names.index(e["starting_player"])
    s.turn_order = names[start:] + names[:start]  # 103.1: play proceeds from the starting player
    top = 0
    for p in e["players"]:
        s.players[p["name"]] = Player(
            name=p["name"], life=p["life"], library=list(p["library"]), hand=list(p["hand"])
        )
        if p["name"] == e["archenemy"]:
            s.schemes = list(p["schemes"])
        for perm in p["battlefield"]:
            s.battlefield.append(
                Permanent(object=perm["object"], card=perm["card"], owner=p["name"], controller=p["name"], fresh=False)
            )
            top = max(top, perm["object"])
    s.next_object = top + 1


class LibraryShuffledFields(TypedDict):
    player: str
    order: list[str]


class LibraryShuffled(GameEvent):
    """701.20: the resulting order travels in the event."""

    fields_type = LibraryShuffledFields


@applies(LibraryShuffled)
def _library_shuffled(s: GameState, e: LibraryShuffledFields) -> None:
    s.players[e["player"]].library = list(e["order"])


class SchemeDeckShuffledFields(TypedDict):
    player: str
    order: list[str]


class SchemeDeckShuffled(GameEvent):
    """904.4: the archenemy's scheme deck, shuffled; the resulting order travels in the event."""

    fields_type = SchemeDeckShuffledFields


@applies(SchemeDeckShuffled)
def _schemes_shuffled(s: GameState, e: SchemeDeckShuffledFields) -> None:
    s.schemes = list(e["order"])


class TurnBeganFields(TypedDict):
    turn: int
    active_player: str
    state_hash: str


class TurnBegan(GameEvent):
    """500.1. ``state_hash`` is the canonical hash of the whole state as the turn begins (before this
    event), so a replay can prove it rebuilt the same game turn by turn."""

    fields_type = TurnBeganFields


# 302.6's walk of the battlefield at each turn's start, remembered for each battlefield list walked: how
# many of its first permanents are not fresh, and the last of those. In place a battlefield list only
# grows at its end (a permanent leaving makes a new list: core.events.changes), and a permanent is fresh
# only as it is made (none becomes fresh again), so those stay not fresh and the next walk of the same
# list starts there. A list not walked yet (a state read from a snapshot), or one changed otherwise (that
# last permanent moved), is walked whole. It changes how long the walk takes, never what it finds.
_SETTLED: Walks[tuple[int, Permanent | None]] = Walks()
_PHASES = tuple(phase.value for phase in turn_plan.phases())  # as plain strings, as a state read back holds them


@applies(TurnBegan)
def _turn_began(s: GameState, e: TurnBeganFields) -> None:
    """500.1. With shared team turns the team's turn is each of its players' turn (805.4): "the
    previous turn's active player" (726.3) is every player of the previous active team, so their
    spells count together, and every player of the new active team starts their turn (302.6)."""
    previous = s.active_player
    s.turn = e["turn"]
    s.active_player = e["active_player"]
    s.phase = s.step = None
    cast = s.spells_cast_this_turn
    s.spells_cast_last_turn = sum(cast.get(p, 0) for p in teams.team_of(s, previous)) if previous and cast else 0
    s.spells_cast_this_turn = {}
    s.attacked_this_turn = []
    s.phase_plan = list(_PHASES)  # the plan's phases, in order (500.1)
    for player in s.players.values():
        player.lands_played = 0
    team = teams.team_of(s, e["active_player"])
    battlefield = s.battlefield
    settled, last = _SETTLED.get(battlefield) or (0, None)
    if not walked_on(battlefield, settled, last):
        settled = 0
    still_fresh = None  # the first permanent left fresh
    for i in range(settled, len(battlefield)):
        perm = battlefield[i]
        if perm.fresh:
            if perm.controller in team:
                perm.fresh = False  # 302.6: continuously controlled since this turn began
            elif still_fresh is None:
                still_fresh = i
    settled = len(battlefield) if still_fresh is None else still_fresh
    _SETTLED.put(battlefield, (settled, battlefield[settled - 1] if settled else None))


class StepBeganFields(TypedDict):
    turn: int
    phase: str
    step: str
    first_strike: bool


class StepBegan(GameEvent):
    """500-514. A main phase is a step of its own name; ``first_strike`` marks 510.4's first step."""

    fields_type = StepBeganFields


# The plan's steps as the applier below compares them, looked up once: an enumeration's member looked up
# on its class costs a rebuild more than the rest of the applier (a quarter of a microsecond each). As plain
# strings, as the events hold them: a string compared with an enumeration's member (a subclass) is compared
# the slower way, the member's comparison first (some 40 ns a StepBegan).
_FIRST_STEP: dict[str, str] = {phase.value: turn_plan.first_step(phase).step.value for phase in turn_plan.phases()}
_BEGINNING_OF_COMBAT = turn_plan.Step.BEGINNING_OF_COMBAT.value
_DECLARE_ATTACKERS = turn_plan.Step.DECLARE_ATTACKERS.value
_DECLARE_BLOCKERS = turn_plan.Step.DECLARE_BLOCKERS.value
_COMBAT_DAMAGE = turn_plan.Step.COMBAT_DAMAGE.value


@applies(StepBegan)
def _step_began(s: GameState, e: StepBeganFields) -> None:
    phase, step, plan = e["phase"], e["step"], s.phase_plan
    if plan and plan[0] == phase and step == _FIRST_STEP[phase]:
        plan.pop(0)  # a new phase begins
    s.phase = phase
    s.step = step
    s.first_strike_step = e["first_strike"]
    s.priority = None
    s.priority_given_this_step = False
    s.passes = []
    if step == _BEGINNING_OF_COMBAT:  # a new combat: nothing carries over from an earlier one
        s.defender_chosen = None
        s.defending_players = []
        s.declared_attackers = []
        s.first_strikers = []
    elif step == _DECLARE_ATTACKERS:
        s.attackers_declared = False
        s.declared_attackers = []
    elif step == _DECLARE_BLOCKERS:
        s.blockers_declared_by = []
    elif step == _COMBAT_DAMAGE:
        s.combat_damage_dealt = False


class StepEndedFields(TypedDict):
    turn: int
    step: str


class StepEnded(GameEvent):
    """500.2."""

    fields_type = StepEndedFields


@applies(StepEnded)
def _step_ended(s: GameState, e: StepEndedFields) -> None:
    s.priority = None
    s.passes = []


class PermanentsUntappedFields(TypedDict):
    player: str
    permanents: list[int]


class PermanentsUntapped(GameEvent):
    """502.3."""

    fields_type = PermanentsUntappedFields


@applies(PermanentsUntapped)
def _untapped(s: GameState, e: PermanentsUntappedFields) -> None:
    for perm in s.each(e["permanents"]):
        perm.tapped = False


class CardDrawnFields(TypedDict):
    player: str
    card: str


class CardDrawn(GameEvent):
    """504.1, 121.2; also the opening hand (103.5)."""

    fields_type = CardDrawnFields


@applies(CardDrawn)
def _card_drawn(s: GameState, e: CardDrawnFields) -> None:
    player = s.players[e["player"]]
    player.library.pop(0)
    player.hand.append(e["card"])


class EmptyLibraryDrawAttemptedFields(TypedDict):
    player: str


class EmptyLibraryDrawAttempted(GameEvent):
    """121.4: a draw from an empty library; the player loses at the next check (704.5b)."""

    fields_type = EmptyLibraryDrawAttemptedFields


@applies(EmptyLibraryDrawAttempted)
def _empty_draw(s: GameState, e: EmptyLibraryDrawAttemptedFields) -> None:
    s.players[e["player"]].drew_from_empty_library = True


class DrawSkippedFields(TypedDict):
    player: str
    rule: str


class DrawSkipped(GameEvent):
    """103.8a."""

    fields_type = DrawSkippedFields


@applies(DrawSkipped)
def _draw_skipped(s: GameState, e: DrawSkippedFields) -> None:
    return None
