// rummykit in the browser: lobby, card table, composing melds, hints, scores. Plain JS, no build.
// The server is the referee: every move is sent in the engine's notation and checked there.
"use strict";

const I18N = {
  en: {
    create_title: "New table", your_name: "Your name", rules: "Rules", seats: "Seats", bots: "Bots",
    bot_kind: "Bot", bot_level: "Level", overrides: "Rule changes (option=value, one per line)",
    create: "Create table", join_title: "Join a table", code: "Code", join: "Join", watch: "Watch",
    open_tables: "Tables", waiting_title: "Waiting for players", share: "Share this link:",
    your_tables: "Your tables", resume: "Resume",
    start: "Start (bots fill empty seats)", leave: "Leave", group: "New meld", play_melds: "Lay melds",
    clear: "Clear", discard: "Discard", knock: "Knock", rummy: "Rummy", hint: "Hint", scores: "Scores",
    log: "Moves", continue: "Continue", your_turn: "Your turn", turn_of: "{name} to move",
    draw_phase: "draw from the stock or take the discard", play_phase: "meld, lay off, then discard",
    discard_phase: "discard, knock or call Rummy", spectating: "Watching", opening: "Opening",
    after_knock: "last turn after the knock", remove_person: "Remove", remove_person_named: "Remove {name} from the table",
    seat_taken: "{name} sat down ({k} of {n} seats taken)", seat_freed: "{name} left the seat ({k} of {n} seats taken)",
    do_draw: "draw from the stock", do_take: "take the discard", do_meld: "meld", do_layoff: "lay off",
    do_swap: "swap a joker", do_discard: "discard", do_knock: "knock", do_rummy: "call Rummy",
    do_buyback: "buy back", do_buyback_for: "buy back for {chips} chips (your score goes from {from} to {to})", do_decline: "decline", or: "or", then: "then",
    knocked_last: "{name} knocked – your last turn", last_turn: "Your last turn",
    first_upcard_phase: "take the upcard or pass", wall_phase: "the wall: knock or pass",
    knock_phase: "discard, lay your melds one by one, then pass", layoff_phase: "lay off, pass, lay melds, pass",
    total: "Total", running_total: "total", bonuses: "Bonuses", bonus_note: "The game went to the first to reach {n}; the bonuses came after it.", bonus_box: "Box bonus ({n} a hand won)", bonus_box_title: "{name}: {hands} hands won × {n}", bonus_box_title_one: "{name}: 1 hand won × {n}", bonus_game: "Game bonus", bonus_shutout: "Shutout: doubled", game_margin: "{name} wins the game by {n} points.", game_margin_one: "{name} wins the game by 1 point.", hand: "Hand", seat: "Seat", player_n: "Player {n}", open_seat: "open", bot: "bot", away: "away",
    you: "you", cards: "cards", card: "card", opened: "opened", stock: "Stock", pile: "Discard pile",
    round_over: "Hand over", match_over: "Match over", final_sheet: "Score sheet: all {n} hands", final_sheet_one: "Score sheet: the one hand", winner: "Winner", winners: "Winners", tie_most_hands_won: "tie broken: most hands won", tie_best_last_hand: "tie broken: best score in the last hand all of them played", pot_won: "The winner takes the pot: {n} chips", pot_shared: "The winners share the pot: {n} chips",
    points: "points", point: "point", deadwood: "Deadwood", went_out: "went out", rummy_call: "called Rummy",
    knock_call: "knocked", stock_exhausted: "stock exhausted — not scored", new_table: "New table",
    gin_call: "has gin", undercut_by: "{name} undercut", wall_dead: "the stock reached the wall — not scored",
    drawn_dead: "a dead hand (the discards went back and forth) — not scored",
    takes_dead: "a dead hand after {n} takes in a row — not scored",
    play_hint: "Play it", moves: "Possible moves", chips: "Chips", pot: "Pot", waiting: "waiting",
    playing: "playing", over: "over", closed: "closed", connection_lost: "Connection lost, reconnecting…", retry_in: "trying again in {s} s",
    move_sending: "Sending your move…", move_queued: "your move waits for the connection",
    move_not_sent: "Your move was not played: the table changed while you were not connected.",
    move_overtaken: "The table changed before your move arrived; it was not played.",
    select_one: "Select one card", select_cards: "Select cards first", need: "need",
    swap_offer: "{card} cannot be laid off on meld {n}, but it can take the place of its joker: choose a swap under Possible moves.",
    swap_pick: "{card} can take the place of the joker of meld {n}: choose a swap under Possible moves.",
    layoff_or_swap: "{card} can be laid off on meld {n} or take the place of its joker: choose under Possible moves.",
    tray_bad: "Your composed melds cannot be laid: not every group is a meld. Complete them or clear them before you discard.",
    seats_range: "{game} is played by {min} to {max} players: the table now has {seats} seats.",
    tray_short: "Your composed melds cannot be laid: {sum} points do not reach the opening's {min}. Add to them or clear them before you discard.",
    buyback: "Buy back", decline: "Decline", draw: "Draw", take: "Take", showdown: "Showdown",
    lay_on: "Lay {card} on meld {n}", host: "host", hand_rummy: "hand rummy", now: "now",
    seeded: "seeded: every hand can be known", expired: "expired",
    seeded_join: "This table has a fixed seed: whoever created it can know every hand, yours included.",
    replaced: "A bot plays for you (you did not move in time)", back: "I'm back",
    other_away: "{name} is away: a bot plays for them", other_back: "{name} is back and plays again",
    rules_link: "Rules", read_rules: "Read the rules", close: "Close", dismiss: "Dismiss", no_table: "There is no table {code}.", retry_at: "(Possible again from {time}.)",
    hints_everyone: "Hints for every player (otherwise only when you play against bots)",
    unlisted: "Only by its link (not in the list of tables; a game against bots alone never is)", hints_all: "hints for everyone",
    house_rules: "House rules", advanced: "Advanced: any option (option=value, one per line)",
    leave_title: "Leave the table?", leave_play: "A bot plays your seat from now on. You can take it back while this match lasts.",
    leave_wait: "Your seat becomes free again.", leave_host: "You are the host: leaving closes the table.",
    leave_last: "You are the last person at this table: leaving ends the game and closes the table.",
    stay: "Stay", held: "A bot holds your seat.", retake: "Take my seat back",
    joker_title: "Discard the joker?", joker_text: "A joker can stand for any card in a meld. Once discarded, the next player may take it.",
    keep_joker: "Keep it", rematch_offer: "The host opened a rematch at table {code}.", rematch_offer_organiser: "The organiser opened a rematch at table {code}.",
    join_title_code: "Join table {code}", join_as: "Join as", name_placeholder: "your name",
    wait_host: "Waiting for the host to start.", full_start: "Every seat is taken: start when you are ready.",
    start_now: "Start", hand_of: "Hand {n} of {m}", hand_n: "Hand {n}",
    hand_again_1: "Hand {n} (hand 1 not scored)", hand_again: "Hand {n} (hands 1–{k} not scored)", dealer: "Dealer",
    redealt: " (dealt again)", redealt_k: " (dealt again {k}×)", redeal_note: "This hand does not count: the same dealer deals again.",
    last_move: "Last move", last_moves: "Last moves", meanwhile: "Meanwhile",
    turn_take: "takes the {card}", turn_laid: "lays out {n} cards", turn_laid_points: "lays out {n} cards ({points} points)", turn_layoff_card: "lays off the {card}", turn_layoff: "lays off {n} cards", turn_swap: "swaps {cards} for {jokers} of meld {n}", turn_swap_card: "swaps the {cards} for {jokers} of meld {n}", swap_jokers: "jokers", swap_jokers_1: "a joker", swap_jokers_2: "two jokers", swap_jokers_3: "three jokers", swap_jokers_4: "four jokers",
    stood_in: "A bot played for you while you were not connected: {moves}", stood_in_last: "A bot played {n} turns for you while you were not connected; the last: {moves}", stood_in_n: "A bot made {n} moves for you while you were not connected",
    chat_queued: "your chat line waits for the connection",
    moves_full: "The moves in full", moves_none: "No moves yet", k_moves: "hear the others' moves since your last one in full", sort_suit: "Sort by suit", sort_rank: "Sort by rank", sort_melds: "Sort by melds",
    sound_on: "Sounds on", sound_off: "Sounds off", keys: "Keyboard", keys_title: "Keyboard shortcuts",
    letters_intl: "Show jacks and queens as J and Q", letters_german: "Show jacks and queens as B and D",
    your_hand: "Your hand", unset: "default", table_heading: "The table", side_heading: "Scores, moves and chat",
    k_arrows: "move through your hand", k_space: "select / unselect the card", k_shift: "move the card in your hand",
    k_draw: "draw from the stock", k_take: "take the discard", k_discard: "discard the selected card",
    k_group: "new meld from the selected cards", k_lay: "lay the melds", k_clear: "clear the selection",
    k_layoff: "lay the selected card off on meld N", k_knock: "knock with the selected card",
    k_rummy: "call Rummy with the selected card", k_hint: "ask for a hint", k_play_hint: "play the hint",
    k_sort_suit: "sort by suit", k_sort_rank: "sort by rank", k_sort_melds: "sort by melds",
    k_updown: "go to your hand (on the Moves, Scores and Chat panels: scroll them)", k_help: "this help", k_escape: "close a dialog",
    keys_single: "Single-key shortcuts (the letters and digits above)",
    keys_single_note: "The letters and digits work wherever the focus is at the table, except in a text field, with or without Shift. If they get in the way (speech input, a screen reader's own keys), turn them off here: the arrow keys, Space and Enter still work in your hand, and every move has a button.",
    rematch: "Rematch (same seats and rules)", rematch_wait: "The host can start a rematch: you keep your seat.",
    organise_title: "Every table of this server", organise_note: "Updated every five seconds. A table you make starts when you press its Start (bots take the seats still open); Watch opens a table in a new tab; Close ends it for everybody at it.",
    organise_game: "Game", organise_status: "Status", organise_players: "Players and totals", organise_actions: "Actions",
    organise_empty: "No table yet: the tables you make above, and those your players make, appear here.", organise_close: "Close",
    organise_close_confirm: "Close table {code} for everybody at it? Its match ends unfinished.", organise_unlisted: "by link only", organise_won: "won",
    organise_make_title: "Tables for your players", organise_count: "How many tables", organise_create: "Create tables",
    organise_label: "Label (shown at the table)", organise_label_example: "Group A",
    organise_rematch_all: "Rematch at every finished table", organise_rematched: "Rematches opened: {n}.",
    organise_rematch_at: "rematch at {code}",
    organise_label_note: "Several tables: each gets a number after the label (Group 1, Group 2 …).",
    organise_made: "{n} tables made.", organise_made_1: "The table is made.", organise_start: "Start", organise_start_all: "Start all waiting tables",
    organise_started: "Started: {n}. Still waiting for players: {m}.", organise_nobody: "Nobody sits here yet.",
    organise_relabel: "Rename", organise_relabel_named: "Change the label of table {code}",
    organise_relabel_prompt: "Label of table {code}, shown at the table (at most 24 characters; empty: none):",
    organise_relabeled: "Table {code} is now labelled {label}.", organise_unlabeled: "Table {code} has no label now.",
    organise_copy: "Copy link", organise_copied: "The link of table {code} is copied.", organise_link: "Link of table {code}",
    wait_organiser: "The organiser starts this table.", rematch_organiser: "The organiser opens the rematch (you keep your seat) or makes the next tables.",
    imprint: "Imprint", privacy: "Privacy", one_watching: "1 watching", n_watching: "{n} watching", record_link: "Download the game record", record_note: "every deal and move, to replay with rummykit replay",
    chat: "Chat", chat_send: "Send", chat_placeholder: "Say something…", chat_placeholder_watched: "Say something… watchers read along", mute: "Mute {name}", unmute: "Unmute {name}",
    chat_unread: "{n} unread", chat_unread_1: "1 unread", chat_said: "Chat, {name}: {text}", online: "online",
    loading_table: "Opening table {code}…", scores_full_names: "Full names",
    timer: "{name}: {s} s left", timer_own: "{s} s left, then a bot plays for you", clock_warning: "{s} seconds left for your move, then a bot plays for you",
    undo: "Undo", practice: "Practice", k_undo: "take back your last move (practice tables)",
    hand_moves: "Moves of hand {n}", no_moves_yet: "No moves yet in this hand.",
    gin_knock: "Knock at {n} or less", gin_only: "Gin only (no knock with deadwood)", gin_oklahoma: "(Oklahoma: the first upcard's value)", gin_passes_1: "one pass on the first upcard", gin_passes_2: "both passed on the first upcard", gin_melds: "{name}'s melds:", gin_own_melds: "Your melds:",
    gin_layoffs: "laid off:", gin_none: "none yet", gin_knocked_with: "{name} knocked with {n}", gin_knocked_gin: "{name} has gin: nothing may be laid off",
    knock_deadwood: "Deadwood {n}", knock_deadwood_after: "Deadwood {n} after your best discard",
    knock_lt: "knock below {t}", knock_le: "knock at {t} or less",
    sits_out: "sits out this hand", you_sit_out: "You sit out this hand (the dealer sits out at a table of four)",
    meld_n: "Meld {n}", joker_for_card: "joker (for the {card})", joker_for_rank: "joker (for {rank})",
    you_draw: "You draw the {card}", offline: "not connected",
    key_home: "Home", key_end: "End", key_space: "Space", key_shift: "Shift",
    layoff_step: "lay off on {name}'s melds, then Pass", meld_step: "now lay your own melds, then Pass",
    knock_meld_step: "now lay your melds, then Pass",
    big_gin_step: "discard, or lay all {n} cards in melds for big gin", big_gin_lay: "Big gin: lay all {n}",
    big_gin_now: "Big gin! (all {n} in melds)", big_gin_ready: "all {n} cards lie in melds: big gin",
    big_gin_call: "has big gin",
    best_melds: "Lay my best melds", pass_title: "Pass without laying your melds?",
    pass_text: "Your melds {cards} are not laid; they would count as deadwood. Pass anyway?",
    pass_anyway: "Pass anyway", back_to_table: "Back",
    tray_bad_lay: "Your composed melds cannot be laid: not every group is a meld. Complete them or clear them.",
    tray_short_lay: "Your composed melds cannot be laid: {sum} points do not reach the opening's {min}. Add to them or clear them.",
    more_moves: "more ({n})…", fewer_moves: "fewer", out_at: "Points to {n}", near_limit: "close to the limit", is_out: "out", bought_back: "Bought back", bought_back_title: "{name} bought back for {chips} chips: {from} → {to}", bought_back_chips: "{chips} chips paid", hand_chips: "{n} chips", hand_chips_one: "{n} chip", pot_taken: "Pot: {n} chips", pot_taken_shared: "Pot shared: {n} chips", pot_share_title: "{name} takes {n} of the pot",
    to_target: "to {n}", still_needed: "To {n}: still",
    minus_points: "Minus points (limit {n})", minus_left: "Left to {n}", limit_reached: "reached", minus_title: "{name}: {points} minus points, {left} left to the limit of {n}",
    gin_sum: "{name} scores {terms} = {n}", bonus_gin: "gin", bonus_big_gin: "big gin", bonus_undercut: "undercut", take_out: "take the {card} back into your hand", add_to_group: "Add {cards} to group {n}", rummy_possible: "Rummy possible", seats_now: "Now {seats} seats, {bots} of them bots", seats_now_1: "Now {seats} seats, 1 of them a bot", group_n: "group {n}", enough_to_open: "enough to open", not_scored: "not scored", rebuilt: "new stock {count}", n_of_m: "{n} of {m}", stock_shuffled: "The discard pile is shuffled into a new stock ({count})", stock_turned: "The discard pile is turned over as a new stock ({count})", picked_n: "number {n} of your selection", picked_group: "picked", taken_keep: "from the discard pile: not to be discarded this turn", taken_lay: "from the discard pile: to be laid this turn", hand_out_now: "hand rummy possible (counts ×{n})", you_hold: "you hold {n} cards", sr_melds: "melds", sr_left: "left in hand", spade_upcard: "spade upcard", gin_doubled: "spade upcard: the hand counts double",
  },
  de: {
    create_title: "Neuer Tisch", your_name: "Dein Name", rules: "Regeln", seats: "Plätze", bots: "Bots",
    bot_kind: "Bot", bot_level: "Stärke", overrides: "Regeländerungen (option=wert, eine pro Zeile)",
    create: "Tisch eröffnen", join_title: "Einem Tisch beitreten", code: "Code", join: "Beitreten",
    watch: "Zuschauen", open_tables: "Tische", waiting_title: "Warten auf Mitspieler",
    your_tables: "Deine Tische", resume: "Weiterspielen",
    share: "Diesen Link teilen:", start: "Starten (Bots füllen freie Plätze)", leave: "Verlassen",
    group: "Neue Figur", play_melds: "Auslegen", clear: "Zurücksetzen", discard: "Abwerfen",
    knock: "Klopfen", rummy: "Rummy", hint: "Tipp", scores: "Punkte", log: "Züge", continue: "Weiter",
    your_turn: "Du bist dran", turn_of: "{name} ist am Zug",
    draw_phase: "vom Stoß ziehen oder von der Ablage nehmen", play_phase: "auslegen, anlegen, dann abwerfen",
    discard_phase: "abwerfen, klopfen oder Rummy rufen", spectating: "Zuschauer", opening: "Erstmeldung",
    after_knock: "letzter Zug nach dem Klopfen", remove_person: "Entfernen", remove_person_named: "{name} vom Tisch nehmen",
    seat_taken: "{name} hat sich gesetzt ({k} von {n} Plätzen besetzt)", seat_freed: "{name} hat den Platz verlassen ({k} von {n} Plätzen besetzt)",
    do_draw: "vom Stoß ziehen", do_take: "von der Ablage nehmen", do_meld: "auslegen", do_layoff: "anlegen",
    do_swap: "einen Joker tauschen", do_discard: "abwerfen", do_knock: "klopfen", do_rummy: "Rummy rufen",
    do_buyback: "dich zurückkaufen", do_buyback_for: "dich für {chips} Chips zurückkaufen (dein Stand steigt von {from} auf {to})", do_decline: "ablehnen", or: "oder", then: "dann",
    knocked_last: "{name} hat geklopft – dein letzter Zug", last_turn: "Dein letzter Zug",
    first_upcard_phase: "offene Karte nehmen oder passen", wall_phase: "an der Mauer: klopfen oder passen",
    knock_phase: "abwerfen, Figuren einzeln auslegen, dann passen", layoff_phase: "anlegen, passen, auslegen, passen",
    total: "Summe", running_total: "Stand", bonuses: "Boni", bonus_note: "Gewonnen hat, wer zuerst {n} erreichte; die Boni kamen danach.", bonus_box: "Box-Bonus ({n} je gewonnenes Spiel)", bonus_box_title: "{name}: {hands} gewonnene Spiele × {n}", bonus_box_title_one: "{name}: 1 gewonnenes Spiel × {n}", bonus_game: "Partiebonus", bonus_shutout: "Zu null gewonnen: verdoppelt", game_margin: "{name} gewinnt die Partie mit {n} Punkten Vorsprung.", game_margin_one: "{name} gewinnt die Partie mit 1 Punkt Vorsprung.", hand: "Spiel", seat: "Platz", player_n: "Spieler {n}", open_seat: "frei", bot: "Bot", away: "abwesend",
    you: "du", cards: "Karten", card: "Karte", opened: "ausgelegt", stock: "Stoß", pile: "Ablage",
    round_over: "Spiel beendet", match_over: "Partie beendet", final_sheet: "Punkteliste: alle {n} Spiele", final_sheet_one: "Punkteliste: das eine Spiel", winner: "Gewinner", winners: "Gewinner", tie_most_hands_won: "Gleichstand entschieden: die meisten gewonnenen Spiele", tie_best_last_hand: "Gleichstand entschieden: bestes Ergebnis im letzten Spiel, in dem alle mitspielten", pot_won: "Der Gewinner bekommt den Pott: {n} Chips", pot_shared: "Die Gewinner teilen sich den Pott: {n} Chips",
    points: "Punkte", point: "Punkt", deadwood: "Restpunkte", went_out: "hat ausgemacht", rummy_call: "hat Rummy gerufen",
    knock_call: "hat geklopft", stock_exhausted: "Stoß aufgebraucht – keine Wertung",
    gin_call: "hat Gin", undercut_by: "{name} unterbietet", wall_dead: "der Stoß hat die Mauer erreicht – keine Wertung",
    drawn_dead: "ein totes Spiel (die abgelegten Karten gingen hin und her) – keine Wertung",
    takes_dead: "ein totes Spiel nach {n} Aufnahmen hintereinander – keine Wertung",
    new_table: "Neuer Tisch", play_hint: "Ausführen", moves: "Mögliche Züge", chips: "Chips", pot: "Pott",
    waiting: "wartet", playing: "läuft", over: "beendet", closed: "geschlossen",
    connection_lost: "Verbindung verloren, verbinde neu…", retry_in: "neuer Versuch in {s} s", select_one: "Eine Karte wählen",
    move_sending: "Dein Zug wird gesendet…", move_queued: "dein Zug wartet auf die Verbindung",
    move_not_sent: "Dein Zug wurde nicht gespielt: der Tisch hat sich geändert, während du nicht verbunden warst.",
    move_overtaken: "Der Tisch hat sich geändert, bevor dein Zug ankam; er wurde nicht gespielt.",
    select_cards: "Erst Karten wählen", need: "nötig",
    swap_offer: "{card} lässt sich nicht an Figur {n} anlegen, kann aber den Joker dort ersetzen: wähle unter „Mögliche Züge“ einen Tausch.",
    swap_pick: "{card} kann den Joker von Figur {n} ersetzen: wähle unter „Mögliche Züge“ einen Tausch.",
    layoff_or_swap: "{card} lässt sich an Figur {n} anlegen oder den Joker dort ersetzen: wähle unter „Mögliche Züge“.",
    tray_bad: "Deine Figuren lassen sich nicht auslegen: nicht jede Gruppe ist eine gültige Figur. Ergänze sie oder setze sie zurück, bevor du abwirfst.",
    seats_range: "{game} spielen {min} bis {max} Personen: der Tisch hat jetzt {seats} Plätze.",
    tray_short: "Deine Figuren lassen sich nicht auslegen: {sum} Punkte reichen nicht für die Erstmeldung mit {min}. Ergänze sie oder setze sie zurück, bevor du abwirfst.", buyback: "Zurückkaufen", decline: "Ablehnen",
    draw: "Ziehen", take: "Ablage nehmen", showdown: "Aufdecken", lay_on: "{card} an Figur {n} anlegen",
    hand_rummy: "Hand-Rommé", now: "jetzt",
    host: "Gastgeber",
    seeded: "fester Startwert: jedes Blatt kann bekannt sein", expired: "abgelaufen",
    seeded_join: "Dieser Tisch hat einen festen Startwert (Seed): wer ihn eröffnet hat, kann jedes Blatt kennen, auch deines.",
    replaced: "Ein Bot spielt für dich (du hast nicht rechtzeitig gezogen)", back: "Ich bin zurück",
    other_away: "{name} ist nicht da: ein Bot spielt an diesem Platz", other_back: "{name} ist zurück und spielt wieder",
    rules_link: "Regeln", read_rules: "Regeln lesen", close: "Schließen", dismiss: "Schließen", no_table: "Es gibt keinen Tisch {code}.", retry_at: "(Ab {time} wieder möglich.)",
    hints_everyone: "Tipps für alle Spieler (sonst nur, wenn du gegen Bots spielst)",
    unlisted: "Nur über den Link (nicht in der Liste der Tische; ein Spiel nur gegen Bots nie)", hints_all: "Tipps für alle",
    house_rules: "Hausregeln", advanced: "Erweitert: jede Option (option=wert, eine pro Zeile)",
    leave_title: "Tisch verlassen?", leave_play: "Ab jetzt spielt ein Bot deinen Platz. Du kannst ihn zurücknehmen, solange die Partie läuft.",
    leave_wait: "Dein Platz wird wieder frei.", leave_host: "Du bist Gastgeber: Verlassen schließt den Tisch.",
    leave_last: "Du bist die letzte Person an diesem Tisch: Verlassen beendet das Spiel und schließt den Tisch.",
    stay: "Bleiben", held: "Ein Bot spielt für dich auf deinem Platz.", retake: "Platz zurücknehmen",
    joker_title: "Joker abwerfen?", joker_text: "Ein Joker kann in einer Figur jede Karte ersetzen. Wirfst du ihn ab, kann der nächste Spieler ihn nehmen.",
    keep_joker: "Behalten", rematch_offer: "Der Gastgeber hat eine Revanche an Tisch {code} eröffnet.", rematch_offer_organiser: "Die Spielleitung hat eine Revanche an Tisch {code} eröffnet.",
    join_title_code: "Tisch {code} beitreten", join_as: "Beitreten als", name_placeholder: "dein Name",
    wait_host: "Warten, bis der Gastgeber startet.", full_start: "Alle Plätze sind besetzt: starte, wenn ihr bereit seid.",
    start_now: "Starten", hand_of: "Spiel {n} von {m}", hand_n: "Spiel {n}",
    hand_again_1: "Spiel {n} (Spiel 1 zählte nicht)", hand_again: "Spiel {n} (Spiele 1–{k} zählten nicht)", dealer: "Geber",
    redealt: " (neu gegeben)", redealt_k: " (neu gegeben {k}×)", redeal_note: "Dieses Spiel zählt nicht: derselbe Geber gibt neu.",
    last_move: "Letzter Zug", last_moves: "Letzte Züge", meanwhile: "Inzwischen",
    turn_take: "nimmt {card}", turn_laid: "legt {n} Karten aus", turn_laid_points: "legt {n} Karten aus ({points} Punkte)", turn_layoff_card: "legt {card} an", turn_layoff: "legt {n} Karten an", turn_swap: "tauscht {cards} gegen {jokers} von Figur {n}", turn_swap_card: "tauscht {cards} gegen {jokers} von Figur {n}", swap_jokers: "Joker", swap_jokers_1: "einen Joker", swap_jokers_2: "zwei Joker", swap_jokers_3: "drei Joker", swap_jokers_4: "vier Joker",
    stood_in: "Ein Bot hat für dich gespielt, während du nicht verbunden warst: {moves}", stood_in_last: "Ein Bot hat {n} Züge lang für dich gespielt, während du nicht verbunden warst; zuletzt: {moves}", stood_in_n: "Ein Bot hat {n} Züge für dich gemacht, während du nicht verbunden warst",
    chat_queued: "deine Chat-Zeile wartet auf die Verbindung",
    moves_full: "Die Züge ausführlich", moves_none: "Noch keine Züge", k_moves: "die Züge der anderen seit deinem letzten ausführlich hören", sort_suit: "Nach Farbe sortieren", sort_rank: "Nach Wert sortieren", sort_melds: "Nach Figuren sortieren",
    sound_on: "Töne an", sound_off: "Töne aus", keys: "Tastatur", keys_title: "Tastenkürzel",
    letters_intl: "Buben und Damen als J und Q zeigen", letters_german: "Buben und Damen als B und D zeigen",
    your_hand: "Deine Hand", unset: "Standard", table_heading: "Der Tisch", side_heading: "Punkte, Züge und Chat",
    k_arrows: "durch die Hand gehen", k_space: "Karte wählen / abwählen", k_shift: "Karte auf der Hand verschieben",
    k_draw: "vom Stoß ziehen", k_take: "von der Ablage nehmen", k_discard: "gewählte Karte abwerfen",
    k_group: "neue Figur aus den gewählten Karten", k_lay: "Figuren auslegen", k_clear: "Auswahl zurücksetzen",
    k_layoff: "gewählte Karte an Figur N anlegen", k_knock: "mit der gewählten Karte klopfen",
    k_rummy: "mit der gewählten Karte Rummy rufen", k_hint: "um einen Tipp bitten", k_play_hint: "den Tipp ausführen",
    k_sort_suit: "nach Farbe sortieren", k_sort_rank: "nach Wert sortieren", k_sort_melds: "nach Figuren sortieren",
    k_updown: "zur Hand gehen (in den Feldern Züge, Punkte und Chat: sie blättern)", k_help: "diese Hilfe", k_escape: "Dialog schließen",
    keys_single: "Einzeltasten-Kürzel (die Buchstaben und Ziffern oben)",
    keys_single_note: "Die Buchstaben und Ziffern wirken überall am Tisch außer in einem Textfeld, mit oder ohne Umschalttaste. Stören sie (Spracheingabe, die Tasten eines Screenreaders), schalte sie hier aus: Pfeiltasten, Leertaste und Enter wirken weiter in deiner Hand, und jeder Zug hat einen Knopf.",
    rematch: "Revanche (gleiche Plätze und Regeln)", rematch_wait: "Der Gastgeber kann eine Revanche starten: du behältst deinen Platz.",
    organise_title: "Alle Tische dieses Servers", organise_note: "Alle fünf Sekunden neu. Ein Tisch, den du eröffnest, beginnt, wenn du „Starten“ drückst (Bots nehmen die freien Plätze); „Zuschauen“ öffnet einen Tisch in einem neuen Tab; „Schließen“ beendet ihn für alle daran.",
    organise_game: "Spiel", organise_status: "Stand", organise_players: "Spieler und Punkte", organise_actions: "Aktionen",
    organise_empty: "Noch kein Tisch: die Tische, die du oben eröffnest, und die deiner Spieler erscheinen hier.", organise_close: "Schließen",
    organise_close_confirm: "Tisch {code} für alle daran schließen? Die Partie endet unfertig.", organise_unlisted: "nur über den Link", organise_won: "gewonnen",
    organise_make_title: "Tische für deine Spieler", organise_count: "Wie viele Tische", organise_create: "Tische eröffnen",
    organise_label: "Bezeichnung (am Tisch zu sehen)", organise_label_example: "Gruppe A",
    organise_rematch_all: "Revanche an jedem beendeten Tisch", organise_rematched: "Revanchen eröffnet: {n}.",
    organise_rematch_at: "Revanche an {code}",
    organise_label_note: "Mehrere Tische: jeder bekommt eine Nummer hinter der Bezeichnung (Gruppe 1, Gruppe 2 …).",
    organise_made: "{n} Tische eröffnet.", organise_made_1: "Der Tisch ist eröffnet.", organise_start: "Starten", organise_start_all: "Alle wartenden Tische starten",
    organise_started: "Gestartet: {n}. Warten noch auf Spieler: {m}.", organise_nobody: "Hier sitzt noch niemand.",
    organise_relabel: "Umbenennen", organise_relabel_named: "Bezeichnung von Tisch {code} ändern",
    organise_relabel_prompt: "Bezeichnung von Tisch {code}, am Tisch zu sehen (höchstens 24 Zeichen; leer: keine):",
    organise_relabeled: "Tisch {code} heißt jetzt {label}.", organise_unlabeled: "Tisch {code} hat jetzt keine Bezeichnung.",
    organise_copy: "Link kopieren", organise_copied: "Der Link von Tisch {code} ist kopiert.", organise_link: "Link von Tisch {code}",
    wait_organiser: "Diesen Tisch startet die Spielleitung.", rematch_organiser: "Die Revanche (du behältst deinen Platz) oder die nächsten Tische eröffnet die Spielleitung.",
    imprint: "Impressum", privacy: "Datenschutz", one_watching: "1 Zuschauer", n_watching: "{n} Zuschauer", record_link: "Spielprotokoll herunterladen", record_note: "alle Karten und Züge, zum Nachspielen mit rummykit replay",
    chat: "Chat", chat_send: "Senden", chat_placeholder: "Schreib etwas…", chat_placeholder_watched: "Schreib etwas… Zuschauer lesen mit", mute: "{name} stummschalten", unmute: "Stummschaltung für {name} aufheben",
    chat_unread: "{n} ungelesen", chat_unread_1: "1 ungelesen", chat_said: "Chat, {name}: {text}", online: "verbunden",
    loading_table: "Tisch {code} wird geöffnet…", scores_full_names: "Ganze Namen",
    timer: "{name}: noch {s} s", timer_own: "Noch {s} s, dann spielt ein Bot für dich", clock_warning: "Noch {s} Sekunden für deinen Zug, dann spielt ein Bot für dich",
    undo: "Zurücknehmen", practice: "Übung", k_undo: "letzten Zug zurücknehmen (Übungstisch)",
    hand_moves: "Züge in Spiel {n}", no_moves_yet: "In diesem Spiel noch keine Züge.",
    gin_knock: "Klopfen bis {n}", gin_only: "Nur Gin (kein Klopfen mit Restpunkten)", gin_oklahoma: "(Oklahoma: der Wert der ersten offenen Karte)", gin_passes_1: "einmal bei der ersten offenen Karte gepasst", gin_passes_2: "beide haben bei der ersten offenen Karte gepasst", gin_melds: "Figuren von {name}:", gin_own_melds: "Deine Figuren:",
    gin_layoffs: "angelegt:", gin_none: "noch keine", gin_knocked_with: "{name} hat mit {n} geklopft", gin_knocked_gin: "{name} hat Gin: nichts darf angelegt werden",
    knock_deadwood: "Restpunkte {n}", knock_deadwood_after: "Restpunkte {n} nach dem besten Abwurf",
    knock_lt: "klopfen unter {t}", knock_le: "klopfen bis {t}",
    sits_out: "setzt dieses Spiel aus", you_sit_out: "Du setzt dieses Spiel aus (am Vierertisch setzt der Geber aus)",
    meld_n: "Figur {n}", joker_for_card: "Joker (für {card})", joker_for_rank: "Joker (für {rank})",
    you_draw: "Du ziehst {card}", offline: "nicht verbunden",
    key_home: "Pos1", key_end: "Ende", key_space: "Leertaste", key_shift: "Umschalt",
    layoff_step: "leg an die Figuren von {name} an, dann Passen", meld_step: "jetzt deine eigenen Figuren auslegen, dann Passen",
    knock_meld_step: "jetzt deine Figuren auslegen, dann Passen",
    big_gin_step: "abwerfen oder alle {n} Karten als großes Gin auslegen", big_gin_lay: "Großes Gin: alle {n} auslegen",
    big_gin_now: "Großes Gin! (alle {n} in Figuren)", big_gin_ready: "alle {n} Karten liegen in Figuren: großes Gin",
    big_gin_call: "hat großes Gin",
    best_melds: "Meine besten Figuren auslegen", pass_title: "Passen, ohne deine Figuren auszulegen?",
    pass_text: "Deine Figuren {cards} sind nicht ausgelegt; sie zählen dann als Restpunkte. Trotzdem passen?",
    pass_anyway: "Trotzdem passen", back_to_table: "Zurück",
    tray_bad_lay: "Deine Figuren lassen sich nicht auslegen: nicht jede Gruppe ist eine gültige Figur. Ergänze sie oder setze sie zurück.",
    tray_short_lay: "Deine Figuren lassen sich nicht auslegen: {sum} Punkte reichen nicht für die Erstmeldung mit {min}. Ergänze sie oder setze sie zurück.",
    more_moves: "mehr ({n})…", fewer_moves: "weniger", out_at: "Punkte bis {n}", near_limit: "nah an der Grenze", is_out: "raus", bought_back: "Zurückgekauft", bought_back_title: "{name} hat sich für {chips} Chips zurückgekauft: {from} → {to}", bought_back_chips: "{chips} Chips gezahlt", hand_chips: "{n} Chips", hand_chips_one: "{n} Chip", pot_taken: "Pott: {n} Chips", pot_taken_shared: "Pott geteilt: {n} Chips", pot_share_title: "{name} bekommt {n} aus dem Pott",
    to_target: "bis {n}", still_needed: "Bis {n} fehlen",
    minus_points: "Minuspunkte (Grenze {n})", minus_left: "Bis {n} noch", limit_reached: "erreicht", minus_title: "{name}: {points} Minuspunkte, bis zur Grenze von {n} noch {left}",
    gin_sum: "{name} bekommt {terms} = {n}", bonus_gin: "Gin", bonus_big_gin: "großes Gin", bonus_undercut: "Unterbieten", take_out: "{card} zurück auf die Hand nehmen", add_to_group: "{cards} zu Gruppe {n} hinzufügen", rummy_possible: "Rummy möglich", seats_now: "Jetzt {seats} Plätze, davon {bots} Bots", seats_now_1: "Jetzt {seats} Plätze, davon 1 Bot", group_n: "Gruppe {n}", enough_to_open: "reicht zum Auslegen", not_scored: "keine Wertung", rebuilt: "neuer Stoß {count}", n_of_m: "{n} von {m}", stock_shuffled: "Die Ablage wird zum neuen Stoß gemischt ({count})", stock_turned: "Die Ablage wird umgedreht und ist der neue Stoß ({count})", picked_n: "Nummer {n} deiner Auswahl", picked_group: "Auswahl", taken_keep: "von der Ablage: darf in diesem Zug nicht abgeworfen werden", taken_lay: "von der Ablage: muss in diesem Zug ausgelegt werden", hand_out_now: "Hand-Rommé möglich (zählt ×{n})", you_hold: "du hast {n} Karten", sr_melds: "Figuren", sr_left: "noch auf der Hand", spade_upcard: "Pik aufgedeckt", gin_doubled: "Pik aufgedeckt: das Spiel zählt doppelt",
  },
};

