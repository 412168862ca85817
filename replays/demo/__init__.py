"""The demo: its built-in decks and the deterministic player that plays them (``mtg-ledger demo``).

Not part of the rules: ``core`` never imports it. Its player decides through the same checks as anyone's.
"""
