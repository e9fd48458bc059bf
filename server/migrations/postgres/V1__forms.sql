-- The forms' submissions and their outbox, as `forms/store_sqlite.rs` keeps
-- them in SQLite. `data` is the JSON text the form's type wrote (not jsonb,
-- which would reorder its keys): it is read back and written again as it was.
CREATE TABLE submissions (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reference       TEXT NOT NULL UNIQUE,
    form            TEXT NOT NULL,
    idempotency_key TEXT,
    lang            TEXT NOT NULL,
    received_at     BIGINT NOT NULL,
    data            TEXT NOT NULL,
    proposal        BYTEA,
    UNIQUE (form, idempotency_key)
);

-- `claimed_until`: the instance that claimed an entry to send it holds it
-- until then (Unix seconds), or until it records a failure.
CREATE TABLE outbox (
    submission_id   BIGINT PRIMARY KEY REFERENCES submissions (id),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claimed_until   BIGINT,
    delivered_at    BIGINT,
    last_error      TEXT,
    cms_file_id     BIGINT
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE delivered_at IS NULL;
