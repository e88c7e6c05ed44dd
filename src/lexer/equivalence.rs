//! Lexer states that no short text tells apart.
//!
//! A token's effect from a lexer state `q` (the lexemes it closes and what its end state
//! can still become) depends only on what the states along its bytes accept and can
//! complete. Two states whose futures agree on every text up to the longest token are
//! therefore interchangeable for everything the token spanner and the classifier
//! compute, though the DFA keeps them apart: a string with `maxLength: 255` has one
//! state per character read, and all but the last hundred or so of them behave the same
//! for any token. [`Lexer::equivalent_within`] finds them, so one spanner row and one
//! classifier automaton serve them all.
//!
//! The partition is Moore's refinement stopped after `depth` rounds (round `r` tells
//! apart states that some text of `r` bytes tells apart). Each round re-examines only
//! the states with a successor that moved in the previous round, and a block that splits
//! keeps its id for its largest part (as in Hopcroft's algorithm), so that only the
//! smaller parts move: a counter that splits one state per round costs one state per
//! round, not the whole DFA. Most lexers settle after re-examining each state fewer than
//! 8 times; a few (many counters out of step, tens of thousands of states) keep
//! splitting for all `depth` rounds, so the work is bounded and the caller falls back to
//! no sharing past the bound (an unfinished refinement would merge states that a longer
//! text tells apart).

use super::{LexState, Lexer};
use crate::ir::{TerminalId, TerminalSet};
use hashbrown::{HashMap, HashSet, HashTable};
use std::hash::BuildHasher as _;

impl Lexer {
    /// For each state (by index), the smallest state that no text of at most `depth`
    /// bytes tells apart from it: reading the same text from either, of any length up to
    /// `depth`, leads to states with the same [`accepts`](Lexer::accepts) and
    /// [`completable`](Lexer::completable) sets, and the start state only to itself.
    ///
    /// `None` when that takes more than `budget` state examinations (each compares a
    /// state's successors on every byte class; a first pass examines every state once).
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, lexer::{Lexer, LexerConfig}};
    /// let g = Grammar::from_lark(r#"start: WORD
    ///                               WORD: /a{0,8}b/"#).unwrap();
    /// let lexer = Lexer::new(&g, &LexerConfig::default()).unwrap();
    /// let after = |text: &[u8]| text.iter().fold(lexer.start(), |q, &b| lexer.next(q, b));
    /// let same = lexer.equivalent_within(3, usize::MAX).unwrap();
    /// // After one or two `a`s, six more may follow either way: three bytes cannot tell.
    /// assert_eq!(same[after(b"a").index()], same[after(b"aa").index()]);
    /// // After seven, "aab" is too long: three bytes tell them apart.
    /// assert_ne!(same[after(b"a").index()], same[after(b"aaaaaaa").index()]);
    /// // Too little budget for a first pass over the states.
    /// assert!(lexer.equivalent_within(3, 2).is_none());
    /// ```
    pub fn equivalent_within(&self, depth: usize, budget: usize) -> Option<Vec<LexState>> {
        let mut partition = Partition::by_observation(self);
        let rows = Runs::of(self);
        let mut predecessors = Predecessors::of(&rows);
        let mut moved: Vec<u32> = (0..self.state_count() as u32).collect();
        let mut examined = 0usize;
        for round in 0..depth {
            let candidates = if round == 0 { moved } else { predecessors.of_all(&moved) };
            examined += candidates.len();
            if examined > budget {
                return None;
            }
            moved = partition.refine(&rows, &candidates);
            if moved.is_empty() {
                break;
            }
        }
        Some(partition.smallest_members())
    }

    /// How many bytes long the texts may be that do not tell states `q` and `r` apart:
    /// the largest `n` up to `limit` such that reading any text of at most `n` bytes from
    /// either leads to states with the same [`accepts`](Lexer::accepts) and
    /// [`completable`](Lexer::completable) sets (and the start state only to itself), as
    /// [`Lexer::equivalent_within`] compares them. A breadth-first walk over pairs of
    /// states, stopped at the first pair told apart; past `work` pair examinations it
    /// stops too, answering the lengths it has checked (still a true answer, maybe short).
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, lexer::{Lexer, LexerConfig}};
    /// let g = Grammar::from_lark(r#"start: WORD
    ///                               WORD: /a{0,8}b/"#).unwrap();
    /// let lexer = Lexer::new(&g, &LexerConfig::default()).unwrap();
    /// let after = |text: &[u8]| text.iter().fold(lexer.start(), |q, &b| lexer.next(q, b));
    /// // After 2 `a`s and after 5, texts of up to 3 bytes end alike; "aaaa" does not.
    /// assert_eq!(lexer.alike_within(after(b"aa"), after(b"aaaaa"), 100, usize::MAX), 3);
    /// assert_eq!(lexer.alike_within(after(b"aa"), after(b"aa"), 100, usize::MAX), 100);
    /// ```
    pub fn alike_within(&self, q: LexState, r: LexState, limit: usize, work: usize) -> usize {
        let observe = |s: LexState| (self.is_start(s), self.accepts(s), self.completable(s));
        if q == r {
            return limit;
        }
        if observe(q) != observe(r) {
            return 0;
        }
        let stride = self.stride;
        let mut frontier = vec![(q, r)];
        let mut seen: HashSet<(LexState, LexState)> = HashSet::new();
        seen.insert((q, r));
        let mut examined = 0usize;
        for length in 0..limit {
            let mut next = Vec::new();
            for &(a, b) in &frontier {
                examined += 1;
                if examined > work {
                    return length;
                }
                let (row_a, row_b) = (&self.transitions[a.index() * stride..][..stride], &self.transitions[b.index() * stride..][..stride]);
                for (&a, &b) in row_a.iter().zip(row_b) {
                    if a == b || seen.contains(&(a, b)) {
                        continue;
                    }
                    if observe(a) != observe(b) {
                        return length;
                    }
                    seen.insert((a, b));
                    next.push((a, b));
                }
            }
            if next.is_empty() {
                return limit;
            }
            frontier = next;
        }
        limit
    }
}

