//! Target manifests: `harness/targets/NAME.toml`, and the stacks in the
//! wild in `harness/wild/NAME.toml`.
//!
//! A manifest of a third-party stack also says what the stack is made of:
//! each `[[package]]` (registry, name, pinned version, licence, what of it
//! is used), `through_package` (the ops whose answers go through the
//! package's own code), `scheme_logic` (where the logic above the package
//! comes from) and, for code that is no package but written here after
//! someone else's, `reconstruction`. The report page shows all of it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

/// How the harness talks to a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Protocol v1 over stdin/stdout.
    #[default]
    Protocol,
    /// The published `referenz.py`, driven through `pruefe FILE`.
    ReferenzCli,
    /// The published `poker_referenz.py`, driven through `austeilen` and `bewerte FILE`.
    PokerReferenzCli,
}

/// A third-party package a target is built on.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    /// Where it is published: `npm`, `pypi`, `crates`, or `node` for a
    /// module built into node.
    pub registry: String,
    /// The package's name in its registry.
    pub name: String,
    /// The pinned version (package-lock.json, a requirements file, Cargo.toml).
    pub version: String,
    /// Its licence, as the package declares it.
    pub licence: String,
    /// What of it the target calls.
    pub uses: String,
}

/// What a stack in the wild is made of, for reports.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(default)]
pub struct Provenance {
    /// The third-party packages the stack is built on, each pinned.
    pub packages: Vec<Package>,
    /// The ops whose answers go through the packages' own code.
    pub through_package: Vec<String>,
    /// Where the scheme logic above the packages comes from.
    pub scheme_logic: String,
    /// Set when the target is no package but code written here after
    /// someone else's description: whose, and from what.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconstruction: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    kind: Kind,
    command: Vec<String>,
    #[serde(default)]
    workdir: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    ops: Option<Vec<String>>,
    #[serde(default)]
    startup_timeout_ms: Option<u64>,
    #[serde(default)]
    request_timeout_ms: Option<u64>,
    #[serde(default)]
    single_instance: bool,
    #[serde(default, rename = "package")]
    packages: Vec<Package>,
    #[serde(default)]
    through_package: Vec<String>,
    #[serde(default)]
    scheme_logic: String,
    #[serde(default)]
    reconstruction: Option<String>,
}

/// A resolved manifest: placeholders expanded, paths absolute.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// The target's name, as reports and `--target` use it.
    pub name: String,
    pub(crate) description: String,
    /// How the harness talks to it: protocol v1, or a published program's command line.
    pub kind: Kind,
    /// The program and its arguments, placeholders (`${PYTHON}`, `${NODE}`, `${PROVABLY}`, `${BINDIR}`) expanded.
    pub command: Vec<String>,
    /// The folder the program runs in: the manifest's `workdir` (default `.`) below the manifest's folder, canonical when it exists.
    pub workdir: PathBuf,
    pub(crate) env: BTreeMap<String, String>,
    /// Ops the target must claim in hello, if the manifest says.
    pub ops: Option<Vec<String>>,
    pub(crate) startup_timeout: Duration,
    pub(crate) request_timeout: Duration,
    /// Where the manifest came from, for messages.
    pub(crate) origin: String,
    /// Run one copy only, whatever `--jobs` says (a target that holds a
    /// resource of its own, or is not safe to run twice at once).
    pub single_instance: bool,
    /// What a third-party stack is made of (empty for the other targets).
    pub provenance: Provenance,
}

/// Why a manifest could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ManifestError {
    /// Occurs when the manifest file cannot be read.
    #[error("cannot read manifest {path}: {source}")]
    Read {
        /// The manifest file (or targets folder) that could not be read.
        path: String,
        /// Why the OS refused.
        source: std::io::Error,
    },
    /// Occurs when the manifest is not valid TOML or lacks a required key.
    #[error("manifest {path} is malformed: {message}")]
    Parse {
        /// Where the manifest came from (its path, or `--target-cmd`).
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// Occurs when a target name matches no manifest.
    #[error("no target named {name:?}; known targets: {known}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The names there are, comma-separated.
        known: String,
    },
    /// Occurs when no targets folder is given or found and the run needs one.
    #[error("no targets folder: none given with --targets-dir, none in $PROVABLY_TARGETS, no {looked}; run from a checkout, or name a --target-cmd, or the built-in target provably-serve")]
    NoTargetsDir {
        /// Where the folder was looked for.
        looked: String,
    },
}

