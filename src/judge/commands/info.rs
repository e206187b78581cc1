//! What players may ask about games: LIST, HISTORY, SUMMARY, WHOIS, and who still owes
//! orders; each answered only with what the asker may see (`secrecy`).

use crate::diplomacy::progress::VictoryCounting;
use crate::game::phases::phase_name_in;
use crate::game::secrecy::{self, Reader};
use crate::game::{GameKind, GameState};
use crate::judge::commands::help;
use crate::judge::session::Session;
use crate::letter::OutgoingLetter;
use crate::report::describe::unit_name_in;
use crate::report::{Message, Words};
use crate::store::{GameRow, IdentityRow, Tx};
use crate::{msg, tr};

use crate::judge::session::PICTURES_PER_LETTER;

pub(crate) fn list(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: Option<&str>,
) -> rusqlite::Result<()> {
    let words = cx.words();
    let Some(name) = game else {
        let mut lines = vec![tr!(words, "info.games")];
        for row in crate::judge::access::secrecy::visible_games(cx, tx)? {
            lines.push(game_summary(cx, tx, &row)?);
        }
        if lines.len() == 1 {
            lines.push(tr!(words, "info.no_games"));
        }
        cx.say_text(lines.join("\n"));
        return Ok(());
    };
    let Some(row) = crate::judge::access::secrecy::find_game(cx, tx, line, name)? else {
        return Ok(());
    };
    let Some((variant, position)) = cx.judge.game_position(&row) else {
        // Not started (or no Diplomacy position): the one-line summary says it all.
        let summary = game_summary(cx, tx, &row)?;
        cx.say_text(summary);
        return Ok(());
    };
    let listing = listing(cx, tx, &row, variant, &position)?;
    cx.say_text(listing);
    Ok(())
}