/// Each state's row of the transition table as runs of byte classes leading to one
/// state: `(last class, target)`, `runs[starts[q]..starts[q + 1]]`. A row has a few
/// runs where it has tens of classes, and refinement reads rows over and over.
struct Runs {
    starts: Vec<u32>,
    runs: Vec<(u32, u32)>,
}

impl Runs {
    fn of(lexer: &Lexer) -> Runs {
        let n = lexer.state_count();
        let mut starts = Vec::with_capacity(n + 1);
        let mut runs: Vec<(u32, u32)> = Vec::new();
        starts.push(0);
        for row in lexer.transitions.chunks(lexer.stride.max(1)).take(n) {
            let row_start = runs.len();
            for (class, target) in row.iter().enumerate() {
                let continues = runs.len() > row_start && runs[runs.len() - 1].1 == target.0;
                match runs.last_mut() {
                    Some((last, _)) if continues => *last = class as u32,
                    _ => runs.push((class as u32, target.0)),
                }
            }
            starts.push(runs.len() as u32);
        }
        Runs { starts, runs }
    }

    /// `visit(target, source)` for each live transition, once per source and target,
    /// by source; `last_source` is scratch space, one slot per state.
    fn each_live_edge(&self, last_source: &mut [u32], mut visit: impl FnMut(u32, u32)) {
        last_source.fill(u32::MAX);
        for source in 0..last_source.len() as u32 {
            for &(_, target) in self.row(source) {
                if target != LexState::DEAD.0 && last_source[target as usize] != source {
                    last_source[target as usize] = source;
                    visit(target, source);
                }
            }
        }
    }

    fn row(&self, q: u32) -> &[(u32, u32)] {
        &self.runs[self.starts[q as usize] as usize..self.starts[q as usize + 1] as usize]
    }
}

/// Predecessor lists in one array: the sources into `q` are `sources[starts[q]..starts[q + 1]]`.
struct Predecessors {
    starts: Vec<u32>,
    sources: Vec<u32>,
    /// Round stamps, so that each source is listed once per call.
    seen: Vec<u32>,
    round: u32,
}

impl Predecessors {
    /// The states with a live transition into each state, each listed once per target,
    /// read off the rows' runs (a few per row, where the table has a transition per byte
    /// class): counted per target first, then filled in place.
    fn of(rows: &Runs) -> Predecessors {
        let n = rows.starts.len() - 1;
        let mut starts = vec![0u32; n + 1];
        let mut last_source = vec![u32::MAX; n];
        rows.each_live_edge(&mut last_source, |target, _| starts[target as usize + 1] += 1);
        (0..n).for_each(|i| starts[i + 1] += starts[i]);
        let mut fill = starts.clone();
        let mut sources = vec![0u32; starts[n] as usize];
        rows.each_live_edge(&mut last_source, |target, source| {
            sources[fill[target as usize] as usize] = source;
            fill[target as usize] += 1;
        });
        Predecessors { starts, sources, seen: vec![0; n], round: 0 }
    }

