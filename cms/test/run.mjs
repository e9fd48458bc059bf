#!/usr/bin/env node
// `make test-cms`: the site against a real Strapi built from this project.
//
// 1. A throw-away copy of the project (config/, src/index.js, schema generated
//    from `$SITE_BIN content-model`) with its own SQLite file and uploads in a
//    temporary folder; content/ imported; Strapi started on a free port.
// 2. Two sites from $SITE_BIN (default target/debug/site): one with the
//    embedded content, one with CMS_URL pointing at that Strapi and a webhook
//    secret (Strapi's webhook points at it).
// 3. Checks:
//    a. every URL of the embedded site's /sitemap.xml (both languages) answers
//       200 from the CMS site with the same <main>: text, link targets, image
//       alt texts and <html lang> equal (image src differs: /uploads/…; item
//       links compared without their id segment, since Strapi 5 numbers
//       entries its own way);
//    b. home's title changed through Strapi's REST API reaches / within 2 s
//       (webhook);
//    d. 120 more news stories created through Strapi's REST API (more than
//       Strapi's largest page of 100): the CMS site's sitemap lists every one,
//       following the news list's "next" links reaches every one, and a story
//       published then is in the sitemap and on the list's first page within
//       2 s (webhook);
//    e. a JPEG uploaded through Strapi's REST API (its upload plugin makes the
//       smaller `formats` with sharp) and set as the newest story's image
//       reaches /news-events as a `srcset` of the site's image endpoint,
//       which answers it in WebP;
//    f. the preview: an editor's change to home saved as a draft only
//       (REST with `status=draft`) is seen, in both languages, through the
//       link Strapi's "Open preview" opens (the admin API's preview URL, from
//       config/admin.js, followed like the admin's frame: the site's
//       /api/preview, its cookie, the page with the preview bar), and not by a
//       visitor; published, it reaches visitors within 2 s (webhook);
//    g. the locations: one type, not localized, with its `kind`; a place
//       renamed through Strapi's REST API reaches its district's page in both
//       languages within 5 s (the webhook reads them again); then, Strapi
//       stopped, `import.mjs --locations` loads a CSV of `tools/locations.py
//       csv` and a site started on it counts every agent of the CSV;
//    c. `site check-cms` exits 0 against it, and non-zero naming the type after
//       `title` is removed from one single type's schema and Strapi restarted.
// Prints "N passed, M failed" and the duration of each step; exits non-zero
// when a check failed. KEEP_TMP=1 keeps the temporary folder and its logs.
import { createRequire } from 'node:module';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const cms = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(cms, '..');
const siteBin = resolve(repo, process.env.SITE_BIN || 'target/debug/site');
const tmp = mkdtempSync(join(tmpdir(), 'test-cms-'));
const started = Date.now();
const timings = [];
const results = [];
const children = [];

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const log = (message) => console.log(`[${secs(Date.now() - started).padStart(7)}] ${message}`);
async function step(name, fn) {
  const t = Date.now();
  try {
    return await fn();
  } finally {
    timings.push([name, Date.now() - t]);
  }
}
function check(name, ok, detail = '') {
  results.push({ name, ok });
  console.log(`${ok ? 'ok    ' : 'FAIL  '} ${name}${detail ? `: ${detail}` : ''}`);
  return ok;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function start(name, command, args, options) {
  const out = join(tmp, `${name}.log`);
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  const chunks = [];
  const sink = (data) => {
    chunks.push(data);
    writeFileSync(out, Buffer.concat(chunks));
  };
  child.stdout.on('data', sink);
  child.stderr.on('data', sink);
  child.logTail = (n = 40) => Buffer.concat(chunks).toString().split('\n').slice(-n).join('\n');
  child.exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  children.push(child);
  return child;
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timeout = sleep(10000).then(() => 'timeout');
  if ((await Promise.race([child.exited, timeout])) === 'timeout') child.kill('SIGKILL');
}

async function waitFor(url, child, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before ${url} answered:\n${child.logTail()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      return;
    } catch {
      await sleep(250);
    }
  }
  throw new Error(`${url} did not answer within ${seconds} s:\n${child.logTail()}`);
}

