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
    /// M-Pesa wallet, TZS; `None`: the number has no M-Pesa account.
    pub wallet: Option<i64>,
    /// For a modem SIM: the phone its codes are sent to.
    pub alternative_msisdn: Option<&'static str>,
    /// What is left of bundles bought before: (bundle id, remaining of its
    /// one allowance).
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
        wallet: Some(48_000),
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
        wallet: Some(5_000),
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
        wallet: Some(20_000),
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
        wallet: None,
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
        wallet: None,
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
        wallet: None,
        alternative_msisdn: None,
        bundles: &[],
    },
];

/// A bundle of the catalogue (`GET api/v1/gsm-static-bundles`): the one
/// list the site's bundle tables show and its purchases sell.
pub(super) struct Bundle {
    pub id: &'static str,
    /// The group a page's bundle table lists it in.
    pub category: &'static str,
    pub name: Text,
    pub price: i64,
    pub validity: Validity,
    pub kind: BundleKind,
    /// Sold through the purchase call; otherwise only by dialling `ussd`.
    pub online: bool,
    /// What a purchase credits: one balance per unit.
    pub allowances: &'static [(Unit, i64)],
    /// The USSD code that buys it.
    pub ussd: &'static str,
}

impl Bundle {
    /// A bundle sold online (and by its code) that credits `allowances`.
    #[allow(clippy::too_many_arguments, reason = "a row of the catalogue's table below: an argument per column")]
    const fn sold(
        id: &'static str,
        category: &'static str,
        kind: BundleKind,
        allowances: &'static [(Unit, i64)],
        ussd: &'static str,
        name: Text,
        price: i64,
        validity: Validity,
    ) -> Bundle {
        Bundle { id, category, name, price, validity, kind, online: true, allowances, ussd }
    }

    /// A bundle or service bought only by dialling its code.
    const fn by_code(
        id: &'static str,
        category: &'static str,
        kind: BundleKind,
        ussd: &'static str,
        name: Text,
        price: i64,
        validity: Validity,
    ) -> Bundle {
        Bundle { id, category, name, price, validity, kind, online: false, allowances: &[], ussd }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BundleKind {
    Data,
    Voice,
    Sms,
    /// Data, minutes and SMS together.
    Mixed,
    /// A subscription to a service (news, music, health advice).
    Service,
}

impl BundleKind {
    pub fn as_str(self) -> &'static str {
        match self {
            BundleKind::Data => "DATA",
            BundleKind::Voice => "VOICE",
            BundleKind::Sms => "SMS",
            BundleKind::Mixed => "MIXED",
            BundleKind::Service => "SERVICE",
        }
    }
}

/// The unit of an allowance, and of the balance a purchase credits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Mb,
    Min,
    Sms,
}

impl Unit {
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Mb => "MB",
            Unit::Min => "MIN",
            Unit::Sms => "SMS",
        }
    }
}

/// How long a bundle lasts, as people read it and in hours.
pub(super) struct Validity {
    pub text: Text,
    pub hours: i64,
}

const DAY: Validity = Validity { text: Text::new("24 hours", "Saa 24"), hours: 24 };
const THREE_DAYS: Validity = Validity { text: Text::new("3 days", "Siku 3"), hours: 3 * 24 };
const WEEK: Validity = Validity { text: Text::new("7 days", "Siku 7"), hours: 7 * 24 };
const MONTH: Validity = Validity { text: Text::new("30 days", "Siku 30"), hours: 30 * 24 };
const UNTIL_MIDNIGHT: Validity = Validity { text: Text::new("Until midnight", "Hadi saa sita usiku"), hours: 24 };

