//! Rows had from another lexer state's row, without building them.
//!
//! Two ways a token behaves alike from lexer states `q` and `r`:
//!
//! * **By first byte.** A token's fate is decided by its first byte's step (the state it
//!   leads to, up to [`TokenSpanner::row_state`](super::TokenSpanner::row_state), and the
//!   lexeme it closes first, if any) and then by the rest of its bytes from there alone.
//!   When `q` and `r` take the same first step on a byte, every token starting with it
//!   closes the same lexemes and ends alike from both. Inside a JSON object key, every
//!   byte that leaves the declared names steps to the same "any other string" state, from
//!   each of the hundreds of states along the names: their rows are that state's row but
//!   for the tokens starting with the one or two bytes that continue a name.
//! * **By length.** When no text of at most `n` bytes tells `q` and `r` apart
//!   ([`Lexer::alike_within`]), every token of at most `n` bytes behaves alike from both.
//!   A string with `maxLength: 160` has a state per character, each told apart from the
//!   others only by texts long enough to reach the bound (Llama 3's longest token is 128
//!   bytes, so none of them shares a row): the state 100 characters in is the state 3
//!   characters in for every token of at most 60 bytes.
//!
//! * **After closing.** From an accepting state `q` (inside a number, a keyword, an
//!   identifier), a first byte either continues the lexeme or closes it and restarts the
//!   lexer in the start state, as the start state steps on that byte. Every token whose
//!   first byte closes the lexeme fares as it does from the start state, once the parser
//!   has taken the lexeme ([`Plan::AfterClosing`]): the start state's mask over that
//!   parse, but for the tokens that continue the lexeme.
//!
//! A [`Derivation`] says so: the mask of `q` is the mask of its reference `r`, with the
//! tokens it does not settle taken out, and the mask of `q`'s
//! [part](super::TokenSpanner::part) (its row restricted to those tokens) added. A
//! derived row is never built as a list of ids: that list is most of the vocabulary, a
//! millisecond or more to build, where the part is a walk of a few subtrees.
//!
//! A reference may itself be derived, up to [`MAX_LINKS`] derivations above a row built
//! whole: beside a string of lowercase letters, a key name's prefix steps as the
//! lowercase body does on every first byte but the name's next letter, and that body is
//! the any-string body but for its letters. Hubs (states most first bytes lead back to:
//! a string's body) are planned whole and may be any state's reference by first byte;
//! otherwise a state's choice ([`Plan`]) looks at the plans of lower states only, or of
//! states already planned, so plans never wait on each other in a cycle (and the
//! derivations, followed from any state, reach a whole row). By length, the references
//! are among the last few states planned whole.

use super::{step_outcome, Lexeme};
use crate::lexer::{LexState, Lexer};
use crate::tokenizer::TokenTrie;
use std::sync::OnceLock;

/// A reference must settle at least one token in this many of the vocabulary's for a
/// state to be derived from it: below this, building the state's own row costs little.
const MIN_SETTLED_SHARE: usize = 32;

/// The most derivations a mask may go through before a row built whole: each is a walk
/// of its part's automaton and a pass clearing what its reference does not settle.
pub(super) const MAX_LINKS: usize = 3;

/// How a row state's mask is had ([`TokenSpanner::plan`](super::TokenSpanner::plan)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// From its own row.
    Whole,
    /// From another state's row, corrected on the tokens that behave apart.
    Derived(Derivation),
    /// From the start state's row once the parser has taken the lexeme the state
    /// accepts, corrected on the tokens whose first byte continues the lexeme instead of
    /// closing it (the [`Derivation`]'s reference is the start state). Inside a number
    /// or a keyword, only a few first bytes continue it; every other byte closes it and
    /// restarts the lexer in the start state, so those tokens fare as they do from there.
    AfterClosing(Derivation),
}

impl Plan {
    /// The derivation a derived plan corrects its reference's mask by.
    pub fn derivation(&self) -> Option<&Derivation> {
        match self {
            Plan::Whole => None,
            Plan::Derived(derivation) | Plan::AfterClosing(derivation) => Some(derivation),
        }
    }
}

