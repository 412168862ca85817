"""Players, teams and turn order. Without teams every player is a team of one; in the Archenemy
variant (904.2) the archenemy faces one team that shares its turns (805): the team whose turn it is
is the active team (805.4a), teams have priority rather than players (805.5), and simultaneous
choices go active team first (805.6, modifying 101.4's APNAP order).
"""

from __future__ import annotations

from mtg_ledger.core.state import GameState


def teams(state: GameState) -> list[list[str]]:
    return state.teams or [[p] for p in state.turn_order]


def team_of(state: GameState, player: str) -> list[str]:
    for team in state.teams:  # without teams, every player's team is themself: the [player] below
        if player in team:
            return team
    return [player]


def live_members(state: GameState, team: list[str]) -> list[str]:
    return [p for p in team if not state.players[p].lost]


def active_team(state: GameState) -> list[str]:
    return team_of(state, state.active_player) if state.active_player else []


def is_active(state: GameState, player: str) -> bool:
    """102.1, 805.4a: a player of the team whose turn it is."""
    return player in active_team(state)


def acting(state: GameState) -> str | None:
    """The active team's player who decides for it (805.2: its primary player, the first still in the game)."""
    members = live_members(state, active_team(state))
    return members[0] if members else None


def opponents(state: GameState, player: str) -> list[str]:
    """102.2-102.3: the players still in the game who aren't on the player's team."""
    mine = team_of(state, player)
    return [p for p in state.live_players() if p not in mine]


def teammates(state: GameState, a: str, b: str) -> bool:
    return b in team_of(state, a)


def apnap(state: GameState) -> list[str]:
    """101.4, 805.6: the players still in the game, the active team's first, then each other team in turn order."""
    ordered = [p for team in _teams_from_active(state) for p in live_members(state, team)]
    return ordered or state.live_players()


def _teams_from_active(state: GameState) -> list[list[str]]:
    all_teams = teams(state)
    mine = active_team(state)
    if mine not in all_teams:
        return all_teams
    i = all_teams.index(mine)
    return all_teams[i:] + all_teams[:i]


def next_team_player(state: GameState, after: str) -> str:
    """The player who acts for the next team still in the game after ``after``'s team, in turn
    order (101.4, 117.3d, 805.5); ``after`` itself if no other team is left."""
    all_teams = teams(state)
    start = all_teams.index(team_of(state, after))
    for k in range(1, len(all_teams) + 1):
        members = live_members(state, all_teams[(start + k) % len(all_teams)])
        if members:
            return members[0]
    return after


def all_passed(state: GameState) -> bool:
    """117.4, 805.5: every team still in the game passed in succession."""
    passes = state.passes
    if not state.teams:  # every player a team of their own (most games): each one still in it passed
        players = state.players
        return all(p in passes or players[p].lost for p in state.turn_order)
    return all(any(p in passes for p in team) for team in state.teams if live_members(state, team))


def live_teams(state: GameState) -> list[list[str]]:
    return [team for team in teams(state) if live_members(state, team)]
