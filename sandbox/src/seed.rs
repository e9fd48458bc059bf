//! What the sandbox knows on a fresh machine: a handful of subscribers
//! covering the cases the site shows differently (prepaid, postpaid, minor,
//! pending registration, modems with and without an alternative number), the
//! bundle catalogue and the permissions of the CPM area. Subscribers are
//! copied into the database once; the catalogue and the permission
//! definitions are read from here (only the granted flags are stored).

use super::reply::Text;

pub(super) struct SeedSubscriber {
    pub msisdn: &'static str,
    pub first_name: &'static str,
    pub family_name: &'static str,
    pub payment_method: PaymentMethod,
    pub minor: bool,
    pub registration_status: &'static str,
    pub scopes: &'static [&'static str],
    /// Main (airtime) balance, TZS.
    pub airtime: i64,
    /// M-Pesa wallet, TZS.
    pub wallet: i64,
    /// For a modem SIM: the phone its codes are sent to.
    pub alternative_msisdn: Option<&'static str>,
    /// What is left of bundles bought before: (bundle id, remaining).
    pub bundles: &'static [(&'static str, i64)],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PaymentMethod {
    Prepaid,
    /// Airtime purchases go on the bill: nothing is debited.
    Postpaid,
}

impl PaymentMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Prepaid => "PREPAID",
            PaymentMethod::Postpaid => "POSTPAID",
        }
    }
}

const PHONE_SCOPES: &[&str] = &["balance", "purchase"];

pub(super) const SUBSCRIBERS: &[SeedSubscriber] = &[
    SeedSubscriber {
        msisdn: "255754000001",
        first_name: "Amina",
        family_name: "Mwakyusa",
        payment_method: PaymentMethod::Prepaid,
        minor: false,
        registration_status: "REGISTERED",
        scopes: PHONE_SCOPES,
        airtime: 12_500,
        wallet: 48_000,
        alternative_msisdn: None,
        bundles: &[("data-weekly-2gb", 1_229), ("voice-weekly-100min", 35), ("sms-weekly-200", 140)],
    },
    SeedSubscriber {
        msisdn: "255754000002",
        first_name: "Juma",
        family_name: "Kassim",
        payment_method: PaymentMethod::Prepaid,
        minor: false,
        registration_status: "REGISTERED",
        scopes: PHONE_SCOPES,
        airtime: 3_000,
        wallet: 5_000,
        alternative_msisdn: None,
        bundles: &[("data-daily-500mb", 120)],
    },
    SeedSubscriber {
        msisdn: "255754000003",
        first_name: "Neema",
        family_name: "Mushi",
        payment_method: PaymentMethod::Postpaid,
        minor: false,
        registration_status: "REGISTERED",
        scopes: PHONE_SCOPES,
        airtime: 0,
        wallet: 20_000,
        alternative_msisdn: None,
        bundles: &[("data-monthly-10gb", 6_144), ("voice-monthly-300min", 210)],
    },
    SeedSubscriber {
        msisdn: "255754000004",
        first_name: "Baraka",
        family_name: "Said",
        payment_method: PaymentMethod::Prepaid,
        minor: true,
        registration_status: "PENDING",
        scopes: &["balance"],
        airtime: 800,
        wallet: 0,
        alternative_msisdn: None,
        bundles: &[],
    },
    SeedSubscriber {
        msisdn: "255754000010",
        first_name: "MiFi",
        family_name: "4G",
        payment_method: PaymentMethod::Prepaid,
        minor: false,
        registration_status: "REGISTERED",
        scopes: PHONE_SCOPES,
        airtime: 10_000,
        wallet: 0,
        alternative_msisdn: Some("255754000001"),
        bundles: &[("data-monthly-30gb", 18_432)],
    },
    SeedSubscriber {
        msisdn: "255754000011",
        first_name: "Router",
        family_name: "5G",
        payment_method: PaymentMethod::Prepaid,
        minor: false,
        registration_status: "REGISTERED",
        scopes: PHONE_SCOPES,
        airtime: 2_000,
        wallet: 0,
        alternative_msisdn: None,
        bundles: &[],
    },
];

/// A bundle of the catalogue (`GET api/v1/gsm-static-bundles`).
pub(super) struct Bundle {
    pub id: &'static str,
    pub name: Text,
    pub price: i64,
    pub validity: Text,
    pub validity_hours: i64,
    pub kind: BundleKind,
    pub amount: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BundleKind {
    Data,
    Voice,
    Sms,
}

impl BundleKind {
    pub fn as_str(self) -> &'static str {
        match self {
            BundleKind::Data => "DATA",
            BundleKind::Voice => "VOICE",
            BundleKind::Sms => "SMS",
        }
    }

    /// The unit of `amount`, and of the balance a purchase credits.
    pub fn unit(self) -> &'static str {
        match self {
            BundleKind::Data => "MB",
            BundleKind::Voice => "MIN",
            BundleKind::Sms => "SMS",
        }
    }
}

const DAY: Text = Text::new("24 hours", "Saa 24");
const WEEK: Text = Text::new("7 days", "Siku 7");
const MONTH: Text = Text::new("30 days", "Siku 30");

