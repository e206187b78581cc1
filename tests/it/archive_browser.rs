//! The archive opened in a real browser: two finished games (the duel of `archive`, won by
//! South on the tiny variant, and a year of France-Austria played by mail in Russian and
//! ended in a draw) written as a site, and every page of it (the index and each game's page)
//! opened in headless Chromium (Debian's `chromium`, which `.ci/run` installs), on a phone's
//! screen and a desktop's. Each page must load with no console error and no script error,
//! every `<img>` must show (`naturalWidth > 0`, lazy ones made eager first) and nothing may be
//! wider than a phone's screen. A screenshot of each page on each screen is kept in
//! `target/archive-browser/` (`<page>-phone.png`, `<page>-desktop.png`).
//!
//! Chromium is driven over the DevTools protocol on `--remote-debugging-pipe` (its fds 3 and
//! 4): no port, no extra crate. Every wait has a deadline: a browser that hangs fails the test,
//! and the browser is killed when the test ends. Without Chromium the test fails saying so.

use std::io::{BufRead, BufReader, Write};
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use base64::Engine;
use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::judge_harness::{Harness, TempDir, mail, test_variants};

/// The longest any one step of the browser may take (starting, loading a page, a picture).
const PATIENCE: Duration = Duration::from_secs(90);

/// Each page's pictures, overflow and title, as the page stands once every picture is in.
const CHECK: &str = r#"(async () => {
  const images = Array.from(document.images);
  for (const image of images) image.loading = "eager";
  await Promise.all(images.map((image) => image.decode().catch(() => null)));
  return JSON.stringify({
    title: document.title,
    images: images.map((image) => ({ src: image.getAttribute("src"), width: image.naturalWidth })),
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  });
})()"#;

/// A headless Chromium spoken to over its DevTools pipe.
struct Browser {
    child: Child,
    to: std::fs::File,
    from: Receiver<String>,
    next_id: u64,
    /// Errors the pages reported (console errors, uncaught exceptions, failed loads).
    errors: Vec<String>,
    loaded: bool,
    _profile: TempDir,
}

/// Two pipes: `(read, write)` each, closed on exec but for what `dup2` places.
fn pipe() -> (i32, i32) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into the array it is given.
    let done = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(done, 0, "pipe2: {}", std::io::Error::last_os_error());
    (fds[0], fds[1])
}

impl Browser {
    fn start() -> Browser {
        let profile = TempDir::new("chromium-profile");
        let (their_in, our_out) = pipe();
        let (our_in, their_out) = pipe();
        let mut command = Command::new("chromium");
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.0.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork and exec. The pipe's
        // ends are first copied above 10, so placing them at 3 and 4 never overwrites one
        // with the other; dup2 leaves the copies at 3 and 4 open across exec.
        unsafe {
            command.pre_exec(move || {
                let input = libc::fcntl(their_in, libc::F_DUPFD, 10);
                let output = libc::fcntl(their_out, libc::F_DUPFD, 10);
                if input < 0 || output < 0 || libc::dup2(input, 3) < 0 || libc::dup2(output, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = match command.spawn() {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
                "Chromium is not installed: the archive's browser test needs Debian's `chromium` \
                 (apt-get install chromium; .ci/run installs it)"
            ),
            Err(e) => panic!("cannot start chromium: {e}"),
        };
        // SAFETY: each descriptor is ours alone, closed once here or owned by a File.
        unsafe {
            libc::close(their_in);
            libc::close(their_out);
        }
        let to = unsafe { std::fs::File::from_raw_fd(our_out) };
        let from_file = unsafe { std::fs::File::from_raw_fd(our_in) };
        let (send, from) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(from_file);
            loop {
                let mut message = Vec::new();
                match reader.read_until(0, &mut message) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        message.pop_if(|b| *b == 0);
                        if send
                            .send(String::from_utf8_lossy(&message).into_owned())
                            .is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });
        Browser {
            child,
            to,
            from,
            next_id: 0,
            errors: Vec::new(),
            loaded: false,
            _profile: profile,
        }
    }

    /// The next message from the browser, or a failed test at the deadline.
    fn receive(&mut self, deadline: Instant, waiting_for: &str) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.from.recv_timeout(left) {
            Ok(text) => serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("chromium sent what is not JSON ({e}): {text}")),
            Err(_) => {
                let status = self.child.try_wait();
                panic!(
                    "chromium did not answer within {PATIENCE:?} while waiting for {waiting_for} \
                     (the browser: {status:?})"
                )
            }
        }
    }

    /// Notes what an event says of the page: an error, or that it has loaded.
    fn note(&mut self, event: &Value) {
        let params = &event["params"];
        match event["method"].as_str().unwrap_or("") {
            "Runtime.consoleAPICalled"
                if matches!(params["type"].as_str(), Some("error" | "assert")) =>
            {
                self.errors.push(format!("console: {}", params["args"]));
            }
            "Runtime.exceptionThrown" => {
                self.errors
                    .push(format!("exception: {}", params["exceptionDetails"]));
            }
            "Log.entryAdded" if params["entry"]["level"] == "error" => {
                self.errors.push(format!(
                    "log: {} {}",
                    params["entry"]["text"], params["entry"]["url"]
                ));
            }
            "Page.loadEventFired" => self.loaded = true,
            _ => {}
        }
    }

