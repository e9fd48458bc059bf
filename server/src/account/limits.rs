//! Throttles on what costs money or invites guessing: code requests per
//! number and per client address (each SMS costs), code checks per number.
//! In-process; a limited visitor gets 429.

use std::hash::Hash;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota};

pub struct Limits {
    codes_per_number: DefaultKeyedRateLimiter<String>,
    codes_per_client: DefaultKeyedRateLimiter<String>,
    checks_per_number: DefaultKeyedRateLimiter<String>,
}

/// `burst` at once, then one more every `window / burst`.
fn quota(burst: u32, window: Duration) -> Quota {
    let burst = NonZeroU32::new(burst).expect("burst > 0");
    Quota::with_period(window / burst.get()).expect("period > 0").allow_burst(burst)
}

fn allow<K: Hash + Eq + Clone>(limiter: &DefaultKeyedRateLimiter<K>, key: &K) -> bool {
    if limiter.len() > 100_000 {
        limiter.retain_recent();
    }
    limiter.check_key(key).is_ok()
}

impl Limits {
    pub fn new() -> Limits {
        let ten_minutes = Duration::from_secs(600);
        Limits {
            codes_per_number: DefaultKeyedRateLimiter::keyed(quota(3, ten_minutes)),
            codes_per_client: DefaultKeyedRateLimiter::keyed(quota(10, ten_minutes)),
            checks_per_number: DefaultKeyedRateLimiter::keyed(quota(10, ten_minutes)),
        }
    }

    /// One code request for `number` from `client`; both budgets must allow it.
    pub fn code_request(&self, number: &str, client: &str) -> bool {
        allow(&self.codes_per_client, &client.to_owned()) && allow(&self.codes_per_number, &number.to_owned())
    }

    pub fn code_check(&self, number: &str) -> bool {
        allow(&self.checks_per_number, &number.to_owned())
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_codes_per_number_ten_per_client() {
        let limits = Limits::new();
        for _ in 0..3 {
            assert!(limits.code_request("255754000001", "1.1.1.1"));
        }
        assert!(!limits.code_request("255754000001", "1.1.1.1"));
        assert!(limits.code_request("255754000002", "1.1.1.1"), "another number");
        let limits = Limits::new();
        for n in 0..10 {
            assert!(limits.code_request(&format!("25575400{n:04}"), "2.2.2.2"));
        }
        assert!(!limits.code_request("255754009999", "2.2.2.2"), "the client's budget");
    }
}
