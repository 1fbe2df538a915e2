//! The canonical vectors: one Wycheproof-style file per scheme under
//! `vectors/`, and the web page's self-test bundle.
//!
//! Each scheme lists its cases as data in its own `vectors.rs`: a comment and
//! the request in its wire form. Cases are chosen to force branches, not
//! sampled: rejections at every byte width and exactly at the limit, block
//! boundaries, clamps, rounding ties, and every field over its whole domain
//! (`VectorSet::edges`: the edge texts and integers of [`crate::op::strategy`] in
//! every field of every op).
//!
//! Negative cases (`result: "invalid"`, as Wycheproof marks them) are
//! request lines every implementation must refuse: each single-fault
//! mutation of a valid request ([`crate::vectors::negative::variants`]), kept as the
//! exact text sent. A valid test has `input` and `expected`; an invalid one
//! has `line` (the request without `id`) and, when the line is a JSON value
//! to a strict reader, `input` too.
//!
//! Flags are derived, never asserted by hand, so a flag cannot claim a branch
//! the case does not reach: flags about the input (an empty seed, a value at
//! 2^53−1) are read off the request, flags about the computation (a
//! rejection, a clamp) are read off a trace of it by the op's own `flags`.
//! The only flag a case is tagged with by hand is its provenance
//! (`Published`). A file carries the notes of the flags it uses, and no others.
//!
//! Heavy cases (a count or size above 10,000) stay in the vector files but
//! are left out of the web page's self-test bundle, which names them under
//! `omitted`: the page runs the bundle before it lets anyone type, so it
//! must finish in well under a second.

use std::path::Path;

// Each scheme's canonical vectors, one module per scheme.
pub(crate) mod bcgame;
pub(crate) mod blackjack;
pub mod crash;
pub(crate) mod csgoempire;
pub(crate) mod cursor;
pub mod dice;
pub(crate) mod freebitco;
pub(crate) mod ladder;
pub(crate) mod lucky;
pub mod poker;
pub mod selfpoker;
pub mod shoe;
pub(crate) mod skinclub;
pub mod stake;
#[cfg(feature = "toy")]
pub(crate) mod toy;

// The proof vectors (vectors/proofs.json): documents and the report each gives.
pub(crate) mod proofs;
// Every single-fault mutation of a request, for negative vectors and the harness.
pub mod negative;
// The JSON Schemas, generated from the op table.
pub(crate) mod schema;
// `referenz.py vektoren`, reproduced: the published vectors' text.
pub mod vektoren;

use serde_json::{json, Map, Value};

use crate::op::error::MAX_SAFE_INTEGER;
use crate::op::Flag;
use crate::op::{Arg, Kind, Request, Scheme};
use crate::vectors::negative::Invalid;

/// One vector before it is run: why it is there and what it asks.
pub struct Case {
    /// Why the case is there (the branch it forces), as the file's `comment` shows it.
    pub(crate) comment: String,
    /// Provenance flags, the only ones set by hand.
    pub(crate) tags: Vec<Flag>,
    /// The request in its wire form: the file's `input`, without id.
    pub request: Request,
}

impl Case {
    /// Tags the case with where it comes from (`Published`).
    pub(crate) fn tag(&mut self, flag: Flag) -> &mut Case {
        self.tags.push(flag);
        self
    }

    /// The case's flags: its tags, then what its input is, then what its
    /// computation did.
    pub fn flags(&self) -> Vec<Flag> {
        let mut flags = self.tags.clone();
        for f in derived_flags(&self.request) {
            if !flags.contains(&f) {
                flags.push(f);
            }
        }
        flags
    }
}

/// The flags a request reaches: what its input is (the same for every op),
/// then what the op's computation did. For vectors and for reports on
/// generated cases alike.
pub fn derived_flags(r: &Request) -> Vec<Flag> {
    let mut flags = Vec::new();
    for f in input_flags(r).into_iter().chain((r.spec().flags)(r)) {
        if !flags.contains(&f) {
            flags.push(f);
        }
    }
    flags
}

