//! What every instance behind one address shares, when `REDIS_URL` is set:
//! one [`Redis`] handle that the session store, the rate limits, the forms
//! outbox lease and the content invalidation broadcast each use with their
//! own keys (all under `site:`). Unset, each of them has an embedded
//! default, so `make run` needs no Redis.
//!
//! Redis down: every call fails within [`TIMEOUT`] instead of waiting, the
//! callers decide (pages serve from their local caches, sign-in answers
//! 503), and the connection manager reconnects by itself when Redis is back.

use std::time::Duration;

use futures::FutureExt;
use redis::RedisFuture;
use redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};

/// Longest a Redis call (or a connection attempt) may take.
pub const TIMEOUT: Duration = Duration::from_millis(1000);

/// Every key this server writes starts with this.
pub const PREFIX: &str = "site:";

#[derive(Clone)]
pub struct Redis {
    client: redis::Client,
    manager: ConnectionManager,
    /// This process, in messages it publishes (random, per start).
    instance: String,
}

impl Redis {
    /// A handle to `url`. Nothing is connected yet: a server starts while
    /// Redis is down, and reports not ready until it is up.
    pub fn open(url: &str) -> Result<Redis, redis::RedisError> {
        let client = redis::Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(500));
        let manager = ConnectionManager::new_lazy_with_config(client.clone(), config)?;
        let mut id = [0u8; 8];
        getrandom::fill(&mut id)
            .map_err(|e| redis::RedisError::from((redis::ErrorKind::Client, "no randomness", e.to_string())))?;
        let instance = id.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Redis { client, manager, instance })
    }

    /// A multiplexed connection (cheap to clone) for commands.
    pub fn connection(&self) -> Reconnecting {
        Reconnecting(self.manager.clone())
    }

    /// For what commands cannot do: subscribing.
    pub fn client(&self) -> &redis::Client {
        &self.client
    }

    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Runs `command`, failing after [`TIMEOUT`].
    pub async fn query<T: redis::FromRedisValue>(&self, command: &redis::Cmd) -> redis::RedisResult<T> {
        let mut connection = self.connection();
        within(command.query_async(&mut connection)).await
    }

    /// Runs a script, failing after [`TIMEOUT`].
    pub async fn invoke<T: redis::FromRedisValue>(&self, call: &redis::ScriptInvocation<'_>) -> redis::RedisResult<T> {
        let mut connection = self.connection();
        within(call.invoke_async(&mut connection)).await
    }

    /// Whether Redis answers now, within [`TIMEOUT`].
    pub async fn ping(&self) -> Result<(), redis::RedisError> {
        let pong: String = self.query(&redis::cmd("PING")).await?;
        if pong == "PONG" { Ok(()) } else { Err((redis::ErrorKind::Client, "unexpected answer to PING").into()) }
    }
}

/// The connection manager, with one more attempt for a command that found
/// its connection dropped (Redis restarted since the last call, or a
/// reconnection that failed while it was down): the manager opens a new
/// connection on such an error, and the command goes again over it, so the
/// first request after Redis is back is not refused. Every command this
/// server sends is safe to run twice: counters count one more, and `SET NX`
/// guards answer "taken", which refuses rather than repeats.
pub struct Reconnecting(ConnectionManager);

/// Whether `error` made the connection manager start a new connection.
fn reconnected(error: &redis::RedisError) -> bool {
    error.is_io_error() && !error.is_timeout()
}

impl ConnectionLike for Reconnecting {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a redis::Cmd) -> RedisFuture<'a, redis::Value> {
        async move {
            match self.0.req_packed_command(cmd).await {
                Err(error) if reconnected(&error) => self.0.req_packed_command(cmd).await,
                result => result,
            }
        }
        .boxed()
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a redis::Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<redis::Value>> {
        async move {
            match self.0.req_packed_commands(pipeline, offset, count).await {
                Err(error) if reconnected(&error) => self.0.req_packed_commands(pipeline, offset, count).await,
                result => result,
            }
        }
        .boxed()
    }

    fn get_db(&self) -> i64 {
        self.0.get_db()
    }
}

/// `call`, failing after [`TIMEOUT`] (the manager's own timeouts do not
/// cover a reconnection in progress).
pub async fn within<T>(call: impl Future<Output = redis::RedisResult<T>>) -> redis::RedisResult<T> {
    tokio::time::timeout(TIMEOUT, call)
        .await
        .unwrap_or_else(|_| Err(redis::RedisError::from((redis::ErrorKind::Io, "Redis did not answer in time"))))
}

/// A key's readable part hashed, so Redis holds no phone number or
/// session id: the first 16 bytes of its SHA-256, in hex.
pub fn hashed(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())[..16].iter().map(|b| format!("{b:02x}")).collect()
}
