//! Passwords: stored only as argon2id hashes, checked in constant time by argon2 itself, and
//! remembered for the life of the process once checked, so that a player's tenth letter does
//! not cost another 20 ms of argon2.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use blake2::{Blake2b512, Digest};

/// Hashes known to match a password, each with a keyed digest of that password.
///
/// The key is drawn at start-up and never leaves memory, so nothing here can be checked
/// without the process, and no password is held in the clear. The cache lives only in
/// memory: after a restart every seat pays one argon2 verification again.
struct Verified {
    key: [u8; 32],
    digests: HashMap<String, [u8; 64]>,
}

/// At most this many hashes are remembered; past it the cache starts afresh.
const MOST_REMEMBERED: usize = 100_000;

fn verified() -> &'static Mutex<Verified> {
    static VERIFIED: OnceLock<Mutex<Verified>> = OnceLock::new();
    VERIFIED.get_or_init(|| {
        let mut key = [0u8; 32];
        // Without the system's randomness the cache stays empty (see `remember`).
        if getrandom::fill(&mut key).is_err() {
            key = [0; 32];
        }
        Mutex::new(Verified {
            key,
            digests: HashMap::new(),
        })
    })
}

fn digest(key: &[u8; 32], password: &str) -> [u8; 64] {
    let mut hasher = Blake2b512::new();
    hasher.update(key);
    hasher.update(password.as_bytes());
    hasher.finalize().into()
}

/// Compares without stopping at the first difference.
fn same(a: &[u8; 64], b: &[u8; 64]) -> bool {
    a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

fn remember(password: &str, hash: &str) {
    let mut cache = verified().lock().unwrap_or_else(|e| e.into_inner());
    if cache.key == [0; 32] {
        return;
    }
    if cache.digests.len() >= MOST_REMEMBERED {
        cache.digests.clear();
    }
    let d = digest(&cache.key, password);
    cache.digests.insert(hash.to_string(), d);
}

/// The PHC string of `password`'s argon2id hash, with a fresh random salt.
pub fn hash_password(password: &str) -> String {
    let hash = Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .expect("argon2 with default parameters hashes any password");
    remember(password, &hash);
    hash
}

/// Whether `password` matches the stored `hash` (false for a malformed hash).
pub fn password_matches(password: &str, hash: &str) -> bool {
    {
        let cache = verified().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = cache.digests.get(hash) {
            // A hash matches one password only: a different password is wrong.
            return same(known, &digest(&cache.key, password));
        }
    }
    let matches = Argon2::default()
        .verify_password(password.as_bytes(), hash)
        .is_ok();
    if matches {
        remember(password, hash);
    }
    matches
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

    #[test]
    fn remembered_hashes_still_refuse_other_passwords() {
        // A hash made elsewhere (another process): the first check runs argon2, then the
        // cache answers, and it must answer exactly as argon2 would.
        let hash = Argon2::default()
            .hash_password(b"pw-remembered")
            .unwrap()
            .to_string();
        assert!(!verified().lock().unwrap().digests.contains_key(&hash));
        assert!(!password_matches("wrong", &hash));
        assert!(!verified().lock().unwrap().digests.contains_key(&hash));
        assert!(password_matches("pw-remembered", &hash));
        assert!(verified().lock().unwrap().digests.contains_key(&hash));
        assert!(password_matches("pw-remembered", &hash));
        assert!(!password_matches("pw-remembered!", &hash));
        assert!(!password_matches("", &hash));
    }
}
