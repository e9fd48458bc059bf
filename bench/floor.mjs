// React's floor for the app's pages: how fast React alone renders the markup
// the app renders, so `app ms / floor ms` says what the app's own code costs.
//
//   node bench/floor.mjs <bundle-dir> <requests.json | site-url> [--runs N] [--out <dir>] [path ...]
//
// For each request (see render-node.mjs; bench/requests/kinds.json has one
// page of each kind, signed-in ones too; a site URL gives the anonymous
// ones, or the paths given) it renders the app's server bundle, parses the markup it
// returns (`html` and `head`) with parse5 into plain element trees (intrinsic
// elements and text only, props as React takes them), and builds them into a
// bundle of their own whose `globalThis.__ssr.render(request)` renders the
// tree of `request` with the calls the app uses (`renderToString` for
// `html`, `renderToStaticMarkup` for `head`). Both bundles must give the same
// markup byte for byte; then both are timed in turn and it prints, per page,
// `kind url app_ms floor_ms ratio` (p50 over --runs, default 200, after a
// warm-up), and the worst ratio last. Exit status 1 if any markup differs.
//
// `--out <dir>` keeps the floor bundle as `<dir>/server.js` (the same shape
// as the app's: an IIFE defining `globalThis.__ssr`, its trees built in as
// data), for a harness that runs bundles elsewhere (QuickJS) with the same
// requests file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadBundle, loadPages, option, requestFor, timeRenders } from "./render-node.mjs";

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), "../app");
const fromApp = createRequire(join(appDir, "package.json"));
const { parseFragment } = await import(pathToFileURL(fromApp.resolve("parse5")).href);
const { build } = await import(pathToFileURL(fromApp.resolve("esbuild")).href);

/** What the floor looks a request's tree up by: its URL, and whether a subscriber is signed in. */
const pageKey = (request) => `${request.url}${request.data?.subscriber ? " (signed in)" : ""}`;

/** HTML attribute names React takes under another name. */
const PROP_NAMES = {
  class: "className",
  for: "htmlFor",
  "http-equiv": "httpEquiv",
  "accept-charset": "acceptCharset",
};
/** Boolean attributes (React renders `name=""` for `true`), by HTML name. */
const BOOLEAN_PROPS = Object.fromEntries(
  [
    "allowFullScreen", "async", "autoFocus", "autoPlay", "checked", "controls", "default", "defer", "disabled",
    "disablePictureInPicture", "disableRemotePlayback", "formNoValidate", "hidden", "inert", "itemScope", "loop",
    "multiple", "muted", "noModule", "noValidate", "open", "playsInline", "readOnly", "required", "reversed",
    "selected",
  ].map((name) => [name.toLowerCase(), name]),
);

