//! A counted terminal's count horizon: the most characters one token of the vocabulary
//! served adds to the terminal's open string.
//!
//! The count classes single out the counts within `horizon + 1` characters of each
//! bound (`counted.rs`): the smaller the horizon, the fewer the classes and the lexer's
//! states. The vocabulary's longest token bounds what any token adds, but a terminal
//! whose patterns restrict its characters reads far less of most tokens. A `hostname`
//! reads at most 61 bytes of a Llama 3 token (within a label's length: its tokens of
//! 112 dashes die inside a label), against 128 bytes for the longest token, so its 253
//! characters need 62 classes near the bound rather than 129.
//!
//! A token adds characters to an open string in one of two ways. It starts inside the
//! string: the characters are a prefix of the token, read from whichever configuration
//! the string is in, so the trie is walked from the set of every open configuration. Or
//! it holds the string's opening quote: the characters follow a `"` of the token, read
//! from the configuration after the quote, so the tokens holding `"` are scanned. Bytes
//! are counted, not characters: never fewer.

use crate::tokenizer::{TokenTrie, Vocabulary};
use hashbrown::HashMap;
use smallvec::SmallVec;

/// A counted terminal's configurations as a DFA over bytes; configuration 0 is the one
/// before the opening quote.
pub(super) trait Configurations {
    /// The number of configurations.
    fn len(&self) -> usize;
    /// Where `byte` leads from configuration `c`, if the terminal stays alive.
    fn step(&self, c: u32, byte: u8) -> Option<u32>;
    /// Whether the string is open in `c`: after its opening quote, before its closing one.
    fn is_open(&self, c: u32) -> bool;
}

/// The most sets of configurations a search makes before it gives up (and the horizon
/// stays the vocabulary's longest token).
const MOST_SETS: usize = 4096;

/// The most characters one token of `vocabulary` adds to an open string of the terminal
/// whose configurations are `configurations`, or `longest` (the longest token's bytes)
/// if that is fewer or the search gives up.
pub(super) fn token_horizon(configurations: &impl Configurations, vocabulary: &Vocabulary, longest: u32) -> u32 {
    let mut sets = Sets::new(configurations);
    // The walk stops at `longest`; then the scan would not change the answer.
    let Some(inside) = sets.longest_prefix(vocabulary.trie(), longest).filter(|&inside| inside < longest) else {
        return longest;
    };
    sets.longest_after_quote(vocabulary).map_or(longest, |opening| inside.max(opening).min(longest))
}

/// The empty set of configurations: the terminal died, or closed its string.
const EMPTY: u32 = 0;
/// A transition not computed yet.
const UNKNOWN: u32 = u32::MAX;

/// Sets of open configurations, numbered as they are reached, with the transitions
/// between them (the subset construction over the configurations, made lazily).
struct Sets<'c, C> {
    configurations: &'c C,
    ids: HashMap<Box<[u32]>, u32>,
    members: Vec<Box<[u32]>>,
    next: Vec<[u32; 256]>,
}

impl<'c, C: Configurations> Sets<'c, C> {
    fn new(configurations: &'c C) -> Self {
        let mut sets = Sets { configurations, ids: HashMap::new(), members: Vec::new(), next: Vec::new() };
        let empty = sets.intern(&[]);
        debug_assert_eq!(empty, Some(EMPTY));
        sets
    }

    /// The number of the set `members` (sorted), or `None` past [`MOST_SETS`].
    fn intern(&mut self, members: &[u32]) -> Option<u32> {
        if let Some(&id) = self.ids.get(members) {
            return Some(id);
        }
        if self.members.len() >= MOST_SETS {
            return None;
        }
        let id = self.members.len() as u32;
        self.ids.insert(members.into(), id);
        self.members.push(members.into());
        self.next.push([UNKNOWN; 256]);
        Some(id)
    }

    /// The set of open configurations `byte` leads to from set `set`.
    fn step(&mut self, set: u32, byte: u8) -> Option<u32> {
        let known = self.next[set as usize][usize::from(byte)];
        if known != UNKNOWN {
            return Some(known);
        }
        let configurations = self.configurations;
        let mut members: SmallVec<[u32; 16]> = self.members[set as usize]
            .iter()
            .filter_map(|&c| configurations.step(c, byte))
            .filter(|&c| configurations.is_open(c))
            .collect();
        members.sort_unstable();
        members.dedup();
        let target = self.intern(&members)?;
        self.next[set as usize][usize::from(byte)] = target;
        Some(target)
    }

