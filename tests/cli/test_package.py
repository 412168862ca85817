"""What `pip install mtg-ledger` gives a user: the three packages typed, the example scenarios the
README plays, and the metadata a package index shows."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from importlib import resources
from pathlib import Path

from mtg_ledger.replays.scenario import examples
from mtg_ledger.replays.scenario import load

ROOT = Path(__file__).parents[2]


def test_the_example_scenarios_are_package_data_and_each_is_a_valid_scenario() -> None:
    shipped = sorted(f.name for f in resources.files("mtg_ledger.replays.scenario.examples").iterdir() if f.name.endswith(".json"))
    assert [f"{name}.json" for name in examples.names()] == shipped
    assert {"contract_example", "combat_first_strike", "archenemy"} <= set(examples.names())
    for name in examples.names():
        assert load(examples.path(name)).actions, name


def test_the_wheel_ships_the_three_packages_typed_with_the_examples_licence_and_metadata(tmp_path: Path) -> None:
    source = tmp_path / "src"
    for folder in ("core", "projections", "replays"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(tmp_path / "dist"), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("mtg_ledger-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = Parser().parsestr(archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode())
    for package in ("core", "projections", "replays"):
        assert f"mtg_ledger/{package}/__init__.py" in names
        assert f"mtg_ledger/{package}/py.typed" in names
    assert {f"mtg_ledger/replays/scenario/examples/{name}.json" for name in examples.names()} <= names
    assert {f"mtg_ledger/replays/viewer/{name}" for name in ("index.html", "viewer.js", "viewer.css")} <= names
    assert not any(n.startswith(("core/", "replays/", "tests/")) for n in names)  # nothing outside the namespace
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Description-Content-Type"] == "text/markdown" and "make demo" in metadata.get_payload()
    assert "Typing :: Typed" in metadata.get_all("Classifier")
    assert metadata.get_all("Project-URL")