/// LIST of a running game as njudge writes it (`docs/njudge-letters.md`, 5.6): the `::`
/// lines, `Game 'g' order #001 (S1901M) has a deadline of ...`, who owes orders, the
/// players as anyone may see them, `Status of the Movement phase for Spring of 1901.`
/// with each unit (a dislodged one with where it can retreat), the ownership of the
/// centres and, in an adjustment phase, the count lines; then our notes.
fn listing(
    cx: &Session<'_>,
    tx: &Tx,
    row: &GameRow,
    variant: &crate::variant::Variant,
    position: &crate::diplomacy::position::Position,
) -> rusqlite::Result<String> {
    use crate::diplomacy::turn::PhaseKind;
    use crate::report::classic;
    let words = cx.words();
    let map = &variant.map;
    let code = &cx.judge.config.judge.code;
    let header = crate::judge::phases::subjects::header_lines(
        code,
        row,
        variant,
        position.turn,
        row.deadline_at,
    );
    let seq = format!("{:03}", row.phase_serial + 1);
    let token = classic::phase_token(position.turn);
    let finished = row.state == crate::game::GameState::Finished;
    let deadline = match row.deadline_at {
        _ if finished => words.message(&crate::game::ended(
            &row.name,
            &row.settings,
            &row.time_zone,
            Some(map),
        )),
        Some(at) => tr!(
            words,
            "info.list_deadline",
            game = row.name,
            seq = seq,
            token = token,
            deadline = words.when(&crate::report::When {
                at: Some(at),
                zone: row.time_zone.clone(),
            })
        ),
        None => tr!(
            words,
            "info.list_no_deadline",
            game = row.name,
            seq = seq,
            token = token
        ),
    };
    let owing_names = if finished {
        Vec::new()
    } else {
        owing_names(cx, tx, row)?
    };
    let mut owing = Vec::new();
    if !owing_names.is_empty() {
        owing.push(tr!(words, "info.list_owing"));
        owing.push(tr!(words, "info.owing", powers = owing_names.join(", ")));
    }
    // The players as anyone may see them (the start notice's list).
    let hidden = secrecy::identities_hidden(row);
    let mut seated: Vec<(crate::diplomacy::power::PowerId, String)> = Vec::new();
    for member in tx.members(row.id)? {
        let Some(power) = crate::judge::Judge::power_of(map, &member.power) else {
            continue;
        };
        let identity = secrecy::Identity::of_player(tx, member.player_id)?;
        let name = secrecy::name_for(&identity, hidden, Reader::Other);
        seated.push((power, words.message(&name)));
    }
    seated.sort();
    let players: Vec<String> = seated
        .iter()
        .map(|(p, name)| {
            format!(
                "     {}{name}",
                classic::padded(map.power(*p).name_in(words.language()), 26)
            )
        })
        .collect();
    let (season, year) =
        crate::judge::phases::subjects::season_and_year(words, variant, position.turn);
    let status = match position.turn.kind {
        PhaseKind::Movement => tr!(
            words,
            "info.status_movement",
            season = season,
            year = year,
            game = row.name,
            seq = seq
        ),
        PhaseKind::Retreat => tr!(
            words,
            "info.status_retreat",
            season = season,
            year = year,
            game = row.name,
            seq = seq
        ),
        PhaseKind::Adjustment => tr!(
            words,
            "info.status_adjustment",
            season = season,
            year = year,
            game = row.name,
            seq = seq
        ),
    };
    // `France:  Army Marseilles.`: the unit two columns after the longest power name.
    let mut units: Vec<(usize, &crate::diplomacy::unit::Unit)> =
        position.units.iter().enumerate().collect();
    units.sort_by_key(|(i, u)| (u.power, *i));
    let longest = position
        .units
        .iter()
        .chain(position.dislodged.iter().map(|d| &d.unit))
        .map(|u| map.power(u.power).name_in(words.language()).chars().count())
        .max()
        .unwrap_or(0);
    let lead = |power| classic::padded(map.power(power).name_in(words.language()), longest + 2);
    let mut unit_lines: Vec<String> = units
        .iter()
        .map(|(_, u)| format!("{}{}.", lead(u.power), unit_name_in(words, map, u)))
        .collect();
    if !position.dislodged.is_empty() {
        let mut occupied = vec![false; map.n_provinces()];
        for unit in &position.units {
            occupied[map.province_of(unit.region).index()] = true;
        }
        for d in &position.dislodged {
            let mut options = crate::diplomacy::adjudicate::aftermath::retreat_options(
                map,
                &variant.rules,
                d,
                &occupied,
                &position.contested,
            );
            variant.listing.sort(map, &d.unit, &mut options);
            let names: Vec<String> = options
                .iter()
                .map(|r| crate::report::describe::region_name_in(words, map, *r))
                .collect();
            let retreat = if names.is_empty() {
                tr!(words, "info.no_retreat")
            } else {
                tr!(
                    words,
                    "info.can_retreat",
                    options = names.join(&tr!(words, "classic.or"))
                )
            };
            unit_lines.push(format!(
                "{}{}{retreat}.",
                lead(d.unit.power),
                unit_name_in(words, map, &d.unit)
            ));
        }
    }
    let ownership = crate::judge::phases::reckoning::ownership_lines(words, map, position);
    let counts = if position.turn.kind == PhaseKind::Adjustment {
        crate::judge::phases::reckoning::count_lines(words, map, position, None)
    } else {
        Vec::new()
    };
    // Our notes: where victory counts supply, each power's supply beside its centres.
    let mut notes = Vec::new();
    if variant.victory_counting == VictoryCounting::Supply {
        notes.push(tr!(words, "info.centres"));
        for (i, power) in map.powers.iter().enumerate() {
            let tally = position.tally(map, crate::diplomacy::power::PowerId(i as u8));
            notes.push(tr!(
                words,
                "info.supply",
                power = power.name_in(words.language()),
                supply = tally.supply,
                centres = tally.centres
            ));
        }
    }
    Ok(cx.judge.templates.render_exact_in(
        words.language(),
        "list.txt",
        serde_json::json!({
            "header": header, "deadline": deadline, "owing": owing, "game": row.name,
            "players": players, "status": status, "units": unit_lines,
            "ownership": ownership, "counts": counts, "notes": notes,
        }),
    ))
}

/// `  mygame  Standard  active, Movement for Fall of 1901` and the like.
pub(crate) fn game_summary(cx: &Session<'_>, tx: &Tx, row: &GameRow) -> rusqlite::Result<String> {
    let Some(variant) = cx.judge.variant(&row.variant) else {
        return Ok(format!("  {}", row.name));
    };
    let words = cx.words();
    let state = match (row.state, cx.judge.game_position(row)) {
        (GameState::Forming, _) => {
            let joined = tx
                .members(row.id)?
                .iter()
                .filter(|m| m.role == "player")
                .count();
            tr!(
                words,
                "info.forming",
                joined = joined,
                needed = variant.map.powers.len()
            )
        }
        (state, Some((_, position))) => format!(
            "{}, {}",
            state_word(words, &state),
            phase_name_in(words, variant, &position)
        ),
        (state, None) => state_word(words, &state),
    };
    Ok(format!("  {}  {}  {state}", row.name, variant.name))
}

