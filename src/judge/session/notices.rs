//! Announcements a letter makes to games (a master's change, a seat taken or given up): kept
//! in the game's archive and sent once the whole letter is read, one letter per member in
//! their language.

use crate::game::secrecy;
use crate::judge::Judge;
use crate::judge::session::Session;
use crate::letter::{Attachment, OutgoingLetter};
use crate::report::Message;
use crate::report::Words;
use crate::store::{GameRow, Tx};
use crate::tr;

/// Announces `text` to every member of `game` in their language (sent at the end of the
/// letter, several announcements to one game in one letter) and keeps it in the game's
/// archive, in the game's language.
pub(crate) fn announce(
    cx: &mut Session<'_>,
    tx: &Tx,
    game: &GameRow,
    subject: Message,
    text: Message,
) -> rusqlite::Result<()> {
    let words = cx.judge.game_words(game);
    tx.archive(
        game.id,
        game.phase_serial,
        &words.message(&subject),
        &(words.message(&text) + "\n"),
        cx.now,
    )?;
    cx.notices.push((game.clone(), subject, text));
    Ok(())
}

/// Announces a change of who plays a power (a takeover, a resignation, an ejection): to
/// every member, or under SET QUIET to the game's masters alone, and not archived.
pub(crate) fn announce_seat(
    cx: &mut Session<'_>,
    tx: &Tx,
    game: &GameRow,
    subject: Message,
    text: Message,
) -> rusqlite::Result<()> {
    if !game.settings.clone().quiet {
        return announce(cx, tx, game, subject, text);
    }
    let masters: Vec<_> = tx
        .members(game.id)?
        .into_iter()
        .filter(|m| m.role == "master" && !cx.is_own(&m.email) && m.email != cx.answer_to)
        .collect();
    for member in masters {
        let language = cx.judge.language_of(tx, game, &member)?;
        let words = cx.judge.templates.words(language);
        let view = secrecy::master_view(game, &member);
        let written = |message: &Message| words.message(&secrecy::as_read_by(message, view));
        cx.caused.push(
            OutgoingLetter::fresh(&member.email, written(&subject), written(&text) + "\n")
                .about(&game.name),
        );
    }
    Ok(())
}

/// The board as `game` ends, for its end letter in `words`: the centres each power holds
/// and their numbers, and the map (for a reader who wants maps, where the game sends them).
pub(crate) fn final_board(
    judge: &Judge,
    words: Words,
    game: &GameRow,
    wants_map: bool,
) -> (String, Option<Attachment>) {
    let Some((variant, position)) = judge.game_position(game) else {
        return (String::new(), None);
    };
    let lines = crate::judge::phases::reckoning::final_board_lines(words, &variant.map, &position);
    let picture = (wants_map && game.settings.map && judge.config.maps.results_pictures)
        .then(|| crate::judge::phases::pictures::board_picture(words, variant, game, &position))
        .flatten();
    (lines.join("\n"), picture)
}

/// Sends the letter's announcements: one letter per member of each game, the sender
/// excepted (their answer says it all).
pub(crate) fn send(cx: &mut Session<'_>, tx: &Tx) -> rusqlite::Result<()> {
    let notices = std::mem::take(&mut cx.notices);
    let mut boards: std::collections::HashMap<
        (i64, crate::lang::Lang),
        (String, Option<Attachment>),
    > = std::collections::HashMap::new();
    let mut games: Vec<i64> = notices.iter().map(|(g, _, _)| g.id).collect();
    games.sort_unstable();
    games.dedup();
    for id in games {
        let of_game: Vec<&(GameRow, Message, Message)> =
            notices.iter().filter(|(g, _, _)| g.id == id).collect();
        let game = &of_game[0].0;
        let members: Vec<_> = tx
            .members(id)?
            .into_iter()
            .filter(|m| !cx.is_own(&m.email) && m.email != cx.answer_to)
            .collect();
        for member in members {
            let language = cx.judge.language_of(tx, game, &member)?;
            let words = cx.judge.templates.words(language);
            // Members are named as this member may read them (a master sees more).
            let view = secrecy::master_view(game, &member);
            let text = |message: &Message| words.message(&secrecy::as_read_by(message, view));
            let subject = match of_game.as_slice() {
                [(_, subject, _)] => text(subject),
                _ => tr!(
                    words,
                    "master.announcements",
                    game =
                        crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, game)
                ),
            };
            let body = of_game
                .iter()
                .map(|(_, _, t)| text(t).trim_end().to_string())
                .collect::<Vec<_>>()
                .join("\n\n")
                + "\n";
            let mut letter = OutgoingLetter::fresh(&member.email, subject, body).about(&game.name);
            if cx.closing.contains(&id) {
                let wants_map = tx.member_wishes(id, member.player_id)?.map.unwrap_or(true);
                // Drawn once for each language of the game's members.
                let (board, picture) = boards
                    .entry((id, language))
                    .or_insert_with(|| final_board(cx.judge, words, game, true));
                if !board.is_empty() {
                    letter.body = format!("{}\n{board}\n", letter.body);
                }
                letter
                    .attachments
                    .extend(picture.clone().filter(|_| wants_map));
            }
            cx.caused.push(letter);
        }
    }
    Ok(())
}
