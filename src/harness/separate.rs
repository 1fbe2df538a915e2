//! What separates the diverging cases of an op from the agreeing ones: the
//! simplest property of the request fields that holds for every diverging
//! case and for no agreeing one, or for nearly all, with the counts.
//!
//! A run never keeps its cases, so each case is reduced as it streams to a
//! few *atoms* per field ([`Profile`]): the classes of characters a text
//! holds (empty, non-ASCII, beyond latin-1, astral, U+E000–U+FFFF, white
//! space at its ends, an upper-case letter, hex digits, a colon) and its
//! length past HMAC's block; an integer's binary and decimal magnitude
//! and, below 65, its value; a fraction's sixteenth; a flag. Counts of
//! atoms add up across copies of the target, so the same seed gives the
//! same profile whatever `--jobs` is. Every candidate [`Property`] (a text
//! class, `nonce ≥ 10^15`, `size ≥ 10`, `decks = 8`, `penetration ≥ 3/4`)
//! is counted from the atoms of the diverging and of the agreeing cases.
//!
//! Counts only suggest; a property is printed once targeted cases confirm
//! it ([`confirm`]): the diverging examples with the property taken away
//! (every non-ASCII character made `a`, the nonce one below the threshold)
//! must agree, and the property put into a request (`é` as the seed, the
//! nonce at the threshold) must make at least one diverge. A threshold is
//! so confirmed only where it is exact: `T − 1` agrees, `T` diverges.

use serde_json::Value;

use crate::op::{Arg, Kind, Request};

/// A class of characters a text field may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum TextClass {
    Empty,
    NonAscii,
    BeyondLatin1,
    Astral,
    BmpHigh,
    EdgeSpace,
    Upper,
    Hex,
    Colon,
}

const CLASSES: [TextClass; 9] = [
    TextClass::Empty,
    TextClass::NonAscii,
    TextClass::BeyondLatin1,
    TextClass::Astral,
    TextClass::BmpHigh,
    TextClass::EdgeSpace,
    TextClass::Upper,
    TextClass::Hex,
    TextClass::Colon,
];

impl TextClass {
    fn of(self, s: &str) -> bool {
        TextClass::set(s) & self.bit() != 0
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }

    /// Every class `s` is of, as bits: one walk over its bytes, and one over
    /// its characters only when it has a wider one. Every agreeing case is
    /// profiled, and a 10,000-byte seed walked once per class cost the
    /// harness more than its expected answers' formatting.
    fn set(s: &str) -> u16 {
        let bytes = s.as_bytes();
        // No early exit, so the walk runs in vector registers.
        let (mut upper, mut not_hex, mut colon, mut wide) = (false, false, false, false);
        for &b in bytes {
            upper |= b.wrapping_sub(b'A') < 26;
            not_hex |= !(b.wrapping_sub(b'0') < 10 || (b | 0x20).wrapping_sub(b'a') < 6);
            colon |= b == b':';
            wide |= b >= 0x80;
        }
        let (mut beyond_latin1, mut astral, mut bmp_high) = (false, false, false);
        if wide {
            for c in s.chars() {
                beyond_latin1 |= u32::from(c) > 0xff;
                astral |= u32::from(c) > 0xffff;
                bmp_high |= ('\u{e000}'..='\u{ffff}').contains(&c);
            }
        }
        let edge_space = [s.chars().next(), s.chars().next_back()]
            .into_iter()
            .flatten()
            .any(|c| c.is_whitespace() || c == '\u{feff}');
        let even_hex = !s.is_empty() && s.len() % 2 == 0 && !not_hex;
        [
            (TextClass::Empty, s.is_empty()),
            (TextClass::NonAscii, wide),
            (TextClass::BeyondLatin1, beyond_latin1),
            (TextClass::Astral, astral),
            (TextClass::BmpHigh, bmp_high),
            (TextClass::EdgeSpace, edge_space),
            (TextClass::Upper, upper),
            (TextClass::Hex, even_hex),
            (TextClass::Colon, colon),
        ]
        .into_iter()
        .filter(|&(_, is)| is)
        .fold(0, |set, (c, _)| set | c.bit())
    }

