"""Time travel for people: what one event changed, in a judge's words (``mtg-ledger step``)."""

from __future__ import annotations

from typing import Any


def changes(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """What an event changed, in a judge's words: life, hands, libraries, graveyards, permanents."""
    if before is None:
        return []
    out = []
    for name, p in after["players"].items():
        q = before["players"].get(name)
        if q is None:
            continue
        if p["life"] != q["life"]:
            out.append(f"{name}: life {q['life']} -> {p['life']}")
        for zone in ("hand", "graveyard"):
            if p[zone] != q[zone]:
                out.append(f"{name}: {zone} {len(q[zone])} -> {len(p[zone])} cards")
        if p["library"] != q["library"]:
            out.append(f"{name}: library {q['library']} -> {p['library']}")
        if p["lost"] and not q["lost"]:
            out.append(f"{name} has lost")
    old = {b["object"]: b for b in before["battlefield"]}
    new = {b["object"]: b for b in after["battlefield"]}
    for obj in new.keys() - old.keys():
        out.append(f"+ {new[obj]['card']} #{obj} ({new[obj]['controller']})")
    for obj in old.keys() - new.keys():
        out.append(f"- {old[obj]['card']} #{obj}")
    for obj in sorted(new.keys() & old.keys()):
        diff = [k for k in ("tapped", "damage", "power", "toughness", "attacking", "blocking", "phased_out", "counters", "transformed") if new[obj][k] != old[obj][k]]
        if diff:
            out.append(f"~ {new[obj]['card']} #{obj}: " + ", ".join(f"{k} {old[obj][k]} -> {new[obj][k]}" for k in diff))
    return out
