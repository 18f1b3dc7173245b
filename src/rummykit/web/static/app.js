// rummykit in the browser: lobby, card table, composing melds, hints, scores. Plain JS, no build.
// The server is the referee: every move is sent in the engine's notation and checked there.
"use strict";

const I18N = {
  en: {
    create_title: "New table", your_name: "Your name", rules: "Rules", seats: "Seats", bots: "Bots",
    bot_kind: "Bot", bot_level: "Level", overrides: "Rule changes (option=value, one per line)",
    create: "Create table", join_title: "Join a table", code: "Code", join: "Join", watch: "Watch",
    open_tables: "Tables", waiting_title: "Waiting for players", share: "Share this link:",
    start: "Start (bots fill empty seats)", leave: "Leave", group: "New meld", play_melds: "Lay melds",
    clear: "Clear", discard: "Discard", knock: "Knock", rummy: "Rummy", hint: "Hint", scores: "Scores",
    log: "Moves", continue: "Continue", your_turn: "Your turn", turn_of: "{name} to move",
    draw_phase: "draw from the stock or take the discard", play_phase: "meld, lay off, then discard",
    discard_phase: "discard, knock or call Rummy", spectating: "Watching", opening: "Opening",
    total: "Total", hand: "Hand", seat: "Seat", open_seat: "open", bot: "bot", away: "away",
    you: "you", cards: "cards", card: "card", opened: "opened", stock: "Stock", pile: "Discard pile",
    round_over: "Hand over", match_over: "Match over", winner: "Winner", winners: "Winners",
    points: "Points", deadwood: "Deadwood", went_out: "went out", rummy_call: "called Rummy",
    knock_call: "knocked", stock_exhausted: "stock exhausted — not scored", new_table: "New table",
    play_hint: "Play it", moves: "Possible moves", chips: "Chips", pot: "Pot", waiting: "waiting",
    playing: "playing", over: "over", closed: "closed", connection_lost: "Connection lost, reconnecting…",
    select_one: "Select one card", select_cards: "Select cards first", need: "need",
    buyback: "Buy back", decline: "Decline", draw: "Draw", take: "Take", showdown: "Showdown",
    lay_on: "Lay {card} on meld {n}", host: "host",
    seeded: "seeded: every hand can be known", expired: "expired",
    replaced: "A bot plays for you (you did not move in time)", back: "I'm back",
    rules_link: "Rules", read_rules: "Read the rules", close: "Close", dismiss: "Dismiss", no_table: "There is no table {code}.",
  },
  de: {
    create_title: "Neuer Tisch", your_name: "Dein Name", rules: "Regeln", seats: "Plätze", bots: "Bots",
    bot_kind: "Bot", bot_level: "Stärke", overrides: "Regeländerungen (option=wert, eine pro Zeile)",
    create: "Tisch eröffnen", join_title: "Einem Tisch beitreten", code: "Code", join: "Beitreten",
    watch: "Zuschauen", open_tables: "Tische", waiting_title: "Warten auf Mitspieler",
    share: "Diesen Link teilen:", start: "Starten (Bots füllen freie Plätze)", leave: "Verlassen",
    group: "Neue Meldung", play_melds: "Auslegen", clear: "Zurücksetzen", discard: "Ablegen",
    knock: "Klopfen", rummy: "Rummy", hint: "Tipp", scores: "Punkte", log: "Züge", continue: "Weiter",
    your_turn: "Du bist dran", turn_of: "{name} ist am Zug",
    draw_phase: "vom Stoß ziehen oder die Ablage nehmen", play_phase: "auslegen, anlegen, dann ablegen",
    discard_phase: "ablegen, klopfen oder Rummy rufen", spectating: "Zuschauer", opening: "Erstmeldung",
    total: "Summe", hand: "Spiel", seat: "Platz", open_seat: "frei", bot: "Bot", away: "weg",
    you: "du", cards: "Karten", card: "Karte", opened: "ausgelegt", stock: "Stoß", pile: "Ablage",
    round_over: "Spiel beendet", match_over: "Partie beendet", winner: "Sieger", winners: "Sieger",
    points: "Punkte", deadwood: "Restpunkte", went_out: "ist ausgegangen", rummy_call: "hat Rummy gerufen",
    knock_call: "hat geklopft", stock_exhausted: "Stoß aufgebraucht — keine Wertung",
    new_table: "Neuer Tisch", play_hint: "Ausführen", moves: "Mögliche Züge", chips: "Chips", pot: "Pott",
    waiting: "wartet", playing: "läuft", over: "beendet", closed: "geschlossen",
    connection_lost: "Verbindung verloren, verbinde neu…", select_one: "Eine Karte wählen",
    select_cards: "Erst Karten wählen", need: "nötig", buyback: "Zurückkaufen", decline: "Ablehnen",
    draw: "Ziehen", take: "Aufnehmen", showdown: "Aufdecken", lay_on: "{card} an Meldung {n} anlegen",
    host: "Gastgeber",
    seeded: "mit festem Seed: jedes Blatt kann bekannt sein", expired: "abgelaufen",
    replaced: "Ein Bot spielt für dich (kein Zug in der Zeit)", back: "Ich bin zurück",
    rules_link: "Regeln", read_rules: "Regeln lesen", close: "Schließen", dismiss: "Schließen", no_table: "Es gibt keinen Tisch {code}.",
  },
};

