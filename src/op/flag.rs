//! Vector flags: what a vector reaches, each with the note that explains it.
//!
//! A flag is read off a trace of the computation (the op's `flags`) or off
//! the input (`vectors::derived_flags`), never asserted by hand, except
//! the provenance flag `Published`. Each flag is a variant here, so a typo
//! is a compile error; its name is what the vector files carry and its note
//! is what their `notes` map says. A vector file lists the notes of the
//! flags it uses in the order of this list.

use serde::{Serialize, Serializer};

macro_rules! flags {
    ($($(#[$doc:meta])* $name:ident => $note:literal,)*) => {
        /// One vector flag.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Flag {
            $($(#[$doc])* $name,)*
        }

        impl Flag {
            /// Every flag, in the order the vector files list their notes.
            pub(crate) const ALL: &'static [Flag] = &[$(Flag::$name,)*];

            /// The flag's name, as the vector files carry it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Flag::$name => stringify!($name),)*
                }
            }

            /// What the flag means and the bug class it guards against.
            pub(crate) fn note(self) -> &'static str {
                match self {
                    $(Flag::$name => $note,)*
                }
            }
        }
    };
}

impl Flag {
    /// [`Flag::Heavy`] when an op's work (a count, a size, the steps of a
    /// walk) passes 10,000: the one threshold the self-test bundle leaves
    /// out above.
    pub(crate) fn heavy(work: u64) -> Option<Flag> {
        (work > 10_000).then_some(Flag::Heavy)
    }
}

