"""Reading the board: characteristics after continuous effects, and finding objects by reference."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtg_ledger.core.carddef import CardDef

from mtg_ledger.core.errors import IllegalAction, IllegalTarget, Phrase
from mtg_ledger.core.state import EffectKind, GameState, Permanent
from mtg_ledger.core.walks import Walks, walked_on
from mtg_ledger.core.statics import AttachedCantAttackOrBlock, AttachedGets, CantBlock, CreaturesYouControlGet, GrantKeyword, PowerToughnessEqualToLife

if TYPE_CHECKING:  # the commands are imported where a target is resolved: a read of a state needs none of them
    from mtg_ledger.core.commands import CardRef, Ref, Target

DEFAULT_MAX_HAND_SIZE = 7  # 402.2


def face(state: GameState, perm: Permanent) -> CardDef:
    """The characteristics a permanent has, as the game's definitions say (``GameState.cards``): its
    token definition (111), or the face it shows (712)."""
    cards = state.cards
    if not perm.token and not perm.transformed:
        found = cards.cards.get(perm.card)
        if found is not None:
            return found
    if perm.token:
        return cards.token(perm.card)
    definition = cards.card(perm.card)
    if perm.transformed and definition.back is not None:
        return definition.back
    return definition


def name(state: GameState, perm: Permanent) -> str:
    return face(state, perm).name


def is_creature(state: GameState, perm: Permanent) -> bool:
    return face(state, perm).is_type("Creature")


def _counters(perm: Permanent) -> int:
    return perm.counters.get("+1/+1", 0) - perm.counters.get("-1/-1", 0)


def _base(state: GameState, perm: Permanent, printed: int | None) -> int:
    """Layer 7a (613.4a): the printed value, or what a characteristic-defining ability makes it (604.3):
    "power and toughness are each equal to your life total"."""
    if any(isinstance(s, PowerToughnessEqualToLife) for s in face(state, perm).statics):
        return state.players[perm.controller].life
    return printed or 0


def power(state: GameState, perm: Permanent) -> int:
    """Layer 7: printed power or a characteristic-defining ability (7a), modifications (7c: effects and static abilities), then counters (7d; 613.4)."""
    base = _base(state, perm, face(state, perm).power)
    statics = sum(g.power for g in _granted(state, perm))
    return base + sum(e.power for e in state.effects if e.kind == EffectKind.PT and e.object == perm.object) + statics + _counters(perm)


def toughness(state: GameState, perm: Permanent) -> int:
    base = _base(state, perm, face(state, perm).toughness)
    statics = sum(g.toughness for g in _granted(state, perm))
    return base + sum(e.toughness for e in state.effects if e.kind == EffectKind.PT and e.object == perm.object) + statics + _counters(perm)


def _granted(state: GameState, perm: Permanent) -> list[AttachedGets | CreaturesYouControlGet]:
    """The static abilities of permanents on the battlefield that apply to ``perm`` (604.2, 613): an
    Aura's or Equipment's on the permanent it is attached to (303.4, 301.5), an anthem's on the
    creatures its controller controls."""
    out: list[AttachedGets | CreaturesYouControlGet] = []
    for other in state.battlefield:
        if other.phased_out or (other.card in state.cards.without_statics and not other.token and not other.transformed):
            continue
        statics = face(state, other).statics
        if not statics:
            continue
        for st in statics:
            if isinstance(st, AttachedGets) and other.attached_to == perm.object:
                out.append(st)
            elif (
                isinstance(st, CreaturesYouControlGet)
                and other.controller == perm.controller
                and not (st.other and other.object == perm.object)
                and is_creature(state, perm)
            ):
                out.append(st)
    return out


def cannot(state: GameState, perm: Permanent, action: str) -> bool:
    """508.1a, 509.1a: whether a static ability says this creature can't ``action`` ("attack" or
    "block"): its own ("This creature can't block."), or an Aura's attached to it ("Enchanted creature
    can't attack or block.")."""
    if action == "block" and any(isinstance(s, CantBlock) for s in face(state, perm).statics):
        return True
    return any(
        other.attached_to == perm.object and not other.phased_out and any(isinstance(s, AttachedCantAttackOrBlock) for s in face(state, other).statics)
        for other in state.battlefield
        if other.attached_to is not None
    )


