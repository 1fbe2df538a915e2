use std::path::{Path, PathBuf};

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_provably"))
}

/// The interpreter for the published Python programs (the Makefile points
/// this at the project virtualenv).
pub fn python() -> String {
    std::env::var("PROVABLY_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".into())
}

/// Whether numpy-backed tests can run. Under `make test` (and in CI) the
/// virtualenv is always there, so a missing numpy fails loudly there.
pub fn numpy_available() -> bool {
    let ok = duct::cmd(python(), ["-c", "import numpy"])
        .stdout_null()
        .stderr_null()
        .unchecked()
        .run()
        .is_ok_and(|o| o.status.success());
    if !ok && std::env::var_os("PROVABLY_PYTHON").is_some() {
        panic!("PROVABLY_PYTHON={} has no numpy; run `make venv`", python());
    }
    if !ok {
        eprintln!(
            "skipping: no numpy for {} (set PROVABLY_PYTHON or run `make test`)",
            python()
        );
    }
    ok
}

/// Runs the binary with `args` and `stdin`; returns (exit code, stdout, stderr).
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = duct::cmd(bin(), args)
        .dir(root())
        .stdin_bytes(stdin.as_bytes().to_vec())
        .stdout_capture()
        .stderr_capture()
        .unchecked()
        .run()
        .expect("provably runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// Spawns `command`, retrying while the kernel says "text file busy".
///
/// A binary the tests copied can be briefly busy: while this thread wrote the
/// copy, another test thread may have forked, and its child holds the write
/// descriptor until it execs. The wait is bounded; it is a race guard, not a
/// timing claim.
pub fn spawn_copied(command: &mut std::process::Command) -> std::process::Child {
    let mut tries = 0;
    loop {
        match command.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            other => return other.expect("the copied binary starts"),
        }
    }
}
