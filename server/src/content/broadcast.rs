//! Cross-instance invalidation, with `REDIS_URL`: the instance the CMS's
//! webhook reached bumps a content version key and publishes the change on
//! one channel, in one Lua script (so messages go out in version order);
//! every instance subscribes and runs the same invalidation the webhook ran
//! ([`Invalidation::invalidate`]), within milliseconds.
//!
//! A message can be missed (Redis restarted, a connection dropped): each
//! instance compares the version key with the last version it saw every
//! second and after every reconnection, and on any difference drops all
//! its content (and so its pages). A webhook whose change could not be
//! published (Redis down) is published as "everything" once Redis is back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::StreamExt;

use super::webhook::{Change, Invalidation};
use crate::infra::redis::{PREFIX, Redis, within};

/// How often the version key is compared, and a lost subscription retried.
const CHECK_EVERY: Duration = Duration::from_secs(1);

/// INCR the version, PUBLISH `<version> <instance> <change as JSON>`.
const PUBLISH: &str = r"
local version = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], version .. ' ' .. ARGV[2])
return version
";

fn version_key() -> String {
    format!("{PREFIX}content:version")
}

fn channel() -> String {
    format!("{PREFIX}content:invalidate")
}

#[derive(Clone)]
pub struct Broadcast {
    redis: Redis,
    publish: Arc<redis::Script>,
    /// A change could not be published: tell the others "everything" when
    /// Redis answers again.
    unpublished: Arc<AtomicBool>,
}

impl Broadcast {
    pub fn new(redis: Redis) -> Broadcast {
        Broadcast { redis, publish: Arc::new(redis::Script::new(PUBLISH)), unpublished: Arc::default() }
    }

    /// Tells every other instance about `change`; whether Redis took it.
    pub async fn publish(&self, change: &Change) -> bool {
        match self.try_publish(change).await {
            Ok(_) => true,
            Err(error) => {
                tracing::error!(%error, "content change not shared with the other instances; retried when Redis answers");
                self.unpublished.store(true, Ordering::Release);
                false
            }
        }
    }

    async fn try_publish(&self, change: &Change) -> redis::RedisResult<i64> {
        let payload =
            format!("{} {}", self.redis.instance(), serde_json::to_string(change).expect("a change serialises"));
        let mut call = self.publish.prepare_invoke();
        call.key(version_key()).arg(channel()).arg(payload);
        self.redis.invoke(&call).await
    }

    /// The content version now, read before this instance fetches any
    /// content, for [`Broadcast::listen_forever`]; `None` if Redis does not
    /// answer.
    pub async fn version_at_start(&self) -> Option<i64> {
        self.version().await.inspect_err(|error| tracing::warn!(%error, "content version unknown at start: content is dropped once when Redis answers")).ok()
    }

    async fn version(&self) -> redis::RedisResult<i64> {
        let version: Option<i64> = self.redis.query(redis::cmd("GET").arg(version_key())).await?;
        Ok(version.unwrap_or(0))
    }

    /// Listens for changes for as long as the server runs, reconnecting
    /// every second while Redis is away. `seen` is the version the content
    /// this instance holds was fetched under ([`Broadcast::version_at_start`]):
    /// a change made before the first subscription took (Redis slow or down
    /// at start, a busy machine) is caught up from it, not taken as the
    /// starting point.
    pub async fn listen_forever(self, invalidation: Invalidation, mut seen: Option<i64>) {
        let mut down = false;
        loop {
            match self.listen(&invalidation, &mut seen, &mut down).await {
                Ok(()) => {}
                Err(error) if !down => {
                    tracing::warn!(%error, "content invalidation channel lost; local caches serve on, retrying every second");
                    down = true;
                }
                Err(_) => {}
            }
            tokio::time::sleep(CHECK_EVERY).await;
        }
    }

    /// One subscription, until it fails.
    async fn listen(
        &self,
        invalidation: &Invalidation,
        seen: &mut Option<i64>,
        down: &mut bool,
    ) -> redis::RedisResult<()> {
        let mut pubsub = within(self.redis.client().get_async_pubsub()).await?;
        within(pubsub.subscribe(channel())).await?;
        self.catch_up(invalidation, seen).await?;
        if std::mem::take(down) {
            tracing::info!("content invalidation channel back");
        }
        let mut messages = pubsub.on_message();
        let mut every = tokio::time::interval(CHECK_EVERY);
        loop {
            tokio::select! {
                message = messages.next() => {
                    let Some(message) = message else {
                        return Err((redis::ErrorKind::Io, "subscription closed").into());
                    };
                    let payload: String = message.get_payload()?;
                    self.receive(invalidation, seen, &payload);
                }
                _ = every.tick() => {
                    if self.unpublished.swap(false, Ordering::AcqRel) && !self.publish(&Change::everything()).await {
                        return Err((redis::ErrorKind::Io, "change still not published").into());
                    }
                    self.catch_up(invalidation, seen).await?;
                }
            }
        }
    }

    /// Drops everything if the version moved past what was seen (a missed
    /// message, or a Redis that lost its data), or if what was seen is not
    /// known (Redis did not answer at start).
    async fn catch_up(&self, invalidation: &Invalidation, seen: &mut Option<i64>) -> redis::RedisResult<()> {
        let version = self.version().await?;
        match *seen {
            Some(before) if before == version => {}
            Some(before) => {
                let dropped = invalidation.invalidate(&Change::everything(), "catch-up");
                tracing::info!(
                    before,
                    version,
                    dropped,
                    "content version moved without a message: every content entry dropped"
                );
            }
            None => {
                let dropped = invalidation.invalidate(&Change::everything(), "catch-up");
                tracing::info!(
                    version,
                    dropped,
                    "content version first read after content was fetched: every content entry dropped"
                );
            }
        }
        *seen = Some(version);
        Ok(())
    }

    /// A message: `<version> <instance> <change>`.
    fn receive(&self, invalidation: &Invalidation, seen: &mut Option<i64>, payload: &str) {
        let mut parts = payload.splitn(3, ' ');
        let (Some(version), Some(origin), Some(change)) = (parts.next(), parts.next(), parts.next()) else {
            return tracing::warn!(payload, "unreadable content invalidation message");
        };
        let (Ok(version), Ok(change)) = (version.parse::<i64>(), serde_json::from_str::<Change>(change)) else {
            return tracing::warn!(payload, "unreadable content invalidation message");
        };
        let in_order = seen.is_some_and(|before| version <= before + 1);
        if !in_order {
            let dropped = invalidation.invalidate(&Change::everything(), "catch-up");
            tracing::info!(
                ?seen,
                version,
                dropped,
                "content invalidation message out of order: every content entry dropped"
            );
        } else if origin != self.redis.instance() {
            let dropped = invalidation.invalidate(&change, "broadcast");
            tracing::info!(
                model = change.model.as_deref().unwrap_or("*"),
                dropped,
                "content invalidated by another instance's webhook"
            );
        }
        *seen = Some(seen.map_or(version, |before| before.max(version)));
    }
}