/// Flags about the input itself, the same for every op.
fn input_flags(r: &Request) -> Vec<Flag> {
    let mut flags = Vec::new();
    let secret = r.spec().secret.map(|s| s.field);
    for f in r.spec().fields {
        match (f.kind, r.get(f.name)) {
            (Kind::Text, Some(Arg::Text(s))) => text_flags(s, secret == Some(f.name), &mut flags),
            (Kind::Int { min, max, size, .. }, Some(Arg::Int(v))) => {
                int_flags(*v, &mut flags);
                if size && *v == min {
                    flags.push(Flag::MinValue);
                }
                if size && *v == max && max < MAX_SAFE_INTEGER {
                    flags.push(Flag::MaxValue);
                }
            }
            (Kind::DecimalSeed, Some(Arg::Seed(v))) => int_flags(*v, &mut flags),
            (Kind::Fraction, Some(Arg::Number(p))) if *p == f64::from_bits(1) || *p == 1.0 - f64::EPSILON / 2.0 => {
                flags.push(Flag::FractionEdge);
            }
            _ => {}
        }
    }
    flags
}

fn int_flags(v: u64, flags: &mut Vec<Flag>) {
    if v == MAX_SAFE_INTEGER {
        flags.push(Flag::MaxSafeInteger);
    }
    if v == (1 << 31) - 1 || v == 1 << 31 {
        flags.push(Flag::Int32Edge);
    }
    if v == (1 << 32) - 1 || v == 1 << 32 {
        flags.push(Flag::Uint32Edge);
    }
}

/// What a text holds, by class of character and by UTF-8 length.
fn text_flags(s: &str, secret: bool, flags: &mut Vec<Flag>) {
    let any = |p: fn(u32) -> bool| s.chars().any(|c| p(u32::from(c)));
    let hex = s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let planes: std::collections::BTreeSet<u32> = s.chars().map(|c| u32::from(c) >> 16).collect();
    let edge = |c: Option<char>| c.is_some_and(char::is_whitespace);
    let checks = [
        (s.is_empty(), Flag::EmptySeed),
        (!s.is_ascii(), Flag::Unicode),
        (s.contains(':'), Flag::Colon),
        (secret && !hex, Flag::NotHex),
        (secret && s.len() > 64, Flag::LongKey),
        (!secret && s.len() > 64, Flag::LongText),
        (s.len() >= 10_000, Flag::HugeText),
        (s.encode_utf16().count() <= 64 && s.len() > 64, Flag::LongInBytes),
        (any(|c| c > 0xffff), Flag::Astral),
        (planes.len() == 17, Flag::AllPlanes),
        (any(|c| (0xe000..=0xffff).contains(&c)), Flag::HighBmp),
        (any(is_private_use), Flag::PrivateUse),
        (any(is_noncharacter), Flag::Noncharacter),
        (any(is_combining), Flag::Decomposed),
        (any(is_compatibility), Flag::Compatibility),
        (edge(s.chars().next()) || edge(s.chars().last()), Flag::Whitespace),
        (s.chars().any(char::is_control), Flag::Control),
        (
            any(|c| matches!(c, 0xfeff | 0x200b..=0x200d | 0x2060 | 0xad)),
            Flag::Invisible,
        ),
        (s.contains(['"', '\\']), Flag::Escapes),
    ];
    flags.extend(checks.iter().filter(|(hit, _)| *hit).map(|(_, f)| *f));
}

fn is_noncharacter(c: u32) -> bool {
    (0xfdd0..=0xfdef).contains(&c) || c & 0xfffe == 0xfffe
}

fn is_private_use(c: u32) -> bool {
    ((0xe000..=0xf8ff).contains(&c) || c >= 0xf_0000) && !is_noncharacter(c)
}

