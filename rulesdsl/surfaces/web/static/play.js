// The Play tab: a hand or a match against bots, with cards drawn as SVG, the cards the
// rules refuse marked with their rule, and a finished hand replayed step by step.

import { ApiError, enc, get, post } from "./api.js";
import { byId, clear, h, setOptions } from "./dom.js";
import { cardBack, cardFace, cardName, suitIcon, SUIT_NAMES } from "./cards.js";
import { editorProfile } from "./edit.js";

let ctx;
let table = null; // the table state the server last sent
let steps = []; // the finished hand's replay

const el = byId;

function humanSeat(state) {
  const seat = state.seats.find((s) => s.bot === "human");
  return seat ? seat.seat : null;
}

function seatName(state, seat) {
  const found = state.seats[seat];
  return found && found.bot === "human" ? "You" : `Seat ${seat}`;
}

function message(text, kind = "") {
  const node = el("play-message");
  node.textContent = text;
  node.className = `play-message ${kind}`;
}

function renderInfo(state, replaying) {
  const node = clear(el("play-info"));
  node.append(
    h("span", {}, "Seed ", h("strong", { id: "play-seed" }, String(state.seed))),
    h("span", {}, "Profile ", h("strong", {}, String(state.profile))),
    h("span", {}, "Hand ", h("strong", {}, String(state.hand_number))),
  );
  if (state.match && state.match.scores) {
    const scores = state.match.scores.map((points, seat) => `${seatName(state, seat)} ${points}`).join(", ");
    node.append(h("span", {}, "Points ", h("strong", {}, scores)));
  }
  if (replaying) node.append(h("span", { class: "replaying" }, replaying));
}

function renderSeats(state) {
  const node = clear(el("play-seats"));
  for (const seat of state.seats) {
    const badges = [];
    if (state.dealer === seat.seat) badges.push(h("span", { class: "badge" }, "dealer"));
    if (state.to_play === seat.seat) badges.push(h("span", { class: "badge" }, "to play"));
    if (seat.out) badges.push(h("span", { class: "badge out" }, "out"));
    // A bot's cards face down; face up in a replay, where every hand is shown.
    const backs = h("div", { class: "backs" });
    if (seat.hand && seat.bot !== "human") {
      backs.classList.add("open");
      for (const card of seat.hand) backs.append(cardFace(card, 34));
    } else {
      for (let k = 0; k < Math.min(seat.cards, 10); k++) backs.append(cardBack(26));
    }
    node.append(
      h(
        "div",
        { class: `seat${state.to_play === seat.seat ? " to-play" : ""}${seat.out ? " out" : ""}`, "data-seat": seat.seat },
        h("div", {}, h("span", { class: "name" }, seatName(state, seat.seat)), ...badges),
        h("div", { class: "muted" }, `${seat.bot === "human" ? "seat " + seat.seat : seat.bot} · ${seat.cards} card${seat.cards === 1 ? "" : "s"} · ${seat.tricks} trick${seat.tricks === 1 ? "" : "s"}`),
        backs,
      ),
    );
  }
}

function renderTrick(node, trick, state, width) {
  clear(node);
  for (const play of trick || []) {
    node.append(h("figure", {}, cardFace(play.card, width), h("figcaption", {}, seatName(state, play.seat))));
  }
}

function renderFelt(state) {
  const trump = clear(el("play-trump"));
  if (state.trump && state.trump.card) {
    trump.append(cardFace(state.trump.card, 64));
  } else if (state.trump && state.trump.suit) {
    trump.append(suitIcon(state.trump.suit, 40), h("div", {}, SUIT_NAMES[state.trump.suit]));
  } else {
    trump.append(h("div", {}, "no trumps"));
  }
  const stock = clear(el("play-stock"));
  stock.append(h("div", { class: "stock" }, state.stock > 0 ? cardBack(64) : null, h("span", { class: "count", id: "play-stock-count" }, String(state.stock))));
  renderTrick(el("play-trick"), state.trick, state, 64);
  renderTrick(el("play-last-trick"), state.last_trick, state, 40);
}