const S = {
  lang: (localStorage.getItem("rummykit:lang") || navigator.language || "en").startsWith("de") ? "de" : "en",
  code: null, token: null, seat: null, ws: null, state: null, retry: 0,
  outbox: null, asked: null, heard: 0, linkDown: false, linkFresh: false, lastResent: null,  // see checkLink
  selected: [],     // indices into the shown hand, in click order
  groups: [],       // melds being composed: arrays of card texts
  evaluation: null, hint: null, notice: null, jokerAsked: null, passAsked: null, layQueue: null, bigGinAt: null, movesOpen: null, seenHands: null, overlayFor: null, presets: null,
  lobbyForm: "join",  // which lobby form an error belongs to
  rulesPath: null,    // the rules page being shown (reloaded when the language changes)
  heldToken: null,    // the token of a seat a bot holds since we left it (it can be taken back)
  rematchAsked: false,  // the host asked for the rematch and waits for its seat there
  order: [],          // the hand's order as the player arranged it (card texts), kept per table and seat
  focus: 0,           // the hand card with the keyboard focus (roving tabindex)
  sound: localStorage.getItem("rummykit:sound") === "on",
  singleKeys: localStorage.getItem("rummykit:single-keys") !== "off",  // the letter shortcuts (see onKey)
  intlLetters: localStorage.getItem("rummykit:letters") === "en",  // a German page with J and Q
  changed: { melds: new Set(), discard: false, hand: new Set() },  // what the last move changed
};

const $ = (sel) => document.querySelector(sel);
const t = (key, vars = {}) => (I18N[S.lang][key] || I18N.en[key] || key).replace(/\{(\w+)\}/g, (_, k) => vars[k]);

function applyLanguage() {
  document.documentElement.lang = S.lang;
  // German pages show German packs' letters (B♥ for J♥, D♠ for Q♠) unless the player asked for J and Q.
  Cards.setLetters(S.lang === "de" && !S.intlLetters ? "de" : "en");
  Cards.setLanguage(S.lang);  // and name a face-down card in German
  renderLettersButton();
  $("#btn-lang").classList.remove("hidden");  // hidden until the script knows the page's language
  $("#btn-lang").textContent = S.lang === "de" ? "EN" : "DE";
  $("#btn-lang").setAttribute("aria-label", S.lang === "de" ? "English" : "Deutsch");
  renderSoundButton();
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-label]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nLabel)); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  if (S.presets) renderPresets();
  if (S.tables) renderTableList();
  if (S.myTables) renderMyTables();
  if (S.rulesPath && !$("#rules-dialog").classList.contains("hidden")) showRules(S.rulesPath, S.rulesBody);
  if (S.code && !$("#loading").classList.contains("hidden")) $("#loading-text").textContent = t("loading_table", { code: S.code });
  renderChatJump();
  renderLink();  // "Connection lost …" in the new language at once, not at the next connection's event
  if (S.state) render();
}

// ---------------------------------------------------------------------------------------------
// REST and the websocket

// A text the server sends in every language ({"en": …, "de": …}) in the page's language, its cards
// in the page's rank letters.
const inLang = (texts, fallback) => Cards.faces((texts && texts[S.lang]) || fallback);

// A refusal that says how long to wait (Retry-After) also says when, as a time of day: a text that
// counted the seconds down would be read out again every second, and "1800 s" is hard to picture.
function retryNote(res) {
  const seconds = Number(res.headers.get("Retry-After"));
  if (!(seconds > 0)) return "";
  const when = new Date(Date.now() + seconds * 1000);
  const parts = seconds < 120 ? { hour: "2-digit", minute: "2-digit", second: "2-digit" } : { hour: "2-digit", minute: "2-digit" };
  return " " + t("retry_at", { time: when.toLocaleTimeString(S.lang === "de" ? "de-DE" : "en-GB", parts) });
}

// A seat's token shown on a GET of its own table (never in the URL): where a stranger spent the
// network's lookups of codes, only this lets the player look up their table.
const seatHeaders = (token) => (token ? { Authorization: `Bearer ${token}` } : {});

async function api(path, body, token = null) {
  const opts = body === undefined ? { headers: seatHeaders(token) } : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || res.status);
    const err = new Error(inLang(data.texts, detail) + retryNote(res));
    err.status = res.status;
    err.code = data.code;
    throw err;
  }
  return data;
}

function saveGrant(grant, left = false) {
  // A seat left is kept (its token takes it back while the match lasts) with the time it was left.
  localStorage.setItem("rummykit:" + grant.code, JSON.stringify({ token: grant.token, seat: grant.seat, left: left ? Date.now() : false }));
}

const orderKey = () => `rummykit:order:${S.code}`;
const groupsKey = () => `rummykit:groups:${S.code}`;

// The melds being composed, kept next to the hand's order (a reload keeps them): with the hand they
// belong to, and restored at the first state only while that hand lasts and its cards are still held.
function saveGroups() {
  if (!S.code || !S.state) return;
  const text = JSON.stringify({ hand: S.state.match.hands_dealt, groups: S.groups });
  if (text === S.savedGroups) return;
  S.savedGroups = text;
  try {
    if (S.groups.length) localStorage.setItem(groupsKey(), text); else localStorage.removeItem(groupsKey());
  } catch { /* storage full: the melds are not kept */ }
}

// Whether the table exists: a websocket to an unknown table fails without telling why, so ask first.
// Not answered in time (a request on a connection the network dropped hangs): taken to exist.
async function tableExists(code) {
  const signal = AbortSignal.timeout(5000);
  try { return (await fetch(`/api/tables/${encodeURIComponent(code)}`, { signal })).status !== 404; } catch { return true; }
}

async function openTable(code, { watch = false, ask = false } = {}) {
  S.code = code.toUpperCase();
  S.endedWhy = null;
  S.outbox = null; S.chatOut = null; S.linkDown = false; S.lastResent = null;  // a move chosen at another table stays there
  if (!(await tableExists(S.code))) { tableGone(S.code); return; }
  const saved = JSON.parse(localStorage.getItem("rummykit:" + S.code) || "null");
  // A seat we left during play: watch, with the token kept to take the seat back.
  S.heldToken = saved && saved.left ? saved.token : null;
  S.token = watch || !saved || saved.left ? null : saved.token;
  S.order = JSON.parse(localStorage.getItem(orderKey()) || "[]");
  S.savedGroups = null;
  try { S.restoreGroups = JSON.parse(localStorage.getItem(groupsKey()) || "null"); } catch { S.restoreGroups = null; }
  if (ask && !S.token && !watch) {
    // Opened by a shared link: a free seat is offered under a name the player chooses.
    // Asked again after a refusal (a school's requests share one address's budget): a pupil whose
    // lookup was refused was made a watcher without a word.
    let lobby = null;
    for (let wait = 1; wait <= 4; wait *= 2) {
      lobby = await api(`/api/tables/${encodeURIComponent(S.code)}`).catch((e) => (e.status === 429 ? null : false));
      if (lobby !== null) break;
      await new Promise((ok) => setTimeout(ok, wait * 1000));
    }
    if (lobby && lobby.status === "waiting" && lobby.seats.some((s) => s.kind === "open")) { askName(S.code); return; }
  }
  const url = new URL(location.href);
  url.searchParams.set("table", S.code);
  history.replaceState(null, "", url.pathname + url.search);
  connect();
}

function connect() {
  if (S.ws) { S.ws.onclose = null; S.ws.onmessage = null; S.ws.close(); }
  S.chat = []; S.chatUnread = 0; renderChatJump();
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // The seat token goes in the first message, never in the URL (access logs and proxies keep URLs).
  const ws = new WebSocket(`${proto}//${location.host}/ws/${S.code}`);
  S.ws = ws;
  // The backoff starts again once the server has admitted the connection (its welcome), not when the
  // socket opens: the server opens a refused connection to say why before it closes it.
  ws.onopen = () => { clearError($("#game-error")); S.heard = Date.now(); S.asked = null; send({ type: "hello", token: S.token }); };
  ws.onmessage = (ev) => { S.heard = Date.now(); S.asked = null; onMessage(JSON.parse(ev.data)); };
  ws.onclose = (ev) => onLinkClosed(ev);
}

function onLinkClosed(ev) {
  S.linkDown = true; S.asked = null; renderLink();
  if (ev.code === 4404) { tableGone(S.code); return; }
  if (ev.code === 4409) { tableUnreadable(S.code); return; }
  if (ev.code === 4403) { localStorage.removeItem("rummykit:" + S.code); S.token = null; }
  const status = S.state && S.state.table.status;
  if (status === "expired" || status === "closed") { showScreen("lobby"); loadLobby(); return; }
  if (ev.code === 4429) {
    // Refused for the connections or attempts of this address (a school or office shares one): said,
    // and tried again slowly (5, 10, 20, 40, 80 s), so that refused tabs do not spend the requests
    // of everybody behind the address (each try is a lookup and a connection).
    S.limited = Math.min((S.limited || 0) + 1, 5);
    const why = S.limitedBy;
    const wait = Math.max((why && why.retry_after) || 0, 5 * 2 ** (S.limited - 1));
    S.limitedBy = null;
    flash(`${why ? localText(why, why.message) : t("connection_lost")} · ${t("retry_in", { s: Math.ceil(wait) })}`);
    setTimeout(() => { if (S.code) connect(); }, wait * 1000);
    return;
  }
  S.retry = Math.min(S.retry + 1, 7);  // 0.3, 0.6, 1.2 … 10 s
  clearTimeout(S.reconnect);
  S.reconnect = setTimeout(reconnect, Math.min(10000, 300 * 2 ** (S.retry - 1)));
}

async function reconnect() {
  S.reconnect = null;
  if (!S.code) return;
  if (await tableExists(S.code)) connect(); else tableGone(S.code);
}

// Messages the server always answers: one of them unanswered for LINK.answer ms means a dead link.
const ANSWERED = new Set(["hello", "act", "ping", "chat", "moves", "back", "ready", "rematch"]);

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return false;
  S.ws.send(JSON.stringify(msg));
  if (ANSWERED.has(msg.type) && S.asked === null) S.asked = Date.now();
  return true;
}

// A move is sent once: a second click before its answer sends nothing. Made while the connection is
// down, it waits (S.outbox) and goes on the next connection if the table is still where it was chosen.
function act(action) {
  if (!S.state) return;
  const version = S.state.version;
  if (S.outbox && S.outbox.version === version) return;
  S.hint = null;
  sayAnnounced();
  clearError($("#game-error"));
  S.outbox = { action, version, sent: false, at: Date.now() };
  S.outbox.sent = send({ type: "act", action, version });
  renderLink();
  setTimeout(renderLink, LINK.sending);
}

// The connection as the network has it. A socket the browser still holds open may be dead (a phone
// that changed network, a train in a tunnel): nothing comes through and nothing says so. A quiet link is
// pinged; a message the server always answers that is not answered in time drops the socket, and the
// page connects again as after a close. A page that slept (frozen, throttled) starts counting afresh.
const LINK = { quiet: 20000, answer: 10000, sending: 700, tick: 1000 };

function checkLink() {
  const now = Date.now(), slept = now - (S.linkTick || now) > 3 * LINK.tick;
  S.linkTick = now;
  if (!S.code || !S.ws || S.ws.readyState !== WebSocket.OPEN) return;
  if (slept) { S.heard = now; if (S.asked !== null) S.asked = now; }  // a question asked stays asked
  if (S.asked !== null && now - S.asked > LINK.answer) { linkDead(); return; }
  if (S.asked === null && now - S.heard > LINK.quiet) send({ type: "ping" });
}

function linkDead() {
  const ws = S.ws;
  ws.onopen = null; ws.onmessage = null; ws.onclose = null;
  ws.close();
  onLinkClosed({ code: 1006 });
}

// The line that says the page is not connected, or that a move is on its way.
function renderLink() {
  const el = $("#link-state"), box = S.outbox;
  if (!el) return;
  let text = "";
  const waiting = [box ? t("move_queued") : "", S.chatOut ? t("chat_queued") : ""].filter(Boolean);  // sent or not
  if (S.code && S.linkDown) text = t("connection_lost") + waiting.map((w) => ` – ${w}`).join("");
  else if (S.code && box && box.sent && Date.now() - box.at >= LINK.sending) text = t("move_sending");
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("hidden", !text);
}

// A state settles the move on its way when its version differs. The first state on a new connection
// sends it again when the table is still at the move's version: the server plays it at most once (a
// second copy names a version that is gone). A move never sent whose table moved on is said lost.
function settleOutbox(state) {
  const box = S.outbox, fresh = S.linkFresh;
  S.linkFresh = false;
  if (!box) return;
  if (state.version === box.version) {
    if (fresh && state.you === S.seat && S.seat !== null) {
      box.sent = send({ type: "act", action: box.action, version: box.version });
      box.at = Date.now(); S.lastResent = box.version;
    }
    return;
  }
  S.outbox = null;
  renderLink();
  return box.sent ? null : t("move_not_sent");
}

// Back after the link was down long enough for a bot to play the seat (the welcome lists its moves):
// said once, shown and heard at once, with what it did; the log alone said it before.
function stoodInText(state) {
  const indices = S.stoodIn;
  S.stoodIn = null;
  if (!indices || !indices.length) return null;
  const mine = state.log.filter((e) => e.seat === state.you && indices.includes(e.index));
  if (!mine.length) return t("stood_in_n", { n: indices.length });
  const runs = turnRuns(mine), moves = runs.slice(-STOOD_IN_TURNS).map((run) => turnLine(run, false).shown).join(" · ");
  return runs.length > STOOD_IN_TURNS ? t("stood_in_last", { n: runs.length, moves }) : t("stood_in", { moves });
}
const STOOD_IN_TURNS = 3;  // the most of the bot's turns for the player said in full

setInterval(checkLink, LINK.tick);
// The browser knows the network came back: the link is checked, or made again, at once.
window.addEventListener("online", () => {
  if (!S.code) return;
  if (S.ws && S.ws.readyState === WebSocket.OPEN) send({ type: "ping" });
  else if (S.reconnect) { clearTimeout(S.reconnect); reconnect(); }
});

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      // No seat any more at a waiting table (the host freed it, told here or by another server process):
      // the token holds nothing, so it is forgotten.
      if (msg.seat === null && S.seat !== null && S.token && S.state && S.state.table.status === "waiting") { forgetTable(S.code); S.token = null; }
      S.seat = msg.seat; S.retry = 0; S.limited = 0;
      S.linkDown = false; S.linkFresh = true; renderLink();
      S.back = !!(S.state && S.state.table.code === S.code);  // a connection made again, not the first
      if (S.rematchAsked) send({ type: "rematch" });  // asked on a link that died: the same table, the same seat
      S.stoodIn = msg.seat !== null && Array.isArray(msg.stood_in) ? msg.stood_in : null;
      S.chatReplay = true;  // the recent chat lines come before the state: counted, not said again
      break;
    case "state": {
      const replayed = S.chatReplay;
      S.chatReplay = false;
      const unsent = settleOutbox(msg);
      // What a bot played for the player while away: where the state opens a hand's result (the bot
      // finished the hand), said in that dialog (showOverlay); flashed behind it, it was neither seen
      // nor heard. Otherwise flashed, after the state is drawn.
      S.stoodInNote = stoodInText(msg);
      if (replayed) resendChat();
      onState(msg);
      const notes = [unsent, S.stoodInNote].filter(Boolean);
      S.stoodInNote = null;
      if (notes.length) flash(notes.join(" "));
      break;
    }
    case "error":
      if (msg.code === "table_unreadable") { S.unreadable = msg; break; }  // the close (4409) that follows says it
      if (msg.code === "unchanged") break;  // a repeated back, ready, hand_log or moves: the page has the answer already
      if (msg.code === "rate_limited" || msg.code === "spectator") { S.chatOut = null; renderLink(); }  // the chat line refused: said below
      if (["too_many_connections", "too_many_attempts", "too_many_misses"].includes(msg.code)) { S.limitedBy = msg; break; }  // and its close (4429)
      if (msg.code === "removed") { forgetTable(S.code); S.token = null; }  // the host freed our seat: we watch
      // Why the table ended, said again in the lobby the ended table goes back to (the state may come first).
      if (msg.code === "closed_by_organiser" || msg.code === "move_limit") S.endedWhy = localText(msg, msg.message);
      S.discardAfter = null; S.layQueue = null; S.bigGinAt = null; S.outbox = null; renderLink();
      if (msg.code === "stale") {  // said in the page's words; a re-sent copy of a move already played: nothing to say
        if (S.lastResent !== null && S.state && S.state.version > S.lastResent) { S.lastResent = null; break; }
        flash(t("move_overtaken")); break;
      }
      if (S.rematchAsked) { S.rematchAsked = false; $("#overlay").classList.add("hidden"); }
      flash(localText(msg, msg.message));
      break;
    case "pong":  // asked when the page woke: the clock as the server has it now
      if (S.state && msg.version === S.state.version) {
        if (typeof msg.turn_left === "number") setTimerLeft(msg.turn_left);
        renderTimer();
      }
      break;
    case "notice":  // about the server, not a move: shown until the table's next state
      S.notice = msg.version; flash(localText(msg, msg.message));
      break;
    case "hint":
      // Asked, then a move made before it came: the move is what is said, not a hint for a turn gone.
      if (!S.state || msg.version !== S.state.version || (S.outbox && S.outbox.version === msg.version)) break;
      S.hint = msg.action; S.hintTexts = msg.texts || null; renderHint();
      announce(`${t("hint")}: ${inLang(S.hintTexts, "") || S.hint}`);  // the box appears silently
      break;
    case "hand_log":
      if (S.state && msg.version === S.state.version) { S.handNo = msg.hand; S.handMoves = msg.entries; renderLog(); }
      break;
    case "rematch": onRematch(msg); break;
    case "chat": onChat(msg); break;
    case "moves": if (S.state && msg.version === S.state.version) { S.moves = msg; render(); } break;
    case "evaluation": S.evaluation = msg; if (S.state && S.state.view) { renderTray(); renderActions(); } break;
    default: break;
  }
}

// Words typed by a person, set among the page's: isolated (FSI … PDI), so that a right-to-left label
// does not carry the table's code after it along ("קבוצה 1 · 3HY4KJ" showed as "3 · 1 קבוצה HY4KJ").
function isolated(text) {
  return `\u2068${text}\u2069`;
}

// A server text in the page's language when the server sends both ({"texts": {"en": …, "de": …}}).
function localText(item, fallback) {
  return Cards.faces((item && item.texts && item.texts[S.lang]) || fallback);
}

// What changed since the previous state: new table melds, lay-offs and jokers exchanged (a meld's cards
// other, its length the same: it was not marked as the last move), a new discard, new hand cards.
function noteChanges(previous, state) {
  const changed = { melds: new Set(), discard: false, hand: new Set() };
  const pv = previous && previous.view, v = state.view;
  if (pv && v && previous.match.hands.length === state.match.hands.length) {
    v.melds.forEach((m, k) => { if (!pv.melds[k] || pv.melds[k].cards.join(" ") !== m.cards.join(" ")) changed.melds.add(k); });
    changed.discard = v.discard_pile.length > pv.discard_pile.length;
    if (v.hand && pv.hand) {
      const before = countCards(pv.hand);
      for (const c of v.hand) { if (before[c]) before[c] -= 1; else changed.hand.add(c); }
    }
  }
  return changed;
}

// Said to a screen reader in the polite live region #announce (not shown). What is said at one moment
// goes together; the region is emptied first, so the same words said again are heard again.
let announcing = [];
// Text of a region a screen reader reads out (a live region, an error, the hint): shown as written, said
// with its cards in words (Cards.spoken: the symbols were read "Q black spade suit JK vertical line").
// The same text is not written again: a live region was re-read on every key and every bot move.
// heard: what a screen reader is to hear of it, where that is less than what is shown.
function say(el, text, heard) {
  if (el.dataset.said === text) return;
  el.dataset.said = text;
  // Behind an open dialog the page is inert and a screen reader hears nothing of it: marked, to be
  // said once the dialog closes (sayUnheard).
  if (el.closest("[inert]")) el.dataset.unheard = "1"; else delete el.dataset.unheard;
  writeSpoken(el, text, heard);
}

// A text with cards written into an element: shown with the suit symbols (hidden from a screen reader),
// heard in words (or heard as given). A text without cards is written as it is.
function writeSpoken(el, text, heard) {
  const words = Cards.spoken(heard === undefined ? text : heard);
  if (heard === undefined && words === text) { el.textContent = text; return; }
  const shown = document.createElement("span"), spoken = document.createElement("span");
  shown.setAttribute("aria-hidden", "true"); shown.className = "shown"; shown.textContent = text;
  spoken.className = "sr-only"; spoken.textContent = words;
  el.replaceChildren(shown, spoken);
}

// The same as HTML, for the dialogs drawn from a string.
function spokenHtml(text) {
  const words = Cards.spoken(text);
  if (words === text) return escapeHtml(text);
  return `<span aria-hidden="true">${escapeHtml(text)}</span><span class="sr-only">${escapeHtml(words)}</span>`;
}

function announce(text) {
  if (!text) return;
  text = Cards.spoken(text);
  const el = $("#announce");
  if (!announcing.length) {
    el.textContent = "";
    S.announceTimer = setTimeout(sayAnnounced, 100);
  }
  announcing.push(text);
}
function sayAnnounced() {
  clearTimeout(S.announceTimer);
  if (!announcing.length) return;
  $("#announce").textContent = announcing.join(" · ");
  announcing = [];
}
// What waits to be announced (sayAnnounced) is said before a move goes and before a state is drawn: a
// hint asked for and played at once (H, then P) was said after the move's line, as if it came after.

// The card you drew from the stock, said to you alone: the log says only "draws from the stock" (the
// card is hidden from everybody else), the new card is in your own hand (noteChanges). A take from
// the pile names its card in the log already; an undo that gives a card back is no draw.
function announceDraw(previous, state) {
  if (S.seat === null || state.you !== S.seat || !state.view || !state.view.hand || !S.changed.hand.size) return;
  const last = state.log[state.log.length - 1], before = previous.log[previous.log.length - 1];
  if (!last || last.seat !== S.seat || last.action !== "draw" || (before && last.index <= before.index)) return;
  announce(t("you_draw", { card: [...S.changed.hand].map(Cards.objectName).join(", ") }));
}

// The discard pile turned into a new stock during this hand: said to everybody, once (it happened unsaid).
function announceRebuild(previous, state) {
  const v = state.view, pv = previous.view;
  if (!v || !pv || previous.match.hands_dealt !== state.match.hands_dealt) return;
  // Shuffled, or turned over as it lies (Basic Rummy's pile, stock_exhaustion turn_over_*).
  const turned = String(tableRules(state).stock_exhaustion || "").startsWith("turn_over");
  if ((v.stock_rebuilds || 0) > (pv.stock_rebuilds || 0)) announce(t(turned ? "stock_turned" : "stock_shuffled", { count: rebuildCount(v) }));
}

function onState(state) {
  sayAnnounced();
  const previous = S.state;
  const picked = previous && previous.view ? selectedCards() : [];  // the cards, not their places
  S.state = state;
  S.timerFor = null;  // every state says what is left of the turn (one that arrives late is corrected next)
  if (!previous) S.saidHand = state.match.hands_dealt;  // the hand the table opened at is on the screen
  if (S.notice !== null && state.version > S.notice) { S.notice = null; clearError($("#game-error")); }
  if (S.jokerAsked !== null && state.version !== S.jokerAsked) { S.jokerAsked = null; closeDialog("#joker-dialog"); }
  if (S.passAsked !== null && state.version !== S.passAsked) { S.passAsked = null; closeDialog("#pass-dialog"); }
  if (!previous || previous.version !== state.version) {
    S.changed = noteChanges(previous, state);
    S.animate = true;  // the next render animates what changed; later renders (a click) do not
    if (previous && state.version > previous.version) playSound(state.legal.length && !previous.legal.length ? "turn" : "move");
    // In another tab or app the title says that it is your turn (back here, it is the page's again).
    if (document.hidden && state.legal.length && !(previous && previous.legal.length)) {
      S.baseTitle = S.baseTitle || document.title;
      document.title = `▶ ${t("your_turn")} · ${S.baseTitle}`;
    }
    if (previous && state.version > previous.version) announceDraw(previous, state);
    if (previous && state.version > previous.version) announceRebuild(previous, state);
  }
  if ((state.compose || []).length && (!S.moves || S.moves.version !== state.version)) send({ type: "moves" });
  if (!previous || previous.version !== state.version) { mergeHandMoves(state); requestHandLog(); }
  if (S.seat !== state.you) { S.seat = state.you; }
  if (!previous || previous.version !== state.version) {
    // The hand changed under the selection: keep only groups whose cards are still held; a turn that
    // ended takes the tray's melds back into the hand.
    S.selected = [];
    const turnEnded = previous && previous.you === state.you && turnOf(previous) && !turnOf(state);
    if (turnEnded) { S.groups = []; S.movesOpen = null; }
    const saved = S.restoreGroups;
    S.restoreGroups = null;
    if (!previous && saved && saved.hand === state.match.hands_dealt && Array.isArray(saved.groups)) S.groups = saved.groups;
    if (state.view && state.view.hand) {
      const pool = countCards(state.view.hand);
      S.groups = S.groups.filter((g) => g.every((c) => (pool[c] = (pool[c] || 0) - 1) >= 0));
    } else S.groups = [];
    // The cards picked stay picked while they are held (another's move, your own draw): cards picked in
    // the others' turns were let go at each of their moves. A turn of yours that ended, or a new hand,
    // lets them go.
    const sameHand = previous && previous.match.hands_dealt === state.match.hands_dealt && previous.you === state.you;
    if (sameHand && !turnEnded) S.selected = pickAgain(picked, handLost(previous.view, state.view));
    S.hint = null;
    evaluate();
  }
  if (S.discardAfter && (!previous || previous.version !== state.version)) discardAfterMelds(state);
  if (S.layQueue && (!previous || previous.version !== state.version)) layNextMeld(state);
  if (S.bigGinAt !== null && (!previous || previous.version !== state.version)) {
    const at = S.bigGinAt;
    S.bigGinAt = null;  // the knock of "Big gin!" came back: lay every meld and pass, else nothing more
    if (state.version === at && ginStep(state.view) === "big_gin") layBigGin();
  }
  const hands = state.match.hands.length;
  if (S.seenHands === null) {
    S.seenHands = hands;
    // The page opened anew in the break after a hand (a reload): the hand's result is shown again,
    // and the break goes on until it is closed, as if the page had never gone.
    const resting = (state.rest || []).includes(S.seat);
    if (resting && state.last_round && !state.match.is_over) showRoundOver(state);
  }
  // A rubber's chips (knock money, the pot) that moved at the hand's end, when the page saw them before.
  const moved = previous && previous.match.is_rubber && hands > (previous.match.hands || []).length;
  if (moved) S.chipsMoved = handChipsMoved(state.match, previous.match);
  if (hands > S.seenHands && state.last_round) { S.seenHands = hands; showRoundOver(state); }
  if (state.match.is_over && S.overlayFor !== "match") showMatchOver(state);
  // In the break after a hand our turn clock rests until we close the result: with no result shown
  // (the page was opened anew), there is nothing to wait for.
  if ((state.rest || []).includes(S.seat) && $("#overlay").classList.contains("hidden")) send({ type: "ready" });
  render();
  if (previous && turnOf(state) && !turnOf(previous)) showFocusedCard();
}

