//! A letter's commands in a Here I Stand game, and a window's deadline: the letters' side of
//! `judge::his`, above it. Signing on (passwords, locks, confirmations), taking a power,
//! secrecy, and what the answer says are the session's; the game's operations (`create`,
//! `lines`, `list`, `reveal_line`, `deadline`) are `judge::his`'s, which reaches the judge only
//! through `his::Desk`, implemented here.

use crate::game::GameKind;
use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::diplomacy::turn::PhaseKind;
use crate::game::phases::next_deadline;
use crate::his::Power;
use crate::judge::Judge;
use crate::judge::access::lockout;
use crate::judge::access::password;
use crate::judge::access::secrecy;
use crate::judge::his;
use crate::judge::his::Desk;
use crate::judge::his::Written;
use crate::judge::his::letter_of;
use crate::judge::his::name;
use crate::judge::his::power_by_letter;
use crate::judge::session::Session;
use crate::judge::session::notices;
use crate::letter::OutgoingLetter;
use crate::msg;
use crate::report::Templates;
use crate::report::messages::Words;
use crate::store::{GameRow, MemberRow, Tx};

impl Desk for Judge {
    fn config(&self) -> &Config {
        &self.config
    }

    fn templates(&self) -> &Templates {
        &self.templates
    }

    fn game_words(&self, game: &GameRow) -> Words<'_> {
        Judge::game_words(self, game)
    }

    fn member_words(
        &self,
        tx: &Tx,
        game: &GameRow,
        member: &MemberRow,
    ) -> rusqlite::Result<Words<'_>> {
        let language = self.language_of(tx, game, member)?;
        Ok(self.templates.words(language))
    }

    fn window_deadline(&self, game: &GameRow, now: DateTime<Utc>) -> DateTime<Utc> {
        next_deadline(game, PhaseKind::Movement, now)
    }

    fn subject_prefix(&self, game: &GameRow) -> String {
        crate::judge::phases::subjects::prefix(&self.config.judge.code, game)
    }
}

impl Judge {
    /// A window's deadline passed: the silent get the default, and the move goes on.
    pub(crate) fn his_deadline(
        &self,
        tx: &Tx,
        game: &mut GameRow,
        now: DateTime<Utc>,
    ) -> rusqlite::Result<Vec<OutgoingLetter>> {
        his::deadline(self, tx, game, now)
    }
}

/// The Here I Stand game called `name`, if that is what it is and the letter may see it
/// (or, signing on with a power's letter and a password, sign on to that power:
/// `judge::secrecy`).
pub(crate) fn his_game(
    cx: &mut Session<'_>,
    tx: &Tx,
    name: &str,
    power: Option<(char, &str)>,
) -> rusqlite::Result<Option<GameRow>> {
    let Some(game) = tx
        .game_by_name(name)?
        .filter(|g| g.kind() == GameKind::HereIStand)
    else {
        return Ok(None);
    };
    Ok(secrecy::may_see_or_sign_on(cx, tx, &game, power)?.then_some(game))
}

/// CREATE ?game pw his: the sender referees it as its master; the 1517 board; the dice
/// committed to in the first report.
pub(crate) fn his_create(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: &str,
    password_hash: &str,
) -> rusqlite::Result<()> {
    if tx.game_by_name(game)?.is_some() {
        cx.fail(line, msg!("seats.game_exists", game = game));
        return Ok(());
    }
    let sender = cx.sender.clone();
    match his::create(cx.judge, tx, game, &sender, password_hash, cx.now)? {
        Err(why) => cx.fail(line, why),
        Ok((row, commitment)) => {
            cx.say(msg!(
                "his.created",
                game = row.name,
                commitment = commitment
            ));
            cx.master_of = Some(row);
        }
    }
    Ok(())
}

