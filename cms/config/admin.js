const fs = require('node:fs');
const path = require('node:path');

/** Where each content type is seen on the site (`site content-model`'s
 * `previewPaths`, written by scripts/generate-schema.mjs): by uid, an English
 * path, with `:id` and `:slug?` for a collection's item page. */
function previewPaths() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'src', 'api', '.preview-paths.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** The site's address of one version (`status`) of a document in `locale`:
 * Swahili under /sw; an item by the id of that version, which Strapi 5
 * numbers apart from the other versions. */
async function sitePath(uid, { documentId, locale, status }) {
  const pattern = previewPaths()[uid];
  if (!pattern) return null;
  let pathname = pattern;
  if (pattern.includes(':id')) {
    const document = await strapi.documents(uid).findOne({ documentId, locale, status });
    if (!document) return null;
    pathname = pattern.replace(':id', String(document.id)).replace(/\/:slug\??$/, document.slug ? `/${encodeURIComponent(document.slug)}` : '');
  }
  if (!locale || locale === 'en') return pathname;
  return pathname === '/' ? `/${locale}` : `/${locale}${pathname}`;
}

module.exports = ({ env }) => ({
  // `SERVE_ADMIN=false` runs the API alone (no admin build needed): the tests do.
  serveAdminPanel: env.bool('SERVE_ADMIN', true),
  auth: {
    secret: env('ADMIN_JWT_SECRET'),
  },
  apiToken: {
    salt: env('API_TOKEN_SALT'),
  },
  transfer: {
    token: {
      salt: env('TRANSFER_TOKEN_SALT'),
    },
  },
  secrets: {
    encryptionKey: env('ENCRYPTION_KEY'),
  },
  // Strapi 5's preview: "Open preview" shows the site's page of the entry
  // being edited, through the site's /api/preview (which checks the secret,
  // sets its preview cookie and sends the frame on to the page). Needs the
  // site's address (CLIENT_URL, also the one origin allowed to be framed)
  // and its PREVIEW_SECRET; without either there is no preview button.
  preview: {
    enabled: Boolean(env('CLIENT_URL') && env('PREVIEW_SECRET')),
    config: {
      allowedOrigins: env('CLIENT_URL'),
      async handler(uid, { documentId, locale, status }) {
        const url = await sitePath(uid, { documentId, locale, status });
        if (!url) return null;
        const params = new URLSearchParams({ url, secret: env('PREVIEW_SECRET'), status: status || 'draft' });
        return `${env('CLIENT_URL').replace(/\/+$/, '')}/api/preview?${params}`;
      },
    },
  },
  flags: {
    nps: false,
    promoteEE: false,
  },
});
