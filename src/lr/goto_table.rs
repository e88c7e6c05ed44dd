//! Goto lookups in constant time: the sparse (state, nonterminal) → state table as one
//! open-addressing hash table.
//!
//! Every reduction takes a goto, in the GLR parser and in the classifier's symbolic
//! simulation, where a binary search over the state's gotos took a tenth of an eager
//! build. A dense table grows with states × nonterminals (MaskBench has a schema with
//! 78,733 LR states), and row displacement packs such sparse, wide rows either loosely
//! (4–35 slots per goto with a bounded search) or, searching for a tight fit, in
//! seconds (2.2 s for that schema). Hashing builds in one pass over the gotos
//! and finds most of them at the first slot.

use super::LrState;
use crate::ir::NonterminalId;

/// The key of a slot no goto holds (no state has id `u32::MAX`).
const FREE: u64 = u64::MAX;

/// Odd multiplier of the hash (2^64 / φ).
const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// The goto table of an LR automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct GotoTable {
    /// Per slot: the key (`state << 32 | nonterminal`, or [`FREE`]) and the goto target;
    /// a power of two of them, at most half full (so every probe meets a free slot).
    slots: Box<[(u64, LrState)]>,
    /// `64 - log2(slots.len())`: a key's first slot is its hash's top bits.
    shift: u32,
}

impl Default for GotoTable {
    fn default() -> Self {
        GotoTable::new(&[])
    }
}

impl GotoTable {
    /// The table of `rows`: per state, its gotos (one per nonterminal).
    pub fn new(rows: &[Vec<(NonterminalId, LrState)>]) -> GotoTable {
        let gotos: usize = rows.iter().map(Vec::len).sum();
        let len = (2 * gotos).next_power_of_two().max(2);
        let mut table = GotoTable { slots: vec![(FREE, LrState(0)); len].into(), shift: 64 - len.trailing_zeros() };
        for (s, row) in rows.iter().enumerate() {
            for &(n, target) in row {
                let key = key(LrState(s as u32), n);
                let slot = table.probe(key);
                table.slots[slot] = (key, target);
            }
        }
        table
    }

    /// The goto of state `s` on nonterminal `n`, if any.
    #[inline]
    pub fn get(&self, s: LrState, n: NonterminalId) -> Option<LrState> {
        let key = key(s, n);
        let (found, target) = self.slots[self.probe(key)];
        (found == key).then_some(target)
    }

    /// The slot holding `key`, or the free slot where it would go.
    #[inline]
    fn probe(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut slot = (key.wrapping_mul(K) >> self.shift) as usize;
        while self.slots[slot].0 != key && self.slots[slot].0 != FREE {
            slot = (slot + 1) & mask;
        }
        slot
    }
}

fn key(s: LrState, n: NonterminalId) -> u64 {
    u64::from(s.0) << 32 | u64::from(n.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rows_strategy() -> impl Strategy<Value = Vec<Vec<(NonterminalId, LrState)>>> {
        let row = proptest::collection::btree_map(0u32..40, 0u32..50, 0..12)
            .prop_map(|m| m.into_iter().map(|(n, t)| (NonterminalId(n), LrState(t))).collect::<Vec<_>>());
        proptest::collection::vec(row, 0..60)
    }

    proptest! {
        /// Every (state, nonterminal) pair finds exactly the goto its row holds, and
        /// states past the table find none.
        #[test]
        fn lookups_equal_the_rows(rows in rows_strategy()) {
            let table = GotoTable::new(&rows);
            for s in 0..=rows.len() {
                for n in 0..45u32 {
                    let expected = rows.get(s).and_then(|row| row.iter().find(|&&(m, _)| m.0 == n)).map(|&(_, t)| t);
                    prop_assert_eq!(table.get(LrState(s as u32), NonterminalId(n)), expected);
                }
            }
        }
    }

    #[test]
    fn an_empty_table_finds_nothing() {
        assert_eq!(GotoTable::new(&[]).get(LrState(0), NonterminalId(0)), None);
        assert_eq!(GotoTable::new(&[vec![], vec![]]).get(LrState(1), NonterminalId(7)), None);
    }
}
