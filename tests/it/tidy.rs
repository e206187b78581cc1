//! The house rules, read from the sources in the manner of rust-analyzer's `tidy.rs`: no
//! import circle between files, no import that runs against the layer table of
//! `ARCHITECTURE.md`, no source file over 800 lines, every file opening with its `//!` line.
//! Each offence is named by its file.
//!
//! A file imports another when it names an item of the other's module: in a `use` (braces
//! expanded, `pub use` too) or in a path written out (`crate::store::Tx`, `super::letter`,
//! `letter::handle` for a child module). A module's own ancestors are its namespace: a child
//! may use what its parent file defines without that counting as an import (the parent's use
//! of the child does). Comments, strings and `#[cfg(test)]` modules are not read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The longest a source file may be.
const MOST_LINES: usize = 800;

/// A module, as the path of its names below the crate (`["judge", "letter"]`); the crate's
/// root is empty. The binary's own modules are under `bin`.
type Module = Vec<String>;

/// One source file: its path below `src/` (`judge/letter.rs`) and its text.
pub struct Source {
    pub path: String,
    pub text: String,
}

/// The module a file holds: `judge/letter.rs` is `judge::letter`, `judge/mod.rs` is `judge`,
/// `lib.rs` the crate; `main.rs` and the files it declares are the binary's (`bin`).
fn module_of(path: &str, bin_files: &BTreeSet<String>) -> Module {
    let stem = path.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    if path == "main.rs" {
        return vec!["bin".into()];
    }
    if bin_files.contains(path) {
        let mut module = vec!["bin".to_string()];
        module.extend(parts);
        return module;
    }
    parts
}

