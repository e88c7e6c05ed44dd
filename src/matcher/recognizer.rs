//! [`Recognizer`]: the lexer and the GLR parser driven byte by byte, and the one
//! definition of viability every mask path implements.

use super::CompiledGrammar;
use crate::error::{Error, Result};
use crate::glr::{self, Generation, Parser};
use crate::ir::{TerminalId, TerminalSet};
use crate::lexer::{LexPos, LexState};
use hashbrown::HashMap;
use smallvec::SmallVec;
use std::sync::Arc;

const NOT_VIABLE: &str = "the text up to and including this byte is not a prefix of any sentence";

/// What feeding one byte did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fed {
    /// The byte extended the pending lexeme; the parser did not move.
    Extended,
    /// The byte closed the pending lexeme (the parser consumed it) and started a new one.
    Closed,
    /// The byte cannot follow: the text is no longer a viable prefix.
    Dead,
}

/// A saved [`Recognizer`] position.
#[derive(Clone, Debug)]
pub struct RecognizerCheckpoint {
    lex: LexPos,
    context: Option<LexPos>,
    offset: usize,
    parser: glr::Checkpoint,
}

/// Recognises a growing text against a compiled grammar, byte by byte.
///
/// The state is the pending lexeme's lexer state plus the GSS of every parse of the
/// lexemes closed so far. It implements the viability definition (see
/// `docs/viability.md`):
///
/// * a text is a **viable prefix** when the lexemes closed so far (maximal munch) are a
///   prefix the parser accepts and the pending lexeme, if any, can still become a terminal
///   that is `%ignore`d or that the parser can consume next (`Prod(q)` ∩ viable ≠ ∅);
/// * a text is **complete** when the pending lexeme, if any, matches a terminal that
///   closes it acceptably and the parser then accepts end of input.
///
/// # Example
/// ```
/// use stackmask::{Grammar, CompiledGrammar, matcher::Recognizer};
/// use std::sync::Arc;
/// let g = Grammar::from_lark(r#"start: "(" start ")" | "x""#).unwrap();
/// let mut r = Recognizer::new(Arc::new(CompiledGrammar::new(&g).unwrap()));
/// r.feed(b"((x)").unwrap();
/// assert!(!r.is_complete().unwrap());
/// r.feed(b")").unwrap();
/// assert!(r.is_complete().unwrap());
/// assert!(r.feed(b")").is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Recognizer {
    compiled: Arc<CompiledGrammar>,
    lex: LexPos,
    /// The pending lexeme in the lexing context of the parse it follows, while it has
    /// one and the lexeme is alive there ([`Recognizer::mask_state`]).
    context: Option<LexPos>,
    offset: usize,
    parser: Parser,
    viability: ViabilityMemo,
}

/// [`Recognizer::is_viable`]'s answers, by GSS generation and the pending lexeme's lexer
/// state (the answer depends on nothing else), for a recognizer that tries many texts
/// from one position (see [`Recognizer::memoize`]).
///
/// Those texts mostly end inside a lexeme, or after the same first step of the parser,
/// and ask the same few questions. The memo keeps up to `capacity` answers (none by
/// default) and is emptied when full.
#[derive(Clone, Debug, Default)]
struct ViabilityMemo {
    capacity: usize,
    answers: HashMap<(Generation, LexState), bool>,
}

impl ViabilityMemo {
    fn get(&self, generation: Generation, q: LexState) -> Option<bool> {
        if self.capacity == 0 {
            return None;
        }
        self.answers.get(&(generation, q)).copied()
    }

    fn insert(&mut self, generation: Generation, q: LexState, viable: bool) {
        if self.capacity == 0 {
            return;
        }
        if self.answers.len() >= self.capacity {
            self.answers.clear();
        }
        self.answers.insert((generation, q), viable);
    }
}

