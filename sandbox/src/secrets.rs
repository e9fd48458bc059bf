//! Codes and tokens from the operating system's CSPRNG, and the hashes the
//! database keeps instead of them. A code has only a million values, so each
//! is hashed with its own salt; a token has 256 random bits, so its plain
//! SHA-256 is a safe lookup key.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::domain::OtpCode;

/// A fresh 6-digit code, uniform over 000000–999999.
pub(super) fn new_code() -> Result<OtpCode, getrandom::Error> {
    const CODES: u32 = 1_000_000;
    // Values at or above the last whole multiple of a million would favour
    // low codes; drawing again removes the bias.
    const LIMIT: u32 = u32::MAX - u32::MAX % CODES;
    loop {
        let value = getrandom::u32()?;
        if value < LIMIT {
            let code = format!("{:06}", value % CODES);
            return Ok(OtpCode::parse(&code).expect("six digits"));
        }
    }
}

pub(super) fn new_salt() -> Result<[u8; 16], getrandom::Error> {
    let mut salt = [0; 16];
    getrandom::fill(&mut salt)?;
    Ok(salt)
}

pub(super) fn code_hash(salt: &[u8], code: &OtpCode) -> Vec<u8> {
    Sha256::new().chain_update(salt).chain_update(code.as_str()).finalize().to_vec()
}

/// Whether `code` is the one whose salted hash is `hash`, in constant time.
pub(super) fn code_matches(salt: &[u8], hash: &[u8], code: &OtpCode) -> bool {
    code_hash(salt, code).ct_eq(hash).into()
}

/// A fresh token (32 random bytes, URL-safe base64) and its hash.
pub(super) fn new_token() -> Result<(String, Vec<u8>), getrandom::Error> {
    let mut bytes = [0; 32];
    getrandom::fill(&mut bytes)?;
    let token = URL_SAFE_NO_PAD.encode(bytes);
    let hash = token_hash(&token);
    Ok((token, hash))
}

pub(super) fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_six_digits_and_vary() {
        let codes: std::collections::HashSet<String> =
            (0..50).map(|_| new_code().unwrap().as_str().to_owned()).collect();
        assert!(codes.iter().all(|c| c.len() == 6 && c.bytes().all(|b| b.is_ascii_digit())));
        assert!(codes.len() > 45, "50 draws from a million should barely collide");
    }

    #[test]
    fn a_code_matches_only_its_own_salted_hash() {
        let code = OtpCode::parse("123456").unwrap();
        let salt = new_salt().unwrap();
        let hash = code_hash(&salt, &code);
        assert!(code_matches(&salt, &hash, &code));
        assert!(!code_matches(&salt, &hash, &OtpCode::parse("123457").unwrap()));
        assert!(!code_matches(&new_salt().unwrap(), &hash, &code));
        assert!(!code_matches(&salt, &[], &code), "no code matches an empty hash");
    }

    #[test]
    fn tokens_are_url_safe_and_hashed() {
        let (token, hash) = new_token().unwrap();
        assert_eq!(token.len(), 43);
        assert!(token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert_eq!(hash, token_hash(&token));
        assert_ne!(new_token().unwrap().0, token);
    }
}
