//! The lexer: every terminal of a grammar in one byte-level DFA.
//!
//! Boundary: takes the terminals of an [`ir::Grammar`](crate::ir::Grammar), returns a
//! [`Lexer`] whose states answer three questions the later stages ask:
//! where does byte `b` lead ([`Lexer::next`]), which terminals does the text read so far
//! match as a whole lexeme ([`Lexer::accepts`]), and which terminals can it still
//! become ([`Lexer::completable`], `Prod(q)` in the design notes).
//!
//! Each terminal's regex is parsed with [`regex_syntax`] and compiled to a Thompson NFA
//! by [`regex_automata`]; the DFA is the subset construction over the union of those
//! NFAs, where a subset element remembers which terminal it belongs to.
//!
//! # Semantics
//!
//! * **Maximal munch with one byte of lookahead.** A lexeme ends when the next byte
//!   cannot extend it; it never backtracks to a shorter match.
//! * **Sets, not choices.** When several terminals match the same lexeme, [`Lexer::accepts`]
//!   reports all of those with the highest priority (Lark's `NAME.N`); the parser keeps
//!   whichever fits.
//! * **Lazy quantifiers mean what they mean in Python's `re`.** A terminal whose regex
//!   contains a lazy repetition (`*?`, `+?`, `??`, `{n,m}?`) ends at its *earliest* match:
//!   once it matches, it is not extended further, so `".*?"` stops at the first closing
//!   quote. This equals Python's backtracking result for the usual shape "lazy repetition
//!   followed by a delimiter" and is documented in `docs/grammar-syntax.md`.
//! * `.` excludes `\n` unless the `s` flag is set (regex-syntax and Python agree).
//! * Anchors, word boundaries and look-around are rejected with [`Error::Terminal`]:
//!   a lexeme has no surrounding text to look at.
//!
//! # Example
//! ```
//! use stackmask::{Grammar, lexer::{Lexer, LexerConfig}};
//! let g = Grammar::from_lark(r#"
//!     start: (NAME | "if")+
//!     NAME: /[a-z]+/
//!     %ignore " "
//! "#).unwrap();
//! let lexer = Lexer::new(&g, &LexerConfig::default()).unwrap();
//! let mut q = lexer.start();
//! for &b in b"if" {
//!     q = lexer.next(q, b);
//! }
//! // "if" is both the keyword and a NAME: both are reported.
//! let names: Vec<_> = lexer.accepts(q).iter().map(|&t| g.terminal_name(t)).collect();
//! assert_eq!(names.len(), 2);
//! assert!(lexer.next(q, b' ').is_dead());
//! ```

use crate::error::{Deadline, Error, LimitKind, Result};
use crate::ir::{Grammar, Symbol, TerminalId, TerminalPattern, TerminalSet};
use hashbrown::HashMap;
use regex_automata::nfa::thompson::{self, WhichCaptures, NFA};
use regex_automata::util::primitives::StateID;
use regex_syntax::hir::{Hir, HirKind};
use std::time::Duration;

/// A state of the lexer DFA.
///
/// [`LexState::DEAD`] means no terminal can match; the lexer's start state (nothing
/// read since the last lexeme ended) is distinct from every other state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct LexState(u32);

impl LexState {
    /// The state with no future: nothing read so far can be part of any terminal.
    pub const DEAD: LexState = LexState(0);
    const START: LexState = LexState(1);

    /// Whether this is [`LexState::DEAD`].
    pub fn is_dead(self) -> bool {
        self == LexState::DEAD
    }

    /// The state's index, for tables indexed by lexer state.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The state of index `i` (`i < `[`Lexer::state_count`] for a state of that lexer).
    ///
    /// # Example
    /// ```
    /// use stackmask::lexer::LexState;
    /// assert!(LexState::from_index(0).is_dead());
    /// assert_eq!(LexState::from_index(7).index(), 7);
    /// ```
    pub fn from_index(i: usize) -> LexState {
        LexState(i as u32)
    }
}

