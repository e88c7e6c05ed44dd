//! Lexing contexts: the lexer restricted to the terminals a parse can take next.
//!
//! One DFA over every terminal runs all of them side by side. In a JSON schema's
//! grammar every string terminal (each property's key, each property's value with its
//! length bounds, format or pattern) starts with `"`, so after `"` the lexer is in a
//! product of all of them, and each character reaches a new product state: the token
//! spanner needs a row of its own for each (a walk of the whole vocabulary), though
//! the parse can take only one property's terminals there.
//!
//! A *context* is the lexer restricted to the patterns of a set of terminals `R` (those
//! some LR state has an action on, and the `%ignore`d ones): its own start state, from
//! which the same construction reaches only states of those patterns. Masks may read
//! the context's state instead of the full one exactly when the two close the same
//! lexemes, as far as the parse can tell:
//!
//! * every terminal has one priority (no dropped terminal outranks a kept one);
//! * every dropped pattern either starts on other bytes than every kept one (the two
//!   are never alive together), or both are *quote-delimited*: each of their lexemes is
//!   a whole JSON string (`"`, then characters or backslash escapes, then `"`).
//!
//! Then, after any text, the kept patterns alive are the context state's; when one of
//! them matches, the text is a whole JSON string that no dropped pattern alive can
//! continue either, so both lexers close it with the same terminals of `R`; when the
//! kept patterns all die, whatever the full lexer goes on to close is a terminal outside
//! `R`, which no parse takes. A kept pattern that shares first bytes with a dropped one
//! but is not quote-delimited keeps that one too, and so on ([`Contexts::groups_of`]).
//!
//! Boundary: reads the shared pattern NFAs and the lexed terminals; says which
//! patterns each context keeps. The DFA construction interns each context's start
//! state beside the full lexer's ([`super::Lexer::context_start`]).

use super::{byte_ranges, epsilon_targets, LexedTerminal, PatternNfa};
use crate::ir::TerminalSet;
use regex_automata::nfa::thompson;
use regex_automata::util::primitives::StateID;

/// 256 bits, one per byte.
type ByteSet = [u64; 4];

/// Most NFA states of a literal: a key name's (a state per byte) and a few enumerated
/// values', not a length-bounded string's (a dozen states per character).
const LITERAL_NFA_STATES: usize = 256;

/// Most lexemes of a literal: a pattern of a bounded repetition (`[a-z]{1,100}`, a
/// UUID's hex digits) is finite and may have few NFA states, yet it is an open string,
/// which a context for key names must not keep.
const LITERAL_LEXEMES: u64 = 256;

/// What the contexts need to know of each shared pattern.
pub(super) struct Contexts {
    /// Per pattern: the bytes its lexemes start with.
    first: Vec<ByteSet>,
    /// Per pattern: whether every lexeme of it is a whole JSON string.
    quoted: Vec<bool>,
    /// Per pattern: whether it is quote-delimited and no literal (finitely many lexemes,
    /// at most [`LITERAL_NFA_STATES`] NFA states: key names, enumerated strings).
    open_string: Vec<bool>,
    /// The groups of the literals, as a bit set over group numbers.
    literal_groups: Vec<u64>,
    /// Per pattern: its group, the patterns a context keeping it must keep too (joined
    /// by the entangled pairs: first bytes in common, one of the two not
    /// quote-delimited).
    group: Vec<u32>,
    /// Per terminal id: the patterns it requires or excludes (empty when not lexed).
    patterns_of: Vec<Vec<u32>>,
    /// Whether every lexed terminal has one priority; without it no context is exact.
    uniform_priority: bool,
}

