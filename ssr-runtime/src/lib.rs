//! Server-side rendering of the app's server bundle inside embedded JS engines.
//!
//! - [`Renderer`] (`pool`): a pool of engines, one per OS thread, fed by a
//!   bounded channel whose jobs wait a bounded time for an engine; a render
//!   past its time budget is terminated and its engine replaced. It renders any serialisable request into any
//!   deserialisable output: the bundle's `globalThis.__ssr.render(request)`
//!   defines the contract, the caller owns both types.
//! - [`RenderError`] (`error`): why a render gave no page.
//! - [`yield_to_requests`] (`priority`): engines' threads (and the server's
//!   own work after a render) run at a lower CPU priority than requests.
//! - `engine` (private): everything that touches deno_core, including the
//!   polyfills the bundle needs and `console` routed to `tracing`.
//!
//! Nothing here knows about HTTP.

mod engine;
mod error;
mod pool;
mod priority;

pub use error::RenderError;
pub use pool::{Renderer, RendererConfig};
pub use priority::{NICE, yield_to_requests};
