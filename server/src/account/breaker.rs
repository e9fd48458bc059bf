//! The operator API's circuit breaker. Closed, calls go through and
//! consecutive failures (no answer in time, no connection, a 5xx) are
//! counted; at `failures` in a row it opens, and for `cooldown` every call
//! fails at once without reaching the API. Then it is half open: the next
//! call is let through alone as a probe, every other still failing at once;
//! the probe's answer closes it, its failure opens it for another cooldown.
//!
//! Written here rather than taken from a crate: `failsafe`, the common one,
//! lets every call through while half open, and under a hung API each of
//! those would wait out the full timeout.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy)]
pub struct BreakerSettings {
    /// Consecutive failures that open the circuit.
    pub failures: u32,
    /// How long it stays open before a probe.
    pub cooldown: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Closed { failures: u32 },
    Open { until: Instant },
    HalfOpen { probing: bool },
}

/// What `/healthz?detail` and `/metrics` say of the circuit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Circuit {
    Closed,
    Open,
    HalfOpen,
}

#[derive(Clone)]
pub struct Breaker {
    settings: BreakerSettings,
    state: Arc<Mutex<State>>,
}

/// Leave to make one call; tell it how the call went. Dropped untold (the
/// caller went away), a probe leaves the circuit half open for the next.
pub struct Permit {
    breaker: Breaker,
    probe: bool,
    told: bool,
}

impl Breaker {
    pub fn new(settings: BreakerSettings) -> Breaker {
        Breaker { settings, state: Arc::new(Mutex::new(State::Closed { failures: 0 })) }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        crate::infra::locks::lock(&self.state)
    }

    /// Leave to call, or `None`: the circuit is open, or half open with its probe under way.
    pub fn permit(&self) -> Option<Permit> {
        let mut state = self.state();
        let probe = match *state {
            State::Closed { .. } => false,
            State::Open { until } if Instant::now() < until => return None,
            State::HalfOpen { probing: true } => return None,
            State::Open { .. } | State::HalfOpen { probing: false } => {
                *state = State::HalfOpen { probing: true };
                tracing::info!("operator API circuit half open: one call goes through as a probe");
                true
            }
        };
        Some(Permit { breaker: self.clone(), probe, told: false })
    }

    pub fn circuit(&self) -> Circuit {
        match *self.state() {
            State::Closed { .. } => Circuit::Closed,
            State::Open { until } if Instant::now() < until => Circuit::Open,
            State::Open { .. } | State::HalfOpen { .. } => Circuit::HalfOpen,
        }
    }

    fn open(&self, state: &mut State) {
        *state = State::Open { until: Instant::now() + self.settings.cooldown };
        tracing::warn!(
            cooldown_ms = self.settings.cooldown.as_millis() as u64,
            "operator API circuit open: calls fail at once until a probe answers"
        );
    }
}

impl Permit {
    /// The API answered (whatever it said, short of a 5xx).
    pub fn answered(mut self) {
        self.told = true;
        let mut state = self.breaker.state();
        match *state {
            State::Closed { .. } => *state = State::Closed { failures: 0 },
            State::HalfOpen { probing: true } if self.probe => {
                *state = State::Closed { failures: 0 };
                tracing::info!("operator API circuit closed: the probe was answered");
            }
            // A call from before the circuit opened: the probe decides.
            _ => {}
        }
    }

    /// No answer in time, no connection, or a 5xx.
    pub fn failed(mut self) {
        self.told = true;
        let mut state = self.breaker.state();
        match *state {
            State::Closed { failures } if failures + 1 >= self.breaker.settings.failures => {
                self.breaker.open(&mut state)
            }
            State::Closed { failures } => *state = State::Closed { failures: failures + 1 },
            State::HalfOpen { probing: true } if self.probe => self.breaker.open(&mut state),
            _ => {}
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if self.probe && !self.told {
            let mut state = self.breaker.state();
            if *state == (State::HalfOpen { probing: true }) {
                *state = State::HalfOpen { probing: false };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breaker(cooldown_ms: u64) -> Breaker {
        Breaker::new(BreakerSettings { failures: 3, cooldown: Duration::from_millis(cooldown_ms) })
    }

    fn fail(breaker: &Breaker, times: usize) {
        for _ in 0..times {
            breaker.permit().expect("closed").failed();
        }
    }

    #[test]
    fn opens_after_consecutive_failures_only() {
        let breaker = breaker(60_000);
        fail(&breaker, 2);
        breaker.permit().unwrap().answered();
        fail(&breaker, 2);
        assert_eq!(breaker.circuit(), Circuit::Closed, "an answer in between starts the count again");
        fail(&breaker, 1);
        assert_eq!(breaker.circuit(), Circuit::Open);
        assert!(breaker.permit().is_none(), "fails at once");
    }

    #[test]
    fn after_the_cooldown_one_probe_goes_through_and_its_answer_closes_the_circuit() {
        let breaker = breaker(20);
        fail(&breaker, 3);
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(breaker.circuit(), Circuit::HalfOpen);
        let probe = breaker.permit().expect("the probe");
        assert!(breaker.permit().is_none(), "one probe at a time");
        probe.answered();
        assert_eq!(breaker.circuit(), Circuit::Closed);
        assert!(breaker.permit().is_some());
    }

    #[test]
    fn a_failed_probe_opens_it_again_and_an_abandoned_one_lets_the_next_call_probe() {
        let breaker = breaker(20);
        fail(&breaker, 3);
        std::thread::sleep(Duration::from_millis(30));
        breaker.permit().expect("the probe").failed();
        assert_eq!(breaker.circuit(), Circuit::Open);
        std::thread::sleep(Duration::from_millis(30));
        drop(breaker.permit().expect("a probe whose caller went away"));
        let probe = breaker.permit().expect("the next call probes");
        probe.answered();
        assert_eq!(breaker.circuit(), Circuit::Closed);
    }
}
