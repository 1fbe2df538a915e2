//! Built-in adapters for the published Python programs of seed 003.
//!
//! They speak no protocol, so the harness drives them through their own
//! command lines exactly as the page documents them: `referenz.py pruefe
//! FILE` for a batch of cursor requests, `poker_referenz.py bewerte FILE` for
//! a batch of hands, and `poker_referenz.py austeilen SEED CLIENT NONCE N`
//! once per deal. The files are run as published, never imported or edited.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::manifest::{Kind, Manifest};
use super::{children, Ask, Fault, FaultKind, Got, Hello, Target};
use crate::base::text::escape;
use crate::op::Request;
use crate::protocol::Reply;

/// A published program and the way it is called.
pub(crate) struct PublishedTarget {
    manifest: Manifest,
    /// Batches sent and not yet run.
    pending: std::collections::VecDeque<Vec<Ask>>,
}

/// Output of one run of the published program.
struct Run {
    stdout: Vec<u8>,
}

/// The ops `referenz.py pruefe` answers: every cursor op but the hash.
const PRUEFE: [&str; 4] = ["cursor.raw", "cursor.float", "cursor.int", "cursor.shuffle"];

fn is_cursor(r: &Request) -> bool {
    PRUEFE.contains(&r.op())
}

fn unsupported(op: &str) -> Reply {
    Reply::Error {
        kind: "unsupported".into(),
        message: format!("the published program has no command for {op}"),
    }
}

impl PublishedTarget {
    pub fn new(manifest: Manifest) -> Self {
        PublishedTarget {
            manifest,
            pending: std::collections::VecDeque::new(),
        }
    }

    /// The ops the published program can answer through its command line.
    pub fn ops(&self) -> Vec<String> {
        let ops: &[&str] = match self.manifest.kind {
            // `pruefe` prints raw, float, int and shuffle; no command prints a seed's hash.
            Kind::ReferenzCli => &PRUEFE,
            Kind::PokerReferenzCli => &["poker.deal", "poker.evaluate"],
            Kind::Protocol => &[],
        };
        ops.iter().map(|s| s.to_string()).collect()
    }

