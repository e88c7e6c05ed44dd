//! Splitting text into lexemes the way the recognizer does, with the project's lexer DFA.
//!
//! The rule (`docs/viability.md`, `Recognizer::feed_byte`): maximal munch with one byte of
//! lookahead and no backtracking. A lexeme ends when the next byte cannot extend it; it
//! then must match some terminal, and the byte must start a new lexeme. A lexeme is
//! reported as the set of terminals it matches ([`Lexer::accepts`]), ignored ones included:
//! [`super::earley`] reads an ignored candidate as "may be skipped".

use stackmask::ir::TerminalId;
use stackmask::lexer::{LexState, Lexer};

/// What one byte did to the lexeme under construction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The byte extended the pending lexeme.
    Extended,
    /// The byte closed the pending lexeme, whose candidates are given, and started a new one.
    Closed(Vec<TerminalId>),
    /// The byte cannot be lexed here.
    Dead,
}

/// A lexer position: the state of the pending lexeme.
#[derive(Clone, Copy, Debug)]
pub struct Splitter<'l> {
    lexer: &'l Lexer,
    pending: LexState,
}

impl<'l> Splitter<'l> {
    /// At the start of a text.
    pub fn new(lexer: &'l Lexer) -> Splitter<'l> {
        Splitter { lexer, pending: lexer.start() }
    }

    /// Read one byte; on [`Step::Dead`] the splitter is unchanged.
    pub fn feed(&mut self, byte: u8) -> Step {
        let extended = self.lexer.next(self.pending, byte);
        if !extended.is_dead() {
            self.pending = extended;
            return Step::Extended;
        }
        let closed = self.lexer.accepts(self.pending);
        let restarted = self.lexer.next(self.lexer.start(), byte);
        if closed.is_empty() || restarted.is_dead() {
            return Step::Dead;
        }
        let closed = closed.to_vec();
        self.pending = restarted;
        Step::Closed(closed)
    }

    /// The pending lexeme's state.
    pub fn pending(&self) -> LexState {
        self.pending
    }

    /// Whether nothing is pending (no byte read since the last lexeme closed).
    pub fn at_boundary(&self) -> bool {
        self.lexer.is_start(self.pending)
    }

    /// The candidates of the pending lexeme if the text ended here; `None` when it
    /// matches no terminal.
    pub fn pending_candidates(&self) -> Option<Vec<TerminalId>> {
        let accepts = self.lexer.accepts(self.pending);
        (!accepts.is_empty()).then(|| accepts.to_vec())
    }
}

/// The lexemes of a whole text, the last one closed by the end of the text; `None` when
/// some byte cannot be lexed or the text ends inside a lexeme that matches nothing.
pub fn split(lexer: &Lexer, text: &[u8]) -> Option<Vec<Vec<TerminalId>>> {
    let mut splitter = Splitter::new(lexer);
    let mut lexemes = Vec::new();
    for &b in text {
        match splitter.feed(b) {
            Step::Extended => {}
            Step::Closed(lexeme) => lexemes.push(lexeme),
            Step::Dead => return None,
        }
    }
    if !splitter.at_boundary() {
        lexemes.push(splitter.pending_candidates()?);
    }
    Some(lexemes)
}
