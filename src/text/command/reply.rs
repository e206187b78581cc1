//! The part of a letter its sender wrote: not the quoted lines of a reply, nor the original a
//! reply or forward reproduces below the sender's words, nor the signature.
//!
//! Only the sender's own words are read for commands, so a line the judge wrote (a `CONFIRM`
//! token above all) that comes back inside a reply is never taken as the sender's. The forms
//! recognised are those the common mail clients write (`tests/data/replies/` holds one
//! letter of each):
//!
//! - `>` quoting, with the attribution line above it (`On Mon, 5 Jan 2027, X wrote:`, in the
//!   languages below): lines passed over, the letter read on after them, so answers written
//!   between quoted lines still count.
//! - A separator above an unquoted original: `-----Original Message-----` (Outlook),
//!   `---------- Forwarded message ---------` (Gmail), `-------- Forwarded Message --------`
//!   and `-------- Original Message --------` (Thunderbird), `Begin forwarded message:` (Apple
//!   Mail), each in the clients' translations: the letter ends there.
//! - A block of the original's header fields, unquoted (`From:` / `Sent:` / `To:` /
//!   `Subject:`, as Outlook desktop and web write it, with or without a line of underscores
//!   above; Gmail's, Apple Mail's and Thunderbird's forwards; in the clients' translations:
//!   `De :` / `Envoyé :`, `Von:` / `Gesendet:`, `От:` / `Отправлено:`...): the letter ends
//!   at the block (and the separator lines just above it).
//! - An attribution line followed by an original that is not quoted: the letter ends there.
//! - The signature delimiter `-- ` (or `--`, as some mailers strip the space), which njudge
//!   takes as SIGNOFF (judge-conventions.md §1.1, NJ:mail.c): the letter ends there.
//!
//! HTML letters are made text with their `<blockquote>`s and the clients' quoted `<div>`s as
//! `>` lines first (`mail/read/html.rs`), so the same rules read them.

/// The sender's own part of a letter's lines: where it ends, and which lines before that
/// end are not the sender's (quoted, or the attribution of a quote).
pub(super) struct OwnPart {
    /// The index of the first line that is no longer the sender's (the lines' count when the
    /// whole letter is).
    pub end: usize,
    /// For each line before `end`, whether it is quoted or introduces a quoted block.
    pub skipped: Vec<bool>,
}

/// The sender's own part of `lines`.
pub(super) fn own_part(lines: &[&str]) -> OwnPart {
    let skipped = quoting(lines);
    let end = (0..lines.len())
        .find(|&index| !skipped[index] && ends_own_part(lines, index, &skipped))
        .map_or(lines.len(), |index| start_of_separators(lines, index));
    let mut skipped = skipped;
    skipped.truncate(end);
    OwnPart { end, skipped }
}

