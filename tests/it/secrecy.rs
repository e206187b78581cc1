//! Secrets kept, as attacks repelled (docs/security.md, "Secrecy"): a private game is known
//! only to its members and those it allows; no letter or page shows a player's address to
//! anyone but the game's masters unless the player chose to show it; an anonymous game hides
//! who plays it until it ends; grey press never names its sender.

use std::sync::atomic::{AtomicUsize, Ordering};

use chrono::{DateTime, Utc};
use strategos::letter::IncomingLetter;

use crate::judge_harness::Harness;

use crate::judge_harness::TempDir;

use crate::judge_harness::confirm_token;

use crate::judge_harness::mail;

use crate::judge_harness::test_variants;

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

/// One letter the judge sent: to whom, and its subject and body as one text.
#[derive(Debug)]
struct Sent {
    to: String,
    text: String,
    letter: IncomingLetter,
}

/// Hands `body` in from `from` and returns every letter the judge sent because of it.
fn send(judge: &mut Harness, from: &str, body: &str) -> Vec<Sent> {
    send_with_id(judge, from, body, &next_id())
}

fn next_id() -> String {
    static SERIAL: AtomicUsize = AtomicUsize::new(0);
    format!(
        "secrecy{}@example.test",
        SERIAL.fetch_add(1, Ordering::SeqCst)
    )
}

fn send_with_id(judge: &mut Harness, from: &str, body: &str, id: &str) -> Vec<Sent> {
    judge.deliver(&mail(from, "a letter", id, body));
    let mut letters = judge.take_sent();
    // A letter that waits for its address to confirm (REGISTER) is confirmed at once, as its
    // writer would: what counts here is the letter carried out.
    if letters
        .iter()
        .any(|l| l.to[0].email == from && confirm_token(&l.body).is_some())
    {
        judge.confirm(from);
        letters = judge
            .take_sent()
            .into_iter()
            .filter(|l| !l.subject.starts_with("Re: confirm"))
            .collect();
    }
    letters
        .into_iter()
        .map(|letter| Sent {
            to: letter.to[0].email.clone(),
            text: format!("{}\n{}", letter.subject, letter.body),
            letter,
        })
        .collect()
}

/// The answer (the letter starting `Re:`) to the sender among `sent`.
fn answer<'a>(sent: &'a [Sent], to: &str) -> &'a str {
    sent.iter()
        .find(|s| s.to == to && s.letter.subject.starts_with("Re:"))
        .map(|s| s.text.as_str())
        .unwrap_or_else(|| panic!("no answer to {to} in {sent:#?}"))
}

/// Everything `sent` told `to`, without the echo of their own commands (`> ...`).
fn told(sent: &[Sent], to: &str) -> String {
    sent.iter()
        .filter(|s| s.to == to)
        .flat_map(|s| s.text.lines())
        .filter(|l| !l.starts_with("> "))
        .collect::<Vec<_>>()
        .join("\n")
}

const ALICE: &str = "alice@example.test";
const BOB: &str = "bob@example.test";
const CAROL: &str = "carol@example.test";
const DAVE: &str = "dave@example.test";
const EVE: &str = "eve@example.test";
const GINA: &str = "gina@example.test";

/// A judge to test with, its letter writers' addresses taken as proven (these tests are about
/// secrecy, not about confirming addresses).
fn judge_named(tag: &str) -> Harness {
    let mut judge = Harness::new(tag);
    judge.vouch(&[
        "alice@example.test",
        "bob@example.test",
        "carol@example.test",
        "dave@example.test",
        "eve@example.test",
        "gina@example.test",
    ]);
    judge
}

/// A judge where alice has created the private game `hush` (tiny) that bob joined, so it
/// has started; `open` is a public game forming.
fn private_game() -> Harness {
    let mut judge = judge_named("secrecy-private");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    send(&mut judge, ALICE, "CREATE ?hush alicepw tiny PRIVATE");
    send(&mut judge, BOB, "SIGNON ?hush bobpw");
    send(&mut judge, CAROL, "CREATE ?open carolpw tiny");
    judge
}

