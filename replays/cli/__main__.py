"""``python -m mtg_ledger.replays.cli``: the command line, as the ``mtg-ledger`` script runs it."""

from mtg_ledger.replays.cli import run

run()