// At the start of a turn the lines above the table (the others' moves meanwhile) may have grown and
// pushed the hand down: the card with the keyboard focus is brought back into view, as little as needed.
function showFocusedCard() {
  const el = document.activeElement;
  if (el && el.closest && el.closest("#hand .card")) el.scrollIntoView({ block: "nearest" });
}

// ---------------------------------------------------------------------------------------------
// Rendering

function showScreen(name) {
  // The keyboard was in the screen that goes (the lobby's "Create table", the host's "Start"): once the
  // new screen is drawn, the focus goes there (see render) rather than drop to the page's body.
  const from = document.activeElement, screen = from && from.closest ? from.closest(".screen") : null;
  S.focusScreen = !!screen && screen.id !== name && !screen.classList.contains("hidden");
  const shown = ["loading", "lobby", "waiting", "game", "organise"].find((id) => !$("#" + id).classList.contains("hidden"));
  for (const id of ["loading", "lobby", "waiting", "game", "organise"]) $("#" + id).classList.toggle("hidden", id !== name);
  if (shown !== name) window.scrollTo(0, 0);  // a new screen starts at its top (the lobby's long form was scrolled)
  if (name === "lobby" || name === "organise") document.body.dataset.watching = "0";  // a table's zoom ends there
  $("#btn-rules").classList.toggle("hidden", name === "lobby" || !S.code);
  $("#btn-keys").classList.toggle("hidden", name !== "game");
}

// Errors stay where the user is looking until dismissed (✕) or until the next action or correction.
function errorBox() {
  if (!$("#lobby").classList.contains("hidden")) return S.lobbyForm === "create" ? $("#create-error") : $("#join-error");
  if (!$("#waiting").classList.contains("hidden")) return $("#wait-error");
  if (!$("#organise").classList.contains("hidden")) return $("#organise-error");
  if (!$("#loading").classList.contains("hidden")) return $("#loading-error");
  return $("#game-error");
}

function showError(text, box = errorBox()) {
  const el = box.querySelector(".error-text");
  el.dataset.said = "";  // an error said again is announced again
  say(el, text);
  box.classList.remove("hidden");
  box.scrollIntoView({ block: "center" });
}

function clearError(box) {
  box.classList.add("hidden");
  const el = box.querySelector(".error-text");
  el.textContent = ""; el.dataset.said = "";
}

const flash = (text) => showError(text);

// Back to the lobby from a table that is gone: no reconnecting, no table in the address.
function leaveToLobby() {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); S.ws = null; }
  S.code = null; S.token = null; S.state = null; S.seat = null;
  history.replaceState(null, "", location.pathname);
  closeRules();
  showScreen("lobby");
  loadLobby();
}

function tableGone(code) {
  leaveToLobby();
  S.lobbyForm = "join";
  showError(t("no_table", { code }));
}

// A stored table this server's version cannot play (stored by another version, whose rules or moves
// it refuses): the server's reason, which names the rule change when it knows it.
function tableUnreadable(code) {
  const why = S.unreadable;
  S.unreadable = null;
  leaveToLobby();
  S.lobbyForm = "join";
  showError(why ? localText(why, why.message) : t("no_table", { code }));
}

// The rules page (escaped HTML written by the server from the option values) in a dialog.
// ``body``: the create form's house rules, shown over the preset's before the table exists.
async function showRules(path, body = undefined) {
  S.rulesPath = path;
  S.rulesBody = body;
  try {
    const own = body === undefined && S.code && path.startsWith(`/api/tables/${encodeURIComponent(S.code)}/`);
    const data = await api(`${path}?lang=${S.lang}`, body, own ? S.token || S.heldToken : null);
    $("#rules-heading").textContent = data.code ? `${t("rules")} · ${data.code}` : t("rules");
    $("#rules-body").innerHTML = data.html;  // escaped by rummykit.explain; nothing else goes in unescaped
    if ($("#rules-dialog").classList.contains("hidden")) S.rulesReturn = document.activeElement;  // back there after
    $("#rules-dialog").classList.remove("hidden");
    $("#rules-body").scrollTop = 0;
    $("#btn-rules-close").focus();
  } catch (err) { showError(err.message); }
}

function closeRules() {
  S.rulesPath = null;
  $("#rules-dialog").classList.add("hidden");
  syncModal();
  if (usable(S.rulesReturn)) S.rulesReturn.focus();
  S.rulesReturn = null;
  $("#rules-body").textContent = "";
}

function renderPresets() {
  // The game chosen before, or the one this browser last made a table of ("New table" comes back to it).
  const sel = $("#preset"), names = S.presets.names || {};
  const last = localStorage.getItem("rummykit:preset");
  const keep = sel.value || (last && S.presets.presets[last] ? last : "");
  sel.textContent = "";
  for (const p of Object.keys(S.presets.presets)) {
    const o = document.createElement("option");
    o.value = p;
    o.textContent = names[p] ? names[p][S.lang][0] : p;
    sel.appendChild(o);
  }
  if (keep) sel.value = keep;
  renderBotKinds();
  renderLevels();
  renderSeatRange();
  const line = names[sel.value];
  $("#preset-line").textContent = line ? line[S.lang][1] : "";
  renderHouseRules();
  // The raw box's example is one this game accepts (a knock game has no opening minimum).
  const example = (S.presets.advanced_examples || {})[sel.value];
  if (example) document.querySelector('#create-form textarea[name="overrides"]').placeholder = example;
}

// The seats a table of the chosen game may have (gin: two), the value kept within them; bots fill
// at most every seat but the creator's. When the game moves the seats (DSkV: at least three) and the
// bots filled every other seat, they still do: the table starts at once, as with any other game.
function renderSeatRange(typed) {  // typed: the seats field's change event (not a new game chosen)
  const rules = S.presets.presets[$("#preset").value];
  const seats = $("#create-form input[name=seats]"), bots = $("#create-form input[name=bots]");
  if (!rules) return;
  seats.min = rules.min_players;
  seats.max = rules.max_players;
  const hadSeats = seats.value, hadBots = bots.value;
  // A game chosen starts from the seats and bots the player set, not from what the game before moved
  // them to: arrowing through the menu past DSkV (three seats at least) kept its three seats and two bots.
  S.seatChoice = S.seatChoice || { seats: hadSeats, bots: hadBots };
  if (!typed) { seats.value = S.seatChoice.seats; bots.value = S.seatChoice.bots; }
  const value = Number(seats.value) || rules.min_players;
  const filled = Number(bots.value) === value - 1;
  seats.value = Math.min(Math.max(value, rules.min_players), rules.max_players);
  // A count the game does not allow is changed where the player can see it, and said why.
  if (typed && Number(seats.value) !== value) {
    showError(t("seats_range", { game: presetName($("#preset").value), min: rules.min_players, max: rules.max_players, seats: seats.value }), $("#create-error"));
  }
  bots.max = Number(seats.value) - 1;
  if ((filled && Number(seats.value) !== value) || Number(bots.value) > Number(bots.max)) bots.value = bots.max;
  if (typed) rememberSeats();
  // A game chosen that moved the seats or the bots: said, as a screen reader user would not see it.
  if (!typed && (seats.value !== hadSeats || bots.value !== hadBots)) {
    announce(t(bots.value === "1" ? "seats_now_1" : "seats_now", { seats: seats.value, bots: bots.value }));
  }
}

// The seats and bots as the player set them (see renderSeatRange).
function rememberSeats() {
  const form = $("#create-form");
  S.seatChoice = { seats: form.elements.seats.value, bots: form.elements.bots.value };
}

// A bot kind by the name people use, in the page's language ("Greedy" / "Gierig"); its id otherwise.
const botKindName = (kind) => inLang(((S.presets && S.presets.bot_names) || {})[kind], kind);

// The lobby's bot menu: each kind by its name (the id is the value sent), the choice kept.
function renderBotKinds() {
  const sel = $("#bot-kind"), keep = sel.value || S.presets.default_bot;
  sel.textContent = "";
  for (const kind of S.presets.bots || []) {
    const o = document.createElement("option");
    o.value = kind;
    o.textContent = botKindName(kind);
    sel.appendChild(o);
  }
  sel.value = keep;
}

// A level's name: its menu line up to the colon ("medium: the default …").
const levelName = (line) => line.split(": ")[0];

// The bot levels in the page's language (by level key, from the server): the menu names each level
// ("medium: …" up to the colon); the line under it says what the chosen one is.
function renderLevels() {
  const sel = document.querySelector('select[name="bot_level"]'), texts = S.presets.level_texts;
  if (!texts) return;
  const keep = sel.value || "medium";
  sel.textContent = "";
  for (const level of S.presets.levels) {
    const o = document.createElement("option"), line = inLang(texts[level], level);
    o.value = level;
    o.textContent = levelName(line);
    o.title = line;
    sel.appendChild(o);
  }
  sel.value = keep;
  renderLevelLine();
}

// Only a bot whose level changes its play offers the level (greedy and random play the same at every one).
function renderLevelLine() {
  // What the chosen bot plays like, then (for a bot with levels) what the chosen level is.
  const bots = (S.presets && S.presets.bot_texts) || {}, kind = $("#bot-kind").value;
  const botLine = bots[kind] ? inLang(bots[kind], "") : "";
  $("#bot-line").textContent = botLine ? botLine[0].toUpperCase() + botLine.slice(1) + "." : "";
  const sel = document.querySelector('select[name="bot_level"]'), texts = S.presets.level_texts;
  const leveled = botHasLevels();
  sel.closest("label").classList.toggle("hidden", !leveled);
  $("#level-line").classList.toggle("hidden", !leveled);
  const line = texts && texts[sel.value] ? inLang(texts[sel.value], "") : "";
  const what = line.includes(": ") ? line.slice(line.indexOf(": ") + 2) : line;
  $("#level-line").textContent = what ? what[0].toUpperCase() + what.slice(1) + "." : "";
}

// ", hard" after a seat's bot whose level changes its play (the level's name in the page's language).
function botLevelName(seat) {
  const leveled = (S.presets && S.presets.leveled_bots) || [], texts = (S.presets && S.presets.level_texts) || {};
  if (!seat.level || !leveled.includes(seat.bot)) return "";
  return ", " + levelName(inLang(texts[seat.level], seat.level));
}

const botHasLevels = () => ((S.presets && S.presets.leveled_bots) || []).includes($("#bot-kind").value);

// The house rules of the chosen preset as labelled controls with the ranges Rules allows.
function renderHouseRules() {
  const box = $("#house-rules"), preset = $("#preset").value;
  const controls = (S.presets.house_rules || {})[preset] || [];
  const keep = {};
  if (box.dataset.preset === preset) for (const el of box.querySelectorAll("[data-option]")) keep[el.dataset.option] = el.type === "checkbox" ? el.checked : el.value;
  box.dataset.preset = preset;
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const c of controls) {
    const label = document.createElement("label");
    const span = document.createElement("span");
    span.textContent = c.label[S.lang];
    let input;
    if (c.kind === "bool") {
      label.className = "check";
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = c.option in keep ? keep[c.option] : c.value;
      label.append(input, span);
    } else if (c.kind === "int") {
      input = document.createElement("input");
      input.type = "number"; input.min = c.min; input.max = c.max; input.step = 1;
      input.value = c.option in keep ? keep[c.option] : c.value === null ? "" : c.value;
      if (c.unset) input.placeholder = c.unset[S.lang];
      label.append(span, input);
    } else {
      input = document.createElement("select");
      for (const ch of c.choices) {
        const o = document.createElement("option");
        o.value = ch.value; o.textContent = ch.label[S.lang];
        input.appendChild(o);
      }
      input.value = c.option in keep ? keep[c.option] : c.value;
      label.append(span, input);
    }
    input.dataset.option = c.option;
    input.name = "rule_" + c.option;
    label.title = c.option;
    box.appendChild(label);
  }
  box.classList.toggle("hidden", !controls.length);
  box.onchange = () => greyUnusedHouseRules(controls);
  greyUnusedHouseRules(controls);
}

// A house rule that cannot matter under the others as set (gin's knock limit once Oklahoma is ticked:
// the upcard sets it) is greyed out and not sent.
function houseValue(c, el) {
  if (c.kind === "bool") return el.checked;
  if (c.kind === "int") return el.value === "" ? null : Number(el.value);
  return el.value;
}

function greyUnusedHouseRules(controls) {
  for (const c of controls) {
    const el = $(`#house-rules [data-option="${c.option}"]`);
    if (!el) continue;
    el.disabled = (c.unused_when || []).some((w) => {
      const other = $(`#house-rules [data-option="${w.option}"]`);
      const spec = controls.find((o) => o.option === w.option);
      return other && spec && houseValue(spec, other) === w.value;
    });
    el.closest("label").classList.toggle("unused", el.disabled);
  }
}

// The house-rule controls that differ from the preset, as overrides.
function houseOverrides() {
  const out = {}, preset = $("#preset").value;
  const controls = (S.presets.house_rules || {})[preset] || [];
  for (const c of controls) {
    const el = $(`#house-rules [data-option="${c.option}"]`);
    if (!el || el.disabled) continue;
    const value = houseValue(c, el);
    if (value === null) continue;
    if (value !== c.value) out[c.option] = value;
  }
  return out;
}

function presetName(preset) {
  const names = S.presets && S.presets.names && S.presets.names[preset];
  return names ? names[S.lang][0] : preset;
}

// The rule changes of a table, read from its text form "german(num_hands=3,opening_min_points=30)".
function tableOptions(text) {
  const out = {}, m = /\((.*)\)$/.exec(text || "");
  if (m) for (const part of m[1].split(",")) { const [k, v] = part.split("="); if (k && v !== undefined) out[k.trim()] = v.trim(); }
  return out;
}

// How many hands the match has, when that is fixed: num_hands (one per player when unset) or 1.
function plannedHands(st) {
  const o = tableRules(st);
  if (o.match_end === "single_hand") return 1;
  if (o.match_end !== "fixed_hands") return null;
  return o.num_hands && o.num_hands !== "None" && o.num_hands !== null ? Number(o.num_hands) : st.table.players;
}

// The elimination limit of a rubber played to the last survivor (Viennese: 101 unless changed), read
// from the table's rules as plannedHands reads the hands; null for every other match end.
function eliminationLimit(st) {
  const o = tableRules(st);
  if (o.match_end !== "elimination_last_survivor") return null;
  const limit = Number(o.elimination_threshold);
  return o.elimination_threshold === null || o.elimination_threshold === "None" || !Number.isFinite(limit) ? null : limit;
}

// The table's rules: its preset's options with its house rules over them (null before the presets came).
function tableRules(st) {
  const preset = S.presets && S.presets.presets[st.table.preset];
  // Before the presets come (a reload), the house rules alone: a game to 100 names its match end there.
  return { ...(preset || {}), ...tableOptions(st.table.rules) };
}

// The limit of minus points that ends a match played to one (match_end = penalty_limit; 500 unless
// changed), read from the table's rules as eliminationLimit reads its limit; null for other match ends.
function penaltyLimit(st) {
  const o = tableRules(st);
  const limit = Number(o.penalty_limit ?? 500);  // the rules' default where the presets did not come yet
  return o.match_end === "penalty_limit" && Number.isFinite(limit) ? limit : null;
}

// A match to a limit of minus points ends on them, which the scores do not show where a hand's winner
// gains points (winner_gets_sum): two rows, each seat's minus points (match.totals) and what is left
// before the limit ("reached" once it is); a seat within a quarter of it is marked as near the limit.
function penaltyRows(st) {
  const limit = penaltyLimit(st);
  if (limit === null) return "";
  const totals = st.match.totals;
  const title = (p, i) => escapeHtml(t("minus_title", { name: seatName(i), points: p, left: Math.max(0, limit - p), n: limit }));
  let html = `<tr class="limit minus"><td>${escapeHtml(t("minus_points", { n: limit }))}</td>`
    + totals.map((p, i) => `<td title="${title(p, i)}">${p}</td>`).join("") + "</tr>";
  html += `<tr class="limit"><td>${escapeHtml(t("minus_left", { n: limit }))}</td>` + totals.map((p) => {
    if (p >= limit) return `<td class="near">${t("limit_reached")}</td>`;
    const near = p >= limit * 0.75;
    return `<td class="${near ? "near" : ""}"${near ? ` title="${escapeHtml(t("near_limit"))}"` : ""}>${limit - p}${near ? " ⚠" : ""}</td>`;
  }).join("") + "</tr>";
  return html;
}

// The target of a match played to a score (gin's game to 100): the points won add up (a lost hand
// takes none away, RULES.md §5.4), so the score sheet shows those; null for every other match end.
function targetScore(st) {
  const o = tableRules(st);
  const target = Number(o.target_score ?? 100);  // the rules' default where the presets did not come yet
  return o.match_end === "target_score" && Number.isFinite(target) ? target : null;
}

// The totals a match is decided by: the points won in a match to a target score, else the net scores.
const matchTotals = (st) => (targetScore(st) !== null && st.match.gains ? st.match.gains : st.match.scores);

// A seat's name as people read it: the name given, else "Player 2" / "Spieler 2" in the page's
// language (the server stores no name for a person who gave none).
const nameOf = (name, i) => name || t("player_n", { n: i + 1 });

// A name as the page shows it among its own words: a name with right-to-left letters isolated (as a
// table's label is), so that it does not take a number next to it into its own direction ("דני 2: 15
// minutes" showed the 15 left of the name). A name without any stays as given: the server refuses
// direction marks in names, so it reads left to right as the page does and moves nothing around it
// (and its texts, heard and matched, carry no invisible marks). What is sent back stays as given.
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const shownName = (name, i) => (name && RIGHT_TO_LEFT.test(name) ? isolated(name) : nameOf(name, i));

function seatName(i) {
  const name = shownName(S.state.table.seats[i].name, i);
  return i === S.seat ? `${name} (${t("you")})` : name;
}

function countCards(list) {
  const out = {};
  for (const c of list) out[c] = (out[c] || 0) + 1;
  return out;
}

// The hand as shown: own cards minus those placed in composed melds.
function shownHand() {
  const hand = (S.state.view && S.state.view.hand) || [];
  const used = countCards(S.groups.flat());
  const out = [];
  for (const c of hand) {
    if (used[c]) used[c] -= 1; else out.push(c);
  }
  return arrange(out);
}

// The state lists the simple moves; compound ones (open, meld, layoff, swap) come on request.
function legal() {
  if (!S.state) return [];
  return S.moves && S.moves.version === S.state.version ? S.moves.actions : S.state.legal;
}
function myTurn() { return legal().length > 0 || (S.state.compose || []).length > 0; }
const turnOf = (state) => state.legal.length > 0 || (state.compose || []).length > 0;

function render() {
  // A card being dragged keeps its element: a state arriving meanwhile is drawn at the drop.
  if (S.dragging) { S.renderPending = true; return; }
  const st = S.state;
  const active = document.activeElement;
  const handFocused = !!(active && active.closest && active.closest("#hand"));
  // Another control of the table with the keyboard (a possible move, "Play it", a button that is drawn
  // anew): found again after drawing, else the focus goes to the hand rather than drop to the body.
  const tableFocus = !handFocused && active && active !== document.body && active.closest && active.closest("#game")
    ? { id: active.id, action: active.dataset ? active.dataset.action : undefined } : null;
  document.body.dataset.myTurn = myTurn() ? "1" : "0";
  document.body.dataset.status = st.table.status;
  document.body.dataset.watching = S.seat === null ? "1" : "0";
  const seeded = st.table.seeded ? ` · ⚠ ${t("seeded")}` : "";
  const house = st.table.rules.includes("(") ? ` · ${t("house_rules")}` : "";
  const practice = isPractice() ? ` · ${t("practice")}` : st.table.hints === "everyone" ? ` · ${t("hints_all")}` : "";
  // The players see that they are watched (the count comes with the next move after a watcher arrives).
  const n = st.table.spectators || 0;
  const watched = n ? ` · ${t(n === 1 ? "one_watching" : "n_watching", { n })}` : "";
  const label = st.table.label ? `${isolated(st.table.label)} · ` : "";  // the organiser's name for the table first
  $("#table-info").textContent = `${label}${st.table.code} · ${presetName(st.table.preset)}${house}${practice} · ${t(st.table.status)}${seeded}${watched}`;
  $("#table-info").title = st.table.rules;
  document.body.dataset.seeded = st.table.seeded ? "1" : "0";
  if (st.table.status === "waiting") { renderWaiting(); showScreen("waiting"); refocusScreen(); return; }
  if (st.table.status === "closed" || st.table.status === "expired") {
    showScreen("lobby"); S.lobbyForm = "join"; flash(S.endedWhy || t(st.table.status)); loadLobby(); return;
  }
  showScreen("game");
  announceAway(st);
  saveGroups();
  renderRoundInfo();
  renderOpponents();
  renderPiles();
  renderGinLine();
  renderKnockLine();
  renderMelds();
  renderStatus();
  renderTray();
  renderHand();
  renderActions();
  renderMoves();
  renderHint();
  renderScores();
  renderLog();
  renderChat();
  renderTimer();
  if (handFocused) focusCard();
  else if (tableFocus && !usable(document.activeElement)) refocusTable(tableFocus);
  refocusScreen();
  announceHand();
  S.animate = false;
}

// The control that had the focus before a render, or what takes its place (see render).
function refocusTable(was) {
  const same = was.id ? document.getElementById(was.id)
    : was.action ? [...document.querySelectorAll("#moves .move-chip")].find((b) => b.dataset.action === was.action) : null;
  if (usable(same)) same.focus(); else focusTable();
}

// After the screen changed under the keyboard (see showScreen): the table's focus (the hand).
function refocusScreen() {
  if (!S.focusScreen) return;
  S.focusScreen = false;
  if (!usable(document.activeElement) && !openDialogs().length) focusTable();
}

// Who sat down or left while the table waits: said, as a person in the room would see it (only the
// last seat filled was heard before, as the table's start).
function announceSeats(st) {
  const names = st.table.seats.map((s, i) => (s.kind === "open" ? null : seatName(i)));
  const before = S.waitingSeats && S.waitingSeats.code === st.table.code ? S.waitingSeats.names : null;
  S.waitingSeats = { code: st.table.code, names };
  if (!before) return;
  const k = names.filter((x) => x !== null).length, n = names.length;
  names.forEach((name, i) => {
    if (before[i] !== null && name !== before[i] && i !== S.seat) announce(t("seat_freed", { name: before[i], k, n }));
    if (name !== null && name !== before[i] && i !== S.seat) announce(t("seat_taken", { name, k, n }));
  });
}

// Another person a bot stands in for (away too long, or out of time), and their coming back: said to
// the table as it happens, as the player's own takeover is ("A bot plays for you"); seen only as a mark
// in their box before, a screen reader heard nothing of it.
function announceAway(st) {
  const away = st.table.seats.map((s) => s.kind === "human" && !!s.away);
  const before = S.awaySeats && S.awaySeats.code === st.table.code ? S.awaySeats.away : null;
  S.awaySeats = { code: st.table.code, away };
  if (!before || st.match.is_over) return;
  away.forEach((now, i) => {
    if (i === S.seat || now === before[i] || st.table.seats[i].kind !== "human") return;
    announce(t(now ? "other_away" : "other_back", { name: seatName(i) }));
  });
}

function renderWaiting() {
  const st = S.state;
  announceSeats(st);
  $("#wait-code").textContent = st.table.code;
  $("#wait-label").textContent = st.table.label ? ` · ${isolated(st.table.label)}` : "";  // the organiser's name for it
  $("#share-link").value = `${location.origin}/?table=${st.table.code}`;
  const ol = $("#wait-seats");
  ol.innerHTML = "";
  st.table.seats.forEach((s, i) => {
    const li = document.createElement("li");
    li.textContent = s.kind === "open" ? `— ${t("open_seat")} —` : s.kind === "bot" ? `${s.name} (${t("bot")}: ${botKindName(s.bot)}${botLevelName(s)})` : seatName(i);
    if (S.seat === 0 && i > 0 && s.kind === "human" && !st.table.organised) {
      // The host frees a seat a stranger (or a pupil at the wrong table) took before the start.
      const b = document.createElement("button");
      b.type = "button"; b.className = "ghost small"; b.textContent = t("remove_person");
      b.setAttribute("aria-label", t("remove_person_named", { name: nameOf(s.name, i) }));  // heard, not shown: as given
      // With the name shown: a person who took the seat since is not removed in their place.
      b.addEventListener("click", () => api(`/api/tables/${encodeURIComponent(S.code)}/remove`, { token: S.token, seat: i, name: s.name }).catch((err) => showError(err.message)));
      li.append(" ", b);
    }
    ol.appendChild(li);
  });
  const open = st.table.seats.some((s) => s.kind === "open");
  // A table the organiser made has no host: seat 1 is a player's, and the organiser starts it.
  const host = S.seat === 0 && !st.table.organised;
  $("#btn-start").classList.toggle("hidden", !host);
  $("#btn-start").textContent = open ? t("start") : t("start_now");
  $("#wait-note").textContent = st.table.organised ? t("wait_organiser") : host ? (open ? "" : t("full_start")) : t("wait_host");
  $("#btn-join-wait").classList.toggle("hidden", S.seat !== null || !open);
  $("#btn-leave-wait").classList.toggle("hidden", S.seat === null);
}

// "Hand 2 of 3 · Dealer: Anna" above the table, and the last move (highlighted on the table too).
function renderRoundInfo() {
  const st = S.state, v = st.view, m = plannedHands(st);
  // unscored_hand = redeal: a hand dealt again keeps its number in the series (hand_number).
  const n = st.match.hand_number || st.match.hands_dealt, k = st.match.dealt_again || 0;
  const redealt = k ? t(k === 1 ? "redealt" : "redealt_k", { k }) : "";
  // One scored hand (single_hand): a hand that ended unscored is dealt again, so hand 2 is not "of 1".
  const again = m === 1 && n > 1 ? t(n === 2 ? "hand_again_1" : "hand_again", { n, k: n - 1 }) : null;
  const hand = (again || (m ? t("hand_of", { n: Math.min(n, m), m }) : t("hand_n", { n }))) + redealt;
  const target = targetScore(st);
  const to = target === null ? "" : ` · ${t("to_target", { n: target })}`;
  $("#round-info").textContent = `${hand}${to} · ${t("dealer")}: ${seatName(v.dealer)}`;
  const moves = st.log.filter((e) => e.index >= 0);
  const last = moves[moves.length - 1];
  let text = last ? `${t("last_move")}: ${logLine(last)}` : "";
  let heard;
  // Your turn after others moved: what they did since your last move, a line a turn ("Bot 3: takes
  // the 7♥, lays out 3 cards, discards the K♠"), not only the last move; bots move every fraction of a
  // second, and one line replaced each time was hard to follow.
  if (S.seat !== null && turnOf(st) && last && last.seat !== S.seat) {
    const since = othersSince(moves).slice(-MEANWHILE_TURNS);
    if (since.length > 1 || (since.length === 1 && since[0].entries.length > 1)) {
      const lines = since.map((run) => turnLine(run));
      text = `${t("meanwhile")}: ${lines.map((l) => l.shown).join(" · ")}`;
      heard = `${t("meanwhile")}: ${lines.map((l) => l.heard).join(" · ")}`;
    }
  }
  // The line is read whole, in words, wherever a screen reader reaches it; the live region beside it
  // says only the moves not said before (each move once, not again in the "Meanwhile" line).
  const box = $("#last-move");
  if (box.dataset.line !== text) { box.dataset.line = text; writeSpoken(box, text, heard); }
  const fresh = unheardMoves(moves, box);
  say($("#last-move-said"), fresh.shown, fresh.heard === fresh.shown ? undefined : fresh.heard);
}
const MEANWHILE_TURNS = 6;  // the most turns of the others the line above the table repeats

// The others' turns since the player's own last move (all moves of the hand for a watcher).
function othersSince(moves) {
  let k = moves.length;
  const hand = S.state.match.hands_dealt;
  while (k > 0 && moves[k - 1].seat !== S.seat && (moves[k - 1].hand === undefined || moves[k - 1].hand === hand)) k--;
  return turnRuns(moves.slice(k));
}

// Moves split into turns: a player's moves in a row, up to the one that ends a turn (a discard, a
// knock, Rummy).
const TURN_ENDS = /^(discard|knock|rummy)\b/;
function turnRuns(entries) {
  const runs = [];
  for (const e of entries) {
    const run = runs[runs.length - 1], end = run && run.entries[run.entries.length - 1];
    if (run && run.seat === e.seat && end.hand === e.hand && !TURN_ENDS.test(end.action)) run.entries.push(e);
    else runs.push({ seat: e.seat, entries: [e] });
  }
  return runs;
}

// A turn of another player in few words, shown (cards with symbols) and heard (cards in words): a draw
// from the stock is left out (a turn takes a card: the stock's unless the discard is named), melds and
// lay-offs say how many cards (the table shows which; the Moves panel and W say them in full). A move
// of another kind keeps its words. With three bots a blind player heard every meld card by card and fell
// behind the game.
function turnLine(run, named = true) {
  const parts = [];
  const counted = (kind) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) return last;
    const part = { kind, cards: [], points: null };
    parts.push(part);
    return part;
  };
  for (const e of run.entries) {
    const words = e.action.split(" "), verb = words[0];
    if (verb === "draw") continue;
    if (verb === "take" && words.length === 2) { parts.push({ kind: "take", cards: [words[1]] }); continue; }
    if (verb === "open" || verb === "meld") {
      const laid = counted("laid");
      laid.cards.push(...words.slice(1).filter((w) => w !== "|"));
      const worth = /\((\d+) points\)$/.exec((e.texts && e.texts.en) || "");
      if (worth) laid.points = (laid.points || 0) + Number(worth[1]);
      continue;
    }
    if (verb === "layoff" && words.length === 4) { counted("layoff").cards.push(words[1]); continue; }
    if (verb === "swap") {
      // "swap 5H 7H on 1 then …": the cards put in, the meld, and the jokers they took (the entry's
      // "freed"; one card takes one joker).
      const [head, ...then] = e.action.split(" then ");
      const said = head.split(" "), on = said.indexOf("on");
      const cards = said.slice(1, on);
      const freed = e.freed || (cards.length === 1 ? 1 : null);
      parts.push({ kind: "swap", cards, target: said[on + 1], freed });
      for (const step of then) {
        const w = step.split(" ");
        if (w[0] === "meld") counted("laid").cards.push(...w.slice(1).filter((x) => x !== "|"));
        else if (w[0] === "layoff") counted("layoff").cards.push(w[1]);
      }
      continue;
    }
    parts.push({ kind: "words", text: localText(e, e.action) });
  }
  if (!parts.length) {
    const line = run.entries.map((e) => (named ? logLine(e) : localText(e, e.action))).join(" · ");
    return { shown: line, heard: line };
  }
  const say = (name, sep) => parts.map((p) => {
    if (p.kind === "take") return t("turn_take", { card: name(p.cards[0]) });
    if (p.kind === "laid") return p.points === null ? t("turn_laid", { n: p.cards.length }) : t("turn_laid_points", { n: p.cards.length, points: p.points });
    if (p.kind === "layoff") return p.cards.length === 1 ? t("turn_layoff_card", { card: name(p.cards[0]) }) : t("turn_layoff", { n: p.cards.length });
    if (p.kind === "swap") {
      const jokers = t(p.freed >= 1 && p.freed <= 4 ? `swap_jokers_${p.freed}` : "swap_jokers");
      const key = p.cards.length === 1 ? "turn_swap_card" : "turn_swap";
      return t(key, { cards: p.cards.map(name).join(sep), jokers, n: p.target });
    }
    return p.text;
  }).join(", ");
  const who = named ? `${seatName(run.seat)}: ` : "";
  return { shown: `${who}${say(Cards.objectLabel, " ")}`, heard: `${who}${say(Cards.objectName, ", ")}` };
}

