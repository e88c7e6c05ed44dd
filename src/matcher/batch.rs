//! Masks for a batch of sequences, computed in parallel.
//!
//! A decoding server steps many sequences at once; their masks are independent, so
//! [`compute_masks_parallel`] computes one row per [`Matcher`] on rayon's thread pool (the
//! global one, or the pool of an enclosing `ThreadPool::install`). Matchers share their
//! [`CompiledGrammar`](super::CompiledGrammar) and [`Vocabulary`] through `Arc`s: both are
//! immutable and `Send + Sync`, and each matcher's own state is touched by one thread only.

use super::Matcher;
use crate::error::{Error, Result};
use crate::tokenizer::{Tokenizer, Vocabulary};
use rayon::prelude::*;

/// What the batch API (and any server sharing grammars across threads) relies on, checked
/// when the crate compiles: compiled grammars, vocabularies and tokenizers are shared
/// between threads; a matcher moves to whichever thread computes its mask.
const _: () = {
    const fn shared_between_threads<T: Send + Sync>() {}
    const fn moved_between_threads<T: Send>() {}
    shared_between_threads::<super::CompiledGrammar>();
    shared_between_threads::<Vocabulary>();
    shared_between_threads::<Tokenizer>();
    moved_between_threads::<Matcher>();
};

/// Write the mask of `matchers[i]` into row `i` of `masks`, computing the rows in
/// parallel.
///
/// `masks` holds `matchers.len()` rows of [`Matcher::mask_words`] words each (the
/// llguidance/XGrammar layout of a batch: a `[batch, mask_words]` row-major array). Each
/// row is exactly what [`Matcher::compute_mask`] would write.
///
/// # Errors
/// [`Error::MaskSize`] if `masks` does not hold one row per matcher (nothing is written).
/// Otherwise every row is computed; a matcher whose mask fails (a resource limit, or a
/// vocabulary of another size than the first matcher's) gets an all-zero row, and the
/// error of the first such matcher (lowest index) is returned.
///
/// # Example
/// ```
/// use stackmask::matcher::compute_masks_parallel;
/// use stackmask::{tokenizer::Vocabulary, CompiledGrammar, Grammar, Matcher};
/// use std::sync::Arc;
///
/// let grammar = Grammar::from_lark(r#"start: "[" ("a" | "b")* "]""#).unwrap();
/// let compiled = Arc::new(CompiledGrammar::new(&grammar).unwrap());
/// let tokens = ["[", "a", "b", "]", "ab]", "<eos>"].map(|t| t.as_bytes().to_vec()).to_vec();
/// let vocab = Arc::new(Vocabulary::from_token_bytes(tokens, Some(5)));
/// let mut matchers: Vec<Matcher> = (0..3).map(|_| Matcher::new(compiled.clone(), vocab.clone())).collect();
/// matchers[1].commit(0).unwrap(); // "["
/// matchers[2].commit_bytes(b"[a]").unwrap();
///
/// let words = matchers[0].mask_words();
/// let mut masks = vec![0u32; matchers.len() * words];
/// compute_masks_parallel(&mut matchers, &mut masks).unwrap();
/// assert_eq!(masks, [0b000001, 0b011110, 0b100000]);
/// ```
pub fn compute_masks_parallel(matchers: &mut [Matcher], masks: &mut [u32]) -> Result<()> {
    let words = matchers.first().map_or(0, Matcher::mask_words);
    let need = matchers.len() * words;
    if masks.len() != need {
        return Err(Error::MaskSize { got: masks.len(), need });
    }
    if words == 0 {
        return Ok(());
    }
    let outcomes: Vec<Result<()>> = matchers
        .par_iter_mut()
        .zip(masks.par_chunks_mut(words))
        .map(|(matcher, row)| matcher.compute_mask(row).inspect_err(|_| row.fill(0)))
        .collect();
    outcomes.into_iter().collect()
}
