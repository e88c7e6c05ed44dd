//! Counted JSON strings: one counter instead of one DFA state per character.
//!
//! A JSON string of `min..=max` characters is the regex `"C{min,max}"` (`C` one
//! spelled character, [`JSON_CHAR`]). Unrolled, its DFA has a dozen states
//! per character (the partial UTF-8 sequences and escapes), so a `maxLength: 32767`
//! needs hundreds of thousands of states and a schema with several such strings cannot
//! be compiled. Where a bound is beyond both the lexer's count horizon (the longest
//! token it serves) and `LexerConfig::count_strings_beyond`, the lexer instead compiles
//! the unbounded `"C*"` once, shared by every such terminal, and counts the characters
//! started since the opening quote.
//!
//! The count is split into [`CountClasses`]: counts from which no text of at most
//! `horizon + 1` characters crosses a bound (`min`, or `max + 1`) are *far*, and a run
//! of far counts is one class; every other count is a class of its own. A DFA state is
//! a set of NFA states plus, while the counted string is open, its count class. Within
//! a far run every count accepts and can complete the same terminals for the next
//! `horizon` bytes, so the DFA's transition from a far class stays in that class: the
//! table is exact for everything a token of at most `horizon` bytes can observe (which
//! is what the token spanner reads), and [`Lexer::step`](super::Lexer::step) carries the
//! exact count for the recognizer, moving to the next class when the count reaches it.
//!
//! Here: the count classes, and the subset construction's side of counting (where the
//! counted string is in a state, the class after a byte, the transitions out of far
//! runs and the completions read off the count); `mod.rs` calls them.

use super::remaining::{self, Remaining};
use super::{seeds_hash, Builder, LexState, LexedTerminal, SharedSubset, Subset};
use crate::error::Result;
use crate::ir::TerminalSet;
use hashbrown::HashMap;
use std::hash::Hasher as _;
use regex_automata::util::primitives::StateID;
use regex_syntax::hir::{Class, ClassUnicode, Hir, HirKind, Literal};

/// One JSON string character as constrained strings spell it: itself, except `"` and
/// `\` (escaped), and the control characters, which take their short escape where they
/// have one or `\u00XX` (hex of either case). A control character thus has several
/// spellings; the JSON-Schema front end writes every one of them wherever it names a
/// string (`strings::spellings_of`), so an exclusion cannot be escaped by another.
pub(crate) const JSON_CHAR: &str = r#"(?:[^"\\\x00-\x1F]|\\["\\bfnrt]|\\u00[01][0-9a-fA-F])"#;

/// The spelling of a JSON string of `min..=max` characters spelled as [`JSON_CHAR`] spells them (no
/// upper bound when `max` is `None`). A lexer counts such a string's characters instead
/// of unrolling them when a bound is beyond its count horizon.
pub(crate) fn json_string_of_length(min: u64, max: Option<u64>) -> String {
    match max {
        Some(max) => format!("\"{JSON_CHAR}{{{min},{max}}}\""),
        None => format!("\"{JSON_CHAR}{{{min},}}\""),
    }
}

/// The unbounded string every counted terminal shares.
pub(super) fn unbounded_json_string() -> String {
    format!("\"{JSON_CHAR}*\"")
}

/// A counted terminal's length bounds, in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    pub(super) min: u32,
    /// `u32::MAX`: no upper bound.
    pub(super) max: u32,
}

impl Bounds {
    /// Whether a bound is beyond `count` characters (and both are below `u32::MAX`).
    pub(super) fn beyond(self, count: usize) -> bool {
        let far = |bound: u32| bound as usize > count;
        self.min != u32::MAX && (far(self.min) || self.max != u32::MAX && far(self.max))
    }

    /// Whether a string of `count` characters is within the bounds.
    pub(super) fn admits(self, count: u32) -> bool {
        self.min <= count && count <= self.max
    }
}

/// A string of length-bounded characters that a lexer can count.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CountableLength {
    pub(super) bounds: Bounds,
    /// For a string of characters from a class of plain characters (each spelled as
    /// itself, such as `"[A-Za-z0-9.-]{1,253}"`): that class, which the counted terminal
    /// also requires, as the regex `"class*"`. `None` for [`json_string_of_length`]'s
    /// any character.
    pub(super) characters: Option<String>,
}