/// Names of the powers whose orders are not yet complete and error-free.
pub(crate) fn owing_names(
    cx: &Session<'_>,
    tx: &Tx,
    row: &GameRow,
) -> rusqlite::Result<Vec<String>> {
    let Some((variant, _)) = cx.judge.game_position(row) else {
        return Ok(Vec::new());
    };
    let missing = cx.judge.missing_powers(tx, row)?;
    Ok(missing
        .into_iter()
        .map(|p| {
            let name = variant.map.power(p).name_in(cx.words().language());
            name.to_string()
        })
        .collect())
}

/// HISTORY: the game's archive, every report in order (or those of the span asked for),
/// in a letter of its own.
pub(crate) fn history(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: Option<&str>,
    span: Span,
) -> rusqlite::Result<()> {
    let Some(row) = crate::judge::access::secrecy::game_asked(
        cx,
        tx,
        line,
        game,
        msg!("info.history_needs_game"),
    )?
    else {
        return Ok(());
    };
    // FROM at the start of its day and TO at its end unless a time is written, in the
    // game's zone.
    let start = chrono::NaiveTime::MIN;
    let end = chrono::NaiveTime::from_hms_opt(23, 59, 59).expect("a time");
    let mut bounds = Vec::new();
    for (date, default, first) in [(span.from, start, true), (span.to, end, false)] {
        bounds.push(match date {
            None => None,
            Some(date) => {
                match crate::judge::phases::timing::moment_back(&row, date, default, first, cx.now)
                {
                    Ok(at) => Some(at),
                    Err(why) => {
                        cx.fail(line, why);
                        return Ok(());
                    }
                }
            }
        });
    }
    let (from, to) = (bounds[0], bounds[1]);
    if let (Some(from), Some(to)) = (from, to)
        && to < from
    {
        cx.fail(line, msg!("info.history_backwards"));
        return Ok(());
    }
    let variant = cx.judge.variant(&row.variant);
    let excluded = |title: &str| -> bool {
        let (Some((start, end)), Some(variant)) = (span.exclude, variant) else {
            return false;
        };
        let rank = |token: &str| phase_rank(&variant.calendar, token);
        let (Some(first), Some(this)) = (rank(start), title_phase(title).and_then(rank)) else {
            return false;
        };
        let last = end.as_deref().and_then(rank).unwrap_or(i64::MAX);
        (first..=last).contains(&this)
    };
    let reports: Vec<_> = tx
        .reports(row.id)?
        .into_iter()
        .filter(|(when, title, _)| {
            let at = crate::store::parse_time(when);
            from.is_none_or(|f| at.is_none_or(|a| a >= f))
                && to.is_none_or(|t| at.is_none_or(|a| a <= t))
                && !excluded(title)
        })
        .collect();
    // As njudge's HISTORY: the game's `::` lines, the span, then each archived letter with
    // its Date: and Subject: lines and without its own `::` lines (so jDip imports a whole
    // game from it).
    let words = cx.words();
    let position = cx.judge.game_position(&row);
    let [judge_line, deadline_line] = crate::judge::phases::subjects::game_header(
        &cx.judge.config.judge.code,
        &row,
        cx.judge.variant(&row.variant).map(|v| v.name.as_str()),
        position.as_ref().map(|(_, p)| p.turn),
    );
    let from_time = reports
        .first()
        .and_then(|(when, _, _)| crate::store::parse_time(when))
        .unwrap_or(cx.now);
    let mut body = format!(
        "\n{judge_line}\n{deadline_line}\n\n{}\n{}\n\n",
        tr!(
            words,
            "classic.history_from",
            game = row.name,
            from = words.when(&crate::report::When {
                at: Some(from_time),
                zone: row.time_zone.clone(),
            })
        ),
        tr!(
            words,
            "classic.history_through",
            to = words.when(&crate::report::When {
                at: Some(cx.now),
                zone: row.time_zone.clone(),
            })
        )
    );
    // The reports stay in njudge's English for the tools that read them: said once.
    if words.language() != crate::lang::Lang::En {
        let note = tr!(words, "classic.history_english");
        for line in crate::report::classic::wrapped(&note, ' ', 0) {
            body.push_str(&line);
            body.push('\n');
        }
        body.push('\n');
    }
    for (when, title, text) in &reports {
        let at = crate::store::parse_time(when).unwrap_or(cx.now);
        body.push_str(&format!(
            "Date:    {}\nSubject: {title}\n\n",
            words.when(&crate::report::When {
                at: Some(at),
                zone: row.time_zone.clone(),
            })
        ));
        for line in text.lines().filter(|l| !l.starts_with("::")) {
            body.push_str(line);
            body.push('\n');
        }
        body.push('\n');
    }
    // LINES n: no more than so many lines of the archive.
    if let Some(most) = span.lines {
        let total = body.lines().count();
        if total > most as usize {
            let kept: Vec<&str> = body.lines().take(most as usize).collect();
            body = kept.join("\n") + "\n";
            body.push_str(&tr!(
                words,
                "info.history_lines",
                count = total - most as usize,
                most = most
            ));
            body.push('\n');
        }
    }
    body.push_str(&format!("\n{}\n", tr!(words, "classic.history_end")));
    // Whatever the archive holds, no address the reader may not see.
    body = secrecy::scrub(
        tx,
        words,
        &row,
        &body,
        crate::judge::access::secrecy::reader_for(cx, &row),
    )?;
    let subject = crate::judge::phases::subjects::game_subject(
        &cx.judge.config.judge.code,
        &row,
        position.as_ref().map(|(_, p)| p.turn),
        "History",
    );
    cx.caused
        .push(OutgoingLetter::fresh(&cx.answer_to, subject, body).about(&row.name));
    cx.say(msg!("info.history_follows", game = row.name));
    Ok(())
}

