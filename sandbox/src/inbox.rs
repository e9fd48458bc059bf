//! What only the sandbox has. `GET /inbox` is its SMS: the codes it would
//! have sent, as JSON for tests (`?msisdn=…`, optionally `&purpose=…`) and as
//! a page for people. `POST /fail-next` makes the next call of the contract
//! fail as asked, or answer late, so that every error branch of the site can
//! be tested.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
// Text as HTML, escaped as the site escapes it (`web::strings::escape_text`): `&<>"'`.
use html_escape::encode_quoted_attribute as escape;
use rusqlite::{OptionalExtension, params};
use serde::Deserialize;
use serde_json::{Value, json};

use super::domain::{Msisdn, Purpose};
use super::reply::{self, ApiError, Text};
use super::{Sandbox, rfc3339};

/// How many messages the page shows.
const PAGE_MESSAGES: i64 = 50;

#[derive(Deserialize)]
pub(super) struct InboxQuery {
    msisdn: Option<String>,
    purpose: Option<String>,
}

struct Sms {
    recipient: String,
    about: String,
    purpose: String,
    code: String,
    sent_at: i64,
    text: Text,
}

impl Sms {
    fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Sms> {
        Ok(Sms {
            recipient: row.get(0)?,
            about: row.get(1)?,
            purpose: row.get(2)?,
            code: row.get(3)?,
            sent_at: row.get(4)?,
            text: Text::owned(row.get(5)?, row.get(6)?),
        })
    }
}

const SMS_COLUMNS: &str = "recipient, about, purpose, code, sent_at, text_en, text_sw";

pub(super) async fn inbox(State(sandbox): State<Sandbox>, Query(query): Query<InboxQuery>) -> Response {
    let answer = match query.msisdn {
        Some(msisdn) => latest_code(&sandbox, &msisdn, query.purpose.as_deref()).await.map(IntoResponse::into_response),
        None => page(&sandbox).await,
    };
    let mut response = answer.into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `{ msisdn, code, sentAt, purpose, about, text }` of the latest code sent
/// to `msisdn` (`about` is the number the code opens: for a modem's code
/// sent to its alternative number, the modem).
async fn latest_code(sandbox: &Sandbox, msisdn: &str, purpose: Option<&str>) -> Result<Json<Value>, ApiError> {
    let msisdn = Msisdn::parse(msisdn)?;
    let purpose = match purpose {
        None => None,
        Some(name) => Some(Purpose::parse(name).ok_or_else(|| {
            ApiError::bad_request(Text::new(
                "The purpose is sign-in, modem, cpm or modem-registration.",
                "Madhumuni ni sign-in, modem, cpm au modem-registration.",
            ))
        })?),
    };
    let sms = sandbox
        .db(move |db| {
            db.query_row(
                &format!(
                    "SELECT {SMS_COLUMNS} FROM inbox WHERE recipient = ?1 AND (?2 IS NULL OR purpose = ?2)
                     ORDER BY id DESC LIMIT 1"
                ),
                params![msisdn, purpose],
                Sms::from_row,
            )
            .optional()
            .map_err(ApiError::from)
        })
        .await?;
    let sms = sms.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            Text::new("No code has been sent to this number.", "Hakuna msimbo uliotumwa kwa namba hii."),
        )
    })?;
    Ok(Json(json!({
        "msisdn": sms.recipient,
        "code": sms.code,
        "sentAt": rfc3339(sms.sent_at),
        "purpose": sms.purpose,
        "about": sms.about,
        "text": sms.text,
    })))
}

