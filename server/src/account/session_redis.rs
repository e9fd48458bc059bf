//! Sessions in Redis (`REDIS_URL`), shared by every instance behind one
//! address: a session one instance deletes (logout, the operator's 401) is
//! gone for all of them at once. One hash per session, keyed like the
//! SQLite rows by the SHA-256 of the id (a dump of Redis opens no session):
//! `kind`, `data`, `issued` (Redis's clock, seconds). The idle lifetime is
//! the key's expiry, pushed forward by each read; the absolute one is
//! checked against `issued` on each read. Every read and write is one Lua
//! script, so two instances never interleave a check and an update.

use async_trait::async_trait;

use super::session::{Kind, Session};
use super::session_record::kind_name;
use super::session_store::{Lifetimes, SessionId, SessionStore, StoreError};
use crate::infra::redis::{PREFIX, Redis};

pub struct RedisSessionStore {
    redis: Redis,
    lifetimes: Lifetimes,
    create: redis::Script,
    get: redis::Script,
    update: redis::Script,
}

/// KEYS[1]: the session; ARGV: kind, data, seconds it may live idle, its
/// absolute lifetime.
const CREATE: &str = r"
local now = redis.call('TIME')[1]
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'kind', ARGV[1], 'data', ARGV[2], 'issued', now)
redis.call('EXPIRE', KEYS[1], math.max(1, math.min(tonumber(ARGV[3]), tonumber(ARGV[4]))))
return 1
";

/// KEYS[1]: the session; ARGV: kind, idle and absolute lifetimes. Its data
/// with its idle clock restarted, or nil: none, another kind (left alone),
/// or past its absolute lifetime (deleted).
const GET: &str = r"
local found = redis.call('HMGET', KEYS[1], 'kind', 'data', 'issued')
if not found[1] or found[1] ~= ARGV[1] then return false end
local left = tonumber(found[3]) + tonumber(ARGV[3]) - tonumber(redis.call('TIME')[1])
if left <= 0 then
  redis.call('DEL', KEYS[1])
  return false
end
redis.call('EXPIRE', KEYS[1], math.max(1, math.min(tonumber(ARGV[2]), left)))
return found[2]
";

/// KEYS[1]: the session; ARGV[1]: its new data. Nothing if it has ended.
const UPDATE: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'data', ARGV[1]) end
return 1
";

fn key(id: &SessionId) -> String {
    let digest: String = id.digest().iter().map(|b| format!("{b:02x}")).collect();
    format!("{PREFIX}session:{digest}")
}

impl RedisSessionStore {
    pub fn new(redis: Redis, lifetimes: Lifetimes) -> RedisSessionStore {
        RedisSessionStore {
            redis,
            lifetimes,
            create: redis::Script::new(CREATE),
            get: redis::Script::new(GET),
            update: redis::Script::new(UPDATE),
        }
    }
}

#[async_trait]
impl SessionStore for RedisSessionStore {
    async fn create(&self, id: &SessionId, kind: Kind, session: &Session) -> Result<(), StoreError> {
        let data = serde_json::to_string(session).expect("session serialises");
        let mut call = self.create.prepare_invoke();
        call.key(key(id))
            .arg(kind_name(kind))
            .arg(data)
            .arg(self.lifetimes.idle.as_secs())
            .arg(self.lifetimes.absolute.as_secs());
        self.redis.invoke::<i64>(&call).await?;
        Ok(())
    }

    async fn get(&self, id: &SessionId, kind: Kind) -> Result<Option<Session>, StoreError> {
        let mut call = self.get.prepare_invoke();
        call.key(key(id))
            .arg(kind_name(kind))
            .arg(self.lifetimes.idle.as_secs())
            .arg(self.lifetimes.absolute.as_secs());
        let data: Option<String> = self.redis.invoke(&call).await?;
        Ok(data.and_then(|data| match serde_json::from_str(&data) {
            Ok(session) => Some(session),
            Err(error) => {
                tracing::warn!(%error, "unreadable session; treated as signed out");
                None
            }
        }))
    }

    async fn update(&self, id: &SessionId, session: &Session) -> Result<(), StoreError> {
        let data = serde_json::to_string(session).expect("session serialises");
        let mut call = self.update.prepare_invoke();
        call.key(key(id)).arg(data);
        self.redis.invoke::<i64>(&call).await?;
        Ok(())
    }

    async fn delete(&self, id: &SessionId) -> Result<(), StoreError> {
        self.redis.query::<i64>(redis::cmd("DEL").arg(key(id))).await?;
        Ok(())
    }

    /// Redis expires idle sessions itself.
    async fn sweep(&self) -> Result<usize, StoreError> {
        Ok(0)
    }
}