/// SUMMARY: who held each power when, and centre counts by year.
pub(crate) fn summary(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: Option<&str>,
) -> rusqlite::Result<()> {
    let name = match (game, &cx.signed_on, &cx.master_of) {
        (Some(name), _, _) => name.to_string(),
        (None, Some((row, _)), _) | (None, None, Some(row)) => row.name.clone(),
        _ => {
            cx.fail(line, msg!("info.summary_needs_game"));
            return Ok(());
        }
    };
    let Some(row) = crate::judge::access::secrecy::find_game(cx, tx, line, &name)? else {
        return Ok(());
    };
    let Some(variant) = cx.judge.variant(&row.variant) else {
        return Ok(());
    };
    let text = |reader| -> rusqlite::Result<Message> {
        let text = crate::archive::summary_text(tx, variant, &row, reader, cx.words())?;
        Ok(msg!("letter.text", text = text.trim_end()))
    };
    let public = text(Reader::Other)?;
    crate::judge::access::secrecy::say_by_reader(cx, &row, public, text(Reader::Master)?);
    Ok(())
}

/// GET MAP [game]: the picture of the game's board as it stands, attached to the answer
/// as `map.png` (the orders of the phase being played are not drawn: they are secret).
/// A game the sender may not see is answered as one that does not exist.
pub(crate) fn get_map(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    game: Option<&str>,
) -> rusqlite::Result<()> {
    let name = match (game, &cx.signed_on, &cx.master_of) {
        (Some(name), _, _) => name.to_string(),
        (None, Some((row, _)), _) | (None, None, Some(row)) => row.name.clone(),
        // No game: the Standard map, as njudge's GET map gives it.
        _ => "standard".to_string(),
    };
    // Here I Stand's names are one picture.
    let name = if crate::game::is_here_i_stand(&name) && tx.game_by_name(&name)?.is_none() {
        crate::game::HERE_I_STAND.to_string()
    } else {
        name
    };
    let asked_before = cx.attachments.iter().any(|(g, _)| *g == name);
    // Each picture costs about 40 ms to draw and 190 kB to send: a letter gets a few.
    if !asked_before && cx.attachments.len() >= PICTURES_PER_LETTER {
        cx.fail(
            line,
            msg!(
                "info.map_limit",
                most = PICTURES_PER_LETTER,
                game = name.as_str()
            ),
        );
        return Ok(());
    }
    // A variant's name that names no game: the variant's provinces (njudge's
    // `GET map.<variant>`) and its starting board; Here I Stand's 1517 board.
    if tx.game_by_name(&name)?.is_none() {
        if let Some(variant) = cx.judge.variants.iter().find(|v| v.id == name) {
            help::help_file(cx, Some(&format!("map.{}", variant.id)));
            if !asked_before
                && let Some(picture) =
                    crate::judge::phases::pictures::variant_picture(cx.words(), variant)
            {
                cx.attachments.push((name, picture));
            }
            return Ok(());
        }
        if crate::game::is_here_i_stand(&name) {
            if !asked_before
                && let Some(picture) = crate::judge::his::starting_picture(cx.words())
                    .and_then(|svg| crate::judge::phases::pictures::his_picture(&svg))
            {
                cx.say(msg!("info.map_attached_his"));
                cx.attachments.push((name, picture));
            }
            return Ok(());
        }
    }
    let Some(row) = crate::judge::access::secrecy::find_game(cx, tx, line, &name)? else {
        return Ok(());
    };
    if asked_before || cx.attachments.iter().any(|(g, _)| *g == row.name) {
        return Ok(());
    }
    let words = cx.words();
    let picture = if row.kind() == GameKind::HereIStand {
        crate::game::his::picture(&row, words)
            .and_then(|svg| crate::judge::phases::pictures::his_picture(&svg))
    } else {
        cx.judge
            .game_position(&row)
            .and_then(|(variant, position)| {
                crate::judge::phases::pictures::board_picture(words, variant, &row, &position)
            })
    };
    match picture {
        Some(picture) => {
            cx.say(msg!("info.map_attached", game = row.name));
            cx.attachments.push((row.name.clone(), picture));
        }
        None => cx.fail(line, msg!("info.no_map", game = row.name)),
    }
    Ok(())
}