#[test]
fn a_stranger_cannot_observe_or_read_a_private_game() {
    let mut judge = private_game();
    let list = send(&mut judge, EVE, "LIST");
    let all = answer(&list, EVE);
    assert!(all.contains("open"), "{all}");
    assert!(!all.contains("hush"), "eve listed a private game:\n{all}");
    // Every question about it gets the very answer a game that does not exist gets.
    for command in [
        "LIST hush",
        "HISTORY hush",
        "SUMMARY hush",
        "OBSERVE hush evepw",
        "SIGNON ?hush evepw",
        "SIGNON Nhush evepw",
    ] {
        let hidden = send(&mut judge, EVE, command);
        let nothing = send(&mut judge, EVE, &command.replace("hush", "nosuch"));
        assert_eq!(hidden.len(), 1, "{command}: only eve's answer: {hidden:#?}");
        assert_eq!(
            answer(&hidden, EVE).replace("hush", "nosuch"),
            answer(&nothing, EVE),
            "{command}"
        );
    }
    // She did not become an observer: the game's next report does not reach her.
    let report = send(&mut judge, ALICE, "SIGNON Nhush alicepw\nF Nor H");
    let report: Vec<_> = report
        .into_iter()
        .chain(send(&mut judge, BOB, "SIGNON Shush bobpw\nA Sou H"))
        .collect();
    assert!(
        report.iter().any(|s| s.text.contains("results")),
        "{report:#?}"
    );
    assert!(report.iter().all(|s| s.to != EVE), "{report:#?}");
    // A player writing from another address signs on with the power's password, as in any
    // game (the answer goes to the power's address).
    let away = send(
        &mut judge,
        "bob@work.example",
        "SIGNON Shush bobpw\nLIST hush",
    );
    let told_away = told(&away, BOB);
    assert!(
        told_away.contains("Signed on as South in game 'hush'"),
        "{away:#?}"
    );
    assert!(!told_away.contains("no game called"), "{told_away}");
    // Its members still see and read all of it.
    let mine = send(
        &mut judge,
        BOB,
        "LIST\nLIST hush\nSUMMARY hush\nHISTORY hush",
    );
    let told_bob = told(&mine, BOB);
    assert!(!told_bob.contains("no game called"), "{told_bob}");
    assert!(told_bob.contains("Summary of game 'hush'"), "{told_bob}");
    assert!(
        told_bob.contains("The archive of game 'hush'"),
        "{told_bob}"
    );
    // And the web archive has no page for it.
    let site = TempDir::new("secrecy-site");
    let tx = judge.daemon.store.begin().unwrap();
    strategos::archive::write_site(&tx, &test_variants(), &site.0).unwrap();
    assert!(!site.0.join("hush").exists());
    assert!(site.0.join("open/index.html").exists());
}

#[test]
fn a_private_game_admits_those_its_master_allows_and_nobody_it_denies() {
    let mut judge = judge_named("secrecy-allow");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    send(
        &mut judge,
        GINA,
        "CREATE ?club gpw tiny MODERATED PRIVATE\nSET ALLOW PLAYER alice@example.test\nSET DENY PLAYER eve@example.test",
    );
    // An address not on the allow list, and a denied one, get the answer for no game.
    for stranger in [EVE, DAVE] {
        let hidden = send(&mut judge, stranger, "SIGNON ?club pw\nLIST club");
        let nothing = send(&mut judge, stranger, "SIGNON ?nosuch pw\nLIST nosuch");
        assert_eq!(
            answer(&hidden, stranger).replace("club", "nosuch"),
            answer(&nothing, stranger)
        );
    }
    // The allowed address sees it, and may join it.
    let allowed = send(&mut judge, ALICE, "LIST\nLIST club\nSIGNON ?club alicepw");
    let told_alice = told(&allowed, ALICE);
    assert!(!told_alice.contains("no game called"), "{told_alice}");
    assert!(
        told_alice.contains("You have joined game 'club'") || told_alice.contains("joined"),
        "{told_alice}"
    );
}

