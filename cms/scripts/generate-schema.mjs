#!/usr/bin/env node
// Generates the Strapi schema (src/api/, src/components/) from the site's
// content model, so the CMS never drifts from what the site reads.
//
//   node scripts/generate-schema.mjs [model.json]
//
// Without an argument the model is read from `$SITE_BIN content-model`
// (SITE_BIN defaults to ../target/debug/site). `--out DIR` writes somewhere
// other than src/ (tests). Everything under src/api/ and src/components/ is
// replaced: those directories are generated and gitignored.
//
// Names Strapi would refuse, or that would collide with its own routes and
// tables, stop the generator with every problem listed; Strapi's own rules
// (kebab-case, reserved names, enumeration values) come from @strapi/utils.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const { strings, contentTypes } = require('@strapi/utils');

/** Attribute types the site's model may use, and the keys each may carry. */
const ATTRIBUTE_KEYS = {
  string: ['required', 'unique', 'minLength', 'maxLength', 'default', 'regex', 'private'],
  text: ['required', 'minLength', 'maxLength', 'default', 'private'],
  richtext: ['required', 'minLength', 'maxLength', 'default', 'private'],
  email: ['required', 'unique', 'default', 'private'],
  uid: ['required', 'targetField', 'default', 'private'],
  integer: ['required', 'unique', 'min', 'max', 'default', 'private'],
  biginteger: ['required', 'unique', 'min', 'max', 'default', 'private'],
  decimal: ['required', 'unique', 'min', 'max', 'default', 'private'],
  float: ['required', 'unique', 'min', 'max', 'default', 'private'],
  boolean: ['required', 'default', 'private'],
  date: ['required', 'unique', 'default', 'private'],
  datetime: ['required', 'unique', 'default', 'private'],
  time: ['required', 'unique', 'default', 'private'],
  json: ['required', 'default', 'private'],
  enumeration: ['enum', 'required', 'default', 'private'],
  media: ['multiple', 'required', 'allowedTypes', 'private'],
  component: ['component', 'repeatable', 'required', 'min', 'max'],
  dynamiczone: ['components', 'required', 'min', 'max'],
};
const ALL_MEDIA = ['images', 'files', 'videos', 'audios'];

/**
 * Names Strapi's built-in content types (admin, users-permissions, upload,
 * i18n, review workflows, releases) already use as singular or plural names
 * and their tables; a type of ours with one of these names is refused by the
 * content-type builder or shadows the built-in's /api route.
 */
const BUILTIN_NAMES = [
  'permission', 'permissions', 'user', 'users', 'role', 'roles', 'api-token', 'api-tokens',
  'api-token-permission', 'api-token-permissions', 'transfer-token', 'transfer-tokens',
  'transfer-token-permission', 'transfer-token-permissions', 'session', 'sessions',
  'file', 'files', 'folder', 'folders', 'locale', 'locales', 'release', 'releases',
  'release-action', 'release-actions', 'workflow', 'workflows', 'workflow-stage', 'workflow-stages',
  'history-version', 'history-versions',
];
/** First path segments of the content API that plugins own: /api/<segment>. */
const RESERVED_ROUTES = ['auth', 'connect', 'users', 'roles', 'permissions', 'upload', 'i18n', 'users-permissions', 'documentation'];

const problems = [];
const fail = (where, message) => problems.push(`${where}: ${message}`);
const snake = (name) => name.replace(/-/g, '_');

function checkTypeName(where, name, what) {
  if (typeof name !== 'string' || name === '') return fail(where, `${what} is missing`);
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name) || !strings.isKebabCase(name)) fail(where, `${what} "${name}" is not kebab-case (a-z, 0-9, single dashes)`);
  if (/^[0-9]/.test(name)) fail(where, `${what} "${name}" starts with a digit`);
  if (contentTypes.isReservedModelName(name)) fail(where, `${what} "${name}" is reserved by Strapi (${contentTypes.getReservedModelNames().join(', ')})`);
  if (BUILTIN_NAMES.includes(name)) fail(where, `${what} "${name}" is already used by a Strapi built-in content type`);
  if (RESERVED_ROUTES.includes(name)) fail(where, `${what} "${name}" would collide with the plugin route /api/${name}`);
}

