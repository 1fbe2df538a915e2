//! One finding per bug and op: the symptom classes a run streamed into
//! ([`super::findings::Groups`]) joined where the evidence says they are
//! one bug, then named.
//!
//! A latin-1 key shows in `cursor.int` as a dozen symptoms ("kept a draw
//! provably rejects (3-byte draws)", "same attempts, another value (5-byte
//! draws)"); without a lower op to ask, the cause cannot localise them. So
//! classes are joined by what the evidence supports, never by their words:
//!
//! - the same cause once localised (one HMAC input differs: one finding);
//! - the same known bug: a fault of the catalog ([`super::bugs`]) that
//!   answers as the target did on every diverging case tried of both, and
//!   as provably does on the op's agreeing cases tried;
//! - the same separating property ([`super::separate`]), confirmed with
//!   targeted cases: first for all classes together ("every diverging case
//!   has a non-ASCII `serverSeed`"), else class by class.
//!
//! A finding says how many symptom classes it holds, what separates its
//! cases, and the known bug it answers as; its headline is the bug.

use super::bugs::{Bugs, Entry};
use super::compare::same_reply;
use super::driver::Driver;
use super::findings::{Made, Sampled};
use super::report::{Cause, Finding, Known, Separates, Symptom};
use super::separate::{confirm, ranked, Profile, Property, Scored};
use crate::op::Request;
use crate::protocol::Reply;

/// Whether a case is small enough to replay through the known bugs: a
/// 100,000-case ladder costs a fault 12,500 MACs, and the catalog's time
/// must stay a small part of the run's. The answer's size says what the
/// request costs (a range of 2^53 costs nothing).
fn cheap(r: &Request, answer: &Reply) -> bool {
    let size = match answer {
        Reply::Ok(v) => v.to_string().len(),
        Reply::Error { .. } => 0,
    };
    size <= 8192 && r.to_value().to_string().len() <= 4096
}

impl Made {
    /// The diverging requests kept to replay, minimal first, with the
    /// target's answers: each once, none too large.
    fn diverging(&self) -> Vec<(&Request, &Reply)> {
        let minimal = self.minimal.iter().map(|(r, g)| (r, g));
        let all = minimal.chain(
            self.sample
                .iter()
                .filter_map(|s| s.got.as_ref().map(|g| (&s.request, g))),
        );
        let mut out: Vec<(&Request, &Reply)> = Vec::new();
        for (r, g) in all {
            if cheap(r, g) && !out.iter().any(|(o, _)| *o == r) {
                out.push((r, g));
            }
        }
        out
    }

    fn requests(&self) -> Vec<Request> {
        let minimal = self.minimal.iter().map(|(r, _)| r.clone());
        minimal.chain(self.sample.iter().map(|s| s.request.clone())).collect()
    }
}

/// What the op kept of its agreeing cases.
pub(crate) struct Agreeing<'a> {
    pub(crate) profile: &'a Profile,
    pub(crate) sample: &'a [Sampled],
}

/// How a class may be joined with others.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    /// The answer's form, or a published reading: one finding per group.
    Group(Cause, String),
    /// One HMAC input differs: one finding.
    Input,
    /// Not localised, or the draw or mapping: joined by evidence only.
    Open,
}

fn key(f: &Finding) -> Key {
    match f.cause {
        Cause::Input => Key::Input,
        Cause::Form => Key::Group(f.cause, f.group.clone()),
        _ if f.reading.is_some() => Key::Group(f.cause, f.group.clone()),
        _ => Key::Open,
    }
}

/// Target calls one op may spend confirming properties.
const CONFIRM_BUDGET: u64 = 60;

/// Symptom classes of an op replayed through the known bugs, largest first.
const REPLAYED_CLASSES: usize = 4;

/// Candidates tried per property search.
const TRIES: usize = 6;

/// A union-find over the classes.
struct Sets(Vec<usize>);

impl Sets {
    fn find(&mut self, i: usize) -> usize {
        let mut i = i;
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }
    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b)] = a.min(b);
        }
    }
    fn groups(&mut self) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut roots: Vec<usize> = Vec::new();
        for i in 0..self.0.len() {
            let r = self.find(i);
            match roots.iter().position(|&x| x == r) {
                Some(k) => out[k].push(i),
                None => {
                    roots.push(r);
                    out.push(vec![i]);
                }
            }
        }
        out
    }
}

/// Asks the target, within a budget; `None` when it may not be asked.
/// Remembers each search, so that a set of classes is searched once.
struct Asker<'a> {
    driver: Option<&'a mut Driver>,
    left: u64,
    searched: Vec<(Vec<usize>, Found)>,
}

