//! What plain text does from a lexer state, character by character.
//!
//! Inside a string literal every plain-text character ([`PlainText`]) steps the lexer
//! the same way: a string's body steps back to itself, a length-bounded string's counts
//! one more. When that holds from a row's state for as many characters as the longest
//! plain token has, every plain token's fate is known from its number of characters
//! alone ([`PlainChain`]), and the row takes them by count
//! ([`PlainTokens::of_chars`](crate::tokenizer::PlainTokens::of_chars)) without walking
//! them.

use super::{step_outcome, Stepper};
use crate::lexer::LexState;
use crate::tokenizer::{PlainText, PlainTokens};
use hashbrown::HashSet;
use std::sync::OnceLock;

/// What every plain character does from each lexer state ([`PlainStep`]), found on first
/// use and kept: the chains from many states run through the same states (every first
/// byte that leaves a key name leads to the same counted string).
pub(super) struct PlainSteps {
    steps: Box<[OnceLock<PlainStep>]>,
}

impl PlainSteps {
    /// For a lexer of `states` states.
    pub(super) fn new(states: usize) -> PlainSteps {
        PlainSteps { steps: (0..states).map(|_| OnceLock::new()).collect() }
    }

    fn step(&self, stepper: Stepper<'_>, s: LexState) -> PlainStep {
        *self.steps[s.index()].get_or_init(|| plain_step(stepper, s))
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

/// The plain characters that do not keep a lexer state where it is, when they are few:
/// printable ASCII bytes, and maybe every character beyond ASCII. A string whose
/// `pattern` is unanchored (`wifi`: any string holding `wifi`) keeps to itself on all
/// plain text but the pattern's first letter. The row of such a state takes the plain
/// tokens holding none of them as one class
/// ([`PlainTokens::holding`]) and walks the others from where they first meet an
/// exception ([`PlainTokens::first_after_plain`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PlainExceptions {
    /// The ASCII bytes, one bit each.
    ascii: u128,
    /// Whether the characters beyond ASCII are exceptions too (they do not all keep
    /// the state where it is).
    beyond_ascii: bool,
}

impl PlainExceptions {
    /// The exceptions from lexer state `q` (not the start state), when every other
    /// plain character keeps `q` where it is (or in a state taken for it, [`Stepper`]),
    /// closing nothing. `None` when the only plain characters keeping `q` are ASCII.
    pub(super) fn of(stepper: Stepper<'_>, q: LexState) -> Option<PlainExceptions> {
        let lexer = stepper.lexer;
        if lexer.is_start(q) {
            return None;
        }
        let keeps = |next: LexState| !next.is_dead() && stepper.same(next, q);
        let ascii = (0x20..0x7F_u8)
            .filter(|&byte| PlainText::step(PlainText::BOUNDARY, byte).is_some() && !keeps(lexer.next(q, byte)))
            .fold(0u128, |set, byte| set | 1 << (byte - 0x20));
        let beyond_ascii = !beyond_ascii_keeps(stepper, q);
        let exceptions = PlainExceptions { ascii, beyond_ascii };
        (ascii.count_ones() < PLAIN_ASCII || !beyond_ascii).then_some(exceptions)
    }

    /// The exceptions, ASCII bytes ascending, then a byte standing for every character
    /// beyond ASCII (`0xC2`, the first to start one) if they are exceptions.
    pub(super) fn bytes(self) -> impl Iterator<Item = u8> {
        let ascii = (0..95_u8).filter(move |&i| self.ascii >> i & 1 == 1).map(|i| i + 0x20);
        ascii.chain(self.beyond_ascii.then_some(0xC2))
    }

    /// Whether trie node `node`, of byte `byte`, is where a plain text first meets an
    /// exception ([`PlainTokens::first_after_plain`] of one).
    pub(super) fn start_at(self, plain: &PlainTokens, node: usize, byte: u8) -> bool {
        let excepted = match byte {
            0x20..=0x7E => self.ascii >> (byte - 0x20) & 1 == 1,
            _ => self.beyond_ascii,
        };
        excepted && plain.is_first_after_plain(node, byte)
    }
}

/// How many printable ASCII bytes are plain characters: all but `"` and `\`.
const PLAIN_ASCII: u32 = 93;

/// Whether every plain character beyond ASCII keeps `q` where it is (or in a state taken
/// for it), through all of its bytes and closing nothing.
fn beyond_ascii_keeps(stepper: Stepper<'_>, q: LexState) -> bool {
    each_char_end(stepper, q, 0x80, |end| matches!(end, CharEnd::To(next) if stepper.same(next, q)))
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

/// Feeds every plain character whose first byte is at least `first_byte` from `s`, byte
/// by byte (characters sharing leading bytes share their steps), and tells `end` where
/// each one ends, until `end` says to stop; whether it went through them all.
fn each_char_end(stepper: Stepper<'_>, s: LexState, first_byte: u8, mut end: impl FnMut(CharEnd) -> bool) -> bool {
    let lexer = stepper.lexer;
    let mut seen: HashSet<(LexState, u8)> = HashSet::new();
    let mut pending = vec![(s, PlainText::BOUNDARY)];
    while let Some((at, within)) = pending.pop() {
        let from = if within == PlainText::BOUNDARY { first_byte } else { 0 };
        for byte in from..=u8::MAX {
            let Some(next_within) = PlainText::step(within, byte) else { continue };
            let next = lexer.next(at, byte);
            let ended = if next.is_dead() {
                Some(if step_outcome(lexer, at, byte).is_some() { CharEnd::Closes } else { CharEnd::Dies })
            } else if next_within == PlainText::BOUNDARY {
                Some(CharEnd::To(next))
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
