//! How many more characters a counted terminal needs: what makes counting a string with
//! a `pattern` or `format` beside its length bounds exact.
//!
//! A counted terminal's lexemes match its other patterns (a `pattern`, a `format`, the
//! names it excludes) and the shared counted string, whose length the lexer counts (see
//! `counted.rs`). Where the string is open, the terminal can complete iff some
//! continuation both matches its patterns and closes the string within its bounds: that
//! depends on the lengths of the continuations its patterns allow, not on the count
//! alone. Here each terminal's patterns are explored on their own (they step
//! independently of the other patterns in any lexer state), and every configuration of
//! them reached gets the fewest characters that complete it.
//!
//! The lexer reads a count class, not a count, and the counts of a far run must all
//! complete alike. That holds when every configuration's completions are *upward closed*
//! (every length from the fewest on completes it: true of any pattern that can keep
//! growing, such as a hostname, a URI or `^[a-z0-9-]+$`) and the fewest is within the
//! horizon's reach: then a count `c` completes iff `c + fewest <= max`, which no far run
//! straddles. A terminal whose patterns fail either test is not counted: its length is
//! unrolled into the table as before.

use super::counted::fewest_counted;
use super::horizon::{self, Configurations};
use super::{byte_ranges, epsilon_targets, Subset};
use crate::tokenizer::Vocabulary;
use hashbrown::{HashMap, HashSet};
use regex_automata::nfa::thompson::{self, NFA};
use regex_automata::util::primitives::StateID;
use smallvec::SmallVec;

/// The most configurations explored for one terminal before it is left uncounted.
pub(super) const MOST_CONFIGURATIONS: usize = 16_384;

/// What a counted terminal's configurations are explored with.
#[derive(Clone, Copy)]
pub(super) struct Exploration<'v> {
    /// The lexer's count horizon.
    pub(super) horizon: u32,
    /// Fitting the horizon pays only below this: at it or beyond, the lexer's is kept
    /// (and the search stops there).
    pub(super) fit_below: u32,
    /// The vocabulary served, if known, to fit the terminal's horizon to.
    pub(super) vocabulary: Option<&'v Vocabulary>,
    /// The most configurations explored before the terminal is left uncounted.
    pub(super) most_configurations: usize,
}

/// What a pattern is to a counted terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Role {
    /// Its lexemes match it.
    Required,
    /// Its lexemes do not match it.
    Excluded,
    /// The counted string itself (also required): its character starts are counted.
    Counted,
}

/// The configurations of one counted terminal's patterns, each with the fewest
/// characters that complete it.
#[derive(Clone, Debug)]
pub(super) struct Remaining {
    /// The terminal's patterns, ascending, with their roles.
    patterns: SmallVec<[(u32, Role); 4]>,
    /// Each configuration reached (its patterns' NFA states, as a lexer subset holds
    /// them), numbered.
    index: HashMap<Subset, u32>,
    /// Per configuration: the fewest characters that complete it (`u32::MAX`: none do).
    fewest: Vec<u32>,
    /// The most characters one token adds to the terminal's open string: the lexer's
    /// count horizon, or less where it was fitted to the vocabulary served.
    pub(super) horizon: u32,
}

impl Remaining {
    /// Explores the configurations of `patterns` (with their NFAs) from their start, or
    /// `None` when a configuration's completions are not upward closed, when one needs
    /// more than one character beyond the horizon, or when there are too many.
    ///
    /// The horizon is the lexer's, or, given the vocabulary served and patterns beside
    /// the counted string, the most characters one of its tokens adds to this
    /// terminal's string (`horizon.rs`), if fewer.
    pub(super) fn new(mut patterns: Vec<(u32, &NFA, Role)>, exploration: Exploration<'_>) -> Option<Remaining> {
        patterns.sort_by_key(|&(p, _, _)| p);
        let explored = Explored::new(&patterns, exploration.most_configurations)?;
        let fitted = match exploration.vocabulary {
            Some(vocabulary) if patterns.len() > 1 => {
                horizon::token_horizon(&explored, vocabulary, exploration.fit_below.min(exploration.horizon))
            }
            _ => exploration.horizon,
        };
        let horizon = if fitted < exploration.fit_below { fitted } else { exploration.horizon };
        let reverse = explored.reverse();
        let fewest = explored.fewest(&reverse);
        let open_and_live = |c: usize| explored.open[c] && fewest[c] != u32::MAX;
        let most = (0..fewest.len()).filter(|&c| open_and_live(c)).map(|c| fewest[c]).max().unwrap_or(0);
        if most > horizon.saturating_add(1) || !explored.upward_closed(&reverse, &fewest, most) {
            return None;
        }
        let patterns = patterns.iter().map(|&(p, _, role)| (p, role)).collect();
        Some(Remaining { patterns, index: explored.index, fewest, horizon })
    }

