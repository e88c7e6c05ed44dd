//! The matcher: what a decoding loop calls — commit a token, roll back, ask for the mask.
//!
//! Boundary: takes a [`CompiledGrammar`] (lexer DFA + LR tables, immutable, shared by
//! every sequence) and a [`Vocabulary`]; one [`Matcher`] per sequence holds the parse
//! state. Masks use the llguidance/XGrammar layout: `u32` words, token `i` is bit
//! `i % 32` of word `i / 32`.
//!
//! Every mask computation must agree bit for bit with the reference:
//! * [`oracle::reference_mask`]: for every token, clone the state, feed its bytes, ask
//!   whether the result is viable. Slow, obviously right, kept for ever.
//! * [`Matcher::compute_mask_by_trie`]: the same test, walking the token trie so that
//!   tokens sharing a prefix share the work, and pruning a subtree as soon as its prefix
//!   is not viable (a pending lexeme that is not viable never becomes viable by growing).
//! * [`Matcher::compute_mask_by_classes`]: one parser simulation per token class of the
//!   [`TokenSpanner`](crate::spanner::TokenSpanner).
//! * the [`StackClassifier`]: an automaton read over the GSS, the production path.
//!
//! [`Matcher::compute_mask`] uses the classifier of a matcher made by
//! [`Matcher::with_classifier`], and the trie walk otherwise.
//!
//! # Example
//! ```
//! use stackmask::{Grammar, CompiledGrammar, Matcher, tokenizer::Vocabulary};
//! use std::sync::Arc;
//! let g = Grammar::from_lark(r#"start: "[" (NUM ("," NUM)*)? "]"
//!                               NUM: /[0-9]+/"#).unwrap();
//! let tokens = ["[", "]", "1", "12", ",", "],", "<eos>"];
//! let vocab = Arc::new(Vocabulary::from_token_bytes(
//!     tokens.iter().map(|t| t.as_bytes().to_vec()).collect(), Some(6)));
//! let mut m = Matcher::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab);
//! m.commit(0).unwrap(); // "["
//! m.commit(3).unwrap(); // "12"
//! let mut mask = vec![0u32; m.mask_words()];
//! m.compute_mask(&mut mask).unwrap();
//! // "]" "1" "12" "," are allowed; "[" and "]," and EOS are not.
//! assert_eq!(mask[0], 0b0011110);
//! ```

pub mod oracle;
mod batch;
mod classes;
mod recognizer;
mod trie_walk;

pub use batch::compute_masks_parallel;
pub use recognizer::{Recognizer, RecognizerCheckpoint};

use crate::classifier::{MaskPlan, StackClassifier};
use crate::error::{Deadline, Error, LimitKind, Result};
use crate::glr::{GlrConfig, Parser};
use crate::ir::{Grammar, TerminalId, TerminalSet};
use crate::lexer::{LexPos, Lexer, LexerConfig};
use crate::lr::{LrConfig, LrState, LrTables};
use hashbrown::HashMap;
use crate::tokenizer::{TokenTrie, Vocabulary};
use trie_walk::TrieWalk;
use std::sync::Arc;
use std::time::Duration;

/// Configuration of every compile stage, with limits that protect a server.
///
/// # Example
/// ```
/// use stackmask::matcher::CompileConfig;
/// use std::time::Duration;
/// let mut config = CompileConfig::default();
/// config.time_budget = Some(Duration::from_secs(2));
/// config.lexer.max_states = 10_000;
/// config.glr.max_nodes_per_step = 5_000;
/// ```
#[derive(Clone, Debug)]
pub struct CompileConfig {
    /// Wall-clock budget of the whole compile (lexer DFA and LR tables), checked inside
    /// both stages' loops alongside their own budgets; exceeding it is [`Error::Limit`]
    /// with [`LimitKind::TotalCompileTime`]. `None`:
    /// no total budget. Default: 10 s.
    pub time_budget: Option<Duration>,
    /// Lexer DFA limits.
    pub lexer: LexerConfig,
    /// LR table limits.
    pub lr: LrConfig,
    /// GLR runtime limits.
    pub glr: GlrConfig,
}

