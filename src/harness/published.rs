//! Built-in adapters for the published Python programs of seed 003.
//!
//! They speak no protocol, so the harness drives them through their own
//! command lines exactly as the page documents them: `referenz.py pruefe
//! FILE` for a batch of cursor requests, `poker_referenz.py bewerte FILE` for
//! a batch of hands, and `poker_referenz.py austeilen SEED CLIENT NONCE N`
//! once per deal. The files are run as published, never imported or edited.

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::manifest::{Kind, Manifest};
use super::{Fault, FaultKind, Hello, Target};
use crate::op::Request;
use crate::protocol::Reply;

/// A published program and the way it is called.
pub struct PublishedTarget {
    manifest: Manifest,
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
        PublishedTarget { manifest }
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
            f.request = Some(format!("{argv:?}").chars().take(300).collect());
            f.exit_status = status;
            f.stderr_tail =
                String::from_utf8_lossy(&stderr[stderr.len().saturating_sub(super::process::STDERR_TAIL)..])
                    .into_owned();
            f
        };
        let handle = duct::cmd(&argv[0], &argv[1..])
            .dir(&m.workdir)
            .full_env(std::env::vars().chain(m.env.clone()))
            .stdin_null()
            .stdout_capture()
            .stderr_capture()
            .unchecked()
            .start()
            .map_err(|e| evidence(FaultKind::Spawn, format!("cannot start {:?}: {e}", argv[0]), None, &[]))?;
        let deadline = Instant::now() + m.request_timeout;
        loop {
            match handle.try_wait() {
                Ok(Some(out)) => {
                    return if out.status.success() {
                        Ok(Run {
                            stdout: out.stdout.clone(),
                        })
                    } else {
                        Err(evidence(
                            FaultKind::Crash,
                            "the published program failed".into(),
                            Some(out.status.to_string()),
                            &out.stderr,
                        ))
                    };
                }
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
                Ok(None) => {
                    let _ = handle.kill();
                    return Err(evidence(
                        FaultKind::Timeout,
                        format!("no result within {} ms", m.request_timeout.as_millis()),
                        None,
                        &[],
                    ));
                }
                Err(e) => return Err(evidence(FaultKind::Crash, format!("waiting failed: {e}"), None, &[])),
            }
        }
    }

    fn parse_json(&self, run: &Run) -> Result<Value, Fault> {
        serde_json::from_slice(&run.stdout).map_err(|e| {
            let mut f = Fault::new(FaultKind::NotJson, format!("output is not JSON: {e}"));
            f.received = Some(String::from_utf8_lossy(&run.stdout[..run.stdout.len().min(300)]).into_owned());
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
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let out = probe.output().map_err(|e| {
            Fault::new(
                FaultKind::Spawn,
                format!("cannot start {:?}: {e}", self.manifest.command[0]),
            )
        })?;
        if !out.status.success() {
            let mut f = Fault::new(FaultKind::Spawn, "the Python interpreter does not run");
            f.stderr_tail = String::from_utf8_lossy(&out.stderr).into_owned();
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

    fn call(&mut self, requests: &[Request]) -> (Vec<Reply>, Option<Fault>) {
        let result = match self.manifest.kind {
            Kind::ReferenzCli => self.pruefe(requests),
            Kind::PokerReferenzCli => self.poker(requests),
            Kind::Protocol => unreachable!("protocol targets are ProcessTarget"),
        };
        match result {
            Ok(replies) => (replies, None),
            Err(f) => (Vec::new(), Some(f)),
        }
    }

    fn finish(&mut self) -> Option<Fault> {
        None
    }

    fn batch_size(&self) -> usize {
        4000
    }
}
