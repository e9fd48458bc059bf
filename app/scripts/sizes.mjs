// What the scripts a visitor downloads weigh, read from a build's output,
// each against its gzip budget (build.mjs prints it after each build and
// fails when one is over, so does `make bench`'s build):
//   node scripts/sizes.mjs <out-dir>
// A content page loads the enhancement script and nothing else; its parts
// (the login dialog, "near me") load on a tap, and the island (React, the
// translator, the page kind's code) only where a page is interactive.
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
 * Gzip ceilings of what a tap loads (checked by every build, `make bench`
 * included): "Log in", the enhancement script with the login dialog's part,
 * at most 20 KB in all (issue 46), and "near me"'s part at most 5 KB; each
 * set a little over what it weighs now, so that neither grows unnoticed.
 */
export const TAP_BUDGETS = { login: 8 * 1024, nearMe: 3 * 1024 };

/**
 * Gzip ceiling of an interactive page's island, with the chunks it imports
 * and the heavier language's strings: what the heaviest (the account page's)
 * weighs now, a little over.
 */
export const ISLAND_BUDGETS = { page: 116 * 1024 };

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
  const heavier = (chunks) =>
    Object.values(chunks).reduce((heaviest, href) => (size(href, ".gz") > size(heaviest, ".gz") ? href : heaviest));
  return [
    [
      "content page (enhancement script)",
      weigh([manifest.enhance, ...manifest.enhancePreload]),
      CONTENT_PAGE_BUDGET.jsGzip,
    ],
    [
      "Log in (enhancement script and dialog)",
      weigh([manifest.enhance, ...manifest.enhancePreload, manifest.enhanceParts.login]),
      TAP_BUDGETS.login,
    ],
    ["near me (its part of the script)", weigh([manifest.enhanceParts.nearMe]), TAP_BUDGETS.nearMe],
    // With the heavier language's strings: a visitor loads their own language's only.
    ...manifest.interactive.map((kind) => [
      `${kind} page island`,
      weigh([...manifest.islands.page, ...(manifest.pages[kind] ?? []), heavier(manifest.strings)]),
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
