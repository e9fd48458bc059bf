#!/usr/bin/env bash
# What `make cms` runs once the packages are installed: development secrets in
# .env (once), the schema generated from the site's content model, the admin
# panel built (once per package-lock), content/ imported when the database is
# empty, then Strapi in the foreground on HOST:PORT (127.0.0.1:1337).
#
#   CMS_MODEL=path/to/model.json   use that model instead of `$SITE_BIN content-model`
#   SERVE_ADMIN=false              no admin panel (and no admin build)
#   CMS_IMPORT=force|skip          re-import content/ over what is there, or never import
set -euo pipefail
cd "$(dirname "$0")"

export STRAPI_TELEMETRY_DISABLED=true STRAPI_DISABLE_LICENSE_PING=true STRAPI_DISABLE_EE=true
strapi=(node node_modules/@strapi/strapi/bin/strapi.js)

node scripts/ensure-env.mjs
node scripts/generate-schema.mjs ${CMS_MODEL:+"$CMS_MODEL"}
if [ "${SERVE_ADMIN:-true}" != false ] && { [ ! -f build/index.html ] || [ package-lock.json -nt build/index.html ]; }; then
  echo "building the admin panel (about a minute)"
  "${strapi[@]}" build
  touch build/index.html
fi
case "${CMS_IMPORT:-}" in
  skip) ;;
  force) node scripts/import.mjs --force ;;
  *) node scripts/import.mjs ;;
esac
exec "${strapi[@]}" start
