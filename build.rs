//! Rebuilds when the page's files change. rust-embed embeds each file with
//! `include_bytes!`, so cargo notices an edited file by itself, but not a new
//! or deleted one; watching the directories (cargo scans them recursively)
//! covers those too.

fn main() {
    for dir in ["web", "reference/js", "vectors"] {
        println!("cargo:rerun-if-changed={dir}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