#[rustfmt::skip]
pub(super) const BUNDLES: &[Bundle] = &[
    Bundle::sold("data-daily-500mb", "internet-daily", BundleKind::Data, &[(Unit::Mb, 500)], "*149*01#", Text::new("Daily Internet 500MB", "Intaneti ya Siku 500MB"), 500, DAY),
    Bundle::sold("data-daily-1gb", "internet-daily", BundleKind::Data, &[(Unit::Mb, 1_024)], "*149*01#", Text::new("Daily Internet 1GB", "Intaneti ya Siku 1GB"), 1_000, DAY),
    Bundle::sold("data-daily-2500mb", "internet-daily", BundleKind::Data, &[(Unit::Mb, 2_560)], "*149*01#", Text::new("Daily Internet 2.5GB", "Intaneti ya Siku 2.5GB"), 2_000, DAY),
    Bundle::sold("data-weekly-2gb", "internet-weekly-monthly", BundleKind::Data, &[(Unit::Mb, 2_048)], "*149*01#", Text::new("Weekly Internet 2GB", "Intaneti ya Wiki 2GB"), 2_000, WEEK),
    Bundle::sold("data-weekly-5gb", "internet-weekly-monthly", BundleKind::Data, &[(Unit::Mb, 5_120)], "*149*01#", Text::new("Weekly Internet 5GB", "Intaneti ya Wiki 5GB"), 5_000, WEEK),
    Bundle::sold("data-monthly-10gb", "internet-weekly-monthly", BundleKind::Data, &[(Unit::Mb, 10_240)], "*149*01#", Text::new("Monthly Internet 10GB", "Intaneti ya Mwezi 10GB"), 10_000, MONTH),
    Bundle::sold("data-monthly-30gb", "internet-weekly-monthly", BundleKind::Data, &[(Unit::Mb, 30_720)], "*149*01#", Text::new("Monthly Internet 30GB", "Intaneti ya Mwezi 30GB"), 25_000, MONTH),
    Bundle::sold("voice-daily-20min", "voice-sms", BundleKind::Voice, &[(Unit::Min, 20)], "*149*01#", Text::new("Daily 20 Minutes", "Dakika 20 za Siku"), 500, DAY),
    Bundle::sold("voice-weekly-100min", "voice-sms", BundleKind::Voice, &[(Unit::Min, 100)], "*149*01#", Text::new("Weekly 100 Minutes", "Dakika 100 za Wiki"), 2_000, WEEK),
    Bundle::sold("voice-monthly-300min", "voice-sms", BundleKind::Voice, &[(Unit::Min, 300)], "*149*01#", Text::new("Monthly 300 Minutes", "Dakika 300 za Mwezi"), 5_000, MONTH),
    Bundle::sold("voice-monthly-500min-500sms", "voice-sms", BundleKind::Mixed, &[(Unit::Min, 500), (Unit::Sms, 500)], "*149*01#", Text::new("Monthly 500 Minutes + 500 SMS", "Dakika 500 + SMS 500 za Mwezi"), 15_000, MONTH),
    Bundle::sold("sms-weekly-200", "voice-sms", BundleKind::Sms, &[(Unit::Sms, 200)], "*149*01#", Text::new("Weekly 200 SMS", "SMS 200 za Wiki"), 1_000, WEEK),
    Bundle::sold("intl-east-africa-20min", "international", BundleKind::Voice, &[(Unit::Min, 20)], "*149*01#", Text::new("East Africa 20 minutes", "Afrika Mashariki dakika 20"), 3_000, WEEK),
    Bundle::sold("intl-world-30min", "international", BundleKind::Voice, &[(Unit::Min, 30)], "*149*01#", Text::new("World 30 minutes", "Dunia dakika 30"), 8_000, WEEK),
    Bundle::sold("intl-world-120min", "international", BundleKind::Voice, &[(Unit::Min, 120)], "*149*01#", Text::new("World 120 minutes", "Dunia dakika 120"), 25_000, MONTH),
    Bundle::sold("roaming-east-africa-1gb", "roaming", BundleKind::Mixed, &[(Unit::Mb, 1_024), (Unit::Min, 30)], "*149*88#", Text::new("East Africa 1 GB + 30 minutes", "Afrika Mashariki GB 1 + dakika 30"), 10_000, WEEK),
    Bundle::sold("roaming-east-africa-5gb", "roaming", BundleKind::Mixed, &[(Unit::Mb, 5_120), (Unit::Min, 100)], "*149*88#", Text::new("East Africa 5 GB + 100 minutes", "Afrika Mashariki GB 5 + dakika 100"), 35_000, MONTH),
    Bundle::sold("roaming-middle-east-2gb", "roaming", BundleKind::Mixed, &[(Unit::Mb, 2_048), (Unit::Min, 30)], "*149*88#", Text::new("Middle East 2 GB + 30 minutes", "Mashariki ya Kati GB 2 + dakika 30"), 45_000, WEEK),
    Bundle::sold("roaming-world-3gb", "roaming", BundleKind::Mixed, &[(Unit::Mb, 3_072), (Unit::Min, 60)], "*149*88#", Text::new("World 3 GB + 60 minutes", "Dunia GB 3 + dakika 60"), 80_000, WEEK),
    Bundle::sold("biashara-starter", "biashara", BundleKind::Mixed, &[(Unit::Mb, 5_120), (Unit::Min, 300)], "*149*01#", Text::new("Biashara Starter: 5 GB + 300 minutes", "Biashara Starter: GB 5 + dakika 300"), 10_000, MONTH),
    Bundle::sold("biashara-pro", "biashara", BundleKind::Mixed, &[(Unit::Mb, 15_360), (Unit::Min, 800), (Unit::Sms, 500)], "*149*01#", Text::new("Biashara Pro: 15 GB + 800 minutes + 500 SMS", "Biashara Pro: GB 15 + dakika 800 + SMS 500"), 25_000, MONTH),
    Bundle::sold("biashara-max", "biashara", BundleKind::Mixed, &[(Unit::Mb, 40_960)], "*149*01#", Text::new("Biashara Max: 40 GB + unlimited Vodacom calls", "Biashara Max: GB 40 + simu za Vodacom bila kikomo"), 50_000, MONTH),
    Bundle::sold("miaka-25-2500mb", "anniversary", BundleKind::Data, &[(Unit::Mb, 2_560)], "*149*01#", Text::new("Miaka 25: 2.5 GB", "Miaka 25: GB 2.5"), 1_000, DAY),
    Bundle::sold("miaka-25-25gb", "anniversary", BundleKind::Mixed, &[(Unit::Mb, 25_600), (Unit::Min, 250)], "*149*01#", Text::new("Miaka 25: 25 GB + 250 minutes", "Miaka 25: GB 25 + dakika 250"), 25_000, MONTH),
    Bundle::sold("jimixie-daily", "jimixie", BundleKind::Mixed, &[(Unit::Mb, 1_024), (Unit::Min, 30), (Unit::Sms, 30)], "*149*03#", Text::new("1 GB + 30 minutes + 30 SMS", "GB 1 + dakika 30 + SMS 30"), 1_500, DAY),
    Bundle::sold("jimixie-weekly", "jimixie", BundleKind::Mixed, &[(Unit::Mb, 3_072), (Unit::Min, 100), (Unit::Sms, 100)], "*149*03#", Text::new("3 GB + 100 minutes + 100 SMS", "GB 3 + dakika 100 + SMS 100"), 6_000, WEEK),
    Bundle::sold("jimixie-monthly", "jimixie", BundleKind::Mixed, &[(Unit::Mb, 15_360), (Unit::Min, 400), (Unit::Sms, 200)], "*149*03#", Text::new("15 GB + 400 minutes + 200 SMS", "GB 15 + dakika 400 + SMS 200"), 30_000, MONTH),
    Bundle::by_code("j4u-daily", "just-for-you", BundleKind::Mixed, "*149*01#", Text::new("1.5 GB + 15 minutes", "GB 1.5 + dakika 15"), 1_000, DAY),
    Bundle::by_code("j4u-weekly", "just-for-you", BundleKind::Mixed, "*149*01#", Text::new("4 GB + 60 minutes", "GB 4 + dakika 60"), 4_000, WEEK),
    Bundle::by_code("j4u-monthly", "just-for-you", BundleKind::Mixed, "*149*01#", Text::new("12 GB + 300 minutes", "GB 12 + dakika 300"), 20_000, MONTH),
    Bundle::sold("pindua-500mb", "pinduapindua", BundleKind::Data, &[(Unit::Mb, 1_000)], "*149*23#", Text::new("500 MB + 500 MB night", "MB 500 + MB 500 usiku"), 500, DAY),
    Bundle::sold("pindua-2gb", "pinduapindua", BundleKind::Data, &[(Unit::Mb, 4_096)], "*149*23#", Text::new("2 GB + 2 GB night", "GB 2 + GB 2 usiku"), 2_000, THREE_DAYS),
    Bundle::sold("pindua-5gb", "pinduapindua", BundleKind::Data, &[(Unit::Mb, 10_240)], "*149*23#", Text::new("5 GB + 5 GB night", "GB 5 + GB 5 usiku"), 5_000, WEEK),
    Bundle::sold("pindua-100min", "pinduapindua", BundleKind::Voice, &[(Unit::Min, 200)], "*149*23#", Text::new("100 minutes + 100 night minutes", "Dakika 100 + dakika 100 usiku"), 2_500, WEEK),
    Bundle::by_code("red-basic", "red", BundleKind::Mixed, "*149*01#", Text::new("Red Basic: 15 GB + 500 minutes", "Red Basic: GB 15 + dakika 500"), 35_000, MONTH),
    Bundle::by_code("red-plus", "red", BundleKind::Mixed, "*149*01#", Text::new("Red Plus: 40 GB + unlimited Vodacom calls", "Red Plus: GB 40 + simu za Vodacom bila kikomo"), 60_000, MONTH),
    Bundle::by_code("red-premium", "red", BundleKind::Mixed, "*149*01#", Text::new("Red Premium: 100 GB + unlimited calls", "Red Premium: GB 100 + simu bila kikomo"), 120_000, MONTH),
    Bundle::by_code("red-rlx", "red", BundleKind::Mixed, "*149*01#", Text::new("Red RLX: unlimited data and calls + 5 GB roaming", "Red RLX: data na simu bila kikomo + GB 5 za roaming"), 250_000, MONTH),
    Bundle::sold("sport-match-300mb", "sport", BundleKind::Data, &[(Unit::Mb, 300)], "*149*01#", Text::new("Match day 300 MB", "Siku ya mechi MB 300"), 500, UNTIL_MIDNIGHT),
    Bundle::sold("sport-match-500mb", "sport", BundleKind::Mixed, &[(Unit::Mb, 500), (Unit::Min, 20)], "*149*01#", Text::new("Match day 500 MB + 20 minutes", "Siku ya mechi MB 500 + dakika 20"), 1_000, DAY),
    Bundle::sold("sport-fan-week", "sport", BundleKind::Data, &[(Unit::Mb, 3_072)], "*149*01#", Text::new("Fan week 3 GB + club news", "Wiki ya shabiki GB 3 + habari za klabu"), 4_000, WEEK),
    Bundle::sold("uni-day", "uni", BundleKind::Data, &[(Unit::Mb, 1_536)], "*149*90#", Text::new("Uni Day 1.5 GB", "Uni Siku GB 1.5"), 700, DAY),
    Bundle::sold("uni-week", "uni", BundleKind::Data, &[(Unit::Mb, 6_144)], "*149*90#", Text::new("Uni Week 6 GB", "Uni Wiki GB 6"), 3_500, WEEK),
    Bundle::sold("uni-month", "uni", BundleKind::Data, &[(Unit::Mb, 25_600)], "*149*90#", Text::new("Uni Month 25 GB", "Uni Mwezi GB 25"), 15_000, MONTH),
    Bundle::sold("vyb-day", "vyb", BundleKind::Data, &[(Unit::Mb, 300)], "*149*01#", Text::new("VYB Day: unlimited WhatsApp + 300 MB", "VYB Siku: WhatsApp bila kikomo + MB 300"), 500, DAY),
    Bundle::sold("vyb-week", "vyb", BundleKind::Data, &[(Unit::Mb, 1_024)], "*149*01#", Text::new("VYB Week: unlimited WhatsApp, TikTok, Instagram + 1 GB", "VYB Wiki: WhatsApp, TikTok, Instagram bila kikomo + GB 1"), 2_500, WEEK),
    Bundle::sold("vyb-month", "vyb", BundleKind::Data, &[(Unit::Mb, 5_120)], "*149*01#", Text::new("VYB Month: unlimited social + 5 GB", "VYB Mwezi: mitandao ya kijamii bila kikomo + GB 5"), 9_000, MONTH),
    Bundle::sold("showmax-weekly", "showmax", BundleKind::Data, &[(Unit::Mb, 2_048)], "*149*96#", Text::new("Showmax Mobile weekly + 2 GB", "Showmax Mobile wiki + GB 2"), 3_000, WEEK),
    Bundle::sold("showmax-monthly", "showmax", BundleKind::Data, &[(Unit::Mb, 8_192)], "*149*96#", Text::new("Showmax Mobile monthly + 8 GB", "Showmax Mobile mwezi + GB 8"), 9_900, MONTH),
    Bundle::sold("showmax-premier-league", "showmax", BundleKind::Data, &[(Unit::Mb, 10_240)], "*149*96#", Text::new("Showmax Premier League Mobile + 10 GB", "Showmax Premier League Mobile + GB 10"), 15_000, MONTH),
    Bundle::by_code("afya-call-one", "afya-call", BundleKind::Service, "*149*77#", Text::new("One consultation", "Ushauri mmoja"), 1_000, DAY),
    Bundle::by_code("afya-call-family-week", "afya-call", BundleKind::Service, "*149*77#", Text::new("Family week: 5 consultations", "Wiki ya familia: ushauri 5"), 3_000, WEEK),
    Bundle::by_code("afya-call-family-month", "afya-call", BundleKind::Service, "*149*77#", Text::new("Family month: unlimited", "Mwezi wa familia: bila kikomo"), 8_000, MONTH),
    Bundle::by_code("call-status-missed", "call-status", BundleKind::Service, "*149*40#", Text::new("Missed call alerts", "Taarifa za simu ulizokosa"), 0, MONTH),
    Bundle::by_code("call-status-busy", "call-status", BundleKind::Service, "*149*40#", Text::new("Busy status messages", "Jumbe za hali ya shughuli"), 500, MONTH),
    Bundle::by_code("callertune-daily", "callertunes", BundleKind::Service, "*149*63#", Text::new("Caller tune daily", "Mlio wa kusubiri siku"), 150, DAY),
    Bundle::by_code("callertune-weekly", "callertunes", BundleKind::Service, "*149*63#", Text::new("Caller tune weekly", "Mlio wa kusubiri wiki"), 800, WEEK),
    Bundle::by_code("callertune-monthly", "callertunes", BundleKind::Service, "*149*63#", Text::new("Caller tune monthly", "Mlio wa kusubiri mwezi"), 2_500, MONTH),
    Bundle::by_code("e-gazeti-one", "e-gazeti", BundleKind::Service, "*149*15#", Text::new("One newspaper", "Gazeti moja"), 300, DAY),
    Bundle::by_code("e-gazeti-all-week", "e-gazeti", BundleKind::Service, "*149*15#", Text::new("All newspapers", "Magazeti yote"), 1_500, WEEK),
    Bundle::by_code("e-gazeti-all-month", "e-gazeti", BundleKind::Service, "*149*15#", Text::new("All newspapers", "Magazeti yote"), 5_000, MONTH),
    Bundle::by_code("elimika-day", "elimika", BundleKind::Service, "*149*12#", Text::new("Elimika day", "Elimika siku"), 200, DAY),
    Bundle::by_code("elimika-week", "elimika", BundleKind::Service, "*149*12#", Text::new("Elimika week", "Elimika wiki"), 1_000, WEEK),
    Bundle::by_code("elimika-month", "elimika", BundleKind::Service, "*149*12#", Text::new("Elimika month", "Elimika mwezi"), 3_000, MONTH),
    Bundle::by_code("magic-voice-10min", "magic", BundleKind::Service, "*149*50#", Text::new("Magic Voice 10 minutes", "Magic Voice dakika 10"), 500, DAY),
    Bundle::by_code("magic-voice-60min", "magic", BundleKind::Service, "*149*50#", Text::new("Magic Voice 60 minutes", "Magic Voice dakika 60"), 2_000, WEEK),
    Bundle::by_code("mdundo-day", "mdundo", BundleKind::Service, "*149*18#", Text::new("Mdundo Premium day", "Mdundo Premium siku"), 150, DAY),
    Bundle::by_code("mdundo-week", "mdundo", BundleKind::Service, "*149*18#", Text::new("Mdundo Premium week", "Mdundo Premium wiki"), 500, WEEK),
    Bundle::by_code("mdundo-month", "mdundo", BundleKind::Service, "*149*18#", Text::new("Mdundo Premium month + 1 GB", "Mdundo Premium mwezi + GB 1"), 2_000, MONTH),
    Bundle::by_code("moti-daily", "moti", BundleKind::Service, "*149*33#", Text::new("Moti daily", "Moti siku"), 100, DAY),
    Bundle::by_code("moti-weekly", "moti", BundleKind::Service, "*149*33#", Text::new("Moti weekly", "Moti wiki"), 500, WEEK),
    Bundle::by_code("moti-monthly", "moti", BundleKind::Service, "*149*33#", Text::new("Moti monthly", "Moti mwezi"), 1_500, MONTH),
    Bundle::by_code("ndoto-day", "ndoto-media", BundleKind::Service, "*149*25#", Text::new("Ndoto Day", "Ndoto Siku"), 500, DAY),
    Bundle::by_code("ndoto-week", "ndoto-media", BundleKind::Service, "*149*25#", Text::new("Ndoto Week", "Ndoto Wiki"), 2_000, WEEK),
    Bundle::by_code("ndoto-month", "ndoto-media", BundleKind::Service, "*149*25#", Text::new("Ndoto Month", "Ndoto Mwezi"), 6_000, MONTH),
    Bundle::by_code("smart-bango-1000", "smart-bango", BundleKind::Service, "*149*45#", Text::new("1,000 customers", "Wateja 1,000"), 10_000, DAY),
    Bundle::by_code("smart-bango-5000", "smart-bango", BundleKind::Service, "*149*45#", Text::new("5,000 customers", "Wateja 5,000"), 40_000, THREE_DAYS),
    Bundle::by_code("smart-bango-20000", "smart-bango", BundleKind::Service, "*149*45#", Text::new("20,000 customers", "Wateja 20,000"), 140_000, WEEK),
    Bundle::by_code("story-box-daily", "story-box", BundleKind::Service, "*149*21#", Text::new("Daily stories", "Hadithi za siku"), 200, DAY),
    Bundle::by_code("story-box-weekly", "story-box", BundleKind::Service, "*149*21#", Text::new("Weekly stories", "Hadithi za wiki"), 1_000, WEEK),
    Bundle::by_code("story-box-monthly", "story-box", BundleKind::Service, "*149*21#", Text::new("Monthly stories", "Hadithi za mwezi"), 3_000, MONTH),
    Bundle::by_code("ushauri-10min", "ushauri", BundleKind::Service, "*149*57#", Text::new("10 minutes with an expert", "Dakika 10 na mtaalamu"), 1_000, DAY),
    Bundle::by_code("ushauri-30min", "ushauri", BundleKind::Service, "*149*57#", Text::new("30 minutes with an expert", "Dakika 30 na mtaalamu"), 2_500, WEEK),
    Bundle::by_code("ushauri-farming-sms", "ushauri", BundleKind::Service, "*149*57#", Text::new("Farming tips by SMS", "Vidokezo vya kilimo kwa SMS"), 1_500, MONTH),
    Bundle::by_code("habari-daily", "voda-habari", BundleKind::Service, "*149*10#", Text::new("Daily news", "Habari za siku"), 100, DAY),
    Bundle::by_code("habari-weekly", "voda-habari", BundleKind::Service, "*149*10#", Text::new("Weekly news", "Habari za wiki"), 500, WEEK),
    Bundle::by_code("habari-monthly", "voda-habari", BundleKind::Service, "*149*10#", Text::new("Monthly news", "Habari za mwezi"), 1_500, MONTH),
    Bundle::by_code("njiwa-one", "voda-njiwa", BundleKind::Service, "*149*48#", Text::new("One greeting", "Salamu moja"), 300, DAY),
    Bundle::by_code("njiwa-five", "voda-njiwa", BundleKind::Service, "*149*48#", Text::new("Five greetings", "Salamu tano"), 1_200, WEEK),
    Bundle::by_code("njiwa-group-20", "voda-njiwa", BundleKind::Service, "*149*48#", Text::new("Group greeting to 20 numbers", "Salamu kwa kundi la namba 20"), 4_000, DAY),
    Bundle::by_code("vtv-day", "vtv", BundleKind::Service, "*149*27#", Text::new("VTV Day", "VTV Siku"), 500, DAY),
    Bundle::by_code("vtv-week", "vtv", BundleKind::Service, "*149*27#", Text::new("VTV Week", "VTV Wiki"), 2_500, WEEK),
    Bundle::by_code("vtv-month", "vtv", BundleKind::Service, "*149*27#", Text::new("VTV Month", "VTV Mwezi"), 8_000, MONTH),
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
                let [(_, amount)] = bundle.allowances else { panic!("{id}: a held bundle has one allowance") };
                assert!(remaining <= amount, "{id}");
            }
        }
        let mut permission_ids: Vec<_> = PERMISSIONS.iter().map(|p| p.id).collect();
        permission_ids.sort_unstable();
        permission_ids.dedup();
        assert_eq!(permission_ids.len(), PERMISSIONS.len());
    }

    #[test]
    fn what_is_sold_online_credits_something_and_each_unit_once() {
        for bundle in BUNDLES {
            assert_eq!(bundle.online, !bundle.allowances.is_empty(), "{}", bundle.id);
            let mut units: Vec<_> = bundle.allowances.iter().map(|(unit, _)| unit.as_str()).collect();
            units.sort_unstable();
            units.dedup();
            assert_eq!(units.len(), bundle.allowances.len(), "{}", bundle.id);
            assert!(bundle.allowances.iter().all(|(_, amount)| *amount > 0), "{}", bundle.id);
            assert!(bundle.ussd.starts_with('*') && bundle.ussd.ends_with('#'), "{}", bundle.id);
        }
    }
}