function run(command, args, options) {
  return promisify(execFile)(command, args, { maxBuffer: 64 << 20, ...options });
}

// ---------------------------------------------------------------- HTML
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const decode = (s) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : (ENTITIES[e.toLowerCase()] ?? m),
  );
function mainOf(html) {
  const from = html.search(/<main[\s>]/);
  const to = html.lastIndexOf('</main>');
  return from < 0 || to < 0 ? null : html.slice(from, to + 7);
}
const textOf = (fragment) =>
  decode(fragment.replace(/<(script|style|template)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
const attrs = (fragment, name) => [...fragment.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) => decode(m[1]));
const langOf = (html) => (html.match(/<html[^>]*\slang="([^"]*)"/) || [])[1];

/** Item pages (`/news-event/:id/:slug?` …) and their collections, read from the route table. */
function itemRoutes() {
  const routes = readFileSync(join(repo, 'app/src/routes.ts'), 'utf8');
  return new Map([...routes.matchAll(/"(\/[^"]*?)\/:id(?:\/:slug\??)?"\s*,\s*"[^"]*"\s*,\s*\{[^}]*?item:\s*"([^"]+)"/g)].map((m) => [m[1], m[2]]));
}
const ITEM_ID = /^(\d+|[a-z0-9]{20,})$/;
function itemKey(path, prefixes) {
  const bare = path.replace(/^\/sw(?=\/|$)/, '');
  for (const prefix of prefixes) {
    if (bare.startsWith(`${prefix}/`)) {
      const [id, ...rest] = bare.slice(prefix.length + 1).split('/');
      if (ITEM_ID.test(id)) return { prefix, lang: path.startsWith('/sw/') ? 'sw' : 'en', slug: rest.join('/') };
    }
  }
  return null;
}
function normaliseHref(href, prefixes) {
  const [path, suffix = ''] = href.split(/(?=[?#])/);
  const key = itemKey(path, prefixes);
  return key ? `${key.lang === 'sw' ? '/sw' : ''}${key.prefix}/:id/${key.slug}${suffix}` : href;
}

async function sitemapPaths(base) {
  const res = await fetch(`${base}/sitemap.xml`);
  if (!res.ok) throw new Error(`${base}/sitemap.xml: HTTP ${res.status}`);
  const xml = await res.text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(decode(m[1])).pathname);
}

async function page(base, path) {
  const res = await fetch(`${base}${path}`, { redirect: 'manual', signal: AbortSignal.timeout(15000) });
  return { status: res.status, html: await res.text() };
}

async function pool(items, size, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `at ${i}: embedded «${a.slice(Math.max(0, i - 40), i + 60)}» / cms «${b.slice(Math.max(0, i - 40), i + 60)}»`;
}

// ---------------------------------------------------------------- steps
async function main() {
  if (!existsSync(siteBin)) throw new Error(`no site binary at ${siteBin}: run cargo build (make build)`);
  log(`temporary folder ${tmp}`);

  // The model: CMS_MODEL if given, else the site's own (`site content-model`).
  const modelFile = join(tmp, 'model.json');
  if (process.env.CMS_MODEL) {
    cpSync(resolve(process.env.CMS_MODEL), modelFile);
    log(`model from ${process.env.CMS_MODEL}`);
  } else {
    const { stdout } = await run(siteBin, ['content-model']).catch((error) => {
      throw new Error(`"${siteBin} content-model" failed: ${String(error.stderr || error.message).trim()}`);
    });
    writeFileSync(modelFile, stdout);
  }

  // A copy of the project with its own schema, database and uploads.
  const app = join(tmp, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  cpSync(join(cms, 'config'), join(app, 'config'), { recursive: true });
  cpSync(join(cms, 'package.json'), join(app, 'package.json'));
  cpSync(join(cms, 'src/index.js'), join(app, 'src/index.js'));
  symlinkSync(join(cms, 'node_modules'), join(app, 'node_modules'));
  const generate = (model) => run(process.execPath, [join(cms, 'scripts/generate-schema.mjs'), '--out', join(app, 'src'), model]);
  await step('generate schema', () => generate(modelFile));

  const [strapiPort, embeddedPort, cmsSitePort] = await Promise.all([freePort(), freePort(), freePort()]);
  const webhookSecret = randomBytes(16).toString('hex');
  const previewSecret = randomBytes(16).toString('hex');
  const admin = { email: 'test-cms@example.com', password: `Test-${randomBytes(8).toString('hex')}` };
  const secret = () => randomBytes(16).toString('base64');
  const strapiEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(strapiPort),
    NODE_ENV: 'development',
    DATABASE_FILENAME: join(tmp, 'data.db'),
    PUBLIC_DIR: join(tmp, 'public'),
    SERVE_ADMIN: 'false',
    APP_KEYS: [secret(), secret()].join(','),
    API_TOKEN_SALT: secret(),
    ADMIN_JWT_SECRET: secret(),
    TRANSFER_TOKEN_SALT: secret(),
    JWT_SECRET: secret(),
    ENCRYPTION_KEY: secret(),
    STRAPI_TELEMETRY_DISABLED: 'true',
    STRAPI_DISABLE_LICENSE_PING: 'true',
    STRAPI_DISABLE_EE: 'true',
    SITE_WEBHOOK_URL: `http://127.0.0.1:${cmsSitePort}/api/cms/webhook`,
    SITE_WEBHOOK_SECRET: webhookSecret,
    CLIENT_URL: `http://127.0.0.1:${cmsSitePort}`,
    PREVIEW_SECRET: previewSecret,
    CMS_ADMIN_EMAIL: admin.email,
    CMS_ADMIN_PASSWORD: admin.password,
  };
  const strapiUrl = `http://127.0.0.1:${strapiPort}`;
  const importOut = await step('import (fresh database: creates the schema)', () =>
    run(process.execPath, [join(cms, 'scripts/import.mjs'), '--app', app], { cwd: app, env: strapiEnv }),
  );
  log(importOut.stdout.trim() + (importOut.stderr.trim() ? `\n${importOut.stderr.trim()}` : ''));

  const startStrapi = () => {
    const child = start('strapi', process.execPath, [join(cms, 'node_modules/@strapi/strapi/bin/strapi.js'), 'start'], { cwd: app, env: strapiEnv });
    return waitFor(`${strapiUrl}/_health`, child, 180).then(() => child);
  };
  let strapi = await step('start Strapi', startStrapi);
  log(`Strapi on ${strapiUrl}`);

  const siteEnv = (port, extra) => {
    const dataDir = join(tmp, `data-${port}`);
    mkdirSync(dataDir, { recursive: true });
    const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, ...extra };
    delete env.CMS_URL;
    return { ...env, ...extra };
  };
  const embedded = `http://127.0.0.1:${embeddedPort}`;
  const fromCms = `http://127.0.0.1:${cmsSitePort}`;
  await step('start both sites', async () => {
    const a = start('site-embedded', siteBin, [], { env: siteEnv(embeddedPort, {}) });
    // The site's own token (src/index.js writes it), which reads drafts for the preview too.
    const siteToken = readFileSync(join(app, '.tmp', 'site-token'), 'utf8').trim();
    const b = start('site-cms', siteBin, [], { env: siteEnv(cmsSitePort, { CMS_URL: strapiUrl, CMS_WEBHOOK_SECRET: webhookSecret, CMS_TOKEN: siteToken, PREVIEW_SECRET: previewSecret }) });
    await Promise.all([waitFor(`${embedded}/sitemap.xml`, a, 120), waitFor(`${fromCms}/sitemap.xml`, b, 120)]);
  });

  // (a) every route, both languages, equal <main>.
  await step('(a) every sitemap route compared', async () => {
    const items = itemRoutes();
    const prefixes = [...items.keys()];
    const paths = await sitemapPaths(embedded);
    let cmsItems = new Map();
    try {
      for (const path of await sitemapPaths(fromCms)) {
        const key = itemKey(path, prefixes);
        if (key) cmsItems.set(`${key.lang}${key.prefix}/${key.slug}`, path);
      }
    } catch (error) {
      log(`CMS site's sitemap: ${error.message}`);
    }
    const failures = [];
    await pool(paths, 4, async (path) => {
      const key = itemKey(path, prefixes);
      const a = await page(embedded, path);
      if (a.status !== 200) return failures.push(`${path}: embedded site answered ${a.status}`);
      // An item is found on the CMS site by its slug: through the CMS site's own
      // sitemap, else at its Strapi id or documentId in that locale.
      let cmsPath = path;
      let b;
      if (key) {
        const lang = key.lang === 'sw' ? '/sw' : '';
        const candidates = [cmsItems.get(`${key.lang}${key.prefix}/${key.slug}`)];
        const found = await fetch(`${strapiUrl}/api/${items.get(key.prefix)}?locale=${key.lang}&filters[slug][$eq]=${encodeURIComponent(key.slug)}&fields[0]=slug`)
          .then((r) => r.json())
          .catch(() => ({}));
        for (const entry of found?.data || []) candidates.push(`${lang}${key.prefix}/${entry.id}/${key.slug}`, `${lang}${key.prefix}/${entry.documentId}/${key.slug}`);
        for (const candidate of candidates.filter(Boolean)) {
          cmsPath = candidate;
          b = await page(fromCms, candidate);
          if (b.status === 200) break;
        }
        if (!b) return failures.push(`${path}: Strapi has no ${items.get(key.prefix)} with slug ${key.slug} in ${key.lang}`);
      } else {
        b = await page(fromCms, path);
      }
      if (b.status !== 200) return failures.push(`${cmsPath}: CMS site answered ${b.status}`);
      const [ma, mb] = [mainOf(a.html), mainOf(b.html)];
      if (!ma || !mb) return failures.push(`${path}: no <main> (${ma ? 'cms' : 'embedded'})`);
      if (langOf(a.html) !== langOf(b.html)) return failures.push(`${path}: lang ${langOf(a.html)} / cms ${langOf(b.html)}`);
      const [ta, tb] = [textOf(ma), textOf(mb)];
      if (ta !== tb) return failures.push(`${path}: text differs ${firstDifference(ta, tb)}`);
      const [ha, hb] = [attrs(ma, 'href').map((h) => normaliseHref(h, prefixes)), attrs(mb, 'href').map((h) => normaliseHref(h, prefixes))];
      if (ha.join('\n') !== hb.join('\n')) {
        const i = ha.findIndex((h, n) => h !== hb[n]);
        return failures.push(`${path}: link ${i} ${ha[i]} / cms ${hb[i]} (${ha.length} / ${hb.length} links)`);
      }
      const [aa, ab] = [attrs(ma, 'alt'), attrs(mb, 'alt')];
      if (aa.join('\n') !== ab.join('\n')) {
        const i = aa.findIndex((h, n) => h !== ab[n]);
        return failures.push(`${path}: image alt ${i} «${aa[i]}» / cms «${ab[i]}»`);
      }
    });
    failures.sort();
    writeFileSync(join(tmp, 'a-failures.txt'), failures.join('\n') + '\n');
    for (const failure of failures.slice(0, 15)) console.log(`       ${failure}`);
    if (failures.length > 15) console.log(`       … and ${failures.length - 15} more (all in a-failures.txt with KEEP_TMP=1)`);
    check(`(a) ${paths.length} routes render from Strapi as from the embedded content`, failures.length === 0, failures.length ? `${failures.length} differ` : '');
  });

  // The admin's session, and a full-access API token made once through the admin API.
  const adminJwt = async () => {
    const login = await fetch(`${strapiUrl}/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) }).then((r) => r.json());
    const jwt = login?.data?.token;
    if (!jwt) throw new Error(`admin login: ${JSON.stringify(login)}`);
    return jwt;
  };
  let apiToken;
  const token = async () => {
    if (apiToken) return apiToken;
    const jwt = await adminJwt();
    const created = await fetch(`${strapiUrl}/admin/api-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
      body: JSON.stringify({ name: 'test-cms', description: '', type: 'full-access', lifespan: null }),
    }).then((r) => r.json());
    apiToken = created?.data?.accessKey;
    if (!apiToken) throw new Error(`api token: ${JSON.stringify(created)}`);
    return apiToken;
  };

  // (b) a change published in Strapi reaches / through the webhook.
  await step('(b) webhook', async () => {
    try {
      const bearer = await token();
      await page(fromCms, '/'); // cached before the change
      const title = `Home webhook ${Date.now()}`;
      const put = await fetch(`${strapiUrl}/api/home?locale=en`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ data: { title } }),
      });
      const answer = await put.json();
      if (!put.ok || answer?.data?.title !== title || !answer?.data?.publishedAt) throw new Error(`PUT /api/home: HTTP ${put.status} ${JSON.stringify(answer).slice(0, 300)}`);
      const t = Date.now();
      let seen = false;
      while (!seen && Date.now() - t < 2000) {
        seen = (await page(fromCms, '/')).html.includes(title);
        if (!seen) await sleep(100);
      }
      const after = Date.now() - t;
      check('(b) home title published in Strapi reaches / through the webhook within 2 s', seen, seen ? `${after} ms` : `still the old page after ${after} ms`);
    } catch (error) {
      check('(b) home title published in Strapi reaches / through the webhook within 2 s', false, error.message);
    }
  });

  // (d) more than a page of Strapi's in one collection: every story in the
  // sitemap and reachable by links; one published now, there at once.
  await step('(d) more than 100 stories', async () => {
    const name = '(d) 120 stories added in Strapi: all in the sitemap and reachable page after page';
    try {
      const bearer = await token();
      const create = async (n, publishDate) => {
        const slug = `archive-story-${n}-${started}`;
        const res = await fetch(`${strapiUrl}/api/news-updates?locale=en`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
          body: JSON.stringify({ data: { title: `Archive story ${n}`, slug, publishDate, summary: `Story ${n} of the archive.` } }),
        });
        if (!res.ok) throw new Error(`POST /api/news-updates: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
        return slug;
      };
      const day = (n) => new Date(Date.UTC(2020, 0, 1) + n * 86400000).toISOString().slice(0, 10);
      const slugs = [];
      for (let n = 1; n <= 120; n++) slugs.push(await create(n, day(n)));
      const count = await fetch(`${strapiUrl}/api/news-updates?locale=en&pagination[pageSize]=1`).then((r) => r.json());
      log(`Strapi holds ${count?.meta?.pagination?.total} English news stories`);
      const inSitemap = async () => {
        const paths = await sitemapPaths(fromCms);
        return new Set(paths.filter((p) => p.startsWith('/news-event/')).map((p) => p.split('/')[3]));
      };
      const deadline = Date.now() + 10000;
      let listed = await inSitemap();
      while (slugs.some((slug) => !listed.has(slug)) && Date.now() < deadline) {
        await sleep(250);
        listed = await inSitemap();
      }
      const missing = slugs.filter((slug) => !listed.has(slug));
      // Following the list's links like a visitor without JavaScript.
      const reached = new Set();
      let next = '/news-events';
      let pages = 0;
      while (next && pages < 100) {
        const { status, html } = await page(fromCms, next);
        if (status !== 200) throw new Error(`${next}: HTTP ${status}`);
        for (const m of html.matchAll(/href="\/news-event\/[^/"]+\/([^"]+)"/g)) reached.add(m[1]);
        pages += 1;
        const rel = html.match(/<a [^>]*href="([^"]+)"[^>]*rel="next"/);
        next = rel ? decode(rel[1]) : null;
      }
      const unreached = slugs.filter((slug) => !reached.has(slug));
      check(name, missing.length === 0 && unreached.length === 0, `${listed.size} English stories in the sitemap, ${reached.size} reached through ${pages} list pages; missing from the sitemap ${missing.length}, unreached ${unreached.length}`);

      const fresh = await create(121, '2030-01-01');
      const t = Date.now();
      let seen = false;
      while (!seen && Date.now() - t < 2000) {
        seen = (await inSitemap()).has(fresh) && (await page(fromCms, '/news-events')).html.includes(`/${fresh}"`);
        if (!seen) await sleep(100);
      }
      check('(d) a story published in Strapi is in the sitemap and on the first list page within 2 s (webhook)', seen, `${Date.now() - t} ms`);
    } catch (error) {
      check(name, false, error.message);
    }
  });

  // (e) a photo uploaded to Strapi reaches a page through the image endpoint.
  await step('(e) photo upload', async () => {
    const name = '(e) a photo uploaded to Strapi reaches /news-events through the image endpoint, in WebP';
    try {
      const bearer = await token();
      const sharp = createRequire(join(cms, 'package.json'))('sharp');
      const { data, info } = await sharp({ create: { width: 1600, height: 1067, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const jpeg = await sharp(data, { raw: info }).blur(3).jpeg({ quality: 90 }).toBuffer();
      const form = new FormData();
      form.append('files', new Blob([jpeg], { type: 'image/jpeg' }), 'test-cms-photo.jpg');
      const uploaded = await fetch(`${strapiUrl}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` }, body: form }).then((r) => r.json());
      const file = Array.isArray(uploaded) ? uploaded[0] : undefined;
      if (!file?.id) throw new Error(`POST /api/upload: ${JSON.stringify(uploaded).slice(0, 300)}`);
      check('(e) Strapi made the photo\'s smaller formats (sharp)', Boolean(file.formats?.small), Object.keys(file.formats ?? {}).join(', '));
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };
      const newest = await fetch(`${strapiUrl}/api/news-updates?locale=en&sort=publishDate:desc&pagination[pageSize]=1`, { headers }).then((r) => r.json());
      const documentId = newest?.data?.[0]?.documentId;
      if (!documentId) throw new Error(`newest story: ${JSON.stringify(newest).slice(0, 300)}`);
      const put = await fetch(`${strapiUrl}/api/news-updates/${documentId}?locale=en`, { method: 'PUT', headers, body: JSON.stringify({ data: { image: file.id } }) });
      if (!put.ok) throw new Error(`PUT the story's image: HTTP ${put.status} ${(await put.text()).slice(0, 300)}`);
      const t = Date.now();
      let srcset;
      while (!srcset && Date.now() - t < 10_000) {
        const { html } = await page(fromCms, '/news-events');
        srcset = [...html.matchAll(/srcSet="([^"]*)"/g)].map((m) => decode(m[1])).find((value) => value.includes(file.hash));
        if (!srcset) await sleep(200);
      }
      if (!srcset) throw new Error(`no srcset naming ${file.hash} on /news-events after ${Date.now() - t} ms`);
      const candidate = srcset.split(', ').find((c) => c.endsWith(' 480w'))?.split(' ')[0];
      const answer = await fetch(fromCms + candidate, { headers: { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' }, redirect: 'manual' });
      const type = answer.headers.get('content-type');
      check(name, answer.status === 200 && type === 'image/webp', `${candidate}: HTTP ${answer.status} ${type}`);
    } catch (error) {
      check(name, false, error.message);
    }
  });

  // (f) an editor's draft, seen through Strapi's preview link and by nobody else until published.
  await step('(f) preview', async () => {
    const name = '(f) a draft of home is seen through Strapi\'s preview link, in both languages, and not by visitors';
    try {
      const bearer = await token();
      const jwt = await adminJwt();
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };
      const marks = { en: `Draft home ${Date.now()}`, sw: `Rasimu ya mwanzo ${Date.now()}` };
      const bars = { en: 'Preview: draft', sw: 'Onyesho la awali: rasimu' };
      const details = [];
      let ok = true;
      for (const lang of ['en', 'sw']) {
        const path = lang === 'en' ? '/' : '/sw';
        await page(fromCms, path); // cached for visitors before the change
        // The editor saves without publishing.
        const put = await fetch(`${strapiUrl}/api/home?locale=${lang}&status=draft`, { method: 'PUT', headers, body: JSON.stringify({ data: { title: marks[lang] } }) });
        if (!put.ok) throw new Error(`PUT /api/home?locale=${lang}&status=draft: HTTP ${put.status} ${(await put.text()).slice(0, 300)}`);
        // "Open preview": the URL the admin frames, from config/admin.js.
        const answer = await fetch(`${strapiUrl}/content-manager/preview/url/api::home.home?locale=${lang}&status=draft`, { headers: { authorization: `Bearer ${jwt}` } });
        const url = (await answer.json().catch(() => ({})))?.data?.url;
        if (!url?.startsWith(`${fromCms}/api/preview?`)) throw new Error(`preview URL of home in ${lang}: HTTP ${answer.status} ${url}`);
        const opened = await fetch(url, { redirect: 'manual' });
        const cookie = (opened.headers.get('set-cookie') || '').split(';')[0];
        if (opened.status !== 303 || opened.headers.get('location') !== path || !cookie) throw new Error(`${url}: HTTP ${opened.status} to ${opened.headers.get('location')}, cookie ${cookie ? 'set' : 'missing'}`);
        const previewed = await fetch(`${fromCms}${path}`, { headers: { cookie }, redirect: 'manual' });
        const html = await previewed.text();
        const shown = html.includes(marks[lang]) && html.includes(bars[lang]) && previewed.headers.get('cache-control') === 'private, no-store';
        const visitor = await page(fromCms, path);
        const hidden = !visitor.html.includes(marks[lang]) && !visitor.html.includes(bars[lang]);
        details.push(`${path}: preview ${shown ? 'shows the draft' : `HTTP ${previewed.status} without the draft`}, visitors ${hidden ? 'do not' : 'DO'} see it`);
        ok &&= shown && hidden;
      }
      check(name, ok, details.join('; '));
      // Published: visitors get it through the webhook.
      const t = Date.now();
      for (const lang of ['en', 'sw']) {
        const put = await fetch(`${strapiUrl}/api/home?locale=${lang}`, { method: 'PUT', headers, body: JSON.stringify({ data: { title: marks[lang] } }) });
        if (!put.ok) throw new Error(`PUT /api/home?locale=${lang}: HTTP ${put.status} ${(await put.text()).slice(0, 300)}`);
      }
      let seen = false;
      while (!seen && Date.now() - t < 2000) {
        seen = (await page(fromCms, '/')).html.includes(marks.en) && (await page(fromCms, '/sw')).html.includes(marks.sw);
        if (!seen) await sleep(100);
      }
      check('(f) the draft, published, reaches visitors in both languages within 2 s (webhook)', seen, `${Date.now() - t} ms`);
    } catch (error) {
      check(name, false, error.message);
    }
  });

  // (g) the locations: not localized, read again on their webhook, and many loaded from a CSV.
  await step('(g) locations', async () => {
    const name = '(g) the locations type is not localized and has its kind';
    try {
      const schema = JSON.parse(readFileSync(join(app, 'src/api/locations/content-types/location/schema.json'), 'utf8'));
      const kind = schema.attributes?.kind;
      check(name, schema.pluginOptions?.i18n?.localized === false && kind?.type === 'enumeration' && kind.enum.join() === 'agent,shop' && kind.required === true, JSON.stringify({ pluginOptions: schema.pluginOptions, kind }));
      const bearer = await token();
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };
      const listed = await fetch(`${strapiUrl}/api/locations?filters[district][$eq]=Meru&sort=id:asc&pagination[pageSize]=1`, { headers }).then((r) => r.json());
      const place = listed?.data?.[0];
      if (!place?.documentId) throw new Error(`a place in Meru: ${JSON.stringify(listed).slice(0, 300)}`);
      check('(g) the imported sample is one entry per place, in no locale', !place.locale && listed.meta?.pagination?.total > 0, `${place.name}, locale ${place.locale}`);
      for (const path of ['/mpesa-agents/arusha/meru', '/sw/mpesa-agents/arusha/meru']) await page(fromCms, path);
      const renamed = `Agent renamed ${Date.now()}`;
      const put = await fetch(`${strapiUrl}/api/locations/${place.documentId}`, { method: 'PUT', headers, body: JSON.stringify({ data: { name: renamed } }) });
      if (!put.ok) throw new Error(`PUT /api/locations/${place.documentId}: HTTP ${put.status} ${(await put.text()).slice(0, 300)}`);
      const t = Date.now();
      let seen = false;
      while (!seen && Date.now() - t < 5000) {
        seen = (await page(fromCms, '/mpesa-agents/arusha/meru')).html.includes(renamed) && (await page(fromCms, '/sw/mpesa-agents/arusha/meru')).html.includes(renamed);
        if (!seen) await sleep(100);
      }
      check('(g) a place renamed in Strapi reaches its page in both languages within 5 s (webhook)', seen, `${Date.now() - t} ms`);

      // Many places from a CSV, loaded while Strapi is stopped.
      const places = 1000;
      const csv = join(tmp, 'locations.csv');
      const { stdout } = await run('python3', [join(repo, 'tools/locations.py'), 'csv', String(places)]);
      writeFileSync(csv, stdout);
      const agents = stdout.split('\n').slice(1).filter((line) => line.split(',')[2] === 'agent').length;
      await stop(strapi);
      const imported = await run(process.execPath, [join(cms, 'scripts/import.mjs'), '--force', '--locations', csv, '--app', app], { cwd: app, env: strapiEnv });
      log(imported.stdout.trim());
      strapi = await startStrapi();
      const total = await fetch(`${strapiUrl}/api/locations?pagination[pageSize]=1`).then((r) => r.json());
      const port = await freePort();
      const reader = start('site-csv', siteBin, [], { env: siteEnv(port, { CMS_URL: strapiUrl }) });
      await waitFor(`http://127.0.0.1:${port}/healthz`, reader, 120);
      let counted = 0;
      const deadline = Date.now() + 30_000;
      while (counted !== agents && Date.now() < deadline) {
        const { html } = await page(`http://127.0.0.1:${port}`, '/sw/mpesa-agents');
        counted = [...html.matchAll(/href="\/sw\/mpesa-agents\/[a-z-]+">[^<]*<\/a> \((?:<!-- -->)?(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
        if (counted !== agents) await sleep(500);
      }
      await stop(reader);
      check(`(g) import.mjs --locations loads a CSV of ${places} places, and a site reads every agent of it`, total?.meta?.pagination?.total === places && counted === agents, `Strapi holds ${total?.meta?.pagination?.total}; the site counts ${counted} agents of ${agents}`);
    } catch (error) {
      check(name, false, error.message);
    }
  });

  // (c) site check-cms: passes, then names a field removed from the schema.
  await step('(c) site check-cms', async () => {
    const env = { ...process.env, CMS_URL: strapiUrl };
    const checkCms = () =>
      run(siteBin, ['check-cms'], { env }).then(
        ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
        (error) => ({ code: error.code ?? 1, out: `${error.stdout || ''}${error.stderr || ''}` }),
      );
    const first = await checkCms();
    if (/unexpected argument|unrecognized subcommand/i.test(first.out)) {
      check('(c) site check-cms', false, 'this site binary has no check-cms subcommand yet');
      return;
    }
    // What it found, not its tail: the lines that are not `ok` or `empty`.
    const found = first.out.split('\n').filter((line) => line.trim() && !/^(ok|empty)\s/.test(line)).slice(0, 40).join('\n');
    check('(c) site check-cms passes against the imported CMS', first.code === 0, first.code === 0 ? '' : `exit ${first.code}\n${found}`);
    const model = JSON.parse(readFileSync(modelFile, 'utf8'));
    const victim = model.singleTypes.find((t) => t.apiId !== 'sidebar' && t.attributes.title) || model.singleTypes[0];
    const broken = structuredClone(model);
    delete broken.singleTypes.find((t) => t.apiId === victim.apiId).attributes.title;
    const brokenFile = join(tmp, 'model-broken.json');
    writeFileSync(brokenFile, JSON.stringify(broken));
    await generate(brokenFile);
    await stop(strapi);
    strapi = await startStrapi();
    const second = await checkCms();
    const named = second.out.includes(victim.apiId) && /title/.test(second.out);
    check(
      `(c) site check-cms fails and names ${victim.apiId}.title once it is removed from the schema`,
      second.code !== 0 && named,
      `exit ${second.code}${named ? '' : `, output does not name it:\n${second.out.slice(-2000)}`}`,
    );
  });
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error(`test-cms: ${error.stack || error.message}${error.stderr ? `\n${error.stderr}` : ''}`);
}
await Promise.all(children.map(stop));
for (const [name, ms] of timings) console.log(`  ${secs(ms).padStart(8)}  ${name}`);
console.log(`  ${secs(Date.now() - started).padStart(8)}  total`);
if (process.env.KEEP_TMP) console.log(`kept ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
const passed = results.filter((r) => r.ok).length;
console.log(`${passed} passed, ${results.length - passed + (failed ? 1 : 0)} failed`);
process.exit(failed || passed < results.length ? 1 : 0);
