//! The message catalogs (`templates/<language>/messages.toml`): every English key has a
//! Russian text with the same placeholders (up to a name's grammar: `power_gen`, `power_n`);
//! every key the code uses (`msg!`/`tr!` in `src/`) is in the English catalog and gets every
//! placeholder its texts name; no key is left unused; report words in Russian; catalogs
//! replaced from a folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use strategos::lang::Lang;

use strategos::diplomacy::adjudicate::{Bouncer, Outcome};
use strategos::diplomacy::turn::PhaseKind;
use strategos::diplomacy::unit::UnitKind;
use strategos::report::describe::{describe_order, describe_order_in, note, note_in};
use strategos::report::messages::placeholders;
use strategos::report::{Messages, Templates, When};
use strategos::text::order::parse_order;
use strategos::variant;

use crate::judge_harness::TempDir;

/// Keys the catalog code reads by name rather than through `msg!`/`tr!`.
const READ_DIRECTLY: &[&str] = &["deadline.format", "deadline.weekdays", "deadline.none"];

/// Rust source with its comments blanked out (strings, char literals and lifetimes kept).
fn without_comments(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let word = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
            continue;
        }
        // Raw strings: r"...", r#"..."#.
        if c == 'r' && (i == 0 || !word(chars[i - 1])) {
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            if chars.get(j) == Some(&'"') {
                let hashes = j - i - 1;
                let mut k = j + 1;
                while k < chars.len() {
                    if chars[k] == '"' && (0..hashes).all(|h| chars.get(k + 1 + h) == Some(&'#')) {
                        k += 1 + hashes;
                        break;
                    }
                    k += 1;
                }
                out.extend(&chars[i..k.min(chars.len())]);
                i = k;
                continue;
            }
        }
        if c == '"' {
            let mut k = i + 1;
            while k < chars.len() && chars[k] != '"' {
                if chars[k] == '\\' {
                    k += 1;
                }
                k += 1;
            }
            out.extend(&chars[i..(k + 1).min(chars.len())]);
            i = k + 1;
            continue;
        }
        if c == '\'' {
            // '\n', '\'' and 'x' are characters; 'a without a closing quote is a lifetime.
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            if let Some(end) = end {
                out.extend(&chars[i..=end]);
                i = end + 1;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The top-level arguments of the macro call whose `(` is at `open`, as written.
fn arguments(code: &[char], open: usize) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut depth = 0;
    let mut i = open;
    while i < code.len() {
        let c = code[i];
        if c == '"' {
            let mut k = i + 1;
            while k < code.len() && code[k] != '"' {
                if code[k] == '\\' {
                    k += 1;
                }
                k += 1;
            }
            current.extend(&code[i..(k + 1).min(code.len())]);
            i = k + 1;
            continue;
        }
        if c == '\'' && code.get(i + 2) == Some(&'\'') {
            current.extend(&code[i..i + 3]);
            i += 3;
            continue;
        }
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                if depth > 1 {
                    current.push(c);
                }
            }
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
                current.push(c);
            }
            ',' if depth == 1 => parts.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
        i += 1;
    }
    parts.push(current);
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// Every `msg!`/`tr!` call in `src/`: (file, key, names given).
fn uses() -> Vec<(String, String, Vec<String>)> {
    let mut files = Vec::new();
    let mut folders = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    let mut found = Vec::new();
    for file in files {
        let code: Vec<char> = without_comments(&std::fs::read_to_string(&file).unwrap())
            .chars()
            .collect();
        let name = file.display().to_string();
        for i in 0..code.len() {
            let (skip, macro_name) = if code[i..].starts_with(&['m', 's', 'g', '!', '(']) {
                (1, "msg")
            } else if code[i..].starts_with(&['t', 'r', '!', '(']) {
                (2, "tr")
            } else {
                continue;
            };
            if i > 0 && (code[i - 1].is_alphanumeric() || code[i - 1] == '_') {
                continue;
            }
            // The definitions: `macro_rules! msg` is not a call; `$key` inside them is not a key.
            let open = i + macro_name.len() + 1;
            let args = arguments(&code, open);
            let key_at = skip - 1;
            let Some(key) = args.get(key_at) else {
                panic!("{name}: a {macro_name}! call without a key: {args:?}");
            };
            if key.starts_with('$') {
                continue;
            }
            assert!(
                key.starts_with('"') && key.ends_with('"') && key.len() > 2,
                "{name}: the key of a {macro_name}! call must be a string literal: {args:?}"
            );
            let names = args[key_at + 1..]
                .iter()
                .map(|a| {
                    let (name, _) = a
                        .split_once('=')
                        .unwrap_or_else(|| panic!("{name}: `name = value` expected: {a}"));
                    name.trim().to_string()
                })
                .collect();
            found.push((name.clone(), key[1..key.len() - 1].to_string(), names));
        }
    }
    found
}

fn catalog(language: Lang) -> BTreeMap<String, String> {
    Messages::built_in()
        .catalog(language)
        .unwrap_or_else(|| panic!("no {language} catalog"))
        .clone()
}

