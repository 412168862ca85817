"""The title of every Comprehensive Rules number the engine cites, in English and in French.

An audit report names "the rule number with its title": ``describe("508.1a", "fr")`` gives
"508.1a — Étape de déclaration des attaquants : quelles créatures peuvent attaquer".

A numbered section (``"508"``) has its official title. A subrule has its section's title followed
by a short summary of what that subrule says, one a judge can read aloud. Numbers follow the
edition the engine plays by (core.setup.RULES_EDITION, 2025-11-14); the French follows the
vocabulary of the official French rules (phase principale d'avant combat, action obligatoire du
tour, mettre à exécution, blessures, marqueur, ...).

A number the table doesn't know falls back to its nearest parent (``"508.1z"`` -> ``"508.1"`` ->
``"508"``), and finally to "". tests/test_rule_titles.py checks that every rule number written as a
string in core/ and replays/ has an entry of its own.
"""

from __future__ import annotations

import re

LANGS = ("en", "fr")

# Section titles: official English titles; the French ones as in the official French rules.
# The chapter-opening sections are all called "General": the chapter is added in parentheses.
SECTIONS: dict[str, tuple[str, str]] = {
    "100": ("General (Game Concepts)", "Généralités (Concepts du jeu)"),
    "101": ("The Magic Golden Rules", "Règles d'or de Magic"),
    "102": ("Players", "Joueurs"),
    "103": ("Starting the Game", "Commencer la partie"),
    "104": ("Ending the Game", "Finir la partie"),
    "106": ("Mana", "Mana"),
    "107": ("Numbers and Symbols", "Nombres et symboles"),
    "108": ("Cards", "Cartes"),
    "110": ("Permanents", "Permanents"),
    "111": ("Tokens", "Jetons"),
    "115": ("Targets", "Cibles"),
    "117": ("Timing and Priority", "Timing et priorité"),
    "119": ("Life", "Points de vie"),
    "120": ("Damage", "Blessures"),
    "121": ("Drawing a Card", "Piocher une carte"),
    "122": ("Counters", "Marqueurs"),
    "202": ("Mana Cost and Color", "Coût de mana et couleur"),
    "302": ("Creatures", "Créatures"),
    "305": ("Lands", "Terrains"),
    "307": ("Sorceries", "Rituels"),
    "312": ("Phenomena", "Phénomènes"),
    "314": ("Schemes", "Machinations"),
    "400": ("General (Zones)", "Généralités (Zones)"),
    "401": ("Library", "Bibliothèque"),
    "402": ("Hand", "Main"),
    "405": ("Stack", "Pile"),
    "500": ("General (Turn Structure)", "Généralités (Structure du tour)"),
    "501": ("Beginning Phase", "Phase de début"),
    "502": ("Untap Step", "Étape de dégagement"),
    "503": ("Upkeep Step", "Étape d'entretien"),
    "504": ("Draw Step", "Étape de pioche"),
    "505": ("Main Phase", "Phase principale"),
    "506": ("Combat Phase", "Phase de combat"),
    "507": ("Beginning of Combat Step", "Étape de début de combat"),
    "508": ("Declare Attackers Step", "Étape de déclaration des attaquants"),
    "509": ("Declare Blockers Step", "Étape de déclaration des bloqueurs"),
    "510": ("Combat Damage Step", "Étape des blessures de combat"),
    "511": ("End of Combat Step", "Étape de fin de combat"),
    "512": ("Ending Phase", "Phase de fin de tour"),
    "513": ("End Step", "Étape de fin"),
    "514": ("Cleanup Step", "Étape de nettoyage"),
    "601": ("Casting Spells", "Lancer des sorts"),
    "602": ("Activating Activated Abilities", "Activer des capacités activées"),
    "603": ("Handling Triggered Abilities", "Gérer les capacités déclenchées"),
    "605": ("Mana Abilities", "Capacités de mana"),
    "608": ("Resolving Spells and Abilities", "Résoudre les sorts et les capacités"),
    "611": ("Continuous Effects", "Effets continus"),
    "613": ("Interaction of Continuous Effects", "Interaction des effets continus"),
    "701": ("Keyword Actions", "Actions mot-clé"),
    "702": ("Keyword Abilities", "Capacités mot-clé"),
    "704": ("State-Based Actions", "Actions basées sur un état"),
    "712": ("Double-Faced Cards", "Cartes recto verso"),
    "714": ("Saga Cards", "Cartes Saga"),
    "726": ("Day and Night", "Jour et nuit"),  # as ../shared/CONTRACT.md numbers it (see the README)
    "730": ("Day and Night", "Jour et nuit"),
    "732": ("Handling Illegal Actions", "Gestion des actions illégales"),
    # 733 is the number "Handling Illegal Actions" has in the editions after 2025-11-14 (the one
    # shared/rules/turn-structure.en.txt quotes); in the 2025-11-14 edition it is 732.
    "733": ("Handling Illegal Actions", "Gestion des actions illégales"),
    "800": ("General (Multiplayer Rules)", "Généralités (Règles multijoueurs)"),
    "802": ("Attack Multiple Players Option", "Option d'attaque de plusieurs joueurs"),
    "805": ("Shared Team Turns Option", "Option des tours de jeu partagés"),
    "808": ("Team vs. Team Variant", "Variante Équipe contre équipe"),
    "904": ("Archenemy", "Archenemy"),
}

