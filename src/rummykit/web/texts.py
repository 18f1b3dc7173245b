"""Texts for people in every language the front end speaks (English and German), sent next to the
protocol's English/notation fields: ``"texts": {"en": …, "de": …}``.

The server sends both languages, so each client shows its own without telling the server, the
per-seat state messages stay shared by every client of a seat, and switching the language needs no
reconnect. Engine errors come from the message catalogue (:mod:`rummykit.i18n`), moves from its
move descriptions, table labels from ``GET /api/messages``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from rummykit.actions import Action
from rummykit.i18n import (
    describe_action,
    first_dealer_text,
    in_every_language,
    labels,
    localize_error,
    seat_draw_text,
)
from rummykit.i18n.language import LANGUAGES
from rummykit.i18n.levels import BOT_KIND_LINES_DE, BOT_KIND_NAMES_DE, level_line_de
from rummykit.rules import Rules
from rummykit.views import Phase

SERVER_ERRORS_DE: Final[dict[str, str]] = {
    "spectator": "Zuschauer können nicht spielen",
    "unchanged": "Seit der letzten Antwort, die du bekommen hast, hat sich nichts geändert",
    "spectator_chat": "Zuschauer können nicht chatten",
    "too_many_cards": "Die gebildeten Figuren haben {cards} Karten, mehr als die {held} deiner Hand",
    "unknown_bot": "Unbekannter Bot {kind}; Bots: {kinds}",
    "no_such_preset": "Kein solches Spiel; Spiele: {presets}",
    "not_playing": "An diesem Tisch wird gerade nicht gespielt",
    "stale": "Der Tisch hat sich inzwischen geändert; bitte noch einmal",
    "not_your_turn": "Du bist nicht am Zug",
    "storage": "Der Zug konnte nicht gespeichert werden; nichts wurde geändert",
    "storage_down": (
        "Der Server kann gerade nichts speichern; nichts wurde geändert; bitte gleich noch einmal"
    ),
    "storage_slow": (
        "Die Datenbank des Servers antwortet langsam; der Zug wartet darauf, gespeichert zu werden"
    ),
    "no_hint": "Tipps gibt es nur für den Spieler am Zug",
    "hints_off": (
        "Tipps gibt es nur am Übungstisch (du gegen Bots): "
        "dieser Tisch wurde nicht mit Tipps für alle eröffnet"
    ),
    "no_moves": "Züge gibt es nur für den Spieler am Zug",
    "hint_failed": "Es fand sich kein Tipp; bitte noch einmal",
    "rate_limited": "Zu viele Nachrichten; bitte etwas langsamer",
    "too_large": "Die Nachricht ist zu groß",
    "bad_message": "Ungültige Nachricht",
    "too_many_connections": "Aus diesem Netz bestehen schon {n} Verbindungen zum Server, so viele wie "
    "erlaubt (eine Schule oder ein Büro teilt sich eine Adresse): schließe andere Tabs dieser Seite "
    "oder bitte den Betreiber des Servers, --max-connections-per-address zu erhöhen",
    "too_many_network_connections": "Aus dem größeren Netz, zu dem deines gehört, bestehen schon {n} "
    "Verbindungen zum Server, so viele wie erlaubt: schließe andere Tabs dieser Seite oder bitte den "
    "Betreiber des Servers, --max-connections-per-network zu erhöhen",
    "server_connections": "Der Server hält gerade so viele Verbindungen, wie er kann; die Seite versucht "
    "es gleich noch einmal",
    "too_many_attempts": "Zu viele Verbindungsversuche; bitte etwas warten",
    "network_attempts": (
        "Zu viele Verbindungsversuche aus dem größeren Netz, zu dem deines gehört; bitte etwas warten"
    ),
    "too_many_seats": (
        "Dein Netz hält schon {seats_de} an wartenden Tischen anderer, die Grenze (eine Schule oder ein "
        "Büro teilt sich eine Adresse); verlass einen oder warte, bis ein Tisch beginnt"
    ),
    "too_many_network_seats": (
        "Von deinem Netz aus sind schon {ours} Plätze an wartenden Tischen anderer belegt – mehr geht "
        "nicht; verlass einen oder warte, bis ein Tisch beginnt"
    ),
    "server_full": "Der Server hat schon {total} offene Tische, seine Grenze; bitte später noch einmal",
    "too_many_tables": (
        "Aus deinem Netz wurden schon {mine} offene Tische eröffnet, die Grenze (eine Schule oder ein "
        "Büro teilt sich eine Adresse); beende oder verlass erst einen, oder bitte den Betreiber des "
        "Servers, --max-tables-per-address zu erhöhen"
    ),
    "too_many_network_tables": (
        "Aus deinem Netz wurden schon {ours} offene Tische eröffnet, die Grenze; "
        "beende oder verlass erst einen"
    ),
    "rate": "Zu viele Anfragen aus deinem Netz (eine Schule oder ein Büro teilt sich eine Adresse); in "
    "{seconds} s noch einmal",
    "network_rate": (
        "Zu viele Anfragen aus dem größeren Netz, zu dem deines gehört; in {seconds} s noch einmal"
    ),
    "no_code": "Es fand sich kein freier Tischcode; bitte noch einmal",
    "no_free_seat": "An Tisch {code} ist kein Platz mehr frei",
    "table_status": "Tisch {code} ist {status_de}",
    "table_watch": "Tisch {code} ist {status_de}; du kannst zuschauen",
    "lobby_changed": "Tisch {code} hat sich inzwischen geändert; bitte noch einmal",
    "no_rematch": "Tisch {code} ist {status_de}; eine Revanche folgt auf eine beendete Partie",
    "table_unreadable": "Tisch {code} wurde von einer anderen rummykit-Version gespeichert, deren Regeln "
    "oder Züge diese Version nicht spielen kann{why}; eröffne einen neuen Tisch",
    "match_not_over": "Tisch {code} ist noch nicht beendet: sein Spielprotokoll zeigt alle verdeckten Karten "
    "und wird erst nach dem Ende der Partie herausgegeben",
    "archive_busy": "Gerade wurden zu viele beendete Tische nachgeschlagen; in {seconds} s noch einmal",
    "replay_busy": (
        "Gerade wurden hier zu viele Tische nachgeschlagen, die andere Prozesse des Servers spielen; "
        "in {seconds} s noch einmal"
    ),
    "too_many_misses": (
        "Aus deinem Netz wurden zu viele Codes genannt, zu denen es keinen Tisch gibt; "
        "den nächsten bitte in {seconds} s"
    ),
    "rematch_failed": "Die Revanche ließ sich nicht eröffnen; bitte noch einmal",
    "rematch_too_late": (
        "Tisch {code} steht für keine Revanche mehr bereit (er ist länger vorbei); eröffne einen neuen Tisch"
    ),
    "rematch_opened": (
        "Die Revanche von Tisch {code} wurde vor dem Neustart des Servers eröffnet: Tisch {rematch} (die "
        "dort vergebenen Plätze behalten ihre Platzschlüssel; einen freien Platz nimmt man mit dem Code)"
    ),
    "rematch_elsewhere": (
        "Tisch {code} wird von einem anderen Prozess dieses Servers gespielt; "
        "bitte die Revanche über die Verbindung des Tisches"
    ),
    "not_practice": "Züge zurücknehmen geht nur am Übungstisch (nur du und Bots)",
    "nothing_to_undo": "Du hast in diesem Spiel keinen Zug gemacht, der sich zurücknehmen lässt",
    "undo_rate": "Zu oft hintereinander zurückgenommen; einen Moment warten",
    "undo_shows_card": (
        "Dieser Zug lässt sich nicht zurücknehmen: danach hast du eine Karte gesehen ({move_de})"
    ),
    "move_limit": (
        "Dieser Tisch hat die Grenze des Servers von {most} Zügen (Rücknahmen mitgezählt) erreicht, "
        "bevor die Partie zu Ende war; "
        "eröffne einen neuen Tisch"
    ),
    "not_host": "Nur der Gastgeber (Platz 1) kann den Tisch starten",
    "not_host_rematch": "Nur der Gastgeber (Platz 1) kann eine Revanche eröffnen",
    "not_host_remove": "Nur der Gastgeber (Platz 1) kann jemanden vom Tisch nehmen",
    "no_person": "Auf Platz {seat} sitzt niemand, der sich vom Tisch nehmen ließe",
    "removed": "Der Gastgeber hat diesen Platz wieder freigegeben: du schaust jetzt zu",
    "not_organiser": (
        "Das ist die Seite der Spielleitung: öffne die Adresse, die der Server bei seinem Start "
        "ausgegeben hat"
    ),
    "closed_by_organiser": "Die Spielleitung hat diesen Tisch geschlossen",
    "organiser_starts": "Diesen Tisch startet die Spielleitung (ein Tisch von der Seite der Spielleitung "
    "hat keinen Gastgeber)",
    "organiser_removes": "Nur die Spielleitung nimmt jemanden von diesem Tisch (ein Tisch von der Seite der "
    "Spielleitung hat keinen Gastgeber)",
    "organised_rematch": "Tisch {code} hat die Spielleitung eröffnet; sie eröffnet auch seine Revanche",
    "removed_by_organiser": "Die Spielleitung hat diesen Platz wieder freigegeben: du schaust jetzt zu",
    "has_host": "Tisch {code} hat einen Gastgeber, der ihn startet und Leute von ihm nimmt",
    "nobody_seated": "An Tisch {code} sitzt noch niemand",
    "too_many_organiser_tables": (
        "Von der Seite der Spielleitung wurden schon {made} offene Tische eröffnet, die Grenze; schließe "
        "erst einen, oder starte den Server mit einem höheren --max-organiser-tables"
    ),
    "unknown_token": "Unbekannter Platzschlüssel",
    "no_held_seat": "An diesem Tisch wird kein Platz für dich freigehalten",
    "no_table": "Kein Tisch {code}",
    "unlimited_rebuilds": (
        "max_stock_rebuilds: unbegrenzt bietet dieser Server nicht an (ein Spiel muss enden können); "
        "wähle zwischen {low} und {high}"
    ),
    "no_seeded_tables": "Dieser Server bietet keine Tische mit festem Startwert (Seed) an (kein „seed“)",
    "rules_text": "Die Regeln {rules} überstehen ihre Textform nicht",
    "too_many_bots": "Höchstens {bots_de} an einem Tisch mit {seats} Plätzen",
    "bad_bot": "Den Bot {kind} gibt es so nicht; Stufen: {levels}",
    "no_body": "Die Anfrage braucht einen JSON-Inhalt",
    "name_too_long": "Der Name darf höchstens {limit} Zeichen lang sein",
    "name_not_printable": (
        "Der Name darf nur sichtbare Zeichen enthalten (keinen Tabulator, Zeilenumbruch oder andere "
        "unsichtbare Zeichen)"
    ),
    "label_too_long": "Die Bezeichnung des Tisches darf höchstens {limit} Zeichen lang sein",
    "label_not_printable": (
        "Die Bezeichnung des Tisches darf nur sichtbare Zeichen enthalten (keinen Tabulator, Zeilenumbruch "
        "oder andere unsichtbare Zeichen)"
    ),
    "label_organiser_only": "Eine Bezeichnung bekommt ein Tisch nur von der Seite der Spielleitung",
    "body_not_object": "Der Inhalt der Anfrage muss ein JSON-Objekt sein",
    "body_not_json": "Der Inhalt der Anfrage ist kein gültiges JSON",
    "body_too_large": "Der Inhalt einer Anfrage darf höchstens {limit} Bytes groß sein",
}
"""German texts of the server's own error codes (their English text is the message itself);
``{name}`` fields are filled from the values the error carries."""
SERVER_ERROR_DE_DEFAULT: Final = "Das hat nicht geklappt"

STATUS_DE: Final[dict[str, str]] = {
    "waiting": "noch nicht gestartet",
    "playing": "schon im Spiel",
    "over": "beendet",
    "closed": "geschlossen",
    "expired": "abgelaufen",
}
"""A table's status as the German texts say it."""