/// SIGNON <letter><game> pw in a Here I Stand game: takes a power without a player, or
/// signs on as the power's player.
pub(crate) fn his_signon(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    letter: char,
    row: GameRow,
    password: &str,
) -> rusqlite::Result<()> {
    let Some(power) = power_by_letter(letter) else {
        cx.fail(
            line,
            msg!("his.no_such_power", letter = letter, game = row.name),
        );
        return Ok(());
    };
    let members = tx.members(row.id)?;
    let Some(member) = members
        .iter()
        .find(|m| m.power.as_deref() == Some(power.id()))
    else {
        if !cx.proven {
            let what = msg!(
                "confirm.what_take_over",
                power = name(power),
                game = row.name
            );
            cx.hold(what);
            return Ok(());
        }
        let Some(hash) = password::new_password(cx, line, password) else {
            return Ok(());
        };
        return his_take(cx, tx, line, row, power, &hash);
    };
    let seat = crate::judge::access::seat::Seat::power(
        &row,
        power.id(),
        power.name(),
        Some((member.player_id, member.email.clone())),
    );
    let checked = lockout::check_password(cx, tx, &seat, password, &member.password_hash)?;
    if checked != crate::judge::access::seat::Checked::Right {
        lockout::refused(
            cx,
            line,
            checked,
            msg!("seats.wrong_password", game = row.name),
        );
        return Ok(());
    }
    cx.account_proven = Some(member.player_id);
    cx.answer_for(member.player_id, &member.email);
    // Answered in the language the member reads the game's letters in.
    cx.language = cx.judge.language_of(tx, &row, member)?;
    cx.say(msg!("his.signed_on", power = name(power), game = row.name));
    cx.sign_on(row, power.id().to_string());
    Ok(())
}

/// The sender takes the Here I Stand power, which has no player.
pub(crate) fn his_take(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    row: GameRow,
    power: Power,
    password_hash: &str,
) -> rusqlite::Result<()> {
    let members = tx.members(row.id)?;
    if members
        .iter()
        .any(|m| m.power.as_deref() == Some(power.id()))
    {
        cx.fail(
            line,
            msg!(
                "seats.no_longer_open",
                game = row.name,
                letter = letter_of(power)
            ),
        );
        return Ok(());
    }
    let player = tx.register_player(&cx.sender, None, None, cx.now)?;
    if members.iter().any(|m| m.player_id == player.id) {
        cx.fail(line, msg!("his.one_seat", game = row.name));
        return Ok(());
    }
    tx.set_member(
        row.id,
        player.id,
        Some(power.id()),
        "player",
        password_hash,
        cx.now,
    )?;
    if let Some(member) = tx
        .members(row.id)?
        .iter()
        .find(|m| m.player_id == player.id)
    {
        cx.language = cx.judge.language_of(tx, &row, member)?;
    }
    cx.say(msg!("his.joined", power = name(power), game = row.name));
    notices::announce(
        cx,
        tx,
        &row,
        msg!(
            "his.joined_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &row),
            power = name(power)
        ),
        msg!(
            "his.joined_notice",
            game = row.name,
            power = name(power),
            player = secrecy::member_named(tx, &row, player.id)?
        ),
    )?;
    cx.sign_on(row, power.id().to_string());
    Ok(())
}

/// Lines written in a Here I Stand game: a power's MOVE, answers and standing
/// instructions; the master's adjustments of the board. Each line is echoed, then what it
/// did or why not.
pub(crate) fn his_lines(
    cx: &mut Session<'_>,
    tx: &Tx,
    row: GameRow,
    power: Option<Power>,
    text: &str,
    first_line: usize,
) -> rusqlite::Result<()> {
    let written = Written {
        power,
        text,
        first_line,
        words: cx.words(),
    };
    let done = match his::lines(cx.judge, tx, &row, written, cx.now)? {
        Ok(done) => done,
        Err(why) => {
            cx.fail(first_line, why);
            return Ok(());
        }
    };
    for (line, written, result) in done.replies {
        cx.say_text(format!("> {written}"));
        match result {
            Ok(said) => cx.say_text(said),
            Err(why) => cx.fail(line, msg!("letter.text", text = why)),
        }
    }
    if let Some(text) = done.announcement {
        let game = tx.game(row.id)?;
        notices::announce(
            cx,
            tx,
            &game,
            msg!(
                "his.adjusted_subject",
                game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
            ),
            msg!("letter.text", text = text),
        )?;
    }
    cx.caused.extend(done.letters);
    Ok(())
}

/// LIST game for a Here I Stand game: the board where anything stands, and the move.
pub(crate) fn his_list(cx: &mut Session<'_>, row: &GameRow) {
    let words = cx.words();
    let state = crate::judge::commands::info::state_word(words, &row.state);
    match his::list(row, words, &state) {
        Ok(text) => cx.say_text(text),
        Err(why) => cx.say(why),
    }
}

/// TERMINATE in a Here I Stand game also reveals the dice seed, so anyone can check.
pub(crate) fn his_reveal(cx: &mut Session<'_>, tx: &Tx, row: &GameRow) -> rusqlite::Result<()> {
    let Some(reveal) = his::reveal_line(row) else {
        return Ok(());
    };
    let text = msg!("his.reveal", reveal = reveal);
    cx.say(text.clone());
    notices::announce(
        cx,
        tx,
        row,
        msg!(
            "his.revealed_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, row)
        ),
        text,
    )
}