// What the line above the table says to a screen reader: only the moves it has not said yet. The
// "Meanwhile" line repeats moves that were each said as they came, so every move was heard twice.
// Behind a dialog nothing is heard (the page is inert): those moves stay unsaid until it closes.
// A line replaced within HEARD_MS was not heard (a screen reader reads the region's last text): two
// states close together (a bot's draw and discard, the list of moves after a move) lost the first
// move, or emptied the line before it was read; its moves are said again with the newer ones.
// The player's own moves are said one by one as they are made; another's turn is said once it is over,
// in one line (turnLine): "Bot 2: draws from the stock", "Bot 2: opens with …", "Bot 2: discards …" were
// three lines, and three bots' turns between two of the player's outran the speech.
function unheardMoves(moves, box) {
  const last = moves[moves.length - 1];
  if (!last) return { shown: "" };
  const h = S.heardMove && S.heardMove.code === S.code ? S.heardMove : null;
  const recent = h && performance.now() - h.at < HEARD_MS;
  const said = h ? (recent ? h.from : h.index) : last.index - 1;
  // After an undo the log is shorter than what was said: nothing new. The moves of a hand that ended
  // behind its result were read in the result ("Last moves"): after it, only the new hand's (none
  // where the player begins it: its last move was said after "Hand 2").
  // The player's own draw from the stock is said with its card ("You draw …", announceDraw): said here
  // too, each turn began with two lines for one draw.
  const hand = S.state.match.hands_dealt;
  const ownDraw = (e) => e.seat === S.seat && e.action === "draw";
  const runs = turnRuns(moves.filter((e) => e.index > said && (e.hand === undefined || e.hand === hand)));
  // Another's turn still going on waits for its end: the turn passed on, or it ended with a discard.
  const open = runs[runs.length - 1];
  let upTo = last.index;
  if (open && open.seat !== S.seat && S.state.match.to_move === open.seat && !S.state.match.is_over
      && S.state.view && S.state.view.phase !== "over" && !TURN_ENDS.test(open.entries[open.entries.length - 1].action)) {
    runs.pop();
    upTo = open.entries[0].index - 1;
  }
  if (!box.closest("[inert]") && (!h || h.index !== upTo)) {
    S.heardMove = { code: S.code, index: upTo, from: said, at: performance.now() };
  }
  const lines = runs.slice(-MEANWHILE_TURNS).flatMap((run) => (run.seat === S.seat ? run.entries.filter((e) => !ownDraw(e)).map((e) => {
    const line = logLine(e);
    return { shown: line, heard: line };
  }) : [turnLine(run)]));
  return { shown: lines.map((l) => l.shown).join(" · "), heard: lines.map((l) => l.heard).join(" · ") };
}
const HEARD_MS = 150;  // a live region's text replaced sooner than this is taken as not heard

function logLine(e) {
  return `${seatName(e.seat)}: ${localText(e, e.action)}`;
}

// Whether seat i takes part in the hand of view v without playing it: the dealer sits out at a DSkV
// table of four (RULES.md §3.16); the view lists the seats in play and the active ones.
function sitsOut(v, i) {
  return !!v && (v.in_play || []).includes(i) && !!v.active_seats && !v.active_seats.includes(i);
}

function renderOpponents() {
  const st = S.state, v = st.view, box = $("#opponents");
  box.innerHTML = "";
  const order = [];
  for (let k = 1; k <= st.table.players; k++) order.push(((S.seat ?? -1) + k + st.table.players) % st.table.players);
  for (const i of order) {
    if (i === S.seat) continue;
    const seat = st.table.seats[i];
    const div = document.createElement("div");
    div.className = "opponent" + (v.to_move === i && v.phase !== "over" ? " to-move" : "");
    div.dataset.seat = i;
    div.setAttribute("role", "listitem");  // the opponents are a list (index.html): one item each
    // A person's dot says in words whether the page is connected (a dot alone explained nothing, and a
    // phone has no tooltip).
    const status = seat.kind === "bot" ? t("bot") : seat.away ? t("away") : `${seat.connected ? "●" : "○"} ${t(seat.connected ? "online" : "offline")}`;
    const said = seat.kind === "bot" ? t("bot") : seat.away ? t("away") : t(seat.connected ? "online" : "offline");
    const revealed = v.revealed[i];
    // A seat sitting the hand out (the DSkV dealer at four) holds no cards: it says so, not "0 cards".
    const out = sitsOut(v, i);
    if (out) div.classList.add("sitting-out");
    const held = out ? t("sits_out") : `${v.hand_sizes[i]} ${t(v.hand_sizes[i] === 1 ? "card" : "cards")}`;
    const meta = `${held}${v.opened[i] ? " · " + t("opened") : ""}${v.dealer === i ? " · " + t("dealer") : ""}`;
    // A screen reader hears one line ("Bot 2 (Bot): 13 Karten · Geber"), not the name and its badge run
    // together and a card back for every card held.
    div.innerHTML = `<span class="sr-only">${escapeHtml(seatName(i))}${said ? ` (${said})` : ""}: ${meta}</span>
      <div class="opp-name" aria-hidden="true">${escapeHtml(seatName(i))} <small>${status}</small></div>
      <div class="opp-meta" aria-hidden="true">${meta}</div>`;
    const fan = document.createElement("div");
    fan.className = "fan" + (revealed ? " revealed" : "");
    if (!revealed) fan.setAttribute("aria-hidden", "true");  // a hand shown at the showdown stays readable
    // The knocker's hand laid face up for the others' last turns: its melds apart and its deadwood
    // counted, as the knocker shows it at a club table (a fan of ten cards said nothing on a phone).
    const knocked = v.knocker === i && v.knocker_shown;
    if (knocked) { div.appendChild(knockerHand(v.knocker_shown)); box.appendChild(div); continue; }
    const shown = revealed || new Array(Math.min(v.hand_sizes[i], 14)).fill(null);
    fan.style.setProperty("--fan-n", shown.length);  // the backs overlap to fit the fan's width (style.css)
    for (const c of shown) fan.appendChild(Cards.element(c, { small: true }));
    div.appendChild(fan);
    box.appendChild(div);
  }
}

// The knocker's shown hand: each meld a group, then the deadwood cards and their count, in words for a
// screen reader ("melds: …; left in hand: … = 3").
function knockerHand(shown) {
  const box = document.createElement("div");
  box.className = "knocker-hand sd-cards";
  const words = (cards) => cards.map(Cards.name).join(", ");
  const said = [`${t("sr_melds")}: ${shown.melds.map(words).join("; ") || "—"}`,
    `${t("sr_left")}: ${words(shown.deadwood_cards) || "—"}`, `${t("deadwood")} ${shown.deadwood}`].join(". ");
  box.innerHTML = `<span class="sr-only">${escapeHtml(said)}</span><span class="sd-pictures" aria-hidden="true">`
    + shown.melds.map((m) => `<span class="sd-meld">${smallCards(m)}</span>`).join("")
    + (shown.deadwood_cards.length ? `<span class="sd-dead">${smallCards(shown.deadwood_cards)}</span>` : "")
    + `</span> <span class="sd-dw" aria-hidden="true">= ${shown.deadwood}</span>`;
  return box;
}

// "new stock 1 of 3" once the discard pile has become the stock this hand (max_stock_rebuilds), else "".
function stockRebuildsText(v) {
  if (!v.stock_rebuilds) return "";
  return t("rebuilt", { count: rebuildCount(v) });
}
function rebuildCount(v) {
  const most = Number(tableRules(S.state).max_stock_rebuilds);
  return Number.isFinite(most) && most > 0 ? t("n_of_m", { n: v.stock_rebuilds, m: most }) : String(v.stock_rebuilds);
}

function renderPiles() {
  const v = S.state.view, L = legal();
  const stock = $("#stock"), discard = $("#discard");
  // A watcher cannot draw or take: the piles are pictures with their names, not buttons in the tab order.
  for (const pile of [stock, discard]) { pile.setAttribute("role", S.seat === null ? "img" : "button"); pile.tabIndex = S.seat === null ? -1 : 0; }
  const rebuilt = stockRebuildsText(v);
  stock.setAttribute("aria-label", `${t("stock")}: ${v.stock_size} ${t(v.stock_size === 1 ? "card" : "cards")}${rebuilt ? " · " + rebuilt : ""}${L.includes("draw") ? " · " + t("draw") : ""}`);
  stock.innerHTML = "";
  if (v.stock_size > 0) stock.appendChild(Cards.element(null));
  stock.insertAdjacentHTML("beforeend", `<span class="count">${t("stock")} ${v.stock_size}</span>`);
  // How often the discard pile became the stock this hand, against the rules' limit (it happened unsaid).
  if (rebuilt) stock.insertAdjacentHTML("beforeend", `<span class="count rebuilds" aria-hidden="true">${escapeHtml(rebuilt)}</span>`);
  stock.classList.toggle("legal", L.includes("draw"));
  discard.innerHTML = "";
  const top = v.discard_pile[v.discard_pile.length - 1];
  if (top) {
    const el = Cards.element(top);
    if (S.changed.discard) el.classList.add("last");
    if (S.changed.discard && S.animate) el.classList.add("fresh");
    discard.appendChild(el);
  }
  discard.setAttribute("aria-label", `${t("pile")}: ${top ? Cards.name(top) : "—"}${L.includes("take") ? " · " + t("take") : ""}`);
  if (takeExplains()) discard.setAttribute("aria-disabled", "true"); else discard.removeAttribute("aria-disabled");
  discard.insertAdjacentHTML("beforeend", `<span class="count" aria-hidden="true">${t("pile")} ${v.discard_pile.length}</span>`);
  discard.classList.toggle("legal", L.includes("take") || L.some((a) => a.startsWith("discard")));
}

// Gin's public facts under the piles (RULES.md §5.4): the hand's knock card, the passes on the first
// upcard while that phase lasts, and after a knock the knocker's melds as laid and the cards laid off
// on them. Hidden outside gin (the view's "gin" is null) and once the hand is over.
function renderGinLine() {
  const v = S.state.view, gin = v.gin, box = $("#gin-line");
  box.classList.toggle("hidden", !gin || v.phase === "over");
  if (!gin || v.phase === "over") { box.replaceChildren(); box.dataset.said = ""; return; }
  // Built aside and put in only when it says something new: the line is a live region, and "Knock at
  // 10" was read out again on every move and every card selected.
  const next = document.createElement("div");
  const part = (text, cls) => {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    if (next.childNodes.length) next.appendChild(document.createTextNode(" "));  // read apart ("10Deine Figuren")
    next.appendChild(span);
    return span;
  };
  fillGinLine(v, gin, part);
  if (box.dataset.said === next.textContent) return;
  box.dataset.said = next.textContent;
  box.replaceChildren(...next.childNodes);
}

function fillGinLine(v, gin, part) {
  // Straight gin (knock card 0) is said as such; under Oklahoma the limit comes from the first upcard.
  const o = tableRules(S.state);
  const okla = o && (o.oklahoma === true || o.oklahoma === "true") ? ` ${t("gin_oklahoma")}` : "";
  part((gin.knock_card === 0 ? t("gin_only") : t("gin_knock", { n: gin.knock_card })) + okla, "gin-knock");
  if (gin.doubled) part(t("gin_doubled"), "gin-doubled");  // Oklahoma's spade upcard
  // After a pass only, as the terminal says it (before one there is nothing to count).
  if (v.phase === "first_upcard" && gin.upcard_passes) part(t(`gin_passes_${Math.min(gin.upcard_passes, 2)}`), "gin-passes");
  if (v.knocker === null || v.knocker === undefined || !["knock", "layoff"].includes(v.phase)) return;
  part(v.knocker === S.seat ? t("gin_own_melds") : t("gin_melds", { name: seatName(v.knocker) }), "gin-label");
  // The knocker's melds lie on the table (with the cards laid off on them): named here by their
  // numbers there, not drawn a second time (on a phone they took a third of the screen).
  const numbers = v.melds.map((m, k) => (m.owner === v.knocker ? k + 1 : null)).filter((n) => n !== null);
  if (!gin.knocker_melds.length || !numbers.length) part(t("gin_none"), "gin-none");
  else part(numbers.map((n) => t("meld_n", { n })).join(", "), "gin-meld-refs");
  if (gin.layoffs.length) {
    part(t("gin_layoffs"), "gin-label");
    const laid = part(gin.layoffs.map(Cards.label).join(" "), "gin-layoffs");
    laid.setAttribute("role", "group");
    laid.setAttribute("aria-label", gin.layoffs.map(Cards.name).join(", "));  // in words, as the table's melds
  }
  // The defender is told what the knocker knocked with, as the terminal says it ("Bo knocked: 7♦ = 7"):
  // whether an undercut is in reach, without adding up the knocker's face-up cards.
  const kept = v.phase === "layoff" && v.knocker !== S.seat ? (v.revealed || [])[v.knocker] : null;
  if (kept) {
    const name = seatName(v.knocker), n = kept.reduce((sum, c) => sum + ginValue(c, o), 0);
    part(n ? t("gin_knocked_with", { name, n }) : t("gin_knocked_gin", { name }), "gin-knocked");
  }
}

// A card's deadwood value in gin: ace as the rules count it (1), courts and tens 10, else its pips.
function ginValue(card, rules) {
  const c = Cards.parse(card);
  if (c.rank === "A") return Number(rules.deadwood_ace ?? 1);
  return ["J", "Q", "K", "10"].includes(c.rank) ? 10 : Number(c.rank);
}

// In the draw phase a take the rules refuse (Scala 40: the card must open or go into a meld at once)
// is still sent from the pile or the T key, so the server's refusal says why.
function takeExplains() {
  const L = legal();
  return L.includes("draw") && !L.includes("take");
}

// The discard pile clicked (or T): take it, or ask why not; else discard the selected card onto it.
function takeOrDiscard() {
  if (legal().includes("take") || takeExplains()) act("take");
  else if (S.selected.length === 1) discardSelected("discard");
}

// Viennese, Rommé ohne Auslegen and gin: your own deadwood and the knock limit under the piles (the
// server computes it from your hand only; after drawing, the least deadwood a discard leaves, which is
// what a knock asks for). After a knock nobody else may knock: the limit is left out; gin's line above
// says its knock card already.
function renderKnockLine() {
  const v = S.state.view, line = v.knock_line, box = $("#knock-line");
  box.classList.toggle("hidden", !line);
  if (!line) { box.textContent = ""; box.dataset.said = ""; return; }
  const dw = t(line.after_discard ? "knock_deadwood_after" : "knock_deadwood", { n: line.deadwood });
  // No deadwood at all: not a knock but Rummy (a knock game's going out), said as such.
  const limit = line.deadwood === 0 && !v.gin && line.after_discard ? t("rummy_possible")
    : t(line.comparison === "le" ? "knock_le" : "knock_lt", { t: line.threshold });
  // A live region (your deadwood after each draw), said when it changes in your turn: rewritten after
  // the discard (the same deadwood without "after your best discard") or after another's knock (the
  // limit left out), it was said twice a turn; the move and the turn's line say those already.
  const text = v.knocker === null || v.knocker === undefined ? (v.gin ? dw : `${dw} · ${limit}`) : dw;
  if (box.dataset.said !== text) box.setAttribute("aria-live", S.seat !== null && myTurn() && line.after_discard ? "polite" : "off");
  say(box, text);
}

function layoffTargets() {
  // Table melds the single selected card can be laid off on (from the legal moves).
  const hand = shownHand();
  if (S.selected.length !== 1) return new Map();
  const card = hand[S.selected[0]];
  const out = new Map();
  if (legal().includes(`layoff ${card}`)) {  // gin: onto the knocker's melds, any of them takes the drop
    S.state.view.melds.forEach((m, k) => out.set(k + 1, `layoff ${card}`));
    return out;
  }
  for (const a of legal()) {
    const m = /^layoff (\S+) on (\d+)/.exec(a);
    if (m && m[1] === card && !out.has(Number(m[2]))) out.set(Number(m[2]), layoffFor(card, Number(m[2])));
  }
  return out;
}

// The lay-off of `card` on meld n that a click or drop sends: the plain form when it is listed, else a
// joker's upper end of a run ("high"): a joker laid off without a declaration goes up when it can
// (RULES.md D12), else the one end it fits. The other end stays in the list of possible moves.
function layoffFor(card, n) {
  const plain = `layoff ${card} on ${n}`;
  const options = legal().filter((a) => a === plain || a.startsWith(plain + " "));
  return options.find((a) => a === plain) || options.find((a) => a === plain + " high") || options[0];
}

// A table meld in words in the page's language, as the log names cards: "Meld 2: 10 of hearts, jack of
// hearts, joker (for the queen of hearts)" / "Figur 2: Herz-10, Herz-Bube, Joker (für Herz-Dame)". A
// run's joker stands for the card its meld text says ("JK(=QH)"), a set's for its rank in a missing suit.
function meldLabel(m, n) {
  const tokens = m.text.split(/\s+/);
  const natural = m.kind === "set" ? m.cards.find((c) => c !== "JK") : null;
  const names = m.cards.map((c, j) => {
    if (c !== "JK") return Cards.name(c);
    const run = /^JK\(=(\S+)\)$/.exec(tokens[j] || "");
    if (run) return t("joker_for_card", { card: Cards.name(run[1]) });
    if (natural) return t("joker_for_rank", { rank: Cards.rankWithArticle(natural.slice(0, -1)) });
    return Cards.name(c);
  });
  return `${t("meld_n", { n })}: ${names.join(", ")}`;
}

function renderMelds() {
  const v = S.state.view, box = $("#melds");
  // A meld is drawn anew only when it changed (a card laid off on it, the page's language): drawn anew
  // at every state, the meld under the keyboard was replaced and a screen reader said it again at each
  // of the others' moves. A meld that changed under the keyboard keeps it (and is said anew).
  const focused = document.activeElement && document.activeElement.closest ? document.activeElement.closest("#melds .meld") : null;
  const keep = focused ? focused.dataset.meld : null;
  const targets = layoffTargets();
  while (box.children.length > v.melds.length) box.lastElementChild.remove();
  v.melds.forEach((m, k) => {
    const n = k + 1;
    // Whose meld it is, in the name a screen reader says (it was only in the tooltip, read after it).
    const label = `${meldLabel(m, n)} (${seatName(m.owner)})`;
    const fresh = S.changed.melds.has(k) && S.animate;
    const key = JSON.stringify([m.text, m.cards, label, S.lang, S.intlLetters]);
    const was = box.children[k];
    if (was && was.dataset.key === key && !fresh) {
      was.classList.toggle("legal", targets.has(n));
      was.classList.toggle("last", S.changed.melds.has(k));
      return;
    }
    const div = document.createElement("div");
    div.className = "meld" + (targets.has(n) ? " legal" : "") + (S.changed.melds.has(k) ? " last" : "");
    div.dataset.meld = n;
    div.dataset.key = key;
    div.dataset.drop = "meld";
    div.title = label;
    // A button for the keyboard as for the mouse: Tab reaches every meld (the digit keys only 1 to 9),
    // and Enter or Space lays the selected card off on it.
    div.setAttribute("role", "button");
    div.tabIndex = 0;
    div.setAttribute("aria-label", label);
    div.addEventListener("keydown", (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.altKey || openDialogs().length) return;
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); layOffOn(n, false, true); }
    });
    div.innerHTML = `<span class="meld-no" aria-hidden="true">${n}</span>`;
    // "JK(=6H)" in the meld's text says what a joker stands for: shown under the joker. A set's joker
    // stands for its rank in any missing suit: shown as the rank alone ("=D" for a set of queens).
    const tokens = m.text.split(/\s+/);
    const natural = m.kind === "set" ? m.cards.find((c) => c !== "JK") : null;
    m.cards.forEach((c, j) => {
      const el = Cards.element(c, { small: true });
      const run = c === "JK" && /^JK\(=(\S+)\)$/.exec(tokens[j] || "");
      const stands = run ? Cards.label(run[1]) : c === "JK" && natural ? Cards.label(natural).slice(0, -1) : null;
      if (stands) {  // the label sits over the joker's star: its corner indices and "JOKER" stay readable
        el.classList.add("stands");
        el.dataset.stands = stands;
        el.insertAdjacentHTML("beforeend", `<span class="stands-label" aria-hidden="true">=${escapeHtml(el.dataset.stands)}</span>`);
      }
      if (S.changed.melds.has(k) && S.animate) el.classList.add("fresh");
      div.appendChild(el);
    });
    div.addEventListener("click", (ev) => layOffOn(n, onJokerCard(ev.target)));
    if (was) was.replaceWith(div); else box.appendChild(div);
  });
  const again = keep ? box.querySelector(`.meld[data-meld="${keep}"]`) : null;
  if (again && again !== document.activeElement) again.focus();
  showLayoffTarget(box, targets);
}

// On a phone the table's melds scroll in a box of their own: a card picked that can be laid off only on
// melds scrolled out of that box brings the first of them into view, once per card picked (the box is
// not scrolled back at every redraw while the player looks at other melds).
function showLayoffTarget(box, targets) {
  const pick = targets.size ? `${S.state.version}:${S.selected.join(",")}` : null;
  if (pick === S.layoffShown) return;
  S.layoffShown = pick;
  if (!pick || box.scrollHeight <= box.clientHeight) return;
  const view = box.getBoundingClientRect();
  const melds = [...targets.keys()].map((n) => box.querySelector(`.meld[data-meld="${n}"]`)).filter(Boolean);
  const seen = (el) => { const r = el.getBoundingClientRect(); return r.top >= view.top - 1 && r.bottom <= view.bottom + 1; };
  if (!melds.length || melds.some(seen)) return;
  const first = melds[0].getBoundingClientRect();
  box.scrollTop += first.top - view.top - 4;
}

// What the person to move is doing, for a watcher (whose line named only who moves): the turn's step
// as the phase says it, and a knock game's last turns after a knock.
function watchedStep(v) {
  if (!["draw", "play", "discard", "first_upcard", "wall", "knock", "layoff"].includes(v.phase)) return "";
  const after = knockedBy(v) !== null ? `${t("after_knock")}: ` : "";  // not in gin (knockedBy says so)
  return `: ${after}${t(v.phase + "_phase")}`;
}

function renderStatus() {
  const el = $("#status");
  const st = S.state;
  if (!st || !st.view) return;
  const v = st.view;
  let text;
  if (st.match.is_over) text = t("match_over");
  else if (S.seat === null) text = `${t("spectating")} · ${t("turn_of", { name: seatName(st.match.to_move) })}${watchedStep(v)}`;
  else if (myTurn()) text = knockedBy(v) !== null ? turnText(st) : `${t("your_turn")}: ${turnText(st)}`;
  else text = t("turn_of", { name: seatName(st.match.to_move) });
  // The card taken from the pile that the rules keep in the hand, said where the turn's steps are.
  const kept = S.seat !== null && !st.match.is_over ? keptCard() : null;
  if (kept) text += ` · ${Cards.label(kept.card)} ${t(kept.lay ? "taken_lay" : "taken_keep")}`;
  if (S.seat !== null && !st.match.is_over && v.phase !== "over" && sitsOut(v, S.seat)) text = `${t("you_sit_out")} · ${text}`;
  const away = S.seat !== null && st.table.seats[S.seat].away && st.table.status === "playing";
  const held = S.seat === null && S.heldToken && st.table.status === "playing" && st.table.seats.some((s) => s.held);
  // Until the full list of moves has come, the line would name what the rules permit (to meld, to lay
  // off …), a moment later what the hand allows, and a screen reader said both (not every one heeds
  // aria-busy): the line is written once the list is here, at the latest after a second.
  const pending = myTurn() && (st.compose || []).length > 0 && !(S.moves && S.moves.version === st.version)
    && S.statusWaited !== st.version;
  clearTimeout(S.statusWait);
  if (pending && !away && !held) {
    S.statusWait = setTimeout(() => { S.statusWaited = st.version; renderStatus(); }, 1000);
    return;
  }
  if (!away && !held) {
    // Set as the text changes (not when it is written again): a screen reader reads the change later.
    if (el.dataset.said !== text) el.setAttribute("aria-live", statusHeard(st) ? "polite" : "off");
    say(el, text, knockHeard(st, text));
    return;
  }
  el.setAttribute("aria-live", "polite");
  // A line with a button, written when it changes: written with every move, it was said with every
  // move the bot made for the player, and the button under the keyboard was replaced each time.
  const line = away ? "away" : "held";
  if (el.dataset.said === `${line}:${S.lang}` && el.querySelector("button")) return;
  el.dataset.said = `${line}:${S.lang}`;
  if (away) {
    el.textContent = t("replaced") + " ";
    const b = document.createElement("button");
    b.type = "button"; b.id = "back"; b.textContent = t("back");
    b.addEventListener("click", () => send({ type: "back" }));
    el.appendChild(b);
  }
  if (held) {
    el.textContent = t("held") + " ";
    const b = document.createElement("button");
    b.type = "button"; b.id = "btn-retake"; b.textContent = t("retake");
    b.addEventListener("click", retakeSeat);
    el.appendChild(b);
  }
}

// The last turn after another's knock: "Bot 2 knocked – your last turn: …" is said at its first step;
// its later steps say "Your last turn: discard" (the knock was said with each step, twice a turn).
function knockHeard(st, text) {
  const v = st.view;
  if (S.seat === null || st.match.is_over || !myTurn() || knockedBy(v) === null || S.statusKnock === text) return undefined;
  const key = `${st.match.hands_dealt}:${v.knocker}`;
  if (S.knockSaid !== key) { S.knockSaid = key; S.statusKnock = text; return undefined; }
  return `${t("last_turn")}: ${turnText(st, false)}`;
}

// Whether the turn's line is said as it changes: to a player, when it concerns them (their turn and
// its steps, sitting out, the match's end). Whose turn it is otherwise is in the move said just before
// ("Bot 3: discards …"): said as well, it came before each of the others' moves, and a watcher heard
// each step of every turn twice; the speech fell seconds behind the game (the line is still read where
// the reader reaches it).
function statusHeard(st) {
  if (st.match.is_over) return true;
  if (S.seat !== null && !myTurn() && sitsOut(st.view, S.seat)) {
    // Sitting the hand out is said once a hand, not with each turn of the others.
    const first = S.sitOutSaid !== st.match.hands_dealt;
    S.sitOutSaid = st.match.hands_dealt;
    return first;
  }
  return S.seat !== null && myTurn();
}

// What the player to move may do, said from the moves offered now rather than from the phase: no
// lay-off before opening, no knock or Rummy in the last turn after a knock (RULES.md §4.5), which is
// named as such. Gin's own phases keep their lines.
function turnText(st, knock = true) {
  const v = st.view, L = legal(), compose = st.compose || [];
  // Until the complete list of moves arrives, a kind the rules permit is named; then only the kinds
  // that have a legal move (a hand with no meld is not told to meld).
  // Where the table gives no hints the list leaves openings and melds out (Table.send_moves): those
  // are named as the rules permit them, whatever the hand holds.
  const full = S.moves && S.moves.version === st.version;
  const unlisted = (verb) => ["open", "meld"].includes(verb) && !hintsAllowed() && st.table.family !== "gin";
  const can = (verb) => ((!full || unlisted(verb)) && compose.includes(verb)) || L.some((a) => a === verb || a.startsWith(verb + " "));
  // A buy-back offer (Viennese rubber) comes between hands, whatever phase the hand ended in.
  if (can("buyback")) {
    // The price and the total it sets, which the choice depends on.
    const o = st.match.buyback_offer;
    const buy = o && o.seat === S.seat ? t("do_buyback_for", { chips: o.chips, from: -o.from, to: -o.to }) : t("do_buyback");
    return `${buy} ${t("or")} ${t("do_decline")}`;
  }
  const words = [];
  if (can("draw")) words.push("do_draw");
  if (can("take")) words.push("do_take");
  const first = [];
  if (can("open") || can("meld")) first.push("do_meld");
  if (can("layoff")) first.push("do_layoff");
  if (can("swap")) first.push("do_swap");
  const last = ["discard", "knock", "rummy"].filter(can).map((verb) => "do_" + verb);
  const either = (keys) => keys.map((k) => t(k)).join(", ").replace(/, ([^,]*)$/, ` ${t("or")} $1`);
  let text;
  // Gin after a knock: the step the player is on, one line each (the defender lays off, passes, lays
  // their own melds and passes; a pass too early counts the melds not laid as deadwood).
  const step = ginStep(v);
  // Gin's own phases (first upcard, wall, knock, lay-offs) have their words; its draw and discard
  // say what is legal, as the other games do (gin has no Rummy call).
  if (step === "layoff") text = t("layoff_step", { name: seatName(v.knocker) });
  else if (step === "meld") text = t(v.phase === "knock" ? "knock_meld_step" : "meld_step");
  else if (step === "big_gin") text = t("big_gin_step", { n: v.hand.length });
  else if (!["draw", "play", "discard"].includes(v.phase) || (!words.length && !first.length && !last.length)) text = t(v.phase + "_phase");
  else if (words.length) text = either(words);
  else if (!first.length) text = either(last);
  else if (!last.length) text = first.map((k) => t(k)).join(", ");
  else text = `${first.map((k) => t(k)).join(", ")}, ${t("then")} ${either(last)}`;
  if (bigGinNow()) text += ` · ${t("big_gin_ready", { n: v.hand.length })}`;
  return knockedBy(v) === null || !knock ? text : `${t("knocked_last", { name: seatName(knockedBy(v)) })}: ${text}`;
}

// The step of gin's end of hand the player is on: "layoff" (the defender lays off on the knocker's
// melds), "meld" (own melds, one at a time, then pass: the knocker after their discard, the defender
// after the lay-offs), "big_gin" (the knocker before the discard, when every card lies in melds and
// the table plays big gin: the melds are offered beside the discards), else null.
function ginStep(v) {
  if (!v || !v.gin || !myTurn()) return null;
  if (v.phase === "layoff") return v.gin.layoffs_done ? "meld" : "layoff";
  const discards = legal().some((a) => a.startsWith("discard "));
  if (v.phase === "knock" && !discards) return "meld";
  if (v.phase === "knock" && legal().some((a) => a.startsWith("meld "))) return "big_gin";
  return null;
}

