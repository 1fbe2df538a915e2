//! The crate's layers point one way: no module imports a module above it.
//!
//! `LAYERS` is the dependency order of docs/contributing.md, lowest first.
//! Every module of `src/` belongs to exactly one layer (the longest module
//! path prefix that names it), and every path a file names with `crate::` or
//! `super::` must lead to its own layer or one below. Within a layer, the
//! top-level modules must not form a cycle, and within a folder of `src/`,
//! the files must not import each other in a cycle.
//!
//! Run it alone with `cargo test --test tests layers`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use regex::Regex;

use crate::support::root;

/// Lowest first. A module path is placed by its longest prefix listed here.
const LAYERS: &[(&str, &[&str])] = &[
    ("primitives", &["base"]),
    ("op table", &["op"]),
    (
        "schemes",
        &[
            "schemes",
            "schemes::cursor",
            "schemes::poker",
            "schemes::shoe",
            "schemes::dice",
            "schemes::selfpoker",
            "schemes::ladder",
            "schemes::blackjack",
            "schemes::stake",
            "schemes::crash",
            "schemes::lucky",
            "schemes::skinclub",
            "schemes::freebitco",
            "schemes::bcgame",
            "schemes::csgoempire",
            "schemes::toy",
        ],
    ),
    ("registry", &["registry"]),
    ("statistics", &["stats"]),
    ("protocol", &["protocol"]),
    ("proofs", &["proof"]),
    ("vectors and schemas", &["vectors"]),
    // The harness in three layers: the report's model and what a run
    // asks (plain data), the engine that asks and judges, and the outputs
    // that say what it found.
    (
        "harness model",
        &["harness", "harness::report", "harness::manifest", "harness::cases"],
    ),
    (
        "harness engine",
        &[
            "harness::compare",
            "harness::children",
            "harness::process",
            "harness::published",
            "harness::targets",
            "harness::driver",
            "harness::bugs",
            "harness::cause",
            "harness::separate",
            "harness::shrink",
            "harness::findings",
            "harness::cluster",
            "harness::expect",
            "harness::run",
        ],
    ),
    (
        "harness outputs",
        &[
            "harness::summary",
            "harness::github",
            "harness::junit",
            "harness::html",
            "harness::html_readings",
        ],
    ),
    ("audits and analyses", &["verify", "wild", "web", "house_edge"]),
    ("crate root", &[""]),
];

/// A module path such as `harness::run` for `src/harness/run.rs`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    match last.as_str() {
        "lib.rs" | "mod.rs" => {}
        file => parts.push(file.trim_end_matches(".rs").to_string()),
    }
    parts
}

/// The layer of a module path (its rank and name) and its unit within
/// the layer: the prefix that placed it (`schemes::cursor`, `proof`), which
/// the cycle check treats as one node.
fn layer_of(module: &[String]) -> Option<(usize, &'static str, String)> {
    let mut best: Option<(usize, usize, &'static str)> = None;
    for (rank, (name, prefixes)) in LAYERS.iter().enumerate() {
        for prefix in *prefixes {
            let p: Vec<&str> = prefix.split("::").filter(|s| !s.is_empty()).collect();
            let hit = p.len() <= module.len() && p.iter().zip(module).all(|(a, b)| a == b);
            if hit && best.is_none_or(|(len, _, _)| p.len() > len) {
                best = Some((p.len(), rank, name));
            }
        }
    }
    best.map(|(len, rank, name)| (rank, name, module[..len.max(1).min(module.len())].join("::")))
}

/// Strips string literals and a trailing `//` comment from one line.
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        match (in_str, c) {
            (true, '\\') => {
                chars.next();
            }
            (true, '"') => in_str = false,
            (true, _) => {}
            (false, '"') => in_str = true,
            (false, '\'') if chars.peek().is_some_and(|n| "{}".contains(*n)) => {
                chars.next();
            }
            (false, '/') if chars.peek() == Some(&'/') => break,
            (false, c) => out.push(c),
        }
    }
    out
}