/// The bounds of `hir` if it is a string of length-bounded characters (any, as
/// [`json_string_of_length`] spells it, or one class of plain characters) with a bound
/// beyond `beyond` characters (and both bounds below `u32::MAX`).
pub(super) fn countable_length(hir: &Hir, beyond: usize) -> Option<CountableLength> {
    let HirKind::Concat(parts) = hir.kind() else { return None };
    let [open, HirKind::Repetition(repeat), close] = [parts.first()?.kind(), parts.get(1)?.kind(), parts.get(2)?.kind()] else {
        return None;
    };
    let quote = |kind: &HirKind| matches!(kind, HirKind::Literal(Literal(bytes)) if bytes.as_ref() == b"\"");
    if parts.len() != 3 || !quote(open) || !quote(close) || !repeat.greedy {
        return None;
    }
    let bounds = Bounds { min: repeat.min, max: repeat.max.unwrap_or(u32::MAX) };
    if !bounds.beyond(beyond) {
        return None;
    }
    let mut sub = &*repeat.sub;
    while let HirKind::Capture(group) = sub.kind() {
        sub = &group.sub;
    }
    let characters = match sub.kind() {
        _ if *sub == *json_char_hir() => None,
        HirKind::Class(Class::Unicode(class)) if is_plain(class) => Some(format!("\"{sub}*\"")),
        _ => return None,
    };
    Some(CountableLength { bounds, characters })
}

/// Whether every character of `class` is spelled as itself in a JSON string: one
/// character of the counted string each.
fn is_plain(class: &ClassUnicode) -> bool {
    class.ranges().iter().all(|r| r.start() > '\u{1F}' && !(r.start()..=r.end()).contains(&'"') && !(r.start()..=r.end()).contains(&'\\'))
}

fn json_char_hir() -> &'static Hir {
    static HIR: std::sync::OnceLock<Hir> = std::sync::OnceLock::new();
    HIR.get_or_init(|| {
        regex_syntax::ParserBuilder::new().utf8(true).build().parse(JSON_CHAR).expect("JSON_CHAR is a valid regex")
    })
}

/// A counted terminal's length: its bounds, and the characters its other patterns
/// still need from each of their configurations.
#[derive(Clone, Debug)]
pub(super) struct CountedLength {
    pub(super) bounds: Bounds,
    pub(super) remaining: Remaining,
}

/// Counts of characters, split into classes that a text of at most `horizon + 1`
/// characters cannot tell apart (see the module documentation).
///
/// # Example (crate-internal)
/// With one terminal of `0..=1000` characters and a horizon of 10, counts 990..=1000
/// (within 11 of `1001`) are classes of their own; 0..=989 is one far class and
/// 1001.. another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CountClasses {
    /// The first count of each class, increasing; the last class has no end.
    starts: Vec<u32>,
    /// Per class: whether it is a single count (rather than a far run).
    single: Vec<bool>,
}

impl CountClasses {
    /// The classes for terminals of `bounds`, each with its horizon.
    pub(super) fn new(bounds: &[(Bounds, u32)]) -> CountClasses {
        let mut near: Vec<u32> = Vec::new();
        for &(b, horizon) in bounds {
            let reach = horizon.saturating_add(1);
            for crossing in [Some(b.min), b.max.checked_add(1)].into_iter().flatten() {
                near.extend(crossing.saturating_sub(reach)..crossing);
            }
        }
        near.sort_unstable();
        near.dedup();
        let (mut starts, mut single) = (Vec::new(), Vec::new());
        let mut next = 0u32;
        for count in near {
            if next < count {
                starts.push(next);
                single.push(false);
            }
            starts.push(count);
            single.push(true);
            next = count + 1;
        }
        starts.push(next);
        single.push(false);
        CountClasses { starts, single }
    }

    /// The class of `count`.
    pub(super) fn of(&self, count: u32) -> u32 {
        (self.starts.partition_point(|&s| s <= count) - 1) as u32
    }

    /// The smallest count of `class` (every count of a class is alike for the bounds).
    pub(super) fn first(&self, class: u32) -> u32 {
        self.starts[class as usize]
    }

