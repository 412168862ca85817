"""A PostgreSQL cluster made for one test module: ``initdb`` under a temporary folder, started on a
free loopback port with trust authentication, stopped and removed afterwards. Its transaction counter
starts where a new server's does (near 700), whatever the machine's own server has done before."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

SERVER_USER = "postgres"  # initdb and the server refuse to run as root: they run as this system user


def _bin(name: str) -> str:
    """The server's own programs (Debian keeps initdb and pg_ctl under /usr/lib/postgresql/N/bin)."""
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    found = str(versions[-1]) if versions else shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} not found: install PostgreSQL's server package (Debian: postgresql)")
    return found


def _as_server_user(args: list[str]) -> list[str]:
    return ["runuser", "-u", SERVER_USER, "--", *args] if os.geteuid() == 0 else args


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def fresh_cluster(database: str = "restored") -> Iterator[dict[str, str]]:
    """The library's settings for a database ``database`` on a cluster created now."""
    top = Path(tempfile.mkdtemp(prefix="mtgl-cluster-"))
    data, port = top / "data", _free_port()
    if os.geteuid() == 0:
        shutil.chown(top, SERVER_USER)
    run = {"check": True, "capture_output": True, "timeout": 120}
    try:
        subprocess.run(_as_server_user([_bin("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]), **run)  # type: ignore[call-overload]
        options = f"-p {port} -k {top} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(_as_server_user([_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(top / "log"), "-w", "start"]), **run)  # type: ignore[call-overload]
        try:
            with psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="postgres", autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{database}"')
            yield {"POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": str(port), "POSTGRES_USER": "postgres", "POSTGRES_PASSWORD": "", "POSTGRES_DBNAME": database}
        finally:
            subprocess.run(_as_server_user([_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]), capture_output=True, timeout=60)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def next_xid(settings: dict[str, str]) -> int:
    """The cluster's next transaction id."""
    with psycopg.connect(host=settings["POSTGRES_HOST"], port=int(settings["POSTGRES_PORT"]), user=settings["POSTGRES_USER"],
                         dbname=settings["POSTGRES_DBNAME"], autocommit=True) as conn:  # fmt: skip
        row = conn.execute("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint").fetchone()
    assert row is not None
    return int(row[0])
