//! `cpm/permissions…`: what a subscriber allows the operator to do with
//! their data, read and changed with a `cpm-bearer` token. The definitions
//! are in `seed`; the database keeps each subscriber's granted flags.

use std::collections::HashMap;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use rusqlite::params;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Sandbox;
use super::reply::{self, ApiError, Text};
use super::seed::{self, PERMISSIONS};
use super::session::CpmSession;

pub(super) async fn permissions(State(sandbox): State<Sandbox>, session: CpmSession) -> Result<Json<Value>, ApiError> {
    let granted: HashMap<String, bool> = sandbox
        .db(move |db| -> Result<_, ApiError> {
            let mut query = db.prepare("SELECT permission_id, granted FROM permission_grant WHERE msisdn = ?1")?;
            let rows = query.query_map([&session.msisdn], |row| Ok((row.get(0)?, row.get(1)?)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await?;
    let permissions: Vec<Value> = PERMISSIONS
        .iter()
        .map(|permission| {
            json!({
                "id": permission.id,
                "name": permission.name,
                "description": permission.description,
                "granted": granted.get(permission.id).copied().unwrap_or(permission.granted_by_default),
            })
        })
        .collect();
    Ok(reply::data(permissions))
}

#[derive(Deserialize)]
struct GrantBody {
    granted: bool,
}

pub(super) async fn update_permission(
    State(sandbox): State<Sandbox>,
    session: CpmSession,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let permission = seed::permission(&id).ok_or_else(|| {
        ApiError::new(StatusCode::NOT_FOUND, Text::new("This permission does not exist.", "Ruhusa hii haipo."))
    })?;
    let GrantBody { granted } = reply::parse_body(&body)?;
    sandbox
        .db(move |db| {
            db.execute(
                "INSERT INTO permission_grant (msisdn, permission_id, granted) VALUES (?1, ?2, ?3)
                 ON CONFLICT (msisdn, permission_id) DO UPDATE SET granted = excluded.granted",
                params![session.msisdn, permission.id, granted],
            )
            .map_err(ApiError::from)
        })
        .await?;
    Ok(reply::data(json!({ "id": permission.id, "granted": granted })))
}