    /// Runs the program with `args`, with the manifest's timeout, and
    /// returns stdout; any other ending is a fault carrying the evidence.
    fn run(&self, args: &[String]) -> Result<Run, Fault> {
        let m = &self.manifest;
        let mut argv = m.command.clone();
        argv.extend(args.iter().cloned());
        let evidence = |kind, detail: String, status: Option<String>, stderr: &[u8]| {
            let mut f = Fault::new(kind, detail);
            f.request = Some(escape(format!("{argv:?}").as_bytes()).chars().take(300).collect());
            f.exit_status = status;
            f.stderr_tail =
                crate::base::text::escape_lines(&stderr[stderr.len().saturating_sub(super::process::STDERR_TAIL)..]);
            f
        };
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .current_dir(&m.workdir)
            .envs(&m.env)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut child = children::spawn(&mut cmd)
            .map_err(|e| evidence(FaultKind::Spawn, format!("cannot start {:?}: {e}", argv[0]), None, &[]))?;
        let drain = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut out = Vec::new();
                let _ = pipe.read_to_end(&mut out);
                out
            })
        };
        let stdout = drain(Box::new(child.stdout.take().expect("piped")));
        let stderr = drain(Box::new(child.stderr.take().expect("piped")));
        let deadline = Instant::now() + m.request_timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
                Ok(None) | Err(_) => break None,
            }
        };
        children::kill_group(child.id());
        let _ = child.kill();
        let _ = child.wait();
        children::exited(child.id());
        children::reap_orphans();
        let (stdout, stderr) = (stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default());
        match status {
            Some(s) if s.success() => Ok(Run { stdout }),
            Some(s) => Err(evidence(
                FaultKind::Crash,
                "the published program failed".into(),
                Some(s.to_string()),
                &stderr,
            )),
            None => Err(evidence(
                FaultKind::Timeout,
                format!("no result within {} ms", m.request_timeout.as_millis()),
                None,
                &stderr,
            )),
        }
    }

    fn parse_json(&self, run: &Run) -> Result<Value, Fault> {
        serde_json::from_slice(&run.stdout).map_err(|e| {
            let mut f = Fault::new(FaultKind::NotJson, format!("output is not JSON: {e}"));
            f.received = Some(escape(&run.stdout[..run.stdout.len().min(300)]));
            f
        })
    }

    /// Writes `value` to a temporary JSON file for a `FILE` argument.
    fn temp_json(value: &Value) -> Result<tempfile::NamedTempFile, Fault> {
        let mut f = tempfile::Builder::new()
            .suffix(".json")
            .tempfile()
            .map_err(|e| Fault::new(FaultKind::Spawn, format!("temporary file: {e}")))?;
        std::io::Write::write_all(&mut f, value.to_string().as_bytes())
            .map_err(|e| Fault::new(FaultKind::Spawn, format!("temporary file: {e}")))?;
        Ok(f)
    }

    /// `referenz.py pruefe FILE`: one entry per cursor request.
    fn pruefe(&self, requests: &[Request]) -> Result<Vec<Reply>, Fault> {
        // pruefe reads the request's own fields, except that a shuffle's
        // count is called shuffleCount; it always prints raw and float too.
        let entries: Vec<Value> = requests
            .iter()
            .filter(|r| is_cursor(r))
            .map(|r| {
                let mut entry = r.to_value();
                let map = entry.as_object_mut().expect("requests are objects");
                map.remove("op");
                if let Some(count) = map.remove("count") {
                    map.insert("shuffleCount".into(), count);
                }
                entry
            })
            .collect();
        let results = if entries.is_empty() {
            Vec::new()
        } else {
            let file = Self::temp_json(&Value::from(entries))?;
            let run = self.run(&["pruefe".into(), file.path().display().to_string()])?;
            match self.parse_json(&run)? {
                Value::Array(a) => a,
                other => {
                    return Err(Fault::new(
                        FaultKind::NotJson,
                        format!("pruefe printed {}, not a list", other),
                    ))
                }
            }
        };
        let mut results = results.into_iter();
        let mut replies = Vec::new();
        for r in requests {
            let reply = match r {
                r if is_cursor(r) => {
                    let e = results.next().ok_or_else(|| {
                        Fault::new(
                            FaultKind::MissingAnswer,
                            "pruefe printed fewer results than it was given entries",
                        )
                    })?;
                    Reply::Ok(match r.op() {
                        "cursor.raw" => json!({ "raw": e["raw"] }),
                        // pruefe prints repr(float) as a string; read it back to the same double.
                        "cursor.float" => match e["float"].as_str().and_then(|s| s.parse::<f64>().ok()) {
                            Some(f) => json!({ "float": f }),
                            None => json!({ "float": e["float"] }),
                        },
                        "cursor.int" => json!({ "value": e["int"], "cursorNext": e["cursorNext"] }),
                        _ => json!({ "order": e["shuffle"], "cursorNext": e["shuffleCursorNext"] }),
                    })
                }
                other => unsupported(other.op()),
            };
            replies.push(reply);
        }
        if results.next().is_some() {
            return Err(Fault::new(
                FaultKind::ExtraAnswer,
                "pruefe printed more results than it was given entries",
            ));
        }
        Ok(replies)
    }

    /// `poker_referenz.py bewerte FILE` for the hands, `austeilen` per deal (in parallel).
    fn poker(&self, requests: &[Request]) -> Result<Vec<Reply>, Fault> {
        let wire: Vec<Value> = requests.iter().map(Request::to_value).collect();
        let hands: Vec<Value> = requests
            .iter()
            .zip(&wire)
            .filter(|(r, _)| r.op() == "poker.evaluate")
            .map(|(_, w)| w["cards"].clone())
            .collect();
        let mut rated = if hands.is_empty() {
            Vec::new()
        } else {
            let file = Self::temp_json(&Value::from(hands))?;
            let run = self.run(&["bewerte".into(), file.path().display().to_string()])?;
            match self.parse_json(&run)? {
                Value::Array(a) => a,
                other => {
                    return Err(Fault::new(
                        FaultKind::NotJson,
                        format!("bewerte printed {other}, not a list"),
                    ))
                }
            }
        }
        .into_iter();
        // austeilen takes the seeds, the nonce and the players as arguments.
        let deals: Vec<(usize, Vec<String>)> = requests
            .iter()
            .zip(&wire)
            .enumerate()
            .filter(|(_, (r, _))| r.op() == "poker.deal")
            .map(|(i, (_, w))| {
                let arg = |k: &str| match &w[k] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (
                    i,
                    vec![
                        "austeilen".into(),
                        arg("serverSeed"),
                        arg("clientSeed"),
                        arg("nonce"),
                        arg("players"),
                    ],
                )
            })
            .collect();
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).max(1);
        let mut dealt: Vec<Option<Result<Value, Fault>>> = (0..requests.len()).map(|_| None).collect();
        for chunk in deals.chunks(threads) {
            let results: Vec<(usize, Result<Value, Fault>)> = std::thread::scope(|s| {
                let handles: Vec<_> = chunk
                    .iter()
                    .map(|(i, args)| s.spawn(move || (*i, self.run(args).and_then(|run| self.parse_json(&run)))))
                    .collect();
                handles.into_iter().map(|h| h.join().expect("no panic")).collect()
            });
            for (i, r) in results {
                dealt[i] = Some(r);
            }
        }
        let mut replies = Vec::new();
        for (i, r) in requests.iter().enumerate() {
            replies.push(match r.op() {
                "poker.evaluate" => {
                    let e = rated.next().ok_or_else(|| {
                        Fault::new(FaultKind::MissingAnswer, "bewerte printed fewer results than hands")
                    })?;
                    Reply::Ok(json!({ "category": e[0], "ranks": e[1] }))
                }
                "poker.deal" => {
                    let d = dealt[i].take().expect("dealt")?;
                    Reply::Ok(json!({ "hole": d["loch"], "board": d["board"] }))
                }
                other => unsupported(other),
            });
        }
        Ok(replies)
    }
}