/// Limits for building a [`Lexer`].
///
/// # Example
/// ```
/// use stackmask::lexer::LexerConfig;
/// use std::time::Duration;
/// let budget = Some(Duration::from_secs(1));
/// let config = LexerConfig { max_states: 1_000, time_budget: budget, ..LexerConfig::default() };
/// assert_eq!(config.max_states, 1_000);
/// ```
#[derive(Clone, Debug)]
pub struct LexerConfig {
    /// Maximum number of DFA states; exceeding it is [`Error::Limit`].
    pub max_states: usize,
    /// Maximum size in bytes of one terminal's compiled NFA.
    pub max_nfa_bytes: usize,
    /// Wall-clock budget for building the DFA, checked per terminal and per state;
    /// exceeding it is [`Error::Limit`] with [`LimitKind::CompileTime`]. `None`: no budget.
    pub time_budget: Option<Duration>,
}

impl Default for LexerConfig {
    fn default() -> Self {
        LexerConfig { max_states: 100_000, max_nfa_bytes: 10 << 20, time_budget: Some(Duration::from_secs(10)) }
    }
}

/// All terminals of a grammar as one byte-level DFA. Immutable and `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Lexer {
    /// Maps each byte to its equivalence class.
    classes: [u8; 256],
    /// Number of byte classes; the row length of `transitions`.
    stride: usize,
    /// `transitions[state * stride + class]`.
    transitions: Vec<LexState>,
    /// Per state: terminals matching the text read so far (highest priority only).
    accepts: Vec<Box<[TerminalId]>>,
    /// Per state: terminals some continuation can still produce (`Prod(q)`).
    completable: Vec<TerminalSet>,
    /// Terminals marked `%ignore`.
    ignored: TerminalSet,
}

impl Lexer {
    /// Build the DFA for every terminal that the grammar uses (in a production or as
    /// `%ignore`). Declared terminals (`%declare`) are not lexed.
    pub fn new(grammar: &Grammar, config: &LexerConfig) -> Result<Lexer> {
        Lexer::within(grammar, config, &Deadline::unlimited())
    }

    /// [`Lexer::new`] as one stage of a compile bounded by `compile`.
    pub(crate) fn within(grammar: &Grammar, config: &LexerConfig, compile: &Deadline) -> Result<Lexer> {
        let deadline = compile.stage(config.time_budget);
        let terminals = lexed_terminals(grammar);
        let mut nfas = Vec::with_capacity(terminals.len());
        for &t in &terminals {
            deadline.check()?;
            nfas.extend(TerminalNfa::compile(grammar, t, config)?);
        }
        Builder::new(grammar, &nfas, config, deadline).build()
    }

    /// The start state: nothing read since the last lexeme ended.
    pub fn start(&self) -> LexState {
        LexState::START
    }

    /// The state after reading `byte` in state `q`; [`LexState::DEAD`] if no terminal
    /// can continue.
    #[inline]
    pub fn next(&self, q: LexState, byte: u8) -> LexState {
        self.transitions[q.index() * self.stride + self.classes[byte as usize] as usize]
    }

    /// Terminals matching exactly the text read since the lexeme started, restricted to
    /// the highest priority among them. Empty for the start and dead states.
    #[inline]
    pub fn accepts(&self, q: LexState) -> &[TerminalId] {
        &self.accepts[q.index()]
    }

    /// Terminals that some continuation of the current lexeme can still match
    /// (including those matched now). Empty only for [`LexState::DEAD`].
    #[inline]
    pub fn completable(&self, q: LexState) -> &TerminalSet {
        &self.completable[q.index()]
    }

    /// Terminals marked `%ignore`.
    pub fn ignored(&self) -> &TerminalSet {
        &self.ignored
    }

    /// Whether `q` is the start state.
    pub fn is_start(&self, q: LexState) -> bool {
        q == LexState::START
    }

    /// Number of DFA states, including the dead and start states.
    pub fn state_count(&self) -> usize {
        self.accepts.len()
    }

    /// Number of byte equivalence classes.
    pub fn byte_class_count(&self) -> usize {
        self.stride
    }

