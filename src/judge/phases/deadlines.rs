//! What time does to a game: a reminder before the deadline; at the deadline the phase is
//! processed, or, when orders are missing and the game gives grace, late notices go out and
//! the phase waits; past the grace a silent power falls into civil disorder or, by the
//! game's policy, is offered for takeover while the game waits.

use chrono::{DateTime, Duration, Utc};

use crate::diplomacy::power::PowerId;
use crate::game::orders::{Owing, owing_powers, owing_why};
use crate::game::phases::phase_name_in;
use crate::judge::Judge;
use crate::letter::OutgoingLetter;
use crate::report::Words;
use crate::store::{GameRow, Tx};
use crate::tr;

impl Judge {
    /// The powers of `game` whose orders are missing, incomplete or in error.
    pub(crate) fn missing_powers(&self, tx: &Tx, game: &GameRow) -> rusqlite::Result<Vec<PowerId>> {
        let Some((variant, position)) = self.game_position(game) else {
            return Ok(Vec::new());
        };
        owing_powers(tx, game, variant, &position)
    }

    /// One game's turn with the clock.
    pub(crate) fn at_deadline(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        let mut settings = game.settings.clone();
        let Some(deadline) = game.deadline_at else {
            return Ok(Vec::new());
        };
        if settings.paused {
            return Ok(Vec::new());
        }
        // Every order came in a while ago: processed now, after its short delay.
        if deadline > now && game.process_at.is_some_and(|at| at <= now) {
            return self.early_due(tx, game, now);
        }
        if deadline > now {
            return if game.reminded {
                Ok(Vec::new())
            } else {
                self.remind(tx, game, now)
            };
        }
        let Some((variant, position)) = self.game_position(game) else {
            return Ok(Vec::new());
        };
        // A letter held for a locked power's seat waits for its player's confirmation; the
        // phase is not processed meanwhile, once a phase and for a bounded time
        // (`held.rs`), while late powers are told as ever.
        let held = self.waits_for_held(tx, game, &mut settings, now)?;
        let owing = owing_why(tx, game, variant, &position)?;
        let missing: Vec<PowerId> = owing.iter().map(|(p, _)| *p).collect();
        let grace_end = settings.grace_end(game.phase_serial, position.turn.kind, deadline);
        let grace_over = now >= grace_end;
        // With SET MANUAL PROCESS only the master's PROCESS processes a phase; late powers
        // are still told.
        let manual = settings.manual_process || held;
        if !manual && (missing.is_empty() || (grace_over && settings.civil_disorder)) {
            return self.process_phase(tx, game, now);
        }
        if missing.is_empty() {
            game.settings = settings;
            tx.save_game(game)?;
            return Ok(Vec::new());
        }
        let map = &variant.map;
        let members = tx.members(game.id)?;
        let mut letters = Vec::new();
        if !grace_over || manual {
            // Late notices: when the deadline passes, then every day of the grace.
            let first = settings.late_noticed != Some(game.phase_serial);
            if !first
                && settings
                    .late_noticed_at
                    .is_some_and(|at| now < at + Duration::hours(24))
            {
                return Ok(Vec::new());
            }
            settings.late_noticed = Some(game.phase_serial);
            settings.late_noticed_at = Some(now);
            if first && settings.late_count {
                for power in &missing {
                    *settings
                        .late_counts
                        .entry(map.power(*power).id.clone())
                        .or_default() += 1;
                }
            }
            let hours = (grace_end - deadline).num_hours();
            // njudge's late notice, to everyone in the game (and the archive): who is
            // waited for (with how often, under SET LATE COUNT), and what becomes of them
            // when the grace ends; the late player's copy says so in its subject and adds
            // our own words.
            let letters_of: String = missing.iter().map(|p| map.power(*p).letter).collect();
            let prefix = crate::judge::phases::subjects::prefix(&self.config.judge.code, game);
            let header = crate::judge::phases::subjects::header_lines(
                &self.config.judge.code,
                game,
                variant,
                position.turn,
                game.deadline_at,
            );
            let notice = |words: Words| -> String {
                let mut lines = vec![header[0].clone(), header[1].clone(), String::new()];
                for power in &missing {
                    lines.push(tr!(
                        words,
                        "deadlines.waiting",
                        game = game.name,
                        power = map.power(*power).name_in(words.language())
                    ));
                }
                // Why each is late, in a word every player may read (never which units).
                for (power, why) in &owing {
                    let why = match why {
                        Owing::Nothing => tr!(words, "deadlines.why_nothing"),
                        Owing::Incomplete => tr!(words, "deadlines.why_incomplete"),
                        Owing::Refused => tr!(words, "deadlines.why_refused"),
                    };
                    let power = &map.power(*power).name_in(words.language());
                    lines.push(tr!(words, "deadlines.why", power = power, why = why));
                }
                // Under SET LATE COUNT, how often each has been late.
                for power in &missing {
                    let power = map.power(*power);
                    if let Some(count) = settings
                        .late_counts
                        .get(&power.id)
                        .filter(|_| settings.late_count)
                    {
                        lines.push(tr!(
                            words,
                            "deadlines.late_count",
                            power = power.name_in(words.language()),
                            count = count
                        ));
                    }
                }
                lines.push(String::new());
                let until = words.when(&crate::report::When {
                    at: Some(grace_end),
                    zone: game.time_zone.clone(),
                });
                lines.push(if settings.civil_disorder {
                    tr!(
                        words,
                        "deadlines.disorder",
                        count = missing.len(),
                        until = until
                    )
                } else {
                    tr!(
                        words,
                        "deadlines.abandoned",
                        count = missing.len(),
                        until = until
                    )
                });
                lines.join("\n") + "\n"
            };
            let words = self.game_words(game);
            let subject = tr!(
                words,
                "deadlines.notice_subject",
                game = prefix,
                letters = letters_of
            );
            tx.archive(game.id, game.phase_serial, &subject, &notice(words), now)?;
            for m in &members {
                let language = self.language_of(tx, game, m)?;
                let words = self.templates.words(language);
                let late = Judge::power_of(map, &m.power).is_some_and(|p| missing.contains(&p))
                    && m.role == "player";
                let mut body = notice(words);
                let subject = if late {
                    body.push('\n');
                    body.push_str(&tr!(
                        words,
                        "deadlines.late",
                        game = game.name,
                        phase = phase_name_in(words, variant, &position),
                        hours = hours
                    ));
                    body.push('\n');
                    tr!(
                        words,
                        "deadlines.late_subject",
                        game = prefix,
                        letters = letters_of
                    )
                } else {
                    tr!(
                        words,
                        "deadlines.notice_subject",
                        game = prefix,
                        letters = letters_of
                    )
                };
                letters.push(OutgoingLetter::fresh(&m.email, subject, body).about(&game.name));
            }
        } else {
            // Past the grace in a game that waits: silent powers are offered for takeover once.
            if settings.offered == Some(game.phase_serial) {
                return Ok(Vec::new());
            }
            settings.offered = Some(game.phase_serial);
            for power in &missing {
                if let Some(m) = members
                    .iter()
                    .find(|m| m.power.as_deref() == Some(map.power(*power).id.as_str()))
                {
                    let language = self.language_of(tx, game, m)?;
                    let words = self.templates.words(language);
                    tx.remove_member(game.id, m.player_id)?;
                    letters.push(
                        OutgoingLetter::fresh(
                            &m.email,
                            tr!(
                                words,
                                "deadlines.lost_subject",
                                game = crate::judge::phases::subjects::prefix(
                                    &self.config.judge.code,
                                    game
                                ),
                                power = map.power(*power).name_in(words.language())
                            ),
                            tr!(
                                words,
                                "deadlines.lost",
                                phase = phase_name_in(words, variant, &position),
                                game = game.name,
                                power = map.power(*power).name_in(words.language())
                            ) + "\n",
                        )
                        .about(&game.name),
                    );
                }
            }
            // The offer in one language: subject and text.
            let offer = |words: Words| -> (String, String) {
                let names: Vec<&str> = missing
                    .iter()
                    .map(|p| map.power(*p).name_in(words.language()))
                    .collect();
                let lines: Vec<String> = missing
                    .iter()
                    .map(|p| {
                        tr!(
                            words,
                            "deadlines.offer_line",
                            power = map.power(*p).name_in(words.language()),
                            letter = map.power(*p).letter,
                            game = game.name
                        )
                    })
                    .collect();
                let text = tr!(
                    words,
                    "deadlines.offer",
                    game = game.name,
                    powers = names.join(", "),
                    phase = phase_name_in(words, variant, &position),
                    offers = lines.join("\n")
                ) + "\n";
                let subject = tr!(
                    words,
                    "deadlines.offer_subject",
                    game = crate::judge::phases::subjects::prefix(&self.config.judge.code, game)
                );
                (subject, text)
            };
            // Under SET QUIET only the masters hear of it (njudge's quiet flag).
            let (subject, text) = offer(self.game_words(game));
            if !settings.quiet {
                tx.archive(game.id, game.phase_serial, &subject, &text, now)?;
            }
            for m in tx
                .members(game.id)?
                .into_iter()
                .filter(|m| !settings.quiet || m.role == "master")
            {
                let language = self.language_of(tx, game, &m)?;
                let (subject, body) = offer(self.templates.words(language));
                letters.push(OutgoingLetter::fresh(&m.email, subject, body).about(&game.name));
            }
        }
        game.settings = settings;
        tx.save_game(game)?;
        Ok(letters)
    }
}
