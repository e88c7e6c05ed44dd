//! The symbolic LR simulation behind each classifier transition.
//!
//! A *configuration* runs the lexemes of a [`LexemeTrie`] path on a stack whose top part
//! is known (states read from the real stack or pushed by the simulation) over an
//! unknown rest. When a reduction pops below what is known, the configuration *blocks*:
//! it needs the next state of the real stack. A blocked configuration forgets the known
//! part (it was popped) and keeps only what it will do with the states it reads:
//! skip `pops` of them, then take the `goto` on the next one. So blocked configurations
//! come from a finite set (trie nodes × phases × production lengths × nonterminals), and
//! sets of them are the states of the classifier's automaton (seed 000 §3.3–3.5).
//!
//! [`Simulator::read`] advances a set of blocked configurations by one state read from
//! the real stack: each configuration runs until it blocks again, dies, or decides
//! classes (they are viable whatever lies deeper). The simulation is the GLR parser's,
//! path by path:
//! * a lexeme with candidates `S` applies every reduction whose lookahead meets `S`,
//!   then shifts any terminal of `S`; a skippable lexeme may also leave the stack as it
//!   was before those reductions;
//! * a class ending at a node is viable when its end state can finish as an ignored
//!   terminal, or when, after reductions, one of the terminals its end state can still
//!   become can be shifted. The reductions tried there are those whose lookahead meets
//!   those terminals: an LR(1) (so LALR(1)) reduction on a viable stack before shifting
//!   `t` always has `t` in its lookahead, so this finds exactly the terminals the parser
//!   finds by trying every reduction (the equality is also enforced by the oracle tests).

use super::lexeme_trie::{LexemeTrie, ROOT};
use crate::ir::{NonterminalId, TerminalSet};
use crate::lr::{LrState, LrTables};
use hashbrown::{HashMap, HashSet};
use std::cell::RefCell;
use std::sync::OnceLock;

const NO_GOTO: u32 = u32::MAX;

/// What a configuration is doing at its trie node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub(crate) enum Phase {
    /// Just reached the node (or, blocked at the root, waiting for the stack top).
    Arrive,
    /// Reducing before the lexeme of edge `.0`, then shifting it.
    Consume(u32),
    /// Reducing before a terminal that ends one of the node's waiting classes.
    Final,
}

/// A configuration waiting for the next state of the real stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub(crate) struct Blocked {
    node: u32,
    phase: Phase,
    /// States of the real stack still to pop before the one to take the goto on.
    pops: u32,
    /// The nonterminal to take the goto on, or `NO_GOTO` for the start configuration
    /// (which reads the stack top).
    goto: u32,
}

impl Blocked {
    /// The configuration every mask starts from: at the root, reading the stack top.
    pub const START: Blocked = Blocked { node: ROOT, phase: Phase::Arrive, pops: 0, goto: NO_GOTO };

    /// States of the real stack it skips before the one it takes the goto on.
    pub fn pops(&self) -> u32 {
        self.pops
    }

    /// The configuration after skipping `n` more states (`n` at most [`Blocked::pops`]).
    pub fn after_skipping(&self, n: u32) -> Blocked {
        Blocked { pops: self.pops - n, ..*self }
    }

    /// Why this configuration cannot run on `trie` (it comes from outside, e.g. an
    /// artifact): a node or lexeme edge `trie` lacks, or a final phase at a node with no
    /// waiting classes. Any `pops` and `goto` are safe (an unknown goto finds no
    /// transition).
    pub fn check(&self, trie: &LexemeTrie) -> Result<(), String> {
        if self.node as usize >= trie.node_count() {
            return Err(format!("trie node {} of {}", self.node, trie.node_count()));
        }
        let edges = trie.edges(self.node).len();
        match self.phase {
            Phase::Arrive => Ok(()),
            Phase::Consume(edge) if (edge as usize) < edges => Ok(()),
            Phase::Consume(edge) => Err(format!("lexeme edge {edge} of trie node {} ({edges} edges)", self.node)),
            Phase::Final if trie.waiting_terminals(self.node).is_some() => Ok(()),
            Phase::Final => Err(format!("final phase at trie node {}, which has no waiting classes", self.node)),
        }
    }
}

/// Why a transition could not be built; the mask then takes the exact per-class path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overflow {
    /// The known stack grew past [`Limits::max_known`] (ε-reductions that push without
    /// popping, as hidden left recursion does).
    KnownStack,
    /// More than [`Limits::max_work`] configurations.
    Work,
}

/// Bounds on one transition.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub max_known: usize,
    pub max_work: usize,
}

/// The result of reading one state: the blocked configurations to continue with
/// (sorted, deduplicated) and the classes decided viable.
pub(crate) struct Step {
    pub next: Vec<Blocked>,
    pub accepted: Vec<u32>,
}

/// Runs configurations over one lexer state's trie.
pub(crate) struct Simulator<'a> {
    pub tables: &'a LrTables,
    pub trie: &'a LexemeTrie,
    /// Per LR state, the terminals it shifts (filled on first use).
    pub shiftable: &'a [OnceLock<TerminalSet>],
    pub limits: Limits,
}

