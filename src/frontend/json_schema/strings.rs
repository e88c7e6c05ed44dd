//! String languages as regexes over JSON text: `pattern`, `format`, lengths, literals.
//!
//! A schema constrains the *decoded* string; the lexer reads its JSON spelling. Every
//! regex built here describes the spelling, quotes included. Constrained strings are
//! spelled as the lexer's [`JSON_CHAR`] spells characters: as themselves, except `"`,
//! `\` and the control characters, which take their short escape (`\n`) or `\u00XX`
//! (a control character with a short escape has both spellings, and hex digits may be
//! of either case). Every regex here holds *every* such spelling of each string it
//! admits ([`spellings_of`]), so a set of decoded strings and its set of spellings
//! stand for each other: excluding a string excludes all its spellings, which is what
//! makes "none of these names", a `not` and length bounds exact. (With one spelling per
//! character excluded, `"\u0009"` had slipped past an exclusion of a tab.) Unconstrained
//! strings accept every escape JSON allows.

use super::formats::{self, Format};
use super::normalize::{count, Schemas, Simple};
use super::numbers;
use crate::error::Result;
use crate::frontend::pyregex;
use crate::ir::Language;
use crate::lexer::JSON_CHAR;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{Capture, Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition};
use hashbrown::HashMap;
use serde_json::Value;
use std::cell::{RefCell, RefMut};

/// Any JSON string, every escape allowed.
pub(super) const ANY_STRING: &str = r#""(?:[^"\\\x00-\x1F]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*""#;

/// A `pattern` or `format` translated to a regex over the string's spelling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct StringRegex(pub String);

/// The keywords [`of_simple`] reads: whatever reads a string's language off a schema
/// (disjointness, an enum's filter, a negation) reads these.
pub(super) const KEYWORDS: &[&str] = &["pattern", "format", "minLength", "maxLength"];

/// The regexes a string must match and those it must not; `None` if no string is
/// admitted.
pub(super) fn of_simple(schemas: &Schemas, s: &Simple, excluded: &[String], at: &str) -> Result<Option<(Vec<String>, Vec<String>)>> {
    let mut all = Vec::new();
    for p in s.get("pattern").and_then(Value::as_array).into_iter().flatten() {
        let p = p.as_str().ok_or_else(|| Schemas::error(at, "pattern must be a string"))?;
        all.push(schemas.pattern(p).map_err(|reason| Schemas::error(at, reason))?.0);
    }
    for f in s.get("format").and_then(Value::as_array).into_iter().flatten() {
        let name = f.as_str().ok_or_else(|| Schemas::error(at, "format must be a string"))?;
        match formats::format(name, schemas.format_vocabulary()) {
            Format::Regexes(regexes) => all.extend(regexes.iter().map(|r| anchored(r).0)),
            Format::Unsupported => return Err(Schemas::error(at, format!("format {name:?} is not supported"))),
            Format::Annotation => {}
        }
    }
    let min = count(s, "minLength", at)?.unwrap_or(0);
    let max = count(s, "maxLength", at)?;
    if max.is_some_and(|max| max < min) {
        return Ok(None);
    }
    if min > 0 || max.is_some() || all.is_empty() && !excluded.is_empty() {
        all.push(length(min, max));
    }
    if all.is_empty() {
        all.push(ANY_STRING.to_string());
    }
    Ok(Some((all, excluded.to_vec())))
}

/// Strings whose length in characters is within `min..=max` (the lexer counts them
/// rather than unrolling them when a bound is large).
pub(super) fn length(min: u64, max: Option<u64>) -> String {
    crate::lexer::json_string_of_length(min, max)
}

/// The spelling of exactly `value`.
pub(super) fn literal(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        match spellings_of(c).as_slice() {
            [one] => out.push_str(&regex_syntax::escape(one)),
            several => {
                let escaped: Vec<String> = several.iter().map(|s| regex_syntax::escape(s)).collect();
                out.push_str(&format!("(?:{})", escaped.join("|")));
            }
        }
    }
    out.push('"');
    out
}