def server_error_texts(error: str, message: str, /, **values: str) -> dict[str, str]:
    """``{"en": message, "de": …}`` for an error the server itself raises, by its code ``error``
    (``values`` fill the German text's fields)."""
    return {"en": message, "de": SERVER_ERRORS_DE.get(error, SERVER_ERROR_DE_DEFAULT).format(**values)}


DEFAULT_NAMES: Final = {"en": "Player {n}", "de": "Spieler {n}"}
"""A person who gave no name is named by seat (from 1) in each reader's language; the server
stores no name for them, so every page and text can name them in its own."""


def engine_error_texts(exc: BaseException, names: Sequence[str] = ()) -> dict[str, str]:
    """An engine error in every language, seats named by ``names`` (an empty name: the seat's
    default name in that language)."""

    def named(lang: str) -> list[str]:
        return [name or DEFAULT_NAMES[lang].format(n=i + 1) for i, name in enumerate(names)]

    return {lang: localize_error(exc, lang, named(lang)) for lang in DEFAULT_NAMES}


def move_texts(
    action: Action,
    rules: Rules,
    *,
    goes_out: bool,
    taken: int | None = None,
    phase: Phase | None = None,
    layoffs_done: bool | None = None,
    freed: int | None = None,
) -> dict[str, str]:
    """A logged move without its subject in every language; a card that goes face down is not named
    (``lays off the queen of hearts on meld 3`` / ``legt Herz-Dame an Figur 3 an``), a card taken
    from the discard pile (``taken``, face up for everybody) is (``takes the 7 of hearts from the
    discard pile``); ``layoffs_done`` tells which of a gin defender's two passes it is; ``freed``
    counts the jokers a joker exchange took (``swaps 6♣ 6♦ for two jokers of meld 1``)."""
    return in_every_language(
        lambda lang: describe_action(
            action,
            lang,
            rules=rules,
            goes_out=goes_out,
            taken=taken,
            phase=phase,
            layoffs_done=layoffs_done,
            freed=freed,
        )
    )


