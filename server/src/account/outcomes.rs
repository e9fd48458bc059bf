//! The account area's outcome counters (`/metrics`): code requests, code
//! checks and purchases, each by its answer. A route that counts takes the
//! layer with what it counts ([`counted`]); its answer's status says the
//! outcome: `ok`, `limited` (429: for a code check, a lockout),
//! `signed-out` (401), `unavailable` (503), `refused` (another 4xx),
//! `failed` (5xx from the operator).

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::MethodRouter;

use crate::limits::CodeFor;

/// What a route's answers count as.
#[derive(Debug, Clone, Copy)]
pub(super) enum Counted {
    /// `otp_requests_total`, by the code's purpose.
    CodeRequest(CodeFor),
    /// `otp_validations_total`, by the code's purpose.
    CodeCheck(CodeFor),
    /// `purchases_total`.
    Purchase,
}

/// `route` with its answers counted as `what`.
pub(super) fn counted<S: Clone + Send + Sync + 'static>(route: MethodRouter<S>, what: Counted) -> MethodRouter<S> {
    route.layer(axum::middleware::from_fn_with_state(what, count))
}

async fn count(State(what): State<Counted>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let outcome = outcome(response.status());
    match what {
        Counted::CodeRequest(purpose) => {
            metrics::counter!("otp_requests_total", "purpose" => purpose.name(), "outcome" => outcome).increment(1)
        }
        Counted::CodeCheck(purpose) => {
            metrics::counter!("otp_validations_total", "purpose" => purpose.name(), "outcome" => outcome).increment(1)
        }
        Counted::Purchase => metrics::counter!("purchases_total", "outcome" => outcome).increment(1),
    }
    response
}

fn outcome(status: StatusCode) -> &'static str {
    match status.as_u16() {
        200..=299 => "ok",
        429 => "limited",
        401 => "signed-out",
        503 => "unavailable",
        400..=499 => "refused",
        _ => "failed",
    }
}
