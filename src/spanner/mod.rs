//! The token spanner: what each token does to the lexer, from each lexer state.
//!
//! Boundary: takes the [`Lexer`] and a [`Vocabulary`]'s token trie; for a lexer state
//! `q` it returns a [`SpannerRow`]: the vocabulary partitioned into [`TokenClass`]es.
//! Feeding a token's bytes from `q` closes a sequence of lexemes (each a set of
//! candidate terminals, see [`Lexeme`]) and leaves the lexer in an end state `q'`;
//! tokens with the same lexemes and the same `q'` behave identically for *every* parser
//! stack, so later stages decide viability once per class, not once per token.
//! Tokens that kill the lexer from `q` belong to no class.
//!
//! The row is computed by walking the token trie from `q` (tokens sharing a prefix share
//! the work, and a dead prefix prunes its whole subtree), never the flat vocabulary.
//! Rows are built lazily, on first use of a lexer state, and cached in the
//! [`TokenSpanner`], which is `Send + Sync` and shared by every sequence using the same
//! grammar and vocabulary.
//!
//! This is seed 004's "token spanner table" and seed 000's per-state lexing of tokens.
//!
//! # Example
//! ```
//! use stackmask::{Grammar, CompiledGrammar, spanner::TokenSpanner, tokenizer::Vocabulary};
//! use std::sync::Arc;
//! let g = Grammar::from_lark(r#"
//!     start: (NAME | NUMBER)+
//!     NAME: /[a-z]+/
//!     NUMBER: /[0-9]+/
//!     %ignore " "
//! "#).unwrap();
//! let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
//! let tokens = ["ab", "cd", "a 1", "b 2", "!"];
//! let vocab = Arc::new(Vocabulary::from_token_bytes(
//!     tokens.iter().map(|t| t.as_bytes().to_vec()).collect(), None));
//! let spanner = TokenSpanner::new(compiled.clone(), vocab);
//! let row = spanner.row(compiled.lexer().start());
//! // "ab" and "cd" both leave a pending NAME; "a 1" and "b 2" both close a NAME, skip a
//! // space and leave a pending NUMBER; "!" kills the lexer.
//! assert_eq!(row.classes().len(), 2);
//! assert_eq!(row.token_count(), 4);
//! ```

use crate::ir::TerminalId;
use crate::lexer::{LexState, Lexer};
use crate::matcher::CompiledGrammar;
use crate::tokenizer::{TokenTrie, Vocabulary};
use hashbrown::HashMap;
use smallvec::SmallVec;
use std::sync::{Arc, OnceLock};

/// A closed lexeme as the parser receives it: the candidate terminals that reach the
/// parser, and whether it may instead be skipped (one candidate is `%ignore`d).
///
/// Lexemes whose candidates are all ignored never reach the parser and are left out of
/// class sequences.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Lexeme {
    /// Non-ignored candidates, sorted; never empty.
    pub terminals: SmallVec<[TerminalId; 2]>,
    /// Whether the lexeme may be skipped instead.
    pub skippable: bool,
}

impl Lexeme {
    /// The lexeme closed in lexer state `q`, or `None` when every candidate is ignored.
    /// `q` must accept some terminal.
    pub fn closed_in(lexer: &Lexer, q: LexState) -> Option<Lexeme> {
        let ignored = lexer.ignored();
        let accepts = lexer.accepts(q);
        let terminals: SmallVec<[TerminalId; 2]> = accepts.iter().copied().filter(|&t| !ignored.contains(t)).collect();
        let skippable = accepts.iter().any(|&t| ignored.contains(t));
        (!terminals.is_empty()).then_some(Lexeme { terminals, skippable })
    }
}

/// Tokens that, fed from one lexer state, close the same lexemes and end in the same
/// lexer state.
#[derive(Clone, Debug)]
pub struct TokenClass {
    /// Lexemes closed by the token, in order.
    pub lexemes: Box<[Lexeme]>,
    /// Lexer state after the token's last byte (never the start or dead state).
    pub end: LexState,
    /// Token ids, ascending.
    pub tokens: Box<[u32]>,
}

