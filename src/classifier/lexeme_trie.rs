//! One spanner row folded into a trie of lexeme sequences: the classifier's "sequence
//! trie" (seed 000 §3.4). Classes sharing a prefix of lexemes share the parser work for it.

use crate::ir::{TerminalId, TerminalSet};
use crate::lexer::Lexer;
use crate::spanner::{Lexeme, SpannerRow};
use smallvec::SmallVec;

/// The root of every [`LexemeTrie`].
pub(crate) const ROOT: u32 = 0;

/// One lexeme on an edge of the trie, in the forms the simulation needs.
#[derive(Clone, Debug)]
pub(crate) struct TrieEdge {
    /// Candidate terminals, each tried as a shift.
    pub terminals: SmallVec<[TerminalId; 2]>,
    /// The same terminals as a set: the lookahead that enables a reduction.
    pub lookahead: TerminalSet,
    /// Whether the lexeme may be skipped (`%ignore`d) instead.
    pub skippable: bool,
    /// The node reached.
    pub child: u32,
}

/// Classes ending at one node whose last lexer state can only finish as one of
/// `terminals`: viable when the parser can shift one of them next.
#[derive(Clone, Debug)]
pub(crate) struct EndGroup {
    pub terminals: TerminalSet,
    /// Class indices into the row.
    pub classes: Box<[u32]>,
}

/// A node: the lexemes consumed on the path from the root.
#[derive(Clone, Debug, Default)]
pub(crate) struct TrieNode {
    pub edges: Vec<TrieEdge>,
    /// Classes ending here that are viable as soon as the node is reached: their end
    /// state can still finish as an `%ignore`d terminal, which needs nothing of the parser.
    pub on_arrival: Box<[u32]>,
    /// Classes ending here that wait for the parser's next terminal.
    pub waiting: Vec<EndGroup>,
    /// Union of the `waiting` groups' terminals.
    pub waiting_terminals: Option<TerminalSet>,
}

/// The lexeme-sequence trie of one spanner row.
#[derive(Clone, Debug)]
pub(crate) struct LexemeTrie {
    pub nodes: Vec<TrieNode>,
    /// Lexemes of the row's longest class: the states its shifts can push.
    pub max_lexemes: usize,
}

impl LexemeTrie {
    /// Fold `row`'s classes into a trie; `capacity` is the terminal-set capacity of the
    /// LR tables.
    pub fn new(row: &SpannerRow, lexer: &Lexer, capacity: usize) -> LexemeTrie {
        let mut nodes = vec![TrieNode::default()];
        let mut on_arrival: Vec<Vec<u32>> = vec![Vec::new()];
        let mut waiting: Vec<Vec<(TerminalSet, u32)>> = vec![Vec::new()];
        for (index, class) in row.classes().iter().enumerate() {
            let mut node = ROOT;
            for lexeme in class.lexemes.iter() {
                node = child_for(&mut nodes, node, lexeme, capacity);
                on_arrival.resize(nodes.len(), Vec::new());
                waiting.resize(nodes.len(), Vec::new());
            }
            let completable = lexer.completable(class.end);
            if completable.intersects(lexer.ignored()) {
                on_arrival[node as usize].push(index as u32);
            } else {
                // Re-sized to the LR tables' capacity (lexer sets have no end marker).
                let terminals = TerminalSet::with_ids(capacity, completable.iter());
                waiting[node as usize].push((terminals, index as u32));
            }
        }
        for (node, (arrival, wait)) in nodes.iter_mut().zip(on_arrival.into_iter().zip(waiting)) {
            node.on_arrival = arrival.into_boxed_slice();
            node.waiting = group_by_terminals(wait);
            node.waiting_terminals = node.waiting.iter().fold(None, |acc, g| {
                let mut union = acc.unwrap_or_else(|| TerminalSet::new(capacity));
                union.union_with(&g.terminals);
                Some(union)
            });
        }
        let max_lexemes = row.classes().iter().map(|c| c.lexemes.len()).max().unwrap_or(0);
        LexemeTrie { nodes, max_lexemes }
    }

    pub fn node(&self, id: u32) -> &TrieNode {
        &self.nodes[id as usize]
    }

    /// Heap bytes, roughly.
    pub fn memory_bytes(&self) -> usize {
        self.nodes
            .iter()
            .map(|n| {
                std::mem::size_of::<TrieNode>()
                    + n.edges.len() * (std::mem::size_of::<TrieEdge>() + 16)
                    + n.on_arrival.len() * 4
                    + n.waiting.iter().map(|g| g.classes.len() * 4 + 32).sum::<usize>()
            })
            .sum()
    }
}

fn child_for(nodes: &mut Vec<TrieNode>, node: u32, lexeme: &Lexeme, capacity: usize) -> u32 {
    let existing = nodes[node as usize]
        .edges
        .iter()
        .find(|e| e.skippable == lexeme.skippable && e.terminals == lexeme.terminals)
        .map(|e| e.child);
    if let Some(child) = existing {
        return child;
    }
    let child = nodes.len() as u32;
    nodes.push(TrieNode::default());
    nodes[node as usize].edges.push(TrieEdge {
        terminals: lexeme.terminals.clone(),
        lookahead: TerminalSet::with_ids(capacity, lexeme.terminals.iter().copied()),
        skippable: lexeme.skippable,
        child,
    });
    child
}

fn group_by_terminals(mut classes: Vec<(TerminalSet, u32)>) -> Vec<EndGroup> {
    classes.sort_by(|a, b| a.0.iter().cmp(b.0.iter()).then(a.1.cmp(&b.1)));
    let mut groups: Vec<EndGroup> = Vec::new();
    let mut current: Option<(TerminalSet, Vec<u32>)> = None;
    for (terminals, class) in classes {
        match &mut current {
            Some((t, members)) if *t == terminals => members.push(class),
            _ => {
                if let Some((t, members)) = current.take() {
                    groups.push(EndGroup { terminals: t, classes: members.into_boxed_slice() });
                }
                current = Some((terminals, vec![class]));
            }
        }
    }
    if let Some((t, members)) = current {
        groups.push(EndGroup { terminals: t, classes: members.into_boxed_slice() });
    }
    groups
}
