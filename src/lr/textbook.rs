//! The reference LALR(1) construction the tests compare [`LrTables`] with: the textbook
//! method (Aho, Lam, Sethi, Ullman §4.7.5) as first written here, one LR(1) closure per
//! kernel item with its items in a hash map and a set allocated per item, propagation
//! swept until nothing changes (as are the nullable and FIRST sets). Slow on large
//! grammars, and plainly right.

use super::{count_conflicts, LrConfig, LrState, LrTables, Reduction};
use crate::error::{Deadline, Error, LimitKind, Result};
use crate::ir::{Grammar, ProductionId, Symbol, TerminalId, TerminalSet};
use hashbrown::HashMap;

/// The tables of `grammar` built the textbook way.
pub(super) fn tables(grammar: &Grammar) -> LrTables {
    let deadline = Deadline::unlimited();
    let analysis = Analysis::new(grammar);
    let automaton = Lr0::new(&analysis, &LrConfig::default(), &deadline).unwrap();
    let lookaheads = automaton.lalr_lookaheads(&analysis, &deadline).unwrap();
    automaton.into_tables(&analysis, &lookaheads, &deadline).unwrap()
}

type Item = (u32, u32);


/// Grammar facts the construction needs: right-hand sides (augmented), nullable, FIRST.
struct Analysis<'g> {
    grammar: &'g Grammar,
    /// Right-hand sides; the last one is the augmented `start' → start`.
    rhs: Vec<Vec<Symbol>>,
    productions_of: Vec<Vec<u32>>,
    nullable: Vec<bool>,
    first: Vec<TerminalSet>,
    /// Terminal-set capacity: terminals, end of input, and the propagation marker.
    capacity: usize,
}

