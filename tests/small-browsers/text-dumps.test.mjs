// Text browsers, as a proxy browser's text mode or a screen reader reads a
// page top to bottom: in `w3m -dump -cols 40` and `lynx -dump -width=40` a
// page's heading comes within its first 40 lines, not after the menu.
// Keeps each dump under RESULTS/text/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileName, heading, keep, run, withSite } from "./site.mjs";

const MOST_LINES = 40;
const PAGES = ["/", "/sw/mpesa", "/vodacom-business", "/news-events", "/mpesa-agents/dar-es-salaam/ilala", "/sw/vodashop"];

/** Each browser's dump of a page 40 columns wide; a fresh home so no one's settings count. */
const BROWSERS = {
  w3m: (url) => ["w3m", ["-dump", "-cols", "40", url]],
  lynx: (url) => ["lynx", ["-dump", "-width=40", "-accept_all_cookies", url]],
};

let site;
withSite((started) => (site = started));

/**
 * The line (from 1) where `title` starts in `dump`: the first line that
 * begins with the title's first word and from which the following lines
 * read the whole title (a list item or a link, marked by a bullet or a
 * link number, does not begin with it).
 */
function headingLine(dump, title) {
  const lines = dump.split("\n");
  const first = title.split(" ")[0];
  for (let at = 0; at < lines.length; at++) {
    if (!lines[at].trim().startsWith(first)) continue;
    const following = lines.slice(at, at + 6).join(" ").replace(/\s+/g, " ").trim();
    if (following.startsWith(title)) return at + 1;
  }
  return undefined;
}

for (const path of PAGES) {
  test(`${path}: the heading within the first ${MOST_LINES} lines of w3m and Lynx at 40 columns`, async (t) => {
    const title = heading(await (await fetch(site.base + path)).text());
    const home = mkdtempSync(join(tmpdir(), "small-text-"));
    const found = {};
    for (const [name, command] of Object.entries(BROWSERS)) {
      const [program, args] = command(site.base + path);
      const dump = await run(program, args, { env: { HOME: home, LANG: "C.UTF-8" } });
      keep("text", `${fileName(path)}.${name}.txt`, dump);
      found[name] = { line: headingLine(dump, title), of: dump.trimEnd().split("\n").length };
    }
    rmSync(home, { recursive: true, force: true });
    t.diagnostic(`"${title}": ${Object.entries(found).map(([name, { line, of }]) => `${name} line ${line ?? "none"} of ${of}`).join(", ")}`);
    for (const [name, { line }] of Object.entries(found)) {
      assert.ok(line, `${name} shows no line starting the heading "${title}"`);
      assert.ok(line <= MOST_LINES, `${name}: the heading "${title}" is on line ${line}, past line ${MOST_LINES}`);
    }
  });
}
