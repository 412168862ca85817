"""mkdocs hooks: the reference pages written at build time from the code, so that they cannot drift from it.

A page asks for a generated part with a marker on a line of its own, ``<!-- generated: NAME -->``; this hook
replaces the marker with the markdown below. The names:

  cli       every verb of ``mtg-ledger`` from its argparse parser (``mtg_ledger.replays.cli.parser``)
  http      every route from the OpenAPI description of ``mtg_ledger.replays.service.app.create_app``
  events    every event type from the registry ``mtg_ledger.core.events.EVENT_TYPES``: fields, class version
  scenario  the scenario file's JSON Schema (``mtg-ledger schema``), property by property
  decks     the demo's built-in decks (``mtg_ledger.replays.demo.decks``)
  cards     the card vocabulary's tables (``mtg_ledger.core.vocabulary``): card fields, keywords, abilities, effects
  pool      the cards of the pool (``mtg_ledger.replays.cards.live_pool``)

A marker with an unknown name fails the build, as does any error while generating.
"""

from __future__ import annotations

import argparse
import json
import re
import types
import typing
from collections import Counter
from typing import Any

import typing_extensions

MARKER = re.compile(r"^<!-- generated: ([a-z]+) -->$", re.M)


def _plain(text: str | None) -> str:
    """One paragraph of a docstring or help text, for a table cell."""
    text = (text or "").strip()
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    return " ".join(text.split()).replace("|", "\\|")


# ---- the command line ---------------------------------------------------------------------------------------


def _option(action: argparse.Action) -> tuple[str, str, str]:
    if action.option_strings:
        name = ", ".join(f"`{o}`" for o in action.option_strings)
        if action.nargs != 0:
            name += f" `{action.metavar or action.dest.upper()}`"
    else:
        name = f"`{action.metavar or action.dest}`"
    default = ""
    if action.default not in (None, False, argparse.SUPPRESS) and action.nargs != 0 and not action.required:
        default = f"`{action.default}`"
    help_text = _plain(action.help)
    if action.choices and "{" not in help_text:
        help_text += " (one of " + ", ".join(f"`{c}`" for c in action.choices) + ")"
    return name, default, help_text


def _arguments(parser: argparse.ArgumentParser, skip: set[str]) -> list[str]:
    rows = [_option(a) for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))
            and a.dest not in skip]
    if not rows:
        return ["It takes no arguments of its own.", ""]
    out = ["| argument | default | meaning |", "| --- | --- | --- |"]
    out += [f"| {name} | {default} | {help_text} |" for name, default, help_text in rows]
    return out + [""]


def cli() -> str:
    from mtg_ledger.replays.cli import parser

    top = parser()
    sub = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    common = {a.dest for a in top._actions if a.option_strings and a.dest in {"db", "verbose", "log_level", "json"}}
    out = [f"`{top.prog}`: {_plain(top.description)}", "", "## Options of every verb", "",
           "They go before or after the verb.", ""]
    out += _arguments(top, skip={"verb"})
    out += ["## Verbs", "", "| verb | what it does |", "| --- | --- |"]
    helps = {c.dest: c.help for c in sub._choices_actions}
    out += [f"| [`{name}`](#{name}) | {_plain(helps.get(name))} |" for name in sub.choices]
    out.append("")
    for name, verb in sub.choices.items():
        out += [f"### {name}", "", _plain(verb.description), "", "```text", verb.format_usage().strip(), "```", ""]
        out += _arguments(verb, skip=common | {"help"})
        if verb.epilog:
            out += ["Example:", "", "```text", *[line.strip() for line in verb.epilog.splitlines()[1:]], "```", ""]
    return "\n".join(out)


# ---- the HTTP service ---------------------------------------------------------------------------------------


