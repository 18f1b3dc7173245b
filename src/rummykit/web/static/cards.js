// SVG playing cards drawn from the engine's notation ("QH", "10D", "JK"); no image files.
"use strict";

const Cards = (() => {
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const RED = new Set(["D", "H"]);
  const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

  function parse(text) {
    if (text === "JK") return { joker: true, rank: "", suit: "", text };
    return { joker: false, rank: text.slice(0, -1), suit: text.slice(-1), text };
  }

  function points(text) {
    const c = parse(text);
    if (c.joker) return 30;
    if (c.rank === "A") return 11;
    if (["J", "Q", "K", "10"].includes(c.rank)) return 10;
    return Number(c.rank);
  }

  // Rank letters shown: "de" as German packs print them (B Bube, D Dame, K König, A Ass), "en"
  // J Q K A. The notation the page sends stays J and Q.
  let letters = "en";
  const COURT = { de: { J: "B", Q: "D" }, en: { B: "J", D: "Q" } };
  function setLetters(l) { letters = l === "de" ? "de" : "en"; }
  const rankShown = (rank) => COURT[letters][rank] || rank;

  // A text with every card shown with a suit symbol in the page's rank letters: "10♥ J♥ Q♥" reads
  // "10♥ B♥ D♥" in German. The joker ("JK") and notation without symbols stay as they are.
  function faces(text) {
    if (typeof text !== "string") return text;
    return text.replace(/(^|[^\w])([JQBD])(?=[♣♦♥♠])/g, (m, pre, r) => pre + (COURT[letters][r] || r));
  }

  function esc(s) {
    return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
  }

  // A card as players read it: "6♥", "10♠", "Joker".
  function label(text) {
    const c = parse(text);
    return c.joker ? "Joker" : rankShown(c.rank) + SUITS[c.suit];
  }

  // The page's language, for the words a card says to a screen reader.
  let language = "en";
  function setLanguage(l) { language = l === "de" ? "de" : "en"; }

  // A card in words, as the server's texts name it (rummykit.i18n.cards.card_name): "queen of hearts" /
  // "Herz-Dame", "7 of spades" / "Pik-7", "joker" / "Joker". For screen readers and tooltips.
  const RANK_WORDS = {
    en: { A: "ace", J: "jack", Q: "queen", K: "king" },
    de: { A: "Ass", J: "Bube", Q: "Dame", K: "König" },
  };
  const SUIT_WORDS = {
    en: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
    de: { C: "Kreuz", D: "Karo", H: "Herz", S: "Pik" },
  };
  function name(text) {
    const c = parse(text);
    if (c.joker) return language === "de" ? "Joker" : "joker";
    const rank = RANK_WORDS[language][c.rank] || c.rank;
    return language === "de" ? `${SUIT_WORDS.de[c.suit]}-${rank}` : `${rank} of ${SUIT_WORDS.en[c.suit]}`;
  }

  // A text as a screen reader should say it: every card written with a suit symbol ("Q♠", "10♥",
  // German "D♣"), a joker with what it stands for ("JK(=K♥)", a set's "JK(=3♥/3♠)") and a bare "JK" in
  // words, the meld separator "|" as a pause: "opens with Q♠ JK Q♣ | 4♠ 5♠ JK" is said "opens with
  // queen of spades, joker, queen of clubs; 4 of spades, 5 of spades, joker". Read aloud, the symbols
  // were "Q black spade suit JK vertical line …".
  const SYMBOL_SUITS = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };
  const SHOWN_RANKS = { B: "J", D: "Q" };
  const CARD = /(10|[2-9AJQKBD])([♣♦♥♠])/g;
  const cardWords = (text) => text.replace(CARD, (m, rank, suit) => name((SHOWN_RANKS[rank] || rank) + SYMBOL_SUITS[suit]));
  function spoken(text) {
    if (typeof text !== "string" || !/[♣♦♥♠|]|\bJK\b/.test(text)) return text;
    const forWord = language === "de" ? "für" : "for the", or = language === "de" ? " oder " : " or the ";
    // Each card (a joker with what it stands for) becomes its words between markers, so that cards next
    // to each other are said as a list ("queen of spades, joker, queen of clubs").
    const mark = (words) => `\u0001${words}\u0002`;
    return text
      .replace(/JK\(=([^)]*)\)/g, (m, inner) => mark(`${name("JK")} (${forWord} ${cardWords(inner).split("/").join(or)})`))
      .replace(/\bJK\b/g, mark(name("JK")))
      .replace(CARD, (m) => mark(cardWords(m)))
      .replace(/\u0002 \u0001/g, ", ")
      .replace(/[\u0001\u0002]/g, "")
      .replace(/\s*\|\s*/g, "; ");
  }

  // A card as the object of a move ("Du ziehst Herz-7"): its name, but a German joker with its article
  // ("Du ziehst einen Joker") and a German jack declined ("Du ziehst Kreuz-Buben"), as the server's move
  // texts say it (rummykit.i18n.cards.card_object).
  function objectName(text) {
    if (language !== "de") return name(text);
    if (text === "JK") return "einen Joker";
    const c = parse(text);
    return c.rank === "J" ? `${SUIT_WORDS.de[c.suit]}-Buben` : name(text);
  }

  // A card as the object of a move, as players read it ("nimmt B♣"): its label, but a German joker
  // with its article ("nimmt einen Joker", as objectName says it; "nimmt Joker" was no German).
  function objectLabel(text) {
    return language === "de" && text === "JK" ? "einen Joker" : label(text);
  }

  // A rank in words with its indefinite article, for a set's joker that stands for the rank in a
  // missing suit: "a queen", "an ace", "an 8" / "eine Dame", "einen König", "ein Ass", "eine 7".
  function rankWithArticle(rank) {
    if (language === "de") {
      const word = { A: "ein Ass", J: "einen Buben", Q: "eine Dame", K: "einen König" }[rank];
      return word || `eine ${rank}`;
    }
    const word = RANK_WORDS.en[rank] || rank;
    return (word === "ace" || word === "8" ? "an " : "a ") + word;
  }

  // One card as an SVG string (60 × 84 units; the CSS sets the size).
  function svg(text) {
    const c = parse(text);
    const label = name(text);  // in words for a screen reader: "Kreuz-7", "7 of clubs"
    if (c.joker) {
      return `<svg viewBox="0 0 60 84" role="img" aria-label="${label}">
        <rect x="0.5" y="0.5" width="59" height="83" rx="5" class="face"/>
        <text x="5" y="14" class="idx joker">J</text><text x="5" y="24" class="idx joker">K</text>
        <text x="30" y="54" text-anchor="middle" class="pip joker">★</text>
        <text x="55" y="78" text-anchor="end" class="idx joker small">JOKER</text></svg>`;
    }
    const color = RED.has(c.suit) ? "red" : "black";
    const s = SUITS[c.suit];
    return `<svg viewBox="0 0 60 84" role="img" aria-label="${label}">
      <rect x="0.5" y="0.5" width="59" height="83" rx="5" class="face"/>
      <text x="4" y="15" class="idx ${color}">${esc(rankShown(c.rank))}</text>
      <text x="4" y="27" class="idx ${color}">${s}</text>
      <text x="30" y="56" text-anchor="middle" class="pip ${color}">${s}</text>
      <text x="56" y="80" text-anchor="end" class="idx ${color} flip">${esc(rankShown(c.rank))}</text></svg>`;
  }

  function back() {
    return `<svg viewBox="0 0 60 84" role="img" aria-label="${language === "de" ? "Kartenrücken" : "card back"}">
      <rect x="0.5" y="0.5" width="59" height="83" rx="5" class="back"/>
      <rect x="5" y="5" width="50" height="74" rx="3" class="back-inner"/>
      <path d="M30 18 L44 42 L30 66 L16 42 Z" class="back-mark"/></svg>`;
  }

  // A card element: <div class="card" data-card="QH">svg</div>
  function element(text, opts = {}) {
    const el = document.createElement("div");
    el.className = "card" + (opts.small ? " small" : "");
    if (text) {
      el.dataset.card = text;
      el.innerHTML = svg(text);
      el.title = label(text);  // "D♥" on a German page, not the notation "QH"
    } else {
      el.classList.add("facedown");
      el.innerHTML = back();
    }
    return el;
  }

  return { parse, points, label, objectLabel, name, objectName, rankWithArticle, faces, spoken, setLetters, setLanguage, svg, back, element, RANK_ORDER, SUITS };
})();
