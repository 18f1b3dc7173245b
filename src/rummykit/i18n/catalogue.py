"""The message catalogue: every error text the engine raises, in English and German, by rule id.

An entry pairs the engine's English text, written as a template (``{action}: you do not hold
{cards}``), with its German text. The engine keeps raising English text and a ``rule`` id (programs
branch on the id); :func:`rummykit.i18n.localize_error` finds the entry whose template matches the
message and fills the German text with the pieces, each rendered in German by its name:

=================================  ===========================================================
``action``                         an action in notation → ``Herz-Dame an Figur 3 anlegen``
``card``, ``cards``, ``pending``   cards → ``Herz-Dame`` (one card) or ``7♥ 8♥`` (several)
``text``, ``meld``, ``shape``      a meld's cards → ``7♥ 8♥ JK(=9♥)``
``seat``                           a seat number → the player's name (or ``Platz 2``)
``option``                         an option name → its label (``Mindestwert beim Auslegen``)
``game``                           a preset name → the name players use (``Wiener Rommé``)
``rank``                           a rank letter → ``Dame``
``alts``                           cards joined by ``or`` → joined by ``oder``
``field``                          a record's quoted field → ``„players“``
``often``                          how often → ``dreimal`` (the number alone in English)
``bytes``                          a size in bytes → ``2.000.000`` (points between thousands)
``reason``, ``problem``, ``why``,  a part of the message with its own entry (:data:`FRAGMENTS`)
``scope``, ``where``, ``who``,
``first``, ``how``, ``times``
anything else                      kept as it is (numbers, quoted input, notation words)
=================================  ===========================================================

A name may carry a digit to tell two pieces of one kind apart (``card2``); ``{name_raw}`` in the
German text repeats a piece as the engine wrote it (an option's own name next to its label).
``tests/test_i18n.py`` reads the engine's sources and checks that every message it can raise has an
entry here, so a changed message cannot slip through; a message without an entry is still shown in
German, by the name of its rule (:data:`RULE_NAMES`).
"""

from __future__ import annotations

from typing import Final

Entry = tuple[str, str, str]
"""(rule id or ``*`` for any, English template, German template)."""

REFUSED: Final = "{option}: "
REFUSED_DE: Final = "„{option}“ ({option_raw}): "
REFUSALS: Final[tuple[tuple[str, str], ...]] = (
    ("{quoted} is not one of {known}", "{quoted} ist keiner der Werte {known}"),
    ("must be true or false, not {quoted}", "true oder false, nicht {quoted}"),
    ("must be an integer, not {quoted}", "eine ganze Zahl, nicht {quoted}"),
    ("must be between {low} and {high}, got {number}", "zwischen {low} und {high}, nicht {number}"),
    ("must be a pair of integers, not {quoted}", "ein Paar ganzer Zahlen, nicht {quoted}"),
    (
        "both numbers must be between {low} and {high}, got {quoted}",
        "beide Zahlen zwischen {low} und {high}, nicht {quoted}",
    ),
    ("must be text, not {quoted}", "ein Text, nicht {quoted}"),
    ("{count} is below min_players {limit}", "{count} ist weniger als min_players {limit}"),
    (
        "{count} is not a table size where a dealer can sit out ({where})",
        "{count} ist keine Tischgröße, an der der Geber aussetzen kann ({where})",
    ),
    ("needs both ace_low_in_runs and ace_high_in_runs", "braucht ace_low_in_runs und ace_high_in_runs"),
    (
        "round-the-corner runs (K-A-2) are not supported by this engine",
        "Folgen um die Ecke (K-A-2) spielt diese Engine nicht",
    ),
    (
        "needs 3 <= set_size_min <= set_size_max, got {low}/{high}",
        "es muss 3 <= set_size_min <= set_size_max gelten, nicht {low}/{high}",
    ),
    ("a set of distinct suits holds at most 4 cards", "ein Satz verschiedener Farben hat höchstens 4 Karten"),
    (
        "low bound {low} must be below high bound {high}",
        "die untere Grenze {low} muss unter der oberen {high} liegen",
    ),
    (
        "{value} does not score a knock game, and knock_threshold {limit} makes this one (use "
        "deadwood_all or gin_difference, or knock_threshold=none for a melding game)",
        "{value} wertet kein Klopfspiel, und knock_threshold {limit} macht es zu einem (deadwood_all "
        "oder gin_difference; knock_threshold=none für ein Spiel mit Auslegen)",
    ),
    ("forehand_extra_card is not a knock-game deal", "forehand_extra_card ist kein Geben für ein Klopfspiel"),
    (
        "a knock game has no opening minimum (use none)",
        "ein Klopfspiel hat keinen Mindestwert beim Auslegen (none)",
    ),
    ("{value} needs knock_threshold (a knock game)", "{value} braucht knock_threshold (ein Klopfspiel)"),
    (
        "a melding game needs an opening minimum (0 for none)",
        "ein Spiel mit Auslegen braucht einen Mindestwert (0 für keinen)",
    ),
    (
        "{value} is only for gin (hand_scoring = gin_difference)",
        "{value} gibt es nur bei Gin (hand_scoring = gin_difference)",
    ),
    (
        "elimination_last_survivor needs an elimination threshold",
        "elimination_last_survivor braucht eine Grenze fürs Ausscheiden",
    ),
    (
        "the high bound {high} is above elimination_threshold {limit}: "
        "a player who reaches the threshold is out and cannot buy back",
        "die obere Grenze {high} liegt über elimination_threshold {limit}: "
        "wer die Grenze erreicht, ist ausgeschieden und kann sich nicht zurückkaufen",
    ),
    ("{value} is not supported: {why}", "{value} wird nicht gespielt: {why}"),
    (
        "re-entry after elimination is not supported (its rules were not verified)",
        "Wiedereinstieg nach dem Ausscheiden wird nicht gespielt (seine Regeln sind nicht belegt)",
    ),
    (
        "a deck of {count} cards cannot deal {number} cards to {players} players and leave a stock",
        "{count} Karten reichen nicht, um {players} Spielern je {number} Karten "
        "zu geben und einen Stoß zu lassen",
    ),
    (
        "a deck of {count} cards cannot deal {number} cards to {players} players and leave a stock "
        "(the deal table of {name} stops at {most} players, and beyond it hand_size {size} is dealt: "
        "lower max_players or hand_size)",
        "{count} Karten reichen nicht, um {players} Spielern je {number} Karten zu geben und einen "
        "Stoß zu lassen (die Kartentabelle von {name} endet bei {most} Spielern, darüber werden "
        "hand_size {size} Karten gegeben: max_players oder hand_size senken)",
    ),
    ("gin is a game for exactly two players", "Gin spielen genau zwei Personen"),
    ("gin is played with one pack and no jokers", "Gin wird mit einem Kartenspiel ohne Joker gespielt"),
    ("gin runs take the ace low only", "in Gin ist das Ass in Folgen nur unten"),
    ("gin sets hold 3 or 4 cards", "ein Satz in Gin hat 3 oder 4 Karten"),
    (
        "a gin hand starts with the upcard (gin_first_upcard or upcard)",
        "ein Gin-Spiel beginnt mit der offenen Karte (gin_first_upcard oder upcard)",
    ),
    ("a gin hand ends at the wall (wall_draw)", "ein Gin-Spiel endet an der Mauer (wall_draw)"),
    (
        "gin knocks by knock_card (knock_threshold keeps 10)",
        "in Gin gilt knock_card als Klopfgrenze (knock_threshold bleibt 10)",
    ),
    (
        "no stock is left to draw above a wall of {count}",
        "über einer Mauer von {count} Karten bleibt kein Stoß zum Ziehen",
    ),
    (
        "{value} is not a preset ({values}): a rule set is named by the preset it starts from, and its "
        "text form (and every record) by that name and its changes",
        "{value} ist kein bekanntes Spiel ({values}): ein Regelsatz heißt wie das Spiel, von dem er "
        "ausgeht, und seine Textform (und jede Aufzeichnung) nennt diesen Namen und seine Änderungen",
    ),
    (
        "1 under knock_comparison lt allows no knock (a knock needs 0 < deadwood < 1): use "
        "knock_threshold=0 to play without knocking, or knock_comparison=le",
        "1 mit knock_comparison lt lässt kein Klopfen zu (Klopfen verlangt 0 < Restpunkte < 1): "
        "knock_threshold=0 für ein Spiel ohne Klopfen oder knock_comparison=le",
    ),
    (
        "target_score counts plus points, which {value} never gives: the match would not end "
        "(use winner_collects or winner_gets_sum)",
        "target_score zählt Pluspunkte, die {value} nie vergibt: die Partie endete nie "
        "(winner_collects oder winner_gets_sum)",
    ),
    (
        "{value} counts minus points, which winner_collects never gives: the match would not end",
        "{value} zählt Minuspunkte, die winner_collects nie vergibt: die Partie endete nie",
    ),
    (
        "a hand of {count} can never lay a meld of three cards",
        "mit {count} Karten auf der Hand lässt sich nie eine Figur aus drei Karten auslegen",
    ),
    (
        "a hand of {count} can never reach the opening minimum of {limit} (a card counts 11 at most)",
        "mit {count} Karten auf der Hand wird der Mindestwert {limit} beim ersten Auslegen nie "
        "erreicht (eine Karte zählt höchstens 11)",
    ),
    (
        "the hand of {count} dealt at a table of {players} can never lay a meld of three cards",
        "mit den {count} Karten, die bei {players} Spielern gegeben werden, lässt sich nie eine Figur "
        "aus drei Karten auslegen",
    ),
    (
        "the hand of {count} dealt at a table of {players} can never reach the opening minimum of "
        "{limit} (a card counts 11 at most)",
        "mit den {count} Karten, die bei {players} Spielern gegeben werden, wird der Mindestwert "
        "{limit} beim ersten Auslegen nie erreicht (eine Karte zählt höchstens 11)",
    ),
    (
        "a joker exchanged before the opening would be laid at once ({value}), in a meld below the "
        "opening minimum (use exchanged_joker_destination = hand, or joker_exchange_requires_opened "
        "= true)",
        "ein vor dem ersten Auslegen getauschter Joker käme sofort ({value}) in eine Figur unter dem "
        "Mindestwert (exchanged_joker_destination = hand oder joker_exchange_requires_opened = true)",
    ),
)
"""The whys of the rules validation's refusals, English and German: an entry of :data:`ERRORS`
each, written after :data:`REFUSED` and :data:`REFUSED_DE`."""

