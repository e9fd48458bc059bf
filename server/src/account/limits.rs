//! Throttles on what costs money or invites guessing: code requests per
//! number and per client address (each SMS costs), code checks per number
//! and per client address, modem look-ups per subscriber and per client
//! address, and forms sent per client address. The same budgets hold
//! whether or not a number is a subscriber, so a refusal tells nobody who
//! is a customer. In-process; a limited
//! visitor gets 429. Keys of clients that have gone quiet are swept in the
//! background ([`Limits::sweep_forever`]), never on a request's path.

use std::hash::Hash;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota};

/// What a one-time code opens: each has its own resend rule per number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeFor {
    SignIn,
    Cpm,
    /// The modem's sign-in code, sent to its alternative number.
    ModemSignIn,
    /// Registering an alternative number, sent to the modem itself.
    ModemRegistration,
}

pub struct Limits {
    /// Numbers a code went to within the resend time, per purpose: the
    /// operator's resend rule, applied here to every number alike,
    /// subscriber or not.
    recently_sent: moka::sync::Cache<(CodeFor, String), ()>,
    codes_per_number: DefaultKeyedRateLimiter<String>,
    codes_per_client: DefaultKeyedRateLimiter<String>,
    checks_per_number: DefaultKeyedRateLimiter<String>,
    checks_per_client: DefaultKeyedRateLimiter<String>,
    modem_checks_per_subscriber: DefaultKeyedRateLimiter<String>,
    modem_checks_per_client: DefaultKeyedRateLimiter<String>,
    /// Forms sent, per form and client address. Generous: many phones
    /// share one address behind a mobile operator's NAT.
    forms_per_client: DefaultKeyedRateLimiter<String>,
}

/// `burst` at once, then one more every `window / burst`.
fn quota(burst: u32, window: Duration) -> Quota {
    let burst = NonZeroU32::new(burst).expect("burst > 0");
    Quota::with_period(window / burst.get()).expect("period > 0").allow_burst(burst)
}

fn allow<K: Hash + Eq + Clone>(limiter: &DefaultKeyedRateLimiter<K>, key: &K) -> bool {
    limiter.check_key(key).is_ok()
}

/// How often keys whose budget has refilled are forgotten.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

impl Limits {
    /// `resend`: the time between two codes to one number for one purpose.
    pub fn new(resend: Duration) -> Limits {
        let ten_minutes = Duration::from_secs(600);
        Limits {
            recently_sent: moka::sync::Cache::builder().time_to_live(resend).max_capacity(1_000_000).build(),
            codes_per_number: DefaultKeyedRateLimiter::keyed(quota(3, ten_minutes)),
            codes_per_client: DefaultKeyedRateLimiter::keyed(quota(10, ten_minutes)),
            checks_per_number: DefaultKeyedRateLimiter::keyed(quota(10, ten_minutes)),
            checks_per_client: DefaultKeyedRateLimiter::keyed(quota(30, ten_minutes)),
            modem_checks_per_subscriber: DefaultKeyedRateLimiter::keyed(quota(10, ten_minutes)),
            modem_checks_per_client: DefaultKeyedRateLimiter::keyed(quota(20, ten_minutes)),
            forms_per_client: DefaultKeyedRateLimiter::keyed(quota(10, ten_minutes)),
        }
    }

    /// One code request for `number` from `client`: not within the resend
    /// time of the last code sent to it for the same purpose, and within
    /// every budget.
    pub fn code_request(&self, purpose: CodeFor, number: &str, client: &str) -> bool {
        !self.recently_sent.contains_key(&(purpose, number.to_owned()))
            && allow(&self.codes_per_client, &client.to_owned())
            && allow(&self.codes_per_number, &number.to_owned())
    }

    /// The operator took a code request for `number` (whether or not it is
    /// a subscriber, it answers alike): the next for this purpose waits.
    pub fn code_sent(&self, purpose: CodeFor, number: &str) {
        self.recently_sent.insert((purpose, number.to_owned()), ());
    }

    /// One code check for `number` from `client`.
    pub fn code_check(&self, number: &str, client: &str) -> bool {
        allow(&self.checks_per_client, &client.to_owned()) && allow(&self.checks_per_number, &number.to_owned())
    }

    /// One modem look-up by the signed-in `subscriber` from `client`.
    pub fn modem_check(&self, subscriber: &str, client: &str) -> bool {
        allow(&self.modem_checks_per_client, &client.to_owned())
            && allow(&self.modem_checks_per_subscriber, &subscriber.to_owned())
    }

    /// One submission of `form` from `client`.
    pub fn form_submission(&self, form: &str, client: &str) -> bool {
        allow(&self.forms_per_client, &format!("{form} {client}"))
    }

    /// Forgets every key whose budget is full again: the limiters stay as
    /// small as the set of recently active clients.
    pub fn sweep(&self) {
        for limiter in [
            &self.codes_per_number,
            &self.codes_per_client,
            &self.checks_per_number,
            &self.checks_per_client,
            &self.modem_checks_per_subscriber,
            &self.modem_checks_per_client,
            &self.forms_per_client,
        ] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }

    /// Sweeps every minute, for as long as the server runs.
    pub async fn sweep_forever(self: std::sync::Arc<Self>) {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        loop {
            every.tick().await;
            let limits = self.clone();
            // Sweeping 100k keys takes milliseconds: off the request threads.
            if let Err(error) = tokio::task::spawn_blocking(move || limits.sweep()).await {
                tracing::warn!(%error, "rate-limit sweep failed");
            }
        }
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_code_a_minute_three_per_number_ten_per_client() {
        let limits = Limits::new(Duration::from_secs(60));
        assert!(limits.code_request(CodeFor::SignIn, "255754000001", "1.1.1.1"));
        assert!(limits.code_request(CodeFor::SignIn, "255754000001", "1.1.1.1"), "the first failed: nothing was sent");
        limits.code_sent(CodeFor::SignIn, "255754000001");
        assert!(limits.code_request(CodeFor::Cpm, "255754000001", "1.1.1.1"), "another purpose");
        assert!(!limits.code_request(CodeFor::SignIn, "255754000001", "1.1.1.1"), "a second code within the minute");
        assert!(limits.code_request(CodeFor::SignIn, "255754000002", "1.1.1.1"), "another number");
        let limits = Limits::new(Duration::from_secs(60));
        for n in 0..10 {
            assert!(limits.code_request(CodeFor::SignIn, &format!("25575400{n:04}"), "2.2.2.2"));
        }
        assert!(!limits.code_request(CodeFor::SignIn, "255754009999", "2.2.2.2"), "the client's budget");
    }

    #[test]
    fn code_checks_have_a_budget_per_client_across_numbers() {
        let limits = Limits::new(Duration::from_secs(60));
        for n in 0..30 {
            assert!(limits.code_check(&format!("25575400{n:04}"), "3.3.3.3"));
        }
        assert!(!limits.code_check("255754009999", "3.3.3.3"), "one client guessing across many numbers");
        assert!(limits.code_check("255754009999", "4.4.4.4"), "another client");
    }

    #[test]
    fn the_sweep_never_gives_a_limited_number_its_budget_back() {
        let limits = Limits::new(Duration::from_secs(60));
        for _ in 0..3 {
            assert!(limits.code_request(CodeFor::SignIn, "255754000001", "5.5.5.5"));
        }
        limits.sweep();
        assert!(!limits.code_request(CodeFor::SignIn, "255754000001", "6.6.6.6"), "still out of its budget");
    }
}
