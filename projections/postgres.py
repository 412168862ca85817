"""The ledger views in PostgreSQL (an optional extra: needs psycopg).

The same tables and statements as ``projections.recorders``, rendered for psycopg, in the
datastore's schema; the tracking table is made by the library's PostgresTrackingRecorder.
"""

from __future__ import annotations

import re
from typing import Any

from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from psycopg.sql import SQL, Composed, Identifier

from mtg_ledger.projections.recorders import (
    CREATE_TABLES,
    STATEMENTS,
    TABLES,
    TRACKING_TABLE,
    SQLViews,
    compile_statements,
)


class PostgresLedgerViews(SQLViews, PostgresTrackingRecorder):
    """The views in the application's PostgreSQL database, in the datastore's schema."""

    def __init__(
        self, datastore: PostgresDatastore, *, tracking_table_name: str = TRACKING_TABLE, **kwargs: Any
    ) -> None:
        super().__init__(datastore, tracking_table_name=tracking_table_name, **kwargs)
        names = {**TABLES, "tracking": tracking_table_name}
        for name in names.values():
            self.check_identifier_length(name)
        identifiers = {key: Identifier(datastore.schema, name) for key, name in names.items()}

        def render(template: str) -> Composed:
            return SQL(re.sub(r":(\w+)", r"%(\1)s", template)).format(**identifiers)

        self._sql = compile_statements(STATEMENTS, render)
        self.sql_create_statements.extend(render(t) for t in CREATE_TABLES)
