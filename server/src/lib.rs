//! The site's HTTP server. A request enters [`app`]: the fast path for
//! pages kept whole, else the feature router that owns its address (see
//! the README's table), through the common layers.
//!
//! The modules, from the top: each imports only modules below it. The
//! pages read the whole state, and the state holds the pages' caches and
//! limits: it takes them from the files that define them (`pages::cache`,
//! `fast_pages`, `passes`, `admit`), which read no state. A feature that needs less than the whole state takes its
//! part by `FromRef` (the impls are in `state`).
//!
//! - `startup`: [`serve`] and [`run`]: serving, the background tasks,
//!   draining on SIGTERM; `tools`: `site content-model` and
//!   `site check-cms`.
//! - `app`: [`app`], every feature's router merged once, the common layers
//!   on top; [`StandIn`], a stand-in operator API this server mounts when
//!   `DIGITAL_API_URL` is unset (the `site` binary's sandbox).
//! - `monitoring`: `/healthz`, `/readyz`, `/metrics`.
//! - `state`: [`AppState`], what every handler shares, grouped as pages,
//!   content, account, forms and infrastructure, each feature's part of it
//!   (`FromRef`), and how it is opened from the configuration (`sources`:
//!   what the configuration turns into first).
//! - `error`: [`StartError`], why the server or a tool cannot start.
//! - [`pages`]: every page (server-rendered HTML) and its data
//!   (`/_data/…`), and the one page error; what `site-bench` (bench/)
//!   times of a render is public.
//! - `forms`: the business community form and the foundation application,
//!   kept in SQLite (or PostgreSQL) before they are answered, exported for staff.
//! - `account`: the self-service backend (`/api/auth`, `/api/account`,
//!   `/api/bundles`, `/api/modem`, `/api/cpm`) and the operator API client.
//! - `preview`: the CMS's preview of drafts (`/api/preview`, the cookie).
//! - `seo`: the sitemap and robots; `search`: the site search's index.
//! - [`locator`]: the M-Pesa agent and Vodashop locator: its pages' data
//!   (`/mpesa-agents`, `/vodashop`) and `POST /api/locations/near`.
//! - `content`: the [`content::ContentSource`] trait, its sources, the
//!   content cache, and the CMS's webhook.
//! - [`places`]: every agent and shop in memory, which the content cache
//!   keeps and the locator searches: the spatial index, opening hours.
//! - `security`: headers every response carries.
//! - `images`: the image endpoint (`/img/…`): the CMS's photos resized to
//!   fixed widths, WebP by `Accept`, kept on disk.
//! - `assets`: hashed and static files, precompressed.
//! - `web`: the site's HTTP toolkit, what every feature's handlers share:
//!   the visitor's language, the client's address, the same-origin guard,
//!   the one API body, form posts and flash notices, request metrics.
//! - [`telemetry`]: `tracing` set-up, the metrics recorder, upstream
//!   timings; `keys`: the session key.
//! - [`config`]: typed configuration from flags and environment.
//! - [`manifest`]: the route table and asset manifest generated from `app/`.
//! - `connections`: accepting connections with time limits and caps, who
//!   a request's client is, and what one client address may hold at once
//!   (connections, renders).
//! - `bundle`: [`AppBundle`], what `build.rs` embeds.
//! - [`redis`]: Redis, shared by every instance behind one address
//!   (`REDIS_URL`): sessions, rate limits, the outbox lease, invalidation.
//! - `background`: CPU work after a render or a pre-render pass
//!   (compression, the search index), below requests' priority.
//! - `single_flight`: loads made once per key for every waiter, as their
//!   own tasks (the content cache's, the account cache's).
//! - `bounded_dir`: the cache directories bounded in bytes (content's last
//!   good answers, resized photos) that instances sharing `DATA_DIR` share,
//!   each written by a thread of its own; `cache_metrics`: what every cache
//!   says of itself in `/metrics`.
//! - `sqlite`: the SQLite files in `DATA_DIR`, opened so that instances
//!   sharing the directory wait for each other's locks.
//! - `sampled`: log lines for events that come in floods (renders shed,
//!   connections refused): one a second, with the count since the last.
//! - `memory`: the allocator's figures; `slug`: slugs of titles; `locks`:
//!   one way to take a lock a panic left poisoned.
//! - `twins` (tests only): the rules the app runs too, checked against the
//!   cases in `tests/twins/` that the app's tests read.

pub mod account;
pub mod config;
pub mod content;
pub mod forms;
pub mod redis;
pub mod telemetry;

mod app;
mod assets;
mod background;
mod bounded_dir;
mod bundle;
mod cache_metrics;
pub mod connections;
mod error;
mod images;
mod keys;
pub mod locator;
mod locks;
pub mod manifest;
mod memory;
mod monitoring;
pub mod pages;
pub mod places;
mod preview;
mod sampled;
pub mod search;
mod security;
pub mod seo;
mod single_flight;
mod slug;
mod sources;
mod sqlite;
mod startup;
mod state;
mod tools;
#[cfg(test)]
mod twins;
mod web;

pub use app::{StandIn, app};
pub use bundle::AppBundle;
pub use config::Config;
/// The content model and page data, for tools and tests.
pub use contract;
pub use error::StartError;
pub use startup::{run, serve, shutdown_signal};
pub use state::{AppState, ContentState, Infrastructure, PagesState};
pub use tools::{check_cms, content_model};
