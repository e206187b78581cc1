//! Maps: the picture never lies about the rules (every shipped variant's drawn borders match
//! its rules, and a lie is named), the SVG holds every province, unit and order with its
//! outcome, a PNG is rendered with the font in the binary, and the palettes stay apart for
//! colour-blind readers.

use strategos::drawing::{self, check_map, his};
use strategos::interface::adjudicate::Options;
use strategos::interface::picture::{case_boards, draw_case};
use strategos::report::messages::Words;
use strategos::variant::{self, load_variant};

use crate::case::{data, variants};

#[test]
fn every_shipped_variant_is_drawn_true_to_its_borders() {
    for v in variants() {
        let layout = v
            .layout
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no [map]", v.id));
        let mismatches = check_map(&v.map, layout);
        assert!(mismatches.is_empty(), "{}: {mismatches:#?}", v.id);
    }
    let map = strategos::variant::his::embedded_map().unwrap();
    let layout = his::layout().expect("Here I Stand has a [map]");
    let mismatches = his::check_his(&map, layout);
    assert!(mismatches.is_empty(), "his: {mismatches:#?}");
}

/// The standard file with `edit` made to its text, loaded.
fn standard_with(edit: impl Fn(&str) -> String) -> variant::Variant {
    let (_, file, text) = variant::EMBEDDED[0];
    load_variant("standard", file, &edit(text)).expect("the edited file loads")
}

#[test]
fn a_picture_that_lies_is_named_mismatch_by_mismatch() {
    // Bohemia and Galicia still touch on the map, but the rules lose their border.
    let v = standard_with(|t| t.replace("\"boh-gal\", ", ""));
    let found: Vec<String> = check_map(&v.map, v.layout.as_ref().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("Bohemia and Galicia share a drawn land border"),
        "{found:#?}"
    );
    // Galicia's sites moved into Ukraine: its border with Bohemia is no longer drawn.
    let v = standard_with(|t| {
        t.replace(
            "gal = { sites = [[22.5, 49.6], [26.0, 48.4], [19.9, 50.0]] }",
            "gal = { sites = [[26.0, 48.4]] }",
        )
    });
    let found: Vec<String> = check_map(&v.map, v.layout.as_ref().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert!(
        found.contains(
            &"Bohemia and Galicia border in the rules but are not drawn together".to_string()
        ),
        "{found:#?}"
    );
    // A province with no place, and colours too alike, are named too.
    let v = standard_with(|t| {
        t.replace("swi = { sites = [[8.2, 46.8]] }\n", "")
            .replace("france = \"#56B4E9\"", "france = \"#0072B3\"")
    });
    let found: Vec<String> = check_map(&v.map, v.layout.as_ref().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(found, ["Switzerland has no place on the map"]);
    let v = standard_with(|t| t.replace("france = \"#56B4E9\"", "france = \"#0072B3\""));
    let found: Vec<String> = check_map(&v.map, v.layout.as_ref().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("the colours of england and france are too alike")),
        "{found:#?}"
    );
}

#[test]
fn a_unit_or_centre_drawn_outside_its_province_is_named() {
    // Paris's unit point put in Burgundy; Spain's north-coast fleet out in the Bay of Biscay.
    let v = standard_with(|t| {
        t.replace(
            "par = { sites = [[2.3, 48.5]] }",
            "par = { sites = [[2.3, 48.5]], unit = [5.0, 47.0] }",
        )
        .replace("nc = [-5.5, 43.4]", "nc = [-6.0, 45.0]")
    });
    let found: Vec<String> = check_map(&v.map, v.layout.as_ref().unwrap())
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].starts_with("Paris's unit is drawn outside it (")
            && found[0].ends_with("): move it into the province"),
        "{found:#?}"
    );
    assert!(
        found[1].starts_with("Spain's fleet point for /nc is drawn outside it ("),
        "{found:#?}"
    );
}

#[test]
fn youngstown_boxes_are_drawn_as_boxes_naming_their_neighbours() {
    let v = variants().iter().find(|v| v.id == "youngstown").unwrap();
    let svg = drawing::draw_variant(v, true, Words::english()).unwrap();
    // Box A: a square of its own, outlined, after the seas, with the boxes it borders.
    let bxa = svg
        .split("<path id=\"province-bxa\"")
        .nth(1)
        .expect("Box A drawn");
    assert!(
        bxa[..bxa.find('>').unwrap()].contains("stroke="),
        "{bxa:.200}"
    );
    assert!(svg.contains("\u{2194} Bxb Bxc Bxd"));
    assert!(svg.contains("\u{2194} Bxc Bxf Bxg"));
}

