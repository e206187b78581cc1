//! Press: PRESS TO <powers> ... ENDPRESS and BROADCAST ... ENDBROADCAST, by the game's
//! press settings (white, grey or none; partial press; observers). Partial press goes to its
//! recipients only (and the masters, when they watch all press); broadcasts are archived.

use super::credit::power_named;
use super::letter::Session;
use super::settings::{GameSettings, PressKind};
use crate::diplomacy::power::PowerId;
use crate::letter::{Address, OutgoingLetter};
use crate::store::Tx;
use crate::text::command::PressKind as Written;

impl Session<'_> {
    /// Sends a press message from the power (or observer, or master) signed on.
    pub(super) fn press(
        &mut self,
        tx: &Tx,
        line: usize,
        written: Written,
        options: &str,
        text: &str,
    ) -> rusqlite::Result<()> {
        let (game, from, role) = match (&self.signed_on, &self.master_of, &self.watching) {
            (Some((game, power)), _, _) => (game.clone(), Some(power.clone()), "player"),
            (None, Some(game), _) => (game.clone(), None, "master"),
            (None, None, Some(game)) => (game.clone(), None, "observer"),
            _ => {
                self.error(format!(
                    "line {line}: press needs a SIGNON to a game first; the message was not sent"
                ));
                return Ok(());
            }
        };
        let game = tx.game(game.id)?;
        let Some(variant) = self.judge.variant(&game.variant) else {
            return Ok(());
        };
        let map = &variant.map;
        let settings = GameSettings::from_json(&game.settings);
        let allowed = match role {
            "master" => PressKind::White,
            "observer" => settings.observer_press,
            _ => settings.press,
        };
        if allowed == PressKind::None {
            self.error(format!(
                "line {line}: game '{}' allows no press from you; the message was not sent",
                game.name
            ));
            return Ok(());
        }
        let words = options.trim();
        let anonymous = allowed == PressKind::Grey
            || words
                .to_lowercase()
                .split_whitespace()
                .any(|w| w == "grey" || w == "gray");
        let broadcast = written != Written::Press || !words.to_lowercase().starts_with("to");
        let members = tx.members(game.id)?;
        let recipients: Vec<String> = if broadcast {
            members
                .iter()
                .map(|m| m.email.clone())
                .filter(|e| *e != self.sender)
                .collect()
        } else {
            let Some(powers) = self.press_powers(line, map, &words[2..]) else {
                return Ok(());
            };
            let all = map.powers.len() - usize::from(from.is_some());
            if !settings.partial_press && powers.len() < all {
                self.error(format!(
                    "line {line}: game '{}' allows no partial press; the message was not sent",
                    game.name
                ));
                return Ok(());
            }
            let ids: Vec<&str> = powers.iter().map(|p| map.power(*p).id.as_str()).collect();
            let mut to: Vec<String> = members
                .iter()
                .filter(|m| {
                    m.role == "player" && m.power.as_deref().is_some_and(|p| ids.contains(&p))
                })
                .map(|m| m.email.clone())
                .collect();
            if settings.master_sees_press {
                to.extend(
                    members
                        .iter()
                        .filter(|m| m.role == "master")
                        .map(|m| m.email.clone()),
                );
            }
            to
        };
        let signature = match (&from, anonymous) {
            (_, true) => "someone".to_string(),
            (Some(power), false) => map
                .power_by_id(power)
                .map_or(power.clone(), |p| map.power(p).name.clone()),
            (None, false) => format!("the {role}"),
        };
        let what = if broadcast { "broadcast" } else { "press" };
        let subject = format!("Game '{}': {what} from {signature}", game.name);
        let body = format!(
            "{} from {signature} in game '{}':\n\n{}\n",
            capitalise(what),
            game.name,
            text.trim_end()
        );
        for to in &recipients {
            self.caused.push(OutgoingLetter {
                to: vec![Address::new(to)],
                subject: subject.clone(),
                body: body.clone(),
                in_reply_to: None,
                references: Vec::new(),
            });
        }
        if broadcast {
            tx.archive(game.id, game.phase_serial, &subject, &body, self.now)?;
        }
        self.say(format!(
            "Your {what} went to {} member{} of game '{}'.",
            recipients.len(),
            if recipients.len() == 1 { "" } else { "s" },
            game.name
        ));
        Ok(())
    }

    /// The powers a `PRESS TO` names: names, ids, or a run of letters (`FRG`).
    fn press_powers(
        &mut self,
        line: usize,
        map: &crate::diplomacy::map::Map,
        words: &str,
    ) -> Option<Vec<PowerId>> {
        let mut out = Vec::new();
        for word in words
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
        {
            if let Some(p) = power_named(map, word) {
                out.push(p);
                continue;
            }
            let letters: Option<Vec<PowerId>> = word
                .chars()
                .map(|c| power_named(map, &c.to_string()))
                .collect();
            match letters {
                Some(ps) => out.extend(ps),
                None => {
                    self.error(format!(
                        "line {line}: '{word}' names no power; the message was not sent"
                    ));
                    return None;
                }
            }
        }
        if out.is_empty() {
            self.error(format!(
                "line {line}: PRESS TO needs the powers to write to; the message was not sent"
            ));
            return None;
        }
        out.sort();
        out.dedup();
        Some(out)
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}
