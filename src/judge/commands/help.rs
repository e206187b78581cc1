//! HELP and GET: the judge's help files (`templates/<language>/help/*.txt`), under their own
//! names and the classic judges' (njudge's `info`, `syntax`, `flist`, `form`, `package`,
//! `house.rules`, `info.<variant>`, `map.<variant>`); a variant's rules (`GET info <variant>`)
//! and its provinces (`GET map <variant>`); the short list of commands (`HELP`). Each file
//! goes once a letter; a name the judge does not know gets the index of files, once.

use crate::judge::access::secrecy;
use crate::judge::session::Session;
use crate::lang::Lang;
use crate::msg;
use crate::store::Tx;
use crate::text::command::Unsupported;
use crate::variant::Variant;

/// The classic judges' names of files this judge has under another name.
const ALIASES: &[(&str, &str)] = &[
    ("syntax", "orders"),
    ("flist", "index"),
    ("form", "register"),
    ("package", "guide"),
    ("house.rules", "rules"),
    ("convoys", "orders"),
    ("phase", "orders"),
    ("clear", "orders"),
    ("notices", "deadlines"),
    ("dias", "draws"),
    ("concede", "draws"),
    ("broadcast", "press"),
    ("wait", "set"),
    ("absences", "absence"),
    ("holiday", "absence"),
    ("vacation", "absence"),
    ("how2gm", "master"),
    ("version", "help"),
    ("who", "whois"),
];

/// The variant a file name is about: `info.<variant>`, `info-<variant>`, `map.<variant>`.
fn variant_of<'v>(variants: &'v [Variant], topic: &str, prefix: &str) -> Option<&'v Variant> {
    let rest = topic
        .strip_prefix(&format!("{prefix}."))
        .or_else(|| topic.strip_prefix(&format!("{prefix}-")))?;
    variants.iter().find(|v| v.id.eq_ignore_ascii_case(rest))
}

/// HELP, HELP topic, GET file; `GET ics <game>` (topic `ics.<game>`), the game's calendar.
pub(crate) fn help(
    cx: &mut Session<'_>,
    tx: &Tx,
    line: usize,
    topic: Option<&str>,
) -> rusqlite::Result<()> {
    if let Some(game) = topic.and_then(|t| t.strip_prefix("ics.")) {
        return calendar(cx, tx, line, game);
    }
    help_file(cx, topic);
    Ok(())
}

/// GET ics <game>: the deadlines of a game the letter may see, as an iCalendar file to save.
fn calendar(cx: &mut Session<'_>, tx: &Tx, line: usize, name: &str) -> rusqlite::Result<()> {
    let Some(game) = secrecy::find_game(cx, tx, line, name)? else {
        return Ok(());
    };
    let variant = cx.judge.variant(&game.variant);
    let now = crate::archive::now_of(tx, variant, &game, cx.words().language())?;
    let ics = crate::archive::deadlines_ics(
        &cx.judge.templates,
        cx.words().language(),
        &now.deadlines(&cx.judge.config.judge.code, &game),
    );
    cx.say(msg!("help.calendar", game = game.name));
    // A template the keeper broke: the error is what the letter says.
    let text = ics.unwrap_or_else(|e| format!("({e}.)"));
    cx.say_text(text.replace("\r\n", "\n").trim_end().to_string());
    Ok(())
}

/// A help file, a variant's rules or map, or the list of commands.
pub(crate) fn help_file(cx: &mut Session<'_>, topic: Option<&str>) {
    let asked = topic.unwrap_or("help").to_lowercase();
    let asked = ALIASES
        .iter()
        .find(|(name, _)| *name == asked)
        .map_or(asked.clone(), |(_, file)| file.to_string());
    // One copy of each help file a letter: asking again says where it is.
    if cx.helped.contains(&asked) {
        cx.say(msg!("limits.help_again"));
        return;
    }
    cx.helped.push(asked.clone());
    let variants = &cx.judge.variants;
    // `GET info <variant>` reads as topic `info-<variant>`; `info.<variant>` too.
    if let Some(variant) = variant_of(variants, &asked, "info") {
        return variant_info(cx, variant);
    }
    if let Some(variant) = variant_of(variants, &asked, "map") {
        return variant_map(cx, variant);
    }
    if asked == "map" {
        let standard = variants
            .iter()
            .find(|v| v.id == "standard")
            .or(variants.first());
        if let Some(variant) = standard {
            return variant_map(cx, variant);
        }
    }
    if asked == "variants" {
        return variant_list(cx);
    }
    if asked == "dedication" {
        let why =
            crate::judge::commands::unsupported::reason(Unsupported::PlayerInfo, "GET DEDICATION");
        cx.error(why);
        return;
    }
    if asked != "help" {
        let file = format!("help/{asked}.txt");
        if cx.judge.templates.has(cx.language, &file) {
            say_file(cx, &file);
            return;
        }
        cx.say(msg!("letter.no_help_file", topic = asked));
        // The list of files, once a letter, whatever was asked.
        if !cx.helped.iter().any(|h| h == "index") {
            cx.helped.push("index".into());
            say_file(cx, "help/index.txt");
        }
        return;
    }
    say_file(cx, "help.txt");
}