def is_type(state: GameState, perm: Permanent, card_type: str) -> bool:
    return face(state, perm).is_type(card_type)


def loyalty(perm: Permanent) -> int:
    """306.5b: a planeswalker's loyalty is the number of loyalty counters on it."""
    return perm.counters.get("loyalty", 0)


def defense(perm: Permanent) -> int:
    """310.4c: a battle's defense is the number of defense counters on it."""
    return perm.counters.get("defense", 0)


def has_keyword(state: GameState, perm: Permanent, keyword: str) -> bool:
    """Printed keywords, those gained from effects (layer 6), those an Aura, Equipment or anthem gives
    (``core.statics.AttachedGets``, ``CreaturesYouControlGet``) and those a permanent grants
    ("Wolves and Werewolves you control have haste", ``core.statics.GrantKeyword``)."""
    if keyword in face(state, perm).keywords:
        return True
    if any(keyword in e.keywords for e in state.effects if e.object == perm.object):
        return True
    if any(keyword in g.keywords for g in _granted(state, perm)):
        return True
    subtypes = set(face(state, perm).subtypes)
    return any(other.controller == perm.controller and subtypes & face(state, other).grants(keyword) for other in on_battlefield(state))


def keywords(state: GameState, perm: Permanent) -> set[str]:
    """Every keyword ``has_keyword`` finds on the permanent, found in one pass over what grants them."""
    own = face(state, perm)
    found = set(own.keywords)
    for e in state.effects:
        if e.object == perm.object:
            found.update(e.keywords)
    for g in _granted(state, perm):
        found.update(g.keywords)
    subtypes = set(own.subtypes)
    if subtypes:
        for other in on_battlefield(state):
            if other.controller == perm.controller:
                found.update(st.keyword for st in face(state, other).statics if isinstance(st, GrantKeyword) and subtypes & set(st.subtypes))
    return found


def sick(state: GameState, perm: Permanent) -> bool:
    """302.6: a creature can't attack or use {T} abilities unless it has been under its controller's
    control continuously since their most recent turn began, or it has haste (702.10)."""
    return perm.fresh and is_creature(state, perm) and not has_keyword(state, perm, "haste")


def max_hand_size(state: GameState, player: str) -> int | None:
    """402.2: seven, unless an effect says the player has no maximum hand size (None)."""
    lifters = state.cards.hand_size_lifters  # the game's cards that can: none, most often (then no look at each permanent)
    lifted = bool(lifters) and any(
        perm.card in lifters and perm.controller == player and not perm.phased_out and face(state, perm).no_maximum_hand_size
        for perm in state.battlefield
    ) or any(e.kind == EffectKind.NO_MAX_HAND_SIZE and e.player == player for e in state.effects)
    return maximum_hand_size(lifted)


def maximum_hand_size(lifted: bool) -> int | None:
    """402.2: seven, or no maximum (None) while an effect lifts it (the read models ask this too)."""
    return None if lifted else DEFAULT_MAX_HAND_SIZE


def cards_over_maximum(hand_size: int, maximum: int | None) -> int:
    """514.1: how many cards a hand of ``hand_size`` discards down to ``maximum``."""
    return 0 if maximum is None else max(0, hand_size - maximum)


def cards_to_discard(state: GameState, player: str) -> int:
    """514.1: how many cards the player must discard in cleanup."""
    if state.players[player].lost:
        return 0
    return cards_over_maximum(len(state.players[player].hand), max_hand_size(state, player))


PERMANENT, TARGET = Phrase("rules.thing_permanent"), Phrase("rules.thing_target")  # what is looked for, by default


# ``watched``'s walks, remembered for each battlefield list walked: the catalog's never-checked names it
# was walked with, how many of its first permanents were walked, the last of those, and the watched ones
# among them. A battlefield list only grows at its end in place (a permanent leaving makes a new list:
# core.events.changes), and a permanent's card and whether it is a token never change, so the next walk
# of the same list starts where the last one ended. A list not walked yet, other names, or the same list
# changed otherwise (that last permanent moved) is walked whole. It changes how long the walk takes, never
# what it finds.
_WATCHED: Walks[tuple[frozenset[str], int, Permanent | None, list[Permanent]]] = Walks()


