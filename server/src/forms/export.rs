//! Staff read the submissions without a CMS: `GET /api/forms/export?form=
//! <name>&format=csv|json` and `GET /api/forms/proposal?reference=<ref>`
//! (the proposal PDF), both with `Authorization: Bearer <FORMS_TOKEN>`.
//! Without `FORMS_TOKEN` neither exists (404). Refusals are the one API
//! body, with a notice saying why in English. A CSV cell that a
//! spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first)
//! is escaped with a leading `'`.

use axum::extract::{FromRef, FromRequestParts, Query, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use subtle::ConstantTimeEq;

use super::store::{Fields, Submission};
use super::{FormKind, Forms};
use crate::web::Reply;

#[derive(Deserialize)]
pub(super) struct ExportQuery {
    form: String,
    #[serde(default)]
    format: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct ProposalQuery {
    reference: String,
}

/// Staff, by the bearer token `FORMS_TOKEN`: a handler that takes it runs
/// only for them; anyone else gets the refusal.
pub(super) struct Staff;

impl<S: Send + Sync> FromRequestParts<S> for Staff
where
    Forms: FromRef<S>,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Staff, Response> {
        let forms = Forms::from_ref(state);
        let Some(token) = &forms.token else {
            return Err(Reply::refused_text(StatusCode::NOT_FOUND, "no export: FORMS_TOKEN is not set").into_response());
        };
        let given = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        if bool::from(given.as_bytes().ct_eq(token.expose().as_bytes())) && !given.is_empty() {
            return Ok(Staff);
        }
        tracing::warn!("form export refused: wrong or missing token");
        Err((
            [(header::WWW_AUTHENTICATE, "Bearer")],
            Reply::refused_text(StatusCode::UNAUTHORIZED, "wrong or missing bearer token"),
        )
            .into_response())
    }
}

/// The store could not be read: try again shortly.
fn unavailable(error: &super::StoreError, what: &str) -> Response {
    tracing::error!(%error, "{what} failed");
    Reply::refused_text(StatusCode::SERVICE_UNAVAILABLE, "the forms store cannot be read just now").into_response()
}

fn private(mut response: Response) -> Response {
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `GET /api/forms/export?form=<name>&format=csv|json` (JSON by default).
pub(super) async fn export(
    _: Staff,
    State(forms): State<Forms>,
    Query(query): Query<ExportQuery>,
) -> Result<Response, Response> {
    let kind = FormKind::parse(&query.form).ok_or_else(|| {
        Reply::refused_text(StatusCode::BAD_REQUEST, "form must be business-community or foundation-application")
            .into_response()
    })?;
    let submissions = forms.store.all(kind).await.map_err(|error| unavailable(&error, "form export"))?;
    let records: Vec<Record> = submissions.iter().map(record).collect();
    let (body, content_type, extension) = match query.format.as_deref().unwrap_or("json") {
        "json" => (serde_json::to_string_pretty(&records).expect("JSON"), "application/json", "json"),
        "csv" => {
            let trees: Vec<Value> = records.iter().map(|record| serde_json::to_value(record).expect("JSON")).collect();
            (csv(&trees), "text/csv; charset=utf-8", "csv")
        }
        _ => return Err(Reply::refused_text(StatusCode::BAD_REQUEST, "format must be csv or json").into_response()),
    };
    let disposition = format!("attachment; filename=\"{}.{extension}\"", kind.name());
    Ok(private(
        ([(header::CONTENT_TYPE, content_type.to_owned()), (header::CONTENT_DISPOSITION, disposition)], body)
            .into_response(),
    ))
}

/// `GET /api/forms/proposal?reference=<ref>`: the PDF sent with an application.
pub(super) async fn proposal(
    _: Staff,
    State(forms): State<Forms>,
    Query(query): Query<ProposalQuery>,
) -> Result<Response, Response> {
    let reference = query.reference;
    let safe = reference.len() <= 16 && reference.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    match forms.store.proposal(reference.clone()).await.map_err(|error| unavailable(&error, "proposal read"))? {
        Some(bytes) if safe => {
            let disposition = format!("attachment; filename=\"{reference}.pdf\"");
            Ok(private(
                (
                    [(header::CONTENT_TYPE, "application/pdf".to_owned()), (header::CONTENT_DISPOSITION, disposition)],
                    bytes,
                )
                    .into_response(),
            ))
        }
        _ => Err(Reply::refused_text(StatusCode::NOT_FOUND, "no proposal with this reference").into_response()),
    }
}

/// A submission as staff read it (and the CMS is sent it): reference,
/// when, language, then the form's fields.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Record<'a> {
    reference: &'a str,
    received_at: String,
    lang: &'a str,
    #[serde(flatten)]
    fields: Option<&'a Fields>,
}

pub(super) fn record(submission: &Submission) -> Record<'_> {
    Record {
        reference: &submission.reference,
        received_at: rfc3339(submission.received_at),
        lang: &submission.lang,
        fields: submission.fields.as_ref(),
    }
}

