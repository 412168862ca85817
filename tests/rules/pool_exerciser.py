"""Playing one card of the pool in a real game, on a board built for it, through the engine's public
commands: the machinery the drivers of ``tests.rules.pool_drivers`` use.

A game is a ``LocalTable`` with the pool's definitions pinned (``replays.cards.pin``). ``you`` (alice)
holds the card and plays it; ``the opponent`` (bob) has creatures and other permanents to be targeted,
attacked and blocked by. Both have untapped lands of every colour from the start, so a cost is never
what stops a card. The game is driven by ``play_until``: at each decision a chooser may pick a command
among the legal ones (``core.legal``: the candidates the rules accept), and every other decision takes a
plain default (pass priority, declare no attackers or blockers, the first legal order of triggers or
discard). The legal commands are ``core.legal``'s: the command table's candidates that the rules accept
(``legal.accepted``, the predicate ``legal_actions`` uses), of the one command type sought. It plays until what is sought has happened, or a number of turns has passed (then it fails, naming
what did not happen).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.commands import AssignDamage, CastSpell, Command, DeclareAttackers, DeclareBlockers, PassPriority, PlayLand
from mtg_ledger.core.decision import Decision, DecisionKind, pending_decision
from mtg_ledger.core.candidates import Options
from mtg_ledger.core.legal import accepted, options
from mtg_ledger.core.state import GameState, Permanent
from mtg_ledger.core.table import LocalTable
from mtg_ledger.core.vocabulary import compile_card
from mtg_ledger.replays.cards import live_pool, pin

YOU, OPPONENT = "alice", "bob"
BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
YOUR_CREATURE = "Grizzly Bears"  # yours from the start: to equip, to enchant, to attack with
# the opponent's: ground creatures of two colours (one black, one red), a flyer, one with reach, an
# artifact creature (a flyer without power: it blocks and attacks without killing), an enchantment:
# something for every target spec of the vocabulary
THEIR_PERMANENTS = ("Hill Giant", "Walking Corpse", "Wind Drake", "Giant Spider", "Ornithopter", "Megrim")
NONCREATURE_SPELL = "Shock"  # an instant that targets anything: to cast a noncreature spell, to target a permanent
CREATURE_SPELL = "Grizzly Bears"  # a creature spell to put on the stack
ENCHANTMENT_SPELL = "Megrim"  # an enchantment spell to cast
REMOVAL = "Murder"  # "Destroy target creature.": to make a creature die
LIFE = 100  # enough that no attack or spell of a card's game ends it
TURNS = 4  # how many turns a search may take, unless it says otherwise
MAIN_PHASES = ("precombat_main", "postcombat_main")

Chooser = Callable[["Game", Decision], Command | None]


def definition(name: str) -> CardDef:
    return compile_card(live_pool().definitions[name])


@dataclass
class Board:
    """Each player's zones as the game starts (docs/reference/scenario-files.md), and a scheme deck."""

    you: dict[str, Any] = field(
        default_factory=lambda: {"battlefield": [b for b in BASICS for _ in range(5)] + [YOUR_CREATURE], "hand": [], "library": ["Island"] * 30, "life": LIFE}
    )
    opponent: dict[str, Any] = field(
        default_factory=lambda: {"battlefield": [b for b in BASICS for _ in range(2)] + list(THEIR_PERMANENTS), "hand": [], "library": ["Swamp"] * 30, "life": LIFE}
    )
    schemes: list[str] = field(default_factory=list)

    def setup(self) -> dict[str, Any]:
        you: dict[str, Any] = {"name": YOU, **self.you}
        players = [you, {"name": OPPONENT, **self.opponent}]
        if self.schemes:  # 904: you are the archenemy
            you["schemes"] = list(self.schemes)
            return pin({"format": "archenemy", "seed": 1, "players": players})
        return pin({"seed": 1, "starting_player": YOU, "players": players})


@dataclass
class Game:
    """One card's game: the table, the card's permanent once it is on the battlefield (``subject``)."""

    card: str
    table: LocalTable
    subject: int | None = None
    cast_step: str | None = None  # the step the card was cast in
    notes: dict[str, Any] = field(default_factory=dict)  # what drivers saw and share (the card's one attack)

    @property
    def state(self) -> GameState:
        return self.table.state

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.table.events

    def permanent(self) -> Permanent | None:
        return None if self.subject is None else self.state.permanent(self.subject)

    def on_battlefield(self, what: str) -> Permanent:
        perm = self.permanent()
        if perm is None:
            raise AssertionError(f"{self.card}: {what} needs it on the battlefield, and it is not there")
        return perm

    def of_type(self, event_type: str, since: int = 0) -> list[dict[str, Any]]:
        return [e for e in self.events[since:] if e["type"] == event_type]


# --- choosing among the legal commands -----------------------------------------------------------


def legal(game: Game, decision: Decision, command_type: type, match: Callable[[Any], bool] = lambda c: True) -> list[Any]:
    """The candidates of one command type answering ``decision`` that match and that the rules accept."""
    wanted = [Options([c for c in listed.listed if isinstance(c, command_type) and match(c)]) for listed in options(game.state, decision, anytime=False)]
    return list(accepted(game.state, wanted))


