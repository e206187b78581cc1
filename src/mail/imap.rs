//! An IMAP inbox read with blocking calls: the messages to handle by UID, marking them handled
//! (seen, or moved to a folder of handled mail), and waiting for new mail with IDLE.
//!
//! Marking takes more than one command (`\Seen`, then MOVE; or COPY, `\Deleted`, EXPUNGE),
//! and the judge may be killed between any two. So that a handled letter always ends marked:
//! with a folder for handled mail, every message left in the mail folder is fetched again,
//! seen or not (the judge's store knows a letter it has already stored, and it is only marked
//! again); without one, marking is the single `\Seen` flag and unseen messages are fetched.
//!
//! async-imap runs on a current-thread tokio runtime owned by the inbox. Every exchange with
//! the server is bounded by `timeout_secs`. After any error the connection is dropped and every
//! later call fails until the caller connects again.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use async_imap::extensions::idle::IdleResponse;
use async_imap::imap_proto::{Response, Status};
use async_imap::types::{Capability, Flag, UnsolicitedResponse};
use async_imap::{Client, Session};
use futures_util::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::runtime::Runtime;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::ServerName;

pub use crate::mail::security::Security;

/// Where and how to read mail over IMAP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImapSettings {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub user: String,
    pub password: String,
    /// The folder mail arrives in: `INBOX` unless told otherwise.
    pub folder: String,
    /// Move handled mail there (created if missing), so that the mail folder holds only mail
    /// not yet handled; without it handled mail is marked `\Seen` and stays where it is.
    pub done_folder: Option<String>,
    /// An extra root CA (PEM) to trust besides the webpki roots: for tests and private servers.
    pub ca_pem: Option<PathBuf>,
    /// Bounds connecting and each exchange with the server (not the wait for new mail).
    pub timeout_secs: u64,
}

impl ImapSettings {
    /// Settings for `INBOX`, marking handled mail seen, with a 30 s time limit.
    pub fn new(
        host: impl Into<String>,
        port: u16,
        security: Security,
        user: impl Into<String>,
        password: impl Into<String>,
    ) -> ImapSettings {
        ImapSettings {
            host: host.into(),
            port,
            security,
            user: user.into(),
            password: password.into(),
            folder: "INBOX".to_owned(),
            done_folder: None,
            ca_pem: None,
            timeout_secs: 30,
        }
    }
}

/// The longest single IDLE: servers may end one after 30 minutes.
const LONGEST_IDLE: Duration = Duration::from_secs(29 * 60);

/// A logged-in IMAP connection with the mail folder selected.
pub struct ImapInbox {
    // Boxed, so that the inbox is a small value to keep in an enum or a struct.
    runtime: Box<Runtime>,
    /// `None` once an error has left the connection in an unknown state.
    session: Option<Box<Session<Wire>>>,
    server: String,
    done_folder: Option<String>,
    limit: Duration,
    idle: bool,
    move_command: bool,
    uidplus: bool,
    /// Messages the last `pending` found flagged `\Deleted`: with a folder for handled mail,
    /// copied there already (by an earlier run killed before its EXPUNGE) or deleted by
    /// another client; marking them only expunges them.
    deleted: std::collections::HashSet<u32>,
}

impl fmt::Debug for ImapInbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapInbox")
            .field("server", &self.server)
            .field("connected", &self.session.is_some())
            .field("idle", &self.idle)
            .finish()
    }
}