    /// The words after the field's name.
    fn words(self) -> &'static str {
        match self {
            TextClass::Empty => "is empty",
            TextClass::NonAscii => "has a non-ASCII character",
            TextClass::BeyondLatin1 => "has a character beyond latin-1 (above U+00FF)",
            TextClass::Astral => "has an astral character (above U+FFFF)",
            TextClass::BmpHigh => "has a character in U+E000…U+FFFF",
            TextClass::EdgeSpace => "starts or ends with white space",
            TextClass::Upper => "has an upper-case ASCII letter",
            TextClass::Hex => "is an even number of hex digits",
            TextClass::Colon => "holds a colon",
        }
    }

    /// Texts of the class, to put into a request.
    fn exemplars(self) -> &'static [&'static str] {
        match self {
            TextClass::Empty => &[""],
            TextClass::NonAscii => &["\u{e9}", "\u{65e5}\u{672c}", "\u{1f600}"],
            TextClass::BeyondLatin1 => &["\u{20ac}", "\u{65e5}\u{672c}"],
            TextClass::Astral => &["\u{1f600}", "\u{10348}"],
            TextClass::BmpHigh => &["\u{e000}", "\u{feff}", "\u{fffd}"],
            TextClass::EdgeSpace => &[" s", "s\t"],
            TextClass::Upper => &["S", "ABC"],
            TextClass::Hex => &["00", "a3f1"],
            TextClass::Colon => &["a:b", ":"],
        }
    }

    /// The text with the class taken away, changing as little as it can.
    fn without(self, s: &str) -> String {
        let map = |keep: &dyn Fn(char) -> bool| s.chars().map(|c| if keep(c) { c } else { 'a' }).collect();
        match self {
            TextClass::Empty => "a".into(),
            TextClass::NonAscii => map(&|c| c.is_ascii()),
            TextClass::BeyondLatin1 => map(&|c| u32::from(c) <= 0xff),
            TextClass::Astral => map(&|c| u32::from(c) <= 0xffff),
            TextClass::BmpHigh => map(&|c| !('\u{e000}'..='\u{ffff}').contains(&c)),
            TextClass::EdgeSpace => s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}').into(),
            TextClass::Upper => s.to_ascii_lowercase(),
            TextClass::Hex => format!("{s}x"),
            TextClass::Colon => s.replace(':', ";"),
        }
    }
}

/// One observation of one field of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Atom {
    Text(TextClass),
    /// More than 64 UTF-8 bytes: over HMAC's block, where a key is hashed first.
    Over64Bytes,
    /// An integer's value, if it is at most 64.
    Small(u8),
    /// An integer above 64.
    Large,
    /// ⌊log2 v⌋ of an integer v ≥ 1.
    Log2(u8),
    /// The number of decimal digits of an integer.
    Digits(u8),
    /// ⌊16 p⌋ of a fraction p.
    Sixteenth(u8),
    Bool(bool),
}

/// The atoms of every case seen, by field position; a run holds a few
/// hundred counts per group, never its cases.
///
/// Counted in a flat table, one row of [`ATOMS`] counts per field: every
/// agreeing case of a run passes through [`Profile::add`], and a tree of
/// `(field, atom)` keys cost a deep harness run a tenth of its time.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Profile {
    pub cases: u64,
    counts: Vec<[u64; ATOMS]>,
}

/// How many atoms there are: each has a place in a field's row.
const ATOMS: usize = 179;

impl Atom {
    /// The atom's place in a row of [`Profile`]'s table.
    fn slot(self) -> usize {
        match self {
            Atom::Text(c) => c as usize,
            Atom::Over64Bytes => 9,
            Atom::Small(v) => 10 + usize::from(v),
            Atom::Large => 75,
            Atom::Log2(l) => 76 + usize::from(l),
            Atom::Digits(d) => 140 + usize::from(d),
            Atom::Sixteenth(s) => 161 + usize::from(s),
            Atom::Bool(b) => 177 + usize::from(b),
        }
    }

