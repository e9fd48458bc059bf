//! The [`FormStore`] in PostgreSQL, with `DATABASE_URL`: instances on
//! machines that share no disk keep every submission in one place, so the
//! export from any of them lists them all and a machine lost loses nothing
//! it accepted. A commit is on the server's disk before the visitor hears
//! of it (PostgreSQL's default `synchronous_commit`).
//!
//! `tokio-postgres` with a `deadpool-postgres` pool, the tables made by
//! `refinery` from `server/migrations/postgres/` when the server starts:
//! chosen over sqlx for the compile, which on a small machine is most of a
//! change's cost. These three brought 24 small crates into the build; sqlx
//! brings more (its own runtime layer, and `migrate!` in a macro crate that
//! depends on the driver as well). The queries are checked by the tests
//! against a real PostgreSQL, as sqlx's runtime-checked ones would be.
//! The connection is plain TCP (no TLS is built in): PostgreSQL on the
//! instances' private network, or behind a TLS tunnel.
//!
//! Each instance runs the outbox: [`FormStore::claim`] leases the entries
//! it sends in the table itself (`claimed_until`, taken with `FOR UPDATE
//! SKIP LOCKED`, so instances claiming at once never wait for each other
//! nor take one entry twice). While PostgreSQL is unreachable every call
//! fails within [`CONNECT`], which the forms answer 503 with `Retry-After`.

use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio_postgres::{NoTls, Row};

use super::FormKind;
use super::store::{
    Backlog, Due, Fields, FormStore, NewSubmission, Receipt, StoreError, Submission, new_reference, now,
};

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

/// How long a call waits for a connection, new or from the pool: a post
/// while PostgreSQL is down is answered within this.
const CONNECT: Duration = Duration::from_secs(5);
/// Where refinery records the migrations applied: named for this server, as
/// the database may hold other applications' tables.
const HISTORY: &str = "site_schema_history";
/// The advisory lock instances starting at once take in turn to migrate.
const MIGRATING: i64 = 0x5349_5445_4d49_4752;

const COLUMNS: &str =
    "s.id, s.reference, s.form, s.lang, s.received_at, s.data, s.proposal IS NOT NULL AS has_proposal";

#[derive(Clone)]
pub struct PostgresFormStore {
    pool: Pool,
}

fn submission(row: &Row) -> Result<Submission, tokio_postgres::Error> {
    let (reference, form, data): (String, String, String) =
        (row.try_get("reference")?, row.try_get("form")?, row.try_get("data")?);
    let fields = FormKind::parse(&form).and_then(|kind| {
        Fields::read(kind, &data)
            .inspect_err(|error| tracing::error!(%reference, form, %error, "a kept submission's fields do not read"))
            .ok()
    });
    Ok(Submission {
        id: row.try_get("id")?,
        reference,
        form,
        lang: row.try_get("lang")?,
        received_at: row.try_get("received_at")?,
        fields,
        has_proposal: row.try_get("has_proposal")?,
    })
}

impl PostgresFormStore {
    /// A pool for `config`; nothing is connected until the first call
    /// ([`FormStore::migrate`], at start).
    pub fn open(mut config: tokio_postgres::Config) -> PostgresFormStore {
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT);
        }
        let manager = Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let pool = Pool::builder(manager)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(CONNECT))
            .create_timeout(Some(CONNECT))
            .recycle_timeout(Some(CONNECT))
            .build()
            .expect("a pool with its runtime named");
        PostgresFormStore { pool }
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        Ok(self.pool.get().await?)
    }

    async fn proposal_where(
        &self,
        condition: &str,
        value: &(dyn tokio_postgres::types::ToSql + Sync),
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let client = self.client().await?;
        let row = client.query_opt(&format!("SELECT proposal FROM submissions WHERE {condition}"), &[value]).await?;
        Ok(row.map(|row| row.try_get::<_, Option<Vec<u8>>>(0)).transpose()?.flatten())
    }
}