    /// Sends `method` (to the page's `session`, if any) and returns its result, noting the
    /// events that come meanwhile.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.to
            .write_all(&bytes)
            .unwrap_or_else(|e| panic!("cannot write to chromium ({method}): {e}"));
        let deadline = Instant::now() + PATIENCE;
        loop {
            let answer = self.receive(deadline, method);
            if answer["id"] == id {
                if let Some(error) = answer.get("error") {
                    panic!("chromium refused {method}: {error}");
                }
                return answer["result"].clone();
            }
            self.note(&answer);
        }
    }

    /// Opens `url` in a fresh tab `width` pixels wide, waits for it to load, checks its
    /// pictures and keeps its screenshot at `shot`: what the check found.
    fn open(&mut self, url: &str, width: u32, mobile: bool, shot: &Path) -> Value {
        let target = self.call(None, "Target.createTarget", json!({ "url": "about:blank" }));
        let target = target["targetId"]
            .as_str()
            .expect("a target id")
            .to_string();
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        );
        let session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        let session = Some(session.as_str());
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            self.call(session, domain, json!({}));
        }
        self.call(
            session,
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": 800, "deviceScaleFactor": 1, "mobile": mobile }),
        );
        self.errors.clear();
        self.loaded = false;
        let navigated = self.call(session, "Page.navigate", json!({ "url": url }));
        if let Some(error) = navigated.get("errorText") {
            panic!("chromium could not open {url}: {error}");
        }
        let deadline = Instant::now() + PATIENCE;
        while !self.loaded {
            let event = self.receive(deadline, &format!("{url} to load"));
            self.note(&event);
        }
        let checked = self.call(
            session,
            "Runtime.evaluate",
            json!({ "expression": CHECK, "awaitPromise": true, "returnByValue": true }),
        );
        let found: Value = serde_json::from_str(
            checked["result"]["value"]
                .as_str()
                .unwrap_or_else(|| panic!("the page's check gave no answer: {checked}")),
        )
        .unwrap();
        let metrics = self.call(session, "Page.getLayoutMetrics", json!({}));
        let height = metrics["cssContentSize"]["height"]
            .as_f64()
            .unwrap_or(800.0);
        let picture = self.call(
            session,
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "captureBeyondViewport": true,
                "clip": { "x": 0, "y": 0, "width": width, "height": height.min(6000.0), "scale": 1 },
            }),
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(picture["data"].as_str().expect("a screenshot"))
            .expect("the screenshot is base64");
        std::fs::write(shot, png).unwrap_or_else(|e| panic!("{}: {e}", shot.display()));
        self.call(None, "Target.closeTarget", json!({ "targetId": target }));
        found
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `played_duel`'s judge, where dave (France) and erin (Austria) have also played 1901 of
/// France-Austria in Russian, mastered by gina, and then agreed a draw.
fn two_finished_games() -> Harness {
    let mut judge = crate::archive::played_duel();
    judge.vouch(&[
        "gina@example.test",
        "dave@example.test",
        "erin@example.test",
    ]);
    let mut serial = 0;
    let mut send = |judge: &mut Harness, at: &str, from: &str, body: &str| {
        serial += 1;
        let now: DateTime<Utc> = at.parse().unwrap();
        judge.set_time(now);
        judge.deliver(&mail(from, "fa", &format!("fa{serial}@example.test"), body));
    };
    let (gina, dave, erin) = (
        "gina@example.test",
        "dave@example.test",
        "erin@example.test",
    );
    // Gina masters the game, in Russian.
    send(
        &mut judge,
        "2027-02-01T09:00:00Z",
        gina,
        "CREATE ?fa gpw france-austria MODERATED",
    );
    send(
        &mut judge,
        "2027-02-01T09:30:00Z",
        gina,
        "SIGNON ?fa gpw\nSET GAME LANGUAGE ru",
    );
    send(
        &mut judge,
        "2027-02-01T10:00:00Z",
        dave,
        "SIGNON ?fa dpw\nSET PREFERENCE F",
    );
    send(&mut judge, "2027-02-01T11:00:00Z", erin, "SIGNON ?fa epw");
    let turns = [
        (
            "SIGNON Ffa dpw\nF Bre - Mao\nA Par - Bur\nA Mar - Spa",
            "SIGNON Afa epw\nA Bud - Ser\nF Tri - Alb\nA Vie - Gal",
        ),
        (
            "SIGNON Ffa dpw\nF Mao - Por\nA Bur - Bel\nA Spa H",
            "SIGNON Afa epw\nA Ser H\nF Alb - Gre\nA Gal H",
        ),
        (
            "SIGNON Ffa dpw\nBuild F Bre\nBuild A Par\nBuild A Mar",
            "SIGNON Afa epw\nBuild A Bud\nBuild F Tri",
        ),
        ("SIGNON Ffa dpw\nSET DRAW", "SIGNON Afa epw\nSET DRAW"),
    ];
    for (day, (french, austrian)) in turns.iter().enumerate() {
        send(
            &mut judge,
            &format!("2027-02-{:02}T10:00:00Z", day + 2),
            dave,
            french,
        );
        send(
            &mut judge,
            &format!("2027-02-{:02}T11:00:00Z", day + 2),
            erin,
            austrian,
        );
    }
    judge.take_sent();
    judge
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

#[test]
fn every_archive_page_loads_in_chromium_with_every_picture_and_no_error() {
    let mut judge = two_finished_games();
    let site = TempDir::new("archive-browser");
    {
        let tx = judge.daemon.store.begin().unwrap();
        let fa = tx.game_by_name("fa").unwrap().expect("the game fa");
        assert_eq!(
            fa.state,
            strategos::game::GameState::Finished,
            "fa should have ended in a draw"
        );
        strategos::archive::write_site(&tx, &test_variants(), &site.0).unwrap();
    }
    let shots: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/archive-browser");
    std::fs::create_dir_all(&shots).unwrap();
    let pages = [
        ("index", site.0.join("index.html"), 0),
        ("duel", site.0.join("duel/index.html"), 0),
        ("waiting", site.0.join("waiting/index.html"), 0),
        // Spring, Autumn, Winter 1901 and Spring 1902, where the draw was agreed.
        ("fa", site.0.join("fa/index.html"), 4),
    ];
    let fa = std::fs::read_to_string(&pages[3].1).unwrap();
    assert!(fa.contains("<html lang=\"ru\">"), "{fa}");
    let mut browser = Browser::start();
    for (name, page, pictures) in &pages {
        for (screen, width, mobile) in [("phone", 390, true), ("desktop", 1280, false)] {
            let shot = shots.join(format!("{name}-{screen}.png"));
            let found = browser.open(&file_url(page), width, mobile, &shot);
            assert!(
                browser.errors.is_empty(),
                "{name} on a {screen}: errors in the browser: {:#?}",
                browser.errors
            );
            let images = found["images"].as_array().unwrap();
            assert_eq!(images.len(), *pictures, "{name} on a {screen}: {found}");
            for image in images {
                assert!(
                    image["width"].as_u64().unwrap_or(0) > 0,
                    "{name} on a {screen}: a picture does not show: {image}"
                );
            }
            assert!(
                found["overflow"].as_i64().unwrap_or(i64::MAX) <= 0,
                "{name} on a {screen}: the page is wider than the screen: {found}"
            );
            let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
            assert!(size > 1000, "{}: no screenshot", shot.display());
        }
    }
}

/// The colour a picture gives `name`: `pattern` with `NAME` standing for it, whose first
/// group is the colour.
fn colour_in(text: &str, pattern: &str, name: &str) -> Option<String> {
    let pattern = pattern.replace("NAME", &regex::escape(name));
    regex::Regex::new(&pattern)
        .unwrap()
        .captures(text)
        .map(|c| c[1].to_string())
}

#[test]
fn the_chart_and_the_table_paint_each_power_in_its_colour_on_the_map() {
    let mut judge = two_finished_games();
    let site = TempDir::new("archive-colours");
    let variants = test_variants();
    {
        let tx = judge.daemon.store.begin().unwrap();
        strategos::archive::write_site(&tx, &variants, &site.0).unwrap();
    }
    let page = std::fs::read_to_string(site.0.join("fa/index.html")).unwrap();
    let map_file = std::fs::read_dir(site.0.join("fa"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("phase-0-")
        })
        .expect("the map of the first phase");
    let map = std::fs::read_to_string(map_file).unwrap();
    let variant = variants.iter().find(|v| v.id == "france-austria").unwrap();
    let layout = variant.layout.as_deref().unwrap();
    // The game 'fa' is played in Russian: its page, chart and map name the powers so.
    for (i, power) in variant.map.powers.iter().enumerate() {
        let name = power.name_in(strategos::lang::Lang::Ru);
        let painted = strategos::drawing::scene::colour_of(
            &variant.map,
            layout,
            strategos::diplomacy::power::PowerId(i as u8),
        );
        // The map's legend: the power's centre symbol, then its name.
        let on_map = colour_in(
            &map,
            r##"r="5" fill="(#[0-9A-Fa-f]{6})" stroke="#222" stroke-width="1.5"/><circle[^>]*/><text[^>]*>NAME</text>"##,
            name,
        );
        let in_chart = colour_in(
            &page,
            r##"<rect [^>]*height="8" fill="(#[0-9A-Fa-f]{6})"/><text [^>]*>NAME</text>"##,
            name,
        );
        let in_table = colour_in(
            &page,
            r##"style="background:(#[0-9A-Fa-f]{6})"></span>NAME</th>"##,
            name,
        );
        assert_eq!(on_map.as_deref(), Some(painted), "{} on the map", name);
        assert_eq!(
            in_chart.as_deref(),
            Some(painted),
            "{} in the chart",
            power.name
        );
        assert_eq!(
            in_table.as_deref(),
            Some(painted),
            "{} in the table",
            power.name
        );
    }
}