/// Combining marks of the blocks that decomposed Latin, Greek and Cyrillic text uses.
fn is_combining(c: u32) -> bool {
    matches!(c, 0x300..=0x36f | 0x1ab0..=0x1aff | 0x1dc0..=0x1dff | 0x20d0..=0x20ff | 0xfe20..=0xfe2f)
}

/// Characters NFKC replaces: superscript digits, super- and subscripts,
/// Latin ligatures, halfwidth and fullwidth forms.
fn is_compatibility(c: u32) -> bool {
    matches!(c, 0xb2 | 0xb3 | 0xb9 | 0x2070..=0x209f | 0xfb00..=0xfb06 | 0xff01..=0xffee)
}

/// The cases of one scheme, as its `vectors.rs` lists them: valid requests
/// and request lines every implementation must refuse.
#[derive(Default)]
pub struct VectorSet {
    pub cases: Vec<Case>,
    pub invalid: Vec<Invalid>,
}

impl VectorSet {
    /// Adds a case from its wire form (a request without `id`).
    ///
    /// # Panics
    /// When the input is not a valid request: the vector list is wrong.
    #[allow(clippy::needless_pass_by_value, reason = "cases are written as json! literals")]
    pub fn add(&mut self, comment: impl Into<String>, input: Value) -> &mut Case {
        let comment = comment.into();
        let request = crate::registry::parse(&input).unwrap_or_else(|e| panic!("vector {comment:?}: {e}"));
        self.cases.push(Case {
            comment,
            tags: Vec::new(),
            request,
        });
        self.cases.last_mut().expect("just pushed")
    }

    /// Adds `base` with each field in turn set to each of its edge values:
    /// every edge text of [`crate::op::strategy::edge_texts`] in every text field,
    /// every integer of `crate::op::strategy::edge_ints` in every integer field.
    ///
    /// # Panics
    /// When `base` is not a valid request.
    #[allow(clippy::needless_pass_by_value, reason = "cases are written as json! literals")]
    pub(crate) fn edges(&mut self, base: Value) {
        let request = crate::registry::parse(&base).unwrap_or_else(|e| panic!("edges of {base}: {e}"));
        for f in request.spec().fields {
            let values: Vec<(String, Value)> = match f.kind {
                Kind::Text => crate::op::strategy::edge_texts()
                    .into_iter()
                    .map(|(what, text)| (what.to_string(), Value::from(text)))
                    .collect(),
                // A field of listed values: each of them (an edge between them is no value).
                Kind::Int { only: Some(values), .. } => values.iter().map(|&v| (int_name(v), Value::from(v))).collect(),
                Kind::Int { min, max, .. } => crate::op::strategy::edge_ints(min, max)
                    .into_iter()
                    .map(|v| (int_name(v), Value::from(v)))
                    .collect(),
                _ => Vec::new(),
            };
            for (what, value) in values {
                let mut input = base.clone();
                input[f.name] = value;
                self.add(format!("{}: {what}", f.name), input);
            }
        }
    }

    /// Adds a request line every implementation must answer `invalid`.
    ///
    /// # Panics
    /// When `provably` itself does not answer it `invalid`: the case is wrong.
    pub(crate) fn add_invalid(&mut self, invalid: Invalid) {
        if let Err(answer) = invalid.check() {
            panic!(
                "invalid vector {:?} ({}) is answered {answer}",
                invalid.comment, invalid.line
            );
        }
        self.invalid.push(invalid);
    }

    /// Adds every single-fault mutation of a valid request ([`crate::vectors::negative::variants`]).
    ///
    /// # Panics
    /// When `input` is not a valid request, or a mutation is not answered `invalid`.
    #[allow(clippy::needless_pass_by_value, reason = "cases are written as json! literals")]
    pub(crate) fn variants(&mut self, input: Value) {
        let request = crate::registry::parse(&input).unwrap_or_else(|e| panic!("variants of {input}: {e}"));
        for invalid in crate::vectors::negative::variants(&request) {
            self.add_invalid(invalid);
        }
    }
}