def _targets(command: Any) -> list[Any]:
    targets = getattr(command, "targets", ())
    flat: list[Any] = []
    for t in targets:
        flat.extend(t if isinstance(t, tuple) else [] if t is None else [t])
    return flat


def _score(game: Game, target: Any) -> int:
    """Aim at the opponent and what they control; at the card itself last."""
    if target == OPPONENT:
        return 0
    if isinstance(target, int):
        if target == game.subject:
            return 3
        perm = game.state.permanent(target)
        if perm is None:
            return 1  # a spell on the stack
        return 0 if perm.controller == OPPONENT else 2
    return 2


def best(game: Game, commands: list[Any]) -> Any | None:
    """The command whose targets are most the opponent's (the first of those); one without targets last."""
    if not commands:
        return None
    return min(commands, key=lambda c: max((_score(game, t) for t in _targets(c)), default=0) if _targets(c) else 4)  # "up to one": a target if it may


def default(game: Game, decision: Decision) -> Command:
    """What a player does when nothing is sought of them: pass, declare nothing, the first legal choice."""
    player = decision.player
    if decision.kind is DecisionKind.PRIORITY:
        return PassPriority(player)
    if decision.kind is DecisionKind.DECLARE_ATTACKERS:
        return DeclareAttackers(player, ())
    if decision.kind is DecisionKind.DECLARE_BLOCKERS:
        return DeclareBlockers(player, ())
    if decision.kind is DecisionKind.ASSIGN_DAMAGE:
        return AssignDamage(player)
    chosen = best(game, list(accepted(game.state, options(game.state, decision, anytime=False))))
    assert chosen is not None, f"{game.card}: no legal answer to {decision.describe()}"
    return chosen


def play_until(game: Game, done: Callable[[], bool], what: str, chooser: Chooser | None = None, turns: int = TURNS) -> None:
    """Play on, ``chooser`` first at each decision, until ``done()``; fail naming ``what`` after ``turns`` turns."""
    last_turn = game.state.turn + turns
    while not done():
        decision = pending_decision(game.state)
        if decision is None or game.state.turn > last_turn:
            ended = f" (the game ended: {game.state.end_reason})" if game.state.ended else ""
            raise AssertionError(f"{game.card}: {what} did not happen by turn {last_turn}{ended}")
        command = chooser(game, decision) if chooser is not None else None
        game.table.handle(command if command is not None else default(game, decision))


def yours(kind: DecisionKind, act: Callable[[Game, Decision], Command | None]) -> Chooser:
    """A chooser that acts at your decisions of one kind."""
    return lambda game, d: act(game, d) if d.kind is kind and d.player == YOU else None


def theirs(kind: DecisionKind, act: Callable[[Game, Decision], Command | None]) -> Chooser:
    """A chooser that acts at the opponent's decisions of one kind."""
    return lambda game, d: act(game, d) if d.kind is kind and d.player == OPPONENT else None


def either(*choosers: Chooser) -> Chooser:
    """The first chooser's command that is not None."""

    def choose(game: Game, d: Decision) -> Command | None:
        for chooser in choosers:
            command = chooser(game, d)
            if command is not None:
                return command
        return None

    return choose


def resolve(game: Game, obj: int, what: str) -> None:
    """Pass until the stack object ``obj`` has left the stack; it must have resolved (608.2), not fizzled."""
    play_until(game, lambda: all(o.object != obj for o in game.state.stack), f"the resolution of {what}")
    outcome = [e["outcome"] for e in game.of_type("ObjectResolved") if e["object"] == obj]
    assert outcome == ["resolved"], f"{game.card}: {what} left the stack as {outcome or 'countered'}, not resolved"


def cast(game: Game, card: str, player: str = YOU, match: Callable[[Any], bool] = lambda c: True, when: Callable[[Game], bool] = lambda g: True) -> int:
    """``player`` casts ``card`` as soon as it is legal (and ``when`` holds): the new stack object."""
    cast_before = len(game.of_type("SpellCast"))

    def act(g: Game, d: Decision) -> Command | None:
        if d.kind is not DecisionKind.PRIORITY or d.player != player or not when(g):
            return None
        return best(g, legal(g, d, CastSpell, lambda c: c.card == card and c.player == player and match(c)))

    play_until(game, lambda: len(game.of_type("SpellCast")) > cast_before, f"casting {card}", act)
    return game.of_type("SpellCast")[-1]["object"]


def play_land(game: Game) -> int:
    def act(g: Game, d: Decision) -> Command | None:
        return next(iter(legal(g, d, PlayLand, lambda c: c.card == g.card and c.player == YOU)), None) if d.kind is DecisionKind.PRIORITY else None

    play_until(game, lambda: any(e["card"] == game.card for e in game.of_type("LandPlayed")), f"playing {game.card}", act)
    return game.of_type("LandPlayed")[-1]["object"]


def without(state: GameState, obj: int) -> GameState:
    """The same state without the permanent ``obj``: what the board would be were it not there."""
    other = copy.copy(state)
    other.battlefield = [p for p in state.battlefield if p.object != obj]
    return other


def pool_cards(names: Iterable[str] | None = None) -> list[str]:
    """The pool's cards and tokens, by name."""
    return sorted(names if names is not None else live_pool().definitions)