impl Contexts {
    /// The analysis of `nfas` for `terminals` (of a grammar with `terminal_count`
    /// terminals).
    pub(super) fn new(nfas: &[PatternNfa], terminals: &[LexedTerminal], terminal_count: usize) -> Contexts {
        let first: Vec<ByteSet> = nfas.iter().map(|p| first_bytes(&p.nfa)).collect();
        let quoted: Vec<bool> = nfas.iter().map(|p| is_quote_delimited(&p.nfa)).collect();
        let literal: Vec<bool> = nfas.iter().zip(&quoted).map(|(p, &quoted)| quoted && is_literal(&p.nfa)).collect();
        let open_string = quoted.iter().zip(&literal).map(|(&quoted, &literal)| quoted && !literal).collect();
        let meet = |a: &ByteSet, b: &ByteSet| a.iter().zip(b).any(|(x, y)| x & y != 0);
        // Two quote-delimited patterns are never entangled, so every entangled pair has
        // a pattern that is not (numbers, punctuation: few).
        let mut groups = Groups::new(nfas.len());
        for p in (0..nfas.len()).filter(|&p| !quoted[p]) {
            for o in (0..nfas.len()).filter(|&o| o != p && meet(&first[p], &first[o])) {
                groups.join(p, o);
            }
        }
        let group: Vec<u32> = (0..nfas.len()).map(|p| groups.find(p) as u32).collect();
        let mut literal_groups = vec![0u64; nfas.len().div_ceil(64)];
        for p in (0..nfas.len()).filter(|&p| literal[p]) {
            literal_groups[group[p] as usize / 64] |= 1 << (group[p] % 64);
        }
        let mut patterns_of = vec![Vec::new(); terminal_count];
        for t in terminals {
            patterns_of[t.id.index()] = t.require.iter().chain(&t.exclude).copied().collect();
        }
        let uniform_priority = terminals.windows(2).all(|w| w[0].priority == w[1].priority);
        Contexts { first, quoted, open_string, literal_groups, group, patterns_of, uniform_priority }
    }

    /// Whether a pattern is quote-delimited and not a literal (a string with a format, a
    /// pattern or a length): the kind contexts keep apart.
    pub(super) fn is_open_string(&self, pattern: u32) -> bool {
        self.open_string[pattern as usize]
    }

    /// The groups a context for the terminals `relevant` keeps, as a bit set over group
    /// numbers: those of their patterns, and every literal's when none of those is an
    /// open string (where a key name comes next: literals cost a context few states, and
    /// the positions that differ only in which names may come next then share one).
    /// Terminal sets with the same groups share a context ([`Contexts::kept_patterns`]);
    /// `None` when no context is exact here.
    pub(super) fn groups_of(&self, relevant: &TerminalSet) -> Option<Vec<u64>> {
        if !self.uniform_priority {
            return None;
        }
        let terminals = relevant.iter().filter(|t| t.index() < self.patterns_of.len());
        let mut groups = vec![0u64; self.group.len().div_ceil(64)];
        let mut open = false;
        for &p in terminals.flat_map(|t| &self.patterns_of[t.index()]) {
            let g = self.group[p as usize];
            groups[g as usize / 64] |= 1 << (g % 64);
            open |= self.is_open_string(p);
        }
        if !open {
            groups.iter_mut().zip(&self.literal_groups).for_each(|(g, l)| *g |= l);
        }
        Some(groups)
    }

    /// The patterns (ascending) of `groups` ([`Contexts::groups_of`]); `None` when the
    /// context would keep every pattern alive beside a kept one (no state it reaches
    /// would differ from the full lexer's but its start).
    pub(super) fn kept_patterns(&self, groups: &[u64]) -> Option<Vec<u32>> {
        let in_groups = |g: u32| groups[g as usize / 64] >> (g % 64) & 1 == 1;
        let kept: Vec<u32> = (0..self.group.len() as u32).filter(|&p| in_groups(self.group[p as usize])).collect();
        let mut kept_first: ByteSet = [0; 4];
        for &p in &kept {
            kept_first.iter_mut().zip(&self.first[p as usize]).for_each(|(k, f)| *k |= f);
        }
        // Only a dropped pattern alive beside a kept one (both quote-delimited) makes a
        // product state that the context avoids.
        let separates = (0..self.group.len() as u32)
            .filter(|&o| self.quoted[o as usize] && kept.binary_search(&o).is_err())
            .any(|o| self.first[o as usize].iter().zip(&kept_first).any(|(x, y)| x & y != 0));
        separates.then_some(kept)
    }
}

/// Disjoint sets of patterns (union by size, path halving).
struct Groups {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl Groups {
    fn new(n: usize) -> Groups {
        Groups { parent: (0..n).collect(), size: vec![1; n] }
    }

    fn find(&mut self, mut p: usize) -> usize {
        while self.parent[p] != p {
            self.parent[p] = self.parent[self.parent[p]];
            p = self.parent[p];
        }
        p
    }

