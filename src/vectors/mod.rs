//! The canonical vectors: one Wycheproof-style file per scheme under
//! `vectors/`, and the web page's self-test bundle.
//!
//! Each scheme lists its cases as data in its own `vectors.rs`: a comment and
//! the request in its wire form. Cases are chosen to force branches, not
//! sampled: rejections at every byte width and exactly at the limit, block
//! boundaries, clamps, rounding ties, and every field over its whole domain
//! ([`VectorSet::edges`]: the edge texts and integers of [`crate::gen`] in
//! every field of every op).
//!
//! Negative cases (`result: "invalid"`, as Wycheproof marks them) are
//! request lines every implementation must refuse: each single-fault
//! mutation of a valid request ([`crate::negative::variants`]), kept as the
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

use serde_json::{json, Map, Value};

use crate::error::MAX_SAFE_INTEGER;
use crate::negative::Invalid;
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
    // The whole domain of every field (valid cases).
    ("LongKey", "A server seed over 64 bytes: HMAC hashes a key longer than its block before use (RFC 2104, the long-key branch), and its SHA-256 commitment spans two blocks. An implementation that cuts keys to 64 bytes diverges."),
    ("LongText", "A client seed or tournament id over 64 bytes: the HMAC message spans several SHA-256 blocks. An implementation with a fixed-size message buffer diverges."),
    ("HugeText", "A text of 10,000 bytes or more. An implementation that caps the input's length (a form's maxlength, a fixed buffer) diverges."),
    ("LongInBytes", "A text of at most 64 characters but over 64 UTF-8 bytes. An implementation that measures a key in characters (JavaScript's string.length) instead of bytes does not hash it and diverges."),
    ("Astral", "A character outside the BMP: four UTF-8 bytes, a surrogate pair in UTF-16. An encoder that encodes each UTF-16 unit on its own (CESU-8) diverges."),
    ("AllPlanes", "Characters from all 17 Unicode planes, assigned or not; all are Unicode scalar values that UTF-8 encodes."),
    ("HighBmp", "A character in U+E000-U+FFFF (private use, specials, U+FFFD, the noncharacters U+FFFE and U+FFFF): legal in JSON and UTF-8. A UTF-8 encoder that throws on or mis-encodes three-byte sequences above the surrogates diverges."),
    ("PrivateUse", "A private-use character (U+E000-U+F8FF, planes 15 and 16). An implementation that filters or replaces private-use characters diverges."),
    ("Noncharacter", "A noncharacter (U+FDD0-U+FDEF, U+xFFFE, U+xFFFF): legal in JSON and UTF-8 (Unicode Corrigendum #9). An implementation that rejects or replaces it with U+FFFD diverges."),
    ("Decomposed", "A combining mark after its base letter (decomposed, NFD-like text): other bytes than the composed form, so another MAC. An implementation that normalizes Unicode (NFC) before hashing diverges."),
    ("Compatibility", "A compatibility character (a ligature, a fullwidth letter, a superscript digit). An implementation that normalizes with NFKC before hashing diverges."),
    ("Whitespace", "Leading or trailing whitespace. An implementation that trims its input diverges."),
    ("Control", "A control character (a tab, DEL, U+0085). An implementation that strips control characters diverges."),
    ("Invisible", "A byte-order mark or a zero-width character (U+FEFF, U+200B-U+200D, U+2060, U+00AD). An implementation that strips a BOM or invisible characters diverges."),
    ("Escapes", "A quote or a backslash: escaped on the wire, hashed unescaped. An implementation that hashes the escaped text diverges."),
    ("MinValue", "A size at its smallest allowed value (count 0, range 1, size 1, players 2, decks 1). An implementation with an off-by-one lower bound answers invalid."),
    ("MaxValue", "A size at its largest allowed value (count and size 100,000, players 22, decks 8). An implementation with an off-by-one upper bound answers invalid."),
    ("Int32Edge", "An integer at 2^31-1 or 2^31, the edge of a signed 32-bit integer. `x | 0` or an int32 turns 2^31 into -2^31."),
    ("Uint32Edge", "An integer at 2^32-1 or 2^32. `x >>> 0`, a u32 or a 4-byte buffer wraps 2^32 to 0."),
    ("FractionEdge", "A penetration at the smallest positive double (5e-324) or the largest below 1 (0.9999999999999999): still valid. A check such as p >= 0.01, or a penetration rounded before use, answers invalid or moves the cut."),
    ("ByteWidthEdge", "A range at 256^k - 1, 256^k or 256^k + 1: the byte count steps from k to k + 1 between 256^k and 256^k + 1. A byte count from a floating-point logarithm, or `>` for `>=`, reads one byte too many or too few."),
    ("RejectAtLimit1", "A one-byte draw reads exactly its rejection limit 256 - 256 mod m, the smallest value rejected. An implementation that compares with `>` instead of `>=` keeps it."),
    ("KeepBelowLimit1", "A one-byte draw reads its rejection limit minus one, the largest value kept. An implementation whose limit is one too low rejects it."),
    ("RejectAtLimit2", "A two-byte draw reads exactly its rejection limit 65536 - 65536 mod m. An implementation that compares with `>` instead of `>=` keeps it."),
    ("KeepBelowLimit2", "A two-byte draw reads its rejection limit minus one, the largest value kept. An implementation whose limit is one too low rejects it."),
    ("CursorAbove53", "The cursor passes 2^53-1 during the request. A JavaScript implementation that keeps the cursor in a Number writes the wrong MAC message or cursorNext."),
    ("Above16Bits", "More than 65,536 positions: an index no longer fits 16 bits, and the cursor shuffle's draws read three bytes. An implementation that keeps the order in a Uint16Array or u16 diverges."),
    ("Heavy", "A long computation (a count or size above 10,000). Left out of the web page's self-test bundle, which lists it under `omitted`; the harness and the JavaScript tests run it."),
    ("TieByRounding", "total × penetration is not n + 0.5 exactly, but its binary64 product is (the penetration is a decimal, not a binary fraction). An implementation that multiplies exactly (decimal or rational arithmetic) rounds the other way."),
    ("NearTie", "The binary64 product total × penetration is one ulp from n + 0.5. An implementation that rounds the penetration's decimal text, or adds an epsilon against float error, rounds the other way."),
    ("CardEdge", "The cards include card 0 or card 51. An evaluator that indexes ranks or suits off by one diverges."),
    // Negative cases (result: invalid).
    ("MissingField", "A required field is missing. The request is invalid; an implementation that fills in a default answers ok."),
    ("ExtraField", "A field the op does not take (a typo, another case, __proto__). The request is invalid, so that a typo cannot pass silently."),
    ("WrongType", "A field of the wrong JSON type (null, a boolean, a list, an object, a number for a string). The request is invalid; an implementation that coerces types answers ok."),
    ("NumericString", "A number sent as a string (\"5\"). The request is invalid; an implementation that coerces (Number(x), int(x)) answers ok."),
    ("FloatInteger", "A float where an integer is required (1.0, 1e0). The request is invalid; JSON.parse cannot tell 1.0 from 1, so a JavaScript reader needs a stricter parser."),
    ("BelowLimit", "A value one step below its field's limit (range 0, players 1, decks 0, size 0, -1, penetration 0, four cards). The request is invalid."),
    ("NegativeZero", "An integer field given -0, where the field's minimum is 1 or more: -0 is not a protocol integer, and a reader that takes it for 0 finds it below the minimum. The request is invalid."),
    ("AboveLimit", "A value one step above its field's limit (2^53, count 100,001, players 23, decks 9, penetration 1, card 52, eight cards, a seed of 2^63). The request is invalid."),
    ("DuplicateKey", "A key given twice, with the same value. The request is invalid (docs/protocol.md); a reader that keeps the last value answers ok. The line is not a JSON value to a strict reader, so the answer's id may be null."),
    ("DuplicateCard", "The same card twice. The request is invalid."),
    ("NotDecimal", "A selfpoker seed that is not plain decimal digits (a leading zero, a sign, a space, an exponent, hex, an underscore, non-ASCII digits). The request is invalid; Python's int() and JavaScript's BigInt() accept several of these."),
    ("LoneSurrogate", "A string with a lone surrogate escape (\"\\ud800\"): not a Unicode scalar value, so not text. The request is invalid; a UTF-8 encoder would turn it into U+FFFD or throw."),
    ("IllegalSituation", "Every field within its limits, but a situation the op refuses by its own rules: a bust hand (hard total over 21), `canDouble` with more than two cards, `canSplit` without a two-card pair. The published function answers these (a bust hand `stehen`); an implementation that does too answers ok."),
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
pub fn derived_flags(r: &Request) -> Vec<&'static str> {
    let mut flags = Vec::new();
    for f in input_flags(r).into_iter().chain((r.spec().flags)(r)) {
        if !flags.contains(&f) {
            flags.push(f);
        }
    }
    flags
}

