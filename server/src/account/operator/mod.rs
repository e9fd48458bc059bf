//! The client of the operator's digital-service API, exactly as
//! `server/OPERATOR_API.md` fixes it. It points at `DIGITAL_API_URL`, or at
//! the built-in sandbox, which serves the same contract.
//!
//! Every call goes through a circuit breaker (`breaker`) and a bulkhead: at
//! most `DIGITAL_API_MAX_REQUESTS` calls are under way at once, and one more
//! fails at once, so a hung API holds a bounded part of the server. A call
//! the breaker or the bulkhead refuses is [`OperatorError::NotCalled`]: it
//! never reached the operator.
//!
//! What the calls send and answer, typed, is `answers` (re-exported here).

use std::sync::Arc;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde::Serialize;
use serde::de::{DeserializeOwned, IgnoredAny};

use super::breaker::{Breaker, BreakerSettings, Circuit};
use crate::msisdn::{Msisdn, OtpCode};

mod answers;

pub use answers::{
    AirtimeBalance, AlternativeNumber, BundleBalance, CatalogueBundle, CustomerDetails, Localized, MpesaBalance,
    OperatorError, Permission, Purchase,
};
use answers::{Data, Entry, Grant, Message, ModemPair, Number, NumberCode, RefusalBody};

/// How a call authenticates.
#[derive(Debug, Clone, Copy)]
pub enum Credential<'a> {
    None,
    Bearer(&'a str),
    /// Customer permission management's own scheme.
    Cpm(&'a str),
}

/// How the client calls the operator.
#[derive(Debug, Clone, Copy)]
pub struct OperatorSettings {
    /// Time limit of one call (`DIGITAL_API_TIMEOUT_MS`).
    pub timeout: Duration,
    /// Calls under way at once (`DIGITAL_API_MAX_REQUESTS`).
    pub max_requests: usize,
    pub breaker: BreakerSettings,
}

#[derive(Clone)]
pub struct OperatorClient {
    http: reqwest::Client,
    base: String,
    breaker: Breaker,
    /// The bulkhead: one permit per call under way.
    calls: Arc<tokio::sync::Semaphore>,
    max_requests: usize,
}

impl OperatorClient {
    pub fn new(base: &str, settings: OperatorSettings) -> Result<OperatorClient, OperatorError> {
        let http = reqwest::Client::builder()
            .timeout(settings.timeout)
            .user_agent(concat!("site/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| OperatorError::Unavailable(e.to_string()))?;
        let base = if base.ends_with('/') { base.to_owned() } else { format!("{base}/") };
        let max_requests = settings.max_requests.max(1);
        Ok(OperatorClient {
            http,
            base,
            breaker: Breaker::new(settings.breaker),
            calls: Arc::new(tokio::sync::Semaphore::new(max_requests)),
            max_requests,
        })
    }

    /// The circuit breaker's state.
    pub fn circuit(&self) -> Circuit {
        self.breaker.circuit()
    }

    /// Calls under way now.
    pub fn in_flight(&self) -> usize {
        self.max_requests - self.calls.available_permits()
    }

    async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        credential: Credential<'_>,
        body: Option<Sent>,
    ) -> Result<T, OperatorError> {
        let Some(permit) = self.breaker.permit() else { return Err(not_called("circuit-open")) };
        let Ok(_slot) = self.calls.try_acquire() else { return Err(not_called("bulkhead-full")) };
        let result =
            crate::telemetry::time_upstream("operator", self.call_once(method, path, credential, body), |result| {
                match result {
                    Ok(_) => "ok",
                    Err(OperatorError::Unauthorized) => "unauthorized",
                    Err(OperatorError::Refused { status: 400..=499, .. }) => "refused",
                    Err(OperatorError::Refused { .. }) => "error",
                    Err(OperatorError::Unavailable(_)) => "unavailable",
                    Err(OperatorError::TimedOut) => "timeout",
                    Err(OperatorError::NotCalled(_)) => "not-called",
                }
            })
            .await;
        match &result {
            Err(
                OperatorError::Unavailable(_) | OperatorError::TimedOut | OperatorError::Refused { status: 500.., .. },
            ) => permit.failed(),
            _ => permit.answered(),
        }
        result
    }

    async fn call_once<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        credential: Credential<'_>,
        body: Option<Sent>,
    ) -> Result<T, OperatorError> {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        request = match credential {
            Credential::None => request,
            Credential::Bearer(token) => request.bearer_auth(token),
            Credential::Cpm(token) => request.header(reqwest::header::AUTHORIZATION, format!("cpm-bearer {token}")),
        };
        if let Some(Sent(body)) = body {
            request = request.header(reqwest::header::CONTENT_TYPE, "application/json").body(body);
        }
        let failed = |error: reqwest::Error| {
            if error.is_timeout() { OperatorError::TimedOut } else { OperatorError::Unavailable(error.to_string()) }
        };
        let response = request.send().await.map_err(failed)?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(failed)?;
        if status == StatusCode::UNAUTHORIZED {
            return Err(OperatorError::Unauthorized);
        }
        if !status.is_success() {
            let refusal: RefusalBody = serde_json::from_slice(&bytes).unwrap_or_default();
            let reason = refusal.failure.map(|failure| failure.reason);
            return Err(OperatorError::Refused { status: status.as_u16(), message: refusal.message, reason });
        }
        serde_json::from_slice(&bytes).map_err(|e| OperatorError::Unavailable(format!("{path}: {e}")))
    }

    pub async fn request_otp(&self, msisdn: &Msisdn) -> Result<Localized, OperatorError> {
        let answer: Message = self
            .call(Method::POST, "api/v1/auth/request-otp", Credential::None, sent(&Number { msisdn: msisdn.as_str() }))
            .await?;
        Ok(answer.message)
    }

    /// The token of the signed-in subscriber.
    pub async fn validate_otp(&self, msisdn: &Msisdn, code: &OtpCode) -> Result<String, OperatorError> {
        let body = sent(&NumberCode { msisdn: msisdn.as_str(), code: code.as_str() });
        let answer: Data<String> = self.call(Method::POST, "api/v1/auth/validate-otp", Credential::None, body).await?;
        Ok(answer.data)
    }

    pub async fn customer_details(&self, token: &str) -> Result<CustomerDetails, OperatorError> {
        let answer: Data<CustomerDetails> =
            self.call(Method::GET, "api/v1/gsm-config/customer-details", Credential::Bearer(token), None).await?;
        Ok(answer.data)
    }

    pub async fn airtime_balance(&self, token: &str) -> Result<AirtimeBalance, OperatorError> {
        let answer: Data<AirtimeBalance> =
            self.call(Method::GET, "api/v1/gsm-config/airtime-balance", Credential::Bearer(token), None).await?;
        Ok(answer.data)
    }

    pub async fn bundle_balance(&self, token: &str) -> Result<Vec<BundleBalance>, OperatorError> {
        let answer: Data<Vec<BundleBalance>> =
            self.call(Method::GET, "api/v1/gsm-config/bundle-balance", Credential::Bearer(token), None).await?;
        Ok(answer.data)
    }

    /// The M-Pesa wallet; `Refused { status: 404 }` for a number without M-Pesa.
    pub async fn mpesa_balance(&self, token: &str) -> Result<MpesaBalance, OperatorError> {
        let answer: Data<MpesaBalance> =
            self.call(Method::GET, "api/v1/mpesa/balance", Credential::Bearer(token), None).await?;
        Ok(answer.data)
    }

    /// The catalogue; an entry that does not fit the contract is left out (and logged).
    pub async fn bundles(&self) -> Result<Vec<CatalogueBundle>, OperatorError> {
        let answer: Data<Vec<Entry<CatalogueBundle>>> =
            self.call(Method::GET, "api/v1/gsm-static-bundles", Credential::None, None).await?;
        Ok(answer
            .data
            .into_iter()
            .filter_map(|entry| entry.0.map_err(|error| tracing::warn!(%error, "catalogue entry left out")).ok())
            .collect())
    }

    pub async fn purchase(&self, token: &str, purchase: &Purchase) -> Result<Localized, OperatorError> {
        let answer: Message = self
            .call(Method::POST, "api/v1/gsm-static-bundles/purchase", Credential::Bearer(token), sent(purchase))
            .await?;
        Ok(answer.message)
    }

    /// The alternative number registered for a modem.
    pub async fn alternative_number(&self, modem: &Msisdn) -> Result<AlternativeNumber, OperatorError> {
        let answer: Data<AlternativeNumber> = self
            .call(Method::POST, "alternative-number/", Credential::None, sent(&Number { msisdn: modem.as_str() }))
            .await?;
        Ok(answer.data)
    }

    pub async fn alternative_request_otp(
        &self,
        modem: &Msisdn,
        alternative: &Msisdn,
    ) -> Result<Localized, OperatorError> {
        let body = sent(&ModemPair { msisdn: modem.as_str(), alternative_msisdn: alternative.as_str(), code: None });
        let answer: Message =
            self.call(Method::POST, "alternative-number/login-request-otp", Credential::None, body).await?;
        Ok(answer.message)
    }

    /// Validates a modem code at `path` (the caller supplies it: the modem flow's own).
    pub async fn validate_modem_otp(
        &self,
        path: &str,
        modem: &Msisdn,
        code: &OtpCode,
    ) -> Result<String, OperatorError> {
        let body = sent(&NumberCode { msisdn: modem.as_str(), code: code.as_str() });
        let answer: Data<String> = self.call(Method::POST, path, Credential::None, body).await?;
        Ok(answer.data)
    }

    /// Asks for a code to the modem's own number (read in the modem's web
    /// page), which proves the signed-in caller controls the modem's line.
    pub async fn alternative_create_request_otp(
        &self,
        token: &str,
        modem: &Msisdn,
    ) -> Result<Localized, OperatorError> {
        let body = sent(&Number { msisdn: modem.as_str() });
        let answer: Message =
            self.call(Method::POST, "alternative-number/create-request-otp", Credential::Bearer(token), body).await?;
        Ok(answer.message)
    }

    /// Registers the caller's number as the modem's alternative, with the
    /// code sent to the modem.
    pub async fn create_alternative_number(
        &self,
        token: &str,
        modem: &Msisdn,
        alternative: &Msisdn,
        code: &OtpCode,
    ) -> Result<AlternativeNumber, OperatorError> {
        let body = sent(&ModemPair {
            msisdn: modem.as_str(),
            alternative_msisdn: alternative.as_str(),
            code: Some(code.as_str()),
        });
        let answer: Data<AlternativeNumber> =
            self.call(Method::POST, "alternative-number/create", Credential::Bearer(token), body).await?;
        Ok(answer.data)
    }

    pub async fn cpm_request_otp(&self, msisdn: &Msisdn) -> Result<Localized, OperatorError> {
        let answer: Message = self
            .call(Method::POST, "cpm/request-otp", Credential::None, sent(&Number { msisdn: msisdn.as_str() }))
            .await?;
        Ok(answer.message)
    }

    pub async fn cpm_validate_otp(&self, msisdn: &Msisdn, code: &OtpCode) -> Result<String, OperatorError> {
        let body = sent(&NumberCode { msisdn: msisdn.as_str(), code: code.as_str() });
        let answer: Data<String> = self.call(Method::POST, "cpm/validate-otp", Credential::None, body).await?;
        Ok(answer.data)
    }

    pub async fn cpm_permissions(&self, token: &str) -> Result<Vec<Permission>, OperatorError> {
        let answer: Data<Vec<Permission>> =
            self.call(Method::GET, "cpm/permissions", Credential::Cpm(token), None).await?;
        Ok(answer.data)
    }

    pub async fn cpm_set_permission(&self, token: &str, id: &str, granted: bool) -> Result<(), OperatorError> {
        let path = format!("cpm/permissions/{}", urlencode(id));
        let _: IgnoredAny = self.call(Method::PUT, &path, Credential::Cpm(token), sent(&Grant { granted })).await?;
        Ok(())
    }
}

/// A call's JSON body, serialised.
struct Sent(Vec<u8>);

fn sent(body: &impl Serialize) -> Option<Sent> {
    Some(Sent(serde_json::to_vec(body).expect("a call's body serialises")))
}

/// A call refused before it was sent, counted by `reason` (`/metrics`).
fn not_called(reason: &'static str) -> OperatorError {
    metrics::counter!("operator_calls_refused_total", "reason" => reason).increment(1);
    OperatorError::NotCalled(reason)
}

fn urlencode(segment: &str) -> String {
    segment.bytes().filter(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_').map(char::from).collect()
}
