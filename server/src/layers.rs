//! The layers the crate's doc lists, held against the code: the order is
//! read from the doc itself (`lib.rs`, and `infra`'s own list), so the list
//! a reader trusts is the one that is checked. A module that names one
//! listed above it (a `crate::` path, or `super::` out of its own folder)
//! fails here with the file that does, unless the doc's opening paragraph
//! names that edge as "`a` imports `b`".

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One module's children, in the order its doc lists them, and the upward
/// edges its doc allows.
struct Layers {
    order: Vec<String>,
    allowed: Vec<(String, String)>,
}

/// The text of a file's `//!` lines, one line each.
fn module_doc(source: &str) -> String {
    source
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("//!"))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules a `mod.rs` or `lib.rs` declares (`mod x;`, `pub mod x;`,
/// `pub(crate) mod x;`), tests-only ones too.
fn declared(source: &str) -> BTreeSet<String> {
    source
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line.strip_prefix("pub(crate) ").or_else(|| line.strip_prefix("pub ")).unwrap_or(line);
            rest.strip_prefix("mod ")?.strip_suffix(';').map(str::to_owned)
        })
        .collect()
}

/// Every name written `` `name` `` in `text`, with what follows it.
fn quoted(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.split('`').enumerate().skip(1).step_by(2).map(move |(_, name)| {
        let end = name.as_ptr() as usize - text.as_ptr() as usize + name.len() + 1;
        (name, text.get(end..).unwrap_or(""))
    })
}

/// The order of the doc's list (a module is listed where it is named
/// `` `name`: ``, `` [`name`]: `` or `` `name` (…): ``), and the edges its
/// paragraphs before the list allow ("`a` imports `b`").
fn layers(doc: &str, modules: &BTreeSet<String>) -> Layers {
    let list_starts = doc.find("\n- ").expect("the module doc lists its modules");
    let (prose, list) = doc.split_at(list_starts);
    let mut order = Vec::new();
    for (name, after) in quoted(list) {
        let after = after.strip_prefix(']').unwrap_or(after);
        let after = match after.strip_prefix(" (") {
            Some(aside) => aside.split_once(')').map_or("", |(_, rest)| rest),
            None => after,
        };
        if after.starts_with(':') && modules.contains(name) {
            order.push(name.to_owned());
        }
    }
    let prose = prose.replace('\n', " ");
    let names: Vec<(&str, &str)> = quoted(&prose).collect();
    let allowed = names
        .windows(2)
        .filter(|pair| pair[0].1.starts_with(" imports ") && modules.contains(pair[0].0) && modules.contains(pair[1].0))
        .map(|pair| (pair[0].0.to_owned(), pair[1].0.to_owned()))
        .collect();
    Layers { order, allowed }
}

/// The source without comments (a doc link is no import).
fn code(source: &str) -> String {
    source.lines().map(|line| line.split_once("//").map_or(line, |(code, _)| code)).collect::<Vec<_>>().join("\n")
}

/// The first names of the paths that start `prefix` (`crate::`, `super::`):
/// `a` of `prefix a::b`, and `a`, `c` of `prefix {a::b, c}`.
fn paths_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        // `super::super::x` is read once, at its start; `foo_crate::` is not `crate::`.
        if code[..at].ends_with(|c: char| is_ident(c) || c == ':') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 1 => break,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 1 {
                    item.push(c);
                }
            }
            for part in item.split(',') {
                let name: String = part.trim().chars().take_while(|c| is_ident(*c)).collect();
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        } else {
            let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
            // `super::super::x` climbs further than `prefix` names.
            if !name.is_empty() && name != "super" {
                names.insert(name);
            }
        }
    }
    names
}