/// The sender's own words in `body`: its own part without the quoted lines, joined with `\n`.
pub fn own_text(body: &str) -> String {
    let lines: Vec<&str> = body.lines().collect();
    let own = own_part(&lines);
    lines[..own.end]
        .iter()
        .zip(&own.skipped)
        .filter(|(_, skipped)| !**skipped)
        .map(|(line, _)| *line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A quoted line of a reply: `>` after optional spaces.
pub(super) fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// Whether the sender's own part ends at `lines[index]` (a line not quoted): the signature,
/// a separator, the header block of a reproduced original, or an attribution with an
/// unquoted original after it.
fn ends_own_part(lines: &[&str], index: usize, skipped: &[bool]) -> bool {
    let line = lines[index];
    if line.trim_end() == "--" || is_separator(line) || header_block_at(lines, index) {
        return true;
    }
    // An attribution whose original follows unquoted (the quoted one is passed over).
    if is_attribution(line) && line.chars().any(|c| c.is_ascii_digit()) {
        let next = lines[index + 1..]
            .iter()
            .position(|l| !l.trim().is_empty())
            .map(|at| index + 1 + at);
        return next.is_some_and(|next| !skipped[next]);
    }
    false
}

/// The first line of the run of blank and separator lines that ends just before `index`, so
/// that Outlook's line of underscores above a header block goes with it.
fn start_of_separators(lines: &[&str], index: usize) -> usize {
    let mut start = index;
    while start > 0 {
        let above = lines[start - 1];
        if above.trim().is_empty() || is_rule(above) || is_separator(above) {
            start -= 1;
        } else {
            break;
        }
    }
    // Blank lines above the separators are the sender's (they change nothing).
    while start < index && lines[start].trim().is_empty() {
        start += 1;
    }
    start
}

/// A line of one repeated mark (`____`, `-----`, `=====`, `*****`), five or more.
fn is_rule(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() >= 5
        && line.chars().next().is_some_and(|first| {
            matches!(first, '_' | '-' | '=' | '*') && line.chars().all(|c| c == first)
        })
}

/// The words of the lines clients put above a reproduced original, lower-case.
const ORIGINAL_MARKERS: [&str; 31] = [
    "original message",
    "forwarded message",
    "begin forwarded message",
    "message d'origine",
    "message d’origine",
    "message transféré",
    "message réexpédié",
    "ursprüngliche nachricht",
    "weitergeleitete nachricht",
    "weitergeleiteten nachricht",
    "mensaje original",
    "mensaje reenviado",
    "messaggio originale",
    "messaggio inoltrato",
    "oorspronkelijk bericht",
    "doorgestuurd bericht",
    "mensagem original",
    "mensagem encaminhada",
    "исходное сообщение",
    "пересылаемое сообщение",
    "пересланное сообщение",
    "переадресованного сообщения",
    "переадресованное сообщение",
    "оригинальное сообщение",
    "oryginalna wiadomość",
    "przekazana wiadomość",
    "původní zpráva",
    "přeposlaná zpráva",
    "ursprungligt meddelande",
    "vidarebefordrat meddelande",
    "alkuperäinen viesti",
];

/// A line a client puts above a reproduced original: one of `ORIGINAL_MARKERS` between
/// marks (`-----Original Message-----`, `---------- Forwarded message ---------`), or
/// ending with a colon (`Begin forwarded message:`, `Начало переадресованного сообщения:`).
/// A sentence that merely mentions an original message is neither.
pub(super) fn is_separator(line: &str) -> bool {
    let trimmed = line.trim();
    if trimmed.chars().count() > 80 {
        return false;
    }
    let marked = trimmed.starts_with(['-', '_', '=', '*']) || trimmed.ends_with(':');
    if !marked {
        return false;
    }
    let lower = trimmed.to_lowercase();
    ORIGINAL_MARKERS.iter().any(|marker| lower.contains(marker))
}

/// A header field of a reproduced original, by what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    From,
    Date,
    To,
    Subject,
    Copy,
}

/// Header field names as the clients write them above a reproduced original, in their
/// translations, lower-case.
const FIELDS: [(Field, &[&str]); 5] = [
    (
        Field::From,
        &[
            "from",
            "de",
            "von",
            "van",
            "da",
            "od",
            "от",
            "från",
            "fra",
            "lähettäjä",
            "feladó",
            "kimden",
            "gönderen",
            "від",
            "από",
            "发件人",
            "寄件者",
            "差出人",
            "보낸 사람",
            "expéditeur",
            "remetente",
            "mittente",
            "afzender",
            "absender",
            "отправитель",
        ],
    ),
    (
        Field::Date,
        &[
            "sent",
            "date",
            "envoyé",
            "gesendet",
            "datum",
            "enviado",
            "enviada",
            "fecha",
            "data",
            "inviato",
            "verzonden",
            "отправлено",
            "дата",
            "wysłano",
            "odesláno",
            "skickat",
            "sendt",
            "lähetetty",
            "gönderildi",
            "tarih",
            "надіслано",
            "送信日時",
            "发送时间",
            "日期",
            "날짜",
            "보낸 날짜",
            "sent at",
        ],
    ),
    (
        Field::To,
        &[
            "to",
            "à",
            "a",
            "an",
            "para",
            "aan",
            "кому",
            "do",
            "komu",
            "till",
            "til",
            "vastaanottaja",
            "kime",
            "alıcı",
            "宛先",
            "收件人",
            "받는 사람",
            "destinataire",
            "destinatario",
            "empfänger",
            "получатель",
        ],
    ),
    (
        Field::Subject,
        &[
            "subject",
            "objet",
            "betreff",
            "asunto",
            "assunto",
            "oggetto",
            "onderwerp",
            "тема",
            "temat",
            "předmět",
            "ämne",
            "emne",
            "aihe",
            "konu",
            "件名",
            "主题",
            "主旨",
            "제목",
            "sujet",
        ],
    ),
    (
        Field::Copy,
        &[
            "cc",
            "bcc",
            "cci",
            "kopie",
            "копия",
            "copie",
            "kopia",
            "reply-to",
        ],
    ),
];

/// The field a line opens (`From: ...`, `*Sent:* ...`, `De :`), if it opens one.
fn field(line: &str) -> Option<Field> {
    let (name, _) = line.split_once([':', '：'])?;
    let name = name.trim().trim_matches('*').trim();
    if name.is_empty() || name.chars().count() > 20 {
        return None;
    }
    let name = name.to_lowercase();
    FIELDS
        .iter()
        .find(|(_, names)| names.contains(&name.as_str()))
        .map(|(field, _)| *field)
}

/// How many lines after a header field its block may still run (wrapped values, a field per
/// line).
const BLOCK_LINES: usize = 12;

/// Whether a block of a reproduced original's header fields starts at `lines[index]`: within
/// a few lines with no blank line between, a From field, a date, and a To or a Subject
/// (Outlook writes From, Sent, To, Cc, Subject; Gmail From, Date, Subject, To; Thunderbird
/// Subject, Date, From, To). A REGISTER form (`Name:`, `Password:`) is none.
fn header_block_at(lines: &[&str], index: usize) -> bool {
    if field(lines[index]).is_none() {
        return false;
    }
    let mut seen = Vec::new();
    for line in lines[index..].iter().take(BLOCK_LINES) {
        if line.trim().is_empty() {
            break;
        }
        if let Some(field) = field(line) {
            seen.push(field);
        }
    }
    let has = |f: Field| seen.contains(&f);
    has(Field::From) && has(Field::Date) && (has(Field::To) || has(Field::Subject))
}

/// The verbs of the line mailers put above a quoted block, which ends with `:`:
/// `On Mon, 5 Jan 2027, X wrote:`, `Am 5. Jan. 2027 schrieb X <x@example.org>:`.
const ATTRIBUTION_VERBS: [&str; 11] = [
    "wrote",
    "schrieb",
    "écrit",
    "написал",
    "пишет",
    "escribió",
    "scritto",
    "schreef",
    "escreveu",
    "napisał",
    "skrev",
];

/// For each line, whether it is quoted or introduces a quoted block: an attribution line
/// directly before the quote (blank lines between allowed), with its first half when the
/// mailer wrapped it (`On Mon, 5 Jan 2027 at 10:00, X` / `<x@example.org> wrote:`).
fn quoting(lines: &[&str]) -> Vec<bool> {
    let mut skip = vec![false; lines.len()];
    let mut quote_follows = false;
    for (index, line) in lines.iter().enumerate().rev() {
        if is_quoted(line) {
            skip[index] = true;
            quote_follows = true;
        } else if line.trim().is_empty() {
            continue;
        } else {
            skip[index] = quote_follows && is_attribution(line);
            quote_follows = false;
        }
    }
    for index in 1..lines.len() {
        let line = lines[index - 1].trim_start();
        let opening = line.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("on "));
        if skip[index] && !is_quoted(lines[index]) && opening && !line.ends_with(':') {
            skip[index - 1] = true;
        }
    }
    skip
}