/// A row state's mask as another's, corrected on the tokens under the first bytes the
/// two step apart on, or longer than the texts on which they are alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derivation {
    /// The row state whose mask (its own row's, or derived in turn: see
    /// [`Derivation::links`]) serves every token it settles ([`Derivation::settles`]).
    pub reference: LexState,
    /// First bytes on which the two states step apart, as a 256-bit set.
    apart: [u64; 4],
    /// No text of at most this many bytes tells the two states apart, so tokens no longer
    /// behave alike (`usize::MAX`: only the first bytes decide).
    longest_alike: usize,
    /// The trie's first-level nodes under which the reference keeps some token the state
    /// itself does not keep alike: the tokens to take out of the reference's mask.
    cleared: Box<[u32]>,
    /// How many derivations the reference's own mask goes through (0: its row is built
    /// whole).
    links: usize,
}

impl Derivation {
    /// How many derivations, this one included, a mask of the derived state goes through
    /// before a row built whole (bounded by `MAX_LINKS`).
    pub fn links(&self) -> usize {
        self.links + 1
    }

    /// Whether the derived state and its reference step apart on first byte `byte`: the
    /// derived state's [part](super::TokenSpanner::part) holds its tokens starting with
    /// such bytes.
    pub fn steps_apart(&self, byte: u8) -> bool {
        self.apart[usize::from(byte / 64)] & (1 << (byte % 64)) != 0
    }

    /// The tokens of its [part](super::TokenSpanner::part) that start with `byte`: `None`
    /// for none, `Some(n)`: those of at least `n` bytes.
    pub fn part_shortest(&self, byte: u8) -> Option<usize> {
        if self.steps_apart(byte) {
            Some(1)
        } else {
            self.longest_alike.checked_add(1)
        }
    }

    /// Whether the token with bytes `token` is taken from the reference's mask (else from
    /// the part's).
    pub fn settles(&self, token: &[u8]) -> bool {
        token.len() <= self.longest_alike && token.first().is_some_and(|&b| !self.steps_apart(b))
    }

    /// The ids of the tokens to take out of the reference's mask, as slices of the trie's
    /// lists: those under a first byte the two states step apart on (where the
    /// reference's row keeps some), and those longer than the texts on which the states
    /// are alike. A token may come twice.
    pub fn cleared<'a>(&'a self, trie: &'a TokenTrie) -> impl Iterator<Item = &'a [u32]> + 'a {
        let long = (self.longest_alike < usize::MAX).then(|| trie.tokens_longer_than(self.longest_alike));
        self.cleared.iter().map(move |&node| trie.subtree_tokens(node as usize)).chain(long)
    }

    /// How many token ids [`Derivation::cleared`] yields.
    pub fn cleared_len(&self, trie: &TokenTrie) -> usize {
        self.cleared(trie).map(<[u32]>::len).sum()
    }
}

/// Candidates compared per plan, the ones most tokens' first bytes lead to: comparing
/// two states' first steps costs a few hundred lexer steps, and a state's best reference
/// is where most of its first bytes lead (a key name's states lead to the "any other
/// string" state on all but a few).
const CANDIDATES: usize = 4;

/// How many of the states planned last (whole) are compared with a state that no
/// candidate of its first bytes serves (a string's earlier states, for one near its
/// length bound).
pub(super) const LENGTH_CANDIDATES: usize = 8;

/// Pairs of states [`Lexer::alike_within`] may examine per state compared.
const ALIKE_WORK: usize = 2048;

/// The trie's first level: per child of the root, its node, byte and token count; and
/// once asked for, per lexer state its first steps ([`Steps`]: a state is compared with
/// several others as they are planned).
pub(super) struct FirstBytes {
    children: Box<[(u32, u8, u32)]>,
    vocabulary: usize,
    steps: Box<[OnceLock<Steps>]>,
}

/// Per child of the trie's root (as [`FirstBytes`] lists them), the first step from one
/// state: whether it closes a lexeme, and the row state it leads to; `None`: dead.
type Steps = Vec<Option<(bool, LexState)>>;

impl FirstBytes {
    /// For `trie`, and a lexer of `states` states.
    pub(super) fn new(trie: &TokenTrie, states: usize) -> FirstBytes {
        let children = trie.children(TokenTrie::ROOT).map(|c| (c as u32, trie.nodes()[c].byte(), trie.subtree_tokens(c).len() as u32));
        let steps = (0..states).map(|_| OnceLock::new()).collect();
        FirstBytes { children: children.collect(), vocabulary: trie.subtree_tokens(TokenTrie::ROOT).len(), steps }
    }

    /// The first steps from `q` (`row_state` must be the same function at every call).
    fn steps(&self, lexer: &Lexer, q: LexState, row_state: impl Fn(LexState) -> LexState) -> &Steps {
        self.steps[q.index()].get_or_init(|| {
            let step = |&(_, byte, _): &(u32, u8, u32)| step_outcome(lexer, q, byte).map(|(closes, next)| (closes, row_state(next)));
            self.children.iter().map(step).collect()
        })
    }