#[async_trait]
impl FormStore for PostgresFormStore {
    /// The tables made or brought up to date, one instance at a time.
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATING]).await?;
        let client: &mut tokio_postgres::Client = &mut client;
        let migrated = embedded::migrations::runner().set_migration_table_name(HISTORY).run_async(client).await;
        client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATING]).await?;
        migrated?;
        Ok(())
    }

    async fn keep(&self, new: NewSubmission) -> Result<Receipt, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let form = new.fields.kind();
        let seen = "SELECT reference FROM submissions WHERE form = $1 AND idempotency_key = $2";
        if let Some(key) = &new.idempotency_key
            && let Some(row) = tx.query_opt(seen, &[&form.name(), key]).await?
        {
            return Ok(Receipt::Replayed(row.try_get(0)?));
        }
        let data = serde_json::to_string(&new.fields).expect("a form's fields as JSON");
        let now = now();
        let insert = "INSERT INTO submissions (reference, form, idempotency_key, lang, received_at, data, proposal)
                      VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id";
        let mut draws = 0;
        let (id, reference) = loop {
            let reference = new_reference(form)?;
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 7] =
                [&reference, &form.name(), &new.idempotency_key, &new.lang, &now, &data, &new.proposal];
            if let Some(row) = tx.query_opt(insert, &params).await? {
                break (row.try_get::<_, i64>(0)?, reference);
            }
            // Another instance committed the same key meanwhile: its
            // reference. Otherwise the reference was taken (40 random bits
            // collide about never): another is drawn.
            if let Some(key) = &new.idempotency_key
                && let Some(row) = tx.query_opt(seen, &[&form.name(), key]).await?
            {
                return Ok(Receipt::Replayed(row.try_get(0)?));
            }
            draws += 1;
            if draws > 3 {
                return Err(StoreError::NoReference(draws));
            }
        };
        if new.deliver {
            tx.execute("INSERT INTO outbox (submission_id, next_attempt_at) VALUES ($1, $2)", &[&id, &now]).await?;
        }
        tx.commit().await?;
        Ok(Receipt::New(reference))
    }

    async fn all(&self, form: FormKind) -> Result<Vec<Submission>, StoreError> {
        let client = self.client().await?;
        let query = format!("SELECT {COLUMNS} FROM submissions s WHERE s.form = $1 ORDER BY s.id");
        let rows = client.query(&query, &[&form.name()]).await?;
        Ok(rows.iter().map(submission).collect::<Result<_, _>>()?)
    }

    async fn proposal(&self, reference: String) -> Result<Option<Vec<u8>>, StoreError> {
        self.proposal_where("reference = $1", &reference).await
    }

    async fn proposal_of(&self, id: i64) -> Result<Option<Vec<u8>>, StoreError> {
        self.proposal_where("id = $1", &id).await
    }

    async fn claim(&self, limit: usize, lease: Duration) -> Result<Vec<Due>, StoreError> {
        let client = self.client().await?;
        let now = now();
        let until = now + lease.as_secs() as i64;
        let query = format!(
            "UPDATE outbox o SET claimed_until = $2 FROM submissions s
             WHERE s.id = o.submission_id AND o.submission_id IN (
                 SELECT submission_id FROM outbox
                 WHERE delivered_at IS NULL AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
                 ORDER BY next_attempt_at, submission_id LIMIT $3 FOR UPDATE SKIP LOCKED)
             RETURNING {COLUMNS}, o.attempts, o.cms_file_id, o.next_attempt_at"
        );
        let rows = client.query(&query, &[&now, &until, &(limit as i64)]).await?;
        let mut due = rows
            .iter()
            .map(|row| {
                let due = Due {
                    submission: submission(row)?,
                    attempts: row.try_get::<_, i32>("attempts")? as u32,
                    cms_file_id: row.try_get("cms_file_id")?,
                };
                Ok((row.try_get::<_, i64>("next_attempt_at")?, due))
            })
            .collect::<Result<Vec<_>, tokio_postgres::Error>>()?;
        // RETURNING keeps no order: oldest first, as the entries were chosen.
        due.sort_by_key(|(at, due)| (*at, due.submission.id));
        Ok(due.into_iter().map(|(_, due)| due).collect())
    }

    /// An entry another instance is sending is due, for this one, when its lease ends.
    async fn next_due(&self) -> Result<Option<i64>, StoreError> {
        let client = self.client().await?;
        let query =
            "SELECT MIN(GREATEST(next_attempt_at, COALESCE(claimed_until, 0))) FROM outbox WHERE delivered_at IS NULL";
        Ok(client.query_one(query, &[]).await?.try_get(0)?)
    }

    async fn delivered(&self, id: i64) -> Result<(), StoreError> {
        let client = self.client().await?;
        let query =
            "UPDATE outbox SET delivered_at = $1, attempts = attempts + 1, last_error = NULL WHERE submission_id = $2";
        client.execute(query, &[&now(), &id]).await?;
        Ok(())
    }

    async fn failed(&self, id: i64, next_attempt_at: i64, error: String) -> Result<(), StoreError> {
        let client = self.client().await?;
        let query =
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2, claimed_until = NULL
                     WHERE submission_id = $3";
        client.execute(query, &[&next_attempt_at, &error, &id]).await?;
        Ok(())
    }

    async fn uploaded(&self, id: i64, file_id: i64) -> Result<(), StoreError> {
        let client = self.client().await?;
        client.execute("UPDATE outbox SET cms_file_id = $1 WHERE submission_id = $2", &[&file_id, &id]).await?;
        Ok(())
    }

    async fn backlog(&self) -> Result<Backlog, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "SELECT COUNT(*), MIN(s.received_at), MAX(o.attempts) FROM outbox o JOIN submissions s ON s.id = o.submission_id WHERE o.delivered_at IS NULL",
                &[],
            )
            .await?;
        let (pending, oldest, most): (i64, Option<i64>, Option<i32>) =
            (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        Ok(Backlog {
            pending: pending as u64,
            oldest_pending_secs: oldest.map(|t| (now() - t).max(0) as u64),
            most_attempts: most.unwrap_or(0) as u32,
        })
    }

    fn claims(&self) -> bool {
        true
    }
}

