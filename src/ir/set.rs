//! [`TerminalSet`]: a fixed-capacity bitset over terminal ids.

use super::TerminalId;

/// A set of terminals, stored as a bitset sized for one grammar.
///
/// # Example
/// ```
/// use stackmask::ir::{TerminalId, TerminalSet};
/// let mut s = TerminalSet::new(70);
/// s.insert(TerminalId(3));
/// s.insert(TerminalId(64));
/// assert!(s.contains(TerminalId(64)));
/// assert_eq!(s.iter().collect::<Vec<_>>(), vec![TerminalId(3), TerminalId(64)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TerminalSet {
    words: Box<[u64]>,
}

impl TerminalSet {
    /// An empty set able to hold ids `0..capacity`.
    pub fn new(capacity: usize) -> TerminalSet {
        TerminalSet { words: vec![0; capacity.div_ceil(64)].into_boxed_slice() }
    }

    /// Heap bytes of the set.
    ///
    /// # Example
    /// ```
    /// use stackmask::ir::TerminalSet;
    /// assert_eq!(TerminalSet::new(65).heap_bytes(), 16);
    /// ```
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.words)
    }

    /// A set holding every id in `0..capacity`.
    ///
    /// # Example
    /// ```
    /// use stackmask::ir::{TerminalId, TerminalSet};
    /// let s = TerminalSet::full(65);
    /// assert_eq!(s.len(), 65);
    /// assert!(s.contains(TerminalId(64)) && !s.contains(TerminalId(65)));
    /// assert_eq!(TerminalSet::full(128).len(), 128);
    /// ```
    pub fn full(capacity: usize) -> TerminalSet {
        let mut words = vec![u64::MAX; capacity.div_ceil(64)].into_boxed_slice();
        if let Some(last) = words.last_mut().filter(|_| capacity % 64 != 0) {
            *last = (1 << (capacity % 64)) - 1;
        }
        TerminalSet { words }
    }

    /// A set able to hold ids `0..capacity`, holding the ids below `capacity` of the
    /// bitset `words` (at least `capacity` bits wide): the LR tables' lookahead rows
    /// are such bitsets, with a working bit past the terminals.
    pub(crate) fn from_words_below(capacity: usize, words: &[u64]) -> TerminalSet {
        let mut set = TerminalSet::full(capacity);
        let given = &words[..set.words.len()];
        set.words.iter_mut().zip(given).for_each(|(word, &given)| *word &= given);
        set
    }

    /// A set able to hold ids `0..capacity`, holding `ids` (each must be below
    /// `capacity`).
    ///
    /// # Example
    /// ```
    /// use stackmask::ir::{TerminalId, TerminalSet};
    /// let s = TerminalSet::with_ids(10, [TerminalId(2), TerminalId(7)]);
    /// assert_eq!(s.len(), 2);
    /// assert!(s.contains(TerminalId(7)));
    /// ```
    pub fn with_ids(capacity: usize, ids: impl IntoIterator<Item = TerminalId>) -> TerminalSet {
        let mut s = TerminalSet::new(capacity);
        for t in ids {
            s.insert(t);
        }
        s
    }

    /// Add `t`; returns whether it was absent.
    pub fn insert(&mut self, t: TerminalId) -> bool {
        let (w, b) = (t.index() / 64, t.index() % 64);
        let absent = self.words[w] & (1 << b) == 0;
        self.words[w] |= 1 << b;
        absent
    }

    /// Whether `t` is in the set.
    pub fn contains(&self, t: TerminalId) -> bool {
        let (w, b) = (t.index() / 64, t.index() % 64);
        self.words.get(w).is_some_and(|x| x & (1 << b) != 0)
    }

    /// Add every member of `other`; returns whether anything was added.
    pub fn union_with(&mut self, other: &TerminalSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(other.words.iter()) {
            let new = *a | *b;
            changed |= new != *a;
            *a = new;
        }
        changed
    }

    /// Whether the two sets share a member.
    pub fn intersects(&self, other: &TerminalSet) -> bool {
        self.words.iter().zip(other.words.iter()).any(|(a, b)| a & b != 0)
    }

    /// The members of both sets.
    pub fn intersection(&self, other: &TerminalSet) -> TerminalSet {
        let words = self.words.iter().zip(other.words.iter()).map(|(a, b)| a & b).collect();
        TerminalSet { words }
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = TerminalId> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(TerminalId(i as u32 * 64 + b))
            })
        })
    }
}
