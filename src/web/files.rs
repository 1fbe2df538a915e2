//! What the server hands out: the page's three trees, built into the binary
//! or read from a checkout.
//!
//! One rule, [`Tree::serves`], decides which relative paths exist, in both
//! modes: `web/` without `test/`, `reference/js/` without `test/` and
//! `testkit/`, and the `.json` files of `vectors/`; never a dotfile. The
//! embedded set is cut by the same rule (the `exclude`/`include` globs below
//! say the same thing to `rust-embed`, and a test compares the two), so a
//! page that works with `--root` works from the binary. `docs/` (and so a
//! conformance report under it) is not part of the page and is not served.

use std::borrow::Cow;
use std::io;
use std::path::{Path, PathBuf};

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

#[derive(RustEmbed)]
#[folder = "reference/js/"]
#[exclude = "test/*"]
#[exclude = "testkit/*"]
#[exclude = ".*"]
#[exclude = "*/.*"]
struct JsTree;

#[derive(RustEmbed)]
#[folder = "vectors/"]
#[include = "*.json"]
#[exclude = ".*"]
#[exclude = "*/.*"]
struct VectorTree;

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
    pub fn dir(self) -> &'static str {
        match self {
            Tree::Web => "web",
            Tree::Js => "reference/js",
            Tree::Vectors => "vectors",
        }
    }

    /// The URL prefix (with its trailing slash).
    pub fn prefix(self) -> &'static str {
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
                Tree::Js => first != "test" && first != "testkit",
                Tree::Vectors => rel.ends_with(".json"),
            }
    }
}

/// Why a request path was refused before any lookup (answered with 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPath {
    #[error("the path does not percent-decode to UTF-8")]
    NotUtf8,
    #[error("the path holds a control character")]
    Control,
    #[error("the path holds a backslash")]
    Backslash,
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
#[derive(Debug, Clone)]
pub enum Source {
    /// The copy built into the binary.
    Embedded,
    /// A checkout on disk; the path is canonical.
    Checkout(PathBuf),
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
        Ok(Source::Checkout(canonical))
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
            Source::Checkout(root) => read_inside(&root.join(tree.dir()), tree, rel),
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
fn read_inside(base: &Path, tree: Tree, rel: &str) -> io::Result<Option<Bytes>> {
    let Ok(real) = base.join(rel).canonicalize() else {
        return Ok(None);
    };
    let inside = real.strip_prefix(base).ok().and_then(Path::to_str);
    if !inside.is_some_and(|r| tree.serves(r)) || !real.is_file() {
        return Ok(None);
    }
    match std::fs::read(&real) {
        Ok(body) => Ok(Some(Bytes::from(body))),
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