const S = {
  lang: (localStorage.getItem("rummykit:lang") || navigator.language || "en").startsWith("de") ? "de" : "en",
  code: null, token: null, seat: null, ws: null, state: null, retry: 0,
  selected: [],     // indices into the shown hand, in click order
  groups: [],       // melds being composed: arrays of card texts
  evaluation: null, hint: null, seenHands: null, overlayFor: null, presets: null,
  lobbyForm: "join",  // which lobby form an error belongs to
  rulesPath: null,    // the rules page being shown (reloaded when the language changes)
};

const $ = (sel) => document.querySelector(sel);
const t = (key, vars = {}) => (I18N[S.lang][key] || I18N.en[key] || key).replace(/\{(\w+)\}/g, (_, k) => vars[k]);

function applyLanguage() {
  document.documentElement.lang = S.lang;
  $("#btn-lang").textContent = S.lang === "de" ? "EN" : "DE";
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-label]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nLabel)); });
  if (S.presets) renderPresets();
  if (S.rulesPath && !$("#rules-dialog").classList.contains("hidden")) showRules(S.rulesPath);
  if (S.state) render();
}

// ---------------------------------------------------------------------------------------------
// REST and the websocket

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail || res.status));
    err.status = res.status;
    throw err;
  }
  return data;
}

function saveGrant(grant) {
  localStorage.setItem("rummykit:" + grant.code, JSON.stringify({ token: grant.token, seat: grant.seat }));
}

// Whether the table exists: a websocket to an unknown table fails without telling why, so ask first.
async function tableExists(code) {
  try { return (await fetch(`/api/tables/${encodeURIComponent(code)}`)).status !== 404; } catch { return true; }
}

async function openTable(code, { watch = false } = {}) {
  S.code = code.toUpperCase();
  if (!(await tableExists(S.code))) { tableGone(S.code); return; }
  const saved = JSON.parse(localStorage.getItem("rummykit:" + S.code) || "null");
  S.token = watch || !saved ? null : saved.token;
  const url = new URL(location.href);
  url.searchParams.set("table", S.code);
  history.replaceState(null, "", url.pathname + url.search);
  connect();
}

function connect() {
  if (S.ws) { S.ws.onclose = null; S.ws.close(); }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // The seat token goes in the first message, never in the URL (access logs and proxies keep URLs).
  const ws = new WebSocket(`${proto}//${location.host}/ws/${S.code}`);
  S.ws = ws;
  ws.onopen = () => { S.retry = 0; clearError($("#game-error")); ws.send(JSON.stringify({ type: "hello", token: S.token })); };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    if (ev.code === 4404) { tableGone(S.code); return; }
    if (ev.code === 4403) { localStorage.removeItem("rummykit:" + S.code); S.token = null; }
    const status = S.state && S.state.table.status;
    if (status === "expired" || status === "closed") { showScreen("lobby"); loadLobby(); return; }
    flash(t("connection_lost"), true);
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(async () => {
      if (!S.code) return;
      if (await tableExists(S.code)) connect(); else tableGone(S.code);
    }, 300 * S.retry);
  };
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
}

function act(action) {
  if (!S.state) return;
  S.hint = null;
  clearError($("#game-error"));
  send({ type: "act", action, version: S.state.version });
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome": S.seat = msg.seat; break;
    case "state": onState(msg); break;
    case "error": flash(msg.message); break;
    case "hint": S.hint = msg.action; renderHint(); break;
    case "moves": if (S.state && msg.version === S.state.version) { S.moves = msg; render(); } break;
    case "evaluation": S.evaluation = msg; renderTray(); break;
    default: break;
  }
}

