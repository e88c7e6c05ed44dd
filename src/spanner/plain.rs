//! What plain text does from a lexer state, character by character.
//!
//! Inside a string literal every plain-text character ([`PlainText`]) steps the lexer
//! the same way: a string's body steps back to itself, a length-bounded string's counts
//! one more. When that holds from a row's state for as many characters as the longest
//! plain token has, every plain token's fate is known from its number of characters
//! alone ([`PlainChain`]), and the row takes them by count
//! ([`PlainTokens::of_chars`](crate::tokenizer::PlainTokens::of_chars)) without walking
//! them. When it holds for all but a few characters ([`PlainPath`]), the row takes the
//! plain tokens holding none of those by count, and walks the others.

use super::{slots, step_outcome, Stepper};
use crate::lexer::{LexState, Lexer};
use crate::tokenizer::PlainText;
use hashbrown::HashSet;
use std::sync::OnceLock;

/// What every plain character does from each lexer state ([`PlainStep`]), found on first
/// use and kept: the chains from many states run through the same states (every first
/// byte that leaves a key name leads to the same counted string).
pub(super) struct PlainSteps {
    steps: Box<[OnceLock<PlainStep>]>,
    splits: Box<[OnceLock<PlainSplit>]>,
}

impl PlainSteps {
    /// For a lexer of `states` states.
    pub(super) fn new(states: usize) -> PlainSteps {
        PlainSteps { steps: slots(states), splits: slots(states) }
    }

    fn step(&self, stepper: Stepper<'_>, s: LexState) -> PlainStep {
        *self.steps[s.index()].get_or_init(|| match self.splits[s.index()].get() {
            Some(split) => split.step(),
            None => plain_step(stepper, s),
        })
    }

    /// Found through [`PlainSteps::step`] first: finding that the characters do not all
    /// do alike stops at the first that does otherwise, and when they do, the split is
    /// that.
    fn split(&self, stepper: Stepper<'_>, s: LexState) -> PlainSplit {
        *self.splits[s.index()].get_or_init(|| match self.step(stepper, s) {
            PlainStep::To(next) => PlainSplit { generic: Some(next), exceptions: PlainExceptions::NONE },
            PlainStep::Dies => PlainSplit { generic: None, exceptions: PlainExceptions::NONE },
            PlainStep::Apart => plain_split(stepper, s),
        })
    }
}

/// From a lexer state `q`: every plain character steps it (through all of its bytes,
/// closing no lexeme) to one state, every next plain character that one to one state,
/// and so on, for as many characters as the chain is long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PlainChain {
    /// `ends[n - 1]`: the state after `n` characters.
    ends: Vec<LexState>,
    /// Whether the last end steps to itself, or to states taken for it ([`Stepper`]), so
    /// ends every longer text; else one more character kills the lexer, closing nothing.
    stationary: bool,
    /// Whether every plain text ends in the state the chain starts from (or in states
    /// taken for it): a string's body.
    keeps_to_start: bool,
}

impl PlainChain {
    /// The chain from `q` for texts of up to `max_chars` characters; `None` when the
    /// characters step `q` (or a state after it) apart, when one would close a lexeme,
    /// or when `q` is the start state.
    pub(super) fn of(steps: &PlainSteps, stepper: Stepper<'_>, q: LexState, max_chars: usize) -> Option<PlainChain> {
        let lexer = stepper.lexer;
        if lexer.is_start(q) {
            return None;
        }
        let mut ends = Vec::new();
        let mut at = q;
        while ends.len() < max_chars {
            match steps.step(stepper, at) {
                PlainStep::Apart => return None,
                PlainStep::To(next) if lexer.is_start(next) => return None,
                PlainStep::To(next) => {
                    ends.push(next);
                    if stepper.same(next, at) {
                        let keeps_to_start = ends.len() == 1;
                        return Some(PlainChain { ends, stationary: true, keeps_to_start });
                    }
                    at = next;
                }
                PlainStep::Dies => break,
            }
        }
        Some(PlainChain { ends, stationary: false, keeps_to_start: false })
    }

