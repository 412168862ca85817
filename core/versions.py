"""The versions a game's record is written under, imported by nothing heavier than this module (the
command line's ``--version`` reads them without loading the engine).

``SCHEMA_VERSION`` is the form of stored events and log files: 2, ``GameEnded.reason`` is a code
(``core.schema`` upcasts 1); 3, compact storage and log files; 4, log files in checked blocks; 5,
``GameStarted.cards``, the card definitions a game is played with, and receipts: the store keeps each
game's commitment secret and the service's keys beside the games, and a log file's header may keep the
secret (``receipts``).
``RULES_EDITION`` is the date of the Comprehensive Rules the engine plays by (recorded in ``GameStarted``).
"""

from __future__ import annotations

SCHEMA_VERSION = 5
RULES_EDITION = "2025-11-14"
