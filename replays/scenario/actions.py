"""The actions of docs/reference/scenario-files.md, one pydantic model per kind, each declared once: its shape (what
keys, what types, strictly: an unknown key or ``"5"`` for a number is an error naming its path), its
``to_command`` (what the names in it mean in a game of these players) and its ``write`` (a command back
into this form, objects by id, so that a listed action means exactly one thing however many cards
share its name).

Everything else is derived from these models: a scenario file's entry adds ``player``
(``scenario.schema``), the service's body adds ``expected_version`` (``service.models``), and the JSON
Schema of ``mtg-ledger schema`` and the OpenAPI description are theirs. ``action_json`` writes a
command as its action. tests/rules/test_command_table.py checks that the models cover the command table's
kinds (``core.command_table``), and ``pass_until`` besides. The forms of their parts (a card, a permanent, a
player, an attacker, ...) and what their names mean in a game are ``scenario.forms``'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal, get_args

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from mtg_ledger.core.command_table import COMMANDS
from mtg_ledger.core.commands import (
    ActivateAbility,
    AssignDamage,
    CardRef,
    CastSpell,
    CastTransformed,
    ChooseDefender,
    ChooseProtector,
    Command,
    Concede,
    DeclareAttackers,
    DeclareBlockers,
    Discard,
    OrderTriggers,
    PassPriority,
    PlayLand,
)
from mtg_ledger.core.commands import Ref as RefCommand
from mtg_ledger.replays.scenario.forms import (  # the forms of an action's parts
    Assignment,
    Attacker,
    AttackerById,
    AttackerByName,
    Blocker,
    Count,
    InHand,
    known,
    Map,
    MAX_INT,
    PassUntil,
    Pay,
    Ref,
    Step,
    Strict,
    Target,
    Trigger,
    TriggerById,
    TriggerByName,
    _in_hand,
    _named,
    _paid_with,
    _player,
    _ref,
    _ref_json,
    _target,
    _target_json,
)

# --- the actions, one model per kind ----------------------------------------------------------------


class ActionModel(Strict):
    """What every action's model has: ``action``, its name; ``command``, the type of command it makes
    (None: ``pass_until``, a scenario's shorthand); ``to_command``; ``write``, its keys after ``action``."""

    command: ClassVar[type | None]

    @classmethod
    def kind(cls) -> str:
        name: str = get_args(cls.model_fields["action"].annotation)[0]
        return name

    def to_command(self, player: str, names: Sequence[str], at: str) -> Command | PassUntil:
        """The command this action is, sent by ``player`` in a game of ``names``; ``at`` names its place."""
        raise NotImplementedError

    @staticmethod
    def write(command: Any) -> Map:
        return {}


class Decision(ActionModel):
    """A player's own decision: the command the rules check (not ``pass_until``)."""

    command: ClassVar[type]

    def to_command(self, player: str, names: Sequence[str], at: str) -> Command:
        raise NotImplementedError


class PassAction(Decision):
    """Pass priority (117.3d)."""

    command = PassPriority
    action: Literal["pass"]

    def to_command(self, player: str, names: Sequence[str], at: str) -> PassPriority:
        return PassPriority(player)


class PassUntilAction(ActionModel):
    """Whoever holds priority passes, declaring nothing, up to the first decision of that step of that turn."""

    command = None
    action: Literal["pass_until"]
    turn: int = Field(ge=1, le=MAX_INT)
    step: Step

    def to_command(self, player: str, names: Sequence[str], at: str) -> PassUntil:
        return PassUntil(self.turn, self.step)


class PlayLandAction(Decision):
    """Play a land from hand (305, a special action)."""

    command = PlayLand
    action: Literal["play_land"]
    card: InHand
    index: Count = Field(0, description="accepted, and changes nothing: copies in a hand are interchangeable")

    def to_command(self, player: str, names: Sequence[str], at: str) -> PlayLand:
        return PlayLand(player, _in_hand(self.card, f"{at}.card"))

    @staticmethod
    def write(c: PlayLand) -> Map:
        return {"card": c.card}


class CastAction(Decision):
    """Cast a spell from hand (601)."""

    command = CastSpell
    action: Literal["cast"]
    card: InHand
    index: Count = Field(0, description="accepted, and changes nothing: copies in a hand are interchangeable")
    targets: list[Target] = []
    pay: Pay = None

    def to_command(self, player: str, names: Sequence[str], at: str) -> CastSpell:
        targets = tuple(_target(t, names, f"{at}.targets[{j}]") for j, t in enumerate(self.targets))
        return CastSpell(player, _in_hand(self.card, f"{at}.card"), targets=targets, pay=_paid_with(self.pay, at))

    @staticmethod
    def write(c: CastSpell) -> Map:
        out: Map = {"card": c.card}
        if c.targets:
            out["targets"] = [_target_json(t) for t in c.targets]
        if c.pay is not None:
            out["pay"] = [_ref_json(r) for r in c.pay]
        return out


class ActivateAction(Decision):
    """Activate an ability of a permanent (602, 605): mana abilities are numbered first."""

    command = ActivateAbility
    action: Literal["activate"]
    card: Ref | None = Field(None, description="the permanent whose ability is activated (or name it by `object`)")
    object: Count | None = Field(None, description="the permanent's object id, instead of `card`")
    index: Count = Field(0, description="which of the permanents of that name, when `card` is a name")
    ability: Count = Field(0, description="which ability: the mana abilities are numbered first, from 0, then the others in the order of its text")
    targets: list[Target] = Field([], description="what the ability targets (a loyalty ability's player, the creature to equip)")
    mana: Literal["W", "U", "B", "R", "G", "C"] | None = Field(None, description="the colour a mana ability that adds one of several adds (106.1)")

    @model_validator(mode="after")
    def _one_permanent(self) -> ActivateAction:
        if (self.card is None) == (self.object is None):
            raise PydanticCustomError("one_permanent", 'name the permanent once: "card" or "object"')
        return self

    def to_command(self, player: str, names: Sequence[str], at: str) -> ActivateAbility:
        if self.card is None:
            source: RefCommand = self.object or 0
        elif isinstance(self.card, str):
            source = CardRef(known(self.card, f"{at}.card"), self.index)
        else:
            source = _ref(self.card, f"{at}.card")
        targets = tuple(_target(t, names, f"{at}.targets[{j}]") for j, t in enumerate(self.targets))
        return ActivateAbility(player, source, self.ability, targets, mana=self.mana)

    @staticmethod
    def write(c: ActivateAbility) -> Map:
        out: Map = {"card": _ref_json(c.source), "ability": c.ability}
        if c.targets:
            out["targets"] = [_target_json(t) for t in c.targets]
        if c.mana is not None:
            out["mana"] = c.mana
        return out


def _defender_json(defender: str | RefCommand) -> Any:
    """A player by name; a planeswalker or battle always as a map, never a bare name (506.3)."""
    if isinstance(defender, str):
        return defender
    if isinstance(defender, CardRef):
        return {"card": defender.card, "index": defender.index} if defender.index else {"card": defender.card}
    return {"object": defender}


class DeclareAttackersAction(Decision):
    """Declare attackers (508.1); an empty list declares none."""

    command = DeclareAttackers
    action: Literal["declare_attackers"]
    attackers: list[Attacker] = []
    pay: Pay = None

    def to_command(self, player: str, names: Sequence[str], at: str) -> DeclareAttackers:
        attackers = []
        for j, x in enumerate(self.attackers):
            here = f"{at}.attackers[{j}]"
            defender = x.defender if isinstance(x, (AttackerByName, AttackerById)) else None
            attacked: str | RefCommand | None = (
                _player(defender, names, f"{here}.defender") if defender is None or isinstance(defender, str) else _ref(defender, f"{here}.defender")
            )
            attackers.append((_ref(x, here), attacked))
        return DeclareAttackers(player, tuple(attackers), pay=_paid_with(self.pay, at))

    @staticmethod
    def write(c: DeclareAttackers) -> Map:
        out: Map = {"attackers": [_named(ref, **({"defender": _defender_json(d)} if d is not None else {})) for ref, d in c.attackers]}
        if c.pay is not None:
            out["pay"] = [_ref_json(r) for r in c.pay]
        return out


class DeclareBlockersAction(Decision):
    """Declare blockers (509.1); an empty list declares none."""

    command = DeclareBlockers
    action: Literal["declare_blockers"]
    blockers: list[Blocker] = []

    def to_command(self, player: str, names: Sequence[str], at: str) -> DeclareBlockers:
        return DeclareBlockers(player, tuple(
            (_ref(x, f"{at}.blockers[{j}]"), _ref(x.attacker, f"{at}.blockers[{j}].attacker")) for j, x in enumerate(self.blockers)
        ))

    @staticmethod
    def write(c: DeclareBlockers) -> Map:
        return {"blockers": [_named(b, attacker=_ref_json(a)) for b, a in c.blockers]}


class AssignDamageAction(Decision):
    """Divide blocked attackers' combat damage (510.1c); attackers not named take the default."""

    command = AssignDamage
    action: Literal["assign_damage"]
    assignments: list[Assignment] = []

    def to_command(self, player: str, names: Sequence[str], at: str) -> AssignDamage:
        out = []
        for j, x in enumerate(self.assignments):
            here = f"{at}.assignments[{j}]"
            parts = tuple((_target(d.target, names, f"{here}.damage[{k}].target"), d.amount) for k, d in enumerate(x.damage))
            out.append((_ref(x.attacker, f"{here}.attacker"), parts))
        return AssignDamage(player, tuple(out))

    @staticmethod
    def write(c: AssignDamage) -> Map:
        return {"assignments": [
            {"attacker": _ref_json(ref), "damage": [{"target": _target_json(t), "amount": n} for t, n in parts]} for ref, parts in c.assignments
        ]}


class ChooseDefenderAction(Decision):
    """Choose the defending player (507.1, single-defender format)."""

    command = ChooseDefender
    action: Literal["choose_defender"]
    defender: str

    def to_command(self, player: str, names: Sequence[str], at: str) -> ChooseDefender:
        return ChooseDefender(player, _player(self.defender, names, f"{at}.defender") or "")

    @staticmethod
    def write(c: ChooseDefender) -> Map:
        return {"defender": c.defender}


class DiscardAction(Decision):
    """Discard (514.1 in cleanup, or when a resolving ability asks, 608.2d)."""

    command = Discard
    action: Literal["discard"]
    cards: list[InHand] = []

    def to_command(self, player: str, names: Sequence[str], at: str) -> Discard:
        return Discard(player, tuple(_in_hand(c, f"{at}.cards[{j}]", printed=True) for j, c in enumerate(self.cards)))

    @staticmethod
    def write(c: Discard) -> Map:
        return {"cards": list(c.cards)}


class OrderTriggersAction(Decision):
    """Put your waiting triggered abilities on the stack, bottom first (603.3b)."""

    command = OrderTriggers
    action: Literal["order_triggers"]
    order: list[Trigger] = []

    def to_command(self, player: str, names: Sequence[str], at: str) -> OrderTriggers:
        refs, chosen = [], []
        for j, item in enumerate(self.order):
            here = f"{at}.order[{j}]"
            refs.append(_ref(item, here))
            given = item.targets if isinstance(item, (TriggerByName, TriggerById)) else None
            chosen.append(None if given is None else tuple(_target(t, names, f"{here}.targets[{k}]") for k, t in enumerate(given)))
        return OrderTriggers(player, tuple(refs), tuple(chosen))

    @staticmethod
    def write(c: OrderTriggers) -> Map:
        order = []
        for i, ref in enumerate(c.order):
            chosen = c.targets[i] if i < len(c.targets) else None
            order.append(_named(ref, **({"targets": [_target_json(t) for t in chosen]} if chosen is not None else {})))
        return {"order": order}


class ConcedeAction(Decision):
    """Leave the game (104.3a)."""

    command = Concede
    action: Literal["concede"]

    def to_command(self, player: str, names: Sequence[str], at: str) -> Concede:
        return Concede(player)


class CastTransformedAction(Decision):
    """Cast the exiled card of a defeated Siege transformed, without paying its mana cost, or leave it in
    exile (``"cast": false``) (310.11b)."""

    command = CastTransformed
    action: Literal["cast_transformed"]
    cast: bool = True

    def to_command(self, player: str, names: Sequence[str], at: str) -> CastTransformed:
        return CastTransformed(player, self.cast)

    @staticmethod
    def write(c: CastTransformed) -> Map:
        return {"cast": c.cast}


class ChooseProtectorAction(Decision):
    """Choose which of your opponents protects the Siege entering under your control (310.11a)."""

    command = ChooseProtector
    action: Literal["choose_protector"]
    protector: str

    def to_command(self, player: str, names: Sequence[str], at: str) -> ChooseProtector:
        return ChooseProtector(player, self.protector)  # any name: the rules refuse one that is no opponent (310.11a)

    @staticmethod
    def write(c: ChooseProtector) -> Map:
        return {"protector": c.protector}


# The one list of actions: the scenario's entries, the service's bodies, the names in messages and the
# JSON Schemas all read it.
ACTION_MODELS: tuple[type[ActionModel], ...] = (
    PassAction, PassUntilAction, PlayLandAction, CastAction, ActivateAction, DeclareAttackersAction, DeclareBlockersAction,
    AssignDamageAction, ChooseDefenderAction, DiscardAction, OrderTriggersAction, ConcedeAction, CastTransformedAction,
    ChooseProtectorAction,
)
ACTION_NAMES: tuple[str, ...] = tuple(model.kind() for model in ACTION_MODELS)
DECISIONS: tuple[type[Decision], ...] = tuple(model for model in ACTION_MODELS if issubclass(model, Decision))
FORMS: dict[str, type[Decision]] = {model.kind(): model for model in DECISIONS}
_MODEL_OF: dict[type, type[Decision]] = {model.command: model for model in DECISIONS}
assert all(COMMANDS[command].kind == model.kind() for command, model in _MODEL_OF.items()), "an action named unlike its command's kind"


def action_json(command: Command, *, with_player: bool = True) -> Map:
    """The section-2 action for ``command``; ``with_player=False`` gives the service's body form."""
    model = _MODEL_OF[type(command)]
    out: Map = {"player": command.player} if with_player else {}
    out["action"] = model.kind()
    out.update(model.write(command))
    return out
