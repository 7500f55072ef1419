// The Edit tab: a profile editor with live diagnostics, highlighting, the rule sheet, the
// difference from its parent, reach analysis, and saving in the workspace.

import { ApiError, enc, get, post, put } from "./api.js";
import { byId, clear, debounce, h, setOptions } from "./dom.js";

const DRAFT_KEY = "rulesdsl.edit.draft";
const SEVERITY_RANK = { error: 3, warning: 2, info: 1 };

const state = {
  name: "", // the workspace file the text is saved as ("" before it has one)
  version: null, // the saved file's version the text started from; null for a new file
  savedText: null, // the text as last opened or saved, to know when there are changes
  tokens: [],
  diagnostics: [],
  seq: 0,
  lastGood: null, // the last answer for a text without errors: its sheet, diff and reach
};

let ctx;

function el(id) {
  return byId(id);
}

function text() {
  return el("edit-text").value;
}

/** What the other tabs play and compare when they take "the editor's text". */
export function editorProfile() {
  const profile = { text: text(), syntax: el("edit-syntax").value };
  return state.name ? { ...profile, name: state.name } : profile;
}

function setStatus(message, kind = "") {
  const node = el("edit-status");
  node.textContent = message;
  node.className = `status ${kind}`;
}

// Positions: 1-based lines and columns counted in characters (code points).
function lineStarts(value) {
  const starts = [0];
  for (let i = 0; i < value.length; i++) if (value[i] === "\n") starts.push(i + 1);
  return starts;
}

function offsetOf(value, line, column) {
  const starts = lineStarts(value);
  if (line > starts.length) return value.length;
  const start = starts[Math.max(0, line - 1)];
  const end = line < starts.length ? starts[line] - 1 : value.length;
  const chars = Array.from(value.slice(start, end));
  return start + chars.slice(0, Math.max(0, column - 1)).join("").length;
}

// Highlighting: the text drawn again under the transparent textarea, in spans.
function marks(lines) {
  const kinds = lines.map((chars) => new Array(chars.length).fill(""));
  const squiggles = lines.map((chars) => new Array(chars.length).fill(""));
  for (const t of state.tokens) {
    const row = kinds[t.line - 1];
    if (!row) continue;
    for (let j = t.column - 1; j < t.column - 1 + t.length && j < row.length; j++) row[j] = t.kind;
  }
  for (const d of state.diagnostics) {
    for (let line = d.line; line <= (d.end_line || d.line); line++) {
      const row = squiggles[line - 1];
      if (!row) continue;
      const from = line === d.line ? d.column - 1 : 0;
      let to = line === (d.end_line || d.line) ? (d.end_column || d.column + 1) - 1 : row.length;
      if (to <= from) to = from + 1;
      for (let j = Math.max(0, from); j < Math.min(to, row.length); j++) {
        if ((SEVERITY_RANK[d.severity] || 0) > (SEVERITY_RANK[row[j]] || 0)) row[j] = d.severity;
      }
    }
  }
  return { kinds, squiggles };
}

function renderHighlight() {
  const pre = clear(el("edit-highlight"));
  const lines = text().split("\n").map((line) => Array.from(line));
  const { kinds, squiggles } = marks(lines);
  lines.forEach((chars, i) => {
    let j = 0;
    while (j < chars.length) {
      let k = j;
      while (k < chars.length && kinds[i][k] === kinds[i][j] && squiggles[i][k] === squiggles[i][j]) k++;
      const piece = chars.slice(j, k).join("");
      const classes = [kinds[i][j] && `tok-${kinds[i][j]}`, squiggles[i][j] && `sq-${squiggles[i][j]}`];
      const cls = classes.filter(Boolean).join(" ");
      pre.append(cls ? h("span", { class: cls }, piece) : document.createTextNode(piece));
      j = k;
    }
    pre.append(document.createTextNode("\n"));
  });
  pre.append(document.createTextNode(" "));
  syncScroll();
}