function onState(state) {
  const previous = S.state;
  S.state = state;
  if ((state.compose || []).length && (!S.moves || S.moves.version !== state.version)) send({ type: "moves" });
  S.seat = state.you;
  if (!previous || previous.version !== state.version) {
    // The hand changed under the selection: keep only groups whose cards are still held.
    S.selected = [];
    if (state.view && state.view.hand) {
      const pool = countCards(state.view.hand);
      S.groups = S.groups.filter((g) => g.every((c) => (pool[c] = (pool[c] || 0) - 1) >= 0));
    } else S.groups = [];
    S.hint = null;
    evaluate();
  }
  const hands = state.match.hands.length;
  if (S.seenHands === null) S.seenHands = hands;
  if (hands > S.seenHands && state.last_round) { S.seenHands = hands; showRoundOver(state); }
  if (state.match.is_over && S.overlayFor !== "match") showMatchOver(state);
  render();
}

// ---------------------------------------------------------------------------------------------
// Rendering

function showScreen(name) {
  for (const id of ["lobby", "waiting", "game"]) $("#" + id).classList.toggle("hidden", id !== name);
  $("#btn-rules").classList.toggle("hidden", name === "lobby" || !S.code);
}

// Errors stay where the user is looking until dismissed (✕) or until the next action or correction.
function errorBox() {
  if (!$("#lobby").classList.contains("hidden")) return S.lobbyForm === "create" ? $("#create-error") : $("#join-error");
  if (!$("#waiting").classList.contains("hidden")) return $("#wait-error");
  return $("#game-error");
}

function showError(text, box = errorBox()) {
  box.querySelector(".error-text").textContent = text;
  box.classList.remove("hidden");
  box.scrollIntoView({ block: "nearest" });
}

function clearError(box) {
  box.classList.add("hidden");
  box.querySelector(".error-text").textContent = "";
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

// The rules page (escaped HTML written by the server from the option values) in a dialog.
async function showRules(path) {
  S.rulesPath = path;
  try {
    const data = await api(`${path}?lang=${S.lang}`);
    $("#rules-heading").textContent = data.code ? `${t("rules")} · ${data.code}` : t("rules");
    $("#rules-body").innerHTML = data.html;  // escaped by rummykit.explain; nothing else goes in unescaped
    $("#rules-dialog").classList.remove("hidden");
    $("#rules-body").scrollTop = 0;
    $("#btn-rules-close").focus();
  } catch (err) { showError(err.message); }
}

function closeRules() {
  S.rulesPath = null;
  $("#rules-dialog").classList.add("hidden");
  $("#rules-body").textContent = "";
}

function renderPresets() {
  const sel = $("#preset"), keep = sel.value, names = S.presets.names || {};
  sel.textContent = "";
  for (const p of Object.keys(S.presets.presets)) {
    const o = document.createElement("option");
    o.value = p;
    o.textContent = names[p] ? names[p][S.lang][0] : p;
    sel.appendChild(o);
  }
  if (keep) sel.value = keep;
  const line = names[sel.value];
  $("#preset-line").textContent = line ? line[S.lang][1] : "";
}

function seatName(i) {
  const seat = S.state.table.seats[i];
  const name = seat.name || `${t("seat")} ${i + 1}`;
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
  return out;
}

// The state lists the simple moves; compound ones (open, meld, layoff, swap) come on request.
function legal() {
  if (!S.state) return [];
  return S.moves && S.moves.version === S.state.version ? S.moves.actions : S.state.legal;
}
function myTurn() { return legal().length > 0 || (S.state.compose || []).length > 0; }

function render() {
  const st = S.state;
  document.body.dataset.myTurn = myTurn() ? "1" : "0";
  document.body.dataset.status = st.table.status;
  const seeded = st.table.seeded ? ` · ⚠ ${t("seeded")}` : "";
  $("#table-info").textContent = `${st.table.code} · ${st.table.rules} · ${t(st.table.status)}${seeded}`;
  document.body.dataset.seeded = st.table.seeded ? "1" : "0";
  if (st.table.status === "waiting") { renderWaiting(); showScreen("waiting"); return; }
  if (st.table.status === "closed" || st.table.status === "expired") {
    showScreen("lobby"); S.lobbyForm = "join"; flash(t(st.table.status)); loadLobby(); return;
  }
  showScreen("game");
  renderOpponents();
  renderPiles();
  renderMelds();
  renderStatus();
  renderTray();
  renderHand();
  renderActions();
  renderMoves();
  renderHint();
  renderScores();
  renderLog();
}

function renderWaiting() {
  const st = S.state;
  $("#wait-code").textContent = st.table.code;
  $("#share-link").value = `${location.origin}/?table=${st.table.code}`;
  const ol = $("#wait-seats");
  ol.innerHTML = "";
  st.table.seats.forEach((s, i) => {
    const li = document.createElement("li");
    li.textContent = s.kind === "open" ? `— ${t("open_seat")} —` : s.kind === "bot" ? `${s.name} (${t("bot")} ${s.bot})` : seatName(i);
    ol.appendChild(li);
  });
  $("#btn-start").classList.toggle("hidden", S.seat !== 0);
  $("#btn-join-wait").classList.toggle("hidden", S.seat !== null || !st.table.seats.some((s) => s.kind === "open"));
  $("#btn-leave-wait").classList.toggle("hidden", S.seat === null);
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
    const status = seat.kind === "bot" ? t("bot") : seat.away ? t("away") : seat.connected ? "●" : "○";
    const revealed = v.revealed[i];
    div.innerHTML = `<div class="opp-name">${escapeHtml(seatName(i))} <small>${status}</small></div>
      <div class="opp-meta">${v.hand_sizes[i]} ${t(v.hand_sizes[i] === 1 ? "card" : "cards")}${v.opened[i] ? " · " + t("opened") : ""}${v.dealer === i ? " · D" : ""}</div>`;
    const fan = document.createElement("div");
    fan.className = "fan";
    const shown = revealed || new Array(Math.min(v.hand_sizes[i], 14)).fill(null);
    for (const c of shown) fan.appendChild(Cards.element(c, { small: true }));
    div.appendChild(fan);
    box.appendChild(div);
  }
}