impl Target for PublishedTarget {
    fn name(&self) -> &str {
        &self.manifest.name
    }

    /// There is no handshake; the first run of the program checks that the
    /// interpreter and the file are there.
    fn start(&mut self) -> Result<Hello, Fault> {
        let mut probe = std::process::Command::new(&self.manifest.command[0]);
        probe
            .arg("-c")
            .arg("import hashlib, hmac, json")
            .current_dir(&self.manifest.workdir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let spawn_fault = |e: std::io::Error| {
            Fault::new(
                FaultKind::Spawn,
                format!("cannot start {:?}: {e}", self.manifest.command[0]),
            )
        };
        let child = children::spawn(&mut probe).map_err(spawn_fault)?;
        let pid = child.id();
        let out = child.wait_with_output();
        children::exited(pid);
        let out = out.map_err(spawn_fault)?;
        if !out.status.success() {
            let mut f = Fault::new(FaultKind::Spawn, "the Python interpreter does not run");
            f.stderr_tail = crate::base::text::escape_lines(&out.stderr);
            return Err(f);
        }
        let script = self
            .manifest
            .workdir
            .join(self.manifest.command.last().expect("command"));
        let mut text = String::new();
        std::fs::File::open(&script)
            .and_then(|mut f| f.read_to_string(&mut text))
            .map_err(|e| Fault::new(FaultKind::Spawn, format!("cannot read {}: {e}", script.display())))?;
        Ok(Hello {
            name: format!("{} (published, via its command line)", self.manifest.name),
            ops: self.ops(),
        })
    }

    fn send(&mut self, asks: &[Ask], _ids: &[i64]) -> Result<(), Fault> {
        self.pending.push_back(asks.to_vec());
        Ok(())
    }

    /// Runs the oldest batch through the program. A request line that is
    /// not a valid request cannot be put to a program that has no way to
    /// refuse one: it is declined.
    fn receive(&mut self, answer: &mut dyn FnMut(Got) -> Result<(), Fault>) -> Option<Fault> {
        let asks = self.pending.pop_front()?;
        let requests: Vec<Request> = asks
            .iter()
            .filter_map(|a| match a {
                Ask::Request(r) => Some(r.clone()),
                Ask::Invalid(_) => None,
            })
            .collect();
        let result = match self.manifest.kind {
            Kind::ReferenzCli => self.pruefe(&requests),
            Kind::PokerReferenzCli => self.poker(&requests),
            Kind::Protocol => unreachable!("protocol targets are ProcessTarget"),
        };
        let mut replies = match result {
            Ok(replies) => replies.into_iter(),
            Err(f) => return Some(f),
        };
        for a in &asks {
            let reply = match a {
                Ask::Request(_) => replies.next().expect("one reply per request"),
                Ask::Invalid(_) => Reply::Error {
                    kind: "declined".into(),
                    message: "the published program has no way to refuse a request".into(),
                },
            };
            if let Err(f) = answer(Got::Reply(reply)) {
                self.pending.clear();
                return Some(f);
            }
        }
        None
    }

    fn abort(&mut self, fault: Fault) -> Fault {
        self.pending.clear();
        fault
    }

    fn finish(&mut self) -> Option<Fault> {
        None
    }

    fn batch_size(&self) -> usize {
        4000
    }

    fn pipeline(&self) -> usize {
        1
    }
}