function syncScroll() {
  const area = el("edit-text");
  const pre = el("edit-highlight");
  pre.scrollTop = area.scrollTop;
  pre.scrollLeft = area.scrollLeft;
}

// Diagnostics: each with its place, the line and a caret under the span, a hint, a fix.
function caret(d) {
  const line = text().split("\n")[d.line - 1];
  if (line === undefined) return null;
  const chars = Array.from(line);
  const lead = chars.slice(0, d.column - 1).map((c) => (c === "\t" ? "\t" : " ")).join("");
  const width = d.end_line === d.line && d.end_column > d.column ? d.end_column - d.column : 1;
  const gutter = `${d.line} | `;
  return h(
    "pre",
    { class: "caret" },
    gutter + line + "\n",
    " ".repeat(gutter.length) + lead,
    h("span", { class: "marks" }, "^" + "~".repeat(Math.max(0, width - 1))),
  );
}

function applyFix(fix) {
  const area = el("edit-text");
  const value = area.value;
  const start = offsetOf(value, fix.line, fix.column);
  const end = offsetOf(value, fix.end_line, fix.end_column);
  area.focus();
  area.setSelectionRange(start, end);
  // setRangeText keeps the browser's undo history close to a typed edit.
  area.setRangeText(fix.text, start, end, "end");
  changed();
  checkNow();
}

function goTo(d) {
  const area = el("edit-text");
  const start = offsetOf(area.value, d.line, d.column);
  area.focus();
  area.setSelectionRange(start, start);
}

function renderDiagnostics() {
  const list = clear(el("edit-diagnostics"));
  for (const d of state.diagnostics) {
    const where = h("span", { class: "where", title: "Go there", onclick: () => goTo(d) }, `${d.line}:${d.column}`);
    list.append(
      h(
        "li",
        { class: `diagnostic ${d.severity}`, "data-code": d.code },
        h("div", {}, h("span", { class: "severity" }, d.severity), where, h("span", { class: "message" }, d.message), " ", h("span", { class: "muted" }, `[${d.code}]`)),
        caret(d),
        d.hint ? h("div", { class: "hint" }, `hint: ${d.hint}`) : null,
        d.fix ? h("div", { class: "fix" }, h("button", { type: "button", class: "fix-button", onclick: () => applyFix(d.fix) }, d.fix.title)) : null,
      ),
    );
  }
}

function renderSummary(answer) {
  const node = el("edit-summary");
  const errors = answer.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = answer.diagnostics.filter((d) => d.severity === "warning").length;
  if (answer.ok && !warnings) {
    node.textContent = "The profile reads: no problems.";
  } else {
    const parts = [];
    if (errors) parts.push(`${errors} error${errors > 1 ? "s" : ""}`);
    if (warnings) parts.push(`${warnings} warning${warnings > 1 ? "s" : ""}`);
    node.textContent = parts.join(", ") || "The profile reads.";
  }
  node.className = `summary ${errors ? "bad" : "ok"}`;
}

/** The rule sheet's text, laid out for a terminal, as headings, paragraphs and lists
 * that reflow: a line underlined with = or - is a heading, "- " starts an item, and a
 * line indented by two spaces goes on with the line before it; any other line is a paragraph. */
function sheetBlocks(sheet) {
  const lines = sheet.split("\n");
  const blocks = [];
  let list = null;
  let last = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const under = lines[i + 1] || "";
    if (line.trim() && /^(=+|-+)$/.test(under.trim()) && under.trim().length >= line.trim().length / 2) {
      blocks.push(h(under.trim()[0] === "=" ? "h3" : "h4", {}, line.trim()));
      list = last = null;
      i++;
    } else if (line.startsWith("- ")) {
      if (!list) blocks.push((list = h("ul", {})));
      list.append((last = h("li", {}, line.slice(2))));
    } else if (!line.trim()) {
      list = last = null;
    } else if (last && line.startsWith("  ")) {
      last.append(" " + line.trim());
    } else {
      list = null;
      blocks.push((last = h("p", {}, line.trim())));
    }
  }
  return blocks;
}

