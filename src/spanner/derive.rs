//! Rows had from another lexer state's row, without building them.
//!
//! A token's fate from a lexer state is decided by its first byte's step (the state it
//! leads to, up to [`TokenSpanner::row_state`](super::TokenSpanner::row_state), and the
//! lexeme it closes first, if any) and then by the rest of its bytes from there alone.
//! So when states `q` and `r` take the same first step on a byte, every token starting
//! with that byte closes the same lexemes and ends alike from both. Inside a JSON object
//! key, every byte that leaves the declared names steps to the same "any other string"
//! state, from each of the hundreds of states along the names: their rows are that
//! state's row but for the tokens starting with the one or two bytes that continue a name.
//!
//! A [`Derivation`] says so: the mask of `q` is the mask of its reference `r`, with the
//! tokens under the first bytes they step apart on taken out, and the mask of `q`'s
//! [part](super::TokenSpanner::part) (its row restricted to those first bytes) added. A
//! derived row is never built as a list of ids: that list is most of the vocabulary, a
//! millisecond or more to build, where the part is a walk of a few subtrees.
//!
//! References are rows built whole (never derived themselves), so one derivation is one
//! step. Hubs (states most first bytes lead back to: a string's body) are planned whole
//! and may be any state's reference; otherwise a state's choice ([`Plan`]) looks at the
//! plans of lower states only, or of states already planned whole, so plans never wait
//! on each other in a cycle.

use super::{step_outcome, Lexeme};
use crate::lexer::{LexState, Lexer};
use crate::tokenizer::TokenTrie;

/// A reference must settle at least one token in this many of the vocabulary's for a
/// state to be derived from it: below this, building the state's own row costs little.
const MIN_SETTLED_SHARE: usize = 32;

/// How a row state's mask is had ([`TokenSpanner::plan`](super::TokenSpanner::plan)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// From its own row.
    Whole,
    /// From another state's row, corrected on a few first bytes.
    Derived(Derivation),
}

/// A row state's mask as another's, corrected on the tokens under the first bytes the
/// two step apart on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derivation {
    /// The row state (planned [`Plan::Whole`]) whose mask serves every token whose first
    /// byte the two states step alike on.
    pub reference: LexState,
    /// First bytes on which the two states step apart, as a 256-bit set.
    apart: [u64; 4],
    /// The trie's first-level nodes under which the reference keeps some token the state
    /// itself does not keep alike: the tokens to take out of the reference's mask.
    cleared: Box<[u32]>,
}

impl Derivation {
    /// Whether the derived state and its reference step apart on first byte `byte`: the
    /// derived state's [part](super::TokenSpanner::part) holds its tokens starting with
    /// such bytes.
    pub fn steps_apart(&self, byte: u8) -> bool {
        self.apart[usize::from(byte / 64)] & (1 << (byte % 64)) != 0
    }

    /// The ids of the tokens to take out of the reference's mask (those under a first
    /// byte the two states step apart on, where the reference's row keeps some), as
    /// slices of the trie's id list.
    pub fn cleared<'a>(&'a self, trie: &'a TokenTrie) -> impl Iterator<Item = &'a [u32]> + 'a {
        self.cleared.iter().map(move |&node| trie.subtree_tokens(node as usize))
    }

    /// How many token ids [`Derivation::cleared`] yields.
    pub fn cleared_len(&self, trie: &TokenTrie) -> usize {
        self.cleared(trie).map(<[u32]>::len).sum()
    }
}

/// Whether row state `q` is a hub: most tokens' first byte leads back to it (a string's
/// body), so other states lead to it on most of their first bytes too. A hub is planned
/// whole and is a reference for any state, whatever their order.
pub(super) fn is_hub(lexer: &Lexer, trie: &TokenTrie, q: LexState, row_state: impl Fn(LexState) -> LexState) -> bool {
    let vocabulary = trie.subtree_tokens(TokenTrie::ROOT).len();
    let looping: usize = trie
        .children(TokenTrie::ROOT)
        .filter(|&c| step_outcome(lexer, q, trie.nodes()[c].byte()).is_some_and(|(closes, next)| !closes && row_state(next) == q))
        .map(|c| trie.subtree_tokens(c).len())
        .sum();
    looping * 2 >= vocabulary
}

/// The plan of row state `q`: derived from the candidate that settles the most tokens,
/// when one settles enough. Candidates are the row states `q`'s first bytes lead to (the
/// "any other string" state is where a key name's states lead on most bytes) for which
/// `whole` says they are planned whole (it is asked only about states it may plan, see
/// the module documentation).
pub(super) fn plan(
    lexer: &Lexer,
    trie: &TokenTrie,
    q: LexState,
    row_state: impl Fn(LexState) -> LexState,
    whole: impl Fn(LexState) -> bool,
) -> Plan {
    let firsts: Vec<(usize, u8, usize)> =
        trie.children(TokenTrie::ROOT).map(|c| (c, trie.nodes()[c].byte(), trie.subtree_tokens(c).len())).collect();
    let vocabulary = trie.subtree_tokens(TokenTrie::ROOT).len();
    let step = |s: LexState, byte: u8| step_outcome(lexer, s, byte).map(|(closes, next)| (closes, row_state(next)));
    let mut candidates: Vec<LexState> = Vec::new();
    for &(_, byte, _) in &firsts {
        let Some((_, r)) = step(q, byte) else { continue };
        if r != q && !candidates.contains(&r) {
            candidates.push(r);
        }
    }
    let compare = |r: LexState| {
        let closed = |s: LexState| (!lexer.accepts(s).is_empty()).then(|| Lexeme::closed_in(lexer, s));
        let same_closing = closed(q) == closed(r);
        let mut apart = [0u64; 4];
        let (mut cleared, mut settled, mut live) = (Vec::new(), 0, 0);
        for &(node, byte, tokens) in &firsts {
            let (from_q, from_r) = (step(q, byte), step(r, byte));
            let alike = from_q == from_r && from_q.map_or(true, |(closes, _)| !closes || same_closing);
            if !alike {
                apart[usize::from(byte / 64)] |= 1 << (byte % 64);
            }
            if from_r.is_some() {
                live += tokens;
                if alike {
                    settled += tokens;
                } else {
                    cleared.push(node as u32);
                }
            }
        }
        (settled, live, Derivation { reference: r, apart, cleared: cleared.into() })
    };
    candidates
        .into_iter()
        .filter(|&r| whole(r))
        .map(compare)
        .filter(|&(settled, live, _)| settled > 0 && settled * MIN_SETTLED_SHARE >= vocabulary && settled * 2 >= live)
        .max_by_key(|&(settled, _, ref d)| (settled, std::cmp::Reverse(d.reference)))
        .map_or(Plan::Whole, |(_, _, derivation)| Plan::Derived(derivation))
}
