# The production sketch (README "Operate"): `docker build --target site .`
# gives the release binary on Debian slim, run as an unprivileged user;
# `--target cms` the Strapi of cms/ with its schema generated from the same
# binary's content model. deploy/compose.yaml puts them together.

FROM node:22-bookworm-slim AS node

# The binary: cmake and libsimde-dev build the QuickJS engine offline; node
# and the app's packages let build.rs bundle the app with esbuild.
FROM rust:1-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends cmake libsimde-dev \
 && rm -rf /var/lib/apt/lists/*
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
WORKDIR /src
COPY app/package.json app/package-lock.json app/
RUN cd app && npm ci --no-audit --no-fund
COPY . .
RUN cargo build --release --bin site \
 && strip target/release/site \
 && target/release/site content-model > /content-model.json

FROM debian:bookworm-slim AS site
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/site --create-home --shell /usr/sbin/nologin site
COPY --from=build /src/target/release/site /usr/local/bin/site
USER site
# METRICS_ADDR listens on the container's network for Prometheus there:
# publish only PORT, never 9090.
ENV HOST=0.0.0.0 PORT=8080 DATA_DIR=/var/lib/site METRICS_ADDR=0.0.0.0:9090 PRODUCTION=true LOG_FORMAT=json
VOLUME /var/lib/site
EXPOSE 8080 9090
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD curl -fsS -o /dev/null http://127.0.0.1:8080/readyz || exit 1
ENTRYPOINT ["/usr/local/bin/site"]

FROM node:22-bookworm AS cms
WORKDIR /srv/cms
COPY cms/package.json cms/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY cms/ ./
COPY content/ /srv/content/
COPY assets/ /srv/assets/
COPY --from=build /content-model.json /srv/content-model.json
RUN chown -R node:node /srv/cms
USER node
ENV HOST=0.0.0.0 PORT=1337 CMS_MODEL=/srv/content-model.json NODE_ENV=production
VOLUME ["/srv/cms/.tmp", "/srv/cms/public/uploads"]
EXPOSE 1337
CMD ["./run.sh"]