/// A known stack part, as an id in [`Stacks`].
type Known = u32;

/// The known stack parts of one read, interned: a part is its top state over the part
/// below it, so pushing, popping and comparing parts take one lookup each, and a
/// configuration is three words that hash without touching its stack.
///
/// Most parts have only one part pushed on them: each holds its first child inline, and
/// only later children go through the hash table (hashing every push was a tenth of an
/// eager build).
struct Stacks {
    parts: Vec<Part>,
    /// The part [`Stacks::BOTTOM`]'s first child, as [`Part::child`].
    root: (LrState, Known),
    /// Children after a part's first.
    ids: HashMap<(Known, LrState), Known>,
}

impl Default for Stacks {
    fn default() -> Self {
        Stacks { parts: Vec::new(), root: NONE, ids: HashMap::new() }
    }
}

/// One known stack part.
struct Part {
    /// The part below (or [`Stacks::BOTTOM`]).
    below: Known,
    top: LrState,
    len: u32,
    /// The first part pushed on this one and its top state (`NONE` when none is).
    child: (LrState, Known),
}

/// No part: no child pushed yet.
const NONE: (LrState, Known) = (LrState(u32::MAX), u32::MAX);

impl Stacks {
    /// Below the lowest known state.
    const BOTTOM: Known = u32::MAX;

    fn clear(&mut self) {
        self.parts.clear();
        self.ids.clear();
        self.root = NONE;
    }

    /// The part `below` with `state` pushed.
    fn push(&mut self, below: Known, state: LrState) -> Known {
        let (len, first) = match below {
            Stacks::BOTTOM => (1, self.root),
            _ => (self.parts[below as usize].len + 1, self.parts[below as usize].child),
        };
        if first.0 == state {
            return first.1;
        }
        let next = self.parts.len() as Known;
        if first == NONE {
            match below {
                Stacks::BOTTOM => self.root = (state, next),
                _ => self.parts[below as usize].child = (state, next),
            }
        } else {
            match self.ids.entry((below, state)) {
                hashbrown::hash_map::Entry::Occupied(known) => return *known.get(),
                hashbrown::hash_map::Entry::Vacant(slot) => slot.insert(next),
            };
        }
        self.parts.push(Part { below, top: state, len, child: NONE });
        next
    }

    fn top(&self, known: Known) -> LrState {
        self.parts[known as usize].top
    }

    fn len(&self, known: Known) -> usize {
        self.parts[known as usize].len as usize
    }

    /// `known` with its top `n` states popped (`n` less than its length).
    fn pop(&self, mut known: Known, n: usize) -> Known {
        for _ in 0..n {
            known = self.parts[known as usize].below;
        }
        known
    }
}

/// The work lists of [`Simulator::read`], one per thread and kept between reads, so
/// that a warm transition build does not allocate them again (per thread rather than
/// per automaton: what they hold is dead once a read returns).
#[derive(Default)]
struct Scratch {
    stacks: Stacks,
    live: Vec<(u32, Phase, Known)>,
    seen: HashSet<(u32, Phase, Known)>,
    accepted: Accepted,
}

impl Scratch {
    /// Entries kept across reads; larger lists (one pathological transition) are freed.
    const KEEP: usize = 1 << 16;

    fn reset(&mut self) {
        let sizes = [self.seen.capacity(), self.live.capacity(), self.stacks.parts.capacity(), self.stacks.ids.capacity()];
        if sizes.iter().any(|&n| n > Scratch::KEEP) {
            *self = Scratch::default();
        } else {
            self.live.clear();
            self.seen.clear();
            self.stacks.clear();
            self.accepted.take();
        }
    }
}

/// The classes one read accepts, a bit per class of the row: the list comes out sorted
/// and without repeats in one pass over the words touched (sorting a list of them was a
/// tenth of an eager build: a read accepts a group's hundreds of classes, often along
/// several paths).
#[derive(Default)]
struct Accepted {
    bits: Vec<u64>,
    /// The words holding a bit: `low..high` (empty when `low >= high`).
    low: usize,
    high: usize,
}

impl Accepted {
    fn extend(&mut self, classes: &[u32]) {
        for &class in classes {
            let word = class as usize / 64;
            if word >= self.bits.len() {
                self.bits.resize(word + 1, 0);
            }
            self.bits[word] |= 1 << (class % 64);
            if self.low >= self.high {
                (self.low, self.high) = (word, word + 1);
            } else {
                (self.low, self.high) = (self.low.min(word), self.high.max(word + 1));
            }
        }
    }

