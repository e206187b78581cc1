//! Letters rendered from templates (`templates/en/*.txt`, minijinja): the built-in
//! templates, replaced file by file from a folder, and the words reports are made of.

pub mod describe;

use std::path::Path;

use minijinja::Environment;
use serde::Serialize;

/// The built-in templates: `(name, source)`.
const BUILT_IN: &[(&str, &str)] = &[
    ("reply.txt", include_str!("../../templates/en/reply.txt")),
    ("report.txt", include_str!("../../templates/en/report.txt")),
    ("start.txt", include_str!("../../templates/en/start.txt")),
    (
        "reminder.txt",
        include_str!("../../templates/en/reminder.txt"),
    ),
    ("help.txt", include_str!("../../templates/en/help.txt")),
    (
        "info-diadochi-v.txt",
        include_str!("../../templates/en/info-diadochi-v.txt"),
    ),
];

/// The compiled templates.
pub struct Templates {
    env: Environment<'static>,
}

impl Templates {
    /// The built-in templates, each replaced by a file of the same name in `folder` if there
    /// is one. A template that does not compile is an error naming the file and line.
    pub fn load(folder: Option<&Path>) -> Result<Templates, String> {
        let mut env = Environment::new();
        let syntax = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .expect("the default delimiters are valid");
        env.set_syntax(syntax);
        for (name, built_in) in BUILT_IN {
            let file = folder.map(|f| f.join("en").join(name));
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
        Ok(Templates { env })
    }

    /// Whether there is a template called `name`.
    pub fn has(&self, name: &str) -> bool {
        self.env.get_template(name).is_ok()
    }

    /// The built-in templates only.
    pub fn built_in() -> Templates {
        Templates::load(None).expect("the built-in templates compile")
    }

    /// Renders template `name` with `context`; a rendering error is a bug in a template, so
    /// the letter says so rather than being lost.
    pub fn render(&self, name: &str, context: impl Serialize) -> String {
        let context = minijinja::Value::from(minijinja::value::Serde(&context));
        let result = self.env.get_template(name).and_then(|t| t.render(context));
        match result {
            Ok(text) => tidy(&text),
            Err(e) => {
                format!("(The judge could not write this letter from its template {name}: {e}.)\n")
            }
        }
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
