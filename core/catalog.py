"""The cards a game is played with: its definitions, by name, compiled once (``core.vocabulary``).

A game's definitions are recorded in its ``GameStarted`` (``cards``) and kept in its state
(``GameState.cards``): every rule reads a card there, never a pool that may have changed since the
game was played. A ``Catalog`` holds the definitions as plain data and their ``CardDef``s: the cards,
the tokens (``"token": true``, 111) and the back faces of double-faced cards (712), each by name.
Catalogs are memoised by their content, so a game rebuilt again and again compiles its cards once, and
only when a rule first reads one.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from mtg_ledger.core.errors import UnknownCard

if TYPE_CHECKING:
    from mtg_ledger.core.carddef import CardDef

_MEMO_LIMIT = 256


class Catalog:
    """Definitions by name (plain data, as recorded) and what they compile to, compiled when first asked
    for (reading a game's state needs none of it)."""

    def __init__(self, definitions: Mapping[str, Any]) -> None:
        self.definitions: dict[str, Any] = dict(definitions)

    def __eq__(self, other: object) -> bool:
        """Catalogs of the same definitions are equal: a state read back from its canonical form equals the
        one written, whether or not the memo still holds that catalog (it is emptied past its limit)."""
        if not isinstance(other, Catalog):
            return NotImplemented
        return self is other or self.definitions == other.definitions

    def __hash__(self) -> int:
        return hash(frozenset(self.definitions))

    @cached_property
    def _compiled(self) -> dict[str, CardDef]:
        from mtg_ledger.core.vocabulary import compile_card  # the compiler, when a card is first read

        return {name: compile_card(data) for name, data in self.definitions.items()}

    @cached_property
    def cards(self) -> dict[str, CardDef]:
        return {n: c for n, c in self._compiled.items() if not self.definitions[n].get("token")}

    @cached_property
    def tokens(self) -> dict[str, CardDef]:
        return {n: c for n, c in self._compiled.items() if self.definitions[n].get("token")}

    @cached_property
    def back_faces(self) -> dict[str, CardDef]:
        """Back face name -> the card (712)."""
        return {c.back.name: c for c in self.cards.values() if c.back is not None}

    @cached_property
    def triggering(self) -> frozenset[str]:
        """The names whose permanents have triggered abilities (603; those keywords bring too, as prowess
        and ward): the others never trigger anything."""
        return self._with(lambda f: bool(f.triggered))

    @cached_property
    def without_statics(self) -> frozenset[str]:
        """The cards without static abilities on either face (604): skipped without a look."""
        return frozenset(n for n, c in self.cards.items() if not c.statics and (c.back is None or not c.back.statics))

    @cached_property
    def daybound(self) -> frozenset[str]:
        """726.2: the daybound cards."""
        return frozenset(n for n, c in self.cards.items() if c.daybound)

    @cached_property
    def phasing(self) -> frozenset[str]:
        """702.26a: the cards and tokens with phasing on a face: no other permanent phases out (502.1)."""
        return self._with(lambda f: "phasing" in f.keywords)

    @cached_property
    def hand_size_lifters(self) -> frozenset[str]:
        """402.2: the cards and tokens with a face whose controller has no maximum hand size."""
        return self._with(lambda f: f.no_maximum_hand_size)

    def _with(self, has: Callable[[CardDef], bool]) -> frozenset[str]:
        """The names of the cards (either face) and tokens that ``has`` holds for."""
        return frozenset(
            [n for n, c in self.cards.items() if has(c) or (c.back is not None and has(c.back))]
            + [n for n, t in self.tokens.items() if has(t)]
        )

    @cached_property
    def never_checked(self) -> frozenset[str]:
        """Never a creature, a Saga, a planeswalker, a battle, an Aura, an Equipment nor legendary, on either
        face: no state-based action looks at them (704)."""
        return frozenset(n for n, c in self.cards.items() if not any(f is not None and _checked(f) for f in (c, c.back)))

    @classmethod
    def of(cls, definitions: Mapping[str, Any]) -> Catalog:
        """The catalog of these definitions (the same one for the same content)."""
        key = json.dumps(definitions, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        found = _MEMO.get(key)
        if found is None:
            if len(_MEMO) >= _MEMO_LIMIT:
                _MEMO.clear()
            found = _MEMO[key] = cls(definitions)
        return found

    def card(self, name: str) -> CardDef:
        """The definition of a card by its English name, or UnknownCard (108.1)."""
        try:
            return self.cards[name]
        except KeyError:
            raise UnknownCard("108.1", "rules.unknown_card_card_no_such_card_in", card=name) from None

    def token(self, name: str) -> CardDef:
        return self.tokens[name]

    def named(self, name: str) -> CardDef:
        """A card face, token or scheme by its name (a back face by its own, 712)."""
        if name in self.tokens:
            return self.tokens[name]
        if name in self.back_faces:
            back = self.back_faces[name].back
            assert back is not None
            return back
        return self.card(name)

    def knows(self, name: str) -> bool:
        """Whether ``name`` names a card, a back face or a token of this catalog."""
        return name in self.cards or name in self.tokens or name in self.back_faces

    def require_known(self, name: str) -> None:
        """UnknownCard unless ``name`` names a card, a back face or a token of this catalog."""
        if not self.knows(name):
            self.card(name)

    def names(self) -> list[str]:
        """Every name this catalog answers to: cards, tokens and back faces."""
        return [*self.cards, *self.tokens, *self.back_faces]

    def pinned(self, names: Iterable[str]) -> dict[str, Any]:
        """The definitions a game of these cards uses: each card's, then those of the tokens they
        create, keyed by name in that order (UnknownCard for a name the catalog lacks)."""
        out: dict[str, Any] = {}
        for name in names:
            if name not in out:
                self.card(name)
                out[name] = self.definitions[name]
        from mtg_ledger.core.vocabulary import tokens_created

        for name in list(out):
            for token in tokens_created(self.cards[name]):
                if token in self.definitions and token not in out:
                    out[token] = self.definitions[token]
        return copy.deepcopy(out)  # the game's own: nothing it is given later can change the pool's


_MEMO: dict[str, Catalog] = {}


def _checked(face: CardDef) -> bool:
    """Whether a state-based action may look at a permanent with this face (704.5f-w)."""
    return bool(
        {"Creature", "Planeswalker", "Battle"} & set(face.types)
        or face.final_chapter
        or {"Aura", "Equipment"} & set(face.subtypes)
        or "Legendary" in face.supertypes
    )


def used_names(players: Iterable[Mapping[str, Any]]) -> list[str]:
    """The cards a game's players start with (``GameStarted.players``), each once, in seating order:
    library, hand, battlefield, then scheme deck."""
    out: dict[str, None] = {}
    for p in players:
        for name in [*p.get("library", []), *p.get("hand", []), *(b["card"] for b in p.get("battlefield", [])), *p.get("schemes", [])]:
            out[name] = None
    return list(out)