    /// The atom at `slot`.
    #[allow(clippy::cast_possible_truncation, reason = "slots are below 179")]
    fn at(slot: usize) -> Atom {
        let small = |base: usize| (slot - base) as u8;
        match slot {
            0..=8 => Atom::Text(CLASSES[slot]),
            9 => Atom::Over64Bytes,
            10..=74 => Atom::Small(small(10)),
            75 => Atom::Large,
            76..=139 => Atom::Log2(small(76)),
            140..=160 => Atom::Digits(small(140)),
            161..=176 => Atom::Sixteenth(small(161)),
            _ => Atom::Bool(slot == 178),
        }
    }
}

#[allow(
    clippy::cast_possible_truncation,
    reason = "a log2 or digit count of a u64 is below 65"
)]
fn int_atoms(v: u64, out: &mut impl FnMut(Atom)) {
    if v <= 64 {
        out(Atom::Small(v as u8));
    } else {
        out(Atom::Large);
    }
    if v > 0 {
        out(Atom::Log2(v.ilog2() as u8));
    }
    out(Atom::Digits(v.checked_ilog10().map_or(1, |d| d as u8 + 1)));
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "16 p of a fraction in (0, 1) is in 0..16"
)]
fn atoms(arg: &Arg, out: &mut impl FnMut(Atom)) {
    match arg {
        Arg::Text(s) => {
            let set = TextClass::set(s);
            for c in CLASSES.into_iter().filter(|c| set & c.bit() != 0) {
                out(Atom::Text(c));
            }
            if s.len() > 64 {
                out(Atom::Over64Bytes);
            }
        }
        Arg::Int(v) | Arg::Seed(v) => int_atoms(*v, out),
        Arg::Number(p) => out(Atom::Sixteenth((p * 16.0).floor().clamp(0.0, 15.0) as u8)),
        Arg::Bool(b) => out(Atom::Bool(*b)),
        Arg::Cards(_) => {}
    }
}

impl Profile {
    /// Counts one case.
    pub fn add(&mut self, request: &Request) {
        self.cases += 1;
        let fields = request.args().len();
        if self.counts.len() < fields {
            self.counts.resize(fields, [0; ATOMS]);
        }
        for (row, arg) in self.counts.iter_mut().zip(request.args()) {
            atoms(arg, &mut |a| row[a.slot()] += 1);
        }
    }

    pub(crate) fn merge(&mut self, other: &Profile) {
        self.cases += other.cases;
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), [0; ATOMS]);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
    }

    fn sum(&self, field: u8, atom: impl Fn(Atom) -> bool) -> u64 {
        self.counts.get(usize::from(field)).map_or(0, |row| {
            row.iter()
                .enumerate()
                .filter(|&(slot, &n)| n > 0 && atom(Atom::at(slot)))
                .map(|(_, n)| n)
                .sum()
        })
    }

    /// How many of the cases have `p`.
    pub(crate) fn count(&self, p: &Property) -> u64 {
        let i = p.index;
        match p.test {
            Test::Has(class) => self.sum(i, |a| a == Atom::Text(class)),
            Test::Over64Bytes => self.sum(i, |a| a == Atom::Over64Bytes),
            Test::Equals(v) => self.sum(i, |a| a == Atom::Small(u8::try_from(v).unwrap_or(u8::MAX))),
            Test::AtLeast(v) => self.at_least(i, v),
            Test::Below(v) => self.cases - self.at_least(i, v),
            Test::FractionAtLeast(k) => self.sum(i, |a| matches!(a, Atom::Sixteenth(s) if s >= k)),
            Test::FractionBelow(k) => self.sum(i, |a| matches!(a, Atom::Sixteenth(s) if s < k)),
            Test::Is(b) => self.sum(i, |a| a == Atom::Bool(b)),
        }
    }

    fn at_least(&self, i: u8, v: u64) -> u64 {
        if v <= 64 {
            self.sum(i, |a| {
                matches!(a, Atom::Small(s) if u64::from(s) >= v) || a == Atom::Large
            })
        } else if v.is_power_of_two() {
            self.sum(
                i,
                |a| matches!(a, Atom::Log2(l) if u64::from(l) >= u64::from(v.ilog2())),
            )
        } else {
            // A power of ten: every number with more digits than 10^k has - 1.
            self.sum(i, |a| matches!(a, Atom::Digits(d) if u32::from(d) > v.ilog10()))
        }
    }
}

