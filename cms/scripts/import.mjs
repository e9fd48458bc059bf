#!/usr/bin/env node
// Loads the site's embedded content (content/, both languages) into this
// Strapi, through the Document Service with Strapi loaded in this process, so
// run it while the server is stopped (`make cms` does: import, then start).
//
//   node scripts/import.mjs [--force] [--content DIR] [--assets DIR] [--app DIR] [--locations FILE.csv] [--synonyms FILE]
//
// - single types: content/<lang>/<key>.json into api::<key>.<key>; the first
//   locale creates the document, the others are its localizations;
// - collections: content/<lang>/collections/<name>.json, item by item in
//   ascending `id`; an item's languages share one document (same documentId);
//   a type that is not localized (the locations) from content/collections/<name>.json,
//   one document per item;
// - media: every distinct (url, alternativeText) is uploaded once into the media
//   library from the site's assets (/static/x -> assets/x) and linked by id;
// - with --locations, the agents and shops of a CSV (as `tools/locations.py csv N`
//   writes it: a header row, then `id,name,kind,region,district,street,landmark_en,
//   landmark_sw,latitude,longitude,services,hoursWeekdays,hoursSaturday,hoursSunday,
//   phone`, services separated by `;`) instead of content/'s sample, many thousands
//   of them; a row without a name, kind or position is skipped and counted;
// - the search's synonyms (not localized), one document per group, from the list
//   the site searches with when the CMS has none (`server/src/search/synonyms.txt`,
//   or --synonyms FILE written the same way: a group a line, its entries separated
//   by `|`, `#` starting a comment), so that editors start from what the site does;
// - everything is published.
//
// Without --force nothing happens when the database already holds content
// (so a restart never overwrites editors' work). With --force it is
// idempotent: documents it created before (remembered in Strapi's core store)
// are updated in place, keeping their documentId; items gone from content/
// are deleted; documents editors added are left alone.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const force = args.includes('--force');
const contentDir = resolve(option('--content', join(root, '..', 'content')));
const assetsDir = resolve(option('--assets', join(root, '..', 'assets')));
// Another copy of this project (config/, src/) to load instead of this one: the tests use one.
const appDir = resolve(option('--app', root));
const locationsCsv = option('--locations', null);
const synonymsList = resolve(option('--synonyms', join(root, '..', 'server', 'src', 'search', 'synonyms.txt')));
const MIME = { '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif', '.pdf': 'application/pdf' };
const STORE = { type: 'plugin', name: 'site-import' };

const warnings = new Map();
const warn = (message) => warnings.set(message, (warnings.get(message) || 0) + 1);
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** The fields of a CSV line (RFC 4180: quoted fields may hold commas, quotes doubled). */
export function csvLine(line) {
  const fields = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') fields.push(field), (field = '');
    else field += c;
  }
  fields.push(field);
  return fields;
}

/** The agents and shops of a locations CSV: id -> attributes (one for both languages, the landmark in each). */
export function locationsFromCsv(text) {
  const [header, ...lines] = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const names = csvLine(header);
  const items = new Map();
  for (const line of lines) {
    const row = Object.fromEntries(csvLine(line).map((value, i) => [names[i], value.trim()]));
    const id = Number(row.id);
    const latitude = Number(row.latitude);
    const longitude = Number(row.longitude);
    if (!Number.isInteger(id) || id <= 0 || !row.name || !['agent', 'shop'].includes(row.kind) || !Number.isFinite(latitude) || !Number.isFinite(longitude)) {
      warn('locations CSV: a row without id, name, kind or position; skipped');
      continue;
    }
    items.set(id, {
      name: row.name,
      kind: row.kind,
      region: row.region,
      district: row.district,
      street: row.street || null,
      latitude,
      longitude,
      services: (row.services || '').split(';').map((s) => s.trim()).filter(Boolean),
      hoursWeekdays: row.hoursWeekdays || null,
      hoursSaturday: row.hoursSaturday || null,
      hoursSunday: row.hoursSunday || null,
      phone: row.phone || null,
      landmark: row.landmark_en || null,
      landmarkSw: row.landmark_sw || null,
    });
  }
  return items;
}

/**
 * The groups of a synonyms list, as the site reads its own: a line each, `#` starting a comment, entries
 * separated by `|`; a line of fewer than two entries finds nothing more, so it is left out. id (its order
 * in the list) -> attributes.
 */
