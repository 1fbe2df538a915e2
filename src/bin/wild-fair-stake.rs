//! The `fair` crate's Stake games (crates.io fair 0.0.13, `fair::games`)
//! as a protocol v1 target for the `stake.*` ops (manifest
//! harness/wild/fair-stake.toml).
//!
//!     cargo build --features wild --bin wild-fair-stake
//!
//! Every answer is the crate's own game function on the request's seeds;
//! this file only reads the crate's result and writes it in the ops' ok
//! fields. Where the crate keeps a field private, its `Display` text (the
//! crate's CLI output, `fair <game> …`) is read back. How each result maps
//! (the crate's source, src/games/*.rs of fair 0.0.13):
//!
//! | op | the crate's call | its result → our ok |
//! |---|---|---|
//! | `stake.floats` | `ProvablyFairRNG::<f64>::new(client, server, nonce)` | the iterator's first `count` items → `floats` |
//! | `stake.dice` | `dice::simulate` | `SimulationResult.outcome` (f64) → `roll` |
//! | `stake.limbo` | `limbo::simulate` | `SimulationResult.outcome` (f64) → `multiplier` |
//! | `stake.plinko` | `plinko::simulate(_, Some(Opts::new(rows, Risk::from_str(risk))))` | `index` → `bucket`, `payout` → `multiplier`; `path` see `plinko` |
//! | `stake.roulette` | `roulette::simulate` | `pocket` (u8) → `pocket` |
//! | `stake.wheel` | `wheel::simulate(_, Some(Opts::new(segments, Risk::from_str(risk))))` | `index` → `segment`, `payout` → `multiplier` |
//! | `stake.keno` | `keno::simulate` | `squares` (`Vec<u8>`, 1..=40 in draw order) → `hits` |
//! | `stake.mines` | `mines::simulate(_, mines)` | `squares` (`Vec<u8>`, 0..=24 in draw order) → `mines` |
//! | `stake.hilo` | `hilo::simulate` | its `Deck` (private; `Display` "♠J - ♥10 - …") → `cards` |
//! | `stake.blackjack` | `blackjack::simulate` | `Display` "Dealer: …\nPlayer: …\nDeck: …" → `cards` in draw order: player's two, dealer's two, the 48 of the deck |
//! | `stake.baccarat` | `baccarat::simulate` | `Display` `"<outcome>\n\nPlayer (n): …\nBanker (n): …"` → `player`, `banker`, `winner`; `cards` see `baccarat` |
//! | `stake.videopoker` | `video_poker::simulate` | `Display` "Initial Hand: …\nComing Cards: …" → `cards` (the ten it deals) |
//! | `stake.diamonds` | `diamond_poker::simulate` | `dealer` (`Hand`, `Display` "[Orange, …]") → `gems`, lower case |
//! | `stake.crash` | `crash::simulate(Config::new(_, Hash::from_hex(salt), _), Hash::from_hex(hash))` | `Outcome` (private; `Display` "Crash point: x") → `crashPoint` |
//! | `stake.crash.chain` | `crash::verify_hash(Config::new(Hash::from_hex(terminatingHash), _, n), Hash::from_hex(hash))` | true iff the distance is below n: the least such n, less one → `distance` |
//!
//! Cards are the crate's `Card` (`♦2, ♥2, ♠2, ♣2, ♦3, …, ♣A`, card.rs
//! `CARD_SUITE_ORDER` and `CARD_RANK_ORDER`), which is Stake's CARDS
//! index, so "♠J" is 9·4 + 2 = 38.
//!
//! The crate's crash takes the salt as a 32-byte block hash (`Hash`), so a
//! salt that is not 64 hex digits is declined; so is a request the crate
//! would panic on.

use std::io;
use std::process::ExitCode;

use fair::games::{
    baccarat, blackjack, crash, diamond_poker, dice, hilo, keno, limbo, mines, plinko, roulette, video_poker, wheel,
};
use fair::{ProvablyFairConfig, ProvablyFairRNG};
use provably::op::error::OpError;
use provably::op::{Arg, Outcome, Request};
use provably::wild::{serve, Engine};
use serde_json::{json, Value};

/// The version Cargo.toml pins (`fair = "=0.0.13"`).
const FAIR: &str = "0.0.13";

