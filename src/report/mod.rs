//! Letters rendered from templates (`templates/<language>/*.txt`, minijinja): the built-in
//! templates in English and Russian, replaced file by file from a folder; the message
//! catalogs (`templates/<language>/messages.toml`) for the sentences written in code; and
//! the words reports are made of.

pub mod classic;
pub mod describe;
pub mod messages;

pub use messages::{Lang, Message, Messages, When, Words};

use std::path::Path;

use minijinja::Environment;
use serde::Serialize;

/// The built-in templates: `(name, source)`.
const BUILT_IN: &[(&str, &str)] = &[
    ("en/help.txt", include_str!("../../templates/en/help.txt")),
    (
        "en/info-diadochi-v.txt",
        include_str!("../../templates/en/info-diadochi-v.txt"),
    ),
    (
        "en/reminder.txt",
        include_str!("../../templates/en/reminder.txt"),
    ),
    ("en/list.txt", include_str!("../../templates/en/list.txt")),
    ("en/reply.txt", include_str!("../../templates/en/reply.txt")),
    (
        "en/report.txt",
        include_str!("../../templates/en/report.txt"),
    ),
    ("en/start.txt", include_str!("../../templates/en/start.txt")),
    (
        "en/help/create.txt",
        include_str!("../../templates/en/help/create.txt"),
    ),
    (
        "en/help/credit.txt",
        include_str!("../../templates/en/help/credit.txt"),
    ),
    (
        "en/help/help.txt",
        include_str!("../../templates/en/help/help.txt"),
    ),
    (
        "en/help/his.txt",
        include_str!("../../templates/en/help/his.txt"),
    ),
    (
        "en/help/absence.txt",
        include_str!("../../templates/en/help/absence.txt"),
    ),
    (
        "en/help/deadlines.txt",
        include_str!("../../templates/en/help/deadlines.txt"),
    ),
    (
        "en/help/diary.txt",
        include_str!("../../templates/en/help/diary.txt"),
    ),
    (
        "en/help/draws.txt",
        include_str!("../../templates/en/help/draws.txt"),
    ),
    (
        "en/help/guide.txt",
        include_str!("../../templates/en/help/guide.txt"),
    ),
    (
        "en/help/info.txt",
        include_str!("../../templates/en/help/info.txt"),
    ),
    (
        "en/help/rules.txt",
        include_str!("../../templates/en/help/rules.txt"),
    ),
    (
        "en/help/history.txt",
        include_str!("../../templates/en/help/history.txt"),
    ),
    (
        "en/help/index.txt",
        include_str!("../../templates/en/help/index.txt"),
    ),
    (
        "en/help/list.txt",
        include_str!("../../templates/en/help/list.txt"),
    ),
    (
        "en/help/master.txt",
        include_str!("../../templates/en/help/master.txt"),
    ),
    (
        "en/help/observe.txt",
        include_str!("../../templates/en/help/observe.txt"),
    ),
    (
        "en/help/orders.txt",
        include_str!("../../templates/en/help/orders.txt"),
    ),
    (
        "en/help/press.txt",
        include_str!("../../templates/en/help/press.txt"),
    ),
    (
        "en/help/register.txt",
        include_str!("../../templates/en/help/register.txt"),
    ),
    (
        "en/help/resign.txt",
        include_str!("../../templates/en/help/resign.txt"),
    ),
    (
        "en/help/set.txt",
        include_str!("../../templates/en/help/set.txt"),
    ),
    (
        "en/help/signoff.txt",
        include_str!("../../templates/en/help/signoff.txt"),
    ),
    (
        "en/help/signon.txt",
        include_str!("../../templates/en/help/signon.txt"),
    ),
    (
        "en/help/summary.txt",
        include_str!("../../templates/en/help/summary.txt"),
    ),
    (
        "en/help/whois.txt",
        include_str!("../../templates/en/help/whois.txt"),
    ),
    ("ru/help.txt", include_str!("../../templates/ru/help.txt")),
    (
        "ru/info-diadochi-v.txt",
        include_str!("../../templates/ru/info-diadochi-v.txt"),
    ),
    (
        "ru/reminder.txt",
        include_str!("../../templates/ru/reminder.txt"),
    ),
    ("ru/list.txt", include_str!("../../templates/ru/list.txt")),
    ("ru/reply.txt", include_str!("../../templates/ru/reply.txt")),
    (
        "ru/report.txt",
        include_str!("../../templates/ru/report.txt"),
    ),
    ("ru/start.txt", include_str!("../../templates/ru/start.txt")),
    (
        "ru/help/create.txt",
        include_str!("../../templates/ru/help/create.txt"),
    ),
    (
        "ru/help/credit.txt",
        include_str!("../../templates/ru/help/credit.txt"),
    ),
    (
        "ru/help/help.txt",
        include_str!("../../templates/ru/help/help.txt"),
    ),
    (
        "ru/help/his.txt",
        include_str!("../../templates/ru/help/his.txt"),
    ),
    (
        "ru/help/absence.txt",
        include_str!("../../templates/ru/help/absence.txt"),
    ),
    (
        "ru/help/deadlines.txt",
        include_str!("../../templates/ru/help/deadlines.txt"),
    ),
    (
        "ru/help/diary.txt",
        include_str!("../../templates/ru/help/diary.txt"),
    ),
    (
        "ru/help/draws.txt",
        include_str!("../../templates/ru/help/draws.txt"),
    ),
    (
        "ru/help/guide.txt",
        include_str!("../../templates/ru/help/guide.txt"),
    ),
    (
        "ru/help/info.txt",
        include_str!("../../templates/ru/help/info.txt"),
    ),
    (
        "ru/help/rules.txt",
        include_str!("../../templates/ru/help/rules.txt"),
    ),
    (
        "ru/help/history.txt",
        include_str!("../../templates/ru/help/history.txt"),
    ),
    (
        "ru/help/index.txt",
        include_str!("../../templates/ru/help/index.txt"),
    ),
    (
        "ru/help/list.txt",
        include_str!("../../templates/ru/help/list.txt"),
    ),
    (
        "ru/help/master.txt",
        include_str!("../../templates/ru/help/master.txt"),
    ),
    (
        "ru/help/observe.txt",
        include_str!("../../templates/ru/help/observe.txt"),
    ),
    (
        "ru/help/orders.txt",
        include_str!("../../templates/ru/help/orders.txt"),
    ),
    (
        "ru/help/press.txt",
        include_str!("../../templates/ru/help/press.txt"),
    ),
    (
        "ru/help/register.txt",
        include_str!("../../templates/ru/help/register.txt"),
    ),
    (
        "ru/help/resign.txt",
        include_str!("../../templates/ru/help/resign.txt"),
    ),
    (
        "ru/help/set.txt",
        include_str!("../../templates/ru/help/set.txt"),
    ),
    (
        "ru/help/signoff.txt",
        include_str!("../../templates/ru/help/signoff.txt"),
    ),
    (
        "ru/help/signon.txt",
        include_str!("../../templates/ru/help/signon.txt"),
    ),
    (
        "ru/help/summary.txt",
        include_str!("../../templates/ru/help/summary.txt"),
    ),
    (
        "ru/help/whois.txt",
        include_str!("../../templates/ru/help/whois.txt"),
    ),
];