    /// Feed every table of the DFA to `hasher` (for fingerprints of compiled grammars).
    pub(crate) fn hash_into(&self, hasher: &mut xxhash_rust::xxh3::Xxh3) {
        hasher.update(&self.classes);
        hasher.update(&(self.stride as u64).to_le_bytes());
        let words = |ids: &mut dyn Iterator<Item = u32>| ids.flat_map(u32::to_le_bytes).collect::<Vec<u8>>();
        hasher.update(&words(&mut self.transitions.iter().map(|q| q.0)));
        for accepts in &self.accepts {
            hasher.update(&(accepts.len() as u32).to_le_bytes());
            hasher.update(&words(&mut accepts.iter().map(|t| t.0)));
        }
        for set in self.completable.iter().chain([&self.ignored]) {
            hasher.update(&words(&mut set.iter().map(|t| t.0)));
            hasher.update(&u32::MAX.to_le_bytes());
        }
    }

    /// Approximate heap size of the tables in bytes.
    pub fn memory_bytes(&self) -> usize {
        let sets: usize = self.completable.iter().map(|s| s.len().div_ceil(64) * 8 + 16).sum();
        let accepts: usize = self.accepts.iter().map(|a| a.len() * 4 + 16).sum();
        self.transitions.len() * 4 + sets + accepts
    }
}

/// Terminals the lexer must recognise: used in a production, or ignored.
fn lexed_terminals(grammar: &Grammar) -> Vec<TerminalId> {
    let mut used = TerminalSet::new(grammar.terminals.len());
    for p in &grammar.productions {
        for s in &p.rhs {
            if let Symbol::Terminal(t) = s {
                used.insert(*t);
            }
        }
    }
    for (i, t) in grammar.terminals.iter().enumerate() {
        if t.ignored {
            used.insert(TerminalId(i as u32));
        }
    }
    used.iter().filter(|t| grammar.terminals[t.index()].pattern != TerminalPattern::Declared).collect()
}

/// Whether a lexeme must match an NFA of its terminal or must not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Require,
    Exclude,
}

/// One regex of a terminal compiled to a Thompson NFA. A terminal has one
/// (`TerminalPattern::Regex`) or several (`TerminalPattern::Compound`), adjacent in the
/// builder's list.
struct TerminalNfa {
    terminal: TerminalId,
    nfa: NFA,
    /// Ends at its earliest match (the regex has a lazy repetition).
    earliest: bool,
    priority: i32,
    role: Role,
    /// How many `Require` NFAs the terminal has: it matches where all of them match.
    required: u32,
}

impl TerminalNfa {
    /// The NFAs of one terminal: its `Require` regexes first, then its `Exclude` ones.
    fn compile(grammar: &Grammar, terminal: TerminalId, config: &LexerConfig) -> Result<Vec<TerminalNfa>> {
        let def = &grammar.terminals[terminal.index()];
        let error = |reason: String| Error::Terminal { terminal: def.name.clone(), reason };
        let (all, except): (Vec<&String>, Vec<&String>) = match &def.pattern {
            TerminalPattern::Regex(pattern) => (vec![pattern], Vec::new()),
            TerminalPattern::Compound { all, except } if !all.is_empty() => (all.iter().collect(), except.iter().collect()),
            TerminalPattern::Compound { .. } => return Err(error("a compound pattern needs a regex to match".into())),
            TerminalPattern::Declared => unreachable!("declared terminals are not lexed"),
        };
        let required = all.len() as u32;
        let mut nfas = Vec::with_capacity(all.len() + except.len());
        let mut may_be_empty = true;
        for (pattern, role) in all.iter().map(|p| (p, Role::Require)).chain(except.iter().map(|p| (p, Role::Exclude))) {
            let hir = parse_terminal_regex(pattern).map_err(error)?;
            if role == Role::Require {
                may_be_empty &= hir.properties().minimum_len() == Some(0);
            }
            let nfa = thompson::Compiler::new()
                .configure(
                    NFA::config().which_captures(WhichCaptures::None).nfa_size_limit(Some(config.max_nfa_bytes)),
                )
                .build_from_hir(&hir)
                .map_err(|e| error(format!("regex /{pattern}/ is too large: {e}")))?;
            let earliest = has_lazy_repetition(&hir) && required == 1 && except.is_empty();
            nfas.push(TerminalNfa { terminal, nfa, earliest, priority: def.priority, role, required });
        }
        if may_be_empty {
            let shown: Vec<String> = all.iter().map(|p| format!("/{p}/")).collect();
            return Err(error(format!("regex {} matches the empty string", shown.join(" & "))));
        }
        Ok(nfas)
    }
}