    /// The longest token prefix that some open configuration reads without closing the
    /// string or dying (at most `longest`, where the walk stops).
    fn longest_prefix(&mut self, trie: &TokenTrie, longest: u32) -> Option<u32> {
        let open: Vec<u32> = (0..self.configurations.len() as u32).filter(|&c| self.configurations.is_open(c)).collect();
        let nodes = trie.nodes();
        // The sets along the path to the current node, each with where its subtree ends.
        let mut path: Vec<(usize, u32)> = vec![(nodes.len(), self.intern(&open)?)];
        let mut most = 0;
        let mut node = TokenTrie::ROOT + 1;
        while node < nodes.len() {
            while path.last().is_some_and(|&(end, _)| end <= node) {
                path.pop();
            }
            let &(_, parent) = path.last().expect("the root's subtree holds every node");
            let set = self.step(parent, nodes[node].byte())?;
            if set == EMPTY {
                node = nodes[node].subtree_end();
                continue;
            }
            path.push((nodes[node].subtree_end(), set));
            most = most.max(path.len() as u32 - 1);
            if most >= longest {
                return Some(longest);
            }
            node += 1;
        }
        Some(most)
    }

    /// The most bytes after a `"` of some token that the configuration after the
    /// opening quote reads without closing the string or dying.
    fn longest_after_quote(&mut self, vocabulary: &Vocabulary) -> Option<u32> {
        let configurations = self.configurations;
        let Some(opened) = configurations.step(0, b'"').filter(|&c| configurations.is_open(c)) else {
            return Some(0);
        };
        let opened = self.intern(&[opened])?;
        let mut most = 0;
        for id in 0..vocabulary.len() as u32 {
            let Some(bytes) = vocabulary.token_bytes(id).filter(|bytes| bytes.contains(&b'"')) else { continue };
            for (quote, _) in bytes.iter().enumerate().filter(|&(_, &b)| b == b'"') {
                let mut set = opened;
                let mut read = 0;
                for &byte in &bytes[quote + 1..] {
                    set = self.step(set, byte)?;
                    if set == EMPTY {
                        break;
                    }
                    read += 1;
                }
                most = most.max(read);
            }
        }
        Some(most)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `"` then runs of at most `label` letters separated by single dots, then `"`:
    /// 0 before the quote, 1 + k after k letters of a label (k = 0 right after the quote
    /// or a dot), `label + 2` closed.
    struct Labels {
        label: u32,
    }

    impl Configurations for Labels {
        fn len(&self) -> usize {
            self.label as usize + 3
        }

        fn step(&self, c: u32, byte: u8) -> Option<u32> {
            let closed = self.label + 2;
            match (c, byte) {
                (0, b'"') => Some(1),
                (0, _) => None,
                (c, b'a'..=b'z') if c != closed && c - 1 < self.label => Some(c + 1),
                (c, b'.') if c != closed && c > 1 => Some(1),
                (c, b'"') if c != closed && c > 1 => Some(closed),
                _ => None,
            }
        }

        fn is_open(&self, c: u32) -> bool {
            c != 0 && c != self.label + 2
        }
    }

    fn vocabulary(tokens: &[&str]) -> Vocabulary {
        Vocabulary::from_token_bytes(tokens.iter().map(|t| t.as_bytes().to_vec()).collect(), None)
    }

    #[test]
    fn a_token_adds_what_the_terminal_reads_of_it() {
        let labels = Labels { label: 3 };
        // "abcdef" dies after 3 letters; "ab.cd" is read whole from any open
        // configuration that has room for "ab"; "x": 1; the longest token is 9 bytes.
        let vocab = vocabulary(&["abcdef", "ab.cd", "x", "!!!!!!!!!"]);
        assert_eq!(token_horizon(&labels, &vocab, 9), 5);
        // A quote inside a token opens the string: 4 of `:"abc.d` follows it.
        let vocab = vocabulary(&["abcdef", ":\"abc.de", "x", "!!!!!!!!!"]);
        assert_eq!(token_horizon(&labels, &vocab, 9), 6);
        // Closing the string ends what a token adds: `ab"` adds 2.
        let vocab = vocabulary(&["ab\"", "!!!!!"]);
        assert_eq!(token_horizon(&labels, &vocab, 5), 2);
        // A quote may open a string as well as close one: 3 of `ab"cdefg` follow it.
        let vocab = vocabulary(&["ab\"cdefg"]);
        assert_eq!(token_horizon(&labels, &vocab, 8), 3);
    }

    #[test]
    fn the_horizon_is_never_beyond_the_longest_token() {
        let labels = Labels { label: 100 };
        let vocab = vocabulary(&["abcdefgh", "\"abcdefgh"]);
        assert_eq!(token_horizon(&labels, &vocab, 4), 4);
    }
}
