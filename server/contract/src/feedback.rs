//! What an API answer tells the visitor besides its data, the one shape
//! the server writes and the app reads: [`Feedback`] is the whole body of
//! every API failure, and sits beside the data of a success; [`Notice`] is
//! a message for the toast (or, left by a form post, for the next page);
//! [`Problem`] what is wrong with a form's field.
//!
//! The server words nothing itself: it names a string of the app
//! (`app/src/i18n/en.ts`, and `sw.ts`) by key, with the values its text
//! names, and the app translates it, in the server's render and in the
//! browser alike. A key the app has no text for fails `tsc`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `{ "notice"?, "errors"?, "redirect"? }`.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Feedback {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub notice: Option<Notice>,
    /// What is wrong with a form, by field path (`applicants[1].email`);
    /// `form` for the whole form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, Problem>")]
    pub errors: Option<BTreeMap<String, Problem>>,
    /// A path of this site the page goes to next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub redirect: Option<String>,
}

/// A string key under the app's `notify.` strings ([`NoticeKey`], with the
/// values its text names), or a text already in the visitor's language (the
/// operator's own message).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Notice {
    #[serde(rename = "type")]
    pub kind: NoticeKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub key: Option<String>,
    /// The values the key's text names (`{{bundle}}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, string>")]
    pub params: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
    /// How long the toast shows, in milliseconds; the app's default otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub duration: Option<u32>,
}

/// A notice the app has words for: the key of one of its `notify.` strings
/// (`app/src/i18n/en.ts`, and `sw.ts`). The server names its notices only
/// through this enum, and `tsc` fails on a key the app has no text for
/// (`app/src/features/account/notices.ts`), so the server cannot send a
/// notice the app cannot show. On the wire it is [`Notice::key`]'s string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ServerNoticeKey")]
pub enum NoticeKey {
    InvalidMsisdn,
    InvalidCode,
    RateLimited,
    SomethingWentWrong,
    ServiceUnavailable,
    SessionExpired,
    SignInFirst,
    ErrorOccurred,
    NotRight,
    BalanceError,
    OtpSent,
    CrossSite,
    /// A post that said nothing of where it came from and carried no token.
    SendAgain,
    BadRequest,
    PermissionSaved,
    CannotSendTo,
    ModemNotRegistered,
    ModemCodeSent,
    ModemRegistered,
    /// `{{bundle}}` for `{{recipient}}`.
    PurchaseReceivedFor,
    PurchaseRepeat,
    PurchaseUnconfirmed,
    /// Counted: `{{seconds}}`.
    CodeWaitSeconds,
    /// Counted: `{{minutes}}`.
    CodeWaitMinutes,
    /// What was sent did not arrive whole within its time limit (408).
    RequestTimeout,
}

/// The key as the app's strings spell it (`crossSite`).
impl std::fmt::Display for NoticeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.serialize(f)
    }
}

/// How a notice shows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum NoticeKind {
    Info,
    /// Shown green: the colour the design gives "it worked".
    Warning,
    Error,
}

impl Notice {
    pub fn key(kind: NoticeKind, key: NoticeKey) -> Notice {
        Notice { kind, key: Some(key.to_string()), params: None, text: None, duration: None }
    }

    pub fn text(kind: NoticeKind, text: &str) -> Notice {
        Notice { kind, key: None, params: None, text: Some(text.to_owned()), duration: None }
    }

    /// The values the key's text names.
    pub fn with_params<'a>(mut self, params: impl IntoIterator<Item = (&'a str, &'a str)>) -> Notice {
        self.params = Some(params.into_iter().map(|(name, value)| (name.to_owned(), value.to_owned())).collect());
        self
    }

    pub fn lasting(mut self, ms: u32) -> Notice {
        self.duration = Some(ms);
        self
    }
}

/// What is wrong with a form's field (under `form`: with the whole form):
/// the key of one of the app's `forms.problems.` strings, with the values
/// its text names. On the wire `{ "key": "tooLong", "params": { "max": 100 } }`;
/// `tsc` fails on a key the app has no text for
/// (`app/src/features/forms/problems.ts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "key", content = "params", rename_all = "camelCase")]
pub enum Problem {
    Required,
    TooLong {
        max: u32,
    },
    Email,
    Phone,
    Choice,
    NoService,
    TwoApplicants,
    TooManyRows {
        max: u32,
    },
    NoBudgetLine,
    Date,
    EndBeforeStart,
    Amount,
    Count {
        min: u32,
        max: u32,
    },
    NotPdf,
    TooLargePdf,
    /// The whole form: too many were sent from the visitor's address.
    TooMany,
    /// The whole form: its body could not be read.
    Unreadable,
    /// The whole form: it could not be kept just now.
    NotSaved,
}
