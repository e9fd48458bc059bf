// The table of `bench/newsroom.sh`: one column per crawl, from the lines of
// JSON that bench/crawl.mjs printed (and the script's own about the sitemap
// and a story never asked before). Given two files (a baseline's and this
// build's), each cell shows both and their ratio.
//
//   node bench/newsroom-table.mjs RESULTS.jsonl [BASELINE.jsonl]
import { readFileSync } from "node:fs";

const read = (file) => readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
const [file, baseFile] = process.argv.slice(2);
const runs = baseFile ? [read(baseFile), read(file)] : [read(file)];

const thousands = (n) => Math.round(n).toLocaleString("en-US");
const ms = (n) => (n === null || n === undefined ? "?" : n >= 100 ? `${thousands(n)} ms` : `${n.toFixed(1)} ms`);
const percent = (part, whole) => (whole ? `${((100 * part) / whole).toFixed(0)}%` : "0%");

// Each row: its label, the figure of a crawl as text, and the number its ratio is taken of.
const rows = [
  ["pages answered", (c) => `${thousands(c.answered)} of ${thousands(c.pages)}${c.cut ? " (stopped at the bound)" : ""}`, (c) => c.answered],
  ["answered 2xx / 3xx", (c) => `${thousands(c.statuses["2xx"])} / ${thousands(c.statuses["3xx"])}`, (c) => c.statuses["2xx"]],
  ["answered 429", (c) => `${thousands(c.statuses[429])} (${percent(c.statuses[429], c.pages)})`, (c) => c.statuses[429]],
  ["answered 5xx", (c) => thousands(c.statuses["5xx"]), (c) => c.statuses["5xx"]],
  ["other 4xx", (c) => thousands(c.statuses["4xx"]), (c) => c.statuses["4xx"]],
  ["no answer (timeout, error, past the bound)", (c) => thousands(c.statuses.none), (c) => c.statuses.none],
  ["pages/s", (c) => thousands(c.pagesPerSecond), (c) => c.pagesPerSecond],
  ["p50 / p99", (c) => `${ms(c.p50)} / ${ms(c.p99)}`, (c) => c.p99],
  ["pages rendered", (c) => (c.rendered === null ? "? (/metrics did not answer)" : thousands(c.rendered)), (c) => c.rendered],
  [
    "CMS requests per story page (all requests)",
    (c) => (c.cms ? `${c.cmsPerStoryPage.toFixed(2)} (${thousands(c.cms.total)})` : "?"),
    (c) => c.cmsPerStoryPage,
  ],
  ["peak RSS (VmHWM)", (c) => `${thousands(c.peakRss)} MB (${thousands(c.hwm)} MB)`, (c) => c.peakRss],
  [
    "worst /healthz",
    (c) => (c.healthTimeouts ? `>= 5 s (${c.healthTimeouts} unanswered in 5 s)` : ms(c.worstHealth)),
    (c) => c.worstHealth,
  ],
  [
    "cached `/` p99 from another client: crawling / idle",
    (c) => `${ms(c.cachedCrawlP99)} / ${ms(c.cachedIdleP99)} (${c.cachedRatio === null ? "?" : `${c.cachedRatio.toFixed(1)}×`})`,
    (c) => c.cachedRatio,
  ],
];

const crawls = runs.map((run) => run.filter((line) => line.type === "crawl"));
const labels = crawls[crawls.length - 1].map((c) => c.label);
const cell = (row, n) => {
  const [, show, number] = row;
  const figures = crawls.map((run) => run[n]);
  if (figures.some((c) => !c)) return figures.map((c) => (c ? show(c) : "–")).join(" → ");
  if (figures.length === 1) return show(figures[0]);
  const [before, after] = figures.map(number);
  const ratio = before && after !== null && before !== null ? ` (${(after / before).toFixed(2)}×)` : "";
  return `${show(figures[0])} → ${show(figures[1])}${ratio}`;
};

for (const [n, run] of runs.entries()) {
  const name = runs.length > 1 ? (n === 0 ? "baseline: " : "this build: ") : "";
  const sitemap = run.find((line) => line.type === "sitemap");
  const story = run.find((line) => line.type === "story");
  if (sitemap) {
    console.log(`${name}stories in the sitemap: ${thousands(sitemap.stories)} of ${thousands(sitemap.expected)}; ${thousands(sitemap.pages)} pages in all`);
  }
  if (story) {
    console.log(`${name}a story never asked before: ${ms(story.ms)} (${story.status}), ${story.cms ?? "?"} CMS requests`);
  }
  for (const note of run.filter((line) => line.type === "note")) console.log(`${name}${note.text}`);
}
console.log();
console.log(`| | ${labels.join(" | ")} |`);
console.log(`|---|${labels.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row[0]} | ${labels.map((_, n) => cell(row, n)).join(" | ")} |`);