impl Asker<'_> {
    fn diverges(&mut self, r: &Request) -> Option<bool> {
        if self.left == 0 {
            return None;
        }
        let want = Reply::from_result(r.run_value());
        let d = self.driver.as_deref_mut().filter(|d| d.alive)?;
        self.left -= 1;
        d.ask_one(r).map(|got| !same_reply(&want, &got))
    }
}

/// A property search's result for a set of classes.
#[derive(Clone)]
struct Found {
    separates: Separates,
    property: Option<Property>,
}

/// Makes the findings of one op, one per bug.
pub(crate) fn one_per_bug(
    op: &str,
    made: &[Made],
    agreeing: &Agreeing<'_>,
    driver: Option<&mut Driver>,
    bugs: &Bugs,
    budget: u64,
) -> Vec<Finding> {
    if made.is_empty() {
        return Vec::new();
    }
    let known = KnownBugs::replay(op, made, agreeing.sample, bugs);
    let mut sets = Sets((0..made.len()).collect());
    let keys: Vec<Key> = made.iter().map(|m| key(&m.finding)).collect();
    for i in 0..made.len() {
        for j in 0..i {
            let same = match (&keys[i], &keys[j]) {
                (Key::Open, Key::Open) => known.shared(i, j),
                (a, b) => a == b,
            };
            if same {
                sets.join(i, j);
            }
        }
    }
    let mut asker = Asker {
        driver,
        left: budget.min(CONFIRM_BUDGET),
        searched: Vec::new(),
    };
    join_by_property(made, &keys, &known, agreeing, &mut sets, &mut asker);
    let mut out: Vec<Finding> = sets
        .groups()
        .into_iter()
        .map(|members| {
            let found = search(made, &members, agreeing, &mut asker);
            finding_of(made, &members, found, &known)
        })
        .collect();
    out.sort_by_key(|f| std::cmp::Reverse(f.count));
    out
}

/// Joins the open classes that one confirmed property separates: all of
/// them at once if one does (and they name at most one known bug between
/// them), else those whose own confirmed property is the same.
fn join_by_property(
    made: &[Made],
    keys: &[Key],
    known: &KnownBugs,
    agreeing: &Agreeing<'_>,
    sets: &mut Sets,
    asker: &mut Asker<'_>,
) {
    let open: Vec<usize> = (0..made.len()).filter(|&i| keys[i] == Key::Open).collect();
    let clusters: Vec<Vec<usize>> = {
        let mut roots: Vec<usize> = open.iter().map(|&i| sets.find(i)).collect();
        roots.sort_unstable();
        roots.dedup();
        roots
            .iter()
            .map(|&r| open.iter().copied().filter(|&i| sets.find(i) == r).collect())
            .collect()
    };
    if clusters.len() < 2 {
        return;
    }
    let mut names: Vec<&str> = open.iter().filter_map(|&i| known.name_of(i)).collect();
    names.sort_unstable();
    names.dedup();
    if names.len() <= 1 && search(made, &open, agreeing, asker).property.is_some() {
        for &i in &open {
            sets.join(open[0], i);
        }
        return;
    }
    let mut by: Vec<(Property, usize)> = Vec::new();
    for c in &clusters {
        if let Some(p) = search(made, c, agreeing, asker).property {
            match by.iter().find(|(q, _)| *q == p) {
                Some((_, first)) => sets.join(*first, c[0]),
                None => by.push((p, c[0])),
            }
        }
    }
}

/// The property that separates the classes `members`, confirmed (each set
/// searched once).
fn search(made: &[Made], members: &[usize], agreeing: &Agreeing<'_>, asker: &mut Asker<'_>) -> Found {
    let mut key = members.to_vec();
    key.sort_unstable();
    if let Some((_, found)) = asker.searched.iter().find(|(k, _)| *k == key) {
        return found.clone();
    }
    let found = search_once(made, members, agreeing, asker);
    asker.searched.push((key, found.clone()));
    found
}

fn search_once(made: &[Made], members: &[usize], agreeing: &Agreeing<'_>, asker: &mut Asker<'_>) -> Found {
    let mut profile = Profile::default();
    for &i in members {
        profile.merge(&made[i].profile);
    }
    let diverging: Vec<Request> = members.iter().flat_map(|&i| made[i].requests()).collect();
    let agree: Vec<Request> = agreeing.sample.iter().map(|s| s.request.clone()).collect();
    let none = |text: String| Found {
        separates: Separates {
            text,
            diverging: profile.cases,
            agreeing: agreeing.profile.cases,
            ..Separates::default()
        },
        property: None,
    };
    let Some(example) = diverging.first() else {
        return none("not computed: the cases are invalid request lines".into());
    };
    if agreeing.profile.cases == 0 {
        return none("no simple property found: no case of the op agrees, so there is nothing to tell apart".into());
    }
    let candidates = ranked(example, &profile, agreeing.profile);
    for s in candidates.iter().take(TRIES) {
        if let Some(asked) = confirm(&s.property, &diverging, &agree, &mut |r| asker.diverges(r)) {
            return Found {
                separates: statement(s, asked),
                property: Some(s.property),
            };
        }
    }
    let text = match (candidates.first(), asker.left) {
        (None, _) => "no simple property found".to_string(),
        (Some(best), 0) => format!(
            "no simple property confirmed (no target calls left to confirm one); by the counts alone, {}",
            counts(best)
        ),
        (Some(best), _) => format!(
            "no simple property found (by the counts, {}; targeted cases refute it)",
            counts(best)
        ),
    };
    none(text)
}

