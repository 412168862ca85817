"""Read models of the ledger, derived from the stored events.

``views`` are the read models and their rows, ``folds`` the pure fold of the events into them; ``recorders`` holds the tables (in memory, SQLite, PostgreSQL) as
tracking recorders of the ``eventsourcing`` library; ``runner`` catches them up on demand.
"""