/// What a property tests of its field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Test {
    Has(TextClass),
    Over64Bytes,
    Equals(u64),
    AtLeast(u64),
    Below(u64),
    FractionAtLeast(u8),
    FractionBelow(u8),
    Is(bool),
}

/// A property of one request field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Property {
    pub field: &'static str,
    index: u8,
    pub test: Test,
}

/// An integer threshold as people write it: `10^15`, `2^53`, `64`.
fn number(v: u64) -> String {
    if v > 64 && v.is_power_of_two() {
        format!("2^{}", v.ilog2())
    } else if v >= 100 && v.checked_ilog10().is_some_and(|d| 10u64.pow(d) == v) {
        format!("10^{}", v.ilog10())
    } else {
        v.to_string()
    }
}

/// The thresholds an integer field in `min ..= max` is tested at: every
/// value up to 64, every power of two and of ten above.
fn thresholds(min: u64, max: u64) -> Vec<u64> {
    let mut out: Vec<u64> = (1..=64).collect();
    out.extend((7..64).map(|k| 1u64 << k));
    out.extend((2..20).map(|k| 10u64.pow(k)));
    out.sort_unstable();
    out.dedup();
    out.retain(|&t| t > min && t <= max);
    out
}

impl Property {
    /// Every property of `request`'s op that is counted.
    pub(crate) fn candidates(request: &Request) -> Vec<Property> {
        let mut out = Vec::new();
        for (i, f) in request.spec().fields.iter().enumerate() {
            let index = u8::try_from(i).expect("an op has few fields");
            let p = |test| Property {
                field: f.name,
                index,
                test,
            };
            match f.kind {
                Kind::Text => {
                    out.extend(CLASSES.iter().map(|c| p(Test::Has(*c))));
                    out.push(p(Test::Over64Bytes));
                }
                Kind::Int { min, max, .. } => {
                    for t in thresholds(min, max) {
                        out.push(p(Test::AtLeast(t)));
                        out.push(p(Test::Below(t)));
                    }
                    out.extend((min..=max.min(64)).map(|v| p(Test::Equals(v))));
                }
                Kind::DecimalSeed => {
                    for t in thresholds(0, u64::MAX) {
                        out.push(p(Test::AtLeast(t)));
                    }
                }
                Kind::Fraction => {
                    for k in 1..16 {
                        out.push(p(Test::FractionAtLeast(k)));
                        out.push(p(Test::FractionBelow(k)));
                    }
                }
                Kind::Bool => out.extend([p(Test::Is(true)), p(Test::Is(false))]),
                Kind::Cards { .. } | Kind::Word(_) | Kind::Hex64 => {}
            }
        }
        out
    }

    /// The property in words, its field in backquotes.
    pub(crate) fn words(&self) -> String {
        let f = format!("`{}`", self.field);
        match self.test {
            Test::Has(c) => format!("{f} {}", c.words()),
            Test::Over64Bytes => format!("{f} is longer than 64 bytes (HMAC's block)"),
            Test::Equals(v) => format!("{f} = {v}"),
            Test::AtLeast(v) => format!("{f} ≥ {}", number(v)),
            Test::Below(v) => format!("{f} < {}", number(v)),
            Test::FractionAtLeast(k) => format!("{f} ≥ {}/16", k),
            Test::FractionBelow(k) => format!("{f} < {}/16", k),
            Test::Is(b) => format!("{f} is {b}"),
        }
    }

