//! DIARY (njudge 1.5): a player's private, numbered notes in a game (RECORD, LIST, READ,
//! DELETE), kept secret while it runs and published to every member, and its archive, when it
//! ends; each entry signed with its power, never its player.

use crate::game::GameState;
use chrono::{DateTime, Utc};

use crate::judge::Judge;
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::report::When;
use crate::store::{GameRow, Tx, parse_time};
use crate::text::command::DiaryAction;
use crate::{msg, tr};

/// The first line of an entry, for DIARY LIST.
fn headline(body: &str) -> String {
    let first = body.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut shown: String = first.chars().take(50).collect();
    if first.chars().count() > 50 {
        shown.push_str("...");
    }
    shown
}

/// DIARY RECORD, LIST, READ n, DELETE n.
pub(crate) fn diary(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    action: &DiaryAction,
) -> rusqlite::Result<()> {
    let Some((row, power)) = cx.signed_on.clone() else {
        cx.fail(line, msg!("diary.needs_power"));
        return Ok(());
    };
    let Some(member) = tx
        .members(row.id)?
        .into_iter()
        .find(|m| m.power.as_deref() == Some(power.as_str()))
    else {
        cx.fail(line, msg!("wishes.no_seat", game = row.name));
        return Ok(());
    };
    let player = member.player_id;
    let when = |text: &str| When {
        at: parse_time(text),
        zone: row.time_zone.clone(),
    };
    match action {
        DiaryAction::Record { text } if text.trim().is_empty() => {
            cx.fail(line, msg!("diary.empty"));
        }
        DiaryAction::Record { text } => {
            if row.state == GameState::Finished {
                cx.fail(line, msg!("diary.game_over", game = row.name));
                return Ok(());
            }
            let number = tx.add_diary_entry(row.id, player, Some(&power), text, cx.now)?;
            cx.say(msg!("diary.recorded", number = number, game = row.name));
        }
        DiaryAction::List => {
            let entries = tx.diary(row.id, Some(player))?;
            if entries.is_empty() {
                cx.say(msg!("diary.none", game = row.name));
                return Ok(());
            }
            let words = cx.words();
            let mut lines = vec![tr!(words, "diary.list", game = row.name)];
            for entry in entries {
                lines.push(format!(
                    "  {:>3}  {}  {}",
                    entry.number,
                    words.when(&when(&entry.created_at)),
                    headline(&entry.body)
                ));
            }
            cx.say_text(lines.join("\n"));
        }
        DiaryAction::Read(number) => {
            let entry = tx
                .diary(row.id, Some(player))?
                .into_iter()
                .find(|e| e.number == *number);
            match entry {
                Some(entry) => {
                    let words = cx.words();
                    let heading = tr!(
                        words,
                        "diary.entry",
                        number = entry.number,
                        at = when(&entry.created_at)
                    );
                    cx.say_text(format!("{heading}\n{}", entry.body));
                }
                None => cx.fail(line, msg!("diary.no_entry", number = number)),
            }
        }
        DiaryAction::Delete(numbers) => {
            for number in numbers {
                if tx.delete_diary_entry(row.id, player, *number)? {
                    cx.say(msg!("diary.deleted", number = number));
                } else {
                    cx.fail(line, msg!("diary.no_entry", number = number));
                }
            }
        }
    }
    Ok(())
}

impl Judge {
    /// The game has ended: every diary of it goes to its members and its archive, each entry
    /// signed with its power. Nothing when no one kept a diary.
    pub(crate) fn publish_diaries(
        &self,
        tx: &Tx,
        game: &GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let entries = tx.diary(game.id, None)?;
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        let variant = self.variant(&game.variant);
        let written = |words: crate::report::Words| -> (String, String) {
            let mut body = vec![tr!(words, "diary.published", game = game.name)];
            for entry in &entries {
                let power = entry
                    .power
                    .as_deref()
                    .and_then(|p| {
                        let map = &variant?.map;
                        map.power_by_id(p).map(|id| map.power(id).name.clone())
                    })
                    .unwrap_or_default();
                let at = When {
                    at: parse_time(&entry.created_at),
                    zone: game.time_zone.clone(),
                };
                body.push(String::new());
                body.push(tr!(
                    words,
                    "diary.published_entry",
                    power = power,
                    number = entry.number,
                    at = at
                ));
                body.push(entry.body.clone());
            }
            let subject = tr!(
                words,
                "diary.published_subject",
                game = crate::judge::phases::subjects::prefix(&self.config.judge.code, game)
            );
            (subject, body.join("\n") + "\n")
        };
        let (subject, body) = written(self.game_words(game));
        tx.archive(game.id, game.phase_serial, &subject, &body, now)?;
        let mut letters = Vec::new();
        for member in tx.members(game.id)? {
            let language = self.language_of(tx, game, &member)?;
            let (subject, body) = written(self.templates.words(language));
            letters.push(OutgoingLetter::fresh(&member.email, subject, body).about(&game.name));
        }
        Ok(letters)
    }
}
