//! The game master's SET commands (judge-conventions §1.4; `docs/commands.md`): deadlines,
//! press, NMR, who may see and join, the classic judges' press and play switches, each
//! change announced to every member of the game.

use crate::game::secrecy;
use crate::game::settings::PressKind;
use crate::judge::commands::forming;
use crate::judge::commands::master;
use crate::judge::deadline_of;
use crate::judge::phases::timing;
use crate::judge::phases::timing::DateSetting;
use crate::judge::session::Session;
use crate::judge::session::notices;
use crate::lang::Lang;
use crate::msg;
use crate::report::Message;
use crate::store::Tx;
use crate::text::command::{ObserverPress, PhaseSetting, PressMode, Setting};

/// SET for a master: changes a setting and announces it.
pub(crate) fn master_setting(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    setting: &Setting,
) -> rusqlite::Result<()> {
    let Some(mut game) = master::steered(cx, tx, line, msg!("master.this_set"))? else {
        return Ok(());
    };
    // Who sees the game, who may join it and who masters it are for masters alone.
    if !cx.is_master_of(&game)
        && matches!(
            setting,
            Setting::MasterSeesPress(_)
                | Setting::Public(_)
                | Setting::Allow(_)
                | Setting::Deny(_)
                | Setting::Moderated(_)
        )
    {
        cx.fail(
            line,
            msg!("master.masters_only", what = msg!("master.this_set")),
        );
        return Ok(());
    }
    let mut settings = game.settings.clone();
    let press = |mode: &PressMode| match mode {
        PressMode::White => PressKind::White,
        PressMode::Grey => PressKind::Grey,
        PressMode::None => PressKind::None,
    };
    let change = match setting {
        Setting::Deadline {
            kind,
            clock,
            min_hours,
            hours,
            grace_hours,
            delay_minutes,
            days,
        } => {
            let (name, timing) = match kind {
                PhaseSetting::Movement => (msg!("master.kind_movement"), &mut settings.movement),
                PhaseSetting::Retreat => (msg!("master.kind_retreat"), &mut settings.retreat),
                PhaseSetting::Adjustment => {
                    (msg!("master.kind_adjustment"), &mut settings.adjustment)
                }
            };
            if let Some(c) = clock {
                timing.clock = Some(c.clone()).filter(|c| !c.is_empty());
            }
            if let Some(m) = delay_minutes {
                timing.delay_minutes = *m;
            }
            if let Some(h) = min_hours {
                timing.min_hours = *h;
            }
            if let Some(h) = hours {
                timing.hours = (*h).max(1);
            }
            if let Some(h) = grace_hours {
                timing.grace_hours = *h;
            }
            if let Some(d) = days {
                timing.days = d.clone();
            }
            let clock = match timing.clock.as_deref() {
                Some(clock) => msg!("letter.text", text = clock),
                None => msg!("master.any_time"),
            };
            let deadline = msg!(
                "master.set_deadline",
                kind = name,
                hours = timing.hours,
                min = timing.min_hours,
                clock = clock,
                days = timing.days,
                grace = timing.grace_hours
            );
            if timing.delay_minutes == 0 {
                deadline
            } else {
                msg!(
                    "timing.with_delay",
                    change = deadline,
                    delay = delay_text(timing.delay_minutes)
                )
            }
        }
        Setting::DeadlineAt(date) => {
            match timing::date_setting(
                cx,
                line,
                &mut game,
                &mut settings,
                DateSetting::Deadline(date),
            ) {
                Some(change) => change,
                None => return Ok(()),
            }
        }
        Setting::GraceAt(date) => {
            match timing::date_setting(cx, line, &mut game, &mut settings, DateSetting::Grace(date))
            {
                Some(change) => change,
                None => return Ok(()),
            }
        }
        Setting::StartAt(date) => {
            match timing::date_setting(cx, line, &mut game, &mut settings, DateSetting::Start(date))
            {
                Some(change) => change,
                None => return Ok(()),
            }
        }
        Setting::Delay(minutes) => {
            for kind in [
                &mut settings.movement,
                &mut settings.retreat,
                &mut settings.adjustment,
            ] {
                kind.delay_minutes = *minutes;
            }
            msg!("timing.delay_set", delay = delay_text(*minutes))
        }
        Setting::ManualStart(on) => {
            settings.manual_start = *on;
            if !*on {
                forming::start_if_full(cx, tx, &game)?;
            }
            if *on {
                msg!("forming.set_manual_start")
            } else {
                msg!("forming.set_auto_start")
            }
        }
        Setting::ManualProcess(on) => {
            settings.manual_process = *on;
            game.process_at = None;
            cx.touch(game.id, false);
            if *on {
                msg!("timing.set_manual_process")
            } else {
                msg!("timing.set_auto_process")
            }
        }
        Setting::Quiet(on) => flag(
            *on,
            msg!("master.set_quiet"),
            msg!("master.set_no_quiet"),
            &mut settings.quiet,
        ),
        Setting::LatePress(on) => flag(
            *on,
            msg!("master.set_late_press"),
            msg!("master.set_no_late_press"),
            &mut settings.late_press,
        ),
        Setting::MinorPress(on) => flag(
            *on,
            msg!("master.set_minor_press"),
            msg!("master.set_no_minor_press"),
            &mut settings.minor_press,
        ),
        Setting::MustOrder(on) => flag(
            *on,
            msg!("master.set_must_order"),
            msg!("master.set_no_must_order"),
            &mut settings.must_order,
        ),
        Setting::GracePress(on) => flag(
            *on,
            msg!("master.set_grace_press"),
            msg!("master.set_no_grace_press"),
            &mut settings.grace_press,
        ),
        Setting::StrictWait(on) => flag(
            *on,
            msg!("master.set_strict_wait"),
            msg!("master.set_no_strict_wait"),
            &mut settings.strict_wait,
        ),
        Setting::LateCount(on) => flag(
            *on,
            msg!("master.set_late_count"),
            msg!("master.set_no_late_count"),
            &mut settings.late_count,
        ),
        Setting::Concessions(on) => flag(
            *on,
            msg!("master.set_concessions"),
            msg!("master.set_no_concessions"),
            &mut settings.concessions,
        ),
        Setting::PostalPress(on) => flag(
            *on,
            msg!("master.set_postal_press"),
            msg!("master.set_no_postal_press"),
            &mut settings.postal_press,
        ),
        Setting::Centres(n) => {
            settings.centres = Some(*n);
            msg!("master.set_centres", centres = n)
        }
        Setting::Variant(variant) => {
            match forming::set_variant(cx, tx, line, &mut game, &settings, variant)? {
                Some(change) => change,
                None => return Ok(()),
            }
        }
        Setting::Zone(zone) => {
            if zone.parse::<chrono_tz::Tz>().is_err() {
                cx.fail(line, msg!("master.bad_zone", zone = zone));
                return Ok(());
            }
            game.time_zone = zone.clone();
            msg!(
                "master.set_zone",
                zone = zone,
                deadline = deadline_of(&game)
            )
        }
        Setting::Press(mode) => {
            if let Some(refusal) = secrecy::press_refusal(&game, &settings, press(mode)) {
                cx.fail(line, refusal);
                return Ok(());
            }
            settings.press = press(mode);
            msg!("master.set_press", press = press_word(settings.press))
        }
        Setting::Partial(on) => {
            settings.partial_press = *on;
            if *on {
                msg!("master.set_partial")
            } else {
                msg!("master.set_no_partial")
            }
        }
        Setting::ObserverPress(mode) => {
            settings.observer_press = match mode {
                ObserverPress::Any | ObserverPress::White => PressKind::White,
                ObserverPress::None => PressKind::None,
            };
            msg!(
                "master.set_observer_press",
                press = press_word(settings.observer_press)
            )
        }
        Setting::MasterSeesPress(on) => {
            settings.master_sees_press = *on;
            if *on {
                msg!("master.set_master_sees_press")
            } else {
                msg!("master.set_master_sees_no_press")
            }
        }
        Setting::CivilDisorder(on) => {
            settings.civil_disorder = *on;
            if *on {
                msg!("master.set_civil_disorder")
            } else {
                msg!("master.set_takeover")
            }
        }
        Setting::Public(on) => {
            settings.public = *on;
            if *on {
                msg!("master.set_public")
            } else {
                msg!("master.set_private")
            }
        }
        // The address is for the masters' eyes only.
        Setting::Allow(address) => {
            settings.allow.push(address.to_lowercase());
            let masters = msg!("master.set_allow", address = address);
            secrecy::by_reader(game.id, msg!("secrecy.allow_someone"), masters)
        }
        Setting::Deny(address) => {
            settings.deny.push(address.to_lowercase());
            let masters = msg!("master.set_deny", address = address);
            secrecy::by_reader(game.id, msg!("secrecy.deny_someone"), masters)
        }
        Setting::Anonymous(on) => match secrecy::anonymity(&game, &mut settings, *on) {
            Ok(change) => change,
            Err(refusal) => {
                cx.fail(line, refusal);
                return Ok(());
            }
        },
        Setting::Dias(on) => {
            settings.dias = *on;
            if *on {
                msg!("master.set_dias")
            } else {
                msg!("master.set_no_dias")
            }
        }
        Setting::Moderated(on) => {
            settings.moderated = *on;
            if *on {
                msg!("master.set_moderated")
            } else {
                msg!("master.set_unmoderated")
            }
        }
        Setting::MaxAbsence(days) => {
            settings.max_absence_days = *days;
            msg!("master.set_max_absence", days = days)
        }
        Setting::GameLanguage(code) => {
            settings.language = *code;
            let language = if *code == Lang::Ru {
                msg!("master.language_ru")
            } else {
                msg!("master.language_en")
            };
            msg!("master.set_game_language", language = language)
        }
        Setting::GameMap(on) => {
            settings.map = *on;
            if *on {
                msg!("master.set_game_map_on")
            } else {
                msg!("master.set_game_map_off")
            }
        }
        _ => return Ok(()),
    };
    game.settings = settings;
    tx.save_game(&game)?;
    cx.say(msg!("master.setting_changed", change = change));
    notices::announce(
        cx,
        tx,
        &game,
        msg!(
            "master.setting_subject",
            game = crate::judge::phases::subjects::prefix(&cx.judge.config.judge.code, &game)
        ),
        msg!("master.setting_notice", game = game.name, change = change),
    )?;
    cx.refresh(game);
    Ok(())
}

/// A switch set on or off, and the change said.
fn flag(on: bool, yes: Message, no: Message, setting: &mut bool) -> Message {
    *setting = on;
    if on { yes } else { no }
}

/// Minutes as the delay is said: `0.5` hours.
fn delay_text(minutes: u32) -> String {
    let hours = format!("{:.2}", f64::from(minutes) / 60.0);
    hours
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

fn press_word(kind: PressKind) -> Message {
    match kind {
        PressKind::White => msg!("master.press_white"),
        PressKind::Grey => msg!("master.press_grey"),
        PressKind::None => msg!("master.press_none"),
    }
}