/// One lexer state's partition of the (live) vocabulary into [`TokenClass`]es.
#[derive(Clone, Debug, Default)]
pub struct SpannerRow {
    classes: Vec<TokenClass>,
}

impl SpannerRow {
    /// A row of `classes`, in the order [`SpannerRow::classes`] documents.
    pub(crate) fn from_classes(classes: Vec<TokenClass>) -> SpannerRow {
        SpannerRow { classes }
    }

    /// The classes, ordered by their lexeme sequences so that classes sharing a prefix of
    /// lexemes are adjacent.
    pub fn classes(&self) -> &[TokenClass] {
        &self.classes
    }

    /// Number of tokens in all classes (the tokens the lexer alone does not kill).
    pub fn token_count(&self) -> usize {
        self.classes.iter().map(|c| c.tokens.len()).sum()
    }
}

/// Lazily built, cached [`SpannerRow`]s for every lexer state of one grammar and one
/// vocabulary. `Send + Sync`: share it between sequences.
pub struct TokenSpanner {
    compiled: Arc<CompiledGrammar>,
    vocab: Arc<Vocabulary>,
    rows: Box<[OnceLock<Arc<SpannerRow>>]>,
}

impl std::fmt::Debug for TokenSpanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.rows.iter().filter(|r| r.get().is_some()).count();
        f.debug_struct("TokenSpanner").field("rows_built", &built).field("rows", &self.rows.len()).finish()
    }
}

impl TokenSpanner {
    /// A spanner with no row built yet.
    pub fn new(compiled: Arc<CompiledGrammar>, vocab: Arc<Vocabulary>) -> TokenSpanner {
        let rows = (0..compiled.lexer().state_count()).map(|_| OnceLock::new()).collect();
        TokenSpanner { compiled, vocab, rows }
    }

    /// The row of lexer state `q`, built on first use. Concurrent first uses of one state
    /// wait for a single build; rows of different states build in parallel.
    pub fn row(&self, q: LexState) -> Arc<SpannerRow> {
        let slot = &self.rows[q.index()];
        Arc::clone(slot.get_or_init(|| Arc::new(build_row(self.compiled.lexer(), self.vocab.trie(), q))))
    }

    /// A spanner whose rows `rows` are already built (the rest build on first use).
    /// The caller vouches that each row is the one [`TokenSpanner::row`] would build.
    pub(crate) fn with_rows(
        compiled: Arc<CompiledGrammar>,
        vocab: Arc<Vocabulary>,
        rows: impl IntoIterator<Item = (LexState, SpannerRow)>,
    ) -> TokenSpanner {
        let spanner = TokenSpanner::new(compiled, vocab);
        for (q, row) in rows {
            // A state given twice keeps its first row; an unknown state is the caller's bug.
            if let Some(slot) = spanner.rows.get(q.index()) {
                let _ = slot.set(Arc::new(row));
            }
        }
        spanner
    }

    /// The rows built so far, by lexer state.
    pub(crate) fn built_rows(&self) -> impl Iterator<Item = (LexState, &Arc<SpannerRow>)> {
        self.rows.iter().enumerate().filter_map(|(q, row)| Some((LexState::from_index(q), row.get()?)))
    }