    pub(crate) fn holds(&self, r: &Request) -> bool {
        let Some(arg) = r.get(self.field) else {
            return false;
        };
        match (self.test, arg) {
            (Test::Has(c), Arg::Text(s)) => c.of(s),
            (Test::Over64Bytes, Arg::Text(s)) => s.len() > 64,
            (Test::Equals(v), Arg::Int(x)) => *x == v,
            (Test::AtLeast(v), Arg::Int(x) | Arg::Seed(x)) => *x >= v,
            (Test::Below(v), Arg::Int(x) | Arg::Seed(x)) => *x < v,
            (Test::FractionAtLeast(k), Arg::Number(p)) => *p >= f64::from(k) / 16.0,
            (Test::FractionBelow(k), Arg::Number(p)) => *p < f64::from(k) / 16.0,
            (Test::Is(b), Arg::Bool(x)) => *x == b,
            _ => false,
        }
    }

    /// The nearest request without the property, if one is valid.
    pub(crate) fn without(&self, r: &Request) -> Option<Request> {
        let value = match (self.test, r.get(self.field)?) {
            (Test::Has(c), Arg::Text(s)) => Value::from(c.without(s)),
            (Test::Over64Bytes, Arg::Text(s)) => {
                let mut end = 64.min(s.len());
                while !s.is_char_boundary(end) {
                    end -= 1;
                }
                Value::from(&s[..end])
            }
            (Test::Equals(v), _) => Value::from(if v == 0 { 1 } else { v - 1 }),
            (Test::AtLeast(v), Arg::Int(_)) => Value::from(v - 1),
            (Test::AtLeast(v), Arg::Seed(_)) => Value::from((v - 1).to_string()),
            (Test::Below(v), _) => Value::from(v),
            (Test::FractionAtLeast(k), _) => Value::from(f64::from(k) / 16.0 - 1.0 / 1024.0),
            (Test::FractionBelow(k), _) => Value::from(f64::from(k) / 16.0),
            (Test::Is(b), _) => Value::from(!b),
            _ => return None,
        };
        r.with(self.field, &value).filter(|w| !self.holds(w))
    }

    /// Requests like `r` with the property put in.
    pub(crate) fn with(&self, r: &Request) -> Vec<Request> {
        let values: Vec<Value> = match self.test {
            Test::Has(c) => c.exemplars().iter().map(|s| Value::from(*s)).collect(),
            Test::Over64Bytes => vec![Value::from("k".repeat(65))],
            Test::Equals(v) | Test::AtLeast(v) => match r.get(self.field) {
                Some(Arg::Seed(_)) => vec![Value::from(v.to_string())],
                _ => vec![Value::from(v)],
            },
            Test::Below(v) => vec![Value::from(v - 1)],
            Test::FractionAtLeast(k) => vec![Value::from(f64::from(k) / 16.0)],
            Test::FractionBelow(k) => vec![Value::from(f64::from(k - 1) / 16.0 + 1.0 / 32.0)],
            Test::Is(b) => vec![Value::from(b)],
        };
        values
            .iter()
            .filter_map(|v| r.with(self.field, v))
            .filter(|w| self.holds(w) && w != r)
            .collect()
    }
}

/// A candidate with its counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scored {
    pub(crate) property: Property,
    /// Diverging cases with it, of all diverging cases.
    pub(crate) diverging: (u64, u64),
    /// Agreeing cases with it, of all agreeing cases.
    pub(crate) agreeing: (u64, u64),
}

impl Scored {
    /// Holds for every diverging case and no agreeing one.
    pub fn exact(&self) -> bool {
        self.diverging.0 == self.diverging.1 && self.agreeing.0 == 0
    }

    #[allow(clippy::cast_precision_loss, reason = "counts of cases, far below 2^52")]
    fn score(&self) -> f64 {
        let (d, nd) = self.diverging;
        let (a, na) = self.agreeing;
        d as f64 / nd.max(1) as f64 - a as f64 / na.max(1) as f64
    }
}

