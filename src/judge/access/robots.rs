//! Robots the headers do not give away: a vacation responder that adds no automatic-mail
//! header and answers the judge's answer with `Out of office: Re: STRA ...`, its subject
//! growing by a prefix each round. A letter with no command (only text that is no command
//! nor order the judge could use) whose subject answers the judge's own letter through an
//! automatic reply's words, or through a chain of three replies or more, is taken as
//! automatic mail: stored with its reason, never answered. A person's reply to the judge
//! (`Re: STRA:alps - S1901M`) is read as ever, and so is any letter with a command in it.

use crate::judge::Judge;
use crate::letter::IncomingLetter;
use crate::text::command::{CommandKind, parse_commands};

/// Words automatic replies put before the subject they answer, lower-case, in the languages
/// of the common responders (Outlook, Gmail, Exchange, Zimbra, Yandex, Mail.ru...).
const AUTOMATIC_WORDS: [&str; 17] = [
    "out of office",
    "out of the office",
    "automatic reply",
    "auto reply",
    "auto-reply",
    "autoreply",
    "auto:",
    "away:",
    "vacation",
    "abwesend",
    "abwesenheitsnotiz",
    "automatische antwort",
    "réponse automatique",
    "respuesta automática",
    "risposta automatica",
    "автоответ",
    "автоматический ответ",
];

/// The prefixes of replies and forwards, lower-case.
const REPLY_PREFIXES: [&str; 9] = [
    "re:",
    "aw:",
    "sv:",
    "vs:",
    "antw:",
    "ответ:",
    "fwd:",
    "fw:",
    "wg:",
];

impl Judge {
    /// Why `letter` is a robot's answer to the judge's own letter, if it is one (see the
    /// module).
    pub fn answers_the_judge_automatically(&self, letter: &IncomingLetter) -> Option<String> {
        let code = &self.config.judge.code;
        let subject = letter.subject.to_lowercase();
        let at = judges_subject_at(&subject, &code.to_lowercase())?;
        let before = &subject[..at];
        let automatic = AUTOMATIC_WORDS.iter().any(|w| before.contains(w));
        let replies = before
            .split_whitespace()
            .filter(|w| REPLY_PREFIXES.contains(w))
            .count();
        if !automatic && replies < 3 {
            return None;
        }
        let (commands, _) = parse_commands(&letter.body);
        let commanded = commands
            .iter()
            .any(|c| !matches!(c.kind, CommandKind::Orders { .. }));
        (!commanded).then(|| {
            "an automatic reply to the judge's own letter (its subject answers the judge's, \
             and it holds no command)"
                .to_string()
        })
    }
}

/// Where the judge's own subject begins in `subject` (lower-case): its code as a word, or
/// followed by `:` (`stra:alps - s1901m`), after something (a reply always has a prefix).
fn judges_subject_at(subject: &str, code: &str) -> Option<usize> {
    subject.match_indices(code).map(|(at, _)| at).find(|&at| {
        let before_ok = at > 0 && subject[..at].ends_with([' ', ':', '[', '(']);
        let after = &subject[at + code.len()..];
        let after_ok = after.is_empty() || after.starts_with([' ', ':']);
        before_ok && after_ok
    })
}

#[cfg(test)]
mod tests {
    use super::judges_subject_at;

    #[test]
    fn the_judges_subject_is_found_after_a_prefix() {
        assert_eq!(
            judges_subject_at("out of office: re: stra attack", "stra"),
            Some(19)
        );
        assert_eq!(judges_subject_at("re: stra:alps - s1901m", "stra"), Some(4));
        assert_eq!(judges_subject_at("stra attack", "stra"), None);
        assert_eq!(judges_subject_at("re: strategy", "stra"), None);
    }
}