fn counts(s: &Scored) -> String {
    format!(
        "{} holds for {} of {} diverging cases and {} of {} agreeing ones",
        s.property.words(),
        s.diverging.0,
        s.diverging.1,
        s.agreeing.0,
        s.agreeing.1
    )
}

/// A confirmed property as the finding states it.
fn statement(s: &Scored, asked: u64) -> Separates {
    let p = s.property.words();
    let ((d, nd), (a, na)) = (s.diverging, s.agreeing);
    let diverging = if s.exact() || d == nd {
        format!("in every diverging case ({d} of {nd})")
    } else {
        format!("in {d} of {nd} diverging cases")
    };
    let agreeing = if a == 0 {
        format!("in no agreeing one ({a} of {na})")
    } else {
        format!("in {a} of {na} agreeing ones")
    };
    let text = format!("{p}: {diverging} and {agreeing}; {asked} targeted cases confirm it");
    Separates {
        text,
        field: Some(s.property.field.to_string()),
        property: Some(p),
        diverging: nd,
        diverging_with: d,
        agreeing: na,
        agreeing_with: a,
        confirmed_by: asked,
    }
}

/// The finding of the classes `members`: the largest class's example, every
/// class's count, the bug as its headline.
fn finding_of(made: &[Made], members: &[usize], found: Found, known: &KnownBugs) -> Finding {
    let rep = *members
        .iter()
        .max_by_key(|&&i| (made[i].finding.count, std::cmp::Reverse(made[i].index)))
        .expect("a set has members");
    let mut f = made[rep].finding.clone();
    let mut symptoms: Vec<Symptom> = Vec::new();
    for s in members.iter().flat_map(|&i| &made[i].finding.symptoms) {
        // Classes of one localised cause carry one group: one class.
        match symptoms.iter_mut().find(|o| o.group == s.group) {
            Some(o) => o.count += s.count,
            None => symptoms.push(s.clone()),
        }
    }
    symptoms.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.group.cmp(&b.group)));
    f.count = symptoms.iter().map(|s| s.count).sum();
    f.symptoms = symptoms;
    (f.known, f.unknown) = known.of(members);
    f.headline = headline(&f, &found);
    f.separates = found.separates;
    f
}

fn headline(f: &Finding, found: &Found) -> String {
    if let Some(k) = &f.known {
        return format!("answers as the known bug `{}` would: {}", k.name, k.description);
    }
    let exact = found.separates.diverging_with == found.separates.diverging && found.separates.agreeing_with == 0;
    match (&found.separates.property, f.symptoms.len()) {
        // One class (the HMAC input, a refusal): its symptom, and where.
        (Some(p), 1) if exact || f.cause == Cause::Input => format!("{} where {p}", f.group),
        (Some(p), _) if exact => format!("diverges where {p}"),
        (_, n) if n > 1 => format!("{} (and {} more symptom classes)", f.group, n - 1),
        _ => f.group.clone(),
    }
}

/// Which known bugs answer as the target did, class by class.
struct KnownBugs {
    entries: Vec<Entry>,
    /// `matches[i]`: the entries (by position) that explain class i.
    matches: Vec<Vec<usize>>,
    /// How many diverging and agreeing cases each class was replayed on.
    tried: Vec<(u64, u64)>,
    /// Why nothing is named when no entry matches.
    why: String,
}

impl KnownBugs {
    fn replay(op: &str, made: &[Made], agreeing: &[Sampled], bugs: &Bugs) -> KnownBugs {
        let mut out = KnownBugs {
            entries: Vec::new(),
            matches: vec![Vec::new(); made.len()],
            tried: vec![(0, 0); made.len()],
            why: String::new(),
        };
        match bugs.models(op) {
            Err(why) => out.why = format!("not checked: {why}"),
            Ok(entries) if entries.is_empty() => out.why = format!("no known bug of the catalog models {op}"),
            Ok(mut entries) => {
                out.why = format!("none of the {} known bugs that model {op} answers so", entries.len());
                // The faults catalogued for the op itself first: they name it
                // where another scheme's copy of a fault fits as well.
                entries.sort_by_key(|e| !e.ops.iter().any(|o| o == op));
                out.entries = entries;
                if let Err(why) = out.ask(made, agreeing, bugs) {
                    out.why = format!("not checked: {why}");
                    out.matches = vec![Vec::new(); made.len()];
                }
            }
        }
        out
    }