function renderSheet(answer) {
  const node = clear(el("edit-sheet"));
  if (answer.sheet === null) {
    node.append(h("p", { class: "muted" }, "The rule sheet shows once the profile has no errors."));
  } else {
    node.append(h("div", { class: "sheet" }, sheetBlocks(answer.sheet)));
  }
}

function side(value) {
  if (!value) return h("td", { class: "muted" }, "not stated");
  const words = value.value !== undefined ? value.value : Object.entries(value.clauses || {}).map(([k, v]) => `${k} ${v}`).join("; ");
  return h(
    "td",
    {},
    h("div", { class: "value" }, words),
    h("div", {}, value.sentence),
    value.assumed ? h("div", { class: "muted" }, "assumed" + (value.note ? `: ${value.note}` : "")) : null,
  );
}

function renderDiff(answer) {
  const node = clear(el("edit-diff"));
  if (answer.diff === null) {
    const why =
      answer.sheet !== null && answer.parent === null
        ? "This profile extends no other: it starts from the defaults."
        : "The difference shows once the profile has no errors.";
    node.append(h("p", { class: "muted" }, why));
    return;
  }
  node.append(h("p", {}, `Against ${answer.parent === null ? "the defaults" : answer.parent}: ${answer.diff.length} difference${answer.diff.length === 1 ? "" : "s"}.`));
  if (!answer.diff.length) return;
  const rows = answer.diff.map((d) =>
    h("tr", {}, h("th", {}, d.option || `${d.rule} (${d.change})`), side(d.a), side(d.b)),
  );
  node.append(
    h("table", { class: "diff" }, h("thead", {}, h("tr", {}, h("th", {}, "option"), h("th", {}, answer.parent || "defaults"), h("th", {}, "this profile"))), h("tbody", {}, rows)),
  );
}

function renderDead(answer) {
  const node = clear(el("edit-dead"));
  if (answer.sheet === null) {
    node.append(h("p", { class: "muted" }, "Reach analysis runs once the profile has no errors."));
    return;
  }
  if (!answer.dead.length) {
    node.append(h("p", {}, "Every option and stated rule can act: reach analysis finds none that never does."));
    return;
  }
  node.append(h("p", {}, "These can never act under this profile:"));
  node.append(h("ul", { class: "dead-list" }, answer.dead.map((d) => h("li", {}, h("strong", {}, d.rule), ": ", d.reason))));
}

// Checking: debounced as you type; an answer to an older text is dropped.
async function checkNow() {
  const seq = ++state.seq;
  const body = { text: text(), syntax: el("edit-syntax").value, lang: ctx.lang(), name: state.name || null };
  let answer;
  try {
    answer = await post("/api/check", body);
  } catch (err) {
    if (seq === state.seq) setStatus(`Could not check the profile: ${err.message}`, "error");
    return;
  }
  if (seq !== state.seq) return;
  state.tokens = answer.tokens || [];
  state.diagnostics = answer.diagnostics || [];
  renderHighlight();
  renderDiagnostics();
  renderSummary(answer);
  renderSide(answer);
}

/** The sheet, the diff and reach analysis; while the text has errors, those of the last
 * text without errors, said to be so. */
function renderSide(answer) {
  if (answer.sheet !== null) state.lastGood = answer;
  const shown = answer.sheet === null && state.lastGood ? state.lastGood : answer;
  const note = el("edit-side-note");
  note.hidden = shown === answer;
  note.textContent = "The text has errors: this is what its last text without errors says.";
  el("panel-edit").classList.toggle("stale", shown !== answer);
  renderSheet(shown);
  renderDiff(shown);
  renderDead(shown);
}

const checkSoon = debounce(checkNow, 250);
// The text, and the file it came from, kept in the browser: a reload brings back what was
// not saved yet.
function storeDraft() {
  const draft = { text: text(), syntax: el("edit-syntax").value, name: state.name, version: state.version, savedText: state.savedText };
  localStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
}
const keepDraft = debounce(storeDraft, 200);

