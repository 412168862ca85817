"""Narrow errors a judge could read aloud: every illegal action names its rule.

An error carries a message id (``code``) and its ``params``: the sentence is data, rendered in
English here (``message``, and ``str(error)`` with its rule) from ``ENGLISH``, the rules' own
templates. They live in core as a mapping, not in a file, so that core reads nothing from disk; the
audit's catalogues (replays/audit/messages/) add the log checks' English and give the French of every
id, rendered by the same ``render``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Message id -> English template; "{name}" holes are the params, a param may itself be a ``Phrase``.
ENGLISH: dict[str, str] = {
}


@dataclass(frozen=True)
class Phrase:
    """A part of a sentence that is itself a message: its id and params (a step, a reason, ...)."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)


def render(templates: Mapping[str, str], code: str, params: Mapping[str, Any]) -> str:
    """The template of ``code`` with its holes filled, each ``Phrase`` rendered from the same templates."""
    values = {k: render(templates, v.id, v.params) if isinstance(v, Phrase) else v for k, v in params.items()}
    return templates[code].format_map(values)


class RulesError(ValueError):
    """Base of every error the rules raise; ``rule`` is a Comprehensive Rules number, ``code`` the
    message id in ``ENGLISH`` and ``params`` its holes."""

    def __init__(self, rule: str, code: str, /, **params: Any) -> None:
        if code in ENGLISH:
            self.code: str | None = code
            self.params: dict[str, Any] = params
            self.message = render(ENGLISH, code, params)
        else:  # OLD PATH, until every raise site passes an id: ``code`` is the English sentence itself
            self.code, self.params, self.message = None, {}, code
        super().__init__(f"{self.message} (rule {rule})")
        self.rule = rule


class IllegalAction(RulesError):
    """A player decision the rules forbid (733: the game returns to the moment before it)."""


class NotYourPriority(IllegalAction):
    """117.1: a player may act only while holding priority."""


class WrongTiming(IllegalAction):
    """307.1 / 505.6a / 117.1a: the action is not allowed at this time."""


class CannotPay(IllegalAction):
    """601.2h: the costs of a spell or ability cannot be paid."""


class IllegalTarget(IllegalAction):
    """601.2c / 115: a chosen target is not legal."""


class UnknownCard(IllegalAction):
    """A card name that no definition or zone holds."""


class GameOver(IllegalAction):
    """104: no decision can be taken once the game has ended."""
