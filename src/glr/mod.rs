//! GLR parsing over a graph-structured stack (GSS).
//!
//! Boundary: takes [`LrTables`] and a stream of *lexemes*, each a set of candidate
//! terminals (the lexer reports every terminal matching the lexeme; an `%ignore`d
//! candidate means "or skip it"). [`Parser::consume`] advances every live stack at once;
//! [`Parser::checkpoint`]/[`Parser::restore`] undo any number of steps; the GSS is exposed
//! read-only ([`Parser::heads`], [`Parser::node_state`], [`Parser::node_parents`]) for the
//! mask stages, which read stacks top-down as sequences of [`LrState`] ids.
//!
//! # The algorithm
//!
//! Tomita's GLR with one node per (level, LR state), so that stacks sharing a state at a
//! level share a node ("local ambiguity packing") and the GSS has at most
//! `levels × states` nodes whatever the number of parses. A level is processed in two
//! phases:
//!
//! 1. **Reduce** to a fixed point: every node of the level applies every reduction whose
//!    lookahead meets the lexeme's candidates, along every path of the production's length
//!    (paths may run through ε-edges inside the level). When an edge is added to a node
//!    that already existed, paths through it may have been missed, so the pass repeats
//!    until a pass adds no such edge. This handles ε-rules, hidden left recursion and
//!    cycles without the special cases of naive Tomita.
//! 2. **Shift** each candidate terminal from every node of the level into the next level.
//!
//! Nodes and edges live in append-only arenas; adding an edge to an existing node is
//! logged, so restoring a checkpoint is a truncation plus an undo of the log.
//!
//! # Example
//! ```
//! use stackmask::{Grammar, lr::{LrTables, LrConfig}, glr::{Parser, GlrConfig}};
//! let g = Grammar::from_lark(r#"
//!     start: e
//!     e: e "+" e | NUM
//!     NUM: /[0-9]/
//! "#).unwrap();
//! let tables = LrTables::new(&g, &LrConfig::default()).unwrap();
//! let id = |name: &str| g.terminals.iter().position(|t| t.name == name).unwrap() as u32;
//! let (num, plus) = (stackmask::ir::TerminalId(id("NUM")), stackmask::ir::TerminalId(id("PLUS")));
//! let mut p = Parser::new(&GlrConfig::default());
//! for t in [num, plus, num, plus, num] {
//!     assert!(p.consume(&tables, &[t], false).unwrap());
//! }
//! assert!(p.accepts_end(&tables).unwrap());
//! // "1+1+1+" is a viable prefix but not a sentence; "1+1+1++" is not even a prefix.
//! assert!(p.consume(&tables, &[plus], false).unwrap());
//! assert!(!p.accepts_end(&tables).unwrap());
//! assert!(!p.consume(&tables, &[plus], false).unwrap());
//! ```

use crate::error::{Error, LimitKind, Result};
use crate::ir::{TerminalId, TerminalSet};
use crate::lr::{LrState, LrTables};
use replay::{Outcome, Replays, Step, StepKey};
use smallvec::SmallVec;

const NO_EDGE: u32 = u32::MAX;

/// Limits for the GLR runtime.
///
/// # Example
/// ```
/// let config = stackmask::glr::GlrConfig { max_nodes_per_step: 1_000, ..Default::default() };
/// assert_eq!(config.max_nodes_per_step, 1_000);
/// ```
#[derive(Clone, Debug)]
pub struct GlrConfig {
    /// Maximum GSS nodes created while consuming one lexeme ([`Error::Limit`] beyond).
    pub max_nodes_per_step: usize,
    /// Maximum GSS edges followed or scanned by the reductions before one lexeme (or one
    /// viability question) ([`Error::Limit`] beyond). On ambiguous grammars the reductions
    /// of one step can cost a polynomial in the length of the text; this bounds the time of
    /// one step.
    pub max_work_per_step: usize,
}

impl Default for GlrConfig {
    fn default() -> Self {
        GlrConfig { max_nodes_per_step: 100_000, max_work_per_step: 10_000_000 }
    }
}

/// A GSS node id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The id as a `usize` index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug)]
struct Node {
    state: LrState,
    first_edge: u32,
}

