//! Throttles on what costs money or invites guessing: code requests per
//! number and per client address (each SMS costs), code checks per number
//! and per client address, modem look-ups per subscriber and per client
//! address, and forms sent per client address. The same budgets hold
//! whether or not a number is a subscriber, so a refusal tells nobody who
//! is a customer. A limited visitor gets 429; a code request, with how long
//! to wait.
//!
//! Where the counters live ([`Counters`]): in this process (governor, GCRA;
//! keys of clients that have gone quiet are swept in the background,
//! [`Limits::sweep_forever`]), or with `REDIS_URL` in Redis, shared by every
//! instance, as one Lua script per budget that runs the same GCRA
//! atomically on Redis's clock: never read, then written. A budget that
//! cannot be asked (Redis down) is [`Unavailable`], never allowed: the
//! caller answers 503.

use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::infra::redis::{PREFIX, Redis, hashed};

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

impl CodeFor {
    /// Its name in Redis keys and metrics.
    pub fn name(self) -> &'static str {
        match self {
            CodeFor::SignIn => "sign-in",
            CodeFor::Cpm => "cpm",
            CodeFor::ModemSignIn => "modem-sign-in",
            CodeFor::ModemRegistration => "modem-registration",
        }
    }
}

/// One budget: `burst` at once, then one more every `window / burst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Budget {
    CodesPerNumber,
    CodesPerClient,
    ChecksPerNumber,
    ChecksPerClient,
    ModemChecksPerSubscriber,
    ModemChecksPerClient,
    /// Forms sent, per form and client address. Generous: many phones
    /// share one address behind a mobile operator's NAT.
    FormsPerClient,
}

const TEN_MINUTES: Duration = Duration::from_secs(600);

impl Budget {
    const ALL: [Budget; 7] = [
        Budget::CodesPerNumber,
        Budget::CodesPerClient,
        Budget::ChecksPerNumber,
        Budget::ChecksPerClient,
        Budget::ModemChecksPerSubscriber,
        Budget::ModemChecksPerClient,
        Budget::FormsPerClient,
    ];

    /// `(burst, window)`.
    fn size(self) -> (u32, Duration) {
        match self {
            Budget::CodesPerNumber => (3, TEN_MINUTES),
            Budget::CodesPerClient => (10, TEN_MINUTES),
            Budget::ChecksPerNumber => (10, TEN_MINUTES),
            Budget::ChecksPerClient => (30, TEN_MINUTES),
            Budget::ModemChecksPerSubscriber => (10, TEN_MINUTES),
            Budget::ModemChecksPerClient => (20, TEN_MINUTES),
            Budget::FormsPerClient => (10, TEN_MINUTES),
        }
    }

    /// Its name in Redis keys and metrics.
    pub fn name(self) -> &'static str {
        match self {
            Budget::CodesPerNumber => "codes-per-number",
            Budget::CodesPerClient => "codes-per-client",
            Budget::ChecksPerNumber => "checks-per-number",
            Budget::ChecksPerClient => "checks-per-client",
            Budget::ModemChecksPerSubscriber => "modem-checks-per-subscriber",
            Budget::ModemChecksPerClient => "modem-checks-per-client",
            Budget::FormsPerClient => "forms-per-client",
        }
    }

    fn quota(self) -> Quota {
        let (burst, window) = self.size();
        let burst = NonZeroU32::new(burst).expect("burst > 0");
        Quota::with_period(window / burst.get()).expect("period > 0").allow_burst(burst)
    }
}

