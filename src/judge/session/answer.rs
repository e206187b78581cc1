//! The answer a letter gets and the copies it causes: its paragraphs written for each
//! reader, the limits on what one letter may write and to whom, and the letter in a few words
//! for the log.

use super::{Section, Session};
use crate::game::GameKind;

use crate::judge::Handled;

use super::notices;
use crate::letter::{Address, IncomingLetter, OutgoingLetter};
use crate::report::Words;
use crate::store::Tx;
use crate::text::command::{Command, CommandKind, render};
use crate::{msg, tr};

/// Cuts `body` to at most `most` bytes at a line's end, saying how many lines were left out.
pub(crate) fn cut_to(words: Words, body: &mut String, most: usize) {
    if body.len() <= most {
        return;
    }
    // Room for the closing sentence.
    let keep = most.saturating_sub(200);
    let mut end = body[..keep.min(body.len())]
        .rfind('\n')
        .map_or(0, |at| at + 1);
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    let left_out = body[end..].lines().count();
    body.truncate(end);
    body.push_str(&tr!(
        words,
        "limits.lines_not_shown",
        count = left_out,
        most = most
    ));
    body.push('\n');
}

/// A command's keyword for the log (`SIGNON`, `SET WAIT`, `orders`): never its arguments,
/// which may hold a password or a word of press.
pub(crate) fn command_label(kind: &CommandKind) -> String {
    match kind {
        CommandKind::Orders { .. } => "orders".into(),
        CommandKind::Press { kind, .. } => match kind {
            crate::text::command::PressKind::Press => "PRESS".into(),
            crate::text::command::PressKind::Broadcast => "BROADCAST".into(),
            crate::text::command::PressKind::Postal => "POSTAL PRESS".into(),
        },
        CommandKind::Diary(_) => "DIARY".into(),
        CommandKind::Register { .. } => "REGISTER".into(),
        CommandKind::Set(setting) => {
            let text = crate::text::command::render_setting(setting);
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        }
        other => {
            let text = render(&Command {
                line: 0,
                kind: other.clone(),
            });
            let first = text.split_whitespace().next().unwrap_or("");
            match first {
                "SIGNON" | "GET" | "WHO" | "I" | "FORCE" | "BECOME" => text
                    .split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" "),
                _ => first.to_string(),
            }
        }
    }
}