/// Strings that `pattern` (Python `re` syntax, as the reference validators use, with
/// search semantics: unanchored unless it starts with `^` or ends with `$`) matches.
pub(super) fn pattern(pattern: &str) -> Result<StringRegex, String> {
    let translated = pyregex::translate(pattern, false)?;
    let hir = regex_syntax::ParserBuilder::new()
        .utf8(true)
        .build()
        .parse(&translated)
        .map_err(|e| format!("pattern /{pattern}/ is not supported: {}", crate::lexer::reason_line(&e.to_string())))?;
    let body = search(&hir).map_err(|reason| format!("pattern /{pattern}/: {reason}"))?;
    Ok(StringRegex(format!("\"{body}\"")))
}

/// Strings in a fixed regular language written in `regex_syntax` syntax, fully
/// anchored (the `format` regexes).
pub(super) fn anchored(regex: &str) -> StringRegex {
    let hir = regex_syntax::Parser::new().parse(regex).expect("format regexes are valid");
    StringRegex(format!("\"{}\"", spelled(&hir).expect("format regexes have no anchors")))
}

/// The spelling-level regex of a search for `hir`: each alternative that anchors
/// (after distributing alternations that contain anchors) is anchored where it starts
/// with `^` or ends with `$`, and padded with any characters elsewhere.
fn search(hir: &Hir) -> Result<String, String> {
    let any = format!("{JSON_CHAR}*");
    let mut out = Vec::new();
    for mut parts in anchor_alternatives(hir)? {
        let starts = matches!(parts.first().map(Hir::kind), Some(HirKind::Look(Look::Start)));
        if starts {
            parts.remove(0);
        }
        let (ends, tail) = match parts.last().map(Hir::kind) {
            Some(HirKind::Look(Look::End)) => (true, String::new()),
            // Python's multi-line `$` also matches before any newline, after which a
            // search reads no more: the text may go on past one.
            Some(HirKind::Look(Look::EndLF)) => (true, format!("(?:{}{any})?", spelled_char('\n'))),
            _ => (false, any.clone()),
        };
        let head = if starts { "" } else { any.as_str() };
        let inner = if ends { &parts[..parts.len() - 1] } else { &parts[..] };
        if inner.iter().any(|part| part.properties().look_set().contains(Look::End)) {
            // A `$` inside (`(a($|/))*`): the matches that pass one end the string.
            let (open, ended) = split_at_end(&Hir::concat(parts.clone()));
            let mut cases = Vec::new();
            if let Some(open) = open {
                cases.push(format!("(?:{}){any}", spelled(&open)?));
            }
            if let Some(ended) = ended {
                cases.push(format!("(?:{})", spelled(&ended)?));
            }
            out.push(match cases.is_empty() {
                true => "[^\\s\\S]".to_string(),
                false => format!("{head}(?:{})", cases.join("|")),
            });
            continue;
        }
        if ends {
            parts.pop();
        }
        let body = spelled(&Hir::concat(parts))?;
        out.push(format!("{head}(?:{body}){tail}"));
    }
    Ok(format!("(?:{})", out.join("|")))
}

