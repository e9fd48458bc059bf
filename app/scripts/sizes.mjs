// What the scripts a visitor downloads weigh, read from a build's output,
// each against its gzip budget (build.mjs prints it after each build and
// fails when one is over, so does `make bench`'s build):
//   node scripts/sizes.mjs <out-dir>
// A content page loads the enhancement script and nothing else; the islands
// (React, the translator, the page kind's code) load only where a page is
// interactive or the visitor opens the login dialog.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A content page's budget on a 2G-like link: HTML, CSS and JS transferred in
 * all, and its JS gzipped (checked in a browser by bench/budget.mjs; the JS
 * part by every build).
 */
export const CONTENT_PAGE_BUDGET = { total: 30 * 1024, jsGzip: 10 * 1024 };

/**
 * What the service worker may fetch by itself after a first visit on a link
 * that is not measured fast (bench/budget.mjs): the offline page, not the
 * islands' code.
 */
export const SERVICE_WORKER_BUDGET = 15 * 1024;

/**
 * Gzip ceilings of the islands' code, each with the chunks it imports
 * (checked by every build, `make bench` included): what they weigh now, a
 * little over, so that none grows unnoticed. Issue 46 asks "Log in" for 20
 * KB in all, which needs the dialog without React and the strings of one
 * language; not yet done.
 */
export const ISLAND_BUDGETS = { login: 110 * 1024, nearMe: 100 * 1024, page: 136 * 1024 };

/** Rows `[label, {raw, gzip, brotli}, gzip budget]`: the content page's script, then each island with the chunks it imports. */
export function scriptSizes(out) {
  const manifest = JSON.parse(readFileSync(join(out, "assets.json"), "utf8"));
  const size = (href, suffix) => statSync(join(out, "public", `${href}${suffix}`)).size;
  const weigh = (hrefs) => {
    const total = { raw: 0, gzip: 0, brotli: 0 };
    for (const href of new Set(hrefs)) {
      total.raw += size(href, "");
      total.gzip += size(href, ".gz");
      total.brotli += size(href, ".br");
    }
    return total;
  };
  return [
    [
      "content page (enhancement script)",
      weigh([manifest.enhance, ...manifest.enhancePreload]),
      CONTENT_PAGE_BUDGET.jsGzip,
    ],
    ["login dialog island", weigh(manifest.islands.login), ISLAND_BUDGETS.login],
    ["near me island", weigh(manifest.islands.nearMe), ISLAND_BUDGETS.nearMe],
    ...manifest.interactive.map((kind) => [
      `${kind} page island`,
      weigh([...manifest.islands.page, ...(manifest.pages[kind] ?? [])]),
      ISLAND_BUDGETS.page,
    ]),
  ];
}

/** The rows over their budget, as `label (gzip B over budget B)`. */
export function overBudget(rows) {
  return rows
    .filter(([, { gzip }, budget]) => gzip > budget)
    .map(([label, { gzip }, budget]) => `${label} (${gzip} B gzip over ${budget} B)`);
}

/** The rows as a table, bytes. */
export function sizesTable(rows) {
  const lines = [
    `${"scripts, B".padEnd(44)} ${"raw".padStart(8)} ${"gzip".padStart(8)} ${"brotli".padStart(8)} ${"gz budget".padStart(9)}`,
  ];
  for (const [label, { raw, gzip, brotli }, budget] of rows) {
    lines.push(
      `${label.padEnd(44)} ${String(raw).padStart(8)} ${String(gzip).padStart(8)} ${String(brotli).padStart(8)} ${String(budget).padStart(9)}`,
    );
  }
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv[2]) throw new Error("usage: node scripts/sizes.mjs <out-dir>");
  console.log(sizesTable(scriptSizes(process.argv[2])));
}
