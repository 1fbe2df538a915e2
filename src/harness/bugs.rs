//! Known bugs by name: the catalog of `harness/bugs/` (each entry one
//! fault, with what it breaks), asked what a fault answers.
//!
//! A finding's minimal request and a sample of its diverging cases are
//! replayed through every fault that models its op; a fault that answers
//! as the target did on every diverging case tried, and as provably does on
//! the op's agreeing cases tried, names the finding ("answers as the known
//! bug `latin1-key` would"). The faults are JavaScript (`faults.mjs`, over
//! reference/js), so one `node harness/bugs/replay.mjs` answers them,
//! started at a run's first divergence (it loads while the run goes on)
//! and kept for the whole run (registered as one of the harness's own
//! children, so clearing a crashed target's orphans never takes it); every
//! line is
//! waited for with a time limit (a hang guard), and a catalog that cannot
//! be found or started leaves findings unnamed, saying why.
//!
//! The folder is `$PROVABLY_BUGS`, else `harness/bugs` in the working
//! directory, else the one of the checkout the binary was built in.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::op::Request;
use crate::protocol::{Reply, Response};

/// One entry of catalog.json, as the harness reads it.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Entry {
    pub name: String,
    pub(crate) lang: String,
    pub ops: Vec<String>,
    #[serde(default)]
    pub(crate) models: Option<Vec<String>>,
    pub(crate) category: String,
    pub(crate) description: String,
}

impl Entry {
    /// Whether the harness may name a finding of `op` after this fault.
    pub(crate) fn models(&self, op: &str) -> bool {
        self.lang == "js" && self.models.as_ref().unwrap_or(&self.ops).iter().any(|o| o == op)
    }
}

#[derive(Debug, Deserialize)]
struct File {
    mutants: Vec<Entry>,
}

/// How long one answer of the replay may take: a hang guard, far above
/// the milliseconds a fault takes.
const ANSWER_LIMIT: Duration = Duration::from_secs(60);

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u64,
}

impl Running {
    /// Kills and reaps the replay, and forgets it as a child of the harness.
    fn end(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        super::children::exited(self.child.id());
    }
}

enum State {
    NotStarted,
    Running(Running),
    Failed(String),
}

struct Inner {
    dir: Option<PathBuf>,
    entries: Result<Vec<Entry>, String>,
    state: State,
    seconds: f64,
}

/// The catalog of known bugs of a run, shared by its targets and copies:
/// one node process answers for all of them.
#[derive(Clone)]
pub struct Bugs(Arc<Mutex<Inner>>);

impl std::fmt::Debug for Bugs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.lock();
        write!(f, "Bugs({:?})", inner.dir)
    }
}

impl Default for Bugs {
    fn default() -> Bugs {
        Bugs::locate()
    }
}

fn folder() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PROVABLY_BUGS").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let here = Path::new("harness/bugs");
    if here.join("catalog.json").is_file() {
        return Some(here.to_path_buf());
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("harness/bugs");
    built.join("catalog.json").is_file().then_some(built)
}