    /// The fewest characters that complete the terminal from lexer subset `subset`
    /// (`None`: none do, or a required pattern is gone from the subset).
    pub(super) fn fewest_from(&self, subset: &Subset) -> Option<u32> {
        let own: Subset = subset.iter().copied().filter(|(p, _)| self.patterns.iter().any(|(q, _)| q == p)).collect();
        let required = self.patterns.iter().filter(|(_, role)| *role != Role::Excluded);
        if !required.clone().all(|(p, _)| own.iter().any(|(q, _)| q == p)) {
            return None;
        }
        let configuration = self.index.get(&own);
        debug_assert!(configuration.is_some(), "a lexer subset outside its terminal's configurations");
        configuration.map(|&c| self.fewest[c as usize]).filter(|&f| f != u32::MAX)
    }
}

/// The configurations reached, with their edges (each with whether it starts a
/// character of the counted string), whether each matches the terminal, and whether the
/// string is open in it (after its opening quote, before its closing one: where the
/// lexer reads completions off the count).
struct Explored {
    index: HashMap<Subset, u32>,
    edges: Vec<(u32, u32, bool)>,
    /// Per configuration: its runs of bytes, each as its first byte and the configuration
    /// it leads to ([`DEAD`] where the terminal dies), ascending; bytes before the first
    /// run lead nowhere.
    runs: Vec<Vec<(u8, u32)>>,
    matches: Vec<bool>,
    open: Vec<bool>,
}

/// No configuration: the terminal died.
const DEAD: u32 = u32::MAX;

impl Configurations for Explored {
    fn len(&self) -> usize {
        self.matches.len()
    }

    fn step(&self, c: u32, byte: u8) -> Option<u32> {
        let runs = &self.runs[c as usize];
        let run = runs.partition_point(|&(first, _)| first <= byte).checked_sub(1)?;
        Some(runs[run].1).filter(|&target| target != DEAD)
    }

    fn is_open(&self, c: u32) -> bool {
        self.open[c as usize]
    }
}

impl Explored {
    fn new(patterns: &[(u32, &NFA, Role)], most_configurations: usize) -> Option<Explored> {
        let nfa_of = |p: u32| patterns.iter().find(|&&(q, _, _)| q == p).map(|&(_, nfa, _)| nfa).expect("a pattern of the terminal");
        let &(counted, counted_nfa, _) = patterns.iter().find(|(_, _, role)| *role == Role::Counted)?;
        let before_quote = closure(&nfa_of, &[(counted, counted_nfa.start_anchored())]);
        let between: Subset = closure(&nfa_of, &step(&nfa_of, &before_quote, b'"'));
        let starts: Vec<(u32, StateID)> = patterns.iter().map(|&(p, nfa, _)| (p, nfa.start_anchored())).collect();
        let required: SmallVec<[u32; 4]> = patterns.iter().filter(|(_, _, r)| *r != Role::Excluded).map(|&(p, _, _)| p).collect();
        let alive = |subset: &Subset| required.iter().all(|&p| subset.iter().any(|&(q, _)| q == p));
        let counted_part = |subset: &Subset| -> Subset { subset.iter().copied().filter(|&(p, _)| p == counted).collect() };
        let is_match = |p: u32, s: StateID| matches!(nfa_of(p).state(s), thompson::State::Match { .. });
        let matches = |subset: &Subset| {
            patterns.iter().all(|&(p, _, role)| {
                let matched = subset.iter().any(|&(q, s)| q == p && is_match(q, s));
                matched == (role != Role::Excluded)
            })
        };
        let is_open = |subset: &Subset| {
            let part = counted_part(subset);
            part != before_quote && !matches!(part.as_slice(), &[(p, s)] if is_match(p, s))
        };
        let mut explored =
            Explored { index: HashMap::new(), edges: Vec::new(), runs: Vec::new(), matches: Vec::new(), open: Vec::new() };
        let mut configurations: Vec<Subset> = Vec::new();
        let start = closure(&nfa_of, &starts);
        explored.index.insert(start.clone(), 0);
        explored.matches.push(matches(&start));
        explored.open.push(is_open(&start));
        configurations.push(start);
        let mut next = 0;
        while next < configurations.len() {
            let source = configurations[next].clone();
            let opens_a_character = counted_part(&source) == between;
            let mut runs = Vec::new();
            for byte in run_starts(&nfa_of, &source) {
                let target = closure(&nfa_of, &step(&nfa_of, &source, byte));
                if !alive(&target) {
                    runs.push((byte, DEAD));
                    continue;
                }
                let target_part = counted_part(&target);
                let closed = matches!(target_part.as_slice(), &[(p, s)] if is_match(p, s));
                let counts = opens_a_character && !closed;
                let id = match explored.index.get(&target) {
                    Some(&id) => id,
                    None => {
                        if configurations.len() >= most_configurations {
                            return None;
                        }
                        let id = configurations.len() as u32;
                        explored.index.insert(target.clone(), id);
                        explored.matches.push(matches(&target));
                        explored.open.push(is_open(&target));
                        configurations.push(target);
                        id
                    }
                };
                explored.edges.push((next as u32, id, counts));
                runs.push((byte, id));
            }
            explored.runs.push(runs);
            next += 1;
        }
        Some(explored)
    }