ERRORS: Final[tuple[Entry, ...]] = (
    # The turn -------------------------------------------------------------------------------------
    (
        "draw_first",
        "{action}: first draw from the stock or take the discard",
        "{action}: Zuerst vom Stoß ziehen oder von der Ablage nehmen",
    ),
    (
        "one_draw_per_turn",
        "{action}: you have already drawn this turn",
        "{action}: Du hast in diesem Zug schon gezogen",
    ),
    (
        "one_draw_per_turn",
        "{action}: the {who} is dealt the extra card and starts without drawing: {first}",
        "{action}: {who} bekommt die zusätzliche Karte und beginnt ohne zu ziehen: {first}",
    ),
    ("stock_exhaustion", "draw: the stock is empty", "Der Stoß ist leer"),
    ("empty_discard_pile", "take: the discard pile is empty", "Die Ablage ist leer"),
    ("card_not_in_hand", "{action}: you do not hold {cards}", "{action}: {cards} hast du nicht auf der Hand"),
    ("not_in_this_game", "{action}: not an action of {game}", "{action}: Diesen Zug gibt es in {game} nicht"),
    ("not_an_action", "not an action: {quoted}", "Kein Zug: {quoted}"),
    ("not_an_action", "swap: {quoted} is not a lay-off", "Jokertausch: {quoted} ist kein Anlegen"),
    (
        "not_an_action",
        "layoff: {quoted} is not a run end (low or high)",
        "Anlegen: {quoted} ist kein Ende einer Folge (low oder high)",
    ),
    (
        "not_a_card",
        "{verb}: {quoted} is not a card (a Card, or its code from 0 to {limit})",
        "{verb}: {quoted} ist keine Karte (eine Card oder ihr Code von 0 bis {limit})",
    ),
    (
        "not_a_card",
        "{verb}: {quoted} is not a sequence of cards",
        "{verb}: {quoted} ist keine Folge von Karten",
    ),
    (
        "no_such_meld",
        "{verb}: {quoted} is not a table meld number (1, 2, …)",
        "{verb}: {quoted} ist keine Nummer einer Figur auf dem Tisch (1, 2, …)",
    ),
    ("card_not_in_hand", "{verb}: more than {limit} cards", "{verb}: mehr als {limit} Karten"),
    (
        "not_in_this_game",
        "{action}: in {game} cards stay in hand; discard, knock or call rummy",
        "{action}: In {game} bleiben die Karten auf der Hand; abwerfen, klopfen oder Rummy rufen",
    ),
    (
        "not_in_this_game",
        "{action}: a knock discards a card: name it ('knock CARD')",
        "{action}: Beim Klopfen wirfst du eine Karte ab: nenne sie („knock KARTE“)",
    ),
    ("hand_over", "{action}: the hand is over", "{action}: Das Spiel ist vorbei"),
    ("nothing_to_undo", "undo: no action to take back", "Es gibt keinen Zug zum Zurücknehmen"),
    (
        "seat",
        "seat {number} does not exist at a table of {count}",
        "Platz {number} gibt es an einem Tisch mit {count} Plätzen nicht",
    ),
    ("no_such_meld", "{action}: there is no meld {number}", "{action}: Es gibt keine Figur {number}"),
    (
        "no_such_meld",
        "there is no meld {number} on the table ({count} melds)",
        "Auf dem Tisch liegt keine Figur {number} ({count} Figuren)",
    ),
    (
        "no_such_meld",
        "there is no meld {number} on the table (1 meld)",
        "Auf dem Tisch liegt keine Figur {number} (1 Figur)",
    ),
    (
        "going_out_requires_discard",
        "{action}: you must keep a card to discard (going_out_requires_discard)",
        "{action}: Du musst eine Karte zum Abwerfen behalten",
    ),
    # Taking the discard ---------------------------------------------------------------------------
    (
        "discard_pickup_requires_opened",
        "take: only a player who has opened may take the discard {card} "
        "(discard_pickup_requires_opened is opened_before)",
        "Nur wer schon ausgelegt hat, darf {card} von der Ablage nehmen",
    ),
    (
        "*",
        "take: {card} must be laid this turn ({option}), and you have {how}",
        "{card} müsste in diesem Zug ausgelegt werden ({option}), und dafür hast du {how}",
    ),
    (
        "discard_pickup_requires_meld",
        "{action}: afterwards the taken discard {card} could no longer be laid this turn "
        "(discard_pickup_requires_meld)",
        "{action}: Danach könnte die von der Ablage genommene Karte {card} in diesem Zug nicht mehr "
        "ausgelegt werden",
    ),
    (
        "discard_pickup_requires_meld",
        "{action}: the taken discard {card} must be part of the opening",
        "{action}: Die von der Ablage genommene Karte {card} muss Teil des ersten Auslegens sein",
    ),
    (
        "discard_pickup_requires_meld",
        "{action}: first lay the taken discard {card} (discard_pickup_requires_meld)",
        "{action}: Lege zuerst die von der Ablage genommene Karte {card} aus",
    ),
    # Opening, melding, laying off -----------------------------------------------------------------
    (
        "opened",
        "{action}: you have already opened; lay further melds with 'meld'",
        "{action}: Du hast schon ausgelegt; weitere Figuren mit „meld“ legen",
    ),
    (
        "opening_min_points",
        "cannot open with {value} points{scope}: opening_min_points is {minimum}",
        "Auslegen mit {value} Punkten{scope} reicht nicht: Der Mindestwert ist {minimum}",
    ),
    (
        "opening_min_points",
        "{action}: your first melds must be an opening ('open …')",
        "{action}: Deine ersten Figuren musst du mit „open …“ auslegen (erstes Auslegen)",
    ),
    (
        "layoff_requires_opened",
        "{action}: only a player who has opened may lay off",
        "{action}: Anlegen darf nur, wer schon ausgelegt hat",
    ),
    (
        "layoff_on_opening_turn",
        "{action}: you opened this turn, so lay-offs wait for your next turn (layoff_on_opening_turn is off)",
        "{action}: Du hast in diesem Zug zum ersten Mal ausgelegt; anlegen darfst du erst im nächsten Zug",
    ),
    ("*", "{action}: {reason}", "{action}: {reason}"),
    # Joker exchange -------------------------------------------------------------------------------
    (
        "joker_exchange",
        "{action}: give the natural card(s) that replace a joker",
        "{action}: Gib die echten Karten an, die einen Joker ersetzen",
    ),
    (
        "joker_exchange",
        "{action}: no joker of meld {number} ({meld}) stands for {alts}",
        "{action}: Kein Joker von Figur {number} ({meld}) steht für {alts}",
    ),
    (
        "joker_exchange",
        "{action}: {card} neither replaces a joker of meld {number} ({meld}) nor fits on it",
        "{action}: {card} ersetzt keinen Joker von Figur {number} ({meld}) und passt auch nicht daran",
    ),
    ("joker_exchange", "no joker in {meld} stands for {card}", "Kein Joker in {meld} steht für {card}"),
    (
        "set_joker_exchange",
        "{action}: a joker may leave a set only when the set becomes four natural cards "
        "(set_joker_exchange is complete_four_only)",
        "{action}: Ein Joker darf einen Satz nur verlassen, wenn der Satz dadurch vier echte Karten hat",
    ),
    (
        "exchanged_joker_destination",
        "{action}: the freed joker goes to your hand (exchanged_joker_destination is hand); "
        "lay it with a separate action",
        "{action}: Der frei gewordene Joker kommt auf deine Hand; lege ihn mit einem eigenen Zug aus",
    ),
    (
        "exchanged_joker_destination",
        "{action}: the freed joker must go into a new meld (exchanged_joker_destination)",
        "{action}: Der frei gewordene Joker muss in eine neue Figur",
    ),
    (
        "exchanged_joker_destination",
        "{action}: the freed joker must be laid at once (exchanged_joker_destination is {value}); "
        "add 'then meld … JK'",
        "{action}: Der frei gewordene Joker muss sofort ausgelegt werden; hänge „then meld … JK“ an",
    ),
    (
        "exchanged_joker_destination",
        "{action}: the freed joker must be laid at once (exchanged_joker_destination is {value}); "
        "add 'then meld … JK' or 'then layoff JK on N'",
        "{action}: Der frei gewordene Joker muss sofort ausgelegt oder angelegt werden; hänge „then meld … "
        "JK“ oder „then layoff JK on N“ an",
    ),
    (
        "exchanged_joker_destination",
        "{action}: the freed jokers go to your hand (exchanged_joker_destination is hand); "
        "lay them with a separate action",
        "{action}: Die frei gewordenen Joker kommen auf deine Hand; lege sie mit einem eigenen Zug aus",
    ),
    (
        "exchanged_joker_destination",
        "{action}: the freed jokers must go into new melds (exchanged_joker_destination)",
        "{action}: Die frei gewordenen Joker müssen in neue Figuren",
    ),
    (
        "exchanged_joker_destination",
        "{action}: the freed jokers must be laid at once (exchanged_joker_destination is {value}); "
        "add 'then meld … JK'",
        "{action}: Die frei gewordenen Joker müssen sofort ausgelegt werden; hänge „then meld … JK“ an",
    ),
    (
        "exchanged_joker_destination",
        "{action}: the freed jokers must be laid at once (exchanged_joker_destination is {value}); "
        "add 'then meld … JK' or 'then layoff JK on N'",
        "{action}: Die frei gewordenen Joker müssen sofort ausgelegt oder angelegt werden; hänge „then "
        "meld … JK“ oder „then layoff JK on N“ an",
    ),
    # Discarding -----------------------------------------------------------------------------------
    (
        "may_discard_taken_discard",
        "{action}: you may not discard the card you took from the "
        "discard pile (may_discard_taken_discard is off)",
        "{action}: Die gerade von der Ablage genommene Karte darfst du nicht abwerfen",
    ),
    (
        "may_discard_taken_discard",
        "{action}: you may not discard the card you took from the discard pile, nor your other "
        "{card}: the two cannot be told apart (may_discard_taken_discard is off)",
        "{action}: Die gerade von der Ablage genommene Karte darfst du nicht abwerfen, auch nicht "
        "deine andere {card}: Die beiden sind nicht zu unterscheiden",
    ),
    (
        "joker_discard_allowed",
        "{action}: a joker may be discarded only as the closing card "
        "(joker_discard_allowed is only_when_closing)",
        "{action}: Einen Joker darf man nur als letzte Karte abwerfen",
    ),
    (
        "discard_playable_card_allowed",
        "{action}: {card} fits a meld on the table, so it may not be discarded; "
        "lay it off from your next turn (discard_playable_card_allowed is off)",
        "{action}: {card} passt an eine Figur auf dem Tisch und darf darum nicht abgeworfen werden; "
        "lege die Karte ab deinem nächsten Zug an",
    ),
    (
        "discard_playable_card_allowed",
        "{action}: {card} fits a meld on the table, so it may not be discarded; "
        "keep it to lay off once you have opened (discard_playable_card_allowed is off)",
        "{action}: {card} passt an eine Figur auf dem Tisch und darf darum nicht abgeworfen werden; "
        "behalte die Karte, um sie anzulegen, sobald du ausgelegt hast",
    ),
    (
        "discard_playable_card_allowed",
        "{action}: {card} could be laid off on the table, so it may not be discarded "
        "(discard_playable_card_allowed is off)",
        "{action}: {card} könnte angelegt werden und darf darum nicht abgeworfen werden",
    ),
    # Knocking -------------------------------------------------------------------------------------
    (
        "knock_extra_turn",
        "{action}: the player in seat {seat} has already knocked; now you only draw and discard",
        "{action}: {seat} hat schon geklopft; jetzt wird nur noch gezogen und abgeworfen",
    ),
    (
        "knock_extra_turn",
        "{action}: after a knock the others only draw and discard",
        "{action}: Nach dem Klopfen wird nur noch gezogen und abgeworfen",
    ),
    (
        "rummy",
        "{action}: your hand has no deadwood; call 'rummy {code}' instead",
        "{action}: Alle deine Karten passen in Figuren; rufe stattdessen Rummy („rummy {code}“)",
    ),
    (
        "rummy",
        "cannot call Rummy: {deadwood} points of your cards fit in no meld",
        "Rummy geht nicht: {deadwood} Punkte deiner Karten passen in keine Figur",
    ),
    (
        "knock_threshold",
        "cannot knock with {deadwood} deadwood: knock_threshold needs deadwood {sign} {threshold}",
        "Klopfen mit {deadwood} Restpunkten geht nicht: Die Restpunkte müssen {sign} {threshold} sein",
    ),
    # Gin Rummy (rummykit.gin) ------------------------------------------------------------------------
    (
        "gin_first_upcard",
        "draw: first take the upcard or pass on it (the stock opens after both passed)",
        "Zuerst die offene Karte nehmen oder passen (vom Stoß wird erst gezogen, wenn beide gepasst haben)",
    ),
    (
        "gin_first_upcard",
        "{action}: take the upcard or pass",
        "{action}: Nimm die offene Karte oder passe",
    ),
    (
        "draw_first",
        "{action}: both players passed on the upcard; draw from the stock",
        "{action}: Beide haben bei der offenen Karte gepasst; ziehe vom Stoß",
    ),
    ("not_in_this_game", "{action}: discard a card or knock", "{action}: Wirf eine Karte ab oder klopfe"),
    (
        "wall_draw",
        "{action}: the stock is down to the wall; knock with the top discard or pass",
        "{action}: Der Stoß ist bei der Mauer angekommen; klopfe mit der offenen Karte oder passe",
    ),
    (
        "empty_discard_pile",
        "{action}: there is no discard to knock with",
        "{action}: Es gibt keine offene Karte, mit der du klopfen könntest",
    ),
    (
        "knock_card",
        "cannot knock{where}: your best deadwood after a discard is {deadwood}, the knock card is {limit}",
        "Klopfen{where} geht nicht: Nach dem besten Abwurf bleiben dir {deadwood} Restpunkte, "
        "die Klopfgrenze ist {limit}",
    ),
    (
        "knock_card",
        "{action}: after discarding {card} your deadwood is above the knock card {limit}",
        "{action}: Nach dem Abwurf von {card} liegen deine Restpunkte über der Klopfgrenze {limit}",
    ),
    (
        "knock_card",
        "{action}: after this discard your deadwood would be above the knock card {limit}",
        "{action}: Nach diesem Abwurf lägen deine Restpunkte über der Klopfgrenze {limit}",
    ),
    (
        "knock_card",
        "{action}: with this meld your cards left could not get within the knock card {limit}",
        "{action}: Mit dieser Figur kämen deine übrigen Karten nicht mehr auf die Klopfgrenze {limit} "
        "oder darunter",
    ),
    (
        "knock_card",
        "pass: your unmelded cards total {left}, above the knock card {limit}; lay more melds",
        "Deine Karten ohne Figur zählen {left} Punkte, mehr als die Klopfgrenze {limit}; "
        "lege weitere Figuren aus",
    ),
    (
        "may_discard_taken_discard",
        "{action}: it would leave only {card}, the card you took from the discard pile, which you "
        "may not discard this turn; keep another card to discard (may_discard_taken_discard is off)",
        "{action}: Dann bliebe nur {card}, die von der Ablage genommene Karte, die du in diesem Zug "
        "nicht abwerfen darfst; behalte eine andere Karte zum Abwerfen",
    ),
    (
        "may_discard_taken_discard",
        "{action}: you may not discard the card you took",
        "{action}: Die eben genommene Karte darfst du nicht gleich wieder abwerfen",
    ),
    (
        "knock_discard",
        "{action}: after knocking, discard first",
        "{action}: Nach dem Klopfen zuerst abwerfen",
    ),
    (
        "card_not_in_hand",
        "{action}: you do not hold these cards",
        "{action}: Diese Karten hast du nicht auf der Hand",
    ),
    (
        "one_meld_at_a_time",
        "{action}: in gin melds are laid one at a time",
        "{action}: Bei Gin werden die Figuren einzeln ausgelegt",
    ),
    (
        "gin_meld",
        "{action}: not a gin meld (3 or 4 of a rank, or a run of 3 to 5 cards of a suit, ace low; "
        "lay a longer run as two melds)",
        "{action}: Keine Figur im Gin (3 oder 4 Karten eines Werts oder eine Folge von 3 bis 5 Karten "
        "einer Farbe, das Ass nur unten; eine längere Folge als zwei Figuren legen)",
    ),
    (
        "knock_melds",
        "{action}: lay your melds one at a time, then pass",
        "{action}: Lege deine Figuren einzeln aus, dann passe",
    ),
    (
        "big_gin",
        "{action}: big gin lays all {n} cards in melds, and yours do not all meld; discard first",
        "{action}: Beim großen Gin müssen alle {n} Karten in Figuren liegen, deine tun das nicht; "
        "wirf zuerst ab",
    ),
    (
        "big_gin",
        "{action}: with this meld your other cards could not all lie in melds (big gin)",
        "{action}: Mit dieser Figur könnten deine übrigen Karten nicht alle in Figuren liegen (großes Gin)",
    ),
    (
        "big_gin",
        "pass: a big gin lays every card; lay melds of the {n} cards left",
        "Beim großen Gin werden alle Karten ausgelegt; lege Figuren aus den {n} übrigen Karten aus",
    ),
    (
        "knock_discard",
        "{action}: after knocking, discard first, or lay all {n} cards in melds (big gin)",
        "{action}: Nach dem Klopfen zuerst abwerfen oder alle {n} Karten in Figuren auslegen (großes Gin)",
    ),
    (
        "may_discard_taken_discard",
        "cannot knock{where}: only discarding {card}, the card you took, keeps your deadwood within the "
        "knock card {limit}",
        "Klopfen{where} geht nicht: Nur der Abwurf von {card}, der eben genommenen Karte, hielte deine "
        "Restpunkte innerhalb der Klopfgrenze {limit}",
    ),
    (
        "layoff_first",
        "{action}: first lay cards off onto the knocker's melds ('layoff 5H'), then pass",
        "{action}: Lege zuerst Karten an die Figuren des Klopfenden an („layoff 5H“), dann passe",
    ),
    (
        "layoff",
        "{action}: {card} fits none of the knocker's melds",
        "{action}: {card} passt an keine Figur des Klopfenden",
    ),
    (
        "layoff_done",
        "{action}: you passed on lay-offs; lay your own melds or pass",
        "{action}: Du hast beim Anlegen gepasst; lege deine eigenen Figuren aus oder passe",
    ),
    (
        "layoff_melds",
        "{action}: lay your own melds one at a time, then pass",
        "{action}: Lege deine eigenen Figuren einzeln aus, dann passe",
    ),
    # The match ------------------------------------------------------------------------------------
    ("match_over", "{action}: the match is over", "{action}: Die Partie ist vorbei"),
    (
        "buyback",
        "{action}: no buy-back offer is open: {why}",
        "{action}: Es gibt kein Rückkaufangebot: {why}",
    ),
    (
        "buyback",
        "{action}: seat {seat} must first answer the buy-back offer ('buyback' or 'decline')",
        "{action}: {seat} muss zuerst das Rückkaufangebot beantworten („zurückkaufen“ oder „ablehnen“)",
    ),
    # Melds ----------------------------------------------------------------------------------------
    (
        "meld_shape",
        "{text}: not a set (the ranks differ) and not a run (the suits differ)",
        "{text}: Kein Satz (die Werte sind verschieden) und keine Folge (die Farben sind verschieden)",
    ),
    (
        "meld_shape",
        "{shape}: a set's naturals must all have rank {rank}",
        "{shape}: Die echten Karten eines Satzes müssen alle den Wert {rank} haben",
    ),
    (
        "meld_shape",
        "{shape}: kind must be 'set' or 'run' with a suit letter",
        "{shape}: Die Art muss „set“ oder „run“ mit einem Farbbuchstaben sein",
    ),
    (
        "meld_shape",
        "{shape}: the naturals do not stand on positions {start}…",
        "{shape}: Die echten Karten stehen nicht an den Stellen ab {start}",
    ),
    ("meld_size", "{text}: a meld needs at least 3 cards", "{text}: Eine Figur braucht mindestens 3 Karten"),
    ("joker_limit", "{text}: {problem}", "{text}: {problem}"),
    (
        "joker_limit",
        "{text}: a set needs two natural cards (one natural card with jokers is a run)",
        "{text}: Ein Satz braucht zwei echte Karten (eine echte Karte mit Jokern ist eine Folge)",
    ),
    (
        "joker_limit",
        "another joker would break joker_limit in {meld}",
        "Ein weiterer Joker wäre in {meld} einer zu viel",
    ),
    (
        "set_size_max",
        "{text}: a set holds at most {count} cards",
        "{text}: Ein Satz hat höchstens {count} Karten",
    ),
    ("set_size_max", "the set {meld} is full ({count} cards)", "Der Satz {meld} ist voll ({count} Karten)"),
    (
        "set_size_min",
        "{text}: a set needs at least {count} cards",
        "{text}: Ein Satz braucht mindestens {count} Karten",
    ),
    (
        "set_distinct_suits",
        "{text}: the cards of a set must have different suits",
        "{text}: Die Karten eines Satzes müssen verschiedene Farben haben",
    ),
    (
        "set_distinct_suits",
        "the set {meld} already has a card of {card}'s suit",
        "Der Satz {meld} hat schon eine Karte in der Farbe von {card}",
    ),
    (
        "set_rank",
        "{card} does not match the rank of the set {meld}",
        "{card} passt nicht zum Wert des Satzes {meld}",
    ),
    (
        "joker_assignment",
        "{text}: two jokers in a set stand for two different suits",
        "{text}: Zwei Joker in einem Satz müssen für zwei verschiedene Farben stehen",
    ),
    (
        "joker_assignment",
        "{text}: a joker in this set stands for a {rank} of a missing suit, not {card}",
        "{text}: Ein Joker in diesem Satz steht für den Wert {rank} "
        "in einer fehlenden Farbe, nicht für {card}",
    ),
    (
        "joker_assignment",
        "{text}: a joker in this run must stand for a card of its suit, not {card}",
        "{text}: Ein Joker in dieser Folge muss für eine Karte ihrer Farbe stehen, nicht für {card}",
    ),
    (
        "joker_assignment",
        "{text}: the joker in place {number} stands for {card}, not {card2}",
        "{text}: Der Joker an Stelle {number} steht für {card}, nicht für {card2}",
    ),
    (
        "allow_ace_both_ends",
        "{text}: a run may not hold the ace at both ends (allow_ace_both_ends is off)",
        "{text}: Eine Folge darf das Ass nicht an beiden Enden haben",
    ),
    (
        "run_sequence",
        "{text}: the cards of a run must follow each other, written low to high (like 5H 6H 7H)",
        "{text}: Die Karten einer Folge müssen lückenlos aufeinander folgen, von unten nach oben "
        "geschrieben (wie 5♥ 6♥ 7♥)",
    ),
    (
        "run_sequence",
        "{text}: runs are written low to high: {cards}",
        "{text}: Folgen werden von unten nach oben geschrieben: {cards}",
    ),
    (
        "run_sequence",
        "{card} does not fit{where} on {meld}: a run grows only by the card next to one of its ends",
        "{card} passt nicht{where} an {meld}: Eine Folge wächst nur um die Karte neben einem ihrer Enden",
    ),
    (
        "run_bounds",
        "{text}: nothing can come below a low ace",
        "{text}: Unter ein niedriges Ass kommt nichts",
    ),
    ("run_bounds", "{text}: nothing can come above a high ace", "{text}: Über ein hohes Ass kommt nichts"),
    (
        "run_bounds",
        "the run {meld} is closed{where}: nothing comes below a low or above a high ace",
        "Die Folge {meld} ist{where} geschlossen: Unter ein niedriges und über ein hohes Ass kommt nichts",
    ),
    (
        "ace_high_in_runs",
        "{text}: an ace may not be high in a run (ace_high_in_runs is off)",
        "{text}: Ein Ass darf in einer Folge nicht oben stehen",
    ),
    (
        "ace_high_in_runs",
        "{card} cannot be high in a run (ace_high_in_runs is off)",
        "{card} darf in einer Folge nicht oben stehen",
    ),
    (
        "ace_low_in_runs",
        "{text}: an ace may not be low in a run (ace_low_in_runs is off)",
        "{text}: Ein Ass darf in einer Folge nicht unten stehen",
    ),
    (
        "ace_low_in_runs",
        "{card} cannot be low in a run (ace_low_in_runs is off)",
        "{card} darf in einer Folge nicht unten stehen",
    ),
    (
        "run_wraparound",
        "{text}: runs do not go round the corner (K-A-2 is not allowed)",
        "{text}: Folgen gehen nicht um die Ecke (K-A-2 ist nicht erlaubt)",
    ),
    (
        "max_adjacent_jokers",
        "{text}: {count} jokers side by side; max_adjacent_jokers is {limit}",
        "{text}: {count} Joker nebeneinander; erlaubt sind höchstens {limit}",
    ),
    (
        "max_adjacent_jokers",
        "a joker{where} would put too many jokers side by side in {meld}",
        "Mit einem Joker{where} stünden in {meld} zu viele Joker nebeneinander",
    ),
    ("run_suit", "{card} is not of the run's suit ({meld})", "{card} hat nicht die Farbe der Folge ({meld})"),
    (
        "joker_end_assignment",
        "a joker laid off on {meld} goes to the top end, where it fits "
        "(joker_end_assignment is upward_default: no declaring the low end)",
        "Ein an {meld} angelegter Joker kommt ans obere Ende, wo er "
        "passt (das untere Ende kann man nicht wählen)",
    ),
    # Notation (what a person types) ---------------------------------------------------------------
    (
        "notation",
        "unknown action {quoted}; actions: draw, take, open, meld, layoff, swap, discard, knock, rummy, "
        "pass, buyback, decline",
        "Unbekannter Zug {quoted}; Züge: „draw“, „take“, „open“, „meld“, „layoff“, „swap“, „discard“, "
        "„knock“, „rummy“, „pass“, „buyback“, „decline“",
    ),
    (
        "notation",
        "{verb} needs cards, e.g. '{verb} 7C 8C 9C' (melds separated by '|')",
        "„{verb}“ braucht Karten, z. B. „{verb} 7C 8C 9C“ (Figuren mit „|“ trennen)",
    ),
    (
        "notation",
        "not a lay-off: {quoted} (write e.g. 'layoff 5H on 2' or 'layoff JK on 2 low')",
        "Kein Anlegen: {quoted} (z. B. „layoff 5H on 2“ oder „layoff JK on 2 low“)",
    ),
    ("notation", "a lay-off moves one card: {quoted}", "Anlegen bewegt genau eine Karte: {quoted}"),
    (
        "notation",
        "table melds are numbered from 1: {quoted}",
        "Die Figuren auf dem Tisch sind ab 1 nummeriert: {quoted}",
    ),
    (
        "notation",
        "table melds are numbered from 1 to {limit}: {quoted}",
        "Die Figuren auf dem Tisch sind von 1 bis {limit} nummeriert: {quoted}",
    ),
    (
        "notation",
        "a lay-off moves one card: {quoted} (e.g. 'layoff 5H on 2', gin: 'layoff 5H')",
        "Anlegen bewegt genau eine Karte: {quoted} (z. B. „layoff 5H on 2“, bei Gin: „layoff 5H“)",
    ),
    ("notation", "{verb} takes no arguments: {quoted}", "{verb} steht allein, ohne Karten: {quoted}"),
    (
        "notation",
        "{verb} needs exactly one card, e.g. '{verb2} QS': {quoted}",
        "{verb} braucht genau eine Karte, z. B. „{verb2} QS“: {quoted}",
    ),
    (
        "notation",
        "not a joker exchange: {quoted} (write e.g. 'swap 6C on 3 then meld 8D 9D JK')",
        "Kein Jokertausch: {quoted} (z. B. „swap 6C on 3 then meld 8D 9D JK“)",
    ),
    # What the terminal reads (cli/parsing.py): its own examples, German card tokens.
    (
        "notation",
        "not a lay-off: {quoted} (e.g. 'layoff 5H on 2' or 'l 4 2')",
        "Kein Anlegen: {quoted} (z. B. „anlegen 5H an 2“ oder „l 4 2“)",
    ),
    (
        "notation",
        "not a lay-off: {quoted} (e.g. 'layoff 5H' or 'l 4')",
        "Kein Anlegen: {quoted} (z. B. „anlegen 5H“ oder „l 4“)",
    ),
    (
        "notation",
        "not a joker exchange: {quoted} (e.g. 'swap 6C on 3 then meld 8D 9D JK' or 'swap 4 on 3')",
        "Kein Jokertausch: {quoted} (z. B. „tauschen 6C gegen 3 dann auslegen 8D 9D JK“ "
        "oder „tauschen 4 gegen 3“)",
    ),
    (
        "notation",
        "not a card: {quoted} (the suit is a letter after the rank: C clubs, D diamonds, H hearts, "
        "S spades; or the card's position in the hand: x 5)",
        "Keine Karte: {quoted} (Farbe als Buchstabe hinter dem Wert: C = Kreuz, D = Karo, H = Herz, "
        "S = Pik; oder die Position in der Hand: x 5)",
    ),
    (
        "notation",
        "{quoted} could be several cards: {card} is typed {typed}, {card2} {typed2}, {card3} {typed3}",
        "{quoted} ist mehrdeutig: {card} ist {typed}, {card2} {typed2}, {card3} {typed3}",
    ),
    (
        "notation",
        "after 'then' write 'meld …' (once, first) or 'layoff …': {quoted}",
        "Nach „then“ folgt „meld …“ (einmal, zuerst) oder „layoff …“: {quoted}",
    ),
    (
        "notation",
        "no card has code {code}: codes run from 0 to {limit}",
        "Keine Karte hat den Code {code}: Die Codes gehen von 0 bis {limit}",
    ),
    (
        "notation",
        "not a card: {quoted} (write rank then suit, e.g. AH, 10D, TD, QC, KS, or JK for a joker)",
        "Keine Karte: {quoted} (erst der Wert, dann die Farbe, z. B. "
        "AH, 10D, TD, QC, KS oder JK für einen Joker)",
    ),
    (
        "notation",
        "no card has rank {quoted} and suit {quoted2}",
        "Keine Karte hat Wert {quoted} und Farbe {quoted2}",
    ),
    (
        "notation",
        "a joker cannot stand for a joker: {quoted}",
        "Ein Joker kann nicht für einen Joker stehen: {quoted}",
    ),
    ("notation", "no cards in meld text {quoted}", "Keine Karten in {quoted}"),
    (
        "notation",
        "a hand may hold at most two copies of a face, not more of {card}",
        "Jede Karte kann höchstens zweimal auf einer Hand sein, {card} ist öfter da",
    ),
    (
        "notation",
        "no card at position {number}: your hand has {count} cards (1–{count2})",
        "Keine Karte an Stelle {number}: Deine Hand hat {count} Karten (1–{count2})",
    ),
    (
        "notation",
        "no card at position {number}: your hand has 1 card",
        "Keine Karte an Stelle {number}: Deine Hand hat 1 Karte",
    ),
    (
        "notation",
        "the discard pile shows {card}, not {card2}",
        "Auf der Ablage liegt {card}, nicht {card2}",
    ),
    (
        "notation",
        "that line is {count} characters long; a move is at most {limit}",
        "Diese Zeile ist {count} Zeichen lang; ein Zug hat höchstens {limit}",
    ),
    (
        "notation",
        "unknown command {quoted}; 'help' lists your moves and the short forms",
        "Unbekannter Befehl {quoted}; „hilfe“ zeigt deine Züge und die Kurzformen",
    ),
    (
        "notation",
        "{quoted} takes nothing after it",
        "Nach {quoted} steht nichts weiter",
    ),
    (
        "notation",
        "type a move, or 'help' for the legal moves",
        "Gib einen Zug ein oder „hilfe“ für die erlaubten Züge",
    ),
    # Records, saved games and self-play runs: the files a person opens (record.py, seating.py,
    # selfplay.py, cli/saves.py, cli/replay.py). File names and the values read stay as written.
    (
        "notation",
        "cannot read record {quoted}: {detail}",
        "Die Aufzeichnung {quoted} ist nicht lesbar: {detail}",
    ),
    ("notation", "a record must be JSON: {detail}", "Eine Aufzeichnung muss JSON sein: {detail}"),
    (
        "notation",
        "a record must be JSON text (UTF-8): {detail}",
        "Eine Aufzeichnung muss JSON-Text sein (UTF-8): {detail}",
    ),
    (
        "notation",
        "the index lists {quoted}, but the run has no such file",
        "Der Index nennt {quoted}, aber diese Datei fehlt im Lauf",
    ),
    (
        "notation",
        "{quoted} holds {count} games, not the {count2} its index lists: it was changed after the run "
        "wrote it",
        "{quoted} enthält {count} Partien statt der {count2}, die der Index nennt: Die Datei wurde nach "
        "dem Lauf verändert",
    ),
    (
        "notation",
        "{quoted} holds other games than its index lists (its SHA-256 differs): it was changed after "
        "the run wrote it",
        "{quoted} enthält andere Partien, als der Index nennt (ihr SHA-256 weicht ab): Die Datei wurde "
        "nach dem Lauf verändert",
    ),
    (
        "notation",
        "{quoted} holds fewer games than the {count} its index lists: it was cut short after the run "
        "wrote it",
        "{quoted} enthält weniger Partien als die {count}, die der Index nennt: Die Datei wurde nach dem "
        "Lauf gekürzt",
    ),
    (
        "notation",
        "line {number} of {quoted} is longer than {bytes} characters; a record is at most {bytes2}",
        "Zeile {number} von {quoted} hat mehr als {bytes} Zeichen; eine Aufzeichnung hat höchstens {bytes2}",
    ),
    (
        "notation",
        "record {quoted} is {bytes} bytes; a record is at most {bytes2}",
        "Die Aufzeichnung {quoted} hat {bytes} Bytes; eine Aufzeichnung hat höchstens {bytes2} Bytes",
    ),
    (
        "notation",
        'not a rummykit record (expected "format": "{format}")',
        'Das ist keine Aufzeichnung von rummykit (erwartet wird "format": "{format}")',
    ),
    (
        "notation",
        "unsupported record version {version}; this version reads {number} and {number2}",
        "Die Aufzeichnung hat die Version {version}; diese Version von rummykit liest die Versionen "
        "{number} und {number2}",
    ),
    (
        "notation",
        "a version {number} record holds its 'deals' or its 'reshuffles'",
        "Eine Aufzeichnung der Version {number} enthält ihre „deals“ oder ihre „reshuffles“",
    ),
    (
        "notation",
        "a match record with 'reshuffles' holds its 'deals' too",
        "Eine Aufzeichnung einer Partie mit „reshuffles“ enthält auch ihre „deals“",
    ),
    (
        "notation",
        "a record with 'deals' has no 'deck' (the first deal is its first deck)",
        "Eine Aufzeichnung mit „deals“ hat kein „deck“ (das erste Geben ist ihr erstes Blatt)",
    ),
    (
        "notation",
        "record fields 'deals' and 'reshuffles' need record version {number}",
        "Die Felder „deals“ und „reshuffles“ gibt es erst in Aufzeichnungen der Version {number}",
    ),
    (
        "notation",
        "record field 'deals' belongs to a match record (a round has its 'deck')",
        "Das Feld „deals“ gehört in die Aufzeichnung einer Partie (ein einzelnes Spiel hat sein „deck“)",
    ),
    (
        "notation",
        "record field 'deals' must be a list of deck orders, one per hand dealt",
        "Das Feld „deals“ der Aufzeichnung muss eine Liste von Kartenreihenfolgen sein, eine je gegebenem "
        "Spiel",
    ),
    (
        "notation",
        "record field 'reshuffles' must list the stock of each reshuffle as card text, one list per hand "
        "dealt",
        "Das Feld „reshuffles“ der Aufzeichnung muss den Stapel jedes Neumischens in Kartenschreibweise "
        "nennen, eine Liste je gegebenem Spiel",
    ),
    (
        "notation",
        "record field 'reshuffles' must list the stock of each reshuffle as card text, in one list (the "
        "round's)",
        "Das Feld „reshuffles“ der Aufzeichnung muss den Stapel jedes Neumischens in Kartenschreibweise "
        "nennen, in einer Liste (der des Spiels)",
    ),
    (
        "notation",
        "hand {hand} reshuffles the discard pile more often than the record holds ({count} reshuffles)",
        "Spiel {hand} mischt den Ablagestapel öfter neu, als die Aufzeichnung enthält ({count}-mal)",
    ),
    (
        "notation",
        "reshuffle {number} of hand {hand} in the record is not the discard pile's cards",
        "Neumischen {number} von Spiel {hand} in der Aufzeichnung enthält nicht die Karten des "
        "Ablagestapels",
    ),
    (
        "notation",
        "this record's seed deals its hands (it holds no 'deals')",
        "Bei dieser Aufzeichnung gibt der Startwert die Karten (sie enthält keine „deals“)",
    ),
    (
        "notation",
        "the match deals hand {number}, but the record holds only {count} deals",
        "Die Partie gibt Spiel {number}, die Aufzeichnung enthält aber nur {count}-mal Geben",
    ),
    (
        "notation",
        "deals held by the record: {count}; hands its moves deal: {number}",
        "Geben in der Aufzeichnung: {count}; Spiele, die ihre Züge geben: {number}",
    ),
    (
        "notation",
        "reshuffles of hand {hand} held by the record: {count}; made by its moves: {number}",
        "Neumischen von Spiel {hand} in der Aufzeichnung: {count}; von ihren Zügen: {number}",
    ),
    (
        "notation",
        "record deal {number} must be a deck order as card text",
        "Geben {number} der Aufzeichnung muss eine Kartenreihenfolge in Kartenschreibweise sein",
    ),
    (
        "notation",
        "record deal {number} is not the {size}-card deck of {game}",
        "Geben {number} der Aufzeichnung ist nicht das Blatt von {size} Karten für {game}",
    ),
    (
        "notation",
        "record kind must be 'round' or 'match', not {quoted}",
        "Die Art der Aufzeichnung („kind“) muss „round“ oder „match“ sein, nicht {quoted}",
    ),
    (
        "notation",
        "record field {field} must be an integer, not {value}",
        "Das Feld {field} der Aufzeichnung muss eine ganze Zahl sein, nicht {value}",
    ),
    (
        "notation",
        "record field 'revision' must be a rules revision (0 or more), not {value}",
        "Das Feld „revision“ der Aufzeichnung muss eine Regelfassung sein (0 oder mehr), nicht {value}",
    ),
    (
        "notation",
        "record field 'rules' must be the rules text, e.g. 'german'",
        "Das Feld „rules“ der Aufzeichnung muss der Regeltext sein, z. B. „german“",
    ),
    (
        "notation",
        "this record was written by a newer {newer} under rules revision {revision}; this version plays "
        "revision {current} and cannot be sure to replay it as it was played: update rummykit",
        "Diese Aufzeichnung hat ein neueres {newer} unter Regelfassung {revision} geschrieben; diese "
        "Version spielt Regelfassung {current} und kann sie nicht sicher so nachspielen, wie sie "
        "gespielt wurde: Aktualisiere rummykit",
    ),
    (
        "notation",
        "record field 'deck' must be the deck order as card text",
        "Das Feld „deck“ der Aufzeichnung muss die Reihenfolge der Karten in Kartenschreibweise sein",
    ),
    (
        "notation",
        "record field 'in_play' must be a list of seat numbers",
        "Das Feld „in_play“ der Aufzeichnung muss eine Liste von Platznummern sein",
    ),
    (
        "notation",
        "record field 'dealer' is not the dealer its seat draw chose",
        "Das Feld „dealer“ der Aufzeichnung nennt nicht den Geber, den das Ziehen um Plätze und Geber "
        "ergeben hat",
    ),
    (
        "notation",
        "record field 'actions' must be a list of action texts",
        "Das Feld „actions“ der Aufzeichnung muss eine Liste von Zügen in Schreibweise sein",
    ),
    (
        "notation",
        "record field 'position' must be an object",
        "Das Feld „position“ der Aufzeichnung muss ein Objekt sein",
    ),
    # Who played each seat (record_seats.py).
    (
        "notation",
        "record field 'seats' must be a list of {count} seats, one per seat",
        "Das Feld „seats“ der Aufzeichnung muss eine Liste von {count} Plätzen sein, einer je Platz",
    ),
    (
        "notation",
        "record field 'seats': seat {number} marks an action that another list marks already (an action "
        "is one seat's, and a stand-in's or hinted, not both)",
        "Das Feld „seats“ der Aufzeichnung: Platz {number} kennzeichnet einen Zug, den schon eine andere "
        "Liste kennzeichnet (ein Zug gehört zu einem Platz und ist vertreten oder nach einem Tipp "
        "gespielt, nicht beides)",
    ),
    (
        "notation",
        "record field 'seats' (seat {number}) must be an object with a 'kind', 'person' or 'bot'",
        "Das Feld „seats“ der Aufzeichnung (Platz {number}) muss ein Objekt mit einer Art („kind“) "
        "sein, „person“ oder „bot“",
    ),
    (
        "notation",
        "record field 'seats' (seat {number}): 'kind' must be 'person' or 'bot', not {quoted}",
        "Das Feld „seats“ der Aufzeichnung (Platz {number}): Die Art („kind“) muss „person“ oder "
        "„bot“ sein, nicht {quoted}",
    ),
    (
        "notation",
        "record field 'seats' (seat {number}): 'bot' belongs to a bot's seat and is printable text of at "
        "most {count} characters",
        "Das Feld „seats“ der Aufzeichnung (Platz {number}): „bot“ gehört zum Platz eines Bots und ist "
        "druckbarer Text aus höchstens {count} Zeichen",
    ),
    (
        "notation",
        "record field 'seats' (seat {number}): 'stand_in' and 'hinted' belong to a person's seat",
        "Das Feld „seats“ der Aufzeichnung (Platz {number}): „stand_in“ und „hinted“ gehören zum Platz "
        "eines Menschen",
    ),
    (
        "notation",
        "record field 'seats' (seat {number}) {field} must be a list of action numbers (from 1, ascending)",
        "Das Feld „seats“ der Aufzeichnung (Platz {number}): {field} muss eine Liste von Zugnummern sein "
        "(ab 1, aufsteigend)",
    ),
    (
        "notation",
        "record field 'seats' (seat {number}) {field} must list action numbers from 1 to {count} in "
        "ascending order, not {quoted}",
        "Das Feld „seats“ der Aufzeichnung (Platz {number}): {field} muss Zugnummern von 1 bis {count} "
        "aufsteigend aufzählen, nicht {quoted}",
    ),
    (
        "notation",
        "record position field {field} must be a list of int",
        "Das Feld {field} der Stellung in der Aufzeichnung muss eine Liste ganzer Zahlen sein",
    ),
    (
        "notation",
        "record position field {field} must be a list of bool",
        "Das Feld {field} der Stellung in der Aufzeichnung muss eine Liste von true und false sein",
    ),
    (
        "notation",
        "record position field {field} must be a list of {type}",
        "Das Feld {field} der Stellung in der Aufzeichnung muss eine Liste von {type} sein",
    ),
    (
        "notation",
        "record position needs 'totals' and integer 'pot' and 'hands_dealt'",
        "Die Stellung in der Aufzeichnung braucht „totals“ und ganze Zahlen für „pot“ und „hands_dealt“",
    ),
    (
        "notation",
        "a round record needs its deck",
        "Die Aufzeichnung eines einzelnen Spiels braucht die Reihenfolge seiner Karten („deck“)",
    ),
    (
        "notation",
        "this is the record of a match: replay it with replay_match()",
        "Das ist die Aufzeichnung einer Partie: Spiele sie mit replay_match() nach",
    ),
    (
        "notation",
        "this is the record of a single round: replay it with replay_round()",
        "Das ist die Aufzeichnung eines einzelnen Spiels: Spiele sie mit replay_round() nach",
    ),
    (
        "notation",
        "this round was built from a state (a determinization or a position), so no deal and actions "
        "replay to it; save rnd.state() and rebuild it with Round.from_state instead",
        "Dieses Spiel wurde aus einem Zustand gebaut (einer Determinisierung oder einer Stellung), also "
        "führen kein Geben und keine Züge zu ihm; speichere stattdessen rnd.state() und baue es mit "
        "Round.from_state wieder auf",
    ),
    (
        "notation",
        "seat draw: round {number} needs cards from exactly seats {seats}",
        "Ziehen um Plätze und Geber: Runde {number} braucht Karten von genau den Plätzen {seats}",
    ),
    (
        "notation",
        "seat draw: the rounds end before one card is highest",
        "Ziehen um Plätze und Geber: Die Runden enden, bevor eine Karte allein die höchste ist",
    ),
    (
        "notation",
        "record field 'seat_draw' must say method high_card or random",
        "Das Feld „seat_draw“ der Aufzeichnung muss die Art (method) high_card oder random nennen",
    ),
    (
        "notation",
        "record field 'seat_draw' needs the dealer's seat",
        "Das Feld „seat_draw“ der Aufzeichnung braucht den Platz des Gebers",
    ),
    (
        "notation",
        "record field 'seat_draw' needs its rounds of cards",
        "Das Feld „seat_draw“ der Aufzeichnung braucht seine Runden gezogener Karten",
    ),
    (
        "notation",
        "record field 'seat_draw': {quoted} is not one card",
        "Das Feld „seat_draw“ der Aufzeichnung: {quoted} ist keine einzelne Karte",
    ),
    (
        "notation",
        "record field 'seat_draw' draws {card} more often than the deck of these rules holds it",
        "Das Feld „seat_draw“ der Aufzeichnung zieht {card} öfter, als sie im Blatt dieser Regeln vorkommt",
    ),
    # A saved game (rummykit play --resume): {file} is the file's name.
    ("notation", "cannot read {quoted}: {detail}", "{quoted} ist nicht lesbar: {detail}"),
    (
        "notation",
        "{file} is {bytes} bytes; a saved game is at most {bytes2}",
        "{file} hat {bytes} Bytes; eine gespeicherte Partie hat höchstens {bytes2} Bytes",
    ),
    ("notation", "{file} is not a saved game: {detail}", "{file} ist keine gespeicherte Partie: {detail}"),
    (
        "notation",
        "{file} holds a single hand; only games saved by 'rummykit play' resume",
        "{file} enthält nur ein einzelnes Spiel, keine Partie; fortsetzen lässt sich nur eine Partie, "
        "die „rummykit play“ gespeichert hat",
    ),
    (
        "notation",
        "{file} is a web table's record; 'rummykit replay' shows it, it does not resume",
        "{file} ist die Aufzeichnung eines Webtischs; „rummykit replay“ zeigt sie, fortsetzen lässt sie "
        "sich nicht",
    ),
    (
        "notation",
        "{file} does not say who plays each seat (no 'meta'); it cannot be resumed",
        "{file} sagt nicht, wer an welchem Platz spielt (kein „meta“); diese gespeicherte Partie lässt "
        "sich nicht fortsetzen",
    ),
    (
        "notation",
        "{file}: 'meta.names' must list {count} names",
        "{file}: „meta.names“ muss {count} Namen nennen",
    ),
    (
        "notation",
        "{file}: 'meta.players' must list {count} players ('human' or a bot)",
        "{file}: „meta.players“ muss {count} Spieler nennen („human“ oder einen Bot)",
    ),
    ("notation", "{file}: no seat is played by a person", "{file}: An keinem Platz spielt ein Mensch"),
    # Replaying a record or a self-play run (rummykit replay).
    (
        "notation",
        "this is the record of a single hand, not of a match: a score sheet needs a match record "
        "('rummykit replay' shows the hand)",
        "das ist die Aufzeichnung eines einzelnen Spiels, keiner Partie: ein Spielzettel braucht "
        "die Aufzeichnung einer Partie („rummykit replay“ zeigt das Spiel)",
    ),
    (
        "notation",
        "--game picks a game of a self-play run; {quoted} is one record",
        "--game wählt ein Spiel aus einem Selbstspiel-Lauf; {quoted} ist eine einzelne Aufzeichnung",
    ),
    (
        "notation",
        "{quoted} is a folder but no self-play run (it has no {file}); replay a record file, or a run "
        "folder with --game N",
        "{quoted} ist ein Ordner, aber kein Selbstspiel-Lauf (es fehlt {file}); spiele eine "
        "Aufzeichnung oder den Ordner eines Laufs mit --game N nach",
    ),
    (
        "notation",
        "{quoted} is a self-play run of many games: pick one with --game N",
        "{quoted} ist ein Selbstspiel-Lauf aus vielen Spielen: Wähle eines mit --game N",
    ),
    (
        "notation",
        "{quoted} holds a game per line: pick one with --game N",
        "{quoted} enthält ein Spiel pro Zeile: Wähle eines mit --game N",
    ),
    (
        "notation",
        "{quoted} holds games {number}–{number2} of its run (--game counts through the whole run); "
        "replay the run folder {quoted2} for game {number3}",
        "{quoted} enthält die Spiele {number}–{number2} seines Laufs (--game zählt durch den ganzen "
        "Lauf); für Spiel {number3} spiele den Ordner des Laufs {quoted2} nach",
    ),
    (
        "notation",
        "{quoted} holds no self-play run (no readable {file})",
        "{quoted} enthält keinen Selbstspiel-Lauf (kein lesbares {file})",
    ),
    (
        "notation",
        "{quoted} line {number} is nested too deeply for an index line",
        "{quoted} Zeile {number} ist zu tief verschachtelt für eine Zeile des Verzeichnisses",
    ),
    (
        "notation",
        "{quoted} line {number}: {quoted2} must be a whole number (0 or more), not {value}",
        "{quoted} Zeile {number}: {quoted2} muss eine ganze Zahl sein (0 oder mehr), nicht {value}",
    ),
    (
        "notation",
        "the run in {quoted} has no game {number}; the games written are {ranges} (numbered from 0)",
        "Der Lauf in {quoted} hat kein Spiel {number}; geschrieben sind die Spiele {ranges} (ab 0 gezählt)",
    ),
    ("notation", "{quoted} has no game {number}", "{quoted} hat kein Spiel {number}"),
    (
        "jokers_total",
        "{meld}: these rules play without jokers (jokers_total = 0)",
        "{meld}: diese Regeln spielen ohne Joker (jokers_total = 0)",
    ),
    # Rules (the lobby and --set) ------------------------------------------------------------------
    ("rules", "unknown rule option {quoted}", "Unbekannte Regel {quoted}"),
    (
        "rules",
        "{option} must be an integer, not {quoted}",
        "„{option}“ ({option_raw}): eine ganze Zahl, nicht {quoted}",
    ),
    (
        "rules",
        "{option} must be true or false, not {quoted}",
        "„{option}“ ({option_raw}): true oder false, nicht {quoted}",
    ),
    (
        "rules",
        "{option} must be a pair like (81, 101), not {quoted}",
        "„{option}“ ({option_raw}): ein Paar wie (81, 101), nicht {quoted}",
    ),
    (
        "rules",
        "unknown preset {quoted}; known presets: {known}",
        "Unbekanntes Spiel {quoted}; bekannt: {known}",
    ),
    (
        "rules",
        "players: {game} is played by {count} to {limit} players, not {number}",
        "{game} spielen {count} bis {limit} Personen, nicht {number}",
    ),
    (
        "rules",
        "players: {game} is played by {count} players, not {number}",
        "{game} spielen {count} Personen, nicht {number}",
    ),
    (
        "rules",
        "malformed rules text {quoted}: expected preset(option=value, ...)",
        "Regeltext {quoted} nicht lesbar: erwartet wird spiel(option=wert, ...)",
    ),
    (
        "rules",
        "malformed rules text {quoted}: {part} is not option=value",
        "Regeltext {quoted} nicht lesbar: {part} ist nicht option=wert",
    ),
    (
        "rules",
        "a rules text of {bytes} characters: at most {bytes2} are read",
        "Ein Regeltext mit {bytes} Zeichen: gelesen werden höchstens {bytes2}",
    ),
    (
        "rules",
        "dealer: seat {number} does not exist at a table of {count}",
        "Geber: Platz {number} gibt es an einem Tisch mit {count} Plätzen nicht",
    ),
    ("rules", "{quoted} is not a numeric rule option", "{quoted} ist keine Regel mit einer Zahl"),
    ("rules", "cannot read rules file {quoted}: {detail}", "Regeldatei {quoted} nicht lesbar: {detail}"),
    (
        "rules",
        "rules file {quoted}: [rules] must be a table",
        "Regeldatei {quoted}: [rules] muss eine Tabelle sein",
    ),
    (
        "rules",
        "rules file {quoted}: its values are nested too deeply",
        "Regeldatei {quoted}: Ihre Werte sind zu tief ineinander verschachtelt",
    ),
    (
        "rules",
        "rules file {quoted}: a number has too many digits",
        "Regeldatei {quoted}: Eine Zahl hat zu viele Ziffern",
    ),
    # The start of a recorded match (match.py: its seat draw and its position).
    (
        "rules",
        "dealer: the seat draw chose seat {number}, not seat {number2}",
        "Geber: Das Ziehen um Plätze und Geber ergab Platz {number}, nicht Platz {number2}",
    ),
    (
        "rules",
        "seat draw: not a {value} draw for {count} players",
        "Ziehen um Plätze und Geber: Kein Ziehen nach {value} für {count} Spieler",
    ),
    (
        "rules",
        "position: {field} needs one entry per seat ({count}), got {number}",
        "Stellung: {field} braucht einen Eintrag je Platz ({count}), nicht {number}",
    ),
    (
        "rules",
        "position: {field} must lie between {low} and {high}, not {quoted}",
        "Stellung: {field} muss zwischen {low} und {high} liegen, nicht {quoted}",
    ),
    (
        "rules",
        "position: at least two players must still be in the match",
        "Stellung: Mindestens zwei Spieler müssen noch in der Partie sein",
    ),
    (
        "rules",
        "position: seat {seat} has plus points but won no hand: give hands_won, which box_bonus and "
        "shutout_doubles count",
        "Stellung: {seat} hat Pluspunkte, aber kein Spiel gewonnen: hands_won angeben, das box_bonus "
        "und shutout_doubles zählen",
    ),
    (
        "rules",
        "position: hands_won adds up to {count}, more than hands_dealt ({number}): a hand has one winner "
        "at most",
        "Stellung: hands_won ergibt zusammen {count}, mehr als hands_dealt ({number}): Ein Spiel hat "
        "höchstens einen Gewinner",
    ),
    # Bots asked for by name (the terminal's --bots, the API's bot kinds).
    (
        "*",
        "unknown bot {quoted}; available bots: {known}",
        "unbekannter Bot {quoted}; verfügbare Bots: {known}",
    ),
    ("*", "unknown bot {quoted}; bots: {known}", "unbekannter Bot {quoted}; Bots: {known}"),
    ("*", "unknown bot level {quoted}; levels: {known}", "unbekannte Stärke {quoted}; Stärken: {known}"),
    ("*", "--bots is empty; bots: {known}", "--bots ist leer; Bots: {known}"),
    # Rule combinations the engine refuses (rules.py's validation raises "option: why"; the German
    # names the option by its label): the whys, by the templates below.
    *(("rules", REFUSED + en, REFUSED_DE + de) for en, de in REFUSALS),
    (
        "rules",
        "{option}: does not apply to these rules: {reason}",
        "„{option}“ ({option_raw}) gilt bei diesen Regeln nicht: {reason}",
    ),
)
"""The engine's error messages, English template and German text, by rule id."""

