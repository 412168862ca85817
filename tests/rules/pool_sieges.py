"""A Siege of the pool defeated (310.11b): your creatures attack it (a battle the opponent protects, 310.8)
until its last defense counter is removed; its intrinsic ability triggers and resolves, the card is exiled
and cast transformed (the ``cast_transformed`` decision, answered "cast"); the back face's spell resolves
into a new permanent (400.7, 712.8c), which becomes the card's permanent, so that the back face's own
abilities are fired on it."""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core.commands import Command, DeclareAttackers
from mtg_ledger.core.decision import Decision, DecisionKind
from mtg_ledger.core.rules import check
from tests.rules.pool_exerciser import YOU, Board, Game, resolve, yours
from tests.rules.pool_firing import Ability, until_triggered

ATTACKER = "Hill Giant"  # yours besides Grizzly Bears: 3 + 2 damage take a Siege's 5 defense counters in one attack


def attackers(board: Board, ability: Ability) -> None:
    board.you["battlefield"].append(ATTACKER)


def attack_the_siege(game: Game, d: Decision) -> Command | None:
    """Each creature of yours that can attack attacks the Siege (508.1a, 506.3)."""
    siege = game.permanent()
    if siege is None or not siege.card == game.card:
        return None
    able = [p.object for p in ch.on_battlefield(game.state) if p.controller == YOU and ch.is_creature(game.state, p) and not p.tapped and not ch.sick(game.state, p)]
    command = DeclareAttackers(YOU, tuple((obj, siege.object) for obj in able))
    check(game.state, command)  # an attack the rules refuse fails here, naming its rule
    return command


_TRIGGER = until_triggered(yours(DecisionKind.DECLARE_ATTACKERS, attack_the_siege))


def defeated(game: Game, ability: Ability) -> None:
    """310.11b: the ability triggers as the last defense counter is removed and resolves: exiled, then cast
    transformed; that spell resolves (608.3) into the permanent showing the back face (712.8c)."""
    game.on_battlefield(ability.label)
    _TRIGGER(game, ability)
    cast = game.of_type("SpellCastTransformed")
    assert cast and cast[-1]["card"] == game.card, f"{ability.label}: {game.card} was not cast transformed"
    obj = cast[-1]["object"]
    resolve(game, obj, f"{game.card} cast transformed")
    game.subject = next(e["permanent"] for e in game.of_type("ObjectResolved") if e["object"] == obj)
    perm = game.on_battlefield(f"{ability.label} (its back face)")
    shows = ch.face(game.state, perm)
    assert perm.transformed and not shows.is_type("Battle"), f"{ability.label}: the new permanent shows {shows.name}, not its back face"
