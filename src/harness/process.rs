//! A protocol v1 target running as a subprocess.
//!
//! Three threads per process keep the harness from ever blocking on the
//! target: one writes requests (a target that stops reading cannot stall
//! us), one reads stdout lines with a length cap (a 100 MB line is counted,
//! not stored), one drains stderr keeping only its tail (a flood cannot fill
//! the pipe and deadlock the target). The caller only waits on a channel,
//! always with a timeout.
//!
//! Answers are handed back as raw lines: the harness compares them byte
//! for byte with the line `provably serve` would print and parses only a
//! line that differs (`ProcessTarget::decode`). Lines read but not yet
//! taken count against a budget of bytes in flight, so a target that
//! answers 16 MB lines as fast as it can makes the reader wait instead of
//! growing the harness's memory.
//!
//! Request ids are even and increase: an answer with an off-by-one id can
//! never pass for another request's, and an id tells an answer that came
//! too early (a later request's) from one that came twice.

use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::manifest::Manifest;
use super::{children, Ask, Fault, FaultKind, Got, Hello, Target};
use crate::base::lines::{read_line, Line, MAX_LINE};
use crate::base::text::escape;
use crate::protocol::{Reply, Response};

/// How much of stderr is kept for reports.
pub(crate) const STDERR_TAIL: usize = 64 << 10;
/// More stderr than this in total is a fault.
pub(crate) const STDERR_LIMIT: u64 = 1 << 20;
/// Bytes of answer lines read from a target but not yet taken by the harness.
pub(crate) const IN_FLIGHT: usize = 64 << 20;
/// How long a target may take to exit once its stdin is closed.
const EXIT_GRACE: Duration = Duration::from_secs(5);

enum OutEvent {
    Line(Vec<u8>),
    TooLong { prefix: Vec<u8> },
    Eof,
}

/// The bytes of lines read and not yet taken, with a cap the reader waits on.
#[derive(Default)]
struct Budget {
    state: Mutex<BudgetState>,
    freed: Condvar,
}

#[derive(Default)]
struct BudgetState {
    taken: usize,
    closed: bool,
    /// The reader waits for room: only then does a line taken wake it (a
    /// wake-up per line is a system call per line).
    waiting: bool,
}

impl Budget {
    /// Waits until `n` more bytes fit (or nothing is in flight); false when closed.
    fn take(&self, n: usize) -> bool {
        let mut s = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        while !s.closed && s.taken > 0 && s.taken + n > IN_FLIGHT {
            s.waiting = true;
            s = self.freed.wait(s).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        s.waiting = false;
        s.taken += n;
        !s.closed
    }
    fn give(&self, n: usize) {
        let mut s = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        s.taken = s.taken.saturating_sub(n);
        if s.waiting {
            self.freed.notify_all();
        }
    }
    fn close(&self) {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .closed = true;
        self.freed.notify_all();
    }
}

#[derive(Default)]
struct StderrState {
    tail: VecDeque<u8>,
    total: u64,
    /// The pipe reached end of file: everything the target wrote is in `tail`.
    closed: bool,
}

struct Running {
    child: Child,
    stdin: Option<Sender<Arc<Vec<u8>>>>,
    stdout: Receiver<OutEvent>,
    budget: Arc<Budget>,
    stderr: Arc<Mutex<StderrState>>,
}

impl Running {
    fn stderr_tail(&self) -> String {
        let s = self.stderr.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        crate::base::text::escape_lines(&s.tail.iter().copied().collect::<Vec<u8>>())
    }