#[test]
fn anyone_who_knows_a_private_games_name_may_join_it_while_it_forms_but_not_after() {
    let mut judge = judge_named("secrecy-nolist");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    let created = send(&mut judge, ALICE, "CREATE ?quiet alicepw tiny PRIVATE");
    assert!(answer(&created, ALICE).contains("Game 'quiet' is private"));
    // Bob knows the name: he joins, and the game starts.
    let joined = send(&mut judge, BOB, "SIGNON ?quiet bobpw");
    assert!(
        joined
            .iter()
            .any(|s| s.to == BOB && s.text.contains("Game Starting")),
        "{joined:#?}"
    );
    // Once it runs, a stranger who knows the name learns nothing.
    let late = send(&mut judge, EVE, "SIGNON ?quiet evepw");
    let none = send(&mut judge, EVE, "SIGNON ?nosuch evepw");
    assert_eq!(
        answer(&late, EVE).replace("quiet", "nosuch"),
        answer(&none, EVE)
    );
}

#[test]
fn a_create_option_never_changes_a_game_that_was_there() {
    let mut judge = judge_named("secrecy-create");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    send(&mut judge, CAROL, "CREATE ?open carolpw standard");
    // Bob joins carol's game, then tries to make it private and anonymous by CREATE.
    let tried = send(
        &mut judge,
        BOB,
        "SIGNON ?open bobpw\nCREATE ?open bobpw PRIVATE ANONYMOUS",
    );
    assert!(answer(&tried, BOB).contains("there is already a game called 'open'"));
    assert!(!answer(&tried, BOB).contains("is private"));
    let list = send(&mut judge, EVE, "LIST");
    assert!(
        answer(&list, EVE).contains("open"),
        "the game is still public"
    );
    let tx = judge.daemon.store.begin().unwrap();
    let game = tx.game_by_name("open").unwrap().unwrap();
    let settings = game.settings.clone();
    assert!(settings.public && !settings.anonymous);
}

/// A moderated white-press game `open` run by gina: alice (registered as Alice Liddell) and
/// bob (no name) play, carol observes and is promoted, bob resigns and dave takes South
/// over; eve is a stranger asking about everyone. Returns every letter sent.
fn played_open_game(judge: &mut Harness) -> Vec<Sent> {
    judge.set_time(at("2027-01-05T12:00:00Z"));
    let mut all = Vec::new();
    let mut step = |judge: &mut Harness, from: &str, body: &str| {
        all.extend(send(judge, from, body));
    };
    step(judge, GINA, "CREATE ?open gpw tiny MODERATED");
    step(
        judge,
        ALICE,
        "REGISTER regpw Alice Liddell\nSIGNON ?open alicepw\nSET PREFERENCE N",
    );
    step(judge, BOB, "SIGNON ?open bobpw");
    step(judge, CAROL, "OBSERVE open carolpw");
    step(judge, GINA, "SIGNON ?open gpw\nPROMOTE carol@example.test");
    step(judge, BOB, "SIGNON Sopen bobpw\nRESIGN");
    step(judge, DAVE, "SIGNON Sopen davepw\nA Sou H");
    step(judge, ALICE, "SIGNON Nopen alicepw\nF Nor H");
    step(
        judge,
        EVE,
        "WHOIS alice@example.test\nWHOIS bob@example.test\nWHOIS dave@example.test\nSUMMARY open\nHISTORY open\nOBSERVE open evepw",
    );
    step(judge, DAVE, "SIGNON Sopen davepw\nSUMMARY");
    step(
        judge,
        GINA,
        "SIGNON ?open gpw\nSUMMARY\nEJECT carol@example.test",
    );
    all
}