/// The properties that nearly separate `diverging` from `agreeing`, best
/// first: each holds for at least 9 in 10 diverging cases and at most 1 in
/// 5 agreeing ones. None when no case agrees (nothing to separate).
pub(crate) fn ranked(example: &Request, diverging: &Profile, agreeing: &Profile) -> Vec<Scored> {
    if diverging.cases == 0 || agreeing.cases == 0 {
        return Vec::new();
    }
    let mut out: Vec<Scored> = Property::candidates(example)
        .into_iter()
        .map(|p| Scored {
            property: p,
            diverging: (diverging.count(&p), diverging.cases),
            agreeing: (agreeing.count(&p), agreeing.cases),
        })
        .filter(|s| 10 * s.diverging.0 >= 9 * s.diverging.1 && 5 * s.agreeing.0 <= s.agreeing.1 && s.score() >= 0.5)
        .collect();
    // Best score first; of equal scores the one listed first (text classes
    // before lengths, a lower threshold before a higher one).
    out.sort_by(|a, b| b.score().total_cmp(&a.score()));
    out
}

/// Asks the target one request: `Some(true)` when it diverges, `Some(false)`
/// when it agrees, `None` when it was not asked (no budget, no target).
pub type Ask<'a> = dyn FnMut(&Request) -> Option<bool> + 'a;

/// How many diverging examples a property is taken out of, and how many
/// requests it is put into.
const BASES: usize = 3;

