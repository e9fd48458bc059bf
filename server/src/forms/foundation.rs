//! The foundation partnership application (under Purpose, the foundation):
//! at least two applicants, the organisation, the project, where it runs,
//! the team and the budget, whose total the server computes; optionally a
//! proposal PDF.

use contract::forms::{ORGANISATION_TYPES, REGIONS};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::fields::{Date, LINE, LONG, Problem, Problems, Reader, SHORT};
use crate::msisdn::Msisdn;

/// A proposal may be this large (5 MB).
pub const MAX_PROPOSAL_BYTES: usize = 5 * 1024 * 1024;
const MIN_APPLICANTS: usize = 2;
const MAX_APPLICANTS: usize = 10;
const MAX_BUDGET_LINES: usize = 50;
/// The largest team: six digits, as many as the field takes (`field_lengths::COUNT`).
const MAX_TEAM: u32 = 100_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FoundationApplication {
    pub applicants: Vec<Applicant>,
    pub organisation: Organisation,
    pub project: Project,
    pub location: ProjectPlace,
    pub team: Team,
    pub budget: Vec<BudgetLine>,
    /// The sum of the budget lines, computed here whatever the page said.
    pub budget_total_tzs: u64,
    pub proposal: Option<ProposalFile>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Applicant {
    pub name: String,
    pub email: String,
    pub phone: Msisdn,
    pub role: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Organisation {
    pub name: String,
    #[serde(rename = "type", deserialize_with = "organisation_type")]
    pub kind: Listed,
    pub registration_number: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    pub title: String,
    pub summary: String,
    pub start_date: Date,
    pub end_date: Date,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProjectPlace {
    #[serde(deserialize_with = "region")]
    pub region: Listed,
    pub district: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Team {
    pub size: u64,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetLine {
    pub item: String,
    pub amount_tzs: u64,
}

/// What is kept about the proposal beside its bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProposalFile {
    pub file_name: String,
    pub size: usize,
    pub sha256: String,
}

/// An entry of one of the contract's lists ([`ORGANISATION_TYPES`], [`REGIONS`]).
/// Named, so that serde does not take it for text borrowed from what it
/// reads: a kept one is read back as its entry of the list.
pub type Listed = &'static str;

fn organisation_type<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Listed, D::Error> {
    listed(deserializer, &ORGANISATION_TYPES)
}

fn region<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Listed, D::Error> {
    listed(deserializer, &REGIONS)
}

fn listed<'de, D: Deserializer<'de>>(deserializer: D, list: &'static [Listed]) -> Result<Listed, D::Error> {
    let text = String::deserialize(deserializer)?;
    list.iter()
        .copied()
        .find(|entry| *entry == text)
        .ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not listed")))
}

/// An uploaded proposal, before it is checked.
pub struct Upload {
    pub file_name: Option<String>,
    pub bytes: Vec<u8>,
    /// More than [`MAX_PROPOSAL_BYTES`] came: the rest was not read.
    pub too_large: bool,
}

/// A proposal that is a PDF by its content, whatever its name says.
#[derive(Debug)]
pub struct Proposal {
    pub file: ProposalFile,
    pub bytes: Vec<u8>,
}

impl Proposal {
    fn check(upload: Upload, problems: &mut Problems) -> Option<Proposal> {
        if upload.too_large || upload.bytes.len() > MAX_PROPOSAL_BYTES {
            problems.add("proposal", Problem::TooLargePdf);
            return None;
        }
        if upload.bytes.is_empty() {
            return None;
        }
        // A PDF starts with `%PDF-` (ISO 32000-1 §7.5.2), allowing for a few
        // bytes of junk before it as readers do; a name or a declared type
        // is anyone's to choose.
        let head = &upload.bytes[..upload.bytes.len().min(1024)];
        if !head.windows(5).any(|w| w == b"%PDF-") {
            problems.add("proposal", Problem::NotPdf);
            return None;
        }
        let file_name = upload
            .file_name
            .map(|name| super::fields::clean_text(&name, false))
            .map(|name| name.rsplit(['/', '\\']).next().unwrap_or_default().chars().take(LINE).collect::<String>())
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| "proposal.pdf".into());
        let sha256 = Sha256::digest(&upload.bytes).iter().map(|b| format!("{b:02x}")).collect();
        Some(Proposal { file: ProposalFile { file_name, size: upload.bytes.len(), sha256 }, bytes: upload.bytes })
    }
}

impl FoundationApplication {
    /// The application and its checked proposal, or every problem with them.
    pub fn parse(value: &Value, upload: Option<Upload>) -> Result<(FoundationApplication, Option<Proposal>), Problems> {
        let mut problems = Problems::default();
        let mut form = Reader::new(value, &mut problems);
        let applicants = form.rows("applicants", MAX_APPLICANTS, |row| {
            let (name, email, phone, role) =
                (row.text("name", SHORT), row.email("email"), row.phone("phone"), row.text("role", SHORT));
            Some(Applicant { name: name?, email: email?, phone: phone?, role: role? })
        });
        let organisation = form.nested("organisation", |org| {
            let name = org.text("name", LINE);
            let kind = org.choice("type", &ORGANISATION_TYPES.map(|t| (t, t)));
            let registration_number = org.text("registrationNumber", SHORT);
            Some(Organisation { name: name?, kind: kind?, registration_number: registration_number? })
        });
        let project = form.nested("project", |project| {
            let title = project.text("title", LINE);
            let summary = project.paragraphs("summary", LONG);
            let (start_date, end_date) = (project.date("startDate"), project.date("endDate"));
            if let (Some(start), Some(end)) = (start_date, end_date)
                && end < start
            {
                project.problem("endDate", Problem::EndBeforeStart);
            }
            Some(Project { title: title?, summary: summary?, start_date: start_date?, end_date: end_date? })
        });
        let location = form.nested("location", |location| {
            let region = location.choice("region", &REGIONS.map(|r| (r, r)));
            let district = location.text("district", SHORT);
            Some(ProjectPlace { region: region?, district: district? })
        });
        let team = form.nested("team", |team| {
            let size = team.count("size", 1, MAX_TEAM);
            let description = team.paragraphs("description", LONG);
            Some(Team { size: size?, description: description? })
        });
        let budget = form.rows("budget", MAX_BUDGET_LINES, |line| {
            let (item, amount_tzs) = (line.text("item", LINE), line.amount("amountTzs"));
            Some(BudgetLine { item: item?, amount_tzs: amount_tzs? })
        });
        let filled = |field: &str| {
            value
                .get(field)
                .and_then(Value::as_array)
                .map_or(0, |rows| rows.iter().filter(|r| !is_blank_row(r)).count())
        };
        if problems.get("applicants").is_none() && filled("applicants") < MIN_APPLICANTS {
            problems.add("applicants", Problem::TwoApplicants);
        }
        if problems.get("budget").is_none() && filled("budget") == 0 {
            problems.add("budget", Problem::NoBudgetLine);
        }
        let proposal = upload.and_then(|upload| Proposal::check(upload, &mut problems));
        match (organisation, project, location, team) {
            (Some(organisation), Some(project), Some(location), Some(team)) if problems.is_empty() => {
                let budget_total_tzs = budget.iter().map(|line| line.amount_tzs).sum();
                let application = FoundationApplication {
                    applicants,
                    organisation,
                    project,
                    location,
                    team,
                    budget,
                    budget_total_tzs,
                    proposal: proposal.as_ref().map(|p| p.file.clone()),
                };
                Ok((application, proposal))
            }
            _ => Err(problems),
        }
    }
}

fn is_blank_row(row: &Value) -> bool {
    row.as_object()
        .is_none_or(|fields| fields.values().all(|v| v.as_str().is_some_and(|s| s.trim().is_empty()) || v.is_null()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn application() -> Value {
        json!({
            "applicants": [
                { "name": "Neema Mushi", "email": "neema@example.org", "phone": "0754000003", "role": "Director" },
                { "name": "Baraka Said", "email": "baraka@example.org", "phone": "+255 754 000 004", "role": "Treasurer" }
            ],
            "organisation": { "name": "Mama Afya", "type": "ngo", "registrationNumber": "NGO/R/1234" },
            "project": { "title": "Clinics by boat", "summary": "Line one\nLine two", "startDate": "2026-07-01", "endDate": "2027-06-30" },
            "location": { "region": "Mwanza", "district": "Ukerewe" },
            "team": { "size": "12", "description": "Nurses and boat crews" },
            "budget": [ { "item": "Boat", "amountTzs": "12,000,000" }, { "item": "", "amountTzs": "" }, { "item": "Fuel", "amountTzs": 3000000 } ]
        })
    }

    #[test]
    fn the_total_is_computed_and_blank_lines_dropped() {
        let (application, proposal) = FoundationApplication::parse(&application(), None).unwrap();
        assert_eq!(application.budget.len(), 2);
        assert_eq!(application.budget_total_tzs, 15_000_000);
        assert_eq!(application.project.summary, "Line one\nLine two");
        assert!(proposal.is_none());
    }

    #[test]
    fn two_applicants_at_least_and_paths_name_rows() {
        let mut one = application();
        one["applicants"].as_array_mut().unwrap().truncate(1);
        one["budget"][2]["amountTzs"] = json!("-5");
        one["project"]["endDate"] = json!("2026-01-01");
        let problems = FoundationApplication::parse(&one, None).unwrap_err().by_field();
        assert_eq!(problems.keys().collect::<Vec<_>>(), ["applicants", "budget[2].amountTzs", "project.endDate"]);
    }

    #[test]
    fn a_proposal_is_a_pdf_by_its_content() {
        let upload = |bytes: &[u8], name: &str| {
            Some(Upload { file_name: Some(name.into()), bytes: bytes.to_vec(), too_large: false })
        };
        let (kept, proposal) =
            FoundationApplication::parse(&application(), upload(b"%PDF-1.7\n...", "C:\\docs\\plan.pdf")).unwrap();
        assert_eq!(kept.proposal.unwrap().file_name, "plan.pdf");
        assert_eq!(proposal.unwrap().bytes.len(), 12);
        let problems =
            FoundationApplication::parse(&application(), upload(b"MZ\x90\x00 not a pdf", "plan.pdf")).unwrap_err();
        assert_eq!(problems.get("proposal"), Some(Problem::NotPdf));
        let big = Some(Upload { file_name: None, bytes: b"%PDF-".to_vec(), too_large: true });
        assert_eq!(
            FoundationApplication::parse(&application(), big).unwrap_err().get("proposal"),
            Some(Problem::TooLargePdf)
        );
    }
}
