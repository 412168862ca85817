"""Replays: storing, reloading and re-running recorded games (uses ``core`` and ``projections``)."""