/// The compiled templates and the message catalogs.
pub struct Templates {
    env: Environment<'static>,
    messages: Messages,
}

impl Templates {
    /// The built-in templates, each replaced by a file of the same name in `folder` if there
    /// is one, and the message catalogs, overlaid by `folder/<language>/messages.toml`. A
    /// template that does not compile, or a catalog that does not read, is an error naming
    /// the file and line.
    pub fn load(folder: Option<&Path>) -> Result<Templates, String> {
        let mut env = Environment::new();
        let syntax = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .expect("the default delimiters are valid");
        env.set_syntax(syntax);
        for (name, built_in) in BUILT_IN {
            let file = folder.map(|f| f.join(name));
            let source = match file.as_ref().map(std::fs::read_to_string) {
                Some(Ok(text)) => text,
                _ => built_in.to_string(),
            };
            env.add_template_owned(name.to_string(), source)
                .map_err(|e| {
                    let at = file.as_ref().map_or_else(
                        || format!("templates/en/{name}"),
                        |f| f.display().to_string(),
                    );
                    format!("{at}:{}: {}", e.line().unwrap_or(0), e)
                })?;
        }
        let messages = Messages::load(folder)?;
        Ok(Templates { env, messages })
    }

    /// Whether there is a template `name` in `language` (or in English).
    pub fn has(&self, language: Lang, name: &str) -> bool {
        self.env.get_template(&format!("{language}/{name}")).is_ok()
            || self.env.get_template(&format!("en/{name}")).is_ok()
    }

    /// The built-in templates only.
    pub fn built_in() -> Templates {
        Templates::load(None).expect("the built-in templates compile")
    }

    /// Renders template `name` (`report.txt`, `help/orders.txt`) in `language`, falling back
    /// to English; a rendering error is a bug in a template, so the letter says so rather
    /// than being lost.
    pub fn render_in(&self, language: Lang, name: &str, context: impl Serialize) -> String {
        self.render_raw(language, name, context, tidy)
    }

    /// Renders a template whose every space and blank line counts (the classic judge's
    /// letters, which tools read line by line): nothing is tidied but the end, which gets one
    /// newline.
    pub fn render_exact_in(&self, language: Lang, name: &str, context: impl Serialize) -> String {
        self.render_raw(language, name, context, |text| {
            format!("{}\n", text.trim_end_matches('\n'))
        })
    }

    fn render_raw(
        &self,
        language: Lang,
        name: &str,
        context: impl Serialize,
        finish: impl Fn(&str) -> String,
    ) -> String {
        let context = minijinja::Value::from(minijinja::value::Serde(&context));
        let wanted = format!("{language}/{name}");
        let template = self
            .env
            .get_template(&wanted)
            .or_else(|_| self.env.get_template(&format!("en/{name}")));
        match template.and_then(|t| t.render(context)) {
            Ok(text) => finish(&text),
            Err(e) => {
                format!("(The judge could not write this letter from its template {name}: {e}.)\n")
            }
        }
    }

    /// The catalog sentence `key` in `language` with `args` filled in, falling back to
    /// English, then to the key itself; a placeholder without a value is left visible.
    pub fn text(&self, language: Lang, key: &str, args: &[(&str, &str)]) -> String {
        self.messages.text(language, key, args)
    }

    /// The words of `language`, to render messages (`tr!`, `Words::message`).
    pub fn words(&self, language: Lang) -> Words<'_> {
        self.messages.words(language)
    }

    /// The message catalogs.
    pub fn messages(&self) -> &Messages {
        &self.messages
    }

    /// Renders the English template `name`.
    pub fn render(&self, name: &str, context: impl Serialize) -> String {
        self.render_in(Lang::En, name, context)
    }
}

/// Trailing spaces dropped, at most one blank line in a row, one newline at the end.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            if blank > 1 || out.is_empty() {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}
