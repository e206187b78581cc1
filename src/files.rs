//! Files the judge writes, and who may read them. Everything it makes is its own user's alone
//! (`keep_private` sets the process's umask to 0077 at start), except the public archive,
//! which is made world-readable on purpose (`PUBLIC`, `PUBLIC_FOLDER`). A file is written
//! whole under a new name of its own in its folder and renamed into place (`write_whole`): a
//! symbolic link planted at the name is replaced, never followed, and a reader never sees a
//! half-written file. `exposure` tells whether another user may read a file that holds
//! secrets (the configuration, the database, password files), for the checks at start.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file only its owner reads and writes.
pub const PRIVATE: u32 = 0o600;
/// A file of the public archive: anyone may read it.
pub const PUBLIC: u32 = 0o644;
/// A folder of the public archive: anyone may list and enter it.
pub const PUBLIC_FOLDER: u32 = 0o755;

/// The umask the judge runs under: nothing it creates is readable by group or others unless
/// it says so.
pub const UMASK: u32 = 0o077;

/// Sets the process's umask to `UMASK`, so that the database, its journal files, the
/// Maildirs and every copy the judge makes are its own user's alone, whatever umask it was
/// started with (a login shell's 022, a mail server's pipe). Returns the umask it replaced.
pub fn keep_private() -> u32 {
    // SAFETY: umask(2) only swaps the process's file-creation mask; it cannot fail.
    unsafe { libc::umask(UMASK as libc::mode_t) }
}

/// Makes each temporary name of this process unique.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// A new name beside `path` for its temporary copy: hidden, named for the file, this
/// process and a count, so no two writers share one.
fn temporary_beside(path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?
        .to_string_lossy();
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    Ok(path.with_file_name(format!(".{name}.{}.{n}.part", std::process::id())))
}

/// Creates `path` as a new file (never an existing one, never through a link) with `mode`,
/// whatever the umask.
fn create_new(path: &Path, mode: u32) -> io::Result<fs::File> {
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .mode(mode)
        .open(path)?;
    file.set_permissions(fs::Permissions::from_mode(mode))?;
    Ok(file)
}