/// WHOIS address: the player's name and the games they play or watch. A player who
/// hides their address is found only by themselves and by the masters of their games
/// (signed on as such); to anyone else it is an address nobody registered.
pub(crate) fn whois(cx: &mut Session<'_>, tx: &Tx, who: &str) -> rusqlite::Result<()> {
    // An address (found only where its player shows it, or to that player, or to a
    // master of one of their games); else the players whose shown addresses start with
    // the words (njudge's WHO IS by prefix), or whose registered name it is, as WHO GAME
    // names them.
    let mut found: Vec<IdentityRow> = Vec::new();
    // One's own address, chosen or further, finds one's own account (a further address is
    // no one else's business: to others it is one nobody registered).
    let own = own_account(cx).filter(|_| cx.is_own(who.trim()));
    if let Some(player) = own.map(|id| tx.identity(id)).transpose()?.flatten() {
        found.push(player);
    } else if let Some(player) = tx.identity_by_email(who)? {
        found.push(player);
    } else {
        let mut words = vec![who];
        if who.contains(' ') {
            words.extend(who.split(' '));
        }
        for word in words {
            for identity in tx.identities_matching(word, &cx.sender, 20)? {
                if !found.iter().any(|f| f.player_id == identity.player_id) && found.len() < 20 {
                    found.push(identity);
                }
            }
        }
    }
    let mut public = Vec::new();
    let mut masters = Vec::new();
    for player in &found {
        let by_address =
            player.email.eq_ignore_ascii_case(who.trim()) || own == Some(player.player_id);
        if let Some(answer) = whois_as(cx, tx, player, by_address, None)? {
            public.push(answer);
        }
        if let Some(game) = cx.master_of.clone()
            && let Some(answer) = whois_as(cx, tx, player, by_address, Some(&game))?
        {
            masters.push(answer);
        }
    }
    let nobody = msg!("info.nobody", address = who);
    let said = |answers: Vec<Message>| {
        if answers.is_empty() {
            vec![nobody.clone()]
        } else {
            answers
        }
    };
    match cx.master_of.clone() {
        Some(game) => {
            let (public, masters) = (said(public), said(masters));
            if public == masters {
                for answer in public {
                    cx.say(answer);
                }
            } else {
                let joined = |answers: Vec<Message>| {
                    answers
                        .into_iter()
                        .reduce(|a, b| msg!("letter.paragraphs", first = a, second = b))
                        .unwrap_or_else(|| nobody.clone())
                };
                crate::judge::access::secrecy::say_by_reader(
                    cx,
                    &game,
                    joined(public),
                    joined(masters),
                );
            }
        }
        None => {
            for answer in said(public) {
                cx.say(answer);
            }
        }
    }
    Ok(())
}