/// Flags about the input itself, the same for every op.
fn input_flags(r: &Request) -> Vec<&'static str> {
    let mut flags = Vec::new();
    let secret = r.spec().secret.map(|s| s.field);
    for f in r.spec().fields {
        match (f.kind, r.get(f.name)) {
            (Kind::Text, Some(Arg::Text(s))) => text_flags(s, secret == Some(f.name), &mut flags),
            (Kind::Int { min, max, size }, Some(Arg::Int(v))) => {
                int_flags(*v, &mut flags);
                if size && *v == min {
                    flags.push("MinValue");
                }
                if size && *v == max && max < MAX_SAFE_INTEGER {
                    flags.push("MaxValue");
                }
            }
            (Kind::DecimalSeed, Some(Arg::Seed(v))) => int_flags(*v, &mut flags),
            (Kind::Fraction, Some(Arg::Number(p))) if *p == f64::from_bits(1) || *p == 1.0 - f64::EPSILON / 2.0 => {
                flags.push("FractionEdge");
            }
            _ => {}
        }
    }
    flags
}

fn int_flags(v: u64, flags: &mut Vec<&'static str>) {
    if v == MAX_SAFE_INTEGER {
        flags.push("MaxSafeInteger");
    }
    if v == (1 << 31) - 1 || v == 1 << 31 {
        flags.push("Int32Edge");
    }
    if v == (1 << 32) - 1 || v == 1 << 32 {
        flags.push("Uint32Edge");
    }
}