/// The names of `flags`, joined by ", " (as a report prints them).
pub(crate) fn join(flags: &[Flag]) -> String {
    flags.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

impl Serialize for Flag {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl std::fmt::Display for Flag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

flags! {
    Published => "The case is printed by the published program (`referenz.py vektoren` on the seed 003 page).",
    EmptySeed => "An empty seed or id: the message starts with its separator, or the HMAC key is empty.",
    Unicode => "Non-ASCII text (combining marks, eszett, emoji); keys and messages are UTF-8 bytes.",
    Colon => "A colon inside a seed or id: the message is never parsed back, so the colon must simply be kept.",
    NotHex => "A server seed, or a hash field, that is not 64 lowercase hex characters. A server seed's key is its text (decoding hex would give another MAC), so it is valid; a hash field (Stake's crash) is refused.",
    MaxSafeInteger => "An integer field at 2^53-1, the largest integer a JavaScript Number holds exactly.",
    Rejection => "At least one attempt is rejected (value at or above 256^k - 256^k mod range), so the cursor moves more than once. Guards against modulo bias and against not advancing the cursor on rejection.",
    MultiByte => "A draw needs more than one byte. Guards against reading a fixed byte count.",
    LargeRange => "The range is above 2^32. Guards against 32-bit arithmetic and JavaScript Number overflow in 256^k.",
    RangeOne => "Range 1 returns 0 and moves the cursor by one without a MAC.",
    NonzeroCursor => "The shuffle starts at a cursor other than 0.",
    SmallFloat => "A float below 1e-4, where Python's repr switches to scientific notation.",
    DealPositions => "Hole cards at (i, n+i), burns before flop, turn and river.",
    MaxPlayers => "22 players: the river is the deck's last card (position 51).",
    Category => "A hand of the category in its comment; every category appears.",
    Wheel => "The cards hold A-2-3-4-5, the five-high straight, where the ace counts one.",
    SevenCards => "Best five of seven: the evaluator must choose among subsets.",
    CutClampLow => "base + offset falls below max(20, round(total × 0.5)) and is clamped up.",
    CutClampHigh => "base + offset rises above total − 15 and is clamped down.",
    RoundTie => "total × penetration ends in .5 exactly: JavaScript's Math.round goes up, Python's round and banker's rounding go to even.",
    TwoByteDraws => "More than 256 cards: the first draws read two bytes.",
    Rejection1 => "A one-byte draw is rejected and one fresh byte read.",
    Rejection2 => "A two-byte draw is rejected and two fresh bytes read.",
    BlockBoundary => "The draws run past the first HMAC block into the next one (message `...:1`).",
    Tournament => "Client seed `T:k` and nonce k; consecutive hands of one tournament.",
    LateByte => "Byte 0 of the MAC is 252 or more, so the face comes from a later byte. The page's formula reads byte 0 only; its published code, the specification, scans on.",
    NumpyEdge => "A seed at an edge of numpy's SeedSequence word split: 0, 1, 2^32-1, 2^32, 2^62, 2^63-1.",
    JsUnsafe => "A seed above 2^53: it must travel as a string and be handled as a BigInt in JavaScript.",
    DefaultSize => "The published game's 25 cases.",
    ByMaxParts => "A ladder draw whose j differs between r = v / 2^32 and r = v / (2^32 - 1): an integer lies between v·(i+1)/2^32 and v·(i+1)/(2^32 - 1), which about i/2^33 of the words reach. An implementation that normalises a word by its largest value diverges here and nowhere else.",
    // The whole domain of every field (valid cases).
    LongKey => "A server seed over 64 bytes: HMAC hashes a key longer than its block before use (RFC 2104, the long-key branch), and its SHA-256 commitment spans two blocks. An implementation that cuts keys to 64 bytes diverges.",
    LongText => "A client seed or tournament id over 64 bytes: the HMAC message spans several SHA-256 blocks. An implementation with a fixed-size message buffer diverges.",
    HugeText => "A text of 10,000 bytes or more. An implementation that caps the input's length (a form's maxlength, a fixed buffer) diverges.",
    LongInBytes => "A text of at most 64 characters but over 64 UTF-8 bytes. An implementation that measures a key in characters (JavaScript's string.length) instead of bytes does not hash it and diverges.",
    Astral => "A character outside the BMP: four UTF-8 bytes, a surrogate pair in UTF-16. An encoder that encodes each UTF-16 unit on its own (CESU-8) diverges.",
    AllPlanes => "Characters from all 17 Unicode planes, assigned or not; all are Unicode scalar values that UTF-8 encodes.",
    HighBmp => "A character in U+E000-U+FFFF (private use, specials, U+FFFD, the noncharacters U+FFFE and U+FFFF): legal in JSON and UTF-8. A UTF-8 encoder that throws on or mis-encodes three-byte sequences above the surrogates diverges.",
    PrivateUse => "A private-use character (U+E000-U+F8FF, planes 15 and 16). An implementation that filters or replaces private-use characters diverges.",
    Noncharacter => "A noncharacter (U+FDD0-U+FDEF, U+xFFFE, U+xFFFF): legal in JSON and UTF-8 (Unicode Corrigendum #9). An implementation that rejects or replaces it with U+FFFD diverges.",
    Decomposed => "A combining mark after its base letter (decomposed, NFD-like text): other bytes than the composed form, so another MAC. An implementation that normalizes Unicode (NFC) before hashing diverges.",
    Compatibility => "A compatibility character (a ligature, a fullwidth letter, a superscript digit). An implementation that normalizes with NFKC before hashing diverges.",
    Whitespace => "Leading or trailing whitespace. An implementation that trims its input diverges.",
    Control => "A control character (a tab, DEL, U+0085). An implementation that strips control characters diverges.",
    Invisible => "A byte-order mark or a zero-width character (U+FEFF, U+200B-U+200D, U+2060, U+00AD). An implementation that strips a BOM or invisible characters diverges.",
    Escapes => "A quote or a backslash: escaped on the wire, hashed unescaped. An implementation that hashes the escaped text diverges.",
    MinValue => "A size at its smallest allowed value (count 0, range 1, size 1, players 2, decks 1). An implementation with an off-by-one lower bound answers invalid.",
    MaxValue => "A size at its largest allowed value (count and size 100,000, players 22, decks 8). An implementation with an off-by-one upper bound answers invalid.",
    Int32Edge => "An integer at 2^31-1 or 2^31, the edge of a signed 32-bit integer. `x | 0` or an int32 turns 2^31 into -2^31.",
    Uint32Edge => "An integer at 2^32-1 or 2^32. `x >>> 0`, a u32 or a 4-byte buffer wraps 2^32 to 0.",
    FractionEdge => "A penetration at the smallest positive double (5e-324) or the largest below 1 (0.9999999999999999): still valid. A check such as p >= 0.01, or a penetration rounded before use, answers invalid or moves the cut.",
    ByteWidthEdge => "A range at 256^k - 1, 256^k or 256^k + 1: the byte count steps from k to k + 1 between 256^k and 256^k + 1. A byte count from a floating-point logarithm, or `>` for `>=`, reads one byte too many or too few.",
    RejectAtLimit1 => "A one-byte draw reads exactly its rejection limit 256 - 256 mod m, the smallest value rejected. An implementation that compares with `>` instead of `>=` keeps it.",
    KeepBelowLimit1 => "A one-byte draw reads its rejection limit minus one, the largest value kept. An implementation whose limit is one too low rejects it.",
    RejectAtLimit2 => "A two-byte draw reads exactly its rejection limit 65536 - 65536 mod m. An implementation that compares with `>` instead of `>=` keeps it.",
    KeepBelowLimit2 => "A two-byte draw reads its rejection limit minus one, the largest value kept. An implementation whose limit is one too low rejects it.",
    CursorAbove53 => "The cursor passes 2^53-1 during the request. A JavaScript implementation that keeps the cursor in a Number writes the wrong MAC message or cursorNext.",
    Above16Bits => "More than 65,536 positions: an index no longer fits 16 bits, and the cursor shuffle's draws read three bytes. An implementation that keeps the order in a Uint16Array or u16 diverges.",
    Heavy => "A long computation (a count or size above 10,000). Left out of the web page's self-test bundle, which lists it under `omitted`; the harness and the JavaScript tests run it.",
    TieByRounding => "total × penetration is not n + 0.5 exactly, but its binary64 product is (the penetration is a decimal, not a binary fraction). An implementation that multiplies exactly (decimal or rational arithmetic) rounds the other way.",
    NearTie => "The binary64 product total × penetration is one ulp from n + 0.5. An implementation that rounds the penetration's decimal text, or adds an epsilon against float error, rounds the other way.",
    CardEdge => "The cards include card 0 or card 51. An evaluator that indexes ranks or suits off by one diverges.",
    PublishedStake => "The case is published by Stake (its calculation page, a Crash game's page), as the fair crate 0.0.13's tests quote it with the answer Stake shows.",
    TinyFloat => "A float of the bet below 2^-16 (its first two bytes are 0): the edge of the range at 0, where Limbo's multiplier is largest and the docs' and the client's Limbo formulas part most.",
    TopFloat => "A float of the bet at 1 - 2^-16 or above (its first two bytes are 0xff): just below 1, where floor(float * n) is n - 1. An implementation that rounds instead of flooring, or maps 1 - 2^-32 to n, diverges.",
    ReadingDocs => "Limbo: the docs' reading 1e8/(float*1e8)*0.99 answers another multiplier here than the canonical 1e8/(floor(float*1e8)+1)*0.99 (docs/schemes.md, Stake: readings).",
    ReadingFair => "Limbo: the fair crate's reading (no clamp at 1) answers 0.99 here, the canonical reading 1.",
    ReadingUnrounded => "Crash: the seeding post's formula unrounded (the fair crate) answers more digits than the two decimals Stake shows.",
    CrashAtOne => "Crash at exactly 1: the clamp max(1, ...) decides.",
    PublishedCrash => "The case is published with its answer for a crash game of the bustabit family (the bustabit crate 0.2.1's tests and examples, an operator's verifier or seeding post); the comment names the source.",
    InstantCrash => "Crash v1: the MAC, all 256 bits of it, is divisible by the divisor: the game crashes at once, at 0 (bustabit) or 1 (Roobet). An implementation that tests fewer bits, or answers the other instant point, diverges.",
    InstantOtherDivisor => "Crash v1: the MAC is divisible by another of the divisors seen in the sources (20, 25, 33, 101), not by this case's: an implementation with the wrong divisor crashes it at once.",
    PrecisionParts => "Crash v2: BC.Game's X rounded to 9 significant digits (toPrecision(9)) gives another point than X itself: an implementation with the rounding, or without it, diverges by 0.01.",
    PlayerThird => "Baccarat: the player draws a third card (total 0 to 5).",
    BankerThird => "Baccarat: the banker draws a third card, by its total and the player's third card.",
    Tie => "Baccarat: player and banker tie.",
    PublishedField => "The case's answer is published by the operator or by a verifier of its scheme (a worked example, a validator's fixture, a player's exported roll; the comment names the source), not computed by provably.",
    LateGroup => "Lucky-number dice: the first five hex digits read 1,000,000 or more, so the lucky number comes from a later group. An implementation that reads group 0 only, or takes it mod 10^6, diverges.",
    GroupAtLimit => "Lucky-number dice: a group reads exactly 1,000,000 (f4240), the smallest value skipped (\"over 999,999\"; the code's >= 1e6). An implementation that compares with > instead of >= keeps it.",
    HexAbove53 => "skin.club: the 15 hex digits read a value above 2^53, where a double (JavaScript's parseInt, PHP's hexdec) rounds it, and the roll of the rounded value is another. An implementation that parses them into a double diverges.",
    HexBelow53 => "skin.club: the 15 hex digits read a value below 2^53, which a double holds exactly: a parseInt port agrees here, the exact reading is checked on its own.",
    RoundsUp => "Freebitco.in: the first 8 hex digits divided by 429496.7295 have a fraction of one half or more, so rounding to nearest gives one more than the floor. An implementation that floors (or truncates) diverges.",
    RollEdge => "Freebitco.in: roll 0 or 10,000, an end of the range, which rounding reaches from half as many values as any roll between. A range held to 0 ..= 9,999 or 1 ..= 10,000 fails here.",
    ToFixedParts => "BC.Game's old Classic Dice: the float rounded to nine decimals (toFixed(9)), as the page rounds it, gives another roll than the float itself (about 2.5 bets in a million). An implementation without the rounding diverges.",
    WindowIndexParts => "BC.Game's new generation: the window's index is the first 15 hex digits (60 bits) mod 47; through a double (parseInt) they are rounded above 2^53 and give another index. An implementation that parses them into a double diverges.",
    ColourEdge => "CSGOEmpire roulette: roll 0 (bonus), 7 (the last orange) or 8 (the first black), where a colour table off by one answers another colour.",
    // Negative cases (result: invalid).
    MissingField => "A required field is missing. The request is invalid; an implementation that fills in a default answers ok.",
    ExtraField => "A field the op does not take (a typo, another case, __proto__). The request is invalid, so that a typo cannot pass silently.",
    WrongType => "A field of the wrong JSON type (null, a boolean, a list, an object, a number for a string). The request is invalid; an implementation that coerces types answers ok.",
    NumericString => "A number sent as a string (\"5\"). The request is invalid; an implementation that coerces (Number(x), int(x)) answers ok.",
    FloatInteger => "A float where an integer is required (1.0, 1e0). The request is invalid; JSON.parse cannot tell 1.0 from 1, so a JavaScript reader needs a stricter parser.",
    BelowLimit => "A value one step below its field's limit (range 0, players 1, decks 0, size 0, -1, penetration 0, four cards). The request is invalid.",
    NegativeZero => "An integer field given -0, where the field's minimum is 1 or more: -0 is not a protocol integer, and a reader that takes it for 0 finds it below the minimum. The request is invalid.",
    AboveLimit => "A value one step above its field's limit (2^53, count 100,001, players 23, decks 9, penetration 1, card 52, eight cards, a seed of 2^63). The request is invalid.",
    NotListed => "An integer inside its field's range that is not one of the values the field takes (a wheel of 15 segments: 10, 20, 30, 40 or 50). The request is invalid; a reader that checks only the range answers, or fails in its table.",
    DuplicateKey => "A key given twice, with the same value. The request is invalid (docs/protocol.md); a reader that keeps the last value answers ok. The line is not a JSON value to a strict reader, so the answer's id may be null.",
    DuplicateCard => "The same card twice. The request is invalid.",
    NotAWord => "A word field (a risk level) given a text that is not one of its words: empty, in capitals, with a space. The request is invalid.",
    NotDecimal => "A selfpoker seed that is not plain decimal digits (a leading zero, a sign, a space, an exponent, hex, an underscore, non-ASCII digits). The request is invalid; Python's int() and JavaScript's BigInt() accept several of these.",
    LoneSurrogate => "A string with a lone surrogate escape (\"\\ud800\"): not a Unicode scalar value, so not text. The request is invalid; a UTF-8 encoder would turn it into U+FFFD or throw.",
    IllegalSituation => "Every field within its limits, but a situation the op refuses by its own rules: a bust hand (hard total over 21), `canDouble` with more than two cards, `canSplit` without a two-card pair. The published function answers these (a bust hand `stehen`); an implementation that does too answers ok.",
    Pair => "`canSplit` with a two-card pair: the pair chart is read first, before the soft and hard charts.",
    TenPair => "Two ten-valued cards of different rank (K,10) with splitting allowed: a pair by count value (`istPaar`), not by rank, so the pair chart is read.",
    AcePair => "A,A: a pair and soft 12 at once; played as a pair when splitting is allowed, the order the published comment insists on.",
    Soft => "The soft chart decides: an ace counts 11.",
    Hard => "The hard chart decides: no ace counts 11.",
    SoftTwelve => "A,A that may not be split is soft 12, below the published soft branch (13 to 19): it is played by the hard 12 row and stands against 4, 5 and 6.",
    SoftTotalEdge => "Soft 13, 19 or 20: a bound of the published soft branches (`summe >= 13 && summe <= 19`, then `soft && summe >= 20`).",
    HardTotalEdge => "Hard 12, 13, 16 or 17: a bound of the published hard stand lines (12 against 4 to 6, 13 to 16 against 2 to 6, 17 and up always).",
    DoubleRefused => "The cell doubles but `canDouble` is false: soft 18 and soft 19 then stand, every other doubling cell hits.",
    AceCountsOne => "An ace counts 1 (a hard hand holding an ace, or a second ace in a soft hand): the hand value must count aces down, not add 11 for each.",
    MultiCard => "Three or more cards: the total comes from more than two cards, and neither doubling nor splitting is allowed.",
    MaxCards => "21 cards (21 aces), the longest hand that is not bust; a card number repeats up to six times (6 decks).",
    FourFourNoDas => "4,4 with splitting allowed and `doubleAfterSplit` false: reaches the only published line that reads the DAS rule; it comes after the split test and changes no answer.",
    WithoutDas => "`doubleAfterSplit` false: the published table answers as with DAS.",
    DealerAce => "The up-card is an ace: count value 11, not 1.",
    TwoCardTwentyOne => "An ace and a ten-valued card: allowed (after a split it is an ordinary 21), answered `stehen`.",
}
