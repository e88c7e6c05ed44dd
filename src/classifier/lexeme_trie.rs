//! One spanner row folded into a trie of lexeme sequences: the classifier's "sequence
//! trie" (seed 000 §3.4). Classes sharing a prefix of lexemes share the parser work for it.
//!
//! The trie is built each time a lexer state's automaton is (first use, eager build or
//! artifact load) over rows of up to a few thousand classes, so it lives in flat arrays:
//! per-node ranges into shared edge, class and group lists, and each distinct lexeme
//! and terminal set stored once.

use crate::ir::{TerminalId, TerminalSet};
use crate::lexer::{LexState, Lexer};
use crate::spanner::{Lexeme, SpannerRow};
use hashbrown::HashMap;
use smallvec::SmallVec;
use std::ops::Range;

/// The root of every [`LexemeTrie`].
pub(crate) const ROOT: u32 = 0;

/// One distinct lexeme of the row, in the forms the simulation needs.
#[derive(Clone, Debug)]
pub(crate) struct LexemeForms {
    /// Candidate terminals, each tried as a shift.
    pub terminals: SmallVec<[TerminalId; 2]>,
    /// The same terminals as a set: the lookahead that enables a reduction.
    pub lookahead: TerminalSet,
    /// Whether the lexeme may be skipped (`%ignore`d) instead.
    pub skippable: bool,
}

/// An edge: one lexeme (an index into [`LexemeTrie::lexemes`]) to a child node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TrieEdge {
    pub lexeme: u32,
    pub child: u32,
}

/// Classes ending at one node whose last lexer state can only finish as one of a
/// terminal set: viable when the parser can shift one of them next.
#[derive(Clone, Debug)]
pub(crate) struct EndGroup {
    /// Index into [`LexemeTrie::sets`].
    pub terminals: u32,
    /// Range of [`LexemeTrie::classes`].
    classes: Range<u32>,
}

/// A node: the lexemes consumed on the path from the root. Its lists are ranges of the
/// trie's flat arrays.
#[derive(Clone, Debug, Default)]
struct TrieNode {
    edges: Range<u32>,
    /// Classes ending here that are viable as soon as the node is reached: their end
    /// state can still finish as an `%ignore`d terminal, which needs nothing of the parser.
    on_arrival: Range<u32>,
    /// Groups of classes ending here that wait for the parser's next terminal.
    waiting: Range<u32>,
    /// Index into [`LexemeTrie::sets`] of the union of the `waiting` groups' terminals.
    waiting_terminals: Option<u32>,
}

/// The lexeme-sequence trie of one spanner row.
#[derive(Clone, Debug)]
pub(crate) struct LexemeTrie {
    nodes: Vec<TrieNode>,
    edges: Vec<TrieEdge>,
    groups: Vec<EndGroup>,
    /// Class indices into the row, listed by the nodes' `on_arrival` and groups.
    classes: Vec<u32>,
    lexemes: Vec<LexemeForms>,
    /// Terminal sets of end groups and of their unions per node.
    sets: Vec<TerminalSet>,
    /// Lexemes of the row's longest class: the states its shifts can push.
    pub max_lexemes: usize,
}

impl LexemeTrie {
    /// Fold `row`'s classes into a trie; `capacity` is the terminal-set capacity of the
    /// LR tables.
    pub fn new(row: &SpannerRow, lexer: &Lexer, capacity: usize) -> LexemeTrie {
        let mut builder = Builder::new(lexer, capacity, row.classes().len());
        // Classes come ordered by lexeme sequence, so a sequence shares with the
        // previous one exactly the prefix they have in common: each class walks down
        // only from there, creating the nodes past it (`path[i]`: the node after `i`
        // lexemes). Unordered classes would still give a correct trie, with repeats.
        let mut path = vec![ROOT];
        let mut previous: &[Lexeme] = &[];
        for (index, class) in row.classes().iter().enumerate() {
            let lexemes = &class.lexemes[..];
            let shared = if std::ptr::eq(previous, lexemes) {
                lexemes.len()
            } else {
                previous.iter().zip(lexemes).take_while(|(a, b)| a == b).count()
            };
            path.truncate(shared + 1);
            for lexeme in &lexemes[shared..] {
                let child = builder.add_child(*path.last().expect("the root"), lexeme);
                path.push(child);
            }
            previous = lexemes;
            builder.end_class(path[lexemes.len()], index as u32, class.end);
        }
        let max_lexemes = row.classes().iter().map(|c| c.lexemes.len()).max().unwrap_or(0);
        builder.finish(max_lexemes)
    }

    /// Node ids are `0..node_count()`.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The lexeme edges of `node`.
    pub fn edges(&self, node: u32) -> &[TrieEdge] {
        &self.edges[range(&self.nodes[node as usize].edges)]
    }

