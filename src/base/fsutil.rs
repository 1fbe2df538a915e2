//! File writing that never leaves a half-written file behind.
//!
//! Every file the commands write (`audit`'s and `diff`'s reports and JUnit,
//! `proof --out`, the vectors, the conformance page) goes through
//! [`write_atomic`] or [`write_atomic_with`]: it is written to a temporary
//! file in the same directory and renamed into place, so readers see the
//! old file or the new one. What is left to clean is the temporary file:
//! * an error drops it (tempfile's own guard);
//! * SIGINT and SIGTERM remove it: while a write is under way its path is
//!   in a list that a signal thread (signal-hook) clears before the signal
//!   takes its default course, so the process still ends by that signal;
//! * SIGKILL or a power cut cannot be caught: the temporary file is named
//!   `.NAME.provably-PID-XXXXXX.tmp` (NAME the target's file name, PID the
//!   writer's), and the next write of NAME removes every such file whose
//!   writer is no longer running. Files of other programs, and temporary
//!   files of a writer still alive, are never touched.

use std::ffi::OsString;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, PoisonError};

/// Writes `bytes` to `path` through a temporary file in the same directory
/// that is renamed into place, so readers see the old file or the new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], for output written piece by piece: `write` fills
/// a temporary file in the same directory, which is renamed into place only
/// when `write` succeeds, so a failed or interrupted run leaves the old file
/// (or none), never half of a new one.
pub fn write_atomic_with<T>(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<T>) -> io::Result<T> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    remove_stale(dir, name);
    watch_signals();
    let mut tmp = tempfile::Builder::new()
        .prefix(&prefix(name, std::process::id()))
        .suffix(SUFFIX)
        .tempfile_in(dir)?;
    let _pending = Pending::new(tmp.path().to_path_buf());
    let value = {
        let mut out = io::BufWriter::new(tmp.as_file_mut());
        let value = write(&mut out)?;
        out.flush()?;
        value
    };
    // A temporary file is private (0600); the result is an ordinary file.
    tmp.as_file().set_permissions(std::fs::Permissions::from_mode(0o644))?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(value)
}

const SUFFIX: &str = ".tmp";

/// `.NAME.provably-PID-`: what every temporary file for NAME by process PID begins with.
fn prefix(name: &std::ffi::OsStr, pid: u32) -> OsString {
    let mut p = OsString::from(".");
    p.push(name);
    p.push(format!(".provably-{pid}-"));
    p
}

/// Removes the temporary files for `name` in `dir` left by writers that
/// are gone (killed in the middle of a write).
fn remove_stale(dir: &Path, name: &std::ffi::OsStr) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut head = OsString::from(".");
    head.push(name);
    head.push(".provably-");
    let head = head.as_encoded_bytes().to_vec();
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.as_encoded_bytes().strip_prefix(head.as_slice()) else {
            continue;
        };
        let pid = rest
            .split(|&b| b == b'-')
            .next()
            .and_then(|p| std::str::from_utf8(p).ok());
        let Some(pid) = pid.and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        if rest.ends_with(SUFFIX.as_bytes()) && !alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether a process `pid` exists (signal 0: nothing is sent).
fn alive(pid: i32) -> bool {
    if pid <= 0 {
        return true;
    }
    let probe = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None);
    !matches!(probe, Err(nix::errno::Errno::ESRCH))
}

/// The temporary files being written now, for the signal thread.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary file's place in [`PENDING`] while it is written.
struct Pending(PathBuf);

impl Pending {
    fn new(path: PathBuf) -> Pending {
        PENDING
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(path.clone());
        Pending(path)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut list = PENDING.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = list.iter().position(|p| *p == self.0) {
            list.swap_remove(i);
        }
    }
}

/// From the first atomic write on, SIGINT and SIGTERM first remove the
/// temporary files being written, then end the process as they would have.
fn watch_signals() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        let spawned = std::thread::Builder::new()
            .name("atomic-write signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    // Held to the end: no new temporary file starts meanwhile.
                    let list = PENDING.lock().unwrap_or_else(PoisonError::into_inner);
                    for path in list.iter() {
                        let _ = std::fs::remove_file(path);
                    }
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
        drop(spawned);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_temporary_file_of_a_dead_writer_is_removed_and_others_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        // A pid far above any kernel's pid_max: no such process.
        let dead = dir.path().join(".r.json.provably-2000000000-abc123.tmp");
        let live = dir
            .path()
            .join(format!(".r.json.provably-{}-abc123.tmp", std::process::id()));
        let foreign = dir.path().join(".r.json.tmpXYZ");
        let other_name = dir.path().join(".s.json.provably-2000000000-abc123.tmp");
        for p in [&dead, &live, &foreign, &other_name] {
            std::fs::write(p, b"partial").unwrap();
        }
        write_atomic(&dir.path().join("r.json"), b"{}").unwrap();
        assert!(!dead.exists(), "the dead writer's file is gone");
        for p in [&live, &foreign, &other_name] {
            assert!(p.exists(), "{} is kept", p.display());
        }
        assert_eq!(std::fs::read(dir.path().join("r.json")).unwrap(), b"{}");
    }
}