function renderPiles() {
  const v = S.state.view, L = legal();
  const stock = $("#stock"), discard = $("#discard");
  stock.innerHTML = "";
  if (v.stock_size > 0) stock.appendChild(Cards.element(null));
  stock.insertAdjacentHTML("beforeend", `<span class="count">${t("stock")} ${v.stock_size}</span>`);
  stock.classList.toggle("legal", L.includes("draw"));
  discard.innerHTML = "";
  const top = v.discard_pile[v.discard_pile.length - 1];
  if (top) discard.appendChild(Cards.element(top));
  discard.insertAdjacentHTML("beforeend", `<span class="count">${t("pile")} ${v.discard_pile.length}</span>`);
  discard.classList.toggle("legal", L.includes("take") || L.some((a) => a.startsWith("discard")));
}

function layoffTargets() {
  // Table melds the single selected card can be laid off on (from the legal moves).
  const hand = shownHand();
  if (S.selected.length !== 1) return new Map();
  const card = hand[S.selected[0]];
  const out = new Map();
  for (const a of legal()) {
    const m = /^layoff (\S+) on (\d+)/.exec(a);
    if (m && m[1] === card && !out.has(Number(m[2]))) out.set(Number(m[2]), a);
  }
  return out;
}

function renderMelds() {
  const v = S.state.view, box = $("#melds");
  box.innerHTML = "";
  const targets = layoffTargets();
  v.melds.forEach((m, k) => {
    const n = k + 1;
    const div = document.createElement("div");
    div.className = "meld" + (targets.has(n) ? " legal" : "");
    div.dataset.meld = n;
    div.dataset.drop = "meld";
    div.title = `${n}: ${m.text} (${seatName(m.owner)})`;
    div.innerHTML = `<span class="meld-no">${n}</span>`;
    for (const c of m.cards) div.appendChild(Cards.element(c, { small: true }));
    div.addEventListener("click", () => layOffOn(n));
    box.appendChild(div);
  });
}

function renderStatus() {
  const el = $("#status");
  const st = S.state;
  if (!st || !st.view) return;
  const v = st.view;
  let text;
  if (st.match.is_over) text = t("match_over");
  else if (S.seat === null) text = `${t("spectating")} · ${t("turn_of", { name: seatName(st.match.to_move) })}`;
  else if (myTurn()) text = `${t("your_turn")}: ${t(v.phase + "_phase")}`;
  else text = t("turn_of", { name: seatName(st.match.to_move) });
  el.textContent = text;
  if (S.seat !== null && st.table.seats[S.seat].away && st.table.status === "playing") {
    el.textContent = t("replaced") + " ";
    const b = document.createElement("button");
    b.type = "button"; b.id = "back"; b.textContent = t("back");
    b.addEventListener("click", () => send({ type: "back" }));
    el.appendChild(b);
  }
}