/// The full matches of `hir` (whose only look-arounds are ends of the text, `$`) in
/// two parts: those that pass no `$`, and those that pass one and so end the text
/// (nothing is read after it); `None` for an empty part. In a search the first may be
/// followed by anything, the second by nothing.
fn split_at_end(hir: &Hir) -> (Option<Hir>, Option<Hir>) {
    match hir.kind() {
        HirKind::Look(Look::End) => (None, Some(Hir::empty())),
        _ if !hir.properties().look_set().contains(Look::End) => (Some(hir.clone()), None),
        HirKind::Capture(c) => split_at_end(&c.sub),
        HirKind::Alternation(branches) => {
            let (open, ended): (Vec<_>, Vec<_>) = branches.iter().map(split_at_end).unzip();
            (union(open.into_iter().flatten().collect()), union(ended.into_iter().flatten().collect()))
        }
        HirKind::Concat(parts) => {
            // Open so far, and ended so far (every later part must then match empty).
            let (mut open, mut ended) = (Some(Hir::empty()), None::<Hir>);
            for part in parts {
                let (part_open, part_ended) = split_at_end(part);
                let after_end = ended.filter(|_| matches_empty_at_end(part));
                let newly_ended = open.clone().zip(part_ended).map(|(o, e)| Hir::concat(vec![o, e]));
                ended = union([after_end, newly_ended].into_iter().flatten().collect());
                open = open.zip(part_open).map(|(o, p)| Hir::concat(vec![o, p]));
            }
            (open, ended)
        }
        HirKind::Repetition(r) => {
            let (sub_open, sub_ended) = split_at_end(&r.sub);
            let repeat = |sub: Hir, min: u32, max: Option<u32>| Hir::repetition(Repetition { min, max, greedy: true, sub: Box::new(sub) });
            let open = match (&sub_open, r.min) {
                (Some(sub), _) => Some(repeat(sub.clone(), r.min, r.max)),
                (None, 0) => Some(Hir::empty()),
                (None, _) => None,
            };
            // The iteration that passes the end is the last that reads: the ones before
            // it are open, the ones after it match empty (or there are none).
            let ended = match (sub_ended, r.max) {
                (None, _) | (_, Some(0)) => None,
                (Some(ended), max) => {
                    let before_min = if matches_empty_at_end(&r.sub) { 0 } else { r.min.saturating_sub(1) };
                    match (&sub_open, before_min) {
                        (Some(sub), _) => Some(Hir::concat(vec![repeat(sub.clone(), before_min, max.map(|m| m - 1)), ended])),
                        (None, 0) => Some(ended),
                        (None, _) => None,
                    }
                }
            };
            (open, ended)
        }
        _ => (Some(hir.clone()), None),
    }
}

/// Whether `hir` matches the empty text at the end of the text (its `$`s hold there).
fn matches_empty_at_end(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(Look::End) => true,
        HirKind::Look(_) | HirKind::Literal(_) | HirKind::Class(_) => false,
        HirKind::Capture(c) => matches_empty_at_end(&c.sub),
        HirKind::Repetition(r) => r.min == 0 || matches_empty_at_end(&r.sub),
        HirKind::Concat(parts) => parts.iter().all(matches_empty_at_end),
        HirKind::Alternation(branches) => branches.iter().any(matches_empty_at_end),
    }
}

/// The alternation of `branches`; `None` when there are none.
fn union(branches: Vec<Hir>) -> Option<Hir> {
    (!branches.is_empty()).then(|| Hir::alternation(branches))
}

/// Most alternatives that distributing anchored alternations may produce.
const MAX_ANCHOR_ALTERNATIVES: usize = 64;

/// `hir` as a union of concatenations, distributing the alternations and groups that
/// contain anchors (so `^(a$|b)` becomes `^a$ | ^b`).
fn anchor_alternatives(hir: &Hir) -> Result<Vec<Vec<Hir>>, String> {
    if hir.properties().look_set().is_empty() {
        return Ok(vec![vec![hir.clone()]]);
    }
    let out = match hir.kind() {
        HirKind::Capture(c) => anchor_alternatives(&c.sub)?,
        HirKind::Alternation(branches) => {
            let mut out = Vec::new();
            for b in branches {
                out.extend(anchor_alternatives(b)?);
            }
            out
        }
        HirKind::Concat(parts) => {
            let mut out: Vec<Vec<Hir>> = vec![Vec::new()];
            for part in parts {
                let options = anchor_alternatives(part)?;
                let mut next = Vec::with_capacity(out.len() * options.len());
                for prefix in &out {
                    for option in &options {
                        next.push(prefix.iter().chain(option).cloned().collect());
                    }
                }
                out = next;
                if out.len() > MAX_ANCHOR_ALTERNATIVES {
                    return Err("too many anchored alternatives".into());
                }
            }
            out
        }
        _ => vec![vec![hir.clone()]],
    };
    Ok(out)
}

