"""The HTTP service (docs/reference/http.md): ``mtg-ledger serve``."""

from mtg_ledger.replays.service.app import create_app

__all__ = ["create_app"]