impl ImapInbox {
    /// Connects, secures the connection as asked, logs in and selects the mail folder (and
    /// creates the folder for handled mail if there is one and it is missing).
    pub fn connect(settings: &ImapSettings) -> Result<ImapInbox, String> {
        let server = format!(
            "IMAP {}:{} ({})",
            settings.host, settings.port, settings.security
        );
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("{server}: cannot start the I/O runtime: {e}"))?;
        let limit = Duration::from_secs(settings.timeout_secs.max(1));
        let opened = runtime.block_on(open(settings, limit));
        let (session, capabilities) = opened.map_err(|e| format!("{server}: {e}"))?;
        let has = |name: &str| capabilities.iter().any(|c| c.eq_ignore_ascii_case(name));
        Ok(ImapInbox {
            idle: has("IDLE"),
            move_command: has("MOVE"),
            uidplus: has("UIDPLUS"),
            runtime: Box::new(runtime),
            session: Some(Box::new(session)),
            server,
            done_folder: settings.done_folder.clone(),
            limit,
            deleted: std::collections::HashSet::new(),
        })
    }

    /// Whether the connection is still usable (no error since `connect`).
    pub fn is_connected(&self) -> bool {
        self.session.is_some()
    }

    /// Whether the server offers IDLE, so `wait_for_mail` can really wait.
    pub fn can_idle(&self) -> bool {
        self.idle
    }

    /// The messages to handle, oldest UID first, fetched with `BODY.PEEK[]` so that nothing is
    /// marked seen before it is handled: with a folder for handled mail, every message in the
    /// mail folder (a seen one was marked by a run killed before it could move it); without
    /// one, the unseen messages.
    pub fn pending(&mut self) -> Result<Vec<(u32, Vec<u8>)>, String> {
        let limit = self.limit;
        let criteria = if self.done_folder.is_some() {
            "ALL"
        } else {
            "UNSEEN"
        };
        let found = self.exchange(async move |session| {
            drain_new_mail(|| session.unsolicited_responses.try_recv().ok());
            let step = format!("UID SEARCH {criteria}");
            let found = within(limit, &step, session.uid_search(criteria)).await?;
            let mut uids: Vec<u32> = found.into_iter().collect();
            uids.sort_unstable();
            let mut messages = Vec::with_capacity(uids.len());
            let mut deleted = Vec::new();
            for chunk in uids.chunks(50) {
                let set = uid_set(chunk);
                let fetched = within(limit, "UID FETCH", async {
                    session
                        .uid_fetch(&set, "(UID FLAGS BODY.PEEK[])")
                        .await?
                        .try_collect::<Vec<_>>()
                        .await
                })
                .await?;
                for fetch in fetched {
                    if let (Some(uid), Some(body)) = (fetch.uid, fetch.body()) {
                        if fetch.flags().any(|f| f == Flag::Deleted) {
                            deleted.push(uid);
                        }
                        messages.push((uid, body.to_vec()));
                    }
                }
            }
            messages.sort_by_key(|(uid, _)| *uid);
            Ok((messages, deleted))
        })?;
        let (messages, deleted) = found;
        self.deleted = deleted.into_iter().collect();
        Ok(messages)
    }

    /// Marks a message handled: `\Seen`, then moved to the folder for handled mail if there is
    /// one (MOVE, or COPY + `\Deleted` + EXPUNGE where MOVE is missing). Each step may be the
    /// last before a kill: `pending` then offers the message again and it is marked again
    /// (a message already `\Deleted` is only expunged, so it is not copied twice).
    pub fn mark_handled(&mut self, uid: u32) -> Result<(), String> {
        let limit = self.limit;
        let done_folder = self.done_folder.clone();
        let (move_command, uidplus) = (self.move_command, self.uidplus);
        let copied = self.deleted.contains(&uid);
        self.exchange(async move |session| {
            let set = uid.to_string();
            if copied && done_folder.is_some() {
                return expunge(session, &set, uidplus, limit).await;
            }
            // Only the server's tagged OK confirms a flag: `uid_store`'s stream simply ends
            // when the connection drops, which would pass for success and keep a dead
            // connection in use.
            within(
                limit,
                "UID STORE \\Seen",
                session.run_command_and_check_ok(format!("UID STORE {set} +FLAGS.SILENT (\\Seen)")),
            )
            .await?;
            let Some(folder) = done_folder else {
                return Ok(());
            };
            if move_command {
                return within(limit, "UID MOVE", session.uid_mv(&set, &folder)).await;
            }
            within(limit, "UID COPY", session.uid_copy(&set, &folder)).await?;
            within(
                limit,
                "UID STORE \\Deleted",
                session
                    .run_command_and_check_ok(format!("UID STORE {set} +FLAGS.SILENT (\\Deleted)")),
            )
            .await?;
            expunge(session, &set, uidplus, limit).await
        })
    }

    /// Waits up to `max` for the server to announce new mail (IDLE). Returns `true` when new
    /// mail (or another change of the folder) was announced, `false` when `max` passed quietly;
    /// without IDLE on the server it returns `false` at once and the caller polls.
    ///
    /// `max` is capped at 29 minutes: servers may log out a client idling for 30 (RFC 2177).
    pub fn wait_for_mail(&mut self, max: Duration) -> Result<bool, String> {
        if !self.idle {
            return Ok(false);
        }
        let max = max.min(LONGEST_IDLE);
        let Some(session) = self.session.take() else {
            return Err(format!("{}: not connected", self.server));
        };
        // News that came with earlier answers (pending, mark_handled) counts at once.
        if drain_new_mail(|| session.unsolicited_responses.try_recv().ok()) {
            self.session = Some(session);
            return Ok(true);
        }
        let limit = self.limit;
        let announced = session.unsolicited_responses.clone();
        let waited = self.runtime.block_on(async move {
            let mut idle = (*session).idle();
            within(limit, "IDLE", idle.init()).await?;
            // An EXISTS sent before the server's "+ idling" went to the unsolicited channel.
            let woke = if drain_new_mail(|| announced.try_recv().ok()) {
                true
            } else {
                let (wait, _stop) = idle.wait_with_timeout(max);
                match tokio::time::timeout(max, wait).await {
                    Err(_) => false,
                    Ok(Ok(IdleResponse::NewData(_))) => true,
                    Ok(Ok(IdleResponse::Timeout | IdleResponse::ManualInterrupt)) => false,
                    Ok(Err(e)) => return Err(format!("IDLE: {e}")),
                }
            };
            let session = within(limit, "IDLE DONE", idle.done()).await?;
            Ok((session, woke))
        });
        match waited {
            Ok((session, woke)) => {
                self.session = Some(Box::new(session));
                Ok(woke)
            }
            Err(e) => Err(format!("{}: {e}", self.server)),
        }
    }

    /// Logs out politely (bounded by the time limit); dropping the inbox just closes the
    /// connection.
    pub fn logout(mut self) -> Result<(), String> {
        let limit = self.limit;
        self.exchange(async move |session| within(limit, "LOGOUT", session.logout()).await)
    }

    /// Runs one exchange on the session; any error drops the connection.
    fn exchange<T>(
        &mut self,
        work: impl AsyncFnOnce(&mut Session<Wire>) -> Result<T, String>,
    ) -> Result<T, String> {
        let Some(session) = self.session.as_mut() else {
            return Err(format!("{}: not connected", self.server));
        };
        let result = self.runtime.block_on(work(session));
        if result.is_err() {
            self.session = None;
        }
        result.map_err(|e| format!("{}: {e}", self.server))
    }
}

