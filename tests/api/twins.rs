//! The notice keys the app shows for a refused number or code
//! (`tests/twins/`): the server answers every input the app refuses with
//! the same key, so a visitor with or without JavaScript reads the same
//! message. (`server/src/twins.rs` checks what each input parses to.)

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{AMINA, Visitor, bodies, spawn_app};

/// The notice key a fixture's refused inputs get, and those inputs.
fn refused(name: &str) -> (String, Vec<String>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/twins").join(name);
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let inputs =
        fixture["refused"].as_array().unwrap().iter().map(|input| input.as_str().unwrap().to_owned()).collect();
    (fixture["notice"].as_str().unwrap().to_owned(), inputs)
}

#[tokio::test]
async fn every_number_and_code_the_app_refuses_the_server_refuses_with_the_same_notice() {
    let app = spawn_app().await;
    let visitor = Visitor::new(&app);
    let (notice, numbers) = refused("phone-numbers.json");
    for input in numbers {
        let (status, body, _) = visitor.post("/api/auth/request-otp", bodies::number(&input)).await;
        assert_eq!((status, &body["notice"]["key"]), (StatusCode::BAD_REQUEST, &json!(notice)), "{input:?}");
    }
    let (notice, codes) = refused("codes.json");
    for input in codes {
        let (status, body, _) = visitor.post("/api/auth/validate-otp", bodies::code(AMINA, &input)).await;
        assert_eq!((status, &body["notice"]["key"]), (StatusCode::BAD_REQUEST, &json!(notice)), "{input:?}");
    }
}