/// The answer to WHOIS about `player`, as read by a master of `master_of` (none: by
/// anyone else), or none when this reader may not find them: an address is shown only
/// where its player shows it, to that player, or to a master of one of their games; a
/// name only where the reader sees it in a game (as WHO GAME names members).
fn whois_as(
    cx: &Session<'_>,
    tx: &Tx,
    player: &IdentityRow,
    by_address: bool,
    master_of: Option<&GameRow>,
) -> rusqlite::Result<Option<Message>> {
    let memberships = tx.memberships(player.player_id)?;
    let masters = |game: &GameRow| master_of.is_some_and(|g| g.id == game.id);
    let themselves = own_account(cx) == Some(player.player_id);
    let address_shown =
        themselves || player.show_address || memberships.iter().any(|(g, _)| masters(g));
    let mut games = Vec::new();
    for (game, member) in memberships {
        let told = themselves
            || masters(&game)
            || (crate::judge::access::secrecy::may_see(cx, tx, &game)?
                && !secrecy::identities_hidden(&game));
        if !told {
            continue;
        }
        let what = match member.power {
            Some(power) => power,
            None => role_word(cx.words(), &member.role),
        };
        games.push(tr!(
            cx.words(),
            "info.whois_game",
            game = game.name,
            what = what
        ));
    }
    let named = player.name.is_some() && !games.is_empty();
    if (by_address || !named) && !address_shown {
        return Ok(None);
    }
    let first = match (&player.name, address_shown) {
        (Some(name), true) => format!("{} ({name})", player.email),
        (None, true) => player.email.clone(),
        (Some(name), false) => name.clone(),
        (None, false) => return Ok(None),
    };
    let mut lines = vec![first];
    lines.extend(games);
    if themselves {
        lines.push(crate::judge::commands::addresses::whois_line(
            cx,
            tx,
            player.player_id,
        )?);
    }
    Ok(Some(msg!("letter.text", text = lines.join("\n"))))
}

/// The sender's account, when the answer goes to one of its addresses: WHOIS then tells its
/// owner what only they may read.
fn own_account(cx: &Session<'_>) -> Option<i64> {
    cx.account.filter(|_| cx.is_own(&cx.answer_to))
}

/// What HISTORY asks for beyond the game: FROM, TO, LINES, EXCLSTART and EXCLEND.
pub(crate) struct Span<'a> {
    pub from: Option<&'a crate::text::date::WrittenDate>,
    pub to: Option<&'a crate::text::date::WrittenDate>,
    pub lines: Option<u32>,
    pub exclude: Option<&'a (String, Option<String>)>,
}

/// The phase (`S1903M`) an archived letter's subject names (`STRA:game - S1903M Results`).
fn title_phase(title: &str) -> Option<&str> {
    title.split_whitespace().find(|word| {
        let bytes = word.as_bytes();
        bytes.len() >= 3
            && matches!(bytes[0], b'S' | b'F' | b'W' | b'U')
            && matches!(bytes[bytes.len() - 1], b'M' | b'R' | b'B' | b'A')
            && bytes[1..bytes.len() - 1].iter().all(u8::is_ascii_digit)
    })
}

/// The calendar rank of a phase written as njudge writes it (`S1903M`, `F1905B`).
fn phase_rank(calendar: &crate::diplomacy::turn::Calendar, token: &str) -> Option<i64> {
    use crate::diplomacy::turn::{PhaseKind, Season, Turn};
    let upper = token.to_ascii_uppercase();
    let year: i32 = upper.get(1..upper.len() - 1)?.parse().ok()?;
    let (season, kind) = match (upper.chars().next()?, upper.chars().last()?) {
        ('W', _) | ('F', 'B') | ('F', 'A') => (Season::Winter, PhaseKind::Adjustment),
        ('S', 'M') => (Season::Spring, PhaseKind::Movement),
        ('S', 'R') => (Season::Spring, PhaseKind::Retreat),
        ('F', 'M') => (Season::Fall, PhaseKind::Movement),
        ('F', 'R') => (Season::Fall, PhaseKind::Retreat),
        _ => return None,
    };
    Some(crate::judge::commands::future::rank(
        calendar,
        Turn { year, season, kind },
    ))
}

/// A game's state in the reader's words.
pub(crate) fn state_word(words: Words, state: &GameState) -> String {
    match state {
        GameState::Active => tr!(words, "state.active"),
        GameState::Finished => tr!(words, "state.finished"),
        GameState::Forming => tr!(words, "state.forming"),
    }
}

/// A member's role (`master`, `observer`, `player`) in the reader's words.
pub(crate) fn role_word(words: Words, role: &str) -> String {
    match role {
        "master" => tr!(words, "role.master"),
        "observer" => tr!(words, "role.observer"),
        "player" => tr!(words, "role.player"),
        other => other.to_string(),
    }
}