// The melds of the legal list that together lay the most cards (ties: the most points, so the least
// deadwood): each legal meld is one meld of the hand; the largest set of them with no card twice.
function bestMelds() {
  const melds = legal().filter((a) => a.startsWith("meld ")).map((a) => ({ action: a, cards: a.split(/\s+/).slice(1) }));
  const value = (c) => { const r = c.slice(0, -1); return r === "A" ? 1 : ["J", "Q", "K"].includes(r) ? 10 : Number(r) || 0; };
  let best = { n: 0, v: 0, chosen: [] };
  const search = (k, used, chosen, n, v) => {
    if (n > best.n || (n === best.n && v > best.v)) best = { n, v, chosen: chosen.slice() };
    for (let j = k; j < melds.length; j++) {
      const cs = melds[j].cards;
      if (cs.some((c) => used.has(c))) continue;
      cs.forEach((c) => used.add(c));
      chosen.push(melds[j]);
      search(j + 1, used, chosen, n + cs.length, v + cs.reduce((s, c) => s + value(c), 0));
      chosen.pop();
      cs.forEach((c) => used.delete(c));
    }
  };
  search(0, new Set(), [], 0, 0);
  return best.chosen;
}

// Gin's pass in the meld step while melds could still be laid asks first (as a joker's discard does):
// the cards of the best melds not laid would count as deadwood.
function passOrAsk() {
  const unlaid = ginStep(S.state.view) === "meld" ? bestMelds() : [];
  if (!unlaid.length) { act("pass"); return; }
  S.passAsked = S.state.version;
  const cards = unlaid.map((m) => m.cards.map(Cards.label).join(" ")).join(" · ");
  openDialog("#pass-dialog", () => { $("#pass-text").textContent = t("pass_text", { cards }); $("#btn-pass-lay").focus(); });
}

// Confirmed in the turn it was asked in only (a state meanwhile closes the dialog, see onState).
function passConfirmed() {
  closeDialog("#pass-dialog");
  const asked = S.passAsked;
  S.passAsked = null;
  if (S.state && S.state.version === asked && legal().includes("pass")) act("pass");
}

// "Lay my best melds": the best melds sent one after another, each once the state after the previous
// one has come (the server takes one meld per move); anything else that happens drops the rest.
function layBestMelds() { queueMelds([]); }

// Big gin: the melds of every card sent one after another as "Lay my best melds" does, then the pass
// (nothing else is left to do); from the discard step "Big gin!" knocks first (bigGinNow).
function layBigGin() { queueMelds(["pass"]); }

function queueMelds(after) {
  if (S.passAsked !== null) { closeDialog("#pass-dialog"); S.passAsked = null; }
  const melds = bestMelds().map((m) => m.action);
  if (!melds.length) return;
  const actions = melds.concat(after);
  S.layQueue = { actions: actions.slice(1), version: S.state.version + 1 };
  act(actions[0]);
}

// After the draw at a table that plays big gin, when every card lies in melds (the server says so
// with the seat's deadwood) and a knock is legal: "Big gin!" is offered at once.
const bigGinNow = () => {
  const v = S.state && S.state.view, line = v && v.knock_line;
  return !!(v && v.gin && line && line.big_gin && myTurn() && legal().includes("knock"));
};

function bigGinFromDiscard() {
  S.bigGinAt = S.state.version + 1;
  act("knock");
}

function layNextMeld(state) {
  const queue = S.layQueue;
  S.layQueue = null;
  if (!queue || state.version !== queue.version || state.you !== S.seat || !queue.actions.length) return;
  const [next, ...rest] = queue.actions;
  if (!state.legal.includes(next)) return;
  S.layQueue = { actions: rest, version: state.version + 1 };
  act(next);
}

// Who knocked in a Viennese hand (not gin, whose knock has phases of its own), if somebody else did.
const knockedBy = (v) => (!v.gin && v.phase !== "over" && v.knocker !== null && v.knocker !== undefined && v.knocker !== S.seat ? v.knocker : null);

// Three or more cards picked in the hand of a melding game are a meld in the making: judged with the
// tray's groups, shown after them with their value and counted in the opening's total, and laid with
// them by "Lay melds" (as the sites lay the cards picked), before they are made a group of their own.
function pendingGroup() {
  const st = S.state;
  if (!st || !st.view || !st.view.hand || st.table.knock_game || S.seat === null || S.selected.length < 3) return null;
  return selectedCards();
}

// What is judged: the tray's groups, and the picked cards after them.
function composition() {
  const pending = pendingGroup();
  return pending ? S.groups.concat([pending]) : S.groups;
}

function evaluate() {
  clearTimeout(S.evaluateSoon);
  const melds = composition();
  if (melds.length === 0) { S.evaluation = null; renderTray(); return; }
  send({ type: "evaluate", melds });
}

// A card picked or let go: the picked cards are judged a moment later (a player picking five cards
// quickly asks once, not at each card), when they make a meld in the making (pendingGroup).
function evaluateSelection() {
  clearTimeout(S.evaluateSoon);
  if (pendingGroup()) S.evaluateSoon = setTimeout(evaluate, 150);
}

// The server's judgement of the groups as they are now (and of the cards picked, pendingGroup), or
// null: an answer to groups that have changed since (a card added while it was on its way, or an
// evaluation the server refused) judges others. An answer that judged cards picked since let go still
// judges the groups before them; the total is theirs alone.
function currentEvaluation() {
  const ev = S.evaluation, want = composition();
  if (!ev || ev.melds.length < want.length) return null;
  if (!want.every((g, i) => ev.melds[i].cards.join(" ") === g.join(" "))) return null;
  if (ev.melds.length === want.length) return ev;
  const melds = ev.melds.slice(0, want.length);
  return { ...ev, melds, total: melds.reduce((sum, m) => sum + m.value, 0) };
}

// A group of the tray (or the cards picked) drawn: its cards, its value or ✗, said as a group of named
// cards with its value or why it is no meld (the reason was a tooltip only). The reason names the cards
// first ("3♣ 4♣: a meld needs …"), which the group's name has just said: said once. No tooltip: the
// reason is written under the tray (renderTray), and a screen reader said the tooltip after the name.
function trayGroup(g, info, name) {
  const div = document.createElement("div");
  div.className = "group" + (info ? (info.legal ? " ok" : " bad") : "");
  div.setAttribute("role", "group");
  const worth = info ? (info.legal ? ` = ${info.value}` : ` — ${groupReason(g, info)}`) : "";
  div.setAttribute("aria-label", `${name}: ${g.map(Cards.name).join(", ")}${worth}`);
  return div;
}

// Why group g is no meld (the server's judgement `info`), in words, without the cards it begins with
// ("3♣ 4♣: a meld needs …"): said where the group is named, its cards said once.
function groupReason(g, info) {
  const cards = g.map(Cards.name).join(", ");
  const spoken = Cards.spoken(info && info.error ? inLang(info.error_texts, info.error) : "");
  return spoken.startsWith(`${cards}: `) ? spoken.slice(cards.length + 2) : spoken;
}

// The tray's groups and the cards picked (a meld in the making), drawn (renderTray). A card of a group
// is a button that takes it back into the hand; while cards are picked in the hand, each group has a
// button that puts them into it, as a card dragged onto the group goes into it (dropOn): the keyboard's
// way, and a tap's on a phone.
function drawGroups(box, ev, pending, picked) {
  // The keyboard on a tray card stays at its place when the tray is drawn anew.
  const active = document.activeElement;
  const card = active && active.closest ? active.closest("#groups .group .card, #groups .group-add") : null;
  const at = card ? [[...box.children].indexOf(card.closest(".group")), [...card.closest(".group").querySelectorAll(".card")].indexOf(card)] : null;
  box.innerHTML = "";
  S.groups.forEach((g, i) => {
    const info = ev ? ev.melds[i] : null;
    const div = trayGroup(g, info, t("group_n", { n: i + 1 }));
    // A card dragged from the hand onto a group goes into it (dropOn).
    div.dataset.drop = "group";
    div.dataset.group = i;
    g.forEach((c, j) => {
      const el = Cards.element(c, { small: true });
      const takeOut = () => { const group = S.groups[i]; group.splice(j, 1); if (!group.length) S.groups.splice(i, 1); evaluate(); render(); };
      el.addEventListener("click", takeOut);
      // The keyboard too (it could only clear the whole tray): Enter or Space takes the card back into
      // the hand, and the keyboard goes on from the group, else the hand.
      el.tabIndex = 0;
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", t("take_out", { card: Cards.name(c) }));
      el.addEventListener("keydown", (ev) => {
        if (ev.key !== "Enter" && ev.key !== " ") return;
        ev.preventDefault(); ev.stopPropagation();
        const stays = S.groups[i].length > 1;
        takeOut();
        const left = stays ? $(`#groups .group:nth-child(${i + 1}) .card`) : null;
        if (left) left.focus(); else focusTable();
      });
      div.appendChild(el);
    });
    div.insertAdjacentHTML("beforeend", `<span class="group-value">${info ? (info.legal ? info.value : "✗") : "…"}</span>`);
    if (picked.length) {
      const add = document.createElement("button");
      add.type = "button";
      add.className = "ghost group-add";
      add.textContent = "+";
      const label = t("add_to_group", { cards: picked.map(Cards.name).join(", "), n: i + 1 });
      add.setAttribute("aria-label", label);
      add.title = Cards.spoken(label);
      add.addEventListener("click", () => addToGroup(i));
      div.appendChild(add);
    }
    box.appendChild(div);
  });
  // The cards picked in the hand (three or more): a meld in the making, framed apart; they stay in the
  // hand (a click there lets one go), so they are pictures here, not buttons.
  if (pending) {
    const info = ev ? ev.melds[S.groups.length] : null;
    const div = trayGroup(pending, info, t("picked_group"));
    div.classList.add("pending");
    div.insertAdjacentHTML("beforeend", `<span class="group-label" aria-hidden="true">${escapeHtml(t("picked_group"))}</span>`);
    for (const c of pending) div.appendChild(Cards.element(c, { small: true }));
    div.insertAdjacentHTML("beforeend", `<span class="group-value">${info ? (info.legal ? info.value : "✗") : "…"}</span>`);
    box.appendChild(div);
  }
  if (at) {
    const group = box.children[at[0]];
    const cards = group ? group.querySelectorAll(".card") : [];
    const again = at[1] < 0 ? group && group.querySelector(".group-add") : cards[Math.min(at[1], cards.length - 1)];
    if (again) again.focus(); else focusTable();
  }
}

// The cards picked in the hand put into tray group i (its "+"); the keyboard goes back to the hand,
// where the next cards are picked.
function addToGroup(i) {
  const cards = selectedCards();
  if (!cards.length || !S.groups[i]) return;
  const fromKeys = !!document.activeElement && document.activeElement.classList.contains("group-add");
  S.groups[i].push(...cards);
  S.selected = [];
  evaluate();
  render();
  if (fromKeys) focusTable();
  sayGroup(i);
}

function renderTray() {
  if (!S.state || !S.state.view) return;
  // Knock games meld only at the showdown; a spectator composes nothing.
  $("#tray").classList.toggle("hidden", S.state.table.knock_game || S.seat === null);
  const box = $("#groups");
  const ev = currentEvaluation();
  const pending = pendingGroup();
  const why = [];  // each group that is no meld, and why: shown under the tray (a tooltip is no help on a phone)
  const reason = (info) => (info && !info.legal && info.error ? inLang(info.error_texts, info.error) : "");
  S.groups.forEach((g, i) => { if (ev && reason(ev.melds[i])) why.push(`${t("group_n", { n: i + 1 })}: ${reason(ev.melds[i])}`); });
  if (pending && ev && reason(ev.melds[S.groups.length])) why.push(`${t("picked_group")}: ${reason(ev.melds[S.groups.length])}`);
  // The groups are drawn anew only when what they show changed: drawn at every state (and again at its
  // evaluation), the tray card under the keyboard was replaced and a screen reader said it again, twice
  // for each of the others' moves.
  const picked = S.seat !== null && S.state.view.hand ? selectedCards() : [];
  const judged = ev ? composition().map((_, i) => [ev.melds[i].legal, ev.melds[i].value, reason(ev.melds[i])]) : null;
  const key = JSON.stringify([S.groups, pending, judged, picked, S.lang, S.intlLetters]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    drawGroups(box, ev, pending, picked);
  }
  const total = $("#opening-total"), whyBox = $("#tray-why");
  const v = S.state.view;
  whyBox.textContent = why.join("\n");
  whyBox.classList.toggle("hidden", !why.length);
  if (!S.groups.length && !pending) { total.textContent = ""; S.traySaid = ""; $("#tray").classList.add("empty"); return; }
  $("#tray").classList.remove("empty");
  const opened = S.seat !== null && v.opened[S.seat];
  const sum = ev ? ev.total : 0;
  const min = S.state.table.opening_min;
  // Before opening: the total against the opening minimum; without a minimum (Basic Rummy) just the total.
  // Enough (green) only when every group is a meld: a group that is none stops the opening however much
  // the others are worth.
  if (!opened && !S.state.table.knock_game && min > 0) {
    total.innerHTML = `${t("opening")}: <b id="opening-sum">${sum}</b> / ${min}`;
    total.classList.toggle("enough", sum >= min && !!ev && ev.melds.every((m) => m.legal));
  } else {
    total.innerHTML = `${t("total")}: <b id="opening-sum">${sum}</b>`;
    total.classList.remove("enough");
  }
  // Before opening, melds that leave at most one card in the hand go out in this turn: a Hand-Rommé,
  // which counts the others' points double (the factor named as the table plays it). Not said where the
  // melds fall short of the opening minimum that a Hand-Rommé must reach too (as the presets play it:
  // hand_romme_requires_opening_min), nor before the draw, whose card is still to be laid or discarded.
  const rules = tableRules(S.state);
  const factor = Number(rules.hand_romme_multiplier);
  const reaches = !min || sum >= min || String(rules.hand_romme_requires_opening_min).toLowerCase() === "false";
  const drawn = myTurn() && ["play", "discard"].includes(v.phase) ? 0 : 1;
  const handOut = !opened && factor > 1 && !!ev && ev.melds.every((m) => m.legal) && reaches
    && shownHand().length - (pending ? pending.length : 0) + drawn <= 1;
  if (handOut) total.insertAdjacentHTML("beforeend", ` <span id="hand-out" class="hand-out">· ${escapeHtml(t("hand_out_now", { n: factor }))}</span>`);
  // The total is said when the server's evaluation changes it ("Erstmeldung: 33 / 40"), not at every render,
  // with whether it is enough to open and why a group is no meld.
  const enough = total.classList.contains("enough") ? ` · ${t("enough_to_open")}` : "";
  // Each group that is no meld by its name, as the tray's words and its own name say it: its cards said
  // once ("Group 1: 3 of clubs, 4 of clubs" said by G a moment before; the reason named them again).
  const named = (i) => t(i < S.groups.length ? "group_n" : "picked_group", { n: i + 1 });
  const bad = ev ? composition().map((g, i) => [g, i, ev.melds[i]]).filter(([, , m]) => !m.legal && m.error)
    .map(([g, i, m]) => `${named(i)}: ${groupReason(g, m)}`) : [];
  const said = `${total.textContent}${enough}${bad.length ? " · " + bad.join(" · ") : ""}`;
  if (ev && said !== S.traySaid) { S.traySaid = said; announce(said); }
}

function renderHand() {
  const box = $("#hand");
  if (!S.state.view.hand) {
    box.innerHTML = ""; box.dataset.key = "";
    box.classList.add("hidden"); $("#hand-tools").classList.add("hidden"); return;
  }
  box.classList.remove("hidden");
  $("#hand-tools").classList.remove("hidden");
  const line = S.state.view.knock_line;
  $("#btn-sort-melds").classList.toggle("hidden", !(line && line.melds));
  const hand = shownHand();
  box.style.setProperty("--hand-n", hand.length);  // the overlap on a phone (style.css)
  const playable = new Set();
  // Cards that can go on the table now (every card may be discarded, so discards are not marked); at a
  // table without hints only from the moves offered there (offeredMoves: no openings given away).
  for (const a of offeredMoves()) {
    if (/^(discard|knock|rummy|take|draw)\b/.test(a)) continue;
    for (const m of a.matchAll(/\b(10|[2-9AJQK])[CDHS]\b|\bJK\b/g)) playable.add(m[0]);
  }
  S.focus = followFocus(box, hand);
  const fresh = new Set(S.animate ? S.changed.hand : []);
  // Drawn anew only when something in it changed: a screen reader reads the focused card again each
  // time its element is replaced (three times per bot's turn), and a redraw dropped the keyboard focus
  // to the page (after a hint). The focus stays on the hand when it was there.
  const key = JSON.stringify([hand, S.selected, [...playable].sort(), [...fresh], S.hint, S.lang, S.intlLetters, keptCard()]);
  if (box.dataset.key === key && box.childElementCount === hand.length) {
    [...box.children].forEach((el, i) => { el.tabIndex = i === S.focus ? 0 : -1; });  // the roving focus only
    return;
  }
  // The same cards in the same places (a card picked, a hint, the list of moves marking playable cards):
  // marked where they are. Drawn anew, the focused card's element was replaced and a screen reader read
  // it again and broke off what it was saying ("You draw …", "Your turn: discard") two or three times
  // a turn.
  const cards = JSON.stringify([hand, S.lang, S.intlLetters]);
  if (box.dataset.cards === cards && box.childElementCount === hand.length && !fresh.size) {
    box.dataset.key = key;
    [...box.children].forEach((el, i) => markCard(el, hand[i], i, playable, fresh));
    return;
  }
  const hadFocus = box.contains(document.activeElement);
  box.dataset.key = key; box.dataset.cards = cards;
  box.innerHTML = "";
  hand.forEach((c, i) => {
    const el = Cards.element(c);
    markCard(el, c, i, playable, fresh);
    el.addEventListener("click", () => { if (!S.dragged) { S.focus = i; toggleSelect(i); } });
    el.addEventListener("pointerdown", (ev) => startDrag(ev, el, i));
    // A card held by a finger (startDrag) is dragged, not the page scrolled, whichever way it moves.
    el.addEventListener("touchmove", (ev) => { if (S.dragLifted) ev.preventDefault(); }, { passive: false });
    el.addEventListener("contextmenu", (ev) => { if (S.dragging) ev.preventDefault(); });
    el.addEventListener("focus", () => { S.focus = i; });
    box.appendChild(el);
  });
  if (hadFocus) focusCard();
}

// The place of the focused card in the hand drawn anew: the card itself where it is still held (a card
// drawn before it moved it along, and the focus landed on its neighbour: a screen reader named another
// card as if the focus had moved), else the same place (the card was discarded or laid).
function followFocus(box, hand) {
  const at = Math.max(0, Math.min(S.focus, hand.length - 1));
  const el = document.activeElement, card = el && box.contains(el) ? el.dataset.card : null;
  if (!card || hand[at] === card || !hand.includes(card)) return at;
  const places = hand.map((c, i) => (c === card ? i : -1)).filter((i) => i >= 0);
  return places.reduce((best, i) => (Math.abs(i - S.focus) < Math.abs(best - S.focus) ? i : best));
}

// A hand card's marks: picked (with its number), playable, just drawn, hinted, the roving focus.
function markCard(el, c, i, playable, fresh) {
  const selected = S.selected.includes(i);
  el.classList.toggle("selected", selected);
  if (selected) el.dataset.order = S.selected.indexOf(i) + 1; else delete el.dataset.order;
  // Its name said as such: the order number drawn on a selected card was read as part of it ("queen
  // of spades 1").
  // The card taken from the discard pile, while the rules hold it in the hand (keptCard): marked, and
  // said why in its name. Its tooltip names the card as every card's does: a screen reader says the
  // tooltip after the name (its description), and the reason in it too was said twice.
  const kept = keptCard();
  const taken = !!kept && kept.card === c && (kept.at === undefined || kept.at === i);
  el.classList.toggle("taken", taken);
  const why = taken ? `, ${t(kept.lay ? "taken_lay" : "taken_keep")}` : "";
  el.title = Cards.label(c);
  el.setAttribute("aria-label", (selected ? `${Cards.name(c)}, ${t("picked_n", { n: el.dataset.order })}` : Cards.name(c)) + why);
  el.classList.toggle("playable", playable.has(c));
  el.classList.toggle("fresh", fresh.has(c));
  fresh.delete(c);
  el.classList.toggle("hinted", !!S.hint && new RegExp(`(^|\\s)${c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|$)`).test(S.hint));
  el.dataset.index = i;
  el.setAttribute("role", "option");
  el.setAttribute("aria-selected", selected ? "true" : "false");
  el.tabIndex = i === S.focus ? 0 : -1;
}

// The card just taken from the discard pile that the rules hold in your hand this turn, or null: one
// that must go on the table before the turn ends (lay: discard_pickup_requires_meld; `at`: the place in
// the hand shown of the copy marked), or one that may not be discarded, which the discards offered
// leave out (nor its twin of the other pack).
function keptCard() {
  const st = S.state, v = st && st.view;
  if (!v || !v.hand || S.seat === null || !myTurn() || !["play", "discard"].includes(v.phase)) return null;
  // One card is to be laid: a twin of the other pack held besides is the player's own once one is down,
  // so one copy is marked (none while a copy lies composed in the tray, which the lay-down takes).
  if (v.must_lay) {
    const composed = S.groups.some((g) => g.includes(v.must_lay));
    return { card: v.must_lay, lay: true, at: composed ? -1 : shownHand().indexOf(v.must_lay) };
  }
  const card = v.taken_discard, L = legal();
  if (!card || !v.hand.includes(card) || L.includes(`discard ${card}`)) return null;
  return L.some((a) => a.startsWith("discard ")) ? { card, lay: false } : null;
}

// The hand in the order the player arranged: saved card texts first (as far as still held), then
// the rest in the server's order (a drawn card comes last).
function arrange(cards) {
  const pool = cards.slice(), out = [];
  for (const c of S.order) {
    const k = pool.indexOf(c);
    if (k >= 0) { out.push(c); pool.splice(k, 1); }
  }
  return out.concat(pool);
}

function saveOrder(cards) {
  S.order = cards.slice();
  try { localStorage.setItem(orderKey(), JSON.stringify(S.order)); } catch { /* storage full: order not kept */ }
}

// Move the card at shown index `from` to index `to`; the selection follows its cards.
function moveCard(from, to) {
  const hand = shownHand();
  if (from === to || from < 0 || from >= hand.length) return;
  to = Math.max(0, Math.min(to, hand.length - 1));
  const ids = hand.map((_, i) => i);
  const [moved] = ids.splice(from, 1);
  ids.splice(to, 0, moved);
  saveOrder(ids.map((i) => hand[i]).concat(S.groups.flat()));
  S.selected = S.selected.map((i) => ids.indexOf(i));
  S.focus = to;
  render();
  focusCard();
}

const SUIT_ORDER = { C: 0, S: 1, H: 2, D: 3 };  // black and red alternate
function rankOf(c) { return c === "JK" ? 99 : Cards.RANK_ORDER.indexOf(c.slice(0, -1)); }
function suitOf(c) { return c === "JK" ? 9 : SUIT_ORDER[c.slice(-1)]; }

function sortHand(by) {
  const hand = shownHand();
  // By melds (the knock games and gin): the melds of the hand's best arrangement, which the server
  // sends with your deadwood, first and in its order; the other cards after them by suit.
  // Two decks: each meld place takes one copy of its card, a twin left over goes with the rest.
  const melds = by === "melds" ? (S.state.view.knock_line || {}).melds || [] : [];
  const places = new Map();
  melds.flat().forEach((c, k) => places.set(c, (places.get(c) || []).concat([k])));
  const bySuit = (c) => suitOf(c) * 100 + rankOf(c);
  const key = by === "melds" ? (c) => { const p = places.get(c); return p && p.length ? p.shift() : 1000 + bySuit(c); }
    : by === "suit" ? bySuit : (c) => rankOf(c) * 10 + suitOf(c);
  const keys = hand.map(key);  // once per card, in the hand's order
  const sorted = hand.map((c, i) => ({ c, i })).sort((a, b) => keys[a.i] - keys[b.i] || a.i - b.i);
  const selectedCards = new Set(S.selected.map((i) => hand[i]));
  saveOrder(sorted.map((x) => x.c).concat(S.groups.flat()));
  S.selected = S.selected.map((i) => sorted.findIndex((x) => x.i === i));
  selectedCards.clear();
  render();
}

function focusCard() {
  const el = $(`#hand .card[data-index="${S.focus}"]`);
  if (el) el.focus();
}

// Dragging with pointer events (mouse, pen and touch alike): onto the discard pile, a table meld, the
// meld tray, or to another place in the hand. A finger that starts upwards or downwards scrolls the
// page (the hand's cards allow vertical panning, style.css): the browser then cancels the pointer, and
// a cancelled drag puts the card back; a swipe meant to scroll never discards or lays a card. A drag
// by touch starts sideways, or anywhere once the finger has held the card for a moment (it lifts).
const LIFT_MS = 350;
function startDrag(ev, el, index) {
  if (ev.button !== undefined && ev.button > 0) return;
  const x0 = ev.clientX, y0 = ev.clientY;
  let moving = false;
  S.dragged = false;
  S.dragging = true;  // while the pointer is down the hand keeps its elements (see render)
  S.dragLifted = false;
  el.setPointerCapture && el.setPointerCapture(ev.pointerId);
  const lift = ev.pointerType === "touch" ? setTimeout(() => {
    if (moving) return;
    S.dragLifted = true;  // held still: the finger now moves the card, not the page
    el.classList.add("lifted");
    if (navigator.vibrate) navigator.vibrate(10);
  }, LIFT_MS) : null;
  const move = (e) => {
    const dx = e.clientX - x0, dy = e.clientY - y0;
    if (!moving && Math.hypot(dx, dy) < 8) return;
    moving = true;
    el.classList.add("dragging");
    el.style.transform = `translate(${dx}px, ${dy}px)`;
  };
  const stop = () => {
    clearTimeout(lift);
    S.dragLifted = false;
    el.classList.remove("lifted");
    el.removeEventListener("pointermove", move);
    el.removeEventListener("pointerup", up);
    el.removeEventListener("pointercancel", cancel);
    S.dragging = false;
    const pending = S.renderPending;
    S.renderPending = false;
    return pending;
  };
  const cancel = () => {  // the browser took the gesture (a scroll): the card goes back, nothing is sent
    const pending = stop();
    el.style.transform = "";
    el.classList.remove("dragging");
    if (pending) render();
  };
  const up = (e) => {
    const pending = stop();
    if (!moving) { if (pending) render(); return; }
    S.dragged = true;
    setTimeout(() => { S.dragged = false; }, 0);
    el.style.visibility = "hidden";
    const under = document.elementFromPoint(e.clientX, e.clientY);
    el.style.visibility = "";
    el.style.transform = "";
    el.classList.remove("dragging");
    const target = under && under.closest("[data-drop]");
    if (!target || target.dataset.drop === "hand") {
      if (under && under.closest("#hand")) moveCard(index, dropIndex(e.clientX, e.clientY, index));
      else if (pending) render();
      return;
    }
    dropOn(target, index, under);
    if (pending) render();
  };
  el.addEventListener("pointermove", move);
  el.addEventListener("pointerup", up);
  el.addEventListener("pointercancel", cancel);
}

// Where in the hand a card dropped at (x, y) goes: before the first card whose middle is right of x
// on the row under the pointer.
function dropIndex(x, y, from) {
  const cards = [...document.querySelectorAll("#hand .card")];
  let to = cards.length - 1;
  for (const c of cards) {
    const r = c.getBoundingClientRect(), i = Number(c.dataset.index);
    if (i === from) continue;
    if (y < r.top || y > r.bottom) continue;
    if (x < r.left + r.width / 2) { to = i > from ? i - 1 : i; break; }
    to = i > from ? i : i + 1;
  }
  return to;
}

// A move button is usable, off (disabled: not your turn, the wrong phase, no card selected), or
// "explainable": it looks unavailable (greyed, aria-disabled) but a click still sends the move, so the
// server's refusal says why (a discard the rules forbid, a knock with too much deadwood).
function renderActions() {
  const L = legal(), knock = S.state.table.knock_game;
  const sel = S.selected.length;
  const hand = shownHand();
  const one = sel === 1 ? hand[S.selected[0]] : null;
  const show = (id, visible, enabled = true, explain = false) => {
    const b = $(id);
    b.classList.toggle("hidden", !visible);
    b.disabled = !enabled && !explain;
    if (!enabled && explain) b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
  };
  // One card selected in the phase that ends a turn with a discard: a refused discard, knock or Rummy
  // call is worth sending for its reason.
  const explain = !!one && myTurn() && ["play", "discard"].includes(S.state.view.phase);
  const canMeld = L.some((a) => a.startsWith("open") || a.startsWith("meld"))
    || (S.state.compose || []).some((k) => k === "open" || k === "meld");
  const playing = S.seat !== null && S.state.table.status === "playing";
  show("#btn-group", playing && !knock, sel >= 1);
  show("#btn-play", playing && !knock && (S.groups.length > 0 || !!pendingGroup()), canMeld && meldsReady());
  show("#btn-clear", playing && (S.groups.length > 0 || sel > 0));
  show("#btn-discard", playing, !!one && L.includes("discard " + one), explain);
  // Gin's knock is a move of its own ("knock", then the discard and the melds); with a card selected
  // the server takes "knock 4C" in one step when that discard leaves the deadwood low enough.
  const ginKnock = L.includes("knock");
  show("#btn-knock", playing && knock, one ? L.includes("knock " + one) || ginKnock : sel === 0 && ginKnock, explain);
  show("#btn-rummy", playing && knock && !S.state.view.gin, !!one && L.includes("rummy " + one), explain);  // gin has no Rummy call
  show("#btn-hint", playing && hintsAllowed(), myTurn());
  // Undo: offered at practice tables, usable once you have moved in this hand (the server judges the rest).
  const moved = (S.handMoves || S.state.log).some((e) => e.index >= 0 && e.seat === S.seat && e.hand === S.state.match.hands_dealt);
  show("#btn-undo", playing && isPractice() && !S.state.match.is_over, moved);
  show("#btn-leave", S.seat !== null);
}

// A practice table: everybody else is a bot that holds no seat for a person (undo is allowed there).
// Hints: for every player at a table made so, else only at a practice table (the server judges).
function hintsAllowed() { return !!S.state && S.seat !== null && (S.state.table.hints === "everyone" || isPractice()); }

function isPractice() {
  const st = S.state;
  return !!st && S.seat !== null && st.table.seats.every((s, i) => i === S.seat || (s.kind === "bot" && !s.held));
}

function undo() {
  if (!S.state || !isPractice()) return;
  S.hint = null;
  clearError($("#game-error"));
  send({ type: "undo" });
}

// The moves of the current hand, kept from the states' logs (each state carries the last few moves, each
// with its hand's number). The whole list is asked for ({"type": "hand_log"}) only when the page missed
// part of the hand (opened or reconnected in the middle of it) and the Moves panel is open.
function mergeHandMoves(st) {
  const hand = st.match.hands_dealt;
  if (S.handNo !== hand) { S.handNo = hand; S.handMoves = null; }
  const ours = (e) => e.hand === hand || (e.index < 0 && hand === 1);
  const mine = st.log.filter(ours);
  const moves = st.log.filter((e) => e.index >= 0);
  // The log reaches back to the hand's start: the seat draw, or a move of an earlier hand, is in it.
  if (st.log.some((e) => e.index < 0 || (e.index >= 0 && e.hand < hand)) || !moves.length) { S.handMoves = mine; return; }
  const low = moves[0].index;
  // Else join what the page had (moves before the log's first one; an undo only shortens the end).
  const kept = (S.handMoves || []).filter((e) => e.index < low);
  const last = kept.length ? kept[kept.length - 1].index : null;
  S.handMoves = S.handMoves && last === low - 1 ? kept.concat(mine) : null;
}

function requestHandLog() {
  const st = S.state;
  if (!st || !st.view || S.handMoves !== null || !$("#log-box").open || S.handAsked === st.version) return;
  S.handAsked = st.version;
  send({ type: "hand_log" });
}

