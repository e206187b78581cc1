//! The archive: a two-year duel on the tiny variant played by mail, then written as a web
//! site (index, game page with reports in order, centre table and chart, everything
//! escaped), summed up for the SUMMARY letter, and looked at through `strategos archive`,
//! `game list` and `game show` run as programs.

use std::path::Path;
use std::process::{Command, Output};

use chrono::{DateTime, Utc};
use strategos::archive::{summary_text, write_site};
use strategos::game::secrecy::Reader;
use strategos::report::Words;

use crate::judge_harness::Harness;

use crate::judge_harness::TempDir;

use crate::judge_harness::mail;

use crate::judge_harness::test_variants;

const ALICE: &str = "Alice <alice@example.test>";
const BOB: &str = "Bob <bob@example.test>";
const CAROL: &str = "Carol <carol@example.test>";

/// A judge where `duel` has been played to South's victory in 239 BC, and carol's game
/// `waiting` still forms. Bob registered with markup in his name.
pub(crate) fn played_duel() -> Harness {
    let mut judge = Harness::new("archive");
    let mut serial = 0;
    let mut send = |judge: &mut Harness, at: &str, from: &str, body: &str| {
        serial += 1;
        let now: DateTime<Utc> = at.parse().unwrap();
        judge.set_time(now);
        judge.deliver_confirmed(
            from,
            &mail(from, "duel", &format!("a{serial}@example.test"), body),
        );
    };
    send(
        &mut judge,
        "2027-01-05T12:00:00Z",
        ALICE,
        "CREATE ?duel secret1 tiny",
    );
    send(
        &mut judge,
        "2027-01-05T13:00:00Z",
        BOB,
        "REGISTER secret2 <b>Bob</b> & co\nSIGNON ?duel secret2",
    );
    send(
        &mut judge,
        "2027-01-05T14:00:00Z",
        ALICE,
        "SIGNON Nduel secret1\nF Nor - Mid",
    );
    send(
        &mut judge,
        "2027-01-05T15:00:00Z",
        BOB,
        "SIGNON Sduel secret2\nA Sou - Twin Coasts",
    );
    // Autumn 240 BC: no orders; the deadline passes and South takes Twin Coasts.
    judge.tick("2027-01-07T15:00:00Z".parse().unwrap());
    send(
        &mut judge,
        "2027-01-07T16:00:00Z",
        BOB,
        "SIGNON Sduel secret2\nBuild A Sou\nWaive",
    );
    // 239 BC: South walks into Northland and holds it: three centres win.
    send(
        &mut judge,
        "2027-01-08T10:00:00Z",
        ALICE,
        "SIGNON Nduel secret1\nF Mid H",
    );
    send(
        &mut judge,
        "2027-01-08T11:00:00Z",
        BOB,
        "SIGNON Sduel secret2\nA Sou - Nor\nA Two H",
    );
    send(
        &mut judge,
        "2027-01-09T10:00:00Z",
        ALICE,
        "SIGNON Nduel secret1\nF Mid H",
    );
    send(
        &mut judge,
        "2027-01-09T11:00:00Z",
        BOB,
        "SIGNON Sduel secret2\nA Nor H\nA Two H",
    );
    send(
        &mut judge,
        "2027-01-09T12:00:00Z",
        CAROL,
        "CREATE ?waiting secret3 tiny",
    );
    judge.take_sent();
    judge
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Where each of `needles` is found in `text`, asserting they come in that order.
fn assert_in_order(text: &str, needles: &[&str]) {
    let mut from = 0;
    for needle in needles {
        match text[from..].find(needle) {
            Some(at) => from += at + needle.len(),
            None => panic!("`{needle}` missing or out of order in:\n{text}"),
        }
    }
}

#[test]
fn the_site_shows_every_game_its_reports_centres_and_players_escaped() {
    let mut judge = played_duel();
    let site = TempDir::new("archive-site");
    let tx = judge.daemon.store.begin().unwrap();
    let written = write_site(&tx, &test_variants(), &site.0).unwrap();
    assert_eq!(written, 2);

    let index = read(&site.0.join("index.html"));
    assert!(index.starts_with("<!DOCTYPE html>"), "{index}");
    assert!(
        index.contains(
            "<tr><td><a href=\"duel/index.html\">duel</a></td><td>Tiny</td><td>finished</td>\
             <td>Adjustments for Winter of 239 BC</td></tr>"
        ),
        "{index}"
    );
    assert!(
        index.contains("<a href=\"waiting/index.html\">waiting</a></td><td>Tiny</td><td>forming</td><td>not started</td>"),
        "{index}"
    );

    let page = read(&site.0.join("duel/index.html"));
    // Every report, newest phase first and in the order of the game within a phase, its
    // title escaped: each phase's results with the phase they report.
    let titles = [
        "STRA:duel - S0240M Game Starting",
        "STRA:duel - S0240M Results",
        "STRA:duel - F0240M Results",
        "STRA:duel - F0240B Results",
        "STRA:duel - S0239M Results",
        "STRA:duel - F0239M Results",
    ];
    // Winter 239 BC, never played (South had won), has nothing to show and is left out.
    assert!(
        !page.contains("<h3>Adjustments for Winter of 239 BC"),
        "{page}"
    );
    let phases = [
        "Movement for Autumn of 239 BC",
        "Movement for Spring of 239 BC",
        "Adjustments for Winter of 240 BC",
        "Movement for Autumn of 240 BC",
        "Movement for Spring of 240 BC",
    ];
    // Each phase's heading, then its results.
    let mut shown = Vec::new();
    for (phase, title) in phases.iter().zip(titles[1..].iter().rev()) {
        shown.push(format!("<h3>{phase}</h3>"));
        if *phase == "Movement for Spring of 240 BC" {
            shown.push(format!("<h4>{}</h4>", titles[0]));
        }
        shown.push(format!("<h4>{title}</h4>"));
    }
    let shown: Vec<&str> = shown.iter().map(String::as_str).collect();
    assert_in_order(&page, &shown);
    assert_eq!(page.matches("<pre>").count(), titles.len());
    // Read back in the archive's order, as `verify-dice` reads them.
    let texts = strategos::archive::report_texts(&page);
    assert_eq!(texts.len(), titles.len());
    assert!(texts[0].contains("Deadline: S0240M"), "{}", texts[0]);
    assert!(
        texts[2].contains("results for Autumn of 240 BC"),
        "{}",
        texts[2]
    );
    assert!(
        texts[5].contains("results for Autumn of 239 BC"),
        "{}",
        texts[5]
    );
    assert_in_order(
        &page,
        &[
            "Movement results for Autumn of 240 BC. (duel.002)",
            "South:     Southland, Twin Coasts.",
            "</pre>",
        ],
    );
    // Centres at the end of each year: South took Twin Coasts in 240 and Northland in 239.
    assert!(
        page.contains(
            "<tr><th scope=\"col\">Power</th><th scope=\"col\">240 BC</th><th scope=\"col\">239 BC</th></tr>\n\
             <tr><th scope=\"row\"><span class=\"swatch\" style=\"background:#D55E00\"></span>North</th><td class=\"count\">1</td><td class=\"count\">0</td></tr>\n\
             <tr><th scope=\"row\"><span class=\"swatch\" style=\"background:#0072B2\"></span>South</th><td class=\"count\">2</td><td class=\"count\">3</td></tr>"
        ),
        "{page}"
    );
    assert!(page.contains("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(page.matches("<polyline").count(), 2);
    // Who held each power, by registered name and never an address no one chose to show;
    // Bob's name is shown, never as markup.
    assert!(
        page.contains(
            "<li>North: a player who gave no name (Spring of 240 BC – Winter of 239 BC)</li>"
        ),
        "{page}"
    );
    assert!(
        page.contains(
            "<li>South: &lt;b&gt;Bob&lt;/b&gt; &amp; co (Spring of 240 BC – Winter of 239 BC)</li>"
        ),
        "{page}"
    );
    assert!(!page.contains("@example.test"), "{page}");
    for html in [&index, &page] {
        assert!(!html.contains("<b>"));
        assert!(!html.contains("<script"));
    }

    let forming = read(&site.0.join("waiting/index.html"));
    assert!(forming.contains("the game has not started"), "{forming}");

    // The same database writes the same site, byte for byte.
    let again = TempDir::new("archive-again");
    write_site(&tx, &test_variants(), &again.0).unwrap();
    assert_eq!(read(&again.0.join("duel/index.html")), page);
    assert_eq!(read(&again.0.join("index.html")), index);
}

#[test]
fn the_summary_gives_holders_and_centres_by_year() {
    let mut judge = played_duel();
    let variants = test_variants();
    let tiny = variants.iter().find(|v| v.id == "tiny").unwrap();
    let tx = judge.daemon.store.begin().unwrap();
    let duel = tx.game_by_name("duel").unwrap().unwrap();
    let table = "Supply centers at the end of each year:\n\
         \x20        240 BC  239 BC\n\
         \x20 North       1       0\n\
         \x20 South       2       3\n";
    // A master sees the addresses; anyone else the registered names only.
    assert_eq!(
        summary_text(&tx, tiny, &duel, Reader::Master, Words::english()).unwrap(),
        format!(
            "Summary of game 'duel' (Tiny): finished, Adjustments for Winter of 239 BC.\n\
             Game 'duel' is over: won by South, Sat 09 Jan 2027 11:00 UTC.\n\
             \n\
             Who held each power:\n\
             \x20 North: alice@example.test (Spring of 240 BC – Winter of 239 BC)\n\
             \x20 South: <b>Bob</b> & co <bob@example.test> (Spring of 240 BC – Winter of 239 BC)\n\
             \n{table}"
        )
    );
    assert_eq!(
        summary_text(&tx, tiny, &duel, Reader::Other, Words::english()).unwrap(),
        format!(
            "Summary of game 'duel' (Tiny): finished, Adjustments for Winter of 239 BC.\n\
             Game 'duel' is over: won by South, Sat 09 Jan 2027 11:00 UTC.\n\
             \n\
             Who held each power:\n\
             \x20 North: a player who gave no name (Spring of 240 BC – Winter of 239 BC)\n\
             \x20 South: <b>Bob</b> & co (Spring of 240 BC – Winter of 239 BC)\n\
             \n{table}"
        )
    );
    let waiting = tx.game_by_name("waiting").unwrap().unwrap();
    assert_eq!(
        summary_text(&tx, tiny, &waiting, Reader::Other, Words::english()).unwrap(),
        "Summary of game 'waiting' (Tiny): forming.\n\nWho held each power:\n  no one yet: the game has not started.\n"
    );
}

fn strategos(config: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_strategos"))
        .arg("--config")
        .arg(config)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_operator_commands_read_the_configured_database() {
    let mut judge = played_duel();
    let config = judge.dir.0.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[paths]\ndatabase = \"{}\"\nvariants = \"{}\"\n",
            judge.dir.0.join("judge.db").display(),
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/variants")
        ),
    )
    .unwrap();

    let list = stdout(&strategos(&config, &["game", "list"]));
    assert_eq!(
        list,
        "waiting  tiny  forming   not started                       deadline none\n\
         duel     tiny  finished  Adjustments for Winter of 239 BC  deadline none\n"
    );

    let show = stdout(&strategos(&config, &["game", "show", "duel"]));
    assert_eq!(
        show,
        "Game duel\n\
         Variant: Tiny (tiny)\n\
         State: finished\n\
         Phase: Adjustments for Winter of 239 BC\n\
         Deadline: none (the game's time zone: UTC)\n\
         Public: yes\n\
         Members:\n\
         \x20 North: alice@example.test, player\n\
         \x20 South: <b>Bob</b> & co <bob@example.test>, player\n\
         Units:\n\
         \x20 North: Fleet Middle Sea\n\
         \x20 South: Army Twin Coasts\n\
         \x20 South: Army Northland\n\
         Supply centers:\n\
         \x20 North: 0\n\
         \x20 South: 3 (Northland, Southland, Twin Coasts)\n"
    );

    // The site the command writes is the one the library writes.
    let site = judge.dir.0.join("site");
    let out = strategos(&config, &["archive", "--out", site.to_str().unwrap()]);
    assert!(stdout(&out).starts_with("2 game page(s) written"));
    let own = TempDir::new("archive-own");
    {
        // The judge's transaction holds the write lock: the command would wait for it.
        let tx = judge.daemon.store.begin().unwrap();
        write_site(&tx, &test_variants(), &own.0).unwrap();
    }
    assert_eq!(
        read(&site.join("duel/index.html")),
        read(&own.0.join("duel/index.html"))
    );

    // Errors name what is wrong and exit with 2.
    let out = strategos(&config, &["game", "show", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no game 'nosuch'"));
    let missing = judge.dir.0.join("missing.toml");
    std::fs::write(
        &missing,
        format!(
            "[paths]\ndatabase = \"{}\"\n",
            judge.dir.0.join("nothing.db").display()
        ),
    )
    .unwrap();
    let out = strategos(&missing, &["game", "list"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("there is no database at"), "{err}");
    assert!(!judge.dir.0.join("nothing.db").exists());
}

/// A running game's page shows its phase, deadline and who still owes orders, beside an
/// iCalendar file of its deadlines and an Atom feed of its results, both written again as the
/// game goes on.
#[test]
fn a_running_game_has_its_deadline_calendar_and_results_feed() {
    let mut judge = Harness::new("feeds");
    judge.set_time(
        chrono::DateTime::parse_from_rfc3339("2027-01-05T12:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc),
    );
    judge.vouch(&["alice@example.test", "bob@example.test"]);
    for (i, (from, body)) in [
        (
            "alice@example.test",
            "CREATE ?fed apw tiny\nSET PREFERENCE N\n",
        ),
        ("bob@example.test", "SIGNON ?fed bpw\n"),
        ("alice@example.test", "SIGNON Nfed apw\nF Nor - Mid\n"),
    ]
    .iter()
    .enumerate()
    {
        judge.deliver(&mail(from, "g", &format!("feed{i}@x"), body));
    }
    let site = TempDir::new("feeds-site");
    let write = |judge: &mut Harness| {
        let tx = judge.daemon.store.begin().unwrap();
        strategos::archive::write_site_as(&tx, &test_variants(), &site.0, "STRA").unwrap();
    };
    write(&mut judge);
    let page = std::fs::read_to_string(site.0.join("fed/index.html")).unwrap();
    assert!(
        page.contains("<th scope=\"row\">Phase</th><td>Movement for Spring of 240 BC</td>"),
        "{page}"
    );
    assert!(
        page.contains("<th scope=\"row\">Deadline</th><td>Thu 07 Jan 2027 12:00 UTC</td>"),
        "{page}"
    );
    assert!(
        page.contains("<th scope=\"row\">Orders due from</th><td>South</td>"),
        "{page}"
    );
    assert!(page.contains("href=\"deadlines.ics\"") && page.contains("href=\"results.atom\""));
    let ics = std::fs::read_to_string(site.0.join("fed/deadlines.ics")).unwrap();
    assert!(ics.contains("DTSTART:20270107T120000Z\r\n"), "{ics}");
    assert!(
        ics.contains("SUMMARY:fed: deadline\\, Movement for Spring of 240 BC\r\n"),
        "{ics}"
    );
    assert!(
        ics.contains("DESCRIPTION:Orders still due from: South.\r\n"),
        "{ics}"
    );
    let feed = std::fs::read_to_string(site.0.join("fed/results.atom")).unwrap();
    assert_eq!(feed.matches("<entry>").count(), 0, "{feed}");
    // South's orders: the phase is processed, its results in the feed, the calendar moves on.
    judge.deliver(&mail(
        "bob@example.test",
        "g",
        "feed9@x",
        "SIGNON Sfed bpw\nA Sou H\n",
    ));
    write(&mut judge);
    let feed = std::fs::read_to_string(site.0.join("fed/results.atom")).unwrap();
    assert_eq!(feed.matches("<entry>").count(), 1, "{feed}");
    assert!(
        feed.contains("<title>STRA:fed - S0240M Results</title>"),
        "{feed}"
    );
    assert!(feed.contains("Fleet Northland -&gt; Middle Sea."), "{feed}");
    let ics = std::fs::read_to_string(site.0.join("fed/deadlines.ics")).unwrap();
    assert!(
        ics.contains("SUMMARY:fed: deadline\\, Movement for Autumn of 240 BC\r\n"),
        "{ics}"
    );
    assert!(
        ics.contains("DESCRIPTION:Orders still due from: North\\, South.\r\n"),
        "{ics}"
    );
}

/// The `{{ }}`, `{% %}` and `{# #}` tags of a template, in order.
fn tags(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find(['{']) {
        rest = &rest[at..];
        let close = match rest.as_bytes().get(1) {
            Some(b'{') => "}}",
            Some(b'%') => "%}",
            Some(b'#') => "#}",
            _ => {
                rest = &rest[1..];
                continue;
            }
        };
        let end = rest.find(close).expect("a tag is closed") + close.len();
        out.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    out
}

#[test]
fn the_archive_templates_say_the_same_in_russian_with_the_same_tags() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut names: Vec<_> = std::fs::read_dir(root.join("en/archive"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(names.len() >= 6, "{names:?}");
    for name in names {
        let en = std::fs::read_to_string(root.join("en/archive").join(&name)).unwrap();
        let ru = std::fs::read_to_string(root.join("ru/archive").join(&name)).unwrap();
        assert_eq!(tags(&en), tags(&ru), "{name:?}");
        assert_ne!(en, ru, "{name:?} is not translated");
    }
}

#[test]
fn a_keepers_archive_template_replaces_the_built_in_one() {
    let dir = TempDir::new("archive-templates");
    std::fs::create_dir_all(dir.0.join("en/archive")).unwrap();
    let index = dir.0.join("en/archive/index.html");
    std::fs::write(
        &index,
        "{% extends \"./page.html\" %}{% block title %}Our <games>{% endblock %}\
         {% block body %}<p>{{ games|length }} games</p>\n{% endblock %}",
    )
    .unwrap();
    let templates = strategos::report::Templates::load(Some(&dir.0)).unwrap();
    let mut judge = Harness::new("archive-templates");
    let site = dir.0.join("site");
    {
        let tx = judge.daemon.store.begin().unwrap();
        strategos::archive::write_site_with(&tx, &test_variants(), &site, "STRA", &templates)
            .unwrap();
    }
    let html = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(html.contains("<title>Our <games></title>"), "{html}");
    assert!(html.contains("<body>\n<p>0 games</p>\n</body>"), "{html}");
    // The built-in frame is kept.
    assert!(
        html.contains("<style>\nbody { font: 16px/1.45 system-ui"),
        "{html}"
    );
    // A template that does not compile stops the loading, naming its file and line.
    std::fs::write(&index, "<p>\n{% if %}</p>\n").unwrap();
    let error = strategos::report::Templates::load(Some(&dir.0))
        .err()
        .expect("a broken template is refused");
    assert!(error.contains("en/archive/index.html:2"), "{error}");
}
