//! Purchases are never doubled: a purchase of a bundle for a number is
//! remembered for [`WINDOW`] per session, and the same again within it is
//! sent to the operator only when the visitor confirmed buying it again. A
//! double tap, a retry after an answer that never came, a replayed or
//! scripted request: each is refused until it says it means it.
//!
//! Marks live in this process (moka, with a time to live) or, with
//! `REDIS_URL`, in Redis (`SET NX PX`), so a retry that lands on another
//! instance is caught too. Setting a mark is one atomic step, so of two
//! identical requests at once only one goes through.

use std::time::Duration;

use crate::infra::redis::{PREFIX, Redis, hashed};

use crate::limits::Unavailable;

/// How long a purchase counts as just made.
pub const WINDOW: Duration = Duration::from_secs(120);

pub enum RecentPurchases {
    Local(moka::sync::Cache<String, ()>),
    Shared(Redis),
}

/// What a purchase is the same as: its session (the operator token it is
/// paid with), bundle and recipient.
pub struct PurchaseMark(String);

impl PurchaseMark {
    pub fn new(token: &str, bundle_id: &str, recipient: &str) -> PurchaseMark {
        PurchaseMark(format!("{PREFIX}purchase:{}", hashed(&format!("{token}\n{bundle_id}\n{recipient}"))))
    }
}

impl RecentPurchases {
    pub fn local() -> RecentPurchases {
        RecentPurchases::Local(moka::sync::Cache::builder().time_to_live(WINDOW).max_capacity(1_000_000).build())
    }

    pub fn shared(redis: Redis) -> RecentPurchases {
        RecentPurchases::Shared(redis)
    }

    /// Marks the purchase as made now. `false` when the same one was made
    /// within [`WINDOW`] and `again` (the visitor confirmed it) is not set:
    /// then nothing is marked and nothing may be sent.
    pub async fn mark(&self, mark: &PurchaseMark, again: bool) -> Result<bool, Unavailable> {
        Ok(match self {
            RecentPurchases::Local(marks) if again => {
                marks.insert(mark.0.clone(), ());
                true
            }
            RecentPurchases::Local(marks) => marks.entry(mark.0.clone()).or_insert(()).is_fresh(),
            RecentPurchases::Shared(redis) => {
                let mut set = redis::cmd("SET");
                set.arg(&mark.0).arg(1).arg("PX").arg(WINDOW.as_millis() as u64);
                if !again {
                    set.arg("NX");
                }
                let answer: Option<String> = redis.query(&set).await?;
                answer.is_some()
            }
        })
    }

    /// The operator refused the purchase: nothing was bought, so trying
    /// again needs no confirmation.
    pub async fn forget(&self, mark: &PurchaseMark) {
        match self {
            RecentPurchases::Local(marks) => marks.invalidate(&mark.0),
            RecentPurchases::Shared(redis) => {
                if let Err(error) = redis.query::<()>(redis::cmd("DEL").arg(&mark.0)).await {
                    tracing::warn!(%error, "purchase mark not removed; an immediate retry asks for confirmation");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_same_purchase_again_needs_confirming_until_forgotten() {
        let recent = RecentPurchases::local();
        let daily = PurchaseMark::new("token-a", "data-daily-1gb", "255754000001");
        assert!(recent.mark(&daily, false).await.unwrap());
        assert!(!recent.mark(&daily, false).await.unwrap(), "the same again");
        assert!(
            recent.mark(&PurchaseMark::new("token-a", "data-daily-1gb", "255754000002"), false).await.unwrap(),
            "another recipient"
        );
        assert!(
            recent.mark(&PurchaseMark::new("token-a", "data-weekly-2gb", "255754000001"), false).await.unwrap(),
            "another bundle"
        );
        assert!(
            recent.mark(&PurchaseMark::new("token-b", "data-daily-1gb", "255754000001"), false).await.unwrap(),
            "another session"
        );
        assert!(recent.mark(&daily, true).await.unwrap(), "confirmed");
        recent.forget(&daily).await;
        assert!(recent.mark(&daily, false).await.unwrap(), "refused purchases are forgotten");
    }
}