/// Code without comments, string and char literals, and `#[cfg(test)]` modules.
fn code_of(text: &str) -> String {
    let bytes: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < bytes.len() && bytes[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < bytes.len() && !(bytes[i] == '*' && bytes[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '"' || (c == 'r' && next == Some('"')) || (c == 'r' && next == Some('#')) {
            // Strings, raw strings with hashes.
            let raw = c == 'r';
            let mut hashes = 0;
            if raw {
                i += 1;
                while bytes.get(i) == Some(&'#') {
                    hashes += 1;
                    i += 1;
                }
            }
            i += 1;
            while i < bytes.len() {
                if !raw && bytes[i] == '\\' {
                    i += 2;
                    continue;
                }
                if bytes[i] == '"' && (0..hashes).all(|k| bytes.get(i + 1 + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c == '\''
            && (bytes.get(i + 2) == Some(&'\'')
                || (next == Some('\\') && bytes[i..].iter().skip(1).take(12).any(|&b| b == '\'')))
        {
            // A char literal (a lifetime has no closing quote soon after).
            i += 1;
            while i < bytes.len() && bytes[i] != '\'' {
                if bytes[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    match out.find("#[cfg(test)]") {
        Some(at) => out[..at].to_string(),
        None => out,
    }
}

/// The paths a `use` tree names, braces expanded: `super::{a, b::{c, d}}` gives
/// `super::a`, `super::b::c`, `super::b::d`.
fn use_paths(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = tree[open + 1..]
        .strip_suffix('}')
        .unwrap_or(&tree[open + 1..]);
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    parts.push(current);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| use_paths(&p))
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// Runs of `name::name::...` in code, with where each starts.
fn written_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let starts =
            is_word(chars[i]) && (i == 0 || !(is_word(chars[i - 1]) || chars[i - 1] == ':'));
        if !starts {
            i += 1;
            continue;
        }
        let mut path = String::new();
        let mut j = i;
        loop {
            let from = j;
            while j < chars.len() && is_word(chars[j]) {
                j += 1;
            }
            path.extend(&chars[from..j]);
            if j + 2 < chars.len()
                && chars[j] == ':'
                && chars[j + 1] == ':'
                && is_word(chars[j + 2])
            {
                path.push_str("::");
                j += 2;
            } else {
                break;
            }
        }
        if path.contains("::") {
            paths.push(path);
        }
        i = j.max(i + 1);
    }
    paths
}

/// The module a path written in `from` names, the longest one that exists; `None` for paths
/// outside the crate (std, other crates) or that name no module.
fn resolve(
    from: &Module,
    path: &str,
    children: &BTreeSet<String>,
    modules: &BTreeSet<Module>,
) -> Option<Module> {
    let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let first = *segments.first()?;
    let in_bin = from.first().is_some_and(|m| m == "bin");
    let (mut base, rest): (Module, &[&str]) = match first {
        "crate" if in_bin => (vec!["bin".into()], &segments[1..]),
        "crate" | "strategos" => (Vec::new(), &segments[1..]),
        "self" => (from.clone(), &segments[1..]),
        "super" => {
            let mut base = from.clone();
            let mut k = 0;
            while segments.get(k) == Some(&"super") {
                base.pop();
                k += 1;
            }
            (base, &segments[k..])
        }
        name if children.contains(name) => (from.clone(), &segments[..]),
        _ => return None,
    };
    for segment in rest {
        if matches!(*segment, "*" | "self") {
            break;
        }
        base.push(segment.to_string());
    }
    while !base.is_empty() {
        if modules.contains(&base) {
            return Some(base);
        }
        base.pop();
    }
    None
}

/// Every import between files: module to the modules it imports (not its own ancestors).
pub fn imports(sources: &[Source]) -> BTreeMap<Module, BTreeSet<Module>> {
    let bin_files: BTreeSet<String> = sources
        .iter()
        .find(|s| s.path == "main.rs")
        .map(|main| {
            child_modules(&code_of(&main.text))
                .into_iter()
                .map(|m| format!("{m}.rs"))
                .collect()
        })
        .unwrap_or_default();
    let modules: BTreeSet<Module> = sources
        .iter()
        .map(|s| module_of(&s.path, &bin_files))
        .collect();
    let mut graph = BTreeMap::new();
    for source in sources {
        let from = module_of(&source.path, &bin_files);
        let code = code_of(&source.text);
        let children = child_modules(&code);
        let mut to = BTreeSet::new();
        let mut paths = Vec::new();
        for statement in code.split(';') {
            if let Some(tree) = use_tree(statement) {
                paths.extend(use_paths(tree));
            }
        }
        paths.extend(written_paths(&code));
        for path in paths {
            if let Some(module) = resolve(&from, &path, &children, &modules)
                && module != from
                && !from.starts_with(&module)
            {
                to.insert(module);
            }
        }
        graph.insert(from, to);
    }
    graph
}

/// The tree of a `use` statement (`pub use a::b` too), if the statement is one.
fn use_tree(statement: &str) -> Option<&str> {
    let statement = statement.trim();
    let at = statement.rfind("use ")?;
    let before = statement[..at].trim_end();
    let is_use = at == 0
        || before.ends_with("pub")
        || before.ends_with(')')
        || before.ends_with('}')
        || before.ends_with(']');
    is_use.then(|| statement[at + 4..].trim())
}

/// The modules a file declares (`mod name;`).
fn child_modules(code: &str) -> BTreeSet<String> {
    let words: Vec<&str> = code
        .split(|c: char| c.is_whitespace() || c == ';' || c == '{' || c == '}')
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter(|w| w[0] == "mod")
        .map(|w| w[1].to_string())
        .collect()
}

/// The circles of imports: each strongly connected set of two modules or more (Tarjan).
pub fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'g Module, usize>,
        low: BTreeMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        on_stack: BTreeSet<&'g Module>,
        found: Vec<Vec<Module>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, v: &'g Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.graph.contains_key(w) {
                    continue;
                }
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    set.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.found.push(set);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found.sort();
    walk.found
}

/// The layer table: each row's modules (by their first names, `judge` for all of `judge::`;
/// `bin` for the command), rows from the top. A module may import its own row's modules and
/// those of the rows below it.
pub fn layers_from(architecture: &str) -> Vec<Vec<String>> {
    let Some((_, section)) = architecture.split_once("## Layers") else {
        return Vec::new();
    };
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .filter_map(|row| row.split('|').nth(2))
        .map(|cell| {
            cell.split(',')
                .map(|m| m.trim().trim_matches('`').trim_end_matches("/").to_string())
                .filter(|m| !m.is_empty())
                .collect()
        })
        .collect()
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

/// Every offence against the house rules in `sources`, each a sentence naming its file.
pub fn offences(sources: &[Source], layers: &[Vec<String>]) -> Vec<String> {
    let mut found = Vec::new();
    for source in sources {
        let lines = source.text.lines().count();
        if lines > MOST_LINES {
            found.push(format!(
                "{}: {lines} lines (at most {MOST_LINES}): split it by idea",
                source.path
            ));
        }
        if !source.text.trim_start().starts_with("//!") {
            found.push(format!(
                "{}: does not open with a `//!` line saying what it is for",
                source.path
            ));
        }
    }
    let graph = imports(sources);
    for circle in circles(&graph) {
        let names: Vec<String> = circle.iter().map(name).collect();
        found.push(format!("import circle: {}", names.join(" <-> ")));
    }
    let row_of = |module: &Module| -> Option<usize> {
        let top = module.first()?;
        layers.iter().position(|row| row.iter().any(|m| m == top))
    };
    for (from, to) in &graph {
        let Some(from_row) = row_of(from) else {
            if !from.is_empty() {
                found.push(format!(
                    "{}: module `{}` is in no row of the layer table of ARCHITECTURE.md",
                    name(from),
                    from[0]
                ));
            }
            continue;
        };
        for module in to {
            // Rows are listed from the top: a smaller row number is a higher layer.
            if let Some(row) = row_of(module)
                && row < from_row
            {
                found.push(format!(
                    "{} imports {}, a layer above it",
                    name(from),
                    name(module)
                ));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// Every `.rs` file under `dir`, by its path below it.
fn sources_in(dir: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)
            .expect("src is readable")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(Source {
                    path: path
                        .strip_prefix(dir)
                        .expect("below src")
                        .to_string_lossy()
                        .replace('\\', "/"),
                    text: std::fs::read_to_string(&path).expect("a source is UTF-8"),
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

#[test]
fn the_house_rules_hold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture =
        std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md exists");
    let layers = layers_from(&architecture);
    assert!(
        !layers.is_empty(),
        "ARCHITECTURE.md has no table under `## Layers`"
    );
    let sources = sources_in(&root.join("src"));
    let found = offences(&sources, &layers);
    assert!(found.is_empty(), "\n{}", found.join("\n"));
}

#[cfg(test)]
mod checker {
    use super::*;

    fn source(path: &str, text: &str) -> Source {
        Source {
            path: path.into(),
            text: text.into(),
        }
    }

    fn house() -> Vec<Source> {
        vec![
            source("lib.rs", "//! The crate.\npub mod core;\npub mod judge;\n"),
            source(
                "core/mod.rs",
                "//! The core.\nmod map;\npub use map::Map;\n",
            ),
            source(
                "core/map.rs",
                "//! The map.\nuse super::Map as _;\npub struct Map;\n",
            ),
            source(
                "judge/mod.rs",
                "//! The judge.\nmod letter;\nuse crate::core::Map;\npub fn run() { letter::read(); }\n",
            ),
            source(
                "judge/letter.rs",
                "//! A letter.\nuse super::run as _; // a child uses its parent\npub fn read() {}\n",
            ),
            source(
                "main.rs",
                "//! The command.\nmod setup;\nfn main() { strategos::judge::run(); }\n",
            ),
            source("setup.rs", "//! Set-up.\nuse strategos::core::Map;\n"),
        ]
    }

    fn layers() -> Vec<Vec<String>> {
        layers_from(
            "## Layers\n\n| Layer | Modules |\n|---|---|\n| top | `bin` |\n| judge | `judge` |\n| core | `core` |\n",
        )
    }

    #[test]
    fn a_tidy_house_has_no_offence() {
        assert_eq!(offences(&house(), &layers()), Vec::<String>::new());
        let graph = imports(&house());
        let judge = vec!["judge".to_string()];
        assert!(graph[&judge].contains(&vec!["judge".to_string(), "letter".to_string()]));
        assert!(graph[&judge].contains(&vec!["core".to_string()]));
    }

    #[test]
    fn the_checker_names_a_circle_an_upward_import_a_long_file_and_a_missing_doc_line() {
        let mut house = house();
        // A deliberately wrong import: the core reaches up into the judge, making a circle.
        house[2].text.push_str("use crate::judge::run as _up;\n");
        house.push(source("core/unit.rs", &"// no doc line\n".repeat(801)));
        let found = offences(&house, &layers());
        let expected = [
            "core/unit.rs: 801 lines (at most 800): split it by idea",
            "core/unit.rs: does not open with a `//!` line saying what it is for",
            "core::map imports judge, a layer above it",
            "import circle: core <-> core::map <-> judge",
        ];
        for offence in expected {
            assert!(
                found.iter().any(|f| f == offence),
                "{offence} not in {found:#?}"
            );
        }
    }

    #[test]
    fn paths_written_out_and_braced_uses_are_imports_and_strings_are_not() {
        let code = code_of(
            "use super::{a, b::{c, d}};\nlet s = \"crate::x::y\"; // crate::z\nlet c = '{';\ncrate::store::Tx::new();",
        );
        assert_eq!(
            use_paths("super::{a, b::{c, d}}"),
            ["super::a", "super::b::c", "super::b::d"]
        );
        assert!(!code.contains("crate::x") && !code.contains("crate::z"));
        assert!(written_paths(&code).contains(&"crate::store::Tx::new".to_string()));
    }
}