    /// The state a plain text of `chars` characters (at least one) ends in; `None` when
    /// it kills the lexer.
    pub(super) fn end(&self, chars: usize) -> Option<LexState> {
        match self.ends.get(chars.checked_sub(1)?) {
            Some(&end) => Some(end),
            None if self.stationary => self.ends.last().copied(),
            None => None,
        }
    }

    /// Whether every plain text ends in the state the chain starts from (or in states
    /// taken for it, [`Stepper`]): a string's body.
    pub(super) fn keeps_to_start(&self) -> bool {
        self.keeps_to_start
    }
}

/// From a lexer state `q`, the path most plain characters step it along, and the few
/// that leave it ([`PlainExceptions`]): the first character, and any later one. A plain
/// text holding none ends, after `n` characters, where the path does.
///
/// A [`PlainChain`] is a path that no character leaves. A string whose `pattern` is
/// unanchored (`wifi`: any string holding `wifi`) keeps to itself on all plain text but
/// the pattern's first letter; a string of bounded length that may also be a key name
/// counts characters on every first letter but the names' ones; an email address, on
/// every character but `@` and those it forbids. The row of such a state takes the plain
/// tokens holding no exception by their number of characters, and walks the others:
/// from the first character when it is an exception, else from where a later one first
/// is ([`PlainTokens::first_after_plain`](crate::tokenizer::PlainTokens::first_after_plain)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PlainPath {
    /// The state the path starts from.
    start: LexState,
    /// `ends[n - 1]`: the state after `n` characters along the path, the first of the
    /// path's states it may be taken for ([`Stepper`]); `None` where it dies.
    ends: Vec<Option<LexState>>,
    /// The characters leaving the path as the first one, and as a later one.
    first: PlainExceptions,
    later: PlainExceptions,
}

impl PlainPath {
    /// The path from `q` for texts of up to `max_chars` characters; `None` when `q` is
    /// the start state, when most first characters kill the lexer, when the path would
    /// lead to the start state, or when `worth(added)` turns false as later exceptions
    /// gather (`added`: those found since it was last asked).
    pub(super) fn of(
        steps: &PlainSteps,
        stepper: Stepper<'_>,
        q: LexState,
        max_chars: usize,
        mut worth: impl FnMut(PlainExceptions) -> bool,
    ) -> Option<PlainPath> {
        let lexer = stepper.lexer;
        if lexer.is_start(q) {
            return None;
        }
        let first = steps.split(stepper, q);
        first.generic?;
        let (ends, later) = (Vec::with_capacity(max_chars), PlainExceptions::NONE);
        let mut path = PlainPath { start: q, ends, first: first.exceptions, later };
        let mut taken_for: Vec<LexState> = Vec::new();
        let mut at = Some(q);
        while path.ends.len() < max_chars {
            let Some(from) = at else {
                path.ends.push(None);
                continue;
            };
            let step = steps.split(stepper, from);
            if !path.ends.is_empty() && !path.gather_later(step.exceptions, &mut worth) {
                return None;
            }
            let Some(next) = step.generic else {
                path.ends.push(None);
                at = None;
                continue;
            };
            if lexer.is_start(next) {
                return None;
            }
            let end = match taken_for.iter().find(|&&r| stepper.same(r, next)) {
                Some(&r) => r,
                None => {
                    taken_for.push(next);
                    next
                }
            };
            path.ends.push(Some(end));
            if stepper.same(next, from) {
                // Every later character steps as this one did.
                if !path.gather_later(step.exceptions, &mut worth) {
                    return None;
                }
                path.ends.resize(max_chars, Some(end));
                break;
            }
            at = Some(next);
        }
        Some(path)
    }

    /// Add `exceptions` to the later ones; whether the path is still `worth` taking
    /// (asked only when some are new).
    fn gather_later(&mut self, exceptions: PlainExceptions, worth: &mut impl FnMut(PlainExceptions) -> bool) -> bool {
        let added = exceptions.minus(self.later);
        self.later = self.later.union(exceptions);
        added == PlainExceptions::NONE || worth(added)
    }

    /// The state a plain text of `chars` characters, none an exception, ends in (the
    /// path's start for none); `None` when it kills the lexer.
    pub(super) fn end(&self, chars: usize) -> Option<LexState> {
        match chars.checked_sub(1) {
            None => Some(self.start),
            Some(at) => self.ends.get(at).copied().flatten(),
        }
    }