/// `2026-05-04T10:30:00Z` from Unix seconds (days to civil date: H. Hinnant).
fn rfc3339(seconds: i64) -> String {
    let (days, secs) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs % 3600 / 60, secs % 60)
}

/// One row per record (each as its JSON), one column per field
/// (`organisation.name`); a list of rows (applicants, budget lines) is one
/// cell, a line per row.
fn csv(records: &[Value]) -> String {
    let rows: Vec<Vec<(String, String)>> = records
        .iter()
        .map(|record| {
            let mut cells = Vec::new();
            flatten("", record, &mut cells);
            cells
        })
        .collect();
    let mut columns: Vec<String> = Vec::new();
    for (column, _) in rows.iter().flatten() {
        if !columns.contains(column) {
            columns.push(column.clone());
        }
    }
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&columns).expect("CSV to memory");
    for row in &rows {
        let cells = columns
            .iter()
            .map(|column| row.iter().find(|(c, _)| c == column).map_or(String::new(), |(_, text)| defuse(text)));
        writer.write_record(cells).expect("CSV to memory");
    }
    String::from_utf8(writer.into_inner().expect("CSV to memory")).expect("UTF-8 in, UTF-8 out")
}

fn flatten(prefix: &str, value: &Value, cells: &mut Vec<(String, String)>) {
    match value {
        Value::Object(fields) => {
            for (name, field) in fields {
                let path = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
                flatten(&path, field, cells);
            }
        }
        other => cells.push((prefix.to_owned(), text(other))),
    }
}

fn text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Array(items) if items.iter().all(|item| !item.is_object()) => {
            items.iter().map(text).collect::<Vec<_>>().join("; ")
        }
        Value::Array(rows) => rows
            .iter()
            .map(|row| match row {
                Value::Object(fields) => {
                    fields.iter().map(|(name, field)| format!("{name}: {}", text(field))).collect::<Vec<_>>().join(", ")
                }
                other => text(other),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

/// A cell a spreadsheet would take for a formula, made plain text (OWASP CSV injection).
fn defuse(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{cell}") } else { cell.to_owned() }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The record is the reference, date and language, then the fields as
    /// they were kept; a record whose fields do not read, the first three.
    #[test]
    fn a_record_is_its_reference_date_and_language_then_its_fields_as_kept() {
        use super::super::FormKind;
        use super::super::store::tests::BUSINESS_LEAD;
        let submission = Submission {
            id: 1,
            reference: "BC-1".into(),
            form: "business-community".into(),
            lang: "sw".into(),
            received_at: 0,
            fields: Some(Fields::read(FormKind::BusinessCommunity, BUSINESS_LEAD).unwrap()),
            has_proposal: false,
        };
        let head = r#"{"reference":"BC-1","receivedAt":"1970-01-01T00:00:00Z","lang":"sw""#;
        assert_eq!(serde_json::to_string(&record(&submission)).unwrap(), format!("{head},{}", &BUSINESS_LEAD[1..]));
        let unread = Submission { fields: None, ..submission };
        assert_eq!(serde_json::to_string(&record(&unread)).unwrap(), format!("{head}}}"));
    }

    #[test]
    fn dates_are_utc_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1_709_210_096), "2024-02-29T12:34:56Z");
    }

    #[test]
    fn formulas_are_defused_and_rows_flattened() {
        let records = vec![json!({
            "reference": "BC-1", "name": "=HYPERLINK(\"http://x\")", "industry": "-2+3", "email": "@me", "plain": "Mwanza",
            "services": ["iot", "hosting"], "organisation": { "name": "+255" },
            "budget": [{ "item": "Boat", "amountTzs": 5 }, { "item": "Fuel", "amountTzs": 3 }]
        })];
        let text = csv(&records);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let headers: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
        let row: Vec<String> = reader.records().next().unwrap().unwrap().iter().map(str::to_owned).collect();
        let cell = |name: &str| row[headers.iter().position(|h| h == name).unwrap()].clone();
        assert_eq!(cell("name"), "'=HYPERLINK(\"http://x\")");
        assert_eq!(cell("industry"), "'-2+3");
        assert_eq!(cell("email"), "'@me");
        assert_eq!(cell("organisation.name"), "'+255");
        assert_eq!(cell("plain"), "Mwanza");
        assert_eq!(cell("services"), "iot; hosting");
        assert_eq!(cell("budget"), "item: Boat, amountTzs: 5\nitem: Fuel, amountTzs: 3");
    }
}
