// The Compare tab: paired simulation of chosen profiles on the same deals, with progress,
// cancel, the figures as a table and as SVG charts, and the JSON and CSV downloads.

import { del, enc, get, post } from "./api.js";
import { byId, clear, h, setOptions } from "./dom.js";
import { distribution, groupedBars, rowBars } from "./charts.js";
import { editorProfile } from "./edit.js";
import { profileChoices, seatSelects } from "./play.js";

let ctx;
let job = null;
let poller = null;
let cancelAsked = false; // Cancel pressed before the server named the job

const el = byId;
const DEFAULT_PROFILES = ["shipped:equal-hands", "shipped:instant-elimination"];

function setStatus(text, kind = "") {
  const node = el("compare-status");
  node.textContent = text;
  node.className = `status ${kind}`;
}

// Figures as the command line prints them: a share as a percentage with its interval in
// points, any other mean to three significant figures.
function sig3(x, sign) {
  if (x === 0) return sign ? "+0" : "0";
  const plus = sign && x > 0 ? "+" : "";
  const exponent = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(3)))));
  if (exponent < -4 || exponent >= 3) {
    const [mantissa, power] = x.toExponential(2).split("e");
    const digits = mantissa.replace(/\.?0+$/, "");
    const p = Number(power);
    return `${plus}${digits}e${p < 0 ? "-" : "+"}${String(Math.abs(p)).padStart(2, "0")}`;
  }
  return plus + String(Number(x.toPrecision(3)));
}

function points(x, sign) {
  const text = (100 * x).toFixed(1);
  return sign && x >= 0 ? `+${text}` : text;
}

function figures(e, share, sign = false) {
  if (!e || e.n === 0) return ["-", ""];
  if (share) return [`${points(e.mean, sign)}%`, `${points(e.low, sign)}..${points(e.high, sign)}`];
  return [sig3(e.mean, sign), `${sig3(e.low, sign)}..${sig3(e.high, sign)}`];
}

function cell(e, share) {
  const [mean, interval] = figures(e, share);
  return interval ? `${mean} (${interval})` : mean;
}

/** The metrics in reading order with labels; from the result where it says. */
function metricList(data) {
  if (Array.isArray(data.metrics)) return data.metrics;
  const first = Object.values(data.profiles)[0];
  return Object.keys(first ? first.metrics : {}).map((name) => ({ name, label: name, share: false }));
}

function renderTable(data, metrics) {
  const labels = Object.keys(data.profiles);
  const table = clear(el("compare-table"));
  table.append(
    h("thead", {}, h("tr", {}, h("th", {}, "metric (mean, 95% interval)"), labels.map((l) => h("th", {}, l)))),
    h(
      "tbody",
      {},
      metrics.map((m) =>
        h(
          "tr",
          { "data-metric": m.name },
          h("th", {}, m.label),
          labels.map((l) => h("td", { class: "num", "data-profile": l }, cell(data.profiles[l].metrics[m.name], m.share))),
        ),
      ),
    ),
  );
}

function renderPairs(data, metrics) {
  const node = clear(el("compare-pairs"));
  for (const pair of data.pairs) {
    const rows = [];
    let equal = 0;
    for (const m of metrics) {
      const e = pair.b_minus_a[m.name];
      if (!e) continue;
      if (e.low === 0 && e.high === 0) {
        equal += 1;
        continue;
      }
      const [mean, interval] = figures(e, m.share, true);
      rows.push(h("tr", { "data-metric": m.name }, h("th", {}, m.label), h("td", { class: `num${e.clear ? " clear" : ""}` }, mean), h("td", { class: `num${e.clear ? " clear" : ""}` }, interval + (e.clear ? " *" : ""))));
    }
    node.append(
      h("h2", {}, `${pair.b} − ${pair.a}, paired (95% intervals; * clear of zero)`),
      rows.length
        ? h("div", { class: "table-wrap" }, h("table", { class: "figures pair" }, h("thead", {}, h("tr", {}, h("th", {}, "metric"), h("th", {}, "B − A"), h("th", {}, "95% interval"))), h("tbody", {}, rows)))
        : null,
      h("p", { class: "muted" }, `${equal} more metrics equal on every deal`),
    );
  }
}

function estimates(data, labels, name) {
  return labels.map((l) => data.profiles[l].metrics[name] || null);
}

function byPrefix(metrics, prefix) {
  return metrics.filter((m) => m.name.startsWith(prefix));
}