/// Connects, greets, secures, logs in, selects; returns the session and the capabilities.
async fn open(
    settings: &ImapSettings,
    limit: Duration,
) -> Result<(Session<Wire>, Vec<String>), String> {
    let address = (settings.host.as_str(), settings.port);
    let tcp = within(limit, "connect", TcpStream::connect(address)).await?;
    let tls = match settings.security {
        Security::None => None,
        Security::StartTls | Security::Tls => {
            let config = crate::mail::security::client_config(settings.ca_pem.as_deref())?;
            let name = ServerName::try_from(settings.host.clone())
                .map_err(|e| format!("`{}` cannot be checked by TLS: {e}", settings.host))?;
            Some((TlsConnector::from(config), name))
        }
    };
    let mut client = match (&tls, settings.security) {
        (Some((connector, name)), Security::Tls) => {
            let stream = within(limit, "TLS", connector.connect(name.clone(), tcp)).await?;
            Client::new(Wire::Tls(Box::new(stream)))
        }
        _ => Client::new(Wire::Plain(tcp)),
    };
    greeting(&mut client, limit).await?;
    if let (Some((connector, name)), Security::StartTls) = (&tls, settings.security) {
        within(
            limit,
            "STARTTLS",
            client.run_command_and_check_ok("STARTTLS", None),
        )
        .await?;
        let Wire::Plain(tcp) = client.into_inner() else {
            return Err("STARTTLS on a connection already secured".to_owned());
        };
        let stream = within(
            limit,
            "TLS after STARTTLS",
            connector.connect(name.clone(), tcp),
        )
        .await?;
        client = Client::new(Wire::Tls(Box::new(stream)));
    }
    let mut session = within(limit, "login", async {
        client
            .login(&settings.user, &settings.password)
            .await
            .map_err(|(e, _)| e)
    })
    .await?;
    let capabilities = within(limit, "CAPABILITY", session.capabilities()).await?;
    let capabilities = capabilities.iter().map(capability_name).collect();
    within(
        limit,
        &format!("SELECT {}", settings.folder),
        session.select(&settings.folder),
    )
    .await?;
    if let Some(done) = &settings.done_folder {
        match tokio::time::timeout(limit, session.create(done)).await {
            Err(_) => {
                return Err(format!(
                    "CREATE {done}: no answer within {} s",
                    limit.as_secs()
                ));
            }
            // NO: it exists already (or cannot be made: MOVE will say so).
            Ok(Ok(()) | Err(async_imap::error::Error::No(_))) => {}
            Ok(Err(e)) => return Err(format!("CREATE {done}: {e}")),
        }
    }
    Ok((session, capabilities))
}

