//! The walk of [`Matcher::compute_mask_by_trie`](super::Matcher::compute_mask_by_trie):
//! depth first over the token trie, feeding each prefix once and pruning a subtree whose
//! prefix is not viable.
//!
//! The walk keeps its own stack instead of recursing: a vocabulary may hold a token of
//! megabytes, and the thread's stack must not grow with it. Only nodes with children
//! still to visit are on the stack (a node leaves it when its last child is taken), so a
//! long token with no branches costs one entry, not one per byte.

use super::recognizer::{Fed, Recognizer, RecognizerCheckpoint};
use super::set_bits;
use crate::error::Result;
use crate::ir::TerminalSet;
use crate::tokenizer::TokenTrie;

/// A trie node whose bytes are fed and whose children are not all visited yet.
struct Pending {
    /// The next child to visit.
    next_child: usize,
    /// One past the node's last descendant.
    end: usize,
    /// The recognizer after the node's bytes.
    at: RecognizerCheckpoint,
    /// Index in [`TrieWalk::expected`] of the parser's viable terminals at the node.
    expected: usize,
}

/// One mask's walk over `trie`.
pub(super) struct TrieWalk<'t> {
    trie: &'t TokenTrie,
    stack: Vec<Pending>,
    /// The viable-terminal sets the pending nodes use: the one at the start, then one
    /// more each time a lexeme closes on the current path.
    expected: Vec<TerminalSet>,
    /// Whether the recognizer is at the state of the top of `stack`.
    at_top: bool,
}

impl<'t> TrieWalk<'t> {
    /// Set in `mask` the bits of every token of `trie` (a token with bytes) that keeps
    /// `recognizer` viable; `expected` is the parser's viable terminals now. The
    /// recognizer ends where it started, error or not.
    pub(super) fn run(
        trie: &'t TokenTrie,
        recognizer: &mut Recognizer,
        expected: TerminalSet,
        mask: &mut [u32],
    ) -> Result<()> {
        let base = recognizer.checkpoint();
        let mut walk = TrieWalk { trie, stack: Vec::new(), expected: vec![expected], at_top: true };
        walk.push_children(TokenTrie::ROOT, recognizer, 0);
        let result = walk.visit_all(recognizer, mask);
        recognizer.restore(&base);
        result
    }

    fn visit_all(&mut self, recognizer: &mut Recognizer, mask: &mut [u32]) -> Result<()> {
        while let Some((child, expected)) = self.take_next_child(recognizer) {
            self.at_top = false;
            match recognizer.feed_byte(self.trie.nodes()[child].byte())? {
                Fed::Dead => {}
                Fed::Extended => self.visit(child, recognizer, expected, mask),
                Fed::Closed => {
                    let after = self.keep_expected(recognizer.expected_terminals()?);
                    self.visit(child, recognizer, after, mask);
                }
            }
        }
        Ok(())
    }

    /// Store the viable terminals after a lexeme closed, dropping the sets no pending
    /// node uses (pending nodes use ascending indices); their index.
    fn keep_expected(&mut self, expected: TerminalSet) -> usize {
        self.expected.truncate(self.stack.last().map_or(0, |p| p.expected + 1));
        self.expected.push(expected);
        self.expected.len() - 1
    }

    /// The next child to visit and the index of the viable terminals before its byte,
    /// with the recognizer at its parent; a parent whose last child this is leaves the stack.
    fn take_next_child(&mut self, recognizer: &mut Recognizer) -> Option<(usize, usize)> {
        let top = self.stack.last_mut()?;
        let child = top.next_child;
        top.next_child = self.trie.nodes()[child].subtree_end();
        if !self.at_top {
            recognizer.restore(&top.at);
        }
        let expected = top.expected;
        if top.next_child >= top.end {
            self.stack.pop();
        }
        Some((child, expected))
    }

    /// `node`'s bytes are fed: allow its tokens and queue its children when the text is
    /// still viable.
    fn visit(&mut self, node: usize, recognizer: &Recognizer, expected: usize, mask: &mut [u32]) {
        if recognizer.pending_is_viable(&self.expected[expected]) {
            set_bits(mask, self.trie.tokens_at(node));
            self.push_children(node, recognizer, expected);
        }
    }

    /// Queue `node`'s children, if it has any; the recognizer is after `node`'s bytes.
    fn push_children(&mut self, node: usize, recognizer: &Recognizer, expected: usize) {
        let end = self.trie.nodes()[node].subtree_end();
        if node + 1 < end {
            self.stack.push(Pending { next_child: node + 1, end, at: recognizer.checkpoint(), expected });
            self.at_top = true;
        }
    }
}