export function synonymsFromList(text) {
  const items = new Map();
  for (const line of text.split(/\r?\n/)) {
    const entries = line.split('#')[0].split('|').map((entry) => entry.trim().replace(/\s+/g, ' ')).filter(Boolean);
    if (entries.length >= 2) items.set(items.size + 1, { words: entries.join(' | ') });
  }
  return items;
}

/** Whether a content type keeps a document per locale (the generated schema says so for each type). */
const localized = (contentType) => contentType?.pluginOptions?.i18n?.localized === true;

/** v4 `{data: {id, attributes}}` / `{data: [...]}` / v5 flat media, to plain attribute objects. */
function unwrapMedia(value) {
  if (value == null) return null;
  if (typeof value === 'object' && 'data' in value && Object.keys(value).every((k) => k === 'data' || k === 'meta')) return unwrapMedia(value.data);
  if (Array.isArray(value)) return value.map(unwrapMedia).filter(Boolean);
  if (typeof value === 'object' && value.attributes && typeof value.attributes === 'object') return value.attributes;
  return value;
}

class Importer {
  constructor(strapi) {
    this.strapi = strapi;
    this.locales = [];
    this.media = new Map(); // `${url}\n${alt}` -> file id
    this.stats = { singles: 0, items: 0, localizations: 0, uploaded: 0, reused: 0, deleted: 0 };
  }

  async loadMediaMap() {
    const saved = (await this.strapi.store.get({ ...STORE, key: 'media' })) || {};
    const ids = Object.values(saved);
    const existing = new Set(
      ids.length ? (await this.strapi.db.query('plugin::upload.file').findMany({ where: { id: { $in: ids } }, select: ['id'] })).map((f) => f.id) : [],
    );
    for (const [key, id] of Object.entries(saved)) if (existing.has(id)) this.media.set(key, id);
  }

  async saveMediaMap() {
    await this.strapi.store.set({ ...STORE, key: 'media', value: Object.fromEntries(this.media) });
  }

  /** The media library id for a content media object, uploading its file the first time. */
  async mediaId(media) {
    const url = media?.url;
    if (typeof url !== 'string' || url === '') return null;
    const alt = media.alternativeText ?? '';
    const key = `${url}\n${alt}`;
    if (this.media.has(key)) {
      this.stats.reused++;
      return this.media.get(key);
    }
    if (!url.startsWith('/static/')) {
      warn(`media ${url}: only site files under /static/ can be uploaded (no network); left empty`);
      return null;
    }
    const path = join(assetsDir, decodeURIComponent(url.slice('/static/'.length)));
    if (!path.startsWith(assetsDir + '/') || !existsSync(path)) {
      warn(`media ${url}: no file ${path}; left empty`);
      return null;
    }
    const ext = extname(path).toLowerCase();
    const [file] = await this.strapi.plugin('upload').service('upload').upload({
      data: { fileInfo: { name: basename(path), alternativeText: alt, caption: '' } },
      files: { filepath: path, originalFilename: basename(path), mimetype: MIME[ext] || 'application/octet-stream', size: statSync(path).size },
    });
    // SVGs are stored without dimensions: keep the ones content gives.
    if ((!file.width || !file.height) && media.width && media.height) {
      await this.strapi.db.query('plugin::upload.file').update({ where: { id: file.id }, data: { width: media.width, height: media.height } });
    }
    this.media.set(key, file.id);
    this.stats.uploaded++;
    return file.id;
  }

  /** A v4 content object to Document Service input for `attributes` (a content type's or component's). */
  async toInput(value, attributes, where) {
    const out = {};
    for (const [key, raw] of Object.entries(value || {})) {
      if (key === 'id' || key === '__component' || key === 'documentId' || key === 'locale' || key === 'localizations') continue;
      if (['createdAt', 'updatedAt', 'publishedAt'].includes(key)) continue;
      const attr = attributes[key];
      if (!attr) {
        warn(`${where}.${key}: not in the Strapi schema; skipped`);
        continue;
      }
      out[key] = await this.field(raw, attr, `${where}.${key}`);
    }
    return out;
  }

