"""OLD PATH: the French of the sentences still written in English, by pattern (``mtg-ledger audit
--lang fr``), with the card and player names left as they are.

A message with an id is said from the catalogues (replays.audit.catalogue); this module translates
those not yet given one: the rules errors raised without an id, a log file that cannot be read
(replays.logfile.reader; the CLI makes its finding from the error's text), a stored row that cannot
be read as the CLI's replay names it, the decision the rules ask for (core.decision's describe) and
the audit's notices. Each pattern has its French here, and the parts that are themselves phrases are
translated in turn; tests/unit/test_findings_fr.py checks that every such sentence has one. A message no
pattern knows is shown in English, marked "(en anglais)". It goes once every message has an id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

Table = list[tuple["re.Pattern[str]", str]]


def _table(pairs: Mapping[str, str]) -> Table:
    """English templates with ``{name}`` holes -> compiled patterns and their French templates."""
    out: Table = []
    for en, fr in pairs.items():
        parts = re.split(r"\{(\w+)\}", en)
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        out.append((re.compile(regex, re.DOTALL), fr))
    return out


def _words(pairs: Mapping[str, str]) -> Callable[[str], str]:
    return lambda text: pairs.get(text, text)


STEPS = _words(
    {
        "untap": "de dégagement", "upkeep": "d'entretien", "draw": "de pioche", "beginning of combat": "de début de combat",
        "declare attackers": "de déclaration des attaquants", "declare blockers": "de déclaration des bloqueurs",
        "combat damage": "des blessures de combat", "end of combat": "de fin de combat", "end": "de fin", "cleanup": "de nettoyage",
        "precombat main": "de la phase principale d'avant combat", "postcombat main": "de la phase principale d'après combat",
    }
)
TO_DO = _words(  # what a player does, after "ne peut pas", "le moment de"
    {
        "pass priority": "passer la priorité", "play a land": "jouer un terrain", "cast a spell": "lancer un sort",
        "activate an ability": "activer une capacité", "choice of defending player": "choisir le joueur défenseur",
        "declaration of attackers": "déclarer des attaquants", "declaration of blockers": "déclarer des bloqueurs",
        "combat damage assignment": "assigner les blessures de combat", "discard": "se défausser",
        "declare attackers": "déclarer des attaquants", "declare blockers": "déclarer des bloqueurs",
        "choose defender": "choisir le joueur défenseur", "assign damage": "assigner les blessures de combat",
        "order triggers": "mettre ses capacités déclenchées sur la pile", "priority": "agir avec la priorité",
        "concede": "concéder",
    }
)
WANTED = _words({"a creature or a player": "une créature ou un joueur", "a player": "un joueur", "an opponent": "un adversaire", "a creature": "une créature"})
THING = _words(
    {
        "permanent": "permanent", "attacker": "attaquant", "blocker": "bloqueur", "mana source": "source de mana", "target": "cible",
        "source": "source", "creature": "créature",
    }
)
SPELL_KIND = _words({"sorcery": "rituel", "permanent spell": "sort de permanent"})
ZONE = _words({"library": "bibliothèque", "schemes": "deck de machinations"})
WHY = _words({"not the defending player chosen (507.1)": "ce n'est pas le joueur défenseur choisi (507.1)", "not an opponent in the game": "ce n'est pas un adversaire dans la partie"})


def _have(text: str) -> str:
    return "aucun" if text == "none" else text.replace("only ", "seulement ")


DECISION = _table(
    {
        "{player} holds priority": "{player} a la priorité",
        "the game is waiting for {player} to discard {count} card(s)": "la partie attend que {player} se défausse de {count} carte(s)",
        "the game is waiting for {player} to {to_do}": "la partie attend que {player} décide : {to_do}",
    }
)
WHAT = _table(  # what is being played, cast or paid for
    {
        "{card} ({spell_kind}) can be cast": "{card} ({spell_kind}) peut être lancé",
        "{card} can be played": "{card} peut être joué",
        "{label}'s ability cost {cost}": "le coût {cost} de la capacité de {label}",
        "{card}'s cost {cost}": "le coût {cost} de {card}",
        "{card}'s {cost} for {count} creature(s) attacking {player}": "le coût {cost} de {card} pour {count} créature(s) attaquant {player}",
    }
)

DAMAGE = _table(  # why a part of a log file cannot be read
    {
        "its checksum does not match its content": "sa somme de contrôle ne correspond pas à son contenu",
        "its data is corrupt": "ses données sont corrompues",
        "zstd: {error}": "zstd : {error}",
        "its frame does not end where the block index says": "sa trame ne se termine pas là où l'indique l'index des blocs",
        "its frame ends before where the block index says": "sa trame se termine avant l'endroit qu'indique l'index des blocs",
        "its first bytes are not a log file's lead": "ses premiers octets ne sont pas l'amorce d'un fichier journal",
        "its lead and its header name different schemas": "son amorce et son en-tête indiquent des schémas différents",
    }
)
READER = _table(  # what a log file's reader says (replays.logcodec), after "... cannot be read: "
    {
        "its compressed data is damaged ({damage})": "ses données compressées sont endommagées ({damage})",
        "{part} is damaged ({damage})": "{part} est endommagé ({damage})",
        "the file was cut: it ends before the end of {part}": "le fichier a été tronqué : il s'arrête avant la fin de {part}",
        "its header frame is not msgpack ({error})": "la trame de son en-tête n'est pas du msgpack ({error})",
        "its header frame does not hold a header, a block index and a table of shapes":
            "la trame de son en-tête ne contient pas un en-tête, un index des blocs et une table des formes",
        "the block index after the header is not a list of [events, bytes]": "l'index des blocs après l'en-tête n'est pas une liste de [événements, octets]",
        "their block is not msgpack ({error})": "leur bloc n'est pas du msgpack ({error})",
        "their block holds {n} whole items, not the {count} events the index gives it":
            "leur bloc contient {n} éléments entiers, pas les {count} événements que lui donne l'index",
        "the file goes on after its last block: bytes were appended to it": "le fichier continue après son dernier bloc : des octets y ont été ajoutés",
        "the log holds more than {n} bytes once decompressed: refused, nothing read":
            "le journal fait plus de {n} octets une fois décompressé : refusé, rien n'a été lu",
        "not an mtg-ledger log file: the header is missing or of another format":
            "ce n'est pas un fichier journal mtg-ledger : l'en-tête manque ou est d'un autre format",
        "schema {n} is newer than this engine's schema {count}: upgrade mtg-ledger":
            "le schéma {n} est plus récent que le schéma {count} de ce moteur : mettez mtg-ledger à jour",
        "schema {n} is not a schema version": "le schéma {n} n'est pas une version de schéma",
        "the table of event shapes after the header is missing or not a list of [type, [key, ...]]":
            "la table des formes d'événements après l'en-tête manque ou n'est pas une liste de [type, [clé, ...]]",
        "the file was cut: its compressed data ends before the end of its zstd frame":
            "le fichier a été tronqué : ses données compressées s'arrêtent avant la fin de sa trame zstd",
        "the file goes on after the end of its zstd frame: bytes were appended to it":
            "le fichier continue après la fin de sa trame zstd : des octets y ont été ajoutés",
        "not a msgpack log file ({error})": "ce n'est pas un fichier journal msgpack ({error})",
        "the file ends in the middle of item {n}: it was cut ({count} stray bytes)":
            "le fichier s'arrête au milieu de l'élément {n} : il a été tronqué ({count} octets en trop)",
        "item {n} after the header is not an event map (v, type, hash)": "l'élément {n} après l'en-tête n'est pas une table d'événement (v, type, hash)",
        "event {n} is not [shape, hash, value, ...] with a shape of the table":
            "l'événement {n} n'est pas [forme, hachage, valeur, ...] avec une forme de la table",
        "event {n} holds {count} values, its shape {other}": "l'événement {n} contient {count} valeurs, sa forme {other}",
        "event {n}'s hash is {count} bytes long, not the 32 of a sha256": "le hachage de l'événement {n} fait {count} octets, pas les 32 d'un sha256",
        "event {n}'s hash is not 32 bytes": "le hachage de l'événement {n} ne fait pas 32 octets",
        "cannot open it ({error})": "impossible de l'ouvrir ({error})",
        "cannot read it ({error})": "impossible de le lire ({error})",
    }
)

MESSAGES = _table(
    {
        # a log file that cannot be read whole (replays.logfile.reader)
        "the log file {file} cannot be read from event {v} on: {reason}": "le fichier journal {file} est illisible à partir de l'événement {v} : {reason}",
        "events {v} to {w} of the log file {file} cannot be read: {reason}": "les événements {v} à {w} du fichier journal {file} sont illisibles : {reason}",
        "event {v} of the log file {file} cannot be read: {reason}": "l'événement {v} du fichier journal {file} est illisible : {reason}",
        "the log file {file} cannot be read: {reason}": "le fichier journal {file} est illisible : {reason}",
        # the decision the rules ask for (replays.audit.replay), a stored row (the CLI's replay), the audit's notices
        "the rules ask for a decision ({decision}), the log records {type}":
            "les règles demandent une décision ({decision}), le journal enregistre {type}",
        "event {v}'s stored row cannot be read: {problem}": "la ligne stockée de l'événement {v} est illisible : {problem}",
        "the header": "l'en-tête",
        "event {v}: {player}'s {zone} order is not what seed {seed} gives with this engine":
            "événement {v} : l'ordre de la {zone} de {player} n'est pas celui que donne la graine {seed} avec ce moteur",
        # the rules (core): refused decisions
        "unknown card {card}: no such card in the card pool": "carte inconnue {card} : aucune carte de ce nom dans la réserve de cartes",
        "the game is over: no more decisions can be taken": "la partie est terminée : plus aucune décision ne peut être prise",
        "no player decision is pending": "aucune décision de joueur n'est attendue",
        "{player} is not a player in this game": "{player} n'est pas un joueur de cette partie",
        "{player} has already left the game": "{player} a déjà quitté la partie",
        "{decision}, not for a {to_do}": "{decision} ; ce n'est pas le moment de {to_do}",
        "{player} cannot {to_do}: {other} holds priority": "{player} ne peut pas {to_do} : {other} a la priorité",
        "unknown command {command}": "commande inconnue {command}",
        "{decision}; it is not the time to {to_do}": "{decision} ; ce n'est pas le moment de {to_do}",
        "{player} cannot {to_do}: it is {other}'s to do": "{player} ne peut pas {to_do} : c'est à {other} de le faire",
        "{player} cannot {to_do}: it is for the team of {other} to do": "{player} ne peut pas {to_do} : c'est à l'équipe de {other} de le faire",
        "{what} only during its controller's own turn; it is {player}'s turn":
            "{what} seulement pendant le tour de son contrôleur ; c'est le tour de {player}",
        "{what} only in a main phase, not in the {step} step": "{what} seulement pendant une phase principale, pas pendant l'étape {step}",
        "{what} only while the stack is empty ({n} object(s) on it)": "{what} seulement quand la pile est vide ({n} objet(s) dessus)",
        "{card} is not a land; spells are cast, not played": "{card} n'est pas un terrain : les sorts sont lancés, pas joués",
        "{player} has already played a land this turn": "{player} a déjà joué un terrain ce tour-ci",
        "{card} is a land: it is played (a special action), never cast": "{card} est un terrain : il est joué (action spéciale), jamais lancé",
        # the specific before the general: "{card}" would match "the ability of X" too
        "the ability of {card} has no targets, but {n} were chosen": "la capacité de {card} n'a pas de cible, mais {n} ont été choisies",
        "the ability of {card} needs exactly one target": "la capacité de {card} demande exactement une cible",
        "{card} has no targets, but {n} were chosen": "{card} n'a pas de cible, mais {n} ont été choisies",
        "{card} needs exactly one target, {n} chosen": "{card} demande exactement une cible, {n} choisie(s)",
        "{card} must target {wanted}, not the player {player}": "{card} doit cibler {wanted}, pas le joueur {player}",
        "{player} has left the game and cannot be targeted": "{player} a quitté la partie et ne peut pas être ciblé",
        "{card} must target {wanted}, not {other}": "{card} doit cibler {wanted}, pas {other}",
        "{player} does not control {card}": "{player} ne contrôle pas {card}",
        "{card} has no activated ability number {n}": "{card} n'a pas de capacité activée numéro {n}",
        "{card} is already tapped": "{card} est déjà engagé",
        "{card} has summoning sickness: it can't use a {T} ability this turn":
            "{card} a le mal d'invocation : il ne peut pas utiliser de capacité {T} ce tour-ci",
        "{card}'s ability can be activated only during its controller's upkeep":
            "la capacité de {card} ne peut être activée que pendant l'entretien de son contrôleur",
        "{player} must discard exactly {count} card(s), not {n}": "{player} doit se défausser d'exactement {count} carte(s), pas {n}",
        "{player} has no {card} left in hand to discard": "{player} n'a plus de {card} en main à défausser",
        "{player} has no waiting triggered ability {ref}": "{player} n'a pas de capacité déclenchée en attente {ref}",
        "the triggered ability of {card} (object {n}) is listed twice": "la capacité déclenchée de {card} (objet {n}) est indiquée deux fois",
        "{player} must put all of their waiting triggered abilities on the stack: {cards}":
            "{player} doit mettre sur la pile toutes ses capacités déclenchées en attente : {cards}",
        "{n} target choices for {count} triggered abilities": "{n} choix de cibles pour {count} capacités déclenchées",
        "{ref} is not a legal target for the ability of {card}": "{ref} n'est pas une cible légale pour la capacité de {card}",
        "no {thing} with object id {ref} is on the battlefield": "aucun objet de type {thing} d'identifiant {ref} sur le champ de bataille",
        "no {thing} {ref} on the battlefield ({have} named {card})": "pas de {thing} {ref} sur le champ de bataille ({have} nommé {card})",
        "no object {ref} is on the stack": "aucun objet {ref} sur la pile",
        "no spell {ref} on the stack": "aucun sort {ref} sur la pile",
        "{player} has no {card} in hand": "{player} n'a pas de {card} en main",
        "{player} cannot pay {what}: {pool} in pool and {n} untapped mana source(s)":
            "{player} ne peut pas payer {what} : {pool} en réserve et {n} source(s) de mana dégagée(s)",
        "{card} (object {n}) cannot be tapped for mana by {player} now": "{card} (objet {n}) ne peut pas être engagé pour du mana par {player} maintenant",
        "{pool} cannot pay {what}": "{pool} ne peut pas payer {what}",
        "{card} is a scheme: it belongs in a scheme deck, not in {player}'s cards":
            "{card} est une machination : elle va dans un deck de machinations, pas parmi les cartes de {player}",
        "{card} is not a scheme card and cannot be in a scheme deck":
            "{card} n'est pas une carte de machination et ne peut pas être dans un deck de machinations",
        "{card} cannot assign combat damage to {other}": "{card} ne peut pas assigner de blessures de combat à {other}",
        "{card} cannot assign negative damage": "{card} ne peut pas assigner de blessures négatives",
        "{card} must assign exactly its power, {power}, not {n}": "{card} doit assigner exactement sa force, {power}, pas {n}",
        "{card} must assign lethal damage to {other} before assigning any to {player}":
            "{card} doit assigner des blessures mortelles à {other} avant d'en assigner à {player}",
        "{other} is not an opponent of {player} in the game": "{other} n'est pas un adversaire de {player} dans la partie",
        "{card} (object {n}) is declared as an attacker twice": "{card} (objet {n}) est déclaré deux fois comme attaquant",
        "{card} is not a creature {player}'s team controls": "{card} n'est pas une créature que contrôle l'équipe de {player}",
        "{card} is tapped and cannot attack": "{card} est engagé et ne peut pas attaquer",
        "{card} has summoning sickness and cannot attack this turn": "{card} a le mal d'invocation et ne peut pas attaquer ce tour-ci",
        "{card} must be told which player it attacks: one of {players}": "il faut dire quel joueur {card} attaque : {players}",
        "{card} cannot attack {player}: {why}": "{card} ne peut pas attaquer {player} : {why}",
        "this declaration of attackers has no cost to pay": "cette déclaration d'attaquants n'a aucun coût à payer",
        "{card} (object {n}) can block only one attacker": "{card} (objet {n}) ne peut bloquer qu'un seul attaquant",
        "{card} is not a creature {player} controls": "{card} n'est pas une créature que contrôle {player}",
        "{card} is not attacking": "{card} n'attaque pas",
        "{card} is not a creature and cannot block": "{card} n'est pas une créature et ne peut pas bloquer",
        "{card} is tapped and cannot block": "{card} est engagé et ne peut pas bloquer",
        "{card} can block only creatures attacking {player}; {other} is not":
            "{card} ne peut bloquer que des créatures qui attaquent {player} ; {other} n'en fait pas partie",
        "{card} has flying and {other} has neither flying nor reach": "{card} a le vol et {other} n'a ni le vol ni la portée",
        "{card} is not a creature attacking for {player}": "{card} n'est pas une créature qui attaque pour {player}",
        "{card} deals no combat damage in this combat damage step": "{card} n'inflige pas de blessures de combat pendant cette étape",
        "{card}'s damage is assigned twice": "les blessures de {card} sont assignées deux fois",
    }
)


def _phrase(table: Table) -> Callable[[str], str]:
    return lambda text: _translate(text, table) or text


HOLES: dict[str, Callable[[str], str]] = {
    "step": STEPS,
    "to_do": TO_DO,
    "wanted": WANTED,
    "thing": THING,
    "spell_kind": SPELL_KIND,
    "zone": ZONE,
    "why": WHY,
    "have": _have,
    "decision": _phrase(DECISION),
    "what": _phrase(WHAT),
    "reason": _phrase(READER),
    "damage": _phrase(DAMAGE),
    "part": _words({"its header": "son en-tête", "their block": "leur bloc"}),
}
_RULE = re.compile(r"^(?P<text>.*) \(rule (?P<rule>[\d.a-z]+)\)$", re.DOTALL)


def _translate(text: str, table: Table) -> str | None:
    for pattern, template in table:
        m = pattern.fullmatch(text)
        if m is not None:
            return template.format(**{k: HOLES.get(k, str)(v) for k, v in m.groupdict().items()})
    return None


def known(message: str) -> bool:
    """Whether ``message`` has a French translation."""
    m = _RULE.match(message)
    return _translate(m.group("text") if m else message, MESSAGES) is not None


def french(message: str) -> str:
    """``message`` in French; a trailing "(rule N)" becomes "(règle N)"."""
    m = _RULE.match(message)
    text, rule = (m.group("text"), m.group("rule")) if m else (message, None)
    translated = _translate(text, MESSAGES)
    out = translated if translated is not None else f"{text} (en anglais)"
    return f"{out} (règle {rule})" if rule else out


def french_allowed(player: str, verb: str, action: str) -> str:
    """One of "what the rules allowed there" in French: the verb translated, the action (JSON) as it is."""
    return f"{player} : {TO_DO(verb)} — {action}"