function changed() {
  renderHighlight();
  keepDraft();
  checkSoon();
}

function dirty() {
  return state.savedText !== null && text() !== state.savedText;
}

function load({ body, name, version, syntax }) {
  el("edit-text").value = body;
  el("edit-syntax").value = syntax;
  el("edit-name").value = name;
  state.name = name;
  state.version = version;
  state.savedText = body;
  state.tokens = [];
  state.diagnostics = [];
  state.lastGood = null;
  changed();
  checkNow();
}

async function open() {
  const [origin, name] = splitSource(el("edit-source").value);
  if (dirty() && !window.confirm("The editor has changes that are not saved. Open another profile anyway?")) return;
  const before = text();
  try {
    if (origin === "workspace") {
      const file = await get(`/api/workspace/${enc(name)}`);
      if (typedMeanwhile(before, name)) return;
      load({ body: file.text, name: file.name, version: file.version, syntax: file.syntax });
      setStatus(`Opened ${file.name} from the workspace.`);
    } else {
      const profile = await get(`/api/profiles/${enc(name)}`);
      if (typedMeanwhile(before, name)) return;
      const suffix = profile.syntax === "yaml" ? ".yaml" : ".rules";
      load({ body: profile.text, name: "", version: null, syntax: profile.syntax });
      el("edit-name").value = `${profile.name}${suffix}`;
      state.name = "";
      setStatus(`Opened the shipped profile ${profile.name}; saving writes a new file in the workspace.`);
    }
  } catch (err) {
    setStatus(`Could not open ${name}: ${err.message}`, "error");
  }
}

/** Whether the text changed while a profile was on its way: what was typed is kept, never
 * replaced by the profile that arrived after it. */
function typedMeanwhile(before, name) {
  if (text() === before) return false;
  setStatus(`Kept your text: it changed while ${name} was opening. Open it again to replace your text.`);
  return true;
}

function splitSource(value) {
  const at = value.indexOf(":");
  return [value.slice(0, at), value.slice(at + 1)];
}

// Saving: the version the text started from goes along, so a save made meanwhile in
// another tab is never overwritten unasked.
async function save(name, version) {
  el("edit-conflict").hidden = true;
  if (!name) {
    setStatus("Give the file a name to save it as, such as house.rules.", "error");
    return;
  }
  const body = text();
  try {
    const answer = await put(`/api/workspace/${enc(name)}`, { text: body, version });
    state.name = answer.name;
    state.version = answer.version;
    state.savedText = body;
    el("edit-name").value = answer.name;
    storeDraft();
    setStatus(`Saved ${answer.name} in the workspace.`, "ok");
    await ctx.refreshProfiles(`workspace:${answer.name}`);
    checkNow();
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      conflict(name, err.data.version);
    } else {
      setStatus(`Not saved: ${err.message}`, "error");
    }
  }
}

function conflict(name, current) {
  el("edit-conflict-text").textContent =
    `${name} was saved from somewhere else (another tab?) after you opened it, so it was not saved. ` +
    "Your text is still here, unchanged. Save it over the other version, or as a copy beside it.";
  el("edit-conflict").hidden = false;
  el("edit-conflict").dataset.name = name;
  el("edit-conflict").dataset.version = current || "";
  setStatus(`Not saved: ${name} changed since you opened it.`, "error");
}

