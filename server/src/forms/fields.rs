//! Reading a submitted form, field by field, into typed values: every
//! problem is kept under the field's path (`email`, `applicants[1].phone`,
//! `budget[0].amountTzs`) as a [`Problem`], which the app words in the
//! visitor's language (`forms.problems` in `app/src/i18n`).
//! Text is trimmed, stripped of control characters, NFC-normalised and
//! limited in length, so nothing past this module re-checks a string.

use std::collections::BTreeMap;

pub use contract::feedback::Problem;
use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

use crate::msisdn::Msisdn;

/// Every problem of a submission, by field path.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Problems(BTreeMap<String, Problem>);

impl Problems {
    pub fn add(&mut self, path: impl Into<String>, problem: Problem) {
        self.0.entry(path.into()).or_insert(problem);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, path: &str) -> Option<Problem> {
        self.0.get(path).copied()
    }

    /// The problems by path: the 422 body's and the page's.
    pub fn by_field(&self) -> BTreeMap<String, Problem> {
        self.0.clone()
    }
}

/// The longest each kind of text field may be, in characters (the app's
/// `maxLength`s are the same numbers, generated).
pub use contract::protocol::field_lengths::{AMOUNT, COUNT, EMAIL, LINE, LONG, SHORT};

/// Reads fields of one JSON object, noting problems under `prefix`.
pub struct Reader<'a> {
    object: Option<&'a serde_json::Map<String, Value>>,
    prefix: String,
    problems: &'a mut Problems,
}