    /// The distinct states with a transition into one of `targets`.
    fn of_all(&mut self, targets: &[u32]) -> Vec<u32> {
        self.round += 1;
        let mut out = Vec::new();
        for &t in targets {
            for &s in &self.sources[self.starts[t as usize] as usize..self.starts[t as usize + 1] as usize] {
                if self.seen[s as usize] != self.round {
                    self.seen[s as usize] = self.round;
                    out.push(s);
                }
            }
        }
        out
    }
}

/// Blocks of states, each labelled by an id that stays with the block's unmoved part.
struct Partition {
    block: Vec<u32>,
    members: Vec<Vec<u32>>,
    /// Each state's index in its block's `members`.
    position: Vec<u32>,
    /// Round stamps marking this round's candidates.
    candidate: Vec<u32>,
    /// By block: the round `refine` last met it in (its fields below are this round's
    /// only then), whether a member that is not a candidate keeps its id, and the group
    /// its id stays with.
    met: Vec<u32>,
    kept: Vec<bool>,
    keeper: Vec<u32>,
    round: u32,
    /// Buffers of [`Partition::refine`], kept from round to round.
    scratch: RefineScratch,
}

/// What one round of refinement computes, in buffers kept between rounds: a lexer
/// that splits a counter one count per round runs a hundred rounds of a few hundred
/// states, where allocating them anew was most of the round.
#[derive(Default)]
struct RefineScratch {
    /// The candidates, then one resident per block met.
    examined: Vec<u32>,
    /// The examined states' signatures, one after the other, split at `bounds`.
    signatures: Vec<u32>,
    bounds: Vec<usize>,
    /// Groups of candidates by block and signature: `(hash, examined index of the
    /// group's first member, group)`.
    group_of: HashTable<(u64, u32, u32)>,
    /// Per group: its block and size.
    groups: Vec<(u32, u32)>,
    /// Per candidate: its group.
    candidate_groups: Vec<u32>,
    hasher: hashbrown::DefaultHashBuilder,
}

impl RefineScratch {
    fn signature(&self, i: usize) -> &[u32] {
        &self.signatures[self.bounds[i]..self.bounds[i + 1]]
    }

    fn hash(&self, block: u32, i: usize) -> u64 {
        self.hasher.hash_one((block, self.signature(i)))
    }

    /// The group of examined state `i` in `block` (`hash`: their [`RefineScratch::hash`]),
    /// if a candidate met before has its signature.
    fn find_group(&self, hash: u64, block: u32, i: usize) -> Option<u32> {
        let is_key = |&(h, first, group): &(u64, u32, u32)| {
            h == hash && self.groups[group as usize].0 == block && self.signature(first as usize) == self.signature(i)
        };
        self.group_of.find(hash, is_key).map(|&(_, _, group)| group)
    }
}

impl Partition {
    /// States with equal accepted and completable sets (and the start state alone).
    fn by_observation(lexer: &Lexer) -> Partition {
        let n = lexer.state_count();
        let mut ids: HashMap<(bool, &[TerminalId], &TerminalSet), u32> = HashMap::new();
        let mut partition = Partition {
            block: Vec::with_capacity(n),
            members: Vec::new(),
            position: Vec::with_capacity(n),
            candidate: vec![0; n],
            met: Vec::new(),
            kept: Vec::new(),
            keeper: Vec::new(),
            round: 0,
            scratch: RefineScratch::default(),
        };
        for q in (0..n).map(LexState::from_index) {
            let key = (lexer.is_start(q), lexer.accepts(q), lexer.completable(q));
            let next = ids.len() as u32;
            let block = *ids.entry(key).or_insert(next);
            if block == next {
                partition.add_block();
            }
            partition.block.push(block);
            partition.position.push(partition.members[block as usize].len() as u32);
            partition.members[block as usize].push(q.0);
        }
        partition
    }