function copyName(name) {
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const suffix = dot > 0 ? name.slice(dot) : ".rules";
  const taken = new Set(ctx.meta.profiles.filter((p) => p.origin === "workspace").map((p) => p.name));
  for (let k = 2; ; k++) {
    const candidate = `${stem}-${k}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function syntaxOfName(name) {
  if (/\.ya?ml$/i.test(name)) return "yaml";
  if (/\.rules$/i.test(name)) return "dsl";
  return null;
}

export function fillSources(meta, chosen) {
  const groups = [];
  const shipped = meta.profiles.filter((p) => p.origin === "shipped");
  const workspace = meta.profiles.filter((p) => p.origin === "workspace");
  if (workspace.length) groups.push({ group: "Workspace", items: workspace.map((p) => [`workspace:${p.name}`, p.name]) });
  groups.push({ group: "Shipped", items: shipped.map((p) => [`shipped:${p.name}`, `${p.name} (${p.syntax})`]) });
  const select = el("edit-source");
  const keep = chosen || select.value;
  setOptions(select, groups);
  if (keep && [...select.options].some((o) => o.value === keep)) select.value = keep;
}

function showSide(which) {
  for (const id of ["sheet", "diff", "dead"]) {
    el(`side-${id}`).setAttribute("aria-selected", String(id === which));
    el(`edit-${id}`).hidden = id !== which;
  }
}

export function initEdit(context) {
  ctx = context;
  setOptions(el("edit-lang"), ctx.meta.languages.map((l) => [l, l]), ctx.lang());
  fillSources(ctx.meta, "shipped:equal-hands");
  const area = el("edit-text");
  area.addEventListener("input", changed);
  area.addEventListener("scroll", syncScroll);
  area.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.altKey) {
      event.preventDefault();
      area.setRangeText("    ", area.selectionStart, area.selectionEnd, "end");
      changed();
    }
    if ((event.ctrlKey || event.metaKey) && event.key === "s") {
      event.preventDefault();
      save(el("edit-name").value.trim(), state.version);
    }
  });
  el("edit-syntax").addEventListener("change", changed);
  el("edit-lang").addEventListener("change", () => {
    ctx.setLang(el("edit-lang").value);
    checkNow();
  });
  el("edit-open").addEventListener("click", open);
  el("edit-name").addEventListener("input", () => {
    const syntax = syntaxOfName(el("edit-name").value.trim());
    if (syntax && syntax !== el("edit-syntax").value) {
      el("edit-syntax").value = syntax;
      changed();
    }
  });
  el("edit-save").addEventListener("click", () => {
    const name = el("edit-name").value.trim();
    // A different name is a different file: it starts new.
    save(name, name === state.name ? state.version : null);
  });
  el("edit-overwrite").addEventListener("click", () => {
    const box = el("edit-conflict");
    save(box.dataset.name, box.dataset.version || null);
  });
  el("edit-save-copy").addEventListener("click", () => save(copyName(el("edit-conflict").dataset.name), null));
  el("edit-conflict-close").addEventListener("click", () => {
    el("edit-conflict").hidden = true;
  });
  for (const id of ["sheet", "diff", "dead"]) el(`side-${id}`).addEventListener("click", () => showSide(id));
  window.addEventListener("pagehide", storeDraft);
  return restore();
}

/** The text the page opens on: the draft a reload left, else the chosen profile. Resolves
 * once it is in the editor. */
async function restore() {
  const draft = JSON.parse(localStorage.getItem(DRAFT_KEY) || "null");
  if (draft && typeof draft.text === "string") {
    el("edit-text").value = draft.text;
    el("edit-syntax").value = draft.syntax === "yaml" ? "yaml" : "dsl";
    el("edit-name").value = draft.name || "";
    state.name = draft.name || "";
    state.version = draft.version || null;
    state.savedText = draft.savedText ?? null;
    if (state.name) fillSources(ctx.meta, `workspace:${state.name}`);
    if (state.name && !dirty()) {
      await reopen(state.name);
      return;
    }
    setStatus(dirty() ? "Your unsaved changes are back, as you left them." : state.name ? `Editing ${state.name} from the workspace.` : "");
    changed();
    checkNow();
    return;
  }
  await open();
}

/** Open a saved file again as the workspace holds it now. */
async function reopen(name) {
  const before = text();
  try {
    const file = await get(`/api/workspace/${enc(name)}`);
    if (typedMeanwhile(before, name)) return;
    load({ body: file.text, name: file.name, version: file.version, syntax: file.syntax });
    setStatus(`Editing ${file.name} from the workspace.`);
  } catch (err) {
    setStatus(`Could not open ${name} again: ${err.message}; your text is as you left it.`, "error");
    changed();
    checkNow();
  }
}