function showTooltip(target, refusal) {
  const tip = el("play-tooltip");
  clear(tip).append(h("span", { class: "rule" }, `${cardName(refusal.card)}: refused by ${refusal.rule}`), refusal.sentence);
  tip.hidden = false;
  const box = target.getBoundingClientRect();
  const tipBox = tip.getBoundingClientRect();
  tip.style.left = `${Math.max(8, Math.min(window.innerWidth - tipBox.width - 8, box.left))}px`;
  tip.style.top = `${Math.max(8, box.top - tipBox.height - 8)}px`;
}

function hideTooltip() {
  el("play-tooltip").hidden = true;
}

function renderHand(state, interactive) {
  const node = clear(el("play-hand"));
  const seat = humanSeat(state);
  const own = seat === null ? null : state.seats[seat];
  el("play-hand-label").textContent = own === null ? "Every seat is a bot." : own.out ? "Your hand (you are out)" : "Your hand";
  if (!own || !own.hand) return;
  const refused = new Map((state.refused || []).map((r) => [r.card, r]));
  const legal = new Set(state.legal || []);
  const yourTurn = interactive && state.to_play === seat && !over(state);
  for (const card of own.hand) {
    const refusal = yourTurn ? refused.get(card) : undefined;
    const kind = !yourTurn ? "waiting" : refusal ? "refused" : legal.has(card) ? "legal" : "waiting";
    const button = h(
      "button",
      { type: "button", class: `card-button ${kind}`, "data-card": card, "aria-label": `${cardName(card)}${refusal ? ", refused by " + refusal.rule : ""}` },
      cardFace(card, 72),
    );
    if (refusal) {
      button.dataset.rule = refusal.rule;
      for (const show of ["pointerenter", "focus"]) button.addEventListener(show, () => showTooltip(button, refusal));
      for (const hide of ["pointerleave", "blur"]) button.addEventListener(hide, hideTooltip);
    }
    if (yourTurn) button.addEventListener("click", () => move(card));
    node.append(button);
  }
}

function over(state) {
  return Boolean(state.hand_over || state.finished);
}

function renderLog(lines) {
  const node = clear(el("play-log"));
  for (const line of lines) node.append(h("li", { class: line.startsWith(" ") ? "sub" : "head" }, line.trim()));
  node.scrollTop = node.scrollHeight;
}

function render(state, { interactive = true, replaying = "", log = state.log || [] } = {}) {
  el("play-area").hidden = false;
  renderInfo(state, replaying);
  renderSeats(state);
  renderFelt(state);
  renderHand(state, interactive);
  renderLog(log);
}

function resultText(state) {
  const result = state.result || {};
  const who = result.winner === null || result.winner === undefined ? "Nobody wins the hand" : `${seatName(state, result.winner)} ${result.winner === humanSeat(state) ? "win" : "wins"} the hand`;
  const reason = result.reason ? ` (${String(result.reason).replaceAll("_", " ")})` : "";
  const matchDone = state.match && state.match.finished ? " The match is over." : "";
  return `${who}${reason}.${matchDone}`;
}

async function show(state) {
  table = state;
  hideTooltip();
  render(state);
  const after = el("play-after");
  if (!over(state)) {
    after.hidden = true;
    const seat = humanSeat(state);
    message(state.to_play === seat ? "Your turn: play a card." : "");
    return;
  }
  message(resultText(state), "result");
  el("play-next").hidden = !(state.match && !state.match.finished);
  el("play-trace").href = `/api/play/${enc(state.id)}/trace`;
  el("play-trace").setAttribute("download", `hand-${state.seed}-${state.hand_number}.jsonl`);
  try {
    steps = (await get(`/api/play/${enc(state.id)}/replay`)).steps;
  } catch (err) {
    steps = [];
    message(`${resultText(state)} The replay is not available: ${err.message}`, "result");
  }
  const slider = el("replay-slider");
  slider.max = String(Math.max(0, steps.length - 1));
  slider.value = slider.max;
  el("play-replay").hidden = steps.length === 0;
  el("replay-step").textContent = steps.length ? `step ${steps.length} of ${steps.length}` : "";
  after.hidden = false;
}

function replayTo(index) {
  if (!steps.length) return;
  const k = Math.max(0, Math.min(steps.length - 1, index));
  el("replay-slider").value = String(k);
  el("replay-step").textContent = `step ${k + 1} of ${steps.length}`;
  const log = steps.slice(0, k + 1).flatMap((step) => step.events || []);
  render(steps[k], { interactive: false, replaying: `replaying step ${k + 1} of ${steps.length}`, log });
}

