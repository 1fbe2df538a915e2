//! Readable differences: unified diffs with labelled sides.

use similar::{Algorithm, TextDiff};

/// Returns a unified diff of `old` and `new` (Patience algorithm, three
/// lines of context), or an empty string when they are equal.
pub fn unified_diff(old: &str, new: &str, old_label: &str, new_label: &str) -> String {
    if old == new {
        return String::new();
    }
    TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_label, new_label)
        .to_string()
}