function checkAttributes(where, attributes, { components, isComponent }) {
  if (!attributes || typeof attributes !== 'object' || Array.isArray(attributes)) return fail(where, 'attributes must be an object');
  if (Object.keys(attributes).length === 0) fail(where, 'has no attributes');
  for (const [key, attr] of Object.entries(attributes)) {
    const at = `${where}.${key}`;
    if (!/^[A-Za-z][_0-9A-Za-z]*$/.test(key)) fail(at, `attribute name must match /^[A-Za-z][_0-9A-Za-z]*$/`);
    // Strapi compares snake-cased names: "documentId" and "document_id" are both reserved.
    if (contentTypes.isReservedAttributeName(key, { draftAndPublish: !isComponent })) {
      const own = ['id', 'document_id', 'locale', 'created_at', 'updated_at', 'published_at'].includes(key.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase());
      fail(at, `attribute name is reserved by Strapi${own ? ` (Strapi 5 gives every entry "${key}" itself: leave it out of the model)` : ''}`);
    }
    if (!attr || typeof attr !== 'object') {
      fail(at, 'attribute must be an object');
      continue;
    }
    const allowed = ATTRIBUTE_KEYS[attr.type];
    if (!allowed) {
      fail(at, `unknown attribute type ${JSON.stringify(attr.type)} (known: ${Object.keys(ATTRIBUTE_KEYS).join(', ')})`);
      continue;
    }
    for (const option of Object.keys(attr)) {
      if (option !== 'type' && option !== 'pluginOptions' && !allowed.includes(option)) fail(at, `option "${option}" does not apply to type ${attr.type}`);
    }
    if (attr.type === 'enumeration') {
      if (!Array.isArray(attr.enum) || attr.enum.length === 0) fail(at, 'enumeration needs a non-empty "enum" list');
      else {
        const regressed = attr.enum.map((value) => strings.toRegressedEnumValue(String(value)));
        if (regressed.some((value) => !/^[_A-Za-z][_0-9A-Za-z]*$/.test(value))) fail(at, `enumeration values need a letter before any digit: ${attr.enum.join(', ')}`);
        if (new Set(regressed).size !== regressed.length) fail(at, `enumeration values collide once normalised: ${attr.enum.join(', ')}`);
      }
    }
    if (attr.type === 'component') {
      if (!components.has(attr.component)) fail(at, `component "${attr.component}" is not defined in the model`);
      if (attr.repeatable !== undefined && typeof attr.repeatable !== 'boolean') fail(at, '"repeatable" must be a boolean');
    }
    if (attr.type === 'dynamiczone') {
      if (isComponent) fail(at, 'a component cannot hold a dynamic zone');
      if (!Array.isArray(attr.components) || attr.components.length === 0) fail(at, 'dynamiczone needs a non-empty "components" list');
      else for (const uid of attr.components) if (!components.has(uid)) fail(at, `component "${uid}" is not defined in the model`);
    }
    if (attr.type === 'media' && attr.allowedTypes && !attr.allowedTypes.every((t) => ALL_MEDIA.includes(t))) fail(at, `allowedTypes must be among ${ALL_MEDIA.join(', ')}`);
  }
}

/** Strapi's attribute, with the i18n option every field of a localized type carries. */
function attribute(attr, localized) {
  const out = { ...attr };
  if (out.type === 'media') {
    out.multiple = Boolean(out.multiple);
    out.allowedTypes ??= ALL_MEDIA;
  }
  if (out.type === 'component') out.repeatable = Boolean(out.repeatable);
  if (localized) out.pluginOptions = { ...(out.pluginOptions || {}), i18n: { localized: true } };
  return out;
}