/// The regex over spellings of the strings `hir` matches in full.
fn spelled(hir: &Hir) -> Result<String, String> {
    Ok(spell_hir(hir)?.to_string())
}

fn spell_hir(hir: &Hir) -> Result<Hir, String> {
    Ok(match hir.kind() {
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(literal) => {
            let text = std::str::from_utf8(&literal.0).map_err(|_| "a byte-level literal".to_string())?;
            Hir::concat(text.chars().map(spelled_char).collect())
        }
        HirKind::Class(Class::Unicode(class)) => spell_class(class),
        HirKind::Class(Class::Bytes(_)) => return Err("byte-level classes are not supported".into()),
        HirKind::Look(_) => return Err("anchors and word boundaries are supported only at the ends".into()),
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            min: r.min,
            max: r.max,
            // The set of full matches does not depend on laziness.
            greedy: true,
            // A group around the repeated part: `Hir`'s `Display` writes `(x+)?` as
            // `x+?`, which reads back as a lazy `+`.
            sub: Box::new(Hir::capture(Capture { index: 1, name: None, sub: Box::new(spell_hir(&r.sub)?) })),
        }),
        HirKind::Capture(c) => spell_hir(&c.sub)?,
        HirKind::Concat(parts) => Hir::concat(parts.iter().map(spell_hir).collect::<Result<_, _>>()?),
        HirKind::Alternation(parts) => Hir::alternation(parts.iter().map(spell_hir).collect::<Result<_, _>>()?),
    })
}

/// A class of characters as the union of the plain ones and the escapes of the others.
fn spell_class(class: &ClassUnicode) -> Hir {
    let mut plain = class.clone();
    plain.difference(&escaped_chars());
    let mut alternatives = vec![Hir::class(Class::Unicode(plain))];
    let mut special = class.clone();
    special.intersect(&escaped_chars());
    for range in special.iter() {
        alternatives.extend((range.start()..=range.end()).map(spelled_char));
    }
    Hir::alternation(alternatives)
}

/// The characters that canonical JSON escapes.
fn escaped_chars() -> ClassUnicode {
    ClassUnicode::new([
        ClassUnicodeRange::new('\0', '\x1F'),
        ClassUnicodeRange::new('"', '"'),
        ClassUnicodeRange::new('\\', '\\'),
    ])
}

/// The spellings of one character, as one `Hir`.
fn spelled_char(c: char) -> Hir {
    Hir::alternation(spellings_of(c).into_iter().map(|s| Hir::literal(s.into_bytes())).collect())
}

/// Every spelling of one character inside a JSON string that the lexer's strings
/// admit ([`JSON_CHAR`]), the canonical one (`json.dumps`, `serde_json`) first: the
/// character itself; `\"` and `\\`; a control character's short escape where it has
/// one, and `\u00XX` with hex letters of either case.
fn spellings_of(c: char) -> Vec<String> {
    let short = match c {
        '"' => return vec!["\\\"".into()],
        '\\' => return vec!["\\\\".into()],
        '\n' => Some("\\n"),
        '\r' => Some("\\r"),
        '\t' => Some("\\t"),
        '\x08' => Some("\\b"),
        '\x0C' => Some("\\f"),
        c if (c as u32) >= 0x20 => return vec![c.to_string()],
        _ => None,
    };
    let lower = format!("\\u{:04x}", c as u32);
    let upper = format!("\\u{:04X}", c as u32);
    let mut out: Vec<String> = short.map(String::from).into_iter().chain([lower.clone()]).collect();
    if upper != lower {
        out.push(upper);
    }
    out
}

/// Most product states [`Languages::meet`] explores before giving up.
const MAX_PRODUCT_STATES: usize = 20_000;