def watched(state: GameState) -> list[Permanent]:
    """The permanents on the battlefield, phased out or not, that a state-based action (704.5) or a
    declaration of attackers (508.1a: a creature) may look at, in order: every token, and every card
    with a face that is a creature, a planeswalker, a battle, a Saga, an Aura, an Equipment or legendary
    (``Catalog.never_checked`` names the others). Read-only: the list may be the one the next call
    returns."""
    battlefield, never = state.battlefield, state.cards.never_checked
    walk = _WATCHED.get(battlefield)
    if walk is not None and walk[0] is never and walked_on(battlefield, walk[1], walk[2]):
        done, found = walk[1], walk[3]
        if done == len(battlefield):
            return found
        found = found + [p for p in battlefield[done:] if p.card not in never or p.token]
    else:
        found = [p for p in battlefield if p.card not in never or p.token]
    _WATCHED.put(battlefield, (never, len(battlefield), battlefield[-1] if battlefield else None, found))
    return found


def on_battlefield(state: GameState) -> list[Permanent]:
    """Phased-out permanents are treated as though they don't exist (702.26b)."""
    return [p for p in state.battlefield if not p.phased_out]


def each_of(state: GameState, objects: Any) -> list[Permanent]:
    """The permanents with these object ids still on the battlefield, in that order."""
    return state.each(list(objects))


def find_permanent(state: GameState, ref: Ref, *, what: Phrase = PERMANENT) -> Permanent:
    """The permanent a reference names, or an error that says which one is missing."""
    perms = on_battlefield(state)
    if isinstance(ref, int):
        for p in perms:
            if p.object == ref:
                return p
        raise IllegalTarget("400.1", "rules.no_thing_with_object_id_ref", thing=what, ref=ref)
    state.cards.require_known(ref.card)  # an unknown name is its own error
    same = [p for p in perms if name(state, p) == ref.card or p.card == ref.card]
    if ref.index >= len(same):
        have = Phrase("rules.have_only_n", {"n": len(same)}) if same else Phrase("rules.have_none")
        raise IllegalTarget("400.1", "rules.no_thing_ref_on_battlefield_have_named", thing=what, ref=_label(ref), have=have, card=ref.card)
    return same[ref.index]


def resolve_target(state: GameState, target: Target, what: Phrase = TARGET) -> Any:
    """A player name as it is, or the object id of the permanent a card name or reference names."""
    from mtg_ledger.core.commands import CardRef

    if isinstance(target, str) and target in state.players:
        return target
    return find_permanent(state, CardRef(target) if isinstance(target, str) else target, what=what).object


def _label(ref: CardRef) -> Phrase:
    return Phrase("rules.card_ref", {"card": ref.card}) if ref.index == 0 else Phrase("rules.card_ref_index", {"card": ref.card, "index": ref.index})


def mana_sources(state: GameState, player: str) -> list[tuple[int, str, str]]:
    """Untapped permanents whose mana ability the player can activate now: (object, card, color); one that
    adds one of several colours (106.1, "Add {G} or {W}.") once for each, in the order its text names them.

    302.6: a creature's {T} ability needs it to have been under its controller's control since
    their most recent turn began. Lands come first, then creatures, each in battlefield order: the
    order in which the engine taps them when it pays on a player's behalf.
    """
    lands: list[tuple[int, str, str]] = []
    creatures: list[tuple[int, str, str]] = []
    for p in on_battlefield(state):
        definition = face(state, p)
        if p.controller != player or p.tapped or not definition.mana_abilities:
            continue
        each = [(p.object, p.card, color) for color in definition.mana_abilities[0].colors]
        if definition.is_type("Creature"):
            if not sick(state, p):
                creatures.extend(each)
        else:
            lands.extend(each)
    return lands + creatures


def require_in_hand(state: GameState, player: str, name: str, rule: str) -> None:
    """Raise unless ``name`` is a known card in the player's hand."""
    state.cards.card(name)
    if name not in state.players[player].hand:
        raise IllegalAction(rule, "rules.player_has_no_card_in_hand", player=player, card=name)