/// An integer edge as the comments name it.
fn int_name(v: u64) -> String {
    match v {
        v if v == (1 << 31) - 1 => "2^31-1".into(),
        v if v == 1 << 31 => "2^31".into(),
        v if v == (1 << 32) - 1 => "2^32-1".into(),
        v if v == 1 << 32 => "2^32".into(),
        MAX_SAFE_INTEGER => "2^53-1".into(),
        v => v.to_string(),
    }
}

/// A scheme's vectors, built once.
pub struct Vectors {
    /// The scheme the vectors are of.
    pub scheme: &'static Scheme,
    /// The valid cases, in tcId order from 1.
    pub cases: Vec<Case>,
    /// Request lines every implementation must answer `invalid`; their
    /// tcIds follow the valid cases' (`Vectors::invalid_tc_id`).
    pub invalid: Vec<Invalid>,
}

impl Vectors {
    /// The tcId of `invalid[index]` in the scheme's file.
    pub(crate) fn invalid_tc_id(&self, index: usize) -> usize {
        self.cases.len() + index + 1
    }
}

/// The function that adds `scheme`'s canonical vectors.
fn builder(scheme: &Scheme) -> fn(&mut VectorSet) {
    match scheme.name {
        "cursor" => cursor::add,
        "poker" => poker::add,
        "shoe" => shoe::add,
        "dice" => dice::add,
        "selfpoker" => selfpoker::add,
        "ladder" => ladder::add,
        "blackjack" => blackjack::add,
        "stake" => stake::add,
        "crash" => crash::add,
        "lucky" => lucky::add,
        "skinclub" => skinclub::add,
        "freebitco" => freebitco::add,
        "bcgame" => bcgame::add,
        "csgoempire" => csgoempire::add,
        #[cfg(feature = "toy")]
        "toy" => toy::add,
        other => panic!("scheme {other} has no vectors: add its module to src/vectors/"),
    }
}

/// Every scheme's vectors, before they are run. Built once: several cases
/// are found by searching (the first cursor with a rejection, …).
pub fn schemes() -> &'static [Vectors] {
    static ALL: std::sync::OnceLock<Vec<Vectors>> = std::sync::OnceLock::new();
    // Each scheme's set on a thread of its own: some search for their
    // cases (a cursor whose value sits at its limit, a shoe that rejects
    // at a block edge), and every run of the harness waits for all of them.
    ALL.get_or_init(|| {
        std::thread::scope(|scope| {
            let sets: Vec<_> = crate::registry::schemes()
                .iter()
                .map(|&scheme| {
                    scope.spawn(move || {
                        let mut set = VectorSet::default();
                        builder(scheme)(&mut set);
                        Vectors {
                            scheme,
                            cases: set.cases,
                            invalid: set.invalid,
                        }
                    })
                })
                .collect();
            sets.into_iter()
                .map(|set| set.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        })
    })
}

/// The generator named in every file.
pub(crate) const GENERATOR: &str = concat!("provably ", env!("CARGO_PKG_VERSION"));