# What each subrule says, after its section's title: (English, French).
SUMMARIES: dict[str, tuple[str, str]] = {
    # 100-122: game concepts
    "100.1a": (
        "a two-player game is a game that begins with only two players",
        "une partie à deux joueurs est une partie qui commence avec seulement deux joueurs",
    ),
    "100.1b": (
        "a multiplayer game is a game that begins with more than two players",
        "une partie multijoueur est une partie qui commence avec plus de deux joueurs",
    ),
    "100.2a": (
        "a constructed deck has at least 60 cards and no more than four copies of any card other than basic lands",
        "un deck construit compte au moins 60 cartes et au plus quatre exemplaires d'une même carte, terrains de base exceptés",
    ),
    "100.2b": ("a limited deck has at least 40 cards", "un deck limité compte au moins 40 cartes"),
    "101.4": (
        "when several players make choices or take actions at the same time, the active player goes first, "
        "then the others in turn order (APNAP order); then the actions happen simultaneously",
        "quand plusieurs joueurs font des choix ou des actions en même temps, le joueur actif commence, "
        "puis les autres dans l'ordre du tour (ordre JA-JNA) ; puis les actions ont lieu simultanément",
    ),
    "102.1": (
        "a player is one of the people in the game; the active player is the player whose turn it is",
        "un joueur est l'une des personnes prenant part à la partie ; le joueur actif est celui dont c'est le tour",
    ),
    "102.2": (
        "in a two-player game, a player's opponent is the other player",
        "dans une partie à deux joueurs, l'adversaire d'un joueur est l'autre joueur",
    ),
    "102.3": (
        "in a multiplayer game between teams, a player's teammates are the other players on their team, "
        "and their opponents are all the players not on it",
        "dans une partie multijoueur entre équipes, les coéquipiers d'un joueur sont les autres joueurs de son équipe, "
        "et ses adversaires tous les joueurs qui n'en font pas partie",
    ),
    "103.1": (
        "the players determine the starting player; the turn order begins with that player and proceeds clockwise",
        "les joueurs déterminent qui commence ; l'ordre du tour part de ce joueur et suit le sens des aiguilles d'une montre",
    ),
    "103.3": (
        "each player shuffles their deck, which becomes their library",
        "chaque joueur mélange son deck, qui devient sa bibliothèque",
    ),
    "103.3a": (
        "each supplementary deck, such as a scheme deck, is shuffled by its owner",
        "chaque deck supplémentaire, comme un deck de machinations, est mélangé par son propriétaire",
    ),
    "103.5": (
        "each player draws their starting hand, normally seven cards, and may take mulligans",
        "chaque joueur pioche sa main de départ, normalement sept cartes, et peut faire des mulligans",
    ),
    "103.8a": (
        "in a two-player game, the player who plays first skips the draw step of their first turn",
        "dans une partie à deux joueurs, le joueur qui joue en premier passe l'étape de pioche de son premier tour",
    ),
    "104.1": (
        "a game ends immediately when a player wins, when the game is a draw, or when it is restarted",
        "une partie se termine immédiatement lorsqu'un joueur gagne, lorsque la partie est nulle ou lorsqu'elle recommence",
    ),
    "104.2": ("the ways to win the game", "les façons de gagner la partie"),
    "104.2a": (
        "a player still in the game wins once all their opponents have left the game",
        "un joueur encore dans la partie la gagne dès que tous ses adversaires l'ont quittée",
    ),
    "104.2c": (
        "in a game between teams, a team with at least one player still in the game wins once all the other teams have left it",
        "dans une partie entre équipes, une équipe dont au moins un joueur est encore dans la partie la gagne dès que "
        "toutes les autres équipes l'ont quittée",
    ),
    "104.3": ("the ways to lose the game", "les façons de perdre la partie"),
    "104.3a": (
        "a player can concede the game at any time; a player who concedes leaves the game immediately and loses it",
        "un joueur peut concéder la partie à tout moment ; un joueur qui concède quitte immédiatement la partie et la perd",
    ),
    "104.4": ("the ways the game can end in a draw", "les façons dont la partie peut se terminer par un match nul"),
    "104.4a": (
        "if all the players remaining in a game lose simultaneously, the game is a draw",
        "si tous les joueurs restant dans la partie perdent simultanément, la partie est nulle",
    ),
    "104.5": (
        "a player who loses the game, or for whom it is a draw, leaves the game",
        "un joueur qui perd la partie, ou pour qui elle est nulle, quitte la partie",
    ),
    "107.4": (
        "the mana symbols (the five colored mana symbols, the generic mana symbols, the colorless mana symbol {C}, and others)",
        "les symboles de mana (les cinq symboles de mana coloré, les symboles de mana générique, le symbole de mana "
        "incolore {C}, et d'autres)",
    ),
    "108.1": (
        "a card's wording is that of its Oracle card reference",
        "le texte d'une carte est celui de sa référence Oracle",
    ),
    "110.4": (
        "there are six permanent types (artifact, battle, creature, enchantment, land and planeswalker)",
        "il existe six types de permanents (artefact, bataille, créature, enchantement, terrain et planeswalker)",
    ),
    "111.1": (
        "some effects put tokens onto the battlefield; a token represents a permanent that isn't represented by a card",
        "certains effets mettent des jetons sur le champ de bataille ; un jeton représente un permanent qui n'est pas "
        "représenté par une carte",
    ),
    "111.3": (
        "the spell or ability that creates a token defines its characteristics",
        "le sort ou la capacité qui crée un jeton définit ses caractéristiques",
    ),
    "111.4": (
        "the spell or ability that creates a token sets its name and its subtypes",
        "le sort ou la capacité qui crée un jeton fixe son nom et ses sous-types",
    ),
    "111.7": (
        "a token in a zone other than the battlefield ceases to exist",
        "un jeton qui se trouve dans une autre zone que le champ de bataille cesse d'exister",
    ),
    "115.1": (
        "some spells and abilities require their controller to choose targets, the objects or players they will affect, "
        "as they are put on the stack",
        "certains sorts et capacités demandent à leur contrôleur de choisir des cibles, les objets ou joueurs qu'ils "
        "affecteront, au moment où ils sont mis sur la pile",
    ),
    "115.4": (
        "\"any target\" means a creature, a player, a planeswalker or a battle",
        "« n'importe quelle cible » désigne une créature, un joueur, un planeswalker ou une bataille",
    ),
    "117.1": (
        "priority decides which player can act; the player with priority may cast spells, activate abilities "
        "and take special actions",
        "c'est la priorité qui détermine quel joueur peut agir ; le joueur qui a la priorité peut lancer des sorts, "
        "activer des capacités et effectuer des actions spéciales",
    ),
    "117.1a": (
        "an instant may be cast whenever its caster has priority; other spells only during their caster's main phase, "
        "with priority and the stack empty",
        "un éphémère peut être lancé chaque fois que son lanceur a la priorité ; les autres sorts seulement pendant la "
        "phase principale de leur lanceur, quand il a la priorité et que la pile est vide",
    ),
    "117.3": ("which player has priority", "quel joueur a la priorité"),
    "117.3b": (
        "the active player receives priority after a spell or ability (other than a mana ability) resolves",
        "le joueur actif reçoit la priorité après la résolution d'un sort ou d'une capacité (autre qu'une capacité de mana)",
    ),
    "117.3c": (
        "a player who casts a spell, activates an ability or takes a special action receives priority afterward",
        "un joueur qui lance un sort, active une capacité ou effectue une action spéciale reçoit ensuite la priorité",
    ),
    "117.3d": (
        "a player who passes gives priority to the next player",
        "un joueur qui passe donne la priorité au joueur suivant",
    ),
    "117.4": (
        "when all players pass in succession, the top object of the stack resolves or, if the stack is empty, "
        "the phase or step ends",
        "quand tous les joueurs passent successivement, l'objet au sommet de la pile se résout ou, si la pile est vide, "
        "la phase ou l'étape se termine",
    ),
    "117.5": (
        "before a player would receive priority, state-based actions are performed, then triggered abilities are put "
        "on the stack, until neither applies",
        "avant qu'un joueur ne reçoive la priorité, les actions basées sur un état sont effectuées, puis les capacités "
        "déclenchées sont mises sur la pile, jusqu'à ce qu'il n'y en ait plus",
    ),
    "119.3": (
        "an effect that makes a player gain or lose life adjusts their life total accordingly",
        "un effet qui fait gagner ou perdre des points de vie à un joueur modifie son total de points de vie en conséquence",
    ),
    "120.3": (
        "what damage does depends on what receives it",
        "l'effet des blessures dépend de ce qui les reçoit",
    ),
    "120.3a": (
        "damage dealt to a player by a source without infect makes that player lose that much life",
        "les blessures infligées à un joueur par une source sans l'infection lui font perdre autant de points de vie",
    ),
    "120.3e": (
        "damage dealt to a creature by a source with neither wither nor infect is marked on that creature",
        "les blessures infligées à une créature par une source sans flétrissement ni infection sont marquées sur cette créature",
    ),
    "121.2": ("cards are drawn one at a time", "les cartes sont piochées une par une"),
    "121.4": (
        "a player who attempts to draw from an empty library loses the next time a player would receive priority",
        "un joueur qui tente de piocher dans une bibliothèque vide perd la partie la prochaine fois qu'un joueur devrait "
        "recevoir la priorité",
    ),
    "122.1": (
        "a counter is a marker placed on an object or player that modifies its characteristics or interacts with a rule "
        "or effect",
        "un marqueur est placé sur un objet ou un joueur et modifie ses caractéristiques ou interagit avec une règle ou "
        "un effet",
    ),
    # 200-315: parts of a card, card types
    "202.3": (
        "an object's mana value is the total amount of mana in its mana cost",
        "la valeur de mana d'un objet est la quantité totale de mana de son coût de mana",
    ),
    "302.6": (
        "summoning sickness — a creature can't attack or use {T} abilities unless its controller has controlled it "
        "continuously since their most recent turn began",
        "mal d'invocation — une créature ne peut ni attaquer ni activer de capacité avec {T} si son contrôleur ne la "
        "contrôle pas sans interruption depuis le début de son tour le plus récent",
    ),
    "305.1": (
        "a player with priority may play a land card from their hand during a main phase of their turn while the stack "
        "is empty; it is a special action",
        "un joueur qui a la priorité peut jouer une carte de terrain de sa main pendant une phase principale de son tour, "
        "quand la pile est vide ; c'est une action spéciale",
    ),
    "305.2": (
        "a player can normally play one land during their turn",
        "un joueur peut normalement jouer un terrain pendant son tour",
    ),
    "305.9": (
        "an object that is both a land and another card type can be played only as a land; it can't be cast",
        "un objet qui est à la fois un terrain et d'un autre type de carte ne peut être joué que comme terrain ; "
        "il ne peut pas être lancé",
    ),
    "307.1": (
        "a sorcery can be cast only by a player with priority, during a main phase of their turn, while the stack is empty",
        "un rituel ne peut être lancé que par un joueur qui a la priorité, pendant une phase principale de son tour, "
        "quand la pile est vide",
    ),
    "312.1": (
        "phenomenon is a card type used only in the Planechase variant",
        "phénomène est un type de carte utilisé seulement dans la variante Planechase",
    ),
    "314.1": (
        "scheme is a card type used only in the Archenemy variant",
        "machination est un type de carte utilisé seulement dans la variante Archenemy",
    ),
    # 400-408: zones
    "400.1": (
        "a zone is a place where objects can be during a game (library, hand, battlefield, graveyard, stack, exile "
        "and command)",
        "une zone est un endroit où des objets peuvent se trouver pendant la partie (bibliothèque, main, champ de "
        "bataille, cimetière, pile, exil et zone de commandement)",
    ),
    "400.2": (
        "public and hidden zones: a library and a hand are hidden zones, where not every player may see the cards",
        "zones publiques et zones cachées : la bibliothèque et la main sont des zones cachées, où tous les joueurs "
        "ne peuvent pas voir les cartes",
    ),
    "401.2": (
        "each library is kept in a single face-down pile: no player may look at its cards or change their order",
        "chaque bibliothèque est gardée en une seule pile face cachée : aucun joueur ne peut regarder ses cartes ni "
        "en changer l'ordre",
    ),
    "402.2": (
        "each player has a maximum hand size, normally seven cards",
        "chaque joueur a une taille de main maximale, normalement sept cartes",
    ),
    "402.3": (
        "a player may look at their own hand as much as they want, but not at another player's, whose cards they may count",
        "un joueur peut regarder sa main autant qu'il le souhaite, mais pas celle d'un autre joueur, dont il peut "
        "compter les cartes",
    ),
    "405.1": ("a spell that is cast is put on the stack", "un sort lancé est mis sur la pile"),
    # 500-514: turn structure
    "500.1": (
        "a turn consists of five phases, in order beginning, precombat main, combat, postcombat main and ending",
        "un tour se compose de cinq phases, dans l'ordre début, phase principale d'avant combat, combat, phase "
        "principale d'après combat et fin de tour",
    ),
    "500.2": (
        "a phase or step in which players receive priority ends when the stack is empty and all players pass in succession",
        "une phase ou une étape dans laquelle les joueurs reçoivent la priorité se termine quand la pile est vide et que "
        "tous les joueurs passent successivement",
    ),
    "500.4": (
        "when a step or phase ends, unused mana empties from each player's mana pool",
        "quand une étape ou une phase se termine, le mana inutilisé disparaît de la réserve de chaque joueur",
    ),
    "500.8": (
        "some effects add phases to a turn, directly after the specified phase",
        "certains effets ajoutent des phases à un tour, juste après la phase indiquée",
    ),
    "500.10": (
        "some effects cause a step, phase or turn to be skipped; the game proceeds past it as though it didn't exist",
        "certains effets font passer une étape, une phase ou un tour ; le jeu continue comme s'il n'existait pas",
    ),
    "500.11": (
        "no game events can occur between turns, phases or steps",
        "aucun événement de jeu ne peut avoir lieu entre les tours, les phases ou les étapes",
    ),
    "502.1": (
        "first, the active player's permanents with phasing phase out and those that phased out under their control "
        "phase in",
        "premièrement, les permanents avec le déphasage du joueur actif passent hors phase et ceux qui étaient passés "
        "hors phase sous son contrôle passent en phase",
    ),
    "502.2": (
        "second, day may become night or night become day, depending on the spells the previous turn's active player cast",
        "deuxièmement, le jour peut devenir la nuit ou la nuit le jour, selon les sorts lancés par le joueur actif du "
        "tour précédent",
    ),
    "502.3": ("third, the active player untaps their permanents", "troisièmement, le joueur actif dégage ses permanents"),
    "502.4": (
        "no player receives priority during the untap step",
        "aucun joueur ne reçoit la priorité pendant l'étape de dégagement",
    ),
    "504.1": ("first, the active player draws a card", "premièrement, le joueur actif pioche une carte"),
    "505.1a": (
        "only the first main phase of a turn is a precombat main phase",
        "seule la première phase principale d'un tour est une phase principale d'avant combat",
    ),
    "505.2": (
        "the main phase has no steps; it ends when all players pass in succession while the stack is empty",
        "la phase principale n'est pas découpée en étapes ; elle se termine quand tous les joueurs passent successivement "
        "alors que la pile est vide",
    ),
    "505.3": (
        "first, in an Archenemy game, the archenemy sets the top card of their scheme deck in motion in their precombat "
        "main phase",
        "premièrement, dans une partie d'Archenemy, l'archenemy met à exécution la première carte de son deck de "
        "machinations pendant sa phase principale d'avant combat",
    ),
    "505.4": (
        "second, in their precombat main phase, the active player puts a lore counter on each Saga they control",
        "deuxièmement, pendant sa phase principale d'avant combat, le joueur actif met un marqueur « histoire » sur "
        "chaque Saga qu'il contrôle",
    ),
    "505.6a": (
        "artifact, creature, enchantment, planeswalker and sorcery spells are normally cast only in a main phase, "
        "by the active player",
        "les sorts d'artefact, de créature, d'enchantement et de planeswalker ainsi que les rituels ne se lancent "
        "normalement que pendant une phase principale, par le joueur actif",
    ),
    "505.6b": (
        "during either main phase, the active player may play one land from their hand if the stack is empty and "
        "they have priority",
        "pendant l'une ou l'autre des phases principales, le joueur actif peut jouer un terrain de sa main si la pile "
        "est vide et s'il a la priorité",
    ),
    "506.2": (
        "the active player is the attacking player; in a two-player game the other player is the defending player",
        "le joueur actif est le joueur attaquant ; dans une partie à deux joueurs, l'autre joueur est le joueur défenseur",
    ),
    "506.4": (
        "a permanent is removed from combat if it leaves the battlefield, changes controller, phases out or stops "
        "being a creature",
        "un permanent est retiré du combat s'il quitte le champ de bataille, change de contrôleur, passe hors phase ou "
        "cesse d'être une créature",
    ),
    "507.1": (
        "first, unless all the active player's opponents are defending players, the active player chooses one of them "
        "as the defending player",
        "premièrement, à moins que tous les adversaires du joueur actif ne soient joueurs défenseurs, le joueur actif "
        "en choisit un, qui devient le joueur défenseur",
    ),
    "508.1": (
        "first, the active player declares attackers, following the steps of 508.1 in order; a declaration that can't "
        "follow them is illegal",
        "premièrement, le joueur actif déclare les attaquants en suivant dans l'ordre les étapes de la règle 508.1 ; "
        "une déclaration qui ne peut pas les suivre est illégale",
    ),
    "508.1a": ("which creatures can attack", "quelles créatures peuvent attaquer"),
    "508.1b": (
        "the active player announces which player, planeswalker or battle each attacking creature attacks",
        "le joueur actif annonce quel joueur, planeswalker ou bataille attaque chaque créature",
    ),
    "508.1c": (
        "the declaration must not disobey any restriction on attacking",
        "la déclaration ne doit enfreindre aucune restriction d'attaque",
    ),
    "508.1d": (
        "the declaration must obey as many attack requirements as possible without disobeying a restriction",
        "la déclaration doit respecter le plus grand nombre possible d'obligations d'attaquer sans enfreindre de restriction",
    ),
    "508.1f": (
        "the chosen creatures become tapped (unless they have vigilance); this isn't a cost",
        "les créatures choisies s'engagent (sauf si elles ont la vigilance) ; ce n'est pas un coût",
    ),
    "508.1g": (
        "the active player chooses which optional costs to attack, if any, they will pay",
        "le joueur actif choisit quels coûts d'attaque optionnels il va payer, le cas échéant",
    ),
    "508.1h": (
        "the active player determines the total cost to attack, which is then locked in",
        "le joueur actif détermine le coût total de l'attaque, qui est alors verrouillé",
    ),
    "508.1i": (
        "if the costs to attack require mana, the active player may activate mana abilities",
        "si les coûts d'attaque demandent du mana, le joueur actif peut activer des capacités de mana",
    ),
    "508.1j": (
        "the active player pays all the costs to attack; partial payments are not allowed",
        "le joueur actif paie tous les coûts d'attaque ; les paiements partiels ne sont pas autorisés",
    ),
    "508.2": ("second, the active player gets priority", "deuxièmement, le joueur actif reçoit la priorité"),
    "508.8": (
        "if no creatures are declared as attackers, the declare blockers and combat damage steps are skipped",
        "si aucune créature n'est déclarée comme attaquante, les étapes de déclaration des bloqueurs et des blessures "
        "de combat sont passées",
    ),
    "509.1": (
        "first, the defending player declares blockers, following the steps of 509.1 in order; a declaration that "
        "can't follow them is illegal",
        "premièrement, le joueur défenseur déclare les bloqueurs en suivant dans l'ordre les étapes de la règle 509.1 ; "
        "une déclaration qui ne peut pas les suivre est illégale",
    ),
    "509.1a": (
        "which creatures can block — untapped creatures the defending player controls, each blocking one creature "
        "attacking that player",
        "quelles créatures peuvent bloquer — des créatures dégagées que contrôle le joueur défenseur, chacune bloquant "
        "une créature qui attaque ce joueur",
    ),
    "509.1b": (
        "the declaration must not disobey any restriction on blocking (flying, for example)",
        "la déclaration ne doit enfreindre aucune restriction de blocage (le vol, par exemple)",
    ),
    "509.1c": (
        "the declaration must obey as many block requirements as possible without disobeying a restriction",
        "la déclaration doit respecter le plus grand nombre possible d'obligations de bloquer sans enfreindre de restriction",
    ),
    "509.1h": (
        "an attacking creature with blockers declared for it becomes blocked, one without becomes unblocked, "
        "for the rest of combat",
        "une créature attaquante pour laquelle des bloqueurs ont été déclarés devient bloquée, les autres deviennent "
        "non bloquées, pour le reste du combat",
    ),
    "509.2": ("second, the active player gets priority", "deuxièmement, le joueur actif reçoit la priorité"),
    "510.1": (
        "first, the active player announces how each attacking creature assigns its combat damage, then the defending "
        "player does so for each blocking creature",
        "premièrement, le joueur actif annonce comment chaque créature attaquante assigne ses blessures de combat, puis "
        "le joueur défenseur fait de même pour chaque créature bloqueuse",
    ),
    "510.1a": (
        "each attacking and blocking creature assigns combat damage equal to its power",
        "chaque créature attaquante ou bloqueuse assigne des blessures de combat égales à sa force",
    ),
    "510.1b": (
        "an unblocked creature assigns its combat damage to the player, planeswalker or battle it is attacking",
        "une créature non bloquée assigne ses blessures de combat au joueur, au planeswalker ou à la bataille qu'elle attaque",
    ),
    "510.1c": (
        "a blocked creature assigns its combat damage to the creatures blocking it, divided as its controller chooses "
        "among them",
        "une créature bloquée assigne ses blessures de combat aux créatures qui la bloquent, réparties entre elles au "
        "choix de son contrôleur",
    ),
    "510.1d": (
        "a blocking creature assigns its combat damage to the creatures it is blocking",
        "une créature bloqueuse assigne ses blessures de combat aux créatures qu'elle bloque",
    ),
    "510.2": (
        "second, all the combat damage that's been assigned is dealt simultaneously",
        "deuxièmement, toutes les blessures de combat assignées sont infligées simultanément",
    ),
    "510.4": (
        "if an attacking or blocking creature has first strike or double strike, there are two combat damage steps",
        "si une créature attaquante ou bloqueuse a l'initiative ou la double initiative, il y a deux étapes de blessures "
        "de combat",
    ),
    "511.3": (
        "as the end of combat step ends, all creatures are removed from combat",
        "à la fin de l'étape de fin de combat, toutes les créatures sont retirées du combat",
    ),
    "514.1": (
        "first, the active player discards down to their maximum hand size",
        "premièrement, le joueur actif se défausse jusqu'à sa taille de main maximale",
    ),
    "514.2": (
        "second, damage marked on permanents is removed and \"until end of turn\" effects end, simultaneously",
        "deuxièmement, simultanément, les blessures marquées sur les permanents sont retirées et les effets « jusqu'à la "
        "fin du tour » prennent fin",
    ),
    "514.3": (
        "normally, no player receives priority during the cleanup step",
        "normalement, aucun joueur ne reçoit la priorité pendant l'étape de nettoyage",
    ),
    "514.3a": (
        "if state-based actions or triggered abilities are pending, players receive priority, and another cleanup step "
        "follows",
        "si des actions basées sur un état ou des capacités déclenchées sont en attente, les joueurs reçoivent la "
        "priorité, puis une nouvelle étape de nettoyage a lieu",
    ),
    # 600-616: spells, abilities and effects
    "601.2": (
        "casting a spell follows the steps of 601.2 in order; a cast that can't follow them is illegal",
        "lancer un sort suit dans l'ordre les étapes de la règle 601.2 ; un lancement qui ne peut pas les suivre est illégal",
    ),
    "601.2a": (
        "the spell moves from where it is (usually the hand) to the stack",
        "le sort est déplacé de là où il se trouve (généralement la main) vers la pile",
    ),
    "601.2c": ("the player announces the spell's targets", "le joueur annonce les cibles du sort"),
    "601.2g": (
        "the player may activate mana abilities to pay the cost",
        "le joueur peut activer des capacités de mana pour payer le coût",
    ),
    "601.2h": (
        "the player pays the total cost; partial payments are not allowed",
        "le joueur paie le coût total ; les paiements partiels ne sont pas autorisés",
    ),
    "602.1": (
        "an activated ability has a cost and an effect, written \"[Cost]: [Effect.]\"",
        "une capacité activée a un coût et un effet, et s'écrit « [Coût] : [Effet.] »",
    ),
    "602.2": (
        "activating an ability puts it on the stack and pays its costs; only its source's controller may activate it",
        "activer une capacité la met sur la pile et en paie les coûts ; seul le contrôleur de sa source peut l'activer",
    ),
    "602.2b": (
        "the rest of activating an ability follows the steps of casting a spell, paying its cost included",
        "la suite de l'activation suit les étapes du lancement d'un sort, paiement du coût compris",
    ),
    "602.5b": (
        "a restriction on an activated ability's use (such as \"Activate only once each turn\") keeps applying to that "
        "object, even if its controller changes",
        "une restriction d'utilisation d'une capacité activée (comme « N'activez qu'une seule fois par tour ») continue "
        "de s'appliquer à cet objet, même s'il change de contrôleur",
    ),
    "603.2": (
        "a triggered ability triggers automatically whenever its trigger event occurs",
        "une capacité déclenchée se déclenche automatiquement chaque fois que son événement déclencheur se produit",
    ),
    "603.3": (
        "a triggered ability is put on the stack the next time a player would receive priority",
        "une capacité déclenchée est mise sur la pile la prochaine fois qu'un joueur devrait recevoir la priorité",
    ),
    "603.3b": (
        "each player, in APNAP order, puts their triggered abilities on the stack in the order they choose",
        "chaque joueur, dans l'ordre JA-JNA, met ses capacités déclenchées sur la pile dans l'ordre de son choix",
    ),
    "603.3d": (
        "targets are chosen as a triggered ability is put on the stack; one with no legal target is removed from the stack",
        "les cibles sont choisies quand la capacité déclenchée est mise sur la pile ; une capacité sans cible légale est "
        "retirée de la pile",
    ),
    "605.1a": (
        "an activated ability is a mana ability if it has no target, could add mana, and isn't a loyalty ability",
        "une capacité activée est une capacité de mana si elle n'a pas de cible, peut ajouter du mana et n'est pas une "
        "capacité de loyauté",
    ),
    "605.3a": (
        "a player may activate a mana ability whenever they have priority or are paying a cost that requires mana",
        "un joueur peut activer une capacité de mana chaque fois qu'il a la priorité ou qu'il paie un coût qui demande du mana",
    ),
    "608.2": (
        "an instant, a sorcery or an ability resolves in several steps",
        "un éphémère, un rituel ou une capacité se résout en plusieurs étapes",
    ),
    "608.2b": (
        "if all its targets have become illegal, the spell or ability doesn't resolve",
        "si toutes ses cibles sont devenues illégales, le sort ou la capacité ne se résout pas",
    ),
    "608.2d": (
        "the choices an effect offers are made as it resolves",
        "les choix qu'offre un effet sont faits au moment de sa résolution",
    ),
    "608.2n": (
        "last, an instant or sorcery goes to its owner's graveyard; an ability leaves the stack and ceases to exist",
        "enfin, un éphémère ou un rituel est mis dans le cimetière de son propriétaire ; une capacité est retirée de la "
        "pile et cesse d'exister",
    ),
    "608.3": (
        "a resolving permanent spell becomes a permanent on the battlefield",
        "un sort de permanent qui se résout devient un permanent sur le champ de bataille",
    ),
    "611.2": (
        "continuous effects generated by the resolution of a spell or ability",
        "les effets continus générés par la résolution d'un sort ou d'une capacité",
    ),
    "611.2a": (
        "such an effect lasts as long as it states (for example \"until end of turn\"); without a stated duration, "
        "until the end of the game",
        "un tel effet dure aussi longtemps qu'il l'indique (par exemple « jusqu'à la fin du tour ») ; sans durée "
        "indiquée, jusqu'à la fin de la partie",
    ),
    "611.2b": (
        "an effect lasting \"for as long as\" something does nothing if that duration ended before it would begin",
        "un effet qui dure « aussi longtemps que » quelque chose ne fait rien si cette durée a pris fin avant qu'il ne "
        "commence",
    ),
    "611.2c": (
        "the set of objects such an effect affects is determined when it begins and doesn't change afterward",
        "l'ensemble des objets qu'affecte un tel effet est déterminé quand il commence et ne change plus ensuite",
    ),
    "613.4": (
        "layer 7 — power and toughness effects apply in sublayers 7a to 7d",
        "couche 7 — les effets de force et d'endurance s'appliquent dans les sous-couches 7a à 7d",
    ),
    "613.4c": (
        "layer 7c — effects and counters that modify power and/or toughness",
        "couche 7c — les effets et les marqueurs qui modifient la force et/ou l'endurance",
    ),
    # 700-733: additional rules
    "701.8": (
        "destroy — to destroy a permanent is to move it from the battlefield to its owner's graveyard",
        "détruire — détruire un permanent, c'est le mettre du champ de bataille dans le cimetière de son propriétaire",
    ),
    "701.9": (
        "discard — to discard a card is to move it from its owner's hand to that player's graveyard",
        "se défausser — se défausser d'une carte, c'est la mettre de la main de son propriétaire dans le cimetière de "
        "ce joueur",
    ),
    "701.20": (
        "shuffle — to shuffle a library is to randomize its cards so that no player knows their order",
        "mélanger — mélanger une bibliothèque, c'est en répartir les cartes au hasard pour qu'aucun joueur n'en connaisse l'ordre",
    ),
    "701.21": (
        "sacrifice — to sacrifice a permanent, its controller moves it from the battlefield to its owner's graveyard",
        "sacrifier — pour sacrifier un permanent, son contrôleur le met du champ de bataille dans le cimetière de son "
        "propriétaire",
    ),
    "701.24": (
        "shuffle — to shuffle a library is to randomize its cards so that no player knows their order",
        "mélanger — mélanger une bibliothèque, c'est en répartir les cartes au hasard pour qu'aucun joueur n'en "
        "connaisse l'ordre",
    ),
    "701.26": (
        "tap and untap — to untap a permanent is to turn it back upright from a sideways position",
        "engager et dégager — dégager un permanent, c'est le remettre à la verticale",
    ),
    "701.32": (
        "set in motion — the archenemy moves a scheme off the top of their scheme deck and turns it face up",
        "mettre à exécution — l'archenemy retire une machination du dessus de son deck de machinations et la retourne "
        "face visible",
    ),
    "702.9": ("flying", "vol"),
    "702.9b": (
        "flying — a creature with flying can't be blocked except by creatures with flying and/or reach",
        "vol — une créature avec le vol ne peut être bloquée que par des créatures avec le vol et/ou la portée",
    ),
    "702.10": (
        "haste — a creature with haste can attack and use {T} abilities even if it came under its controller's "
        "control this turn",
        "célérité — une créature avec la célérité peut attaquer et activer des capacités avec {T} même si son "
        "contrôleur n'en a pris le contrôle que ce tour-ci",
    ),
    "702.17": ("reach", "portée"),
    "702.17b": (
        "reach — a creature with flying can't be blocked except by creatures with flying and/or reach",
        "portée — une créature avec le vol ne peut être bloquée que par des créatures avec le vol et/ou la portée",
    ),
    "702.19": ("trample", "piétinement"),
    "702.19b": (
        "trample — once all its blockers are assigned lethal damage, the rest may be assigned to the player, "
        "planeswalker or battle it is attacking",
        "piétinement — une fois que des blessures mortelles ont été assignées à tous ses bloqueurs, le reste peut être "
        "assigné au joueur, au planeswalker ou à la bataille qu'elle attaque",
    ),
    "702.19d": (
        "trample — a blocked creature with trample that no creature is blocking any more assigns all its damage to "
        "the player or planeswalker it is attacking",
        "piétinement — une créature bloquée avec le piétinement que plus aucune créature ne bloque assigne toutes ses "
        "blessures au joueur ou au planeswalker qu'elle attaque",
    ),
    "702.19e": (
        "trample over planeswalkers — if the planeswalker such a creature attacks is removed from combat, its damage "
        "may be assigned to the defending player",
        "piétinement sur les planeswalkers — si le planeswalker qu'attaque une telle créature est retiré du combat, ses "
        "blessures peuvent être assignées au joueur défenseur",
    ),
    "702.26": ("phasing", "déphasage"),
    "702.26b": (
        "phasing — a phased-out permanent is treated as though it doesn't exist",
        "déphasage — un permanent hors phase est considéré comme n'existant pas",
    ),
    "702.145": (
        "daybound and nightbound — as it becomes night, daybound permanents transform; as it becomes day, nightbound ones",
        "diurne et nocturne — quand on passe à la nuit, les permanents diurnes se transforment ; quand on passe au jour, "
        "les permanents nocturnes",
    ),
    "702.145d": (
        "daybound — if it is neither day nor night and a player controls a permanent with daybound, it becomes day",
        "diurne — si ce n'est ni le jour ni la nuit et qu'un joueur contrôle un permanent avec le diurne, on passe au jour",
    ),
    "704.3": (
        "whenever a player would receive priority, all applicable state-based actions are performed simultaneously, "
        "again until none apply; then triggered abilities go on the stack",
        "chaque fois qu'un joueur devrait recevoir la priorité, toutes les actions basées sur un état applicables sont "
        "effectuées simultanément, jusqu'à ce qu'il n'y en ait plus ; puis les capacités déclenchées vont sur la pile",
    ),
    "704.5": ("the list of state-based actions", "la liste des actions basées sur un état"),
    "704.5a": (
        "a player with 0 or less life loses the game",
        "un joueur qui a 0 point de vie ou moins perd la partie",
    ),
    "704.5b": (
        "a player who attempted to draw from an empty library since the last check loses the game",
        "un joueur qui a tenté de piocher dans une bibliothèque vide depuis la dernière vérification perd la partie",
    ),
    "704.5d": (
        "a token in a zone other than the battlefield ceases to exist",
        "un jeton qui se trouve dans une autre zone que le champ de bataille cesse d'exister",
    ),
    "704.5f": (
        "a creature with toughness 0 or less is put into its owner's graveyard",
        "une créature dont l'endurance est de 0 ou moins est mise dans le cimetière de son propriétaire",
    ),
    "704.5g": (
        "a creature with lethal damage marked on it is destroyed",
        "une créature sur laquelle sont marquées des blessures mortelles est détruite",
    ),
    "704.5s": (
        "a Saga with at least as many lore counters as its final chapter number, and no chapter ability of it waiting "
        "or on the stack, is sacrificed",
        "une Saga qui a au moins autant de marqueurs « histoire » que son numéro de chapitre final, et dont aucune "
        "capacité de chapitre n'est en attente ou sur la pile, est sacrifiée",
    ),
    "714.2": (
        "a chapter symbol is a triggered ability, a chapter ability",
        "un symbole de chapitre est une capacité déclenchée, une capacité de chapitre",
    ),
    "714.2b": (
        "a chapter ability triggers when lore counters put on its Saga bring their number to its chapter number",
        "une capacité de chapitre se déclenche quand des marqueurs « histoire » mis sur sa Saga en portent le nombre à "
        "son numéro de chapitre",
    ),
    "714.2d": (
        "a Saga's final chapter number is the greatest chapter number among its chapter abilities",
        "le numéro de chapitre final d'une Saga est le plus grand numéro parmi ses capacités de chapitre",
    ),
    "714.3a": (
        "a Saga enters the battlefield with a lore counter on it",
        "une Saga arrive sur le champ de bataille avec un marqueur « histoire »",
    ),
    "714.3b": (
        "as the active player's precombat main phase begins, they put a lore counter on each Saga they control",
        "au début de la phase principale d'avant combat du joueur actif, celui-ci met un marqueur « histoire » sur "
        "chaque Saga qu'il contrôle",
    ),
    "714.4": (
        "a Saga whose lore counters reach its final chapter number, with no chapter ability of it on the stack, "
        "is sacrificed",
        "une Saga dont le nombre de marqueurs « histoire » atteint son numéro de chapitre final, sans capacité de "
        "chapitre sur la pile, est sacrifiée",
    ),
    "726.2": (
        "if it's neither day nor night and a daybound permanent is on the battlefield, it becomes day",
        "s'il ne fait ni jour ni nuit et qu'un permanent diurne est sur le champ de bataille, il fait jour",
    ),
    "726.3a": (
        "if it's day and the previous turn's active player cast no spells during that turn, it becomes night",
        "s'il fait jour et que le joueur actif du tour précédent n'a lancé aucun sort pendant ce tour, il fait nuit",
    ),
    "726.3b": (
        "if it's night and the previous turn's active player cast two or more spells during that turn, it becomes day",
        "s'il fait nuit et que le joueur actif du tour précédent a lancé deux sorts ou plus pendant ce tour, il fait jour",
    ),
    "726.3": (
        "as the untap step begins, day or night may change depending on the spells the previous turn's active player cast",
        "au début de l'étape de dégagement, le jour ou la nuit peut changer selon les sorts lancés par le joueur actif du tour précédent",
    ),
    "730.1": (
        "day and night are designations the game itself can have; it starts with neither",
        "le jour et la nuit sont des désignations que la partie elle-même peut avoir ; elle commence sans aucune des deux",
    ),
    "730.2": (
        "in the untap step, the game checks the previous turn to see whether day becomes night or night becomes day",
        "pendant l'étape de dégagement, le jeu examine le tour précédent pour savoir si le jour devient la nuit ou la "
        "nuit le jour",
    ),
    "730.2a": (
        "if it is day and the previous turn's active player cast no spells that turn, it becomes night",
        "si c'est le jour et que le joueur actif du tour précédent n'a lancé aucun sort pendant ce tour, on passe à la nuit",
    ),
    "730.2b": (
        "if it is night and the previous turn's active player cast two or more spells that turn, it becomes day",
        "si c'est la nuit et que le joueur actif du tour précédent a lancé au moins deux sorts pendant ce tour, on passe "
        "au jour",
    ),
    "732.1": (
        "an action a player can't legally take is reversed entirely, and any payments already made are canceled",
        "une action qu'un joueur ne peut pas effectuer légalement est entièrement annulée, ainsi que tout paiement déjà "
        "effectué",
    ),
    "733.1": (
        "an action a player can't legally take is reversed entirely, and any payments already made are canceled",
        "une action qu'un joueur ne peut pas effectuer légalement est entièrement annulée, ainsi que tout paiement déjà "
        "effectué",
    ),
    # 800-811: multiplayer rules
    "800.4": (
        "unlike two-player games, multiplayer games can continue after players have left the game",
        "contrairement aux parties à deux joueurs, les parties multijoueurs peuvent continuer après que des joueurs ont "
        "quitté la partie",
    ),
    "800.4a": (
        "when a player leaves the game, the objects they own leave it too, objects they control on the stack cease to "
        "exist, and anything else they control is exiled",
        "quand un joueur quitte la partie, les objets dont il est propriétaire la quittent aussi, les objets qu'il "
        "contrôle sur la pile cessent d'exister et tout autre objet qu'il contrôle est exilé",
    ),
    "800.4j": (
        "if the active player leaves the game, their turn continues to its end without an active player",
        "si le joueur actif quitte la partie, son tour continue jusqu'à son terme sans joueur actif",
    ),
    "802.2": (
        "all the attacking player's opponents are defending players",
        "tous les adversaires du joueur attaquant sont des joueurs défenseurs",
    ),
    "802.4": (
        "each defending player, in APNAP order, declares blockers",
        "chaque joueur défenseur, dans l'ordre JA-JNA, déclare ses bloqueurs",
    ),
    "802.4a": (
        "a defending player blocks only with creatures they control, and only creatures attacking them, their "
        "planeswalkers or the battles they protect",
        "un joueur défenseur ne bloque qu'avec des créatures qu'il contrôle, et seulement des créatures qui l'attaquent, "
        "lui, ses planeswalkers ou les batailles qu'il protège",
    ),
    "805.2": (
        "when a team's players can't agree on a choice, the team's primary player makes it",
        "quand les joueurs d'une équipe ne s'accordent pas sur un choix, c'est le joueur principal de l'équipe qui le fait",
    ),
    "805.4": ("teams take turns rather than players", "ce sont les équipes qui jouent les tours, et non les joueurs"),
    "805.4a": (
        "the team whose turn it is is the active team; each other team is a nonactive team",
        "l'équipe dont c'est le tour est l'équipe active ; chaque autre équipe est une équipe non active",
    ),
    "805.4b": (
        "each player on a team draws a card during that team's draw step",
        "chaque joueur d'une équipe pioche une carte pendant l'étape de pioche de cette équipe",
    ),
    "805.4c": (
        "each player on the active team may play a land during the team's turn",
        "chaque joueur de l'équipe active peut jouer un terrain pendant le tour de son équipe",
    ),
    "805.5": (
        "teams have priority, not individual players",
        "ce sont les équipes qui ont la priorité, et non les joueurs individuellement",
    ),
    "805.5a": (
        "a player may cast a spell, activate an ability or take a special action when their team has priority",
        "un joueur peut lancer un sort, activer une capacité ou effectuer une action spéciale quand son équipe a la priorité",
    ),
    "805.6": (
        "in APNAP order, the active team goes first, then each nonactive team in turn order",
        "dans l'ordre JA-JNA, l'équipe active passe d'abord, puis chaque équipe non active dans l'ordre du tour",
    ),
    "805.7": (
        "the active team attacks as one: a single declaration of attackers, made by any of its players, with the "
        "creatures of every player of the team",
        "l'équipe active attaque d'un seul bloc : une seule déclaration d'attaquants, faite par n'importe lequel de ses "
        "joueurs, avec les créatures de chaque joueur de l'équipe",
    ),
    "805.8": (
        "the defending team declares its blockers together, in one declaration any of its players may make",
        "l'équipe défenseure déclare ses bloqueurs ensemble, en une seule déclaration que n'importe lequel de ses "
        "joueurs peut faire",
    ),
    "805.9": (
        "a creature of the defending team may block any creature attacking that team or one of its players",
        "une créature de l'équipe défenseure peut bloquer toute créature qui attaque cette équipe ou l'un de ses joueurs",
    ),
    "805.10": (
        "an effect that speaks of a player's turn, or makes a player skip a step or phase, applies to that player's "
        "team's turn",
        "un effet qui parle du tour d'un joueur, ou qui fait passer une étape ou une phase à un joueur, s'applique au "
        "tour de l'équipe de ce joueur",
    ),
    # 900-905: casual variants
    "904.2": (
        "an Archenemy game is a Team vs. Team game between exactly two teams, with the attack multiple players and "
        "shared team turns options",
        "une partie d'Archenemy est une partie Équipe contre équipe entre exactement deux équipes, avec les options "
        "d'attaque de plusieurs joueurs et des tours de jeu partagés",
    ),
    "904.2a": (
        "one of the teams consists of exactly one player, the archenemy",
        "l'une des équipes se compose d'un seul joueur, l'archenemy",
    ),
    "904.3": (
        "the archenemy needs a scheme deck of at least twenty scheme cards",
        "l'archenemy a besoin d'un deck de machinations d'au moins vingt cartes de machination",
    ),
    "904.4": (
        "all scheme cards remain in the command zone throughout the game",
        "toutes les cartes de machination restent dans la zone de commandement pendant toute la partie",
    ),
    "904.5": (
        "the archenemy's starting life total is 40; each other player's is 20",
        "l'archenemy commence la partie à 40 points de vie, chaque autre joueur à 20",
    ),
    "904.6": (
        "the archenemy takes the first turn of the game",
        "l'archenemy joue le premier tour de la partie",
    ),
    "904.9": (
        "as the archenemy's precombat main phase begins, they set the top card of their scheme deck in motion",
        "au début de sa phase principale d'avant combat, l'archenemy met à exécution la première carte de son deck de "
        "machinations",
    ),
    "904.10": (
        "a face-up scheme that isn't ongoing, with no scheme ability waiting or on the stack, goes to the bottom of its "
        "owner's scheme deck",
        "une machination non continue face visible, sans capacité de machination en attente ou sur la pile, est mise "
        "au-dessous du deck de machinations de son propriétaire",
    ),
}