impl Default for CompileConfig {
    fn default() -> Self {
        CompileConfig {
            time_budget: Some(Duration::from_secs(10)),
            lexer: LexerConfig::default(),
            lr: LrConfig::default(),
            glr: GlrConfig::default(),
        }
    }
}

/// A grammar compiled for parsing: lexer DFA and LR tables. Immutable, `Send + Sync`,
/// shared (in an `Arc`) by every matcher of every sequence.
///
/// # Example
/// ```
/// use stackmask::{Grammar, CompiledGrammar};
/// let g = Grammar::from_lark(r#"start: "a"+"#).unwrap();
/// let c = CompiledGrammar::new(&g).unwrap();
/// assert!(c.lexer().state_count() >= 3);
/// assert!(c.tables().state_count() >= 3);
/// ```
#[derive(Clone, Debug)]
pub struct CompiledGrammar {
    grammar: Grammar,
    lexer: Lexer,
    tables: LrTables,
    config: CompileConfig,
    /// By LR state: the lexing context of the lexemes that may follow it
    /// ([`Lexer::context_start`]), or [`NO_CONTEXT`]; empty when the lexer has none.
    contexts: Vec<u32>,
}

/// An LR state whose next lexemes are lexed by the full lexer.
const NO_CONTEXT: u32 = u32::MAX;

impl CompiledGrammar {
    /// Compile with the default configuration.
    pub fn new(grammar: &Grammar) -> Result<CompiledGrammar> {
        CompiledGrammar::with_config(grammar, &CompileConfig::default())
    }

    /// Compile with `config`. An exceeded limit or time budget is an error, and nothing
    /// is built. A large grammar's LR tables are built on a second thread, beside its
    /// lexer (which needs them only to add lexing contexts, late in its build).
    ///
    /// # Example
    /// ```
    /// use stackmask::{matcher::CompileConfig, CompiledGrammar, Error, Grammar, LimitKind};
    /// use std::time::Duration;
    /// let g = Grammar::from_lark(stackmask::DEFAULT_GRAMMAR).unwrap();
    /// let config = CompileConfig { time_budget: Some(Duration::ZERO), ..Default::default() };
    /// let err = CompiledGrammar::with_config(&g, &config).unwrap_err();
    /// assert!(matches!(err, Error::Limit { kind: LimitKind::TotalCompileTime, .. }));
    /// ```
    pub fn with_config(grammar: &Grammar, config: &CompileConfig) -> Result<CompiledGrammar> {
        let deadline = Deadline::total(config.time_budget, LimitKind::TotalCompileTime);
        let build_tables = || LrTables::within(grammar, &config.lr, &deadline);
        let (tables, (lexer, set_contexts), set_of_state) = std::thread::scope(|scope| {
            let mut pending = Some(match builds_tables_beside(grammar) {
                true => Tables::Beside(scope.spawn(build_tables)),
                false => Tables::Built(build_tables()?),
            });
            let mut joined = None;
            let mut set_of_state = Vec::new();
            let mut relevant = || {
                if let Some(tables) = pending.take() {
                    joined = Some(tables.join());
                }
                let Some(Ok(tables)) = &joined else {
                    // No contexts: the compile fails with the tables' error below.
                    return Vec::new();
                };
                let (sets, by_state) = next_terminals(grammar, tables);
                set_of_state = by_state;
                sets
            };
            let lexed = Lexer::within(grammar, &config.lexer, &deadline, &mut relevant);
            // The tables' error comes first, as when they are built before the lexer.
            let tables = match (pending, joined) {
                (Some(tables), _) => tables.join()?,
                (None, Some(joined)) => joined?,
                (None, None) => unreachable!("the tables are pending until joined"),
            };
            Ok::<_, Error>((tables, lexed?, set_of_state))
        })?;
        let context = |set: usize| set_contexts[set].unwrap_or(NO_CONTEXT);
        let contexts = match lexer.context_count() {
            0 => Vec::new(),
            _ => set_of_state.iter().map(|&set| context(set)).collect(),
        };
        Ok(CompiledGrammar { grammar: grammar.clone(), lexer, tables, config: config.clone(), contexts })
    }