    /// The classes accepted, ascending; none are left.
    fn take(&mut self) -> Vec<u32> {
        let mut classes = Vec::new();
        for word in self.low..self.high {
            let mut bits = std::mem::take(&mut self.bits[word]);
            while bits != 0 {
                classes.push((word * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
        (self.low, self.high) = (0, 0);
        classes
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

struct Run<'s> {
    scratch: &'s mut Scratch,
    next: Vec<Blocked>,
    work: usize,
}

impl Simulator<'_> {
    /// Advance `blocked` by reading `state` from the real stack.
    pub fn read(&self, blocked: &[Blocked], state: LrState) -> Result<Step, Overflow> {
        SCRATCH.with(|scratch| self.read_with(blocked, state, &mut scratch.borrow_mut()))
    }

    fn read_with(&self, blocked: &[Blocked], state: LrState, scratch: &mut Scratch) -> Result<Step, Overflow> {
        scratch.reset();
        let mut run = Run { scratch, next: Vec::new(), work: 0 };
        for &b in blocked {
            if b.pops > 0 {
                run.next.push(Blocked { pops: b.pops - 1, ..b });
            } else if b.goto == NO_GOTO {
                let known = run.scratch.stacks.push(Stacks::BOTTOM, state);
                run.push(b.node, b.phase, known);
            } else if let Some(g) = self.tables.goto(state, NonterminalId(b.goto)) {
                let below = run.scratch.stacks.push(Stacks::BOTTOM, state);
                let known = run.scratch.stacks.push(below, g);
                run.push(b.node, b.phase, known);
            }
        }
        while let Some((node, phase, known)) = run.scratch.live.pop() {
            run.work += 1;
            if run.work > self.limits.max_work {
                return Err(Overflow::Work);
            }
            if run.scratch.stacks.len(known) > self.limits.max_known {
                return Err(Overflow::KnownStack);
            }
            match phase {
                Phase::Arrive => self.arrive(&mut run, node, known),
                Phase::Consume(edge) => self.consume(&mut run, node, edge, known),
                Phase::Final => self.finish(&mut run, node, known),
            }
        }
        run.next.sort_unstable();
        run.next.dedup();
        Ok(Step { next: run.next, accepted: run.scratch.accepted.take() })
    }

    /// A configuration arriving at `node` goes on with each lexeme edge and, if classes
    /// wait there, with the final phase. Those steps run at once rather than through the
    /// work list: arrivals are deduplicated already, so they would never repeat from
    /// here (only reductions can repeat them, and those go through the list).
    fn arrive(&self, run: &mut Run, node: u32, known: Known) {
        run.scratch.accepted.extend(self.trie.on_arrival(node));
        let edges = self.trie.edges(node);
        for (i, edge) in edges.iter().enumerate() {
            if self.trie.lexeme(edge).skippable {
                run.push(edge.child, Phase::Arrive, known);
            }
            self.consume(run, node, i as u32, known);
        }
        run.work += edges.len();
        if !self.trie.waiting(node).is_empty() {
            run.work += 1;
            self.finish(run, node, known);
        }
    }

    fn consume(&self, run: &mut Run, node: u32, index: u32, known: Known) {
        let edge = &self.trie.edges(node)[index as usize];
        let lexeme = self.trie.lexeme(edge);
        let top = run.scratch.stacks.top(known);
        for &t in &lexeme.terminals {
            if let Some(next) = self.tables.shift(top, t) {
                let pushed = run.scratch.stacks.push(known, next);
                run.push(edge.child, Phase::Arrive, pushed);
            }
        }
        self.reduce(run, node, Phase::Consume(index), known, &lexeme.lookahead);
    }

    fn finish(&self, run: &mut Run, node: u32, known: Known) {
        let top = run.scratch.stacks.top(known);
        let shiftable = self.shiftable[top.index()].get_or_init(|| {
            TerminalSet::with_ids(self.tables.terminal_capacity(), self.tables.shifts(top).iter().map(|&(t, _)| t))
        });
        for group in self.trie.waiting(node) {
            if self.trie.group_terminals(group).intersects(shiftable) {
                run.scratch.accepted.extend(self.trie.group_classes(group));
            }
        }
        let waiting = self.trie.waiting_terminals(node).expect("a node in the final phase has waiting classes");
        self.reduce(run, node, Phase::Final, known, waiting);
    }

    /// Apply every reduction of the top state whose lookahead meets `lookahead`.
    fn reduce(&self, run: &mut Run, node: u32, phase: Phase, known: Known, lookahead: &TerminalSet) {
        let (top, known_len) = (run.scratch.stacks.top(known), run.scratch.stacks.len(known));
        for r in self.tables.reductions(top) {
            if !r.lookahead.intersects(lookahead) {
                continue;
            }
            let len = self.tables.production_len(r.production);
            let lhs = self.tables.production_lhs(r.production);
            if len < known_len {
                let base = run.scratch.stacks.pop(known, len);
                if let Some(g) = self.tables.goto(run.scratch.stacks.top(base), lhs) {
                    let reduced = run.scratch.stacks.push(base, g);
                    run.push(node, phase, reduced);
                }
            } else {
                run.next.push(Blocked { node, phase, pops: (len - known_len) as u32, goto: lhs.0 });
            }
        }
    }
}

impl Run<'_> {
    fn push(&mut self, node: u32, phase: Phase, known: Known) {
        if self.scratch.seen.insert((node, phase, known)) {
            self.scratch.live.push((node, phase, known));
        }
    }
}