  async field(raw, attr, where) {
    switch (attr.type) {
      case 'media': {
        const media = unwrapMedia(raw);
        if (attr.multiple) return Promise.all((Array.isArray(media) ? media : media ? [media] : []).map((m) => this.mediaId(m))).then((ids) => ids.filter((id) => id != null));
        return this.mediaId(Array.isArray(media) ? media[0] : media);
      }
      case 'component': {
        const component = this.strapi.components[attr.component];
        const one = (item, i) => {
          // A list of plain values for a one-field component: each value becomes that field.
          if (item !== null && typeof item !== 'object') {
            const fields = Object.keys(component.attributes).filter((k) => k !== 'id');
            if (fields.length === 1) return { [fields[0]]: item };
            warn(`${where}: a plain value where component ${attr.component} is expected; skipped`);
            return null;
          }
          return this.toInput(item, component.attributes, `${where}[${i}]`);
        };
        if (attr.repeatable) return (await Promise.all((raw || []).map(one))).filter(Boolean);
        return raw == null ? null : one(raw, 0);
      }
      case 'dynamiczone': {
        const items = [];
        for (const [i, item] of (raw || []).entries()) {
          const component = this.strapi.components[item?.__component];
          if (!component || !(attr.components || []).includes(item.__component)) {
            warn(`${where}: component ${item?.__component} is not allowed in this zone; skipped`);
            continue;
          }
          items.push({ __component: item.__component, ...(await this.toInput(item, component.attributes, `${where}[${i}]`)) });
        }
        return items;
      }
      case 'integer':
      case 'biginteger':
        return raw == null || raw === '' ? null : Math.round(Number(raw));
      case 'decimal':
      case 'float':
        return raw == null || raw === '' ? null : Number(raw);
      case 'string':
      case 'text':
      case 'richtext':
      case 'email':
      case 'uid':
        return raw == null ? null : typeof raw === 'string' ? raw : Array.isArray(raw) || typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
      case 'enumeration':
        if (raw != null && !attr.enum.includes(raw)) {
          warn(`${where}: "${raw}" is not one of ${attr.enum.join(', ')}; left empty`);
          return null;
        }
        return raw ?? null;
      case 'relation':
        warn(`${where}: relations are not imported`);
        return undefined;
      default:
        return raw ?? null;
    }
  }

  /** Every locale of one document: create the first, then update (or add) the others. A type that is not localized has one version, `[undefined, attributes]`. */
  async saveDocument(uid, documentId, versions, where) {
    const docs = this.strapi.documents(uid);
    const contentType = this.strapi.contentTypes[uid];
    for (const [locale, attributes] of versions) {
      const data = await this.toInput(attributes, contentType.attributes, locale ? `${where} (${locale})` : where);
      const inLocale = locale ? { locale } : {};
      if (!documentId) {
        const created = await docs.create({ ...inLocale, data, status: 'published' });
        documentId = created.documentId;
      } else {
        await docs.update({ documentId, ...inLocale, data, status: 'published' });
      }
      this.stats.localizations++;
    }
    if (!localized(contentType)) return documentId;
    // Locales this document has but content/ lacks: removed, so the site falls back as it does for content/.
    const present = await this.strapi.db.query(uid).findMany({ where: { documentId }, select: ['locale'] });
    for (const locale of new Set(present.map((row) => row.locale))) {
      if (!versions.some(([l]) => l === locale)) {
        await docs.delete({ documentId, locale });
        this.stats.deleted++;
      }
    }
    return documentId;
  }

  async importSingles() {
    const first = join(contentDir, this.locales[0]);
    const keys = readdirSync(first).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    for (const key of keys) {
      const uid = `api::${key}.${key}`;
      if (!this.strapi.contentTypes[uid]) {
        warn(`single type ${key}: content/ has it, the schema does not; skipped`);
        continue;
      }
      const versions = [];
      for (const locale of this.locales) {
        const path = join(contentDir, locale, `${key}.json`);
        if (existsSync(path)) versions.push([locale, readJson(path).data?.attributes ?? {}]);
      }
      const existing = await this.strapi.db.query(uid).findOne({ select: ['documentId'] });
      await this.strapi.db.transaction(() => this.saveDocument(uid, existing?.documentId, versions, key));
      this.stats.singles++;
    }
  }

