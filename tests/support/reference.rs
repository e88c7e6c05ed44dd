//! The viability definition evaluated with the Earley recognizer instead of the GLR
//! parser: what `stackmask::matcher::Recognizer` must answer for every text.
//!
//! The definition (`docs/viability.md`):
//! * a text is a **viable prefix** when its closed lexemes (maximal munch) are a prefix of
//!   some sentence and the pending lexeme, if any, can still become a terminal that is
//!   `%ignore`d or that can come next (`Prod(q)` meets the expected terminals);
//! * a text is **complete** when closing the pending lexeme, if any, leaves a sentence.
//!
//! Only the lexer DFA is shared with the code under test; the parsing judgement is Earley's.

use super::earley::{Chart, Earley};
use super::lexing::{Splitter, Step};
use stackmask::lexer::Lexer;

/// A text position under the reference definition.
#[derive(Clone, Debug)]
pub struct ReferenceRecognizer<'a> {
    lexer: &'a Lexer,
    splitter: Splitter<'a>,
    chart: Chart<'a>,
}

/// A saved [`ReferenceRecognizer`] position.
#[derive(Clone, Copy, Debug)]
pub struct Checkpoint<'a> {
    splitter: Splitter<'a>,
    lexemes: usize,
}

impl<'a> ReferenceRecognizer<'a> {
    /// At the start of the text.
    pub fn new(lexer: &'a Lexer, earley: &'a Earley) -> ReferenceRecognizer<'a> {
        ReferenceRecognizer { lexer, splitter: Splitter::new(lexer), chart: earley.chart() }
    }

    /// Feed one byte; returns whether the text is still a viable prefix. When it is not,
    /// the position is left unchanged (as `Recognizer::feed` does on rejection).
    pub fn feed(&mut self, byte: u8) -> bool {
        let saved = self.checkpoint();
        match self.splitter.feed(byte) {
            Step::Dead => return false,
            Step::Extended => {}
            Step::Closed(lexeme) => self.chart.push(&lexeme),
        }
        let viable = self.is_viable();
        if !viable {
            self.restore(saved);
        }
        viable
    }

    /// Feed `bytes` as one unit: all of them are kept when every prefix is viable,
    /// none otherwise. Returns whether they were kept.
    pub fn feed_all(&mut self, bytes: &[u8]) -> bool {
        let saved = self.checkpoint();
        let viable = bytes.iter().all(|&b| self.feed(b));
        if !viable {
            self.restore(saved);
        }
        viable
    }

    /// Whether the text fed so far is a viable prefix.
    pub fn is_viable(&self) -> bool {
        if !self.chart.is_prefix() {
            return false;
        }
        if self.splitter.at_boundary() {
            return true;
        }
        let expected = self.chart.expected_terminals();
        let ignored = self.lexer.ignored();
        self.lexer.completable(self.splitter.pending()).iter().any(|t| ignored.contains(t) || expected.contains(&t))
    }

    /// Whether the text fed so far is a complete sentence.
    pub fn is_complete(&mut self) -> bool {
        if self.splitter.at_boundary() {
            return self.chart.accepts();
        }
        let Some(last) = self.splitter.pending_candidates() else { return false };
        self.chart.push(&last);
        let complete = self.chart.accepts();
        self.chart.pop();
        complete
    }

    /// Save the current position.
    pub fn checkpoint(&self) -> Checkpoint<'a> {
        Checkpoint { splitter: self.splitter, lexemes: self.chart.len() }
    }

    /// Return to a saved position (positions saved after it become invalid).
    pub fn restore(&mut self, cp: Checkpoint<'a>) {
        self.splitter = cp.splitter;
        while self.chart.len() > cp.lexemes {
            self.chart.pop();
        }
    }
}
