//! Composing letters: read back with their Cyrillic intact, exactly the expected headers
//! whatever is injected into subjects, names and ids, CRLF line ends, and marked automatic so
//! two judges never answer each other.

use chrono::{TimeZone, Utc};
use strategos::letter::{Address, OutgoingLetter};
use strategos::mail::compose::{WIDTH, compose, reply_subject, wrap_long_lines};
use strategos::mail::read::read_letter;

use super::{OWN, own};

fn letter() -> OutgoingLetter {
    OutgoingLetter {
        to: vec![
            Address { email: "player1@example.test".into(), name: Some("Игрок Один".into()) },
            Address::new("player2@example.test"),
        ],
        subject: "Re: Приказы на весну 1901 — Россия".into(),
        body: "Приказы приняты:\nАрмия Москва — Украина\nФлот Севастополь — Чёрное море\n\n-- \nСудья\n"
            .into(),
        in_reply_to: Some("orders-1901@mail.example.test".into()),
        references: vec!["start-1@judge.example.test".into(), "orders-1901@mail.example.test".into()],
        attachments: Vec::new(),
        game: None,
    }
}

fn judge() -> Address {
    Address {
        email: OWN.into(),
        name: Some("Судья Strategos".into()),
    }
}

fn composed(letter: &OutgoingLetter, from: &Address) -> Vec<u8> {
    let date = Utc
        .with_ymd_and_hms(2025, 3, 1, 12, 0, 0)
        .single()
        .expect("a valid date");
    compose(letter, from, "answer-1@judge.example.test", date)
}

/// The header block: (name, unfolded value) in order.
fn header_fields(raw: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8(raw.to_vec()).expect("composed mail is ASCII");
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    let mut fields: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            let last = fields.last_mut().expect("a continuation follows a field");
            last.1.push_str(line);
        } else {
            let (name, value) = line.split_once(':').expect("a header line has a colon");
            fields.push((name.to_string(), value.trim().to_string()));
        }
    }
    fields
}

const HEADERS: [&str; 12] = [
    "Auto-Submitted",
    "Content-Transfer-Encoding",
    "Content-Type",
    "Date",
    "From",
    "In-Reply-To",
    "MIME-Version",
    "Message-ID",
    "References",
    "Subject",
    "To",
    "X-Strategos-Judge",
];

fn header_names(raw: &[u8]) -> Vec<String> {
    let mut names: Vec<String> = header_fields(raw).into_iter().map(|(n, _)| n).collect();
    names.sort();
    names
}

#[test]
fn composed_letters_read_back() {
    let raw = composed(&letter(), &judge());
    assert!(raw.is_ascii(), "non-ASCII must be encoded");
    let read = read_letter(&raw, &[]).expect("our own letter is readable");
    assert_eq!(read.subject, letter().subject);
    assert_eq!(read.body.trim_end(), letter().body.trim_end());
    assert_eq!(read.from, Some(judge()));
    assert_eq!(read.to, letter().to);
    assert_eq!(read.message_id, "answer-1@judge.example.test");
    assert_eq!(
        read.references,
        [
            "orders-1901@mail.example.test",
            "start-1@judge.example.test"
        ]
        .map(String::from)
    );
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
}

#[test]
fn composed_letters_have_exactly_the_expected_headers() {
    let raw = composed(&letter(), &judge());
    assert_eq!(header_names(&raw), HEADERS.map(String::from));
    let fields = header_fields(&raw);
    let value = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(value("Auto-Submitted"), Some("auto-replied"));
    assert_eq!(value("X-Strategos-Judge"), Some("yes"));
    assert_eq!(value("MIME-Version"), Some("1.0"));
    assert_eq!(value("Message-ID"), Some("<answer-1@judge.example.test>"));
    assert!(
        value("Content-Type").is_some_and(|v| v.to_ascii_lowercase().contains("charset=utf-8"))
    );
    assert!(
        value("Content-Transfer-Encoding")
            .is_some_and(|v| v == "quoted-printable" || v == "base64")
    );
}

