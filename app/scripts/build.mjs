// Builds the app for the Rust server (called by build.rs, or by hand):
//   node scripts/build.mjs <out-dir>
// writes
//   <out>/server.js          the server bundle the engines evaluate
//   <out>/public/assets/...   hashed client chunks and CSS, each with .br and .gz
//   <out>/public/static/...   ../assets copied as they are, with .br and .gz
//   <out>/assets.json         entry, stylesheets and chunks per page kind
//   <out>/routes.json         the route table (src/routes.ts)
import { build } from "esbuild";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(process.argv[2] || join(appDir, "dist"));
const publicDir = join(out, "public");
const define = { "process.env.NODE_ENV": '"production"' };
const COMPRESSIBLE = new Set([".js", ".css", ".svg", ".json", ".webmanifest", ".txt", ".xml", ".html"]);

rmSync(out, { recursive: true, force: true });
mkdirSync(publicDir, { recursive: true });

// Server bundle: one script defining globalThis.__ssr, no imports left.
await build({
  entryPoints: [join(appDir, "src/entry-server.tsx")],
  outfile: join(out, "server.js"),
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  minify: true,
  legalComments: "none",
  define,
  logLevel: "warning",
});

// Client: ES modules split per page, content-hashed names.
const client = await build({
  entryPoints: [join(appDir, "src/entry-client.tsx")],
  outdir: join(publicDir, "assets"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: true,
  legalComments: "none",
  entryNames: "[name]-[hash]",
  chunkNames: "chunk-[hash]",
  assetNames: "[name]-[hash]",
  metafile: true,
  define,
  logLevel: "warning",
});

// Asset manifest: URLs of the entry and, per page kind, its chunk plus the
// chunks it statically imports (so the server can emit modulepreload).
const outputs = client.metafile.outputs;
const url = (file) => "/" + relative(publicDir, resolve(process.cwd(), file)).split("\\").join("/");
const closure = (file, seen = new Set()) => {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imported of outputs[file].imports) {
    if (imported.kind === "import-statement") closure(imported.path, seen);
  }
  return seen;
};
const manifest = { entry: null, preload: [], stylesheets: [], pages: {} };
for (const [file, output] of Object.entries(outputs)) {
  if (!output.entryPoint) continue;
  const chunks = [...closure(file)].map(url);
  if (output.entryPoint.endsWith("entry-client.tsx")) {
    manifest.entry = url(file);
    manifest.preload = chunks.slice(1);
    if (output.cssBundle) manifest.stylesheets.push(url(output.cssBundle));
  } else if (output.entryPoint.includes("src/pages/")) {
    manifest.pages[basename(output.entryPoint, extname(output.entryPoint))] = chunks;
  }
}
if (!manifest.entry) throw new Error("client entry missing from the esbuild metafile");
writeFileSync(join(out, "assets.json"), JSON.stringify(manifest, null, 2));

// Route table as JSON for the Rust router.
const routesModule = join(out, "routes.mjs");
await build({ entryPoints: [join(appDir, "src/routes.ts")], outfile: routesModule, bundle: true, format: "esm", platform: "node", logLevel: "warning" });
const { routes } = await import(pathToFileURL(routesModule).href);
writeFileSync(join(out, "routes.json"), JSON.stringify(routes, null, 2));
rmSync(routesModule);

// Static files as they are.
cpSync(join(appDir, "../assets"), join(publicDir, "static"), { recursive: true });

// The service worker, versioned by this build: a new build is a new worker.
const precache = [manifest.entry, ...manifest.preload, ...manifest.stylesheets];
const buildId = createHash("sha256").update(JSON.stringify(manifest)).digest("hex").slice(0, 12);
const worker = readFileSync(join(appDir, "src/sw/service-worker.js"), "utf8")
  .replace('const BUILD = "__BUILD__";', `const BUILD = ${JSON.stringify(buildId)};`)
  .replace("const PRECACHE = __PRECACHE__;", `const PRECACHE = ${JSON.stringify(precache)};`);
writeFileSync(join(publicDir, "sw.js"), worker);

// Precompress everything compressible under public/.
const walk = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? walk(path) : [path];
});
let totals = { raw: 0, gzip: 0 };
for (const file of walk(publicDir)) {
  if (!COMPRESSIBLE.has(extname(file))) continue;
  const body = readFileSync(file);
  const gz = gzipSync(body, { level: 9 });
  writeFileSync(`${file}.gz`, gz);
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  if (file.endsWith(".js") && file.includes("/assets/")) {
    totals.raw += body.length;
    totals.gzip += gz.length;
  }
}
console.log(`client JS: ${(totals.raw / 1024).toFixed(1)} KiB, ${(totals.gzip / 1024).toFixed(1)} KiB gzip; server bundle: ${(statSync(join(out, "server.js")).size / 1024).toFixed(1)} KiB`);