function shortLabel(m, prefix) {
  return m.label === m.name ? m.name.slice(prefix.length) : m.label.replace(/^(good play: )?(win share, |hands where )/, "").replace(/ fires$/, "");
}

function renderCharts(data, metrics) {
  const node = clear(el("compare-charts"));
  const labels = Object.keys(data.profiles);
  const seats = byPrefix(metrics, "win_seat_");
  node.append(
    groupedBars({
      id: "chart-seats",
      title: "Win share by seat (relative to the dealer)",
      groups: seats.map((m) => ({ label: shortLabel(m, "win_seat_"), values: estimates(data, labels, m.name) })),
      series: labels,
      share: true,
      reference: 1 / data.players,
      note: `Bars are means, whiskers 95% intervals; the dashed line is an even share (1 in ${data.players}).`,
    }),
    distribution({
      id: "chart-lengths",
      title: "Hand length",
      series: labels.map((l) => data.profiles[l].hand_length),
      names: labels,
      xLabel: "tricks",
    }),
  );
  const fires = byPrefix(metrics, "fires_");
  if (fires.length) {
    node.append(
      rowBars({
        id: "chart-coverage",
        title: "Rule coverage: share of hands where each rule changed play",
        rows: fires.map((m) => ({ label: shortLabel(m, "fires_"), values: estimates(data, labels, m.name) })),
        series: labels,
      }),
    );
  }
  const ladder = metrics.filter((m) => m.name === "skill" || m.name === "good_skill");
  if (data.good_play && ladder.length) {
    node.append(
      groupedBars({
        id: "chart-ladder",
        title: `Skill ladder: one stronger player's win share (up to ${data.good_play})`,
        groups: ladder.map((m) => ({ label: m.label.replace(/: win share$/, ""), values: estimates(data, labels, m.name) })),
        series: labels,
        share: true,
        reference: 1 / data.players,
        note: "Each step seats one stronger bot against weaker ones; the dashed line is an even share.",
      }),
    );
  }
}

function render(data) {
  const metrics = metricList(data);
  el("compare-result").hidden = false;
  el("compare-title").textContent = `${data.units.toLocaleString("en")} paired ${data.unit}s, ${data.players} players, bots ${data.bots.join(",")}, seed ${data.seed}${data.good_play ? `, good play ${data.good_play}` : ""}${data.interrupted ? " (interrupted)" : ""}`;
  const notes = clear(el("compare-notes"));
  for (const same of data.sameness || []) for (const note of same.notes || []) notes.append(h("li", {}, note));
  const verdicts = clear(el("compare-verdicts"));
  for (const line of data.summary || []) verdicts.append(h("li", {}, line));
  const split = clear(el("compare-attribution"));
  for (const line of data.attribution_summary || []) split.append(h("li", {}, line));
  renderCharts(data, metrics);
  renderTable(data, metrics);
  renderPairs(data, metrics);
}

function checkedBoxes() {
  return [...el("compare-profiles").querySelectorAll("input:checked")];
}

function chosenProfiles() {
  return checkedBoxes().map((box) => {
    if (box.value === "editor:") return editorProfile();
    return box.value.slice(box.value.indexOf(":") + 1);
  });
}

/** The baseline is one of the profiles checked: the one chosen while it stays checked, else the first. */
function fillBaseline() {
  const select = el("compare-baseline");
  const boxes = checkedBoxes();
  const kept = boxes.some((box) => box.value === select.value) ? select.value : boxes[0]?.value;
  setOptions(select, boxes.map((box) => [box.value, box.parentElement.textContent.trim()]), kept);
}

/** The baseline's place among the profiles sent. */
function baselineIndex() {
  return Math.max(0, checkedBoxes().findIndex((box) => box.value === el("compare-baseline").value));
}

function running(on) {
  el("compare-run").disabled = on;
  el("compare-cancel").disabled = !on;
}

function progress(done, total) {
  el("compare-progress").max = Math.max(1, total);
  el("compare-progress").value = done;
  el("compare-progress-text").textContent = total ? `${done.toLocaleString("en")} of ${total.toLocaleString("en")}` : "";
}

