// What the small-browser tests share: the site they visit (app/e2e's
// harness starts the built binary with the embedded content and the
// sandbox), where they keep what the browsers showed, and what they read
// from a page's HTML to know what to look for on the screen.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before } from "node:test";
import { startSite } from "../../app/e2e/harness.mjs";

const ROOT = resolve(import.meta.dirname, "../..");

/** Screenshots, dumps and screens of every run: `RESULTS_DIR`, else target/small-browsers. */
export const RESULTS = resolve(ROOT, process.env.RESULTS_DIR ?? "target/small-browsers");

/** The header's link to the navigation, by language (`nav.menu` in app/src/i18n). */
const MENU_LABEL = { en: "Menu", sw: "Menyu" };

/** Starts the site before a file's tests and stops it after; `assign` receives it once up. */
export function withSite(assign) {
  let site;
  before(async () => {
    site = await startSite({ RUST_LOG: "error", METRICS_ADDR: "off" });
    assign(site);
  });
  after(() => site?.stop());
}

/** Keeps `content` as `RESULTS/<folder>/<name>`; returns the path. */
export function keep(folder, name, content) {
  mkdirSync(join(RESULTS, folder), { recursive: true });
  const file = join(RESULTS, folder, name);
  writeFileSync(file, content);
  return file;
}

/** A file name for a page address: `/sw/mpesa` → `sw-mpesa`, `/` → `home`. */
export function fileName(path) {
  return path.replace(/^\/|\/$/g, "").replace(/[^A-Za-z0-9]+/g, "-") || "home";
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The text of an HTML fragment, its tags dropped, entities decoded and white space collapsed. */
export function text(html) {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? entity;
      return String.fromCodePoint(name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
    })
    .replace(/\s+/g, " ")
    .trim();
}

/** The text of the page's one `<h1>`. */
export function heading(html) {
  const all = [...html.matchAll(/<h1[\s>][\s\S]*?<\/h1>/g)];
  if (all.length !== 1) throw new Error(`the page has ${all.length} <h1> elements, not one`);
  return text(all[0][0].replace(/^<h1/, "<x"));
}

/** The language of a page address. */
export function language(path) {
  return path === "/sw" || path.startsWith("/sw/") ? "sw" : "en";
}

/**
 * The id the header's "Menu" link leads to (`href="#id"`), or undefined if
 * the header has no such link.
 */
export function menuTarget(html, lang) {
  const header = /<header[\s>][\s\S]*?<\/header>/.exec(html)?.[0] ?? "";
  for (const [, href, inner] of header.matchAll(/<a\s[^>]*?href="#([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)) {
    if (text(inner).replace(/^☰\s*/, "") === MENU_LABEL[lang]) return href;
  }
  return undefined;
}

/**
 * `command`'s output (a string, or a Buffer with `encoding: "buffer"`), with
 * `env` added to the environment, or an error naming how it ended and what it
 * printed.
 */
export function run(command, args, { env = {}, timeoutMs = 30_000, encoding = "utf8" } = {}) {
  return new Promise((ok, fail) => {
    execFile(command, args, { env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 32 << 20, encoding }, (error, stdout, stderr) => {
      if (error) fail(new Error(`${command} ${args.join(" ")}: ${error.message}\n${stderr}`));
      else ok(stdout);
    });
  });
}
