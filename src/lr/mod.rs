//! LR tables: the LR(0) automaton of a grammar with LALR(1) lookaheads.
//!
//! Boundary: takes an [`ir::Grammar`](crate::ir::Grammar), returns [`LrTables`]: per
//! LR state its shifts, gotos and lookahead-guarded reductions. A conflict is not an
//! error: the table keeps every action and the GLR runtime ([`crate::glr`]) pursues all
//! of them. Stack symbols everywhere else in the crate are these [`LrState`] ids.
//!
//! # Why LALR(1)
//!
//! GLR is correct over any LR automaton; the lookaheads only decide how many dead
//! branches it forks. LALR(1) has exactly as many states as LR(0) (the stack classifier
//! built on top is sized by states) while pruning nearly all of the reductions LR(0)
//! or SLR would attempt. Canonical LR(1) multiplies the states, which the classifier
//! would pay for, for almost no fewer forks. Lookaheads are computed with the
//! spontaneous-generation/propagation method (Aho, Lam, Sethi, Ullman §4.7.5).
//!
//! # Example
//! ```
//! use stackmask::{Grammar, lr::{LrTables, LrConfig}};
//! // Not LR(1): the table keeps the shift/reduce conflicts.
//! let g = Grammar::from_lark(r#"
//!     start: e
//!     e: e "+" e | NUM
//!     NUM: /[0-9]+/
//! "#).unwrap();
//! let tables = LrTables::new(&g, &LrConfig::default()).unwrap();
//! assert!(tables.conflict_count() > 0);
//! ```

mod goto_table;

use crate::error::{Deadline, Error, LimitKind, Result};
use crate::fold_hash::fold_hash;
use crate::ir::{Grammar, NonterminalId, ProductionId, Symbol, TerminalId, TerminalSet};
use goto_table::GotoTable;
use hashbrown::HashTable;
use std::time::Duration;

/// A state of the LR automaton; the symbols of the parse stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct LrState(pub u32);

impl LrState {
    /// The initial state (empty stack).
    pub const INITIAL: LrState = LrState(0);

    /// The id as a `usize` index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A reduction available in some state when the lookahead is in `lookahead`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reduction {
    /// The production reduced.
    pub production: ProductionId,
    /// Terminals (and [`LrTables::end`]) after which this reduction may apply.
    pub lookahead: TerminalSet,
}

/// Limits for building [`LrTables`].
///
/// # Example
/// ```
/// let config = stackmask::lr::LrConfig { max_states: 50_000, ..Default::default() };
/// assert_eq!(config.max_states, 50_000);
/// ```
#[derive(Clone, Debug)]
pub struct LrConfig {
    /// Maximum number of LR states; exceeding it is [`Error::Limit`].
    pub max_states: usize,
    /// Wall-clock budget for building the tables, checked per state in every phase;
    /// exceeding it is [`Error::Limit`] with [`LimitKind::CompileTime`]. `None`: no budget.
    pub time_budget: Option<Duration>,
}

impl Default for LrConfig {
    fn default() -> Self {
        LrConfig { max_states: 200_000, time_budget: Some(Duration::from_secs(10)) }
    }
}

/// LALR(1) tables with conflicts kept. Immutable and `Send + Sync`.
///
/// They serialize (artifacts fingerprint them) but are never read back: an artifact
/// compiles them again from the grammar IR.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LrTables {
    terminal_count: usize,
    production_len: Vec<u32>,
    production_lhs: Vec<NonterminalId>,
    shifts: Vec<Vec<(TerminalId, LrState)>>,
    gotos: Vec<Vec<(NonterminalId, LrState)>>,
    reductions: Vec<Vec<Reduction>>,
    accepting: Vec<bool>,
    conflicts: usize,
    /// `gotos` packed for constant-time lookups (derived from them, so not serialized).
    #[serde(skip)]
    goto_table: GotoTable,
}

impl LrTables {
    /// Build the LALR(1) tables of `grammar`.
    pub fn new(grammar: &Grammar, config: &LrConfig) -> Result<LrTables> {
        LrTables::within(grammar, config, &Deadline::unlimited())
    }

    /// [`LrTables::new`] as one stage of a compile bounded by `compile`.
    pub(crate) fn within(grammar: &Grammar, config: &LrConfig, compile: &Deadline) -> Result<LrTables> {
        let deadline = compile.stage(config.time_budget);
        let analysis = Analysis::new(grammar);
        let automaton = Lr0::new(&analysis, config, &deadline)?;
        let lookaheads = automaton.lalr_lookaheads(&analysis, &deadline)?;
        automaton.into_tables(&analysis, &lookaheads, &deadline)
    }