impl Recognizer {
    /// A recognizer at the start of the text.
    pub fn new(compiled: Arc<CompiledGrammar>) -> Recognizer {
        let parser = Parser::new(&compiled.config.glr);
        let lex = compiled.lexer.start_pos();
        let context = compiled.context_start(&parser);
        Recognizer { compiled, lex, context, offset: 0, parser, viability: ViabilityMemo::default() }
    }

    /// Feed `bytes`. On error ([`Error::Rejected`] with the offset of the first byte that
    /// cannot be part of a viable prefix) the recognizer is left unchanged.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<()> {
        if self.try_feed(bytes)? {
            return Ok(());
        }
        Err(self.first_unviable(bytes))
    }

    /// Feed `bytes` if the text stays a viable prefix, and say whether it did; when it
    /// does not, the recognizer is left unchanged. [`Recognizer::feed`] without the
    /// work of locating the offending byte, for callers that only need the answer.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, matcher::Recognizer};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "ab""#).unwrap();
    /// let mut r = Recognizer::new(Arc::new(CompiledGrammar::new(&g).unwrap()));
    /// assert!(!r.try_feed(b"b").unwrap());
    /// assert!(r.try_feed(b"a").unwrap());
    /// assert_eq!(r.offset(), 1);
    /// ```
    pub fn try_feed(&mut self, bytes: &[u8]) -> Result<bool> {
        let cp = self.checkpoint();
        let outcome = self.feed_and_judge(bytes);
        if outcome.as_ref().map_or(true, |&viable| !viable) {
            self.restore(&cp);
        }
        outcome
    }

    /// Whether feeding `bytes` would leave a viable prefix; the recognizer is left
    /// as it is. The question the reference mask asks of every token.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, matcher::Recognizer};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "ab""#).unwrap();
    /// let mut r = Recognizer::new(Arc::new(CompiledGrammar::new(&g).unwrap()));
    /// assert!(r.stays_viable_after(b"ab").unwrap());
    /// assert!(!r.stays_viable_after(b"abb").unwrap());
    /// assert_eq!(r.offset(), 0);
    /// ```
    pub fn stays_viable_after(&mut self, bytes: &[u8]) -> Result<bool> {
        let cp = self.checkpoint();
        let outcome = self.feed_and_judge(bytes);
        self.restore(&cp);
        outcome
    }

    /// Feed `bytes` and say whether the text is still a viable prefix; on false or an
    /// error the state is unspecified until the caller restores a checkpoint.
    fn feed_and_judge(&mut self, bytes: &[u8]) -> Result<bool> {
        Ok(self.feed_bytes(bytes)? && self.is_viable()?)
    }

    /// Feed `bytes` one by one; false as soon as one leaves no lexeme alive.
    fn feed_bytes(&mut self, bytes: &[u8]) -> Result<bool> {
        for &b in bytes {
            if self.feed_byte(b)? == Fed::Dead {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The rejection for `bytes`, which are known not to leave a viable prefix: feeds
    /// them again, checking viability after every byte, to report the first bad offset.
    /// A lexeme is only judged when the byte after it arrives, so the first byte that
    /// makes the text non-viable can come before the byte that made feeding fail.
    fn first_unviable(&mut self, bytes: &[u8]) -> Error {
        let cp = self.checkpoint();
        let mut error = Error::Rejected { offset: cp.offset + bytes.len().saturating_sub(1), reason: NOT_VIABLE.into() };
        for &b in bytes {
            let offset = self.offset;
            match self.feed_byte(b).and_then(|fed| if fed == Fed::Dead { Ok(false) } else { self.is_viable() }) {
                Ok(true) => {}
                Ok(false) => {
                    error = Error::Rejected { offset, reason: NOT_VIABLE.into() };
                    break;
                }
                Err(e) => {
                    error = e;
                    break;
                }
            }
        }
        self.restore(&cp);
        error
    }

    /// Feed one byte. On `Dead` or an error the state is unspecified until the caller
    /// restores a checkpoint.
    pub(crate) fn feed_byte(&mut self, byte: u8) -> Result<Fed> {
        let lexer = &self.compiled.lexer;
        let next = lexer.step(self.lex, byte);
        if !next.state().is_dead() {
            self.lex = next;
            self.context = self.context.and_then(|at| alive(lexer.step(at, byte)));
            self.offset += 1;
            return Ok(Fed::Extended);
        }
        // A byte that starts no lexeme is dead whatever the parser makes of the pending
        // one, so it is judged before the parser is asked.
        let restart = lexer.step(lexer.start_pos(), byte);
        if restart.state().is_dead() || lexer.is_start(self.lex.state()) || !self.close_lexeme()? {
            return Ok(Fed::Dead);
        }
        self.lex = restart;
        self.context = self.compiled.context_start(&self.parser).and_then(|at| alive(self.compiled.lexer.step(at, byte)));
        self.offset += 1;
        Ok(Fed::Closed)
    }

    /// Hand the pending lexeme to the parser; returns whether some parse survives.
    fn close_lexeme(&mut self) -> Result<bool> {
        let (terminals, skippable) = self.pending_candidates();
        self.parser.consume(&self.compiled.tables, &terminals, skippable)
    }

    /// The pending lexeme's candidate terminals that reach the parser, and whether it
    /// may be skipped as `%ignore`d.
    fn pending_candidates(&self) -> (SmallVec<[TerminalId; 4]>, bool) {
        let lexer = &self.compiled.lexer;
        let ignored = lexer.ignored();
        let accepts = lexer.accepts(self.lex.state());
        let terminals = accepts.iter().copied().filter(|&t| !ignored.contains(t)).collect();
        let skippable = accepts.iter().any(|&t| ignored.contains(t));
        (terminals, skippable)
    }

    /// Remember up to `capacity` viability answers and parser steps (see
    /// [`Parser::keep_steps`]), each a function of the GSS alone, and reuse them when the
    /// same question or step comes again: for a recognizer that tries many texts from
    /// one position, each after restoring it, as the reference mask does. Nothing is
    /// remembered by default, so a recognizer that only moves forward keeps nothing.
    pub(crate) fn memoize(&mut self, capacity: usize) {
        self.viability = ViabilityMemo { capacity, answers: HashMap::new() };
        self.parser.keep_steps(capacity);
    }

    /// Whether the text fed so far is a viable prefix.
    pub fn is_viable(&mut self) -> Result<bool> {
        if self.compiled.lexer.is_start(self.lex.state()) {
            return Ok(true);
        }
        let q = self.lex.state();
        if let Some(viable) = self.viability.get(self.parser.generation(), q) {
            return Ok(viable);
        }
        // Only the terminals the pending lexeme can still become matter, so the parser
        // is asked about those alone (its answer for a terminal does not depend on which
        // others are asked about).
        let lexer = &self.compiled.lexer;
        let prod = lexer.completable(q);
        let viable =
            prod.intersects(lexer.ignored()) || !self.parser.viable_terminals(&self.compiled.tables, prod)?.is_empty();
        self.viability.insert(self.parser.generation(), q, viable);
        Ok(viable)
    }

    /// Viability of the pending lexeme given the terminals the parser can consume next.
    pub(crate) fn pending_is_viable(&self, expected: &TerminalSet) -> bool {
        pending_is_viable(&self.compiled.lexer, self.lex.state(), expected)
    }

    /// Hand the pending lexeme to the parser as the next byte would, and leave the lexer
    /// at the start; returns whether some parse survives (if not, the parser is as it
    /// was). Only for a state every byte closes in: the caller restores a checkpoint.
    pub(crate) fn close_pending(&mut self) -> Result<bool> {
        let closed = self.close_lexeme()?;
        if closed {
            self.lex = self.compiled.lexer.start_pos();
            self.context = self.compiled.context_start(&self.parser);
        }
        Ok(closed)
    }

    /// Hand a lexeme (as the token spanner describes it) to the parser; returns whether
    /// some parse survives. Only the parser moves: the caller restores a checkpoint.
    pub(crate) fn consume_lexeme(&mut self, lexeme: &crate::spanner::Lexeme) -> Result<bool> {
        self.parser.consume(&self.compiled.tables, &lexeme.terminals, lexeme.skippable)
    }

    /// The terminals the parser can consume next (including end of input), for
    /// [`Recognizer::pending_is_viable`].
    pub(crate) fn expected_terminals(&mut self) -> Result<TerminalSet> {
        let all = TerminalSet::full(self.compiled.tables.terminal_capacity());
        self.parser.viable_terminals(&self.compiled.tables, &all)
    }

    /// Whether the text fed so far is a complete sentence.
    pub fn is_complete(&mut self) -> Result<bool> {
        let compiled = Arc::clone(&self.compiled);
        if compiled.lexer.is_start(self.lex.state()) {
            return self.parser.accepts_end(&compiled.tables);
        }
        let cp = self.parser.checkpoint();
        let complete = self
            .close_lexeme()
            .and_then(|closed| if closed { self.parser.accepts_end(&compiled.tables) } else { Ok(false) });
        self.parser.restore(&cp);
        complete
    }

    /// Save the current position.
    pub fn checkpoint(&self) -> RecognizerCheckpoint {
        RecognizerCheckpoint { lex: self.lex, context: self.context, offset: self.offset, parser: self.parser.checkpoint() }
    }

    /// Return to a saved position (checkpoints taken after it become invalid).
    pub fn restore(&mut self, cp: &RecognizerCheckpoint) {
        self.lex = cp.lex;
        self.context = cp.context;
        self.offset = cp.offset;
        self.parser.restore(&cp.parser);
    }

    /// Bytes fed so far.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The lexer state of the pending lexeme.
    pub fn lex_state(&self) -> LexState {
        self.lex.state()
    }

    /// The lexer state masks read: the pending lexeme's state in the lexing context of
    /// the parse it follows ([`Lexer::context_start`](crate::lexer::Lexer::context_start)),
    /// where the parse has one, else [`Recognizer::lex_state`]. Both give the same
    /// masks; the context's leaves out the terminals no parse takes next, so its state
    /// is one that more positions share.
    ///
    /// # Example
    /// ```
    /// use stackmask::{matcher::{CompileConfig, Recognizer}, lexer::LexerConfig, CompiledGrammar, Grammar};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "k" KEY | "v" VALUE
    ///                               KEY: /"[a-c]{0,3}[x-z]*"/
    ///                               VALUE: /"[a-z]*"/"#).unwrap();
    /// let lexer = LexerConfig { context_product_states: 0, ..LexerConfig::default() };
    /// let compiled = CompiledGrammar::with_config(&g, &CompileConfig { lexer, ..CompileConfig::default() }).unwrap();
    /// let mut r = Recognizer::new(Arc::new(compiled));
    /// r.feed(b"v\"ab").unwrap();
    /// assert_ne!(r.mask_state(), r.lex_state());
    /// ```
    pub fn mask_state(&self) -> LexState {
        match self.context {
            // Nothing pending: the full start state's row serves every parse.
            Some(context) if !self.compiled.lexer.is_start(self.lex.state()) => context.state(),
            _ => self.lex.state(),
        }
    }

    /// The GLR parser (read-only), for stages that read the GSS.
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// The compiled grammar.
    pub fn compiled(&self) -> &Arc<CompiledGrammar> {
        &self.compiled
    }
}

/// `at`, unless its state is dead.
fn alive(at: LexPos) -> Option<LexPos> {
    (!at.state().is_dead()).then_some(at)
}

/// The viability of a pending lexeme in lexer state `q`, given the terminals the parser
/// can consume next: nothing pending, or `Prod(q)` meets the ignored or expected terminals.
pub(crate) fn pending_is_viable(lexer: &crate::lexer::Lexer, q: LexState, expected: &TerminalSet) -> bool {
    if lexer.is_start(q) {
        return true;
    }
    let prod = lexer.completable(q);
    prod.intersects(lexer.ignored()) || prod.intersects(expected)
}
