//! The exact reference mask: the definition every faster mask path must equal.
//!
//! For every token: start from the matcher's state, feed the token's bytes, and ask
//! whether the text is still a viable prefix (for EOS: whether the text is complete).
//! No precomputation and nothing kept about tokens: its only job is to be obviously
//! right.
//!
//! What the recognizer reuses from one token to the next are answers that are functions
//! of the GSS alone, keyed by its [`Generation`](crate::glr::Generation): whether a
//! pending lexeme in a given lexer state is viable, and the parser steps taken from it
//! ([`Parser::keep_steps`](crate::glr::Parser::keep_steps)). Tests check both against
//! recognizers that reuse nothing.
//!
//! # Example
//! ```
//! use stackmask::{Grammar, CompiledGrammar, Matcher, matcher::oracle, tokenizer::Vocabulary};
//! use std::sync::Arc;
//! let g = Grammar::from_lark(r#"start: "ab" | "ac""#).unwrap();
//! let vocab = Arc::new(Vocabulary::from_token_bytes(
//!     vec![b"a".to_vec(), b"ab".to_vec(), b"b".to_vec(), b"c".to_vec(), vec![]], Some(4)));
//! let mut m = Matcher::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab);
//! assert_eq!(oracle::reference_mask(&m).unwrap(), vec![0b00011]);
//! m.commit(0).unwrap();
//! let mut fast = vec![0u32; 1];
//! m.compute_mask(&mut fast).unwrap();
//! assert_eq!(oracle::reference_mask(&m).unwrap(), fast);
//! ```

use super::Matcher;
use crate::error::Result;

/// Viability answers and parser steps the reference mask's recognizer keeps (see
/// `Recognizer::memoize`). Every token whose bytes close the pending lexeme takes the
/// same first step and asks the same questions after it; tokens sharing their first
/// lexemes take the same next steps.
const ANSWERS_KEPT: usize = 4096;

/// The mask of `matcher`'s next tokens, computed token by token.
pub fn reference_mask(matcher: &Matcher) -> Result<Vec<u32>> {
    let vocab = matcher.vocab();
    let mut mask = vec![0u32; matcher.mask_words()];
    if matcher.is_terminated() {
        return Ok(mask);
    }
    let mut state = matcher.recognizer().clone();
    state.memoize(ANSWERS_KEPT);
    for token in 0..vocab.len() as u32 {
        let allowed = match vocab.token_bytes(token) {
            Some(bytes) => state.stays_viable_after(bytes)?,
            None => vocab.eos_tokens().contains(&token) && state.is_complete()?,
        };
        if allowed {
            mask[token as usize / 32] |= 1 << (token % 32);
        }
    }
    Ok(mask)
}

/// Token ids allowed by only one of two masks: `(only_fast, only_reference)`.
pub type MaskDifference = (Vec<u32>, Vec<u32>);

/// Compare `matcher`'s fast mask with the reference mask; on a difference, the ids of
/// tokens allowed by only one of them.
pub fn verify(matcher: &mut Matcher) -> Result<std::result::Result<(), MaskDifference>> {
    let mut fast = vec![0u32; matcher.mask_words()];
    matcher.compute_mask(&mut fast)?;
    let reference = reference_mask(matcher)?;
    if fast == reference {
        return Ok(Ok(()));
    }
    Ok(Err(differing_tokens(&fast, &reference)))
}

/// Token ids whose bit is set only in `a`, and only in `b` (two masks of equal length).
///
/// # Example
/// ```
/// use stackmask::matcher::oracle::differing_tokens;
/// assert_eq!(differing_tokens(&[0b0110], &[0b0011]), (vec![2], vec![0]));
/// ```
pub fn differing_tokens(a: &[u32], b: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let only = |x: &[u32], y: &[u32]| -> Vec<u32> {
        (0..x.len() * 32).filter(|&i| (x[i / 32] & !y[i / 32]) >> (i % 32) & 1 == 1).map(|i| i as u32).collect()
    };
    (only(a, b), only(b, a))
}
