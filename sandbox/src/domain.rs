//! Values checked once at the edge: past a handler's first lines, nothing
//! re-checks a string.

use std::fmt;

use rusqlite::ToSql;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};

/// What a call's input got wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum InvalidInput {
    Msisdn,
    Code,
}

/// A Tanzanian number as the contract writes it: `255` and 9 more digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Msisdn(String);

impl Msisdn {
    pub fn parse(input: &str) -> Result<Msisdn, InvalidInput> {
        if input.len() == 12 && input.starts_with("255") && input.bytes().all(|b| b.is_ascii_digit()) {
            Ok(Msisdn(input.to_owned()))
        } else {
            Err(InvalidInput::Msisdn)
        }
    }

    /// The number as an SMS to someone else shows it: the country code and
    /// the last three digits.
    pub fn masked(&self) -> String {
        format!("{} *** *** {}", &self.0[..3], &self.0[9..])
    }
}

impl fmt::Display for Msisdn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl serde::Serialize for Msisdn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl ToSql for Msisdn {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

impl FromSql for Msisdn {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Msisdn> {
        let text = value.as_str()?;
        Msisdn::parse(text).map_err(|_| FromSqlError::Other(format!("not a number: {text:?}").into()))
    }
}

/// A one-time code: 6 digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OtpCode(String);

impl OtpCode {
    pub const DIGITS: usize = 6;

    pub fn parse(input: &str) -> Result<OtpCode, InvalidInput> {
        if input.len() == OtpCode::DIGITS && input.bytes().all(|b| b.is_ascii_digit()) {
            Ok(OtpCode(input.to_owned()))
        } else {
            Err(InvalidInput::Code)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for OtpCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a code, and the token it is exchanged for, opens: the subscriber's
/// own account, a modem's (code sent to its alternative number), the
/// customer permission management area, or registering an alternative
/// number for a modem (code sent to the modem; exchanged for no token). A
/// code or token of one purpose never works for another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Purpose {
    SignIn,
    Modem,
    Cpm,
    ModemRegistration,
}

impl Purpose {
    const ALL: [Purpose; 4] = [Purpose::SignIn, Purpose::Modem, Purpose::Cpm, Purpose::ModemRegistration];

    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::SignIn => "sign-in",
            Purpose::Modem => "modem",
            Purpose::Cpm => "cpm",
            Purpose::ModemRegistration => "modem-registration",
        }
    }

    pub fn parse(input: &str) -> Option<Purpose> {
        Purpose::ALL.into_iter().find(|p| p.as_str() == input)
    }
}

impl ToSql for Purpose {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for Purpose {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Purpose> {
        let text = value.as_str()?;
        Purpose::parse(text).ok_or_else(|| FromSqlError::Other(format!("unknown purpose {text:?}").into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msisdn_is_twelve_digits_starting_255() {
        assert!(Msisdn::parse("255754000001").is_ok());
        for bad in ["", "0754000001", "+255754000001", "25575400000", "2557540000011", "254754000001", "25575400000a"] {
            assert_eq!(Msisdn::parse(bad), Err(InvalidInput::Msisdn), "{bad}");
        }
    }

    #[test]
    fn code_is_six_digits() {
        assert!(OtpCode::parse("012345").is_ok());
        for bad in ["", "12345", "1234567", "12345a", " 12345"] {
            assert_eq!(OtpCode::parse(bad), Err(InvalidInput::Code), "{bad}");
        }
    }

    #[test]
    fn a_masked_number_shows_its_country_code_and_last_three_digits() {
        assert_eq!(Msisdn::parse("255754000001").unwrap().masked(), "255 *** *** 001");
    }

    #[test]
    fn purposes_round_trip() {
        for purpose in Purpose::ALL {
            assert_eq!(Purpose::parse(purpose.as_str()), Some(purpose));
        }
        assert_eq!(Purpose::parse("admin"), None);
    }
}