FRAGMENTS: Final[tuple[tuple[str, str], ...]] = (
    # Inner parts of messages (reason, problem, why, scope, where, who, first, how, times).
    ("", ""),
    # Why an option cannot matter under some rules (rules.py, Rules.not_applicable).
    (
        "only knock games use it (knock_threshold is none)",
        "nur Klopfspiele nutzen sie (knock_threshold ist none)",
    ),
    ("a knock game puts no cards on the table", "in einem Klopfspiel kommen keine Karten auf den Tisch"),
    (
        "a knock game counts the cards left as deadwood: deadwood_ace sets the ace",
        "ein Klopfspiel zählt die übrigen Karten als Restpunkte: deadwood_ace bestimmt das Ass",
    ),
    (
        "a knock game counts the cards left as deadwood: deadwood_joker sets the joker",
        "ein Klopfspiel zählt die übrigen Karten als Restpunkte: deadwood_joker bestimmt den Joker",
    ),
    (
        "a knock game counts J, Q and K left in hand as 10 deadwood",
        "ein Klopfspiel zählt B, D und K auf der Hand als 10 Restpunkte",
    ),
    (
        "a knock game multiplies after a Rummy call by rummy_multiplier",
        "ein Klopfspiel vervielfacht nach einem Rummy mit rummy_multiplier",
    ),
    (
        "gin has no Rummy call: going gin scores gin_bonus",
        "Gin kennt kein Rummy: wer Gin macht, bekommt gin_bonus",
    ),
    (
        "gin ends with a knock, which discards, or a big gin of all eleven cards (big_gin_bonus)",
        "Gin endet mit einem Klopfen, das abwirft, oder einem Big Gin aus allen elf Karten (big_gin_bonus)",
    ),
    (
        "a knock game always ends with a discard: a knock discards, a Rummy call lays its last card away",
        "ein Klopfspiel endet immer mit einem Abwurf: wer klopft, wirft ab, wer Rummy ruft, legt die "
        "letzte Karte weg",
    ),
    (
        "only a melding game's match uses it (knock games and gin keep their own match ends)",
        "nur die Partie eines Spiels mit Auslegen nutzt sie (Klopfspiele und Gin enden nach eigenen Regeln)",
    ),
    (
        "only a knock-game rubber (match_end = elimination_last_survivor) uses it",
        "nur eine Partie eines Klopfspiels (match_end = elimination_last_survivor) nutzt sie",
    ),
    (
        "gin scores by gin_difference with knock_card and no extra turn",
        "Gin wertet mit gin_difference und knock_card, ohne weiteren Zug",
    ),
    ("only gin (hand_scoring = gin_difference) uses it", "nur Gin (hand_scoring = gin_difference) nutzt sie"),
    (
        "oklahoma sets the knock card from the first upcard",
        "bei Oklahoma gibt die erste offene Karte die Klopfgrenze",
    ),
    (
        "oklahoma is off: no first upcard sets the hand's stakes",
        "oklahoma ist aus: keine erste offene Karte bestimmt, was das Spiel zählt",
    ),
    ("only match_end = {ends} uses it", "nur match_end = {ends} nutzt sie"),
    ("only an opening minimum above 0 uses it", "nur ein Mindestwert über 0 nutzt sie"),
    (
        "only runs with the ace both low and high (ace_low_in_runs, ace_high_in_runs) use it",
        "nur Folgen mit dem Ass unten und oben (ace_low_in_runs, ace_high_in_runs) nutzen sie",
    ),
    (
        "hand_size_rule = by_player_count sets the hand size for every table of these rules",
        "hand_size_rule = by_player_count bestimmt die Kartenzahl an jedem Tisch dieser Regeln",
    ),
    ("only joker_robbing uses it", "nur joker_robbing nutzt sie"),
    (
        "the bot {quoted} of the installed package {source} is not played: {quoted} is rummykit's own "
        "bot; the package must offer it under another name",
        "Der Bot {quoted} des installierten Pakets {source} wird nicht gespielt: {quoted} ist ein Bot "
        "von rummykit; das Paket muss ihn unter einem anderen Namen anbieten",
    ),
    (
        "note: this policy was trained on {game}; this table plays {game2}",
        "Hinweis: Diese Strategie wurde mit {game} trainiert; an diesem Tisch gilt {game2}",
    ),
    ("sizes {low} to {high}", "Größen {low} bis {high}"),
    ("only at {count}", "nur bei {count}"),
    ("jokers_total is 0: no joker is dealt", "jokers_total ist 0: es wird kein Joker gegeben"),
    (
        "joker_limit = max_one_joker_per_meld: no meld holds two jokers",
        "joker_limit = max_one_joker_per_meld: keine Figur hat zwei Joker",
    ),
    ("jokers_total is 1: no meld holds two jokers", "jokers_total ist 1: keine Figur hat zwei Joker"),
    (
        "num_hands is 1: the match is one hand, nobody deals a second",
        "num_hands ist 1: die Partie ist ein Spiel, niemand gibt ein zweites",
    ),
    (
        "one deck holds each card once: the naturals of a set always differ in suit",
        "ein Kartenspiel hat jede Karte einmal: die echten Karten eines Satzes haben immer "
        "verschiedene Farben",
    ),
    (
        "jokers_total is 1: every limit allows the same melds with one joker",
        "jokers_total ist 1: mit einem Joker erlaubt jede Grenze dieselben Figuren",
    ),
    (
        "every meld is worth at least {count}, the opening minimum {count2}",
        "jede Figur ist mindestens {count} wert, der Mindestwert {count2}",
    ),
    (
        "less any one of its cards, every meld is still worth at least {count}, the opening minimum {count2}",
        "auch ohne eine ihrer Karten ist jede Figur mindestens {count} wert, der Mindestwert {count2}",
    ),
    ("pot_ante is 0: no ante is paid", "pot_ante ist 0: es wird kein Einsatz gezahlt"),
    ("buyback_limit is 0: nobody buys back", "buyback_limit ist 0: niemand kauft sich zurück"),
    (
        "undercut_bonus is 0: a tie scores nothing either way",
        "undercut_bonus ist 0: ein Gleichstand bringt so oder so nichts",
    ),
    (
        "joker_exchange is off: no joker is exchanged",
        "joker_exchange ist aus: es wird kein Joker getauscht",
    ),
    (
        "stock_exhaustion = {value} never builds a new stock",
        "stock_exhaustion = {value} bildet nie einen neuen Stoß",
    ),
    (
        "knock_threshold is 0: a hand of no deadwood calls Rummy, so no knock is compared",
        "knock_threshold ist 0: mit einer Hand ohne Restpunkte ruft man Rummy, also wird kein Klopfen "
        "verglichen",
    ),
    ("only seat_draw = high_card draws cards", "nur bei seat_draw = high_card werden Karten gezogen"),
    ("gin has no jokers", "Gin hat keine Joker"),
    ("gin has no face-down card: a gin is a knock", "Gin hat keine verdeckte Karte: ein Gin ist ein Klopfen"),
    (
        "a gin hand ends at the wall (wall_draw); the stock is never rebuilt",
        "ein Gin-Spiel endet an der Mauer (wall_draw); der Stoß wird nie neu gebildet",
    ),
    (
        "gin deals hand_size cards to each of its two players",
        "Gin gibt jedem der zwei Spieler hand_size Karten",
    ),
    (
        "by_player_count deals {size} cards at every table of these rules too",
        "by_player_count gibt an jedem Tisch dieser Regeln ebenfalls {size} Karten",
    ),
    (
        "discard_pickup_requires_meld lays every taken card on the table, so the hands shrink and takes "
        "cannot go on for ever",
        "discard_pickup_requires_meld legt jede von der Ablage genommene Karte auf den Tisch, die Hände "
        "werden kleiner und das Nehmen von der Ablage kann nicht endlos weitergehen",
    ),
    (
        "gin counts its takes with max_upcard_draws (OpenSpiel's bound)",
        "Gin zählt das Nehmen der offenen Karte mit max_upcard_draws (die Grenze von OpenSpiel)",
    ),
    ("no source defines the knocker's penalty", "keine Quelle legt die Strafe des Klopfenden fest"),
    (" in one meld", " in einer Figur"),
    (" at the low end", " unten"),
    (" at the high end", " oben"),
    (" with the top discard", " mit der offenen Karte"),
    ("dealer", "Der Geber"),
    ("forehand", "Die Vorhand"),
    ("knock or discard", "klopfen oder abwerfen"),
    ("meld if you can, then discard", "auslegen, wenn möglich, dann abwerfen"),
    ("no meld or lay-off for it", "weder eine Figur noch eine Anlegemöglichkeit"),
    ("no opening worth {count} points with it", "kein erstes Auslegen mit {count} Punkten"),
    (
        "no opening worth {count} points without counting it",
        "kein erstes Auslegen mit {count} Punkten ohne den Wert dieser Karte",
    ),
    ("once", "einmal"),
    ("{often} times", "{often}"),
    (
        "jokers cannot be exchanged in this game (joker_exchange is off)",
        "In diesem Spiel darf kein Joker getauscht werden",
    ),
    (
        "only a player who has opened may exchange a joker",
        "Einen Joker tauschen darf nur, wer schon ausgelegt hat",
    ),
    (
        "no joker exchange in the turn of the opening (joker_exchange_on_opening_turn is off)",
        "Im Zug des ersten Auslegens darf kein Joker getauscht werden",
    ),
    ("a meld needs at least one natural card", "Eine Figur braucht mindestens eine echte Karte"),
    (
        "a meld may not consist of one natural card and two or more jokers",
        "Eine Figur darf nicht aus einer echten Karte und zwei oder mehr Jokern bestehen",
    ),
    (
        "{count} jokers with only {count2} natural cards (jokers_le_naturals)",
        "{count} Joker bei nur {count2} echten Karten (höchstens so viele Joker wie echte Karten)",
    ),
    (
        "a meld needs at least two natural cards (min_two_naturals)",
        "Eine Figur braucht mindestens zwei echte Karten",
    ),
    ("at most one joker per meld (max_one_joker_per_meld)", "Höchstens ein Joker pro Figur"),
    (
        "a meld needs at least two natural cards (max_one_joker_per_meld)",
        "Eine Figur braucht mindestens zwei echte Karten (höchstens ein Joker pro Figur)",
    ),
    (
        "buy-backs exist only in a knock-game rubber",
        "Zurückkaufen gibt es nur in einer Partie eines Klopfspiels",
    ),
    (
        "buy-backs are offered right after a hand only",
        "Zurückkaufen wird nur direkt nach einem Spiel angeboten",
    ),
    ("seat {seat} is out of the rubber", "{seat} ist aus der Partie ausgeschieden"),
    ("this rubber has no buy-backs (buyback_limit = 0)", "In dieser Partie gibt es kein Zurückkaufen"),
    (
        "seat {seat} already bought back {times}, as often as buyback_limit allows",
        "{seat} hat sich schon {times} zurückgekauft, so oft wie erlaubt",
    ),
    (
        "a buy-back needs a total between {low} and {high}; seat {seat} has {total}",
        "Zurückkaufen braucht einen Stand zwischen {low} und {high}; {seat} hat {total}",
    ),
    (
        "nobody else in the rubber has a total at or below seat {seat}'s {total} to buy back to",
        "{seat} hat {total}; niemand sonst in der Partie hat so wenig oder weniger, um darauf "
        "zurückzukaufen",
    ),
    (
        "a buy-back would not lower seat {seat}'s {total}: another player in the rubber has {total} too",
        "{seat} hat {total}: Zurückkaufen würde das nicht senken, denn ein anderer Spieler der Partie hat "
        "auch {total}",
    ),
)
"""Parts of messages that the engine builds separately, English and German."""