#[test]
fn composed_lines_end_in_crlf_and_are_short() {
    let cyrillic = format!("{}\nlast\n", "Очень длинная строка ".repeat(100));
    let ascii_long = format!("A Par - Bur\n{}\nlast\n", "x".repeat(2500));
    let ascii = "A Par - Bur\n.\nFrom the judge\n\r\nF Bre - Mao\n".to_string();
    for body in [cyrillic, ascii_long, ascii] {
        let mut long = letter();
        long.subject = "Приказы ".repeat(24);
        long.body = body;
        let raw = composed(&long, &judge());
        for (at, &b) in raw.iter().enumerate() {
            if b == b'\n' {
                assert!(at > 0 && raw[at - 1] == b'\r', "a bare LF at byte {at}");
            }
        }
        let text = String::from_utf8_lossy(&raw);
        assert!(text.split("\r\n").all(|line| line.len() <= 998));
        let read = read_letter(&raw, &[]).expect("readable");
        assert_eq!(read.subject, long.subject.trim());
        // Long lines come wrapped at spaces (a word longer than a line stays whole).
        let wrapped = wrap_long_lines(&long.body, WIDTH).replace("\r\n", "\n");
        assert_eq!(read.body.trim_end(), wrapped.trim_end());
        assert!(
            read.body
                .lines()
                .all(|l| l.chars().count() <= WIDTH || !l.contains(' '))
        );
    }
}

#[test]
fn injection_attempts_add_no_header() {
    let mut evil = letter();
    evil.subject = "Orders\r\nBcc: victim@example.test\nX-Evil: 1".into();
    evil.to[0].name = Some("Evil\r\nBcc: victim@example.test".into());
    evil.in_reply_to = Some("abc>\r\nBcc: victim@example.test".into());
    evil.references = vec!["x\r\nX-Evil: 2".into()];
    let from = Address {
        email: OWN.into(),
        name: Some("Judge\nX-Evil: 3".into()),
    };
    let raw = composed(&evil, &from);
    assert_eq!(header_names(&raw), HEADERS.map(String::from));
    let read = read_letter(&raw, &[]).expect("readable");
    assert_eq!(read.subject, "Orders  Bcc: victim@example.test X-Evil: 1");
    assert_eq!(read.to.len(), 2);
}

#[test]
fn our_own_letters_are_automatic_so_judges_never_loop() {
    let raw = composed(&letter(), &judge());
    let by_other_judge = read_letter(&raw, &["judge@other.test".to_string()]).expect("readable");
    assert!(
        by_other_judge
            .automatic
            .is_some_and(|r| r.contains("X-Strategos-Judge"))
    );
    let by_us = read_letter(&raw, &own()).expect("readable");
    assert!(by_us.automatic.is_some());
}

#[test]
fn unusable_recipients_are_left_out() {
    let mut odd = letter();
    odd.to.push(Address::new("not an address"));
    let read = read_letter(&composed(&odd, &judge()), &[]).expect("readable");
    assert_eq!(read.to, letter().to);
    odd.to = vec![Address::new("still not")];
    let raw = composed(&odd, &judge());
    assert!(!raw.is_empty());
    assert!(read_letter(&raw, &[]).is_ok_and(|r| r.to.is_empty()));
}

#[test]
fn reply_subjects() {
    for (subject, reply) in [
        ("Orders", "Re: Orders"),
        ("  Orders  ", "Re: Orders"),
        ("Re: Orders", "Re: Orders"),
        ("RE:Orders", "RE:Orders"),
        ("re: приказы", "re: приказы"),
        ("Приказы", "Re: Приказы"),
        ("", "Re: your letter"),
        ("   ", "Re: your letter"),
        ("Return of the king", "Re: Return of the king"),
        ("a\r\nBcc: x", "Re: a  Bcc: x"),
    ] {
        assert_eq!(reply_subject(subject), reply, "{subject:?}");
    }
}

/// The header block and the body of a composed letter.
fn head_and_body(raw: &[u8]) -> (String, Vec<u8>) {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a blank line ends the header");
    (
        String::from_utf8(raw[..split].to_vec()).expect("ASCII header"),
        raw[split + 4..].to_vec(),
    )
}