/// Every `stake.*` op the crate has a game for.
const OPS: &[&str] = &[
    "stake.floats",
    "stake.dice",
    "stake.limbo",
    "stake.plinko",
    "stake.roulette",
    "stake.wheel",
    "stake.keno",
    "stake.mines",
    "stake.hilo",
    "stake.blackjack",
    "stake.baccarat",
    "stake.videopoker",
    "stake.diamonds",
    "stake.crash",
    "stake.crash.chain",
];

fn text<'a>(r: &'a Request, name: &str) -> &'a str {
    match r.get(name) {
        Some(Arg::Text(s)) => s,
        other => panic!("{} has no text field {name} ({other:?})", r.op()),
    }
}

fn int(r: &Request, name: &str) -> u64 {
    match r.get(name) {
        Some(Arg::Int(v)) => *v,
        other => panic!("{} has no integer field {name} ({other:?})", r.op()),
    }
}

/// One bet's seeds, as the crate takes them.
struct Bet<'a> {
    server: &'a str,
    client: &'a str,
    nonce: u64,
}

impl Bet<'_> {
    fn of(r: &Request) -> Bet<'_> {
        Bet {
            server: text(r, "serverSeed"),
            client: text(r, "clientSeed"),
            nonce: int(r, "nonce"),
        }
    }

    /// The crate's config: it takes the client seed first.
    fn config(&self) -> ProvablyFairConfig {
        ProvablyFairConfig::new(self.client, self.server, self.nonce)
    }

    fn rng(&self) -> ProvablyFairRNG<f64> {
        ProvablyFairRNG::new(self.client, self.server, self.nonce)
    }
}

fn declined(reason: String) -> OpError {
    OpError::Declined { reason }
}

/// A number as JavaScript's `String(x)` writes it: an integral value as an
/// integer (`1`, `0`), any other as the shortest text that reads back.
fn js_number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 && !(x == 0.0 && x.is_sign_negative()) {
        // The guard keeps the value exact in an i64.
        #[allow(clippy::cast_possible_truncation)]
        return json!(x as i64);
    }
    json!(x)
}

fn main() -> ExitCode {
    let engine = Engine {
        name: format!("fair {FAIR} (fair::games, the crate's own Stake games)"),
        ops: OPS,
        run: Box::new(|r| answer(r).map(Outcome::new)),
    };
    match serve(&engine, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wild-fair-stake: {e}");
            ExitCode::from(2)
        }
    }
}

/// One valid request of [`OPS`], answered by the crate.
fn answer(r: &Request) -> Result<Value, OpError> {
    // Crash is its own scheme: no seed pair.
    match r.op() {
        "stake.crash" => return crash_point(text(r, "hash"), text(r, "salt")),
        "stake.crash.chain" => return chain(text(r, "hash"), text(r, "terminatingHash"), int(r, "limit")),
        _ => {}
    }
    let bet = Bet::of(r);
    let small = |name: &str| u8::try_from(int(r, name)).map_err(|_| declined(format!("{name} above 255")));
    Ok(match r.op() {
        "stake.floats" => {
            let count = usize::try_from(int(r, "count")).expect("count is at most 1024");
            json!({ "floats": bet.rng().take(count).collect::<Vec<f64>>() })
        }
        "stake.dice" => json!({ "roll": js_number(dice::simulate(bet.config()).outcome) }),
        "stake.limbo" => json!({ "multiplier": js_number(limbo::simulate(bet.config()).outcome) }),
        "stake.plinko" => plinko(&bet, small("rows")?, risk(r)?)?,
        "stake.roulette" => json!({ "pocket": roulette::simulate(bet.config()).pocket }),
        "stake.wheel" => wheel(&bet, small("segments")?, risk(r)?)?,
        "stake.keno" => json!({ "hits": keno::simulate(bet.config()).squares }),
        "stake.mines" => json!({ "mines": mines::simulate(bet.config(), small("mines")?).squares }),
        "stake.hilo" => json!({ "cards": cards(&hilo::simulate(bet.config()).to_string())? }),
        "stake.blackjack" => blackjack(&bet)?,
        "stake.baccarat" => baccarat(&bet)?,
        "stake.videopoker" => video_poker(&bet)?,
        "stake.diamonds" => diamonds(&bet)?,
        other => return Err(OpError::Unsupported { op: other.to_string() }),
    })
}