    /// Classes ending at `node` that are viable on arrival.
    pub fn on_arrival(&self, node: u32) -> &[u32] {
        &self.classes[range(&self.nodes[node as usize].on_arrival)]
    }

    /// Groups of classes ending at `node` that wait for the parser's next terminal.
    pub fn waiting(&self, node: u32) -> &[EndGroup] {
        &self.groups[range(&self.nodes[node as usize].waiting)]
    }

    /// The union of `node`'s waiting groups' terminals, `None` when it has none.
    pub fn waiting_terminals(&self, node: u32) -> Option<&TerminalSet> {
        Some(&self.sets[self.nodes[node as usize].waiting_terminals? as usize])
    }

    /// The lexeme on `edge`.
    pub fn lexeme(&self, edge: &TrieEdge) -> &LexemeForms {
        &self.lexemes[edge.lexeme as usize]
    }

    /// The terminals `group` waits for.
    pub fn group_terminals(&self, group: &EndGroup) -> &TerminalSet {
        &self.sets[group.terminals as usize]
    }

    /// The classes of `group`.
    pub fn group_classes(&self, group: &EndGroup) -> &[u32] {
        &self.classes[range(&group.classes)]
    }

    /// Heap bytes, roughly.
    pub fn memory_bytes(&self) -> usize {
        let set_bytes = |s: &TerminalSet| std::mem::size_of::<TerminalSet>() + s.heap_bytes();
        self.nodes.len() * std::mem::size_of::<TrieNode>()
            + self.edges.len() * std::mem::size_of::<TrieEdge>()
            + self.groups.len() * std::mem::size_of::<EndGroup>()
            + self.classes.len() * 4
            + self.lexemes.iter().map(|l| std::mem::size_of::<LexemeForms>() + set_bytes(&l.lookahead)).sum::<usize>()
            + self.sets.iter().map(set_bytes).sum::<usize>()
    }
}

fn range(r: &Range<u32>) -> Range<usize> {
    r.start as usize..r.end as usize
}

/// How a class ending in a lexer state is settled at its trie node.
#[derive(Clone, Copy)]
enum EndKind {
    /// The end state can still finish as an `%ignore`d terminal.
    OnArrival,
    /// Waits for one of a terminal set (an index into the builder's sets).
    Waiting(u32),
}

/// A [`LexemeTrie`] being built: nodes in creation order, edges and ending classes as
/// (node, …) lists laid out per node at the end.
struct Builder<'a> {
    lexer: &'a Lexer,
    capacity: usize,
    node_count: u32,
    edges: Vec<(u32, TrieEdge)>,
    lexemes: Vec<LexemeForms>,
    lexeme_ids: HashMap<&'a Lexeme, u32>,
    /// (node, class) of classes viable on arrival.
    on_arrival: Vec<(u32, u32)>,
    /// (node, terminal-set index, class) of waiting classes.
    waiting: Vec<(u32, u32, u32)>,
    /// By lexer state, once met as an end state.
    end_kinds: Vec<Option<EndKind>>,
    sets: Vec<TerminalSet>,
    set_ids: HashMap<TerminalSet, u32>,
}