/// The values of attribute `name` on elements whose tag starts `<tag` in `svg`.
fn attributes(svg: &str, tag: &str, name: &str) -> Vec<String> {
    let open = format!("<{tag} ");
    let key = format!(" {name}=\"");
    svg.split(&open)
        .skip(1)
        .filter_map(|element| {
            let head = format!(
                " {}",
                &element[..element.find('>').unwrap_or(element.len())]
            );
            let at = head.find(&key)? + key.len();
            Some(head[at..at + head[at..].find('"')?].to_string())
        })
        .collect()
}

#[test]
fn the_svg_draws_every_province_and_every_unit() {
    for v in variants() {
        let svg = drawing::draw_variant(v, false, Words::english()).unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        let ids = attributes(&svg, "path", "id");
        for province in &v.map.provinces {
            assert!(
                ids.contains(&format!("province-{}", province.id)),
                "{}: {} not drawn",
                v.id,
                province.id
            );
        }
        let units = attributes(&svg, "g", "id");
        for unit in &v.start.units {
            let id = format!("unit-{}", v.map.region_id(unit.region).replace('/', "-"));
            assert!(units.contains(&id), "{}: {id} not drawn", v.id);
        }
        assert_eq!(
            attributes(&svg, "g", "class")
                .iter()
                .filter(|c| *c == "unit")
                .count(),
            v.start.units.len()
        );
        for power in &v.map.powers {
            assert!(svg.contains(&format!("data-power=\"{}\"", power.id)));
        }
        // The empty map has no units.
        let empty = drawing::draw_variant(v, true, Words::english()).unwrap();
        assert!(!empty.contains("class=\"unit\""));
    }
}

#[test]
fn orders_are_drawn_with_their_outcomes_and_reasons() {
    let boards = case_boards(data("maps/cases.json"), variants(), &Options::default());
    let board = boards[0].as_ref().unwrap();
    let svg = draw_case(board, Words::english()).unwrap();
    let orders: Vec<&str> = svg
        .split("<g class=\"order ")
        .skip(1)
        .map(|o| &o[..o.find("</g>").unwrap()])
        .collect();
    assert_eq!(orders.len(), 8, "one drawing per order");
    let find = |text: &str| {
        *orders
            .iter()
            .find(|o| o.contains(text))
            .unwrap_or_else(|| panic!("no order drawn for {text}"))
    };
    // A bounce: both moves fail, dashed and crossed, the reason on hover.
    let paris = find("Paris -&gt; Burgundy");
    assert!(paris.starts_with("move\" data-result=\"fails\""), "{paris}");
    assert!(paris.contains("stroke-dasharray") && paris.contains("class=\"cross\""));
    assert!(paris.contains("bounce"), "{paris}");
    // A supported attack succeeds; the support is drawn as such.
    assert!(find("Tyrolia -&gt; Venice").starts_with("move\" data-result=\"succeeds\""));
    assert!(find("Army Trieste SUPPORT").starts_with("support\" data-result=\"succeeds\""));
    // The convoy and the convoyed move, and a hold dislodged.
    assert!(find("Fleet North Sea CONVOY").starts_with("convoy\" data-result=\"succeeds\""));
    assert!(find("Army Venice HOLD").starts_with("hold\" data-result=\"fails\""));
    // The dislodged unit is drawn with its retreats.
    let dislodged = &svg[svg
        .find("<g class=\"dislodged\" id=\"dislodged-ven\"")
        .expect("dislodged drawn")..];
    let dislodged = &dislodged[..dislodged.find("</g>").unwrap()];
    assert!(
        dislodged.contains("class=\"retreat-option\""),
        "{dislodged}"
    );
    assert!(dislodged.contains("may retreat to"), "{dislodged}");
}

#[test]
fn a_png_is_rendered_with_the_font_in_the_binary() {
    let v = &variants()[0];
    let svg = drawing::draw_variant(v, false, Words::english()).unwrap();
    let png = drawing::png::render_png(&svg, 0.25).expect("rendered");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height, a quarter of the picture's.
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    assert_eq!(width, 300);
    // Text is drawn: the same picture without its words is a different image.
    let blank = svg.replace("font-size=", "font-size=\"0\" data-size=");
    assert_ne!(drawing::png::render_png(&blank, 0.25).unwrap(), png);
    assert!(drawing::png::render_png("not svg", 1.0).is_none());
}

