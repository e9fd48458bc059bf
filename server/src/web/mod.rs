//! What every feature's HTTP handling shares.
//!
//! - [`location`]: every `Location` the site writes, normalised so that no
//!   redirect leaves the site unless the route table says so.
//! - [`body_deadline`]: one time limit for reading a whole request body.
//! - [`vary`]: one `Vary` line per answer, for shared caches.
//! - [`retry_after`]: every 503 and 429 says when to come back.

pub mod body_deadline;
pub mod location;
pub mod retry_after;
pub mod vary;

pub use location::Location;