/// Regexes over spellings compiled to lazy DFAs once, for [`Languages::meet`] and
/// [`Languages::match_sets`]: `oneOf` branches are tested in many pairs, and an
/// object's `patternProperties` pattern by pattern.
#[derive(Default)]
pub(super) struct Languages {
    /// The DFA of each regex tested on its own.
    single: hashbrown::HashMap<String, Machine>,
    /// The DFA of each list of observed regexes, a pattern per regex.
    observing: hashbrown::HashMap<Vec<String>, Machine>,
}

/// A DFA with its cache, kept warm across searches; `None` when it does not build.
type Machine = Option<(DFA, RefCell<Cache>)>;

impl Languages {
    /// Whether some text matches every regex of `all` in full and none of `except`:
    /// `Some(false)` proves no text does, `None` means the search was too large to
    /// decide (or a regex did not build).
    pub(super) fn meet(&mut self, all: &[String], except: &[String]) -> Option<bool> {
        Some(!self.search(&[], all, except, true)?.is_empty())
    }

    /// The sets of `observed` regexes (bit `i` for regex `i`) that some text matches
    /// in full, exactly, among the texts matching every regex of `all` and none of
    /// `except`; the empty set left out. `None` when the search is too large (or a
    /// regex did not build), or for more than 64 observed regexes.
    pub(super) fn match_sets(&mut self, observed: &[String], all: &[String], except: &[String]) -> Option<Vec<u64>> {
        if observed.len() > 64 {
            return None;
        }
        let mut sets = self.search(observed, all, except, false)?;
        sets.retain(|&set| set != 0);
        Some(sets)
    }

    fn search(&mut self, observed: &[String], all: &[String], except: &[String], first_only: bool) -> Option<Vec<u64>> {
        let required = sorted_unique(all);
        let excluded = sorted_unique(except);
        if required.iter().any(|r| excluded.contains(r)) {
            return Some(Vec::new());
        }
        let tested: Vec<&String> = required.iter().chain(&excluded).copied().collect();
        for regex in &tested {
            if !self.single.contains_key(*regex) {
                self.single.insert((*regex).clone(), machine(std::slice::from_ref(*regex)));
            }
        }
        if !observed.is_empty() && !self.observing.contains_key(observed) {
            self.observing.insert(observed.to_vec(), machine(observed));
        }
        // The observing DFA first, then the required ones, then the excluded ones.
        let observing = (!observed.is_empty()).then(|| &self.observing[observed]);
        let machines: Vec<&(DFA, RefCell<Cache>)> =
            observing.into_iter().chain(tested.iter().map(|r| &self.single[*r])).map(Option::as_ref).collect::<Option<_>>()?;
        let dfas: Vec<&DFA> = machines.iter().map(|(dfa, _)| dfa).collect();
        let mut caches: Vec<RefMut<Cache>> = machines.iter().map(|(_, cache)| cache.borrow_mut()).collect();
        let observing = usize::from(!observed.is_empty());
        let roles = Roles { observing: observing == 1, required: observing + required.len() };
        match product_search(&dfas, &mut caches, roles, first_only) {
            Ok(found) => Some(found),
            Err(Undecided::TooLarge) => None,
            Err(Undecided::CacheFull) => {
                // A full cache fails the search rather than renumber its states: try
                // once more from empty caches.
                for (dfa, cache) in dfas.iter().zip(&mut caches) {
                    cache.reset(dfa);
                }
                product_search(&dfas, &mut caches, roles, first_only).ok()
            }
        }
    }
}

/// Why a product search stopped without an answer.
enum Undecided {
    /// It reached [`MAX_PRODUCT_STATES`].
    TooLarge,
    /// A lazy DFA's cache filled (or a DFA could not start).
    CacheFull,
}

