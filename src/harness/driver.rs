//! One copy of a target as the harness drives it: started, restarted once
//! after a fault, asked batches (by [`super::run`]) or one request at a time
//! (by the shrinker, the findings' lower-op probes and the expectations'
//! replay), with ids that never repeat.

use super::cases::Ask;
use super::{Fault, FaultKind, Got, Hello, Target};
use crate::op::Request;
use crate::protocol::Reply;

/// One copy of the target, restarted at most once after a fault.
pub(crate) struct Driver {
    pub(crate) target: Box<dyn Target>,
    restarts_left: u32,
    pub(crate) alive: bool,
    pub faults: Vec<Fault>,
    next_id: i64,
    /// The ops hello claims: the lower ops a finding may ask.
    pub(crate) claimed: Vec<String>,
}

impl Driver {
    pub fn new(target: Box<dyn Target>) -> Driver {
        Driver {
            target,
            restarts_left: 1,
            alive: false,
            faults: Vec::new(),
            next_id: 2,
            claimed: Vec::new(),
        }
    }

    /// Starts the target (restarting once after a fault) and returns its hello.
    pub(crate) fn handshake(&mut self) -> Option<Hello> {
        for _ in 0..2 {
            match self.target.start() {
                Ok(h) => {
                    self.alive = true;
                    self.claimed.clone_from(&h.ops);
                    return Some(h);
                }
                Err(f) => self.faults.push(f),
            }
            self.restarts_left = 0;
        }
        None
    }

    /// Records a fault and restarts once; returns whether the target is usable.
    pub(crate) fn fault(&mut self, f: Fault) -> bool {
        self.faults.push(f);
        self.alive = false;
        if self.restarts_left == 0 {
            return false;
        }
        self.restarts_left -= 1;
        match self.target.start() {
            Ok(_) => {
                self.alive = true;
                true
            }
            Err(f) => {
                self.faults.push(f);
                false
            }
        }
    }

    pub(crate) fn ids(&mut self, n: usize) -> Vec<i64> {
        let first = self.next_id;
        let n = i64::try_from(n).expect("a batch is small");
        self.next_id += 2 * n;
        (0..n).map(|k| first + 2 * k).collect()
    }

    /// The highest id sent so far.
    pub(crate) fn highest(&self) -> i64 {
        self.next_id - 2
    }

    /// Asks one request alone (for shrinking); `None` on a fault.
    pub(crate) fn ask_one(&mut self, request: &Request) -> Option<Reply> {
        if !self.alive {
            return None;
        }
        let ask = [Ask::Request(request.clone())];
        let ids = self.ids(1);
        let highest = self.highest();
        let mut reply = None;
        let fault = match self.target.send(&ask, &ids) {
            Err(f) => Some(f),
            Ok(()) => self.target.receive(&mut |got| {
                reply = Some(decode(got, &ask[0], ids[0], highest)?);
                Ok(())
            }),
        };
        match (fault, reply) {
            (None, Some(r)) => Some(r),
            (fault, _) => {
                self.fault(fault.unwrap_or_else(|| Fault::new(FaultKind::MissingAnswer, "no answer")));
                None
            }
        }
    }

    /// Asks a lower op's request for [`super::cause::decide`], if hello
    /// claims the op; a declined answer says nothing, so it is `None` too.
    pub(crate) fn probe(&mut self, request: &Request) -> Option<Reply> {
        if !self.claimed.iter().any(|o| o == request.op()) {
            return None;
        }
        self.ask_one(request)
            .filter(|r| !matches!(r, Reply::Error { kind, .. } if kind == "declined" || kind == "unsupported"))
    }
}

/// Reads an answer as the reply to request `id` (`highest` the highest id
/// sent); a line that is not one is a fault (not JSON, a wrong id, …).
pub(crate) fn decode(got: Got, ask: &Ask, id: i64, highest: i64) -> Result<Reply, Fault> {
    match got {
        Got::Reply(r) => Ok(r),
        Got::Line(bytes) => super::process::decode_line(
            &bytes,
            id,
            highest,
            || matches!(ask, Ask::Invalid(i) if i.input().is_none()),
        ),
    }
}