    /// Every fault on each class's first diverging case; the faults that
    /// reproduce one then on every case kept, and on the agreeing ones.
    fn ask(&mut self, made: &[Made], agreeing: &[Sampled], bugs: &Bugs) -> Result<(), String> {
        // The largest classes only: a target answering at random makes dozens
        // per op, and a known bug explains a class that many cases show.
        let mut order: Vec<usize> = (0..made.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(made[i].finding.count));
        order.truncate(REPLAYED_CLASSES);
        let replayed = |i: usize| order.contains(&i);
        let firsts: Vec<(&Request, &Reply)> = order
            .iter()
            .filter_map(|&i| made[i].diverging().first().copied())
            .collect();
        let asked: Vec<&Request> = firsts.iter().map(|(r, _)| *r).collect();
        let names: Vec<&str> = self.entries.iter().map(|e| e.name.as_str()).collect();
        let answers = bugs.answers(&names, &asked)?;
        let mut alive: Vec<usize> = (0..names.len())
            .filter(|&f| {
                firsts
                    .iter()
                    .zip(&answers[f])
                    .any(|((_, got), a)| a.as_ref().is_some_and(|a| same_reply(a, got)))
            })
            .collect();
        alive.truncate(8);
        if alive.is_empty() {
            return Ok(());
        }
        let (agree, wants): (Vec<&Request>, Vec<Reply>) = agreeing
            .iter()
            .map(|s| (&s.request, Reply::from_result(s.request.run_value())))
            .filter(|(r, w)| cheap(r, w))
            .unzip();
        let mut all: Vec<&Request> = agree.clone();
        let cases: Vec<Vec<(&Request, &Reply)>> = (0..made.len())
            .map(|i| if replayed(i) { made[i].diverging() } else { Vec::new() })
            .collect();
        all.extend(cases.iter().flatten().map(|(r, _)| *r));
        let alive_names: Vec<&str> = alive.iter().map(|&f| names[f]).collect();
        let answers = bugs.answers(&alive_names, &all)?;
        for (k, &f) in alive.iter().enumerate() {
            let agrees = wants
                .iter()
                .enumerate()
                .all(|(j, w)| answers[k][j].as_ref().is_some_and(|a| same_reply(a, w)));
            let mut at = agree.len();
            for (i, class) in cases.iter().enumerate() {
                let reproduced = class
                    .iter()
                    .enumerate()
                    .all(|(j, (_, got))| answers[k][at + j].as_ref().is_some_and(|a| same_reply(a, got)));
                at += class.len();
                if agrees && reproduced && !class.is_empty() {
                    self.matches[i].push(f);
                }
                self.tried[i] = (class.len() as u64, agree.len() as u64);
            }
        }
        Ok(())
    }

    fn shared(&self, i: usize, j: usize) -> bool {
        self.matches[i].iter().any(|f| self.matches[j].contains(f))
    }

    fn name_of(&self, i: usize) -> Option<&str> {
        self.matches[i].first().map(|&f| self.entries[f].name.as_str())
    }

    /// The known bug every class of `members` answers as, or why there is none.
    fn of(&self, members: &[usize]) -> (Option<Known>, String) {
        // A class with no case small enough to replay says nothing either way.
        let tried: Vec<usize> = members.iter().copied().filter(|&i| self.tried[i].0 > 0).collect();
        let mut common: Vec<usize> = tried.first().map_or_else(Vec::new, |&i| self.matches[i].clone());
        common.retain(|f| tried.iter().all(|&i| self.matches[i].contains(f)));
        let Some(&first) = common.first() else {
            let why = if members.iter().any(|&i| !self.matches[i].is_empty()) {
                "the known bugs that answer as some of its symptom classes do differ on the others".to_string()
            } else {
                self.why.clone()
            };
            return (None, why);
        };
        let e = &self.entries[first];
        let (diverging, agreeing) = members
            .iter()
            .fold((0, 0), |(d, a), &i| (d + self.tried[i].0, a.max(self.tried[i].1)));
        let mut also: Vec<String> = common[1..].iter().map(|&f| self.entries[f].name.clone()).collect();
        also.truncate(3);
        (
            Some(Known {
                name: e.name.clone(),
                description: e.description.clone(),
                category: e.category.clone(),
                diverging,
                agreeing,
                also,
            }),
            String::new(),
        )
    }
}