#[cfg(test)]
#[path = "../../../tests/support/postgres.rs"]
mod test_postgres;

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::store::tests::{BUSINESS_LEAD, contract};
    use super::test_postgres::Postgres;
    use super::*;

    /// A store on `postgres`, its tables made.
    async fn store(postgres: &Postgres) -> PostgresFormStore {
        let store = PostgresFormStore::open(postgres.url().parse().unwrap());
        store.migrate().await.unwrap();
        store
    }

    fn lead(key: String) -> NewSubmission {
        NewSubmission {
            idempotency_key: Some(key),
            lang: "en",
            fields: Fields::read(FormKind::BusinessCommunity, BUSINESS_LEAD).unwrap(),
            proposal: None,
            deliver: true,
        }
    }

    #[tokio::test]
    async fn keeps_and_delivers_as_every_store_must() {
        let Some(postgres) = Postgres::start() else { return };
        contract(&store(&postgres).await).await;
    }

    /// Instances starting at once migrate in turn, and a restart finds its
    /// tables made.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn instances_starting_at_once_each_find_the_tables_made() {
        let Some(postgres) = Postgres::start() else { return };
        let stores: Vec<PostgresFormStore> =
            (0..4).map(|_| PostgresFormStore::open(postgres.url().parse().unwrap())).collect();
        let migrations = stores.iter().map(|store| store.migrate());
        for migrated in futures::future::join_all(migrations).await {
            migrated.unwrap();
        }
        stores[3].keep(lead("a".into())).await.unwrap();
        assert_eq!(store(&postgres).await.all(FormKind::BusinessCommunity).await.unwrap().len(), 1);
    }

    /// Instances keeping one fill at once (a visitor's retry reaching
    /// another instance) keep it once, and all answer its one reference.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn one_idempotency_key_sent_to_every_instance_at_once_is_kept_once() {
        let Some(postgres) = Postgres::start() else { return };
        let first = store(&postgres).await;
        let stores: Vec<PostgresFormStore> =
            (0..4).map(|_| PostgresFormStore::open(postgres.url().parse().unwrap())).collect();
        for round in 0..10 {
            let keeping = stores.iter().map(|store| store.keep(lead(format!("fill-{round}"))));
            let kept = futures::future::join_all(keeping).await;
            let references: BTreeSet<String> = kept
                .iter()
                .map(|kept| match kept {
                    Ok(Receipt::New(reference) | Receipt::Replayed(reference)) => reference.clone(),
                    Err(error) => panic!("{error}"),
                })
                .collect();
            assert_eq!(references.len(), 1, "{kept:?}");
            assert_eq!(kept.iter().filter(|kept| matches!(kept, Ok(Receipt::New(_)))).count(), 1);
        }
        assert_eq!(first.all(FormKind::BusinessCommunity).await.unwrap().len(), 10);
    }

    /// Instances claiming at once each get entries no other got, and
    /// between them every entry; an entry whose claim lapsed (its instance
    /// died sending it) is claimed again.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn instances_claiming_at_once_never_claim_one_entry_twice() {
        const ENTRIES: usize = 60;
        let Some(postgres) = Postgres::start() else { return };
        let first = store(&postgres).await;
        for n in 0..ENTRIES {
            first.keep(lead(n.to_string())).await.unwrap();
        }
        let stores: Vec<PostgresFormStore> =
            (0..4).map(|_| PostgresFormStore::open(postgres.url().parse().unwrap())).collect();
        let lease = Duration::from_secs(120);
        let mut claimed = Vec::new();
        loop {
            let claims = futures::future::join_all(stores.iter().map(|store| store.claim(7, lease))).await;
            let round: Vec<i64> = claims.into_iter().flat_map(Result::unwrap).map(|due| due.submission.id).collect();
            if round.is_empty() {
                break;
            }
            claimed.extend(round);
        }
        let distinct: BTreeSet<i64> = claimed.iter().copied().collect();
        assert_eq!((claimed.len(), distinct.len()), (ENTRIES, ENTRIES), "each entry claimed once");

        // A claim of no time lapses at once: the entry is anyone's again.
        first.failed(claimed[0], now(), "CMS unreachable".into()).await.unwrap();
        assert_eq!(first.claim(10, Duration::ZERO).await.unwrap().len(), 1);
        assert_eq!(stores[0].claim(10, lease).await.unwrap().len(), 1, "its claim lapsed");
    }
}