RULE_NAMES: Final[dict[str, tuple[str, str]]] = {
    # Rule ids that are not option names (option ids take the option's label, rummykit.explain.terms).
    "name": ("the preset's name", "Name des Spiels"),
    "draw_first": ("draw first", "zuerst ziehen"),
    "one_draw_per_turn": ("one draw per turn", "einmal ziehen pro Zug"),
    "stock_exhaustion": ("empty stock", "leerer Stoß"),
    "empty_discard_pile": ("empty discard pile", "leere Ablage"),
    "card_not_in_hand": ("card not in hand", "Karte nicht auf der Hand"),
    "not_in_this_game": ("not a move of this game", "kein Zug dieses Spiels"),
    "not_an_action": ("not a move", "kein Zug"),
    "not_a_card": ("not a card", "keine Karte"),
    "hand_over": ("the hand is over", "das Spiel ist vorbei"),
    "nothing_to_undo": ("nothing to undo", "nichts zurückzunehmen"),
    "seat": ("no such seat", "kein solcher Platz"),
    "no_such_meld": ("no such meld", "keine solche Figur"),
    "opened": ("already opened", "schon ausgelegt"),
    "rummy": ("Rummy", "Rummy"),
    "match_over": ("the match is over", "die Partie ist vorbei"),
    "buyback": ("buy-back", "Rückkauf"),
    "meld_shape": ("set or run", "Satz oder Folge"),
    "meld_size": ("size of a meld", "Größe einer Figur"),
    "joker_assignment": ("what a joker stands for", "wofür ein Joker steht"),
    "set_rank": ("rank of a set", "Wert eines Satzes"),
    "set_distinct_suits": ("different suits in a set", "verschiedene Farben in einem Satz"),
    "run_suit": ("suit of a run", "Farbe einer Folge"),
    "run_sequence": ("order of a run", "Reihenfolge einer Folge"),
    "run_bounds": ("ends of a run", "Enden einer Folge"),
    "run_wraparound": ("no run round the corner", "keine Folge um die Ecke"),
    "knock_extra_turn": ("after a knock", "nach dem Klopfen"),
    "knock_threshold": ("knock limit", "Klopfgrenze"),
    "joker_end_assignment": ("end a laid-off joker takes", "Ende eines angelegten Jokers"),
    "notation": ("notation", "Schreibweise"),
    "rules": ("rules", "Regeln"),
    # Gin Rummy (rummykit.gin).
    "gin_first_upcard": ("the first upcard", "die erste offene Karte"),
    "gin_meld": ("a gin meld", "Figur im Gin"),
    "one_meld_at_a_time": ("one meld at a time", "Figuren einzeln auslegen"),
    "knock_card": ("knock card", "Klopfgrenze"),
    "knock_discard": ("discard after knocking", "Abwurf nach dem Klopfen"),
    "knock_melds": ("the knocker lays melds", "der Klopfende legt aus"),
    "big_gin": ("big gin", "großes Gin"),
    "layoff": ("lay-off", "Anlegen"),
    "layoff_first": ("lay-offs first", "zuerst anlegen"),
    "layoff_done": ("lay-offs are over", "Anlegen beendet"),
    "layoff_melds": ("own melds after the lay-offs", "eigene Figuren nach dem Anlegen"),
    "wall_draw": ("the wall", "die Mauer"),
}
"""Names of the rule ids for people, (English, German), where the id is not an option name."""