def action_texts(
    action: Action,
    *,
    taken: int | None = None,
    phase: Phase | None = None,
    rules: Rules | None = None,
    freed: int | None = None,
) -> dict[str, str]:
    """A move the player may make, as a button says it, in every language (``lay off the queen of
    hearts on meld 3`` / ``Herz-Dame an Figur 3 anlegen``); ``taken`` names the card a ``take`` picks
    up, ``phase`` tells what a gin ``pass`` means (a hint says ``take the 9 of spades from the
    discard pile``, ``pass on the upcard``); with ``rules`` a meld's joker shows the card it stands for
    (``JK(=2♣) 3♣ 4♣ auslegen``, where another button lays ``3♣ 4♣ JK(=5♣)``); ``freed`` counts the
    jokers a joker exchange frees (``swap 6♣ 6♦ for a joker of meld 1``)."""
    return in_every_language(
        lambda lang: describe_action(
            action, lang, form="verb", taken=taken, phase=phase, meld_rules=rules, freed=freed
        )
    )


def seat_draw_texts(card: int | None, *, deals_first: bool) -> dict[str, str]:
    """A line of the draw for the first dealer in every language (``card=None``: seats by lot)."""
    return in_every_language(lambda lang: seat_draw_text(card, deals_first=deals_first, lang=lang))