    /// One round of Moore's refinement over `candidates`, the states whose successors
    /// may have moved; the states it moves to new blocks.
    ///
    /// A block's members that are not candidates keep their signature (their successors
    /// did not move, and they shared the block because their signatures were equal), so
    /// one of them stands for all; the candidates agreeing with it stay, the others
    /// split off by signature.
    fn refine(&mut self, rows: &Runs, candidates: &[u32]) -> Vec<u32> {
        self.round += 1;
        candidates.iter().for_each(|&q| self.candidate[q as usize] = self.round);
        let mut scratch = std::mem::take(&mut self.scratch);
        // One resident (non-candidate member) per block met, examined after the candidates;
        // blocks that have one are kept by it.
        scratch.examined.clear();
        scratch.examined.extend_from_slice(candidates);
        for &q in candidates {
            let block = self.block[q as usize] as usize;
            if self.met[block] == self.round {
                continue;
            }
            self.met[block] = self.round;
            self.keeper[block] = u32::MAX;
            let resident = self.members[block].iter().copied().find(|&m| self.candidate[m as usize] != self.round);
            self.kept[block] = resident.is_some();
            scratch.examined.extend(resident);
        }
        self.write_signatures(rows, &mut scratch);
        // Candidates by block and signature. A block's id stays with its resident's
        // group or, with no resident, with its largest group, so that the fewest states
        // move: the next round examines only their predecessors (keeping the first group
        // met instead moved most of a counter's states every round).
        scratch.group_of.clear();
        scratch.groups.clear();
        scratch.candidate_groups.clear();
        for (i, &q) in candidates.iter().enumerate() {
            let block = self.block[q as usize];
            let hash = scratch.hash(block, i);
            let group = match scratch.find_group(hash, block, i) {
                Some(group) => group,
                None => {
                    let group = scratch.groups.len() as u32;
                    scratch.groups.push((block, 0));
                    scratch.group_of.insert_unique(hash, (hash, i as u32, group), |&(h, _, _)| h);
                    group
                }
            };
            scratch.groups[group as usize].1 += 1;
            scratch.candidate_groups.push(group);
        }
        for i in candidates.len()..scratch.examined.len() {
            let block = self.block[scratch.examined[i] as usize];
            self.keeper[block as usize] = scratch.find_group(scratch.hash(block, i), block, i).unwrap_or(u32::MAX);
        }
        for (group, &(block, size)) in scratch.groups.iter().enumerate() {
            let (block, group) = (block as usize, group as u32);
            if !self.kept[block] && (self.keeper[block] == u32::MAX || size > scratch.groups[self.keeper[block] as usize].1) {
                self.keeper[block] = group;
            }
        }
        let mut fresh = self.members.len() as u32;
        let labels: Vec<u32> = (0..scratch.groups.len() as u32)
            .map(|group| {
                let block = scratch.groups[group as usize].0;
                if self.keeper[block as usize] == group {
                    block
                } else {
                    fresh += 1;
                    fresh - 1
                }
            })
            .collect();
        let moves: Vec<(u32, u32)> = candidates
            .iter()
            .zip(&scratch.candidate_groups)
            .map(|(&q, &group)| (q, labels[group as usize]))
            .filter(|&(q, to)| to != self.block[q as usize])
            .collect();
        self.scratch = scratch;
        moves.into_iter().map(|(q, to)| self.move_to(q, to)).collect()
    }

    /// Writes the signature of each examined state: its row's blocks as maximal runs
    /// `(last class, block)`, equal for two states exactly when their rows agree block
    /// for block on every class.
    fn write_signatures(&self, rows: &Runs, scratch: &mut RefineScratch) {
        let (signatures, bounds) = (&mut scratch.signatures, &mut scratch.bounds);
        signatures.clear();
        bounds.clear();
        bounds.push(0);
        for &q in &scratch.examined {
            let start = signatures.len();
            for &(last, target) in rows.row(q) {
                let block = self.block[target as usize];
                if signatures.len() > start && signatures[signatures.len() - 1] == block {
                    let at = signatures.len() - 2;
                    signatures[at] = last;
                } else {
                    signatures.extend([last, block]);
                }
            }
            bounds.push(signatures.len());
        }
    }

    /// Move state `q` into block `to` (a new block when `to` is one past the last).
    fn move_to(&mut self, q: u32, to: u32) -> u32 {
        let from = self.block[q as usize] as usize;
        let at = self.position[q as usize] as usize;
        self.members[from].swap_remove(at);
        if let Some(&displaced) = self.members[from].get(at) {
            self.position[displaced as usize] = at as u32;
        }
        if to as usize == self.members.len() {
            self.add_block();
        }
        self.block[q as usize] = to;
        self.position[q as usize] = self.members[to as usize].len() as u32;
        self.members[to as usize].push(q);
        q
    }

    /// A new, empty block, numbered after the others.
    fn add_block(&mut self) {
        self.members.push(Vec::new());
        self.met.push(0);
        self.kept.push(false);
        self.keeper.push(u32::MAX);
    }

    /// Each state's block, named by its smallest member.
    fn smallest_members(&self) -> Vec<LexState> {
        let smallest: Vec<u32> = self.members.iter().map(|m| m.iter().copied().min().unwrap_or(u32::MAX)).collect();
        self.block.iter().map(|&b| LexState(smallest[b as usize])).collect()
    }
}
