//! Passwords: stored only as argon2id hashes, checked in constant time by argon2 itself.

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

/// The PHC string of `password`'s argon2id hash, with a fresh random salt.
pub fn hash_password(password: &str) -> String {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .expect("argon2 with default parameters hashes any password")
}

/// Whether `password` matches the stored `hash` (false for a malformed hash).
pub fn password_matches(password: &str, hash: &str) -> bool {
    Argon2::default()
        .verify_password(password.as_bytes(), hash)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_checks_only_its_password() {
        let hash = hash_password("секрет");
        assert!(hash.starts_with("$argon2id$"));
        assert!(password_matches("секрет", &hash));
        assert!(!password_matches("секрет ", &hash));
        assert!(!password_matches("секрет", "not a hash"));
        assert_ne!(hash, hash_password("секрет"), "salts differ");
    }
}