#[derive(Clone, Debug)]
struct Edge {
    target: u32,
    next: u32,
}

/// A saved parser position; [`Parser::restore`] returns to it.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    nodes: u32,
    edges: u32,
    undo: u32,
    level_start: u32,
    heads: SmallVec<[u32; 4]>,
    generation: Generation,
}

/// Names the content of a parser's GSS: equal generations, equal GSS. A parser moved by
/// [`Parser::consume`] takes a generation no parser has had before, and
/// [`Parser::restore`] takes back the checkpoint's, so a clone and its original agree
/// until one of them moves.
///
/// # Example
/// ```
/// use stackmask::glr::{GlrConfig, Parser};
/// let p = Parser::new(&GlrConfig::default());
/// assert_eq!(p.generation(), p.clone().generation());
/// assert_ne!(p.generation(), Parser::new(&GlrConfig::default()).generation());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Generation(u64);

impl Generation {
    /// Generations a thread takes from the shared counter at a time, so that parsers on
    /// many threads do not all write one counter at every step.
    const BLOCK: u64 = 1 << 16;

    fn fresh() -> Generation {
        static TAKEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        thread_local! {
            /// The next generation of this thread's block, and the block's end.
            static BLOCK: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
        }
        BLOCK.with(|block| {
            let (mut next, mut end) = block.get();
            if next == end {
                next = TAKEN.fetch_add(Generation::BLOCK, std::sync::atomic::Ordering::Relaxed);
                end = next + Generation::BLOCK;
            }
            block.set((next + 1, end));
            Generation(next)
        })
    }
}

/// The state of one GLR parse: a graph-structured stack and its heads.
#[derive(Clone, Debug)]
pub struct Parser {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// `(node, previous first_edge)` for every edge added to a node.
    undo: Vec<(u32, u32)>,
    level_start: u32,
    heads: SmallVec<[u32; 4]>,
    generation: Generation,
    replays: Replays,
    max_nodes_per_step: usize,
    max_work_per_step: usize,
    /// Edges followed or scanned since the current reduction phase began.
    work: usize,
}

impl Parser {
    /// A parser at the start of input: one stack holding [`LrState::INITIAL`].
    pub fn new(config: &GlrConfig) -> Parser {
        Parser {
            nodes: vec![Node { state: LrState::INITIAL, first_edge: NO_EDGE }],
            edges: Vec::new(),
            undo: Vec::new(),
            level_start: 0,
            heads: SmallVec::from_slice(&[0]),
            generation: Generation::fresh(),
            replays: Replays::default(),
            max_nodes_per_step: config.max_nodes_per_step,
            max_work_per_step: config.max_work_per_step,
            work: 0,
        }
    }

