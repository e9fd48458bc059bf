//! The lists a form's answers are chosen from: the server checks an answer
//! against them and the app's fields offer them, from this one place (the
//! app's copy is generated, `app/generated/contract.ts`).

/// Kinds of organisation the Foundation funds (its guidelines).
pub const ORGANISATION_TYPES: [&str; 7] =
    ["ngo", "community-based", "faith-based", "school", "health-facility", "social-enterprise", "other"];

/// Tanzania's 31 regions, as their names are written in both languages.
pub const REGIONS: [&str; 31] = [
    "Arusha",
    "Dar es Salaam",
    "Dodoma",
    "Geita",
    "Iringa",
    "Kagera",
    "Kaskazini Pemba",
    "Kaskazini Unguja",
    "Katavi",
    "Kigoma",
    "Kilimanjaro",
    "Kusini Pemba",
    "Kusini Unguja",
    "Lindi",
    "Manyara",
    "Mara",
    "Mbeya",
    "Mjini Magharibi",
    "Morogoro",
    "Mtwara",
    "Mwanza",
    "Njombe",
    "Pwani",
    "Rukwa",
    "Ruvuma",
    "Shinyanga",
    "Simiyu",
    "Singida",
    "Songwe",
    "Tabora",
    "Tanga",
];