    /// Per configuration, the fewest characters on a path to a match (`u32::MAX`: no
    /// path), searched backwards from the matches over `reverse`.
    fn fewest(&self, reverse: &[Vec<(u32, bool)>]) -> Vec<u32> {
        let matches = (0..self.matches.len()).filter(|&c| self.matches[c]);
        fewest_counted(self.matches.len(), matches, |c| reverse[c].iter().map(|&(source, counts)| (source as usize, counts)))
    }

    /// Whether every open configuration completes with every number of characters from
    /// its fewest on (`most`: the largest fewest of an open one). The configurations that
    /// complete with exactly `l` characters are always among those whose fewest is at
    /// most `l`; the open ones are all of them for every `l` iff they are for every `l`
    /// up to `most + 1` (from `most` on, the open ones are every live open one: a fixed
    /// point, as a configuration before the quote or after it has no count to read).
    fn upward_closed(&self, reverse: &[Vec<(u32, bool)>], fewest: &[u32], most: u32) -> bool {
        let n = self.matches.len();
        let mut exactly: Vec<bool> = self.matches.clone();
        for l in 0..=most.saturating_add(1) {
            if l > 0 {
                let mut next = vec![false; n];
                for &(source, target, counts) in &self.edges {
                    if counts && exactly[target as usize] {
                        next[source as usize] = true;
                    }
                }
                exactly = next;
            }
            close_without_characters(reverse, &mut exactly);
            let complete = (0..n).all(|c| !self.open[c] || exactly[c] == (fewest[c] <= l));
            if !complete {
                return false;
            }
        }
        true
    }

    /// Per configuration, the edges into it: their source and whether they start a character.
    fn reverse(&self) -> Vec<Vec<(u32, bool)>> {
        let mut reverse = vec![Vec::new(); self.matches.len()];
        for &(source, target, counts) in &self.edges {
            reverse[target as usize].push((source, counts));
        }
        reverse
    }
}

/// Adds to `set` every configuration that reaches one in it without starting a character.
fn close_without_characters(reverse: &[Vec<(u32, bool)>], set: &mut [bool]) {
    let mut stack: Vec<u32> = (0..set.len() as u32).filter(|&c| set[c as usize]).collect();
    while let Some(c) = stack.pop() {
        for &(source, counts) in &reverse[c as usize] {
            if !counts && !set[source as usize] {
                set[source as usize] = true;
                stack.push(source);
            }
        }
    }
}

/// The ε-closure of `seeds`, sorted, keeping the byte-consuming and match states: what
/// the lexer's subset construction keeps of the same NFA states.
pub(super) fn closure<'n>(nfa_of: &impl Fn(u32) -> &'n NFA, seeds: &[(u32, StateID)]) -> Subset {
    let mut seen: HashSet<(u32, StateID)> = HashSet::new();
    let mut stack = seeds.to_vec();
    let mut out = Vec::new();
    while let Some((p, s)) = stack.pop() {
        if !seen.insert((p, s)) {
            continue;
        }
        let state = nfa_of(p).state(s);
        let kept = !matches!(state, thompson::State::Fail | thompson::State::Look { .. });
        if !epsilon_targets(state, |t| stack.push((p, t))) && kept {
            out.push((p, s));
        }
    }
    out.sort_unstable();
    out
}

/// The NFA states that `byte` leads to from `subset` (before ε-closure).
pub(super) fn step<'n>(nfa_of: &impl Fn(u32) -> &'n NFA, subset: &Subset, byte: u8) -> Vec<(u32, StateID)> {
    let mut out = Vec::new();
    for &(p, s) in subset {
        byte_ranges(nfa_of(p).state(s), |start, end, next| {
            if (start..=end).contains(&byte) {
                out.push((p, next));
            }
        });
    }
    out
}

/// The first byte of each run of bytes that every state of `subset` treats alike.
fn run_starts<'n>(nfa_of: &impl Fn(u32) -> &'n NFA, subset: &Subset) -> Vec<u8> {
    let mut cut = [false; 257];
    for &(p, s) in subset {
        byte_ranges(nfa_of(p).state(s), |start, end, _| {
            cut[usize::from(start)] = true;
            cut[usize::from(end) + 1] = true;
        });
    }
    (0..=255u8).filter(|&b| cut[usize::from(b)]).collect()
}