/// Parses one terminal regex, refusing what a lexeme cannot test (anchors, word boundaries).
fn parse_terminal_regex(pattern: &str) -> std::result::Result<Hir, String> {
    let hir = regex_syntax::ParserBuilder::new()
        .utf8(true)
        .build()
        .parse(pattern)
        .map_err(|e| format!("invalid regex /{pattern}/: {}", reason_line(&e.to_string())))?;
    if hir.properties().look_set().iter().next().is_some() {
        return Err(format!("regex /{pattern}/ uses an anchor or word boundary, which a lexeme cannot test"));
    }
    Ok(hir)
}

/// The last non-empty line of an error message (`regex_syntax` puts the reason there,
/// under a picture of the pattern).
pub(crate) fn reason_line(s: &str) -> String {
    s.lines().rfind(|l| !l.trim().is_empty()).unwrap_or(s).trim().to_string()
}

fn has_lazy_repetition(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Repetition(r) => !r.greedy || has_lazy_repetition(&r.sub),
        HirKind::Capture(c) => has_lazy_repetition(&c.sub),
        HirKind::Concat(xs) | HirKind::Alternation(xs) => xs.iter().any(has_lazy_repetition),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => false,
    }
}

/// A DFA state under construction: the NFA states (tagged with their terminal's
/// position in `nfas`) reachable after the text read so far.
type Subset = Vec<(u32, StateID)>;

/// The subset construction.
struct Builder<'a> {
    grammar: &'a Grammar,
    nfas: &'a [TerminalNfa],
    config: &'a LexerConfig,
    deadline: Deadline,
    classes: [u8; 256],
    /// One representative byte per class.
    representatives: Vec<u8>,
    ids: HashMap<(bool, Subset), LexState>,
    subsets: Vec<Subset>,
    transitions: Vec<LexState>,
    accepts: Vec<Box<[TerminalId]>>,
}