    /// The class after one more character, as the DFA table has it: a far run stays
    /// itself. The second class is where the run's last count really goes (`None` for
    /// a single count, whose next class is exact, and for the unending last class).
    pub(super) fn after_char(&self, class: u32) -> (u32, Option<u32>) {
        let k = class as usize;
        if self.single[k] {
            return (self.of(self.starts[k].saturating_add(1)), None);
        }
        (class, (k + 1 < self.starts.len()).then_some(class + 1))
    }

    /// Feed the classes to `hasher` (for fingerprints of compiled grammars).
    pub(super) fn hash_into(&self, hasher: &mut twox_hash::XxHash3_64) {
        for (&start, &single) in self.starts.iter().zip(&self.single) {
            hasher.write(&start.to_le_bytes());
            hasher.write(&[single as u8]);
        }
    }
}

// ----- the counted string in the lexer and its construction -----

/// What [`Lexer::step`] needs to follow counted strings exactly.
#[derive(Clone, Debug)]
pub(super) struct Counting {
    pub(super) horizon: usize,
    pub(super) fitted: Option<super::FittedHorizon>,
    pub(super) classes: CountClasses,
    /// By state: where in a counted string it is.
    pub(super) states: Vec<CountedState>,
    /// The state of each (group, class) the construction reached: a far class's table
    /// transition stays in the class, and [`Lexer::step`] looks up where the count
    /// really went.
    pub(super) by_group: HashMap<(u32, u32), LexState>,
}

/// A state's place in the counted string: `group` numbers its NFA states (without the
/// count), `class` is its count class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CountedState {
    pub(super) part: Part,
    pub(super) group: u32,
    pub(super) class: u32,
}

/// Where the shared counted string's NFA is in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Part {
    /// Not in the state, or before the opening quote.
    Outside,
    /// Between characters (after the opening quote or a whole character).
    Between,
    /// Inside a character (a UTF-8 sequence or an escape).
    Inside,
    /// After the closing quote.
    Closed,
}

/// A transition out of a far count run: from state `source` to `subset` at count `class`.
#[derive(Clone)]
pub(super) struct Leaving {
    pub(super) source: usize,
    /// Shared with the successor memo, which hands it to every source it serves.
    pub(super) subset: SharedSubset,
    pub(super) class: u32,
}

/// The count class of states outside the counted string.
pub(super) const NO_CLASS: u32 = u32::MAX;

/// The counted string while the DFA is built.
pub(super) struct Counter {
    pub(super) pattern: u32,
    /// Its NFA states between characters.
    pub(super) between: Vec<StateID>,
    pub(super) classes: CountClasses,
}

