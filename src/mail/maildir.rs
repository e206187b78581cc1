//! A Maildir folder (`new/`, `cur/`, `tmp/`): mail waiting in `new/`, moved to `cur/` once
//! handled, and delivery the Maildir way (write into `tmp/`, then rename into `new/`).
//!
//! Nothing is ever deleted here: a message that cannot be read stays where it is and is
//! reported for itself, while the others go on.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A Maildir folder on disk.
#[derive(Clone, Debug)]
pub struct Maildir {
    root: PathBuf,
}

/// A message waiting in `new/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaildirMessage {
    /// The file name without the `:2,` info part: the message's name in this Maildir.
    pub id: String,
    /// Where the message is now.
    pub path: PathBuf,
}

/// Makes each delivery of this process unique, even several in one microsecond.
static DELIVERIES: AtomicU64 = AtomicU64::new(0);

impl Maildir {
    /// Opens the Maildir at `path`, creating it and its `new/`, `cur/` and `tmp/` if missing.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Maildir> {
        let root = path.as_ref().to_path_buf();
        for sub in ["new", "cur", "tmp"] {
            fs::create_dir_all(root.join(sub))?;
        }
        Ok(Maildir { root })
    }

    /// The folder holding `new/`, `cur/` and `tmp/`.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// The messages waiting in `new/`, oldest first (by modification time, then name).
    ///
    /// Fails only if `new/` itself cannot be listed; an entry whose details cannot be read is
    /// still listed (its `read` will say what is wrong). Hidden files and folders are skipped.
    pub fn pending(&self) -> io::Result<Vec<MaildirMessage>> {
        let mut found = Vec::new();
        for entry in fs::read_dir(self.root.join("new"))? {
            let Ok(entry) = entry else { continue };
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                // Maildir names are ASCII; anything else is not a delivery of ours to read.
                continue;
            };
            if name.starts_with('.') || entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let modified = entry
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(UNIX_EPOCH);
            let message = MaildirMessage {
                id: id_of(&name).to_owned(),
                path: entry.path(),
            };
            found.push((modified, name, message));
        }
        found.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        Ok(found.into_iter().map(|(_, _, message)| message).collect())
    }

    /// The raw bytes of a message, wherever it is now (`new/`, or `cur/` once handled).
    pub fn read(&self, message: &MaildirMessage) -> io::Result<Vec<u8>> {
        match fs::read(&message.path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => match self.find_in_cur(&message.id)? {
                Some(path) => fs::read(path),
                None => Err(e),
            },
            other => other,
        }
    }

    /// Moves a message from `new/` to `cur/`, flagged seen (`cur/<id>:2,S`).
    ///
    /// Marking a message that is already in `cur/` does nothing; a message found in neither
    /// place is a `NotFound` error.
    pub fn mark_handled(&self, message: &MaildirMessage) -> io::Result<()> {
        let name = message
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&message.id)
            .to_owned();
        let source = self.root.join("new").join(&name);
        let target = self.root.join("cur").join(seen_name(&message.id, &name));
        match fs::rename(&source, &target) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => match self.find_in_cur(&message.id)? {
                Some(_) => Ok(()),
                None => Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!(
                        "message {} is in neither new/ nor cur/ of {}",
                        message.id,
                        self.root.display()
                    ),
                )),
            },
            Err(e) => Err(e),
        }
    }

    /// Delivers a message: writes it to `tmp/<unique>`, flushes it to disk, then renames it into
    /// `new/`. Returns the new message's id.
    pub fn deliver(&self, raw: &[u8]) -> io::Result<String> {
        let id = unique_name();
        let temporary = self.root.join("tmp").join(&id);
        let written = (|| {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temporary)?;
            file.write_all(raw)?;
            file.sync_all()?;
            fs::rename(&temporary, self.root.join("new").join(&id))
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&temporary);
            return Err(e);
        }
        // Make the rename itself durable; a failure here loses nothing already written.
        if let Ok(dir) = File::open(self.root.join("new")) {
            let _ = dir.sync_all();
        }
        Ok(id)
    }

    /// The file in `cur/` for a message id, if there is one.
    fn find_in_cur(&self, id: &str) -> io::Result<Option<PathBuf>> {
        for entry in fs::read_dir(self.root.join("cur"))? {
            let Ok(entry) = entry else { continue };
            if entry
                .file_name()
                .to_str()
                .is_some_and(|name| id_of(name) == id)
            {
                return Ok(Some(entry.path()));
            }
        }
        Ok(None)
    }
}

/// A file name without its `:2,FLAGS` info part.
fn id_of(name: &str) -> &str {
    name.split_once(":2,").map_or(name, |(id, _)| id)
}

/// The name in `cur/` of a handled message: its flags plus `S`, kept in ASCII order.
fn seen_name(id: &str, name: &str) -> String {
    let mut flags: Vec<char> = name
        .split_once(":2,")
        .map_or("", |(_, f)| f)
        .chars()
        .collect();
    if !flags.contains(&'S') {
        flags.push('S');
    }
    flags.sort_unstable();
    flags.dedup();
    format!("{id}:2,{}", flags.into_iter().collect::<String>())
}

/// `<seconds>.M<microseconds>P<pid>Q<count>.<host>`, the Maildir convention for unique names.
fn unique_name() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let count = DELIVERIES.fetch_add(1, Ordering::Relaxed);
    format!(
        "{}.M{:06}P{}Q{}.{}",
        now.as_secs(),
        now.subsec_micros(),
        std::process::id(),
        count,
        host_name()
    )
}

/// This machine's name, with `/` and `:` escaped as the Maildir convention asks.
fn host_name() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_owned())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "localhost".to_owned());
    name.replace('/', "\\057").replace(':', "\\072")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_part_is_not_part_of_the_id() {
        assert_eq!(id_of("123.M4P5.host:2,S"), "123.M4P5.host");
        assert_eq!(id_of("123.M4P5.host"), "123.M4P5.host");
    }

    #[test]
    fn handled_names_keep_their_flags() {
        assert_eq!(seen_name("x", "x"), "x:2,S");
        assert_eq!(seen_name("x", "x:2,RF"), "x:2,FRS");
        assert_eq!(seen_name("x", "x:2,S"), "x:2,S");
    }

    #[test]
    fn unique_names_differ() {
        assert_ne!(unique_name(), unique_name());
        assert!(!unique_name().contains('/'));
    }
}