/// Bodies are written as lettre's builder writes them when given the text with LF line ends
/// (the same transfer encoding, the same bytes), though `compose` writes the CRLFs itself.
#[test]
fn bodies_are_the_bytes_lettre_writes() {
    use lettre::message::SinglePart;
    use lettre::message::header::ContentType;
    let bodies = [
        String::new(),
        "HELP\n".to_string(),
        "\nstarts with a line end".to_string(),
        "no line end at the end".to_string(),
        "already\r\nCRLF\r\nand LF\nmixed\n".to_string(),
        "a lone CR\rin a line\n\r\n\n".to_string(),
        format!("{}\n{}\n", "a".repeat(74), "b".repeat(74)),
        format!("{}\n{}\n", "a".repeat(75), "b".repeat(75)),
        format!("{}\n{}\n", "a".repeat(76), "b".repeat(76)),
        format!("first\n{}\nlast\n", "x".repeat(2500)),
        "Приказы приняты:\nАрмия Москва — Украина\n".to_string(),
        "Ё".repeat(300),
        "mostly ASCII, one word: ещё\n".repeat(40),
        "trailing spaces   \nand tabs\t\t\n= signs = \n".to_string(),
        "A Par - Bur\n.\nFrom the judge\n".repeat(200),
    ];
    for text in bodies {
        let mut plain = letter();
        plain.body = text.clone();
        let (head, body) = head_and_body(&composed(&plain, &judge()));
        // Plain ASCII with no line over 998 octets goes as it stands, 7bit, where lettre
        // would pick quoted-printable for lines of 76 or more.
        if text.is_ascii() && text.lines().all(|l| l.len() <= 998) {
            assert!(head.contains("Content-Transfer-Encoding: 7bit"), "{text:?}");
            let crlf = strategos::mail::compose::crlf_line_ends(&wrap_long_lines(&text, WIDTH));
            // The body as written, with CRLF line ends, and the CRLF lettre ends every
            // part with.
            assert_eq!(
                body,
                format!("{crlf}\r\n").into_bytes(),
                "the body of {text:?}"
            );
            continue;
        }
        let part = SinglePart::builder()
            .header(ContentType::TEXT_PLAIN)
            .body(wrap_long_lines(&text, WIDTH).into_owned())
            .formatted();
        let (part_head, part_body) = head_and_body(&part);
        assert_eq!(body, part_body, "the body of {text:?}");
        let encoding = |h: &str| {
            h.lines()
                .find(|l| l.starts_with("Content-Transfer-Encoding:"))
                .map(str::to_string)
        };
        assert_eq!(encoding(&head), encoding(&part_head), "{text:?}");
        assert!(encoding(&head).is_some());
    }
}

/// A large answer (a million bytes in 150,000 short lines, and one line of 200,000 bytes) is
/// composed whole: CRLF line ends only, no line over 998 octets, read back as written.
#[test]
fn large_answers_and_long_lines_are_composed_whole() {
    let many_lines = "GET his: Here I Stand\n".repeat(150_000);
    let long_line = format!("start {} end\nnext\n", "x".repeat(200_000));
    let long_cyrillic = format!("{}\n", "щ".repeat(100_000));
    for text in [many_lines, long_line, long_cyrillic] {
        let mut big = letter();
        big.body = text.clone();
        let raw = composed(&big, &judge());
        let mut bare_lf = 0;
        let mut longest = 0;
        let mut line = 0;
        for (at, &b) in raw.iter().enumerate() {
            if b == b'\n' {
                if at == 0 || raw[at - 1] != b'\r' {
                    bare_lf += 1;
                }
                longest = longest.max(line);
                line = 0;
            } else {
                line += 1;
            }
        }
        assert_eq!(bare_lf, 0, "no bare LF");
        assert!(longest.max(line) <= 999, "a line of {longest} octets");
        let read = read_letter(&raw, &[]).expect("readable");
        assert_eq!(
            read.body.trim_end(),
            wrap_long_lines(&text, WIDTH).trim_end()
        );
    }
}