pub(crate) const DEFAULT_STARTUP: Duration = Duration::from_secs(20);
pub(crate) const DEFAULT_REQUEST: Duration = Duration::from_secs(30);

/// Expands `${PYTHON}`, `${NODE}`, `${PROVABLY}` and `${BINDIR}` (the
/// folder of that provably binary, where `cargo build` puts the other
/// binaries of the crate, such as `wild-ring`) in one command word.
pub(crate) fn expand(word: &str) -> String {
    let env_or = |var: &str, default: &str| {
        std::env::var(var)
            .ok()
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| default.to_string())
    };
    let provably = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "provably".into());
    let provably = env_or("PROVABLY_BIN", &provably);
    let bindir = Path::new(&provably)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| ".".into(), |d| d.display().to_string());
    word.replace("${PYTHON}", &env_or("PROVABLY_PYTHON", "python3"))
        .replace("${NODE}", &env_or("PROVABLY_NODE", "node"))
        .replace("${PROVABLY}", &provably)
        .replace("${BINDIR}", &bindir)
}

impl Manifest {
    /// Parses manifest text; relative paths are relative to `base` (the manifest's directory).
    pub fn parse(text: &str, base: &Path, origin: &str) -> Result<Manifest, ManifestError> {
        let mut raw: Raw = toml::from_str(text).map_err(|e| ManifestError::Parse {
            path: origin.into(),
            message: e.to_string(),
        })?;
        if raw.command.is_empty() {
            return Err(ManifestError::Parse {
                path: origin.into(),
                message: "command is empty".into(),
            });
        }
        // `ops = ["*"]`: every op of the table, so a target that implements
        // them all needs no edit when an op is added.
        if raw.ops.as_deref() == Some(&["*".to_string()][..]) {
            raw.ops = Some(crate::registry::names().into_iter().map(String::from).collect());
        }
        if let Some(ops) = &raw.ops {
            if let Some(bad) = ops.iter().find(|op| crate::registry::find(op).is_none()) {
                return Err(ManifestError::Parse {
                    path: origin.into(),
                    message: format!("ops lists {bad:?}, which is not a protocol v1 op"),
                });
            }
        }
        let claimed = raw.ops.as_deref().unwrap_or_default();
        if let Some(bad) = raw.through_package.iter().find(|op| !claimed.contains(op)) {
            return Err(ManifestError::Parse {
                path: origin.into(),
                message: format!("through_package lists {bad:?}, which `ops` does not"),
            });
        }
        let workdir = base.join(raw.workdir.as_deref().unwrap_or("."));
        let workdir = workdir.canonicalize().unwrap_or(workdir);
        Ok(Manifest {
            name: raw.name,
            description: raw.description,
            kind: raw.kind,
            command: raw.command.iter().map(|w| expand(w)).collect(),
            workdir,
            env: raw.env,
            ops: raw.ops,
            startup_timeout: raw.startup_timeout_ms.map_or(DEFAULT_STARTUP, Duration::from_millis),
            request_timeout: raw.request_timeout_ms.map_or(DEFAULT_REQUEST, Duration::from_millis),
            origin: origin.into(),
            single_instance: raw.single_instance,
            provenance: Provenance {
                packages: raw.packages,
                through_package: raw.through_package,
                scheme_logic: raw.scheme_logic,
                reconstruction: raw.reconstruction,
            },
        })
    }