def _schema_name(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[`{name}`](#{name.lower()})"
    if "anyOf" in schema:
        return " or ".join(_schema_name(s) for s in schema["anyOf"])
    if schema.get("type") == "array":
        return f"array of {_schema_name(schema.get('items', {}))}"
    return f"`{schema.get('type', 'any')}`" if schema.get("type") else (f"`{schema['format']}`" if "format" in schema else "any")


def http() -> str:
    from mtg_ledger.replays.service.app import create_app

    spec = create_app({}).openapi()
    out = [_plain(spec["info"].get("description")), "", "## Routes", "", "| method and path | what it does |", "| --- | --- |"]
    routes = [(method.upper(), path, op) for path, ops in spec["paths"].items() for method, op in ops.items()]
    anchors = [re.sub(r"[^a-z0-9]+", "-", f"{m} {p}".lower()).strip("-") for m, p, _ in routes]
    out += [f"| [`{m} {p}`](#{a}) | {_plain((op.get('description') or op.get('summary', '')).split(chr(10) + chr(10))[0])} |"
            for (m, p, op), a in zip(routes, anchors, strict=True)]
    out.append("")
    for (method, path, op), anchor in zip(routes, anchors, strict=True):
        out += [f"### `{method} {path}` {{#{anchor}}}", "", _plain(op.get("description") or op.get("summary")), ""]
        params = op.get("parameters", [])
        if params:
            out += ["| parameter | in | type | required | meaning |", "| --- | --- | --- | --- | --- |"]
            out += [f"| `{p['name']}` | {p['in']} | {_schema_name(p.get('schema', {}))} | {'yes' if p.get('required') else 'no'} "
                    f"| {_plain(p.get('description') or p.get('schema', {}).get('description'))} |" for p in params]
            out.append("")
        body = op.get("requestBody")
        if body:
            kinds = ", ".join(f"`{k}`" for k in body.get("content", {}))
            schemas = [c.get("schema", {}) for c in body.get("content", {}).values()]
            shown = " or ".join(_schema_name(s) for s in schemas if s) or "bytes"
            out += [f"Body ({kinds}): {shown}.", ""]
        out += ["| status | meaning |", "| --- | --- |"]
        out += [f"| {code} | {_plain(r.get('description'))} |" for code, r in op.get("responses", {}).items()]
        out.append("")
    out += ["## Bodies", "", "The JSON bodies the routes take and give, as the OpenAPI description names them.", ""]
    for name, schema in sorted(spec.get("components", {}).get("schemas", {}).items()):
        out += [f"### {name}", "", _plain(schema.get("description")), ""]
        out += _properties(schema)
    return "\n".join(out)


def _properties(schema: dict[str, Any]) -> list[str]:
    props = schema.get("properties", {})
    if not props:
        return [f"Type: {_schema_name(schema)}.", ""]
    required = set(schema.get("required", []))
    out = ["| field | type | required | meaning |", "| --- | --- | --- | --- |"]
    for key, prop in props.items():
        kind = _schema_name(prop) if ("$ref" in prop or "anyOf" in prop or "type" in prop) else "see the schema"
        if "enum" in prop:
            kind = " or ".join(f"`{json.dumps(v)}`" for v in prop["enum"])
        elif "const" in prop:
            kind = f"`{json.dumps(prop['const'])}`"
        meaning = _plain(prop.get("description"))
        if "default" in prop and prop["default"] not in (None, [], {}):
            meaning = (meaning + " " if meaning else "") + f"(default `{json.dumps(prop['default'])}`)"
        out.append(f"| `{key}` | {kind} | {'yes' if key in required else 'no'} | {meaning} |")
    return out + [""]


# ---- events -------------------------------------------------------------------------------------------------


def _type_name(tp: Any, nested: dict[str, Any]) -> str:
    """A field's type as the reference writes it (``list[PlayerEntry]``, ``str | None``); each TypedDict met
    on the way is noted in ``nested``, to be described in turn."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is None:
        if typing_extensions.is_typeddict(tp):
            nested[tp.__name__] = tp
        return "None" if tp is type(None) else getattr(tp, "__name__", str(tp))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a, nested) for a in args)
    return f"{getattr(origin, '__name__', str(origin))}[{', '.join(_type_name(a, nested) for a in args)}]"


def _field_rows(typed: Any, nested: dict[str, Any]) -> list[str]:
    hints = typing.get_type_hints(typed)
    return ["| field | type |", "| --- | --- |", *(f"| `{name}` | `{_type_name(tp, nested)}` |" for name, tp in hints.items())]


def events() -> str:
    from mtg_ledger.core.events import EVENT_TYPES
    from mtg_ledger.core.versions import SCHEMA_VERSION
    from mtg_ledger.core.schema import class_versions

    versions = class_versions()
    out = [f"The engine writes event schema {SCHEMA_VERSION} and {len(EVENT_TYPES)} event types, listed here in the order "
           "they are declared (the order a log file's header lists them in). Each event's fields are its "
           "`<Event>Fields` type in `core/events/`, which its applier is typed with and imports are checked against.", "",
           "| event | class version | what it records |", "| --- | --- | --- |"]
    out += [f"| [`{name}`](#{name.lower()}) | {versions[name]} | {_plain((cls.__doc__ or '').split(chr(10) + chr(10))[0])} |"
            for name, cls in EVENT_TYPES.items()]
    out.append("")
    nested: dict[str, Any] = {}
    for name, cls in EVENT_TYPES.items():
        out += [f"### {name}", "", _plain(cls.__doc__), "", f"Class version {versions[name]}.", ""]
        if typing.get_type_hints(cls.fields_type):
            out += _field_rows(cls.fields_type, nested)
        else:
            out.append("No fields besides `v`, `type` and `hash`.")
        out.append("")
    out += ["## Entries", "", "The maps the events above hold in their lists.", ""]
    done: set[str] = set()
    while nested.keys() - done:
        name = next(n for n in nested if n not in done)
        done.add(name)
        out += [f"### {name}", "", _plain(nested[name].__doc__), "", *_field_rows(nested[name], nested), ""]
    return "\n".join(out)


# ---- scenario files -----------------------------------------------------------------------------------------


def scenario() -> str:
    from mtg_ledger.replays.scenario.schema import json_schema

    schema = json_schema()
    out = [_plain(schema.get("description")), "", "## The file", ""]
    out += _properties(schema)
    for name, part in schema.get("$defs", {}).items():
        out += [f"### {name}", "", _plain(part.get("description")), ""]
        out += _properties(part)
    out += ["## The whole schema", "", "As `mtg-ledger schema` prints it:", "", '??? note "scenario.schema.json"', "",
            "    ```json"]
    out += ["    " + line for line in json.dumps(schema, indent=2, ensure_ascii=False).splitlines()]
    out += ["    ```", ""]
    return "\n".join(out)


# ---- the demo's decks ---------------------------------------------------------------------------------------


def decks() -> str:
    from mtg_ledger.replays.cards import live_pool
    from mtg_ledger.replays.cards.decks import parse_deck, shipped_decks
    from mtg_ledger.replays.demo.decks import DECK_ORDER, PLAYERS

    pool = live_pool().definitions
    out = []
    for deck, text in sorted(shipped_decks().items()):
        counts = Counter(parse_deck(text).main)
        colors = "".join(c for c in "WUBRG" if any(c in pool[card].get("colors", ()) for card in counts))
        line = f"{sum(counts.values())} cards; colours {colors or 'none'}."
        if deck in DECK_ORDER:
            seat = DECK_ORDER.index(deck)
            when = "every game" if seat < 2 else f"games of {seat + 1} players or more"
            line += f" The demo's {PLAYERS[seat]} plays it when no `--deck` is given ({when})."
        out += [f"### {deck}", "", line, "", "| count | card |", "| --- | --- |"]
        out += [f"| {n} | {card} |" for card, n in counts.items()]
        out.append("")
    return "\n".join(out)


# ---- the card vocabulary and the pool ------------------------------------------------------------------------


def _hint(hint: Any) -> str:
    """A field's annotation in words: integer, text, true/false, a list of texts or of effects."""
    import types
    import typing

    words = {int: "integer", str: "text", bool: "true/false"}
    if hint in words:
        return words[hint]
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1:
        return _hint(args[0])
    return "list of texts" if args and args[0] is str else "list of effects"


def _kinds(table: dict[str, type], tag: str) -> list[str]:
    from mtg_ledger.core.vocabulary import kind_fields

    out = [f"| `{tag}` | fields | what it is |", "| --- | --- | --- |"]
    for name, cls in table.items():
        fields = kind_fields(cls)
        said = ", ".join(f"`{f}`{'' if required else ' (optional)'}: {_hint(hint)}" for f, (hint, required) in fields.items()) or "none"
        doc = _plain(cls.__doc__).replace("<", "&lt;")
        out.append(f"| `{name}` | {said} | {doc} |")
    return out


def cards() -> str:
    from mtg_ledger.core.vocabulary import ABILITY_KINDS, CARD_FIELDS, EFFECT_KINDS, ENCHANT, KEYWORDS, TARGETS, TRIGGER_EVENTS

    out = ["### Card fields", "", "| field | holds | required |", "| --- | --- | --- |"]
    out += [f"| `{name}` | {kind} | {'yes' if required else 'no'} |" for name, (kind, required) in CARD_FIELDS.items()]
    out += ["", "### Keywords", "", "| keyword | rule |", "| --- | --- |"]
    out += [f"| {name} | {rule} |" for name, rule in KEYWORDS.items()]
    out += ["", "### Abilities", ""] + _kinds(ABILITY_KINDS, "ability")
    out += ["", "### Effects", ""] + _kinds(EFFECT_KINDS, "effect")
    out += ["", "### Trigger events", "", "A triggered ability's `event`:", "", "| event | rule |", "| --- | --- |"]
    out += [f"| `{name}` | {rule} |" for name, rule in TRIGGER_EVENTS.items()]
    out += ["", "### Targets", ""]
    out += ["A spell's or an ability's `target` (each item of `targets`, for one with several): " + ", ".join(f"`{t}`" for t in TARGETS) + "."]
    out += ["An Aura's `enchant`: " + ", ".join(f"`{t}`" for t in ENCHANT) + "."]
    return "\n".join(out) + "\n"


def pool() -> str:
    from mtg_ledger.replays.cards import live_pool

    found = live_pool()
    out = ["| card | mana cost | types | file |", "| --- | --- | --- | --- |"]
    for name in found.names():
        d = found.definitions[name]
        kinds = " ".join([*d.get("supertypes", []), *d["types"]]) + (f" — {' '.join(d['subtypes'])}" if d.get("subtypes") else "")
        out.append(f"| {name} | {d.get('mana_cost', '')} | {kinds} | `{found.files[name]}` |")
    return "\n".join(out) + "\n"


GENERATORS = {"cli": cli, "http": http, "events": events, "scenario": scenario, "decks": decks, "cards": cards, "pool": pool}


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    def generate(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise ValueError(f"{page.file.src_path}: no generator named {name!r} (known: {', '.join(GENERATORS)})")
        return GENERATORS[name]()

    return MARKER.sub(generate, markdown)


def on_files(files: Any, config: Any) -> Any:
    """The viewer's screenshot, from where the README shows it too, rather than a second copy under docs/."""
    from pathlib import Path

    from mtg_ledger.replays import viewer
    from mkdocs.structure.files import File

    shot = Path(viewer.__file__).parent / "screenshot.png"
    files.append(File.generated(config, "assets/screenshot.png", abs_src_path=str(shot)))
    return files