/// A board painted in layers (what never changes on the map painted once and kept, each
/// picture painting its centres' land, units, orders and legend over a copy) is the picture
/// of the whole drawing: the same size, no pixel of another colour (only the anti-aliased
/// edges of the centres' land, painted over the sea rather than beside their neighbours,
/// and the palette's nearest colours differ, slightly). So is the next board of the same
/// map with other owners, painted from the same kept layers, and a board of another map.
#[test]
fn a_board_painted_in_layers_is_the_board_drawn_whole() {
    let boards = case_boards(data("maps/cases.json"), variants(), &Options::default());
    let words = Words::english();
    let mut compared = 0;
    for board in boards.iter().flatten() {
        let map = &board.variant.map;
        let layout = board.variant.layout.as_deref().unwrap();
        let orders = drawing::orders::drawn_orders(
            words,
            map,
            &board.position,
            &board.submitted,
            &board.resolution.outcomes,
        );
        // The board, then the same with every owned centre passed to the next power and
        // every unowned one given to the first.
        let mut passed = board.position.clone();
        for owner in passed.owners.iter_mut() {
            *owner = Some(strategos::diplomacy::power::PowerId(
                owner.map_or(0, |p| (p.0 + 1) % map.powers.len() as u8),
            ));
        }
        for position in [&board.position, &passed] {
            let scene = drawing::Scene {
                map,
                layout,
                position,
                title: board.id.clone(),
                orders: orders.clone(),
                retreats: board.resolution.dislodged.clone(),
            };
            let whole = drawing::png::render(&drawing::draw(&scene, words), 1.0).unwrap();
            let layered = drawing::layers::paint_board(&scene, words).unwrap();
            let w = whole.width();
            assert_eq!(
                (layered.width(), layered.height()),
                (w, whole.height()),
                "{}",
                board.id
            );
            let mut differ = 0;
            for (i, (a, b)) in whole.pixels().iter().zip(layered.pixels()).enumerate() {
                let (a, b) = (a.demultiply(), b.demultiply());
                let most = [
                    a.red().abs_diff(b.red()),
                    a.green().abs_diff(b.green()),
                    a.blue().abs_diff(b.blue()),
                    a.alpha().abs_diff(b.alpha()),
                ]
                .into_iter()
                .max()
                .unwrap();
                assert!(
                    most <= 48,
                    "{}: pixel ({}, {}) is {b:?}, drawn whole {a:?}",
                    board.id,
                    i as u32 % w,
                    i as u32 / w
                );
                differ += usize::from(most > 2);
            }
            assert!(
                differ * 100 < whole.pixels().len(),
                "{}: {differ} of {} pixels differ",
                board.id,
                whole.pixels().len()
            );
            // Any other board of the map is painted over the same kept layers.
            let other = drawing::Scene {
                title: format!("another game, {}", board.id),
                orders: Vec::new(),
                retreats: Vec::new(),
                ..scene
            };
            assert!(drawing::layers::kept(&other), "{}", board.id);
            let scene = drawing::Scene {
                title: board.id.clone(),
                orders: orders.clone(),
                retreats: board.resolution.dislodged.clone(),
                ..other
            };
            // The PNG is that picture.
            let png = drawing::layers::board_png(&scene, words).unwrap();
            assert_eq!(png, drawing::png::encode(&layered).unwrap());
            compared += 1;
        }
    }
    assert_eq!(compared, 4, "two maps, two boards each");
    // A variant's starting board, as `GET MAP standard` mails it, is painted the same way.
    for v in variants().iter().filter(|v| v.layout.is_some()) {
        let png = drawing::variant_png(v, false, words).unwrap();
        let whole =
            drawing::png::render(&drawing::draw_variant(v, false, words).unwrap(), 1.0).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let size = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
        assert_eq!(
            (size(16), size(20)),
            (whole.width(), whole.height()),
            "{}",
            v.id
        );
    }
}

/// `(recipient, body, attachments as (name, media type, bytes))` of a raw letter.
pub type Read = (String, String, Vec<(String, String, Vec<u8>)>);