/// Runs a scheme's cases and lays them out as its vector file.
pub fn file(v: &Vectors) -> Value {
    let mut groups: Vec<(&'static str, Vec<Value>)> = Vec::new();
    let mut used: Vec<Flag> = Vec::new();
    let mut place = |op: &'static str, flags: &[Flag], test: Value| {
        used.extend(flags.iter().filter(|f| !used.contains(f)).copied().collect::<Vec<_>>());
        match groups.iter_mut().find(|(o, _)| *o == op) {
            Some((_, tests)) => tests.push(test),
            None => groups.push((op, vec![test])),
        }
    };
    for (i, c) in v.cases.iter().enumerate() {
        let expected = c
            .request
            .run_value()
            .unwrap_or_else(|e| panic!("vector {:?} fails: {e}", c.comment));
        let flags = c.flags();
        let test = json!({
            "tcId": i + 1,
            "comment": c.comment,
            "flags": flags,
            "result": "valid",
            "input": c.request.to_value(),
            "expected": expected,
        });
        place(c.request.op(), &flags, test);
    }
    for (i, bad) in v.invalid.iter().enumerate() {
        let mut test = json!({
            "tcId": v.invalid_tc_id(i),
            "comment": bad.comment,
            "flags": bad.flags,
            "result": "invalid",
            "line": bad.line,
        });
        if let Some(input) = bad.input() {
            test["input"] = input;
        }
        place(bad.op.name, &bad.flags, test);
    }
    let notes: Map<String, Value> = Flag::ALL
        .iter()
        .filter(|f| used.contains(f))
        .map(|f| (f.name().to_string(), Value::from(f.note())))
        .collect();
    json!({
        "scheme": v.scheme.name,
        "source": v.scheme.source,
        "generatorVersion": GENERATOR,
        "numberOfTests": v.cases.len() + v.invalid.len(),
        "notes": notes,
        "testGroups": groups.into_iter().map(|(op, tests)| json!({ "op": op, "tests": tests })).collect::<Vec<_>>(),
    })
}

/// Why a test is left out of the self-test bundle.
pub(crate) const OMITTED_NOTE: &str = "Heavy vectors (a count or size above 10,000) are left out so that the page's self-test stays well under a second; the vector files hold them, and the harness and the JavaScript tests run them.";

/// The web page's self-test: every vector of every scheme, flattened, but
/// the heavy ones, which it names under `omitted`.
pub(crate) fn selftest(files: &[Value]) -> Value {
    let mut tests = Vec::new();
    let mut omitted = Vec::new();
    for f in files {
        for group in f["testGroups"].as_array().into_iter().flatten() {
            for t in group["tests"].as_array().into_iter().flatten() {
                if t["flags"]
                    .as_array()
                    .is_some_and(|fl| fl.iter().any(|x| x == Flag::Heavy.name()))
                {
                    omitted.push(json!({ "scheme": f["scheme"], "tcId": t["tcId"], "comment": t["comment"] }));
                    continue;
                }
                let mut t = t.as_object().unwrap().clone();
                t.insert("scheme".into(), f["scheme"].clone());
                tests.push(Value::Object(t));
            }
        }
    }
    json!({
        "generator": GENERATOR,
        "numberOfTests": tests.len(),
        "tests": tests,
        "omitted": { "note": OMITTED_NOTE, "tests": omitted },
    })
}

/// Every file `provably vectors` writes, as (path relative to the repository root, text).
pub(crate) fn render() -> Vec<(String, String)> {
    let files: Vec<Value> = schemes().iter().map(file).collect();
    let mut out: Vec<(String, String)> = files
        .iter()
        .map(|f| (format!("vectors/{}.json", f["scheme"].as_str().unwrap()), pretty(f)))
        .collect();
    out.push((
        "vectors/selftest.json".into(),
        serde_json::to_string(&selftest(&files)).unwrap() + "\n",
    ));
    out.push((
        "vectors/vectors.schema.json".into(),
        pretty(&crate::vectors::schema::vectors()),
    ));
    out.push((
        "vectors/proofs.json".into(),
        pretty(&crate::vectors::proofs::file(GENERATOR)),
    ));
    out.push((
        "vectors/proof.schema.json".into(),
        pretty(&crate::vectors::schema::proof()),
    ));
    out.push((
        "vectors/partial.schema.json".into(),
        pretty(&crate::vectors::schema::partial()),
    ));
    let protocol = crate::vectors::schema::protocol();
    out.push(("reference/js/generated/ops.mjs".into(), js_table(&protocol)));
    out.push(("harness/protocol.schema.json".into(), pretty(&protocol)));
    for scheme in crate::registry::schemes() {
        out.extend(
            scheme
                .generated
                .iter()
                .map(|(path, render)| ((*path).to_string(), render())),
        );
    }
    out
}