    /// Where the next lexeme starts in the lexing context that every head of `parser`
    /// shares ([`Lexer::context_start`]); `None` when they share none.
    pub(crate) fn context_start(&self, parser: &Parser) -> Option<LexPos> {
        if self.contexts.is_empty() {
            return None;
        }
        let mut heads = parser.heads().map(|h| self.contexts[parser.node_state(h).index()]);
        let context = heads.next()?;
        (context != NO_CONTEXT && heads.all(|c| c == context)).then(|| self.lexer.context_start(context))
    }

    /// The grammar IR it was compiled from.
    pub fn grammar(&self) -> &Grammar {
        &self.grammar
    }

    /// The lexer DFA.
    pub fn lexer(&self) -> &Lexer {
        &self.lexer
    }

    /// The LR tables.
    pub fn tables(&self) -> &LrTables {
        &self.tables
    }

    /// The configuration it was compiled with (its GLR limits bound every matcher using it).
    pub fn config(&self) -> &CompileConfig {
        &self.config
    }
}

/// Productions from which the LR tables are built on a second thread, beside the lexer:
/// below, the tables take well under a millisecond (a thread costs tens of
/// microseconds); above, they can take as long as the lexer (tens of milliseconds for a
/// large JSON schema).
const TABLES_BESIDE_PRODUCTIONS: usize = 512;

/// Whether [`CompiledGrammar::with_config`] builds `grammar`'s LR tables on a second
/// thread, beside its lexer.
fn builds_tables_beside(grammar: &Grammar) -> bool {
    grammar.productions.len() >= TABLES_BESIDE_PRODUCTIONS
}

/// The LR tables of a compile, built before the lexer or beside it.
enum Tables<'scope> {
    Built(LrTables),
    Beside(std::thread::ScopedJoinHandle<'scope, Result<LrTables>>),
}

impl Tables<'_> {
    /// The tables, waiting for the thread building them (its panic goes on here).
    fn join(self) -> Result<LrTables> {
        match self {
            Tables::Built(tables) => Ok(tables),
            Tables::Beside(thread) => thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        }
    }
}

/// The distinct sets of terminals that may follow each LR state (those it has an action
/// on, end of input included, and the `%ignore`d ones), and by state the index of its
/// set.
fn next_terminals(grammar: &Grammar, tables: &LrTables) -> (Vec<TerminalSet>, Vec<usize>) {
    // End of input is in the sets too (the lexer skips it).
    let ignored = grammar.terminals.iter().enumerate().filter(|(_, t)| t.ignored).map(|(i, _)| TerminalId(i as u32));
    let ignored = TerminalSet::with_ids(tables.terminal_capacity(), ignored);
    let (mut sets, mut index) = (Vec::new(), HashMap::new());
    let by_state = (0..tables.state_count())
        .map(|s| {
            let s = LrState(s as u32);
            let mut next = ignored.clone();
            for (t, _) in tables.shifts(s) {
                next.insert(*t);
            }
            tables.reductions(s).iter().for_each(|r| _ = next.union_with(&r.lookahead));
            *index.entry(next).or_insert_with_key(|next| {
                sets.push(next.clone());
                sets.len() - 1
            })
        })
        .collect();
    (sets, by_state)
}


/// The constraint state of one sequence being decoded.
///
/// See the [module documentation](self) for an example.
#[derive(Clone, Debug)]
pub struct Matcher {
    vocab: Arc<Vocabulary>,
    recognizer: Recognizer,
    /// The recognizer position before each committed step, for rollback.
    history: Vec<RecognizerCheckpoint>,
    terminated: bool,
    classifier: Option<Arc<StackClassifier>>,
}

