"""PostgreSQL set up as its users expect, through the real command line and the loopback server: the
password may be left out where the server asks for none; each setup mistake is one line naming the
setting to fix, exit 2; a server that is down is exit 3 naming the host and port tried; ``--db`` beside
PostgreSQL settings is refused rather than ignored; ``serve`` says all this before it serves.

The loopback server trusts every role, so the server that asks for a password is played by a stand-in
(``password_asking_server``) that speaks PostgreSQL's protocol up to its password exchange."""

from __future__ import annotations

import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from psycopg import sql

from mtg_ledger.replays.scenario import examples
from tests.conftest import _connect
from tests.service_server import new_game, server

pytestmark = pytest.mark.postgres
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "postgresql.md"
MISSING_SCHEMA = "mtg_ledger_no_such_schema"
SETUP = {"players": [{"name": "alice", "library": ["Forest"] * 5, "hand": []}, {"name": "bob", "library": ["Mountain"] * 5, "hand": []}]}


def mtg_ledger(*argv: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own, with exactly the store settings of ``env``."""
    child = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_", "PERSISTENCE_", "MTG_LEDGER_"))}
    child.update(env, MTG_LEDGER_LOG_LEVEL="warning")
    return subprocess.run([sys.executable, "-m", "mtg_ledger.replays.cli", *argv], env=child, capture_output=True, text=True, timeout=timeout)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The error a user sees: exactly one line on stderr, nothing on stdout, never a traceback."""
    assert done.stdout == "" and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mtg-ledger: "), done.stderr
    return lines[0]


def without(env: dict[str, str], *keys: str) -> dict[str, str]:
    return {k: v for k, v in env.items() if k not in keys}


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def scenario(tmp_path: Path) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(examples.text("contract_example"))
    return str(path)


# --- the password ----------------------------------------------------------------------------------


def test_a_trust_server_is_used_without_any_postgres_password(postgres_env: dict[str, str], scenario: str) -> None:
    env = without(postgres_env, "POSTGRES_PASSWORD")
    played = mtg_ledger("play", scenario, env=env)
    assert (played.returncode, played.stderr) == (0, "")
    listed = mtg_ledger("games", "--json", env=env)
    assert listed.returncode == 0
    assert [json.loads(line)["game"] for line in listed.stdout.splitlines()] == [played.stdout.strip()]


def test_serve_on_a_trust_server_without_any_postgres_password_creates_games(postgres_env: dict[str, str]) -> None:
    with server(without(postgres_env, "POSTGRES_PASSWORD")) as url:
        game, tokens = new_game(url, SETUP)
    assert set(tokens) == {"alice", "bob", "judge"}
    assert json.loads(mtg_ledger("games", "--json", env=postgres_env).stdout)["game"] == game


@contextmanager
def password_asking_server() -> Iterator[int]:
    """A stand-in for a server with password authentication, on a loopback port: it declines SSL and
    GSS encryption, asks every client for a clear-text password, and refuses whatever it is sent
    (SQLSTATE 28P01), as PostgreSQL does with a wrong one. Yields its port."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()

    def session(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            while True:
                length = struct.unpack("!i", conn.recv(4, socket.MSG_WAITALL))[0]
                code = struct.unpack("!i", conn.recv(length - 4, socket.MSG_WAITALL)[:4])[0]
                if code not in (80877103, 80877104):  # SSLRequest, GSSENCRequest: declined, then the startup packet
                    break
                conn.sendall(b"N")
            conn.sendall(b"R" + struct.pack("!ii", 8, 3))  # AuthenticationCleartextPassword
            if conn.recv(1) != b"p":  # a client without a password hangs up here
                return
            fields = b"SFATAL\0VFATAL\0C28P01\0" + b'Mpassword authentication failed for user "postgres"\0' + b"\0"
            conn.sendall(b"E" + struct.pack("!i", 4 + len(fields)) + fields)

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            try:
                session(conn)
            except (OSError, struct.error):
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()


def test_a_server_that_asks_for_a_password_when_none_was_given_names_postgres_password_exit_2(postgres_env: dict[str, str]) -> None:
    with password_asking_server() as port:
        done = mtg_ledger("games", env={**without(postgres_env, "POSTGRES_PASSWORD"), "POSTGRES_PORT": str(port)}, timeout=30)
    assert done.returncode == 2
    assert one_line(done) == f"mtg-ledger: the PostgreSQL server at 127.0.0.1:{port} asks 'postgres' for a password: set POSTGRES_PASSWORD"


def test_a_wrong_password_is_one_line_naming_postgres_password_exit_2(postgres_env: dict[str, str]) -> None:
    with password_asking_server() as port:
        done = mtg_ledger("games", env={**postgres_env, "POSTGRES_PORT": str(port), "POSTGRES_PASSWORD": "guess"}, timeout=30)
    assert done.returncode == 2
    assert "refused the password of 'postgres': check POSTGRES_PASSWORD" in one_line(done)


# --- setup mistakes: one line naming the setting, exit 2 -------------------------------------------


@pytest.mark.parametrize("setting", ["POSTGRES_DBNAME", "POSTGRES_HOST", "POSTGRES_USER"])
def test_a_required_setting_left_out_is_one_line_naming_it_exit_2(setting: str, postgres_env: dict[str, str]) -> None:
    done = mtg_ledger("games", env=without(postgres_env, setting))
    assert done.returncode == 2
    assert one_line(done).startswith(f"mtg-ledger: {setting} is not set: PostgreSQL needs")


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("POSTGRES_PORT", "fivefourthreetwo", "POSTGRES_PORT=fivefourthreetwo: a port is a number from 1 to 65535"),
        ("POSTGRES_DBNAME", "mtg_ledger_no_such_db", "has no database 'mtg_ledger_no_such_db': check POSTGRES_DBNAME"),
        ("POSTGRES_USER", "mtg_ledger_no_such_role", "has no role 'mtg_ledger_no_such_role': check POSTGRES_USER"),
        ("POSTGRES_HOST", "no-such-host.invalid", "POSTGRES_HOST=no-such-host.invalid: no such host"),
        ("POSTGRES_POOL_SIZE", "many", "'POSTGRES_POOL_SIZE' is invalid"),
        ("PERSISTENCE_MODULE", "eventsourcing.postgress", "PERSISTENCE_MODULE=eventsourcing.postgress: no such store module"),
        ("MTG_LEDGER_PG_LAYOUT", "rows", "MTG_LEDGER_PG_LAYOUT='rows': expected one of saves, events"),
    ],
)
def test_a_wrong_setting_is_one_line_naming_it_exit_2(setting: str, value: str, said: str, postgres_env: dict[str, str]) -> None:
    done = mtg_ledger("games", env={**postgres_env, setting: value})
    assert done.returncode == 2
    assert said in one_line(done)


def test_a_reading_verb_on_a_schema_that_does_not_exist_says_how_to_create_it_exit_2(postgres_env: dict[str, str]) -> None:
    done = mtg_ledger("games", env={**postgres_env, "POSTGRES_SCHEMA": MISSING_SCHEMA})
    assert done.returncode == 2
    assert one_line(done) == (
        f"mtg-ledger: POSTGRES_SCHEMA={MISSING_SCHEMA}: no such schema in database 'test'; create it (`CREATE SCHEMA {MISSING_SCHEMA}`), "
        "or store a game first (`mtg-ledger play`, `demo` or `import` create it)"
    )
    with _connect() as conn:
        found = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (MISSING_SCHEMA,)).fetchone()
    assert found is None, "a reading verb created the schema"


def test_the_schema_a_reading_verb_names_can_be_created_as_it_says_with_a_capital_letter_quoted(postgres_env: dict[str, str]) -> None:
    schema = "MTG_Ledger_Missing"
    said = one_line(mtg_ledger("games", env={**postgres_env, "POSTGRES_SCHEMA": schema}))
    statement = said.split("`")[1]
    assert statement == f'CREATE SCHEMA "{schema}"'
    with _connect() as conn:
        conn.execute(statement)  # type: ignore[arg-type]  # the user's own statement, as they would paste it
    try:
        done = mtg_ledger("games", env={**postgres_env, "POSTGRES_SCHEMA": schema})
        assert (done.returncode, done.stderr) == (2, f"mtg-ledger: no mtg-ledger store in PostgreSQL database 'test', schema '{schema}': it has no event table\n")
    finally:
        with _connect() as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def role_without_privileges() -> Iterator[str]:
    """A role that may log in and nothing more (no CREATE on the database, no USAGE on any schema of ours)."""
    role = f"mtg_ledger_plain_{os.getpid()}"
    with _connect() as conn:
        conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
    try:
        yield role
    finally:
        with _connect() as conn:
            conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


def test_a_role_without_the_privileges_the_store_needs_is_one_line_naming_postgres_user_exit_2(
    postgres_env: dict[str, str], scenario: str, role_without_privileges: str
) -> None:
    assert mtg_ledger("play", scenario, env=postgres_env).returncode == 0
    env = {**postgres_env, "POSTGRES_USER": role_without_privileges}
    for argv in (["play", scenario], ["games"]):
        done = mtg_ledger(*argv, env=env)
        assert done.returncode == 2, argv
        line = one_line(done)
        assert "permission denied" in line and f"(POSTGRES_USER={role_without_privileges}): grant the role" in line


def test_a_role_given_a_schema_of_its_own_writes_there_without_create_on_the_database(
    scenario: str, role_without_privileges: str
) -> None:
    schema = f"{role_without_privileges}_games"
    with _connect() as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {} AUTHORIZATION {}").format(sql.Identifier(schema), sql.Identifier(role_without_privileges)))
    try:
        env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "test", "POSTGRES_HOST": "127.0.0.1",
               "POSTGRES_USER": role_without_privileges, "POSTGRES_SCHEMA": schema}  # fmt: skip
        played = mtg_ledger("play", scenario, env=env)
        assert played.returncode == 0, played.stderr
        listed = mtg_ledger("games", env=env)
        assert listed.returncode == 0 and played.stdout.strip() in listed.stdout, listed.stderr
    finally:
        with _connect() as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def test_db_beside_postgresql_settings_is_refused_naming_both_exit_2(postgres_env: dict[str, str], scenario: str, tmp_path: Path) -> None:
    assert mtg_ledger("play", scenario, env=postgres_env).returncode == 0
    done = mtg_ledger("games", "--db", str(tmp_path / "demo.sqlite"), env=postgres_env)
    assert done.returncode == 2
    line = one_line(done)
    assert f"--db {tmp_path / 'demo.sqlite'}" in line and "PERSISTENCE_MODULE=eventsourcing.postgres" in line
    assert list(tmp_path.glob("*.sqlite")) == []


# --- a server that is down: exit 3, naming where it was looked for ---------------------------------


def test_a_server_that_is_down_is_exit_3_naming_the_host_and_port_it_tried(postgres_env: dict[str, str]) -> None:
    port = free_port()
    done = mtg_ledger("games", env={**postgres_env, "POSTGRES_PORT": str(port)}, timeout=30)
    assert done.returncode == 3
    assert one_line(done).startswith(f"mtg-ledger: cannot reach the PostgreSQL server at 127.0.0.1:{port} (POSTGRES_HOST, POSTGRES_PORT): ")


# --- serve says it all before it serves ------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "extra", "said"),
    [
        ({"POSTGRES_PORT": "x"}, [], "POSTGRES_PORT=x: a port is a number"),
        ({"POSTGRES_USER": None}, [], "POSTGRES_USER is not set"),
        ({"PERSISTENCE_MODULE": "eventsourcing.postgress"}, [], "PERSISTENCE_MODULE=eventsourcing.postgress: no such store module"),
        ({}, ["--db", "games.sqlite"], "--db games.sqlite names an SQLite file, but PERSISTENCE_MODULE=eventsourcing.postgres"),
        ({"POSTGRES_DBNAME": "mtg_ledger_no_such_db"}, ["--workers", "2"], "check POSTGRES_DBNAME"),
    ],
)
def test_serve_reports_a_setup_mistake_in_one_line_exit_2_before_it_serves(
    change: dict[str, str | None], extra: list[str], said: str, postgres_env: dict[str, str]
) -> None:
    env = {k: v for k, v in {**postgres_env, **change}.items() if v is not None}
    done = mtg_ledger("serve", "--port", "0", *extra, env=env, timeout=60)
    assert done.returncode == 2
    assert said in one_line(done)


def test_serve_with_the_server_down_is_exit_3_naming_the_host_and_port_before_it_serves(postgres_env: dict[str, str]) -> None:
    port = free_port()
    done = mtg_ledger("serve", "--port", "0", env={**postgres_env, "POSTGRES_PORT": str(port)}, timeout=30)
    assert done.returncode == 3
    assert f"cannot reach the PostgreSQL server at 127.0.0.1:{port}" in one_line(done)


def test_the_shell_examples_of_the_postgresql_guide_run_as_written_from_an_empty_server(tmp_path: Path) -> None:
    """Every ``sh`` block after the installation's, in order, with the guide's role, database and schema
    (``mtgl``...) under names of this test's own, and the service on a free port."""
    name, port = f"mtgl{os.getpid()}", free_port()
    blocks = re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), re.S)
    assert blocks[0].strip() == "pip install '.[postgres]'"
    script = "\n".join(blocks[1:]).replace("mtgl", name).replace("8000", str(port))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "SQLITE_", "PERSISTENCE_", "MTG_LEDGER_"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    try:
        done = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
    finally:
        with _connect() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(f"{name}_games")))
            conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))
    assert done.returncode == 0, done.stderr
    assert '{"ok":true,"store":"SavesRecorder","streams":"listen"}' in done.stdout
    assert "clean: 161 events" in done.stdout and done.stdout.endswith("exit status 2\n")
    assert f"has no database '{name}_gmaes': check POSTGRES_DBNAME" in done.stderr