#[test]
fn no_letter_shows_a_players_address_to_other_players() {
    let mut judge = judge_named("secrecy-addresses");
    let all = played_open_game(&mut judge);
    for person in [ALICE, BOB, CAROL, DAVE] {
        for reader in [ALICE, BOB, DAVE, EVE] {
            if reader == person {
                continue;
            }
            let seen = told(&all, reader);
            // Eve's own WHOIS question comes back in the sentence for an unknown address.
            let seen: String = seen
                .lines()
                .filter(|l| !l.starts_with("No player is known to you as"))
                .collect::<Vec<_>>()
                .join("\n");
            assert!(
                !seen.contains(person),
                "{reader} was shown {person}'s address:\n{seen}"
            );
        }
    }
    // Players are named by their registered names; the masters see the addresses too.
    let alice_named = told(&all, DAVE);
    assert!(
        alice_named.contains("North: Alice Liddell"),
        "{alice_named}"
    );
    let gina = told(&all, GINA);
    assert!(
        crate::says(&gina, "Alice Liddell <alice@example.test>"),
        "{gina}"
    );
    assert!(crate::says(&gina, "dave@example.test"), "{gina}");
    assert!(crate::says(&gina, "bob@example.test"), "{gina}");
    // The newcomer and the promoted observer are named neutrally to the others.
    let alice_told = told(&all, ALICE);
    assert!(
        alice_told.contains(
            "A new player has taken over South in game 'open': a player who gave no name."
        ),
        "{alice_told}"
    );
    // The web archive names no one by address either.
    let site = TempDir::new("secrecy-addresses-site");
    let tx = judge.daemon.store.begin().unwrap();
    strategos::archive::write_site(&tx, &test_variants(), &site.0).unwrap();
    let page = std::fs::read_to_string(site.0.join("open/index.html")).unwrap();
    assert!(!page.contains("@example.test"), "{page}");
    assert!(page.contains("North: Alice Liddell"), "{page}");
}

/// The code the judge mailed to `to` in answer to `SET SHOW ADDRESS`.
fn code_in(sent: &[Sent], to: &str) -> String {
    let text = answer(sent, to);
    text.lines()
        .find_map(|l| l.strip_prefix("SET SHOW ADDRESS "))
        .unwrap_or_else(|| panic!("no code in:\n{text}"))
        .to_string()
}

/// `who` shows their address: asks for the code, and sends it back.
fn show_address(judge: &mut Harness, who: &str) {
    let asked = send(judge, who, "SET SHOW ADDRESS");
    let code = code_in(&asked, who);
    let done = send(judge, who, &format!("SET SHOW ADDRESS {code}"));
    assert!(answer(&done, who).contains("is now shown"), "{done:#?}");
}

#[test]
fn a_forged_letter_cannot_show_a_players_address() {
    let mut judge = judge_named("secrecy-show");
    played_open_game(&mut judge);
    let alice_hidden = |judge: &mut Harness| {
        let summary = send(
            judge,
            DAVE,
            "SIGNON Sopen davepw\nSUMMARY\nWHOIS alice@example.test",
        );
        let dave = told(&summary, DAVE);
        assert!(dave.contains("North: Alice Liddell"), "{dave}");
        // (WHOIS of an address no one shows says so in the sentence for an unknown one.)
        dave.contains("No player is known to you as alice@example.test:")
            && !dave.contains("<alice@example.test>")
    };
    // Eve writes as alice: the code goes to alice, never to eve, and nothing is shown.
    let forged = send(&mut judge, ALICE, "SET SHOW ADDRESS");
    assert!(forged.iter().all(|s| s.to == ALICE), "{forged:#?}");
    let alices_code = code_in(&forged, ALICE);
    assert!(alice_hidden(&mut judge));
    // Guessing fails; so does eve's own code sent as alice (a code is for one address).
    let evil = send(&mut judge, EVE, "SET SHOW ADDRESS");
    let eves_code = code_in(&evil, EVE);
    assert_ne!(eves_code, alices_code);
    for guess in ["0000000000", &eves_code, "SIGNON Nopen alicepw"] {
        let body = if guess.starts_with("SIGNON") {
            // Even with her power's password, a letter needs the code mailed to her.
            format!("{guess}\nSET SHOW ADDRESS 0123456789")
        } else {
            format!("SET SHOW ADDRESS {guess}")
        };
        let tried = send(&mut judge, ALICE, &body);
        assert!(
            answer(&tried, ALICE).contains("that is not the code mailed to alice@example.test"),
            "{body}: {tried:#?}"
        );
    }
    assert!(alice_hidden(&mut judge));
    // Alice herself, who got the code, shows it; then others see it beside her name.
    let shown = send(
        &mut judge,
        ALICE,
        &format!("SET SHOW ADDRESS {alices_code}"),
    );
    assert!(answer(&shown, ALICE).contains("Your address alice@example.test is now shown"));
    assert!(!alice_hidden(&mut judge));
    let summary = send(&mut judge, DAVE, "SUMMARY open\nWHOIS alice@example.test");
    let dave = told(&summary, DAVE);
    assert!(
        dave.contains("North: Alice Liddell <alice@example.test>"),
        "{dave}"
    );
    assert!(dave.contains("game 'open': north"), "{dave}");
    // Anyone may hide an address again, no proof needed: it gives nothing away.
    let hidden = send(&mut judge, ALICE, "SET HIDE ADDRESS");
    assert!(answer(&hidden, ALICE).contains("Your address is now hidden"));
    assert!(alice_hidden(&mut judge));
}