pub fn read_raw(raw: &[u8]) -> Read {
    use mail_parser::MimeHeaders;
    let letter = strategos::mail::read::read_letter(raw, &[]).unwrap();
    let message = mail_parser::MessageParser::default().parse(raw).unwrap();
    let attachments = message
        .attachments()
        .map(|part| {
            let media = part
                .content_type()
                .map(|t| format!("{}/{}", t.ctype(), t.subtype().unwrap_or_default()))
                .unwrap_or_default();
            let name = part.attachment_name().unwrap_or_default().to_string();
            (name, media, part.contents().to_vec())
        })
        .collect();
    let to = message
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or_default()
        .to_string();
    (to, letter.body, attachments)
}

fn letters_to<'a>(letters: &'a [Read], who: &str) -> Vec<&'a Read> {
    letters.iter().filter(|(to, _, _)| to == who).collect()
}

/// Gina, Bob and Ann.
const GINA: &str = "gina@example.test";
const BOB: &str = "bob@example.test";
const ANN: &str = "ann@example.test";

/// A moderated standard game begun by its master Gina, with Bob as France and Ann as
/// Germany, on a judge of its own.
struct PictureGame {
    judge: crate::judge_harness::Harness,
    letters: usize,
}

impl PictureGame {
    fn begun(folder: &str, game: &str) -> PictureGame {
        let mut judge = crate::judge_harness::Harness::new(folder);
        judge.set_time("2027-01-05T12:00:00Z".parse().unwrap());
        judge.vouch(&[GINA, BOB, ANN]);
        let mut begun = PictureGame { judge, letters: 0 };
        begun.send(GINA, &format!("CREATE ?{game} gmpw standard MODERATED\n"));
        begun.send(BOB, &format!("SIGNON ?{game} bobpw\nSET PREFERENCE F\n"));
        begun.send(ANN, &format!("SIGNON ?{game} annpw\nSET PREFERENCE G\n"));
        begun.send(GINA, &format!("SIGNON ?{game} gmpw\nFORCE BEGIN\n"));
        begun
    }

    /// Delivers a letter; the letters it caused, read.
    fn send(&mut self, from: &str, body: &str) -> Vec<Read> {
        self.letters += 1;
        let id = format!("m{}@x", self.letters);
        self.judge
            .deliver(&crate::judge_harness::mail(from, "maps", &id, body));
        self.judge
            .take_sent_raw()
            .iter()
            .map(|r| read_raw(r))
            .collect()
    }
}

/// A game's picture goes with each member's results letter, but the outbox stores it once:
/// each queued letter holds a reference in its place, and is made whole when sent, so every
/// member gets the same picture, whole.
#[test]
fn a_phase_picture_is_stored_once_for_all_the_letters_that_carry_it() {
    let mut game = PictureGame::begun("maps-once", "once");
    let gina = GINA;
    let db = rusqlite::Connection::open(game.judge.dir.0.join("judge.db")).unwrap();
    let parts_before: i64 = db
        .query_row("SELECT COUNT(*) FROM outbox_parts", [], |r| r.get(0))
        .unwrap();
    let results = game.send(gina, "SIGNON ?once gmpw\nPROCESS\n");
    let pictures: Vec<&Vec<u8>> = results
        .iter()
        .flat_map(|(_, _, files)| files.iter().map(|(_, _, bytes)| bytes))
        .collect();
    assert_eq!(pictures.len(), 3, "the master's, Bob's and Ann's results");
    assert!(pictures.iter().all(|p| *p == pictures[0]));
    assert_eq!(&pictures[0][..8], b"\x89PNG\r\n\x1a\n");
    let (parts, stored): (i64, i64) = db
        .query_row(
            "SELECT COUNT(*), COALESCE(SUM(length(bytes)), 0) FROM outbox_parts",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        parts - parts_before,
        1,
        "one picture stored for three letters"
    );
    assert!(
        stored as usize > pictures[0].len(),
        "stored encoded, in base64"
    );
    let largest: i64 = db
        .query_row("SELECT MAX(length(raw)) FROM outbox", [], |r| r.get(0))
        .unwrap();
    assert!(
        (largest as usize) < pictures[0].len(),
        "a queued letter of {largest} bytes holds no picture"
    );
    // The picture is kept `limits.keep_sent_attachments_days` (30) after its letters went,
    // then a round removes it.
    let part: i64 = db
        .query_row("SELECT MAX(id) FROM outbox_parts", [], |r| r.get(0))
        .unwrap();
    let kept = |db: &rusqlite::Connection| -> bool {
        db.query_row(
            "SELECT bytes IS NOT NULL FROM outbox_parts WHERE id = ?1",
            [part],
            |r| r.get(0),
        )
        .unwrap()
    };
    game.judge.set_time("2027-02-03T12:00:00Z".parse().unwrap());
    game.judge.daemon.round();
    assert!(kept(&db), "29 days on");
    game.judge.set_time("2027-02-05T12:00:00Z".parse().unwrap());
    game.judge.daemon.round();
    assert!(!kept(&db), "31 days on");
}