    /// Waits (bounded) until stderr is read to its end, so that a crash's
    /// last words, often written just before it exits, are in the report.
    fn wait_stderr_closed(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while !self
            .stderr
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .closed
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn stderr_total(&self) -> u64 {
        self.stderr
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .total
    }

    /// Takes the next line the reader has, within `timeout`.
    fn next(&self, timeout: Duration) -> Result<OutEvent, RecvTimeoutError> {
        let event = self.stdout.recv_timeout(timeout)?;
        if let OutEvent::Line(bytes) = &event {
            self.budget.give(bytes.len());
        }
        Ok(event)
    }

    /// Waits for the next event of stdout until `deadline`. A target that
    /// has exited but whose stdout stays open has left a descendant holding
    /// it: that one is reaped, and then the end of the output comes.
    fn end_of_output(&mut self, deadline: Instant) -> Result<OutEvent, RecvTimeoutError> {
        let mut exited_at = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left.min(Duration::from_millis(50))) {
                Err(RecvTimeoutError::Timeout) if !left.is_zero() => {}
                other => return other,
            }
            if exited_at.is_none() && matches!(self.child.try_wait(), Ok(Some(_))) {
                exited_at = Some(Instant::now());
            }
            if exited_at.is_some_and(|t| t.elapsed() > Duration::from_millis(200)) {
                children::kill_group(self.child.id());
                children::reap_orphans();
            }
        }
    }

    /// Kills the whole process group, so a wrapper script's children go
    /// too, then every orphan a `setsid()` let escape the group.
    fn kill(&mut self) {
        self.budget.close();
        children::kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        children::exited(self.child.id());
        children::reap_orphans();
    }

    /// Waits up to `limit` for the process to exit.
    fn wait_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

fn spawn_reader(stdout: impl Read + Send + 'static, tx: Sender<OutEvent>, budget: Arc<Budget>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(1 << 16, stdout);
        loop {
            let event = match read_line(&mut reader, MAX_LINE) {
                Ok(Line::Text(line)) => {
                    if !budget.take(line.len()) {
                        return;
                    }
                    OutEvent::Line(line)
                }
                // A fault ends the target's run: nothing after the line matters.
                Ok(Line::TooLong { prefix, .. }) => OutEvent::TooLong { prefix },
                Ok(Line::Eof) | Err(_) => OutEvent::Eof,
            };
            let last = !matches!(event, OutEvent::Line(_));
            if tx.send(event).is_err() || last {
                return;
            }
        }
    });
}

fn spawn_stderr(mut stderr: impl Read + Send + 'static, state: Arc<Mutex<StderrState>>) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 1 << 16];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut s = state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            s.total += n as u64;
            s.tail.extend(&buf[..n]);
            let excess = s.tail.len().saturating_sub(STDERR_TAIL);
            s.tail.drain(..excess);
        }
        state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).closed = true;
    });
}

fn spawn_writer(mut stdin: impl Write + Send + 'static) -> Sender<Arc<Vec<u8>>> {
    let (tx, rx) = mpsc::channel::<Arc<Vec<u8>>>();
    std::thread::spawn(move || {
        while let Ok(batch) = rx.recv() {
            if stdin.write_all(&batch).is_err() || stdin.flush().is_err() {
                break;
            }
        }
        // Dropping stdin closes the pipe: end of input for the target.
    });
    tx
}

/// A protocol v1 target started from a manifest.
pub struct ProcessTarget {
    manifest: Manifest,
    running: Option<Running>,
    next_id: i64,
    /// The ids of each batch sent and not yet received, oldest first.
    in_flight: VecDeque<Vec<i64>>,
    /// The lines of the requests in flight, for fault evidence: each is a
    /// range of the batch text it went out in (shared with the writer, so
    /// that a request costs no copy of its own).
    last_lines: VecDeque<(Arc<Vec<u8>>, std::ops::Range<usize>)>,
    /// The length of the last batch's text: the next one is about as long,
    /// and is made in one allocation instead of a dozen doublings.
    last_text: usize,
}

/// The start of a line, escaped, for a report.
fn clip(bytes: &[u8]) -> String {
    let shown = escape(&bytes[..bytes.len().min(300)]);
    if bytes.len() > 300 {
        format!("{shown}… ({} bytes)", bytes.len())
    } else {
        shown
    }
}

