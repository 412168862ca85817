"""The command line's store, opened on first use (docs/reference/cli.md).

A verb that only reads opens it without creating anything: no SQLite file where there is none, and
none of the library's CREATE TABLE or CREATE FUNCTION statements (``CREATE_TABLE=false``), on
SQLite as on PostgreSQL. A verb that needs no store (``audit FILE``, ``example``) never opens one.

The settings are checked before the store is opened, each mistake reported as one line naming the
setting to fix (``StoreSetupError``, exit 2): ``--db`` beside a ``PERSISTENCE_MODULE`` that chooses
another store, a module that does not exist, and on PostgreSQL what one connection made beforehand
finds out (``check_postgres``). A PostgreSQL server that cannot be reached stays a store failure (exit 3).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Final

from eventsourcing.persistence import InfrastructureFactoryError, PersistenceError
from eventsourcing.utils import Environment, TopicError, resolve_topic

from mtg_ledger.replays.ledger.application import Ledger
from mtg_ledger.replays.stores.errors import StoreFailure, StoreSetupError

DEFAULT_DB = "mtg-ledger.sqlite"
SQLITE_MODULES = ("eventsourcing.sqlite", "sqlite", "mtg_ledger.replays.stores.sqlite")
POSTGRES_MODULES = ("eventsourcing.postgres", "mtg_ledger.replays.stores.postgres")
REQUIRED: Final = {"POSTGRES_DBNAME": "the database's name", "POSTGRES_HOST": "the server's host", "POSTGRES_USER": "the role to connect as"}
CONNECT_TIMEOUT_S = 10  # the check's connection, unless POSTGRES_CONNECT_TIMEOUT says otherwise
DOCS = "see docs/postgresql.md"


class NoStore(LookupError):
    """A reading verb found no store where it was told to look (a user error, exit 2)."""


def chosen_module() -> str:
    """``PERSISTENCE_MODULE``, SQLite when it is unset or empty."""
    return os.environ.get("PERSISTENCE_MODULE") or "eventsourcing.sqlite"


def store_env(db: str | None) -> dict[str, str]:
    """The library's environment for the chosen store: the variables win unless they ask for SQLite.

    ``--db`` names an SQLite file: beside a ``PERSISTENCE_MODULE`` that chooses another store it would
    be ignored, so the two together are a mistake. On PostgreSQL the password may be left out."""
    module = chosen_module()
    if module in SQLITE_MODULES:
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": db or os.environ.get("SQLITE_DBNAME") or DEFAULT_DB,
        }
    if db is not None:
        raise StoreSetupError(
            f"--db {db} names an SQLite file, but PERSISTENCE_MODULE={module} chooses another store: "
            "give one of them (unset PERSISTENCE_MODULE to use the file, or drop --db)"
        )
    if module in POSTGRES_MODULES:  # the library insists on a password; a trust or peer server asks for none
        settings = Environment(Ledger.name, dict(os.environ))
        asked = settings.get("POSTGRES_PASSWORD") is not None or settings.get("POSTGRES_GET_PASSWORD_TOPIC")
        return {} if asked else {"POSTGRES_PASSWORD": ""}
    try:
        resolve_topic(module)
    except TopicError:
        raise StoreSetupError(
            f"PERSISTENCE_MODULE={module}: no such store module; use eventsourcing.postgres for PostgreSQL, "
            "or leave it unset for SQLite"
        ) from None
    return {}


def check_postgres(env: dict[str, str], *, reading: bool) -> None:
    """The PostgreSQL settings, checked by connecting once as the store will: a setting that is missing
    or wrong is a ``StoreSetupError`` naming it; a server that cannot be reached a ``StoreFailure``
    naming the host and port tried. A reader also needs the schema to exist (a writer creates it)."""
    import psycopg  # an optional extra, as the PostgreSQL store itself

    settings = Environment(Ledger.name, {**os.environ, **env})
    for key, what in REQUIRED.items():
        if not settings.get(key):
            raise StoreSetupError(f"{key} is not set: PostgreSQL needs {what} ({DOCS})")
    host, port, user, dbname = (settings.get(k) or "" for k in ("POSTGRES_HOST", "POSTGRES_PORT", "POSTGRES_USER", "POSTGRES_DBNAME"))
    port = port or "5432"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise StoreSetupError(f"POSTGRES_PORT={port}: a port is a number from 1 to 65535 (PostgreSQL's default: 5432)")
    timeout = settings.get("POSTGRES_CONNECT_TIMEOUT") or str(CONNECT_TIMEOUT_S)
    if not timeout.isdigit():
        raise StoreSetupError(f"POSTGRES_CONNECT_TIMEOUT={timeout}: expected a whole number of seconds")
    target: dict[str, Any] = {"host": host, "port": int(port), "user": user, "dbname": dbname}
    try:
        conn = psycopg.connect(**target, password=_password(settings), connect_timeout=int(timeout), autocommit=True)
    except psycopg.OperationalError as e:
        raise _diagnosis(str(e), target) from None
    with conn:
        schema = (settings.get("POSTGRES_SCHEMA") or "").strip() or "public"
        if reading and conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone() is None:
            raise StoreSetupError(
                f"POSTGRES_SCHEMA={schema}: no such schema in database {dbname!r}; create it (`CREATE SCHEMA {_identifier(schema)}`), "
                "or store a game first (`mtg-ledger play`, `demo` or `import` create it)"
            )


def _password(settings: Environment) -> str:
    topic = settings.get("POSTGRES_GET_PASSWORD_TOPIC")
    if not topic:
        return settings.get("POSTGRES_PASSWORD") or ""
    try:
        get: Any = resolve_topic(topic)
    except TopicError:
        raise StoreSetupError(f"POSTGRES_GET_PASSWORD_TOPIC={topic}: no such function (module:function)") from None
    return str(get())


def _diagnosis(text: str, target: dict[str, Any]) -> Exception:
    """What a failed connection says, as the setting to fix (exit 2), or as a server out of reach (exit 3)."""
    at = f"the PostgreSQL server at {target['host']}:{target['port']}"
    user, dbname, said = target["user"], target["dbname"], text.lower()
    if "no password supplied" in said:
        return StoreSetupError(f"{at} asks {user!r} for a password: set POSTGRES_PASSWORD")
    if "password authentication failed" in said:
        return StoreSetupError(f"{at} refused the password of {user!r}: check POSTGRES_PASSWORD (and POSTGRES_USER)")
    if f'database "{dbname.lower()}" does not exist' in said:
        return StoreSetupError(f"{at} has no database {dbname!r}: check POSTGRES_DBNAME, or create it (`createdb {dbname}`; {DOCS})")
    if f'role "{user.lower()}" does not exist' in said:
        return StoreSetupError(f"{at} has no role {user!r}: check POSTGRES_USER, or create it (`createuser {user}`; {DOCS})")
    if "pg_hba.conf" in said:
        return StoreSetupError(f"{at} does not let {user!r} into database {dbname!r} from here (its pg_hba.conf): check POSTGRES_USER and POSTGRES_DBNAME")
    if "resolve host" in said or "translate host name" in said:
        return StoreSetupError(f"POSTGRES_HOST={target['host']}: no such host")
    reason = re.sub(r"^.*?port \d+ failed:\s*", "", text.strip())
    return StoreFailure(f"cannot reach {at} (POSTGRES_HOST, POSTGRES_PORT): {reason}")


def _identifier(name: str) -> str:
    """``name`` as SQL writes it: quoted unless it is a plain lower-case identifier."""
    return name if re.fullmatch(r"[a-z_][a-z0-9_$]*", name) else '"' + name.replace('"', '""') + '"'


def _not_allowed(error: Exception) -> bool:
    return "permission denied" in str(error)


def _privileges(error: Exception) -> StoreSetupError:
    """The role of POSTGRES_USER lacks a privilege the store needs (a setup mistake, not a failure)."""
    user = Environment(Ledger.name, dict(os.environ)).get("POSTGRES_USER")
    return StoreSetupError(f"{error} (POSTGRES_USER={user}): grant the role what the store needs, or connect as another ({DOCS}, Privileges)")


def _in_memory(name: str) -> bool:
    return ":memory:" in name or "mode=memory" in name


def _no_table(error: Exception) -> bool:
    text = str(error)
    return "no such table" in text or "does not exist" in text


class Store:
    """Opens the ``Ledger`` the first time ``ledger`` is asked for; ``reading`` opens it read-only in spirit."""

    def __init__(self, db: str | None, *, reading: bool) -> None:
        self.db = db
        self.reading = reading
        self._ledger: Ledger | None = None

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            self._ledger = self._open()
        return self._ledger

    def where(self, ledger: Ledger | None = None) -> str:
        env = store_env(self.db)
        if "SQLITE_DBNAME" in env:
            return env["SQLITE_DBNAME"]
        get = ledger.env.get if ledger is not None else os.environ.get
        return f"PostgreSQL database {get('POSTGRES_DBNAME')!r}, schema {get('POSTGRES_SCHEMA') or 'public'!r}"

    def _open(self) -> Ledger:
        env = store_env(self.db)
        postgres = chosen_module() in POSTGRES_MODULES
        if postgres:
            check_postgres(env, reading=self.reading)
        if self.reading:
            name = env.get("SQLITE_DBNAME")
            if name is not None and not _in_memory(name) and not Path(name).exists():
                raise NoStore(f"no store at {name} (reading verbs never create one; `play`, `demo` and `import` write one)")
            env["CREATE_TABLE"] = env[f"{Ledger.name.upper()}_CREATE_TABLE"] = "false"
        try:
            ledger = Ledger(env=env, writes=not self.reading)
        except OSError as e:
            if postgres:  # the library's own check of a setting (POSTGRES_POOL_SIZE=many, say): its message names it
                raise StoreSetupError(f"{e} ({DOCS})") from None
            raise StoreFailure(f"cannot open the store ({self.where()}): {e}") from e
        except (PersistenceError, InfrastructureFactoryError) as e:
            if postgres and _not_allowed(e):
                raise _privileges(e) from None
            raise StoreFailure(f"cannot open the store ({self.where()}): {e}") from e
        if self.reading:
            try:
                ledger.recorder.max_notification_id()
            except PersistenceError as e:
                ledger.close()
                if _no_table(e):
                    raise NoStore(f"no mtg-ledger store in {self.where(ledger)}: it has no event table") from None
                if postgres and _not_allowed(e):
                    raise _privileges(e) from None
                raise
        return ledger

    def check(self) -> None:
        """Open the store once and close it: its settings checked (and, for a writer, its tables created)."""
        self.close()
        self._open().close()

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()
            self._ledger = None