/// Expands `crate::a::{b, c::d}` (from `at`, just after `crate::` or the
/// resolved `super::`) into full paths.
fn expand(text: &str) -> Vec<Vec<String>> {
    fn seq(s: &[char], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        loop {
            while *i < s.len() && s[*i].is_whitespace() {
                *i += 1;
            }
            if *i < s.len() && s[*i] == '{' {
                *i += 1;
                loop {
                    seq(s, i, &path, out);
                    while *i < s.len() && (s[*i].is_whitespace() || s[*i] == ',') {
                        *i += 1;
                    }
                    if *i >= s.len() || s[*i] == '}' {
                        *i += 1;
                        return;
                    }
                }
            }
            let start = *i;
            while *i < s.len() && (s[*i].is_alphanumeric() || s[*i] == '_') {
                *i += 1;
            }
            if start == *i {
                out.push(path);
                return;
            }
            path.push(s[start..*i].iter().collect());
            if s.get(*i) == Some(&':') && s.get(*i + 1) == Some(&':') {
                *i += 2;
            } else {
                // `as name` and the like end the path.
                while *i < s.len() && !",}".contains(s[*i]) {
                    *i += 1;
                }
                out.push(path);
                return;
            }
        }
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    seq(&chars, &mut 0, &[], &mut out);
    out
}

struct Reference {
    file: String,
    line: usize,
    to: Vec<String>,
}

/// Every module path a file names, with `super::` resolved. A `use` that
/// spans lines is joined first. Inline modules (`mod tests { … }`) shift
/// what `super` means.
fn references(file: &str, module: &[String], text: &str) -> Vec<Reference> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    // Inline modules open at this point: (name, brace depth outside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    let inline_mod = Regex::new(r"^(pub(\([a-z]+\))? )?mod ([a-z_0-9]+) \{").unwrap();
    for (n, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        let code = code_of(raw);
        let (line, joined) = match pending.take() {
            Some((start, acc)) => (start, format!("{acc} {code}")),
            None => (n + 1, code.clone()),
        };
        if joined.contains("use ") && !joined.contains(';') && joined.matches('{').count() > joined.matches('}').count()
        {
            pending = Some((line, joined));
        } else {
            // The path of the current scope: the file's module, then inline modules.
            let scope: Vec<String> = module
                .iter()
                .cloned()
                .chain(inline.iter().map(|(m, _)| m.clone()))
                .collect();
            for (key, relative) in [("crate::", false), ("super::", true)] {
                let mut from = 0;
                while let Some(at) = joined[from..].find(key) {
                    let at = from + at;
                    from = at + key.len();
                    let before = joined[..at].chars().last();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                        continue;
                    }
                    let mut prefix: Vec<String> = Vec::new();
                    if relative {
                        let mut ups = 1;
                        while joined[from..].starts_with("super::") {
                            ups += 1;
                            from += "super::".len();
                        }
                        prefix = scope[..scope.len().saturating_sub(ups)].to_vec();
                    }
                    for path in expand(&joined[from..]) {
                        let mut to = prefix.clone();
                        to.extend(path.into_iter().filter(|s| s != "self"));
                        out.push(Reference {
                            file: file.to_string(),
                            line,
                            to,
                        });
                    }
                }
            }
        }
        if let Some(c) = inline_mod.captures(trimmed) {
            inline.push((c[3].to_string(), depth));
        }
        depth = (depth + code.matches('{').count()).saturating_sub(code.matches('}').count());
        while inline.last().is_some_and(|&(_, d)| depth <= d) {
            inline.pop();
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_imports_a_module_above_it() {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut unplaced = Vec::new();
    let mut upward = Vec::new();
    // Same-layer edges between units (top-level modules, each scheme), for the cycle check.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        if rel.starts_with("bin") {
            continue; // the binaries sit above everything and name the crate as `provably::`.
        }
        let module = module_of(rel);
        let Some((rank, name, unit)) = layer_of(&module) else {
            unplaced.push(rel.display().to_string());
            continue;
        };
        let text = fs::read_to_string(path).unwrap();
        for r in references(&rel.display().to_string(), &module, &text) {
            if r.to.is_empty() {
                continue;
            }
            let Some((to_rank, to_name, to_unit)) = layer_of(&r.to) else {
                unplaced.push(format!("{}:{} names crate::{}", r.file, r.line, r.to.join("::")));
                continue;
            };
            if to_rank > rank {
                upward.push(format!(
                    "{}:{}: {} ({name}) imports crate::{} ({to_name})",
                    r.file,
                    r.line,
                    module.join("::"),
                    r.to.join("::")
                ));
            } else if to_rank == rank && unit != to_unit && !module.is_empty() {
                edges.entry(unit.clone()).or_default().insert(to_unit);
            }
        }
    }
    assert!(
        unplaced.is_empty(),
        "modules in no layer of LAYERS:\n{}",
        unplaced.join("\n")
    );
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
    if let Some(cycle) = find_cycle(&edges) {
        panic!(
            "top-level modules of one layer import each other: {}",
            cycle.join(" -> ")
        );
    }
}

fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|s| s == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|k| visit(k, edges, &mut Vec::new(), &mut done))
}

/// Import cycles among the files of one folder that are still to be
/// broken, each as its files (sorted). A new cycle fails the test, and so
/// does an entry here that no longer is one: the list only shrinks.
const KNOWN_FILE_CYCLES: &[&[&str]] = &[];

/// The strongly connected parts (of more than one file) of a graph.
fn cycles_of(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Kosaraju: finish order on the graph, then components on its reverse.
    fn order(n: &str, e: &BTreeMap<String, BTreeSet<String>>, seen: &mut BTreeSet<String>, out: &mut Vec<String>) {
        if !seen.insert(n.to_string()) {
            return;
        }
        for m in e.get(n).into_iter().flatten() {
            order(m, e, seen, out);
        }
        out.push(n.to_string());
    }
    let mut nodes: BTreeSet<String> = edges.keys().cloned().collect();
    nodes.extend(edges.values().flatten().cloned());
    let (mut seen, mut finished) = (BTreeSet::new(), Vec::new());
    for n in &nodes {
        order(n, edges, &mut seen, &mut finished);
    }
    let mut reverse: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in edges {
        for to in tos {
            reverse.entry(to.clone()).or_default().insert(from.clone());
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for n in finished.iter().rev() {
        let mut part = Vec::new();
        order(n, &reverse, &mut seen, &mut part);
        if part.len() > 1 {
            part.sort();
            out.push(part);
        }
    }
    out.sort();
    out
}

#[test]
fn no_files_of_one_folder_import_each_other_in_a_cycle() {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    // Each file's module path, and the file it is.
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).unwrap();
            (module_of(rel), rel.display().to_string())
        })
        .collect();
    let folder = |file: &str| Path::new(file).parent().map(Path::to_path_buf);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        if rel.starts_with("bin") {
            continue;
        }
        let file = rel.display().to_string();
        let text = fs::read_to_string(path).unwrap();
        for r in references(&file, &module_of(rel), &text) {
            // The file a path names: its longest prefix that is a module.
            let to = (1..=r.to.len()).rev().find_map(|n| modules.get(&r.to[..n]));
            if let Some(to) = to.filter(|to| **to != file && folder(to) == folder(&file)) {
                edges.entry(file.clone()).or_default().insert(to.clone());
            }
        }
    }
    let found = cycles_of(&edges);
    let known: Vec<Vec<String>> = KNOWN_FILE_CYCLES
        .iter()
        .map(|c| c.iter().map(|s| s.to_string()).collect())
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|c| !known.contains(c))
        .map(|c| c.join(", "))
        .collect();
    let gone: Vec<String> = known
        .iter()
        .filter(|c| !found.contains(c))
        .map(|c| c.join(", "))
        .collect();
    assert!(
        new.is_empty(),
        "files of one folder that import each other in a cycle:\n{}",
        new.join("\n")
    );
    assert!(
        gone.is_empty(),
        "no longer a cycle, remove it from KNOWN_FILE_CYCLES:\n{}",
        gone.join("\n")
    );
}

/// The cycle finder sees a cycle of three and leaves a chain alone.
#[test]
fn the_file_cycle_check_finds_a_cycle_and_passes_a_chain() {
    let graph = |pairs: &[(&str, &str)]| {
        let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in pairs {
            e.entry(a.to_string()).or_default().insert(b.to_string());
        }
        e
    };
    assert_eq!(
        cycles_of(&graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])),
        vec![vec!["a".to_string(), "b".into(), "c".into()]]
    );
    assert!(cycles_of(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
}

/// The checker itself: it sees grouped, nested and multi-line imports and
/// resolves `super::`, so a violation cannot hide in a `use` group.
#[test]
fn the_layer_check_sees_grouped_and_relative_imports() {
    let text = "use crate::{a::b, c::{d, e as f}};\nuse crate::{\n    g::h,\n};\nuse super::x;\nfn f() { crate::y::z(); }\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::w;\n}\n";
    let module = vec!["m".to_string(), "n".to_string()];
    let got: Vec<String> = references("m/n.rs", &module, text)
        .into_iter()
        .map(|r| r.to.join("::"))
        .collect();
    assert_eq!(
        got,
        ["a::b", "c::d", "c::e", "g::h", "m::x", "y::z", "m::n", "m::w"],
        "{got:?}"
    );
}
