//! A protocol v1 target running as a subprocess.
//!
//! Three threads per process keep the harness from ever blocking on the
//! target: one writes requests (a target that stops reading cannot stall
//! us), one reads stdout lines with a length cap (a 100 MB line is counted,
//! not stored), one drains stderr keeping only its tail (a flood cannot fill
//! the pipe and deadlock the target). The main thread only waits on a
//! channel, always with a timeout.

use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::manifest::Manifest;
use super::{Fault, FaultKind, Hello, Target};
use crate::lines::{read_line, Line, MAX_LINE};
use crate::op::Request;
use crate::protocol::{Reply, Response};

/// How much of stderr is kept for reports.
pub const STDERR_TAIL: usize = 64 << 10;
/// More stderr than this in total is a fault.
pub const STDERR_LIMIT: u64 = 1 << 20;
/// How long a target may take to exit once its stdin is closed.
const EXIT_GRACE: Duration = Duration::from_secs(5);

enum OutEvent {
    Line(Vec<u8>),
    TooLong { prefix: Vec<u8> },
    Eof,
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
    stdin: Option<Sender<Vec<u8>>>,
    stdout: Receiver<OutEvent>,
    stderr: Arc<Mutex<StderrState>>,
}

impl Running {
    fn stderr_tail(&self) -> String {
        let s = self.stderr.lock().unwrap();
        String::from_utf8_lossy(&s.tail.iter().copied().collect::<Vec<u8>>()).into_owned()
    }

