// node --test cms/test/: the schema generator's output and its refusals.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const generator = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'generate-schema.mjs');

const model = {
  locales: ['en', 'sw'],
  singleTypes: [
    {
      apiId: 'faq-bundles',
      displayName: 'FAQ bundles',
      attributes: {
        title: { type: 'string', required: true },
        seo: { type: 'component', component: 'shared.link', repeatable: false },
        sections: { type: 'dynamiczone', components: ['sections.hero'] },
      },
    },
  ],
  collectionTypes: [
    {
      apiId: 'news-updates',
      singular: 'news-update',
      displayName: 'News update',
      attributes: { title: { type: 'string' }, image: { type: 'media', multiple: false }, kind: { type: 'enumeration', enum: ['home', 'mpesa'] } },
    },
  ],
  components: {
    'sections.hero': { displayName: 'Hero', attributes: { title: { type: 'string' }, cta: { type: 'component', component: 'shared.link', repeatable: false } } },
    'shared.link': { displayName: 'Link', attributes: { label: { type: 'string' }, url: { type: 'string' } } },
  },
};

function generate(m) {
  const dir = mkdtempSync(join(tmpdir(), 'schema-'));
  writeFileSync(join(dir, 'model.json'), JSON.stringify(m));
  const result = spawnSync(process.execPath, [generator, '--out', join(dir, 'src'), join(dir, 'model.json')], { encoding: 'utf8' });
  return { dir, ...result };
}

test('writes localized, draft-and-publish types with core routes, and components', () => {
  const { dir, status, stderr } = generate(model);
  try {
    assert.equal(status, 0, stderr);
    const single = JSON.parse(readFileSync(join(dir, 'src/api/faq-bundles/content-types/faq-bundles/schema.json'), 'utf8'));
    assert.equal(single.kind, 'singleType');
    assert.deepEqual(single.info, { singularName: 'faq-bundles', pluralName: 'faq-bundles-entries', displayName: 'FAQ bundles' });
    assert.deepEqual(single.options, { draftAndPublish: true });
    assert.deepEqual(single.pluginOptions, { i18n: { localized: true } });
    for (const attribute of Object.values(single.attributes)) assert.deepEqual(attribute.pluginOptions, { i18n: { localized: true } });
    const collection = JSON.parse(readFileSync(join(dir, 'src/api/news-updates/content-types/news-update/schema.json'), 'utf8'));
    assert.equal(collection.kind, 'collectionType');
    assert.equal(collection.info.pluralName, 'news-updates');
    assert.equal(collection.info.singularName, 'news-update');
    assert.deepEqual(collection.attributes.image.allowedTypes, ['images', 'files', 'videos', 'audios']);
    assert.match(readFileSync(join(dir, 'src/api/news-updates/routes/news-update.js'), 'utf8'), /createCoreRouter\('api::news-updates\.news-update'\)/);
    assert.deepEqual(readdirSync(join(dir, 'src/api/news-updates')).sort(), ['content-types', 'controllers', 'routes', 'services']);
    const hero = JSON.parse(readFileSync(join(dir, 'src/components/sections/hero.json'), 'utf8'));
    assert.equal(hero.collectionName, 'components_sections_hero');
    assert.equal(hero.attributes.cta.pluginOptions, undefined);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'src/api/.locales.json'), 'utf8')), ['en', 'sw']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('writes a collection type the model marks unlocalized without i18n, drafts kept', () => {
  const shared = structuredClone(model);
  shared.collectionTypes.push({ apiId: 'locations', singular: 'location', displayName: 'Location', localized: false, attributes: { name: { type: 'string', required: true }, latitude: { type: 'decimal' } } });
  const { dir, status, stderr } = generate(shared);
  try {
    assert.equal(status, 0, stderr);
    const location = JSON.parse(readFileSync(join(dir, 'src/api/locations/content-types/location/schema.json'), 'utf8'));
    assert.deepEqual(location.pluginOptions, { i18n: { localized: false } });
    assert.deepEqual(location.options, { draftAndPublish: true });
    for (const attribute of Object.values(location.attributes)) assert.equal(attribute.pluginOptions, undefined);
    const news = JSON.parse(readFileSync(join(dir, 'src/api/news-updates/content-types/news-update/schema.json'), 'utf8'));
    assert.deepEqual(news.pluginOptions, { i18n: { localized: true } }, 'the others stay localized');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('writes form types unlocalized, without drafts, and lists them for the bootstrap', () => {
  const withForms = structuredClone(model);
  withForms.formTypes = [
    { apiId: 'business-community-leads', singular: 'business-community-lead', displayName: 'Lead', attributes: { reference: { type: 'string', required: true, unique: true }, services: { type: 'json' } } },
  ];
  const { dir, status, stderr } = generate(withForms);
  try {
    assert.equal(status, 0, stderr);
    const form = JSON.parse(readFileSync(join(dir, 'src/api/business-community-leads/content-types/business-community-lead/schema.json'), 'utf8'));
    assert.deepEqual(form.options, { draftAndPublish: false });
    assert.deepEqual(form.pluginOptions, { i18n: { localized: false } });
    assert.deepEqual(form.attributes.reference, { type: 'string', required: true, unique: true });
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'src/api/.forms.json'), 'utf8')), ['api::business-community-leads.business-community-lead']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('refuses names and attributes Strapi would reject, listing each', () => {
  const bad = structuredClone(model);
  bad.singleTypes.push({ apiId: 'Upload', displayName: 'x', attributes: { status: { type: 'string' } } });
  bad.singleTypes.push({ apiId: 'users', displayName: 'x', attributes: { t: { type: 'string' } } });
  bad.collectionTypes[0].attributes.documentId = { type: 'string' };
  bad.collectionTypes[0].attributes.kind.enum = ['1st', 'second'];
  bad.components['sections.hero'].attributes.cta.component = 'shared.missing';
  const { dir, status, stderr } = generate(bad);
  rmSync(dir, { recursive: true, force: true });
  assert.equal(status, 1);
  for (const expected of [
    'apiId "Upload" is not kebab-case',
    'apiId "Upload" is reserved by Strapi',
    'Upload.status: attribute name is reserved',
    '"users" would collide with the plugin route /api/users',
    'news-updates.documentId: attribute name is reserved',
    'need a letter before any digit',
    'component "shared.missing" is not defined',
  ]) assert.ok(stderr.includes(expected), `${expected}\n${stderr}`);
});

test('two types may not share a name once snake-cased', () => {
  const clash = structuredClone(model);
  clash.singleTypes.push({ apiId: 'news-update', displayName: 'x', attributes: { t: { type: 'string' } } });
  const { dir, status, stderr } = generate(clash);
  rmSync(dir, { recursive: true, force: true });
  assert.equal(status, 1);
  assert.match(stderr, /name "news-update" is also used by/);
});

test('the site binary model, when there is one, generates cleanly', { skip: !process.env.SITE_BIN && 'SITE_BIN unset' }, () => {
  const text = execFileSync(process.env.SITE_BIN, ['content-model'], { encoding: 'utf8' });
  const { dir, status, stderr } = generate(JSON.parse(text));
  rmSync(dir, { recursive: true, force: true });
  assert.equal(status, 0, stderr);
});