def _section(rule: str) -> str:
    return rule.split(".", 1)[0]


def _build() -> dict[str, tuple[str, str]]:
    titles = dict(SECTIONS)
    for rule, (en, fr) in SUMMARIES.items():
        sec_en, sec_fr = SECTIONS[_section(rule)]
        titles[rule] = (f"{sec_en}: {en}", f"{sec_fr} : {fr}")
    return titles


TITLES: dict[str, tuple[str, str]] = _build()

_SUBRULE = re.compile(r"^(\d{3}\.\d+)[a-z]$")
_RULE = re.compile(r"^(\d{3})\.\d+$")


def parent(rule: str) -> str | None:
    """The rule one level up: "508.1a" -> "508.1" -> "508" -> None."""
    for pattern in (_SUBRULE, _RULE):
        m = pattern.match(rule)
        if m:
            return m.group(1)
    return None


def title(rule: str, lang: str = "en") -> str:
    """The title of ``rule`` in ``lang`` ("en" or "fr"); for a number the table doesn't have, that of
    its nearest parent; "" when none is known."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGS)}")
    index = LANGS.index(lang)
    current: str | None = rule.strip().rstrip(".")
    while current is not None:
        if current in TITLES:
            return TITLES[current][index]
        current = parent(current)
    return ""


def describe(rule: str, lang: str = "en") -> str:
    """The rule number with its title, as an audit report prints it: "508.1a — Declare Attackers
    Step: which creatures can attack"; the number alone when no title is known."""
    text = title(rule, lang)
    number = rule.strip().rstrip(".")
    return f"{number} — {text}" if text else number