impl Matcher {
    /// A matcher at the start of the text whose masks walk the token trie (no
    /// precomputation; see [`Matcher::with_classifier`] for the fast path).
    pub fn new(compiled: Arc<CompiledGrammar>, vocab: Arc<Vocabulary>) -> Matcher {
        Matcher { vocab, recognizer: Recognizer::new(compiled), history: Vec::new(), terminated: false, classifier: None }
    }

    /// A matcher at the start of the text whose masks come from `classifier` (its
    /// grammar and vocabulary). Share one classifier between all sequences.
    pub fn with_classifier(classifier: Arc<StackClassifier>) -> Matcher {
        let mut m = Matcher::new(Arc::clone(classifier.compiled()), Arc::clone(classifier.vocab()));
        m.classifier = Some(classifier);
        m
    }

    /// The classifier, for a matcher made by [`Matcher::with_classifier`].
    pub fn classifier(&self) -> Option<&Arc<StackClassifier>> {
        self.classifier.as_ref()
    }

    /// Number of `u32` words a mask needs: `ceil(vocab_size / 32)`.
    pub fn mask_words(&self) -> usize {
        self.vocab.len().div_ceil(32)
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &Arc<Vocabulary> {
        &self.vocab
    }

    /// Commit one token. An EOS token is allowed exactly when the text is complete and
    /// ends the sequence; other special tokens are never allowed. On error the matcher
    /// is unchanged.
    pub fn commit(&mut self, token: u32) -> Result<()> {
        let vocab = Arc::clone(&self.vocab);
        if token as usize >= vocab.len() {
            return Err(Error::TokenOutOfRange { id: token, vocab_size: vocab.len() });
        }
        self.ensure_not_terminated()?;
        let before = self.recognizer.checkpoint();
        match vocab.token_bytes(token) {
            Some(bytes) => self.recognizer.feed(bytes)?,
            None if vocab.eos_tokens().contains(&token) => {
                if !self.recognizer.is_complete()? {
                    return Err(self.rejected("end of sequence before the text is complete"));
                }
                self.terminated = true;
            }
            None => return Err(self.rejected(&format!("special token {} is not text", vocab.token_name(token)))),
        }
        self.history.push(before);
        Ok(())
    }

    /// Commit raw bytes as one step (rolled back as one unit). On error the matcher is
    /// unchanged.
    pub fn commit_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.ensure_not_terminated()?;
        let before = self.recognizer.checkpoint();
        self.recognizer.feed(bytes)?;
        self.history.push(before);
        Ok(())
    }

    fn ensure_not_terminated(&self) -> Result<()> {
        if self.terminated {
            return Err(self.rejected("the sequence has ended"));
        }
        Ok(())
    }

    fn rejected(&self, reason: &str) -> Error {
        Error::Rejected { offset: self.recognizer.offset(), reason: reason.to_string() }
    }

    /// Undo the last `n` commits (speculative decoding).
    pub fn rollback(&mut self, n: usize) -> Result<()> {
        if n > self.history.len() {
            return Err(Error::Rollback { requested: n, available: self.history.len() });
        }
        if n == 0 {
            return Ok(());
        }
        let keep = self.history.len() - n;
        self.recognizer.restore(&self.history[keep]);
        // Nothing can be committed after EOS, so EOS is always the last step.
        self.terminated = false;
        self.history.truncate(keep);
        Ok(())
    }

    /// Number of commits that can be rolled back.
    pub fn committed_steps(&self) -> usize {
        self.history.len()
    }

    /// Whether the text so far is a complete sentence (EOS would be allowed).
    pub fn is_accepting(&mut self) -> Result<bool> {
        Ok(!self.terminated && self.recognizer.is_complete()?)
    }

    /// Whether EOS has been committed.
    pub fn is_terminated(&self) -> bool {
        self.terminated
    }

    /// Bytes committed so far.
    pub fn committed_bytes(&self) -> usize {
        self.recognizer.offset()
    }

    /// The recognizer (read-only), e.g. to inspect the GSS.
    pub fn recognizer(&self) -> &Recognizer {
        &self.recognizer
    }