function evaluate() {
  if (S.groups.length === 0) { S.evaluation = null; renderTray(); return; }
  send({ type: "evaluate", melds: S.groups });
}

function renderTray() {
  if (!S.state || !S.state.view) return;
  $("#tray").classList.toggle("hidden", S.state.table.knock_game);  // knock games meld only at the showdown
  const box = $("#groups");
  box.innerHTML = "";
  const ev = S.evaluation && S.evaluation.melds.length === S.groups.length ? S.evaluation : null;
  S.groups.forEach((g, i) => {
    const div = document.createElement("div");
    const info = ev ? ev.melds[i] : null;
    div.className = "group" + (info ? (info.legal ? " ok" : " bad") : "");
    div.title = info && info.error ? info.error : "";
    g.forEach((c, j) => {
      const el = Cards.element(c, { small: true });
      el.addEventListener("click", () => { g.splice(j, 1); if (!g.length) S.groups.splice(i, 1); evaluate(); render(); });
      div.appendChild(el);
    });
    div.insertAdjacentHTML("beforeend", `<span class="group-value">${info ? (info.legal ? info.value : "✗") : "…"}</span>`);
    box.appendChild(div);
  });
  const total = $("#opening-total");
  const v = S.state.view;
  if (!S.groups.length) { total.textContent = ""; $("#tray").classList.add("empty"); return; }
  $("#tray").classList.remove("empty");
  const opened = S.seat !== null && v.opened[S.seat];
  const sum = ev ? ev.total : 0;
  if (!opened && !S.state.table.knock_game) {
    const min = S.state.table.opening_min;
    total.innerHTML = `${t("opening")}: <b id="opening-sum">${sum}</b> / ${min}`;
    total.classList.toggle("enough", sum >= min);
  } else {
    total.innerHTML = `${t("total")}: <b id="opening-sum">${sum}</b>`;
    total.classList.remove("enough");
  }
}

function renderHand() {
  const box = $("#hand");
  box.innerHTML = "";
  if (!S.state.view.hand) return;
  const hand = shownHand();
  const L = legal();
  const playable = new Set();
  // Cards that can go on the table now (every card may be discarded, so discards are not marked).
  for (const a of L) {
    if (/^(discard|knock|rummy|take|draw)\b/.test(a)) continue;
    for (const m of a.matchAll(/\b(10|[2-9AJQK])[CDHS]\b|\bJK\b/g)) playable.add(m[0]);
  }
  hand.forEach((c, i) => {
    const el = Cards.element(c);
    if (S.selected.includes(i)) { el.classList.add("selected"); el.dataset.order = S.selected.indexOf(i) + 1; }
    if (playable.has(c)) el.classList.add("playable");
    if (S.hint && new RegExp(`(^|\\s)${c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|$)`).test(S.hint)) el.classList.add("hinted");
    el.draggable = true;
    el.dataset.index = i;
    el.addEventListener("click", () => toggleSelect(i));
    el.addEventListener("dragstart", (ev) => { ev.dataTransfer.setData("text/plain", String(i)); });
    box.appendChild(el);
  });
}

function renderActions() {
  const L = legal(), knock = S.state.table.knock_game;
  const sel = S.selected.length;
  const hand = shownHand();
  const one = sel === 1 ? hand[S.selected[0]] : null;
  const show = (id, visible, enabled = true) => { const b = $(id); b.classList.toggle("hidden", !visible); b.disabled = !enabled; };
  const canMeld = L.some((a) => a.startsWith("open") || a.startsWith("meld"));
  const playing = S.seat !== null && S.state.table.status === "playing";
  show("#btn-group", playing && !knock, sel >= 1);
  show("#btn-play", playing && !knock && S.groups.length > 0, canMeld || S.groups.length > 0);
  show("#btn-clear", playing && (S.groups.length > 0 || sel > 0));
  show("#btn-discard", playing, !!one && L.includes("discard " + one));
  show("#btn-knock", playing && knock, !!one && L.includes("knock " + one));
  show("#btn-rummy", playing && knock, !!one && L.includes("rummy " + one));
  show("#btn-hint", playing, myTurn());
  show("#btn-leave", S.seat !== null);
}

function moveLabel(a) {
  if (a === "draw" || a === "take" || a === "buyback" || a === "decline") return t(a);
  return a;
}

