"""Events for people: one readable line per event (``mtg-ledger events --format text``, the demo's narrative,
the viewer's timeline), and what one event changed, in a judge's words (``mtg-ledger step``)."""

from __future__ import annotations

from typing import Any

from mtg_ledger.core.mana import format_pool


def _target(t: Any) -> str:
    return t if isinstance(t, str) else f"#{t}"


def _step(step: str) -> str:
    """Main phases have no steps (505.2): they are named as phases."""
    words = step.replace("_", " ")
    return f"{words} phase" if step.endswith("_main") else f"{words} step"


def _mana(pool: dict[str, int]) -> str:
    return format_pool(pool, empty="{0}")


REASONS = {  # core.outcome.Reason codes in words
    "last_player_standing": "every opponent has left the game (rule 104.2a)",
    "concession": "the last opponent conceded (rule 104.3a)",
    "all_players_lost": "every player still in the game lost at once (rule 104.4a)",
    "draw": "the game is a draw (rule 104.4)",
}


def outcome_words(reason: str, winner: str | None, winners: list[str]) -> str:
    """``GameEnded`` in words: who won and why ("alice and bob win: ..."); a reason that is not one
    of the codes (a log of schema 1 read as recorded) is shown as it was written."""
    why = REASONS.get(reason, reason)
    team = list(winners) or ([winner] if winner else [])
    if not team:
        return f"a draw: {why}"
    who = team[0] if len(team) == 1 else ", ".join(team[:-1]) + f" and {team[-1]}"
    return f"{who} win{'s' if len(team) == 1 else ''}: {why}"