/// An anonymous moderated game `ghost` run by gina: alice (Alice Liddell) and bob play;
/// bob resigns and dave takes South over.
fn anonymous_game(judge: &mut Harness) -> Vec<Sent> {
    judge.set_time(at("2027-01-05T12:00:00Z"));
    let mut all = Vec::new();
    let mut step = |judge: &mut Harness, from: &str, body: &str| {
        all.extend(send(judge, from, body));
    };
    step(
        judge,
        GINA,
        "CREATE ?ghost gpw tiny MODERATED ANONYMOUS\nSET ALL PRESS",
    );
    step(
        judge,
        ALICE,
        "REGISTER regpw Alice Liddell\nSIGNON ?ghost alicepw\nSET PREFERENCE N",
    );
    step(judge, BOB, "REGISTER regpw Bob Bobson\nSIGNON ?ghost bobpw");
    step(judge, CAROL, "OBSERVE ghost carolpw");
    show_address(judge, ALICE);
    step(judge, BOB, "SIGNON Sghost bobpw\nRESIGN");
    step(
        judge,
        DAVE,
        "REGISTER regpw Dave Davies\nSIGNON Sghost davepw",
    );
    all
}

#[test]
fn an_anonymous_game_hides_who_plays_it_until_it_ends() {
    let mut judge = judge_named("secrecy-anonymous");
    let all = anonymous_game(&mut judge);
    for reader in [ALICE, BOB, CAROL, DAVE] {
        let seen = told(&all, reader);
        for (person, name) in [
            (ALICE, "Alice Liddell"),
            (BOB, "Bob Bobson"),
            (DAVE, "Dave Davies"),
        ] {
            if person == reader {
                continue;
            }
            assert!(
                !seen.contains(person) && !seen.contains(name),
                "{reader} learned who {person} is:\n{seen}"
            );
        }
    }
    let started = told(&all, BOB);
    assert!(
        started.contains("North:                    an anonymous player"),
        "{started}"
    );
    let carol = told(&all, CAROL);
    assert!(
        carol.contains("A new player has taken over South in game 'ghost': an anonymous player."),
        "{carol}"
    );
    // The master knows who took over.
    assert!(crate::says(
        &told(&all, GINA),
        "Dave Davies <dave@example.test>"
    ));
    // Questions from players and strangers tell no one either.
    let asked = send(
        &mut judge,
        DAVE,
        "SIGNON Sghost davepw\nSUMMARY\nWHOIS alice@example.test\nHISTORY ghost",
    );
    let dave = told(&asked, DAVE);
    assert!(dave.contains("North: an anonymous player"), "{dave}");
    // Alice shows her address, so WHOIS finds her, but not in this game.
    assert!(
        dave.contains("alice@example.test (Alice Liddell)"),
        "{dave}"
    );
    assert!(!dave.contains("game 'ghost': north"), "{dave}");
    assert!(!dave.contains("North: Alice"), "{dave}");
    // White press would sign messages: refused while it is anonymous; and whether it is
    // anonymous is settled at the start.
    let refused = send(
        &mut judge,
        GINA,
        "SIGNON ?ghost gpw\nSET WHITE\nSET NOT ANONYMOUS",
    );
    let gina = answer(&refused, GINA);
    assert!(
        crate::says(
            gina,
            "game 'ghost' is anonymous, so its press is grey or none"
        ),
        "{gina}"
    );
    assert!(
        crate::says(gina, "whether it is anonymous was settled when it began"),
        "{gina}"
    );
    assert!(
        refused.iter().all(|s| s.to == GINA),
        "nothing announced: {refused:#?}"
    );
    // Once it is over, it is shown as in any game: present and former players.
    send(&mut judge, GINA, "SIGNON ?ghost gpw\nTERMINATE");
    let after = send(&mut judge, CAROL, "SUMMARY ghost\nWHOIS alice@example.test");
    let carol = told(&after, CAROL);
    assert!(
        carol.contains("North: Alice Liddell <alice@example.test>"),
        "{carol}"
    );
    assert!(
        carol.contains("South: Bob Bobson (Spring of 240 BC), Dave Davies (Spring of 240 BC)"),
        "{carol}"
    );
    assert!(carol.contains("game 'ghost': north"), "{carol}");
    assert!(!carol.contains(BOB) && !carol.contains(DAVE), "{carol}");
}

