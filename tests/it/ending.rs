//! How a game ends by vote: the end letter as njudge's (the powers' letters in its subject,
//! its closing words) with the board as the game ends, its centres and its last map.

use crate::judge_harness::{Harness, mail};
use crate::maps::{Read, read_raw};

const GINA: &str = "gina@example.test";
const BOB: &str = "bob@example.test";
const ANN: &str = "ann@example.test";

/// A game of France-Austria on a judge of its own, its master Gina, Bob France, Ann Austria.
struct Duel {
    judge: Harness,
    letters: usize,
}

impl Duel {
    fn begun(folder: &str) -> Duel {
        let mut judge = Harness::new(folder);
        judge.set_time("2027-01-05T12:00:00Z".parse().unwrap());
        judge.vouch(&[GINA, BOB, ANN]);
        let mut duel = Duel { judge, letters: 0 };
        duel.send(GINA, "CREATE ?fa gmpw france-austria MODERATED\n");
        duel.send(BOB, "SIGNON ?fa bobpw\nSET PREFERENCE F\n");
        duel.send(ANN, "SIGNON ?fa annpw\nSET PREFERENCE A\n");
        duel.send(GINA, "SIGNON ?fa gmpw\nFORCE BEGIN\n");
        duel
    }

    /// Delivers a letter; the letters it caused, each with its subject, read.
    fn send(&mut self, from: &str, body: &str) -> Vec<(String, Read)> {
        self.letters += 1;
        let id = format!("e{}@x", self.letters);
        self.judge.deliver(&mail(from, "ending", &id, body));
        self.judge
            .take_sent_raw()
            .iter()
            .map(|raw| {
                let subject = mail_parser::MessageParser::default()
                    .parse(raw)
                    .and_then(|m| m.subject().map(str::to_string))
                    .unwrap_or_default();
                (subject, read_raw(raw))
            })
            .collect()
    }
}

fn to<'a>(letters: &'a [(String, Read)], who: &str) -> Vec<&'a (String, Read)> {
    letters.iter().filter(|(_, (to, _, _))| to == who).collect()
}

#[test]
fn a_drawn_game_ends_with_the_final_board_and_its_map() {
    let mut duel = Duel::begun("ending-draw");
    duel.send(ANN, "SIGNON Afa annpw\nSET MAP OFF\n");
    duel.send(BOB, "SIGNON Ffa bobpw\nSET DRAW\n");
    let ended = duel.send(ANN, "SIGNON Afa annpw\nSET DRAW\n");
    // Ann's answer says it all, without the picture she turned off.
    let ann = to(&ended, ANN);
    assert_eq!(ann.len(), 1, "{ended:#?}");
    let (_, (_, body, files)) = ann[0];
    assert!(
        body.contains("has been declared a draw between Austria and France."),
        "{body}"
    );
    assert!(body.contains("Supply centers as the game ends:"), "{body}");
    assert!(files.is_empty(), "Ann takes no pictures");
    // Bob and the master get the end letter: njudge's subject and words, the final board,
    // the last map.
    for who in [BOB, GINA] {
        let letters = to(&ended, who);
        assert_eq!(letters.len(), 1, "{who}: {ended:#?}");
        let (subject, (_, body, files)) = letters[0];
        assert!(subject.ends_with(" Draw Declared: AF"), "{subject}");
        assert!(subject.starts_with("STRA:fa - "), "{subject}");
        assert!(
            body.contains("Congratulations on a game well-played."),
            "{body}"
        );
        assert!(body.contains("Centers: Austria "), "{body}");
        assert_eq!(files.len(), 1, "{who}: one picture");
        let (name, media, bytes) = &files[0];
        assert_eq!((name.as_str(), media.as_str()), ("map.png", "image/png"));
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
}

#[test]
fn a_conceded_game_ends_with_njudges_concession_letter() {
    let mut duel = Duel::begun("ending-concede");
    let ended = duel.send(ANN, "SIGNON Afa annpw\nSET CONCEDE france\n");
    let bob = to(&ended, BOB);
    assert_eq!(bob.len(), 1, "{ended:#?}");
    let (subject, (_, body, files)) = bob[0];
    assert!(subject.ends_with(" Game Conceded to: F"), "{subject}");
    assert!(
        body.contains("Game 'fa' has been conceded to France."),
        "{body}"
    );
    assert!(
        body.contains("The game is over.  Thank you for playing."),
        "{body}"
    );
    assert!(body.contains("Supply centers as the game ends:"), "{body}");
    assert_eq!(files.len(), 1);
}