/// The risk as the crate's `Risk::from_str` takes it (it panics on any
/// other text, so that is declined first).
fn risk(r: &Request) -> Result<&str, OpError> {
    match text(r, "risk") {
        s @ ("low" | "medium" | "high") => Ok(s),
        s => Err(declined(format!("the crate knows no risk {s:?}"))),
    }
}

/// `plinko::simulate` gives the bucket (`index`, the count of rights) and
/// its payout, not the path. The path is read off the same floats with the
/// rule of the crate's private `get_direction` (plinko.rs:
/// `[Left, Right][(rng.next().unwrap() * 2.) as usize]`), and must count
/// as many rights as the crate's bucket.
fn plinko(bet: &Bet, rows: u8, risk: &str) -> Result<Value, OpError> {
    let risk = plinko::Risk::from_str(risk);
    let result = plinko::simulate(bet.config(), Some(plinko::Opts::new(rows, risk)));
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let path: Vec<u8> = bet.rng().take(usize::from(rows)).map(|f| (f * 2.) as u8).collect();
    let rights = path.iter().filter(|&&d| d == 1).count();
    if rights != result.index {
        return Err(declined(format!(
            "the path's {rights} rights are not the crate's bucket {}",
            result.index
        )));
    }
    Ok(json!({ "path": path, "bucket": result.index, "multiplier": js_number(result.payout) }))
}

fn wheel(bet: &Bet, segments: u8, risk: &str) -> Result<Value, OpError> {
    if !wheel::validate_segments(segments) {
        return Err(declined(format!("the crate has no wheel of {segments} segments")));
    }
    let risk = wheel::Risk::from_str(risk);
    let result = wheel::simulate(bet.config(), Some(wheel::Opts::new(segments, risk)));
    Ok(json!({ "segment": result.index, "multiplier": js_number(result.payout) }))
}

/// A card of the crate's `Display` ("♦2" … "♣A") as Stake's CARDS index.
fn card(s: &str) -> Result<u8, OpError> {
    let bad = || declined(format!("the crate printed a card {s:?} this target cannot read"));
    let mut chars = s.chars();
    let suit = match chars.next() {
        Some('♦') => 0,
        Some('♥') => 1,
        Some('♠') => 2,
        Some('♣') => 3,
        _ => return Err(bad()),
    };
    let rank = match chars.as_str() {
        "J" => 9,
        "Q" => 10,
        "K" => 11,
        "A" => 12,
        n => n.parse::<u8>().ok().filter(|n| (2..=10).contains(n)).ok_or_else(bad)? - 2,
    };
    Ok(rank * 4 + suit)
}

/// The crate's `Deck` `Display`: cards joined by " - " (an empty deck is "").
fn cards(deck: &str) -> Result<Vec<u8>, OpError> {
    let deck = deck.trim();
    if deck.is_empty() {
        return Ok(Vec::new());
    }
    deck.split(" - ").map(card).collect()
}

/// The text after `label` on the line that starts with it, in `display`.
fn line<'a>(display: &'a str, label: &str) -> Result<&'a str, OpError> {
    display
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .ok_or_else(|| declined(format!("the crate printed no {label:?}")))
}

fn blackjack(bet: &Bet) -> Result<Value, OpError> {
    let shown = blackjack::simulate(bet.config()).to_string();
    let mut all = cards(line(&shown, "Player: ")?)?;
    all.extend(cards(line(&shown, "Dealer: ")?)?);
    all.extend(cards(line(&shown, "Deck: ")?)?);
    Ok(json!({ "cards": all }))
}

