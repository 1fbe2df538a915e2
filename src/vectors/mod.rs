//! The canonical vectors: one Wycheproof-style file per scheme under
//! `vectors/`, and the web page's self-test bundle.
//!
//! Each scheme lists its cases as data in its own `vectors.rs`: a comment and
//! the request in its wire form. Cases are chosen to force branches, not
//! sampled: rejections at every byte width, block boundaries, clamps,
//! rounding ties, Unicode, the largest integers.
//!
//! Flags are derived, never asserted by hand, so a flag cannot claim a branch
//! the case does not reach: flags about the input (an empty seed, a value at
//! 2^53−1) are read off the request, flags about the computation (a
//! rejection, a clamp) are read off a trace of it by the op's own `flags`.
//! The only flag a case is tagged with by hand is its provenance
//! (`Published`). A file carries the notes of the flags it uses, and no others.

use std::path::Path;

use serde_json::{json, Map, Value};

use crate::error::MAX_SAFE_INTEGER;
use crate::op::{Arg, Kind, Request, Scheme};

/// Every flag and what it catches. A vector file carries the notes of the
/// flags its cases use.
pub const NOTES: &[(&str, &str)] = &[
    ("Published", "The case is printed by the published program (`referenz.py vektoren` on the seed 003 page)."),
    ("EmptySeed", "An empty seed or id: the message starts with its separator, or the HMAC key is empty."),
    ("Unicode", "Non-ASCII text (combining marks, eszett, emoji); keys and messages are UTF-8 bytes."),
    ("Colon", "A colon inside a seed or id: the message is never parsed back, so the colon must simply be kept."),
    ("NotHex", "A server seed that is not 64 lowercase hex characters. The key is the text; decoding hex would give another MAC."),
    ("MaxSafeInteger", "An integer field at 2^53-1, the largest integer a JavaScript Number holds exactly."),
    ("Rejection", "At least one attempt is rejected (value at or above 256^k - 256^k mod range), so the cursor moves more than once. Guards against modulo bias and against not advancing the cursor on rejection."),
    ("MultiByte", "A draw needs more than one byte. Guards against reading a fixed byte count."),
    ("LargeRange", "The range is above 2^32. Guards against 32-bit arithmetic and JavaScript Number overflow in 256^k."),
    ("RangeOne", "Range 1 returns 0 and moves the cursor by one without a MAC."),
    ("NonzeroCursor", "The shuffle starts at a cursor other than 0."),
    ("SmallFloat", "A float below 1e-4, where Python's repr switches to scientific notation."),
    ("DealPositions", "Hole cards at (i, n+i), burns before flop, turn and river."),
    ("MaxPlayers", "22 players: the river is the deck's last card (position 51)."),
    ("Category", "A hand of the category in its comment; every category appears."),
    ("Wheel", "The cards hold A-2-3-4-5, the five-high straight, where the ace counts one."),
    ("SevenCards", "Best five of seven: the evaluator must choose among subsets."),
    ("CutClampLow", "base + offset falls below max(20, round(total × 0.5)) and is clamped up."),
    ("CutClampHigh", "base + offset rises above total − 15 and is clamped down."),
    ("RoundTie", "total × penetration ends in .5 exactly: JavaScript's Math.round goes up, Python's round and banker's rounding go to even."),
    ("TwoByteDraws", "More than 256 cards: the first draws read two bytes."),
    ("Rejection1", "A one-byte draw is rejected and one fresh byte read."),
    ("Rejection2", "A two-byte draw is rejected and two fresh bytes read."),
    ("BlockBoundary", "The draws run past the first HMAC block into the next one (message `...:1`)."),
    ("Tournament", "Client seed `T:k` and nonce k; consecutive hands of one tournament."),
    ("LateByte", "Byte 0 of the MAC is 252 or more, so the face comes from a later byte. The page's formula reads byte 0 only; its published code, the specification, scans on."),
    ("NumpyEdge", "A seed at an edge of numpy's SeedSequence word split: 0, 1, 2^32-1, 2^32, 2^62, 2^63-1."),
    ("JsUnsafe", "A seed above 2^53: it must travel as a string and be handled as a BigInt in JavaScript."),
    ("DefaultSize", "The published game's 25 cases."),
    ("Pair", "`canSplit` with a two-card pair: the pair chart is read first, before the soft and hard charts."),
    ("TenPair", "Two ten-valued cards of different rank (K,10) with splitting allowed: a pair by count value (`istPaar`), not by rank, so the pair chart is read."),
    ("AcePair", "A,A: a pair and soft 12 at once; played as a pair when splitting is allowed, the order the published comment insists on."),
    ("Soft", "The soft chart decides: an ace counts 11."),
    ("Hard", "The hard chart decides: no ace counts 11."),
    ("SoftTwelve", "A,A that may not be split is soft 12, below the published soft branch (13 to 19): it is played by the hard 12 row and stands against 4, 5 and 6."),
    ("SoftTotalEdge", "Soft 13, 19 or 20: a bound of the published soft branches (`summe >= 13 && summe <= 19`, then `soft && summe >= 20`)."),
    ("HardTotalEdge", "Hard 12, 13, 16 or 17: a bound of the published hard stand lines (12 against 4 to 6, 13 to 16 against 2 to 6, 17 and up always)."),
    ("DoubleRefused", "The cell doubles but `canDouble` is false: soft 18 and soft 19 then stand, every other doubling cell hits."),
    ("AceCountsOne", "An ace counts 1 (a hard hand holding an ace, or a second ace in a soft hand): the hand value must count aces down, not add 11 for each."),
    ("MultiCard", "Three or more cards: the total comes from more than two cards, and neither doubling nor splitting is allowed."),
    ("MaxCards", "21 cards (21 aces), the longest hand that is not bust; a card number repeats up to six times (6 decks)."),
    ("FourFourNoDas", "4,4 with splitting allowed and `doubleAfterSplit` false: reaches the only published line that reads the DAS rule; it comes after the split test and changes no answer."),
    ("WithoutDas", "`doubleAfterSplit` false: the published table answers as with DAS."),
    ("DealerAce", "The up-card is an ace: count value 11, not 1."),
    ("TwoCardTwentyOne", "An ace and a ten-valued card: allowed (after a split it is an ordinary 21), answered `stehen`."),
];