/// reference/js/generated/ops.mjs: the op table as the JavaScript side
/// reads it (every op in order, and each op's `ok` fields with their JSON
/// Schemas), so that no JS file keeps a copy of its own.
fn js_table(protocol: &Value) -> String {
    let ops: Vec<&str> = crate::registry::ops().map(|o| o.name).collect();
    let ok: Map<String, Value> = ops
        .iter()
        .map(|&name| {
            let fields = protocol["$defs"][format!("ok:{name}")]["properties"].clone();
            (name.to_string(), fields)
        })
        .collect();
    format!(
        "// Generated by `provably vectors` from the Rust op table; do not edit.\n\
         // `provably vectors --check` (make test) fails when it is out of date.\n\n\
         function freeze(v) {{\n  if (v !== null && typeof v === 'object') {{\n    for (const x of Object.values(v)) freeze(x);\n    Object.freeze(v);\n  }}\n  return v;\n}}\n\n\
         /** Every op of protocol v1, in the order of docs/protocol.md. */\n\
         export const OPS = freeze({});\n\n\
         /** Each op's `ok` fields in protocol order, as harness/protocol.schema.json gives them. */\n\
         export const OK_FIELDS = freeze({});\n",
        serde_json::to_string(&ops).expect("names serialize"),
        pretty(&Value::Object(ok)).trim_end()
    )
}

/// JSON as the vector files are written: objects one member a line,
/// indented by two; lists without objects in them on one line, so that a
/// deck is one line and a 100,000-element order is not 100,000 lines.
pub fn pretty(v: &Value) -> String {
    let mut out = String::new();
    write_pretty(v, 0, &mut out);
    out.push('\n');
    out
}

fn write_pretty(v: &Value, depth: usize, out: &mut String) {
    let indent = |d: usize, out: &mut String| out.extend(std::iter::repeat_n("  ", d));
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push_str("{\n");
            for (i, (k, item)) in m.iter().enumerate() {
                indent(depth + 1, out);
                out.push_str(&Value::from(k.as_str()).to_string());
                out.push_str(": ");
                write_pretty(item, depth + 1, out);
                out.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
            }
            indent(depth, out);
            out.push('}');
        }
        Value::Array(items) if items.iter().any(Value::is_object) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                indent(depth + 1, out);
                write_pretty(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            indent(depth, out);
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// A generated file on disk that differs from what the code generates.
#[derive(Debug)]
pub struct Drift {
    /// The generated file's path, relative to the root compared.
    pub file: String,
    /// Unified diff from the file on disk (`-`) to what is generated (`+`).
    pub diff: String,
}

/// Compares the files under `root` with what `render` generates; returns
/// those that differ. A file that is not there is drift (it would be new);
/// a root that is not a readable directory, or a file that cannot be read,
/// is an error naming the path: there is nothing to compare with.
pub fn check(root: &Path, files: &[(String, String)]) -> std::io::Result<Vec<Drift>> {
    let named = |path: &Path, e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    std::fs::read_dir(root).map_err(|e| named(root, e))?;
    let mut drift = Vec::new();
    for (name, want) in files {
        let path = root.join(name);
        let have = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(named(&path, e)),
        };
        if &have != want {
            drift.push(Drift {
                diff: crate::base::diff::unified_diff(
                    &have,
                    want,
                    &format!("{name} (on disk)"),
                    &format!("{name} (generated)"),
                ),
                file: name.clone(),
            });
        }
    }
    Ok(drift)
}

/// Writes every generated file under `root`, each atomically (a temporary file renamed into place).
pub fn write(root: &Path, files: &[(String, String)]) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    for (name, text) in files {
        let path = root.join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        crate::base::fsutil::write_atomic(&path, text.as_bytes())?;
        names.push(name.clone());
    }
    Ok(names)
}