    /// The characters leaving the path as a text's first.
    pub(super) fn first(&self) -> PlainExceptions {
        self.first
    }

    /// The characters leaving the path as any but a text's first.
    pub(super) fn later(&self) -> PlainExceptions {
        self.later
    }
}

/// A set of plain characters: printable ASCII bytes, and maybe every character beyond
/// ASCII.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PlainExceptions {
    /// The ASCII bytes, one bit each.
    ascii: u128,
    /// Whether the characters beyond ASCII are in.
    beyond_ascii: bool,
}

impl PlainExceptions {
    /// No character.
    pub(super) const NONE: PlainExceptions = PlainExceptions { ascii: 0, beyond_ascii: false };

    fn union(self, other: PlainExceptions) -> PlainExceptions {
        PlainExceptions { ascii: self.ascii | other.ascii, beyond_ascii: self.beyond_ascii || other.beyond_ascii }
    }

    /// The characters of `self` not in `other`.
    fn minus(self, other: PlainExceptions) -> PlainExceptions {
        PlainExceptions { ascii: self.ascii & !other.ascii, beyond_ascii: self.beyond_ascii && !other.beyond_ascii }
    }

    /// The exceptions, ASCII bytes ascending, then a byte standing for every character
    /// beyond ASCII (`0xC2`, the first to start one) if they are exceptions.
    pub(super) fn bytes(self) -> impl Iterator<Item = u8> {
        let ascii = (0..95_u8).filter(move |&i| self.ascii >> i & 1 == 1).map(|i| i + 0x20);
        ascii.chain(self.beyond_ascii.then_some(0xC2))
    }

    /// Whether the character `byte` starts is in: a printable ASCII byte in the set, or
    /// a byte starting a character beyond ASCII when those are.
    pub(super) fn starts(self, byte: u8) -> bool {
        match byte {
            0x20..=0x7E => self.ascii >> (byte - 0x20) & 1 == 1,
            0xC2..=0xF4 => self.beyond_ascii,
            _ => false,
        }
    }
}

/// Where feeding a plain character from a lexer state leaves it ([`each_char_end`]).
#[derive(Clone, Copy)]
enum CharEnd {
    /// In this state, after the character's last byte, closing nothing.
    To(LexState),
    /// Dead within the character, closing nothing.
    Dies,
    /// Closing a lexeme within the character.
    Closes,
}

/// Where `byte`, a character's last, leaves lexer state `at` (the recognizer's step,
/// [`step_outcome`]).
fn char_end(lexer: &Lexer, at: LexState, byte: u8) -> CharEnd {
    let next = lexer.next(at, byte);
    match (next.is_dead(), step_outcome(lexer, at, byte).is_some()) {
        (false, _) => CharEnd::To(next),
        (true, true) => CharEnd::Closes,
        (true, false) => CharEnd::Dies,
    }
}

/// Feeds every plain character whose first byte is at least `first_byte` from `s`, byte
/// by byte (characters sharing leading bytes share their steps), and tells `end` where
/// each one ends, until `end` says to stop; whether it went through them all.
fn each_char_end(stepper: Stepper<'_>, s: LexState, first_byte: u8, mut end: impl FnMut(CharEnd) -> bool) -> bool {
    let lexer = stepper.lexer;
    let mut seen: HashSet<(LexState, u8)> = HashSet::new();
    let mut pending = vec![(s, PlainText::BOUNDARY)];
    while let Some((at, within)) = pending.pop() {
        // Past a character's first byte, only continuation bytes go on.
        let bytes = if within == PlainText::BOUNDARY { first_byte..=u8::MAX } else { 0x80..=0xBF };
        for byte in bytes {
            let Some(next_within) = PlainText::step(within, byte) else { continue };
            let next = lexer.next(at, byte);
            let ended = if next.is_dead() || next_within == PlainText::BOUNDARY {
                Some(char_end(lexer, at, byte))
            } else {
                if seen.insert((next, next_within)) {
                    pending.push((next, next_within));
                }
                None
            };
            if ended.is_some_and(|ended| !end(ended)) {
                return false;
            }
        }
    }
    true
}

