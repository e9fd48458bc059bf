//! The forms' addresses, the staff token of the forms' app, and a valid
//! submission of each form, which tests change a field of to make it wrong.

use serde_json::{Value, json};

/// The staff's export token of the forms' app.
pub const TOKEN: &str = "staff-secret";
pub const BUSINESS: &str = "/api/forms/business-community";
pub const FOUNDATION: &str = "/api/forms/foundation-application";

/// A business community lead every field of which is valid.
pub fn lead() -> Value {
    json!({
        "name": "Amina Mwakyusa", "email": "amina@example.co.tz", "phone": "0754 000 001", "alternateNumber": "",
        "businessName": "Mwakyusa Traders", "businessSize": "small", "industry": "Retail",
        "whereHeard": "merchant", "services": ["iot", "hosting"], "merchantName": "Duka la Mama"
    })
}

/// A foundation application every field of which is valid.
pub fn application() -> Value {
    json!({
        "applicants": [
            { "name": "Neema Mushi", "email": "neema@example.org", "phone": "0754000003", "role": "Director" },
            { "name": "Baraka Said", "email": "baraka@example.org", "phone": "0754000004", "role": "Treasurer" }
        ],
        "organisation": { "name": "Mama Afya", "type": "ngo", "registrationNumber": "NGO/R/1234" },
        "project": { "title": "Clinics by boat", "summary": "Boats take nurses to the islands.", "startDate": "2026-07-01", "endDate": "2027-06-30" },
        "location": { "region": "Mwanza", "district": "Ukerewe" },
        "team": { "size": 12, "description": "Nurses and boat crews" },
        "budget": [ { "item": "Boat", "amountTzs": 12000000 }, { "item": "Fuel", "amountTzs": "3,000,000" } ]
    })
}
