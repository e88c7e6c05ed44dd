//! [`Interner`]: distinct values numbered in the order first seen, each stored once (the
//! lexemes of a spanner walk and of an artifact, the terminal sets of a lexeme trie).

use hashbrown::HashMap;
use std::hash::Hash;

/// Distinct values and their ids: `items()[id]` is the value numbered `id`.
#[derive(Clone, Debug)]
pub(crate) struct Interner<T> {
    items: Vec<T>,
    ids: HashMap<T, u32>,
}

impl<T> Default for Interner<T> {
    fn default() -> Self {
        Interner { items: Vec::new(), ids: HashMap::new() }
    }
}

impl<T: Clone + Eq + Hash> Interner<T> {
    /// The id of `item`, the next one when it is new.
    pub fn intern(&mut self, item: &T) -> u32 {
        if let Some(&id) = self.ids.get(item) {
            return id;
        }
        let id = self.items.len() as u32;
        self.items.push(item.clone());
        self.ids.insert(item.clone(), id);
        id
    }

    /// The values by id.
    pub fn items(&self) -> &[T] {
        &self.items
    }

    /// The values by id, the ids dropped.
    pub fn into_items(self) -> Vec<T> {
        self.items
    }
}

#[cfg(test)]
mod tests {
    use super::Interner;

    #[test]
    fn equal_values_share_an_id_in_first_seen_order() {
        let mut interner = Interner::default();
        let ids: Vec<u32> = ["b", "a", "b", "c", "a"].iter().map(|s| interner.intern(&s.to_string())).collect();
        assert_eq!(ids, [0, 1, 0, 2, 1]);
        assert_eq!(interner.items(), ["b", "a", "c"]);
    }
}