  async importCollections() {
    const saved = (await this.strapi.store.get({ ...STORE, key: 'collections' })) || {};
    const names = new Set();
    for (const dir of [...this.locales.map((locale) => join(contentDir, locale, 'collections')), join(contentDir, 'collections')]) {
      if (existsSync(dir)) for (const f of readdirSync(dir)) if (f.endsWith('.json')) names.add(f.slice(0, -5));
    }
    if (locationsCsv) names.add('locations');
    if (existsSync(synonymsList)) names.add('synonyms');
    for (const name of [...names].sort()) {
      const uid = Object.keys(this.strapi.contentTypes).find((u) => u.startsWith(`api::${name}.`) && this.strapi.contentTypes[u].info.pluralName === name);
      if (!uid) {
        warn(`collection ${name}: content/ has it, the schema does not; skipped`);
        continue;
      }
      // id -> [[locale, attributes]], in the order of this.locales; one [undefined, attributes] where not localized.
      let items = new Map();
      if (name === 'locations' && locationsCsv) {
        items = new Map([...locationsFromCsv(readFileSync(locationsCsv, 'utf8'))].map(([id, attributes]) => [id, [[undefined, attributes]]]));
      } else if (name === 'synonyms' && existsSync(synonymsList)) {
        items = new Map([...synonymsFromList(readFileSync(synonymsList, 'utf8'))].map(([id, attributes]) => [id, [[undefined, attributes]]]));
      } else if (!localized(this.strapi.contentTypes[uid])) {
        const path = join(contentDir, 'collections', `${name}.json`);
        for (const item of existsSync(path) ? readJson(path).data || [] : []) items.set(item.id, [[undefined, item.attributes || {}]]);
      } else {
        for (const locale of this.locales) {
          const path = join(contentDir, locale, 'collections', `${name}.json`);
          if (!existsSync(path)) continue;
          for (const item of readJson(path).data || []) {
            if (!items.has(item.id)) items.set(item.id, []);
            items.get(item.id).push([locale, item.attributes || {}]);
          }
        }
      }
      const known = saved[name] || {};
      const mapping = {};
      // Ascending content id, so database ids grow with them (popups are sorted by id).
      for (const id of [...items.keys()].sort((a, b) => a - b)) {
        let documentId = known[id];
        if (documentId && !(await this.strapi.db.query(uid).findOne({ where: { documentId }, select: ['id'] }))) documentId = undefined;
        mapping[id] = await this.strapi.db.transaction(() => this.saveDocument(uid, documentId, items.get(id), `${name}#${id}`));
        this.stats.items++;
      }
      for (const [id, documentId] of Object.entries(known)) {
        if (!(id in mapping) && (await this.strapi.db.query(uid).findOne({ where: { documentId }, select: ['id'] }))) {
          await this.strapi.documents(uid).delete({ documentId, locale: '*' });
          this.stats.deleted++;
        }
      }
      saved[name] = mapping;
      await this.strapi.store.set({ ...STORE, key: 'collections', value: saved });
    }
  }

  async hasContent() {
    for (const uid of Object.keys(this.strapi.contentTypes).filter((u) => u.startsWith('api::'))) {
      if (await this.strapi.db.query(uid).findOne({ select: ['id'] })) return true;
    }
    return false;
  }

  async run() {
    const started = Date.now();
    const i18n = this.strapi.plugin('i18n').service('locales');
    const defaultLocale = await i18n.getDefaultLocale();
    const available = (await i18n.find()).map((l) => l.code);
    this.locales = [defaultLocale, ...available.filter((l) => l !== defaultLocale)].filter((l) => existsSync(join(contentDir, l)));
    if (!force && (await this.hasContent())) {
      console.log('import: the CMS already holds content; nothing imported (--force re-imports, replacing what came from content/)');
      return;
    }
    await this.loadMediaMap();
    try {
      await this.importSingles();
      await this.importCollections();
    } finally {
      await this.saveMediaMap();
    }
    const s = this.stats;
    console.log(
      `import: ${s.singles} single types, ${s.items} collection items (${s.localizations} locale versions, locales ${this.locales.join(', ')}), ` +
        `${s.uploaded} files uploaded (${s.reused} reuses), ${s.deleted} removed, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const [message, count] of warnings) console.warn(`import: warning: ${message}${count > 1 ? ` (${count} times)` : ''}`);
  }
}

async function main() {
  process.chdir(appDir);
  const { createStrapi } = require('@strapi/strapi');
  const app = createStrapi({ appDir, distDir: appDir, autoReload: false, serveAdminPanel: false });
  app.log.level = process.env.IMPORT_LOG_LEVEL || 'warn';
  await app.load();
  let code = 0;
  try {
    await new Importer(app).run();
  } catch (error) {
    console.error('import failed:', error?.details ? JSON.stringify(error.details) : '', error);
    code = 1;
  }
  await app.destroy();
  process.exit(code);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