fn sorted_unique(regexes: &[String]) -> Vec<&String> {
    let mut out: Vec<&String> = regexes.iter().collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A lazy DFA with one pattern per regex, matching in full from an anchored start and
/// reporting every match rather than leftmost-first (a full match may extend a shorter
/// one that a leftmost-first DFA would stop at: `a|ab` on `ab`). A cache that would be
/// cleared fails instead: clearing renumbers the states a search holds.
fn machine(regexes: &[String]) -> Machine {
    let config = DFA::config().match_kind(MatchKind::All).cache_capacity(4 << 20).minimum_cache_clear_count(Some(0));
    let dfa = DFA::builder().configure(config).build_many(regexes).ok()?;
    let cache = RefCell::new(dfa.create_cache());
    Some((dfa, cache))
}

/// Which of a product's DFAs do what: the first observes (when `observing`), those
/// before `required` must match, the rest must not.
#[derive(Clone, Copy)]
struct Roles {
    observing: bool,
    required: usize,
}

/// Breadth-first search of the product of `dfas` for the texts the required DFAs
/// match in full and the excluded ones do not: the distinct sets of the observing
/// DFA's patterns such texts match (bit `i` for pattern `i`), or the first one found.
fn product_search(dfas: &[&DFA], caches: &mut [RefMut<Cache>], roles: Roles, first_only: bool) -> Result<Vec<u64>, Undecided> {
    let bytes = representative_bytes(dfas);
    let anchored = start::Config::new().anchored(Anchored::Yes);
    let first: Vec<LazyStateID> = dfas
        .iter()
        .zip(caches.iter_mut())
        .map(|(d, c)| d.start_state(c, &anchored).map_err(|_| Undecided::CacheFull))
        .collect::<Result<_, _>>()?;
    let observed = usize::from(roles.observing);
    let mut found = Vec::new();
    let mut seen = hashbrown::HashSet::new();
    // Breadth first: where the languages meet, a short text usually shows it.
    let mut todo = std::collections::VecDeque::from([first.clone()]);
    seen.insert(first);
    while let Some(states) = todo.pop_front() {
        let (mut meets, mut set) = (true, 0u64);
        for (i, ((dfa, cache), &state)) in dfas.iter().zip(caches.iter_mut()).zip(&states).enumerate() {
            let end = dfa.next_eoi_state(cache, state).map_err(|_| Undecided::CacheFull)?;
            if i < observed {
                set = matched_patterns(dfa, cache, end);
            } else {
                meets &= end.is_match() == (i < roles.required);
            }
        }
        if meets && !found.contains(&set) {
            found.push(set);
            if first_only {
                return Ok(found);
            }
        }
        'bytes: for &byte in &bytes {
            let mut next = Vec::with_capacity(states.len());
            for (i, ((dfa, cache), &state)) in dfas.iter().zip(caches.iter_mut()).zip(&states).enumerate() {
                let to = dfa.next_state(cache, state, byte).map_err(|_| Undecided::CacheFull)?;
                // A required DFA can no longer match, or the observing one matches
                // nothing ahead; an excluded one that cannot match stays dead, which
                // its end test reads as "does not match".
                if to.is_dead() && i < roles.required {
                    continue 'bytes;
                }
                next.push(to);
            }
            if !seen.contains(&next) {
                if seen.len() >= MAX_PRODUCT_STATES {
                    return Err(Undecided::TooLarge);
                }
                seen.insert(next.clone());
                todo.push_back(next);
            }
        }
    }
    Ok(found)
}

/// The patterns of `dfa` that match at `end`, a state after the end of input.
fn matched_patterns(dfa: &DFA, cache: &Cache, end: LazyStateID) -> u64 {
    if !end.is_match() {
        return 0;
    }
    (0..dfa.match_len(cache, end)).fold(0, |set, k| set | 1 << dfa.match_pattern(cache, end, k).as_usize())
}

