// Playing cards drawn as SVG: rank and suit in the corners, pips or a framed face in the
// middle, red hearts and diamonds, black spades and clubs.

import { s } from "./dom.js";

export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RED = new Set(["H", "D"]);
const W = 100;
const H = 140;

/** "10H" -> {rank: "10", suit: "H"}. */
function parseCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

export function cardName(card) {
  const { rank, suit } = parseCard(card);
  const ranks = { A: "ace", K: "king", Q: "queen", J: "jack" };
  return `${ranks[rank] || rank} of ${SUIT_NAMES[suit] || suit}`;
}

/** A suit's shape in a 100 by 100 box. */
function suitShape(suit, attrs) {
  const paths = {
    H: "M50 92 C22 68 2 50 2 28 C2 12 14 2 28 2 C39 2 46 9 50 18 C54 9 61 2 72 2 C86 2 98 12 98 28 C98 50 78 68 50 92 Z",
    D: "M50 2 L86 50 L50 98 L14 50 Z",
    S: "M50 2 C78 26 98 42 98 60 C98 75 87 84 74 84 C65 84 58 80 54 73 C55 85 59 92 67 98 L33 98 C41 92 45 85 46 73 C42 80 35 84 26 84 C13 84 2 75 2 60 C2 42 22 26 50 2 Z",
    C: "M50 4 A21 21 0 0 1 68 36 A21 21 0 1 1 56 70 C57 84 61 92 68 98 L32 98 C39 92 43 84 44 70 A21 21 0 1 1 32 36 A21 21 0 0 1 50 4 Z",
  };
  return s("path", { d: paths[suit] || paths.S, ...attrs });
}

function pip(suit, x, y, size, flip) {
  const scale = size / 100;
  const turn = flip ? ` rotate(180 ${50} ${50})` : "";
  return s(
    "g",
    { transform: `translate(${x - size / 2} ${y - size / 2}) scale(${scale})${turn}` },
    suitShape(suit),
  );
}

// Pip positions for the number cards, in the card's middle area (x 28..72, y 28..112).
const COLS = { l: 32, m: 50, r: 68 };
const PIPS = {
  2: [["m", 30], ["m", 110]],
  3: [["m", 30], ["m", 70], ["m", 110]],
  4: [["l", 30], ["r", 30], ["l", 110], ["r", 110]],
  5: [["l", 30], ["r", 30], ["m", 70], ["l", 110], ["r", 110]],
  6: [["l", 30], ["r", 30], ["l", 70], ["r", 70], ["l", 110], ["r", 110]],
  7: [["l", 30], ["r", 30], ["m", 50], ["l", 70], ["r", 70], ["l", 110], ["r", 110]],
  8: [["l", 30], ["r", 30], ["m", 50], ["l", 70], ["r", 70], ["m", 90], ["l", 110], ["r", 110]],
  9: [["l", 30], ["r", 30], ["l", 57], ["r", 57], ["m", 70], ["l", 83], ["r", 83], ["l", 110], ["r", 110]],
  10: [["l", 30], ["r", 30], ["m", 44], ["l", 57], ["r", 57], ["l", 83], ["r", 83], ["m", 96], ["l", 110], ["r", 110]],
};

function middle(rank, suit) {
  if (rank === "A") return [pip(suit, 50, 70, 44, false)];
  if (PIPS[rank]) {
    return PIPS[rank].map(([col, y]) => pip(suit, COLS[col], y, 17, y > 70));
  }
  // A face card: a frame, the letter and its suit.
  return [
    s("rect", { x: 22, y: 24, width: 56, height: 92, rx: 4, class: "card-frame" }),
    s("text", { x: 50, y: 78, class: "card-face", "text-anchor": "middle" }, rank),
    pip(suit, 50, 98, 16, false),
  ];
}

function corner(rank, suit, flip) {
  const turn = flip ? `rotate(180 50 70)` : "";
  return s(
    "g",
    { transform: turn },
    s("text", { x: 11, y: 22, class: "card-rank", "text-anchor": "middle" }, rank === "10" ? "10" : rank),
    pip(suit, 11, 32, 11, false),
  );
}

/** One card face up, `width` pixels wide. */
export function cardFace(card, width = 64) {
  const { rank, suit } = parseCard(card);
  const colour = RED.has(suit) ? "red" : "black";
  return s(
    "svg",
    {
      viewBox: `0 0 ${W} ${H}`,
      width,
      height: (width * H) / W,
      class: `card card-${colour}`,
      role: "img",
      "aria-label": cardName(card),
      "data-card": card,
    },
    s("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 8, class: "card-paper" }),
    corner(rank, suit, false),
    corner(rank, suit, true),
    ...middle(rank, suit),
  );
}

/** A card face down. */
export function cardBack(width = 40) {
  const lines = [];
  for (let k = -140; k < 140; k += 14) {
    lines.push(s("line", { x1: k, y1: 0, x2: k + 140, y2: 140, class: "card-weave" }));
    lines.push(s("line", { x1: k + 140, y1: 0, x2: k, y2: 140, class: "card-weave" }));
  }
  return s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, width, height: (width * H) / W, class: "card card-back", role: "img", "aria-label": "a card face down" },
    s("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 8, class: "card-paper" }),
    s("rect", { x: 8, y: 8, width: W - 16, height: H - 16, rx: 4, class: "card-back-field" }),
    s("svg", { x: 8, y: 8, width: W - 16, height: H - 16, class: "card-back-lines" }, ...lines),
    s("rect", { x: 8, y: 8, width: W - 16, height: H - 16, rx: 4, class: "card-back-edge" }),
  );
}

/** A suit symbol on its own, for text lines (the trump suit). */
export function suitIcon(suit, size = 16) {
  return s(
    "svg",
    { viewBox: "0 0 100 100", width: size, height: size, class: `suit-icon card-${RED.has(suit) ? "red" : "black"}`, role: "img", "aria-label": SUIT_NAMES[suit] || suit },
    suitShape(suit),
  );
}