impl ProcessTarget {
    /// A target for `manifest`, not started yet (`start` spawns it).
    pub fn new(manifest: Manifest) -> Self {
        ProcessTarget {
            manifest,
            running: None,
            next_id: 0,
            in_flight: VecDeque::new(),
            last_lines: VecDeque::new(),
            last_text: 0,
        }
    }

    fn spawn(&mut self) -> Result<(), Fault> {
        let m = &self.manifest;
        let mut cmd = Command::new(&m.command[0]);
        cmd.args(&m.command[1..])
            .current_dir(&m.workdir)
            .envs(&m.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut child = children::spawn(&mut cmd).map_err(|e| {
            Fault::new(
                FaultKind::Spawn,
                format!("cannot start {:?} in {}: {e}", m.command, m.workdir.display()),
            )
        })?;
        let (tx, rx) = mpsc::channel();
        let budget = Arc::new(Budget::default());
        spawn_reader(child.stdout.take().expect("piped"), tx, budget.clone());
        let stderr = Arc::new(Mutex::new(StderrState::default()));
        spawn_stderr(child.stderr.take().expect("piped"), stderr.clone());
        let stdin = spawn_writer(child.stdin.take().expect("piped"));
        self.running = Some(Running {
            child,
            stdin: Some(stdin),
            stdout: rx,
            budget,
            stderr,
        });
        Ok(())
    }

    /// Stops the process, killing it if it is still there.
    pub(crate) fn kill(&mut self) {
        if let Some(mut r) = self.running.take() {
            r.kill();
        }
        self.in_flight.clear();
        self.last_lines.clear();
    }

    fn request_in_turn(&self) -> Option<String> {
        self.last_lines
            .front()
            // Shown to people: escaped, as every text a report holds.
            .map(|(text, line)| escape(&text[line.clone()]).chars().take(300).collect())
    }

    /// Reads one line, classifying anything that is not a line as a fault.
    fn read_event(&mut self, expected: i64, timeout: Duration) -> Result<Vec<u8>, Fault> {
        let r = self.running.as_mut().expect("started");
        Err(match r.next(timeout) {
            Ok(OutEvent::Line(bytes)) => return Ok(bytes),
            Err(RecvTimeoutError::Timeout) => Fault::new(
                if expected == 0 {
                    FaultKind::StartupTimeout
                } else {
                    FaultKind::Timeout
                },
                format!("no answer within {} ms", timeout.as_millis()),
            ),
            Err(RecvTimeoutError::Disconnected) | Ok(OutEvent::Eof) => {
                let status = r.wait_exit(Duration::from_secs(2));
                let mut f = match status {
                    Some(s) if s.success() => Fault::new(
                        FaultKind::MissingAnswer,
                        "output ended (exit status 0) before this request was answered",
                    ),
                    Some(s) => Fault::new(FaultKind::Crash, format!("exited ({s}) with requests outstanding")),
                    None => Fault::new(FaultKind::Crash, "closed stdout with requests outstanding"),
                };
                f.exit_status = status.map(|s| s.to_string());
                f
            }
            Ok(OutEvent::TooLong { prefix }) => {
                let mut f = Fault::new(
                    FaultKind::LineTooLong,
                    format!("an answer line longer than {MAX_LINE} bytes"),
                );
                f.received = Some(clip(&prefix));
                f
            }
        })
    }

    /// A flood is noticed after the answer to the request in turn.
    fn check_stderr(&mut self) -> Option<Fault> {
        let total = self.running.as_ref()?.stderr_total();
        (total > STDERR_LIMIT).then(|| {
            let mut f = Fault::new(
                FaultKind::StderrFlood,
                format!("{total} bytes on stderr, more than the {STDERR_LIMIT} allowed"),
            );
            f.request = self.request_in_turn();
            self.abort(f)
        })
    }

    fn write(&mut self, text: Arc<Vec<u8>>) {
        if let Some(tx) = self.running.as_ref().and_then(|r| r.stdin.as_ref()) {
            let _ = tx.send(text);
        }
    }
}

/// Reads an answer line as a protocol v1 response to request `expected`,
/// with `highest` the highest id sent so far; anything else is a fault.
/// `null_ok` says whether the request was a line no strict JSON reader can
/// hold (a key given twice, a lone surrogate), so that an answer with id
/// null is its answer; it is asked only of such an answer (finding out
/// reads the request line again).
pub fn decode_line(bytes: &[u8], expected: i64, highest: i64, null_ok: impl FnOnce() -> bool) -> Result<Reply, Fault> {
    let classified = match std::str::from_utf8(bytes) {
        Err(e) => Err(Fault::new(FaultKind::NotUtf8, format!("answer line is not UTF-8: {e}"))),
        Ok(text) => match Response::parse(text.trim_end_matches('\r')) {
            Err(e) => Err(Fault::new(
                FaultKind::NotJson,
                format!("not a protocol v1 response: {}", escape(e.0.as_bytes())),
            )),
            Ok(resp) => match resp.id {
                Some(id) if id == expected => return Ok(resp.reply),
                None if null_ok() => return Ok(resp.reply),
                Some(id) if id > expected && id <= highest && id % 2 == 0 => Err(Fault::new(
                    FaultKind::MissingAnswer,
                    format!("expected the answer to id {expected}, got the answer to the later request {id}"),
                )),
                Some(id) if (0..expected).contains(&id) && id % 2 == 0 => Err(Fault::new(
                    FaultKind::ExtraAnswer,
                    format!("expected the answer to id {expected}, got a second answer to id {id}"),
                )),
                Some(id) => Err(Fault::new(
                    FaultKind::WrongId,
                    format!("expected id {expected}, got id {id}, which was never sent"),
                )),
                None => Err(Fault::new(
                    FaultKind::WrongId,
                    format!("expected id {expected}, got id null"),
                )),
            },
        },
    };
    classified.map_err(|mut f| {
        f.received = Some(clip(bytes));
        f
    })
}

fn parse_hello(reply: &Reply) -> Result<Hello, String> {
    let ok = match reply {
        Reply::Ok(ok) => ok,
        Reply::Error { kind, message } => return Err(format!("hello answered {kind}: {}", escape(message.as_bytes()))),
    };
    let name = ok
        .get("name")
        .and_then(Value::as_str)
        .ok_or("hello has no string name")?;
    let ops = ok.get("ops").and_then(Value::as_array).ok_or("hello has no ops list")?;
    let ops = ops
        .iter()
        .map(|o| o.as_str().map(str::to_string).ok_or("ops must be strings"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Hello {
        name: escape(name.as_bytes()),
        ops,
    })
}

impl Target for ProcessTarget {
    fn name(&self) -> &str {
        &self.manifest.name
    }

    fn start(&mut self) -> Result<Hello, Fault> {
        self.kill();
        self.spawn()?;
        self.next_id = 2;
        let line = crate::protocol::hello_line(0);
        self.write(Arc::new(format!("{line}\n").into_bytes()));
        let with_line = |mut f: Fault| {
            f.request = Some(line.clone());
            f
        };
        let bytes = self
            .read_event(0, self.manifest.startup_timeout)
            .map_err(|f| self.abort(with_line(f)))?;
        let reply = decode_line(&bytes, 0, 0, || false).map_err(|f| self.abort(with_line(f)))?;
        parse_hello(&reply).map_err(|why| self.abort(with_line(Fault::new(FaultKind::Handshake, why))))
    }

    fn send(&mut self, asks: &[Ask], ids: &[i64]) -> Result<(), Fault> {
        if self.running.is_none() {
            return Err(Fault::new(FaultKind::Crash, "the target is not running"));
        }
        // Every batch starts with a blank line, which protocol v1 says gets no
        // answer: a target that answers it is caught by the ids that follow.
        let mut text = Vec::with_capacity((asks.len() * 128).max(self.last_text + self.last_text / 8));
        text.extend_from_slice(b" \t\n");
        let mut lines = Vec::with_capacity(asks.len());
        for (ask, &id) in asks.iter().zip(ids) {
            let start = text.len();
            ask.write_line(id, &mut text);
            lines.push(start..text.len());
            text.push(b'\n');
        }
        self.last_text = text.len();
        let text = Arc::new(text);
        self.last_lines
            .extend(lines.into_iter().map(|line| (Arc::clone(&text), line)));
        self.next_id = self.next_id.max(ids.last().map_or(0, |id| id + 2));
        self.in_flight.push_back(ids.to_vec());
        self.write(text);
        Ok(())
    }

    fn receive(&mut self, answer: &mut dyn FnMut(Got) -> Result<(), Fault>) -> Option<Fault> {
        let ids = self.in_flight.pop_front()?;
        for &id in &ids {
            let fault = match self.read_event(id, self.manifest.request_timeout) {
                Ok(bytes) => match answer(Got::Line(bytes)) {
                    Ok(()) => self.check_stderr(),
                    Err(f) => Some(self.abort(f)),
                },
                Err(mut f) => {
                    f.request = self.request_in_turn();
                    Some(self.abort(f))
                }
            };
            if fault.is_some() {
                return fault;
            }
            self.last_lines.pop_front();
        }
        None
    }

    /// Adds the evidence every fault carries, and kills the process: after
    /// a fault no later line of it can be trusted.
    fn abort(&mut self, mut f: Fault) -> Fault {
        if let Some(mut r) = self.running.take() {
            if f.exit_status.is_none() {
                if let Ok(Some(status)) = r.child.try_wait() {
                    f.exit_status = Some(status.to_string());
                }
            }
            r.kill();
            r.wait_stderr_closed(Duration::from_secs(1));
            f.stderr_tail = r.stderr_tail();
        }
        self.in_flight.clear();
        self.last_lines.clear();
        f
    }

    fn finish(&mut self) -> Option<Fault> {
        let r = self.running.as_mut()?;
        r.stdin.take(); // closes stdin once the writer has drained
        let deadline = Instant::now() + EXIT_GRACE;
        match r.end_of_output(deadline) {
            Ok(OutEvent::Line(bytes)) => {
                let mut f = Fault::new(FaultKind::ExtraAnswer, "a line after the last answer");
                f.received = Some(clip(&bytes));
                return Some(self.abort(f));
            }
            Ok(OutEvent::TooLong { prefix }) => {
                let mut f = Fault::new(FaultKind::ExtraAnswer, "an over-long line after the last answer");
                f.received = Some(clip(&prefix));
                return Some(self.abort(f));
            }
            Ok(OutEvent::Eof) | Err(RecvTimeoutError::Disconnected) => {}
            Err(RecvTimeoutError::Timeout) => {
                return Some(self.abort(Fault::new(
                    FaultKind::Timeout,
                    format!("still running {} s after its input ended", EXIT_GRACE.as_secs()),
                )));
            }
        }
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(500));
        let status = r.wait_exit(left);
        if let Some(f) = self.check_stderr() {
            return Some(f);
        }
        match status {
            Some(s) if s.success() => {
                if let Some(mut r) = self.running.take() {
                    r.kill();
                }
                None
            }
            Some(s) => {
                let mut f = Fault::new(FaultKind::ExitStatus, format!("exited with {s} at end of input"));
                f.exit_status = Some(s.to_string());
                Some(self.abort(f))
            }
            None => Some(self.abort(Fault::new(
                FaultKind::Timeout,
                "closed stdout but did not exit after its input ended",
            ))),
        }
    }
}

impl Drop for ProcessTarget {
    fn drop(&mut self) {
        self.kill();
    }
}