    /// Save the current position.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            nodes: self.nodes.len() as u32,
            edges: self.edges.len() as u32,
            undo: self.undo.len() as u32,
            level_start: self.level_start,
            heads: SmallVec::from_slice(&self.heads),
            generation: self.generation,
        }
    }

    /// Return to a position saved by [`Parser::checkpoint`] on this parser. Checkpoints
    /// taken after it become invalid.
    ///
    /// Nothing is done when the GSS is still of the checkpoint's [`Generation`], as after
    /// a failed [`Parser::consume`] or a viability question.
    pub fn restore(&mut self, cp: &Checkpoint) {
        if self.generation != cp.generation {
            self.rewind(cp);
        }
    }

    /// Return to `cp` unconditionally: also in the middle of a step, before the
    /// generation changes.
    fn rewind(&mut self, cp: &Checkpoint) {
        while self.undo.len() > cp.undo as usize {
            let (node, previous) = self.undo.pop().expect("undo entry");
            if node < cp.nodes {
                self.nodes[node as usize].first_edge = previous;
            }
        }
        self.nodes.truncate(cp.nodes as usize);
        self.edges.truncate(cp.edges as usize);
        self.level_start = cp.level_start;
        self.heads.clear();
        self.heads.extend_from_slice(&cp.heads);
        self.generation = cp.generation;
    }

    /// The generation of the GSS as it is now.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, lr::{LrTables, LrConfig}, glr::{Parser, GlrConfig}};
    /// let g = Grammar::from_lark("start: A B\nA: \"a\"\nB: \"b\"").unwrap();
    /// let t = LrTables::new(&g, &LrConfig::default()).unwrap();
    /// let a = stackmask::ir::TerminalId(g.terminals.iter().position(|t| t.name == "A").unwrap() as u32);
    /// let mut p = Parser::new(&GlrConfig::default());
    /// let (start, cp) = (p.generation(), p.checkpoint());
    /// assert!(p.consume(&t, &[a], false).unwrap());
    /// assert_ne!(p.generation(), start);
    /// p.restore(&cp);
    /// assert_eq!(p.generation(), start);
    /// ```
    pub fn generation(&self) -> Generation {
        self.generation
    }

    /// Consume one lexeme whose candidate terminals are `terminals`; with `skippable`
    /// the lexeme may also be ignored (one of its candidates is `%ignore`d).
    ///
    /// Returns `Ok(false)`, leaving the parser unchanged, when no stack survives.
    pub fn consume(&mut self, tables: &LrTables, terminals: &[TerminalId], skippable: bool) -> Result<bool> {
        if terminals.is_empty() {
            return Ok(skippable);
        }
        if !self.replays.enabled() {
            return self.step(tables, terminals, skippable);
        }
        let key = StepKey { from: self.generation, terminals: SmallVec::from_slice(terminals), skippable };
        let replays = std::mem::take(&mut self.replays);
        let replayed = replays.get(&key).map(|outcome| match outcome {
            Outcome::Rejected => false,
            Outcome::Taken(step) => {
                self.redo(step);
                true
            }
        });
        self.replays = replays;
        if let Some(taken) = replayed {
            return Ok(taken);
        }
        let cp = self.checkpoint();
        let taken = self.step(tables, terminals, skippable)?;
        let outcome = if taken { Outcome::Taken(self.step_since(&cp)) } else { Outcome::Rejected };
        self.replays.insert(key, outcome);
        Ok(taken)
    }

    /// Keep the outcomes of up to `capacity` [`Parser::consume`] steps and replay them
    /// when the same step is asked for again from the same GSS (the same
    /// [`Generation`]), instead of running its reductions again; 0 (the default) keeps
    /// none. For callers that try many continuations from one position, each after
    /// restoring it, as the reference mask does: the outcome is the same either way.
    ///
    /// The steps replayed are those of the [`LrTables`] the parser consumes with; a
    /// parser keeping steps must be used with one set of tables.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, lr::{LrTables, LrConfig}, glr::{Parser, GlrConfig}};
    /// let g = Grammar::from_lark("start: A B\nA: \"a\"\nB: \"b\"").unwrap();
    /// let t = LrTables::new(&g, &LrConfig::default()).unwrap();
    /// let a = stackmask::ir::TerminalId(g.terminals.iter().position(|t| t.name == "A").unwrap() as u32);
    /// let mut p = Parser::new(&GlrConfig::default());
    /// p.keep_steps(16);
    /// let cp = p.checkpoint();
    /// assert!(p.consume(&t, &[a], false).unwrap());
    /// let after = p.generation();
    /// p.restore(&cp);
    /// assert!(p.consume(&t, &[a], false).unwrap()); // replayed
    /// assert_eq!(p.generation(), after);
    /// assert!(!p.consume(&t, &[a], false).unwrap());
    /// ```
    pub fn keep_steps(&mut self, capacity: usize) {
        self.replays = Replays::with_capacity(capacity);
    }

    /// [`Parser::consume`]'s reductions and shifts.
    fn step(&mut self, tables: &LrTables, terminals: &[TerminalId], skippable: bool) -> Result<bool> {
        let cp = self.checkpoint();
        let lookahead = TerminalSet::with_ids(tables.terminal_capacity(), terminals.iter().copied());
        let outcome = self.reduce_level(tables, &lookahead).and_then(|()| self.shift_level(tables, terminals, &cp, skippable));
        match outcome {
            Ok(true) => {
                self.generation = Generation::fresh();
                Ok(true)
            }
            Ok(false) => {
                self.rewind(&cp);
                Ok(false)
            }
            Err(e) => {
                self.rewind(&cp);
                Err(e)
            }
        }
    }

    /// What the arenas gained since `cp`, a position this parser has moved on from by
    /// one step.
    fn step_since(&self, cp: &Checkpoint) -> Step {
        let undo = &self.undo[cp.undo as usize..];
        let relinked = undo
            .iter()
            .filter(|&&(node, _)| node < cp.nodes)
            .map(|&(node, _)| (node, self.nodes[node as usize].first_edge))
            .collect();
        Step {
            nodes: self.nodes[cp.nodes as usize..].into(),
            edges: self.edges[cp.edges as usize..].into(),
            undo: undo.into(),
            relinked,
            level_start: self.level_start,
            heads: self.heads.clone(),
            to: self.generation,
        }
    }

    /// Take again a step recorded from the GSS the parser has now.
    fn redo(&mut self, step: &Step) {
        self.nodes.extend_from_slice(&step.nodes);
        self.edges.extend_from_slice(&step.edges);
        self.undo.extend_from_slice(&step.undo);
        // A state of an LR automaton has one accessing symbol, so a step's reductions
        // never reach the old heads (entered by terminals) and this is empty in practice;
        // it is kept so that a replay does not rest on that.
        for &(node, first_edge) in step.relinked.iter() {
            self.nodes[node as usize].first_edge = first_edge;
        }
        self.level_start = step.level_start;
        self.heads.clone_from(&step.heads);
        self.generation = step.to;
    }

    /// The terminals among `candidates` (which may include [`LrTables::end`]) that some
    /// stack can consume next. Leaves the parser unchanged.
    pub fn viable_terminals(&mut self, tables: &LrTables, candidates: &TerminalSet) -> Result<TerminalSet> {
        let cp = self.checkpoint();
        let result = self.reduce_level(tables, candidates).map(|()| {
            let mut viable = TerminalSet::new(tables.terminal_capacity());
            for v in self.level_start..self.nodes.len() as u32 {
                let state = self.nodes[v as usize].state;
                for &(t, _) in tables.shifts(state) {
                    if candidates.contains(t) {
                        viable.insert(t);
                    }
                }
                if tables.is_accepting(state) && candidates.contains(tables.end()) {
                    viable.insert(tables.end());
                }
            }
            viable
        });
        self.rewind(&cp);
        result
    }

    /// Whether the input consumed so far is a complete sentence.
    pub fn accepts_end(&mut self, tables: &LrTables) -> Result<bool> {
        let mut end = TerminalSet::new(tables.terminal_capacity());
        end.insert(tables.end());
        Ok(!self.viable_terminals(tables, &end)?.is_empty())
    }

    /// The nodes on top of the live stacks.
    pub fn heads(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.heads.iter().map(|&h| NodeId(h))
    }

    /// The LR state of a node.
    pub fn node_state(&self, node: NodeId) -> LrState {
        self.nodes[node.index()].state
    }

    /// The nodes directly below `node` (one per distinct stack continuation).
    pub fn node_parents(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut e = self.nodes[node.index()].first_edge;
        std::iter::from_fn(move || {
            (e != NO_EDGE).then(|| {
                let edge = &self.edges[e as usize];
                e = edge.next;
                NodeId(edge.target)
            })
        })
    }

    /// Total nodes in the GSS, over all levels kept for rollback.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Nodes in the current level (heads plus the reductions computed from them).
    pub fn level_node_count(&self) -> usize {
        self.nodes.len() - self.level_start as usize
    }

    fn reduce_level(&mut self, tables: &LrTables, lookahead: &TerminalSet) -> Result<()> {
        let step_start = self.nodes.len();
        self.work = 0;
        loop {
            let mut dirty = false;
            let mut v = self.level_start as usize;
            while v < self.nodes.len() {
                let state = self.nodes[v].state;
                for r in tables.reductions(state) {
                    if !r.lookahead.intersects(lookahead) {
                        continue;
                    }
                    let lhs = tables.production_lhs(r.production);
                    for u in self.path_ends(v as u32, tables.production_len(r.production)) {
                        let Some(target) = tables.goto(self.nodes[u as usize].state, lhs) else { continue };
                        let (w, created) = self.find_or_create(self.level_start as usize, target, step_start)?;
                        if self.add_edge(w, u) && !created {
                            dirty = true;
                        }
                    }
                    self.check_work()?;
                }
                v += 1;
            }
            if !dirty {
                return Ok(());
            }
        }
    }

    fn shift_level(
        &mut self,
        tables: &LrTables,
        terminals: &[TerminalId],
        cp: &Checkpoint,
        skippable: bool,
    ) -> Result<bool> {
        let next_level = self.nodes.len();
        for v in self.level_start as usize..next_level {
            let state = self.nodes[v].state;
            for &t in terminals {
                if let Some(target) = tables.shift(state, t) {
                    let (w, _) = self.find_or_create(next_level, target, cp.nodes as usize)?;
                    self.add_edge(w, v as u32);
                }
            }
        }
        if skippable {
            for &h in &cp.heads {
                let (w, _) = self.find_or_create(next_level, self.nodes[h as usize].state, cp.nodes as usize)?;
                let parents: SmallVec<[u32; 4]> = self.node_parents(NodeId(h)).map(|n| n.0).collect();
                for p in parents {
                    self.add_edge(w, p);
                }
            }
        }
        if self.nodes.len() == next_level {
            return Ok(false);
        }
        self.level_start = next_level as u32;
        self.heads = (next_level as u32..self.nodes.len() as u32).collect();
        Ok(true)
    }

    /// The distinct nodes reached by following exactly `len` edges from `from`.
    ///
    /// Each (node, edges left) pair is expanded once: with ε-rules and ambiguity a node
    /// has parents on many levels, and enumerating paths instead of pairs would cost
    /// `O(n^len)`. The edges followed count as work.
    fn path_ends(&mut self, from: u32, len: usize) -> SmallVec<[u32; 4]> {
        let mut ends: SmallVec<[u32; 4]> = SmallVec::new();
        let mut stack: SmallVec<[(u32, usize); 8]> = SmallVec::new();
        let mut seen: SmallVec<[(u32, usize); 16]> = SmallVec::new();
        stack.push((from, len));
        while let Some((node, left)) = stack.pop() {
            if left == 0 {
                if !ends.contains(&node) {
                    ends.push(node);
                }
                continue;
            }
            if len > 1 {
                if seen.contains(&(node, left)) {
                    continue;
                }
                seen.push((node, left));
            }
            let mut e = self.nodes[node as usize].first_edge;
            while e != NO_EDGE {
                let edge = &self.edges[e as usize];
                stack.push((edge.target, left - 1));
                e = edge.next;
                self.work += 1;
            }
        }
        ends
    }

    /// [`Error::Limit`] once the reductions of this step visited too many edges.
    fn check_work(&self) -> Result<()> {
        if self.work <= self.max_work_per_step {
            return Ok(());
        }
        Err(Error::Limit { kind: LimitKind::GssWorkPerStep, value: self.work, limit: self.max_work_per_step })
    }

    /// The node of `state` among the nodes from `level_start` on, created if absent.
    fn find_or_create(&mut self, level_start: usize, state: LrState, step_start: usize) -> Result<(u32, bool)> {
        if let Some(i) = self.nodes[level_start..].iter().position(|n| n.state == state) {
            return Ok(((level_start + i) as u32, false));
        }
        let created = self.nodes.len() - step_start;
        if created >= self.max_nodes_per_step {
            return Err(Error::Limit {
                kind: LimitKind::GssNodesPerStep,
                value: created + 1,
                limit: self.max_nodes_per_step,
            });
        }
        self.nodes.push(Node { state, first_edge: NO_EDGE });
        Ok(((self.nodes.len() - 1) as u32, true))
    }

    /// Add the edge `from → to` unless present; returns whether it was added. Counts the
    /// edges scanned as work.
    fn add_edge(&mut self, from: u32, to: u32) -> bool {
        let mut scanned = 0;
        let present = self.node_parents(NodeId(from)).any(|p| {
            scanned += 1;
            p.0 == to
        });
        self.work += scanned;
        if present {
            return false;
        }
        let previous = self.nodes[from as usize].first_edge;
        self.edges.push(Edge { target: to, next: previous });
        self.nodes[from as usize].first_edge = (self.edges.len() - 1) as u32;
        self.undo.push((from, previous));
        true
    }
}

mod replay;
#[cfg(test)]
mod tests;