/// `baccarat::simulate` keeps its steps private; its `Display` names the
/// winner and each hand ("Player (9): ♠J - ♥10 - ♥9"). It draws only the
/// cards it deals (four to six), so `cards`, the six cards of the game's
/// six floats, are the crate's own first six cards of the same stream:
/// `hilo::simulate`'s deck (the same `Card::random` on the same floats).
/// The dealt cards must be their prefix, in the crate's dealing order.
fn baccarat(bet: &Bet) -> Result<Value, OpError> {
    let shown = baccarat::simulate(bet.config()).to_string();
    let hand = |label: &str| -> Result<Vec<u8>, OpError> {
        let rest = line(&shown, label)?;
        let (_, list) = rest
            .split_once(": ")
            .ok_or_else(|| declined(format!("no cards after {label:?}")))?;
        cards(list)
    };
    let (player, banker) = (hand("Player (")?, hand("Banker (")?);
    let winner = match shown.lines().next() {
        Some("Player won") => "player",
        Some("Banker won") => "banker",
        Some("It's a tie") => "tie",
        other => return Err(declined(format!("the crate printed an outcome {other:?}"))),
    };
    let six: Vec<u8> = cards(&hilo::simulate(bet.config()).to_string())?
        .into_iter()
        .take(6)
        .collect();
    // The crate deals player, player, banker, banker, then the player's
    // third and the banker's third when they draw.
    let mut dealt = vec![player[0], player[1], banker[0], banker[1]];
    dealt.extend(player.get(2));
    dealt.extend(banker.get(2));
    if !six.starts_with(&dealt) {
        return Err(declined(format!(
            "the dealt cards {dealt:?} are not the stream's {six:?}"
        )));
    }
    Ok(json!({ "cards": six, "player": player, "banker": banker, "winner": winner }))
}

fn video_poker(bet: &Bet) -> Result<Value, OpError> {
    let shown = video_poker::simulate(bet.config()).to_string();
    let mut all = cards(line(&shown, "Initial Hand: ")?)?;
    all.extend(cards(line(&shown, "Coming Cards: ")?)?);
    Ok(json!({ "cards": all }))
}

/// The dealer's hand is the game's first five gems (the crate draws the
/// dealer's five, then the player's); `Hand`'s `Display` is the `Debug` of
/// its gems, "[Orange, Cyan, Purple, Blue, Red]".
fn diamonds(bet: &Bet) -> Result<Value, OpError> {
    let shown = diamond_poker::simulate(bet.config()).dealer.to_string();
    let inner = shown
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| declined(format!("the crate printed a hand {shown:?}")))?;
    let gems: Vec<String> = inner.split(", ").map(str::to_lowercase).collect();
    Ok(json!({ "gems": gems }))
}

/// A 64-hex-digit text as the crate's `Hash` (its `from_hex` panics on
/// anything else).
fn hash(name: &str, s: &str) -> Result<crash::Hash, OpError> {
    if s.len() != 64 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(declined(format!(
            "the crate takes {name} as 64 hex digits, not {} bytes of text",
            s.len()
        )));
    }
    Ok(crash::Hash::from_hex(s))
}

fn crash_point(game: &str, salt: &str) -> Result<Value, OpError> {
    let game = hash("hash", game)?;
    // The crate's salt is the block hash of its Config; the chain's tip
    // and length are not read by simulate.
    let config = crash::Config::new(game, hash("salt", salt)?, 0);
    let shown = crash::simulate(config, game).to_string();
    let point = shown
        .strip_prefix("Crash point: ")
        .and_then(|x| x.parse::<f64>().ok())
        .ok_or_else(|| declined(format!("the crate printed {shown:?}")))?;
    Ok(json!({ "crashPoint": js_number(point) }))
}