/// One byte of each class of bytes that every one of `dfas` treats alike: the bytes
/// where some DFA's class changes. (A DFA's classes are ranges of bytes; were one not,
/// it would merely be tried twice.)
fn representative_bytes(dfas: &[&DFA]) -> Vec<u8> {
    let changes = |b: u8| dfas.iter().any(|d| d.byte_classes().get(b) != d.byte_classes().get(b - 1));
    (0..=255u8).filter(|&b| b == 0 || changes(b)).collect()
}

/// One `patternProperties` entry: its pattern as written and as a regex over key
/// spellings, and the schema of the members whose keys it matches.
pub(super) struct PatternProperty<'s> {
    pub(super) pattern: &'s str,
    pub(super) regex: StringRegex,
    pub(super) schema: &'s Value,
}

impl PatternProperty<'_> {
    /// A matcher of the key spellings the pattern matches.
    pub(super) fn keys(&self, at: &str) -> Result<Spellings> {
        Spellings::new(std::slice::from_ref(&self.regex.0), at)
    }
}

/// The `patternProperties` of `s`, read through the compile's pattern cache (merges
/// and emission meet the same patterns again and again).
pub(super) fn pattern_properties<'s>(schemas: &Schemas, s: &'s Simple, at: &str) -> Result<Vec<PatternProperty<'s>>> {
    let entries = s.get("patternProperties").and_then(Value::as_object).into_iter().flatten();
    entries
        .map(|(pattern, schema)| {
            let regex = schemas.pattern(pattern).map_err(|reason| Schemas::error(at, reason))?;
            Ok(PatternProperty { pattern, regex, schema })
        })
        .collect()
}

/// Languages over spellings, compiled once, against which the compiler tests values it
/// knows (enum values, declared property names). A regex that cannot be compiled is an
/// error: a silent "no match" could widen the grammar.
pub(super) struct Spellings(Vec<Spelling>);

enum Spelling {
    Regex(regex::Regex),
    /// A number's plain spelling judged by its value ([`numbers::is_multiple`]).
    Multiples { numerator: u32, decimals: u32 },
}

impl Spelling {
    fn is_match(&self, spelled: &str) -> bool {
        match self {
            Spelling::Regex(r) => r.is_match(spelled),
            &Spelling::Multiples { numerator, decimals } => numbers::is_multiple(spelled, numerator, decimals),
        }
    }
}

impl Spellings {
    pub(super) fn new(regexes: &[String], at: &str) -> Result<Spellings> {
        regexes.iter().map(|r| compiled_spelling(r, at).map(Spelling::Regex)).collect::<Result<_>>().map(Spellings)
    }

    /// The spellings of `languages`.
    pub(super) fn of_languages(languages: &[Language], at: &str) -> Result<Spellings> {
        let spelling = |language: &Language| match language {
            Language::Regex(r) => compiled_spelling(r, at).map(Spelling::Regex),
            &Language::DecimalMultiples { numerator, decimals } => Ok(Spelling::Multiples { numerator, decimals }),
        };
        languages.iter().map(spelling).collect::<Result<_>>().map(Spellings)
    }

    /// No regex: every spelling passes [`Spellings::all`], none [`Spellings::any`].
    pub(super) fn none() -> Spellings {
        Spellings(Vec::new())
    }

    pub(super) fn any(&self, spelled: &str) -> bool {
        self.0.iter().any(|r| r.is_match(spelled))
    }

    pub(super) fn all(&self, spelled: &str) -> bool {
        self.0.iter().all(|r| r.is_match(spelled))
    }
}

/// `regex` anchored and compiled, from a per-thread memo: a schema's definitions are
/// emitted once per use, so the same regexes come back (thousands of times in the
/// largest schemas, a compile each). The memo holds at most [`SPELLING_MEMO`] regexes,
/// none longer than [`SPELLING_MEMO_BYTES`].
fn compiled_spelling(regex: &str, at: &str) -> Result<regex::Regex> {
    thread_local! {
        static MEMO: RefCell<HashMap<String, regex::Regex>> = RefCell::new(HashMap::new());
    }
    if let Some(compiled) = MEMO.with(|memo| memo.borrow().get(regex).cloned()) {
        return Ok(compiled);
    }
    let compiled = regex::Regex::new(&format!("^(?:{regex})$")).map_err(|e| {
        Schemas::error(at, format!("a regex is too large to test values against: {}", crate::lexer::reason_line(&e.to_string())))
    })?;
    if regex.len() <= SPELLING_MEMO_BYTES {
        MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.len() >= SPELLING_MEMO {
                memo.clear();
            }
            memo.insert(regex.to_owned(), compiled.clone());
        });
    }
    Ok(compiled)
}

