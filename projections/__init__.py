"""Read models of the ledger, derived from the stored events.

``views`` is the pure fold; ``recorders`` holds the tables (in memory, SQLite, PostgreSQL) as
tracking recorders of the ``eventsourcing`` library; ``runner`` catches them up on demand.
"""
