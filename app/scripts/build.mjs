// Builds the app for the Rust server (called by build.rs, or by hand):
//   node scripts/build.mjs <out-dir>
// writes
//   <out>/server.js          the server bundle the engines evaluate
//   <out>/public/assets/...   hashed client chunks and CSS, each with .br and .gz
//   <out>/public/static/...   ../assets copied as they are, with .br and .gz
//   <out>/assets.json         the enhancement script every page loads, its
//                             parts it imports on a tap (the login dialog,
//                             "near me"), the island it imports (an
//                             interactive page's), stylesheets, chunks per
//                             page kind and which kinds are interactive
//   <out>/routes.json         the route table (src/routes.ts)
//   <out>/strings.json        the strings of each language (src/i18n), for
//                             the one page the server words itself: the
//                             error page of a page that cannot be rendered
import { build } from "esbuild";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { overBudget, scriptSizes, sizesTable } from "./sizes.mjs";

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(process.argv[2] || join(appDir, "dist"));
const publicDir = join(out, "public");
const define = { "process.env.NODE_ENV": '"production"' };
const COMPRESSIBLE = new Set([".js", ".css", ".svg", ".json", ".webmanifest", ".txt", ".xml", ".html"]);

rmSync(out, { recursive: true, force: true });
mkdirSync(publicDir, { recursive: true });

/**
 * React's CommonJS modules as ES modules that export each name as a
 * constant. esbuild otherwise reads every name through a getter of its
 * CommonJS wrapper, so each `jsx()` and hook call of a render paid a getter
 * call: about a tenth of a server render in V8. The names are those of the
 * module node loads here (development's are production's and a few more,
 * which read undefined, as they would).
 */