impl<'a> Builder<'a> {
    /// Sets up counting for the counted terminals over `pattern`, if there are any.
    pub(super) fn with_counter(mut self, pattern: Option<u32>) -> Builder<'a> {
        let Some(pattern) = pattern else { return self };
        let bounds: Vec<(Bounds, u32)> =
            self.terminals.iter().filter_map(|t| t.counted.as_ref().map(|c| (c.bounds, c.remaining.horizon))).collect();
        // Its states alone (the lexer's closure would drop them where they serve only
        // terminals that need other patterns too).
        let nfa_of = |p: u32| &self.nfas[p as usize].nfa;
        let start = remaining::closure(&nfa_of, &[(pattern, nfa_of(pattern).start_anchored())]);
        let opened = remaining::closure(&nfa_of, &remaining::step(&nfa_of, &start, b'"'));
        let part = |subset: &Subset| subset.iter().map(|&(_, s)| s).collect();
        let classes = CountClasses::new(&bounds);
        self.counter = Some(Counter { pattern, between: part(&opened), classes });
        self
    }

    /// Where the counted string is in `subset`.
    pub(super) fn part(&self, subset: &Subset) -> Part {
        let Some(counter) = &self.counter else { return Part::Outside };
        let lo = subset.partition_point(|&(p, _)| p < counter.pattern);
        let hi = subset.partition_point(|&(p, _)| p <= counter.pattern);
        let states = || subset[lo..hi].iter().map(|&(_, s)| s);
        match &subset[lo..hi] {
            [] => Part::Outside,
            &[(p, s)] if self.is_match(p, s) => Part::Closed,
            _ if states().eq(counter.between.iter().copied()) => Part::Between,
            // Before the opening quote is the start state's alone, and `intern` marks
            // that Outside.
            _ => Part::Inside,
        }
    }

    /// The number of the NFA-state set `subset`.
    pub(super) fn group(&mut self, subset: &Subset) -> u32 {
        let hash = seeds_hash((Part::Outside, 0), subset);
        let subsets = &self.group_subsets;
        if let Some(&(_, group)) = self.groups.find(hash, |&(h, g)| h == hash && subsets[g as usize] == *subset) {
            return group;
        }
        let group = self.group_subsets.len() as u32;
        self.group_subsets.push(subset.clone());
        self.groups.insert_unique(hash, (hash, group), |&(h, _)| h);
        group
    }

    /// Where `state` is in the counted string (its part and count class), which is all
    /// of the source that [`Builder::intern_successor`] reads; the same for every
    /// state without counting.
    pub(super) fn count_place(&self, state: usize) -> (Part, u32) {
        match self.counter {
            Some(_) => (self.counted[state].part, self.counted[state].class),
            None => (Part::Outside, NO_CLASS),
        }
    }

    /// Interns the state that `subset` is after a byte from `state`: with the count
    /// class of the counted string if it holds it, counting a character when one starts.
    pub(super) fn intern_successor(&mut self, state: usize, subset: Subset) -> Result<LexState> {
        let part = self.part(&subset);
        let Some(counter) = self.counter.as_ref().filter(|_| part != Part::Outside) else {
            return self.intern(false, subset, NO_CLASS);
        };
        let source = self.counted[state];
        let class = match source.part {
            Part::Outside => counter.classes.of(0),
            Part::Between if part != Part::Closed => {
                let (table, next) = counter.classes.after_char(source.class);
                if let Some(next) = next {
                    self.wait_to_leave(Leaving { source: state, subset: subset.as_slice().into(), class: next });
                }
                table
            }
            Part::Between | Part::Inside | Part::Closed => source.class,
        };
        self.intern_counted(subset, class)
    }

    /// Logs a transition out of a far run for [`Builder::leave_far_runs`], unless its
    /// source is a lexing context's own state: those take none (where a context's count
    /// leaves its far run, [`Lexer::step`] finds no state and masks read the full
    /// lexer's, which takes every exit its paths reach).
    pub(super) fn wait_to_leave(&mut self, leaving: Leaving) {
        if leaving.source < self.contexts_from {
            self.leaving.push(leaving);
        }
    }

    /// Interns the states that transitions out of far runs really lead to, where the run's
    /// last count can be reached on a path from the start state: the table keeps such a
    /// transition in its run, and [`Lexer::step`] looks up where the count went. Whether
    /// the source can hold the run's last count is read off the fewest and most
    /// characters counted on the paths to it through the table and the transitions out
    /// of runs interned so far (every real path is one of them; a loop reaches any
    /// count). Interning them all would give every prefix of a key name, and every
    /// position of a shorter length-bounded string beside the counted one, a state per
    /// count near a bound. Returns whether it interned a state not seen before.
    pub(super) fn leave_far_runs(&mut self) -> Result<bool> {
        // (Only a counted string leaves far runs.)
        if self.leaving.is_empty() {
            return Ok(false);
        }
        self.extend_count_edges();
        let n = self.subsets.len();
        let successors = |q: usize| self.count_successors(q);
        let (fewest, most) = (fewest_counted(n, [LexState::START.index()], successors), most_counted(n, successors));
        let Some(counter) = self.counter.as_ref() else { return Ok(false) };
        let mut reached = Vec::new();
        // In place: the list holds a transition per byte class out of every far run.
        self.leaving.retain(|l| {
            let last = counter.classes.first(l.class) - 1;
            let taken = fewest[l.source] <= last && last <= most[l.source];
            if taken {
                reached.push(l.clone());
            }
            !taken
        });
        // A new edge, even to a state seen before, can raise the counts that the
        // transitions still waiting are judged by: go round again.
        let added = !reached.is_empty();
        for Leaving { source, subset, class } in reached {
            let target = self.intern_counted(subset.to_vec(), class)?;
            self.left.entry(source).or_default().push(target.index());
        }
        Ok(added)
    }

    /// Adds to `count_edges` the rows of the states explored since it was last extended.
    fn extend_count_edges(&mut self) {
        let stride = self.representatives.len();
        let mut last_source = vec![usize::MAX; self.subsets.len()];
        for q in self.count_edges.len()..self.subsets.len() {
            for t in self.transitions[q * stride..(q + 1) * stride].iter().map(|t| t.index()) {
                if std::mem::replace(&mut last_source[t], q) != q {
                    self.count_edges.targets.push((t, self.counts_a_character(q, t)));
                }
            }
            self.count_edges.starts.push(self.count_edges.targets.len());
        }
    }

    /// The successors of `q` in the table and out of its far run, each with whether the
    /// transition starts a character of the counted string (`count_edges` extended).
    fn count_successors(&self, q: usize) -> impl Iterator<Item = (usize, bool)> + '_ {
        let left = self.left.get(&q).into_iter().flatten().map(move |&t| (t, self.counts_a_character(q, t)));
        self.count_edges.successors(q).iter().copied().chain(left)
    }

    /// Whether the transition from `q` to `t` starts a character of the counted string.
    fn counts_a_character(&self, q: usize, t: usize) -> bool {
        self.counted[q].part == Part::Between && !matches!(self.counted[t].part, Part::Outside | Part::Closed)
    }

    /// Interns `subset` (which holds the counted string) at count `class`, without the
    /// patterns that only counted terminals out of their bounds there use, and without
    /// the counted string if no counted terminal can match or complete there (as the
    /// unrolled lengths would have died).
    pub(super) fn intern_counted(&mut self, mut subset: Subset, class: u32) -> Result<LexState> {
        let group = self.group(&subset);
        let closed = self.part(&subset) == Part::Closed;
        let Some(counter) = &self.counter else { return self.intern(false, subset, NO_CLASS) };
        let first = counter.classes.first(class);
        let within = |t: &LexedTerminal| t.bounds().map_or(true, |b| if closed { b.admits(first) } else { first <= b.max });
        let alive = self.terminals.iter().any(|t| t.counted.is_some() && within(t));
        self.drop_unmatchable_patterns_where(&mut subset, within);
        let id = if alive {
            self.intern(false, subset, class)?
        } else {
            let pattern = counter.pattern;
            subset.retain(|&(p, _)| p != pattern);
            self.intern(false, subset, NO_CLASS)?
        };
        self.by_group.insert((group, class), id);
        // Where a far run's table transition dropped patterns, `Lexer::step` looks the
        // run's exit up by the group it kept (the exit drops the same ones).
        let kept = self.counted[id.index()].group;
        if kept != u32::MAX {
            self.by_group.entry((kept, class)).or_insert(id);
        }
        Ok(id)
    }
}

