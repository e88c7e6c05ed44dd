//! An Earley recognizer over the grammar IR, written from scratch for the property
//! tests: the independent judgement the LR tables and the GLR runtime are checked against.
//!
//! It shares nothing with `stackmask::lr` or `stackmask::glr` but the IR itself, and it
//! favours being obviously right over being fast: items are plain triples, every set is
//! closed by a worklist, duplicates are filtered by a hash set.
//!
//! Input is a sequence of *lexemes*, each the set of candidate terminals the lexer reported
//! for it. A lexeme is consumed when any candidate can be scanned; every reading is kept.
//! An `%ignore`d candidate means "or skip the lexeme", exactly as the lexer's output is
//! meant to be read: such a candidate is never scanned, and the lexeme may vanish.
//!
//! ε-rules follow Aycock and Horspool ("Practical Earley Parsing", 2002): predicting a
//! nullable nonterminal also moves the dot over it, so a completion that would find its
//! waiting items in the set being built can never be missed.

use stackmask::ir::{Grammar, NonterminalId, Symbol, TerminalId};
use std::collections::{BTreeSet, HashSet};

/// A dotted production with the index of the set where it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Item {
    production: usize,
    dot: usize,
    origin: usize,
}

/// One Earley set: its items in insertion order (the worklist) and a membership index.
#[derive(Clone, Debug, Default)]
struct ItemSet {
    items: Vec<Item>,
    seen: HashSet<Item>,
}

impl ItemSet {
    fn insert(&mut self, item: Item) {
        if self.seen.insert(item) {
            self.items.push(item);
        }
    }
}

/// The grammar, preprocessed for Earley parsing.
#[derive(Clone, Debug)]
pub struct Earley {
    grammar: Grammar,
    nullable: Vec<bool>,
    /// Production indices by left-hand side.
    by_lhs: Vec<Vec<usize>>,
}

impl Earley {
    /// Prepare `grammar` for recognition.
    pub fn new(grammar: &Grammar) -> Earley {
        let mut by_lhs = vec![Vec::new(); grammar.nonterminals.len()];
        for (i, p) in grammar.productions.iter().enumerate() {
            by_lhs[p.lhs.index()].push(i);
        }
        Earley { grammar: grammar.clone(), nullable: grammar.nullable(), by_lhs }
    }

    /// A chart positioned before the first lexeme, for incremental use.
    pub fn chart(&self) -> Chart<'_> {
        let mut first = ItemSet::default();
        for &p in &self.by_lhs[self.grammar.start.index()] {
            first.insert(Item { production: p, dot: 0, origin: 0 });
        }
        let mut chart = Chart { earley: self, sets: Vec::new() };
        chart.close_and_push(first);
        chart
    }

    /// Whether `lexemes` form a complete sentence.
    pub fn accepts(&self, lexemes: &[Vec<TerminalId>]) -> bool {
        self.chart_after(lexemes).accepts()
    }

    /// Whether some sentence starts with `lexemes`.
    pub fn is_prefix(&self, lexemes: &[Vec<TerminalId>]) -> bool {
        self.chart_after(lexemes).is_prefix()
    }

    /// The terminals that can be scanned right after `lexemes`.
    pub fn expected_terminals(&self, lexemes: &[Vec<TerminalId>]) -> BTreeSet<TerminalId> {
        self.chart_after(lexemes).expected_terminals()
    }

    fn chart_after(&self, lexemes: &[Vec<TerminalId>]) -> Chart<'_> {
        let mut chart = self.chart();
        for lexeme in lexemes {
            chart.push(lexeme);
        }
        chart
    }

    fn is_ignored(&self, t: TerminalId) -> bool {
        self.grammar.terminals[t.index()].ignored
    }

    /// The symbol after the dot, if any.
    fn next_symbol(&self, item: Item) -> Option<Symbol> {
        self.grammar.productions[item.production].rhs.get(item.dot).copied()
    }

    fn lhs(&self, item: Item) -> NonterminalId {
        self.grammar.productions[item.production].lhs
    }
}

