"""Narrow errors a judge could read aloud: every illegal action names its rule."""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules raise; ``rule`` is a Comprehensive Rules number."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} (rule {rule})")
        self.rule = rule
        self.message = message


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