    /// The pseudo-terminal "end of input"; its id is one past the last real terminal.
    pub fn end(&self) -> TerminalId {
        TerminalId(self.terminal_count as u32)
    }

    /// Capacity of terminal sets that include [`LrTables::end`].
    pub fn terminal_capacity(&self) -> usize {
        self.terminal_count + 1
    }

    /// Number of LR states.
    pub fn state_count(&self) -> usize {
        self.shifts.len()
    }

    /// The state reached by shifting terminal `t` in state `s`, if any.
    #[inline]
    pub fn shift(&self, s: LrState, t: TerminalId) -> Option<LrState> {
        let row = &self.shifts[s.index()];
        row.binary_search_by_key(&t, |&(x, _)| x).ok().map(|i| row[i].1)
    }

    /// Every shift of state `s`, sorted by terminal.
    pub fn shifts(&self, s: LrState) -> &[(TerminalId, LrState)] {
        &self.shifts[s.index()]
    }

    /// The state reached after reducing to nonterminal `n` on top of state `s`.
    #[inline]
    pub fn goto(&self, s: LrState, n: NonterminalId) -> Option<LrState> {
        self.goto_table.get(s, n)
    }

    /// Every goto of state `s`, sorted by nonterminal.
    pub fn gotos(&self, s: LrState) -> &[(NonterminalId, LrState)] {
        &self.gotos[s.index()]
    }

    /// The reductions of state `s` with their lookaheads.
    #[inline]
    pub fn reductions(&self, s: LrState) -> &[Reduction] {
        &self.reductions[s.index()]
    }

    /// Whether state `s` accepts at end of input (it holds `start' → start ·`).
    #[inline]
    pub fn is_accepting(&self, s: LrState) -> bool {
        self.accepting[s.index()]
    }

    /// Length of a production's right-hand side.
    #[inline]
    pub fn production_len(&self, p: ProductionId) -> usize {
        self.production_len[p.index()] as usize
    }

    /// Left-hand side of a production.
    #[inline]
    pub fn production_lhs(&self, p: ProductionId) -> NonterminalId {
        self.production_lhs[p.index()]
    }

    /// The tables with their gotos indexed (once every state's gotos are in).
    fn with_goto_table(mut self) -> LrTables {
        self.goto_table = GotoTable::new(&self.gotos);
        self
    }

    /// Number of (state, lookahead) cells holding more than one action.
    pub fn conflict_count(&self) -> usize {
        self.conflicts
    }
}

/// An LR(0) item: a production and a dot position. The augmented production
/// `start' → start` has id `productions.len()`.
type Item = (u32, u32);

/// Terminal sets as rows of equal width in one vector: the construction makes one per
/// kernel item and per closure, millions on large grammars, so none is allocated alone.
struct Rows {
    words: usize,
    bits: Vec<u64>,
}

impl Rows {
    fn new(rows: usize, words: usize) -> Rows {
        Rows { words, bits: vec![0; rows * words] }
    }

    fn row(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }

    fn row_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.bits[i * self.words..(i + 1) * self.words]
    }

    fn insert(&mut self, i: usize, t: TerminalId) {
        self.row_mut(i)[t.index() / 64] |= 1 << (t.index() % 64);
    }

    /// Adds row `from` to row `to`; whether it grew.
    fn union_rows(&mut self, from: usize, to: usize) -> bool {
        if from == to {
            return false;
        }
        let w = self.words;
        let (src, dst) = if from < to {
            let (lo, hi) = self.bits.split_at_mut(to * w);
            (&lo[from * w..(from + 1) * w], &mut hi[..w])
        } else {
            let (lo, hi) = self.bits.split_at_mut(from * w);
            (&hi[..w], &mut lo[to * w..(to + 1) * w])
        };
        or_into(dst, src)
    }
}

/// `dst |= src`; whether `dst` grew.
fn or_into(dst: &mut [u64], src: &[u64]) -> bool {
    let mut grew = false;
    for (d, &s) in dst.iter_mut().zip(src) {
        grew |= s & !*d != 0;
        *d |= s;
    }
    grew
}

