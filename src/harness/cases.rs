//! What the harness asks: every canonical vector, and cases generated from
//! properties of each op's inputs (each op's `generate` in the op table).
//!
//! Each generated case has its own RNG seed, derived from the run's seed,
//! the op and the case number, so any single case can be rebuilt (for
//! shrinking, or from a report) without replaying the others.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sha2::{Digest, Sha256};

use crate::op::{OpSpec, Request};

/// Where a case comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
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

#[derive(Debug, Clone)]
pub struct Case {
    pub origin: Origin,
    pub request: Request,
}

/// The canonical vectors of `op`, as requests.
pub fn vectors_for(op: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for v in crate::vectors::schemes() {
        for (i, c) in v.cases.iter().enumerate() {
            if c.request.op() == op {
                out.push(Case {
                    origin: Origin::Vector {
                        scheme: v.scheme.name,
                        tc_id: i + 1,
                        comment: c.comment.clone(),
                    },
                    request: c.request.clone(),
                });
            }
        }
    }
    out
}

/// The RNG of case `index` of `op` in the run with seed `seed`.
fn rng(seed: u64, op: &str, index: u64) -> TestRng {
    let digest = Sha256::digest(format!("provably-diff:{seed}:{op}:{index}"));
    TestRng::from_seed(RngAlgorithm::ChaCha, &digest)
}

/// The value tree of one generated case: its current value is the case,
/// and it can be simplified (shrunk) step by step.
pub fn tree(seed: u64, op: &'static OpSpec, index: u64) -> Box<dyn ValueTree<Value = Request>> {
    let mut runner = TestRunner::new_with_rng(Config::default(), rng(seed, op.name, index));
    Box::new(
        (op.generate)()
            .new_tree(&mut runner)
            .expect("strategies always produce a value"),
    )
}

/// Generated case `index` of `op`.
pub fn generated(seed: u64, op: &'static OpSpec, index: u64) -> Case {
    Case {
        origin: Origin::Property { index },
        request: tree(seed, op, index).current(),
    }
}
