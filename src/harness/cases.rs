//! What the harness asks: every canonical vector, then cases generated from
//! properties of each op's inputs (each op's `generate` in the op table).
//!
//! Cases are made one batch at a time, never all at once: case k of an op
//! is a pure function of the run's seed, the op and k, so a run of 10^6
//! cases per op holds one batch, any case can be rebuilt (for shrinking, or
//! from a report) without replaying the others, and the same seed asks the
//! same questions whatever the number of target copies sharing the work.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, OnceLock};

use proptest::prelude::Rng;
use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sha2::{Digest, Sha256};

use crate::op::{OpSpec, Request};
use crate::vectors::negative::Invalid;

/// One question for a target.
#[derive(Debug, Clone)]
pub enum Ask {
    /// A valid request: the expected answer is provably's.
    Request(Request),
    /// A request line provably answers `invalid` (a negative vector, or a
    /// generated case with one fault put in), sent byte for byte.
    Invalid(Arc<Invalid>),
}

impl Ask {
    /// The op the question asks (for an invalid line, the op it was made from).
    pub fn op(&self) -> &'static str {
        match self {
            Ask::Request(r) => r.op(),
            Ask::Invalid(i) => i.op.name,
        }
    }

    /// The protocol line with `id` put in front of the other members.
    pub fn line(&self, id: i64) -> String {
        let mut out = Vec::new();
        self.write_line(id, &mut out);
        String::from_utf8(out).expect("request lines are text")
    }

    /// Appends [`Ask::line`] to `out`.
    pub fn write_line(&self, id: i64, out: &mut Vec<u8>) {
        match self {
            Ask::Request(r) => r.write_line(id, out),
            Ask::Invalid(i) => i.write_line_with_id(id, out),
        }
    }

    /// The request text without id, as a report shows it.
    pub fn text(&self) -> String {
        match self {
            Ask::Request(r) => r.to_value().to_string(),
            Ask::Invalid(i) => i.line.clone(),
        }
    }
}

/// Where a case comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Origin {
    Vector {
        scheme: &'static str,
        tc_id: usize,
        comment: String,
    },
    Property {
        index: u64,
    },
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Vector { scheme, tc_id, comment } => write!(f, "vector {scheme} tcId {tc_id} ({comment})"),
            Origin::Property { index } => write!(f, "property case {index}"),
        }
    }
}

/// One case of a run: the question, and where it comes from (a canonical vector, or the n-th generated case).
#[derive(Debug, Clone)]
pub struct Case {
    pub(crate) origin: Origin,
    /// The question as the target is asked it.
    pub ask: Ask,
}

/// The canonical vectors of every op, valid then invalid, indexed once.
fn vector_index() -> &'static HashMap<&'static str, Vec<Case>> {
    static INDEX: OnceLock<HashMap<&'static str, Vec<Case>>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index: HashMap<&'static str, Vec<Case>> = HashMap::new();
        for v in crate::vectors::schemes() {
            for (i, c) in v.cases.iter().enumerate() {
                index.entry(c.request.op()).or_default().push(Case {
                    origin: Origin::Vector {
                        scheme: v.scheme.name,
                        tc_id: i + 1,
                        comment: c.comment.clone(),
                    },
                    ask: Ask::Request(c.request.clone()),
                });
            }
            for (i, inv) in v.invalid.iter().enumerate() {
                index.entry(inv.op.name).or_default().push(Case {
                    origin: Origin::Vector {
                        scheme: v.scheme.name,
                        tc_id: v.invalid_tc_id(i),
                        comment: inv.comment.clone(),
                    },
                    ask: Ask::Invalid(Arc::new(inv.clone())),
                });
            }
        }
        index
    })
}

/// The canonical vectors of `op`.
pub(crate) fn vectors_for(op: &str) -> &'static [Case] {
    vector_index().get(op).map_or(&[], Vec::as_slice)
}

