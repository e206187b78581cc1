//! Passwords: stored only as argon2id hashes, compared in constant time, and remembered for
//! the life of the process once checked, so that a player's tenth letter does not cost another
//! 20 ms of argon2.
//!
//! Every hash and check fills the same work area of argon2 blocks (19 MiB with the default
//! parameters), kept for the life of the process: memory does not grow with the number of
//! passwords a letter holds. (Left to argon2, each check allocates and frees its own 19 MiB,
//! which the allocator keeps: a letter with 150 checks grew the process to 2.9 GB.) A stored
//! hash asking for more memory than `MOST_BLOCKS` matches nothing.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::judge::session::Session;
use crate::msg;
use argon2::{Algorithm, Argon2, Block, Params, PasswordHash, Version};
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

/// The most argon2 blocks (of 1 KiB) a check may use: twice the default, so that hashes made
/// with somewhat stronger parameters still check; a stored hash asking for more is refused.
const MOST_BLOCKS: usize = 2 * Params::DEFAULT_M_COST as usize;

/// The one argon2 work area, grown to the largest size used so far (at most `MOST_BLOCKS`).
fn work_area() -> &'static Mutex<Vec<Block>> {
    static AREA: OnceLock<Mutex<Vec<Block>>> = OnceLock::new();
    AREA.get_or_init(|| Mutex::new(Vec::new()))
}

/// argon2 with `params` into `out`, in the shared work area.
fn argon2_into(
    algorithm: Algorithm,
    version: Version,
    params: Params,
    password: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> Option<()> {
    let blocks = params.block_count();
    if blocks > MOST_BLOCKS {
        return None;
    }
    let mut area = work_area().lock().unwrap_or_else(|e| e.into_inner());
    if area.len() < blocks {
        area.resize(blocks, Block::default());
    }
    Argon2::new(algorithm, version, params)
        .hash_password_into_with_memory(password, salt, out, &mut area[..blocks])
        .ok()
}

/// The PHC string of `password`'s argon2id hash, with a fresh random salt.
pub fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    // Without the system's randomness the salt falls back to a digest of the password and
    // the time: unique enough, and the hash still needs argon2 to be checked.
    if getrandom::fill(&mut salt).is_err() {
        let mut hasher = Blake2b512::new();
        hasher.update(password.as_bytes());
        hasher.update(format!("{:?}", std::time::SystemTime::now()).as_bytes());
        salt.copy_from_slice(&hasher.finalize()[..16]);
    }
    let params = Params::default();
    let mut out = [0u8; 32];
    argon2_into(
        Algorithm::Argon2id,
        Version::V0x13,
        params.clone(),
        password.as_bytes(),
        &salt,
        &mut out,
    )
    .expect("argon2 with default parameters hashes any password");
    let hash = PasswordHash {
        algorithm: argon2::ARGON2ID_IDENT,
        version: Some(Version::V0x13.into()),
        params: (&params)
            .try_into()
            .expect("default parameters are written"),
        salt: Some(argon2::password_hash::phc::Salt::new(&salt).expect("16 bytes are a salt")),
        hash: Some(argon2::password_hash::phc::Output::new(&out).expect("32 bytes are an output")),
    }
    .to_string();
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
    let matches = argon2_matches(password, hash);
    if matches {
        remember(password, hash);
    }
    matches
}

/// argon2's own answer for `password` against the PHC string `hash`.
fn argon2_matches(password: &str, hash: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (&parsed.salt, &parsed.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm.as_str()) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from) {
        None => Version::default(),
        Some(Ok(version)) => version,
        Some(Err(_)) => return false,
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    let expected = expected.as_bytes();
    let mut out = vec![0u8; expected.len()];
    if argon2_into(
        algorithm,
        version,
        params,
        password.as_bytes(),
        salt,
        &mut out,
    )
    .is_none()
    {
        return false;
    }
    // Compared without stopping at the first difference.
    out.iter().zip(expected).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Most new passwords one letter may set (accounts, games, seats): each is an argon2 hash.
const MOST_PASSWORDS_SET: u32 = 5;

/// The stored form of a password the letter sets (a new account, game or seat), or
/// `None`, said on `line`, past `MOST_PASSWORDS_SET` in one letter: each costs argon2's
/// time, so one letter cannot make the judge hash for long.
pub(crate) fn new_password(cx: &mut Session<'_>, line: usize, password: &str) -> Option<String> {
    if cx.passwords_set >= MOST_PASSWORDS_SET {
        cx.fail(
            line,
            msg!("limits.passwords_set", most = MOST_PASSWORDS_SET),
        );
        return None;
    }
    cx.passwords_set += 1;
    Some(hash_password(password))
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::{PasswordHasher, PasswordVerifier};

    #[test]
    fn our_hashes_and_argon2s_own_check_each_other() {
        // Ours checks with argon2's own verifier, and a hash argon2 made itself (as the
        // judge wrote before its work area) checks with ours.
        let ours = hash_password("общий секрет");
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(
            Argon2::default()
                .verify_password("общий секрет".as_bytes(), &parsed)
                .is_ok()
        );
        let theirs = Argon2::default()
            .hash_password(b"pw-theirs")
            .unwrap()
            .to_string();
        assert!(argon2_matches("pw-theirs", &theirs));
        assert!(!argon2_matches("pw-theirs!", &theirs));
        // A hash asking for more memory than the work area allows matches nothing.
        let greedy = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(4 * Params::DEFAULT_M_COST, 1, 1, None).unwrap(),
        )
        .hash_password(b"pw-greedy")
        .unwrap()
        .to_string();
        assert!(!argon2_matches("pw-greedy", &greedy));
    }

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