function renderMoves() {
  const box = $("#moves");
  box.innerHTML = "";
  const L = legal().filter((a) => !a.startsWith("discard ") && !a.startsWith("knock ") && !a.startsWith("rummy "));
  if (!L.length) return;
  box.insertAdjacentHTML("beforeend", `<span class="moves-title">${t("moves")}:</span>`);
  for (const a of L.slice(0, 24)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move-chip";
    b.dataset.action = a;
    b.textContent = moveLabel(a);
    b.addEventListener("click", () => act(a));
    box.appendChild(b);
  }
}

function renderHint() {
  const box = $("#hint");
  if (!S.hint) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  box.innerHTML = `${t("hint")}: <code>${escapeHtml(S.hint)}</code> `;
  const b = document.createElement("button");
  b.type = "button"; b.id = "btn-play-hint"; b.textContent = t("play_hint");
  b.addEventListener("click", () => act(S.hint));
  box.appendChild(b);
  renderHand();
}

function renderScores() {
  const st = S.state, m = st.match, n = st.table.players;
  let html = `<table class="scores"><thead><tr><th>${t("hand")}</th>`;
  for (let i = 0; i < n; i++) html += `<th>${escapeHtml(seatName(i))}</th>`;
  html += "</tr></thead><tbody>";
  for (const h of m.hands) {
    html += `<tr><td>${h.hand}</td>` + h.points.map((p, i) => `<td class="${h.winner === i ? "win" : ""}">${p}</td>`).join("") + "</tr>";
  }
  html += `<tr class="total"><td>${t("total")}</td>` + m.scores.map((p) => `<td>${p}</td>`).join("") + "</tr>";
  if (m.is_rubber) {
    html += `<tr><td>${t("chips")}</td>` + m.chips.map((p) => `<td>${p}</td>`).join("") + "</tr>";
    html += `<tr><td>${t("pot")}</td><td colspan="${n}">${m.pot}</td></tr>`;
  }
  $("#scores").innerHTML = html + "</tbody></table>";
}

function renderLog() {
  const ol = $("#log");
  ol.innerHTML = "";
  for (const e of S.state.log.slice().reverse()) {
    const li = document.createElement("li");
    li.textContent = `${seatName(e.seat)}: ${e.action}`;
    ol.appendChild(li);
  }
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
}

// ---------------------------------------------------------------------------------------------
// Round end, Viennese showdown, match end

function resultHtml(round) {
  const r = round.result;
  if (!r) return "";
  const n = S.state.table.players;
  let head;
  if (!r.scored) head = t("stock_exhausted");
  else {
    const how = { went_out: t("went_out"), rummy: t("rummy_call"), knock: t("knock_call") }[r.termination] || r.termination;
    head = `${escapeHtml(seatName(r.winner))} ${how}`;
  }
  let html = `<p class="result-head">${head}${r.multiplier > 1 ? ` (×${r.multiplier})` : ""}</p><div class="showdown">`;
  for (let i = 0; i < n; i++) {
    if (!round.in_play.includes(i)) continue;
    const arr = r.arrangements && r.arrangements[i];
    html += `<div class="showdown-seat${r.winner === i ? " win" : ""}"><div class="sd-name">${escapeHtml(seatName(i))}: <b>${r.points[i]}</b> ${t("points")}</div><div class="sd-cards">`;
    if (arr) {
      for (const meld of arr.meld_cards) html += `<span class="sd-meld">${meld.map(Cards.svg).map((s) => `<span class="card small">${s}</span>`).join("")}</span>`;
      html += `<span class="sd-dead">${arr.deadwood_cards.map(Cards.svg).map((s) => `<span class="card small">${s}</span>`).join("")}</span>`;
      html += `<span class="sd-dw">${t("deadwood")} ${arr.deadwood}</span>`;
    } else {
      const cards = round.revealed[i] || [];
      html += cards.map((c) => `<span class="card small">${Cards.svg(c)}</span>`).join("");
    }
    html += "</div></div>";
  }
  return html + "</div>";
}

function showOverlay(html, button, onClick) {
  $("#overlay-body").innerHTML = html;
  const b = $("#btn-overlay");
  b.textContent = button;
  b.onclick = () => { $("#overlay").classList.add("hidden"); onClick && onClick(); };
  $("#overlay").classList.remove("hidden");
}

function showRoundOver(state) {
  if (state.match.is_over) return;  // the match-end screen shows the last hand too
  const title = state.table.knock_game ? t("showdown") : t("round_over");
  showOverlay(`<h2 id="round-over">${title}</h2>${resultHtml(state.last_round)}`, t("continue"));
}