/// Every `.rs` file under `dir`, with its child module (the first part of
/// its path) and how deep it sits below `dir` in modules.
fn files(dir: &Path) -> Vec<(PathBuf, String, usize)> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|ext| ext != "rs") {
                continue;
            }
            let relative = path.strip_prefix(dir).unwrap();
            let parts: Vec<&str> = relative.iter().map(|part| part.to_str().unwrap()).collect();
            if parts.len() == 1 && (parts[0] == "lib.rs" || parts[0] == "mod.rs") {
                continue;
            }
            let module = parts[0].trim_end_matches(".rs").to_owned();
            let depth = if parts.last() == Some(&"mod.rs") { parts.len() - 1 } else { parts.len() };
            found.push((path.clone(), module, depth));
        }
    }
    found
}

/// Every import from a child of `dir` to a child listed above it in the
/// doc of `root_file`, as "file: a imports b"; `prefix` is how code
/// anywhere in the crate names the children (`crate::`, `crate::infra::`).
fn upward_imports(dir: &Path, root_file: &str, prefix: &str) -> Vec<String> {
    let root = std::fs::read_to_string(dir.join(root_file)).unwrap();
    let modules = declared(&root);
    let layers = layers(&module_doc(&root), &modules);
    let listed: BTreeSet<&String> = layers.order.iter().collect();
    let mut wrong: Vec<String> = modules
        .iter()
        .filter(|module| !listed.contains(module))
        .map(|module| format!("{root_file}: `{module}` is declared but not in the doc's list"))
        .collect();
    let rank = |name: &str| layers.order.iter().position(|listed| listed == name);
    for (path, module, depth) in files(dir) {
        let code = code(&std::fs::read_to_string(&path).unwrap());
        let mut names = paths_after(&code, prefix);
        names.extend(paths_after(&code, &"super::".repeat(depth)));
        for name in names {
            let (Some(from), Some(to)) = (rank(&module), rank(&name)) else { continue };
            if to < from && !layers.allowed.contains(&(module.clone(), name.clone())) {
                wrong.push(format!("{}: `{module}` imports `{name}`, listed above it", path.display()));
            }
        }
    }
    wrong
}

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

#[test]
fn every_module_imports_only_modules_listed_below_it() {
    let mut wrong = upward_imports(Path::new(SRC), "lib.rs", "crate::");
    wrong.extend(upward_imports(&Path::new(SRC).join("infra"), "mod.rs", "crate::infra::"));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_doc_names_the_one_upward_edge() {
    let root = std::fs::read_to_string(Path::new(SRC).join("lib.rs")).unwrap();
    let layers = layers(&module_doc(&root), &declared(&root));
    assert_eq!(layers.allowed, [("pages".to_owned(), "state".to_owned())]);
    assert_eq!(layers.order.first().map(String::as_str), Some("twins"));
    assert!(layers.order.iter().position(|m| m == "pages") > layers.order.iter().position(|m| m == "state"));
}

#[test]
fn paths_are_read_whole_grouped_and_not_from_comments() {
    let code =
        code("use crate::{a::b, c::{d, e}, f};\nlet x = crate::g::h(); // crate::i\nsuper::super::j; my_crate::k;");
    assert_eq!(paths_after(&code, "crate::"), BTreeSet::from(["a", "c", "f", "g"].map(str::to_owned)));
    assert_eq!(paths_after(&code, "super::"), BTreeSet::new());
    assert_eq!(paths_after(&code, "super::super::"), BTreeSet::from(["j".to_owned()]));
}

#[test]
fn a_module_naming_one_above_it_is_found() {
    let modules = BTreeSet::from(["top", "low"].map(str::to_owned));
    let layers = layers("Each imports only modules below it.\n- `top`: first.\n- [`low`]: last.", &modules);
    assert_eq!(layers.order, ["top", "low"]);
    assert!(layers.allowed.is_empty());
    let allowed = self::layers("Only `low` imports `top` above it.\n- `top`: first.\n- `low`: last.", &modules);
    assert_eq!(allowed.allowed, [("low".to_owned(), "top".to_owned())]);
}