/// One vector before it is run: why it is there and what it asks.
pub struct Case {
    pub comment: String,
    /// Provenance flags, the only ones set by hand.
    pub tags: Vec<&'static str>,
    pub request: Request,
}

impl Case {
    /// Tags the case with where it comes from (`Published`).
    pub fn tag(&mut self, flag: &'static str) -> &mut Case {
        self.tags.push(flag);
        self
    }

    /// The case's flags: its tags, then what its input is, then what its
    /// computation did.
    pub fn flags(&self) -> Vec<&'static str> {
        let mut flags = self.tags.clone();
        let derived = input_flags(&self.request)
            .into_iter()
            .chain((self.request.spec().flags)(&self.request));
        for f in derived {
            if !flags.contains(&f) {
                flags.push(f);
            }
        }
        flags
    }
}

/// Flags about the input itself, the same for every op.
fn input_flags(r: &Request) -> Vec<&'static str> {
    let mut flags = Vec::new();
    let secret = r.spec().secret.map(|s| s.field);
    for f in r.spec().fields {
        match (f.kind, r.get(f.name)) {
            (Kind::Text, Some(Arg::Text(s))) => {
                if s.is_empty() {
                    flags.push("EmptySeed");
                }
                if !s.is_ascii() {
                    flags.push("Unicode");
                }
                if s.contains(':') {
                    flags.push("Colon");
                }
                let hex = s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
                if secret == Some(f.name) && !hex {
                    flags.push("NotHex");
                }
            }
            (Kind::Int { .. }, Some(Arg::Int(v))) if *v == MAX_SAFE_INTEGER => flags.push("MaxSafeInteger"),
            _ => {}
        }
    }
    flags
}

/// The cases of one scheme, as its `vectors.rs` lists them.
#[derive(Default)]
pub struct VectorSet {
    pub cases: Vec<Case>,
}

impl VectorSet {
    /// Adds a case from its wire form (a request without `id`).
    ///
    /// # Panics
    /// When the input is not a valid request: the vector list is wrong.
    #[allow(clippy::needless_pass_by_value, reason = "cases are written as json! literals")]
    pub fn add(&mut self, comment: impl Into<String>, input: Value) -> &mut Case {
        let comment = comment.into();
        let request = Request::parse(&input).unwrap_or_else(|e| panic!("vector {comment:?}: {e}"));
        self.cases.push(Case {
            comment,
            tags: Vec::new(),
            request,
        });
        self.cases.last_mut().expect("just pushed")
    }
}

/// A scheme's vectors, built once.
pub struct Vectors {
    pub scheme: &'static Scheme,
    pub cases: Vec<Case>,
}

