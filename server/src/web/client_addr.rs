//! [`ClientAddr`]: the address a request came from, as
//! [`crate::connections::client_address`] decided it (the peer, or the
//! client a trusted proxy names), for the budgets kept per client.

use std::net::IpAddr;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

/// The client's address, taken by handlers that throttle per client.
pub struct ClientAddr(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientAddr(crate::connections::client_address(&parts.extensions)))
    }
}