    /// Reads a manifest file.
    pub fn load(path: &Path) -> Result<Manifest, ManifestError> {
        let text = std::fs::read_to_string(path).map_err(|source| ManifestError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Manifest::parse(
            &text,
            path.parent().unwrap_or(Path::new(".")),
            &path.display().to_string(),
        )
    }

    /// A manifest for `--target-cmd`: the command runs through `sh -c` in the current directory.
    pub(crate) fn from_command(cmd: &str) -> Manifest {
        Manifest {
            name: cmd.to_string(),
            description: "given with --target-cmd".into(),
            kind: Kind::Protocol,
            command: vec!["sh".into(), "-c".into(), format!("exec {cmd}")],
            workdir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            env: BTreeMap::new(),
            ops: None,
            startup_timeout: DEFAULT_STARTUP,
            request_timeout: DEFAULT_REQUEST,
            origin: "--target-cmd".into(),
            single_instance: false,
            provenance: Provenance::default(),
        }
    }
}

/// Every manifest in `dir`, sorted by name.
pub fn all(dir: &Path) -> Result<Vec<Manifest>, ManifestError> {
    let entries = std::fs::read_dir(dir).map_err(|source| ManifestError::Read {
        path: dir.display().to_string(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    paths.iter().map(|p| Manifest::load(p)).collect()
}

/// Resolves `--target NAME|FILE`: a path to a `.toml` file, or a name in `dir`.
pub(crate) fn find(spec: &str, dir: &Path) -> Result<Manifest, ManifestError> {
    let as_path = Path::new(spec);
    if spec.ends_with(".toml") || as_path.components().count() > 1 {
        return Manifest::load(as_path);
    }
    let all = all(dir)?;
    let known = all.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ");
    all.iter()
        .find(|m| m.name == spec)
        .cloned()
        .ok_or(ManifestError::Unknown {
            name: spec.into(),
            known,
        })
}

/// The targets folder: `given`, else `$PROVABLY_TARGETS`, else
/// `harness/targets` under the working directory. Never a path compiled
/// into the binary: a copied or installed binary finds the checkout it is
/// run in.
pub fn targets_dir(given: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = given {
        return Some(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("PROVABLY_TARGETS").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let here = Path::new("harness/targets");
    here.is_dir().then(|| here.to_path_buf())
}

/// The targets built into the binary, which need no checkout: this
/// implementation itself, spoken to over the protocol.
pub(crate) fn builtin() -> Vec<Manifest> {
    let text = r#"name = "provably-serve"
description = "provably's own Rust implementation, spoken to over the protocol (provably serve)"
command = ["${PROVABLY}", "serve"]
startup_timeout_ms = 10000
request_timeout_ms = 10000
"#;
    let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    vec![Manifest::parse(text, &here, "built in").expect("the built-in manifest parses")]
}

/// The targets a run asks: `--target` names or files, then `--target-cmd`
/// commands; every manifest in the targets folder when neither is given.
/// Without a folder, names are looked up among the built-in targets.
pub fn resolve(targets: &[String], commands: &[String], dir: Option<&Path>) -> Result<Vec<Manifest>, ManifestError> {
    let mut out = Vec::new();
    for t in targets {
        let as_path = Path::new(t);
        let built_in = builtin().into_iter().find(|m| &m.name == t);
        out.push(match (dir, built_in) {
            _ if t.ends_with(".toml") || as_path.components().count() > 1 => Manifest::load(as_path)?,
            (Some(dir), _) if all(dir).is_ok_and(|ms| ms.iter().any(|m| &m.name == t)) => find(t, dir)?,
            (_, Some(m)) => m,
            (Some(dir), None) => find(t, dir)?,
            (None, None) => {
                return Err(ManifestError::Unknown {
                    name: t.clone(),
                    known: builtin().iter().map(|m| m.name.clone()).collect::<Vec<_>>().join(", "),
                })
            }
        });
    }
    out.extend(commands.iter().map(|c| Manifest::from_command(c)));
    if out.is_empty() {
        out = match dir {
            Some(dir) => all(dir)?,
            None => {
                return Err(ManifestError::NoTargetsDir {
                    looked: "harness/targets in the working directory".into(),
                })
            }
        };
    }
    Ok(out)
}
