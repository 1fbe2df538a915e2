//! What the server hands out: the page's three trees, built into the binary
//! or read from a checkout.
//!
//! One rule, [`Tree::serves`], decides which relative paths exist, in both
//! modes: `web/` without `test/`, of `reference/js/` every module (`.mjs`)
//! but the node-only ones ([`NODE_ONLY`]: the node target, its server, the
//! benchmarks, the tests and their kit), so a new scheme, statistics or
//! proof module needs no line here, and of `vectors/` only `selftest.json`;
//! never a dotfile. Only what the page loads is served: anything else is one more
//! file a hostile page could probe. The embedded set is cut by the same rule
//! (the `exclude`/`include` globs below say the same thing to `rust-embed`,
//! and a test compares the two), so a page that works with `--root` works
//! from the binary. `docs/` (and so a conformance report under it) is not
//! part of the page and is not served.
//!
//! With `--root`, every file is read once per change and shared: a copy is
//! kept with the length and modification time it was read at, and every
//! response hands out the same bytes, so a thousand slow readers of a
//! vectors file cost one copy of it, not a thousand (docs/reliability.md).

use std::borrow::Cow;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use bytes::Bytes;
use percent_encoding::percent_decode_str;
use rust_embed::RustEmbed;

use super::WebError;

// `debug-embed` makes debug builds embed too: without it rust-embed reads
// these folders from the build tree at run time, which is the bug this
// module exists to fix. build.rs reruns the build when files are added.
#[derive(RustEmbed)]
#[folder = "web/"]
#[exclude = "test/*"]
#[exclude = ".*"]
#[exclude = "*/.*"]
struct WebTree;

// The same rule as NODE_ONLY (a test holds the two equal): every module but those.
#[derive(RustEmbed)]
#[folder = "reference/js/"]
#[include = "*.mjs"]
#[exclude = "serve.mjs"]
#[exclude = "target.mjs"]
#[exclude = "bench/*"]
#[exclude = "test/*"]
#[exclude = "testkit/*"]
#[exclude = ".*"]
#[exclude = "*/.*"]
struct JsTree;

#[derive(RustEmbed)]
#[folder = "vectors/"]
#[include = "selftest.json"]
struct VectorTree;

/// The parts of `reference/js/` that only node runs: the node target and
/// its server, the benchmarks, the tests and their kit (first path segment).
/// Every other module there is the page's: the schemes, the engine, the
/// statistics and the proof checker, loaded by the page and its worker
/// (index.html's modulepreload list names each; the browser test holds that
/// list to what the page really requests).
pub const NODE_ONLY: [&str; 5] = ["serve.mjs", "target.mjs", "bench", "test", "testkit"];

/// The one file of `vectors/` the page loads.
pub const PAGE_VECTORS: &str = "selftest.json";

/// One of the three directories the page is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tree {
    /// `/…` → `web/…`
    Web,
    /// `/js/…` → `reference/js/…`
    Js,
    /// `/vectors/…` → `vectors/…`
    Vectors,
}

impl Tree {
    /// The directory under the repository root.
    pub(crate) fn dir(self) -> &'static str {
        match self {
            Tree::Web => "web",
            Tree::Js => "reference/js",
            Tree::Vectors => "vectors",
        }
    }

    /// The URL prefix (with its trailing slash).
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            Tree::Web => "/",
            Tree::Js => "/js/",
            Tree::Vectors => "/vectors/",
        }
    }

    /// Whether `rel` (a `/`-separated path inside this tree) is part of the page.
    pub fn serves(self, rel: &str) -> bool {
        let mut segments = rel.split('/');
        let first = segments.clone().next().unwrap_or("");
        let clean = !rel.is_empty() && segments.all(|s| !s.is_empty() && !s.starts_with('.'));
        clean
            && match self {
                Tree::Web => first != "test",
                Tree::Js => rel.ends_with(".mjs") && !NODE_ONLY.contains(&first),
                Tree::Vectors => rel == PAGE_VECTORS,
            }
    }
}

/// Why a request path was refused before any lookup (answered with 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPath {
    /// Occurs when the percent-decoded bytes are not UTF-8.
    #[error("the path does not percent-decode to UTF-8")]
    NotUtf8,
    /// Occurs when the decoded path holds a control character (a NUL, a newline).
    #[error("the path holds a control character")]
    Control,
    /// Occurs when the decoded path holds a backslash (a Windows separator).
    #[error("the path holds a backslash")]
    Backslash,
    /// Occurs when a segment of the decoded path is `.` or `..`.
    #[error("the path holds a `.` or `..` segment")]
    DotSegment,
}