/// Confirms `p` with targeted cases: on each diverging example that has it
/// (at most [`BASES`]), the request without it must agree; put into the
/// examples (and then into agreeing requests), it must make one diverge.
/// Returns how many cases were asked, or `None` when `p` is refuted or
/// could not be tested.
pub(crate) fn confirm(p: &Property, diverging: &[Request], agreeing: &[Request], ask: &mut Ask<'_>) -> Option<u64> {
    let mut asked = 0;
    let mut taken_out = 0;
    for base in diverging.iter().filter(|r| p.holds(r)).take(BASES) {
        let Some(without) = p.without(base) else { continue };
        asked += 1;
        match ask(&without) {
            Some(false) => taken_out += 1,
            _ => return None,
        }
    }
    if taken_out == 0 {
        return None;
    }
    let bases = diverging.iter().take(BASES).chain(agreeing.iter().take(BASES));
    for candidate in bases.flat_map(|b| p.with(b)) {
        asked += 1;
        match ask(&candidate) {
            Some(true) => return Some(asked),
            Some(false) => {}
            None => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_atom_has_a_slot_of_its_own_and_is_found_there() {
        for slot in 0..ATOMS {
            assert_eq!(Atom::at(slot).slot(), slot);
        }
    }

    fn request(v: &Value) -> Request {
        crate::registry::parse(v).unwrap()
    }

    /// Each class as its words say it, one at a time: the oracle of the
    /// one-walk classifier.
    fn is_of(c: TextClass, s: &str) -> bool {
        match c {
            TextClass::Empty => s.is_empty(),
            TextClass::NonAscii => !s.is_ascii(),
            TextClass::BeyondLatin1 => s.chars().any(|c| u32::from(c) > 0xff),
            TextClass::Astral => s.chars().any(|c| u32::from(c) > 0xffff),
            TextClass::BmpHigh => s.chars().any(|c| ('\u{e000}'..='\u{ffff}').contains(&c)),
            TextClass::EdgeSpace => [s.chars().next(), s.chars().last()]
                .into_iter()
                .flatten()
                .any(|c| c.is_whitespace() || c == '\u{feff}'),
            TextClass::Upper => s.chars().any(|c| c.is_ascii_uppercase()),
            TextClass::Hex => !s.is_empty() && s.len() % 2 == 0 && s.chars().all(|c| c.is_ascii_hexdigit()),
            TextClass::Colon => s.contains(':'),
        }
    }

    proptest::proptest! {
        #[test]
        fn a_texts_classes_in_one_walk_are_each_class_as_its_words_say(
            s in proptest::prop_oneof![
                proptest::prelude::any::<String>(),
                // Hex digits with at most one byte just past a range's edge.
                "[0-9a-fA-F]{0,6}[gG@`/:\\[{]?[0-9a-fA-F]{0,6}",
                "[0-9a-fA-F:G@`/ ]{0,300}",
                crate::op::strategy::text(),
            ]
        ) {
            for c in CLASSES {
                proptest::prop_assert_eq!(c.of(&s), is_of(c, &s), "{:?} of {:?}", c, s);
            }
        }
    }

    #[test]
    fn every_edge_text_has_the_classes_its_words_say() {
        for (_, s) in crate::op::strategy::edge_texts() {
            for c in CLASSES {
                assert_eq!(c.of(&s), is_of(c, &s), "{c:?} of {s:?}");
            }
        }
    }

    fn int(seed: &str, nonce: u64) -> Request {
        request(
            &json!({ "op": "cursor.int", "serverSeed": seed, "clientSeed": "c", "nonce": nonce, "cursor": 0, "range": 6 }),
        )
    }

    #[test]
    fn a_non_ascii_seed_that_every_diverging_case_has_ranks_first_and_is_exact() {
        let (mut div, mut agree) = (Profile::default(), Profile::default());
        for s in ["é", "aé", "😀x", "日本"] {
            div.add(&int(s, 3));
        }
        for s in ["a", "", "abc", "A3F1"] {
            agree.add(&int(s, 3));
        }
        let best = ranked(&int("é", 3), &div, &agree);
        let top = best[0];
        assert_eq!(top.property.words(), "`serverSeed` has a non-ASCII character");
        assert!(top.exact(), "{top:?}");
    }

    #[test]
    fn a_nonce_threshold_is_counted_from_its_decimal_magnitude() {
        let (mut div, mut agree) = (Profile::default(), Profile::default());
        for n in [1_000_000_000_000_000, 4_000_000_000_000_000, 9_007_199_254_740_991] {
            div.add(&int("s", n));
        }
        for n in [0, 42, 999_999_999_999_999] {
            agree.add(&int("s", n));
        }
        let best = ranked(&int("s", 1), &div, &agree);
        let words: Vec<String> = best.iter().filter(|s| s.exact()).map(|s| s.property.words()).collect();
        assert!(words.contains(&"`nonce` ≥ 10^15".to_string()), "{words:?}");
    }

    #[test]
    fn confirming_a_threshold_needs_it_exact() {
        let nonce = Property {
            field: "nonce",
            index: 2,
            test: Test::AtLeast(1_000_000_000_000_000),
        };
        let base = int("s", 3_000_000_000_000_000);
        // A target that diverges from 10^15 on: confirmed.
        let mut at_15 = |r: &Request| Some(r.int(crate::op::fields::NONCE) >= 1_000_000_000_000_000);
        assert!(confirm(&nonce, std::slice::from_ref(&base), &[], &mut at_15).is_some());
        // One that diverges from 2^50 on: 10^15 - 1 diverges too, so refuted.
        let mut at_50 = |r: &Request| Some(r.int(crate::op::fields::NONCE) >= 1 << 50);
        let later = int("s", 1 << 51);
        assert!(confirm(&nonce, &[later], &[], &mut at_50).is_none());
    }

    #[test]
    fn taking_a_class_out_changes_only_that_class() {
        assert_eq!(TextClass::NonAscii.without("aé😀"), "aaa");
        assert_eq!(TextClass::BeyondLatin1.without("é€"), "éa");
        assert_eq!(TextClass::EdgeSpace.without("\u{feff} s "), "s");
        assert_eq!(number(1_000_000_000_000_000), "10^15");
        assert_eq!(number(1 << 50), "2^50");
        assert_eq!(number(10), "10");
    }
}
