//! Pictures painted ahead while the judge is idle: a game's results picture, painted after
//! its orders came and kept, is the very picture its deadline sends when the orders stay so;
//! orders changed after the painting are never shown by the old picture; a master's PROCESS
//! takes it too; nothing is painted twice.

use crate::judge_harness::{Harness, mail, test_config};
use crate::maps::read_raw;

const GINA: &str = "gina@example.test";
const BOB: &str = "bob@example.test";
const ANN: &str = "ann@example.test";

/// The pictures of the letters sent since the last call.
fn sent_pictures(judge: &mut Harness) -> Vec<Vec<u8>> {
    judge
        .take_sent_raw()
        .iter()
        .flat_map(|raw| {
            let (_, _, files) = read_raw(raw);
            files
                .into_iter()
                .filter(|(name, _, _)| name == "map.png")
                .map(|(_, _, bytes)| bytes)
        })
        .collect()
}

/// Marks the pictures kept ahead (a byte after each PNG's end, which readers ignore), so
/// that a letter carrying one shows it was taken from the store, not painted again.
fn mark_kept(judge: &Harness) {
    let db = rusqlite::Connection::open(judge.dir.0.join("judge.db")).unwrap();
    db.execute(
        "UPDATE pictures_ahead SET png = CAST(png || X'2A' AS BLOB)",
        [],
    )
    .unwrap();
}

/// The pictures kept ahead: `(language, png)`.
fn kept(judge: &Harness) -> Vec<(String, Vec<u8>)> {
    let db = rusqlite::Connection::open(judge.dir.0.join("judge.db")).unwrap();
    let mut statement = db
        .prepare("SELECT language, png FROM pictures_ahead ORDER BY language")
        .unwrap();
    statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn deadline(judge: &Harness) -> chrono::DateTime<chrono::Utc> {
    let db = rusqlite::Connection::open(judge.dir.0.join("judge.db")).unwrap();
    let text: String = db
        .query_row("SELECT deadline_at FROM games WHERE name = 'pa'", [], |r| {
            r.get(0)
        })
        .unwrap();
    text.parse().unwrap()
}

#[test]
fn a_picture_painted_ahead_is_the_deadline_s_picture_unless_the_orders_changed() {
    let mut judge = Harness::with_config("ahead", test_config());
    judge.set_time("2027-01-05T12:00:00Z".parse().unwrap());
    judge.vouch(&[GINA, BOB, ANN]);
    let mut n = 0;
    let mut send = |judge: &mut Harness, from: &str, body: &str| {
        n += 1;
        judge.deliver(&mail(from, "ahead", &format!("a{n}@x"), body));
    };
    send(&mut judge, GINA, "CREATE ?pa gmpw standard MODERATED\n");
    send(&mut judge, BOB, "SIGNON ?pa bobpw\nSET PREFERENCE F\n");
    send(
        &mut judge,
        ANN,
        "SIGNON ?pa annpw\nSET PREFERENCE G\nSET LANGUAGE ru\n",
    );
    send(&mut judge, GINA, "SIGNON ?pa gmpw\nFORCE BEGIN\n");
    assert!(!judge.daemon.paint_ahead(), "no orders yet: nothing wanted");
    judge.take_sent_raw();

    // Spring: orders (Bob's changed once, so his orders are written over), then an idle
    // moment paints the pictures (one a language), once.
    send(&mut judge, BOB, "SIGNON Fpa bobpw\nA Par - Pic\n");
    send(
        &mut judge,
        BOB,
        "SIGNON Fpa bobpw\nA Par - Bur\nF Bre - Mao\n",
    );
    send(&mut judge, ANN, "SIGNON Gpa annpw\nA Mun - Ruh\n");
    // Every letter was carried out.
    let answers = judge.take_sent();
    assert_eq!(answers.len(), 3);
    assert!(
        answers.iter().all(|a| !a.subject.contains("Error")),
        "{:?}",
        answers.iter().map(|a| &a.subject).collect::<Vec<_>>()
    );
    assert!(judge.daemon.paint_ahead());
    assert!(!judge.daemon.paint_ahead(), "each game is painted once");
    mark_kept(&judge);
    let spring = kept(&judge);
    assert_eq!(
        spring.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(),
        ["en", "ru"]
    );
    let at = deadline(&judge) + chrono::Duration::seconds(1);
    judge.tick(at);
    let sent = sent_pictures(&mut judge);
    assert_eq!(sent.len(), 3, "Gina's, Bob's and Ann's results");
    for picture in &sent {
        assert!(
            spring.iter().any(|(_, png)| png == picture),
            "the deadline painted again rather than send the picture painted ahead"
        );
    }
    assert!(
        kept(&judge).is_empty(),
        "the played phase's pictures are let go"
    );
    // Nothing was painted at the deadline: the store had them.
    assert_eq!(judge.daemon.judge.pictures_ahead.taken_ahead(), 0);

    // Fall: painted ahead, then Bob changes his orders: the deadline shows the new ones.
    send(&mut judge, BOB, "SIGNON Fpa bobpw\nA Bur - Mun\n");
    assert!(judge.daemon.paint_ahead());
    mark_kept(&judge);
    let fall = kept(&judge);
    assert_eq!(fall.len(), 2);
    send(&mut judge, BOB, "SIGNON Fpa bobpw\nA Bur H\n");
    judge.take_sent_raw();
    let at = deadline(&judge) + chrono::Duration::seconds(1);
    judge.tick(at);
    let sent = sent_pictures(&mut judge);
    assert_eq!(sent.len(), 3);
    for picture in &sent {
        assert!(
            fall.iter().all(|(_, png)| png != picture),
            "a picture of orders since changed was sent"
        );
        assert_eq!(
            picture.last(),
            Some(&0x82),
            "a picture painted whole, ending its PNG"
        );
    }

    // A game that ends between deadlines lets its pictures go at the next idle moment.
    send(&mut judge, BOB, "SIGNON Fpa bobpw\nA Bur - Pic\n");
    assert!(judge.daemon.paint_ahead());
    assert_eq!(kept(&judge).len(), 2);
    let db = rusqlite::Connection::open(judge.dir.0.join("judge.db")).unwrap();
    db.execute("UPDATE games SET state = 'finished' WHERE name = 'pa'", [])
        .unwrap();
    assert!(!judge.daemon.paint_ahead());
    assert!(kept(&judge).is_empty());
}