    /// The derivation of a state stepping `from_q` from `reference`, stepping
    /// `from_reference`, on the first bytes where `settles` holds of the two steps, with
    /// the tokens under them; `None` when they are too few: fewer than one in
    /// [`MIN_SETTLED_SHARE`] of the vocabulary, or than half of those the reference keeps.
    fn compare(
        &self,
        from_q: &Steps,
        reference: LexState,
        from_reference: &Steps,
        settles: impl Fn(&Option<(bool, LexState)>, &Option<(bool, LexState)>) -> bool,
    ) -> Option<(usize, Derivation)> {
        let mut apart = [0u64; 4];
        let (mut cleared, mut settled, mut live) = (Vec::new(), 0, 0);
        for ((&(node, byte, tokens), step_q), step_r) in self.children.iter().zip(from_q).zip(from_reference) {
            let alike = settles(step_q, step_r);
            if !alike {
                apart[usize::from(byte / 64)] |= 1 << (byte % 64);
            }
            if step_r.is_some() {
                live += tokens as usize;
                if alike {
                    settled += tokens as usize;
                } else {
                    cleared.push(node);
                }
            }
        }
        let enough = settled > 0 && settled * MIN_SETTLED_SHARE >= self.vocabulary && settled * 2 >= live;
        let derivation = Derivation { reference, apart, longest_alike: usize::MAX, cleared: cleared.into(), links: 0 };
        enough.then_some((settled, derivation))
    }

    /// Whether row state `q`, stepping `steps`, is a hub: most tokens' first byte leads
    /// back to it (a string's body), so other states lead to it on most of their first
    /// bytes too. A hub is planned whole and is a reference for any state, whatever their
    /// order.
    fn is_hub(&self, q: LexState, steps: &Steps) -> bool {
        let looping: usize = self
            .children
            .iter()
            .zip(steps)
            .filter(|(_, step)| **step == Some((false, q)))
            .map(|(&(_, _, tokens), _)| tokens as usize)
            .sum();
        looping * 2 >= self.vocabulary
    }
}

/// Whether row state `q` is a hub ([`FirstBytes::is_hub`]).
pub(super) fn is_hub(lexer: &Lexer, firsts: &FirstBytes, q: LexState, row_state: impl Fn(LexState) -> LexState) -> bool {
    firsts.is_hub(q, firsts.steps(lexer, q, row_state))
}

/// The plan of row state `q`: whole when it is a hub, else derived from the candidate
/// that settles the most tokens, when one settles enough. Candidates are the row states
/// `q`'s first bytes lead to most often (the "any other string" state, for the states
/// along a key name) for which `links` says how many derivations their masks go through
/// (it is asked only about states it may plan, see the module documentation; `None`:
/// too many, not planned, or read over another parse); when that leaves a large part,
/// derived by length instead if that settles more ([`by_length`]). Failing those, read
/// after closing its lexeme ([`after_closing`]), then derived by length.
pub(super) fn plan(
    lexer: &Lexer,
    trie: &TokenTrie,
    firsts: &FirstBytes,
    q: LexState,
    row_state: impl Fn(LexState) -> LexState + Copy,
    links: impl Fn(LexState) -> Option<usize>,
    wholes: &[LexState],
) -> Plan {
    let from_q = firsts.steps(lexer, q, row_state);
    if firsts.is_hub(q, from_q) {
        return Plan::Whole;
    }
    if let Some((settled, derivation)) = by_first_bytes(lexer, firsts, q, from_q, row_state, &links) {
        // A large part (a count's states step apart on most letters) may be a by-length
        // derivation's few long tokens instead.
        let by_length = (settled < firsts.vocabulary - firsts.vocabulary / PART_WORTH_LENGTH)
            .then(|| by_length(lexer, trie, firsts.vocabulary, q, wholes))
            .flatten()
            .filter(|&(settled_by_length, _)| settled_by_length > settled);
        return Plan::Derived(by_length.map_or(derivation, |(_, derivation)| derivation));
    }
    let plan = after_closing(lexer, firsts, q, from_q, row_state, &links);
    if plan != Plan::Whole {
        return plan;
    }
    by_length(lexer, trie, firsts.vocabulary, q, wholes).map_or(Plan::Whole, |(_, derivation)| Plan::Derived(derivation))
}