async function move(card) {
  hideTooltip();
  try {
    await show(await post(`/api/play/${enc(table.id)}/move?lang=${enc(ctx.lang())}`, { card }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) {
      message(`${err.data.card || card} is refused by ${err.data.rule}: ${err.data.sentence}`, "error");
    } else {
      message(`The move failed: ${err.message}`, "error");
    }
  }
}

function chosenProfile(select) {
  const value = select.value;
  if (value === "editor:") return editorProfile();
  return value.slice(value.indexOf(":") + 1);
}

async function start(event) {
  event.preventDefault();
  const players = Number(el("play-players").value);
  const bots = [...el("play-bots").querySelectorAll("select")].slice(0, players).map((s) => s.value);
  if (bots.filter((b) => b === "human").length > 1) {
    setStatus("Only one seat can be yours.", "error");
    return;
  }
  const seedText = el("play-seed-input").value.trim();
  const body = {
    profile: chosenProfile(el("play-profile")),
    players,
    bots,
    seed: seedText === "" ? null : Number(seedText),
    match: el("play-match").checked,
  };
  setStatus("Dealing…");
  try {
    const state = await post(`/api/play?lang=${enc(ctx.lang())}`, body);
    setStatus("");
    await show(state);
  } catch (err) {
    const first = (err.data && err.data.diagnostics && err.data.diagnostics[0]) || null;
    const where = first ? ` (line ${first.line}, column ${first.column}: ${first.message})` : "";
    setStatus(`Could not deal: ${err.message}${where}`, "error");
  }
}

function setStatus(text, kind = "") {
  const node = el("play-status");
  node.textContent = text;
  node.className = `status ${kind}`;
}

export function seatSelects(container, prefix, players, choices, pick) {
  const old = [...container.querySelectorAll("select")].map((s) => s.value);
  clear(container);
  for (let seat = 0; seat < players; seat++) {
    const select = h("select", { id: `${prefix}-${seat}` });
    setOptions(select, choices.map((c) => [c, c]), old[seat] || pick(seat));
    container.append(h("label", {}, `Seat ${seat}`, select));
  }
}

export function profileChoices(meta) {
  const workspace = meta.profiles.filter((p) => p.origin === "workspace").map((p) => [`workspace:${p.name}`, p.name]);
  const shipped = meta.profiles.filter((p) => p.origin === "shipped").map((p) => [`shipped:${p.name}`, p.name]);
  const groups = [{ group: "Editor", items: [["editor:", "the editor's text"]] }];
  if (workspace.length) groups.push({ group: "Workspace", items: workspace });
  groups.push({ group: "Shipped", items: shipped });
  return groups;
}

export function fillPlayProfiles(meta) {
  const select = el("play-profile");
  const keep = select.value || "shipped:equal-hands";
  setOptions(select, profileChoices(meta));
  if ([...select.options].some((o) => o.value === keep)) select.value = keep;
}

export function initPlay(context) {
  ctx = context;
  const meta = ctx.meta;
  el("play-players").max = String(meta.limits.players_max);
  const bots = ["human", ...ctx.bots()];
  const pick = (seat) => (seat === 0 ? "human" : bots.includes("heuristic") ? "heuristic" : bots[1]);
  const seats = () => seatSelects(el("play-bots"), "play-bot", Number(el("play-players").value) || 4, bots, pick);
  seats();
  el("play-players").addEventListener("change", seats);
  fillPlayProfiles(meta);
  el("play-form").addEventListener("submit", start);
  el("play-next").addEventListener("click", async () => {
    try {
      await show(await post(`/api/play/${enc(table.id)}/next?lang=${enc(ctx.lang())}`));
    } catch (err) {
      message(`Could not deal the next hand: ${err.message}`, "error");
    }
  });
  el("replay-slider").addEventListener("input", () => replayTo(Number(el("replay-slider").value)));
  el("replay-prev").addEventListener("click", () => replayTo(Number(el("replay-slider").value) - 1));
  el("replay-next").addEventListener("click", () => replayTo(Number(el("replay-slider").value) + 1));
  window.addEventListener("scroll", hideTooltip, { passive: true });
}