// The composed melds can be laid: each is a meld, and before opening they reach the minimum.
function meldsReady() {
  const ev = currentEvaluation();
  if (!ev || !ev.melds.every((m) => m.legal)) return false;
  const opened = S.seat !== null && S.state.view.opened[S.seat];
  return opened || ev.total >= S.state.table.opening_min;
}

function moveLabel(a) {
  if (a === "draw" || a === "take" || a === "buyback" || a === "decline") return t(a);
  // The server words each legal move in every language: the state's simple moves, the full list's rest.
  const full = S.moves && S.moves.version === S.state.version ? S.moves : null;
  const i = S.state.legal.indexOf(a);
  if (i >= 0 && S.state.legal_texts) return inLang(S.state.legal_texts[i], a);
  const j = full ? full.actions.indexOf(a) : -1;
  return j >= 0 && full.texts ? inLang(full.texts[j], a) : a;
}

// The moves a player may be offered as buttons: at a table without hints (hintsAllowed) the openings,
// melds, lay-offs and joker exchanges of a melding game are not listed (listing every legal opening is
// a hint); the player composes them (tray, drop, keys). Simple moves and gin's steps stay.
const COMPOSED = /^(open|meld|layoff|swap)\b/;
function offeredMoves() {
  const all = legal();
  if (hintsAllowed() || S.state.table.family === "gin") return all;
  return all.filter((a) => !COMPOSED.test(a));
}

function renderMoves() {
  const box = $("#moves");
  box.innerHTML = "";
  box.classList.remove("collapsed");
  let all = offeredMoves().filter((a) => !a.startsWith("discard ") && !a.startsWith("knock ") && !a.startsWith("rummy "));
  // Gin's melds largest first: four kings before the four sets of three they hold.
  const size = (a) => (a.startsWith("meld ") ? a.split(/\s+/).length - 1 : 0);
  if (S.state.table.family === "gin") all = all.slice().sort((a, b) => size(b) - size(a));
  // Gin after a knock: the pass comes last, after the melds and lay-offs it would give up.
  const step = ginStep(S.state.view);
  if (step && all.includes("pass")) all = all.filter((a) => a !== "pass").concat(["pass"]);
  const suggested = S.suggested && S.suggested.version === S.state.version ? S.suggested.actions : [];
  const L = suggested.concat(all.filter((a) => !suggested.includes(a)));
  if (!L.length) return;
  box.insertAdjacentHTML("beforeend", `<span class="moves-title">${t("moves")}:</span>`);
  const chip = (text, action, cls, onClick) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move-chip" + cls;
    if (action) b.dataset.action = action;
    b.textContent = text;
    const words = Cards.spoken(text);  // a meld's cards in words for a screen reader, as the table's melds
    if (words !== text) b.setAttribute("aria-label", words);
    b.addEventListener("click", onClick);
    box.appendChild(b);
    return b;
  };
  if (step === "meld" && bestMelds().length) chip(t("best_melds"), null, " best-melds", layBestMelds).id = "btn-best-melds";
  if (step === "big_gin") chip(t("big_gin_lay", { n: S.state.view.hand.length }), null, " best-melds", layBigGin).id = "btn-big-gin";
  if (bigGinNow()) chip(t("big_gin_now", { n: S.state.view.hand.length }), null, " best-melds", bigGinFromDiscard).id = "btn-big-gin";
  for (const a of L.slice(0, 24)) {
    chip(moveLabel(a), a, suggested.includes(a) ? " suggested" : "", () => (a === "pass" && step ? passOrAsk() : act(a)));
  }
  foldMoves(box);
}

// A long list of moves (every opening at a practice table: more than eight) is kept to one row with a "more (n)…"
// toggle, so the hand stays on the screen; opened, it stays open until the turn changes.
function foldMoves(box) {
  const chips = [...box.querySelectorAll(".move-chip")];
  if (chips.length <= 8) return;  // a few moves (gin's steps, the draw) all stay in view
  const top = chips[0].offsetTop, below = (el) => el.offsetTop >= top + chips[0].offsetHeight * 0.75;
  if (!below(chips[chips.length - 1])) return;  // one row: nothing to fold
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.id = "btn-more-moves";
  toggle.className = "ghost more-moves";
  box.appendChild(toggle);
  if (S.movesOpen) {
    toggle.textContent = t("fewer_moves");
    toggle.setAttribute("aria-expanded", "true");
    toggle.addEventListener("click", () => { S.movesOpen = null; renderMoves(); $("#btn-more-moves") && $("#btn-more-moves").focus(); });
    return;
  }
  toggle.setAttribute("aria-expanded", "false");
  box.classList.add("collapsed");
  let hidden = 0;
  const fold = () => { toggle.textContent = t("more_moves", { n: hidden }); };
  for (let k = chips.length - 1; k > 0 && (below(chips[k]) || below(toggle)); k--) {
    chips[k].classList.add("hidden");
    hidden += 1;
    fold();
  }
  if (!hidden) { toggle.remove(); box.classList.remove("collapsed"); return; }
  toggle.addEventListener("click", () => { S.movesOpen = true; renderMoves(); $("#btn-more-moves") && $("#btn-more-moves").focus(); });
}

function renderHint() {
  const box = $("#hint");
  if (!S.hint) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  // The move in words; the notation (as typed in the terminal) when there are no words.
  const words = inLang(S.hintTexts, "");
  box.innerHTML = words ? `${t("hint")}: <b class="hint-text"></b> ` : `${t("hint")}: <code>${escapeHtml(S.hint)}</code> `;
  if (words) { say(box.querySelector(".hint-text"), words); box.title = S.hint; }
  const b = document.createElement("button");
  b.type = "button"; b.id = "btn-play-hint"; b.textContent = t("play_hint");
  b.addEventListener("click", () => act(S.hint));
  box.appendChild(b);
  renderHand();
}

// Gin's end-of-game bonuses, itemised as gin score sheets do: the box bonus for the hands each player
// won, the winner's game bonus, and what a shutout's doubling added; one row each that paid anything.
// One "Bonuses" row where the server sent the sum alone.
function bonusRow(m) {
  const bonuses = m.bonuses || [];
  if (!bonuses.some((b) => b)) return "";
  const parts = m.bonus_parts;
  if (!parts || parts.length !== bonuses.length) {
    return `<tr class="bonuses"><td>${t("bonuses")}</td>` + bonuses.map((b) => `<td>${b}</td>`).join("") + "</tr>";
  }
  const won = parts.find((p) => p.hands_won > 0 && p.box > 0);
  const each = won ? won.box / won.hands_won : 0;
  const row = (kind, label, cell) => (parts.some((p) => p[kind])
    ? `<tr class="bonuses bonus-${kind}"><td>${escapeHtml(label)}</td>${parts.map(cell).join("")}</tr>` : "");
  return row("box", t("bonus_box", { n: each }), (p, i) => `<td title="${escapeHtml(t(p.hands_won === 1 ? "bonus_box_title_one" : "bonus_box_title", { name: seatName(i), hands: p.hands_won, n: each }))}">${p.box}</td>`)
    + row("game", t("bonus_game"), (p) => `<td>${p.game}</td>`)
    + row("shutout", t("bonus_shutout"), (p) => `<td>${p.shutout}</td>`);
}

// How far the winner of a game to a target score finished ahead of the next best total (the bonuses
// in), as gin players settle a game; "" for a shared win and for other matches. The bonuses came after
// the win, so the winner may end level or behind (a loser's box bonuses): no margin is said then, the
// note on the bonuses tells why; nor after a tie broken by match_tiebreak.
function marginLine(state) {
  const m = state.match, totals = matchTotals(state);
  if (targetScore(state) === null || m.winners.length !== 1 || totals.length < 2) return "";
  const w = m.winners[0];
  const n = totals[w] - Math.max(...totals.filter((_, i) => i !== w));
  if (n <= 0) return "";
  return `<p class="game-margin">${escapeHtml(t(n === 1 ? "game_margin_one" : "game_margin", { name: seatName(w), n }))}</p>`;
}

// Each seat's total after each hand of the sheet (the sheet's sign, as its Total row): the hands' points
// (the points won, in a match to a target score) added up from what the total was before the first
// hand, a rubber's buy-backs from the next hand on (their own row says the change); the end's bonuses
// come after the last (the Total row has them).
function runningTotals(st, won) {
  const m = st.match, n = st.table.players;
  const rows = m.hands.map((h) => (won && h.gains ? h.gains : h.points));
  const bought = (h) => (won ? [] : (m.buybacks || []).filter((b) => b.hand === h.hand));
  // The start: the totals less everything the sheet adds (zeros, unless the match began from a position).
  const total = matchTotals(st).map((p, i) => p - ((m.bonuses || [])[i] || 0));
  m.hands.forEach((h, k) => {
    rows[k].forEach((p, i) => { total[i] -= p; });
    for (const b of bought(h)) total[b.seat] -= b.from - b.to;
  });
  return m.hands.map((h, k) => {
    for (let i = 0; i < n; i++) total[i] += rows[k][i];
    const after = [...total];  // a buy-back's row below the hand shows its change ("-91 → -40")
    for (const b of bought(h)) total[b.seat] += b.from - b.to;
    return after;
  });
}

function renderScores() {
  const st = S.state, n = st.table.players;
  // Three seats and more: a wider side panel (five and six: wider still), so every column shows.
  $("#game").classList.toggle("many-seats", n >= 3);
  $("#game").classList.toggle("most-seats", n >= 5);
  document.documentElement.style.setProperty("--seats", n);  // a name's share of a phone's sheet (style.css)
  $("#scores").innerHTML = sheetHtml(st);
}

// The score sheet: every hand's points with the total after it, the buy-backs, the bonuses, the totals
// and what is left to a limit or a target. At the match's end (winners, the seats that won) the
// winners' totals are marked, for the eye and in words.
function sheetHtml(st, winners = null) {
  const m = st.match, n = st.table.players;
  // Under each hand's points the total after it, as a tournament's sheet keeps it (the header says so).
  let html = `<table class="scores"><thead><tr><th>${t("hand")}<small class="running">${t("running_total")}</small></th>`;
  // Your own column says "you" (the full name is its title): a long name cut to "Anna (…" said nothing.
  for (let i = 0; i < n; i++) html += `<th title="${escapeHtml(seatName(i))}"${i === S.seat ? ' class="own"' : ""}>${i === S.seat ? escapeHtml(t("you")) : nameWords(seatName(i))}</th>`;
  html += "</tr></thead><tbody>";
  // A match to a target score adds up the points won: each hand shows what its winner won.
  const target = targetScore(st), won = target !== null;
  const running = runningTotals(st, won);
  const after = (i, k) => `<small class="running"><span class="sr-only">${t("running_total")}: </span>${running[k][i]}</small>`;
  // A rubber's chips each hand moved (its knock money, and its ante where one is paid every hand), in
  // view under the total as a scorekeeper settles them; nothing where no chip changed hands. A dealer
  // who sits the hand out still pays a per-hand ante: its cell says so under the dash.
  const signed = (c) => (c > 0 ? `+${c}` : `${c}`);
  const moved = (h, i) => (m.is_rubber && h.chips && h.chips[i]
    ? `<small class="chips-moved">${escapeHtml(t(Math.abs(h.chips[i]) === 1 ? "hand_chips_one" : "hand_chips", { n: signed(h.chips[i]) }))}</small>` : "");
  for (const [k, h] of m.hands.entries()) {
    // A seat that sat the hand out scored nothing: a dash, not a 0 like a winner's.
    const out = (i) => h.active_seats && !h.active_seats.includes(i);
    const row = won && h.gains ? h.gains : h.points;
    // The seat the hand's points went to: in gin the defender who undercut (the result's winner is
    // the knocker either way), else the winner.
    const scored = st.table.family === "gin" ? h.points.findIndex((p) => p > 0) : -1;
    const best = scored >= 0 ? scored : h.winner;
    // The hand's number, its factor (a Hand-Rommé's ×2) and, in its title, who dealt it: what a
    // tournament's sheet keeps for every hand (hands of an older server carry neither).
    const factor = h.multiplier > 1 ? ` ×${h.multiplier}` : "";
    const dealt = Number.isInteger(h.dealer) ? ` title="${escapeHtml(`${t("dealer")}: ${seatName(h.dealer)}`)}"` : "";
    html += `<tr><td class="hand-no"${dealt}>${h.hand}${factor}</td>` + row.map((p, i) => (out(i)
      ? `<td class="out" title="${t("sits_out")}">–${after(i, k)}${moved(h, i)}</td>`
      : `<td class="${best === i ? "win" : ""}">${p}${after(i, k)}${moved(h, i)}</td>`)).join("") + "</tr>";
    // A rubber's buy-backs after this hand: the buyer's total before and after, and under it the chips
    // paid, in view (a title alone is read by no touch screen and no printout: the price is the
    // scorekeeper's to settle).
    for (const b of (m.buybacks || []).filter((b) => b.hand === h.hand)) {
      // In the sheet's sign (its hands and totals are scores: bad points negative).
      const title = t("bought_back_title", { name: seatName(b.seat), chips: b.chips, from: -b.from, to: -b.to });
      const paid = `<small class="price">${escapeHtml(t("bought_back_chips", { chips: b.chips }))}</small>`;
      html += `<tr class="buyback"><td>${t("bought_back")}</td>` + Array.from({ length: n }, (_, i) => (i === b.seat
        ? `<td title="${escapeHtml(title)}">${-b.from} → ${-b.to}${paid}</td>` : "<td></td>")).join("") + "</tr>";
    }
  }
  const totals = matchTotals(st);
  html += bonusRow(m);
  const winner = (i) => (winners && winners.includes(i) ? ` class="win"` : "");
  const said = (i) => (winners && winners.includes(i) ? `<span class="sr-only"> (${t("winner")})</span>` : "");
  html += `<tr class="total"><td>${t("total")}</td>` + totals.map((p, i) => `<td${winner(i)}>${p}${said(i)}</td>`).join("") + "</tr>";
  if (won) {
    html += `<tr class="limit"><td>${escapeHtml(t("still_needed", { n: target }))}</td>`
      + totals.map((p) => `<td>${Math.max(0, target - p)}</td>`).join("") + "</tr>";
  }
  html += penaltyRows(st);
  // A rubber played to elimination (Viennese): the points each player may still take before the limit
  // puts them out ("out" once it has); a player within a quarter of it is marked.
  const limit = eliminationLimit(st);
  if (limit !== null) {
    html += `<tr class="limit"><td>${escapeHtml(t("out_at", { n: limit }))}</td>` + m.totals.map((p, i) => {
      if ((m.eliminated || [])[i]) return `<td class="out">${t("is_out")}</td>`;
      const left = Math.max(0, limit - p), near = p >= limit * 0.75;
      return `<td class="${near ? "near" : ""}"${near ? ` title="${escapeHtml(t("near_limit"))}"` : ""}>${left}${near ? " ⚠" : ""}</td>`;
    }).join("") + "</tr>";
  }
  if (m.is_rubber) {
    html += `<tr><td>${t("chips")}</td>` + m.chips.map((p) => `<td>${p}</td>`).join("") + "</tr>";
    html += potRow(m, n);
  }
  return html + "</tbody></table>";
}

// A rubber's pot: what it holds while the rubber runs; once a winner took it (it holds 0 then), what it
// held and each winner's share of it, a shared pot as it split (its odd chips to the winners first from
// the last dealer's left, as the server says: pot_shares).
function potRow(m, n) {
  const shares = m.pot_shares || [];
  if (!m.is_over || !m.pot_won) return `<tr class="pot"><td>${t("pot")}</td><td colspan="${n}">${m.pot}</td></tr>`;
  const shared = m.winners.length > 1;
  const label = t(shared ? "pot_taken_shared" : "pot_taken", { n: m.pot_won });
  if (shares.length !== n) return `<tr class="pot"><td>${escapeHtml(label)}</td><td colspan="${n}">${m.winners.map((w) => escapeHtml(seatName(w))).join(", ")}</td></tr>`;
  return `<tr class="pot"><td>${escapeHtml(label)}</td>` + shares.map((c, i) => (c
    ? `<td class="win" title="${escapeHtml(t("pot_share_title", { name: seatName(i), n: c }))}">+${c}</td>` : "<td></td>")).join("") + "</tr>";
}

// Chat: lines go in as text; a muted seat's lines are hidden for this page only.
function mutedKey() { return `rummykit:muted:${S.code}`; }
// Kept as {seats, at}: a watcher holds no grant, so its mutes are forgotten a day after they last
// changed rather than with the grant (a bare list is what earlier pages wrote).
function muted() {
  const kept = JSON.parse(localStorage.getItem(mutedKey()) || "[]");
  return new Set(Array.isArray(kept) ? kept : kept.seats || []);
}

// A chat line sent is kept (S.chatOut) until the server sends it back: one sent into a link that had
// died unnoticed vanished. On the next connection the recent lines come first; one that is not among
// them is sent again (as a move waiting in S.outbox is), and the line above the table says it waits.
function resendChat() {
  if (S.chatOut && !send({ type: "chat", text: S.chatOut })) return;
  renderLink();
}

function onChat(msg) {
  if (msg.seat === S.seat && msg.text === S.chatOut) { S.chatOut = null; renderLink(); }
  const fresh = !(S.chat || []).some((l) => l.n === msg.n);
  S.chat = (S.chat || []).filter((l) => l.n !== msg.n).concat([msg]).slice(-30);
  renderChat();
  // Another's line not seen yet: counted on the Chat button beside the turn's line (on a phone the chat
  // is the page's last block, and a line came without a sign), and said once to a screen reader (the
  // whole log was a live region, redrawn with every line).
  if (!fresh || msg.seat === S.seat || muted().has(msg.seat) || msg.n <= chatSeen()) return;
  if (!S.chatReplay) announce(t("chat_said", { name: shownName(msg.name, msg.seat), text: msg.text }));
  S.chatUnread = (S.chatUnread || 0) + 1;
  markChatSeen();
}

// The number of the last chat line this tab has shown in view (kept for the tab: a reload does not
// count the same lines again).
const chatSeenKey = () => `rummykit:chatseen:${S.code}`;
function chatSeen() { return Number(sessionStorage.getItem(chatSeenKey()) || 0); }

// Whether the chat's lines are on the screen: its box open and its log (or its field) in the viewport.
function chatInView() {
  if ($("#game").classList.contains("hidden") || !$("#chat-box").open || document.hidden) return false;
  const el = $("#chat-log").offsetHeight ? $("#chat-log") : $("#chat-box");
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.bottom > 0 && r.top < innerHeight - 20;
}

// Lines in view are seen: the count goes, and the last line's number is kept.
function markChatSeen() {
  if (S.chatUnread && chatInView()) {
    S.chatUnread = 0;
    const last = (S.chat || []).reduce((n, l) => Math.max(n, l.n), 0);
    try { sessionStorage.setItem(chatSeenKey(), String(Math.max(last, chatSeen()))); } catch { /* not kept */ }
  }
  renderChatJump();
}

function renderChatJump() {
  const b = $("#chat-jump"), n = S.chatUnread || 0;
  b.classList.toggle("hidden", !n);
  $("#chat-count").textContent = n ? String(n) : "";
  b.setAttribute("aria-label", `${t("chat")}: ${n === 1 ? t("chat_unread_1") : t("chat_unread", { n })}`);
}

