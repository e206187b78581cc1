//! The system log, for `strategos deliver`: a mail server that pipes a letter to the judge
//! mails whatever the command writes (on standard output or error) back to the letter's
//! sender when it gives up, so there the judge logs nowhere but here. Each line goes as one
//! datagram in the syslog format (`<pri>Mmm dd hh:mm:ss strategos[pid]: message`, the mail
//! facility) to the local socket that syslog daemons and systemd's journal listen on:
//! `STRATEGOS_SYSLOG_SOCKET` if set, else `/dev/log`, else journald's own `dev-log`.

use std::io;
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tracing::{Level, Metadata};
use tracing_subscriber::fmt::MakeWriter;

/// The sockets tried, in order, when `STRATEGOS_SYSLOG_SOCKET` is not set.
const SOCKETS: [&str; 2] = ["/dev/log", "/run/systemd/journal/dev-log"];

/// syslog's mail facility (2), shifted as the priority writes it.
const MAIL: u8 = 2 << 3;

/// The longest line sent (longer ones are cut): every syslog daemon takes this much.
const MOST: usize = 8 * 1024;

/// A connection to the system log; each event of the log is one line there.
#[derive(Clone, Debug)]
pub struct Syslog {
    socket: Arc<UnixDatagram>,
    tag: String,
}

impl Syslog {
    /// The system log at `STRATEGOS_SYSLOG_SOCKET`, or the usual sockets; `None` when none
    /// answers.
    pub fn connect() -> Option<Syslog> {
        match std::env::var_os("STRATEGOS_SYSLOG_SOCKET") {
            Some(path) => Syslog::at(Path::new(&path)).ok(),
            None => SOCKETS
                .iter()
                .find_map(|path| Syslog::at(Path::new(path)).ok()),
        }
    }

    /// The system log listening at `path`.
    pub fn at(path: &Path) -> io::Result<Syslog> {
        let socket = UnixDatagram::unbound()?;
        socket.connect(path)?;
        Ok(Syslog {
            socket: Arc::new(socket),
            tag: format!("strategos[{}]", std::process::id()),
        })
    }

    /// Sends one line at `level`.
    pub fn send(&self, level: Level, message: &str) {
        let severity = match level {
            Level::ERROR => 3,
            Level::WARN => 4,
            Level::INFO => 6,
            _ => 7,
        };
        let mut line = format!(
            "<{}>{} {}: {}",
            MAIL | severity,
            chrono::Local::now().format("%b %e %H:%M:%S"),
            self.tag,
            message.trim_end()
        );
        if line.len() > MOST {
            let mut end = MOST;
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            line.truncate(end);
        }
        // A log that cannot take a line loses it; the judge goes on.
        let _ = self.socket.send(line.as_bytes());
    }
}

/// One event's text, sent as a line when the formatter is done with it.
pub struct Line {
    log: Syslog,
    level: Level,
    text: Vec<u8>,
}

impl io::Write for Line {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.text.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        let text = String::from_utf8_lossy(&self.text);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            self.log.send(self.level, line);
        }
    }
}

impl<'a> MakeWriter<'a> for Syslog {
    type Writer = Line;

    fn make_writer(&'a self) -> Line {
        Line {
            log: self.clone(),
            level: Level::INFO,
            text: Vec::new(),
        }
    }

    fn make_writer_for(&'a self, meta: &Metadata<'_>) -> Line {
        Line {
            log: self.clone(),
            level: *meta.level(),
            text: Vec::new(),
        }
    }
}

/// A socket standing in for the system log, for tests: every line sent to it.
pub struct Listener {
    socket: UnixDatagram,
    pub path: PathBuf,
}

impl Listener {
    /// Listens at `path` (replacing what is there).
    pub fn bind(path: &Path) -> io::Result<Listener> {
        let _ = std::fs::remove_file(path);
        let socket = UnixDatagram::bind(path)?;
        socket.set_nonblocking(true)?;
        Ok(Listener {
            socket,
            path: path.to_path_buf(),
        })
    }

    /// The lines received so far.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let mut buffer = vec![0u8; MOST + 64];
        while let Ok(n) = self.socket.recv(&mut buffer) {
            lines.push(String::from_utf8_lossy(&buffer[..n]).into_owned());
        }
        lines
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_is_one_line_of_the_mail_facility() {
        let path = std::env::temp_dir().join(format!("strategos-syslog-{}", std::process::id()));
        let listener = Listener::bind(&path).unwrap();
        let log = Syslog::at(&path).unwrap();
        log.send(Level::WARN, "the database is busy\n");
        log.send(Level::ERROR, &"x".repeat(20_000));
        let lines = listener.lines();
        assert_eq!(lines.len(), 2, "{lines:?}");
        // Mail (2) * 8 + warning (4).
        assert!(lines[0].starts_with("<20>"), "{}", lines[0]);
        assert!(
            lines[0].ends_with(&format!(
                "strategos[{}]: the database is busy",
                std::process::id()
            )),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("<19>"));
        assert!(lines[1].len() <= MOST);
    }
}