    /// Number of rows built so far.
    pub fn rows_built(&self) -> usize {
        self.rows.iter().filter(|r| r.get().is_some()).count()
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &Arc<Vocabulary> {
        &self.vocab
    }

    /// The compiled grammar.
    pub fn compiled(&self) -> &Arc<CompiledGrammar> {
        &self.compiled
    }
}

/// Walk the trie from lexer state `q`, grouping tokens by (lexemes, end state).
fn build_row(lexer: &Lexer, trie: &TokenTrie, q: LexState) -> SpannerRow {
    let mut walk = Walk { lexer, trie, lexemes: Vec::new(), classes: HashMap::new(), pending: Vec::new() };
    walk.children(TokenTrie::ROOT, q);
    let mut classes: Vec<TokenClass> = walk
        .classes
        .into_iter()
        .map(|((lexemes, end), mut tokens)| {
            tokens.sort_unstable();
            TokenClass { lexemes: lexemes.into_boxed_slice(), end, tokens: tokens.into_boxed_slice() }
        })
        .collect();
    classes.sort_by(|a, b| lexeme_order(&a.lexemes).cmp(&lexeme_order(&b.lexemes)).then(a.end.cmp(&b.end)));
    SpannerRow { classes }
}

/// A sort key that keeps classes with a common lexeme prefix adjacent.
fn lexeme_order(lexemes: &[Lexeme]) -> Vec<(Vec<u32>, bool)> {
    lexemes.iter().map(|l| (l.terminals.iter().map(|t| t.0).collect(), l.skippable)).collect()
}

/// The walk of [`build_row`]: depth first over the token trie with an explicit stack (a
/// token may be megabytes long; the thread's stack must not grow with it).
struct Walk<'a> {
    lexer: &'a Lexer,
    trie: &'a TokenTrie,
    /// Lexemes closed along the current trie path.
    lexemes: Vec<Lexeme>,
    classes: HashMap<(Vec<Lexeme>, LexState), Vec<u32>>,
    /// Nodes reached alive whose children are not all visited yet; a node leaves when its
    /// last child is taken, so a path with no branches costs one entry.
    pending: Vec<PendingNode>,
}

/// A trie node reached alive in lexer state `q`, with `closed` lexemes on its path.
struct PendingNode {
    next_child: usize,
    end: usize,
    q: LexState,
    closed: usize,
}

impl Walk<'_> {
    /// Visit every trie node below `node`, which is reached in lexer state `q`.
    fn children(&mut self, node: usize, q: LexState) {
        self.push_children(node, q);
        while let Some((child, q)) = self.take_next_child() {
            let byte = self.trie.nodes()[child].byte;
            if let Some(next) = self.step(q, byte) {
                let tokens = self.trie.tokens_at(child);
                if !tokens.is_empty() {
                    self.classes.entry((self.lexemes.clone(), next)).or_default().extend_from_slice(tokens);
                }
                self.push_children(child, next);
            }
        }
    }

    /// The next child to visit and its parent's lexer state, with the parent's lexemes
    /// on the path; a parent whose last child this is leaves the stack.
    fn take_next_child(&mut self) -> Option<(usize, LexState)> {
        let top = self.pending.last_mut()?;
        let child = top.next_child;
        top.next_child = self.trie.nodes()[child].subtree_end();
        self.lexemes.truncate(top.closed);
        let q = top.q;
        if top.next_child >= top.end {
            self.pending.pop();
        }
        Some((child, q))
    }

    /// Queue `node`'s children, if it has any; `node` is reached in lexer state `q`.
    fn push_children(&mut self, node: usize, q: LexState) {
        let end = self.trie.nodes()[node].subtree_end();
        if node + 1 < end {
            self.pending.push(PendingNode { next_child: node + 1, end, q, closed: self.lexemes.len() });
        }
    }

    /// Feed one byte as the recognizer does, recording a closed lexeme; `None` when the
    /// lexer dies.
    fn step(&mut self, q: LexState, byte: u8) -> Option<LexState> {
        let next = self.lexer.next(q, byte);
        if !next.is_dead() {
            return Some(next);
        }
        if self.lexer.is_start(q) || self.lexer.accepts(q).is_empty() {
            return None;
        }
        let restart = self.lexer.next(self.lexer.start(), byte);
        if restart.is_dead() {
            return None;
        }
        self.lexemes.extend(Lexeme::closed_in(self.lexer, q));
        Some(restart)
    }
}

#[cfg(test)]
mod tests;