def describe(e: dict[str, Any]) -> str:
    t = e["type"]
    if t == "GameStarted":
        names = ", ".join(p["name"] for p in e["players"])
        return f"game starts ({e['format']}, seed {e['seed']}, rules {e['rules']}): {names}; {e['starting_player']} plays first"
    if t == "LibraryShuffled":
        return f"{e['player']} shuffles their library ({len(e['order'])} cards)"
    if t == "TurnBegan":
        return f"turn {e['turn']} begins: {e['active_player']} is the active player"
    if t == "StepBegan":
        extra = " (first strike)" if e.get("first_strike") else ""
        return f"  {_step(e['step'])} begins{extra}"
    if t == "StepEnded":
        return f"  {_step(e['step'])} ends"
    if t == "PermanentsUntapped":
        return f"    {e['player']} untaps {', '.join(f'#{o}' for o in e['permanents'])}"
    if t == "CardDrawn":
        return f"    {e['player']} draws {e['card'] or 'a card'}"
    if t == "EmptyLibraryDrawAttempted":
        return f"    {e['player']} tries to draw from an empty library"
    if t == "DrawSkipped":
        return f"    {e['player']} skips the draw (rule {e['rule']})"
    if t == "LandPlayed":
        return f"    {e['player']} plays {e['card']} (#{e['object']})"
    if t == "PriorityGiven":
        return f"    {e['player']} receives priority"
    if t == "PriorityPassed":
        return f"    {e['player']} passes"
    if t == "ManaAbilityActivated":
        return f"    {e['player']} taps {e['card']} (#{e['source']}) for {{{e['mana']}}}"
    if t == "SpellCast":
        on = f" targeting {', '.join(_target(x) for x in e['targets'])}" if e["targets"] else ""
        return f"    {e['player']} casts {e['card']} (#{e['object']}){on}, paying {_mana(e['mana_spent'])}"
    if t == "ObjectResolved":
        made = f" and enters as #{e['permanent']}" if e["permanent"] is not None else ""
        return f"    {e['card']} (#{e['object']}) {'resolves' if e['outcome'] == 'resolved' else 'fizzles (608.2b)'}{made}"
    if t == "DamageDealt":
        return f"    {e['card']} deals {e['amount']} damage to {_target(e['target'])}"
    if t == "EffectCreated":
        eff = e["effect"]
        if eff["kind"] == "no_max_hand_size":
            return f"    {eff['player']} has no maximum hand size until their next turn"
        if eff["kind"] == "skip_combat":
            return f"    {eff['player']} will skip their next combat phase this turn"
        gains = f" and gains {', '.join(eff['keywords'])}" if eff.get("keywords") else ""
        return f"    #{eff['object']} gets +{eff['power']}/+{eff['toughness']}{gains} until end of turn"
    if t == "PermanentsPutIntoGraveyard":
        gone = ", ".join(f"{p['card']} (#{p['object']})" for p in e["permanents"])
        return f"    {gone} put into the graveyard (rule {e['rule']})"
    if t == "DefendingPlayerChosen":
        return f"    {e['chooser']} chooses {e['player']} as the defending player"
    if t == "AttackersDeclared":
        if not e["attackers"]:
            return f"    {e['player']} declares no attackers"
        who = ", ".join(f"{a['card']} (#{a['object']}) → {a['defender']}" for a in e["attackers"])
        paid = "".join(f"; pays {{{c['generic']}}} for {c['card']}" for c in e.get("costs_paid", []))
        return f"    {e['player']} attacks: {who}{paid}"
    if t == "BlockersDeclared":
        if not e["blockers"]:
            return f"    {e['player']} declares no blockers"
        who = ", ".join(f"{b['card']} (#{b['object']}) blocks #{b['attacker']}" for b in e["blockers"])
        return f"    {e['player']} blocks: {who}"
    if t == "CombatDamageDealt":
        parts = ", ".join(f"#{a['source']} → {_target(a['target'])}: {a['amount']}" for a in e["assignments"])
        return f"    combat damage{' (first strike)' if e['first_strike'] else ''}: {parts or 'none'}"
    if t == "RemovedFromCombat":
        return f"    removed from combat: {', '.join(f'#{o}' for o in e['permanents'])}"
    if t == "CardsDiscarded":
        why = f"maximum hand size {e['max_hand_size']}" if e.get("rule", "514.1") == "514.1" else f"rule {e['rule']}"
        return f"    {e['player']} discards {', '.join(e['cards']) or 'nothing'} ({why})"
    if t == "PermanentsPhased":
        phases = [f"{label} {', '.join(f'#{o}' for o in e[key])}" for key, label in (("phased_out", "phase out:"), ("phased_in", "phase in:")) if e[key]]
        return f"    {'; '.join(phases)}"
    if t == "DayNightChanged":
        turned = f"; transformed {', '.join(f'#{o}' for o in e['transformed'])}" if e["transformed"] else ""
        return f"    it becomes {e['to']} (rule {e['rule']}){turned}"
    if t == "PermanentsTransformed":
        return f"    {', '.join(f'#{o}' for o in e['permanents'])} transform (rule {e['rule']})"
    if t == "SchemeSetInMotion":
        return f"    {e['player']} sets {e['scheme']} in motion"
    if t == "SchemePutOnBottom":
        return f"    {e['scheme']} goes to the bottom of {e['player']}'s scheme deck"
    if t == "LoreCounterAdded":
        return f"    #{e['saga']} gets a lore counter ({e['total']} in all)"
    if t == "AbilityActivated":
        return f"    {e['player']} activates {e['card']} (#{e['source']}) ability {e['ability']} as #{e['object']}, paying {_mana(e['mana_spent'])}"
    if t == "AbilityTriggered":
        source = f" (#{e['source']})" if e["source"] is not None else ""
        return f"    {e['card']}{source} triggers for {e['player']} as #{e['object']}"
    if t == "TriggerOrderAsked":
        return f"    {e['player']} orders their triggered abilities"
    if t == "TriggeredAbilitiesStacked":
        on = ", ".join(f"#{o}" + (f" targeting {', '.join(_target(x) for x in e['targets'][str(o)])}" if str(o) in e["targets"] else "") for o in e["objects"])
        gone = f"; removed for want of a target: {', '.join(f'#{o}' for o in e['removed'])}" if e["removed"] else ""
        return f"    {e['player']} puts on the stack: {on or 'nothing'}{gone}"
    if t == "ActivationPaused":
        return f"    #{e['object']} waits for {e['player']} to choose the cost ({e['choice']} {e['count']})"
    if t == "ResolutionPaused":
        return f"    #{e['object']} waits for {e['player']} to choose ({e['choice']} {e['count']})"
    if t == "LifeLost":
        return f"    {e['player']} loses {e['amount']} life"
    if t == "LifeGained":
        return f"    {e['player']} gains {e['amount']} life"
    if t == "CountersAdded":
        return f"    #{e['object']} gets {e['count']} {e['kind']} counter(s)"
    if t == "TokenCreated":
        return f"    {e['player']} creates a {e['token']} token (#{e['object']})"
    if t == "PermanentsUntappedByEffect":
        return f"    untapped: {', '.join(f'#{o}' for o in e['permanents'])}"
    if t == "ExtraPhaseAdded":
        return f"    an additional {e['phase'].replace('_', ' ')} phase is added (rule 500.8)"
    if t == "PhaseSkipped":
        return f"    {e['player']} skips the {e['phase']} phase"
    if t == "EffectsEnded":
        return f"    effects end: {', '.join(str(x) for x in e['effects'])} (rule {e['rule']})"
    if t == "CleanupPerformed":
        return f"    cleanup: damage removed from {len(e['damage_removed'])}, {len(e['effects_ended'])} effect(s) end"
    if t == "ManaPoolEmptied":
        return f"    {e['player']}'s mana pool empties ({_mana(e['mana'])})"
    if t == "PlayerLost":
        return f"{e['player']} loses: {e['reason']} (rule {e['rule']})"
    if t == "GameEnded":
        return f"game over: {outcome_words(e['reason'], e['winner'], e['winners'])}"
    fields = {k: v for k, v in e.items() if k not in ("v", "type", "hash")}
    return f"    {t} {fields}"


def line(e: dict[str, Any]) -> str:
    return f"{e['v']:>6}  {describe(e)}"


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
