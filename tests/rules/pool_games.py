"""A game for each card of the pool: the board built for it, the card played, and each of its abilities
fired by its kind's driver (``tests.rules.pool_drivers.DRIVERS``).

The card starts in your hand (a land is played, 305.1; a spell cast, 601.2, with targets aimed at the
opponent where it may, and resolved, 608.2, a permanent spell into the card's permanent, 608.3) or in your
scheme deck (a scheme is set in motion, 904.9). What a target spec or an effect needs first is one entry
of ``TARGET_PREP`` or ``EFFECT_PREP``. A token is played in the game of the first card of the pool that
creates it, once that card has made one (111.1).
"""

from __future__ import annotations

from collections.abc import Callable

from mtg_ledger.core.carddef import CardDef
from mtg_ledger.core.commands import Command, DeclareAttackers
from mtg_ledger.core.decision import Decision, DecisionKind
from mtg_ledger.core.table import LocalTable
from mtg_ledger.core.vocabulary import tokens_created
from mtg_ledger.replays.cards import live_pool
from tests.rules.pool_drivers import order_of, prepare, run
from tests.rules.pool_exerciser import (
    CREATURE_SPELL,
    MAIN_PHASES,
    NONCREATURE_SPELL,
    YOUR_CREATURE,
    Board,
    Game,
    cast,
    definition,
    legal,
    play_land,
    play_until,
    resolve,
    yours,
)
from tests.rules.pool_effects import EFFECT_NAMES
from tests.rules.pool_firing import Ability, abilities_of


def _cast_first(helper: str) -> Callable[[Game], None]:
    """A spell of yours on the stack to be targeted (your priority comes back to you: 117.3c)."""

    def prep(game: Game) -> None:
        cast(game, helper)

    return prep


def _your_creature_attacks(game: Game) -> None:
    def attack(g: Game, d: Decision) -> Command | None:
        return next(iter(legal(g, d, DeclareAttackers, lambda c: [g.state.permanent(a[0]).card for a in c.attackers] == [YOUR_CREATURE])), None)  # type: ignore[union-attr]

    play_until(game, lambda: any(p.attacking for p in game.state.battlefield), "your creature attacking", yours(DecisionKind.DECLARE_ATTACKERS, attack))


# What a target spec needs done before a spell can aim at it (the board has something for every other spec).
TARGET_PREP: dict[str, tuple[Callable[[Game], None], str | None]] = {
    "spell": (_cast_first(NONCREATURE_SPELL), NONCREATURE_SPELL),
    "noncreature_spell": (_cast_first(NONCREATURE_SPELL), NONCREATURE_SPELL),
    "creature_spell": (_cast_first(CREATURE_SPELL), CREATURE_SPELL),
    "attacking_or_blocking_creature": (_your_creature_attacks, None),
}


# What an effect kind needs done before its spell is cast.
EFFECT_PREP: dict[str, Callable[[Game], None]] = {"untap_attackers": _your_creature_attacks}


def _specs(card: CardDef) -> list[str]:
    """The target specs of the card's spell that need something done first (one, or each of several)."""
    target = card.spell_target
    specs = [target] if isinstance(target, str) else list(target or ())
    return [s for s in dict.fromkeys(specs) if s in TARGET_PREP]


def play(game: Game, card: CardDef) -> None:
    """The card is played: a land played (305.1); a spell cast (601.2) and resolved (608.2), a permanent
    spell becoming the card's permanent (608.3); a scheme set in motion (904.9)."""
    if card.is_type("Scheme"):  # as your first precombat main phase begins
        play_until(game, lambda: any(e["scheme"] == card.name for e in game.of_type("SchemeSetInMotion")), f"setting {card.name} in motion")
        return
    if card.is_type("Land"):
        game.subject = play_land(game)
        return
    for spec in _specs(card):
        TARGET_PREP[spec][0](game)
    for kind in dict.fromkeys(EFFECT_NAMES.get(type(e), "") for e in card.effects):
        if kind in EFFECT_PREP:
            EFFECT_PREP[kind](game)
    flash = "flash" in card.keywords  # cast outside a main phase, to show it (702.8a)
    obj = cast(game, card.name, when=lambda g: not flash or g.state.step not in MAIN_PHASES)
    game.cast_step = game.state.step
    resolve(game, obj, f"{card.name} as a spell")
    resolved = [e for e in game.of_type("ObjectResolved") if e["object"] == obj][0]
    game.subject = resolved["permanent"]
    if card.is_permanent_card:
        assert game.subject is not None and game.permanent() is not None, f"{card.name}: resolved into no permanent"


def ordered(card: str, abilities: list[Ability]) -> list[Ability]:
    return sorted(abilities, key=lambda a: order_of(card, a))


def start(card: CardDef, abilities: list[Ability]) -> Game:
    board = Board()
    if card.is_type("Scheme"):
        board.schemes.append(card.name)
    elif card.is_type("Land"):
        board.you["hand"].append(card.name)
    else:
        board.you["hand"].append(card.name)
        board.you["hand"].extend(helper for spec in _specs(card) if (helper := TARGET_PREP[spec][1]) is not None)
    prepare(board, card.name, abilities)
    return Game(card.name, LocalTable.start(board.setup()))


def creator_of(token: str) -> str:
    pool = live_pool().definitions
    makers = [n for n in sorted(pool) if not pool[n].get("token") and token in tokens_created(definition(n))]
    assert makers, f"no card of the pool creates the token {token}"
    return makers[0]


def exercise(name: str) -> Game:
    """The card's game, each of its abilities fired; for a token, its creator's game once it made one."""
    token = live_pool().definitions[name].get("token", False)
    card = definition(creator_of(name) if token else name)
    own = [] if not token else abilities_of(definition(name))
    abilities = abilities_of(card)
    game = start(card, [*abilities, *own])
    play(game, card)
    for ability in ordered(card.name, abilities):
        if token and any(e["token"] == name for e in game.of_type("TokenCreated")):
            break
        run(game, ability)
    if token:
        made = [e["object"] for e in game.of_type("TokenCreated") if e["token"] == name]
        assert made, f"{name}: {card.name} created none"
        alive = [obj for obj in made if game.state.permanent(obj) is not None]
        game.card, game.subject = name, (alive or made)[0]
        for ability in ordered(name, own):
            run(game, ability)
    return game
