//! The site's HTTP toolkit: what every feature's handlers share.
//!
//! - [`Site`]: the site's origin, scheme and cookie key, which the guard,
//!   the form posts and the flash notices read.
//! - [`lang`]: the visitor's language on an API call, and the language
//!   cookie's name ([`LANG_COOKIE`]).
//! - [`client_addr`]: [`ClientAddr`], the client a request came from.
//! - [`same_origin`]: the guard that takes state-changing requests only
//!   from the site's own pages; [`csrf`]: the browser session's token that
//!   vouches for a post where the browser says nothing of where it comes from.
//! - [`Reply`]: an API answer, its data beside its [`Feedback`]
//!   (`{ notice?, errors?, redirect? }`, the one body of every API
//!   failure, with its [`Notice`] for the toast: both in `contract`, which
//!   writes their TypeScript for the app).
//! - [`submitted`]: [`Submitted`], a body sent as JSON or as an HTML form;
//!   [`posted`]: the fields every post carries besides a form's own
//!   (`lang`, `returnTo`, `csrf`), read once and handed on.
//! - [`form_post`]: [`Caller`], who calls an endpoint, and the layer that
//!   answers a form post with a 303 back to its page.
//! - [`flash`]: the notice such a 303 leaves for the next page.
//! - [`return_to`]: where a form may send the browser back to.
//! - [`body_limit`]: bodies read whole up to a limit.
//! - [`body_deadline`]: one time limit for reading a whole request body.
//! - [`redirect_to`]: every `Location` the site writes, normalised so that no
//!   redirect leaves the site unless the route table says so.
//! - [`vary`]: one `Vary` line per answer, for shared caches;
//!   [`set_cookie`]: every cookie's attributes in an order every browser reads.
//! - [`etag`]: one entity tag per encoding of a body kept in several.
//! - [`retry_after`]: every 503 and 429 says when to come back.
//! - [`strings`]: the app's strings, for the error page the server words itself.
//! - [`request_metrics`]: requests counted and timed by the router that
//!   answered them.

pub mod body_deadline;
pub mod body_limit;
pub mod client_addr;
pub mod csrf;
pub mod etag;
pub mod flash;
pub mod form_post;
pub mod lang;
pub mod posted;
pub mod redirect_to;
pub mod reply;
pub mod request_metrics;
pub mod retry_after;
pub mod return_to;
pub mod same_origin;
pub mod set_cookie;
mod site;
pub mod strings;
pub mod submitted;
pub mod vary;

pub use client_addr::ClientAddr;
pub use contract::feedback::{Feedback, Notice, NoticeKey, NoticeKind};
pub use form_post::Caller;
pub use lang::{LANG_COOKIE, visitor_lang};
pub use redirect_to::RedirectTo;
pub use reply::Reply;
pub use same_origin::same_origin_only;
pub use site::Site;
pub use strings::Strings;
pub use submitted::Submitted;