#[test]
fn results_letters_carry_the_picture_unless_turned_off_and_get_map_mails_it() {
    let mut game = PictureGame::begun("maps", "pics");
    let (gina, bob, ann) = (GINA, BOB, ANN);
    let answer = game.send(ann, "SIGNON Gpics annpw\nSET MAP OFF\n");
    assert!(answer[0].1.contains("carry no picture"), "{}", answer[0].1);
    game.send(
        bob,
        "SIGNON Fpics bobpw\nA Par - Bur\nA Mar S A Par - Bur\n",
    );
    let results = game.send(gina, "SIGNON ?pics gmpw\nPROCESS\n");
    // Bob and the master get the picture of the new board; Ann, who turned it off, does not.
    for who in [bob, gina] {
        let letter = letters_to(&results, who)
            .into_iter()
            .find(|(_, body, _)| body.contains("Burgundy"))
            .unwrap_or_else(|| panic!("no results to {who}"));
        let (name, media, bytes) = &letter.2[0];
        assert_eq!((name.as_str(), media.as_str()), ("map.png", "image/png"));
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(letter.2.len(), 1);
    }
    let ann_results = letters_to(&results, ann)
        .into_iter()
        .find(|(_, body, _)| body.contains("Burgundy"))
        .expect("Ann's results");
    assert!(ann_results.2.is_empty());
    // The text reads the same with or without the picture.
    let bob_body = &letters_to(&results, bob)
        .into_iter()
        .find(|(_, body, _)| body.contains("Burgundy"))
        .unwrap()
        .1;
    let ann_body = &ann_results.1;
    assert_eq!(
        bob_body.lines().filter(|l| l.contains("Burgundy")).count(),
        ann_body.lines().filter(|l| l.contains("Burgundy")).count()
    );
    // The master turns pictures off for the game.
    let answer = game.send(gina, "SIGNON ?pics gmpw\nSET GAME MAP OFF\n");
    assert!(
        answer
            .iter()
            .any(|(_, b, _)| b.contains("carry no picture of the board")),
        "{answer:#?}"
    );
    let results = game.send(gina, "SIGNON ?pics gmpw\nPROCESS\n");
    assert!(!results.is_empty());
    assert!(results.iter().all(|(_, _, a)| a.is_empty()));
    // GET MAP mails the board as it stands, to anyone who may see the game.
    let answer = game.send(bob, "GET MAP pics\n");
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0].1.contains("The picture of game 'pics'"),
        "{}",
        answer[0].1
    );
    assert_eq!(answer[0].2.len(), 1);
    assert_eq!(answer[0].2[0].0, "map.png");
    let answer = game.send(bob, "GET MAP nosuchgame\n");
    assert!(answer[0].2.is_empty());
    // A variant's name: its starting board (Here I Stand's too); a letter gets three pictures.
    let answer = game.send(
        bob,
        "GET MAP standard\nGET MAP here-i-stand\nGET MAP standard\nGET MAP pics\nGET MAP diadochi-v\n",
    );
    assert_eq!(answer.len(), 1);
    let names: Vec<&str> = answer[0].2.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["map.png", "map.png", "map.png"], "{}", answer[0].1);
    assert!(
        answer[0].1.contains("Here I Stand's board of 1517"),
        "{}",
        answer[0].1
    );
    assert!(
        crate::says(
            &answer[0].1,
            "Error: line 5: one letter gets at most 3 pictures; ask for the picture of 'diadochi-v' in another letter"
        ),
        "{}",
        answer[0].1
    );

    // The archive shows every phase's map: the played ones with their orders, the phase
    // being played without (its orders are secret).
    let site = crate::judge_harness::TempDir::new("maps-site");
    let tx = game.judge.daemon.store.begin().unwrap();
    strategos::archive::write_site(&tx, &crate::judge_harness::test_variants(), &site.0).unwrap();
    let page = std::fs::read_to_string(site.0.join("pics/index.html")).unwrap();
    assert_eq!(page.matches("<figure class=\"map\">").count(), 3, "{page}");
    // Each phase's file is named by the phase and a fingerprint of what it shows.
    let file_of = |n: usize| -> Option<std::path::PathBuf> {
        std::fs::read_dir(site.0.join("pics"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                name.starts_with(&format!("phase-{n}-")) && name.ends_with(".svg")
            })
    };
    for n in 0..3 {
        let file = file_of(n).unwrap_or_else(|| panic!("no picture of phase {n}"));
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        // In the phase's own place on the page, beside its reports.
        let at = page
            .find(&format!("<article class=\"phase\" id=\"phase-{n}\">"))
            .unwrap_or_else(|| panic!("no place for phase {n}: {page}"));
        let step = &page[at..];
        let step = &step[..step[1..].find("<article").map_or(step.len(), |e| e + 1)];
        assert!(step.contains(&format!("<img src=\"{name}\"")), "{page}");
    }
    let first = std::fs::read_to_string(file_of(0).unwrap()).unwrap();
    assert!(
        first.contains("Army Paris -&gt; Burgundy."),
        "the played phase shows its orders"
    );
    let current = std::fs::read_to_string(file_of(2).unwrap()).unwrap();
    assert!(current.contains("class=\"unit\"") && !current.contains("class=\"order "));
    assert!(file_of(3).is_none());
    // Written again, the archive draws only the pictures it does not have.
    std::fs::write(file_of(0).unwrap(), "kept").unwrap();
    std::fs::remove_file(file_of(1).unwrap()).unwrap();
    strategos::archive::write_site(&tx, &crate::judge_harness::test_variants(), &site.0).unwrap();
    assert_eq!(
        std::fs::read_to_string(file_of(0).unwrap()).unwrap(),
        "kept"
    );
    assert!(file_of(1).is_some(), "a missing picture is drawn again");
    drop(tx);

    // strategos map --game draws a game's phase from the configured database.
    let config = game.judge.dir.0.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[paths]\ndatabase = \"{}\"\n",
            game.judge.dir.0.join("judge.db").display()
        ),
    )
    .unwrap();
    let out_file = game.judge.dir.0.join("phase0.svg");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_strategos"))
            .arg("--config")
            .arg(&config)
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "map",
        "--game",
        "pics",
        "--phase",
        "0",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), first);
    let out = run(&[
        "map",
        "--game",
        "pics",
        "--phase",
        "9",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no picture of phase 9"));
}

#[test]
fn diadochi_pictures_show_destroyed_and_restoring_centres_and_credit() {
    let boards = case_boards(data("maps/cases.json"), variants(), &Options::default());
    let board = boards[1].as_ref().unwrap();
    assert_eq!(board.variant.id, "diadochi-v");
    let svg = draw_case(board, Words::english()).unwrap();
    let destroyed = &svg[svg.find("class=\"destroyed\"").expect("a destroyed centre")..];
    assert!(
        destroyed.contains("<title>Syracuse: destroyed</title>"),
        "{destroyed}"
    );
    let restoring = &svg[svg.find("class=\"restoring\"").expect("a restoration")..];
    assert!(
        restoring.contains("<title>Babylon: Syria restoring, 1 turn of work</title>"),
        "{restoring}"
    );
    assert!(
        svg.contains("credit: Egypt lends Syria 2"),
        "the credit in the legend"
    );
    assert!(
        svg.contains("class=\"link\""),
        "the straits and the Via Maris"
    );
    assert!(svg.contains("class=\"canal\""), "the canals");
    // A fleet on a split coast stands on it.
    assert!(svg.contains("id=\"unit-scy-ec\""), "{}", &svg[..200]);
}

#[test]
fn a_here_i_stand_board_shows_units_leaders_sieges_and_the_move() {
    use strategos::his::adjust::{apply, parse_adjustment};
    let map = strategos::variant::his::embedded_map().unwrap();
    let mut board = strategos::his::Board::scenario_1517(&map);
    for line in [
        "place pressburg ottoman 7 regulars 1 cavalry",
        "leader suleiman pressburg",
        "place vienna hapsburg 3 regulars inside",
        "place graz hapsburg 2 regulars",
        "siege buda ottoman",
        "unrest trieste on",
    ] {
        let adjustment = parse_adjustment(&map, line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        apply(&map, &mut board, &adjustment).unwrap_or_else(|e| panic!("{line}: {e:?}"));
    }
    let moving = his::MoveShown {
        power: strategos::his::Power::Ottoman,
        from: map.find_space("pressburg").unwrap(),
        to: map.find_space("vienna").unwrap(),
        text: "Ottoman: 7 regulars 1 cavalry Suleiman from Pressburg to Vienna".into(),
    };
    let svg = his::draw_board(&map, &board, Some(&moving), Words::english()).unwrap();
    // A Russian reader's board names the spaces and powers in Russian.
    let templates = strategos::report::Templates::built_in();
    let russian = templates.words(strategos::lang::Lang::Ru);
    let ru = his::draw_board(&map, &board, Some(&moving), russian).unwrap();
    for name in [
        "Вена</text>",
        "Атлантический океан</text>",
        "Габсбурги</text>",
    ] {
        assert!(ru.contains(name) && !svg.contains(name), "{name}");
    }
    // Every land space drawn with its controller; the seas named.
    for space in &map.spaces {
        assert!(
            svg.contains(&format!("id=\"space-{}\"", space.id)),
            "{} not drawn",
            space.id
        );
    }
    assert!(svg.contains("class=\"passes\""));
    let detachments: Vec<&str> = svg.split("<g class=\"detachment\"").skip(1).collect();
    assert_eq!(detachments.len(), 3);
    let pressburg = detachments
        .iter()
        .find(|d| d.contains("data-space=\"pressburg\""))
        .unwrap();
    assert!(pressburg.contains("data-power=\"ottoman\""));
    assert!(pressburg.contains(">7+1c Suleiman</text>"), "{pressburg}");
    // Inside the fortifications: dashed.
    let vienna = detachments
        .iter()
        .find(|d| d.contains("data-space=\"vienna\""))
        .unwrap();
    assert!(vienna.contains("stroke-dasharray"), "{vienna}");
    assert!(svg.contains("class=\"siege\""));
    assert!(svg.contains("<g id=\"move\" class=\"order move\"><title>Ottoman: 7 regulars"));
    // A space in unrest is grey.
    let trieste = &svg[svg.find("id=\"space-trieste\"").unwrap()..];
    assert!(trieste[..trieste.find("</g>").unwrap()].contains("#777"));
}

/// The keeper's `[maps] results_pictures = false`: no results letter carries a picture, and
/// GET MAP still mails one.
#[test]
fn the_keeper_may_turn_results_pictures_off_for_every_game() {
    use crate::judge_harness::Harness;
    use crate::judge_harness::mail;
    use crate::judge_harness::test_config;
    let mut config = test_config();
    config.maps.results_pictures = false;
    let mut judge = Harness::with_config("no-pictures", config);
    judge.set_time("2027-01-05T12:00:00Z".parse().unwrap());
    let (gina, bob) = ("gina@example.test", "bob@example.test");
    judge.vouch(&[gina, bob]);
    let mut n = 0;
    let mut send = |judge: &mut Harness, from: &str, body: &str| {
        n += 1;
        judge.deliver(&mail(from, "maps", &format!("k{n}@x"), body));
        judge
            .take_sent_raw()
            .iter()
            .map(|r| read_raw(r))
            .collect::<Vec<Read>>()
    };
    send(&mut judge, gina, "CREATE ?plain gmpw standard MODERATED\n");
    send(&mut judge, bob, "SIGNON ?plain bobpw\n");
    send(&mut judge, gina, "SIGNON ?plain gmpw\nFORCE BEGIN\n");
    let results = send(&mut judge, gina, "SIGNON ?plain gmpw\nPROCESS\n");
    assert!(
        results
            .iter()
            .any(|(_, body, _)| body.contains("Movement results")),
        "{results:#?}"
    );
    assert!(results.iter().all(|(_, _, attached)| attached.is_empty()));
    let answer = send(&mut judge, bob, "GET MAP plain\n");
    assert_eq!(answer[0].2.len(), 1, "GET MAP still mails the picture");
}