    /// Waits (bounded) until stderr is read to its end, so that a crash's
    /// last words, often written just before it exits, are in the report.
    fn wait_stderr_closed(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while !self.stderr.lock().unwrap().closed && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn stderr_total(&self) -> u64 {
        self.stderr.lock().unwrap().total
    }

    /// Kills the whole process group, so a wrapper script's children go too.
    fn kill(&mut self) {
        let pid = self.child.id();
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
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

fn spawn_reader(stdout: impl Read + Send + 'static, tx: Sender<OutEvent>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(1 << 16, stdout);
        loop {
            let event = match read_line(&mut reader, MAX_LINE) {
                Ok(Line::Text(line)) => OutEvent::Line(line),
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
            let mut s = state.lock().unwrap();
            s.total += n as u64;
            s.tail.extend(&buf[..n]);
            let excess = s.tail.len().saturating_sub(STDERR_TAIL);
            s.tail.drain(..excess);
        }
        state.lock().unwrap().closed = true;
    });
}

fn spawn_writer(mut stdin: impl Write + Send + 'static) -> Sender<Vec<u8>> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        while let Ok(line) = rx.recv() {
            if stdin.write_all(&line).is_err() {
                break;
            }
            // Flush only when nothing else is queued: pipelined batches go
            // out in few writes, a lone request goes out at once.
            if let Ok(next) = rx.try_recv() {
                if stdin.write_all(&next).is_err() {
                    break;
                }
                continue;
            }
            if stdin.flush().is_err() {
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
}

/// Cuts text for a report.
fn clip(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned();
    if bytes.len() > 300 {
        format!("{s}… ({} bytes)", bytes.len())
    } else {
        s
    }
}

impl ProcessTarget {
    pub fn new(manifest: Manifest) -> Self {
        ProcessTarget {
            manifest,
            running: None,
            next_id: 0,
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
        let mut child = cmd.spawn().map_err(|e| {
            Fault::new(
                FaultKind::Spawn,
                format!("cannot start {:?} in {}: {e}", m.command, m.workdir.display()),
            )
        })?;
        let (tx, rx) = mpsc::channel();
        spawn_reader(child.stdout.take().unwrap(), tx);
        let stderr = Arc::new(Mutex::new(StderrState::default()));
        spawn_stderr(child.stderr.take().unwrap(), stderr.clone());
        let stdin = spawn_writer(child.stdin.take().unwrap());
        self.running = Some(Running {
            child,
            stdin: Some(stdin),
            stdout: rx,
            stderr,
        });
        Ok(())
    }

    /// Stops the process, killing it if it is still there.
    pub fn kill(&mut self) {
        if let Some(mut r) = self.running.take() {
            r.kill();
        }
    }

    /// Adds the evidence every fault carries, and kills the process: after
    /// a fault no later line of it can be trusted.
    fn fault(&mut self, mut f: Fault) -> Fault {
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
        f
    }

    /// Reads one answer line, classifying anything that is not one.
    fn read(
        &mut self,
        expected: i64,
        outstanding: &[i64],
        answered: &[i64],
        timeout: Duration,
        request: &str,
    ) -> Result<Response, Fault> {
        let r = self.running.as_mut().expect("started");
        let event = r.stdout.recv_timeout(timeout);
        let with_request = |mut f: Fault| {
            f.request = Some(request.chars().take(300).collect());
            f
        };
        let fault = match event {
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
            Ok(OutEvent::Line(bytes)) => {
                let received = clip(&bytes);
                let classified = match std::str::from_utf8(&bytes) {
                    Err(e) => Err(Fault::new(FaultKind::NotUtf8, format!("answer line is not UTF-8: {e}"))),
                    Ok(text) => match Response::parse(text.trim_end_matches('\r')) {
                        Err(e) => Err(Fault::new(
                            FaultKind::NotJson,
                            format!("not a protocol v1 response: {e}"),
                        )),
                        Ok(resp) => match resp.id {
                            Some(id) if id == expected => return Ok(resp),
                            Some(id) if outstanding.contains(&id) => Err(Fault::new(
                                FaultKind::MissingAnswer,
                                format!(
                                    "expected the answer to id {expected}, got the answer to the later request {id}"
                                ),
                            )),
                            Some(id) if answered.contains(&id) => Err(Fault::new(
                                FaultKind::ExtraAnswer,
                                format!("expected the answer to id {expected}, got a second answer to id {id}"),
                            )),
                            Some(id) => Err(Fault::new(
                                FaultKind::WrongId,
                                format!("expected id {expected}, got id {id}, which was never sent"),
                            )),
                            None => Err(Fault::new(
                                FaultKind::WrongId,
                                format!("expected id {expected}, got id null: {:?}", resp.reply),
                            )),
                        },
                    },
                };
                match classified {
                    Ok(r) => return Ok(r),
                    Err(mut f) => {
                        f.received = Some(received);
                        f
                    }
                }
            }
        };
        Err(with_request(fault))
    }

    /// A flood is noticed after the answer to `request` (the last one in turn).
    fn check_stderr(&mut self, request: Option<&str>) -> Option<Fault> {
        let total = self.running.as_ref()?.stderr_total();
        (total > STDERR_LIMIT).then(|| {
            let mut f = Fault::new(
                FaultKind::StderrFlood,
                format!("{total} bytes on stderr, more than the {STDERR_LIMIT} allowed"),
            );
            f.request = request.map(|r| r.chars().take(300).collect());
            self.fault(f)
        })
    }

    fn send(&mut self, line: String) {
        if let Some(tx) = self.running.as_ref().and_then(|r| r.stdin.as_ref()) {
            let mut bytes = line.into_bytes();
            bytes.push(b'\n');
            let _ = tx.send(bytes);
        }
    }
}

/// Builds the request line with its id.
pub fn request_line(id: i64, request: &Request) -> String {
    let mut v = request.to_value();
    if let Value::Object(m) = &mut v {
        // id first, as in the protocol's examples.
        let mut with_id = serde_json::Map::new();
        with_id.insert("id".into(), id.into());
        with_id.extend(std::mem::take(m));
        *m = with_id;
    }
    v.to_string()
}

fn parse_hello(resp: &Response) -> Result<Hello, String> {
    let ok = match &resp.reply {
        Reply::Ok(ok) => ok,
        Reply::Error { kind, message } => return Err(format!("hello answered {kind}: {message}")),
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
        name: name.to_string(),
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
        self.send(line.clone());
        let resp = self
            .read(0, &[], &[], self.manifest.startup_timeout, &line)
            .map_err(|f| self.fault(f))?;
        parse_hello(&resp).map_err(|why| {
            let mut f = Fault::new(FaultKind::Handshake, why);
            f.request = Some(line);
            self.fault(f)
        })
    }

    fn call(&mut self, requests: &[Request]) -> (Vec<Reply>, Option<Fault>) {
        if self.running.is_none() {
            return (
                Vec::new(),
                Some(Fault::new(FaultKind::Crash, "the target is not running")),
            );
        }
        // Even ids only: an answer with an off-by-one id can never pass for
        // another request's.
        let n = i64::try_from(requests.len()).expect("a batch is small");
        let ids: Vec<i64> = (0..n).map(|k| self.next_id + 2 * k).collect();
        self.next_id += 2 * n;
        let lines: Vec<String> = requests.iter().zip(&ids).map(|(r, id)| request_line(*id, r)).collect();
        for line in &lines {
            self.send(line.clone());
        }
        let mut replies = Vec::with_capacity(requests.len());
        for (k, id) in ids.iter().enumerate() {
            match self.read(*id, &ids[k + 1..], &ids[..k], self.manifest.request_timeout, &lines[k]) {
                Ok(resp) => replies.push(resp.reply),
                Err(f) => return (replies, Some(self.fault(f))),
            }
            if let Some(f) = self.check_stderr(Some(&lines[k])) {
                return (replies, Some(f));
            }
        }
        (replies, None)
    }

    fn finish(&mut self) -> Option<Fault> {
        let r = self.running.as_mut()?;
        r.stdin.take(); // closes stdin once the writer has drained
        let deadline = Instant::now() + EXIT_GRACE;
        let left = deadline.saturating_duration_since(Instant::now());
        match r.stdout.recv_timeout(left) {
            Ok(OutEvent::Line(bytes)) => {
                let mut f = Fault::new(FaultKind::ExtraAnswer, "a line after the last answer");
                f.received = Some(clip(&bytes));
                return Some(self.fault(f));
            }
            Ok(OutEvent::TooLong { prefix }) => {
                let mut f = Fault::new(FaultKind::ExtraAnswer, "an over-long line after the last answer");
                f.received = Some(clip(&prefix));
                return Some(self.fault(f));
            }
            Ok(OutEvent::Eof) | Err(RecvTimeoutError::Disconnected) => {}
            Err(RecvTimeoutError::Timeout) => {
                return Some(self.fault(Fault::new(
                    FaultKind::Timeout,
                    format!("still running {} s after its input ended", EXIT_GRACE.as_secs()),
                )));
            }
        }
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(500));
        let status = r.wait_exit(left);
        if let Some(f) = self.check_stderr(None) {
            return Some(f);
        }
        match status {
            Some(s) if s.success() => {
                self.running = None;
                None
            }
            Some(s) => {
                let mut f = Fault::new(FaultKind::ExitStatus, format!("exited with {s} at end of input"));
                f.exit_status = Some(s.to_string());
                Some(self.fault(f))
            }
            None => Some(self.fault(Fault::new(
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