impl<'a> Builder<'a> {
    /// A builder for a row of `classes` classes.
    fn new(lexer: &'a Lexer, capacity: usize, classes: usize) -> Builder<'a> {
        Builder {
            lexer,
            capacity,
            node_count: 1,
            edges: Vec::with_capacity(classes),
            lexemes: Vec::new(),
            lexeme_ids: HashMap::new(),
            on_arrival: Vec::new(),
            waiting: Vec::with_capacity(classes),
            end_kinds: vec![None; lexer.state_count()],
            sets: Vec::new(),
            set_ids: HashMap::new(),
        }
    }

    /// A new child of `node` reached by `lexeme`.
    fn add_child(&mut self, node: u32, lexeme: &'a Lexeme) -> u32 {
        let (lexemes, capacity) = (&mut self.lexemes, self.capacity);
        let lexeme = *self.lexeme_ids.entry(lexeme).or_insert_with(|| {
            lexemes.push(LexemeForms {
                terminals: lexeme.terminals.clone(),
                lookahead: TerminalSet::with_ids(capacity, lexeme.terminals.iter().copied()),
                skippable: lexeme.skippable,
            });
            lexemes.len() as u32 - 1
        });
        let child = self.node_count;
        self.node_count += 1;
        self.edges.push((node, TrieEdge { lexeme, child }));
        child
    }

    /// Class `class`, ending in lexer state `end`, ends at `node`.
    fn end_class(&mut self, node: u32, class: u32, end: LexState) {
        match self.end_kind(end) {
            EndKind::OnArrival => self.on_arrival.push((node, class)),
            EndKind::Waiting(set) => self.waiting.push((node, set, class)),
        }
    }

    fn end_kind(&mut self, end: LexState) -> EndKind {
        if let Some(kind) = self.end_kinds[end.index()] {
            return kind;
        }
        let completable = self.lexer.completable(end);
        let kind = if completable.intersects(self.lexer.ignored()) {
            EndKind::OnArrival
        } else {
            // Re-sized to the LR tables' capacity (lexer sets have no end marker).
            EndKind::Waiting(self.intern_set(TerminalSet::with_ids(self.capacity, completable.iter())))
        };
        self.end_kinds[end.index()] = Some(kind);
        kind
    }

    fn intern_set(&mut self, set: TerminalSet) -> u32 {
        if let Some(&id) = self.set_ids.get(&set) {
            return id;
        }
        self.sets.push(set.clone());
        self.set_ids.insert(set, self.sets.len() as u32 - 1);
        self.sets.len() as u32 - 1
    }

    fn finish(mut self, max_lexemes: usize) -> LexemeTrie {
        let mut nodes = vec![TrieNode::default(); self.node_count as usize];
        let edges = self.edges_by_node(&mut nodes);

        let mut classes = Vec::with_capacity(self.on_arrival.len() + self.waiting.len());
        // Stable sorts of lists pushed in class order, so classes stay ascending; on
        // sorted rows the nodes already are, and the sorts only check.
        self.on_arrival.sort_by_key(|&(node, _)| node);
        for_each_run(&self.on_arrival, |&(node, _)| node, |node, run| nodes[node as usize].on_arrival = run);
        classes.extend(self.on_arrival.iter().map(|&(_, class)| class));

        // Groups of a node are listed in the order of their terminals.
        let mut rank: Vec<u32> = (0..self.sets.len() as u32).collect();
        rank.sort_by(|&a, &b| self.sets[a as usize].iter().cmp(self.sets[b as usize].iter()));
        let mut rank_of = vec![0u32; self.sets.len()];
        rank.iter().enumerate().for_each(|(r, &set)| rank_of[set as usize] = r as u32);
        self.waiting.sort_by_key(|&(node, set, _)| (node, rank_of[set as usize]));
        let offset = classes.len() as u32;
        classes.extend(self.waiting.iter().map(|&(_, _, class)| class));
        let mut groups = Vec::new();
        let mut node_groups = Vec::new();
        for_each_run(&self.waiting, |&(node, set, _)| (node, set), |(node, set), run| {
            node_groups.push((node, groups.len() as u32));
            groups.push(EndGroup { terminals: set, classes: run.start + offset..run.end + offset });
        });
        for_each_run(&node_groups, |&(node, _)| node, |node, run| {
            let waiting = node_groups[run.start as usize].1..node_groups[run.end as usize - 1].1 + 1;
            let mut union = TerminalSet::new(self.capacity);
            for group in &groups[range(&waiting)] {
                union.union_with(&self.sets[group.terminals as usize]);
            }
            nodes[node as usize].waiting = waiting;
            nodes[node as usize].waiting_terminals = Some(self.intern_set(union));
        });
        LexemeTrie { nodes, edges, groups, classes, lexemes: self.lexemes, sets: self.sets, max_lexemes }
    }

    /// The edges laid out node after node (each node's in creation order), with each
    /// node's range set: a counting sort by parent.
    fn edges_by_node(&mut self, nodes: &mut [TrieNode]) -> Vec<TrieEdge> {
        let mut next = vec![0u32; nodes.len() + 1];
        self.edges.iter().for_each(|&(node, _)| next[node as usize + 1] += 1);
        for i in 1..next.len() {
            next[i] += next[i - 1];
        }
        for (node, range) in nodes.iter_mut().enumerate() {
            range.edges = next[node]..next[node + 1];
        }
        let mut edges = vec![TrieEdge { lexeme: 0, child: 0 }; self.edges.len()];
        for &(node, edge) in &self.edges {
            edges[next[node as usize] as usize] = edge;
            next[node as usize] += 1;
        }
        edges
    }
}

/// Call `f(key, range)` for each run of equal keys in `items` (sorted by key).
fn for_each_run<T, K: PartialEq + Copy>(items: &[T], key: impl Fn(&T) -> K, mut f: impl FnMut(K, Range<u32>)) {
    let mut start = 0;
    while start < items.len() {
        let k = key(&items[start]);
        let end = start + items[start..].iter().take_while(|item| key(item) == k).count();
        f(k, start as u32..end as u32);
        start = end;
    }
}