fn contains(row: &[u64], t: TerminalId) -> bool {
    row[t.index() / 64] & (1 << (t.index() % 64)) != 0
}

/// Grammar facts the construction needs: right-hand sides (augmented), nullable, FIRST.
struct Analysis<'g> {
    grammar: &'g Grammar,
    /// Right-hand sides; the last one is the augmented `start' → start`.
    rhs: Vec<Vec<Symbol>>,
    productions_of: Vec<Vec<u32>>,
    nullable: Vec<bool>,
    /// FIRST of each nonterminal.
    first: Rows,
    /// FIRST of each right-hand side after its first symbol, and whether that tail is
    /// nullable: what an item `A → ·B β` added by a closure passes on to `B`'s items.
    tail_first: Rows,
    tail_nullable: Vec<bool>,
    /// Per nonterminal: whether the closure of an item with it after the dot holds an
    /// empty production (whose reduction the state then has).
    closes_over_empty: Vec<bool>,
    /// Row width of terminal sets: terminals, end of input, and the propagation marker.
    words: usize,
}

impl<'g> Analysis<'g> {
    fn new(grammar: &'g Grammar) -> Analysis<'g> {
        let mut rhs: Vec<Vec<Symbol>> = grammar.productions.iter().map(|p| p.rhs.clone()).collect();
        rhs.push(vec![Symbol::Nonterminal(grammar.start)]);
        let mut productions_of = vec![Vec::new(); grammar.nonterminals.len()];
        for (i, p) in grammar.productions.iter().enumerate() {
            productions_of[p.lhs.index()].push(i as u32);
        }
        let words = (grammar.terminals.len() + 2).div_ceil(64);
        let nullable = grammar.nullable();
        let first = first_sets(grammar, &nullable, words);
        let closes_over_empty = closes_over_empty(grammar);
        let mut analysis = Analysis {
            grammar,
            rhs,
            productions_of,
            nullable,
            first,
            tail_first: Rows::new(0, words),
            tail_nullable: Vec::new(),
            closes_over_empty,
            words,
        };
        let mut tail_first = Rows::new(analysis.rhs.len(), words);
        let tail_nullable =
            (0..analysis.rhs.len()).map(|p| analysis.first_of_suffix(p as u32, 1, tail_first.row_mut(p))).collect();
        analysis.tail_first = tail_first;
        analysis.tail_nullable = tail_nullable;
        analysis
    }

    fn end(&self) -> TerminalId {
        TerminalId(self.grammar.terminals.len() as u32)
    }

    fn marker(&self) -> TerminalId {
        TerminalId(self.grammar.terminals.len() as u32 + 1)
    }

    fn augmented(&self) -> u32 {
        (self.rhs.len() - 1) as u32
    }

    fn symbol_after_dot(&self, (p, dot): Item) -> Option<Symbol> {
        self.rhs[p as usize].get(dot as usize).copied()
    }

    /// Writes FIRST of `rhs[p][from..]` into `out` (one row wide); whether that suffix
    /// is nullable.
    fn first_of_suffix(&self, p: u32, from: u32, out: &mut [u64]) -> bool {
        out.fill(0);
        for sym in self.rhs[p as usize].iter().skip(from as usize) {
            match *sym {
                Symbol::Terminal(t) => {
                    out[t.index() / 64] |= 1 << (t.index() % 64);
                    return false;
                }
                Symbol::Nonterminal(n) => {
                    or_into(out, self.first.row(n.index()));
                    if !self.nullable[n.index()] {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Index of a symbol among terminals then nonterminals.
    fn symbol_key(&self, sym: Symbol) -> usize {
        match sym {
            Symbol::Terminal(t) => t.index(),
            Symbol::Nonterminal(n) => self.grammar.terminals.len() + n.index(),
        }
    }

    fn symbol_count(&self) -> usize {
        self.grammar.terminals.len() + self.grammar.nonterminals.len()
    }
}

/// FIRST sets by a worklist: a nonterminal's set flows to the left-hand sides of the
/// productions it can begin.
fn first_sets(grammar: &Grammar, nullable: &[bool], words: usize) -> Rows {
    let count = grammar.nonterminals.len();
    let mut first = Rows::new(count, words);
    let mut begins: Vec<Vec<u32>> = vec![Vec::new(); count];
    for p in &grammar.productions {
        for sym in &p.rhs {
            match *sym {
                Symbol::Terminal(t) => {
                    first.insert(p.lhs.index(), t);
                    break;
                }
                Symbol::Nonterminal(n) => {
                    if n != p.lhs {
                        begins[n.index()].push(p.lhs.0);
                    }
                    if !nullable[n.index()] {
                        break;
                    }
                }
            }
        }
    }
    let mut queue: Vec<u32> = (0..count as u32).collect();
    let mut queued = vec![true; count];
    while let Some(n) = queue.pop() {
        queued[n as usize] = false;
        for &lhs in &begins[n as usize] {
            if first.union_rows(n as usize, lhs as usize) && !std::mem::replace(&mut queued[lhs as usize], true) {
                queue.push(lhs);
            }
        }
    }
    first
}

/// Per nonterminal `n`: whether an item `A → α·nβ` closes over an empty production,
/// that is whether `n` has one or begins a production with a nonterminal that does.
fn closes_over_empty(grammar: &Grammar) -> Vec<bool> {
    let count = grammar.nonterminals.len();
    let mut begun_by: Vec<Vec<u32>> = vec![Vec::new(); count];
    let mut closes = vec![false; count];
    let mut queue = Vec::new();
    for p in &grammar.productions {
        match p.rhs.first() {
            None if !std::mem::replace(&mut closes[p.lhs.index()], true) => queue.push(p.lhs.0),
            Some(&Symbol::Nonterminal(m)) if m != p.lhs => begun_by[m.index()].push(p.lhs.0),
            _ => {}
        }
    }
    while let Some(m) = queue.pop() {
        for &n in &begun_by[m as usize] {
            if !std::mem::replace(&mut closes[n as usize], true) {
                queue.push(n);
            }
        }
    }
    closes
}

/// The LR(1) closure of some kernel items, kept per nonterminal: every item `B → ·γ` a
/// closure adds gets the same lookaheads, those flowing into `B`. Rows are reused from
/// closure to closure; only the touched ones are cleared.
struct LookaheadClosure {
    sets: Rows,
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    queue: Vec<u32>,
    queued: Vec<bool>,
    scratch: Vec<u64>,
}

impl LookaheadClosure {
    fn new(analysis: &Analysis) -> LookaheadClosure {
        let count = analysis.grammar.nonterminals.len();
        LookaheadClosure {
            sets: Rows::new(count, analysis.words),
            touched: Vec::new(),
            is_touched: vec![false; count],
            queue: Vec::new(),
            queued: vec![false; count],
            scratch: vec![0; analysis.words],
        }
    }

    /// The closure of `kernel` (items with their lookahead rows).
    fn of<'a>(&mut self, analysis: &Analysis, kernel: impl IntoIterator<Item = (Item, &'a [u64])>) {
        for n in self.touched.drain(..) {
            self.is_touched[n as usize] = false;
            self.sets.row_mut(n as usize).fill(0);
        }
        for ((p, dot), lookahead) in kernel {
            if let Some(Symbol::Nonterminal(n)) = analysis.symbol_after_dot((p, dot)) {
                let mut flow = std::mem::take(&mut self.scratch);
                if analysis.first_of_suffix(p, dot + 1, &mut flow) {
                    or_into(&mut flow, lookahead);
                }
                self.flow_into(n.index(), &flow);
                self.scratch = flow;
            }
        }
        while let Some(n) = self.queue.pop() {
            self.queued[n as usize] = false;
            for &p in &analysis.productions_of[n as usize] {
                let Some(&Symbol::Nonterminal(m)) = analysis.rhs[p as usize].first() else { continue };
                let mut flow = std::mem::take(&mut self.scratch);
                flow.copy_from_slice(analysis.tail_first.row(p as usize));
                if analysis.tail_nullable[p as usize] {
                    or_into(&mut flow, self.sets.row(n as usize));
                }
                self.flow_into(m.index(), &flow);
                self.scratch = flow;
            }
        }
    }

    fn flow_into(&mut self, n: usize, flow: &[u64]) {
        let new = !std::mem::replace(&mut self.is_touched[n], true);
        if new {
            self.touched.push(n as u32);
        }
        if (or_into(self.sets.row_mut(n), flow) || new) && !std::mem::replace(&mut self.queued[n], true) {
            self.queue.push(n as u32);
        }
    }

    /// The nonterminals whose productions the closure holds, each with their lookaheads.
    fn nonterminals(&self) -> impl Iterator<Item = (usize, &[u64])> + '_ {
        self.touched.iter().map(|&n| (n as usize, self.sets.row(n as usize)))
    }
}

/// The LR(0) automaton: kernels and transitions (each row sorted by
/// [`Analysis::symbol_key`]).
struct Lr0 {
    /// Every state's kernel items, state after state: a kernel item's index here is its
    /// number among all kernel items.
    items: Vec<Item>,
    /// Where each state's kernel starts in `items`, and one past the last.
    offsets: Vec<usize>,
    transitions: Vec<Vec<(Symbol, u32)>>,
}

impl Lr0 {
    fn new(analysis: &Analysis, config: &LrConfig, deadline: &Deadline) -> Result<Lr0> {
        let mut lr0 = Lr0 { items: vec![(analysis.augmented(), 0)], offsets: vec![0, 1], transitions: Vec::new() };
        // Every state by the hash of its kernel, kept beside it.
        let mut ids: HashTable<(u64, u32)> = HashTable::new();
        ids.insert_unique(kernel_hash(lr0.kernel(0)), (kernel_hash(lr0.kernel(0)), 0), |&(h, _)| h);
        let mut closure = Vec::new();
        let mut in_closure = vec![false; analysis.grammar.nonterminals.len()];
        // Per symbol, its group among this state's successors (by first appearance).
        let mut group_of = vec![u32::MAX; analysis.symbol_count()];
        let mut groups: Vec<(Symbol, Vec<Item>)> = Vec::new();
        let mut next = 0;
        while next < lr0.state_count() {
            deadline.check_at(next)?;
            lr0_closure(analysis, lr0.kernel(next), &mut closure, &mut in_closure);
            let mut used = 0;
            for &item in &closure {
                let Some(sym) = analysis.symbol_after_dot(item) else { continue };
                let group = &mut group_of[analysis.symbol_key(sym)];
                if *group == u32::MAX {
                    *group = used as u32;
                    if used == groups.len() {
                        groups.push((sym, Vec::new()));
                    }
                    groups[used].0 = sym;
                    groups[used].1.clear();
                    used += 1;
                }
                groups[*group as usize].1.push((item.0, item.1 + 1));
            }
            let mut row = Vec::with_capacity(used);
            for (sym, kernel) in &mut groups[..used] {
                group_of[analysis.symbol_key(*sym)] = u32::MAX;
                kernel.sort_unstable();
                kernel.dedup();
                let hash = kernel_hash(kernel);
                let id = match ids.find(hash, |&(h, id)| h == hash && lr0.kernel(id as usize) == kernel.as_slice()) {
                    Some(&(_, id)) => id,
                    None => {
                        if lr0.state_count() >= config.max_states {
                            return Err(Error::Limit {
                                kind: LimitKind::LrStates,
                                value: lr0.state_count() + 1,
                                limit: config.max_states,
                            });
                        }
                        let id = lr0.state_count() as u32;
                        lr0.items.extend_from_slice(kernel);
                        lr0.offsets.push(lr0.items.len());
                        ids.insert_unique(hash, (hash, id), |&(h, _)| h);
                        id
                    }
                };
                row.push((*sym, id));
            }
            row.sort_unstable_by_key(|&(sym, _)| analysis.symbol_key(sym));
            lr0.transitions.push(row);
            next += 1;
        }
        Ok(lr0)
    }

    fn state_count(&self) -> usize {
        self.offsets.len() - 1
    }

    fn kernel(&self, state: usize) -> &[Item] {
        &self.items[self.offsets[state]..self.offsets[state + 1]]
    }

    /// The kernel item `advanced` of state `target`, numbered among all kernel items.
    fn kernel_item(&self, target: u32, advanced: Item) -> usize {
        let target = target as usize;
        self.offsets[target] + self.kernel(target).binary_search(&advanced).expect("kernel item")
    }

    /// Lookaheads of every kernel item (numbered as [`Lr0::kernel_item`] does), by
    /// spontaneous generation and propagation.
    fn lalr_lookaheads(&self, analysis: &Analysis, deadline: &Deadline) -> Result<Rows> {
        let mut lookaheads = Rows::new(self.items.len(), analysis.words);
        lookaheads.insert(0, analysis.end());
        let mut marker = vec![0; analysis.words];
        marker[analysis.marker().index() / 64] |= 1 << (analysis.marker().index() % 64);
        let mut propagate: Vec<(u32, u32)> = Vec::new();
        let mut closure = LookaheadClosure::new(analysis);
        let mut successors = Successors::new(analysis);
        for state in 0..self.state_count() {
            deadline.check_at(state)?;
            successors.load(analysis, &self.transitions[state]);
            for (k, &item) in self.kernel(state).iter().enumerate() {
                let from = (self.offsets[state] + k) as u32;
                if let Some(sym) = analysis.symbol_after_dot(item) {
                    let to = self.kernel_item(successors.on(analysis, sym), (item.0, item.1 + 1));
                    propagate.push((from, to as u32));
                }
                closure.of(analysis, [(item, marker.as_slice())]);
                for (n, set) in closure.nonterminals() {
                    let propagates = contains(set, analysis.marker());
                    for &p in &analysis.productions_of[n] {
                        let Some(&sym) = analysis.rhs[p as usize].first() else { continue };
                        let to = self.kernel_item(successors.on(analysis, sym), (p, 1));
                        if propagates {
                            propagate.push((from, to as u32));
                        }
                        let row = lookaheads.row_mut(to);
                        or_into(row, set);
                        row[analysis.marker().index() / 64] &= !(1 << (analysis.marker().index() % 64));
                    }
                }
            }
            successors.unload(analysis, &self.transitions[state]);
        }
        propagate_along(&mut lookaheads, propagate, deadline)?;
        Ok(lookaheads)
    }

    fn into_tables(self, analysis: &Analysis, lookaheads: &Rows, deadline: &Deadline) -> Result<LrTables> {
        let terminal_count = analysis.grammar.terminals.len();
        let mut tables = LrTables {
            terminal_count,
            production_len: analysis.grammar.productions.iter().map(|p| p.rhs.len() as u32).collect(),
            production_lhs: analysis.grammar.productions.iter().map(|p| p.lhs).collect(),
            shifts: Vec::with_capacity(self.state_count()),
            gotos: Vec::with_capacity(self.state_count()),
            reductions: Vec::with_capacity(self.state_count()),
            accepting: Vec::with_capacity(self.state_count()),
            conflicts: 0,
            goto_table: GotoTable::default(),
        };
        let reduction = |production: u32, set: &[u64]| Reduction {
            production: ProductionId(production),
            lookahead: TerminalSet::from_words_below(terminal_count + 1, set),
        };
        let mut closure = LookaheadClosure::new(analysis);
        for state in 0..self.state_count() {
            deadline.check_at(state)?;
            let kernel = self.kernel(state);
            let mut shifts = Vec::new();
            let mut gotos = Vec::new();
            for &(sym, target) in &self.transitions[state] {
                match sym {
                    Symbol::Terminal(t) => shifts.push((t, LrState(target))),
                    Symbol::Nonterminal(n) => gotos.push((n, LrState(target))),
                }
            }
            let kernel_lookaheads = |k: usize| lookaheads.row(self.offsets[state] + k);
            let mut accepting = false;
            let mut reductions = Vec::new();
            for (k, &item) in kernel.iter().enumerate() {
                if analysis.symbol_after_dot(item).is_none() {
                    if item.0 == analysis.augmented() {
                        accepting = true;
                    } else {
                        reductions.push(reduction(item.0, kernel_lookaheads(k)));
                    }
                }
            }
            let closes_over_empty = |&item: &Item| {
                matches!(analysis.symbol_after_dot(item), Some(Symbol::Nonterminal(n)) if analysis.closes_over_empty[n.index()])
            };
            // Only empty productions take their lookaheads from the closure: most states
            // have none, and are spared it.
            if kernel.iter().any(closes_over_empty) {
                closure.of(analysis, kernel.iter().enumerate().map(|(k, &item)| (item, kernel_lookaheads(k))));
                for (n, set) in closure.nonterminals() {
                    for &p in analysis.productions_of[n].iter().filter(|&&p| analysis.rhs[p as usize].is_empty()) {
                        reductions.push(reduction(p, set));
                    }
                }
            }
            reductions.sort_unstable_by_key(|r| r.production);
            tables.conflicts += count_conflicts(&shifts, &reductions);
            tables.shifts.push(shifts);
            tables.gotos.push(gotos);
            tables.reductions.push(reductions);
            tables.accepting.push(accepting);
        }
        Ok(tables.with_goto_table())
    }
}

/// A hash of a kernel, one multiply per item.
fn kernel_hash(kernel: &[Item]) -> u64 {
    fold_hash(1, kernel.iter().map(|&(p, dot)| u64::from(p) << 32 | u64::from(dot)))
}

/// LR(0) closure of `kernel` into `closure`, kernel first; `in_closure` (per
/// nonterminal) is left all false.
fn lr0_closure(analysis: &Analysis, kernel: &[Item], closure: &mut Vec<Item>, in_closure: &mut [bool]) {
    closure.clear();
    closure.extend_from_slice(kernel);
    let mut added = Vec::new();
    let mut i = 0;
    while i < closure.len() {
        if let Some(Symbol::Nonterminal(n)) = analysis.symbol_after_dot(closure[i]) {
            if !std::mem::replace(&mut in_closure[n.index()], true) {
                added.push(n);
                closure.extend(analysis.productions_of[n.index()].iter().map(|&p| (p, 0)));
            }
        }
        i += 1;
    }
    added.into_iter().for_each(|n| in_closure[n.index()] = false);
}

/// One state's LR(0) transitions by symbol, for the many lookups of its closure's
/// productions (a JSON schema's object state closes over hundreds of them).
struct Successors {
    /// By [`Analysis::symbol_key`]: the target of the loaded state's transition.
    target: Vec<u32>,
}

impl Successors {
    fn new(analysis: &Analysis) -> Successors {
        Successors { target: vec![u32::MAX; analysis.symbol_count()] }
    }

    /// Makes `row` (a state's transitions) the one [`Successors::on`] reads.
    fn load(&mut self, analysis: &Analysis, row: &[(Symbol, u32)]) {
        row.iter().for_each(|&(sym, target)| self.target[analysis.symbol_key(sym)] = target);
    }

    /// Forgets `row`, loaded last.
    fn unload(&mut self, analysis: &Analysis, row: &[(Symbol, u32)]) {
        row.iter().for_each(|&(sym, _)| self.target[analysis.symbol_key(sym)] = u32::MAX);
    }

    /// The state the loaded state's transition on `sym` leads to.
    fn on(&self, analysis: &Analysis, sym: Symbol) -> u32 {
        let target = self.target[analysis.symbol_key(sym)];
        assert_ne!(target, u32::MAX, "LR(0) transition");
        target
    }
}

/// Carries lookaheads along the propagation edges `(from, to)`, listed by `from` in
/// order, until nothing grows, revisiting only the items whose lookaheads grew.
fn propagate_along(lookaheads: &mut Rows, edges: Vec<(u32, u32)>, deadline: &Deadline) -> Result<()> {
    debug_assert!(edges.windows(2).all(|pair| pair[0].0 <= pair[1].0), "edges listed by source");
    let items = lookaheads.bits.len() / lookaheads.words.max(1);
    let mut starts = vec![0; items + 1];
    for &(from, _) in &edges {
        starts[from as usize + 1] += 1;
    }
    for i in 0..items {
        starts[i + 1] += starts[i];
    }
    let mut queue: Vec<u32> = (0..items as u32).filter(|&i| lookaheads.row(i as usize).iter().any(|&w| w != 0)).collect();
    let mut queued = vec![false; items];
    queue.iter().for_each(|&i| queued[i as usize] = true);
    let mut popped = 0usize;
    while let Some(from) = queue.pop() {
        deadline.check_at(popped)?;
        popped += 1;
        queued[from as usize] = false;
        for &(_, to) in &edges[starts[from as usize]..starts[from as usize + 1]] {
            if lookaheads.union_rows(from as usize, to as usize) && !std::mem::replace(&mut queued[to as usize], true) {
                queue.push(to);
            }
        }
    }
    Ok(())
}

/// The terminals on which a state can do two things: shift and reduce, or reduce two
/// ways. Only a terminal in some reduction's lookahead can.
fn count_conflicts(shifts: &[(TerminalId, LrState)], reductions: &[Reduction]) -> usize {
    let [first, rest @ ..] = reductions else { return 0 };
    let mut candidates = first.lookahead.clone();
    rest.iter().for_each(|r| _ = candidates.union_with(&r.lookahead));
    candidates
        .iter()
        .filter(|&t| {
            let shift = shifts.binary_search_by_key(&t, |&(x, _)| x).is_ok() as usize;
            shift + reductions.iter().filter(|r| r.lookahead.contains(t)).count() > 1
        })
        .count()
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod textbook;
