//! Server-side rendering of the app's server bundle inside embedded JS engines.
//!
//! - [`contract`]: the one request/response shape shared with the JS side.
//! - [`Renderer`] (`pool`): a pool of engines, one per OS thread, fed by a
//!   bounded channel; a render past its time budget is terminated and its
//!   engine replaced.
//! - `engine` (private): everything that touches deno_core, including the
//!   polyfills the bundle needs and `console` routed to `tracing`.
//!
//! Nothing here knows about HTTP.

pub mod contract;
mod engine;
mod pool;

pub use contract::{Lang, MatchedRoute, PageAssets, PageContent, PageData, RenderOutput, RenderRequest};
pub use pool::{RenderError, Renderer, RendererConfig};
