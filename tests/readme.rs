//! The README runs as written. Every `sh` block of README.md is run, line
//! by line, in a copy of the checkout (its tracked and new files; the
//! installed `.venv` and `node_modules` linked in), with this build's
//! `provably` on the PATH, and each command is held to the exit code its
//! comment names (`# … exit 1`), 0 when it names none. A block right after
//! `<!-- readme-test: skip: REASON -->` is not run: the long ones (`make
//! diff`, `make test`, which runs this test, a server that runs until
//! stopped) say why there, in the README. Afterwards no file of the
//! checkout differs in the copy: the examples write under `target/`.
//!
//! `PROVABLY_PYTHON` is removed from the commands' environment: the README
//! promises that the Python targets find the checkout's `.venv` themselves.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{bin, root};

/// A hang guard per command, not a speed claim: the wild run takes about a
/// minute on a loaded 2-core machine.
const HANG_GUARD: Duration = Duration::from_secs(900);

#[derive(Debug, PartialEq)]
struct Line {
    /// Its line number in README.md, from 1.
    number: usize,
    text: String,
    exit: i32,
}

#[derive(Debug, PartialEq)]
struct Block {
    number: usize,
    skip: Option<String>,
    lines: Vec<Line>,
}

/// The exit code a command's comment names (`# a wrong card: exit 1`), else 0.
fn documented_exit(text: &str) -> i32 {
    let comment = text.find(" # ").map_or("", |i| &text[i..]);
    let re = regex::Regex::new(r"\bexit (\d+)\b").expect("valid");
    re.captures(comment).map_or(0, |c| c[1].parse().expect("digits"))
}

/// The `sh` blocks of a README, their commands (continued lines joined)
/// and their skip reasons.
fn blocks(readme: &str) -> Vec<Block> {
    let (mut out, mut skip, mut open): (Vec<Block>, Option<String>, Option<Block>) = (Vec::new(), None, None);
    let mut pending = String::new();
    for (i, raw) in readme.lines().enumerate() {
        let number = i + 1;
        if let Some(block) = open.as_mut() {
            if raw.starts_with("```") {
                out.push(open.take().expect("open"));
                continue;
            }
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(head) = line.strip_suffix('\\') {
                pending.push_str(head);
                continue;
            }
            let text = std::mem::take(&mut pending) + line;
            let exit = documented_exit(&text);
            block.lines.push(Line { number, text, exit });
        } else if let Some(reason) = raw.trim().strip_prefix("<!-- readme-test: skip:") {
            skip = Some(reason.trim_end_matches("-->").trim().to_string());
        } else if raw.trim_end() == "```sh" {
            open = Some(Block {
                number,
                skip: skip.take(),
                lines: Vec::new(),
            });
        } else if !raw.trim().is_empty() {
            skip = None;
        }
    }
    assert!(open.is_none(), "README.md: a ```sh block is not closed");
    out
}

/// Copies the checkout's files (tracked and new, as git lists them) to a
/// temporary folder and links the installed `.venv` and `node_modules` in.
fn copy_of_checkout() -> (tempfile::TempDir, Vec<PathBuf>) {
    let listed = Command::new("git")
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .current_dir(root())
        .output()
        .expect("git runs");
    assert!(listed.status.success(), "git ls-files failed");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for name in listed.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = PathBuf::from(String::from_utf8(name.to_vec()).expect("UTF-8 path"));
        let from = root().join(&name);
        if !from.is_file() {
            continue; // deleted in the work tree, not yet in the index
        }
        let to = dir.path().join(&name);
        std::fs::create_dir_all(to.parent().expect("in the copy")).expect("mkdir");
        std::fs::copy(&from, &to).expect("copy");
        files.push(name);
    }
    // The build the README's first block makes leaves target/, where the examples write.
    std::fs::create_dir(dir.path().join("target")).expect("mkdir target");
    for installed in [".venv", "node_modules"] {
        std::os::unix::fs::symlink(root().join(installed), dir.path().join(installed)).expect("link");
    }
    (dir, files)
}

