//! Connections, so that slow or greedy clients cannot hold the server:
//!
//! - [`accept`]: accepting them, with time limits and caps ([`serve`]);
//! - [`client`]: who a request's client is ([`client_address`]): its peer,
//!   or the address a trusted proxy names;
//! - [`per_address`]: the connections one client address holds;
//! - [`admission`]: the renders one client address (or session) runs at
//!   once and has waiting in the order they came, for `pages`.

mod accept;
mod admission;
mod client;
mod per_address;

pub use accept::{ConnectionLimits, serve};
pub use admission::{Admission, Admitted, NotAdmitted};
pub use client::{Cidr, client_address, resolve_client};