/// The key of `op`'s cases in the run with seed `seed`, hashed once per
/// thread: SHA-256 of `provably-diff:<seed>:<op>`.
fn op_key(seed: u64, op: &'static str) -> [u8; 32] {
    thread_local! {
        static KEYS: RefCell<Recent<(u64, &'static str), [u8; 32]>> = RefCell::new(Recent::default());
    }
    KEYS.with(|keys| {
        *keys.borrow_mut().get((seed, op), || {
            Sha256::digest(format!("provably-diff:{seed}:{op}")).into()
        })
    })
}

/// A per-thread memo that answers a repeat of the last key without hashing
/// it: a worker draws a whole batch of one op, case after case, and SipHash
/// of the op's name was a tenth of drawing a short case.
struct Recent<K, V> {
    last: Option<(K, V)>,
    all: HashMap<K, V>,
}

impl<K, V> Default for Recent<K, V> {
    fn default() -> Self {
        Recent {
            last: None,
            all: HashMap::new(),
        }
    }
}

impl<K: Eq + std::hash::Hash + Copy, V: Clone> Recent<K, V> {
    fn get(&mut self, key: K, make: impl FnOnce() -> V) -> &V {
        if self.last.as_ref().is_none_or(|(k, _)| *k != key) {
            let v = self.all.entry(key).or_insert_with(make).clone();
            self.last = Some((key, v));
        }
        &self.last.as_ref().expect("just set").1
    }
}

/// The RNG of case `index` of `op` in the run with seed `seed`: ChaCha20
/// keyed with the op's key, the index in its last eight bytes. ChaCha is a
/// PRF, so keys that differ there give independent streams, and a case
/// costs no hash. `stream` flips the key's first byte for a second stream
/// of the same case (0: the case itself).
fn rng(seed: u64, op: &'static str, index: u64, stream: u8) -> TestRng {
    let mut key = op_key(seed, op);
    key[0] ^= stream;
    for (k, i) in key[24..].iter_mut().zip(index.to_le_bytes()) {
        *k ^= i;
    }
    TestRng::from_seed(RngAlgorithm::ChaCha, &key)
}

/// The op's generator, built once per thread: a strategy is a tree of
/// boxed parts, and building one costs as much as drawing a case from it.
fn strategy(op: &'static OpSpec) -> BoxedStrategy<Request> {
    thread_local! {
        static BUILT: RefCell<Recent<&'static str, BoxedStrategy<Request>>> = RefCell::new(Recent::default());
    }
    BUILT.with(|built| built.borrow_mut().get(op.name, op.generate).clone())
}

/// The value tree of one generated case: its current value is the case,
/// and it can be simplified (shrunk) step by step.
pub(crate) fn tree(seed: u64, op: &'static OpSpec, index: u64) -> Box<dyn ValueTree<Value = Request>> {
    // Without failure persistence: the default config boxes a file
    // persister, and a union of strategies clones the config (and the box)
    // for every alternative it does not pick, case after case.
    static CONFIG: LazyLock<Config> = LazyLock::new(|| Config {
        failure_persistence: None,
        ..Config::default()
    });
    let mut runner = TestRunner::new_with_rng(CONFIG.clone(), rng(seed, op.name, index, 0));
    Box::new(
        strategy(op)
            .new_tree(&mut runner)
            .expect("strategies always produce a value"),
    )
}

/// Every eighth generated case is a negative one: a generated request with
/// one fault put in ([`crate::vectors::negative::variants`]), the fault picked by the
/// case's own RNG.
const NEGATIVE_EVERY: u64 = 8;

/// Generated case `index` of `op`.
pub fn generated(seed: u64, op: &'static OpSpec, index: u64) -> Case {
    let request = tree(seed, op, index).current();
    let ask = if index % NEGATIVE_EVERY == NEGATIVE_EVERY - 1 {
        // The fault is picked by a stream of its own, so it does not move
        // when a generator draws more or less.
        let pick = rng(seed, op.name, index, 0xff).next_u64();
        Ask::Invalid(Arc::new(crate::vectors::negative::variant(&request, pick)))
    } else {
        Ask::Request(request)
    };
    Case {
        origin: Origin::Property { index },
        ask,
    }
}

/// The cases of one op: its vectors, then `generated` property cases.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    pub op: &'static OpSpec,
    pub(crate) seed: u64,
    pub(crate) generated: u64,
}

impl Plan {
    /// How many cases the op has in all.
    pub(crate) fn len(&self) -> u64 {
        vectors_for(self.op.name).len() as u64 + self.generated
    }

    /// Case `k` of the op (vectors first).
    pub(crate) fn case(&self, k: u64) -> Case {
        let vectors = vectors_for(self.op.name);
        match usize::try_from(k).ok().and_then(|i| vectors.get(i)) {
            Some(c) => c.clone(),
            None => generated(self.seed, self.op, k - vectors.len() as u64),
        }
    }
}

#[cfg(test)]
mod tests {
    //! `serve`'s reading of a request line is the same in any layout, on
    //! the lines a harness run sends (here, where the cases are: the
    //! protocol layer sits below the harness).
    use super::*;
    use serde_json::Value;

    fn python_layout(v: &Value) -> String {
        let mut out = Vec::new();
        let f = serde_json::ser::PrettyFormatter::with_indent(b"");
        let mut s = serde_json::Serializer::with_formatter(&mut out, f);
        serde::Serialize::serialize(v, &mut s).unwrap();
        String::from_utf8(out).unwrap().replace('\n', " ")
    }

    /// Every line a harness run sends (valid and invalid requests), written
    /// again as other writers lay it out (`json.dumps`'s `", "` and `": "`,
    /// keys in reverse order, pretty-printed, every character but ASCII as
    /// a `\u` escape), is answered as the line is.
    #[test]
    fn a_request_line_is_answered_the_same_in_any_layout_and_key_order() {
        let mut lines = 0;
        for op in crate::registry::ops() {
            let plan = Plan {
                op,
                seed: 7,
                generated: 400,
            };
            for k in 0..plan.len() {
                let line = plan.case(k).ask.line(i64::try_from(k).unwrap() + 1);
                // A line that is no JSON object (or gives a key twice) is
                // answered with the parser's reason, which names a place.
                let Ok(Value::Object(m)) = crate::base::json::parse(&line) else {
                    continue;
                };
                let answer = crate::protocol::answer_line(&line).to_line();
                let reversed: serde_json::Map<String, Value> = m.clone().into_iter().rev().collect();
                let escaped: String = line
                    .chars()
                    .map(|c| match c {
                        ' '..='~' => c.to_string(),
                        _ => c
                            .encode_utf16(&mut [0; 2])
                            .iter()
                            .map(|u| format!("\\u{u:04x}"))
                            .collect(),
                    })
                    .collect();
                for other in [
                    python_layout(&Value::Object(m.clone())),
                    Value::Object(reversed).to_string(),
                    serde_json::to_string_pretty(&Value::Object(m)).unwrap(),
                    escaped,
                ] {
                    assert_eq!(crate::protocol::answer_line(&other).to_line(), answer, "{other}");
                }
                lines += 1;
            }
        }
        assert!(lines > 1000, "{lines} lines");
    }
}