/// A placeholder's name without its grammar: `power_gen`, `power_dat`, `power_ins` (a name in
/// a Russian case) and `power_n` (the number a verb agrees with) are forms of `power`, which
/// one language needs and another not; so is `adjective` (English writes `Austrian Army
/// Vienna`, Russian `Армия Вена (Австрия)`).
fn stem(name: &str) -> String {
    if name == "adjective" {
        return "power".to_string();
    }
    ["_gen", "_dat", "_ins", "_n"]
        .iter()
        .find_map(|suffix| name.strip_suffix(suffix))
        .unwrap_or(name)
        .to_string()
}

#[test]
fn russian_has_every_english_key_with_the_same_placeholders() {
    let en = catalog(Lang::En);
    let ru = catalog(Lang::Ru);
    let names = |text: &str| {
        placeholders(text)
            .iter()
            .map(|n| stem(n))
            .collect::<BTreeSet<_>>()
    };
    let mut problems = Vec::new();
    for (key, text) in &en {
        match ru.get(key) {
            None => problems.push(format!("{key}: missing in ru")),
            Some(russian) if names(russian) != names(text) => problems.push(format!(
                "{key}: en has {:?}, ru has {:?}",
                names(text),
                names(russian)
            )),
            Some(_) => {}
        }
    }
    for key in ru.keys().filter(|k| !en.contains_key(*k)) {
        problems.push(format!("{key}: in ru but not in en"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(en.len() > 250, "only {} keys", en.len());
}

#[test]
fn every_key_the_code_uses_is_in_english_with_its_values() {
    let en = catalog(Lang::En);
    let ru = catalog(Lang::Ru);
    let uses = uses();
    assert!(uses.len() > 250, "only {} uses found", uses.len());
    let mut problems = Vec::new();
    for (file, key, names) in &uses {
        let Some(text) = en.get(key) else {
            problems.push(format!(
                "{file}: {key} is not in templates/en/messages.toml"
            ));
            continue;
        };
        // Every catalog's placeholders: a language may want a name's grammar (`power_gen`).
        let mut wanted = placeholders(text);
        wanted.extend(ru.get(key).map(|t| placeholders(t)).unwrap_or_default());
        for wanted in wanted {
            if !names.contains(&wanted) {
                problems.push(format!("{file}: {key} needs {{{wanted}}}, given {names:?}"));
            }
        }
    }
    let used: BTreeSet<&str> = uses
        .iter()
        .map(|(_, k, _)| k.as_str())
        .chain(READ_DIRECTLY.iter().copied())
        .collect();
    for key in en.keys().filter(|k| !used.contains(k.as_str())) {
        problems.push(format!("{key}: in the catalog but used nowhere"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn report_words_in_russian_and_english() {
    let variants = variant::embedded().unwrap();
    let standard = variants.iter().find(|v| v.id == "standard").unwrap();
    let map = &standard.map;
    let position = &standard.start;
    let england = map.power_by_id("england").unwrap();
    let templates = Templates::built_in();
    let ru = templates.words(Lang::Ru);
    let order = |text: &str| {
        parse_order(standard, PhaseKind::Movement, text)
            .0
            .unwrap_or_else(|| panic!("{text} reads"))
    };
    let cases = [
        (
            "A Lvp - Yor",
            "Army Liverpool -> Yorkshire.",
            "Армия Ливерпуль -> Йоркшир.",
        ),
        (
            "F Lon S F Bre",
            "Fleet London SUPPORT French Fleet Brest.",
            "Флот Лондон поддерживает флот Брест (Франция).",
        ),
        (
            "F Edi S A Lvp - Yor",
            "Fleet Edinburgh SUPPORT Army Liverpool -> Yorkshire.",
            "Флот Эдинбург поддерживает армию Ливерпуль -> Йоркшир.",
        ),
        (
            "F Nth C A Wal - Bel",
            "Fleet North Sea CONVOY Army Wales -> Belgium.",
            "Флот Северное море конвоирует армию Уэльс -> Бельгия.",
        ),
        ("F Lon H", "Fleet London HOLD.", "Флот Лондон стоит."),
    ];
    for (text, english, russian) in cases {
        let o = order(text);
        assert_eq!(describe_order(map, position, england, &o), english);
        assert_eq!(describe_order_in(ru, map, position, england, &o), russian);
        // The Russian echo, sent back as an order, is read as the same order (but for a
        // foreign unit's power in brackets after it).
        if !russian.contains('(') {
            let echoed = order(russian.trim_end_matches('.'));
            assert_eq!(describe_order(map, position, england, &echoed), english);
        }
    }
    // Russian names and words read as orders: abbreviated, in any case, with ё as е.
    for (text, english) in [
        ("а ливерпуль - йоркшир", "Army Liverpool -> Yorkshire."),
        (
            "Ф Эдинбург П А Ливерпуль - Йоркшир",
            "Fleet Edinburgh SUPPORT Army Liverpool -> Yorkshire.",
        ),
        (
            "Ф Северное море К А Уэльс - Бельгия",
            "Fleet North Sea CONVOY Army Wales -> Belgium.",
        ),
        ("флот Лондон стоит", "Fleet London HOLD."),
        ("Ф Лондон - Северное море", "Fleet London -> North Sea."),
        (
            "А Ливерпуль - Уэльс через конвой",
            "Army Liverpool -> Wales VIA CONVOY.",
        ),
    ] {
        assert_eq!(
            describe_order(map, position, england, &order(text)),
            english,
            "{text}"
        );
    }
    let war = map.province_by_id("war").unwrap();
    let ukr = map.province_by_id("ukr").unwrap();
    // A bounce names the units: the rival by where it came from, the defender by where it
    // stood.
    let bounce = Outcome::Bounced {
        by: vec![
            Bouncer {
                at: ukr,
                kind: UnitKind::Army,
                defended: true,
            },
            Bouncer {
                at: war,
                kind: UnitKind::Army,
                defended: false,
            },
        ],
    };
    assert_eq!(
        note(map, &bounce),
        "bounce with the army in Ukraine, the army from Warsaw"
    );
    assert_eq!(
        note_in(ru, map, &bounce),
        "отскок от армии в провинции Украина, армии из провинции Варшава"
    );
    // Deadlines the reader's way, in the game's zone.
    let when = When {
        at: Some("2027-01-07T09:10:00Z".parse().unwrap()),
        zone: "Europe/Moscow".into(),
    };
    assert_eq!(
        templates.words(Lang::En).when(&when),
        "Thu 07 Jan 2027 12:10 MSK"
    );
    assert_eq!(ru.when(&when), "чт 07.01.2027 12:10 MSK");
    let nowhere = When {
        at: when.at,
        zone: "Mars/Olympus".into(),
    };
    assert_eq!(
        templates.words(Lang::En).when(&nowhere),
        "Thu 07 Jan 2027 09:10 UTC"
    );
    assert_eq!(
        templates.text(Lang::Ru, "deadline.none", &[]),
        "не назначен"
    );
    // Unknown keys fall back; missing values stay visible (an unknown language is no `Lang`).
    assert_eq!(templates.text(Lang::Ru, "no.such.key", &[]), "no.such.key");
    assert_eq!(
        templates.text(Lang::Ru, "letter.error", &[]),
        "Ошибка: {message}"
    );
}

#[test]
fn a_catalog_in_the_templates_folder_replaces_built_in_sentences() {
    let dir = TempDir::new("messages");
    std::fs::create_dir_all(dir.0.join("ru")).unwrap();
    std::fs::write(
        dir.0.join("ru/messages.toml"),
        "# a local change\n[letter]\nerror = \"Беда: {message}\"\n",
    )
    .unwrap();
    let templates = Templates::load(Some(&dir.0)).unwrap();
    assert_eq!(
        templates.text(Lang::Ru, "letter.error", &[("message", "x")]),
        "Беда: x"
    );
    // Keys the file does not hold keep the built-in text.
    assert_eq!(
        templates.text(Lang::Ru, "letter.line", &[("line", "3"), ("message", "x")]),
        "строка 3: x"
    );
    // A catalog that does not read stops the judge with the file and line.
    std::fs::write(dir.0.join("ru/messages.toml"), "[letter]\nerror = 3\n").unwrap();
    let error = Templates::load(Some(&dir.0)).err().unwrap();
    assert!(error.contains("ru/messages.toml"), "{error}");
    std::fs::write(dir.0.join("ru/messages.toml"), "[letter\n").unwrap();
    let error = Templates::load(Some(&dir.0)).err().unwrap();
    assert!(error.contains("ru/messages.toml:1"), "{error}");
}

/// Every line a template writes as it stands fits a letter's 78 characters in both
/// languages, so no letter breaks a paragraph into stubs (lines holding `{{ }}` or `{% %}`
/// are measured by the letters that use them; comments are not written).
#[test]
fn every_template_line_fits_a_letter() {
    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|x| x == "txt") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"),
        &mut paths,
    );
    assert!(paths.len() > 40, "only {} templates found", paths.len());
    let mut long = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        // Comments are not written: blank them out, keeping the line numbers.
        let mut shown = String::new();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("{#") {
            shown.push_str(&rest[..start]);
            let end = rest[start..]
                .find("#}")
                .map_or(rest.len(), |e| start + e + 2);
            shown.extend(rest[start..end].chars().filter(|c| *c == '\n'));
            rest = &rest[end..];
        }
        shown.push_str(rest);
        for (i, line) in shown.lines().enumerate() {
            if line.chars().count() > 78 && !line.contains("{{") && !line.contains("{%") {
                long.push(format!(
                    "{}:{}: {} characters",
                    path.display(),
                    i + 1,
                    line.chars().count()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "lines over 78 characters:\n{}",
        long.join("\n")
    );
}