function showMatchOver(state) {
  S.overlayFor = "match";
  const m = state.match;
  const names = m.winners.map((w) => escapeHtml(seatName(w))).join(", ");
  const last = state.view.result ? state.view : state.last_round;
  let html = `<h2 id="match-over">${t("match_over")}</h2><p class="winners">${m.winners.length > 1 ? t("winners") : t("winner")}: <b>${names}</b></p>`;
  html += last ? resultHtml(last) : "";
  html += `<table class="scores"><tr>${m.scores.map((_, i) => `<th>${escapeHtml(seatName(i))}</th>`).join("")}</tr>`;
  html += `<tr class="total">${m.scores.map((p) => `<td>${p}</td>`).join("")}</tr></table>`;
  showOverlay(html, t("new_table"), () => { location.href = "/"; });
}

// ---------------------------------------------------------------------------------------------
// Interaction

function toggleSelect(i) {
  clearError($("#game-error"));
  const k = S.selected.indexOf(i);
  if (k >= 0) S.selected.splice(k, 1); else S.selected.push(i);
  render();
}

function selectedCards() {
  const hand = shownHand();
  return S.selected.map((i) => hand[i]);
}

function groupSelection() {
  const cards = selectedCards();
  if (!cards.length) { flash(t("select_cards"), true); return; }
  S.groups.push(cards);
  S.selected = [];
  evaluate();
  render();
}

function playMelds() {
  if (S.selected.length >= 3) groupSelection();
  if (!S.groups.length) { flash(t("select_cards"), true); return; }
  const ev = S.evaluation && S.evaluation.melds.length === S.groups.length ? S.evaluation.melds : null;
  const texts = S.groups.map((g, i) => (ev && ev[i].legal ? ev[i].play : g.join(" ")));
  const v = S.state.view;
  const verb = v.opened[S.seat] ? "meld" : "open";
  act(`${verb} ${texts.join(" | ")}`);
}

function discardSelected(verb = "discard") {
  const cards = selectedCards();
  if (cards.length !== 1) { flash(t("select_one"), true); return; }
  act(`${verb} ${cards[0]}`);
}

function layOffOn(n) {
  const cards = selectedCards();
  if (cards.length !== 1) { flash(t("select_one"), true); return; }
  const options = legal().filter((a) => a.startsWith(`layoff ${cards[0]} on ${n}`));
  act(options[0] || `layoff ${cards[0]} on ${n}`);
}

function dropOn(target, index) {
  const hand = shownHand();
  const card = hand[index];
  if (card === undefined) return;
  if (target.dataset.drop === "discard") { act(`discard ${card}`); return; }
  if (target.dataset.drop === "meld") { S.selected = [index]; layOffOn(Number(target.dataset.meld)); return; }
  if (target.dataset.drop === "tray") {
    if (!S.groups.length) S.groups.push([]);
    S.groups[S.groups.length - 1].push(card);
    S.selected = [];
    evaluate();
    render();
  }
}

function setupDrops() {
  document.addEventListener("dragover", (ev) => { if (ev.target.closest("[data-drop]")) ev.preventDefault(); });
  document.addEventListener("drop", (ev) => {
    const target = ev.target.closest("[data-drop]");
    if (!target) return;
    ev.preventDefault();
    dropOn(target, Number(ev.dataTransfer.getData("text/plain")));
  });
}