/// `verify_hash` says whether `terminatingHash` is among the first n hashes
/// of the chain from `hash` (the hash itself first): true iff the distance
/// is below n. Doubling n, then halving the gap, finds the least such n.
fn chain(game: &str, tip: &str, limit: u64) -> Result<Value, OpError> {
    let (game, tip) = (hash("hash", game)?, hash("terminatingHash", tip)?);
    let limit = usize::try_from(limit).expect("limit is at most 10^7");
    let within = |n: usize| crash::verify_hash(crash::Config::new(tip, tip, n), game);
    if !within(limit + 1) {
        return Err(OpError::Exhausted {
            message: format!("fair's verify_hash does not reach terminatingHash within {limit} steps"),
        });
    }
    // within(0) is false: no hash is among none.
    let (mut lo, mut hi) = (0, 1);
    while !within(hi) {
        lo = hi;
        hi = (hi * 2).min(limit + 1);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if within(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(json!({ "distance": hi - 1 }))
}

#[cfg(test)]
mod tests {
    //! The translation of the crate's results, on the seeds of the crate's
    //! own tests (src/games/*.rs of fair 0.0.13), against an independent
    //! implementation: npm provably-fair-verifier 1.0.0's answers on the
    //! same seeds (Stake's CARDS index), and Python's hashlib for the chain.
    use super::*;

    const BET: Bet = Bet {
        server: "server seed",
        client: "client seed",
        nonce: 1,
    };

    #[test]
    fn the_crates_cards_read_as_stakes_card_index() {
        // provably-fair-verifier's verifyHilo and verifyBlackjack: 38, 33, 13, 47, 29 (♠J ♥10 ♥5 ♣K ♥9).
        let hilo = cards(&hilo::simulate(BET.config()).to_string()).unwrap();
        assert_eq!((hilo.len(), &hilo[..5]), (52, &[38, 33, 13, 47, 29][..]));
        let bj = blackjack(&BET).unwrap();
        let bj = bj["cards"].as_array().unwrap();
        assert_eq!(
            (bj.len(), &bj[..5]),
            (52, json!([38, 33, 13, 47, 29]).as_array().unwrap().as_slice())
        );
        assert_eq!(card("♣A").unwrap(), 51);
        assert!(card("♣1").is_err() && card("x2").is_err());
    }

    #[test]
    fn baccarat_reads_the_hands_the_winner_and_the_streams_six_cards() {
        // provably-fair-verifier's verifyBaccarat on the seeds of the crate's
        // own test: 30, 42, 8, 14, 28, 47 (♠9 ♠Q ♦4 ♠5 …), a tie at 9.
        let b = Bet {
            server: "some server seed",
            client: "some client seed",
            nonce: 1,
        };
        assert_eq!(
            baccarat(&b).unwrap(),
            json!({ "cards": [30, 42, 8, 14, 28, 47], "player": [30, 42], "banker": [8, 14], "winner": "tie" })
        );
        let b = Bet { nonce: 2, ..b };
        let five = baccarat(&b).unwrap();
        assert_eq!(five["cards"], json!([41, 43, 9, 5, 35, 31]));
        assert_eq!(
            (five["player"].clone(), five["winner"].clone()),
            (json!([41, 43, 35]), json!("banker"))
        );
    }

    #[test]
    fn diamonds_are_the_dealers_five_gems_in_lower_case() {
        // provably-fair-verifier: orange, light_blue (Stake's cyan), purple, blue, red.
        assert_eq!(
            diamonds(&BET).unwrap(),
            json!({ "gems": ["orange", "cyan", "purple", "blue", "red"] })
        );
    }

    #[test]
    fn crash_reads_the_crates_point_and_declines_a_salt_it_cannot_take() {
        let game = "deadbeefe7c270724bd4851c020d489257fa79a70e694a9b5099375464348698";
        let salt = "0000000000000000001b34dc6a1e86083f95500b096231436e9b25cbdd0075c4";
        // The crate's test_crash_simulate_2.
        assert_eq!(
            crash_point(game, salt).unwrap(),
            json!({ "crashPoint": 1.289_700_520_368_708_4 })
        );
        assert_eq!(crash_point(game, "salt").unwrap_err().kind(), "declined");
    }

    #[test]
    fn the_chains_distance_is_the_least_length_verify_hash_accepts_less_one() {
        // hashlib: h0 = SHA-256("testing"), h(i+1) = SHA-256(hex(h(i))); h2 and h9.
        let h2 = "86ba47f64783d3ae4509128b8f365b6424361a7d558ac1dfc90aa8fa3ccba285";
        let h9 = "b3767f29b2f322b0f21ca8d7b2eea82693fd97a633ff5f62fa58cc4eeef19474";
        for limit in [7, 8, 1000] {
            assert_eq!(chain(h2, h9, limit).unwrap(), json!({ "distance": 7 }), "limit {limit}");
        }
        assert_eq!(chain(h2, h2, 1).unwrap(), json!({ "distance": 0 }));
        assert_eq!(chain(h2, h9, 6).unwrap_err().kind(), "exhausted");
    }

    #[test]
    fn plinkos_path_counts_the_crates_bucket_and_numbers_print_as_javascript_does() {
        let p = plinko(&BET, 16, "high").unwrap();
        let rights = p["path"].as_array().unwrap().iter().filter(|d| **d == 1).count();
        assert_eq!(
            (p["path"].as_array().unwrap().len(), json!(rights)),
            (16, p["bucket"].clone())
        );
        assert_eq!(js_number(1.0).to_string(), "1");
        assert_eq!(js_number(470.07).to_string(), "470.07");
        assert_eq!(js_number(-0.0).to_string(), "-0.0");
    }
}