/// A help file rendered in the answer's language, with what the files may mention: the
/// variants, and this judge's defaults for deadlines.
fn say_file(cx: &mut Session<'_>, file: &str) {
    let mut variants: Vec<&str> = cx.judge.variants.iter().map(|v| v.id.as_str()).collect();
    variants.push(crate::game::HERE_I_STAND);
    let d = &cx.judge.config.deadlines;
    let hours = |minutes: u32| {
        let text = format!("{:.2}", f64::from(minutes) / 60.0);
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let text = cx.judge.templates.render_in(
        cx.language,
        file,
        serde_json::json!({
            "variants": variants,
            "movement_hours": d.movement_hours,
            "retreat_hours": d.retreat_hours,
            "adjustment_hours": d.adjustment_hours,
            "reminder_hours": d.reminder_hours,
            "movement_grace": d.movement_grace_hours,
            "retreat_grace": d.retreat_grace_hours,
            "adjustment_grace": d.adjustment_grace_hours,
            "delay": hours(d.delay_minutes),
            "zone": cx.judge.config.judge.time_zone,
        }),
    );
    cx.say_text(text.trim_end().to_string());
}

/// GET variants: every variant with its powers, centres and victory, and Here I Stand.
fn variant_list(cx: &mut Session<'_>) {
    let words = cx.words();
    let mut lines = vec![crate::tr!(words, "help.variants")];
    for variant in &cx.judge.variants {
        let centres = variant.map.provinces.iter().filter(|p| p.centre.is_some());
        lines.push(format!(
            "  {:<16}{}",
            variant.id,
            crate::tr!(
                words,
                "help.variant_line",
                variant = variant.name,
                powers = variant.map.powers.len(),
                centres = centres.count(),
                victory = variant.victory_centres
            )
        ));
        let names: Vec<&str> = variant.map.powers.iter().map(|p| p.name.as_str()).collect();
        lines.push(format!("  {:<16}{}", "", wrapped(&names.join(", "), 60)));
    }
    lines.push(format!(
        "  {:<16}{}",
        crate::game::HERE_I_STAND,
        crate::tr!(words, "help.variant_his")
    ));
    lines.push(String::new());
    lines.push(crate::tr!(words, "help.variants_more"));
    cx.say_text(lines.join("\n"));
}

/// A variant's rules: its own file, or what its data says (its numbers, its special rules
/// in the reader's language, its source).
fn variant_info(cx: &mut Session<'_>, variant: &Variant) {
    let file = format!("info-{}.txt", variant.id);
    if cx.judge.templates.has(cx.language, &file) {
        say_file(cx, &file);
        return;
    }
    let centres = variant
        .map
        .provinces
        .iter()
        .filter(|p| p.centre.is_some())
        .count();
    cx.say(msg!(
        "letter.variant_info",
        variant = variant.name,
        powers = variant.map.powers.len(),
        centres = centres,
        victory = variant.victory_centres,
        description = variant.description
    ));
    let paragraphs = if cx.language == Lang::Ru && !variant.info_ru.is_empty() {
        &variant.info_ru
    } else {
        &variant.info_en
    };
    for paragraph in paragraphs {
        cx.say_text(wrapped(paragraph, 72));
    }
    if !variant.source.is_empty() {
        let words = cx.words();
        let source = crate::tr!(words, "help.variant_source", source = variant.source);
        cx.say_text(wrapped(&source, 72));
    }
}

/// A variant's powers and provinces, with the short names orders may use.
fn variant_map(cx: &mut Session<'_>, variant: &Variant) {
    let map = &variant.map;
    let words = cx.words();
    let mut lines = vec![crate::tr!(words, "help.map", variant = variant.name)];
    for power in &map.powers {
        lines.push(format!(
            "  {}  {} ({})",
            power.letter, power.name, power.adjective
        ));
    }
    lines.push(String::new());
    lines.push(crate::tr!(words, "help.map_provinces"));
    for province in &map.provinces {
        let centre = if province.centre.is_some() { "*" } else { " " };
        lines.push(format!(
            "  {:<5}{centre} {}",
            province.id.to_uppercase(),
            province.name
        ));
    }
    cx.say_text(lines.join("\n"));
}

/// `text` broken into lines of at most `width` characters, at spaces.
fn wrapped(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        let n = word.chars().count();
        if line > 0 && line + 1 + n > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
}