/// Every scheme's vectors, before they are run. Built once: several cases
/// are found by searching (the first cursor with a rejection, …).
pub fn schemes() -> &'static [Vectors] {
    static ALL: std::sync::OnceLock<Vec<Vectors>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        crate::op::schemes()
            .iter()
            .map(|&scheme| {
                let mut set = VectorSet::default();
                (scheme.vectors)(&mut set);
                Vectors {
                    scheme,
                    cases: set.cases,
                }
            })
            .collect()
    })
}

/// The generator named in every file.
pub const GENERATOR: &str = concat!("provably ", env!("CARGO_PKG_VERSION"));

/// Runs a scheme's cases and lays them out as its vector file.
pub fn file(v: &Vectors) -> Value {
    let mut groups: Vec<(&'static str, Vec<Value>)> = Vec::new();
    let mut used: Vec<&'static str> = Vec::new();
    for (i, c) in v.cases.iter().enumerate() {
        let expected = c
            .request
            .run_value()
            .unwrap_or_else(|e| panic!("vector {:?} fails: {e}", c.comment));
        let flags = c.flags();
        used.extend(flags.iter().filter(|f| !used.contains(f)).copied().collect::<Vec<_>>());
        let test = json!({
            "tcId": i + 1,
            "comment": c.comment,
            "flags": flags,
            "input": c.request.to_value(),
            "expected": expected,
        });
        let op = c.request.op();
        match groups.iter_mut().find(|(o, _)| *o == op) {
            Some((_, tests)) => tests.push(test),
            None => groups.push((op, vec![test])),
        }
    }
    if let Some(f) = used.iter().find(|f| !NOTES.iter().any(|(n, _)| n == *f)) {
        panic!("flag {f} has no note in vectors::NOTES");
    }
    let notes: Map<String, Value> = NOTES
        .iter()
        .filter(|(f, _)| used.contains(f))
        .map(|(f, note)| ((*f).to_string(), Value::from(*note)))
        .collect();
    json!({
        "scheme": v.scheme.name,
        "source": v.scheme.source,
        "generatorVersion": GENERATOR,
        "numberOfTests": v.cases.len(),
        "notes": notes,
        "testGroups": groups.into_iter().map(|(op, tests)| json!({ "op": op, "tests": tests })).collect::<Vec<_>>(),
    })
}

/// The web page's self-test: every vector of every scheme, flattened.
pub fn selftest(files: &[Value]) -> Value {
    let mut tests = Vec::new();
    for f in files {
        for group in f["testGroups"].as_array().into_iter().flatten() {
            for t in group["tests"].as_array().into_iter().flatten() {
                let mut t = t.as_object().unwrap().clone();
                t.insert("scheme".into(), f["scheme"].clone());
                tests.push(Value::Object(t));
            }
        }
    }
    json!({ "generator": GENERATOR, "numberOfTests": tests.len(), "tests": tests })
}

/// Every file `provably vectors` writes, as (path relative to the repository root, text).
pub fn render() -> Vec<(String, String)> {
    let files: Vec<Value> = schemes().iter().map(file).collect();
    let mut out: Vec<(String, String)> = files
        .iter()
        .map(|f| (format!("vectors/{}.json", f["scheme"].as_str().unwrap()), pretty(f)))
        .collect();
    out.push((
        "vectors/selftest.json".into(),
        serde_json::to_string(&selftest(&files)).unwrap() + "\n",
    ));
    out.push(("vectors/vectors.schema.json".into(), pretty(&crate::schema::vectors())));
    out.push((
        "harness/protocol.schema.json".into(),
        pretty(&crate::schema::protocol()),
    ));
    out
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap() + "\n"
}

/// A generated file on disk that differs from what the code generates.
#[derive(Debug)]
pub struct Drift {
    pub file: String,
    pub diff: String,
}

/// Compares the files under `root` with what [`render`] generates; returns those that differ.
pub fn check(root: &Path) -> Vec<Drift> {
    render()
        .into_iter()
        .filter_map(|(name, want)| {
            let have = std::fs::read_to_string(root.join(&name)).unwrap_or_default();
            (have != want).then(|| Drift {
                diff: crate::report::unified_diff(
                    &have,
                    &want,
                    &format!("{name} (on disk)"),
                    &format!("{name} (generated)"),
                ),
                file: name,
            })
        })
        .collect()
}

/// Writes every generated file under `root`, each atomically (a temporary file renamed into place).
pub fn write(root: &Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    for (name, text) in render() {
        let path = root.join(&name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        crate::fsutil::write_atomic(&path, text.as_bytes())?;
        names.push(name);
    }
    Ok(names)
}