/// What a text holds, by class of character and by UTF-8 length.
fn text_flags(s: &str, secret: bool, flags: &mut Vec<&'static str>) {
    let any = |p: fn(u32) -> bool| s.chars().any(|c| p(u32::from(c)));
    let hex = s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let planes: std::collections::BTreeSet<u32> = s.chars().map(|c| u32::from(c) >> 16).collect();
    let edge = |c: Option<char>| c.is_some_and(char::is_whitespace);
    let checks = [
        (s.is_empty(), "EmptySeed"),
        (!s.is_ascii(), "Unicode"),
        (s.contains(':'), "Colon"),
        (secret && !hex, "NotHex"),
        (secret && s.len() > 64, "LongKey"),
        (!secret && s.len() > 64, "LongText"),
        (s.len() >= 10_000, "HugeText"),
        (s.encode_utf16().count() <= 64 && s.len() > 64, "LongInBytes"),
        (any(|c| c > 0xffff), "Astral"),
        (planes.len() == 17, "AllPlanes"),
        (any(|c| (0xe000..=0xffff).contains(&c)), "HighBmp"),
        (any(is_private_use), "PrivateUse"),
        (any(is_noncharacter), "Noncharacter"),
        (any(is_combining), "Decomposed"),
        (any(is_compatibility), "Compatibility"),
        (edge(s.chars().next()) || edge(s.chars().last()), "Whitespace"),
        (s.chars().any(char::is_control), "Control"),
        (
            any(|c| matches!(c, 0xfeff | 0x200b..=0x200d | 0x2060 | 0xad)),
            "Invisible",
        ),
        (s.contains(['"', '\\']), "Escapes"),
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
        let request = Request::parse(&input).unwrap_or_else(|e| panic!("vector {comment:?}: {e}"));
        self.cases.push(Case {
            comment,
            tags: Vec::new(),
            request,
        });
        self.cases.last_mut().expect("just pushed")
    }

    /// Adds `base` with each field in turn set to each of its edge values:
    /// every edge text of [`crate::gen::edge_texts`] in every text field,
    /// every integer of [`crate::gen::edge_ints`] in every integer field.
    ///
    /// # Panics
    /// When `base` is not a valid request.
    #[allow(clippy::needless_pass_by_value, reason = "cases are written as json! literals")]
    pub fn edges(&mut self, base: Value) {
        let request = Request::parse(&base).unwrap_or_else(|e| panic!("edges of {base}: {e}"));
        for f in request.spec().fields {
            let values: Vec<(String, Value)> = match f.kind {
                Kind::Text => crate::gen::edge_texts()
                    .into_iter()
                    .map(|(what, text)| (what.to_string(), Value::from(text)))
                    .collect(),
                Kind::Int { min, max, .. } => crate::gen::edge_ints(min, max)
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
    pub fn add_invalid(&mut self, invalid: Invalid) {
        if let Err(answer) = invalid.check() {
            panic!(
                "invalid vector {:?} ({}) is answered {answer}",
                invalid.comment, invalid.line
            );
        }
        self.invalid.push(invalid);
    }

    /// Adds every single-fault mutation of a valid request ([`crate::negative::variants`]).
    ///
    /// # Panics
    /// When `input` is not a valid request, or a mutation is not answered `invalid`.
    #[allow(clippy::needless_pass_by_value, reason = "cases are written as json! literals")]
    pub fn variants(&mut self, input: Value) {
        let request = Request::parse(&input).unwrap_or_else(|e| panic!("variants of {input}: {e}"));
        for invalid in crate::negative::variants(&request) {
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
    pub scheme: &'static Scheme,
    pub cases: Vec<Case>,
    /// Request lines every implementation must answer `invalid`; their
    /// tcIds follow the valid cases' ([`Vectors::invalid_tc_id`]).
    pub invalid: Vec<Invalid>,
}

impl Vectors {
    /// The tcId of `invalid[index]` in the scheme's file.
    pub fn invalid_tc_id(&self, index: usize) -> usize {
        self.cases.len() + index + 1
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
            let sets: Vec<_> = crate::op::schemes()
                .iter()
                .map(|&scheme| {
                    scope.spawn(move || {
                        let mut set = VectorSet::default();
                        (scheme.vectors)(&mut set);
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
pub const GENERATOR: &str = concat!("provably ", env!("CARGO_PKG_VERSION"));

/// Runs a scheme's cases and lays them out as its vector file.
pub fn file(v: &Vectors) -> Value {
    let mut groups: Vec<(&'static str, Vec<Value>)> = Vec::new();
    let mut used: Vec<&'static str> = Vec::new();
    let mut place = |op: &'static str, flags: &[&'static str], test: Value| {
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
        "numberOfTests": v.cases.len() + v.invalid.len(),
        "notes": notes,
        "testGroups": groups.into_iter().map(|(op, tests)| json!({ "op": op, "tests": tests })).collect::<Vec<_>>(),
    })
}

/// Why a test is left out of the self-test bundle.
pub const OMITTED_NOTE: &str = "Heavy vectors (a count or size above 10,000) are left out so that the page's self-test stays well under a second; the vector files hold them, and the harness and the JavaScript tests run them.";

/// The web page's self-test: every vector of every scheme, flattened, but
/// the heavy ones, which it names under `omitted`.
pub fn selftest(files: &[Value]) -> Value {
    let mut tests = Vec::new();
    let mut omitted = Vec::new();
    for f in files {
        for group in f["testGroups"].as_array().into_iter().flatten() {
            for t in group["tests"].as_array().into_iter().flatten() {
                if t["flags"].as_array().is_some_and(|fl| fl.iter().any(|x| x == "Heavy")) {
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
    out.push(("vectors/proofs.json".into(), pretty(&crate::proof::vectors::file())));
    out.push(("vectors/proof.schema.json".into(), pretty(&crate::schema::proof())));
    out.push((
        "harness/protocol.schema.json".into(),
        pretty(&crate::schema::protocol()),
    ));
    out.push((
        "harness/report.schema.json".into(),
        pretty(&crate::harness::report::schema()),
    ));
    out
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
    pub file: String,
    pub diff: String,
}

/// Compares the files under `root` with what [`render`] generates; returns
/// those that differ. A file that is not there is drift (it would be new);
/// a root that is not a readable directory, or a file that cannot be read,
/// is an error naming the path: there is nothing to compare with.
pub fn check(root: &Path) -> std::io::Result<Vec<Drift>> {
    let named = |path: &Path, e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    std::fs::read_dir(root).map_err(|e| named(root, e))?;
    let mut drift = Vec::new();
    for (name, want) in render() {
        let path = root.join(&name);
        let have = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(named(&path, e)),
        };
        if have != want {
            drift.push(Drift {
                diff: crate::report::unified_diff(
                    &have,
                    &want,
                    &format!("{name} (on disk)"),
                    &format!("{name} (generated)"),
                ),
                file: name,
            });
        }
    }
    Ok(drift)
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