#[test]
fn set_anonymous_while_forming_makes_the_press_grey_and_white_press_is_refused() {
    let mut judge = judge_named("secrecy-set-anonymous");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    send(&mut judge, GINA, "CREATE ?veil gpw tiny MODERATED");
    let set = send(
        &mut judge,
        GINA,
        "SIGNON ?veil gpw\nSET ANONYMOUS\nSET WHITE/GREY",
    );
    let gina = answer(&set, GINA);
    assert!(crate::says(gina, "the game is anonymous"), "{gina}");
    assert!(crate::says(gina, "press is grey"), "{gina}");
    assert!(crate::says(gina, "its press is grey or none"), "{gina}");
    let off = send(
        &mut judge,
        GINA,
        "SIGNON ?veil gpw\nSET NOT ANONYMOUS\nSET WHITE",
    );
    let gina = answer(&off, GINA);
    assert!(
        crate::says(gina, "the game is no longer anonymous"),
        "{gina}"
    );
    assert!(crate::says(gina, "press is white"), "{gina}");
}

/// Every header line of a raw message (folded lines joined), lower-cased names.
fn headers(raw: &str) -> Vec<(String, String)> {
    let head = raw.split("\r\n\r\n").next().unwrap_or("");
    let mut out: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            if let Some(last) = out.last_mut() {
                last.1.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            out.push((name.to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    out
}

#[test]
fn grey_press_never_names_its_sender() {
    let mut judge = judge_named("secrecy-grey");
    let mut all = anonymous_game(&mut judge);
    // Alice writes grey press and a broadcast from a letter whose Message-ID and subject
    // point at her.
    let sent_dir = judge.dir.0.join("sent").join("new");
    let before: Vec<_> = std::fs::read_dir(&sent_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(before.is_empty());
    judge.deliver(&mail(
        "Alice Liddell <alice@example.test>",
        "from alice's desk",
        "alice-secret-id@alice-home.example",
        "SIGNON Nghost alicepw\nPRESS TO S\nthe plan is xyzzy\nENDPRESS\nBROADCAST\nhello all, plugh\nENDBROADCAST\nPOSTAL PRESS\nlater, frotz\nENDPRESS",
    ));
    let mut raw: Vec<String> = std::fs::read_dir(&sent_dir)
        .unwrap()
        .map(|e| String::from_utf8_lossy(&std::fs::read(e.unwrap().path()).unwrap()).into_owned())
        .collect();
    let letters = judge.take_sent();
    assert_eq!(raw.len(), letters.len());
    // The postal press goes out with the next results.
    all.extend(send(&mut judge, DAVE, "SIGNON Sghost davepw\nA Sou H"));
    all.extend(send(&mut judge, ALICE, "SIGNON Nghost alicepw\nF Nor H"));
    let history = send(&mut judge, CAROL, "HISTORY ghost");
    let press: Vec<&IncomingLetter> = letters
        .iter()
        .chain(all.iter().map(|s| &s.letter))
        .chain(history.iter().map(|s| &s.letter))
        .filter(|l| l.to[0].email != ALICE)
        // The master's start letter names every player, as a master may see them; it is
        // no press.
        .filter(|l| !(l.to[0].email == GINA && l.subject.ends_with("Game Starting")))
        .collect();
    let carried = |word: &str| press.iter().any(|l| l.body.contains(word));
    assert!(
        carried("xyzzy") && carried("plugh") && carried("frotz"),
        "{press:#?}"
    );
    let secrets = [
        "alice@example.test",
        "Alice",
        "Liddell",
        "alice-home",
        "alice-secret-id",
        "alice's desk",
    ];
    for letter in &press {
        let text = format!("{}\n{}", letter.subject, letter.body);
        for secret in secrets {
            assert!(
                !text.contains(secret),
                "press names its sender ({secret}):\n{text}"
            );
        }
        let references = format!("{:?} {:?}", letter.references, letter.reply_to);
        assert!(!references.contains("alice"), "{references}");
        assert_eq!(letter.from.as_ref().unwrap().email, "judge@example.test");
    }
    // The press letters say nothing of which power wrote them.
    let press_letters: Vec<_> = press
        .iter()
        .filter(|l| l.subject.contains("Press from") || l.subject.contains("Broadcast from"))
        .collect();
    assert!(
        press_letters.len() >= 4,
        "bob, carol, gina: {press_letters:#?}"
    );
    for letter in press_letters {
        assert!(
            !letter.body.contains("North") && !letter.subject.contains("North"),
            "{letter:#?}"
        );
    }
    // Raw headers of everything sent because of her letter, to anyone but her: only the
    // judge's own.
    raw.retain(|r| {
        !headers(r)
            .iter()
            .any(|(n, v)| n == "to" && v.contains(ALICE))
    });
    assert!(
        raw.len() >= 3,
        "bob's press, the broadcasts, the master's copy"
    );
    for message in &raw {
        for (name, value) in headers(message) {
            // The game's thread is the only reference: nothing of the sender's letter.
            let game_thread = name == "references"
                && value.starts_with("<game.")
                && value.ends_with(".strategos@example.test>")
                && !value.contains(' ');
            assert!(
                game_thread
                    || !["reply-to", "in-reply-to", "references", "sender"]
                        .contains(&name.as_str()),
                "{name}: {value}"
            );
            for secret in secrets {
                assert!(!value.contains(secret), "{name}: {value}");
            }
        }
    }
    // The web archive neither: an anonymous game is not on it while it runs (its HISTORY,
    // above, holds the broadcast).
    let site = TempDir::new("secrecy-grey-site");
    let tx = judge.daemon.store.begin().unwrap();
    strategos::archive::write_site(&tx, &test_variants(), &site.0).unwrap();
    assert!(!site.0.join("ghost").exists());
    let index = std::fs::read_to_string(site.0.join("index.html")).unwrap();
    for secret in secrets.iter().chain(&["ghost"]) {
        assert!(!index.contains(secret), "{secret} on the index");
    }
}

#[test]
fn a_masters_answer_copied_to_a_player_shows_no_one_and_no_orders() {
    let mut judge = judge_named("secrecy-become");
    anonymous_game(&mut judge);
    send(&mut judge, ALICE, "SIGNON Nghost alicepw\nF Nor - Mid");
    let sent = send(
        &mut judge,
        GINA,
        "SIGNON ?ghost gpw\nSUMMARY\nWHOIS alice@example.test\nPREDICT\nBECOME south\nA Sou H",
    );
    // The master reads it all.
    let gina = told(&sent, GINA);
    assert!(
        crate::says(&gina, "Alice Liddell <alice@example.test>"),
        "{gina}"
    );
    assert!(
        crate::says(&gina, "Fleet Northland -> Middle Sea"),
        "{gina}"
    );
    // South's player gets a copy of what was done for South, and of nothing else.
    let copy: Vec<Sent> = sent
        .into_iter()
        .filter(|s| s.letter.subject.contains("Master Acted for South"))
        .collect();
    let dave = told(&copy, DAVE);
    assert!(dave.contains("Army Southland HOLD"), "{dave}");
    assert!(!dave.contains("North:"), "{dave}");
    assert!(!dave.contains("Prediction"), "{dave}");
    for secret in [
        "North: Alice",
        "<alice@example.test>",
        "game 'ghost': north",
        "Middle Sea",
    ] {
        assert!(!dave.contains(secret), "{secret} in the copy:\n{dave}");
    }
}

#[test]
fn a_stranger_cannot_see_a_private_here_i_stand_game() {
    let mut judge = judge_named("secrecy-his");
    judge.set_time(at("2027-01-05T12:00:00Z"));
    let created = send(&mut judge, GINA, "CREATE ?wien gpw his PRIVATE ANONYMOUS");
    let gina = answer(&created, GINA);
    assert!(crate::says(gina, "Game 'wien' is private"), "{gina}");
    assert!(crate::says(gina, "Game 'wien' is anonymous"), "{gina}");
    let hidden = send(&mut judge, EVE, "LIST wien\nSUMMARY wien");
    let nothing = send(&mut judge, EVE, "LIST nosuch\nSUMMARY nosuch");
    assert_eq!(
        answer(&hidden, EVE).replace("wien", "nosuch"),
        answer(&nothing, EVE)
    );
    // Knowing its name, a player may still take a power nobody holds; the referee learns
    // who, the other players do not.
    let joined = send(&mut judge, ALICE, "SIGNON Owien alicepw");
    assert!(answer(&joined, ALICE).contains("Ottoman"), "{joined:#?}");
    assert!(told(&joined, GINA).contains(ALICE), "{joined:#?}");
    let second = send(&mut judge, BOB, "SIGNON Hwien bobpw");
    let alice = told(&second, ALICE);
    assert!(
        alice.contains("Hapsburg in game 'wien': an anonymous player"),
        "{alice}"
    );
    // But not one that is held.
    let held = send(&mut judge, EVE, "SIGNON Owien evepw");
    let none = send(&mut judge, EVE, "SIGNON Onosuch evepw");
    assert_eq!(
        answer(&held, EVE).replace("wien", "nosuch"),
        answer(&none, EVE)
    );
    assert!(held.iter().all(|s| s.to == EVE), "{held:#?}");
}

#[test]
fn message_ids_and_the_order_of_copies_tell_nothing() {
    let mut judge = judge_named("secrecy-order");
    anonymous_game(&mut judge);
    let mut ids = Vec::new();
    for (sender, password, power) in [(ALICE, "alicepw", "N"), (DAVE, "davepw", "S")] {
        let body = format!("SIGNON {power}ghost {password}\nBROADCAST\nhello\nENDBROADCAST");
        let sent = send(&mut judge, sender, &body);
        // The copies, in the order the judge wrote them: by address, wherever the sender
        // stands among the others and whenever each joined.
        let copies: Vec<&str> = sent
            .iter()
            .filter(|s| s.letter.subject.contains("Broadcast"))
            .map(|s| s.to.as_str())
            .collect();
        assert!(copies.len() >= 2, "{sent:#?}");
        let mut sorted = copies.clone();
        sorted.sort();
        assert_eq!(copies, sorted, "copies of {sender}'s broadcast");
        ids.extend(sent.iter().map(|s| s.letter.message_id.clone()));
    }
    // Message-IDs carry no counter: 16 random hex digits between the time and the domain.
    let drawn: Vec<u64> = ids
        .iter()
        .map(|id| {
            let part = id.split('.').nth(1).unwrap_or_default();
            assert_eq!(part.len(), 16, "{id}");
            u64::from_str_radix(part, 16).unwrap_or_else(|_| panic!("{id}"))
        })
        .collect();
    let mut unique = drawn.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), drawn.len(), "{ids:?}");
    assert!(
        !unique.windows(2).any(|w| w[1] - w[0] == 1),
        "Message-IDs that count: {ids:?}"
    );
}