/// What every plain character does from one lexer state.
#[derive(Clone, Copy, Debug)]
enum PlainStep {
    /// Steps it to this state, closing nothing.
    To(LexState),
    /// Kills the lexer, closing nothing.
    Dies,
    /// Not all the same, or closing a lexeme.
    Apart,
}

/// What every plain character does from `s`, byte by byte: `To` the state the first
/// reaches when every one reaches it or a state taken for it ([`Stepper`]).
fn plain_step(stepper: Stepper<'_>, s: LexState) -> PlainStep {
    let (mut reached, mut died) = (None::<LexState>, false);
    let alike = each_char_end(stepper, s, 0, |end| match end {
        CharEnd::Closes => false,
        CharEnd::Dies => {
            died = true;
            true
        }
        CharEnd::To(next) if reached.is_some_and(|r| !stepper.same(r, next)) => false,
        CharEnd::To(next) => {
            reached = Some(next);
            true
        }
    });
    match (alike, reached, died) {
        (false, _, _) => PlainStep::Apart,
        (true, Some(next), false) => PlainStep::To(next),
        (true, None, true) => PlainStep::Dies,
        _ => PlainStep::Apart,
    }
}

/// What the plain characters do from one lexer state when they do not all do alike
/// ([`PlainStep`]): where most step it, and which do otherwise.
#[derive(Clone, Copy, Debug)]
struct PlainSplit {
    /// The state most printable ASCII characters step it to (or states taken for it,
    /// [`Stepper`]), closing nothing; `None` when most kill the lexer, closing nothing.
    generic: Option<LexState>,
    /// The characters that do otherwise: step elsewhere, close a lexeme, or kill the
    /// lexer where most do not. The characters beyond ASCII are in unless each one does
    /// as most do.
    exceptions: PlainExceptions,
}

impl PlainSplit {
    /// Whether every plain character does alike.
    fn step(self) -> PlainStep {
        match (self.exceptions == PlainExceptions::NONE, self.generic) {
            (false, _) => PlainStep::Apart,
            (true, Some(next)) => PlainStep::To(next),
            (true, None) => PlainStep::Dies,
        }
    }
}

/// What the plain characters do from `s` ([`PlainSplit`]).
fn plain_split(stepper: Stepper<'_>, s: LexState) -> PlainSplit {
    let lexer = stepper.lexer;
    let ends: Vec<(u8, CharEnd)> =
        (0x20..0x7F_u8).filter(|&byte| PlainText::step(PlainText::BOUNDARY, byte).is_some()).map(|byte| (byte, char_end(lexer, s, byte))).collect();
    // Candidates for where most go, with how many go there.
    let mut groups: Vec<(Option<LexState>, u32)> = Vec::new();
    for &(_, end) in &ends {
        let went = match end {
            CharEnd::To(next) => Some(next),
            CharEnd::Dies => None,
            CharEnd::Closes => continue,
        };
        match groups.iter_mut().find(|(g, _)| alike(stepper, *g, went)) {
            Some((_, count)) => *count += 1,
            None => groups.push((went, 1)),
        }
    }
    let generic = groups.iter().max_by_key(|&&(_, count)| count).and_then(|&(g, _)| g);
    let as_generic = |end: CharEnd| match end {
        CharEnd::To(next) => alike(stepper, generic, Some(next)),
        CharEnd::Dies => generic.is_none(),
        CharEnd::Closes => false,
    };
    let ascii = ends.iter().filter(|&&(_, end)| !as_generic(end)).fold(0u128, |set, &(byte, _)| set | 1 << (byte - 0x20));
    PlainSplit { generic, exceptions: PlainExceptions { ascii, beyond_ascii: !each_char_end(stepper, s, 0x80, as_generic) } }
}

/// Whether two outcomes of a character are one: both kill the lexer, or both lead to
/// states a walk may take for one another ([`Stepper`]).
fn alike(stepper: Stepper<'_>, a: Option<LexState>, b: Option<LexState>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => stepper.same(a, b),
        (None, None) => true,
        _ => false,
    }
}