/// Runs one command with `bash -c` in `dir`; returns its exit code and output.
fn run_line(dir: &Path, text: &str) -> (i32, String) {
    let bindir = bin().parent().expect("bin dir").to_path_buf();
    let path = format!("{}:{}", bindir.display(), std::env::var("PATH").unwrap_or_default());
    let log = tempfile::NamedTempFile::new().expect("log");
    let mut child = Command::new("bash")
        .args(["-c", text])
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("PROVABLY_PYTHON")
        .env_remove("PROVABLY_BIN")
        .env_remove("PROVABLY_TARGETS")
        .stdin(Stdio::null())
        .stdout(log.reopen().expect("log"))
        .stderr(log.reopen().expect("log"))
        .spawn()
        .expect("bash runs");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > HANG_GUARD {
            let _ = child.kill();
            panic!("README command still running after {HANG_GUARD:?}: {text}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = std::fs::read_to_string(log.path()).unwrap_or_default();
    (status.code().unwrap_or(-1), output)
}

#[test]
fn every_readme_command_runs_in_a_copy_of_the_checkout_with_its_documented_exit_code() {
    let installed = [".venv", "node_modules"].iter().all(|d| root().join(d).is_dir());
    if !installed {
        assert!(
            std::env::var_os("PROVABLY_PYTHON").is_none(),
            "make test installs .venv and node_modules first"
        );
        eprintln!("skipping: no .venv or node_modules (run `make deps`)");
        return;
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let (copy, files) = copy_of_checkout();
    let mut ran = 0;
    for block in blocks(&readme) {
        if let Some(reason) = &block.skip {
            eprintln!("README.md:{}: skipped: {reason}", block.number);
            continue;
        }
        for line in &block.lines {
            let start = Instant::now();
            let (code, output) = run_line(copy.path(), &line.text);
            eprintln!("README.md:{}: exit {code} in {:.1?}", line.number, start.elapsed());
            assert_eq!(
                code, line.exit,
                "README.md:{}: `{}` exited {code}, the README says {}:\n{output}",
                line.number, line.text, line.exit
            );
            ran += 1;
        }
    }
    assert!(ran >= 10, "only {ran} README commands found");
    for name in files {
        let (was, is) = (
            std::fs::read(root().join(&name)),
            std::fs::read(copy.path().join(&name)),
        );
        assert!(
            was.ok() == is.ok(),
            "README commands changed {}: examples must write under target/",
            name.display()
        );
    }
}

#[test]
fn readme_blocks_are_parsed_with_their_exit_codes_and_skip_reasons() {
    let text = "x\n<!-- readme-test: skip: too long -->\n```sh\nmake diff\n```\n\n```sh\n# a comment\nprovably a \\\n  --b   # fails: exit 3\nprovably c\n```\n";
    let got = blocks(text);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].skip.as_deref(), Some("too long"));
    assert_eq!(got[1].skip, None);
    let lines: Vec<(&str, i32)> = got[1].lines.iter().map(|l| (l.text.as_str(), l.exit)).collect();
    assert_eq!(lines, [("provably a --b   # fails: exit 3", 3), ("provably c", 0)]);
    assert_eq!(documented_exit("provably x 'exit 4'"), 0, "only a comment names a code");
}

/// The rows of the README's sample `make diff` table: each target with the
/// ops it claims and the ops it does not (`not claimed`).
fn sample_table(readme: &str) -> Vec<(String, usize, usize)> {
    let start = readme
        .find("\ntarget          ops  not claimed")
        .expect("README.md shows the table of `make diff`");
    readme[start + 1..]
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("```"))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let count = |i: usize| {
                cols[i]
                    .parse::<usize>()
                    .unwrap_or_else(|_| panic!("README table row {l:?}"))
            };
            (cols[0].to_string(), count(1), count(2))
        })
        .collect()
}

/// The ops a built-in target claims, as `make diff` opens it (the
/// harness's own start and `hello`; `${PROVABLY}` is this build's binary,
/// not the test's).
fn claimed(m: &provably::harness::manifest::Manifest) -> Vec<String> {
    let me = std::env::current_exe().expect("test binary");
    let mut m = m.clone();
    for word in &mut m.command {
        if Path::new(word.as_str()) == me {
            *word = bin().display().to_string();
        }
    }
    let name = m.name.clone();
    let mut target = provably::harness::targets::open(m);
    let hello = target
        .start()
        .unwrap_or_else(|f| panic!("{name} does not start: {f:?}"));
    hello.ops
}

/// README's sample table names every built-in target, each with the ops
/// its `hello` really claims and the ops it leaves out: a target or an op
/// added without a new run of the table fails here.
#[test]
fn readme_sample_table_has_every_target_with_the_ops_it_claims() {
    if ![".venv", "node_modules"].iter().all(|d| root().join(d).is_dir()) {
        eprintln!("skipping: no .venv or node_modules (run `make deps`)");
        return;
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let table = sample_table(&readme);
    let targets = provably::harness::manifest::all(&root().join("harness/targets")).expect("harness/targets");
    let ops = provably::registry::names();
    let mut real: Vec<(String, usize, usize)> = targets
        .iter()
        .map(|m| {
            let n = claimed(m).iter().filter(|o| ops.contains(&o.as_str())).count();
            (m.name.clone(), n, ops.len() - n)
        })
        .collect();
    real.sort();
    assert_eq!(
        table, real,
        "README.md's table (target, ops, not claimed) against the targets' hello"
    );
}

#[test]
fn the_sample_table_is_read_row_by_row() {
    let text = "x\n```text\ntarget          ops  not claimed  cases\n------\na   1  29  5\nb  30   0  7\n```\n";
    assert_eq!(sample_table(text), [("a".to_string(), 1, 29), ("b".to_string(), 30, 0)]);
}

/// The value of a `NAME := …` line of the Makefile, its `$(VAR)`s expanded.
fn make_variable(makefile: &str, name: &str) -> String {
    let head = format!("{name} := ");
    let value = makefile
        .lines()
        .find_map(|l| l.strip_prefix(&head))
        .unwrap_or_else(|| panic!("the Makefile has no `{name} :=` line"));
    let mut out = String::new();
    let mut rest = value.trim();
    while let Some(at) = rest.find("$(") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find(')').expect("a closed $(…)") + at;
        out.push_str(&make_variable(makefile, &rest[at + 2..end]));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// README's by-hand wild run is skipped by the readme test because `make
/// test`'s wild-cases and wild-page stages run it: they must stay the same
/// two commands, or the README's would go untested.
#[test]
fn readme_wild_run_by_hand_is_the_one_make_test_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let makefile = std::fs::read_to_string(root().join("Makefile")).expect("Makefile");
    let block = blocks(&readme)
        .into_iter()
        .find(|b| b.skip.as_deref().is_some_and(|s| s.contains("wild-cases stage")))
        .expect("README's skipped by-hand wild block");
    let lines: Vec<&str> = block.lines.iter().map(|l| l.text.as_str()).collect();
    let run = format!("provably {}", make_variable(&makefile, "WILD_CASES"));
    assert_eq!(lines.first().copied(), Some(run.as_str()), "README.md:{}", block.number);
    let page = "provably report target/wild.json -o target/conformance";
    assert_eq!(lines.get(1).copied(), Some(page), "README.md:{}", block.number);
    assert!(
        makefile.contains(&format!("wild-page target/debug/{page}")),
        "the Makefile's wild-page stage renders README's report"
    );
}