def first_dealer_texts(card: int) -> dict[str, str]:
    """The seat draw's closing line, when the dealer did not draw last, in every language."""
    return in_every_language(lambda lang: first_dealer_text(card, lang))


def bot_kind_texts(english: Mapping[str, str], kinds: Sequence[str]) -> dict[str, dict[str, str]]:
    """What each bot kind of ``kinds`` plays like, in every language (``english``:
    ``bots.BOT_KIND_LINES``); a kind without a line is left out."""
    return {
        kind: {"en": english[kind], "de": BOT_KIND_LINES_DE.get(kind, english[kind])}
        for kind in kinds
        if kind in english
    }


def bot_name_texts(english: Mapping[str, str], kinds: Sequence[str]) -> dict[str, dict[str, str]]:
    """Each bot kind of ``kinds`` by name in every language (``english``: ``bots.BOT_KIND_NAMES``); a
    kind without a name is left out (the page shows its id)."""
    return {
        kind: {"en": english[kind], "de": BOT_KIND_NAMES_DE.get(kind, english[kind])}
        for kind in kinds
        if kind in english
    }


def level_texts(english: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """The bot levels' menu lines in every language, by level (``english``: ``bots.LEVEL_LINES``)."""
    return {level: {"en": line, "de": level_line_de(level)} for level, line in english.items()}


def messages_json() -> dict[str, Any]:
    """``GET /api/messages``: every table label by key, per language."""
    return {lang: labels(lang) for lang in LANGUAGES}