/// The latest codes, newest first: a plain page with no script that
/// reloads itself every few seconds.
async fn page(sandbox: &Sandbox) -> Result<Response, ApiError> {
    let messages = sandbox
        .db(|db| -> Result<Vec<Sms>, ApiError> {
            let mut query = db.prepare(&format!("SELECT {SMS_COLUMNS} FROM inbox ORDER BY id DESC LIMIT ?1"))?;
            let rows = query.query_map([PAGE_MESSAGES], Sms::from_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await?;
    let rows: String = messages
        .iter()
        .map(|sms| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"code\">{}</td><td>{}</td></tr>",
                escape(&rfc3339(sms.sent_at)),
                escape(&sms.recipient),
                escape(&sms.about),
                escape(&sms.purpose),
                escape(&sms.code),
                escape(&sms.text.en),
            )
        })
        .collect();
    let table = if messages.is_empty() {
        "<p>No code has been sent yet.</p>".to_owned()
    } else {
        format!(
            "<table><thead><tr><th>Sent (UTC)</th><th>To</th><th>Opens</th><th>Purpose</th><th>Code</th><th>Message</th></tr></thead>\
             <tbody>{rows}</tbody></table>"
        )
    };
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><meta http-equiv=\"refresh\" content=\"5\">\
         <title>Sandbox inbox</title><style>\
         body{{font-family:system-ui,sans-serif;margin:2rem auto;max-width:56rem;padding:0 1rem}}\
         table{{border-collapse:collapse;width:100%}}th,td{{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}}\
         .code{{font-family:monospace;font-size:1.3rem;letter-spacing:.1em}}</style></head><body>\
         <h1>Sandbox inbox</h1><p>The sandbox sends no SMS. The codes it would have sent are listed here, newest \
         first; a modem's sign-in code goes to its alternative number, and a code to register an alternative number goes \
         to the modem. This page reloads every 5 seconds.</p>{table}</body></html>"
    );
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FailNextBody {
    /// The answer's status; absent: the call's own answer (with `delayMs`).
    status: Option<u16>,
    path: Option<String>,
    body: Option<Value>,
    /// The answer is held back this long (at most a minute): a call whose
    /// answer comes after the caller stopped waiting.
    #[serde(default)]
    delay_ms: u32,
}

/// The longest `delayMs`.
const MAX_DELAY_MS: u32 = 60_000;

/// The contract's path of a call (`api/v1/…`, `alternative-number`): also
/// accepted with a leading `/`, `/sandbox/digital/` or `/digital/`.
fn contract_path(path: &str) -> &str {
    let path = path.trim_matches('/');
    let path = path.strip_prefix("sandbox/").unwrap_or(path);
    path.strip_prefix("digital/").unwrap_or(path).trim_end_matches('/')
}

/// `POST /fail-next`: arms the switch (replacing an armed one); it is kept
/// in the database like everything else.
pub(super) async fn arm_fail_next(State(sandbox): State<Sandbox>, body: Bytes) -> Result<Json<Value>, ApiError> {
    let FailNextBody { status, path, body, delay_ms } = reply::parse_body(&body)?;
    let status = match status {
        Some(status) if (200..=599).contains(&status) => status,
        None if delay_ms > 0 => 0,
        _ => {
            return Err(ApiError::bad_request(Text::new(
                "The status must be between 200 and 599 (or absent with a delayMs).",
                "Hali (status) lazima iwe kati ya 200 na 599 (au isiwepo pamoja na delayMs).",
            )));
        }
    };
    if delay_ms > MAX_DELAY_MS {
        return Err(ApiError::bad_request(Text::new("The delayMs must be at most 60000.", "delayMs isizidi 60000.")));
    }
    let path = path.as_deref().map(contract_path).filter(|p| !p.is_empty()).map(str::to_owned);
    let body = body.unwrap_or_else(|| {
        json!({ "message": Text::new(
            "The sandbox failed this call on purpose (fail-next).",
            "Mazingira ya majaribio yameshindisha ombi hili kwa makusudi (fail-next).",
        ) })
    });
    let armed = json!({ "status": status, "path": path, "body": body, "delayMs": delay_ms });
    sandbox
        .db(move |db| {
            db.execute(
                "INSERT OR REPLACE INTO fail_next (id, path, status, body, delay_ms) VALUES (1, ?1, ?2, ?3, ?4)",
                params![path, status, body.to_string(), delay_ms],
            )
            .map_err(ApiError::from)
        })
        .await?;
    Ok(reply::data(armed))
}

/// Layer of the contract's routes: when the switch is armed for this call's
/// path (or for any), it is cleared and its answer given instead, or the
/// call's own answer (the call done, its money moved) held back its delay.
pub(super) async fn fail_next(State(sandbox): State<Sandbox>, request: Request, next: Next) -> Response {
    let path = contract_path(request.uri().path()).to_owned();
    let armed = sandbox
        .db(move |db| {
            db.query_row(
                "DELETE FROM fail_next WHERE id = 1 AND (path IS NULL OR path = ?1) RETURNING status, body, delay_ms",
                [path],
                |row| Ok((row.get::<_, u16>(0)?, row.get::<_, String>(1)?, row.get::<_, u32>(2)?)),
            )
            .optional()
            .map_err(ApiError::from)
        })
        .await;
    let (status, body, delay) = match armed {
        Ok(None) => return next.run(request).await,
        Ok(Some(armed)) => armed,
        Err(error) => return error.into_response(),
    };
    let response = match status {
        0 => next.run(request).await,
        status => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            (status, Json(body)).into_response()
        }
    };
    tokio::time::sleep(std::time::Duration::from_millis(delay.into())).await;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_paths_are_compared_without_prefixes_or_slashes() {
        for path in [
            "api/v1/gsm-static-bundles/purchase",
            "/api/v1/gsm-static-bundles/purchase",
            "/sandbox/digital/api/v1/gsm-static-bundles/purchase",
            "digital/api/v1/gsm-static-bundles/purchase/",
        ] {
            assert_eq!(contract_path(path), "api/v1/gsm-static-bundles/purchase", "{path}");
        }
        assert_eq!(contract_path("/alternative-number/"), "alternative-number");
    }

    #[test]
    fn escape_covers_html_specials() {
        assert_eq!(escape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;");
    }
}
