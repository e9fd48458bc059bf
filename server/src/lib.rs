//! The site's HTTP server. A request enters [`app`]: the fast path for
//! pages kept whole, else the feature router that owns its address (see
//! the README's table), through the common layers.
//!
//! - [`config`]: typed configuration from flags and environment.
//! - `manifest`: the route table and asset manifest generated from `app/`.
//! - `pages`: every page (server-rendered HTML) and its data (`/_data/…`).
//! - `content`: the [`content::ContentSource`] trait and the embedded source.
//! - `assets`: hashed and static files, precompressed.
//! - `images`: the image endpoint (`/img/…`): the CMS's photos resized to
//!   fixed widths, WebP by `Accept`, kept on disk.
//! - `forms`: the business community form and the foundation application,
//!   kept in SQLite before they are answered, exported for staff.
//! - `connections`: accepting connections with time limits and caps, who
//!   a request's client is, and what one client address may hold at once
//!   (connections, renders).
//! - `app`: [`app`], every feature's router merged once, the common layers
//!   on top; [`StandIn`], a stand-in operator API this server mounts when
//!   `DIGITAL_API_URL` is unset (the `site` binary's sandbox).
//! - `bundle`: [`AppBundle`], what `build.rs` embeds.
//! - `state`: [`AppState`], what every handler shares, grouped as pages,
//!   content, account, forms and infrastructure, and how it is opened
//!   from the configuration (`sources`: the content sources and the image
//!   endpoint as configured).
//! - `startup`: [`run`]: serving, the background tasks, draining on SIGTERM.
//! - `tools`: `site content-model` and `site check-cms`.
//! - `search`: the site search's index; `seo`: the sitemap and robots.
//! - `account`: the self-service backend (`/api/auth`, `/api/account`,
//!   `/api/bundles`, `/api/modem`, `/api/cpm`) and the operator API client.
//! - `keys`: the session key; `memory`: the allocator's figures; `slug`:
//!   slugs of titles.
//! - `security`: headers every response carries.
//! - [`redis`]: Redis, shared by every instance behind one address
//!   (`REDIS_URL`): sessions, rate limits, the outbox lease, invalidation.
//! - `monitoring`: `/healthz`, `/readyz`, `/metrics` and draining.
//! - `error`: [`StartError`], why the server or a tool cannot start.
//! - `sampled`: log lines for events that come in floods (renders shed,
//!   connections refused): one a second, with the count since the last.
//! - `bounded_dir`: the cache directories bounded in bytes (content's last
//!   good answers, resized photos) that instances sharing `DATA_DIR` share.
//! - `sqlite`: the SQLite files in `DATA_DIR`, opened so that instances
//!   sharing the directory wait for each other's locks.
//! - `single_flight`: loads made once per key for every waiter, as their
//!   own tasks (the content cache's, the account cache's).
//! - `locks`: one way to take a lock a panic left poisoned.
//! - [`telemetry`]: `tracing` set-up.
//! - `preview`: the CMS's preview of drafts (`/api/preview`, the cookie).
//! - `web`: the site's HTTP toolkit, what every feature's handlers share:
//!   the visitor's language, the client's address, the same-origin guard,
//!   the one API body, form posts and flash notices, request metrics.
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
mod bounded_dir;
mod bundle;
pub mod connections;
mod error;
mod images;
mod keys;
mod locks;
pub mod manifest;
mod memory;
mod monitoring;
pub mod pages;
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