async function loadLobby() {
  try {
    const data = await api("/api/presets");
    S.presets = data;
    renderPresets();
    $("#bot-kind").innerHTML = data.bots.map((b) => `<option value="${b}"${b === data.default_bot ? " selected" : ""}>${b}</option>`).join("");
    const list = await api("/api/tables");
    const ul = $("#table-list");
    ul.innerHTML = "";
    for (const tb of list.tables) {
      const li = document.createElement("li");
      const free = tb.seats.filter((s) => s.kind === "open").length;
      const seeded = tb.seeded ? ` · <strong class="seeded">⚠ ${t("seeded")}</strong>` : "";
      li.innerHTML = `<code>${tb.code}</code> ${escapeHtml(tb.rules)} · ${t(tb.status)} · ${free} ${t("open_seat")}${seeded} `;
      const b = document.createElement("button");
      b.type = "button"; b.className = "ghost";
      b.textContent = free && tb.status === "waiting" ? t("join") : t("watch");
      b.addEventListener("click", () => (free && tb.status === "waiting" ? joinTable(tb.code) : openTable(tb.code, { watch: true })));
      li.appendChild(b);
      ul.appendChild(li);
    }
  } catch (err) { S.lobbyForm = "join"; showError(err.message); }
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

async function createTable(form) {
  const f = new FormData(form);
  const seats = Number(f.get("seats"));
  const bots = Math.min(Number(f.get("bots")), seats - 1);
  const body = {
    name: f.get("name") || "", preset: f.get("preset"), seats,
    bots: Array.from({ length: bots }, () => ({ kind: f.get("bot_kind"), level: f.get("bot_level") })),
    overrides: parseOverrides(f.get("overrides") || ""),
  };
  try {
    const grant = await api("/api/tables", body);
    clearError($("#create-error"));
    saveGrant(grant);
    openTable(grant.code);
  } catch (err) { showError(err.message, $("#create-error")); }
}

async function joinTable(code) {
  try {
    const grant = await api(`/api/tables/${encodeURIComponent(code.toUpperCase())}/join`, { name: $("#create-form").elements.name.value || "" });
    clearError($("#join-error"));
    saveGrant(grant);
    openTable(grant.code);
  } catch (err) {
    S.lobbyForm = "join";
    showError(err.status === 404 ? t("no_table", { code: code.toUpperCase() }) : err.message);
  }
}

async function leaveTable() {
  if (!S.token) { location.href = "/"; return; }
  try { await api(`/api/tables/${S.code}/leave`, { token: S.token }); } catch (err) { flash(err.message); }
  localStorage.removeItem("rummykit:" + S.code);
  location.href = "/";
}

function setup() {
  applyLanguage();
  setupDrops();
  $("#btn-lang").addEventListener("click", () => { S.lang = S.lang === "de" ? "en" : "de"; localStorage.setItem("rummykit:lang", S.lang); applyLanguage(); });
  $("#create-form").addEventListener("submit", (ev) => { ev.preventDefault(); createTable(ev.target); });
  $("#join-form").addEventListener("submit", (ev) => { ev.preventDefault(); joinTable(ev.target.elements.code.value.trim()); });
  $("#btn-watch").addEventListener("click", () => { const c = $("#join-form").elements.code.value.trim(); if (c) openTable(c, { watch: true }); });
  $("#btn-start").addEventListener("click", async () => {
    try { await api(`/api/tables/${S.code}/start`, { token: S.token }); } catch (err) { flash(err.message); }
  });
  document.querySelectorAll(".error-close").forEach((b) => b.addEventListener("click", () => clearError(b.closest(".error-box"))));
  $("#create-form").addEventListener("input", () => clearError($("#create-error")));
  $("#join-form").addEventListener("input", () => clearError($("#join-error")));
  $("#preset").addEventListener("change", () => renderPresets());
  $("#btn-preset-rules").addEventListener("click", () => showRules(`/api/presets/${encodeURIComponent($("#preset").value)}/rules`));
  $("#btn-rules").addEventListener("click", () => { if (S.code) showRules(`/api/tables/${encodeURIComponent(S.code)}/rules`); });
  $("#btn-rules-close").addEventListener("click", closeRules);
  $("#rules-dialog").addEventListener("click", (ev) => { if (ev.target.id === "rules-dialog") closeRules(); });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && S.rulesPath) closeRules(); });
  $("#btn-leave-wait").addEventListener("click", leaveTable);
  $("#btn-join-wait").addEventListener("click", () => joinTable(S.code));
  $("#btn-leave").addEventListener("click", leaveTable);
  $("#btn-group").addEventListener("click", groupSelection);
  $("#btn-play").addEventListener("click", playMelds);
  $("#btn-clear").addEventListener("click", () => { S.groups = []; S.selected = []; S.evaluation = null; render(); });
  $("#btn-discard").addEventListener("click", () => discardSelected("discard"));
  $("#btn-knock").addEventListener("click", () => discardSelected("knock"));
  $("#btn-rummy").addEventListener("click", () => discardSelected("rummy"));
  $("#btn-hint").addEventListener("click", () => send({ type: "hint" }));
  $("#stock").addEventListener("click", () => { if (legal().includes("draw")) act("draw"); });
  $("#discard").addEventListener("click", () => {
    if (legal().includes("take")) act("take");
    else if (S.selected.length === 1) discardSelected("discard");
  });
  const code = new URLSearchParams(location.search).get("table");
  if (code) openTable(code); else { showScreen("lobby"); loadLobby(); }
}

setup();