/// Percent-decodes the path of a request target (without its query) and
/// splits it into the tree and the path inside it. Checks run on the decoded
/// text, so `%2e%2e` and `%2f` are caught as `..` and `/`.
pub fn route(raw_path: &str) -> Result<(Tree, String), BadPath> {
    let path = percent_decode_str(raw_path)
        .decode_utf8()
        .map_err(|_| BadPath::NotUtf8)?;
    if path.chars().any(char::is_control) {
        return Err(BadPath::Control);
    }
    if path.contains('\\') {
        return Err(BadPath::Backslash);
    }
    if path.split('/').any(|s| s == "." || s == "..") {
        return Err(BadPath::DotSegment);
    }
    let (tree, rest) = if let Some(rest) = path.strip_prefix("/js/") {
        (Tree::Js, rest)
    } else if let Some(rest) = path.strip_prefix("/vectors/") {
        (Tree::Vectors, rest)
    } else {
        let rest = path.strip_prefix('/').unwrap_or(&path);
        (Tree::Web, if rest.is_empty() { "index.html" } else { rest })
    };
    Ok((tree, rest.to_string()))
}

/// The Content-Type for a file name, by its extension.
pub fn content_type(rel: &str) -> &'static str {
    match rel.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("mjs" | "js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// Where the files come from.
#[derive(Debug)]
pub enum Source {
    /// The copy built into the binary.
    Embedded,
    /// A checkout on disk.
    Checkout(Checkout),
}

/// A checkout on disk (its canonical path), and the copies of its files
/// read so far, shared by every response.
#[derive(Debug)]
pub struct Checkout {
    root: PathBuf,
    copies: Mutex<HashMap<PathBuf, Copy>>,
}

/// A file's bytes as read, with the length and time of change they were read at.
#[derive(Debug)]
struct Copy {
    len: u64,
    modified: Option<SystemTime>,
    bytes: Bytes,
}

impl Checkout {
    /// The bytes of the file at canonical path `real`: the shared copy if
    /// the file has not changed since it was read, else a fresh read (which
    /// then becomes the shared copy).
    fn read(&self, real: &Path) -> io::Result<Bytes> {
        let meta = std::fs::metadata(real)?;
        let (len, modified) = (meta.len(), meta.modified().ok());
        let copies = || self.copies.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(copy) = copies().get(real) {
            if copy.len == len && copy.modified == modified && modified.is_some() {
                return Ok(copy.bytes.clone());
            }
        }
        let bytes = Bytes::from(std::fs::read(real)?);
        let copy = Copy {
            len,
            modified,
            bytes: bytes.clone(),
        };
        copies().insert(real.to_path_buf(), copy);
        Ok(bytes)
    }
}

impl Source {
    /// A checkout at `root`: it must hold `web/index.html`.
    pub fn checkout(root: &Path) -> Result<Source, WebError> {
        let canonical = root.canonicalize().map_err(|source| WebError::Root {
            path: root.to_path_buf(),
            source,
        })?;
        if !canonical.join("web/index.html").is_file() {
            return Err(WebError::NotACheckout {
                path: root.to_path_buf(),
            });
        }
        Ok(Source::Checkout(Checkout {
            root: canonical,
            copies: Mutex::new(HashMap::new()),
        }))
    }

    /// The bytes of `rel` in `tree`, or `None` if the page has no such file.
    /// Reads the disk in checkout mode; call it off the async workers.
    pub fn get(&self, tree: Tree, rel: &str) -> io::Result<Option<Bytes>> {
        if !tree.serves(rel) {
            return Ok(None);
        }
        match self {
            Source::Embedded => Ok(embedded(tree, rel).map(|data| match data {
                Cow::Borrowed(b) => Bytes::from_static(b),
                Cow::Owned(v) => Bytes::from(v),
            })),
            Source::Checkout(checkout) => read_inside(checkout, tree, rel),
        }
    }
}

fn embedded(tree: Tree, rel: &str) -> Option<Cow<'static, [u8]>> {
    match tree {
        Tree::Web => WebTree::get(rel),
        Tree::Js => JsTree::get(rel),
        Tree::Vectors => VectorTree::get(rel),
    }
    .map(|f| f.data)
}

/// Reads `base/rel` only if the file it finally names, symlinks resolved,
/// lies inside `base` and passes the rule under its real name too. `base`
/// itself is not resolved: a tree directory that is a symlink serves nothing.
/// The canonical path is what gets opened, so the check covers what is read.
fn read_inside(checkout: &Checkout, tree: Tree, rel: &str) -> io::Result<Option<Bytes>> {
    let base = checkout.root.join(tree.dir());
    let Ok(real) = base.join(rel).canonicalize() else {
        return Ok(None);
    };
    let inside = real.strip_prefix(&base).ok().and_then(Path::to_str);
    if !inside.is_some_and(|r| tree.serves(r)) || !real.is_file() {
        return Ok(None);
    }
    match checkout.read(&real) {
        Ok(body) => Ok(Some(body)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Every URL of a file built into the binary, sorted. The globs above and
/// [`Tree::serves`] must agree, so a test holds this against the checkout.
pub fn embedded_urls() -> Vec<String> {
    let mut urls: Vec<String> = [
        (Tree::Web, WebTree::iter().collect::<Vec<_>>()),
        (Tree::Js, JsTree::iter().collect()),
        (Tree::Vectors, VectorTree::iter().collect()),
    ]
    .into_iter()
    .flat_map(|(tree, names)| names.into_iter().map(move |n| format!("{}{n}", tree.prefix())))
    .collect();
    urls.sort();
    urls
}