/// Most regexes [`compiled_spelling`] keeps per thread, and the longest it keeps (in
/// bytes of regex text): a compiled regex grows with its text.
const SPELLING_MEMO: usize = 1024;
const SPELLING_MEMO_BYTES: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    fn languages_meet(all: &[String], except: &[String]) -> Option<bool> {
        Languages::default().meet(all, except)
    }

    fn full(regex: &str, text: &str) -> bool {
        regex::Regex::new(&format!("^(?:{regex})$")).unwrap().is_match(text)
    }

    #[test]
    fn search_semantics_pad_unanchored_ends() {
        let r = pattern("ab").unwrap().0;
        assert!(full(&r, r#""xaby""#));
        assert!(!full(&r, r#""a b""#));
        let r = pattern("^ab$").unwrap().0;
        assert!(full(&r, r#""ab""#) && !full(&r, r#""abc""#));
        let r = pattern("^$|^[0-9]+$").unwrap().0;
        assert!(full(&r, r#""""#) && full(&r, r#""12""#) && !full(&r, r#""1a""#));
    }

    #[test]
    fn special_characters_are_spelled_as_json_escapes() {
        let r = pattern(r#"^[a"\n]+$"#).unwrap().0;
        assert!(full(&r, r#""a\"\n""#));
        assert!(!full(&r, "\"a\"\""));
        assert!(full(&literal("a\"b\u{1}"), r#""a\"b\u0001""#));
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        let r = length(1, Some(2));
        assert!(full(&r, r#""é\n""#) && !full(&r, r#""""#) && !full(&r, r#""abc""#));
    }

    #[test]
    fn optional_repetitions_stay_greedy_and_optional() {
        let r = pattern("^a([a-z]+)?b$").unwrap().0;
        assert!(full(&r, r#""ab""#) && full(&r, r#""axyb""#) && !full(&r, r#""a1b""#));
    }

    #[test]
    fn languages_meet_only_where_some_text_matches_all() {
        let ipv4 = anchored(r"[0-9]{1,3}(\.[0-9]{1,3}){3}").0;
        assert_eq!(languages_meet(&[pattern("^basic:(string|text):$").unwrap().0, pattern("^basic:date:$").unwrap().0], &[]), Some(false));
        assert_eq!(languages_meet(&[pattern("^a").unwrap().0, pattern("b$").unwrap().0], &[]), Some(true));
        assert_eq!(languages_meet(&[ipv4.clone(), length(0, Some(6))], &[]), Some(false));
        assert_eq!(languages_meet(&[ipv4, length(0, Some(7))], &[]), Some(true));
    }

    #[test]
    fn languages_meet_reads_full_matches_and_exclusions() {
        let own = |r: &str| r.to_string();
        // A leftmost-first search would stop at `a` and miss `ab`.
        assert_eq!(languages_meet(&[own("a|ab"), own("ab")], &[]), Some(true));
        assert_eq!(languages_meet(&[own("a.*")], &[own(".*")]), Some(false));
        assert_eq!(languages_meet(&[own(".*")], &[own("a")]), Some(true));
        assert_eq!(languages_meet(&[own("a|b")], &[own("a"), own("b")]), Some(false));
    }

    #[test]
    fn unsupported_patterns_are_errors() {
        assert!(pattern("(?=a)b").is_err());
        assert!(pattern(r"a^b").is_err());
    }
}