async function poll() {
  const current = job;
  let answer;
  try {
    answer = await get(`/api/jobs/${enc(current)}`);
  } catch (err) {
    finish(`The comparison stopped: ${err.message}`, "error");
    return;
  }
  if (current !== job) return;
  progress(answer.done, answer.total);
  if (answer.state === "running") {
    poller = setTimeout(poll, 250);
  } else if (answer.state === "done") {
    try {
      render(await get(`/api/jobs/${enc(current)}/result`));
      el("compare-json").href = `/api/jobs/${enc(current)}/result?download=1`;
      el("compare-csv").href = `/api/jobs/${enc(current)}/result?format=csv&download=1`;
      finish("Done.", "ok");
    } catch (err) {
      finish(`The result could not be read: ${err.message}`, "error");
    }
  } else if (answer.state === "cancelled") {
    finish("Cancelled.");
  } else {
    finish(`The comparison failed: ${answer.error}`, "error");
  }
}

function finish(text, kind) {
  clearTimeout(poller);
  running(false);
  setStatus(text, kind);
}

async function run(event) {
  event.preventDefault();
  const profiles = chosenProfiles();
  if (profiles.length < 2) {
    setStatus("Pick two profiles or more to compare.", "error");
    return;
  }
  const players = Number(el("compare-players").value);
  const good = el("compare-good").value;
  const body = {
    profiles,
    players,
    hands: Number(el("compare-hands").value),
    bots: [...el("compare-bots").querySelectorAll("select")].slice(0, players).map((s) => s.value),
    seed: Number(el("compare-seed").value),
    good_play: good === "" ? null : good,
    baseline: baselineIndex(),
    attribute: el("compare-attribute").checked,
    until_decided: el("compare-until").checked,
    rotate_seats: el("compare-rotate").checked,
  };
  if (body.until_decided) {
    body.alpha = Number(el("compare-alpha").value);
    body.metrics = el("compare-metrics").value.split(",").map((s) => s.trim()).filter(Boolean);
  }
  running(true);
  progress(0, 0);
  setStatus("Playing the deals…");
  job = null;
  cancelAsked = false;
  try {
    job = (await post("/api/compare", body)).job;
  } catch (err) {
    finish(`Could not start: ${err.message}`, "error");
    return;
  }
  if (cancelAsked) await cancel();
  poll();
}

async function cancel() {
  if (!job) {
    cancelAsked = true;
    setStatus("Cancelling…");
    return;
  }
  try {
    await del(`/api/jobs/${enc(job)}`);
  } catch (err) {
    setStatus(`Could not cancel: ${err.message}`, "error");
  }
}

/** Search bots play slowly: with one chosen, hands are bounded lower, as the server bounds them. */
function boundHands() {
  const limits = ctx.meta.limits;
  const bots = [...el("compare-bots").querySelectorAll("select")].map((s) => s.value);
  const search = el("compare-good").value !== "" || bots.some((b) => b.includes(":"));
  const most = search ? limits.search_hands : limits.hands;
  const hands = el("compare-hands");
  hands.max = String(most);
  if (Number(hands.value) > most) {
    hands.value = String(most);
    setStatus(`With a search bot a comparison plays at most ${most.toLocaleString("en")} hands.`);
  }
}

export function fillCompareProfiles(meta) {
  const node = el("compare-profiles");
  const checked = new Set([...node.querySelectorAll("input:checked")].map((b) => b.value));
  const chosen = checked.size ? checked : new Set(DEFAULT_PROFILES);
  clear(node);
  for (const group of profileChoices(meta)) {
    for (const [value, label] of group.items) {
      const box = h("input", { type: "checkbox", value, checked: chosen.has(value) });
      node.append(h("label", {}, box, ` ${label}`));
    }
  }
  fillBaseline();
}

export function initCompare(context) {
  ctx = context;
  const meta = ctx.meta;
  fillCompareProfiles(meta);
  const search = ctx.bots().filter((b) => b.includes(":"));
  setOptions(el("compare-good"), [["", "none"], ...search.map((b) => [b, b])], "");
  el("compare-players").max = String(meta.limits.players_max);
  el("compare-hands").max = String(meta.limits.hands);
  const seats = () => seatSelects(el("compare-bots"), "compare-bot", Number(el("compare-players").value) || 4, ctx.bots(), () => "random");
  seats();
  el("compare-players").addEventListener("change", seats);
  el("compare-bots").addEventListener("change", (event) => {
    // A search bot at a seat: measure the skill ladder up to it, unless good play is set.
    const bot = event.target.value;
    if (bot.includes(":") && el("compare-good").value === "") el("compare-good").value = bot;
    boundHands();
  });
  el("compare-good").addEventListener("change", boundHands);
  el("compare-profiles").addEventListener("change", fillBaseline);
  el("compare-form").addEventListener("submit", run);
  el("compare-cancel").addEventListener("click", cancel);
}