    fn join(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a != b {
            if self.size[a] < self.size[b] {
                std::mem::swap(&mut a, &mut b);
            }
            self.parent[b] = a;
            self.size[a] += self.size[b];
        }
    }
}

/// The bytes that `nfa`'s lexemes start with.
fn first_bytes(nfa: &thompson::NFA) -> ByteSet {
    let mut bytes = [0u64; 4];
    for s in epsilon_closure(nfa, nfa.start_anchored()) {
        byte_ranges(nfa.state(s), |start, end, _| {
            for b in start..=end {
                bytes[usize::from(b) / 64] |= 1 << (b % 64);
            }
        });
    }
    bytes
}

/// The NFA states reachable from `from` without reading a byte.
fn epsilon_closure(nfa: &thompson::NFA, from: StateID) -> Vec<StateID> {
    let mut seen = vec![false; nfa.states().len()];
    let (mut stack, mut out) = (vec![from], Vec::new());
    while let Some(s) = stack.pop() {
        if std::mem::replace(&mut seen[s.as_usize()], true) {
            continue;
        }
        out.push(s);
        epsilon_targets(nfa.state(s), |t| stack.push(t));
    }
    out
}

/// Whether `nfa` is a literal's: few lexemes, and few states.
fn is_literal(nfa: &thompson::NFA) -> bool {
    nfa.states().len() <= LITERAL_NFA_STATES && is_finite(nfa) && lexemes_at_most(nfa, LITERAL_LEXEMES)
}

/// Whether finite `nfa` matches at most `most` lexemes, counting a lexeme once per path
/// that spells it (so never fewer than there are).
fn lexemes_at_most(nfa: &thompson::NFA, most: u64) -> bool {
    let mut counts: Vec<Option<u64>> = vec![None; nfa.states().len()];
    lexemes_from(nfa, nfa.start_anchored(), &mut counts, most) <= most
}

/// The number of paths from NFA state `s` to a match in finite `nfa`, or a number over
/// `most` when there are more; memoized in `counts`. (The recursion is as deep as the
/// longest path, at most [`LITERAL_NFA_STATES`].)
fn lexemes_from(nfa: &thompson::NFA, s: StateID, counts: &mut [Option<u64>], most: u64) -> u64 {
    if let Some(count) = counts[s.as_usize()] {
        return count;
    }
    let mut targets: Vec<(u64, StateID)> = Vec::new();
    let state = nfa.state(s);
    if !epsilon_targets(state, |t| targets.push((1, t))) {
        byte_ranges(state, |start, end, t| targets.push((u64::from(end - start) + 1, t)));
    }
    if let thompson::State::Look { next, .. } = state {
        targets.push((1, *next));
    }
    let matched = u64::from(matches!(state, thompson::State::Match { .. }));
    let count = targets.into_iter().fold(matched, |sum, (width, t)| sum.saturating_add(width.saturating_mul(lexemes_from(nfa, t, counts, most))).min(most + 1));
    counts[s.as_usize()] = Some(count);
    count
}

/// Whether `nfa` has finitely many lexemes: no loop among its states.
fn is_finite(nfa: &thompson::NFA) -> bool {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut mark = vec![NEW; nfa.states().len()];
    let mut path: Vec<(StateID, Vec<StateID>)> = Vec::new();
    let successors = |s: StateID| {
        let mut next = Vec::new();
        if !epsilon_targets(nfa.state(s), |t| next.push(t)) {
            byte_ranges(nfa.state(s), |_, _, t| next.push(t));
        }
        next
    };
    let start = nfa.start_anchored();
    mark[start.as_usize()] = OPEN;
    path.push((start, successors(start)));
    while let Some((_, next)) = path.last_mut() {
        let Some(t) = next.pop() else {
            let (s, _) = path.pop().expect("a state on the path");
            mark[s.as_usize()] = DONE;
            continue;
        };
        match mark[t.as_usize()] {
            OPEN => return false,
            DONE => {}
            _ => {
                mark[t.as_usize()] = OPEN;
                path.push((t, successors(t)));
            }
        }
    }
    true
}

/// Where a text is in a JSON string: before its opening quote, in its body, after a
/// backslash, or after its closing quote.
#[derive(Clone, Copy, PartialEq, Eq)]
enum InString {
    Before = 0,
    Body = 1,
    Escape = 2,
    Closed = 3,
}

impl InString {
    /// Where the bytes `start..=end` lead; `Err(())` when one of them leaves JSON strings.
    fn after(self, start: u8, end: u8, mut visit: impl FnMut(InString)) -> Result<(), ()> {
        let holds = |b: u8| (start..=end).contains(&b);
        let others = usize::from(end - start) + 1 - usize::from(holds(b'"')) - usize::from(holds(b'\\'));
        match self {
            InString::Before if others > 0 || holds(b'\\') => return Err(()),
            InString::Before => visit(InString::Body),
            InString::Body => {
                if holds(b'"') {
                    visit(InString::Closed);
                }
                if holds(b'\\') {
                    visit(InString::Escape);
                }
                if others > 0 {
                    visit(InString::Body);
                }
            }
            InString::Escape => visit(InString::Body),
            InString::Closed => return Err(()),
        }
        Ok(())
    }
}

/// Whether every lexeme of `nfa` is a whole JSON string: a search over (NFA state,
/// place in a JSON string) pairs for a byte that leaves JSON strings, or a match before
/// the closing quote.
fn is_quote_delimited(nfa: &thompson::NFA) -> bool {
    let mut seen = vec![[false; 4]; nfa.states().len()];
    let mut stack = vec![(nfa.start_anchored(), InString::Before)];
    while let Some((s, at)) = stack.pop() {
        if std::mem::replace(&mut seen[s.as_usize()][at as usize], true) {
            continue;
        }
        let state = nfa.state(s);
        let mut left = false;
        if matches!(state, thompson::State::Match { .. }) {
            left = at != InString::Closed;
        } else if !epsilon_targets(state, |t| stack.push((t, at))) {
            byte_ranges(state, |start, end, next| {
                left |= at.after(start, end, |to| stack.push((next, to))).is_err();
            });
        }
        if left {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nfa(pattern: &str) -> thompson::NFA {
        thompson::NFA::new(pattern).unwrap()
    }

    #[test]
    fn json_strings_are_quote_delimited() {
        assert!(is_quote_delimited(&nfa(r#""(?:[^"\\]|\\.)*""#)));
        assert!(is_quote_delimited(&nfa(r#""(?:[a-z]{2,5}|null)""#)));
        assert!(is_quote_delimited(&nfa(r#""name""#)));
    }

    #[test]
    fn other_lexemes_are_not() {
        // Continues after a closing quote, matches before one, starts elsewhere, or
        // reads a quote in the body as a character.
        assert!(!is_quote_delimited(&nfa(r#""[a-z]*":"#)));
        assert!(!is_quote_delimited(&nfa(r#""[a-z]*"#)));
        assert!(!is_quote_delimited(&nfa(r#"[0-9]+"#)));
        assert!(!is_quote_delimited(&nfa(r#""[a-z"]*""#)));
        assert!(!is_quote_delimited(&nfa(r#"'[a-z]*'"#)));
    }

    #[test]
    fn literals_are_finite_and_small() {
        assert!(is_finite(&nfa(r#""[a-z]{0,20}""#)));
        assert!(!is_finite(&nfa(r#""[a-z]*""#)));
        assert!(is_literal(&nfa(r#""(?:name|id)""#)));
        // A length-bounded JSON string is finite, but no literal: a context keeping it
        // for every key would be a product of every such string.
        let bounded = nfa(&crate::lexer::json_string_of_length(3, Some(255)));
        assert!(is_finite(&bounded) && !is_literal(&bounded));
        // Neither is a pattern of bounded repetitions with few NFA states (`Github_medium
        // ---o55334`'s identifier): a key name's context kept it, and every key's row
        // walked most of the vocabulary.
        let identifier = nfa(r#""[a-z_]{1,100}:[0-9a-f]{8}""#);
        assert!(is_finite(&identifier) && identifier.states().len() <= LITERAL_NFA_STATES);
        assert!(!is_literal(&identifier));
        // A few enumerated values are, counted once per path.
        assert!(lexemes_at_most(&nfa(r#""(?:CREATE|DELETE|UPDATE|NONE)""#), 4));
        assert!(!lexemes_at_most(&nfa(r#""(?:CREATE|DELETE|UPDATE|NONE)""#), 3));
        assert!(lexemes_at_most(&nfa(r#""[0-9]{2}""#), 100) && !lexemes_at_most(&nfa(r#""[0-9]{2}""#), 99));
    }

    #[test]
    fn first_bytes_are_the_bytes_lexemes_start_with() {
        let bytes = first_bytes(&nfa(r#"[a-c]x|"y"#));
        let has = |b: u8| bytes[usize::from(b) / 64] >> (b % 64) & 1 == 1;
        assert!(has(b'a') && has(b'c') && has(b'"'));
        assert!(!has(b'x') && !has(b'd'));
    }
}