fn is_attribution(line: &str) -> bool {
    let line = line.trim_end();
    if !line.ends_with(':') {
        return false;
    }
    let line = line.to_lowercase();
    ATTRIBUTION_VERBS.iter().any(|verb| line.contains(verb))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(text: &str) -> String {
        own_text(text)
    }

    #[test]
    fn quoted_lines_and_their_attribution_are_not_the_senders() {
        let text = "SIGNON Fgame pw\n\nOn Tue, 5 Jan 2027 at 12:00, Judge <j@x.test> wrote:\n> CONFIRM abc\n\nA Par H";
        assert_eq!(own(text), "SIGNON Fgame pw\n\n\nA Par H");
    }

    #[test]
    fn an_outlook_header_block_ends_the_senders_part_with_the_rule_above_it() {
        let text = "No! I never asked for this.\n\n________________________________\nFrom: Strategos <judge@example.test>\nSent: Tuesday, January 5, 2027 12:00 PM\nTo: bob@example.test\nSubject: Re: STRA\n\nCONFIRM abc";
        assert_eq!(own(text), "No! I never asked for this.\n");
    }

    #[test]
    fn translated_header_blocks_end_it_too() {
        for block in [
            "De : Strategos\nEnvoyé : mardi 5 janvier 2027 12:00\nÀ : bob\nObjet : Re: STRA",
            "Von: Strategos\nGesendet: Dienstag, 5. Januar 2027 12:00\nAn: bob\nBetreff: AW: STRA",
            "От: Strategos\nОтправлено: 5 января 2027 г. 12:00\nКому: bob\nТема: RE: STRA",
            "*From:* Strategos\n*Date:* Tue, Jan 5, 2027\n*Subject:* Re: STRA\n*To:* bob",
        ] {
            let text = format!("mine\n{block}\n\nCONFIRM abc");
            assert_eq!(own(&text), "mine", "{block}");
        }
    }

    #[test]
    fn separators_end_it() {
        for separator in [
            "-----Original Message-----",
            "---------- Forwarded message ---------",
            "-------- Forwarded Message --------",
            "Begin forwarded message:",
            "-----Ursprüngliche Nachricht-----",
            "Начало переадресованного сообщения:",
        ] {
            let text = format!("mine\n\n{separator}\nCONFIRM abc");
            assert_eq!(own(&text), "mine\n", "{separator}");
        }
    }

    #[test]
    fn an_attribution_over_an_unquoted_original_ends_it() {
        let text = "mine\nOn 1/5/27 12:00 PM, Strategos wrote:\n\nCONFIRM abc";
        assert_eq!(own(text), "mine");
    }

    #[test]
    fn a_register_form_and_words_about_messages_are_the_senders() {
        let text = "REGISTER\nName: Ann Smith\nPassword: pw\nEND\nI read the original message.\n--- Spring orders ---\nA Par H";
        assert_eq!(own(text), text);
    }

    #[test]
    fn the_signature_ends_it() {
        assert_eq!(own("A Par H\n-- \nAnn\nCONFIRM abc"), "A Par H");
        assert_eq!(own("A Par H\n--\nAnn"), "A Par H");
    }
}