impl<'g> Analysis<'g> {
    fn new(grammar: &'g Grammar) -> Analysis<'g> {
        let mut rhs: Vec<Vec<Symbol>> = grammar.productions.iter().map(|p| p.rhs.clone()).collect();
        rhs.push(vec![Symbol::Nonterminal(grammar.start)]);
        let mut productions_of = vec![Vec::new(); grammar.nonterminals.len()];
        for (i, p) in grammar.productions.iter().enumerate() {
            productions_of[p.lhs.index()].push(i as u32);
        }
        let capacity = grammar.terminals.len() + 2;
        let nullable = nullable(grammar);
        let first = first_sets(grammar, &nullable, capacity);
        Analysis { grammar, rhs, productions_of, nullable, first, capacity }
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

    /// FIRST of `rhs[p][from..]`, and whether that suffix is nullable.
    fn first_of_suffix(&self, p: u32, from: u32) -> (TerminalSet, bool) {
        let mut set = TerminalSet::new(self.capacity);
        for sym in &self.rhs[p as usize][from as usize..] {
            match *sym {
                Symbol::Terminal(t) => {
                    set.insert(t);
                    return (set, false);
                }
                Symbol::Nonterminal(n) => {
                    set.union_with(&self.first[n.index()]);
                    if !self.nullable[n.index()] {
                        return (set, false);
                    }
                }
            }
        }
        (set, true)
    }

    /// LR(0) closure of a kernel, kernel first.
    fn closure(&self, kernel: &[Item]) -> Vec<Item> {
        let mut items = kernel.to_vec();
        let mut added = vec![false; self.grammar.nonterminals.len()];
        let mut i = 0;
        while i < items.len() {
            if let Some(Symbol::Nonterminal(n)) = self.symbol_after_dot(items[i]) {
                if !std::mem::replace(&mut added[n.index()], true) {
                    items.extend(self.productions_of[n.index()].iter().map(|&p| (p, 0)));
                }
            }
            i += 1;
        }
        items
    }

    /// LR(1) closure of kernel items with lookahead sets.
    fn closure_with_lookaheads(&self, seeds: Vec<(Item, TerminalSet)>) -> HashMap<Item, TerminalSet> {
        let mut sets: HashMap<Item, TerminalSet> = HashMap::new();
        let mut queue: Vec<Item> = Vec::new();
        for (item, la) in seeds {
            sets.entry(item).or_insert_with(|| TerminalSet::new(self.capacity)).union_with(&la);
            queue.push(item);
        }
        while let Some(item) = queue.pop() {
            let Some(Symbol::Nonterminal(n)) = self.symbol_after_dot(item) else { continue };
            let (mut la, nullable) = self.first_of_suffix(item.0, item.1 + 1);
            if nullable {
                la.union_with(&sets[&item]);
            }
            for &p in &self.productions_of[n.index()] {
                let mut inserted = false;
                let entry = sets.entry((p, 0)).or_insert_with(|| {
                    inserted = true;
                    TerminalSet::new(self.capacity)
                });
                if entry.union_with(&la) || inserted {
                    queue.push((p, 0));
                }
            }
        }
        sets
    }
}

/// Whether each nonterminal derives the empty string, by sweeping the productions
/// until nothing changes.
fn nullable(grammar: &Grammar) -> Vec<bool> {
    let mut nullable = vec![false; grammar.nonterminals.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for p in &grammar.productions {
            if !nullable[p.lhs.index()] && p.rhs.iter().all(|s| matches!(s, Symbol::Nonterminal(n) if nullable[n.index()])) {
                nullable[p.lhs.index()] = true;
                changed = true;
            }
        }
    }
    nullable
}

fn first_sets(grammar: &Grammar, nullable: &[bool], capacity: usize) -> Vec<TerminalSet> {
    let mut first = vec![TerminalSet::new(capacity); grammar.nonterminals.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for p in &grammar.productions {
            for sym in &p.rhs {
                match *sym {
                    Symbol::Terminal(t) => {
                        changed |= first[p.lhs.index()].insert(t);
                        break;
                    }
                    Symbol::Nonterminal(n) => {
                        if n != p.lhs {
                            let other = first[n.index()].clone();
                            changed |= first[p.lhs.index()].union_with(&other);
                        }
                        if !nullable[n.index()] {
                            break;
                        }
                    }
                }
            }
        }
    }
    first
}

/// The LR(0) automaton: kernels and transitions.
struct Lr0 {
    kernels: Vec<Vec<Item>>,
    transitions: Vec<Vec<(Symbol, u32)>>,
}

impl Lr0 {
    fn new(analysis: &Analysis, config: &LrConfig, deadline: &Deadline) -> Result<Lr0> {
        let mut kernels: Vec<Vec<Item>> = vec![vec![(analysis.augmented(), 0)]];
        let mut ids: HashMap<Vec<Item>, u32> = HashMap::new();
        ids.insert(kernels[0].clone(), 0);
        let mut transitions = Vec::new();
        let mut next = 0;
        while next < kernels.len() {
            deadline.check()?;
            let closure = analysis.closure(&kernels[next]);
            let mut by_symbol: Vec<(Symbol, Vec<Item>)> = Vec::new();
            for item in closure {
                let Some(sym) = analysis.symbol_after_dot(item) else { continue };
                let advanced = (item.0, item.1 + 1);
                match by_symbol.iter_mut().find(|(s, _)| *s == sym) {
                    Some((_, k)) => k.push(advanced),
                    None => by_symbol.push((sym, vec![advanced])),
                }
            }
            let mut row = Vec::with_capacity(by_symbol.len());
            for (sym, mut kernel) in by_symbol {
                kernel.sort_unstable();
                kernel.dedup();
                let id = match ids.get(&kernel) {
                    Some(&id) => id,
                    None => {
                        if kernels.len() >= config.max_states {
                            return Err(Error::Limit {
                                kind: LimitKind::LrStates,
                                value: kernels.len() + 1,
                                limit: config.max_states,
                            });
                        }
                        let id = kernels.len() as u32;
                        ids.insert(kernel.clone(), id);
                        kernels.push(kernel);
                        id
                    }
                };
                row.push((sym, id));
            }
            transitions.push(row);
            next += 1;
        }
        Ok(Lr0 { kernels, transitions })
    }

    fn goto(&self, state: usize, sym: Symbol) -> usize {
        self.transitions[state].iter().find(|(s, _)| *s == sym).map(|&(_, t)| t as usize).expect("LR(0) transition")
    }

    /// Lookahead sets of every kernel item, by spontaneous generation and propagation.
    fn lalr_lookaheads(&self, analysis: &Analysis, deadline: &Deadline) -> Result<Vec<Vec<TerminalSet>>> {
        let mut lookaheads: Vec<Vec<TerminalSet>> =
            self.kernels.iter().map(|k| vec![TerminalSet::new(analysis.capacity); k.len()]).collect();
        lookaheads[0][0].insert(analysis.end());
        let mut propagate: Vec<((usize, usize), (usize, usize))> = Vec::new();
        for (state, kernel) in self.kernels.iter().enumerate() {
            deadline.check()?;
            for (k, &item) in kernel.iter().enumerate() {
                let mut marker = TerminalSet::new(analysis.capacity);
                marker.insert(analysis.marker());
                for (citem, la) in analysis.closure_with_lookaheads(vec![(item, marker)]) {
                    let Some(sym) = analysis.symbol_after_dot(citem) else { continue };
                    let target = self.goto(state, sym);
                    let advanced = (citem.0, citem.1 + 1);
                    let tk = self.kernels[target].binary_search(&advanced).expect("kernel item");
                    for t in la.iter() {
                        if t == analysis.marker() {
                            propagate.push(((state, k), (target, tk)));
                        } else {
                            lookaheads[target][tk].insert(t);
                        }
                    }
                }
            }
        }
        let mut changed = true;
        while changed {
            deadline.check()?;
            changed = false;
            for &(from, to) in &propagate {
                changed |= union_into(&mut lookaheads, from, to);
            }
        }
        Ok(lookaheads)
    }

    fn into_tables(
        self,
        analysis: &Analysis,
        lookaheads: &[Vec<TerminalSet>],
        deadline: &Deadline,
    ) -> Result<LrTables> {
        let terminal_count = analysis.grammar.terminals.len();
        let mut tables = LrTables {
            terminal_count,
            production_len: analysis.grammar.productions.iter().map(|p| p.rhs.len() as u32).collect(),
            production_lhs: analysis.grammar.productions.iter().map(|p| p.lhs).collect(),
            shifts: Vec::with_capacity(self.kernels.len()),
            gotos: Vec::with_capacity(self.kernels.len()),
            reductions: Vec::with_capacity(self.kernels.len()),
            accepting: Vec::with_capacity(self.kernels.len()),
            conflicts: 0,
            goto_table: Default::default(),
        };
        for (state, kernel) in self.kernels.iter().enumerate() {
            deadline.check()?;
            let mut shifts = Vec::new();
            let mut gotos = Vec::new();
            for &(sym, target) in &self.transitions[state] {
                match sym {
                    Symbol::Terminal(t) => shifts.push((t, LrState(target))),
                    Symbol::Nonterminal(n) => gotos.push((n, LrState(target))),
                }
            }
            shifts.sort_unstable();
            gotos.sort_unstable();
            let seeds = kernel.iter().copied().zip(lookaheads[state].iter().cloned()).collect();
            let closure = analysis.closure_with_lookaheads(seeds);
            let mut accepting = false;
            let mut reductions = Vec::new();
            for (item, la) in closure {
                if analysis.symbol_after_dot(item).is_some() {
                    continue;
                }
                if item.0 == analysis.augmented() {
                    accepting = true;
                    continue;
                }
                let mut lookahead = TerminalSet::new(terminal_count + 1);
                for t in la.iter().filter(|t| t.index() <= terminal_count) {
                    lookahead.insert(t);
                }
                reductions.push(Reduction { production: ProductionId(item.0), lookahead });
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

/// Adds the lookaheads of kernel item `from` (state, item) to those of item `to`; whether
/// they grew.
fn union_into(lookaheads: &mut [Vec<TerminalSet>], from: (usize, usize), to: (usize, usize)) -> bool {
    let ((s, k), (t, tk)) = (from, to);
    if s == t {
        let items = &mut lookaheads[s];
        if k == tk {
            return false;
        }
        let (lo, hi) = items.split_at_mut(k.max(tk));
        return if k < tk { hi[0].union_with(&lo[k]) } else { lo[tk].union_with(&hi[0]) };
    }
    let (lo, hi) = lookaheads.split_at_mut(s.max(t));
    if s < t {
        hi[0][tk].union_with(&lo[s][k])
    } else {
        lo[t][tk].union_with(&hi[0][k])
    }
}
