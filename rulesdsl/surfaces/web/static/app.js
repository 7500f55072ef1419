// rulesdsl in the browser: three tabs, Edit, Play and Compare, on the server's JSON API.
//
// Element ids the end-to-end tests rely on (keep them stable):
//   tabs            #tab-edit, #tab-play, #tab-compare; panels #panel-edit, #panel-play, #panel-compare
//   Edit            #edit-source (select: "shipped:NAME" | "workspace:NAME"), #edit-open,
//                   #edit-syntax, #edit-name, #edit-save, #edit-status, #edit-text (the textarea),
//                   #edit-highlight (the highlighted copy under it), #edit-summary,
//                   #edit-diagnostics (li.diagnostic[data-code], button.fix-button),
//                   #edit-lang, #edit-sheet, #edit-diff, #edit-dead, #side-sheet/#side-diff/#side-dead,
//                   #edit-conflict, #edit-overwrite, #edit-save-copy
//   Play            #play-profile, #play-players, #play-bot-N, #play-seed-input, #play-match,
//                   #play-start, #play-seed (the seed shown), #play-seats (.seat[data-seat]),
//                   #play-trump, #play-stock-count, #play-trick, #play-last-trick,
//                   #play-hand (button.card-button[data-card], .legal or .refused[data-rule]),
//                   #play-tooltip, #play-message, #play-next, #play-trace, #replay-slider,
//                   #replay-prev, #replay-next, #replay-step, #play-log
//   Compare         #compare-profiles (checkboxes, values as #edit-source's), #compare-players,
//                   #compare-hands, #compare-seed, #compare-good, #compare-bot-N, #compare-run,
//                   #compare-cancel, #compare-progress, #compare-status, #compare-result,
//                   #compare-table (tr[data-metric] > td[data-profile]), #compare-pairs,
//                   #compare-charts (figure#chart-seats, #chart-lengths, #chart-coverage,
//                   #chart-ladder), #compare-json, #compare-csv

import { get } from "./api.js";
import { byId } from "./dom.js";
import { fillSources, initEdit } from "./edit.js";
import { fillPlayProfiles, initPlay } from "./play.js";
import { fillCompareProfiles, initCompare } from "./compare.js";

const LANG_KEY = "rulesdsl.lang";
const TABS = ["edit", "play", "compare"];

function showTab(name) {
  for (const tab of TABS) {
    byId(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    byId(`panel-${tab}`).hidden = tab !== name;
  }
  history.replaceState(null, "", `#${name}`);
}

/** The bots to offer: a search bot written KIND:N is offered at a few sizes up to the limit. */
function botChoices(meta) {
  const sizes = [10, 50, 200].filter((n) => n <= meta.limits.search_n);
  return meta.bots.flatMap((bot) => (bot.endsWith(":N") ? sizes.map((n) => bot.replace(/N$/, String(n))) : [bot]));
}

async function main() {
  let meta;
  try {
    meta = await get("/api/meta");
  } catch (err) {
    byId("edit-status").textContent = `The server cannot be reached: ${err.message}`;
    return;
  }
  byId("version").textContent = `rulesdsl ${meta.version}`;
  const ctx = {
    meta,
    lang: () => localStorage.getItem(LANG_KEY) || "en",
    setLang: (lang) => localStorage.setItem(LANG_KEY, lang),
    bots: () => botChoices(ctx.meta),
    async refreshProfiles(chosen) {
      ctx.meta = await get("/api/meta");
      fillSources(ctx.meta, chosen);
      fillPlayProfiles(ctx.meta);
      fillCompareProfiles(ctx.meta);
    },
  };
  for (const tab of TABS) byId(`tab-${tab}`).addEventListener("click", () => showTab(tab));
  // Files another tab saved show in the lists when this one is looked at again.
  window.addEventListener("focus", () => ctx.refreshProfiles().catch(() => {}));
  const editing = initEdit(ctx);
  initPlay(ctx);
  initCompare(ctx);
  const start = location.hash.slice(1);
  showTab(TABS.includes(start) ? start : "edit");
  // Ready once the editor holds its first text, so nothing typed is replaced by it.
  await editing;
  document.body.dataset.ready = "true";
}

main();
