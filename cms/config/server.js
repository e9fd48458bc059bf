// HOST/PORT pick the address; the secrets come from .env (scripts/ensure-env.mjs
// writes development ones once) or the environment.
module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  url: env('PUBLIC_URL', ''),
  // Uploads land in <public>/uploads; the tests point this at a temporary folder.
  dirs: {
    public: env('PUBLIC_DIR', './public'),
  },
  // Idle keep-alive connections are kept longer than HTTP clients keep them
  // (reqwest: 90 s), so the site never reuses one Strapi is closing (Node's
  // default is 5 s, which makes a request now and then fail to send).
  http: {
    serverOptions: {
      keepAliveTimeout: env.int('KEEP_ALIVE_TIMEOUT_MS', 120000),
    },
  },
  app: {
    keys: env.array('APP_KEYS'),
  },
  // No network but the package registries here: no update check.
  logger: {
    updates: { enabled: false },
  },
  webhooks: {
    populateRelations: env.bool('WEBHOOKS_POPULATE_RELATIONS', false),
  },
});
