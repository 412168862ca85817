"""What a target spec accepts (115.1): the one predicate that casting, activating, putting triggered
abilities on the stack, resolving (608.2b) and the legal-action lists all ask.

Specs: ``any`` (115.4: a creature, player, planeswalker or battle), ``player``, ``opponent``,
``creature``, ``creature_you_control``, ``permanent``, ``nonland_permanent``, ``spell`` (a spell on the
stack, by its object id), ``creature_spell``, ``noncreature_spell``, ``player_or_planeswalker``, ``artifact_or_enchantment``, ``enchantment``,
``creature_with_flying``, ``nonblack_creature``, ``creature_opponent_controls``,
``attacking_or_blocking_creature``, ``artifact_creature_or_land``, ``creature_you_dont_control``, ``land``, ``black_or_red_permanent`` (a permanent's colours, 105.2). A permanent with hexproof
can't be the target of spells or abilities its controller's opponents control (702.11b); nor can a player
with hexproof (702.11c, ``core.player_statics``).
"""

from __future__ import annotations

from mtg_ledger.core import characteristics as ch
from mtg_ledger.core import player_statics, teams
from mtg_ledger.core.state import GameState, Permanent

PLAYER_SPECS = frozenset({"any", "player", "opponent", "player_or_planeswalker"})
SPELL_SPECS = frozenset({"spell", "creature_spell", "noncreature_spell"})  # a spell on the stack


def player_fits(state: GameState, spec: str | None, player: str, controller: str) -> bool:
    """115.1: a player still in the game (800.4a) the spec accepts; 702.11c: not one with hexproof, for
    what their opponents control."""
    if spec not in PLAYER_SPECS or (spec == "opponent" and teams.teammates(state, controller, player)):
        return False
    return player in state.players and not state.players[player].lost and not player_statics.hexproof_from(state, player, controller)


def kind_fits(state: GameState, spec: str | None, perm: Permanent, controller: str) -> bool:
    """Whether the spec accepts a permanent of this kind (hexproof aside)."""
    if spec == "creature":
        return ch.is_creature(state, perm)
    if spec == "creature_you_control":
        return ch.is_creature(state, perm) and perm.controller == controller
    if spec == "any":  # 115.4
        return ch.is_creature(state, perm) or ch.is_type(state, perm, "Planeswalker") or ch.is_type(state, perm, "Battle")
    if spec == "permanent":
        return True
    if spec == "player_or_planeswalker":
        return ch.is_type(state, perm, "Planeswalker")
    if spec == "artifact_or_enchantment":
        return ch.is_type(state, perm, "Artifact") or ch.is_type(state, perm, "Enchantment")
    if spec == "enchantment":
        return ch.is_type(state, perm, "Enchantment")
    if spec == "artifact_creature_or_land":
        return any(ch.is_type(state, perm, t) for t in ("Artifact", "Creature", "Land"))
    if spec == "land":
        return ch.is_type(state, perm, "Land")
    if spec == "black_or_red_permanent":
        return bool({"B", "R"} & set(ch.face(state, perm).colors))
    if not ch.is_creature(state, perm):
        return False
    if spec == "creature_with_flying":
        return ch.has_keyword(state, perm, "flying")
    if spec == "nonblack_creature":
        return "B" not in ch.face(state, perm).colors
    if spec == "creature_opponent_controls":
        return not teams.teammates(state, perm.controller, controller)
    if spec == "creature_you_dont_control":  # a teammate's too
        return perm.controller != controller
    if spec == "attacking_or_blocking_creature":
        return perm.attacking is not None or bool(perm.blocking)
    if spec == "nonland_permanent":
        return not ch.is_type(state, perm, "Land")
    return False


def hexproof_from(state: GameState, perm: Permanent, controller: str) -> bool:
    """702.11b: hexproof keeps the permanent from being targeted by what ``controller`` controls."""
    return not teams.teammates(state, perm.controller, controller) and ch.has_keyword(state, perm, "hexproof")


def permanent_fits(state: GameState, spec: str | None, perm: Permanent, controller: str) -> bool:
    return not perm.phased_out and kind_fits(state, spec, perm, controller) and not hexproof_from(state, perm, controller)


def legal_targets(state: GameState, spec: str | None, controller: str) -> list[str | int]:
    """Every legal target of the spec, players first (in turn order), then permanents in battlefield order."""
    if spec is None:
        return []
    if spec in SPELL_SPECS:
        return [o.object for o in state.stack if o.kind == "spell" and spell_kind_fits(state, spec, o.card, o.context.get("transformed", False))]
    players: list[str | int] = [p for p in state.live_players() if player_fits(state, spec, p, controller)]
    return players + [p.object for p in ch.on_battlefield(state) if permanent_fits(state, spec, p, controller)]


def spell_kind_fits(state: GameState, spec: str, card: str, transformed: bool = False) -> bool:
    """Whether a spell of this card is one the spec accepts: any, a creature spell or a noncreature spell
    (a spell cast transformed is its back face, 712.8c)."""
    if spec == "spell":
        return True
    definition = state.cards.card(card)
    face = definition.back if transformed and definition.back is not None else definition
    return face.is_type("Creature") == (spec == "creature_spell")


def spell_fits(state: GameState, target: int, spec: str = "spell") -> bool:
    """A spell still on the stack (608.2b) of the kind the spec accepts."""
    return any(o.object == target and o.kind == "spell" and spell_kind_fits(state, spec, o.card, o.context.get("transformed", False)) for o in state.stack)