function readModel(argument) {
  if (argument) return { model: JSON.parse(readFileSync(argument, 'utf8')), source: argument };
  const bin = resolve(root, process.env.SITE_BIN || '../target/debug/site');
  let text;
  try {
    text = execFileSync(bin, ['content-model'], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
  } catch (error) {
    console.error(`generate-schema: could not run "${bin} content-model" (${error.message.split('\n')[0]}); build the site (cargo build) or pass a model file`);
    process.exit(2);
  }
  return { model: JSON.parse(text), source: `${bin} content-model` };
}

function main() {
  const args = process.argv.slice(2);
  let out = join(root, 'src');
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') out = resolve(args[++i]);
    else if (args[i] === '--help' || args[i] === '-h') {
      console.log('usage: generate-schema.mjs [--out DIR] [model.json]   (default model: $SITE_BIN content-model)');
      return;
    } else positional.push(args[i]);
  }
  const { model, source } = readModel(positional[0]);

  const components = new Map(Object.entries(model.components || {}));
  const singles = model.singleTypes || [];
  const collections = model.collectionTypes || [];
  // Where the site delivers its forms: submissions, not content (not
  // localized, no drafts; the bootstrap keeps them from the Public role).
  const formTypes = model.formTypes || [];
  if (!Array.isArray(singles) || !Array.isArray(collections) || !Array.isArray(formTypes)) fail('model', 'singleTypes, collectionTypes and formTypes must be lists');
  const locales = model.locales || ['en'];
  if (!Array.isArray(locales) || locales.length === 0 || !locales.every((l) => /^[a-z]{2,3}(-[A-Za-z0-9]+)*$/.test(l))) fail('model.locales', `not a list of locale codes: ${JSON.stringify(model.locales)}`);

  // Components: "<category>.<name>", category and name as Strapi's builder allows.
  for (const [uid, component] of components) {
    const [category, name, ...rest] = uid.split('.');
    if (rest.length || !category || !name) fail(`component ${uid}`, 'uid must be "<category>.<name>"');
    else {
      if (!/^[A-Za-z][-_0-9A-Za-z]*$/.test(category)) fail(`component ${uid}`, 'category must start with a letter and hold only letters, digits, dashes and underscores');
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) fail(`component ${uid}`, 'name must be kebab-case');
    }
    if (!component?.displayName) fail(`component ${uid}`, 'displayName is missing');
    checkAttributes(`component ${uid}`, component?.attributes, { components, isComponent: true });
  }

  // Content types: every singular and plural name, and every table, unique (Strapi compares snake_case).
  const types = [];
  const names = new Map();
  const claim = (name, owner) => {
    const key = snake(name || '');
    if (names.has(key) && names.get(key) !== owner) fail(owner, `name "${name}" is also used by ${names.get(key)}`);
    names.set(key, owner);
  };
  for (const single of singles) {
    const where = `single type ${single?.apiId}`;
    checkTypeName(where, single?.apiId, 'apiId');
    // Single types are served at /api/<singularName>; the plural name is only a table-level name.
    const pluralName = `${single.apiId}-entries`;
    types.push({ kind: 'singleType', localized: true, apiId: single.apiId, singularName: single.apiId, pluralName, displayName: single.displayName || single.apiId, attributes: single.attributes, where });
  }
  for (const collection of collections) {
    const where = `collection type ${collection?.apiId}`;
    checkTypeName(where, collection?.apiId, 'apiId');
    checkTypeName(where, collection?.singular, 'singular');
    if (collection?.apiId === collection?.singular) fail(where, 'singular and apiId (plural) must differ');
    if (collection?.localized !== undefined && typeof collection.localized !== 'boolean') fail(where, '"localized" must be a boolean');
    // `localized: false`: one entry for every language (the locations: proper nouns and codes).
    types.push({ kind: 'collectionType', apiId: collection.apiId, singularName: collection.singular, pluralName: collection.apiId, displayName: collection.displayName || collection.singular, localized: collection.localized !== false, attributes: collection.attributes, where });
  }
  for (const form of formTypes) {
    const where = `form type ${form?.apiId}`;
    checkTypeName(where, form?.apiId, 'apiId');
    checkTypeName(where, form?.singular, 'singular');
    if (form?.apiId === form?.singular) fail(where, 'singular and apiId (plural) must differ');
    types.push({ kind: 'collectionType', form: true, localized: false, apiId: form.apiId, singularName: form.singular, pluralName: form.apiId, displayName: form.displayName || form.singular, attributes: form.attributes, where });
  }
  for (const type of types) {
    if (!type.displayName) fail(type.where, 'displayName is missing');
    claim(type.singularName, type.where);
    claim(type.pluralName, type.where);
    checkAttributes(type.where, type.attributes, { components, isComponent: false });
  }
  const apiIds = types.map((t) => t.apiId);
  for (const id of new Set(apiIds)) if (apiIds.filter((x) => x === id).length > 1) fail(`apiId ${id}`, 'defined twice');

  if (problems.length > 0) {
    console.error(`generate-schema: the model from ${source} has names or attributes Strapi would reject:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }

  rmSync(join(out, 'api'), { recursive: true, force: true });
  rmSync(join(out, 'components'), { recursive: true, force: true });
  const write = (path, text) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const header = `// Generated by scripts/generate-schema.mjs from the site's content model; do not edit.\n`;
  for (const type of types) {
    const uid = `api::${type.apiId}.${type.singularName}`;
    const schema = {
      kind: type.kind,
      collectionName: snake(type.apiId),
      info: { singularName: type.singularName, pluralName: type.pluralName, displayName: type.displayName },
      options: { draftAndPublish: !type.form },
      pluginOptions: { i18n: { localized: type.localized } },
      attributes: Object.fromEntries(Object.entries(type.attributes).map(([k, a]) => [k, attribute(a, type.localized)])),
    };
    const dir = join(out, 'api', type.apiId);
    write(join(dir, 'content-types', type.singularName, 'schema.json'), JSON.stringify(schema, null, 2) + '\n');
    write(join(dir, 'routes', `${type.singularName}.js`), `${header}module.exports = require('@strapi/strapi').factories.createCoreRouter('${uid}');\n`);
    write(join(dir, 'controllers', `${type.singularName}.js`), `${header}module.exports = require('@strapi/strapi').factories.createCoreController('${uid}');\n`);
    write(join(dir, 'services', `${type.singularName}.js`), `${header}module.exports = require('@strapi/strapi').factories.createCoreService('${uid}');\n`);
  }
  for (const [uid, component] of components) {
    const [category, name] = uid.split('.');
    const schema = {
      collectionName: `components_${snake(category)}_${snake(name)}`,
      info: { displayName: component.displayName, ...(component.description ? { description: component.description } : {}) },
      options: {},
      attributes: Object.fromEntries(Object.entries(component.attributes).map(([k, a]) => [k, attribute(a, false)])),
    };
    write(join(out, 'components', category, `${name}.json`), JSON.stringify(schema, null, 2) + '\n');
  }
  // The locales the bootstrap ensures (src/index.js reads this).
  write(join(out, 'api', '.locales.json'), JSON.stringify(locales) + '\n');
  // The form types, which the bootstrap opens to the site's token for create only (src/index.js reads this).
  write(join(out, 'api', '.forms.json'), JSON.stringify(types.filter((t) => t.form).map((t) => `api::${t.apiId}.${t.singularName}`)) + '\n');
  // Where each type is seen on the site, by uid, for the preview link (config/admin.js reads this).
  const previewPaths = model.previewPaths || {};
  const byUid = types.filter((t) => previewPaths[t.apiId]).map((t) => [`api::${t.apiId}.${t.singularName}`, previewPaths[t.apiId]]);
  write(join(out, 'api', '.preview-paths.json'), JSON.stringify(Object.fromEntries(byUid), null, 2) + '\n');
  console.log(`generate-schema: ${singles.length} single types, ${collections.length} collection types, ${formTypes.length} form types, ${components.size} components from ${source}`);
}

main();
