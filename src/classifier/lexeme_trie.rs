//! One spanner row folded into a trie of lexeme sequences: the classifier's "sequence
//! trie" (seed 000 §3.4). Classes sharing a prefix of lexemes share the parser work for it.
//!
//! The trie is built each time a lexer state's automaton is (first use or eager build)
//! over rows of up to a few thousand classes, so it lives in flat arrays: edge, class
//! and group lists laid out node after node (a node holds where its runs end), and each
//! distinct lexeme and terminal set stored once. Artifacts store those arrays as words
//! ([`LexemeTrie::to_words`]), and loading checks them instead of building the trie
//! again ([`LexemeTrie::from_words`]).

use crate::interner::Interner;
use crate::ir::{TerminalId, TerminalSet};
use crate::lexer::{LexState, Lexer};
use crate::spanner::{Lexeme, SpannerRow};
use hashbrown::HashMap;
use smallvec::SmallVec;
use std::ops::Range;

/// The root of every [`LexemeTrie`].
pub(crate) const ROOT: u32 = 0;

/// One distinct lexeme of the row, in the forms the simulation needs.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LexemeForms {
    /// Candidate terminals, each tried as a shift.
    pub terminals: SmallVec<[TerminalId; 2]>,
    /// The same terminals as a set: the lookahead that enables a reduction.
    pub lookahead: TerminalSet,
    /// Whether the lexeme may be skipped (`%ignore`d) instead.
    pub skippable: bool,
}

impl LexemeForms {
    /// The forms of `lexeme`; `capacity` is the terminal-set capacity of the LR tables.
    pub fn new(lexeme: &Lexeme, capacity: usize) -> LexemeForms {
        LexemeForms {
            terminals: lexeme.terminals.clone(),
            lookahead: TerminalSet::with_ids(capacity, lexeme.terminals.iter().copied()),
            skippable: lexeme.skippable,
        }
    }

    /// The lexeme these are the forms of.
    pub fn lexeme(&self) -> Lexeme {
        Lexeme { terminals: self.terminals.clone(), skippable: self.skippable }
    }
}

/// An edge: one lexeme (an index into [`LexemeTrie::lexemes`]) to a child node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TrieEdge {
    pub lexeme: u32,
    pub child: u32,
}

/// Classes ending at one node whose last lexer state can only finish as one of a
/// terminal set: viable when the parser can shift one of them next.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EndGroup {
    /// Index into [`LexemeTrie::sets`].
    pub terminals: u32,
    /// Range of [`LexemeTrie::classes`].
    classes: Range<u32>,
}

/// A node: the lexemes consumed on the path from the root. Its lists are runs of the
/// trie's flat arrays, which hold the nodes' runs in node order: each run starts where
/// the previous node's ends.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TrieNode {
    /// End of its run of [`LexemeTrie::edges`].
    edges_end: u32,
    /// End of its run of [`LexemeTrie::classes`] ending here that are viable as soon as
    /// the node is reached: their end state can still finish as an `%ignore`d terminal,
    /// which needs nothing of the parser.
    on_arrival_end: u32,
    /// End of its run of [`LexemeTrie::groups`]: classes ending here that wait for the
    /// parser's next terminal.
    waiting_end: u32,
    /// Index into [`LexemeTrie::sets`] of the union of the waiting groups' terminals,
    /// [`TrieNode::NO_SET`] when it has none.
    waiting_terminals: u32,
}