    /// Write the mask of allowed next tokens into `mask` (`ceil(vocab/32)` words,
    /// token `i` = bit `i % 32` of word `i / 32`). After EOS the mask is empty.
    ///
    /// With a classifier ([`Matcher::with_classifier`]) the mask is read off the GSS by
    /// the classifier; a step the classifier cannot handle within its bounds takes the
    /// per-class path. Without one it walks the token trie. All are exact.
    pub fn compute_mask(&mut self, mask: &mut [u32]) -> Result<()> {
        let Some(classifier) = self.classifier.clone() else {
            return self.compute_mask_by_trie(mask);
        };
        self.fill_mask(mask, |m, mask| {
            classifier.spanner().check_count_horizon()?;
            if m.mask_by_classifier(&classifier, mask)? {
                return Ok(());
            }
            mask.fill(0);
            m.set_class_bits(classifier.spanner(), mask)
        })
    }

    /// The classifier's mask of the non-empty tokens, written whole; `false`, with `mask`
    /// untouched, when it needs an edge it cannot build within its bounds.
    ///
    /// A pending lexeme that every byte closes (after `{` in JSON: see
    /// [`TokenSpanner::closes_on_every_byte`](crate::spanner::TokenSpanner::closes_on_every_byte))
    /// is handed to the parser first, and the
    /// start state's automaton reads the GSS that results: every token closes that lexeme
    /// and goes on from the start state. Such states then need no automaton of their own,
    /// and the start state's edges serve them all. The parser is restored after. A state
    /// planned [`Plan::AfterClosing`](crate::spanner::Plan::AfterClosing) (inside a
    /// number, keyword or identifier) is read the same way for the tokens whose first
    /// byte closes its lexeme, and its part, walked over the GSS before the lexeme is
    /// handed over, adds the tokens that continue it.
    fn mask_by_classifier(&mut self, classifier: &StackClassifier, mask: &mut [u32]) -> Result<bool> {
        let q = self.recognizer.mask_state();
        let part = match classifier.begin_mask(self.recognizer.parser(), q, mask) {
            MaskPlan::Written(written) => return Ok(written),
            MaskPlan::AfterClosing(part) => part,
        };
        let before = self.recognizer.checkpoint();
        let written = match self.recognizer.close_pending() {
            Ok(true) => Ok(classifier.mask_into(self.recognizer.parser(), self.recognizer.mask_state(), mask)),
            // No parse takes the lexeme, so no token closing it first is viable.
            Ok(false) => {
                mask.fill(0);
                Ok(true)
            }
            Err(e) => Err(e),
        };
        self.recognizer.restore(&before);
        if let (Ok(true), Some(part)) = (&written, part) {
            part.complete(mask);
        }
        written
    }

    /// [`Matcher::compute_mask`] by walking the token trie from the current state, feeding
    /// each prefix once and pruning subtrees whose prefix is not viable.
    pub fn compute_mask_by_trie(&mut self, mask: &mut [u32]) -> Result<()> {
        self.fill_mask(mask, |m, mask| {
            mask.fill(0);
            let vocab = Arc::clone(&m.vocab);
            let expected = m.recognizer.expected_terminals()?;
            TrieWalk::run(vocab.trie(), &mut m.recognizer, expected, mask)
        })
    }

    /// What every mask path shares: check the buffer, clear it after EOS, allow empty
    /// tokens and EOS when due; `non_empty_tokens` writes the whole mask (the bits of the
    /// viable tokens with bytes set, all others clear), and leaves the recognizer as it
    /// found it. (The classifier writes its token sets over the mask in one pass rather
    /// than after clearing it.)
    fn fill_mask(
        &mut self,
        mask: &mut [u32],
        non_empty_tokens: impl FnOnce(&mut Matcher, &mut [u32]) -> Result<()>,
    ) -> Result<()> {
        let need = self.mask_words();
        if mask.len() != need {
            return Err(Error::MaskSize { got: mask.len(), need });
        }
        if self.terminated {
            mask.fill(0);
            return Ok(());
        }
        non_empty_tokens(self, mask)?;
        let empty_tokens = self.vocab.trie().tokens_at(TokenTrie::ROOT);
        if !empty_tokens.is_empty() {
            let expected = self.recognizer.expected_terminals()?;
            if self.recognizer.pending_is_viable(&expected) {
                set_bits(mask, empty_tokens);
            }
        }
        if !self.vocab.eos_tokens().is_empty() && self.recognizer.is_complete()? {
            set_bits(mask, self.vocab.eos_tokens());
        }
        Ok(())
    }