impl Bugs {
    /// The catalog where a run finds it (not started yet).
    pub fn locate() -> Bugs {
        let dir = folder();
        let entries = match &dir {
            None => Err("no catalog of known bugs (harness/bugs/catalog.json; set PROVABLY_BUGS)".to_string()),
            Some(d) => read_catalog(&d.join("catalog.json")),
        };
        Bugs(Arc::new(Mutex::new(Inner {
            dir,
            entries,
            state: State::NotStarted,
            seconds: 0.0,
        })))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The faults that model `op`, or why none can be asked.
    pub(crate) fn models(&self, op: &str) -> Result<Vec<Entry>, String> {
        let inner = self.lock();
        if let State::Failed(why) = &inner.state {
            return Err(why.clone());
        }
        let entries = inner.entries.as_ref().map_err(Clone::clone)?;
        Ok(entries.iter().filter(|e| e.models(op)).cloned().collect())
    }

    /// Starts the replay without waiting for it: a run calls this as soon as
    /// it has divergences, so that node loads while the target is shrinking.
    pub(crate) fn warm(&self) {
        let started = Instant::now();
        let mut inner = self.lock();
        if !matches!(inner.state, State::NotStarted) {
            return;
        }
        if inner.entries.is_ok() {
            if let Some(dir) = inner.dir.clone() {
                inner.state = match start(&dir) {
                    Ok(r) => State::Running(r),
                    Err(why) => State::Failed(why),
                };
            }
        }
        inner.seconds += started.elapsed().as_secs_f64();
    }

    /// Seconds the run waited for the catalog so far (its process's start included).
    pub(crate) fn seconds(&self) -> f64 {
        self.lock().seconds
    }

    /// What each of `faults` answers to each of `requests`:
    /// `answers[f][r]`, `None` for a fault that gave no answer.
    pub(crate) fn answers(&self, faults: &[&str], requests: &[&Request]) -> Result<Vec<Vec<Option<Reply>>>, String> {
        let started = Instant::now();
        let mut inner = self.lock();
        let result = ask(&mut inner, faults, requests);
        inner.seconds += started.elapsed().as_secs_f64();
        if let Err(why) = &result {
            if let State::Running(mut r) = std::mem::replace(&mut inner.state, State::Failed(why.clone())) {
                r.end();
            }
        }
        result
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let State::Running(r) = &mut self.state {
            // End of input ends the replay; a kill makes sure.
            r.end();
        }
    }
}

fn read_catalog(path: &Path) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file: File = serde_json::from_str(&text).map_err(|e| format!("{} is not a catalog: {e}", path.display()))?;
    Ok(file.mutants)
}

fn start(dir: &Path) -> Result<Running, String> {
    let node = std::env::var("PROVABLY_NODE")
        .ok()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "node".into());
    let script = dir.join("replay.mjs");
    let mut cmd = Command::new(&node);
    cmd.arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child =
        super::children::spawn(&mut cmd).map_err(|e| format!("cannot start {node} {}: {e}", script.display()))?;
    let stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let (send, lines) = std::sync::mpsc::channel();
    // Answers are drained as they come, so writing many questions never
    // blocks on a full pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    Ok(Running {
        child,
        stdin,
        lines,
        next_id: 1,
    })
}

fn ask(inner: &mut Inner, faults: &[&str], requests: &[&Request]) -> Result<Vec<Vec<Option<Reply>>>, String> {
    if faults.is_empty() || requests.is_empty() {
        return Ok(vec![vec![None; requests.len()]; faults.len()]);
    }
    if matches!(inner.state, State::NotStarted) {
        let dir = inner.dir.clone().ok_or("no catalog of known bugs")?;
        inner.state = State::Running(start(&dir)?);
    }
    let State::Running(r) = &mut inner.state else {
        let State::Failed(why) = &inner.state else {
            unreachable!("started above")
        };
        return Err(why.clone());
    };
    let first = r.next_id;
    let mut text = String::new();
    for fault in faults {
        for request in requests {
            let line = serde_json::json!({ "id": r.next_id, "fault": fault, "request": request.to_value() });
            text.push_str(&line.to_string());
            text.push('\n');
            r.next_id += 1;
        }
    }
    r.stdin
        .write_all(text.as_bytes())
        .and_then(|()| r.stdin.flush())
        .map_err(|e| format!("the known-bug replay stopped reading: {e}"))?;
    let mut out = vec![vec![None; requests.len()]; faults.len()];
    for k in 0..faults.len() * requests.len() {
        let line = match r.lines.recv_timeout(ANSWER_LIMIT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => return Err("the known-bug replay did not answer within 60 s".into()),
            Err(RecvTimeoutError::Disconnected) => return Err("the known-bug replay exited".into()),
        };
        let response = Response::parse(&line).map_err(|e| format!("the known-bug replay answered {e}"))?;
        let want = first + k as u64;
        if response.id != i64::try_from(want).ok() {
            return Err(format!(
                "the known-bug replay answered id {:?}, not {want}",
                response.id
            ));
        }
        out[k / requests.len()][k % requests.len()] = Some(response.reply);
    }
    Ok(out)
}
