//! Rows derived from another lexer state's row.
//!
//! A token's fate from a lexer state is decided by its first byte's step (the state it
//! leads to, and the lexeme it closes first, if any) and then by the rest of its bytes
//! from that state alone. So when two states `q` and `r` take the same first step on a
//! byte, every token starting with that byte closes the same lexemes and ends in the same
//! state from both: `q`'s row holds those tokens exactly as `r`'s does. Inside a JSON
//! object key, every byte that leaves the declared names steps to the same "any other
//! string" state, from each of the hundreds of states along the names: their rows are
//! that state's row, but for the one or two bytes that continue a name.
//!
//! A derived row takes the reference row's tokens whose first byte steps alike, as
//! sorted lists (no trie walk, no re-sorting), and walks only the other first bytes.
//! A reference is a state of lower index than the row's, or one whose row is built
//! already: a build waits only on lower states, so derivations never wait on each other
//! in a cycle, and chains of them are bounded ([`MAX_CHAIN`]).

use super::{step_outcome, Lexeme};
use crate::lexer::{LexState, Lexer};
use crate::tokenizer::TokenTrie;

/// A reference must settle at least one token in this many of the vocabulary's for a row
/// to be derived from it: below this a walk of the few live tokens costs less than
/// filtering the reference's (for Llama 3, 4,000 tokens).
const MIN_SETTLED_SHARE: usize = 32;

/// Longest chain of rows built to derive one: a reference is itself derived only this
/// many times over; past it, it is walked.
pub(super) const MAX_CHAIN: usize = 4;

/// A reference row for a lexer state: the state whose row to filter, and by first byte
/// whether a token starting with it is taken from that row.
pub(super) struct Reference {
    pub(super) state: LexState,
    pub(super) settled: [bool; 256],
}

/// The best reference for row state `q` among the row states its first bytes lead to
/// (`row_state` maps a state to the one whose row it shares) that are of lower index or
/// `built` already, or `None` when no candidate settles enough tokens or most of the
/// candidate's row would be filtered out.
pub(super) fn reference(
    lexer: &Lexer,
    trie: &TokenTrie,
    q: LexState,
    row_state: impl Fn(LexState) -> LexState,
    built: impl Fn(LexState) -> bool,
) -> Option<Reference> {
    let firsts: Vec<(u8, usize)> =
        trie.children(TokenTrie::ROOT).map(|c| (trie.nodes()[c].byte, trie.subtree_tokens(c).len())).collect();
    let vocabulary = trie.subtree_tokens(TokenTrie::ROOT).len();
    let mut candidates: Vec<LexState> = Vec::new();
    for &(byte, _) in &firsts {
        let Some((_, next)) = step_outcome(lexer, q, byte) else { continue };
        let r = row_state(next);
        if (r.index() < q.index() || (r != q && built(r))) && !candidates.contains(&r) {
            candidates.push(r);
        }
    }
    candidates
        .into_iter()
        .filter_map(|r| {
            let (settled, settled_tokens, live_tokens) = compare_first_steps(lexer, &firsts, q, r);
            let worth = settled_tokens > 0 && settled_tokens * MIN_SETTLED_SHARE >= vocabulary && settled_tokens * 2 >= live_tokens;
            worth.then_some((settled_tokens, Reference { state: r, settled }))
        })
        .max_by_key(|&(settled_tokens, _)| settled_tokens)
        .map(|(_, reference)| reference)
}

/// By first byte, whether `q` and `r` take the same first step on it; the tokens under the
/// bytes both step alike and alive on, and the tokens `r` does not kill at the first byte.
fn compare_first_steps(lexer: &Lexer, firsts: &[(u8, usize)], q: LexState, r: LexState) -> ([bool; 256], usize, usize) {
    let closed = |s: LexState| (!lexer.accepts(s).is_empty()).then(|| Lexeme::closed_in(lexer, s));
    let same_closing = closed(q) == closed(r);
    let mut settled = [false; 256];
    let (mut settled_tokens, mut live_tokens) = (0, 0);
    for &(byte, tokens) in firsts {
        let (from_q, from_r) = (step_outcome(lexer, q, byte), step_outcome(lexer, r, byte));
        let alike = from_q == from_r && from_q.map_or(true, |(closes, _)| !closes || same_closing);
        settled[byte as usize] = alike;
        if from_r.is_some() {
            live_tokens += tokens;
            if alike {
                settled_tokens += tokens;
            }
        }
    }
    (settled, settled_tokens, live_tokens)
}