/// The lexeme-sequence trie of one spanner row.
#[derive(Clone, Debug, PartialEq)]
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
        builder.finish(max_lexemes(row))
    }

    /// The trie's node, edge, group and class arrays as words, in the layout
    /// [`LexemeTrie::from_words`] reads; its lexemes and terminal sets are
    /// [`LexemeTrie::lexemes`] and [`LexemeTrie::sets`].
    pub fn to_words(&self) -> [Vec<u32>; 4] {
        let nodes = self.nodes.iter().flat_map(|n| [n.edges_end, n.on_arrival_end, n.waiting_end, n.waiting_terminals]).collect();
        let edges = self.edges.iter().flat_map(|e| [e.lexeme, e.child]).collect();
        let groups = self.groups.iter().flat_map(|g| [g.terminals, g.classes.start, g.classes.end]).collect();
        [nodes, edges, groups, self.classes.clone()]
    }

    /// The trie of `row` written by [`LexemeTrie::to_words`], with its `lexemes` and
    /// terminal sets (`sets`, as terminal ids below `capacity`, the terminal-set
    /// capacity of the LR tables), once every index and range in it is checked: it is a
    /// tree whose children have higher ids than their parents, whose lists are in
    /// bounds and whose classes are `row`'s. Whether it is the trie
    /// [`LexemeTrie::new`] builds of `row` is not checked (see the artifact's trust
    /// model).
    pub fn from_words(
        words: [&[u32]; 4],
        lexemes: Vec<LexemeForms>,
        sets: &[Vec<u32>],
        row: &SpannerRow,
        capacity: usize,
    ) -> Result<LexemeTrie, String> {
        let [nodes, edges, groups, classes] = words;
        if let Some(&t) = sets.iter().flatten().find(|&&t| t as usize >= capacity) {
            return Err(format!("terminal {t} in a terminal set; the grammar has {capacity}"));
        }
        let sets = sets.iter().map(|ids| TerminalSet::with_ids(capacity, ids.iter().map(|&t| TerminalId(t)))).collect();
        let trie = LexemeTrie {
            nodes: records(nodes, "nodes", |w: &[u32; 4]| TrieNode {
                edges_end: w[0],
                on_arrival_end: w[1],
                waiting_end: w[2],
                waiting_terminals: w[3],
            })?,
            edges: records(edges, "edges", |w: &[u32; 2]| TrieEdge { lexeme: w[0], child: w[1] })?,
            groups: records(groups, "groups", |w: &[u32; 3]| EndGroup { terminals: w[0], classes: w[1]..w[2] })?,
            classes: classes.to_vec(),
            lexemes,
            sets,
            max_lexemes: max_lexemes(row),
        };
        trie.check(row.classes().len())?;
        Ok(trie)
    }

    /// The distinct lexemes its edges index.
    pub fn lexemes(&self) -> &[LexemeForms] {
        &self.lexemes
    }

    /// The terminal sets its groups and nodes index.
    pub fn sets(&self) -> &[TerminalSet] {
        &self.sets
    }

    /// That every index and run is in bounds and the edges form a tree from the root
    /// (what [`LexemeTrie::from_words`] promises).
    fn check(&self, row_classes: usize) -> Result<(), String> {
        let Some(last) = self.nodes.last() else { return Err("no root node".into()) };
        if let Some(&class) = self.classes.iter().find(|&&c| c as usize >= row_classes) {
            return Err(format!("class {class}; the row has {row_classes}"));
        }
        let ascending = self.nodes.windows(2).all(|pair| {
            let [a, b] = [pair[0], pair[1]];
            a.edges_end <= b.edges_end && a.on_arrival_end <= b.on_arrival_end && a.waiting_end <= b.waiting_end
        });
        let ends = (last.edges_end as usize, last.on_arrival_end as usize, last.waiting_end as usize);
        if !ascending || ends.0 != self.edges.len() || ends.1 > self.classes.len() || ends.2 != self.groups.len() {
            return Err("node lists that do not split the edges, classes and groups in node order".into());
        }
        for node in 0..self.nodes.len() as u32 {
            let (waiting, set) = (self.waiting(node).len(), self.nodes[node as usize].waiting_terminals);
            if (waiting == 0) != (set == TrieNode::NO_SET) || (waiting > 0 && set as usize >= self.sets.len()) {
                return Err(format!("node {node}: waiting terminals {set} for {waiting} waiting groups"));
            }
        }
        for (id, group) in self.groups.iter().enumerate() {
            if group.terminals as usize >= self.sets.len() || !within(&group.classes, self.classes.len()) {
                return Err(format!("group {id}: terminal set {} or classes {:?} out of bounds", group.terminals, group.classes));
            }
        }
        self.check_tree()
    }

    /// Every edge goes from a node to a higher one, and every node but the root is
    /// reached by exactly one edge.
    fn check_tree(&self) -> Result<(), String> {
        let mut parents = vec![0u32; self.nodes.len()];
        for node in 0..self.nodes.len() as u32 {
            for edge in self.edges(node) {
                if edge.lexeme as usize >= self.lexemes.len() || edge.child <= node || edge.child as usize >= self.nodes.len() {
                    return Err(format!("node {node}: an edge on lexeme {} to node {}", edge.lexeme, edge.child));
                }
                parents[edge.child as usize] += 1;
            }
        }
        match parents.iter().skip(1).position(|&n| n != 1) {
            Some(i) => Err(format!("node {} is reached by {} edges", i + 1, parents[i + 1])),
            None => Ok(()),
        }
    }

    /// Node ids are `0..node_count()`.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The lexeme edges of `node`.
    pub fn edges(&self, node: u32) -> &[TrieEdge] {
        &self.edges[self.run(node, |n| n.edges_end)]
    }

    /// Classes ending at `node` that are viable on arrival.
    pub fn on_arrival(&self, node: u32) -> &[u32] {
        &self.classes[self.run(node, |n| n.on_arrival_end)]
    }

    /// Groups of classes ending at `node` that wait for the parser's next terminal.
    pub fn waiting(&self, node: u32) -> &[EndGroup] {
        &self.groups[self.run(node, |n| n.waiting_end)]
    }

    /// The union of `node`'s waiting groups' terminals, `None` when it has none.
    pub fn waiting_terminals(&self, node: u32) -> Option<&TerminalSet> {
        let set = self.nodes[node as usize].waiting_terminals;
        (set != TrieNode::NO_SET).then(|| &self.sets[set as usize])
    }

    /// The lexeme on `edge`.
    pub fn lexeme(&self, edge: &TrieEdge) -> &LexemeForms {
        &self.lexemes[edge.lexeme as usize]
    }

    /// The run of `node` in the list whose ends `end` gives.
    fn run(&self, node: u32, end: impl Fn(&TrieNode) -> u32) -> Range<usize> {
        let start = node.checked_sub(1).map_or(0, |previous| end(&self.nodes[previous as usize]));
        start as usize..end(&self.nodes[node as usize]) as usize
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

/// Whether `r` is a range of a list of `len` items.
fn within(r: &Range<u32>, len: usize) -> bool {
    r.start <= r.end && r.end as usize <= len
}

/// Lexemes of the row's longest class.
fn max_lexemes(row: &SpannerRow) -> usize {
    row.classes().iter().map(|c| c.lexemes.len()).max().unwrap_or(0)
}

/// `words` as records of `N` words each.
fn records<const N: usize, T>(words: &[u32], what: &str, record: impl Fn(&[u32; N]) -> T) -> Result<Vec<T>, String> {
    let chunks = words.chunks_exact(N);
    if !chunks.remainder().is_empty() {
        return Err(format!("{} words of {what}, not a multiple of {N}", words.len()));
    }
    Ok(chunks.map(|chunk| record(chunk.try_into().expect("N words"))).collect())
}

impl TrieNode {
    /// [`TrieNode::waiting_terminals`] of a node without waiting classes.
    const NO_SET: u32 = u32::MAX;
    const EMPTY: TrieNode = TrieNode { edges_end: 0, on_arrival_end: 0, waiting_end: 0, waiting_terminals: TrieNode::NO_SET };
}

/// Set the ends `end` gives of `nodes`' runs of a list whose items belong to `owners`,
/// in node order.
fn set_ends(nodes: &mut [TrieNode], owners: impl Iterator<Item = u32>, end: fn(&mut TrieNode) -> &mut u32) {
    owners.for_each(|node| *end(&mut nodes[node as usize]) += 1);
    let mut total = 0;
    for node in nodes {
        total += *end(node);
        *end(node) = total;
    }
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
    sets: Interner<TerminalSet>,
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
            sets: Interner::default(),
        }
    }

    /// A new child of `node` reached by `lexeme`.
    fn add_child(&mut self, node: u32, lexeme: &'a Lexeme) -> u32 {
        let (lexemes, capacity) = (&mut self.lexemes, self.capacity);
        let lexeme = *self.lexeme_ids.entry(lexeme).or_insert_with(|| {
            lexemes.push(LexemeForms::new(lexeme, capacity));
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
            EndKind::Waiting(self.sets.intern(&TerminalSet::with_ids(self.capacity, completable.iter())))
        };
        self.end_kinds[end.index()] = Some(kind);
        kind
    }

    fn finish(mut self, max_lexemes: usize) -> LexemeTrie {
        let mut nodes = vec![TrieNode::EMPTY; self.node_count as usize];
        set_ends(&mut nodes, self.edges.iter().map(|&(node, _)| node), |n| &mut n.edges_end);
        let edges = self.edges_by_node(&nodes);

        let mut classes = Vec::with_capacity(self.on_arrival.len() + self.waiting.len());
        // Stable sorts of lists pushed in class order, so classes stay ascending; on
        // sorted rows the nodes already are, and the sorts only check.
        self.on_arrival.sort_by_key(|&(node, _)| node);
        set_ends(&mut nodes, self.on_arrival.iter().map(|&(node, _)| node), |n| &mut n.on_arrival_end);
        classes.extend(self.on_arrival.iter().map(|&(_, class)| class));

        // Groups of a node are listed in the order of their terminals.
        let sets = self.sets.items();
        let mut rank: Vec<u32> = (0..sets.len() as u32).collect();
        rank.sort_by(|&a, &b| sets[a as usize].iter().cmp(sets[b as usize].iter()));
        let mut rank_of = vec![0u32; sets.len()];
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
        set_ends(&mut nodes, node_groups.iter().map(|&(node, _)| node), |n| &mut n.waiting_end);
        for_each_run(&node_groups, |&(node, _)| node, |node, run| {
            let mut union = TerminalSet::new(self.capacity);
            for &(_, group) in &node_groups[range(&run)] {
                union.union_with(&self.sets.items()[groups[group as usize].terminals as usize]);
            }
            nodes[node as usize].waiting_terminals = self.sets.intern(&union);
        });
        LexemeTrie { nodes, edges, groups, classes, lexemes: self.lexemes, sets: self.sets.into_items(), max_lexemes }
    }

    /// The edges laid out node after node (each node's in creation order), in the runs
    /// whose ends `nodes` hold: a counting sort by parent.
    fn edges_by_node(&self, nodes: &[TrieNode]) -> Vec<TrieEdge> {
        let mut next: Vec<u32> = std::iter::once(0).chain(nodes.iter().map(|n| n.edges_end)).collect();
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