#[test]
fn a_letter_with_a_picture_is_multipart_with_its_text_part_unchanged() {
    let plain_letter = OutgoingLetter {
        body: "Results for Spring 1901.\nArmy Paris -> Burgundy.\n".into(),
        ..letter()
    };
    let picture = b"\x89PNG\r\n\x1a\nnot really a picture \x00\xff".to_vec();
    let with_picture = OutgoingLetter {
        attachments: vec![strategos::letter::Attachment {
            name: "map.png".into(),
            media_type: "image/png".into(),
            bytes: picture.clone(),
        }],
        ..plain_letter.clone()
    };
    let plain = String::from_utf8(composed(&plain_letter, &judge())).unwrap();
    let mixed = String::from_utf8(composed(&with_picture, &judge())).unwrap();
    assert!(!plain.contains("multipart"));
    assert!(mixed.contains("Content-Type: multipart/mixed"), "{mixed}");
    // The text part is written exactly as the letter without a picture writes its body.
    let plain_body = plain.split_once("\r\n\r\n").unwrap().1;
    assert!(mixed.contains(plain_body.trim_end()), "{mixed}");
    assert!(mixed.contains("Content-Transfer-Encoding: 7bit"));
    assert!(
        mixed.contains("Content-Disposition: attachment; filename=\"map.png\""),
        "{mixed}"
    );
    assert!(mixed.contains("Content-Type: image/png"));
    assert!(mixed.contains("Content-Transfer-Encoding: base64"));
    // Read back: the same text, and the picture byte for byte.
    let read = read_letter(mixed.as_bytes(), &own()).unwrap();
    assert_eq!(
        read.body.trim_end(),
        read_letter(plain.as_bytes(), &own())
            .unwrap()
            .body
            .trim_end()
    );
    let message = mail_parser::MessageParser::default()
        .parse(mixed.as_bytes())
        .unwrap();
    let attachment = message.attachments().next().expect("one attachment");
    assert_eq!(attachment.contents(), &picture[..]);
    let long: Vec<&str> = mixed.split("\r\n").filter(|l| l.len() > 78).collect();
    assert!(
        long.iter().all(|l| l.len() <= 998 && l.contains(':')),
        "{long:?}"
    );
}

/// The header block's physical lines (folded lines apart).
fn header_lines(raw: &[u8]) -> Vec<String> {
    let (head, _) = head_and_body(raw);
    head.split("\r\n").map(str::to_string).collect()
}

#[test]
fn every_header_line_of_an_answer_is_deliverable_whatever_the_letter_it_answers() {
    let long_id = format!("{}@flood.example.test", "x".repeat(5_000));
    let many: Vec<String> = (0..3_000)
        .map(|i| format!("ref{i}.{}@thread.example.test", "r".repeat(20)))
        .collect();
    let cases = [
        OutgoingLetter {
            in_reply_to: Some(long_id.clone()),
            references: [many.clone(), vec![long_id.clone()]].concat(),
            ..letter()
        },
        OutgoingLetter {
            subject: format!("Re: {}", "y".repeat(3_000)),
            ..letter()
        },
        OutgoingLetter {
            subject: format!("Re: {}", "word ".repeat(600)),
            ..letter()
        },
        OutgoingLetter {
            subject: format!("Re: {}", "Приказ ".repeat(600)),
            ..letter()
        },
        OutgoingLetter {
            to: vec![Address {
                email: "player1@example.test".into(),
                name: Some("N".repeat(2_000)),
            }],
            ..letter()
        },
    ];
    for (i, case) in cases.iter().enumerate() {
        let raw = composed(case, &judge());
        let lines = header_lines(&raw);
        let head_bytes: usize = lines.iter().map(|l| l.len() + 2).sum();
        assert!(
            head_bytes < 8_000,
            "case {i}: a header of {head_bytes} octets"
        );
        for line in &lines {
            assert!(
                line.len() <= 998,
                "case {i}: a line of {} octets",
                line.len()
            );
        }
        // Folded where it may be: 78 octets at most, but for one word that cannot be broken.
        for line in &lines {
            if line.len() > 78 {
                let words = line.split_whitespace().count();
                assert!(
                    words <= 2,
                    "case {i}: {} octets unfolded: {line:.120}",
                    line.len()
                );
            }
        }
        let back = read_letter(&raw, &own()).expect("it reads back");
        // The thread: its root and the last few, the last the letter answered.
        if i == 0 {
            assert!(back.references.len() <= 10, "{:?}", back.references.len());
            assert_eq!(back.references.first(), Some(&many[0]));
            assert_eq!(back.references.last(), Some(&many[2_999]));
            assert!(back.references.iter().all(|r| r.len() < 300));
        }
    }
}
