//! A busy deadline: when several games reach their deadline in one round, their results
//! pictures are painted ahead on the other cores while the games are processed one after
//! another, each in its own transaction; every member gets the very picture the game would
//! have had alone, and nothing of one game shows on another's.

use crate::judge_harness::{Harness, mail, test_config};
use crate::maps::{Read, read_raw};

const GINA: &str = "gina@example.test";
const BOB: &str = "bob@example.test";
const ANN: &str = "ann@example.test";

/// The pictures of the results letters among `letters`, by recipient and game (the subject
/// names it: `STRA:g2 - ...`).
fn pictures(letters: &[Read], raws: &[Vec<u8>]) -> Vec<(String, String, Vec<u8>)> {
    let mut found: Vec<(String, String, Vec<u8>)> = letters
        .iter()
        .zip(raws)
        .filter_map(|((to, _, files), raw)| {
            let subject = String::from_utf8_lossy(raw)
                .lines()
                .find_map(|l| l.strip_prefix("Subject: ").map(str::to_string))?;
            let game = subject
                .split(['-', ' '])
                .next()?
                .trim_start_matches("STRA:");
            let (_, _, bytes) = files.iter().find(|(name, _, _)| name == "map.png")?;
            Some((game.to_string(), to.clone(), bytes.clone()))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn a_busy_deadline_s_pictures_are_the_pictures_each_game_would_have_alone() {
    let mut config = test_config();
    config.limits.games_created_per_day = 5;
    let mut judge = Harness::with_config("busy", config);
    let start: chrono::DateTime<chrono::Utc> = "2027-01-05T12:00:00Z".parse().unwrap();
    judge.set_time(start);
    judge.vouch(&[GINA, BOB, ANN]);
    let games = ["g1", "g2", "g3", "g4", "g5"];
    let mut n = 0;
    let mut send = |judge: &mut Harness, from: &str, body: String| {
        n += 1;
        judge.deliver(&mail(from, "busy", &format!("b{n}@x"), &body));
    };
    for (i, game) in games.iter().enumerate() {
        send(
            &mut judge,
            GINA,
            format!("CREATE ?{game} gmpw standard MODERATED\n"),
        );
        send(
            &mut judge,
            BOB,
            format!("SIGNON ?{game} bobpw\nSET PREFERENCE F\n"),
        );
        send(
            &mut judge,
            ANN,
            format!("SIGNON ?{game} annpw\nSET PREFERENCE G\n"),
        );
        send(
            &mut judge,
            GINA,
            format!("SIGNON ?{game} gmpw\nFORCE BEGIN\n"),
        );
        // Each game its own orders, so each picture differs; Ann of g3 wants none.
        let orders = [
            "A Par - Bur",
            "A Par - Pic",
            "A Mar - Spa",
            "F Bre - Mao",
            "A Par H",
        ][i];
        send(&mut judge, BOB, format!("SIGNON F{game} bobpw\n{orders}\n"));
        if *game == "g3" {
            send(
                &mut judge,
                ANN,
                format!("SIGNON G{game} annpw\nSET MAP OFF\n"),
            );
        }
    }
    judge.take_sent_raw();
    // The same judge twice: one processes the five games at one deadline, the other each
    // game alone, as its master's PROCESS.
    let mut alone = judge.copy("busy-alone");
    let deadline = start + chrono::Duration::days(3);
    judge.tick(deadline);
    let raws = judge.take_sent_raw();
    let busy = pictures(&raws.iter().map(|r| read_raw(r)).collect::<Vec<_>>(), &raws);
    let mut each = Vec::new();
    for game in games {
        alone.deliver(&mail(
            GINA,
            "busy",
            &format!("p-{game}@x"),
            &format!("SIGNON ?{game} gmpw\nPROCESS\n"),
        ));
        let raws = alone.take_sent_raw();
        each.extend(pictures(
            &raws.iter().map(|r| read_raw(r)).collect::<Vec<_>>(),
            &raws,
        ));
    }
    each.sort();
    // Gina (the master) and Bob in every game, Ann in all but g3.
    assert_eq!(
        busy.len(),
        14,
        "{:?}",
        busy.iter().map(|(g, t, _)| (g, t)).collect::<Vec<_>>()
    );
    assert_eq!(busy.len(), each.len());
    for ((game, to, bytes), (game_alone, to_alone, bytes_alone)) in busy.iter().zip(&each) {
        assert_eq!((game, to), (game_alone, to_alone));
        assert!(bytes == bytes_alone, "{game} to {to}: another picture");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
    // Every game's picture is its own.
    for (i, (game, _, bytes)) in busy.iter().enumerate() {
        for (other, _, other_bytes) in &busy[i + 1..] {
            assert!(
                game == other || bytes != other_bytes,
                "{game} and {other} share a picture"
            );
        }
    }
    // With another core, the pictures were painted ahead, beside the games' processing.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores > 1 {
        assert!(
            judge.daemon.judge.pictures_ahead.taken_ahead() > 0,
            "no picture was painted ahead"
        );
    }
    assert_eq!(alone.daemon.judge.pictures_ahead.taken_ahead(), 0);
}
