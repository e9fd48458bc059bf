'use strict';

// Runs on every start (and when scripts/import.mjs loads Strapi):
// - the locales of the site's model exist, the first one the default;
// - the Public role may read (`find`, `findOne`) every content type of ours
//   but the form types (submissions hold people's details), and the list of
//   locales; nothing else is granted;
// - one API token for the site (FORMS_TOKEN_NAME) may read the content
//   types, create entries of the form types (nothing else on them: not
//   read, change or delete) and upload a proposal; created once, its key
//   written to .tmp/site-token for CMS_TOKEN, its permissions put back
//   to exactly these on every start;
// - with SITE_WEBHOOK_URL and SITE_WEBHOOK_SECRET set, one webhook (named
//   WEBHOOK_NAME) posts entry and media events to the site with
//   `Authorization: Bearer <secret>`; it is updated in place, never duplicated;
// - with CMS_ADMIN_EMAIL and CMS_ADMIN_PASSWORD set and no admin yet, that
//   super admin is created (otherwise the first visit to /admin asks for one).

const fs = require('fs');
const path = require('path');

const WEBHOOK_NAME = 'site (managed by cms/src/index.js)';
const WEBHOOK_EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.update', 'media.delete'];
const LOCALE_NAMES = { en: 'English (en)', sw: 'Swahili (sw)' };

function modelLocales() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, 'api', '.locales.json'), 'utf8'));
  } catch {
    return ['en', 'sw'];
  }
}

async function ensureLocales(strapi) {
  const wanted = modelLocales();
  const service = strapi.plugin('i18n').service('locales');
  const existing = await service.find();
  for (const code of wanted) {
    if (!existing.some((locale) => locale.code === code)) {
      await service.create({ code, name: LOCALE_NAMES[code] || code });
      strapi.log.info(`[site] locale ${code} created`);
    }
  }
  if ((await service.getDefaultLocale()) !== wanted[0]) {
    await service.setDefaultLocale({ code: wanted[0] });
    strapi.log.info(`[site] default locale set to ${wanted[0]}`);
  }
}

const FORMS_TOKEN_NAME = 'site (managed by cms/src/index.js)';

/** The generated form types' uids (scripts/generate-schema.mjs writes them). */
function formTypes() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, 'api', '.forms.json'), 'utf8'));
  } catch {
    return [];
  }
}

/** Our content types: the generated `api::` ones, the form types excepted. */
function siteContentTypes(strapi) {
  const forms = new Set(formTypes());
  return Object.values(strapi.contentTypes).filter((ct) => ct.uid.startsWith('api::') && !forms.has(ct.uid));
}

/** The site's token: read content, create form entries, upload a proposal. */
async function ensureSiteToken(strapi) {
  const actions = ['plugin::upload.content-api.upload', ...formTypes().map((uid) => `${uid}.create`)];
  for (const ct of siteContentTypes(strapi)) {
    actions.push(`${ct.uid}.find`);
    if (ct.kind === 'collectionType') actions.push(`${ct.uid}.findOne`);
  }
  const tokens = strapi.service('admin::api-token');
  const existing = await tokens.getByName(FORMS_TOKEN_NAME);
  if (!existing) {
    const created = await tokens.create({ name: FORMS_TOKEN_NAME, description: 'CMS_TOKEN of the site: reads content, delivers forms', type: 'custom', kind: 'content-api', lifespan: null, permissions: actions });
    const file = path.join(strapi.dirs.app.root, '.tmp', 'site-token');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, created.accessKey + '\n', { mode: 0o600 });
    strapi.log.info(`[site] API token for the site created; its key is in ${file}: set the site's CMS_TOKEN to it`);
    return;
  }
  const have = [...(existing.permissions || [])].sort();
  if (existing.type !== 'custom' || JSON.stringify(have) !== JSON.stringify([...new Set(actions)].sort())) {
    await tokens.update(existing.id, { type: 'custom', permissions: actions });
    strapi.log.info('[site] the site token\'s permissions were put back to read content and create form entries only');
  }
}

async function grantPublicRead(strapi) {
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  if (!role) throw new Error('users-permissions: no Public role');
  const permissions = strapi.db.query('plugin::users-permissions.permission');
  const granted = new Set((await permissions.findMany({ where: { role: role.id } })).map((p) => p.action));
  const wanted = ['plugin::i18n.locales.listLocales'];
  for (const ct of siteContentTypes(strapi)) {
    wanted.push(`${ct.uid}.find`);
    if (ct.kind === 'collectionType') wanted.push(`${ct.uid}.findOne`);
  }
  const missing = wanted.filter((action) => !granted.has(action));
  for (const action of missing) {
    await permissions.create({ data: { action, role: role.id } });
  }
  if (missing.length) strapi.log.info(`[site] Public role may now read ${missing.length} more actions`);
  const writes = [...granted].filter((a) => a.startsWith('api::') && !/\.(find|findOne)$/.test(a));
  if (writes.length) strapi.log.warn(`[site] the Public role may also ${writes.join(', ')}; remove that in Settings > Users & Permissions > Roles > Public unless it is meant`);
}

async function ensureWebhook(strapi) {
  const url = process.env.SITE_WEBHOOK_URL;
  const secret = process.env.SITE_WEBHOOK_SECRET;
  if (!url || !secret) {
    strapi.log.info('[site] SITE_WEBHOOK_URL or SITE_WEBHOOK_SECRET unset: webhook to the site left as it is');
    return;
  }
  const store = strapi.get('webhookStore');
  const runner = strapi.get('webhookRunner');
  const allowed = new Set(Array.from(store.allowedEvents.values()));
  const data = {
    name: WEBHOOK_NAME,
    url,
    headers: { Authorization: `Bearer ${secret}` },
    events: WEBHOOK_EVENTS.filter((event) => allowed.has(event)),
    isEnabled: true,
  };
  const existing = (await store.findWebhooks()).filter((w) => w.name === WEBHOOK_NAME);
  for (const extra of existing.slice(1)) {
    await store.deleteWebhook(extra.id);
    runner.remove(extra);
  }
  if (existing.length > 0) {
    const updated = await store.updateWebhook(existing[0].id, data);
    runner.update(updated);
    strapi.log.info(`[site] webhook to ${url} updated`);
  } else {
    const created = await store.createWebhook(data);
    runner.add(created);
    strapi.log.info(`[site] webhook to ${url} created`);
  }
}

async function ensureAdmin(strapi) {
  const email = process.env.CMS_ADMIN_EMAIL;
  const password = process.env.CMS_ADMIN_PASSWORD;
  if (!email || !password) return;
  const users = strapi.service('admin::user');
  if (await users.exists()) return;
  const superAdmin = await strapi.service('admin::role').getSuperAdmin();
  if (!superAdmin) throw new Error('no Super Admin role');
  await users.create({ email, firstname: 'Admin', lastname: 'CMS', password, isActive: true, roles: [superAdmin.id], registrationToken: null });
  strapi.log.info(`[site] super admin ${email} created`);
}

module.exports = {
  register() {},

  async bootstrap({ strapi }) {
    await ensureLocales(strapi);
    await grantPublicRead(strapi);
    await ensureSiteToken(strapi);
    await ensureWebhook(strapi);
    await ensureAdmin(strapi);
  },
};
