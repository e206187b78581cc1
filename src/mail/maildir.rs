//! A Maildir folder (`new/`, `cur/`, `tmp/`): mail waiting in `new/`, moved to `cur/` once
//! handled (`mark_handled`) or removed once the judge has stored it (`remove`, for the inbox:
//! a raw letter holds its passwords), and delivery the Maildir way (write into `tmp/`, then
//! rename into `new/`).
//!
//! A message that cannot be read stays where it is and is reported for itself, while the
//! others go on.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
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

/// A message written into `tmp/` by `Maildir::stage`, waiting for `Maildir::deliver_staged`.
#[derive(Debug)]
pub struct Staged {
    id: String,
}

/// The mode of the folders and files the judge makes in a Maildir.
const PRIVATE_FOLDER: u32 = 0o700;
const PRIVATE_FILE: u32 = 0o600;

/// Threads that flush staged messages to disk together (`Maildir::deliver_staged`).
const FLUSHERS: usize = 8;

/// Makes each delivery of this process unique, even several in one microsecond.
static DELIVERIES: AtomicU64 = AtomicU64::new(0);

impl Maildir {
    /// Opens the Maildir at `path`, creating it and its `new/`, `cur/` and `tmp/` if missing.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Maildir> {
        let root = path.as_ref().to_path_buf();
        // Letters hold passwords and tokens: a Maildir the judge makes is its own user's
        // alone, whatever the process's umask.
        for sub in ["new", "cur", "tmp"] {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(PRIVATE_FOLDER)
                .create(root.join(sub))?;
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

    /// Removes a message from the Maildir (from `new/`, or `cur/` where an older judge moved
    /// it): the judge holds it in its database. A message no longer there is no error.
    pub fn remove(&self, message: &MaildirMessage) -> io::Result<()> {
        match fs::remove_file(&message.path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => match self.find_in_cur(&message.id)? {
                Some(path) => fs::remove_file(path),
                None => Ok(()),
            },
            other => other,
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
                .mode(PRIVATE_FILE)
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

    /// Writes a message into `tmp/` without waiting for the disk, to be delivered with others
    /// by `deliver_staged`. Nothing is in `new/` yet: a reader of the Maildir never sees it,
    /// and a crash before the delivery leaves at most a file in `tmp/`.
    pub fn stage(&self, raw: &[u8]) -> io::Result<Staged> {
        let id = unique_name();
        let temporary = self.root.join("tmp").join(&id);
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(PRIVATE_FILE)
            .open(&temporary)
            .and_then(|mut file| file.write_all(raw));
        if let Err(e) = written {
            let _ = fs::remove_file(&temporary);
            return Err(e);
        }
        Ok(Staged { id })
    }

    /// Delivers staged messages together, as `deliver` delivers one: each is flushed to disk,
    /// then all are renamed into `new/`, then `new/` is flushed once. Many messages thus wait
    /// for the disk together rather than one after the other.
    ///
    /// On an error none of them counts as delivered: those still in `tmp/` are removed, and
    /// those already in `new/` stay there (delivered again later, they are there twice).
    pub fn deliver_staged(&self, staged: Vec<Staged>) -> io::Result<()> {
        let temporary = |s: &Staged| self.root.join("tmp").join(&s.id);
        // Flushed from a few threads at once, the files share the file system's commits to
        // its journal rather than waiting for one each.
        let share = staged.len().div_ceil(FLUSHERS).max(1);
        let flushed = std::thread::scope(|scope| {
            let flushers: Vec<_> = staged
                .chunks(share)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .try_for_each(|s| File::open(temporary(s)).and_then(|f| f.sync_data()))
                    })
                })
                .collect();
            flushers.into_iter().try_for_each(|f| {
                f.join()
                    .unwrap_or_else(|_| Err(io::Error::other("a flushing thread failed")))
            })
        });
        let mut moved = 0;
        let delivered = flushed.and_then(|()| {
            staged.iter().try_for_each(|s| {
                fs::rename(temporary(s), self.root.join("new").join(&s.id))?;
                moved += 1;
                Ok(())
            })
        });
        if let Err(e) = delivered {
            for s in &staged[moved..] {
                let _ = fs::remove_file(temporary(s));
            }
            return Err(e);
        }
        if moved > 0 {
            File::open(self.root.join("new"))?.sync_all()?;
        }
        Ok(())
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
    fn staged_messages_appear_in_new_only_once_delivered() {
        let root = std::env::temp_dir().join(format!("strategos-staged-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let maildir = Maildir::open(&root).unwrap();
        let staged: Vec<Staged> = (0..3)
            .map(|i| maildir.stage(format!("letter {i}").as_bytes()).unwrap())
            .collect();
        assert!(maildir.pending().unwrap().is_empty(), "nothing in new/ yet");
        assert_eq!(fs::read_dir(root.join("tmp")).unwrap().count(), 3);
        maildir.deliver_staged(staged).unwrap();
        let pending = maildir.pending().unwrap();
        let mut bodies: Vec<Vec<u8>> = pending.iter().map(|m| maildir.read(m).unwrap()).collect();
        bodies.sort();
        assert_eq!(
            bodies,
            [
                b"letter 0".to_vec(),
                b"letter 1".to_vec(),
                b"letter 2".to_vec()
            ]
        );
        assert_eq!(fs::read_dir(root.join("tmp")).unwrap().count(), 0);
        maildir.deliver_staged(Vec::new()).unwrap();
        // A staged message whose file went away: an error, and the others are not delivered.
        let lost = maildir.stage(b"lost").unwrap();
        let kept = maildir.stage(b"kept").unwrap();
        fs::remove_file(root.join("tmp").join(&lost.id)).unwrap();
        assert!(maildir.deliver_staged(vec![lost, kept]).is_err());
        assert_eq!(maildir.pending().unwrap().len(), 3);
        assert_eq!(fs::read_dir(root.join("tmp")).unwrap().count(), 0);
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn unique_names_differ() {
        assert_ne!(unique_name(), unique_name());
        assert!(!unique_name().contains('/'));
    }
}