/// A derivation by first bytes whose part holds more than one in this many of the
/// vocabulary's tokens is compared with one by length.
const PART_WORTH_LENGTH: usize = 8;

/// The plan of accepting state `q` by the start state, read after the parser takes the
/// lexeme `q` accepts: a first byte that does not continue the lexeme closes it and
/// restarts the lexer in the start state, where the token's other bytes fare as they
/// do from the start state (see [`Plan::AfterClosing`]). Planned when those tokens are
/// enough, as for [`by_first_bytes`].
fn after_closing(
    lexer: &Lexer,
    firsts: &FirstBytes,
    q: LexState,
    from_q: &Steps,
    row_state: impl Fn(LexState) -> LexState,
    links: impl Fn(LexState) -> Option<usize>,
) -> Plan {
    let start = lexer.start();
    if q == start || Lexeme::closed_in(lexer, q).is_none() {
        return Plan::Whole;
    }
    let from_start = firsts.steps(lexer, start, row_state);
    // A closing step restarts where the start state steps (`step_outcome`).
    let settles = |step_q: &Option<(bool, LexState)>, _: &Option<(bool, LexState)>| matches!(step_q, Some((true, _)));
    let Some((_, derivation)) = firsts.compare(from_q, start, from_start, settles) else { return Plan::Whole };
    let Some(links) = links(start) else { return Plan::Whole };
    Plan::AfterClosing(Derivation { links, ..derivation })
}

/// The derivation of `q` by the state planned whole (one of `wholes`, the last few) that
/// the longest texts do not tell apart from it, with the number of tokens it settles: for
/// a state near the bound of a length-bounded string, an earlier state of the same
/// string. Its tokens no longer than those texts are the reference's, the longer ones its
/// part's.
fn by_length(lexer: &Lexer, trie: &TokenTrie, vocabulary: usize, q: LexState, wholes: &[LexState]) -> Option<(usize, Derivation)> {
    let alike = |r: LexState| lexer.alike_within(q, r, trie.max_depth(), ALIKE_WORK);
    let recent = wholes.iter().filter(|&&r| r != q);
    let (longest_alike, reference) = recent.map(|&r| (alike(r), r)).max_by_key(|&(n, r)| (n, std::cmp::Reverse(r)))?;
    let settled = vocabulary - trie.tokens_longer_than(longest_alike).len();
    let derivation = Derivation { reference, apart: [0; 4], longest_alike, cleared: Box::new([]), links: 0 };
    (settled * 2 >= vocabulary).then_some((settled, derivation))
}

/// The derivation of `q` by a candidate its first bytes lead to (see [`plan`]), with
/// the number of tokens it settles.
fn by_first_bytes(
    lexer: &Lexer,
    firsts: &FirstBytes,
    q: LexState,
    from_q: &Steps,
    row_state: impl Fn(LexState) -> LexState + Copy,
    links: &impl Fn(LexState) -> Option<usize>,
) -> Option<(usize, Derivation)> {
    let mut candidates: Vec<(LexState, usize)> = Vec::new();
    for (&(_, _, tokens), step) in firsts.children.iter().zip(from_q) {
        let Some((_, r)) = *step else { continue };
        match candidates.iter_mut().find(|(c, _)| *c == r) {
            Some((_, weight)) => *weight += tokens as usize,
            None if r != q => candidates.push((r, tokens as usize)),
            None => {}
        }
    }
    candidates.sort_unstable_by_key(|&(r, weight)| (std::cmp::Reverse(weight), r));
    candidates.truncate(CANDIDATES);
    let closed = |s: LexState| (!lexer.accepts(s).is_empty()).then(|| Lexeme::closed_in(lexer, s));
    let compare = |r: LexState| {
        let same_closing = closed(q) == closed(r);
        let alike = |step_q: &Option<(bool, LexState)>, step_r: &Option<(bool, LexState)>| {
            step_q == step_r && step_q.map_or(true, |(closes, _)| !closes || same_closing)
        };
        firsts.compare(from_q, r, firsts.steps(lexer, r, row_state), alike)
    };
    let mut compared: Vec<(usize, Derivation)> = candidates.iter().filter_map(|&(r, _)| compare(r)).collect();
    // The best first: only those are asked about (and planned) until one serves.
    compared.sort_unstable_by_key(|(settled, d)| (std::cmp::Reverse(*settled), d.reference));
    compared.into_iter().find_map(|(settled, derivation)| Some((settled, Derivation { links: links(derivation.reference)?, ..derivation })))
}
