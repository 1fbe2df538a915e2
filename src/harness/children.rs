//! Every process the harness starts, and every process those start.
//!
//! Killing a target's process group catches a wrapper script's children,
//! but not a child that called `setsid()`: it has a session of its own and
//! would outlive the run. So `provably diff` makes itself a child subreaper
//! (Linux's `PR_SET_CHILD_SUBREAPER`, no root needed): an orphaned
//! descendant of a target is re-parented to the harness instead of to
//! init. After a target ends, every child of the harness that the harness
//! did not start itself is such an orphan, and is killed and reaped, until
//! none is left. The harness registers each process it starts while
//! holding the lock the reaper scans under, so a fresh target is never
//! mistaken for an orphan.
//!
//! Only the `provably diff` process turns this on ([`become_subreaper`]): a
//! library user (a test binary) may have children of its own that are none
//! of the harness's business.

use std::collections::BTreeSet;
use std::io;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use nix::sys::signal::{kill, killpg, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag};
use nix::unistd::Pid;

/// The processes the harness started and has not yet seen end.
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());
static SUBREAPER: AtomicBool = AtomicBool::new(false);

/// Makes this process the reaper of its orphaned descendants. Returns
/// whether the kernel agreed (Linux 3.4 and later).
pub(crate) fn become_subreaper() -> bool {
    let ok = nix::sys::prctl::set_child_subreaper(true).is_ok();
    SUBREAPER.store(ok, Ordering::SeqCst);
    ok
}

/// Starts `cmd` and registers the child as one of the harness's own.
pub(crate) fn spawn(cmd: &mut Command) -> io::Result<Child> {
    let mut live = LIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let child = cmd.spawn()?;
    live.insert(child.id());
    Ok(child)
}

/// Forgets a child the harness has waited for.
pub(crate) fn exited(pid: u32) {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .remove(&pid);
}

/// Kills a process group (a target and the children it did not detach).
pub(crate) fn kill_group(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// The children of this process, read from /proc.
fn own_children() -> Vec<i32> {
    let me = std::process::id().to_string();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let name = e.ok()?.file_name();
        let pid: i32 = name.to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The command name, in parentheses, may hold spaces: ppid follows the last ')'.
        let ppid = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?;
        (ppid == me).then_some(pid)
    })
    .collect()
}

/// Kills and reaps every orphan re-parented to the harness, until none is
/// left (killing one may orphan its own children). Does nothing unless
/// [`become_subreaper`] succeeded.
pub(crate) fn reap_orphans() {
    if !SUBREAPER.load(Ordering::SeqCst) {
        return;
    }
    for _ in 0..100 {
        let orphans: Vec<i32> = {
            let live = LIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let orphans: Vec<i32> = own_children()
                .into_iter()
                .filter(|p| u32::try_from(*p).map_or(true, |p| !live.contains(&p)))
                .collect();
            for &p in &orphans {
                let _ = killpg(Pid::from_raw(p), Signal::SIGKILL);
                let _ = kill(Pid::from_raw(p), Signal::SIGKILL);
            }
            orphans
        };
        if orphans.is_empty() {
            return;
        }
        for p in orphans {
            let _ = waitpid(Pid::from_raw(p), Some(WaitPidFlag::empty()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
