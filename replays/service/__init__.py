"""The HTTP service (CONTRACT section 6): ``mtg-ledger serve``."""

from mtg_ledger.replays.service.app import create_app

__all__ = ["create_app"]