impl<'a> Builder<'a> {
    fn new(
        grammar: &'a Grammar,
        nfas: &'a [TerminalNfa],
        config: &'a LexerConfig,
        deadline: Deadline,
    ) -> Builder<'a> {
        let (classes, representatives) = byte_classes(nfas);
        Builder {
            grammar,
            nfas,
            config,
            deadline,
            classes,
            representatives,
            ids: HashMap::new(),
            subsets: Vec::new(),
            transitions: Vec::new(),
            accepts: Vec::new(),
        }
    }

    fn build(mut self) -> Result<Lexer> {
        let dead = self.intern(false, Vec::new())?;
        debug_assert_eq!(dead, LexState::DEAD);
        let start_subset = self.closure(self.nfas.iter().enumerate().map(|(i, n)| (i as u32, n.nfa.start_anchored())));
        // The start state is interned apart from every other state, so that "nothing
        // read yet" is never confused with a state reached after reading bytes.
        let start = self.intern(true, start_subset)?;
        debug_assert_eq!(start, LexState::START);
        let stride = self.representatives.len();
        let mut next_unexplored = 0;
        while next_unexplored < self.subsets.len() {
            self.deadline.check()?;
            let state = next_unexplored;
            next_unexplored += 1;
            for class in 0..stride {
                let byte = self.representatives[class];
                let target = self.step(state, byte);
                let id = self.intern(false, target)?;
                self.transitions[state * stride + class] = id;
            }
        }
        let completable = self.completable_sets()?;
        let mut ignored = TerminalSet::new(self.grammar.terminals.len());
        for (i, t) in self.grammar.terminals.iter().enumerate() {
            if t.ignored {
                ignored.insert(TerminalId(i as u32));
            }
        }
        Ok(Lexer {
            classes: self.classes,
            stride,
            transitions: self.transitions,
            accepts: self.accepts,
            completable,
            ignored,
        })
    }

    fn intern(&mut self, is_start: bool, subset: Subset) -> Result<LexState> {
        let key = (is_start, subset);
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        if self.subsets.len() >= self.config.max_states {
            return Err(Error::Limit {
                kind: LimitKind::LexerStates,
                value: self.subsets.len() + 1,
                limit: self.config.max_states,
            });
        }
        let id = LexState(self.subsets.len() as u32);
        self.accepts.push(self.accepted_terminals(&key.1));
        self.subsets.push(key.1.clone());
        self.transitions.extend(std::iter::repeat(LexState::DEAD).take(self.representatives.len()));
        self.ids.insert(key, id);
        Ok(id)
    }

    fn is_match(&self, terminal: u32, state: StateID) -> bool {
        matches!(self.nfas[terminal as usize].nfa.state(state), thompson::State::Match { .. })
    }

    /// Terminals with a match state in `subset`, keeping only the highest priority. A
    /// compound terminal matches when each of its `Require` NFAs has a match state and
    /// none of its `Exclude` NFAs has one.
    fn accepted_terminals(&self, subset: &Subset) -> Box<[TerminalId]> {
        let mut matched: Vec<&TerminalNfa> = Vec::new();
        for run in terminal_runs(subset, self.nfas) {
            let first = &self.nfas[run[0].0 as usize];
            let excluded =
                run.iter().any(|&(i, s)| self.nfas[i as usize].role == Role::Exclude && self.is_match(i, s));
            if !excluded && self.distinct_required(run, |i, s| self.is_match(i, s)) == first.required as usize {
                matched.push(first);
            }
        }
        let Some(top) = matched.iter().map(|n| n.priority).max() else {
            return Box::new([]);
        };
        let mut ids: Vec<TerminalId> = matched.iter().filter(|n| n.priority == top).map(|n| n.terminal).collect();
        ids.sort();
        ids.dedup();
        ids.into_boxed_slice()
    }

    /// The subset after reading `byte` from DFA state `state`.
    fn step(&self, state: usize, byte: u8) -> Subset {
        let moved = self.subsets[state].iter().filter_map(|&(t, s)| {
            let next = match self.nfas[t as usize].nfa.state(s) {
                thompson::State::ByteRange { trans } => trans.matches_byte(byte).then_some(trans.next),
                thompson::State::Sparse(sparse) => sparse.matches_byte(byte),
                thompson::State::Dense(dense) => dense.matches_byte(byte),
                _ => None,
            };
            next.map(|n| (t, n))
        });
        self.closure(moved)
    }

    /// ε-closure of `seeds`, keeping only byte-consuming and match states, sorted.
    /// A terminal that matches with earliest-match semantics loses its other states.
    fn closure(&self, seeds: impl Iterator<Item = (u32, StateID)>) -> Subset {
        let mut out: Subset = Vec::new();
        let mut seen: hashbrown::HashSet<(u32, StateID)> = hashbrown::HashSet::new();
        let mut stack: Vec<(u32, StateID)> = seeds.collect();
        while let Some((t, s)) = stack.pop() {
            if !seen.insert((t, s)) {
                continue;
            }
            match self.nfas[t as usize].nfa.state(s) {
                thompson::State::Union { alternates } => stack.extend(alternates.iter().map(|&a| (t, a))),
                thompson::State::BinaryUnion { alt1, alt2 } => stack.extend([(t, *alt1), (t, *alt2)]),
                thompson::State::Capture { next, .. } => stack.push((t, *next)),
                thompson::State::Fail => {}
                // Look states were rejected when the terminal was compiled.
                thompson::State::Look { .. } => {}
                _ => out.push((t, s)),
            }
        }
        self.end_earliest_matches(&mut out);
        out.sort_unstable();
        self.drop_unmatchable_compounds(&mut out);
        out
    }

    /// A compound terminal one of whose `Require` NFAs has no state left can no longer
    /// match: drop its other states, so that dead text reaches the dead state.
    fn drop_unmatchable_compounds(&self, subset: &mut Subset) {
        let mut dead_terminals = Vec::new();
        for run in terminal_runs(subset, self.nfas) {
            let first = &self.nfas[run[0].0 as usize];
            if self.distinct_required(run, |_, _| true) < first.required as usize {
                dead_terminals.push(first.terminal);
            }
        }
        if !dead_terminals.is_empty() {
            subset.retain(|(i, _)| !dead_terminals.contains(&self.nfas[*i as usize].terminal));
        }
    }

    /// How many distinct `Require` NFAs of one terminal's `run` (sorted) have an entry
    /// for which `keep(nfa, state)` holds.
    fn distinct_required(&self, run: &[(u32, StateID)], keep: impl Fn(u32, StateID) -> bool) -> usize {
        let mut nfas: Vec<u32> = run
            .iter()
            .filter(|&&(i, s)| self.nfas[i as usize].role == Role::Require && keep(i, s))
            .map(|&(i, _)| i)
            .collect();
        nfas.dedup();
        nfas.len()
    }

    /// For terminals with earliest-match semantics that match here, keep only the match.
    fn end_earliest_matches(&self, subset: &mut Subset) {
        let ended: Vec<u32> = subset
            .iter()
            .filter(|(t, s)| self.nfas[*t as usize].earliest && self.is_match(*t, *s))
            .map(|(t, _)| *t)
            .collect();
        if !ended.is_empty() {
            subset.retain(|(t, s)| !ended.contains(t) || self.is_match(*t, *s));
        }
    }

    /// `Prod(q)`: the union of `accepts` over every state reachable from `q`.
    fn completable_sets(&self) -> Result<Vec<TerminalSet>> {
        let n = self.subsets.len();
        let capacity = self.grammar.terminals.len();
        let mut sets: Vec<TerminalSet> = self
            .accepts
            .iter()
            .map(|a| {
                let mut s = TerminalSet::new(capacity);
                a.iter().for_each(|&t| {
                    s.insert(t);
                });
                s
            })
            .collect();
        let stride = self.representatives.len();
        let mut changed = true;
        while changed {
            changed = false;
            for q in (0..n).rev() {
                self.deadline.check()?;
                for class in 0..stride {
                    let target = self.transitions[q * stride + class].index();
                    if target != q && target != LexState::DEAD.index() {
                        let (a, b) = if q < target {
                            let (lo, hi) = sets.split_at_mut(target);
                            (&mut lo[q], &hi[0])
                        } else {
                            let (lo, hi) = sets.split_at_mut(q);
                            (&mut hi[0], &lo[target])
                        };
                        changed |= a.union_with(b);
                    }
                }
            }
        }
        Ok(sets)
    }
}