OPTION_EN: Final = "“{option}” ({option_raw})"
"""How English names the option a rules refusal is about: its label, then its own name (the one a
person typed)."""

PEOPLE_EN: Final[dict[str, str]] = {
    # The turn and the discard pile.
    "{action}: you must keep a card to discard (going_out_requires_discard)": (
        "{action}: you must keep a card to discard"
    ),
    "take: only a player who has opened may take the discard {card} "
    "(discard_pickup_requires_opened is opened_before)": (
        "only a player who has opened may take {card} from the discard pile"
    ),
    "{action}: afterwards the taken discard {card} could no longer be laid this turn "
    "(discard_pickup_requires_meld)": (
        "{action}: then the taken discard {card} could no longer be laid this turn"
    ),
    "{action}: first lay the taken discard {card} (discard_pickup_requires_meld)": (
        "{action}: first lay the taken discard {card}"
    ),
    # Opening and laying off.
    "cannot open with {value} points{scope}: opening_min_points is {minimum}": (
        "cannot open with {value} points{scope}: an opening needs at least {minimum}"
    ),
    "{action}: you opened this turn, so lay-offs wait for your next turn (layoff_on_opening_turn is off)": (
        "{action}: you opened this turn, so lay-offs wait for your next turn"
    ),
    # Joker exchange.
    "{action}: a joker may leave a set only when the set becomes four natural cards "
    "(set_joker_exchange is complete_four_only)": (
        "{action}: a joker may leave a set only when the set becomes four natural cards"
    ),
    "{action}: the freed joker goes to your hand (exchanged_joker_destination is hand); "
    "lay it with a separate action": (
        "{action}: the freed joker goes to your hand; lay it with a move of its own"
    ),
    "{action}: the freed joker must go into a new meld (exchanged_joker_destination)": (
        "{action}: the freed joker must go into a new meld"
    ),
    "{action}: the freed joker must be laid at once (exchanged_joker_destination is {value}); "
    "add 'then meld … JK'": "{action}: the freed joker must be laid at once; add 'then meld … JK'",
    "{action}: the freed joker must be laid at once (exchanged_joker_destination is {value}); "
    "add 'then meld … JK' or 'then layoff JK on N'": (
        "{action}: the freed joker must be laid at once; add 'then meld … JK' or 'then layoff JK on N'"
    ),
    "{action}: the freed jokers go to your hand (exchanged_joker_destination is hand); "
    "lay them with a separate action": (
        "{action}: the freed jokers go to your hand; lay them with moves of their own"
    ),
    "{action}: the freed jokers must go into new melds (exchanged_joker_destination)": (
        "{action}: the freed jokers must go into new melds"
    ),
    "{action}: the freed jokers must be laid at once (exchanged_joker_destination is {value}); "
    "add 'then meld … JK'": "{action}: the freed jokers must be laid at once; add 'then meld … JK'",
    "{action}: the freed jokers must be laid at once (exchanged_joker_destination is {value}); "
    "add 'then meld … JK' or 'then layoff JK on N'": (
        "{action}: the freed jokers must be laid at once; add 'then meld … JK' or 'then layoff JK on N'"
    ),
    "jokers cannot be exchanged in this game (joker_exchange is off)": (
        "jokers cannot be exchanged in this game"
    ),
    "no joker exchange in the turn of the opening (joker_exchange_on_opening_turn is off)": (
        "no joker exchange in the turn of the opening"
    ),
    # Discarding and knocking.
    "{action}: you may not discard the card you took from the "
    "discard pile (may_discard_taken_discard is off)": (
        "{action}: you may not discard the card you took from the discard pile"
    ),
    "{action}: you may not discard the card you took from the discard pile, nor your other "
    "{card}: the two cannot be told apart (may_discard_taken_discard is off)": (
        "{action}: you may not discard the card you took from the discard pile, nor your other "
        "{card}: the two cannot be told apart"
    ),
    "{action}: it would leave only {card}, the card you took from the discard pile, which you "
    "may not discard this turn; keep another card to discard (may_discard_taken_discard is off)": (
        "{action}: it would leave only {card}, the card you took from the discard pile, which you "
        "may not discard this turn; keep another card to discard"
    ),
    "{action}: a joker may be discarded only as the closing card "
    "(joker_discard_allowed is only_when_closing)": (
        "{action}: a joker may be discarded only as the closing card"
    ),
    "{action}: {card} fits a meld on the table, so it may not be discarded; "
    "lay it off from your next turn (discard_playable_card_allowed is off)": (
        "{action}: {card} fits a meld on the table, so it may not be discarded; "
        "lay it off from your next turn"
    ),
    "{action}: {card} fits a meld on the table, so it may not be discarded; "
    "keep it to lay off once you have opened (discard_playable_card_allowed is off)": (
        "{action}: {card} fits a meld on the table, so it may not be discarded; "
        "keep it to lay off once you have opened"
    ),
    "{action}: {card} could be laid off on the table, so it may not be discarded "
    "(discard_playable_card_allowed is off)": (
        "{action}: {card} could be laid off on the table, so it may not be discarded"
    ),
    "cannot knock with {deadwood} deadwood: knock_threshold needs deadwood {sign} {threshold}": (
        "cannot knock with {deadwood} points of deadwood: the deadwood must be {sign} {threshold}"
    ),
    # Melds.
    "another joker would break joker_limit in {meld}": "another joker would be one too many in {meld}",
    "{text}: a run may not hold the ace at both ends (allow_ace_both_ends is off)": (
        "{text}: a run may not hold the ace at both ends"
    ),
    "{text}: an ace may not be high in a run (ace_high_in_runs is off)": (
        "{text}: an ace may not be high in a run"
    ),
    "{card} cannot be high in a run (ace_high_in_runs is off)": "{card} cannot be high in a run",
    "{text}: an ace may not be low in a run (ace_low_in_runs is off)": (
        "{text}: an ace may not be low in a run"
    ),
    "{card} cannot be low in a run (ace_low_in_runs is off)": "{card} cannot be low in a run",
    "{text}: {count} jokers side by side; max_adjacent_jokers is {limit}": (
        "{text}: {count} jokers side by side; at most {limit} are allowed"
    ),
    "a joker laid off on {meld} goes to the top end, where it fits "
    "(joker_end_assignment is upward_default: no declaring the low end)": (
        "a joker laid off on {meld} goes to the top end, where it fits (the low end cannot be chosen)"
    ),
    "{meld}: these rules play without jokers (jokers_total = 0)": "{meld}: these rules play without jokers",
    "{count} jokers with only {count2} natural cards (jokers_le_naturals)": (
        "{count} jokers with only {count2} natural cards (no more jokers than natural cards)"
    ),
    "a meld needs at least two natural cards (min_two_naturals)": "a meld needs at least two natural cards",
    "at most one joker per meld (max_one_joker_per_meld)": "at most one joker per meld",
    "a meld needs at least two natural cards (max_one_joker_per_meld)": (
        "a meld needs at least two natural cards"
    ),
    # Notation examples read as the table shows cards.
    "{text}: the cards of a run must follow each other, written low to high (like 5H 6H 7H)": (
        "{text}: the cards of a run must follow each other, written low to high (like 5♥ 6♥ 7♥)"
    ),
    # A knock game's rubber.
    "seat {seat} already bought back {times}, as often as buyback_limit allows": (
        "seat {seat} already bought back {times}, as often as the rules allow"
    ),
    "this rubber has no buy-backs (buyback_limit = 0)": "this rubber has no buy-backs",
}
"""English for people, where the engine's English names an option or value by its id (or writes an
example in card notation): the engine's template → the sentence a player reads (the web page and the
terminal). The engine's own text stays what programs see (an error's ``str``, the API's ``detail``);
a rules refusal that starts with the option (``{option}: …``) names it as :data:`OPTION_EN` does."""