impl Session<'_> {
    /// The answer to `letter`, then every other letter it caused.
    pub(crate) fn answer(
        mut self,
        tx: &Tx,
        letter: &IncomingLetter,
        commands: &[Command],
    ) -> rusqlite::Result<Handled> {
        let session = &mut self;
        let judge = session.judge;
        let limits = &judge.config.limits;
        // Every letter caused to others: the BECOME copies, the announcements, the rest.
        notices::send(session, tx)?;
        let mut others = session.copies();
        others.append(&mut session.caused);
        // At most so many letters to other people; the answer says what was not sent.
        let (mut to_others, mut not_sent) = (0, 0);
        let mut own = session.addresses.clone();
        own.extend([session.sender.clone(), session.answer_to.clone()]);
        others.retain(|l| {
            if l.to.iter().all(|a| own.contains(&a.email.to_lowercase())) {
                return true;
            }
            to_others += 1;
            let keep = to_others <= limits.letters_to_others_per_letter as usize;
            not_sent += usize::from(!keep);
            keep
        });
        if not_sent > 0 {
            session.say(msg!(
                "limits.letters_to_others",
                most = limits.letters_to_others_per_letter,
                count = not_sent
            ));
        }
        let code = &judge.config.judge.code;
        let game = session.signed_on.as_ref().map(|(g, _)| g);
        let game = game.or(session.master_of.as_ref());
        let prefix = session
            .reply_prefix
            .clone()
            .or_else(|| game.map(|g| crate::judge::phases::subjects::prefix(code, g)));
        let thread = session
            .reply_game
            .clone()
            .or_else(|| game.map(|g| g.name.clone()));
        let subject = crate::judge::phases::subjects::reply_subject(
            code,
            prefix.as_deref(),
            (session.errors > 0)
                .then(|| tr!(session.words(), "letter.error_flag"))
                .as_deref(),
            &letter.subject,
        );
        if session.errors > 0 {
            // The advice about orders only where orders (or lines that may have been meant as
            // orders) were in the letter.
            let orders_in_letter = session.orders_read;
            // In a Here I Stand game every line is done or refused on its own.
            let his = session
                .signed_on
                .as_ref()
                .map(|(g, _)| g)
                .or(session.master_of.as_ref())
                .is_some_and(|g| g.kind() == GameKind::HereIStand);
            session.say(if his {
                msg!("his.errors_found", count = session.errors)
            } else if orders_in_letter {
                msg!("letter.errors_found", count = session.errors)
            } else {
                msg!("letter.errors_found_no_orders", count = session.errors)
            });
        }
        let sections = session.written(session.master_of.as_ref().map(|g| g.id));
        let body = session.reply(&sections);
        let mut references = letter.references.clone();
        references.push(letter.message_id.clone());
        let mut letters = vec![OutgoingLetter {
            to: vec![Address::new(&session.answer_to)],
            subject,
            body,
            in_reply_to: Some(letter.message_id.clone()),
            references,
            attachments: std::mem::take(&mut session.attachments)
                .into_iter()
                .map(|(_, a)| a)
                .collect(),
            game: thread,
        }];
        letters.append(&mut others);
        // No letter the judge writes is larger than the limit; the rest is summed up.
        let words = session.words();
        for letter in &mut letters {
            cut_to(words, &mut letter.body, limits.answer_bytes);
        }
        // Whether anything was done: identical answers to letters that did nothing back off.
        let effective = session.errors == 0
            && commands
                .iter()
                .any(|c| !matches!(c.kind, CommandKind::Signoff));
        let summary = session.logged(commands);
        Ok(Handled {
            letters,
            effective,
            summary,
        })
    }

    /// The answer's paragraphs as a master of `master_of` reads them (members are named for
    /// the reader).
    pub(crate) fn written(&self, master_of: Option<i64>) -> Vec<String> {
        self.sections
            .iter()
            .map(|section| match section {
                Section::Message(message) => self.text(message, master_of),
                Section::Text(text) => text.clone(),
            })
            .collect()
    }

    /// A letter of the judge's from its paragraphs.
    pub(crate) fn reply(&self, sections: &[String]) -> String {
        let judge = self.judge;
        judge.templates.render_in(
            self.language,
            "reply.txt",
            serde_json::json!({
                "sections": sections, "judge_name": judge.config.judge.name, "judge_address": judge.config.judge.address,
            }),
        )
    }

    /// The copies for the players whose powers the master BECAME: what was done for that
    /// power, as a player reads it, and nothing else the letter did (NJ:data/master warns that
    /// njudge's copy shows all).
    pub(crate) fn copies(&mut self) -> Vec<OutgoingLetter> {
        let acted_for = std::mem::take(&mut self.acted_for);
        if acted_for.is_empty() {
            return Vec::new();
        }
        let for_players = self.written(None);
        let words = self.words();
        let mut copies = Vec::new();
        for acted in acted_for {
            let Some(player) = acted.player else {
                continue;
            };
            let mut done = vec![tr!(
                words,
                "master.became_copy",
                game = acted.game,
                power = acted.power
            )];
            done.extend(
                acted
                    .sections
                    .iter()
                    .flat_map(|range| for_players[range.clone()].iter().cloned()),
            );
            if done.len() == 1 {
                done.push(tr!(words, "master.became_nothing"));
            }
            let subject = tr!(
                words,
                "master.became_copy_subject",
                game = acted.prefix,
                power = acted.power
            );
            copies.push(
                OutgoingLetter::fresh(&player, subject, self.reply(&done)).about(&acted.game),
            );
        }
        copies
    }

    /// The letter in a few words, for the daemon's log.
    pub(crate) fn logged(&self, commands: &[Command]) -> crate::judge::LetterSummary {
        let mut games: Vec<String> = Vec::new();
        let signed = [
            self.signed_on.as_ref().map(|(g, _)| g),
            self.master_of.as_ref(),
            self.joined.as_ref(),
            self.watching.as_ref(),
        ];
        for game in signed.into_iter().flatten() {
            if !games.contains(&game.name) {
                games.push(game.name.clone());
            }
        }
        for name in &self.named_games {
            if !games.contains(name) {
                games.push(name.clone());
            }
        }
        crate::judge::LetterSummary {
            games,
            commands: commands.iter().map(|c| command_label(&c.kind)).collect(),
            errors: self.errors,
            held: false,
        }
    }
}