/// The Earley sets built so far for a growing lexeme sequence.
#[derive(Clone, Debug)]
pub struct Chart<'e> {
    earley: &'e Earley,
    sets: Vec<ItemSet>,
}

impl Chart<'_> {
    /// Read one lexeme (its candidate terminals). Reading past a lexeme that no parse
    /// accepts leaves empty sets; [`Chart::pop`] undoes it.
    pub fn push(&mut self, lexeme: &[TerminalId]) {
        let last = self.sets.last().expect("the chart always holds the initial set");
        let mut next = ItemSet::default();
        for &item in &last.items {
            if let Some(Symbol::Terminal(t)) = self.earley.next_symbol(item) {
                if lexeme.contains(&t) && !self.earley.is_ignored(t) {
                    next.insert(Item { dot: item.dot + 1, ..item });
                }
            }
        }
        if lexeme.iter().any(|&t| self.earley.is_ignored(t)) {
            // Skipping the lexeme: every item valid before it stays valid after it.
            for &item in &last.items {
                next.insert(item);
            }
        }
        self.close_and_push(next);
    }

    /// Undo the last [`Chart::push`].
    pub fn pop(&mut self) {
        assert!(self.sets.len() > 1, "cannot pop the initial set");
        self.sets.pop();
    }

    /// Number of lexemes read.
    pub fn len(&self) -> usize {
        self.sets.len() - 1
    }

    /// Whether some sentence starts with the lexemes read. The IR keeps only productive
    /// rules, so any surviving item can be completed.
    pub fn is_prefix(&self) -> bool {
        !self.current().items.is_empty()
    }

    /// Whether the lexemes read form a complete sentence.
    pub fn accepts(&self) -> bool {
        let start = self.earley.grammar.start;
        self.current()
            .items
            .iter()
            .any(|&i| i.origin == 0 && self.earley.next_symbol(i).is_none() && self.earley.lhs(i) == start)
    }

    /// The terminals some parse can scan next.
    pub fn expected_terminals(&self) -> BTreeSet<TerminalId> {
        self.current()
            .items
            .iter()
            .filter_map(|&i| match self.earley.next_symbol(i) {
                Some(Symbol::Terminal(t)) => Some(t),
                _ => None,
            })
            .collect()
    }

    fn current(&self) -> &ItemSet {
        self.sets.last().expect("the chart always holds the initial set")
    }

    /// Close `set` under prediction and completion, then append it as the newest set.
    fn close_and_push(&mut self, mut set: ItemSet) {
        let here = self.sets.len();
        let mut next = 0;
        while next < set.items.len() {
            let item = set.items[next];
            next += 1;
            match self.earley.next_symbol(item) {
                Some(Symbol::Nonterminal(n)) => self.predict(&mut set, item, n, here),
                Some(Symbol::Terminal(_)) => {}
                None => self.complete(&mut set, item, here),
            }
        }
        self.sets.push(set);
    }

    fn predict(&self, set: &mut ItemSet, item: Item, n: NonterminalId, here: usize) {
        for &p in &self.earley.by_lhs[n.index()] {
            set.insert(Item { production: p, dot: 0, origin: here });
        }
        if self.earley.nullable[n.index()] {
            set.insert(Item { dot: item.dot + 1, ..item });
        }
    }

    /// Advance every item of the completed item's origin set that waits for its lhs.
    /// When the origin is the set being built, its lhs is nullable and the items that
    /// wait for it were (or will be) advanced by [`Chart::predict`].
    fn complete(&self, set: &mut ItemSet, item: Item, here: usize) {
        let lhs = Symbol::Nonterminal(self.earley.lhs(item));
        let advance = |set: &mut ItemSet, waiting: Item| {
            if self.earley.next_symbol(waiting) == Some(lhs) {
                set.insert(Item { dot: waiting.dot + 1, ..waiting });
            }
        };
        if item.origin == here {
            for i in 0..set.items.len() {
                advance(set, set.items[i]);
            }
        } else {
            for &waiting in &self.sets[item.origin].items {
                advance(set, waiting);
            }
        }
    }
}