impl<'a> Reader<'a> {
    pub fn new(value: &'a Value, problems: &'a mut Problems) -> Reader<'a> {
        Reader { object: value.as_object(), prefix: String::new(), problems }
    }

    /// The path of `field` in this object.
    pub fn path(&self, field: &str) -> String {
        format!("{}{field}", self.prefix)
    }

    /// A reader of the object under `field` (`organisation.name`).
    pub fn nested<T>(&mut self, field: &str, read: impl FnOnce(&mut Reader<'_>) -> T) -> T {
        let value = self.object.and_then(|o| o.get(field)).unwrap_or(&Value::Null);
        let prefix = format!("{}{field}.", self.prefix);
        let mut reader = Reader { object: value.as_object(), prefix, problems: &mut *self.problems };
        read(&mut reader)
    }

    /// Rows of the list under `field`, each read by `read`; rows left wholly
    /// blank are skipped, keeping the others' positions (their fields' paths
    /// are the form's input names). At most `max` rows are read.
    pub fn rows<T>(&mut self, field: &str, max: usize, mut read: impl FnMut(&mut Reader<'_>) -> Option<T>) -> Vec<T> {
        let rows = match self.object.and_then(|o| o.get(field)) {
            Some(Value::Array(rows)) => rows.as_slice(),
            _ => &[],
        };
        let filled: Vec<(usize, &Value)> = rows.iter().enumerate().filter(|(_, row)| !is_blank(row)).collect();
        if filled.len() > max {
            self.problems.add(self.path(field), Problem::TooManyRows { max: count_of(max) });
            return Vec::new();
        }
        let mut read_rows = Vec::new();
        for (index, row) in filled {
            let prefix = format!("{}{field}[{index}].", self.prefix);
            let mut reader = Reader { object: row.as_object(), prefix, problems: &mut *self.problems };
            read_rows.extend(read(&mut reader));
        }
        read_rows
    }

    pub fn problem(&mut self, field: &str, problem: Problem) {
        let path = self.path(field);
        self.problems.add(path, problem);
    }

    /// The field as typed: a string, a number written out, or nothing.
    fn raw(&self, field: &str) -> Option<String> {
        match self.object?.get(field)? {
            Value::String(text) => Some(text.clone()),
            Value::Number(number) => Some(number.to_string()),
            Value::Array(items) => items.iter().find_map(Value::as_str).map(str::to_owned),
            _ => None,
        }
    }

    /// Trimmed, cleaned text, `None` when blank; too long is a problem.
    fn clean(&mut self, field: &str, max: usize, multiline: bool) -> Result<Option<String>, ()> {
        let Some(raw) = self.raw(field) else { return Ok(None) };
        let text = clean_text(&raw, multiline);
        if text.is_empty() {
            return Ok(None);
        }
        if text.chars().count() > max {
            self.problem(field, Problem::TooLong { max: count_of(max) });
            return Err(());
        }
        Ok(Some(text))
    }

    /// A required line of text.
    pub fn text(&mut self, field: &str, max: usize) -> Option<String> {
        self.required(field, |reader| reader.clean(field, max, false))
    }

    /// A required text of several lines.
    pub fn paragraphs(&mut self, field: &str, max: usize) -> Option<String> {
        self.required(field, |reader| reader.clean(field, max, true))
    }

    /// An optional line of text.
    pub fn optional_text(&mut self, field: &str, max: usize) -> Option<String> {
        self.clean(field, max, false).ok().flatten()
    }

    pub fn email(&mut self, field: &str) -> Option<String> {
        let text = self.text(field, EMAIL)?;
        match text.parse::<email_address::EmailAddress>() {
            // A domain with a dot: `name@localhost` reaches nobody who filled in a form.
            Ok(address) if address.domain().contains('.') && !address.domain().starts_with('[') => {
                Some(address.to_string())
            }
            _ => {
                self.problem(field, Problem::Email);
                None
            }
        }
    }

    pub fn phone(&mut self, field: &str) -> Option<Msisdn> {
        let text = self.text(field, SHORT)?;
        self.parse_phone(field, &text)
    }

    pub fn optional_phone(&mut self, field: &str) -> Option<Msisdn> {
        let text = self.optional_text(field, SHORT)?;
        self.parse_phone(field, &text)
    }

    fn parse_phone(&mut self, field: &str, text: &str) -> Option<Msisdn> {
        match Msisdn::parse(text) {
            Ok(number) => Some(number),
            Err(_) => {
                self.problem(field, Problem::Phone);
                None
            }
        }
    }

    /// One of `choices` (their codes).
    pub fn choice<T: Copy>(&mut self, field: &str, choices: &[(&str, T)]) -> Option<T> {
        let text = self.text(field, SHORT)?;
        match choices.iter().find(|(code, _)| *code == text) {
            Some((_, choice)) => Some(*choice),
            None => {
                self.problem(field, Problem::Choice);
                None
            }
        }
    }

    /// Every value of a multiple choice (`services`), each among `allowed`,
    /// once each, in the order of `allowed`.
    pub fn choices(&mut self, field: &str, allowed: &[String]) -> Vec<String> {
        let given: Vec<String> = match self.object.and_then(|o| o.get(field)) {
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(|s| s.trim().to_owned()).collect(),
            Some(Value::String(one)) => vec![one.trim().to_owned()],
            _ => Vec::new(),
        };
        let given: Vec<String> = given.into_iter().filter(|s| !s.is_empty()).collect();
        if given.iter().any(|value| !allowed.contains(value)) {
            self.problem(field, Problem::Choice);
            return Vec::new();
        }
        allowed.iter().filter(|value| given.contains(value)).cloned().collect()
    }

    /// A calendar date, `YYYY-MM-DD`.
    pub fn date(&mut self, field: &str) -> Option<Date> {
        let text = self.text(field, SHORT)?;
        match Date::parse(&text) {
            Some(date) => Some(date),
            None => {
                self.problem(field, Problem::Date);
                None
            }
        }
    }

    /// A whole amount of shillings, more than 0: `1500000`, `1,500,000` or `1 500 000`.
    pub fn amount(&mut self, field: &str) -> Option<u64> {
        let text = self.text(field, AMOUNT)?;
        match parse_whole(&text).filter(|n| (1..=MAX_AMOUNT).contains(n)) {
            Some(amount) => Some(amount),
            None => {
                self.problem(field, Problem::Amount);
                None
            }
        }
    }

    /// A whole number from `min` to `max` (at most [`COUNT`] characters).
    pub fn count(&mut self, field: &str, min: u32, max: u32) -> Option<u64> {
        let text = self.text(field, COUNT)?;
        match parse_whole(&text).filter(|n| (u64::from(min)..=u64::from(max)).contains(n)) {
            Some(count) => Some(count),
            None => {
                self.problem(field, Problem::Count { min, max });
                None
            }
        }
    }

    fn required(&mut self, field: &str, read: impl FnOnce(&mut Self) -> Result<Option<String>, ()>) -> Option<String> {
        match read(self) {
            Ok(Some(text)) => Some(text),
            Ok(None) => {
                self.problem(field, Problem::Required);
                None
            }
            Err(()) => None,
        }
    }
}

/// A limit as a problem names it.
fn count_of(limit: usize) -> u32 {
    u32::try_from(limit).unwrap_or(u32::MAX)
}

/// A trillion shillings: more than any budget line, far below `u64` sums.
const MAX_AMOUNT: u64 = 1_000_000_000_000;

fn parse_whole(text: &str) -> Option<u64> {
    let digits: String = text.chars().filter(|c| !matches!(c, ',' | ' ' | '_' | '\u{a0}')).collect();
    if digits.is_empty() || digits.len() > 15 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Trims, drops control characters (a newline stays in `multiline` text,
/// as `\n`), and normalises to NFC so one letter is one character.
pub fn clean_text(raw: &str, multiline: bool) -> String {
    let unified = raw.replace("\r\n", "\n").replace('\r', "\n");
    let kept: String = unified
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .filter(|c| !c.is_control() || (multiline && *c == '\n'))
        .collect();
    kept.nfc().collect::<String>().trim().to_owned()
}

/// A row with no field filled in (an empty applicant or budget line of the long form).
fn is_blank(row: &Value) -> bool {
    match row {
        Value::Null => true,
        Value::String(text) => text.trim().is_empty(),
        Value::Object(fields) => fields.values().all(is_blank),
        Value::Array(items) => items.iter().all(is_blank),
        _ => false,
    }
}

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

impl Date {
    pub fn parse(text: &str) -> Option<Date> {
        let mut parts = text.split('-');
        let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || year.len() != 4 || month.len() != 2 || day.len() != 2 {
            return None;
        }
        let (year, month, day): (u16, u8, u8) = (year.parse().ok()?, month.parse().ok()?, day.parse().ok()?);
        // A real day of the calendar, by `time`'s rule (leap years included).
        time::Date::from_calendar_date(i32::from(year), time::Month::try_from(month).ok()?, day).ok()?;
        (2000..=2100).contains(&year).then_some(Date { year, month, day })
    }
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl serde::Serialize for Date {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// `YYYY-MM-DD`, read as typed ([`Date::parse`]).
impl<'de> serde::Deserialize<'de> for Date {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Date, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(deserializer)?;
        Date::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not a date")))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn text_is_trimmed_cleaned_and_limited() {
        assert_eq!(clean_text("  Amina\u{7}  Mwakyusa\t", false), "Amina  Mwakyusa");
        assert_eq!(clean_text(" one\r\ntwo \n", true), "one\ntwo");
        assert_eq!(clean_text("one\ntwo", false), "onetwo");
        assert_eq!(clean_text("Cafe\u{301}", false), "Café");
        let mut problems = Problems::default();
        let value = json!({ "name": "x".repeat(101), "blank": "   " });
        let mut reader = Reader::new(&value, &mut problems);
        assert_eq!(reader.text("name", SHORT), None);
        assert_eq!(reader.text("blank", SHORT), None);
        assert_eq!(reader.optional_text("missing", SHORT), None);
        assert_eq!(problems.get("name"), Some(Problem::TooLong { max: 100 }));
        assert_eq!(problems.get("blank"), Some(Problem::Required));
        assert_eq!(problems.get("missing"), None);
    }

    #[test]
    fn the_largest_amount_and_count_fit_the_fields_typed_lengths() {
        let mut problems = Problems::default();
        let value = json!({ "most": "1,000,000,000,000", "over": "1,000,000,000,000,000", "team": "100000" });
        let mut reader = Reader::new(&value, &mut problems);
        assert!("1,000,000,000,000".len() <= AMOUNT);
        assert_eq!(reader.amount("most"), Some(MAX_AMOUNT));
        assert_eq!(reader.amount("over"), None);
        assert_eq!(reader.count("team", 1, 100_000), Some(100_000));
        assert_eq!(problems.get("over"), Some(Problem::TooLong { max: count_of(AMOUNT) }));
    }

    #[test]
    fn emails_need_a_real_domain() {
        for (input, ok) in [
            ("amina@example.co.tz", true),
            (" a.b+c@mail.example.com ", true),
            ("amina@localhost", false),
            ("amina", false),
            ("a@@b.c", false),
            ("a@[127.0.0.1]", false),
        ] {
            let mut problems = Problems::default();
            let value = json!({ "email": input });
            let read = Reader::new(&value, &mut problems).email("email");
            assert_eq!(read.is_some(), ok, "{input}");
        }
    }

    #[test]
    fn dates_amounts_and_counts() {
        assert_eq!(Date::parse("2026-02-29"), None);
        assert_eq!(Date::parse("2028-02-29").map(|d| d.to_string()), Some("2028-02-29".into()));
        for bad in ["2026-13-01", "26-01-01", "2026-1-01", "2026-01-01-01", "tomorrow", "1999-12-31"] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
        assert!(Date::parse("2026-01-31") < Date::parse("2026-02-01"));
        assert_eq!(parse_whole("1,500,000"), Some(1_500_000));
        assert_eq!(parse_whole("1 500 000"), Some(1_500_000));
        for bad in ["1.5", "-3", "", "1e6", "٣"] {
            assert_eq!(parse_whole(bad), None, "{bad}");
        }
    }

    #[test]
    fn blank_rows_are_skipped_and_keep_the_others_positions() {
        let mut problems = Problems::default();
        let value = json!({ "rows": [ { "a": "x" }, { "a": " ", "b": "" }, { "a": "" , "b": "y" } ] });
        let rows = Reader::new(&value, &mut problems).rows("rows", 5, |row| row.text("a", SHORT));
        assert_eq!(rows, vec!["x".to_owned()]);
        assert_eq!(problems.by_field().keys().collect::<Vec<_>>(), vec!["rows[2].a"]);
    }
}