/** `a:b;c:url(x;y)` as `{a: "b", c: "url(x;y)"}`: declarations split at `;` outside parentheses and quotes. */
function styleObject(text) {
  const style = {};
  for (const declaration of text.match(/(?:[^;("']|\([^)]*\)|"[^"]*"|'[^']*')+/g) ?? []) {
    const at = declaration.indexOf(":");
    if (at > 0) style[declaration.slice(0, at).trim()] = declaration.slice(at + 1).trim();
  }
  return style;
}

/**
 * The props of a parse5 element. Attribute names are taken as written in
 * `source`: React writes the names it has no alias for as the app spelled
 * them (`hrefLang`, `fetchPriority`), which parse5 lowercases.
 */
function props(element, source) {
  const result = {};
  const locations = element.sourceCodeLocation.attrs;
  for (const { name, value, prefix } of element.attrs) {
    const lowered = prefix ? `${prefix}:${name}` : name;
    const { startOffset, endOffset } = locations[lowered];
    const written = source.slice(startOffset, endOffset).match(/^[^=\s]+/)[0];
    if (lowered === "style") result.style = styleObject(value);
    else if (BOOLEAN_PROPS[lowered]) result[BOOLEAN_PROPS[lowered]] = true;
    else result[PROP_NAMES[lowered] ?? written] = value;
  }
  return result;
}

/** `<link rel="preload" as="image">`: what React writes first for the images it will render. */
const isImagePreload = (node) =>
  node.tagName === "link" && node.attrs.some((a) => a.name === "rel" && a.value === "preload") && node.attrs.some((a) => a.name === "as" && a.value === "image");

/**
 * parse5's nodes of `source` as trees `[tag, props, ...children]` and text
 * strings. The empty comments React puts between adjacent texts are left
 * out (React puts them back), and so are the image preloads it writes first
 * (it writes them again for the floor's images); an element whose inner markup is, verbatim,
 * one of `rawInner` (the page data's rich-text bodies, which the app sets
 * with dangerouslySetInnerHTML), and every script and style, keeps its
 * inner markup as dangerouslySetInnerHTML.
 */
function trees(source, rawInner) {
  const convert = (node) => {
    if (node.nodeName === "#text") return [node.value];
    if (node.nodeName === "#comment") {
      if (node.data.trim() === "") return [];
      throw new Error(`comment <!--${node.data}--> in the markup: the floor does not make these`);
    }
    const result = [node.tagName, props(node, source)];
    const location = node.sourceCodeLocation;
    const inner = location.endTag ? source.slice(location.startTag.endOffset, location.endTag.startOffset) : "";
    const children = node.tagName === "template" ? node.content.childNodes : node.childNodes;
    // The app links the contacts in a body (app/src/content/contacts.tsx): without those links it is the body.
    const unlinked = inner.replace(/<a href="[^"]*" class="contact contact-[a-z]+">([^<]*)<\/a>/g, "$1");
    if (children.length && (node.tagName === "script" || node.tagName === "style" || rawInner.has(inner) || rawInner.has(unlinked))) {
      result[1].dangerouslySetInnerHTML = { __html: inner };
    } else {
      for (const child of children) result.push(...convert(child));
    }
    return [result];
  };
  const nodes = parseFragment(source, { sourceCodeLocationInfo: true, scriptingEnabled: false }).childNodes;
  let first = 0;
  while (first < nodes.length && isImagePreload(nodes[first])) first++;
  return nodes.slice(first).flatMap(convert);
}

/** Strings of `data` under a `body` key: rich text the server made HTML. */
function bodies(data, found = new Set()) {
  if (Array.isArray(data)) for (const item of data) bodies(item, found);
  else if (data && typeof data === "object") {
    for (const [key, value] of Object.entries(data)) {
      if (key === "body" && typeof value === "string") found.add(value);
      else bodies(value, found);
    }
  }
  return found;
}

/** The floor's server bundle, `<outDir>/server.js`, built with the app's server bundle options. */
async function buildFloor(pagesByKey, outDir) {
  const work = mkdtempSync(join(tmpdir(), "floor-"));
  const treesFile = join(work, "trees.json");
  writeFileSync(treesFile, JSON.stringify(pagesByKey));
  const entry = `
    import "./src/server-polyfills";
    import { createElement, Fragment } from "react";
    import { renderToStaticMarkup, renderToString } from "react-dom/server.browser";
    import pages from ${JSON.stringify(treesFile)};

    const element = (node) => (typeof node === "string" ? node : createElement(node[0], node[1], ...node.slice(2).map(element)));
    const fragment = (nodes) => createElement(Fragment, null, ...nodes.map(element));
    const prebuilt = new Map(Object.entries(pages).map(([key, page]) => [key, { html: fragment(page.html), head: fragment(page.head) }]));

    async function render(request) {
      const page = prebuilt.get(request.url + (request.data?.subscriber ? " (signed in)" : ""));
      if (!page) throw new Error("the floor has no tree for " + request.url);
      return { status: 200, head: renderToStaticMarkup(page.head), html: renderToString(page.html) };
    }
    globalThis.__ssr = { render };
  `;
  await build({
    stdin: { contents: entry, resolveDir: appDir, loader: "jsx" },
    outfile: join(outDir, "server.js"),
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  });
  rmSync(work, { recursive: true });
}

/** Where `a` and `b` first part, with some context. */
function firstDifference(a, b) {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return `at ${at}: app …${JSON.stringify(a.slice(Math.max(0, at - 60), at + 60))}… floor …${JSON.stringify(b.slice(Math.max(0, at - 60), at + 60))}…`;
}

const args = process.argv.slice(2);
const runs = Number(option(args, "--runs", "200"));
const out = option(args, "--out");
const [bundleDir, source, ...chosen] = args;
if (!bundleDir || !source) {
  console.error("usage: node bench/floor.mjs <bundle-dir> <requests.json | site-url> [--runs N] [--out dir] [path ...]");
  process.exit(2);
}
const pages = await loadPages(source, chosen);
const app = loadBundle(bundleDir);
const requests = pages.map((page) => requestFor(page, app.assetsFor));
const outputs = [];
const pagesByKey = {};
for (const request of requests) {
  const output = await app.render(structuredClone(request));
  const rawInner = bodies(request.data);
  outputs.push(output);
  pagesByKey[pageKey(request)] = { html: trees(output.html, rawInner), head: trees(output.head, rawInner) };
}

const floorDir = out ?? mkdtempSync(join(tmpdir(), "floor-"));
mkdirSync(floorDir, { recursive: true });
await buildFloor(pagesByKey, floorDir);
const floor = loadBundle(floorDir);
if (!out) rmSync(floorDir, { recursive: true });

let failed = false;
let worst = { ratio: 0 };
for (const [at, request] of requests.entries()) {
  const expected = outputs[at];
  const floored = await floor.render(structuredClone(request));
  for (const part of ["html", "head"]) {
    if (floored[part] !== expected[part]) {
      failed = true;
      console.log(`${request.url}: the floor's ${part} differs ${firstDifference(expected[part], floored[part])}`);
    }
  }
  const [appTime, floorTime] = await timeRenders([{ render: app.render, request }, { render: floor.render, request }], runs);
  const ratio = appTime.p50 / floorTime.p50;
  const kind = `${request.data.route.page}${request.data.subscriber ? " (signed in)" : ""}`;
  if (ratio > worst.ratio) worst = { ratio, kind, url: request.url };
  console.log(`${kind.padEnd(24)} ${request.url.padEnd(40)} ${appTime.p50.toFixed(3).padStart(7)} ${floorTime.p50.toFixed(3).padStart(7)} ${ratio.toFixed(2).padStart(6)}`);
}
console.log(`worst ratio ${worst.ratio.toFixed(2)}: ${worst.kind} ${worst.url}`);
// The app's bundle may leave timers behind (it schedules some at render); the measurement is done.
process.exit(failed ? 1 : 0);