/// The shared counters could not be asked: the request is refused with 503.
#[derive(Debug, thiserror::Error)]
#[error("rate limits unavailable: {0}")]
pub struct Unavailable(#[from] redis::RedisError);

pub struct Limits {
    counters: Counters,
}

/// Where the budgets are counted.
enum Counters {
    Local(Local),
    Shared(Shared),
}

struct Local {
    /// Numbers a code went to within the resend time, per purpose, with
    /// when: the operator's resend rule, applied here to every number
    /// alike, subscriber or not.
    recently_sent: moka::sync::Cache<(CodeFor, String), std::time::Instant>,
    resend: Duration,
    budgets: Vec<(Budget, DefaultKeyedRateLimiter<String>)>,
}

struct Shared {
    redis: Redis,
    resend: Duration,
    gcra: redis::Script,
}

/// GCRA on Redis's clock, in milliseconds. KEYS[1]: the key's theoretical
/// arrival time; ARGV: the emission interval and the burst. 0 allows (and
/// counts); more refuses (and counts nothing): the milliseconds until one
/// more would be allowed.
const GCRA: &str = r"
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local interval = tonumber(ARGV[1])
local tolerance = interval * (tonumber(ARGV[2]) - 1)
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
if tat - now > tolerance then return math.max(1, tat - now - tolerance) end
local next = tat + interval
redis.call('SET', KEYS[1], next, 'PX', next - now)
return 0
";

fn resend_key(purpose: CodeFor, number: &str) -> String {
    format!("{PREFIX}resend:{}:{}", purpose.name(), hashed(number))
}

/// How often keys whose budget has refilled are forgotten.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

impl Limits {
    /// Counted in this process. `resend`: the time between two codes to one
    /// number for one purpose.
    pub fn new(resend: Duration) -> Limits {
        let local = Local {
            recently_sent: moka::sync::Cache::builder().time_to_live(resend).max_capacity(1_000_000).build(),
            resend,
            budgets: Budget::ALL
                .iter()
                .map(|budget| (*budget, DefaultKeyedRateLimiter::keyed(budget.quota())))
                .collect(),
        };
        Limits { counters: Counters::Local(local) }
    }

    /// Counted in Redis, shared by every instance using it.
    pub fn shared(redis: Redis, resend: Duration) -> Limits {
        Limits { counters: Counters::Shared(Shared { redis, resend, gcra: redis::Script::new(GCRA) }) }
    }

    /// One more of `budget` for `key`: whether it is within the budget.
    async fn allow(&self, budget: Budget, key: &str) -> Result<bool, Unavailable> {
        Ok(self.wait(budget, key).await?.is_none())
    }

    /// One more of `budget` for `key`: `None` when it is within the budget
    /// (and counted), else how long until it would be.
    async fn wait(&self, budget: Budget, key: &str) -> Result<Option<Duration>, Unavailable> {
        let wait = match &self.counters {
            Counters::Local(local) => {
                let limiter = &local.budgets.iter().find(|(b, _)| *b == budget).expect("every budget has a limiter").1;
                limiter
                    .check_key(&key.to_owned())
                    .err()
                    .map(|not_until| not_until.wait_time_from(limiter.clock().now()))
            }
            Counters::Shared(shared) => {
                let (burst, window) = budget.size();
                let interval = (window / burst).as_millis() as u64;
                let mut call = shared.gcra.prepare_invoke();
                call.key(format!("{PREFIX}limit:{}:{}", budget.name(), hashed(key))).arg(interval).arg(burst);
                let wait_ms: u64 = shared.redis.invoke(&call).await?;
                (wait_ms > 0).then(|| Duration::from_millis(wait_ms))
            }
        };
        if wait.is_some() {
            metrics::counter!("rate_limit_rejections_total", "budget" => budget.name()).increment(1);
        }
        Ok(wait)
    }

    /// One code request for `number` from `client`: not within the resend
    /// time of the last code sent to it for the same purpose, and within
    /// every budget. `Some(wait)`: refused, and how long until it would not be.
    pub async fn code_request(
        &self,
        purpose: CodeFor,
        number: &str,
        client: IpAddr,
    ) -> Result<Option<Duration>, Unavailable> {
        let resend_wait = match &self.counters {
            Counters::Local(local) => local
                .recently_sent
                .get(&(purpose, number.to_owned()))
                .map(|sent| local.resend.saturating_sub(sent.elapsed())),
            Counters::Shared(shared) => {
                let left: i64 = shared.redis.query(redis::cmd("PTTL").arg(resend_key(purpose, number))).await?;
                u64::try_from(left).ok().map(Duration::from_millis)
            }
        };
        if let Some(wait) = resend_wait {
            metrics::counter!("rate_limit_rejections_total", "budget" => "resend").increment(1);
            return Ok(Some(wait));
        }
        if let Some(wait) = self.wait(Budget::CodesPerClient, &client.to_string()).await? {
            return Ok(Some(wait));
        }
        self.wait(Budget::CodesPerNumber, number).await
    }

    /// The operator took a code request for `number` (whether or not it is
    /// a subscriber, it answers alike): the next for this purpose waits.
    /// Not kept (Redis down) only loosens the resend rule: the per-number
    /// budget still holds.
    pub async fn code_sent(&self, purpose: CodeFor, number: &str) {
        match &self.counters {
            Counters::Local(local) => {
                local.recently_sent.insert((purpose, number.to_owned()), std::time::Instant::now())
            }
            Counters::Shared(shared) if shared.resend.is_zero() => {}
            Counters::Shared(shared) => {
                let resend = shared.resend.as_millis() as u64;
                let set = shared
                    .redis
                    .query::<()>(redis::cmd("SET").arg(resend_key(purpose, number)).arg(1).arg("PX").arg(resend))
                    .await;
                if let Err(error) = set {
                    tracing::warn!(%error, "resend time not recorded");
                }
            }
        }
    }

    /// One code check for `number` from `client`.
    pub async fn code_check(&self, number: &str, client: IpAddr) -> Result<bool, Unavailable> {
        Ok(self.allow(Budget::ChecksPerClient, &client.to_string()).await?
            && self.allow(Budget::ChecksPerNumber, number).await?)
    }

    /// One modem look-up by the signed-in `subscriber` from `client`.
    pub async fn modem_check(&self, subscriber: &str, client: IpAddr) -> Result<bool, Unavailable> {
        Ok(self.allow(Budget::ModemChecksPerClient, &client.to_string()).await?
            && self.allow(Budget::ModemChecksPerSubscriber, subscriber).await?)
    }

    /// One submission of `form` from `client`.
    pub async fn form_submission(&self, form: &str, client: IpAddr) -> Result<bool, Unavailable> {
        self.allow(Budget::FormsPerClient, &format!("{form} {client}")).await
    }

    /// Forgets every key whose budget is full again: the limiters stay as
    /// small as the set of recently active clients. Redis forgets its keys
    /// itself (each expires when its budget is full again).
    pub fn sweep(&self) {
        if let Counters::Local(local) = &self.counters {
            for (_, limiter) in &local.budgets {
                limiter.retain_recent();
                limiter.shrink_to_fit();
            }
        }
    }

    /// Sweeps every minute, for as long as the server runs.
    pub async fn sweep_forever(self: std::sync::Arc<Self>) {
        if matches!(self.counters, Counters::Shared(_)) {
            return;
        }
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

    fn ip(address: &str) -> IpAddr {
        address.parse().unwrap()
    }

    #[tokio::test]
    async fn one_code_a_minute_three_per_number_ten_per_client() {
        let limits = Limits::new(Duration::from_secs(60));
        let allowed = async |purpose, number: &str, client: IpAddr| {
            limits.code_request(purpose, number, client).await.unwrap().is_none()
        };
        assert!(allowed(CodeFor::SignIn, "255754000001", ip("1.1.1.1")).await);
        assert!(allowed(CodeFor::SignIn, "255754000001", ip("1.1.1.1")).await, "the first failed: nothing was sent");
        limits.code_sent(CodeFor::SignIn, "255754000001").await;
        assert!(allowed(CodeFor::Cpm, "255754000001", ip("1.1.1.1")).await, "another purpose");
        let wait = limits
            .code_request(CodeFor::SignIn, "255754000001", ip("1.1.1.1"))
            .await
            .unwrap()
            .expect("a second code within the minute");
        assert!(wait > Duration::from_secs(50) && wait <= Duration::from_secs(60), "the rest of the minute: {wait:?}");
        assert!(allowed(CodeFor::SignIn, "255754000002", ip("1.1.1.1")).await, "another number");
        let limits = Limits::new(Duration::from_secs(60));
        for n in 0..10 {
            assert!(
                limits
                    .code_request(CodeFor::SignIn, &format!("25575400{n:04}"), ip("2.2.2.2"))
                    .await
                    .unwrap()
                    .is_none()
            );
        }
        let wait = limits
            .code_request(CodeFor::SignIn, "255754009999", ip("2.2.2.2"))
            .await
            .unwrap()
            .expect("the client's budget");
        assert!(wait > Duration::from_secs(50) && wait <= Duration::from_secs(60), "one code a minute back: {wait:?}");
    }

    #[tokio::test]
    async fn code_checks_have_a_budget_per_client_across_numbers() {
        let limits = Limits::new(Duration::from_secs(60));
        for n in 0..30 {
            assert!(limits.code_check(&format!("25575400{n:04}"), ip("3.3.3.3")).await.unwrap());
        }
        assert!(
            !limits.code_check("255754009999", ip("3.3.3.3")).await.unwrap(),
            "one client guessing across many numbers"
        );
        assert!(limits.code_check("255754009999", ip("4.4.4.4")).await.unwrap(), "another client");
    }

    #[tokio::test]
    async fn the_sweep_never_gives_a_limited_number_its_budget_back() {
        let limits = Limits::new(Duration::from_secs(60));
        for _ in 0..3 {
            assert!(limits.code_request(CodeFor::SignIn, "255754000001", ip("5.5.5.5")).await.unwrap().is_none());
        }
        limits.sweep();
        assert!(
            limits.code_request(CodeFor::SignIn, "255754000001", ip("6.6.6.6")).await.unwrap().is_some(),
            "still out of its budget"
        );
    }
}