impl Builder<'_> {
    /// Adds to `set` the counted terminals that state `q` can complete.
    pub(super) fn add_counted_completable(&self, q: usize, set: &mut TerminalSet) {
        let Some(counter) = &self.counter else { return };
        let CountedState { part, class, .. } = self.counted[q];
        for (t, counted) in self.terminals.iter().filter_map(|t| Some((t, t.counted.as_ref()?))) {
            let completes = match part {
                Part::Outside => false,
                Part::Closed => self.accepts[q].contains(&t.id),
                Part::Between | Part::Inside => counted
                    .remaining
                    .fewest_from(&self.subsets[q])
                    .is_some_and(|fewest| counter.classes.first(class).saturating_add(fewest) <= counted.bounds.max),
            };
            if completes {
                set.insert(t.id);
            }
        }
    }
}

/// Per state of a graph of `n` states, the fewest characters counted on a path from
/// one of `roots` (`u32::MAX` if none reaches it): a breadth-first search where a
/// transition that counts nothing costs nothing.
pub(super) fn fewest_counted<I: Iterator<Item = (usize, bool)>>(
    n: usize,
    roots: impl IntoIterator<Item = usize>,
    successors: impl Fn(usize) -> I,
) -> Vec<u32> {
    let mut fewest = vec![u32::MAX; n];
    let mut queue: std::collections::VecDeque<usize> = roots.into_iter().collect();
    queue.iter().for_each(|&root| fewest[root] = 0);
    while let Some(q) = queue.pop_front() {
        for (t, counts) in successors(q) {
            let cost = fewest[q] + u32::from(counts);
            if cost < fewest[t] {
                fewest[t] = cost;
                if counts {
                    queue.push_back(t);
                } else {
                    queue.push_front(t);
                }
            }
        }
    }
    fewest
}

