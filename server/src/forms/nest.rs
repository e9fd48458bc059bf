//! Flat input names as nested JSON: `applicants[1].email=a@b` is
//! `{"applicants": [null, {"email": "a@b"}]}`, and a name sent more than
//! once (checkboxes) is a list of its values. A form posted without
//! JavaScript arrives flat; the page's script nests its fields by the same
//! rule (`app/src/features/forms/send.ts`) before it sends them, and both
//! are checked against `tests/twins/form-fields.json`.

use serde_json::{Map, Value};

/// The highest row a flat input name may address, plus one
/// (`budget[63].item`): a name cannot make the server build a huge list.
const MAX_ROW: usize = 64;

/// One step of an input name: a field, or a row of a list.
enum Step<'a> {
    Field(&'a str),
    Row(usize),
}

/// `applicants[1].email` as its steps; `None` for a name that is not one.
fn steps(name: &str) -> Option<Vec<Step<'_>>> {
    let mut steps = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            // Digits only: `parse` would also take `+1`, which no form writes.
            let digits = &after[..end];
            let row: usize = digits
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| digits.parse().ok())
                .flatten()
                .filter(|row| *row < MAX_ROW)?;
            steps.push(Step::Row(row));
            rest = after[end + 1..].strip_prefix('.').unwrap_or(&after[end + 1..]);
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            steps.push(Step::Field(&rest[..end]));
            rest = rest[end..].strip_prefix('.').unwrap_or(&rest[end..]);
        }
    }
    matches!(steps.first(), Some(Step::Field(_))).then_some(steps)
}

/// Flat pairs as nested JSON; a name that is no path is left out, and a
/// step that finds the other kind of value in its place replaces it.
pub fn nest(pairs: &[(String, String)]) -> Value {
    let mut root = Value::Object(Map::new());
    for (name, text) in pairs {
        let Some(steps) = steps(name) else { continue };
        let mut slot = &mut root;
        for step in &steps {
            slot = match step {
                Step::Field(field) => {
                    if !slot.is_object() {
                        *slot = Value::Object(Map::new());
                    }
                    slot.as_object_mut().expect("object").entry(*field).or_insert(Value::Null)
                }
                Step::Row(row) => {
                    if !slot.is_array() {
                        *slot = Value::Array(Vec::new());
                    }
                    let rows = slot.as_array_mut().expect("array");
                    if rows.len() <= *row {
                        rows.resize(*row + 1, Value::Null);
                    }
                    &mut rows[*row]
                }
            };
        }
        *slot = match slot.take() {
            Value::Null => Value::String(text.clone()),
            Value::Array(mut values) => {
                values.push(Value::String(text.clone()));
                Value::Array(values)
            }
            earlier => Value::Array(vec![earlier, Value::String(text.clone())]),
        };
    }
    root
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn flat_names_nest_into_the_scripts_shape() {
        let value = nest(&pairs(&[
            ("name", "Amina"),
            ("services", "iot"),
            ("services", "hosting"),
            ("applicants[1].email", "b@example.org"),
            ("applicants[0].email", "a@example.org"),
            ("organisation.type", "ngo"),
            ("budget[0].amountTzs", "5"),
        ]));
        assert_eq!(
            value,
            json!({
                "name": "Amina",
                "services": ["iot", "hosting"],
                "applicants": [{ "email": "a@example.org" }, { "email": "b@example.org" }],
                "organisation": { "type": "ngo" },
                "budget": [{ "amountTzs": "5" }]
            })
        );
    }

    #[test]
    fn names_that_are_no_path_are_left_out() {
        let value = nest(&pairs(&[("budget[99999999].item", "x"), ("[0]", "y"), ("a[b].c", "z"), ("ok", "1")]));
        assert_eq!(value, json!({ "ok": "1" }));
    }
}