// The Chat button: to the chat (opened), its lines in view; the keyboard goes to its log.
function jumpToChat() {
  $("#chat-box").open = true;
  $("#chat-box").scrollIntoView({ block: "end", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
  $("#chat-log").focus({ preventScroll: true });
  setTimeout(markChatSeen, 50);
}

function renderChat() {
  const ol = $("#chat-log"), hide = muted();
  ol.textContent = "";
  for (const line of S.chat || []) {
    if (hide.has(line.seat)) continue;
    const li = document.createElement("li");
    const who = document.createElement("b");
    who.textContent = shownName(line.name, line.seat) + ": ";
    li.append(who, document.createTextNode(line.text));
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
  $("#chat-form").classList.toggle("hidden", S.seat === null);
  // Watchers read the lines said while they watch: the players are told before they write.
  const watched = S.state && S.state.table.spectators > 0;
  $("#chat-input").placeholder = t(watched ? "chat_placeholder_watched" : "chat_placeholder");
  const box = $("#mutes");
  box.textContent = "";
  if (!S.state) return;
  S.state.table.seats.forEach((seat, i) => {
    if (i === S.seat || seat.kind !== "human") return;
    const b = document.createElement("button");
    b.type = "button"; b.className = "ghost mute"; b.dataset.seat = i;
    const on = hide.has(i);
    b.textContent = t(on ? "unmute" : "mute", { name: shownName(seat.name, i) });
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.addEventListener("click", () => {
      const set = muted();
      if (set.has(i)) set.delete(i); else set.add(i);
      localStorage.setItem(mutedKey(), JSON.stringify({ seats: [...set], at: Date.now() }));
      renderChat();
    });
    box.appendChild(b);
  });
}

// The turn timer of the person to move (the server replaces who does not move in time by a bot).
function renderTimer() {
  const st = S.state, el = $("#turn-timer");
  if (!st || !st.view || st.table.status !== "playing" || st.match.is_over || !st.table.turn_seconds) { el.textContent = ""; S.clockLeft = null; return; }
  const who = st.match.to_move, seat = st.table.seats[who];
  // No clock for a bot, a person away, or one in the break after a hand (it starts when it ends).
  const resting = (st.rest || []).includes(who);
  if (!seat || seat.kind !== "human" || seat.away || !seat.connected || resting) { el.textContent = ""; S.timerFor = null; S.clockLeft = null; return; }
  if (S.timerFor !== st.version) {  // the server says what is left: a page opened mid-turn counts that
    setTimerLeft(typeof st.turn_left === "number" ? st.turn_left : st.table.turn_seconds);
  }
  const left = Math.max(0, Math.ceil(st.table.turn_seconds - (Date.now() - S.timerStart) / 1000));
  // Your own clock near its end says what comes then, as the spoken warning does (a bot plays for you).
  const own = S.seat !== null && who === S.seat && left <= 15;
  el.textContent = own ? t("timer_own", { s: left }) : t("timer", { name: seatName(who), s: left });
  el.classList.toggle("urgent", left <= 15);
  warnClock(st, who, left);
}

// Your own clock running low, said (the clock is shown only, aria-live off: read every second it said
// nothing, and the turn ran out unheard until "A bot plays for you"): at 30 seconds where a turn has a
// minute or more, and at 10, the last at once, past what is still queued to be said.
// Each as the clock passes it (a page opened with less left says the nearest once).
function warnClock(st, who, left) {
  if (S.seat === null || who !== S.seat) { S.clockLeft = null; return; }
  const before = S.clockLeft ?? null;
  S.clockLeft = left;
  const due = CLOCK_WARNINGS.filter((w) => left <= w && (before === null || before > w) && st.table.turn_seconds >= 2 * w);
  if (!due.length) return;
  const w = Math.min(...due);
  const text = t("clock_warning", { s: left });
  if (w === Math.min(...CLOCK_WARNINGS)) announceNow(text); else announce(text);
}
const CLOCK_WARNINGS = [30, 10];

// Said at once (the assertive #announce-now): what cannot wait behind the moves still being read.
function announceNow(text) {
  const el = $("#announce-now");
  el.textContent = "";
  setTimeout(() => { el.textContent = text; }, 50);
}

function setTimerLeft(left) {
  S.timerFor = S.state.version;
  S.timerStart = Date.now() - (S.state.table.turn_seconds - left) * 1000;
}

// A phone that slept (the screen off, the page frozen) gets the states sent meanwhile late, each with
// the clock as it was when it was sent: woken, the page asks what is left now (the pong says it).
document.addEventListener("visibilitychange", () => {
  if (document.hidden) return;
  if (S.ws && S.ws.readyState === WebSocket.OPEN) send({ type: "ping" });
  document.title = S.baseTitle || document.title;
});

// The Moves panel: every move of the current hand in order, the newest in view (the state's few until
// the whole list has arrived).
function renderLog() {
  const st = S.state, ol = $("#log");
  const hand = st.match.hands_dealt;
  const entries = S.handMoves || st.log.filter((e) => e.hand === hand || (e.index < 0 && hand === 1));
  $("#log-title").textContent = t("hand_moves", { n: hand });
  ol.innerHTML = "";
  for (const e of entries) {
    const li = document.createElement("li");
    writeSpoken(li, logLine(e));  // its cards in words for a screen reader, as the live lines say them
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
  if (!entries.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("no_moves_yet");
    ol.appendChild(li);
  }
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
}

// A name in a score sheet's column, word by word: a narrow sheet wraps it between its words, and a word
// wider than the column is cut with an ellipsis (style.css), never broken inside (the whole name is
// the cell's title and its text, which a screen reader reads). A name isolated (shownName) keeps its
// words in a <bdi>: its isolates would otherwise be split between two words' boxes.
function nameWords(name) {
  const words = (text) => text.trim().split(/\s+/).filter(Boolean)
    .map((w) => `<span class="name-word">${escapeHtml(w)}</span>`).join(" ");
  return String(name).split(/\u2068([^\u2069]*)\u2069/).map((part, k) => (k % 2 ? `<bdi>${words(part)}</bdi>` : words(part)))
    .filter(Boolean).join(" ");
}

// ---------------------------------------------------------------------------------------------
// Round end, Viennese showdown, match end

const smallCards = (cards) => cards.map((c) => `<span class="card small">${Cards.svg(c)}</span>`).join("");

// A rubber's chips that moved with the hand just ended, per seat: its knock money (the server's, for
// the hand), and at the rubber's end each winner's share of the pot. The difference of the chips
// before and after, where the server does not say it, also held the next hand's ante (a per-hand
// ante is paid as that hand is dealt, right after this one ended).
function handChipsMoved(m, before) {
  const last = m.hands[m.hands.length - 1];
  if (!last || !last.knock_money) return m.chips.map((c, i) => c - before.chips[i]);
  const pot = m.is_over && m.pot_shares ? m.pot_shares : [];
  return last.knock_money.map((c, i) => c + (pot[i] || 0));
}

function resultHtml(round) {
  const chips = S.state.match.is_rubber ? S.chipsMoved || null : null;
  const r = round.result;
  if (!r) return "";
  const n = S.state.table.players;
  // Gin (RULES.md §5.4): the server says whether the knocker went gin and who undercut them (the
  // result's winner is the knocker either way); each player's melds as laid, then their deadwood.
  const gin = S.state.table.family === "gin";
  let head, best = r.winner;
  if (!r.scored && r.takes_bound) head = escapeHtml(t("takes_dead", { n: r.takes_bound }));
  else if (!r.scored) head = t({ wall: "wall_dead", drawn: "drawn_dead" }[r.termination] || "stock_exhausted");
  else {
    const how = r.gin ? t(r.big_gin ? "big_gin_call" : "gin_call") : { went_out: t("went_out"), rummy: t("rummy_call"), knock: t("knock_call") }[r.termination] || r.termination;
    head = `${escapeHtml(seatName(r.winner))} ${how}`;
    if (r.undercut_by !== null && r.undercut_by !== undefined) {
      best = r.undercut_by;
      head += ` — ${escapeHtml(t("undercut_by", { name: seatName(best) }))}`;
    }
  }
  // The factor named: a Hand-Rommé (all cards laid in one turn) or a Rummy call of the knock games.
  // In gin the factor is Oklahoma's spade upcard, which the score's arithmetic below names.
  const factor = r.multiplier > 1 && !gin ? ` (${t(S.state.table.knock_game ? "rummy" : "hand_rummy")} ×${r.multiplier})` : "";
  let html = `<p class="result-head">${head}${escapeHtml(factor)}</p>`;
  if (gin && r.scored && r.winner !== null) html += `<p class="gin-sum">${escapeHtml(ginSum(r))}</p>`;
  html += '<div class="showdown" role="list">';  // a screen reader says how many seats, and steps by seat
  for (let i = 0; i < n; i++) {
    if (!round.in_play.includes(i)) continue;
    if (sitsOut(round, i)) {  // no result of its own: neither 0 points nor the winner's empty hand
      html += `<div class="showdown-seat out" role="listitem"><div class="sd-name">${escapeHtml(seatName(i))}: <i>${t("sits_out")}</i></div></div>`;
      continue;
    }
    const arr = r.arrangements && r.arrangements[i];
    const dw = gin && r.scored ? ` · <span class="sd-dw">${t("deadwood")} ${r.hand_values[i]}</span>` : "";
    // A rubber: the chips each seat won or paid with this hand (knock money), and what it holds now.
    const held = S.state.match.is_rubber ? S.state.match.chips[i] : null;
    const moved = chips && chips[i] ? `${chips[i] > 0 ? "+" : ""}${chips[i]}, ` : "";
    const chipText = held === null ? "" : ` · <span class="sd-chips">${t("chips")}: ${moved}${t("now")} ${held}</span>`;
    // A game to a target score adds up the points won (a lost hand takes none away): each seat's share
    // of those, as its score sheet shows it (gin's loser 0, not the knocker's points with a minus).
    const p = targetScore(S.state) !== null && r.gains ? r.gains[i] : r.points[i];
    const points = r.scored ? `<b>${p}</b> ${t(Math.abs(p) === 1 ? "point" : "points")}` : t("not_scored");
    html += `<div class="showdown-seat${best === i ? " win" : ""}" role="listitem"><div class="sd-name">${escapeHtml(seatName(i))}: ${points}${dw}${chipText}</div><div class="sd-cards">`;
    // Each player's melds, then the rest: Viennese arrangements; in gin the melds laid (the
    // knocker's with the cards laid off on them) and the deadwood.
    // The other games: the hand's final table, each meld under the player who laid it (cards laid off
    // on it included), so the table as the hand ended is seen while the next hand is dealt behind.
    const melds = arr ? arr.meld_cards : (round.melds || []).filter((m) => m.owner === i).map((m) => m.cards);
    const rest = arr ? arr.deadwood_cards : round.revealed[i] || [];
    // Said in words, melds apart from the cards left over (a screen reader heard one run of cards).
    const words = (cards) => cards.map(Cards.name).join(", ");
    const said = [melds.length ? `${t("sr_melds")}: ${melds.map(words).join("; ")}` : "",
      rest.length ? `${t("sr_left")}: ${words(rest)}` : ""].filter(Boolean).join(". ");
    if (said) html += `<span class="sr-only">${escapeHtml(said)}</span>`;
    html += '<span class="sd-pictures" aria-hidden="true">';
    for (const meld of melds) html += `<span class="sd-meld">${smallCards(meld)}</span>`;
    html += arr || melds.length ? `<span class="sd-dead">${smallCards(rest)}</span>` : smallCards(rest);
    html += "</span>";
    if (arr) html += ` <span class="sd-dw">${t("deadwood")} ${arr.deadwood}</span>`;
    html += "</div></div>";
  }
  return html + "</div>";
}

// How a gin hand's points came about, as the apps show it: "Bot 2 scores 10 − 1 + 25 (undercut) = 34".
// The scorer is the knocker, or the defender who undercut; the bonus is what the points hold beyond
// the difference of the deadwood (gin, big gin or undercut: the result names which). A spade
// upcard under Oklahoma doubles it all: "(10 − 1 + 25) × 2 (spade upcard) = 68".
function ginSum(r) {
  const undercut = r.undercut_by !== null && r.undercut_by !== undefined;
  const scorer = undercut ? r.undercut_by : r.winner;
  const other = scorer === 0 ? 1 : 0;  // gin is played by two
  const factor = r.multiplier > 1 ? r.multiplier : 1;
  const diff = r.hand_values[other] - r.hand_values[scorer], bonus = r.points[scorer] / factor - diff;
  const kind = undercut ? "undercut" : r.big_gin ? "big_gin" : "gin";
  const plus = bonus > 0 ? ` + ${bonus} (${t("bonus_" + kind)})` : "";
  let terms = `${r.hand_values[other]} − ${r.hand_values[scorer]}${plus}`;
  if (factor > 1) terms = `(${terms}) × ${factor} (${t("spade_upcard")})`;
  return t("gin_sum", { name: seatName(scorer), terms, n: r.points[scorer] });
}

function showOverlay(html, button, onClick, first) {
  // A note of what a bot played for the player (S.stoodInNote), waiting to be said: said here, under
  // the heading and with the dialog's description, rather than behind the dialog.
  const note = S.stoodInNote;
  S.stoodInNote = null;
  if (note) html = html.replace("</h2>", `</h2><p class="stood-in-note">${spokenHtml(note)}</p>`);
  $("#overlay-body").innerHTML = html;
  // The dialog is named by its heading ("Spiel beendet", "Partie beendet"), in the page's language.
  const heading = $("#overlay-body h2");
  if (heading) $("#overlay").setAttribute("aria-labelledby", heading.id); else $("#overlay").removeAttribute("aria-labelledby");
  // And described by who won and how the points came about, read as the dialog opens.
  const said = describedText([...$("#overlay-body").querySelectorAll(".stood-in-note, .winners, .pot-won, .result-head, .gin-sum")]);
  if (said) {
    const p = document.createElement("p");
    p.id = "overlay-said"; p.hidden = true; p.textContent = said;
    $("#overlay-body").appendChild(p);
    $("#overlay").setAttribute("aria-describedby", p.id);
  } else $("#overlay").removeAttribute("aria-describedby");
  const b = $("#btn-overlay");
  // The dialog is modal: the keyboard goes to its button (Enter goes on), and back where it was after;
  // where that is gone (the hand was drawn anew meanwhile), to the table (the hand's current card).
  const before = document.activeElement;
  b.textContent = button;
  b.onclick = () => {
    $("#overlay").classList.add("hidden");
    syncModal();
    if (usable(before)) before.focus(); else focusTable();
    onClick && onClick();
  };
  $("#overlay").classList.remove("hidden");
  syncModal();
  // Focused without scrolling: a dialog taller than the screen starts at its heading (the match's
  // end, with the last hand and the totals, scrolled to its button and hid "Match over"). Or what the
  // dialog starts at (first, a selector): focused after the button, it cut off "New table, button".
  const start = first ? $(first) : b;
  if (first) start.tabIndex = -1;
  start.focus({ preventScroll: true });
  $("#overlay .overlay-box").scrollTop = 0;
}

// The result's lines as one description, each name said once: the lines were read one after another,
// and the winner came two or three times ("Winner: Anna · Anna knocked · Anna scores 22 − 10 = 12"). A
// line that begins with a name an earlier line said goes on without it ("Winner: Anna, knocked, scores
// 22 − 10 = 12"); the lines stay as they are on the screen.
function describedText(lines) {
  const names = S.state ? S.state.table.seats.map((_, i) => seatName(i)) : [];
  let text = "";
  for (const el of lines) {
    const copy = el.cloneNode(true);
    copy.querySelectorAll("[aria-hidden=true]").forEach((e) => e.remove());
    const line = copy.textContent.trim();
    if (!line) continue;
    const known = names.filter((n) => line.startsWith(n + " ") && text.includes(n)).sort((a, b) => b.length - a.length)[0];
    if (known) text += `, ${line.slice(known.length + 1)}`;
    else text += (text ? ". " : "") + line;
  }
  return text;
}

// The hand's last moves: from the knock (or Rummy) on, else the last three. After a knock the others
// still move (and discard) before the showdown; those moves are shown here, not lost.
function lastMovesHtml(state) {
  const log = state.log.filter((e) => e.index >= 0);
  let from = log.map((e) => /^(knock|rummy)\b/.test(e.action)).lastIndexOf(true);
  // A gin knock is followed by its discard, the melds laid one by one, passes and lay-offs: its recap
  // runs longer than a Viennese knock's extra turns.
  const most = state.table.family === "gin" ? 11 : 8;
  if (from < 0 || log.length - from > most) from = log.length;
  from = Math.max(0, Math.min(from, log.length - 3));
  const items = log.slice(from).map((e) => `<li>${spokenHtml(logLine(e))}</li>`).join("");
  return items ? `<h3>${t("last_moves")}</h3><ol class="last-moves">${items}</ol>` : "";
}

function showRoundOver(state) {
  if (state.match.is_over) return;  // the match-end screen shows the last hand too
  // A hand that ended unscored (the stock ran out, a dead hand) had no showdown.
  const scored = state.last_round && state.last_round.result && state.last_round.result.scored;
  const title = state.table.knock_game && scored ? t("showdown") : t("round_over");
  // unscored_hand = redeal: the hand that just ended unscored is dealt again by the same dealer.
  const hands = state.match.hands || [], last = hands[hands.length - 1];
  const again = last && last.dealt_again ? `<p class="redeal-note">${t("redeal_note")}</p>` : "";
  const html = `<h2 id="round-over">${title}</h2>${again}${resultHtml(state.last_round)}${lastMovesHtml(state)}`;
  clearTimeout(S.resultTimer);
  if (S.seat === null) {
    // A watcher has no turn to wait for, and nobody may be at the screen to close the result (a stream):
    // it closes itself after a while, and play goes on in view.
    showOverlay(html, t("continue"), () => { clearTimeout(S.resultTimer); announceHand(); });
    S.resultTimer = setTimeout(() => { if (!$("#overlay").classList.contains("hidden") && $("#round-over")) $("#btn-overlay").click(); }, WATCHER_RESULT_MS);
    return;
  }
  showOverlay(html, t("continue"), () => { send({ type: "ready" }); announceHand(); });  // the break ends: our turn clock may run
}
const WATCHER_RESULT_MS = 15000;  // how long a watcher's page shows a hand's result

// A new hand, said once: when it is dealt, or, dealt behind a hand's result (or after a buy-back decided
// there), once that dialog is closed. A screen reader heard the last move of the hand before ("discards
// the 6 of spades") and nothing of the new one. A seat that is out or sits the hand out hears no card count.
function announceHand() {
  const st = S.state, v = st && st.view;
  if (!v || v.phase === "over" || st.match.is_over || st.match.hands_dealt <= (S.saidHand || 0)) return;
  if (openDialogs().some((d) => d.id === "overlay")) return;  // said when the result is closed
  S.saidHand = st.match.hands_dealt;
  const playing = S.seat !== null && v.hand && v.hand.length && !sitsOut(v, S.seat);
  const cards = playing ? ` · ${t("you_hold", { n: v.hand.length })}` : "";
  announce(`${t("hand_n", { n: st.match.hands_dealt })} · ${t("dealer")}: ${seatName(v.dealer)}${cards}`);
}

function showMatchOver(state) {
  S.overlayFor = "match";
  const m = state.match;
  const names = m.winners.map((w) => escapeHtml(seatName(w))).join(", ");
  const last = state.view.result ? state.view : state.last_round;
  // A tie broken by match_tiebreak says by what.
  const tie = m.tiebreak ? ` (${escapeHtml(t("tie_" + m.tiebreak))})` : "";
  let html = `<h2 id="match-over">${t("match_over")}</h2><p class="winners">${m.winners.length > 1 ? t("winners") : t("winner")}: <b>${names}</b>${tie}</p>`;
  // A rubber's pot goes to its winner: said with its amount (the result's chips lump it with the knock money).
  if (m.is_rubber && m.pot_won) html += `<p class="pot-won">${escapeHtml(t(m.winners.length > 1 ? "pot_shared" : "pot_won", { n: m.pot_won }))}</p>`;
  html += last ? resultHtml(last) + lastMovesHtml(state) : "";
  // The match's totals, labelled like the score sheet's last row.
  const totals = matchTotals(state);
  html += `<table class="scores final-scores"><tr><th></th>${totals.map((_, i) => `<th title="${escapeHtml(seatName(i))}">${nameWords(seatName(i))}</th>`).join("")}</tr>`;
  html += bonusRow(m);
  html += `<tr class="total"><td>${t("total")}</td>${totals.map((p) => `<td>${p}</td>`).join("")}</tr>`;
  html += `${penaltyRows(state)}</table>${marginLine(state)}`;
  // The bonuses came after the game was won (they change the margin, never the winner), so a winner
  // may end with the smaller total: said, not left to look like a mistake.
  const target = targetScore(state);
  if ((m.bonuses || []).some((b) => b) && target !== null) html += `<p class="bonus-note">${escapeHtml(t("bonus_note", { n: target }))}</p>`;
  // The whole score sheet, every hand to the winner's total, one step away (a disclosure the keyboard
  // reaches and a screen reader says, "collapsed"): the totals alone left the match's course to memory.
  // Counted by their numbers: a hand dealt again (unscored_hand = redeal) shares its number with the
  // deal that replaced it, and the sheet's rows go up to the last number.
  const played = new Set((m.hands || []).map((h) => h.hand)).size;
  if (played) {
    const label = t(played === 1 ? "final_sheet_one" : "final_sheet", { n: played });
    html += `<details class="final-sheet"><summary>${escapeHtml(label)}</summary>`
      + `<div class="final-sheet-body" role="region" tabindex="0" aria-label="${escapeHtml(label)}">${sheetHtml(state, m.winners)}</div></details>`;
  }
  // The match's record (every deal and move) is handed out now that nobody plays it any more.
  const code = encodeURIComponent(S.code);
  html += `<p class="record-link"><a href="/api/tables/${code}/record" download="rummykit-${code}.json">${t("record_link")}</a> <span class="note">(${t("record_note")})</span></p>`;
  if (state.table.organised) { if (S.seat !== null) html += `<p class="rematch-note">${t("rematch_organiser")}</p>`; }
  else if (S.seat === 0) html += `<p><button type="button" id="btn-rematch">${t("rematch")}</button></p>`;
  else if (S.seat !== null) html += `<p class="rematch-note">${t("rematch_wait")}</p>`;
  // The keyboard starts at the heading, not on "New table": an Enter pressed out of habit (as after
  // each hand's Continue) left the match's result unread. Tab goes on to the choices.
  showOverlay(html, t("new_table"), () => { location.href = "/"; }, "#match-over");
  const b = $("#btn-rematch");
  if (b) b.addEventListener("click", requestRematch);
  $("#overlay .record-link a").addEventListener("click", downloadRecord);
}

// The record is fetched with the seat's token where there is one (a network whose lookups of codes
// a stranger spent still gets its own table's), then saved as the link would have saved it.
async function downloadRecord(event) {
  const token = S.token || S.heldToken;
  if (!token) return;  // a watcher: the link itself
  event.preventDefault();
  const link = event.currentTarget;
  try {
    const res = await fetch(link.getAttribute("href"), { headers: seatHeaders(token) });
    if (!res.ok) {
      const data = await res.json().catch(() => ({}));
      flash(inLang(data.texts, typeof data.detail === "string" ? data.detail : String(res.status)) + retryNote(res));
      return;
    }
    const saved = document.createElement("a");
    saved.href = URL.createObjectURL(await res.blob());
    saved.download = link.getAttribute("download");
    document.body.appendChild(saved);
    saved.click();
    saved.remove();
    setTimeout(() => URL.revokeObjectURL(saved.href), 1000);
  } catch { flash(t("connection_lost")); }
}

// The host's rematch: a new table with the same seats and rules. Asked over the websocket, which
// reaches the server process that plays the table; everybody connected, the host too, is sent their
// seat there ("rematch"). The button is pressed once: a second ask would get the same table anyway.
function requestRematch() {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) { flash(t("connection_lost")); return; }  // ask again when back
  const b = $("#btn-rematch");
  if (b) b.disabled = true;
  S.rematchAsked = true;
  send({ type: "rematch" });
}

function onRematch(msg) {
  // Told on opening a finished table whose rematch is open: shown, not followed (the old table may
  // be opened for its final scores); a seat left open there is joined by the code.
  if (msg.code === S.code) return;  // on the way there already (asked again, and told on connecting)
  // Our seat there given while our link was dead (the message lost), or kept for us by the organiser
  // while we were away (the class plays on): taken now, as it would have been.
  const organised = !!(S.state && S.state.table.organised);
  if (msg.offer && msg.token && (S.back || organised)) { goToRematch({ code: msg.code, token: msg.token, seat: msg.seat }); return; }
  if (msg.offer && msg.token) saveGrant({ code: msg.code, token: msg.token, seat: msg.seat });
  if (msg.offer) { flash(t(organised ? "rematch_offer_organiser" : "rematch_offer", { code: msg.code })); return; }
  if (msg.token) goToRematch({ code: msg.code, token: msg.token, seat: msg.seat });
  else if (S.seat === null) goToRematch({ code: msg.code });
}

function goToRematch(grant) {
  S.rematchAsked = false;
  if (grant.token) saveGrant(grant);
  $("#overlay").classList.add("hidden");
  S.overlayFor = null; S.seenHands = null; S.state = null; S.groups = []; S.selected = [];
  openTable(grant.code, { watch: !grant.token });
}

// ---------------------------------------------------------------------------------------------
// Interaction

function toggleSelect(i) {
  clearError($("#game-error"));
  const k = S.selected.indexOf(i);
  if (k >= 0) S.selected.splice(k, 1); else S.selected.push(i);
  render();
  evaluateSelection();
}

function selectedCards() {
  const hand = shownHand();
  return S.selected.map((i) => hand[i]);
}

// The places in the hand shown now of `cards` (picked before the hand changed), in the order they were
// picked; a card no longer held is left out (two copies of a card: each place is taken once). `lost`:
// how many copies of each card left the hand meantime, taken from the cards picked first. A picked card
// laid off (a click on a meld, its digit) leaves the selection though its twin of the other pack is
// still held: the twin was picked in its place, and the next card picked made two (a discard refused).
function pickAgain(cards, lost = {}) {
  const hand = shownHand(), taken = new Set(), out = [], gone = { ...lost };
  for (const c of cards) {
    if (gone[c] > 0) { gone[c] -= 1; continue; }
    const i = hand.findIndex((h, k) => h === c && !taken.has(k));
    if (i >= 0) { taken.add(i); out.push(i); }
  }
  return out;
}

// How many copies of each card the hand of view `before` held that the hand of view `after` does not.
function handLost(before, after) {
  const lost = countCards((before && before.hand) || []);
  for (const c of (after && after.hand) || []) if (lost[c]) lost[c] -= 1;
  return lost;
}

// The cards picked made a group of the tray (G, "New meld"), said; `laying`: made by "Lay melds", which
// lays it at once (its move is said).
function groupSelection(laying = false) {
  const cards = selectedCards();
  if (!cards.length) { flash(t("select_cards"), true); return; }
  S.groups.push(cards);
  S.selected = [];
  evaluate();
  render();
  if (!laying) sayGroup(S.groups.length - 1);
}

// A group of the tray made or grown, said (the cards left the hand under the keyboard, and the total
// said after it may not change: three aces picked were worth 33 before they were a group too).
function sayGroup(i) {
  announce(`${t("group_n", { n: i + 1 })}: ${S.groups[i].map(Cards.name).join(", ")}`);
}

function playMelds() {
  if (S.selected.length >= 3) groupSelection(true);
  if (!S.groups.length) { flash(t("select_cards"), true); return; }
  const current = currentEvaluation();
  const ev = current ? current.melds : null;
  const texts = S.groups.map((g, i) => (ev && ev[i].legal ? ev[i].play : g.join(" ")));
  const v = S.state.view;
  const verb = v.opened[S.seat] ? "meld" : "open";
  act(`${verb} ${texts.join(" | ")}`);
}

function discardSelected(verb = "discard") {
  const cards = selectedCards();
  if (cards.length !== 1) { flash(t("select_one"), true); return; }
  if (verb === "discard") discardCard(cards[0]); else act(`${verb} ${cards[0]}`);
}

// A discard ends the turn, so melds composed in the tray are not left behind: ready ones are laid
// first and the card goes once the table has them (as at a real table, where what a player put down
// before discarding stays down); melds that cannot be laid stop the discard and say why.
function discardCard(card, confirmed = false) {
  if (!confirmed && card === "JK" && jokerAsks()) { confirmJoker(); return; }
  if (!S.groups.length || S.state.table.knock_game || !myTurn()) { act(`discard ${card}`); return; }
  if (!meldsReady()) { flash(trayRefusal()); return; }
  S.discardAfter = { card, version: S.state.version + 1 };
  playMelds();
}

// Discarding a joker asks first, unless it is the hand's last card (going out): a joker stands for
// any card, and one thrown by a slip of the mouse or a key is a gift to the next player. The rules
// allow it (where they do not, the server refuses it anyway), so the player decides.
function jokerAsks() {
  if (!myTurn() || !legal().includes("discard JK")) return false;
  const inTray = S.groups.reduce((n, g) => n + g.length, 0);
  return S.state.view.hand.length - inTray > 1;
}

function confirmJoker() {
  S.jokerAsked = S.state.version;
  openDialog("#joker-dialog", () => $("#btn-joker-keep").focus());
}

// Confirmed in the turn it was asked in only: a dialog left open while the clock handed the turn to a
// bot is closed by the next state (onState), and nothing is discarded later.
function discardJoker() {
  closeDialog("#joker-dialog");
  const asked = S.jokerAsked;
  S.jokerAsked = null;
  if (S.state && S.state.version === asked && legal().includes("discard JK")) discardCard("JK", true);
}

// L lays the tray's melds and the cards picked (a meld in the making, pendingGroup); where they cannot
// be laid yet (a group that is no meld, an opening below the minimum) it says why instead of doing
// nothing, the cards picked alone too.
function layKey() {
  const b = $("#btn-play");
  if (b.classList.contains("hidden")) return;
  if (!b.disabled) { playMelds(); return; }
  if ((S.groups.length || pendingGroup()) && myTurn()) flash(trayRefusal("lay"));
}

// Why the composed melds cannot be laid: a group that is no meld, or an opening below the minimum;
// said for laying them (L) or for the discard they stop.
function trayRefusal(doing = "discard") {
  const ev = currentEvaluation(), lay = doing === "lay" ? "_lay" : "";
  if (ev && ev.melds.every((m) => m.legal)) return t("tray_short" + lay, { sum: ev.total, min: S.state.table.opening_min });
  return t("tray_bad" + lay);
}

// The discard waiting for the tray's melds: sent once the state after them arrives (the melds were
// laid and the card is still ours to discard), dropped when anything else happens.
function discardAfterMelds(state) {
  const pending = S.discardAfter;
  S.discardAfter = null;
  if (!pending || state.version !== pending.version || state.you !== S.seat) return;
  if (state.legal.includes(`discard ${pending.card}`)) act(`discard ${pending.card}`);
}

// Knock: with the selected card (Viennese; gin in one step), or gin's knock alone when nothing is
// selected (at the wall, with the upcard).
function knockSelected() {
  if (selectedCards().length === 0 && legal().includes("knock")) { act("knock"); return; }
  discardSelected("knock");
}

// The selected card put on table meld n (a click, a drop, Enter or its digit); `onJoker`: put on a joker
// of that meld itself (a click or drop on the joker's card); `byKey`: Enter or the digit, after which
// the moves offered to choose from take the focus (the keyboard's player is not left on the hand).
function layOffOn(n, onJoker = false, byKey = false) {
  const cards = selectedCards();
  if (cards.length !== 1) { flash(t("select_one"), true); return; }
  // Gin lays a card off onto the knocker's melds as a whole ("layoff 5H"): the engine finds the meld.
  if (legal().includes(`layoff ${cards[0]}`)) { act(`layoff ${cards[0]}`); return; }
  const layoff = layoffFor(cards[0], n);
  // The card a joker of that meld stands for may take the joker's place (with the joker melded at once);
  // the swaps are offered first among the possible moves. Where the card also lies off there (a set of
  // three with a joker takes a fourth suit), a click chose the lay-off unasked and the joker stayed on
  // the table: no exchange out of a set could be made. Put on the joker, the card offers the swaps;
  // put on the meld, the lay-off and the swaps, the player choosing.
  const swaps = legal().filter((a) => a.startsWith(`swap ${cards[0]} on ${n} `));
  if (swaps.length && (!layoff || onJoker)) {
    S.suggested = { version: S.state.version, actions: swaps };
    renderMoves();
    flash(t(layoff ? "swap_pick" : "swap_offer", { card: Cards.label(cards[0]), n }));
    if (byKey) focusSuggested();
    return;
  }
  if (swaps.length) {
    S.suggested = { version: S.state.version, actions: [layoff, ...swaps] };
    renderMoves();
    flash(t("layoff_or_swap", { card: Cards.label(cards[0]), n }));
    if (byKey) focusSuggested();
    return;
  }
  act(layoff || `layoff ${cards[0]} on ${n}`);
}

// The first of the moves just offered to choose from takes the focus.
function focusSuggested() {
  const first = document.querySelector("#moves .move-chip.suggested");
  if (first) first.focus();
}

// Whether an element under a click or a drop is a joker's card of a table meld.
const onJokerCard = (el) => { const card = el && el.closest ? el.closest(".meld .card") : null; return !!card && card.dataset.card === "JK"; };

function dropOn(target, index, under = null) {
  const hand = shownHand();
  const card = hand[index];
  if (card === undefined) return;
  // A card dragged to the pile leaves the cards picked: they are laid with the tray's melds before the
  // discard (a meld in the making, pendingGroup), and that card would go into the meld it was thrown
  // from, or stop the discard as a group that is no meld.
  if (target.dataset.drop === "discard") { S.selected = S.selected.filter((i) => i !== index); discardCard(card); return; }
  if (target.dataset.drop === "meld") { S.selected = [index]; layOffOn(Number(target.dataset.meld), onJokerCard(under)); return; }
  // Onto a group of the tray: into that group. Onto the tray beside the groups: into the last group while
  // it is still short of a meld (fewer than three cards), else a new group begins (as a card put down
  // apart on the table); a fourth card for a group of three is dropped on that group.
  if (target.dataset.drop === "group" || target.dataset.drop === "tray") {
    const last = S.groups[S.groups.length - 1];
    const into = target.dataset.drop === "group" ? S.groups[Number(target.dataset.group)] : last && last.length < 3 ? last : null;
    if (into) into.push(card); else S.groups.push([card]);
    S.selected = [];
    evaluate();
    render();
  }
}

// Presets: their names, options and house-rule controls (the lobby, and the table's header).
let presetsLoading = null;
function loadPresets() {
  presetsLoading = presetsLoading || api("/api/presets").then((data) => {
    S.presets = data;
    renderSiteLinks(data.site_links || {});
    renderPresets();
    if (S.state) render();
    return data;
  }, (err) => { presetsLoading = null; throw err; });
  return presetsLoading;
}

// The operator's imprint and privacy notice, where the server names them: links at the foot of the
// page, in the page's language (applyLanguage translates them).
function renderSiteLinks(links) {
  const foot = $("#site-links");
  const shown = ["imprint", "privacy"].filter((k) => typeof links[k] === "string" && /^(https?:\/\/|\/[^/])/.test(links[k]));
  foot.innerHTML = shown.map((k) => `<a href="${escapeHtml(links[k])}" data-i18n="${k}" rel="noopener">${t(k)}</a>`).join(" · ");
  foot.classList.toggle("hidden", !shown.length);
}

async function loadLobby() {
  const name = document.querySelector("#create-form input[name=name]");
  if (name && !name.value) name.value = localStorage.getItem("rummykit:name") || "";
  try {
    await loadPresets();
    keepLobbyErrorInView();
    S.tables = (await api("/api/tables")).tables;
    renderTableList();
    await loadMyTables();
    keepLobbyErrorInView();
  } catch (err) { S.lobbyForm = "join"; showError(err.message); }
}

// The lobby grows above an error shown before its parts arrived (on a phone the create form stands
// above the join panel): the error is brought back where the user looks as soon as each part is drawn.
function keepLobbyErrorInView() {
  const shown = document.querySelector("#lobby .error-box:not(.hidden)");
  if (shown) shown.scrollIntoView({ block: "center" });
}

// The seats this browser holds (grants kept in localStorage by saveGrant), in the storage's order.
const MY_TABLES = 8;  // at most this many are looked up per lobby load (each is one request)
const FINISHED_KEPT_MS = 24 * 3600 * 1000;  // a finished table's grant (for its rematch), then forgotten
function myGrants() {
  const out = [], gone = [];
  const keys = Array.from({ length: localStorage.length }, (_, k) => localStorage.key(k) || "");
  for (const key of keys) {
    // What a table left behind (hand order, melds, mutes) once its grant is gone; a watcher's mutes
    // (no grant) stay a day after they last changed.
    const kept = /^rummykit:(order|groups|muted):([A-Z0-9]{4,8})$/.exec(key);
    if (kept && localStorage.getItem("rummykit:" + kept[2]) === null && !mutesKept(kept[1], key)) gone.push(kept[2]);
    const m = /^rummykit:([A-Z0-9]{4,8})$/.exec(key);
    if (!m) continue;
    try {
      const grant = JSON.parse(localStorage.getItem(key));
      // A finished table's grant, and a seat left, are kept a day (the rematch; taking the seat back),
      // then forgotten with the token (a seat left before its time was kept is given a day from now).
      if (grant && grant.left === true) localStorage.setItem(key, JSON.stringify({ ...grant, left: Date.now() }));
      if (grant && ((grant.over && Date.now() - grant.over > FINISHED_KEPT_MS) || (typeof grant.left === "number" && Date.now() - grant.left > FINISHED_KEPT_MS))) forgetTable(m[1]);
      else if (grant && grant.token && !grant.left && !grant.over) out.push({ code: m[1], token: grant.token, seat: grant.seat });
    } catch { /* not a grant */ }
  }
  gone.forEach(forgetTable);
  return out.slice(0, MY_TABLES);
}

// Whether ``key`` holds a watcher's mutes changed within the day (kept though the browser has no seat).
function mutesKept(kind, key) {
  if (kind !== "muted") return false;
  try {
    const at = JSON.parse(localStorage.getItem(key)).at;
    return typeof at === "number" && Date.now() - at <= FINISHED_KEPT_MS;
  } catch { return false; }
}

// The organiser's overview (rummykit serve --organiser): the key comes in the address's fragment, which
// the browser never sends; it is kept for this tab only and sent in a header, never in an address.
const ORGANISER_KEY = "rummykit:organiser";
const ORGANISE_EVERY_MS = 5000;
const ORGANISE_HIDDEN_MS = 30000;  // how often a page behind another tab asks
const ORGANISE_MOST_AT_ONCE = 20;  // tables one press of the organiser's create button makes

function openOrganiser() {
  const shown = location.hash.match(/^#organise=([A-Za-z0-9_-]+)$/);
  if (shown) sessionStorage.setItem(ORGANISER_KEY, shown[1]);
  history.replaceState(null, "", "/?organise");  // the key leaves the address bar (the browser may keep it in its history)
  // The lobby's create form makes the organiser's tables: moved here, without a name (no seat is
  // taken) and with how many tables of the kind to make.
  S.organiser = true;
  $("#organise-make").appendChild($("#create-panel"));
  $("#create-panel h2").dataset.i18n = "organise_make_title";
  $("#btn-create").dataset.i18n = "organise_create";
  document.querySelector("#create-form input[name=name]").closest("label").classList.add("hidden");
  $("#create-form input[name=bots]").value = "0";  // a class's tables are for people; bots where asked
  $("#unlisted").checked = true;  // pupils join by the code on the board; strangers do not see them
  $("#organise-count").classList.remove("hidden");
  $("#organise-label").classList.remove("hidden");
  $("#organise-label-note").classList.remove("hidden");
  applyLanguage();
  showScreen("organise");
  loadOrganiser();
  // Every five seconds in view, every half minute behind another tab (slides shown to the class): the
  // server keeps the organiser's waiting tables while the page asks now and then.
  if (!S.organiseTimer) {
    S.organiseTimer = setInterval(() => {
      if (!document.hidden || Date.now() - (S.organisedAt || 0) >= ORGANISE_HIDDEN_MS) loadOrganiser();
    }, ORGANISE_EVERY_MS);
  }
}

async function organiserApi(path, post = false, body = undefined) {
  const key = sessionStorage.getItem(ORGANISER_KEY) || "";
  const headers = { Authorization: `Bearer ${key}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method: post ? "POST" : "GET", headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(inLang(data.texts, typeof data.detail === "string" ? data.detail : String(res.status)));
    err.status = res.status;
    throw err;
  }
  return data;
}

async function loadOrganiser() {
  S.organisedAt = Date.now();
  try {
    await loadPresets();  // the games' names
    S.organised = (await organiserApi("/api/organiser/tables")).tables;
    clearError($("#organise-error"));
    renderOrganiser();
  } catch (err) { showError(err.message, $("#organise-error")); }
}

// The organiser's tables for a class: how many of the kind the form describes are made, one after
// the other (a refusal stops there and says why; the tables made so far are listed).
async function createOrganised(form) {
  const body = createBody(form);
  delete body.name;
  body.listed = !form.elements.unlisted.checked;  // an organiser's table is by link only unless listed
  const count = Math.max(1, Math.min(Number(form.elements.count.value) || 1, ORGANISE_MOST_AT_ONCE));
  // Each table's label: as typed for one table, numbered for several ("Group 1", "Group 2"); none if empty.
  const label = form.elements.label.value.trim();
  const labelOf = (i) => (label && count > 1 ? `${label} ${i + 1}` : label);
  $("#btn-create").disabled = true;
  try {
    for (let i = 0; i < count; i++) await organiserApi("/api/organiser/tables", true, { ...body, label: labelOf(i) });
    clearError($("#create-error"));
    localStorage.setItem("rummykit:preset", body.preset);
    announce(t(count === 1 ? "organise_made_1" : "organise_made", { n: count }));
  } catch (err) { showError(err.message, $("#create-error")); }
  finally { $("#btn-create").disabled = false; }
  await loadOrganiser();
}

// Start one of the organiser's tables, or every waiting one somebody sits at.
async function startOrganised(code) {
  try {
    await organiserApi(`/api/organiser/tables/${encodeURIComponent(code)}/start`, true);
    await loadOrganiser();
  } catch (err) { showError(err.message, $("#organise-error")); }
}

// The rematch of every finished table of the organiser's that has none yet: the same game, seats and
// label; the players there now are moved to their seats, and a full table starts at once.
async function rematchAllOrganised() {
  try {
    const done = await organiserApi("/api/organiser/rematch", true);
    $("#organise-started").textContent = t("organise_rematched", { n: done.rematches.length });
    await loadOrganiser();
  } catch (err) { showError(err.message, $("#organise-error")); await loadOrganiser(); }
}

async function startAllOrganised() {
  try {
    const done = await organiserApi("/api/organiser/start", true);
    $("#organise-started").textContent = t("organise_started", { n: done.started.length, m: done.waiting.length });
    await loadOrganiser();
  } catch (err) { showError(err.message, $("#organise-error")); }
}

// The organiser takes back a seat a person took at a waiting table of theirs (the name seen there:
// a person who took the seat since is not removed in their place).
async function removeOrganised(code, seat, name) {
  try {
    await organiserApi(`/api/organiser/tables/${encodeURIComponent(code)}/remove`, true, { seat, name });
    await loadOrganiser();
  } catch (err) { showError(err.message, $("#organise-error")); }
}

// An organiser's table's code, large, and its link with a copy button: what the class is told.
function joinBox(code, label) {
  const box = document.createElement("div");
  box.className = "join-box";
  if (label) {  // the organiser's name for the table, above its code (text: never read as markup)
    const name = document.createElement("div");
    name.className = "table-label";
    name.textContent = label;
    box.appendChild(name);
  }
  const big = document.createElement("div");
  big.className = "big-code";
  big.textContent = code;
  // The whole link is shown (it is written on a board); a click selects it, the button copies it.
  const link = document.createElement("code");
  link.className = "join-link";
  link.textContent = `${location.origin}/?table=${code}`;
  link.setAttribute("aria-label", t("organise_link", { code }));
  const copy = document.createElement("button");
  copy.type = "button"; copy.className = "ghost small";
  copy.textContent = t("organise_copy");
  copy.addEventListener("click", async () => {
    getSelection().selectAllChildren(link);
    try { await navigator.clipboard.writeText(link.textContent); } catch { document.execCommand("copy"); }
    announce(t("organise_copied", { code }));
  });
  box.append(big, link, " ", copy);
  return box;
}

function renderOrganiser() {
  const rows = S.organised || [], body = $("#organise-tables tbody");
  $("#organise-empty").classList.toggle("hidden", rows.length > 0);
  $("#organise-tables").classList.toggle("hidden", rows.length === 0);
  $("#btn-start-all").classList.toggle("hidden", !rows.some((e) => e.organised && e.status === "waiting"));
  $("#btn-rematch-all").classList.toggle("hidden", !rows.some((e) => e.organised && e.status === "over" && !e.rematch));
  body.textContent = "";
  for (const e of rows) {
    const tr = document.createElement("tr");
    tr.className = ["waiting", "playing"].includes(e.status) ? "" : "ended";
    const cell = (text) => { const td = document.createElement("td"); td.textContent = text; tr.appendChild(td); return td; };
    const codeCell = cell(e.organised ? "" : e.code);
    codeCell.className = "code";
    if (e.organised) codeCell.appendChild(joinBox(e.code, e.label));
    cell(presetName(e.preset) + (e.listed ? "" : ` · ${t("organise_unlisted")}`));
    const hand = e.match.hands_dealt ? ` · ${t("hand_n", { n: e.match.hands_dealt })}` : "";
    const watched = e.spectators ? ` · ${t(e.spectators === 1 ? "one_watching" : "n_watching", { n: e.spectators })}` : "";
    const next = e.rematch ? ` · ${t("organise_rematch_at", { code: e.rematch })}` : "";  // where its players went
    cell(t(e.status) + (e.status === "playing" ? hand : "") + watched + next);
    // Each seat with the total its match is decided by (as the score sheet's "Total" row).
    const totals = e.status === "waiting" ? null : matchTotals({ table: e, match: e.match });
    const players = cell("");
    e.seats.forEach((seat, i) => {
      const span = document.createElement("span");
      const won = e.match.winners.includes(i);
      span.className = won ? "winner" : seat.kind === "human" && !seat.connected ? "away" : "";
      let text = seat.kind === "open" ? t("open_seat") : shownName(seat.name, i) + (seat.kind === "bot" ? ` (${t("bot")})` : "");
      if (totals) text += ` ${totals[i]}`;
      if (won) text += ` (${t("organise_won")})`;
      if (seat.kind === "human" && !seat.connected) text += ` (${t("away")})`;
      span.textContent = text;
      if (i) players.append(" · ");
      players.appendChild(span);
      if (e.organised && e.status === "waiting" && seat.kind === "human") {
        const b = document.createElement("button");
        b.type = "button"; b.className = "ghost small";
        b.textContent = "✕";
        b.title = t("remove_person_named", { name: shownName(seat.name, i) });
        b.setAttribute("aria-label", t("remove_person_named", { name: nameOf(seat.name, i) }));  // heard: as given
        b.addEventListener("click", () => removeOrganised(e.code, i, seat.name));
        players.append(" ", b);
      }
    });
    const actions = cell("");
    actions.className = "row-actions";
    const watch = document.createElement("a");
    watch.href = `/?table=${encodeURIComponent(e.code)}&watch=1`;
    watch.target = "_blank"; watch.rel = "noopener";
    watch.textContent = t("watch");
    actions.appendChild(watch);
    if (e.organised && e.status === "waiting") {
      const start = document.createElement("button");
      start.type = "button";
      start.textContent = t("organise_start");
      const nobody = !e.seats.some((s) => s.kind === "human");
      start.disabled = nobody;
      if (nobody) start.title = t("organise_nobody");
      start.addEventListener("click", () => startOrganised(e.code));
      actions.appendChild(start);
    }
    if (e.organised && ["waiting", "playing", "over"].includes(e.status)) {
      const rename = document.createElement("button");
      rename.type = "button"; rename.className = "ghost";
      rename.textContent = t("organise_relabel");
      rename.setAttribute("aria-label", t("organise_relabel_named", { code: e.code }));
      rename.addEventListener("click", () => relabelOrganised(e.code, e.label));
      actions.appendChild(rename);
    }
    if (["waiting", "playing"].includes(e.status)) {
      const close = document.createElement("button");
      close.type = "button"; close.className = "ghost";
      close.textContent = t("organise_close");
      close.addEventListener("click", () => closeOrganised(e.code));
      actions.appendChild(close);
    }
    body.appendChild(tr);
  }
}

// The organiser names one of their tables anew ("Group B"), or clears its label: the same check as
// at its making, by the server (a refusal is said in the page's language).
async function relabelOrganised(code, label) {
  const typed = window.prompt(t("organise_relabel_prompt", { code }), label || "");
  if (typed === null) return;
  try {
    const entry = await organiserApi(`/api/organiser/tables/${encodeURIComponent(code)}/label`, true, { label: typed });
    clearError($("#organise-error"));
    announce(entry.label ? t("organise_relabeled", { code, label: entry.label }) : t("organise_unlabeled", { code }));
    await loadOrganiser();
  } catch (err) { showError(err.message, $("#organise-error")); }
}

async function closeOrganised(code) {
  if (!window.confirm(t("organise_close_confirm", { code }))) return;
  try {
    await organiserApi(`/api/organiser/tables/${encodeURIComponent(code)}/close`, true);
    await loadOrganiser();
  } catch (err) { showError(err.message, $("#organise-error")); }
}

// "Your tables": the open tables this browser holds a seat at, to go back to or to leave (a table
// whose tab was closed stays open, counting against the tables one address may have open, until it
// expires; leaving a practice table closes it). Grants of tables no longer open are forgotten.
async function loadMyTables() {
  const mine = [];
  for (const g of myGrants()) {
    // Gone: the seat is forgotten. A table this server cannot play (409) keeps it: another process of a
    // rolling upgrade, or the release it came from, may play it.
    const lobby = await api(`/api/tables/${g.code}`, undefined, g.token).catch((err) => (err.status === 404 ? null : undefined));
    if (lobby === undefined) continue;  // not answered now (a limit, the network): ask again next time
    // A finished table keeps its grant (its rematch is offered to the seats); a closed or expired one,
    // or one the server no longer knows, is forgotten.
    if (lobby === null || ["closed", "expired"].includes(lobby.status)) { forgetTable(g.code); continue; }
    if (lobby.status === "over") {  // kept a day, not looked up again
      localStorage.setItem("rummykit:" + g.code, JSON.stringify({ token: g.token, seat: g.seat, left: false, over: Date.now() }));
      continue;
    }
    if (["waiting", "playing"].includes(lobby.status)) mine.push({ ...g, lobby });
  }
  S.myTables = mine;
  renderMyTables();
}

// Leave seat ``g.seat`` of table ``g.code``: a bot holds it while others play on (the token is kept
// to take it back), otherwise the table is forgotten. Refused: the server's error is thrown.
async function leaveSeat(g) {
  const lobby = await api(`/api/tables/${g.code}/leave`, { token: g.token });
  if (lobby.status === "playing") saveGrant({ code: g.code, token: g.token, seat: g.seat }, true); else forgetTable(g.code);
}

async function leaveFromLobby(g) {
  try { await leaveSeat(g); } catch (err) { S.lobbyForm = "join"; showError(err.message); return; }
  loadLobby();
}

// A table this browser has no seat at any more: its grant, hand order and composed melds go.
function forgetTable(code) {
  for (const key of [`rummykit:${code}`, `rummykit:order:${code}`, `rummykit:groups:${code}`, `rummykit:muted:${code}`]) localStorage.removeItem(key);
}

function renderMyTables() {
  const ul = $("#my-tables"), mine = S.myTables || [];
  ul.innerHTML = "";
  $("#my-tables-panel").classList.toggle("hidden", !mine.length);
  for (const g of mine) {
    const li = document.createElement("li");
    li.innerHTML = `<code>${escapeHtml(g.code)}</code> ${escapeHtml(presetName(g.lobby.preset))} · ${t(g.lobby.status)} `;
    const resume = document.createElement("button");
    resume.type = "button";
    resume.textContent = t("resume");
    resume.addEventListener("click", () => openTable(g.code));
    const leave = document.createElement("button");
    leave.type = "button"; leave.className = "ghost";
    leave.textContent = t("leave");
    leave.addEventListener("click", () => {
      S.leaving = g;  // asked first, as at the table (leaveTable does it)
      openDialog("#leave-dialog", () => {
        $("#leave-text").textContent = leaveText(g.lobby.status, g.lobby.seats, g.seat);
        $("#btn-leave-stay").focus();
      });
    });
    li.append(resume, " ", leave);
    ul.appendChild(li);
  }
}

// The tables the lobby lists (as last loaded), in the page's language: drawn again when it changes.
function renderTableList() {
  const ul = $("#table-list");
  ul.innerHTML = "";
  for (const tb of S.tables || []) {
    const li = document.createElement("li");
    const free = tb.seats.filter((s) => s.kind === "open").length;
    const seeded = tb.seeded ? ` · <strong class="seeded">⚠ ${t("seeded")}</strong>` : "";
    const hints = tb.hints === "everyone" ? ` · ${t("hints_all")}` : "";
    li.innerHTML = `<code>${tb.code}</code> ${escapeHtml(presetName(tb.preset))}${tb.rules.includes("(") ? " · " + t("house_rules") : ""}${hints} · ${t(tb.status)} · ${free} ${t("open_seat")}${seeded} `;
    const b = document.createElement("button");
    b.type = "button"; b.className = "ghost";
    b.textContent = free && tb.status === "waiting" ? t("join") : t("watch");
    b.addEventListener("click", () => (free && tb.status === "waiting" ? startJoin(tb.code) : openTable(tb.code, { watch: true })));
    li.appendChild(b);
    ul.appendChild(li);
  }
}

function parseOverrides(text) {
  const out = {};
  for (const line of text.split(/[\n,;]/)) {
    const [k, ...rest] = line.split("=");
    if (!k.trim() || !rest.length) continue;
    const raw = rest.join("=").trim();
    out[k.trim()] = /^-?\d+$/.test(raw) ? Number(raw) : raw === "true" ? true : raw === "false" ? false : raw;
  }
  return out;
}

// The create request of the form (the lobby's, or the organiser's page's, where it is moved).
function createBody(form) {
  const f = new FormData(form);
  const seats = Number(f.get("seats"));
  const bots = Math.min(Number(f.get("bots")), seats - 1);
  return {
    name: f.get("name") || "", preset: f.get("preset"), seats,
    bots: Array.from({ length: bots }, () => (botHasLevels() ? { kind: f.get("bot_kind"), level: f.get("bot_level") } : { kind: f.get("bot_kind") })),
    overrides: { ...houseOverrides(), ...parseOverrides(f.get("overrides") || "") },
    hints: f.get("hints_everyone") ? "everyone" : "practice",
    ...(f.get("unlisted") ? { listed: false } : {}),  // else the server's default: listed, unless practice
  };
}

async function createTable(form) {
  if (S.organiser) { createOrganised(form); return; }
  const body = createBody(form);
  try {
    const grant = await api("/api/tables", body);
    clearError($("#create-error"));
    localStorage.setItem("rummykit:name", body.name);  // a name cleared stays cleared
    localStorage.setItem("rummykit:preset", body.preset);
    saveGrant(grant);
    openTable(grant.code);
  } catch (err) { showError(err.message, $("#create-error")); }
}

// Join from the lobby: an unknown code is said at once; a name is asked before taking the seat.
async function startJoin(code) {
  S.lobbyForm = "join";
  if (!(await tableExists(code.toUpperCase()))) { showError(t("no_table", { code: code.toUpperCase() }), $("#join-error")); return; }
  askName(code.toUpperCase());
}

async function joinTable(code, name) {
  try {
    const grant = await api(`/api/tables/${encodeURIComponent(code.toUpperCase())}/join`, { name: name || "" });
    clearError($("#join-error"));
    saveGrant(grant);
    openTable(grant.code);
  } catch (err) {
    S.lobbyForm = "join";
    showError(err.status === 404 ? t("no_table", { code: code.toUpperCase() }) : err.message);
  }
}

// Leaving asks first; during play a bot keeps the seat and the token can take it back later, unless
// nobody else at the table is a person (a practice table): then the server closes the table.
function confirmLeave() {
  if (!S.token) { leaveToLobby(); return; }
  S.leaving = null;  // this table (the lobby's Leave sets the table it means)
  const text = leaveText(S.state.table.status, S.state.table.seats, S.seat, S.state.table.organised);
  openDialog("#leave-dialog", () => { $("#leave-text").textContent = text; $("#btn-leave-stay").focus(); });
}

// What leaving does, said before it is done: at a playing table a bot takes the seat, unless nobody
// else there is a person (a practice table), whom leaving closes it for; waiting, the host closes it.
function leaveText(status, seats, seat, organised = false) {
  const playing = status === "playing";
  if (playing && !seats.some((s, i) => i !== seat && s.kind === "human")) return t("leave_last");
  return playing ? t("leave_play") : seat === 0 && !organised ? t("leave_host") : t("leave_wait");
}

async function leaveTable() {
  closeDialog("#leave-dialog");
  if (S.leaving) { const g = S.leaving; S.leaving = null; leaveFromLobby(g); return; }
  try { await leaveSeat({ code: S.code, token: S.token, seat: S.seat }); } catch (err) { flash(err.message); return; }
  leaveToLobby();
}

async function retakeSeat() {
  try {
    const grant = await api(`/api/tables/${S.code}/retake`, { token: S.heldToken });
    saveGrant(grant);
    S.heldToken = null;
    S.token = grant.token;
    connect();
  } catch (err) {
    if (err.status === 403 || err.status === 409) { localStorage.removeItem("rummykit:" + S.code); S.heldToken = null; render(); }
    flash(err.message);
  }
}

// Joining by a shared link: the player chooses the name the table shows.
function askName(code) {
  showScreen("lobby");
  loadLobby();
  openDialog("#name-dialog", () => {
    $("#name-heading").textContent = t("join_title_code", { code });
    const input = $("#join-name");
    input.value = localStorage.getItem("rummykit:name") || "";
    input.placeholder = t("name_placeholder");
    input.focus();
    $("#name-seeded").classList.add("hidden");
  });
  S.askCode = code;
  // A seeded table's creator can compute every hand from the seed: say so before a stranger joins.
  api(`/api/tables/${encodeURIComponent(code)}`).then((tb) => {
    if (!tb.seeded || S.askCode !== code) return;
    const note = $("#name-seeded");
    note.textContent = `⚠ ${t("seeded_join")}`;
    note.classList.remove("hidden");
  }).catch(() => {});
}

async function joinWithName(ev) {
  ev.preventDefault();
  const name = $("#join-name").value.trim();
  if (!name) { $("#join-name").focus(); return; }
  localStorage.setItem("rummykit:name", name);
  closeDialog("#name-dialog");
  await joinTable(S.askCode, name);
}

let dialogReturn = null;
function openDialog(sel, fill) {
  dialogReturn = document.activeElement;
  $(sel).classList.remove("hidden");
  fill && fill();
}

function closeDialog(sel) {
  $(sel).classList.add("hidden");
  syncModal();
  if (dialogReturn && dialogReturn.isConnected) dialogReturn.focus();
  dialogReturn = null;
}

function openDialogs() { return [...document.querySelectorAll(".overlay:not(.hidden)")]; }

// While a modal dialog is open, the page behind it is inert: neither Tab nor a screen reader's
// reading reaches it. Kept in step with the dialogs whichever way they open or close (see setup);
// called at once where the focus goes back to the page.
function syncModal() {
  const open = openDialogs().length > 0;
  for (const el of [$("header.topbar"), $("#main")]) el.inert = open;
  if (!open) sayUnheard();
}

// The lines written while a dialog was open (the next hand's "Your turn" and the bots' moves arrive
// behind a hand's result) were not heard, and say() does not write the same text again: they are
// taken out and put back a moment later, which a screen reader hears as new.
function sayUnheard() {
  for (const el of document.querySelectorAll("[data-unheard]")) {
    if (el.closest("[inert]")) continue;
    delete el.dataset.unheard;
    const parts = [...el.childNodes], said = el.dataset.said;
    el.replaceChildren();
    // Unless a newer line was written meanwhile (which is heard by itself). After what the closing
    // announces (the new hand, said 100 ms on): "Hand 2 · Dealer: …" came after the new hand's moves.
    setTimeout(() => { if (el.dataset.said === said && !el.childNodes.length) el.append(...parts); }, 200);
  }
}

// Tab and Shift+Tab go round the open dialog's controls (the topmost, the last in the page).
const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";
function trapTab(ev) {
  const dialogs = openDialogs();
  if (ev.key !== "Tab" || !dialogs.length) return;
  const dialog = dialogs[dialogs.length - 1];
  const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length && !el.closest("[inert]"));
  if (!items.length) { ev.preventDefault(); return; }
  const first = items[0], last = items[items.length - 1], at = document.activeElement;
  if (!dialog.contains(at)) { ev.preventDefault(); (ev.shiftKey ? last : first).focus(); }
  else if (ev.shiftKey && at === first) { ev.preventDefault(); last.focus(); }
  else if (!ev.shiftKey && at === last) { ev.preventDefault(); first.focus(); }
}

// Whether the element can take the keyboard focus back (it is still shown and enabled).
function usable(el) {
  return !!el && el !== document.body && el.isConnected && !el.disabled && el.getClientRects().length > 0 && !el.closest("[inert]");
}

// The focus at the table when what had it is gone: the hand's current card, else the status line.
function focusTable() {
  if ($("#game").classList.contains("hidden")) {
    const screen = $("#waiting").classList.contains("hidden") ? null : $("#waiting h2");
    if (screen) { screen.tabIndex = -1; screen.focus(); }
    return;
  }
  if ($(`#hand .card[data-index="${S.focus}"]`)) { focusCard(); return; }
  const status = $("#status");
  status.tabIndex = -1;
  status.focus();
}

// Keys at the table (see the help, "?"): the hand is a list the arrow keys walk through.
function onKey(ev) {
  if (ev.key === "Escape") {
    if (S.rulesPath) { closeRules(); return; }
    // Out of the chat's text field back to the table (the hand), where the keys of the game work.
    if (ev.target.id === "chat-input") { focusTable(); return; }
    const dialogs = openDialogs();
    for (const d of dialogs) if (d.id !== "overlay") closeDialog("#" + d.id);
    // A hand's result closes as its button does (Continue); the match's end waits for a choice.
    if (dialogs.length === 1 && dialogs[0].id === "overlay" && $("#overlay #round-over")) $("#btn-overlay").click();
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const typing = ev.target.closest && ev.target.closest("input, textarea, select, [contenteditable]");
  if (typing || openDialogs().length || !S.state || $("#game").classList.contains("hidden")) return;
  const onCard = ev.target.closest && ev.target.closest("#hand .card");
  const n = shownHand().length;
  // A letter with Shift or Caps Lock is the same shortcut ("D" draws as "d" does).
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (onCard && (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End")) {
    ev.preventDefault();
    const to = key === "Home" ? 0 : key === "End" ? n - 1 : S.focus + (key === "ArrowLeft" ? -1 : 1);
    if (ev.shiftKey) { moveCard(S.focus, to); return; }
    S.focus = Math.max(0, Math.min(n - 1, to));
    focusCard();
    return;
  }
  if (onCard && (key === " " || key === "Enter")) { ev.preventDefault(); toggleSelect(S.focus); return; }
  // Keys of one character act wherever the focus is: a player may turn them off (WCAG 2.1.4, speech
  // input typed moves by chance); the hand's keys and the buttons remain.
  if (S.singleKeys) singleKey(ev, key);
  // Up and down go to the hand, except on a panel they scroll (the moves, the scores, the chat).
  if ((key === "ArrowDown" || key === "ArrowUp") && !onCard && n && !ev.target.closest(SCROLLED_PANELS)) {
    ev.preventDefault();
    focusCard();
  }
}
const SCROLLED_PANELS = "#log, #scores, #chat-log";

// The shortcuts of one key (see the help).
function singleKey(ev, key) {
  const L = legal();
  const actions = {
    d: () => L.includes("draw") && act("draw"),
    t: () => (L.includes("take") || takeExplains()) && act("take"),
    x: () => discardSelected("discard"),
    k: () => S.state.table.knock_game && knockSelected(),
    r: () => S.state.table.knock_game && !S.state.view.gin && discardSelected("rummy"),
    g: () => !S.state.table.knock_game && groupSelection(),
    l: () => layKey(),
    c: () => clearComposition(),
    h: () => myTurn() && hintsAllowed() && send({ type: "hint" }),
    p: () => S.hint && act(S.hint),
    u: () => undo(),
    s: () => sortHand("suit"),
    n: () => sortHand("rank"),
    m: () => !$("#btn-sort-melds").classList.contains("hidden") && sortHand("melds"),  // where the button is
    w: () => sayMovesInFull(),
    "?": () => openKeys(),
  };
  if (actions[key]) { ev.preventDefault(); actions[key](); return; }
  if (/^[1-9]$/.test(key) && S.state.view.melds.length >= Number(key)) { ev.preventDefault(); layOffOn(Number(key), false, true); }
}

// W: the others' moves since the player's last one, each in full (said in a line a turn as they came),
// or the hand's last few where the player has not moved yet; said at once, whatever was said before.
function sayMovesInFull() {
  const moves = S.state.log.filter((e) => e.index >= 0 && (e.hand === undefined || e.hand === S.state.match.hands_dealt));
  let since = othersSince(moves).flatMap((run) => run.entries);
  if (!since.length) since = moves.slice(-MEANWHILE_TURNS);
  announce(since.length ? `${t("moves_full")}: ${since.map(logLine).join(" · ")}` : t("moves_none"));
}

// The shortcuts of the game at the table: melds and lay-offs where cards go on the table (lay-offs in gin
// too, after a knock), knock in the knock games, Rummy only in Viennese.
function openKeys() {
  const family = S.state && S.state.table.family;
  for (const row of document.querySelectorAll("#keys-dialog tr[data-families]")) {
    row.classList.toggle("hidden", !!family && !row.dataset.families.split(" ").includes(family));
  }
  $("#single-keys").checked = S.singleKeys;
  openDialog("#keys-dialog", () => $("#btn-keys-close").focus());
}

function setSingleKeys() {
  S.singleKeys = $("#single-keys").checked;
  if (S.singleKeys) localStorage.removeItem("rummykit:single-keys"); else localStorage.setItem("rummykit:single-keys", "off");
}

function clearComposition() { S.groups = []; S.selected = []; S.evaluation = null; render(); }

// Sounds: off unless switched on; short tones made in the page (no sound files).
let audio = null;
function playSound(kind) {
  if (!S.sound) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = kind === "turn" ? 660 : 440;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.15);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.16);
  } catch { /* no audio here */ }
}

const SPEAKER = '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
// On a German page, a switch between German packs' letters (B, D) and the international J and Q.
function renderLettersButton() {
  const b = $("#btn-letters");
  b.classList.toggle("hidden", S.lang !== "de");
  b.textContent = S.intlLetters ? "B D" : "J Q";
  b.setAttribute("aria-pressed", S.intlLetters ? "true" : "false");
  const label = S.intlLetters ? t("letters_german") : t("letters_intl");
  b.setAttribute("aria-label", label);
  b.title = label;
}

function renderSoundButton() {
  const b = $("#btn-sound");
  b.innerHTML = SPEAKER + (S.sound
    ? '<path d="M15 8.5a5 5 0 0 1 0 7M17.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none"/></svg>'
    : '<path d="M15 9l6 6M21 9l-6 6" stroke="currentColor" stroke-width="2"/></svg>');
  b.setAttribute("aria-pressed", S.sound ? "true" : "false");
  b.setAttribute("aria-label", S.sound ? t("sound_on") : t("sound_off"));
  b.title = S.sound ? t("sound_on") : t("sound_off");
}

function setup() {
  applyLanguage();
  loadPresets().catch(() => {});
  $("#btn-lang").addEventListener("click", () => { S.lang = S.lang === "de" ? "en" : "de"; localStorage.setItem("rummykit:lang", S.lang); applyLanguage(); });
  $("#btn-letters").addEventListener("click", () => {
    S.intlLetters = !S.intlLetters;
    if (S.intlLetters) localStorage.setItem("rummykit:letters", "en"); else localStorage.removeItem("rummykit:letters");
    applyLanguage();
  });
  $("#create-form").addEventListener("submit", (ev) => { ev.preventDefault(); createTable(ev.target); });
  $("#btn-start-all").addEventListener("click", startAllOrganised);
  $("#btn-rematch-all").addEventListener("click", rematchAllOrganised);
  $("#join-form").addEventListener("submit", (ev) => { ev.preventDefault(); startJoin(ev.target.elements.code.value.trim()); });
  $("#btn-watch").addEventListener("click", () => { const c = $("#join-form").elements.code.value.trim(); if (c) openTable(c, { watch: true }); });
  $("#btn-start").addEventListener("click", async () => {
    try { await api(`/api/tables/${S.code}/start`, { token: S.token }); } catch (err) { flash(err.message); }
  });
  // Closing an error puts the keyboard where the player goes on (it dropped to the page): at the table
  // its hand, in a lobby panel the panel's first field.
  document.querySelectorAll(".error-close").forEach((b) => b.addEventListener("click", () => {
    const box = b.closest(".error-box");
    clearError(box);
    if (box.id === "game-error") { focusTable(); return; }
    const next = box.parentElement.querySelector("input:not([type=hidden]), select, textarea");
    if (next) next.focus();
  }));
  $("#create-form").addEventListener("input", () => clearError($("#create-error")));
  $("#join-form").addEventListener("input", () => clearError($("#join-error")));
  $("#preset").addEventListener("change", () => renderPresets());
  document.querySelector('select[name="bot_level"]').addEventListener("change", renderLevelLine);
  $("#bot-kind").addEventListener("change", renderLevelLine);
  $("#create-form input[name=seats]").addEventListener("change", renderSeatRange);
  for (const name of ["seats", "bots"]) $(`#create-form input[name=${name}]`).addEventListener("input", rememberSeats);
  $("#btn-preset-rules").addEventListener("click", () => {
    // The house rules chosen so far are on the page too (what they mean, before the table is made).
    let overrides = {};
    try { overrides = createBody($("#create-form")).overrides; } catch { overrides = {}; }
    const path = `/api/presets/${encodeURIComponent($("#preset").value)}/rules`;
    showRules(path, Object.keys(overrides).length ? { overrides } : undefined);
  });
  $("#btn-rules").addEventListener("click", () => { if (S.code) showRules(`/api/tables/${encodeURIComponent(S.code)}/rules`); });
  $("#btn-rules-close").addEventListener("click", closeRules);
  $("#rules-dialog").addEventListener("click", (ev) => { if (ev.target.id === "rules-dialog") closeRules(); });
  document.addEventListener("keydown", onKey);
  document.addEventListener("keydown", trapTab);
  const modal = new MutationObserver(syncModal);
  for (const d of document.querySelectorAll(".overlay")) modal.observe(d, { attributes: true, attributeFilter: ["class"] });
  $("#btn-leave-wait").addEventListener("click", confirmLeave);
  $("#btn-join-wait").addEventListener("click", () => askName(S.code));
  $("#btn-leave").addEventListener("click", confirmLeave);
  $("#btn-leave-confirm").addEventListener("click", leaveTable);
  $("#btn-leave-stay").addEventListener("click", () => closeDialog("#leave-dialog"));
  $("#btn-joker-discard").addEventListener("click", discardJoker);
  $("#btn-joker-keep").addEventListener("click", () => closeDialog("#joker-dialog"));
  $("#btn-pass-confirm").addEventListener("click", passConfirmed);
  $("#btn-pass-lay").addEventListener("click", layBestMelds);
  $("#btn-pass-back").addEventListener("click", () => { S.passAsked = null; closeDialog("#pass-dialog"); });
  $("#name-form").addEventListener("submit", joinWithName);
  $("#btn-name-watch").addEventListener("click", () => { closeDialog("#name-dialog"); openTable(S.askCode, { watch: true }); });
  $("#btn-keys").addEventListener("click", () => openKeys());
  $("#btn-keys-close").addEventListener("click", () => closeDialog("#keys-dialog"));
  $("#single-keys").addEventListener("change", setSingleKeys);
  $("#btn-sort-suit").addEventListener("click", () => sortHand("suit"));
  $("#btn-sort-rank").addEventListener("click", () => sortHand("rank"));
  $("#btn-sort-melds").addEventListener("click", () => sortHand("melds"));
  $("#btn-sound").addEventListener("click", () => {
    S.sound = !S.sound;
    localStorage.setItem("rummykit:sound", S.sound ? "on" : "off");
    renderSoundButton();
    playSound("move");
  });
  for (const pile of ["#stock", "#discard"]) {
    $(pile).addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); $(pile).click(); } });
  }
  $("#btn-group").addEventListener("click", () => groupSelection());
  $("#btn-play").addEventListener("click", playMelds);
  $("#btn-clear").addEventListener("click", clearComposition);
  $("#chat-jump").addEventListener("click", jumpToChat);
  let seenQueued = false;  // at most one look per frame while the page scrolls
  const lookAtChat = () => { if (seenQueued || !S.chatUnread) return; seenQueued = true; requestAnimationFrame(() => { seenQueued = false; markChatSeen(); }); };
  for (const ev of ["scroll", "resize"]) addEventListener(ev, lookAtChat, { passive: true });
  $("#chat-box").addEventListener("toggle", lookAtChat);
  document.addEventListener("visibilitychange", lookAtChat);
  $("#chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("#chat-input").value.trim();
    if (text && !send({ type: "chat", text })) return;  // not connected: the line stays, to be sent again
    if (text) S.chatOut = text.split(/\s+/).join(" ");  // as the server writes it (see onChat)
    $("#chat-input").value = "";
  });
  setInterval(renderTimer, 1000);
  $("#btn-discard").addEventListener("click", () => discardSelected("discard"));
  $("#btn-knock").addEventListener("click", () => knockSelected());
  $("#btn-rummy").addEventListener("click", () => discardSelected("rummy"));
  $("#btn-hint").addEventListener("click", () => send({ type: "hint" }));
  $("#btn-undo").addEventListener("click", undo);
  if (window.matchMedia("(min-width: 900px)").matches) $("#log-box").open = true;  // room for it next to the scores
  $("#log-box").addEventListener("toggle", () => { if ($("#log-box").open) requestHandLog(); });
  $("#stock").addEventListener("click", () => { if (legal().includes("draw")) act("draw"); });
  $("#discard").addEventListener("click", takeOrDiscard);
  const params = new URLSearchParams(location.search);
  const code = params.get("table");
  if (location.hash.startsWith("#organise=") || (params.has("organise") && sessionStorage.getItem(ORGANISER_KEY))) {
    openOrganiser();
    return;
  }
  // ?table=CODE&watch=1 watches even where this browser holds a seat there: a stream's second window
  // (or a browser source sharing the player's storage) shows no hand.
  if (code) {
    // Until the table is looked up, a neutral page in the page's language (not the lobby's create form).
    $("#loading-text").textContent = t("loading_table", { code: code.toUpperCase() });
    openTable(code, params.get("watch") === "1" ? { watch: true } : { ask: true });
  }
  else { showScreen("lobby"); loadLobby(); }
}

setup();
