"""What goes wrong before a store is in use: a setting to fix (a user error), or a store that cannot be
opened or answers with an error (a store failure)."""

from __future__ import annotations


class StoreSetupError(ValueError):
    """A setting that chooses or reaches the store is missing or wrong (``--db``, ``PERSISTENCE_MODULE``,
    ``POSTGRES_*``): one line naming the setting to fix, a user error (exit status 2)."""


class StoreFailure(RuntimeError):
    """The store could not be opened or answered with an error (exit 3)."""