/// Splits a sorted subset into the runs of entries that belong to one terminal (a
/// terminal's NFAs are adjacent in `nfas`).
fn terminal_runs<'s>(subset: &'s Subset, nfas: &'s [TerminalNfa]) -> impl Iterator<Item = &'s [(u32, StateID)]> {
    subset.chunk_by(move |a, b| nfas[a.0 as usize].terminal == nfas[b.0 as usize].terminal)
}

/// Byte equivalence classes over every transition of every NFA, and one
/// representative byte per class.
fn byte_classes(nfas: &[TerminalNfa]) -> ([u8; 256], Vec<u8>) {
    let mut boundary = [false; 257];
    boundary[0] = true;
    let mut mark = |start: u8, end: u8| {
        boundary[start as usize] = true;
        boundary[end as usize + 1] = true;
    };
    for n in nfas {
        for state in n.nfa.states() {
            match state {
                thompson::State::ByteRange { trans } => mark(trans.start, trans.end),
                thompson::State::Sparse(sparse) => sparse.transitions.iter().for_each(|t| mark(t.start, t.end)),
                thompson::State::Dense(_) => (0..=255u8).for_each(|b| mark(b, b)),
                _ => {}
            }
        }
    }
    let mut classes = [0u8; 256];
    let mut representatives = Vec::new();
    for b in 0..256usize {
        if boundary[b] {
            representatives.push(b as u8);
        }
        classes[b] = (representatives.len() - 1) as u8;
    }
    (classes, representatives)
}

#[cfg(test)]
mod tests;
