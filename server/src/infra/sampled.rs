//! Log lines for events that can come thousands of times a second (renders
//! shed, clients at their limit of renders, connections refused): one line
//! each would flood the log, so [`Sampled`] counts them instead.

/// Counts events and says, at most once a second, how many there were.
pub(crate) struct Sampled {
    count: std::sync::atomic::AtomicU64,
    last: std::sync::atomic::AtomicU64,
}

impl Sampled {
    pub(crate) const fn new() -> Sampled {
        Sampled { count: std::sync::atomic::AtomicU64::new(0), last: std::sync::atomic::AtomicU64::new(0) }
    }

    /// One more event; the count so far when it is time to log it.
    pub(crate) fn tick(&self) -> Option<u64> {
        use std::sync::atomic::Ordering::Relaxed;
        self.count.fetch_add(1, Relaxed);
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let last = self.last.load(Relaxed);
        (now > last && self.last.compare_exchange(last, now, Relaxed, Relaxed).is_ok())
            .then(|| self.count.swap(0, Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::Sampled;

    #[test]
    fn a_burst_is_one_line_with_its_count() {
        let sampled = Sampled::new();
        assert_eq!(sampled.tick(), Some(1));
        let logged: Vec<_> = (0..10_000).filter_map(|_| sampled.tick()).collect();
        // Within one second nothing more, or (across a second boundary) one line counting all.
        assert!(logged.is_empty() || logged == vec![logged[0]], "{logged:?}");
    }
}
