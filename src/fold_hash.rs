//! One hash for the construction tables that keep each entry's hash beside it (the
//! lexer's states and successor memo, the LR automaton's kernels): a multiply per
//! 64-bit word and a final mix, where the default hasher's per-field rounds were a
//! tenth of the lexer build.

const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// The hash of `words` after `seed`.
pub(crate) fn fold_hash(seed: u64, words: impl IntoIterator<Item = u64>) -> u64 {
    let h = words.into_iter().fold(seed.wrapping_mul(K), |h, word| (h.rotate_left(26) ^ word).wrapping_mul(K));
    (h ^ h >> 29).wrapping_mul(K)
}