/// Writes `bytes` to `path` with `mode`: whole into a new file beside it, then renamed over
/// it. Whatever was at `path` (a file, a symbolic link, a dangling link) is replaced; a link's
/// target is never written. On an error nothing is left but what was there before.
pub fn write_whole(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let temporary = temporary_beside(path)?;
    let written = create_new(&temporary, mode)
        .and_then(|mut file| file.write_all(bytes))
        .and_then(|()| fs::rename(&temporary, path));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// A new, empty file beside `path` that only its owner may read, for a copy made by another
/// writer (SQLite's `VACUUM INTO` writes into an empty file) before `link_new` puts it in
/// place. Returns its name.
pub fn new_private_beside(path: &Path) -> io::Result<PathBuf> {
    let temporary = temporary_beside(path)?;
    create_new(&temporary, PRIVATE)?;
    Ok(temporary)
}

/// Creates `path`, which must not exist, as an empty file only its owner may read (whatever
/// the umask), never through a link.
pub fn create_private(path: &Path) -> io::Result<()> {
    create_new(path, PRIVATE).map(drop)
}

/// Puts the finished file `temporary` in place as `path`, which must not exist (not even as
/// a link: `link(2)` neither follows nor replaces one), then removes the temporary name.
pub fn link_new(temporary: &Path, path: &Path) -> io::Result<()> {
    fs::hard_link(temporary, path)?;
    fs::remove_file(temporary)
}

/// Whether anything (a file, a folder, a link, even a dangling one) is at `path`.
pub fn taken(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Makes `folder` a real folder of the public archive: a symbolic link at its name is removed
/// (never followed), a missing folder is created, and its mode is `PUBLIC_FOLDER`.
pub fn public_folder(folder: &Path) -> io::Result<()> {
    match fs::symlink_metadata(folder) {
        Ok(meta) if meta.file_type().is_symlink() => fs::remove_file(folder)?,
        Ok(meta) if meta.is_dir() => {
            if meta.mode() & 0o7777 != PUBLIC_FOLDER {
                fs::set_permissions(folder, fs::Permissions::from_mode(PUBLIC_FOLDER))?;
            }
            return Ok(());
        }
        _ => {}
    }
    match fs::create_dir(folder) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        other => other?,
    }
    fs::set_permissions(folder, fs::Permissions::from_mode(PUBLIC_FOLDER))
}

/// Makes `root`, the top folder of the public archive, and any missing folder above it,
/// world-readable folders. An existing `root` is left as it is (it may be the keeper's link
/// to where the web server reads).
pub fn public_root(root: &Path) -> io::Result<()> {
    if root.is_dir() {
        return Ok(());
    }
    let mut missing = Vec::new();
    let mut at = Some(root);
    while let Some(folder) = at.filter(|f| !f.as_os_str().is_empty() && !taken(f)) {
        missing.push(folder);
        at = folder.parent();
    }
    for folder in missing.into_iter().rev() {
        public_folder(folder)?;
    }
    if root.is_dir() {
        Ok(())
    } else {
        Err(io::Error::other("it is not a folder"))
    }
}

/// Whether a user other than the judge's may read `path`, and who: `Some("every user")` for
/// a file others may read, `Some("group 1234")` for one its group may read when that group
/// is not the judge's own; `None` when only the judge (and root) may, or the file is absent.
/// Read through a link, as the judge reads the file.
pub fn exposure(path: &Path) -> Option<String> {
    let meta = fs::metadata(path).ok()?;
    let mode = meta.mode();
    if mode & 0o004 != 0 {
        return Some("every user".into());
    }
    // SAFETY: getegid(2) cannot fail.
    let own_group = unsafe { libc::getegid() };
    if mode & 0o040 != 0 && meta.gid() != own_group {
        return Some(format!("the users of group {}", meta.gid()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "strategos-files-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_write_replaces_a_link_and_never_writes_its_target() {
        let dir = folder("link");
        let target = dir.join("target");
        fs::write(&target, "kept").unwrap();
        let file = dir.join("index.html");
        std::os::unix::fs::symlink(&target, &file).unwrap();
        write_whole(&file, b"page", PUBLIC).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "kept");
        assert!(
            !fs::symlink_metadata(&file)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "page");
        assert_eq!(fs::metadata(&file).unwrap().mode() & 0o777, PUBLIC);
        // A dangling link: its target is not created.
        let nowhere = dir.join("nowhere");
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink(&nowhere, &dangling).unwrap();
        write_whole(&dangling, b"x", PRIVATE).unwrap();
        assert!(!taken(&nowhere));
        assert_eq!(fs::metadata(&dangling).unwrap().mode() & 0o777, PRIVATE);
        // Nothing is left beside them.
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".part")), "{names:?}");
        // A link to a folder in place of an archive folder is removed, not entered.
        let elsewhere = dir.join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        let game = dir.join("game");
        std::os::unix::fs::symlink(&elsewhere, &game).unwrap();
        public_folder(&game).unwrap();
        assert!(fs::symlink_metadata(&game).unwrap().is_dir());
        assert_eq!(fs::metadata(&game).unwrap().mode() & 0o777, PUBLIC_FOLDER);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_new_copy_is_linked_only_where_nothing_is() {
        let dir = folder("copy");
        let copy = dir.join("copy.db");
        let temporary = new_private_beside(&copy).unwrap();
        assert_eq!(fs::metadata(&temporary).unwrap().mode() & 0o777, PRIVATE);
        std::os::unix::fs::symlink(dir.join("elsewhere"), &copy).unwrap();
        assert!(link_new(&temporary, &copy).is_err(), "a link is in the way");
        assert!(!taken(&dir.join("elsewhere")));
        fs::remove_file(&copy).unwrap();
        link_new(&temporary, &copy).unwrap();
        assert!(!taken(&temporary));
        assert!(copy.is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn exposure_names_who_else_may_read() {
        let dir = folder("exposure");
        let file = dir.join("secret");
        fs::write(&file, "s").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(exposure(&file).as_deref(), Some("every user"));
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
        // The file's group is this process's own (it made it): only the judge's group reads.
        assert_eq!(exposure(&file), None);
        fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(exposure(&file), None);
        assert_eq!(exposure(&dir.join("absent")), None);
        fs::remove_dir_all(&dir).unwrap();
    }
}
