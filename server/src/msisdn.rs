//! Phone numbers and one-time codes, parsed once at the edge.

use std::fmt;

use contract::protocol::field_lengths::OTP_CODE;

/// A Tanzanian mobile number, kept as international digits (`255754000001`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Msisdn(String);

/// What people type between a number's digits.
const SEPARATORS: [char; 5] = [' ', '.', '-', '(', ')'];
/// What people write before the national number, longest first: the
/// country code (with its trunk `0` kept, or its `+` left out), the trunk
/// `0` alone, or nothing.
const PREFIXES: [&str; 6] = ["+2550", "+255", "2550", "255", "0", ""];

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("not a Tanzanian mobile number")]
    Msisdn,
    #[error("the code must be 6 digits")]
    Code,
}

impl Msisdn {
    /// Accepts `+255 754 000 001`, `255754000001`, `0754000001`, the bare
    /// `754000001` and `+255 (0)754 000 001`, with spaces, dots, dashes and
    /// brackets anywhere inside (people write numbers all these ways);
    /// anything that is not a valid Tanzanian mobile number is refused. The
    /// app's `msisdn.ts` follows the same rule, and
    /// `tests/twins/phone-numbers.json` holds the cases both are checked
    /// against. Nothing else is read: a parser that guessed would turn
    /// letters into keypad digits (`0754-ADG-JMP`), and money must never go
    /// to a number the visitor did not type.
    pub fn parse(input: &str) -> Result<Msisdn, InputError> {
        let national = national_digits(input).ok_or(InputError::Msisdn)?;
        // Which ranges are mobile numbers is the numbering plan's, kept by `phonenumber`.
        let number = phonenumber::parse(None, format!("+255{national}")).map_err(|_| InputError::Msisdn)?;
        let mobile = matches!(
            number.number_type(&phonenumber::metadata::DATABASE),
            phonenumber::Type::Mobile | phonenumber::Type::FixedLineOrMobile
        );
        if !phonenumber::is_valid(&number) || !mobile {
            return Err(InputError::Msisdn);
        }
        Ok(Msisdn(format!("255{national}")))
    }

    /// International digits without `+`, as the operator API wants them.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `2557•••••001`: the number shown to someone who should not learn it,
    /// enough to recognise one's own.
    pub fn masked(&self) -> String {
        let (head, tail) = (&self.0[..4], &self.0[self.0.len() - 3..]);
        format!("{head}{}{tail}", "•".repeat(self.0.len() - 7))
    }

    /// `0754 000 001`, the way Tanzanians write their numbers.
    pub fn local(&self) -> String {
        let national = &self.0[3..];
        format!("0{} {} {}", &national[..3], &national[3..6], &national[6..])
    }
}

/// The national number's 9 digits of a Tanzanian number written any of
/// the ways [`Msisdn::parse`] takes, after at most one prefix; whether the
/// numbering plan has such a number is not asked here.
fn national_digits(input: &str) -> Option<String> {
    let compact: String = input.trim().chars().filter(|c| !SEPARATORS.contains(c)).collect();
    let national = PREFIXES.iter().find_map(|prefix| {
        compact.strip_prefix(prefix).filter(|rest| rest.len() == 9 && rest.bytes().all(|b| b.is_ascii_digit()))
    })?;
    Some(national.to_owned())
}

/// The national number of a place's phone (an agent's mobile, or a shop's
/// fixed line, which no [`Msisdn`] is), written as people write numbers;
/// `None` where it is none. The numbering plan is not asked: the phone is
/// only shown, and asking it for each of 180,000 places took 1.5 s of
/// every read of them (against 50 ms for the digits).
pub fn national_number(input: &str) -> Option<u32> {
    national_digits(input)?.parse().ok().filter(|n| *n > 0)
}

/// International digits, as stored and sent on.
impl serde::Serialize for Msisdn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Read as typed ([`Msisdn::parse`]): a number kept as international
/// digits reads back as the same number.
impl<'de> serde::Deserialize<'de> for Msisdn {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Msisdn, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(deserializer)?;
        Msisdn::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Msisdn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A one-time code: exactly 6 digits.
#[derive(Clone, PartialEq, Eq)]
pub struct OtpCode(String);

impl OtpCode {
    pub fn parse(input: &str) -> Result<OtpCode, InputError> {
        let code = input.trim();
        if code.len() == OTP_CODE && code.bytes().all(|b| b.is_ascii_digit()) {
            Ok(OtpCode(code.to_owned()))
        } else {
            Err(InputError::Code)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for OtpCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OtpCode(******)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_every_tanzanian_form() {
        for input in [
            "+255754000001",
            "255754000001",
            "0754000001",
            "754000001",
            "0754 000 001",
            "+255 (754) 000-001",
            "0754.000.001",
        ] {
            assert_eq!(Msisdn::parse(input).map(|m| m.to_string()), Ok("255754000001".into()), "{input}");
        }
        assert_eq!(Msisdn::parse("0754000001").unwrap().local(), "0754 000 001");
    }

    #[test]
    fn refuses_anything_else() {
        for input in ["", "12345", "+254712345678", "07540000011", "abc", "0222123456", "255", "+255 754 000 00"] {
            assert_eq!(Msisdn::parse(input), Err(InputError::Msisdn), "{input}");
        }
    }

    #[test]
    fn a_places_phone_may_be_a_fixed_line_which_is_no_msisdn() {
        assert_eq!(national_number("0754 000 111"), Some(754_000_111));
        assert_eq!(national_number("+255 22 212 3456"), Some(222_123_456), "a shop's line in Dar es Salaam");
        assert_eq!(Msisdn::parse("+255 22 212 3456"), Err(InputError::Msisdn));
        for input in ["12345", "0754 000 111 / 0784 000 222", "+254712345678", "000000000"] {
            assert_eq!(national_number(input), None, "{input}");
        }
    }

    #[test]
    fn refuses_letters_and_other_characters_instead_of_guessing() {
        let inputs = [
            "07540000O2",
            "0754-ADG-JMP",
            "0754000001x",
            "+255 754 000 00l",
            "0754+000001",
            "++255754000001",
            "0754\u{a0}000001",
            "０７５４０００００１",
            "0754000001;",
        ];
        for input in inputs {
            assert_eq!(Msisdn::parse(input), Err(InputError::Msisdn), "{input}");
        }
        assert_eq!(
            Msisdn::parse(" 0754 000 001\n").map(|m| m.to_string()),
            Ok("255754000001".into()),
            "surrounding blanks"
        );
    }

    #[test]
    fn codes_are_six_digits() {
        assert_eq!(OtpCode::parse(" 123456 ").unwrap().as_str(), "123456");
        for input in ["12345", "1234567", "12345a", ""] {
            assert!(OtpCode::parse(input).is_err(), "{input}");
        }
        assert_eq!(format!("{:?}", OtpCode::parse("123456").unwrap()), "OtpCode(******)");
    }
}
