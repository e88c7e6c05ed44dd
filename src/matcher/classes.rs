//! The mask computed per token class of the [`TokenSpanner`]: one parser simulation per
//! class instead of per token, with the work for a shared prefix of lexemes done once.
//!
//! Exact by construction (the same recognizer operations the reference mask uses, in a
//! different order) and tested against [`oracle`](super::oracle). It is the stage the
//! stack classifier refines: there, the per-class parser simulation becomes a
//! precompiled automaton over LR state ids.

use super::recognizer::pending_is_viable;
use super::{or_into, set_bits, Matcher};
use crate::error::Result;
use crate::ir::TerminalSet;
use crate::spanner::{Lexeme, TokenSpanner};
use std::sync::Arc;

impl Matcher {
    /// Like [`Matcher::compute_mask`], deciding viability once per token class of
    /// `spanner` (which must be built from this matcher's grammar and vocabulary).
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, Matcher, spanner::TokenSpanner, tokenizer::Vocabulary};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "[" NUM ("," NUM)* "]"
    ///                               NUM: /[0-9]+/"#).unwrap();
    /// let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(
    ///     ["[", "1", "12", ",", "],", "]"].iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// let spanner = TokenSpanner::new(compiled.clone(), vocab.clone());
    /// let mut m = Matcher::new(compiled, vocab);
    /// m.commit(0).unwrap();
    /// m.commit(2).unwrap();
    /// let (mut by_classes, mut reference) = (vec![0u32; 1], vec![0u32; 1]);
    /// m.compute_mask_by_classes(&spanner, &mut by_classes).unwrap();
    /// m.compute_mask(&mut reference).unwrap();
    /// assert_eq!(by_classes, reference);
    /// ```
    pub fn compute_mask_by_classes(&mut self, spanner: &TokenSpanner, mask: &mut [u32]) -> Result<()> {
        self.fill_mask(mask, |m, mask| {
            mask.fill(0);
            m.set_class_bits(spanner, mask)
        })
    }

    /// Set the bits of the viable tokens with bytes, deciding once per class of `spanner`.
    pub(super) fn set_class_bits(&mut self, spanner: &TokenSpanner, mask: &mut [u32]) -> Result<()> {
        spanner.check_count_horizon()?;
        let expected_now = self.recognizer.expected_terminals()?;
        let compiled = Arc::clone(spanner.compiled());
        let row = spanner.row(self.recognizer.lex_state());
        let mut path = LexemePath::new(self.recognizer.checkpoint(), expected_now);
        let mut outcome = Ok(());
        for (i, class) in row.classes().iter().enumerate() {
            match path.advance_to(self, &class.lexemes) {
                Ok(Some(expected)) if pending_is_viable(compiled.lexer(), class.end, expected) => match class.bitmap() {
                    Some(bits) => or_into(mask, bits),
                    None => set_bits(mask, row.tokens(i)),
                },
                Ok(_) => {}
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        self.recognizer.restore(&path.base);
        outcome
    }
}

/// The parser states along the lexeme sequence of the previous class, so the next class
/// (sorted next to it) only replays the lexemes it does not share.
struct LexemePath<'r> {
    base: super::RecognizerCheckpoint,
    /// Per consumed lexeme: the lexeme, the checkpoint after it, and the parser's
    /// expected terminals there (computed on demand).
    steps: Vec<(&'r Lexeme, super::RecognizerCheckpoint, Option<TerminalSet>)>,
    expected_at_base: TerminalSet,
    /// How many lexemes of `steps` are consumed; beyond a failed lexeme nothing is.
    dead_from: Option<usize>,
}

impl<'r> LexemePath<'r> {
    fn new(base: super::RecognizerCheckpoint, expected_at_base: TerminalSet) -> Self {
        LexemePath { base, steps: Vec::new(), expected_at_base, dead_from: None }
    }

    /// Consume `lexemes` (reusing the shared prefix with the previous call); the parser's
    /// expected terminals after them, or `None` if the parser rejects them.
    fn advance_to(&mut self, m: &mut Matcher, lexemes: &'r [Lexeme]) -> Result<Option<&TerminalSet>> {
        let shared = self.steps.iter().zip(lexemes).take_while(|((a, _, _), b)| *a == *b).count();
        if self.dead_from.is_some_and(|d| d < shared) {
            return Ok(None);
        }
        self.steps.truncate(shared);
        self.dead_from = None;
        let resume = self.steps.last().map_or(&self.base, |(_, cp, _)| cp).clone();
        m.recognizer.restore(&resume);
        for (i, lexeme) in lexemes.iter().enumerate().skip(shared) {
            if !m.recognizer.consume_lexeme(lexeme)? {
                self.dead_from = Some(i);
                self.steps.push((lexeme, m.recognizer.checkpoint(), None));
                return Ok(None);
            }
            self.steps.push((lexeme, m.recognizer.checkpoint(), None));
        }
        match self.steps.last_mut() {
            None => Ok(Some(&self.expected_at_base)),
            Some((_, cp, expected)) => {
                if expected.is_none() {
                    m.recognizer.restore(cp);
                    *expected = Some(m.recognizer.expected_terminals()?);
                }
                Ok(expected.as_ref())
            }
        }
    }
}