/// Per state of a graph of `n` states, the most characters counted on a path from a
/// state nothing leads to (an opening; `u32::MAX` where a loop leads there): Kahn's
/// order.
fn most_counted<I: Iterator<Item = (usize, bool)>>(n: usize, successors: impl Fn(usize) -> I) -> Vec<u32> {
    let mut incoming = vec![0u32; n];
    for q in 0..n {
        for (t, _) in successors(q) {
            incoming[t] += 1;
        }
    }
    let mut most = vec![0u32; n];
    let mut done = vec![false; n];
    let mut ready: Vec<usize> = (0..n).filter(|&q| incoming[q] == 0).collect();
    while let Some(q) = ready.pop() {
        done[q] = true;
        for (t, counts) in successors(q) {
            most[t] = most[t].max(most[q].saturating_add(u32::from(counts)));
            incoming[t] -= 1;
            if incoming[t] == 0 {
                ready.push(t);
            }
        }
    }
    most.iter().zip(&done).map(|(&m, &d)| if d { m } else { u32::MAX }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_single_out_counts_near_a_bound() {
        let classes = CountClasses::new(&[(Bounds { min: 0, max: 1000 }, 10)]);
        assert_eq!(classes.of(0), classes.of(989));
        for count in 990..=1000 {
            assert_eq!(classes.first(classes.of(count)), count, "{count} is within 11 of 1001");
        }
        assert_eq!(classes.of(1001), classes.of(u32::MAX));
        assert_ne!(classes.of(1000), classes.of(1001));
        assert_eq!(classes.starts.len(), 13);
        assert_eq!(classes.after_char(classes.of(0)), (classes.of(0), Some(classes.of(990))));
        assert_eq!(classes.after_char(classes.of(995)), (classes.of(996), None));
        assert_eq!(classes.after_char(classes.of(2000)), (classes.of(2000), None));
    }

    #[test]
    fn minimum_lengths_single_out_the_counts_below_them() {
        let classes = CountClasses::new(&[(Bounds { min: 3, max: u32::MAX }, 4), (Bounds { min: 500, max: 600 }, 4)]);
        let singles: Vec<u32> = (0..700).filter(|&c| classes.first(classes.of(c)) == c && classes.single[classes.of(c) as usize]).collect();
        let expected: Vec<u32> = (0..3).chain(495..500).chain(596..601).collect();
        assert_eq!(singles, expected);
    }

    #[test]
    fn only_length_strings_beyond_the_horizon_are_counted() {
        let parse = |re: &str| regex_syntax::ParserBuilder::new().utf8(true).build().parse(re).unwrap();
        let counted = |min, max, horizon| countable_length(&parse(&json_string_of_length(min, max)), horizon).map(|c| c.bounds);
        assert_eq!(counted(0, Some(300), 256), Some(Bounds { min: 0, max: 300 }));
        assert_eq!(counted(300, None, 256), Some(Bounds { min: 300, max: u32::MAX }));
        assert_eq!(counted(0, Some(200), 256), None);
        assert_eq!(counted(5000, Some(5000), 256), Some(Bounds { min: 5000, max: 5000 }));
        assert_eq!(countable_length(&parse(r#""[a-z]{0,300}""#), 400), None);
        let plain = countable_length(&parse(r#""[a-z]{0,300}""#), 256).unwrap();
        assert_eq!((plain.bounds, plain.characters.as_deref()), (Bounds { min: 0, max: 300 }, Some(r#""[a-z]*""#)));
        assert_eq!(countable_length(&parse(r#""[a-z"]{0,300}""#), 256), None, "a quote is spelled escaped");
        assert_eq!(countable_length(&parse(r#""(?:ab){0,300}""#), 256), None);
    }
}
