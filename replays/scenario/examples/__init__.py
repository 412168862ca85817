"""The example scenario files (docs/reference/scenario-files.md) that ship with the package.

The README's examples and the test suite play these; ``mtg-ledger example`` lists them and
``mtg-ledger example NAME [-o FILE]`` prints or writes one. A name is the file's stem
(``contract_example`` for ``contract_example.json``).
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

SUFFIX = ".json"

# What each example shows, in one line (a scenario file has no key for it: its schema forbids unknown keys).
DESCRIPTIONS: dict[str, str] = {
    "archenemy": "an archenemy game: schemes set in motion, the team's turn and combat",
    "archenemy_day_night_team_spells": "day and night in archenemy: spells cast by the team and by the archenemy turn it",
    "archenemy_skip_team_combat": "Moment of Silence skips the team's shared combat phase",
    "archenemy_team_blocks": "the team blocks the archenemy's attackers together",
    "archenemy_teammate_summoning_sickness": "summoning sickness on the team's shared turn: a teammate's creatures cast, pumped and attacking",
    "combat_double_strike_kindled_fury": "double strike: two combat damage steps, pumped by Kindled Fury",
    "combat_first_strike": "a first striker kills its blocker before regular damage",
    "combat_free_for_all": "attacking two opponents at once in a free-for-all",
    "combat_ghostly_prison": "an attack tax: Ghostly Prison's cost paid while declaring attackers",
    "combat_single_defender": "the active player chooses the one defending player",
    "combat_trample": "a trampler assigns lethal damage to its blocker and the rest to the player",
    "contract_example": "the first example: three turns, a Forest and Grizzly Bears, an attack answered by Lightning Bolt",
    "turn_cleanup_megrim": "discarding to hand size in cleanup, with Megrim's trigger",
    "turn_colossus": "Colossus of Sardia does not untap, and pays to untap in upkeep",
    "turn_day_night": "day becomes night and night day as spells are cast, or not",
    "turn_moment_of_silence": "Moment of Silence skips the target player's next combat phase",
    "turn_phasing_teferis_imp": "phasing in the untap step, with Teferi's Imp's triggers ordered",
    "turn_phyrexian_arena": "an upkeep trigger: Phyrexian Arena draws a card and costs a life",
    "turn_relentless_assault": "an extra combat and main phase from Relentless Assault",
    "turn_saga": "a Saga's chapters: lore counters in the precombat main phase",
}


class UnknownExample(LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(f"no example scenario {name!r}; `mtg-ledger example` lists them: {', '.join(names())}")


def _files() -> Traversable:
    return resources.files(__name__)


def names() -> list[str]:
    """Every example's name, sorted."""
    return sorted(f.name[: -len(SUFFIX)] for f in _files().iterdir() if f.name.endswith(SUFFIX))


def description(name: str) -> str:
    """What the example ``name`` shows, in one line ("" for one not described yet)."""
    return DESCRIPTIONS.get(name, "")


def _file(name: str) -> Traversable:
    stem = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name
    found = _files() / f"{stem}{SUFFIX}"
    if "/" in stem or not found.is_file():
        raise UnknownExample(name)
    return found


def text(name: str) -> str:
    """The scenario file ``name`` (with or without ``.json``), as shipped."""
    return _file(name).read_text(encoding="utf-8")


def path(name: str) -> Path:
    """Where the scenario file ``name`` lies on disk (the package is installed as files, never zipped)."""
    return Path(str(_file(name)))


def directory() -> Path:
    """The folder holding every example scenario file."""
    return Path(str(_files()))