const reactExports = {
  name: "react-exports",
  setup(builder) {
    const fromApp = createRequire(join(appDir, "package.json"));
    // The app's imports only: React's own modules keep requiring React as it is.
    builder.onResolve({ filter: /^react(\/jsx-runtime)?$/ }, (args) =>
      args.kind !== "import-statement" || args.pluginData === "wrapper"
        ? undefined
        : { path: args.path, namespace: "react-exports" },
    );
    builder.onLoad({ filter: /.*/, namespace: "react-exports" }, (args) => {
      const names = Object.keys(fromApp(args.path)).filter(
        (name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== "default",
      );
      const contents = `import * as cjs from ${JSON.stringify(args.path)};\nexport const { ${names.join(", ")} } = cjs;\nexport default cjs.default;\n`;
      return { contents, resolveDir: appDir, pluginData: "wrapper" };
    });
  },
};

// Server bundle: one script defining globalThis.__ssr, no imports left.
await build({
  entryPoints: [join(appDir, "src/entry-server.tsx")],
  outfile: join(out, "server.js"),
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  minify: true,
  // Short lines: QuickJS's compile time grows with the square of a line's
  // length; on the minified bundle's few long lines an engine took ~1 s of
  // CPU to start, ~0.1 s on lines of 500 characters.
  lineLimit: 500,
  legalComments: "none",
  define,
  logLevel: "warning",
  plugins: [reactExports],
});

// Client: ES modules split per page, content-hashed names: the island (an
// interactive page's, which loads its page kind's chunk) and the stylesheet.
// The enhancement script and its parts are built apart below, each as one
// file.
/** What every file the browser loads is built as: minified ES modules with content-hashed names. */
const browserOptions = {
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: true,
  legalComments: "none",
  entryNames: "[name]-[hash]",
  metafile: true,
  define,
  logLevel: "warning",
};

const client = await build({
  ...browserOptions,
  entryPoints: [join(appDir, "src/islands/page.tsx"), join(appDir, "src/styles/app.css")],
  outdir: join(publicDir, "assets"),
  splitting: true,
  chunkNames: "chunk-[hash]",
  assetNames: "[name]-[hash]",
});

/** src/routes.ts built for node, once. */
let routesFile = null;
async function routesModule() {
  if (!routesFile) {
    routesFile = join(out, "routes.mjs");
    await build({
      entryPoints: [join(appDir, "src/routes.ts")],
      outfile: routesFile,
      bundle: true,
      format: "esm",
      platform: "node",
      logLevel: "warning",
    });
  }
  return routesFile;
}

// Asset manifest: URLs of each island and, per page kind, its chunk, each
// with the chunks it statically imports (so the server can emit modulepreload).
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
const { interactivePages, pathOf } = await import(pathToFileURL(await routesModule()).href);
const manifest = {
  enhance: null,
  enhancePreload: [],
  enhanceParts: {},
  stylesheets: [],
  pages: {},
  islands: {},
  // Each language's strings, a chunk the island loads for its visitor's language alone.
  strings: {},
  interactive: interactivePages,
};
for (const [file, output] of Object.entries(outputs)) {
  if (!output.entryPoint) continue;
  const chunks = [...closure(file)].map(url);
  if (output.entryPoint.endsWith(".css")) {
    manifest.stylesheets.push(url(file));
  } else if (output.entryPoint.includes("src/pages/")) {
    manifest.pages[basename(output.entryPoint, extname(output.entryPoint))] = chunks;
  } else if (output.entryPoint.includes("src/islands/")) {
    manifest.islands[basename(output.entryPoint, extname(output.entryPoint))] = chunks;
  }
}
for (const [file, output] of Object.entries(outputs)) {
  const lang = Object.keys(output.inputs)
    .map((input) => /src\/i18n\/(en|sw)\.ts$/.exec(input)?.[1])
    .find(Boolean);
  if (lang) manifest.strings[lang] = url(file);
}
if (!manifest.islands.page) throw new Error("client entries missing from the esbuild metafile");
if (!manifest.strings.en || !manifest.strings.sw) throw new Error("the languages' strings are not chunks of their own");

/** The enhancement script's options: ES modules of one file each, nothing shared, no React. */
const enhanceOptions = {
  ...browserOptions,
  // What it imports by URL (its parts, the island) is another file of the build.
  external: ["/assets/*"],
};
const entryUrl = (result) => url(Object.keys(result.metafile.outputs).find((file) => file.endsWith(".js")));

// The enhancement script's parts that a tap needs (the login dialog, "near
// me"), each one file the script imports by URL: a page's first view does
// not pay for them, and a tap pays for its own only (a few KB, one request).
const enhanceParts = { login: "src/enhance/login.ts", nearMe: "src/enhance/nearMe.ts" };
const partResults = [];
for (const [name, entry] of Object.entries(enhanceParts)) {
  const part = await build({
    ...enhanceOptions,
    entryPoints: { [name]: join(appDir, entry) },
    outdir: join(publicDir, "assets"),
  });
  manifest.enhanceParts[name] = entryUrl(part);
  partResults.push(part);
}

// The enhancement script: one file with nothing shared (a content page
// makes one request for its code); its parts and the island are imported
// by URL.
const enhance = await build({
  ...enhanceOptions,
  entryPoints: { enhance: join(appDir, "src/enhance/main.ts") },
  outdir: join(publicDir, "assets"),
  define: {
    ...define,
    __LOGIN_SCRIPT__: JSON.stringify(manifest.enhanceParts.login),
    __PAGE_ISLAND__: JSON.stringify(manifest.islands.page[0]),
    __NEAR_ME_SCRIPT__: JSON.stringify(manifest.enhanceParts.nearMe),
    __ACCOUNT_PATH__: JSON.stringify(pathOf("account")),
  },
});
manifest.enhance = entryUrl(enhance);
// The enhancement script and its parts stay small: React and the translator
// load with the island only (the script's strings come in the page).
for (const result of [enhance, ...partResults]) {
  for (const library of ["react", "i18next"]) {
    if (
      Object.values(result.metafile.outputs).some((output) =>
        Object.keys(output.inputs).some((input) => input.includes(`node_modules/${library}`)),
      )
    ) {
      throw new Error(`the enhancement script and its parts must not bundle ${library}`);
    }
  }
}
writeFileSync(join(out, "assets.json"), JSON.stringify(manifest, null, 2));

// Route table as JSON for the Rust router.
const { routes } = await import(pathToFileURL(await routesModule()).href);
writeFileSync(join(out, "routes.json"), JSON.stringify(routes, null, 2));
rmSync(join(out, "routes.mjs"));

// The strings of each language, as the app has them, for the server's error page.
const stringsFile = join(out, "strings.mjs");
await build({
  stdin: {
    contents: 'export { default as en } from "./en";\nexport { default as sw } from "./sw";\n',
    resolveDir: join(appDir, "src/i18n"),
    loader: "ts",
  },
  outfile: stringsFile,
  bundle: true,
  format: "esm",
  platform: "node",
  logLevel: "warning",
});
const { en, sw } = await import(pathToFileURL(stringsFile).href);
writeFileSync(join(out, "strings.json"), JSON.stringify({ en, sw }));
rmSync(stringsFile);

// Static files as they are.
cpSync(join(appDir, "../assets"), join(publicDir, "static"), { recursive: true });

// The service worker, versioned by this build: a new build is a new worker.
// It keeps what a content page loads (the stylesheet and the enhancement
// script) and, when a page measured the connection fast, the code a tap
// loads too (the enhancement script's parts and the interactive pages'
// island).
const precache = [manifest.enhance, ...manifest.enhancePreload, ...manifest.stylesheets];
const precacheMore = [...Object.values(manifest.enhanceParts), ...Object.values(manifest.islands).flat()];
const buildId = createHash("sha256").update(JSON.stringify(manifest)).digest("hex").slice(0, 12);
const worker = readFileSync(join(appDir, "src/sw/service-worker.js"), "utf8")
  .replace('const BUILD = "__BUILD__";', `const BUILD = ${JSON.stringify(buildId)};`)
  .replace("const PRECACHE = __PRECACHE__;", `const PRECACHE = ${JSON.stringify(precache)};`)
  .replace("const PRECACHE_MORE = __PRECACHE_MORE__;", `const PRECACHE_MORE = ${JSON.stringify(precacheMore)};`);
writeFileSync(join(publicDir, "sw.js"), worker);

// Precompress everything compressible under public/.
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
let totals = { raw: 0, gzip: 0 };
for (const file of walk(publicDir)) {
  if (!COMPRESSIBLE.has(extname(file))) continue;
  const body = readFileSync(file);
  const gz = gzipSync(body, { level: 9 });
  writeFileSync(`${file}.gz`, gz);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  );
  if (file.endsWith(".js") && file.includes("/assets/")) {
    totals.raw += body.length;
    totals.gzip += gz.length;
  }
}
const sizes = scriptSizes(out);
console.log(sizesTable(sizes));
console.log(
  `client JS: ${(totals.raw / 1024).toFixed(1)} KiB, ${(totals.gzip / 1024).toFixed(1)} KiB gzip; server bundle: ${(statSync(join(out, "server.js")).size / 1024).toFixed(1)} KiB`,
);
// The content page's script and each island's code against its budget.
const over = overBudget(sizes);
if (over.length) throw new Error(`scripts over their budget: ${over.join(", ")}`);
