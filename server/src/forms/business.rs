//! The business community form: a business asking Vodacom
//! Business to call back about some of its services.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::fields::{LINE, Problems, Reader, SHORT};
use crate::msisdn::Msisdn;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BusinessSize {
    Small,
    Medium,
    Large,
}

pub const SIZES: [(&str, BusinessSize); 3] =
    [("small", BusinessSize::Small), ("medium", BusinessSize::Medium), ("large", BusinessSize::Large)];

/// Where the business heard of Vodacom Business; three answers name a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WhereHeard {
    SocialMedia,
    SearchEngine,
    RadioTv,
    Event,
    Influencer,
    Employee,
    Merchant,
    Other,
}

/// The answers the form offers, as the app lists them.
pub const WHERE_HEARD: [(&str, WhereHeard); 8] = [
    ("social-media", WhereHeard::SocialMedia),
    ("search-engine", WhereHeard::SearchEngine),
    ("radio-tv", WhereHeard::RadioTv),
    ("event", WhereHeard::Event),
    ("influencer", WhereHeard::Influencer),
    ("employee", WhereHeard::Employee),
    ("merchant", WhereHeard::Merchant),
    ("other", WhereHeard::Other),
];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BusinessLead {
    pub name: String,
    pub email: String,
    pub phone: Msisdn,
    pub alternate_number: Option<Msisdn>,
    pub business_name: String,
    pub business_size: BusinessSize,
    pub industry: String,
    pub where_heard: WhereHeard,
    /// Business categories (the slugs of their pages: `iot`, `hosting`, …).
    pub services: Vec<String>,
    /// Kept only when `where_heard` is `influencer`.
    pub influencer_name: Option<String>,
    /// Kept only when `where_heard` is `employee`.
    pub employee_name: Option<String>,
    /// Kept only when `where_heard` is `merchant`.
    pub merchant_name: Option<String>,
}

impl BusinessLead {
    /// The lead, or every problem with it. `services` are the business
    /// categories the site has.
    pub fn parse(value: &Value, services: &[String]) -> Result<BusinessLead, Problems> {
        let mut problems = Problems::default();
        let mut form = Reader::new(value, &mut problems);
        let name = form.text("name", SHORT);
        let email = form.email("email");
        let phone = form.phone("phone");
        let alternate_number = form.optional_phone("alternateNumber");
        let business_name = form.text("businessName", LINE);
        let business_size = form.choice("businessSize", &SIZES);
        let industry = form.text("industry", SHORT);
        let where_heard = form.choice("whereHeard", &WHERE_HEARD);
        let chosen = form.choices("services", services);
        if chosen.is_empty() && problems.get("services").is_none() {
            problems.add("services", super::fields::Problem::NoService);
        }
        let mut form = Reader::new(value, &mut problems);
        let mut named = |field: &str, when: WhereHeard| {
            let text = form.optional_text(field, SHORT);
            text.filter(|_| where_heard == Some(when))
        };
        let influencer_name = named("influencerName", WhereHeard::Influencer);
        let employee_name = named("employeeName", WhereHeard::Employee);
        let merchant_name = named("merchantName", WhereHeard::Merchant);
        match (name, email, phone, business_name, business_size, industry, where_heard) {
            (
                Some(name),
                Some(email),
                Some(phone),
                Some(business_name),
                Some(business_size),
                Some(industry),
                Some(where_heard),
            ) if problems.is_empty() => Ok(BusinessLead {
                name,
                email,
                phone,
                alternate_number,
                business_name,
                business_size,
                industry,
                where_heard,
                services: chosen,
                influencer_name,
                employee_name,
                merchant_name,
            }),
            _ => Err(problems),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn services() -> Vec<String> {
        vec!["iot".into(), "hosting".into()]
    }

    fn lead() -> Value {
        json!({
            "name": " Amina Mwakyusa ", "email": "amina@example.co.tz", "phone": "0754 000 001",
            "businessName": "Mwakyusa Traders", "businessSize": "small", "industry": "Retail",
            "whereHeard": "influencer", "services": ["hosting", "iot", "hosting"],
            "influencerName": "Zuchu", "employeeName": "ignored"
        })
    }

    #[test]
    fn a_good_lead_is_typed_and_trimmed() {
        let lead = BusinessLead::parse(&lead(), &services()).unwrap();
        assert_eq!(lead.name, "Amina Mwakyusa");
        assert_eq!(lead.phone.as_str(), "255754000001");
        assert_eq!(lead.services, vec!["iot", "hosting"]);
        assert_eq!(lead.influencer_name.as_deref(), Some("Zuchu"));
        assert_eq!(lead.employee_name, None, "not where they heard of us");
    }

    #[test]
    fn every_bad_field_is_named() {
        let bad = json!({ "email": "nope", "phone": "12", "alternateNumber": "34", "businessSize": "huge", "whereHeard": "tv", "services": ["gold"] });
        let problems = BusinessLead::parse(&bad, &services()).unwrap_err();
        let by_field = problems.by_field();
        let fields: Vec<&str> = by_field.keys().map(String::as_str).collect();
        assert_eq!(
            fields,
            [
                "alternateNumber",
                "businessName",
                "businessSize",
                "email",
                "industry",
                "name",
                "phone",
                "services",
                "whereHeard"
            ]
        );
        assert_eq!(by_field["name"], super::super::fields::Problem::Required);
    }
}
