//! What the features stand on and none of them defines: shared stores,
//! work pools, caches' plumbing and the small habits every module keeps.
//! Nothing here knows a page, a form or an account.
//!
//! The modules, from the top: each imports only modules below it.
//!
//! - [`redis`]: Redis, shared by every instance behind one address
//!   (`REDIS_URL`): sessions, rate limits, the outbox lease, invalidation.
//! - `background`: CPU work after a render or a pre-render pass
//!   (compression, the search index), below requests' priority.
//! - `single_flight`: loads made once per key for every waiter, as their
//!   own tasks (the content cache's, the account cache's).
//! - `bounded_dir`: the cache directories bounded in bytes (content's last
//!   good answers, resized photos) that instances sharing `DATA_DIR` share,
//!   each written by a thread of its own; `cache_metrics`: what every cache
//!   says of itself in `/metrics`.
//! - `sqlite`: the SQLite files in `DATA_DIR`, opened so that instances
//!   sharing the directory wait for each other's locks.
//! - `sampled`: log lines for events that come in floods (renders shed,
//!   connections refused): one a second, with the count since the last.
//! - `memory`: the allocator's figures; `locks`: one way to take a lock a
//!   panic left poisoned.

pub mod redis;

pub(crate) mod background;
pub(crate) mod bounded_dir;
pub(crate) mod cache_metrics;
pub(crate) mod locks;
pub(crate) mod memory;
pub(crate) mod sampled;
pub(crate) mod single_flight;
pub(crate) mod sqlite;
