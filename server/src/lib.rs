//! The site's HTTP server. A request enters [`app`]: the fast path for
//! pages kept whole, else the feature router that owns its address (see
//! the README's table), through the common layers.
//!
//! The modules, from the top: each imports only modules below it, and
//! `layers` (tests only) fails when one does not. One edge goes up, and
//! only one: `pages` imports `state`, because the pages read the whole
//! state, while the state holds the pages' caches and limits, taken from
//! the files that define them (`pages::cache`, `fast_pages`, `passes`,
//! `admit`), which read no state. A feature that needs less than the whole
//! state takes its part by `FromRef` (the impls are in `state`).
//!
//! - `twins` (tests only): the rules the app runs too, checked against the
//!   cases in `tests/twins/` that the app's tests read; `layers` (tests
//!   only): this list and `infra`'s, checked against every `crate::` path.
//!   Both read the modules they check, so they stand above them all.
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
//! - `app_build`: [`AppBuild`], what `build.rs` embeds.
//! - `limits`: throttles on what costs money or invites guessing (codes
//!   sent and checked, modem look-ups, forms sent), which the account and
//!   the forms share; `msisdn`: phone numbers and one-time codes, parsed
//!   once at the edge.
//! - `slug`: slugs of titles.
//! - [`infra`]: what every feature stands on: Redis, SQLite, the
//!   background pool, single-flight loads, bounded cache directories and
//!   their metrics, sampled log lines, the allocator, poisoned locks (its
//!   own list says in which order).

pub mod account;
pub mod config;
pub mod content;
pub mod forms;
pub mod infra;
pub mod limits;
pub mod msisdn;
pub mod telemetry;

mod app;
mod app_build;
mod assets;
pub mod connections;
mod error;
mod images;
mod keys;
#[cfg(test)]
mod layers;
pub mod locator;
pub mod manifest;
mod monitoring;
pub mod pages;
pub mod places;
mod preview;
pub mod search;
mod security;
pub mod seo;
mod slug;
mod sources;
mod startup;
mod state;
mod tools;
#[cfg(test)]
mod twins;
mod web;

pub use app::{StandIn, app};
pub use app_build::AppBuild;
pub use config::Config;
/// The content model and page data, for tools and tests.
pub use contract;
pub use error::StartError;
pub use startup::{run, serve, shutdown_signal};
pub use state::{AppState, ContentState, Infrastructure, PagesState};
pub use tools::{check_cms, content_model};
