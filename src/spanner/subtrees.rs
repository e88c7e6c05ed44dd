//! Walks of the token trie's first-level subtrees, kept for the rows that repeat them.
//!
//! A row walks each subtree under the trie's root from the lexer state its first byte
//! leads to. Many lexer states lead to the same one: inside a JSON object key, every
//! byte that leaves the declared names leads to the same "any other string" state, so
//! the rows of the hundreds of states along the names repeat the same walks of nearly
//! the whole vocabulary. A subtree walked a second time from the same state is kept
//! (its classes relative to where it starts) and merged into later rows instead of
//! being walked again. What is kept is bounded in bytes; past the bound, subtrees are
//! walked as before.

use super::SpannerRow;
use crate::lexer::LexState;
use hashbrown::hash_map::Entry;
use hashbrown::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Kept subtree walks of one [`TokenSpanner`](super::TokenSpanner), keyed by (trie node,
/// lexer state reached there).
pub(super) struct SubtreeWalks {
    slots: Mutex<HashMap<(u32, LexState), Slot>>,
    bytes: AtomicUsize,
    capacity: usize,
}

enum Slot {
    /// Walked once, by one row.
    Seen,
    Kept(Arc<SpannerRow>),
}

impl SubtreeWalks {
    /// Keeping at most about `capacity` bytes of walks.
    pub(super) fn new(capacity: usize) -> SubtreeWalks {
        SubtreeWalks { slots: Mutex::new(HashMap::new()), bytes: AtomicUsize::new(0), capacity }
    }

    /// The walk of `node`'s subtree (its own tokens included) reached in lexer state `q`,
    /// as a row whose lexeme sequences start at `node`: kept, or made by `walk` and kept
    /// now that it is asked for a second time. `None` the first time, and when the bound
    /// is reached: the caller walks the subtree itself.
    pub(super) fn get(&self, node: usize, q: LexState, walk: impl FnOnce() -> SpannerRow) -> Option<Arc<SpannerRow>> {
        let key = (node as u32, q);
        match self.slots.lock().unwrap_or_else(|p| p.into_inner()).entry(key) {
            Entry::Occupied(slot) => match slot.get() {
                Slot::Kept(row) => return Some(Arc::clone(row)),
                Slot::Seen => {}
            },
            Entry::Vacant(slot) => {
                slot.insert(Slot::Seen);
                return None;
            }
        }
        if self.bytes.load(Ordering::Relaxed) >= self.capacity {
            return None;
        }
        let row = Arc::new(walk());
        let replaced = self.slots.lock().unwrap_or_else(|p| p.into_inner()).insert(key, Slot::Kept(Arc::clone(&row)));
        // Two rows asking at once both walk; the bytes count the walk kept once.
        if !matches!(replaced, Some(Slot::Kept(_))) {
            let bytes = std::mem::size_of_val(&**row.all_tokens()) + std::mem::size_of_val(row.classes());
            self.bytes.fetch_add(bytes, Ordering::Relaxed);
        }
        Some(row)
    }

    /// Bytes of the walks kept.
    pub(super) fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }
}