    /// Bytes that every continuation must start with: the longest string such that at
    /// each position exactly one byte keeps the text viable and the text is not complete.
    pub fn forced_bytes(&mut self) -> Result<Vec<u8>> {
        const MAX_FORCED: usize = 4096;
        let cp = self.recognizer.checkpoint();
        let mut forced = Vec::new();
        let result = (|| {
            while forced.len() < MAX_FORCED && !self.terminated && !self.recognizer.is_complete()? {
                let Some(byte) = self.only_viable_byte()? else { break };
                self.recognizer.feed(&[byte])?;
                forced.push(byte);
            }
            Ok(())
        })();
        self.recognizer.restore(&cp);
        result.map(|()| forced)
    }

    fn only_viable_byte(&mut self) -> Result<Option<u8>> {
        let mut found = None;
        for b in 0..=255u8 {
            let viable = self.recognizer.stays_viable_after(&[b])?;
            if viable {
                if found.is_some() {
                    return Ok(None);
                }
                found = Some(b);
            }
        }
        Ok(found)
    }

    /// Tokens to fast-forward: a greedy longest-match tokenization of
    /// [`Matcher::forced_bytes`], leaving out a final token that a longer vocabulary
    /// token could extend (the model may prefer the longer one).
    pub fn ff_tokens(&mut self) -> Result<Vec<u32>> {
        let forced = self.forced_bytes()?;
        let trie = self.vocab.trie();
        let mut tokens = Vec::new();
        let mut at = 0;
        while let Some((len, token, end_node)) = longest_token_prefix(trie, &forced[at..]) {
            let extendable = at + len == forced.len() && trie.children(end_node).next().is_some();
            if extendable {
                break;
            }
            tokens.push(token);
            at += len;
        }
        Ok(tokens)
    }
}

/// The longest token that is a prefix of `bytes`: its length, id and trie node.
fn longest_token_prefix(trie: &TokenTrie, bytes: &[u8]) -> Option<(usize, u32, usize)> {
    let mut node = 0;
    let mut best = None;
    for (i, &b) in bytes.iter().enumerate() {
        let Some(child) = trie.children(node).find(|&c| trie.nodes()[c].byte() == b) else { break };
        node = child;
        if let Some(&token) = trie.tokens_at(node).first() {
            best = Some((i + 1, token, node));
        }
    }
    best
}

/// Set in `mask` the bits set in `bits` (a token bitmap, as many words or fewer).
pub(crate) fn or_into(mask: &mut [u32], bits: &[u32]) {
    for (m, b) in mask.iter_mut().zip(bits) {
        *m |= b;
    }
}

/// Set the bits of `tokens` in `mask`. The bits of consecutive tokens of one word are
/// gathered in a register and written once: in ascending ids (a class's), that is one
/// write per word instead of a read and a write per token, each waiting on the last.
pub(crate) fn set_bits(mask: &mut [u32], tokens: &[u32]) {
    let Some((&first, rest)) = tokens.split_first() else { return };
    let (mut word, mut bits) = (first as usize / 32, 1u32 << (first % 32));
    for &t in rest {
        if t as usize / 32 != word {
            mask[word] |= bits;
            (word, bits) = (t as usize / 32, 0);
        }
        bits |= 1 << (t % 32);
    }
    mask[word] |= bits;
}

#[cfg(test)]
mod tests;