pub(super) const BUNDLES: &[Bundle] = &[
    Bundle {
        id: "data-daily-500mb",
        name: Text::new("Daily Internet 500MB", "Intaneti ya Siku 500MB"),
        price: 500,
        validity: DAY,
        validity_hours: 24,
        kind: BundleKind::Data,
        amount: 500,
    },
    Bundle {
        id: "data-daily-1gb",
        name: Text::new("Daily Internet 1GB", "Intaneti ya Siku 1GB"),
        price: 1_000,
        validity: DAY,
        validity_hours: 24,
        kind: BundleKind::Data,
        amount: 1_024,
    },
    Bundle {
        id: "data-weekly-2gb",
        name: Text::new("Weekly Internet 2GB", "Intaneti ya Wiki 2GB"),
        price: 2_000,
        validity: WEEK,
        validity_hours: 7 * 24,
        kind: BundleKind::Data,
        amount: 2_048,
    },
    Bundle {
        id: "data-weekly-5gb",
        name: Text::new("Weekly Internet 5GB", "Intaneti ya Wiki 5GB"),
        price: 5_000,
        validity: WEEK,
        validity_hours: 7 * 24,
        kind: BundleKind::Data,
        amount: 5_120,
    },
    Bundle {
        id: "data-monthly-10gb",
        name: Text::new("Monthly Internet 10GB", "Intaneti ya Mwezi 10GB"),
        price: 10_000,
        validity: MONTH,
        validity_hours: 30 * 24,
        kind: BundleKind::Data,
        amount: 10_240,
    },
    Bundle {
        id: "data-monthly-30gb",
        name: Text::new("Monthly Internet 30GB", "Intaneti ya Mwezi 30GB"),
        price: 25_000,
        validity: MONTH,
        validity_hours: 30 * 24,
        kind: BundleKind::Data,
        amount: 30_720,
    },
    Bundle {
        id: "voice-daily-20min",
        name: Text::new("Daily 20 Minutes", "Dakika 20 za Siku"),
        price: 500,
        validity: DAY,
        validity_hours: 24,
        kind: BundleKind::Voice,
        amount: 20,
    },
    Bundle {
        id: "voice-weekly-100min",
        name: Text::new("Weekly 100 Minutes", "Dakika 100 za Wiki"),
        price: 2_000,
        validity: WEEK,
        validity_hours: 7 * 24,
        kind: BundleKind::Voice,
        amount: 100,
    },
    Bundle {
        id: "voice-monthly-300min",
        name: Text::new("Monthly 300 Minutes", "Dakika 300 za Mwezi"),
        price: 5_000,
        validity: MONTH,
        validity_hours: 30 * 24,
        kind: BundleKind::Voice,
        amount: 300,
    },
    Bundle {
        id: "sms-weekly-200",
        name: Text::new("Weekly 200 SMS", "SMS 200 za Wiki"),
        price: 1_000,
        validity: WEEK,
        validity_hours: 7 * 24,
        kind: BundleKind::Sms,
        amount: 200,
    },
];

pub(super) fn bundle(id: &str) -> Option<&'static Bundle> {
    BUNDLES.iter().find(|b| b.id == id)
}

/// A permission of the CPM area, with what a new subscriber has granted.
pub(super) struct Permission {
    pub id: &'static str,
    pub name: Text,
    pub description: Text,
    pub granted_by_default: bool,
}

pub(super) const PERMISSIONS: &[Permission] = &[
    Permission {
        id: "marketing-sms",
        name: Text::new("Marketing SMS", "SMS za matangazo"),
        description: Text::new(
            "Messages about new bundles, offers and promotions.",
            "Ujumbe kuhusu vifurushi vipya, ofa na promosheni.",
        ),
        granted_by_default: true,
    },
    Permission {
        id: "personalised-offers",
        name: Text::new("Personalised offers", "Ofa maalum kwako"),
        description: Text::new(
            "Offers chosen from how you use calls, internet and M-Pesa.",
            "Ofa zinazochaguliwa kulingana na jinsi unavyotumia simu, intaneti na M-Pesa.",
        ),
        granted_by_default: true,
    },
    Permission {
        id: "partner-data-sharing",
        name: Text::new("Data sharing with partners", "Kushiriki taarifa na washirika"),
        description: Text::new(
            "Your contact details are shared with selected partners so they can send you their offers.",
            "Taarifa zako za mawasiliano zinashirikiwa na washirika waliochaguliwa ili wakutumie ofa zao.",
        ),
        granted_by_default: false,
    },
    Permission {
        id: "location-offers",
        name: Text::new("Location-based offers", "Ofa kulingana na mahali ulipo"),
        description: Text::new(
            "Offers from shops and services near where you are.",
            "Ofa kutoka kwa maduka na huduma zilizo karibu na mahali ulipo.",
        ),
        granted_by_default: false,
    },
    Permission {
        id: "research-calls",
        name: Text::new("Research calls", "Simu za utafiti"),
        description: Text::new(
            "Calls and SMS asking your opinion of our services.",
            "Simu na SMS za kuomba maoni yako kuhusu huduma zetu.",
        ),
        granted_by_default: true,
    },
];

pub(super) fn permission(id: &str) -> Option<&'static Permission> {
    PERMISSIONS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_seeded_bundles_exist() {
        let mut bundle_ids: Vec<_> = BUNDLES.iter().map(|b| b.id).collect();
        bundle_ids.sort_unstable();
        bundle_ids.dedup();
        assert_eq!(bundle_ids.len(), BUNDLES.len());
        for subscriber in SUBSCRIBERS {
            for (id, remaining) in subscriber.bundles {
                let bundle = bundle(id).unwrap_or_else(|| panic!("{} holds unknown bundle {id}", subscriber.msisdn));
                assert!(*remaining <= bundle.amount, "{id}");
            }
        }
        let mut permission_ids: Vec<_> = PERMISSIONS.iter().map(|p| p.id).collect();
        permission_ids.sort_unstable();
        permission_ids.dedup();
        assert_eq!(permission_ids.len(), PERMISSIONS.len());
    }
}