/// A capability as the server wrote it (`IDLE`, `IMAP4rev1`, `AUTH=PLAIN`).
fn capability_name(capability: &Capability) -> String {
    match capability {
        Capability::Imap4rev1 => "IMAP4rev1".to_owned(),
        Capability::Auth(mechanism) => format!("AUTH={mechanism}"),
        Capability::Atom(name) => name.clone(),
    }
}

/// Reads the server's greeting: `* OK` (or `* PREAUTH`) goes on, anything else is an error.
async fn greeting(client: &mut Client<Wire>, limit: Duration) -> Result<(), String> {
    let response = within(limit, "greeting", client.read_response()).await?;
    let Some(response) = response else {
        return Err("connection closed before the greeting".to_owned());
    };
    match response.parsed() {
        Response::Data {
            status: Status::Ok | Status::PreAuth,
            ..
        } => Ok(()),
        Response::Data { status, outcome } => Err(format!(
            "server refused the connection ({status:?}): {}",
            outcome.information.as_deref().unwrap_or("")
        )),
        other => Err(format!("unexpected greeting: {other:?}")),
    }
}

/// Expunges the message `set` (flagged `\Deleted`): UID EXPUNGE where the server has UIDPLUS,
/// else EXPUNGE (which also expunges whatever else is flagged `\Deleted` in the folder).
async fn expunge(
    session: &mut Session<Wire>,
    set: &str,
    uidplus: bool,
    limit: Duration,
) -> Result<(), String> {
    if uidplus {
        within(limit, "UID EXPUNGE", async {
            session
                .uid_expunge(set)
                .await?
                .try_collect::<Vec<_>>()
                .await
        })
        .await?;
    } else {
        within(limit, "EXPUNGE", async {
            session.expunge().await?.try_collect::<Vec<_>>().await
        })
        .await?;
    }
    Ok(())
}

/// Empties the unsolicited answers (`next` takes one); true if one announced mail (EXISTS).
fn drain_new_mail(mut next: impl FnMut() -> Option<UnsolicitedResponse>) -> bool {
    let mut announced = false;
    while let Some(response) = next() {
        announced |= matches!(response, UnsolicitedResponse::Exists(_));
    }
    announced
}

/// `1,5,9`: a UID set for a command.
fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Runs `work` for at most `limit`, naming the step in any error.
async fn within<T, E: fmt::Display>(
    limit: Duration,
    step: &str,
    work: impl Future<Output = Result<T, E>>,
) -> Result<T, String> {
    match tokio::time::timeout(limit, work).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(format!("{step}: {e}")),
        Err(_) => Err(format!("{step}: no answer within {} s", limit.as_secs())),
    }
}

/// The connection under the IMAP client: plain TCP, or TLS over TCP.
#[derive(Debug)]
enum Wire {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl AsyncRead for Wire {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Wire {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_flush(cx),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Wire::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}
