//! Opening a target: the one place that knows which kind of manifest runs
//! through which driver, and that turns on the reaping of the targets'
//! orphaned descendants.

use super::manifest::{Kind, Manifest};
use super::process::ProcessTarget;
use super::published::PublishedTarget;
use super::Target;

/// Opens the target a manifest describes (not yet started).
pub fn open(m: Manifest) -> Box<dyn Target> {
    match m.kind {
        Kind::Protocol => Box::new(ProcessTarget::new(m)),
        Kind::ReferenzCli | Kind::PokerReferenzCli => Box::new(PublishedTarget::new(m)),
    }
}

/// Makes this process reap every descendant of the targets it runs, even
/// one that left the target's process group: see `harness::children`.
pub fn reap_descendants() -> bool {
    super::children::become_subreaper()
}
