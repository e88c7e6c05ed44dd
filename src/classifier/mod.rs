//! The stack classifier: token masks computed by reading the parser stack, at a cost
//! that follows the stack and not the vocabulary.
//!
//! Boundary: takes a [`TokenSpanner`] (lexer state × token → lexemes, grouped into token
//! classes) and the LR tables; answers, for the GSS of a [`Parser`] and the pending lexer
//! state `q`, which non-empty tokens keep the text a viable prefix. Its entry point is
//! [`Matcher::with_classifier`](crate::Matcher::with_classifier): the matcher hands it a
//! parser and lexer state of the same grammar, a mask of the vocabulary's size, and
//! settles EOS and empty tokens itself.
//!
//! # How
//!
//! For each lexer state `q` the classifier is a deterministic automaton whose input is
//! the parser stack read top-down (LR state ids) and whose edges carry token sets:
//!
//! * its states are sets of *blocked configurations*: symbolic runs of the class lexeme
//!   sequences of `q`'s spanner row that need to see deeper into the stack (see the
//!   `simulate` module); the start state holds the one run that has read nothing;
//! * an edge, taken on reading one LR state, carries the token classes decided viable
//!   by that read whatever lies deeper, as a precomputed token set (dense bitmaps of the
//!   large classes plus the other tokens' ids, or one dense bitmap);
//! * the mask is the union, over every path of the GSS from every head, of the token
//!   sets on the edges taken; a GSS node is visited once per automaton state (shared
//!   stack tails are read once), and a path stops when the automaton state is empty,
//!   the point past which deeper stack cannot change the answer.
//!
//! A lexer state planned [`Plan::Derived`] (see [`TokenSpanner::plan`]) has no automaton
//! of its own: its mask is its reference's, with the tokens the reference does not
//! settle for it taken out, and its part's automaton supplies those. One planned
//! [`Plan::AfterClosing`] is the same with the start state's mask read over the parse
//! that takes its lexeme, which the matcher makes (`StackClassifier::begin_mask`).
//!
//! States and edges are built on first use (like `regex-automata`'s lazy DFA) and kept
//! in a cache whose memory is bounded by [`ClassifierConfig::cache_capacity`]: past it, a
//! lexer state's cache is cleared and rebuilt as needed. [`StackClassifier::build_eager`]
//! builds the edges reachable within [`ClassifierConfig::eager_depth`] stack reads up
//! front; deeper ones are still built on first use.
//!
//! When a transition cannot be built within [`ClassifierConfig`]'s bounds (grammars with
//! hidden left recursion push without bound), the mask for that step is computed by the
//! exact per-class path instead; [`StackClassifier::stats`] counts such steps.
//!
//! # Example
//! ```
//! use stackmask::{Grammar, CompiledGrammar, Matcher, classifier::StackClassifier, tokenizer::Vocabulary};
//! use std::sync::Arc;
//! let g = Grammar::from_lark(r#"start: "[" (NUM ("," NUM)*)? "]"
//!                               NUM: /[0-9]+/"#).unwrap();
//! let tokens = ["[", "]", "1", "12", ",", "],", "1]", "<eos>"];
//! let vocab = Arc::new(Vocabulary::from_token_bytes(
//!     tokens.iter().map(|t| t.as_bytes().to_vec()).collect(), Some(7)));
//! let classifier = Arc::new(StackClassifier::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab));
//! let mut m = Matcher::with_classifier(classifier);
//! m.commit(0).unwrap(); // "["
//! m.commit(3).unwrap(); // "12"
//! let mut mask = vec![0u32; m.mask_words()];
//! m.compute_mask(&mut mask).unwrap();
//! // "]" "1" "12" "," "1]" are allowed; "[" "]," and EOS are not.
//! assert_eq!(mask[0], 0b1011110);
//! assert_eq!(stackmask::matcher::oracle::reference_mask(&m).unwrap(), mask);
//! ```

mod artifact;
mod lexeme_trie;
mod simulate;
mod sources;

pub use artifact::ArtifactConfig;

use crate::error::{Deadline, Error, LimitKind, Result};
use crate::glr::{NodeId, Parser};
use crate::ir::TerminalSet;
use crate::lexer::LexState;
use crate::lr::{LrState, LrTables};
use crate::matcher::CompiledGrammar;
use crate::spanner::{Derivation, Plan, SpannerRow, TokenSpanner};
use crate::tokenizer::{TokenTrie, Vocabulary};
use crate::words::Words;
use hashbrown::{HashMap, HashSet};
use lexeme_trie::LexemeTrie;
use rayon::prelude::*;
use simulate::{Blocked, Limits, Overflow, Simulator};
use sources::{Sources, Write};
use smallvec::SmallVec;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, RwLock, RwLockReadGuard};
use std::time::Duration;

/// Bounds of the classifier.
///
/// # Example
/// ```
/// use stackmask::classifier::ClassifierConfig;
/// let config = ClassifierConfig { cache_capacity: 64 << 20, ..Default::default() };
/// assert_eq!(config.cache_capacity, 64 << 20);
/// ```
#[derive(Clone, Debug)]
pub struct ClassifierConfig {
    /// Bytes of automaton states, edges and token sets (with each built lexer state's
    /// trie and large-class bitmaps) past which a lexer state's states, edges and token
    /// sets are cleared (checked at the start of a mask).
    pub cache_capacity: usize,
    /// Stack states one symbolic run may know above the unread rest, beyond one per
    /// lexeme of the lexer state's longest token class (a token of 96 `-` shifts 96
    /// states in a grammar with unary minus); beyond it the step falls back to the exact
    /// per-class mask. What it bounds is the states ε-reductions push without consuming
    /// (hidden left recursion pushes without end).
    pub max_known_stack: usize,
    /// Symbolic configurations explored while building one transition; beyond it the
    /// step falls back to the exact per-class mask.
    pub max_transition_work: usize,
    /// Stack states read along the edges [`StackClassifier::build_eager`] builds.
    pub eager_depth: usize,
    /// Wall-clock budget of [`StackClassifier::build_eager`], checked per lexer state and
    /// per edge; exceeding it is [`Error::Limit`] with [`LimitKind::EagerBuildTime`].
    /// `None`: no budget. Default: 60 s.
    pub eager_time_budget: Option<Duration>,
}

impl Default for ClassifierConfig {
    fn default() -> Self {
        ClassifierConfig {
            cache_capacity: 1 << 30,
            max_known_stack: 64,
            max_transition_work: 2_000_000,
            eager_depth: 1,
            eager_time_budget: Some(Duration::from_secs(60)),
        }
    }
}

/// Sizes of what a [`StackClassifier`] has built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassifierStats {
    /// Lexer states whose automaton exists: only the states rows are built for (a state
    /// sharing another's row, see [`TokenSpanner::row_state`], shares its automaton).
    pub lexer_states: usize,
    /// Lexer states whose masks are derived from another's ([`TokenSpanner::plan`]) and
    /// whose part's automaton exists (its states and edges are counted in the fields
    /// below).
    pub derived_lexer_states: usize,
    /// Automaton states over all lexer states.
    pub states: usize,
    /// Automaton edges over all lexer states.
    pub edges: usize,
    /// Distinct token sets carried by edges.
    pub outputs: usize,
    /// Approximate heap bytes of automata and token sets (not spanner rows).
    pub bytes: usize,
    /// Edges that could not be built within the bounds (their steps use the per-class path).
    pub overflowed_edges: usize,
}

/// How many automata and automaton edges a [`StackClassifier`] has built
/// ([`StackClassifier::builds`]): counts that only grow.
///
/// An automaton is built on the first use of a lexer state's row (or of a derived
/// state's part), which walks the vocabulary's trie for that state; an edge, when a
/// mask reads a stack state its automaton has not read from there before. Two readings
/// taken around a mask tell which of the two it paid for.
///
/// # Example
/// ```
/// use stackmask::classifier::Builds;
/// let before = Builds { automata: 1, edges: 4 };
/// let after = Builds { automata: 1, edges: 6 };
/// assert_eq!(after.since(before), Builds { automata: 0, edges: 2 });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Builds {
    /// Automata built: first uses of a lexer state's row or of a derived state's part.
    pub automata: u64,
    /// Automaton edges built.
    pub edges: u64,
}

impl Builds {
    /// What was built between the reading `earlier` and this one.
    pub fn since(self, earlier: Builds) -> Builds {
        Builds { automata: self.automata - earlier.automata, edges: self.edges - earlier.edges }
    }
}

impl ClassifierStats {
    /// Add what `automaton` holds (not its lexer state: the caller counts those).
    fn count(&mut self, automaton: &RowAutomaton) {
        let dfa = automaton.dfa.read().unwrap_or_else(|p| p.into_inner());
        self.states += dfa.states.len();
        self.edges += dfa.edges.len();
        self.outputs += dfa.outputs.len();
        self.bytes += dfa.bytes + automaton.bytes;
        self.overflowed_edges += dfa.overflowed;
    }
}

/// The stack classifier of one grammar and one vocabulary. Immutable apart from its
/// lazily filled caches; `Send + Sync`, shared by every sequence (see the
/// [module documentation](self)).
pub struct StackClassifier {
    spanner: Arc<TokenSpanner>,
    config: ClassifierConfig,
    /// Per LR state, the terminals it shifts, as a set (filled on first use: the tables
    /// of a large schema have tens of thousands of states, most never simulated).
    shiftable: Box<[OnceLock<TerminalSet>]>,
    /// By lexer state (only row states' are used), boxed: a schema's lexer may have tens
    /// of thousands of states, and an automaton is hundreds of bytes, so unboxed slots
    /// were megabytes to allocate and fault in before the first mask.
    automata: Box<[OnceLock<Box<RowAutomaton>>]>,
    /// By lexer state, as `automata`: the automaton of a derived state's part
    /// ([`TokenSpanner::part`]).
    parts: Box<[OnceLock<Box<PartAutomaton>>]>,
    /// `u32` words of a mask.
    words: usize,
    /// Bytes counted against [`ClassifierConfig::cache_capacity`].
    bytes: AtomicUsize,
    /// Automata built so far ([`StackClassifier::builds`]).
    automata_built: AtomicU64,
    /// Edges built so far ([`StackClassifier::builds`]).
    edges_built: AtomicU64,
}

impl std::fmt::Debug for StackClassifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StackClassifier").field("stats", &self.stats()).finish()
    }
}

/// The automaton of one lexer state.
struct RowAutomaton {
    row: Arc<SpannerRow>,
    trie: LexemeTrie,
    /// Dense token bitmaps (mask layout) of the row's classes of more than
    /// [`LARGE_CLASS`] tokens, by class index.
    large: HashMap<u32, Words>,
    /// Bytes of `trie` and `large` (fixed once built).
    bytes: usize,
    dfa: RwLock<Dfa>,
}

/// The automaton of a derived state's part, and how to take the tokens it decides out
/// of its reference's mask.
struct PartAutomaton {
    automaton: RowAutomaton,
    /// All tokens but those to take out, when they are too many to clear one by one.
    keep: Option<Words>,
}

/// How [`StackClassifier::begin_mask`] leaves a mask for the matcher.
pub(crate) enum MaskPlan<'a> {
    /// Written (`true`), or left as it was because an edge cannot be built within the
    /// bounds (`false`: the exact per-class path serves the step).
    Written(bool),
    /// To be written from the start state's automaton over the parse that takes the
    /// pending lexeme (no parse takes it: no token closing it first is viable), then
    /// completed by the part of the tokens that continue the lexeme instead, if any
    /// ([`Plan::AfterClosing`]; none when every byte closes it).
    AfterClosing(Option<WalkedPart<'a>>),
}

/// A derived state's part walked over a GSS: what corrects its reference's mask there.
/// Holds the part's automaton read-locked (see [`StackClassifier::derived_mask_into`]
/// for the lock order).
pub(crate) struct WalkedPart<'a> {
    part: &'a PartAutomaton,
    derivation: &'a Derivation,
    trie: &'a TokenTrie,
    dfa: RwLockReadGuard<'a, Dfa>,
    outputs: SmallVec<[u32; 8]>,
}

impl WalkedPart<'_> {
    /// Turn the reference's `mask` into the derived state's: take out the tokens the
    /// reference does not settle, and add the part's.
    pub(crate) fn complete(self, mask: &mut [u32]) {
        match &self.part.keep {
            Some(keep) => mask.iter_mut().zip(keep.iter()).for_each(|(m, k)| *m &= k),
            None => self.derivation.cleared(self.trie).for_each(|tokens| clear_bits(mask, tokens)),
        }
        let mut sources = Sources::default();
        self.outputs.iter().for_each(|&o| self.dfa.outputs[o as usize].add_to(&self.part.automaton, &mut sources));
        sources.write(mask, Write::Or);
    }
}

/// Classes with more tokens than this are kept as dense bitmaps, so that a token set
/// holding them is written with word-wide ORs rather than token by token.
const LARGE_CLASS: usize = 512;

/// The token set on an edge: large classes by index (dense bitmaps in the row) plus the
/// remaining tokens, or one dense bitmap when that is smaller.
enum Output {
    /// `tokens` come class after class, each class's ids ascending, and are not sorted as
    /// a whole: masks only set their bits, and the sort (of up to thousands of ids) ran
    /// inside every edge a mask built. Artifacts write them sorted (and load them so).
    Sparse { large: Box<[u32]>, tokens: Words },
    Dense(Words),
}

impl Output {
    fn new(classes: &[u32], automaton: &RowAutomaton, words: usize) -> Output {
        let (large, small): (Vec<u32>, Vec<u32>) = classes.iter().partition(|&&c| automaton.large.contains_key(&c));
        let small_tokens = || small.iter().map(|&c| automaton.row.tokens(c as usize));
        let count: usize = small_tokens().map(<[u32]>::len).sum();
        if large.len() * words + count > 2 * words {
            // Written straight from the classes: no list of their ids made first.
            let mut dense = vec![0u32; words];
            large.iter().for_each(|c| crate::matcher::or_into(&mut dense, &automaton.large[c]));
            small_tokens().for_each(|tokens| crate::matcher::set_bits(&mut dense, tokens));
            return Output::Dense(dense.into());
        }
        let mut tokens = Vec::with_capacity(count);
        small_tokens().for_each(|ids| tokens.extend_from_slice(ids));
        Output::Sparse { large: large.into(), tokens: tokens.into() }
    }

    /// Add the token set to those a mask is written from.
    fn add_to<'a>(&'a self, automaton: &'a RowAutomaton, sources: &mut Sources<'a>) {
        match self {
            Output::Dense(bits) => sources.dense(bits),
            Output::Sparse { large, tokens } => {
                large.iter().for_each(|c| sources.dense(&automaton.large[c]));
                sources.sparse(tokens);
            }
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Output::Dense(bits) => bits.len() * 4,
            Output::Sparse { large, tokens } => (large.len() + tokens.len()) * 4,
        }
    }
}

/// Automaton state ids: `DEAD` is the empty configuration set, `START` the initial one.
const DEAD: u32 = 0;
const START: u32 = 1;
/// No token set on an edge.
const NO_OUTPUT: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
enum Edge {
    To { target: u32, output: u32 },
    Overflow,
}

/// The lazily built part of a lexer state's automaton.
struct Dfa {
    states: Vec<Arc<[Blocked]>>,
    /// Per state, when every configuration of it still skips states of the real stack:
    /// how many it skips (all of them at least) and the state after them.
    skips: Vec<Option<Skip>>,
    ids: HashMap<Arc<[Blocked]>, u32>,
    edges: HashMap<(u32, LrState), Edge>,
    /// One token set per distinct set of accepted classes.
    outputs: Vec<Output>,
    output_ids: HashMap<Words, u32>,
    /// Bytes added since [`Dfa::new`], all of them also counted in the classifier's total.
    bytes: usize,
    overflowed: usize,
}

/// A state whose configurations all skip at least `levels` states of the real stack:
/// reading those decides nothing and leads to `target` whatever they are, so a walk
/// drops that many GSS levels at once instead of building and looking up an edge per
/// level (in a JSON object of a hundred properties the walk went down the whole object
/// that way, an edge per level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Skip {
    levels: u32,
    target: u32,
}

impl Dfa {
    fn new() -> Dfa {
        let mut dfa = Dfa {
            states: Vec::new(),
            skips: Vec::new(),
            ids: HashMap::new(),
            edges: HashMap::new(),
            outputs: Vec::new(),
            output_ids: HashMap::new(),
            bytes: 0,
            overflowed: 0,
        };
        dfa.intern_state(Vec::new());
        dfa.intern_state(vec![Blocked::START]);
        dfa.bytes = 0;
        dfa
    }

    fn intern_state(&mut self, configs: Vec<Blocked>) -> u32 {
        match self.ids.get(configs.as_slice()) {
            Some(&id) => id,
            None => {
                let id = self.push_state(configs).expect("a state not interned yet");
                self.link_skip(id);
                id
            }
        }
    }

    /// Add the state of `configs`, its id; `None` when it is one already. A state that
    /// skips gets its [`Skip`] from [`Dfa::link_skip`].
    fn push_state(&mut self, configs: Vec<Blocked>) -> Option<u32> {
        let id = self.states.len() as u32;
        let configs: Arc<[Blocked]> = configs.into();
        let bytes = configs.len() * std::mem::size_of::<Blocked>() * 2 + 64;
        let hashbrown::hash_map::Entry::Vacant(slot) = self.ids.entry(Arc::clone(&configs)) else { return None };
        slot.insert(id);
        self.bytes += bytes;
        self.states.push(configs);
        self.skips.push(None);
        Some(id)
    }

    /// Give state `id` its [`Skip`] if all its configurations skip states, interning the
    /// state after them (which skips none: one of its configurations takes a goto next).
    fn link_skip(&mut self, id: u32) {
        let configs = Arc::clone(&self.states[id as usize]);
        let Some(levels) = configs.iter().map(Blocked::pops).min().filter(|&levels| levels > 0) else { return };
        let target = self.intern_state(configs.iter().map(|b| b.after_skipping(levels)).collect());
        self.skips[id as usize] = Some(Skip { levels, target });
    }

    fn intern_output(&mut self, classes: Vec<u32>, automaton: &RowAutomaton, words: usize) -> u32 {
        if classes.is_empty() {
            return NO_OUTPUT;
        }
        if let Some(&id) = self.output_ids.get(classes.as_slice()) {
            return id;
        }
        let output = Output::new(&classes, automaton, words);
        self.push_output(classes.into(), output).expect("a token set not interned yet")
    }

    /// Add `output`, the token set of `classes`, its id; `None` when `classes` have one
    /// already.
    fn push_output(&mut self, classes: Words, output: Output) -> Option<u32> {
        let id = self.outputs.len() as u32;
        let bytes = output.bytes() + classes.len() * 4 + 64;
        let hashbrown::hash_map::Entry::Vacant(slot) = self.output_ids.entry(classes) else { return None };
        slot.insert(id);
        self.bytes += bytes;
        self.outputs.push(output);
        Some(id)
    }
}

impl StackClassifier {
    /// A lazy classifier: nothing is built until a mask needs it.
    pub fn new(compiled: Arc<CompiledGrammar>, vocab: Arc<Vocabulary>) -> StackClassifier {
        StackClassifier::with_config(compiled, vocab, ClassifierConfig::default())
    }

    /// A lazy classifier with `config`.
    pub fn with_config(compiled: Arc<CompiledGrammar>, vocab: Arc<Vocabulary>, config: ClassifierConfig) -> StackClassifier {
        StackClassifier::with_spanner(Arc::new(TokenSpanner::new(compiled, vocab)), config)
    }

    /// A lazy classifier over `spanner` (whose built rows it uses as they are).
    fn with_spanner(spanner: Arc<TokenSpanner>, config: ClassifierConfig) -> StackClassifier {
        let tables = spanner.compiled().tables();
        let shiftable = (0..tables.state_count()).map(|_| OnceLock::new()).collect();
        let states = spanner.compiled().lexer().state_count();
        let (automata, parts) = ((0..states).map(|_| OnceLock::new()).collect(), (0..states).map(|_| OnceLock::new()).collect());
        let words = spanner.vocab().len().div_ceil(32);
        StackClassifier { spanner, config, shiftable, automata, parts, words, bytes: AtomicUsize::new(0), automata_built: AtomicU64::new(0), edges_built: AtomicU64::new(0) }
    }

    /// The token spanner it classifies (also the exact fallback path's input).
    pub fn spanner(&self) -> &Arc<TokenSpanner> {
        &self.spanner
    }

    /// The compiled grammar.
    pub fn compiled(&self) -> &Arc<CompiledGrammar> {
        self.spanner.compiled()
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &Arc<Vocabulary> {
        self.spanner.vocab()
    }

    /// Its bounds.
    pub fn config(&self) -> &ClassifierConfig {
        &self.config
    }

    /// Build, up front and in parallel, what masks would otherwise build on first use:
    /// the spanner row, lexeme trie and large-class bitmaps of every lexer state, and
    /// every automaton edge reachable by reading at most [`ClassifierConfig::eager_depth`]
    /// states of any LR stack (deeper edges are still built lazily; the full closure over
    /// every stack grows with the product of lexer states, LR paths and configuration
    /// sets, gigabytes on a Java grammar).
    ///
    /// Past [`ClassifierConfig::eager_time_budget`] it stops with [`Error::Limit`]
    /// ([`LimitKind::EagerBuildTime`]), and once what it built passes
    /// [`ClassifierConfig::cache_capacity`] with [`LimitKind::EagerBuildMemory`] (a lexer
    /// of tens of thousands of states, such as a JSON schema's `hostname` format's, has as
    /// many automata: gigabytes); the classifier stays as exact as before (what is not
    /// built yet is built on first use).
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, classifier::StackClassifier, lexer::LexState, tokenizer::Vocabulary};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "(" start ")" | "x""#).unwrap();
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(
    ///     ["(", ")", "x", "x)", "))"].iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// let c = StackClassifier::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab);
    /// c.build_eager().unwrap();
    /// let stats = c.stats();
    /// // Every state a row is built for has its automaton, but the dead one and those
    /// // closing their lexeme on every byte (after "(", ")" and "x"), whose masks the
    /// // start state's automaton serves.
    /// let (lexer, spanner) = (c.compiled().lexer(), c.spanner());
    /// let rows = (1..lexer.state_count()).map(LexState::from_index).filter(|&q| spanner.row_state(q) == q);
    /// assert_eq!(stats.lexer_states, rows.filter(|&q| !spanner.closes_on_every_byte(q)).count());
    /// assert_eq!(stats.lexer_states, 1);
    /// assert!(stats.edges > 0);
    /// ```
    pub fn build_eager(&self) -> Result<()> {
        let deadline = Deadline::total(self.config.eager_time_budget, LimitKind::EagerBuildTime);
        let tables = self.compiled().tables();
        let predecessors = predecessors(tables);
        let heads = possible_heads(tables);
        (0..self.automata.len()).into_par_iter().try_for_each(|q| {
            let q = LexState::from_index(q);
            // The matcher reads a closing state's masks off the start state's automaton.
            if q.is_dead() || self.spanner.row_state(q) != q || self.spanner.closes_on_every_byte(q) {
                return Ok(());
            }
            deadline.check()?;
            self.check_eager_memory()?;
            self.build_eager_row(self.automaton(q), &predecessors, &heads, &deadline)
        })
    }

    /// The eager build's memory bound: the cache's capacity, which masks would otherwise
    /// clear it down to.
    fn check_eager_memory(&self) -> Result<()> {
        let (value, limit) = (self.bytes.load(Ordering::Relaxed), self.config.cache_capacity);
        if value > limit {
            return Err(Error::Limit { kind: LimitKind::EagerBuildMemory, value, limit });
        }
        Ok(())
    }

    /// The edges of one lexer state's automaton within [`ClassifierConfig::eager_depth`]
    /// reads from `heads`.
    fn build_eager_row(
        &self,
        automaton: &RowAutomaton,
        predecessors: &[Vec<LrState>],
        heads: &[LrState],
        deadline: &Deadline,
    ) -> Result<()> {
        let mut dfa = automaton.dfa.write().unwrap_or_else(|p| p.into_inner());
        let mut queue: Vec<(u32, LrState, usize)> = heads.iter().map(|&s| (START, s, 1)).collect();
        let mut queued: HashSet<(u32, LrState)> = queue.iter().map(|&(d, s, _)| (d, s)).collect();
        while let Some((state, lr, depth)) = queue.pop() {
            deadline.check()?;
            self.check_eager_memory()?;
            let edge = self.build_edge(automaton, &mut dfa, state, lr);
            let Edge::To { target, .. } = edge else { continue };
            if target == DEAD || depth >= self.config.eager_depth {
                continue;
            }
            // A walk reads `target` on the states below `lr`, or, when it skips, reads the
            // state after the skip that many levels further down.
            let (reader, levels) = match dfa.skips[target as usize] {
                Some(skip) => (skip.target, skip.levels + 1),
                None => (target, 1),
            };
            for below in levels_below(lr, levels, |s| predecessors[s.index()].iter().copied()) {
                if queued.insert((reader, below)) {
                    queue.push((reader, below, depth + 1));
                }
            }
        }
        Ok(())
    }

    /// Build now the automaton edges that serving `tokens` would build inside its masks:
    /// the text is teacher-forced through a matcher on `classifier` (a mask before every
    /// token and after the last, as a served sequence computes them), so that saving the
    /// artifact afterwards keeps those edges. [`StackClassifier::build_eager`] covers every
    /// stack up to [`ClassifierConfig::eager_depth`] reads; deeper stacks, which real
    /// texts reach, otherwise have their edges built inside the first mask that reads
    /// them. Warming on texts like those a server will see takes most of those builds off
    /// the serving path. It changes no mask: it only builds earlier what a mask would.
    ///
    /// Returns the number of tokens committed: all of them, or those before the first
    /// one the grammar rejects (warming stops there; what it built so far is kept).
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, classifier::StackClassifier, tokenizer::Vocabulary};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "(" start ")" | "x""#).unwrap();
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(
    ///     ["(", ")", "x", "x)", "))"].iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// let c = Arc::new(StackClassifier::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab));
    /// c.build_eager().unwrap();
    /// let eager = c.stats().edges;
    /// // "(((x)))": the stacks three parentheses deep are past the eager depth of 1.
    /// assert_eq!(StackClassifier::warm(&c, &[0, 0, 0, 3, 4]).unwrap(), 5);
    /// assert!(c.stats().edges > eager);
    /// // A rejected token stops warming: "x" then "(".
    /// assert_eq!(StackClassifier::warm(&c, &[2, 0]).unwrap(), 1);
    /// ```
    pub fn warm(classifier: &Arc<StackClassifier>, tokens: &[u32]) -> Result<usize> {
        let mut matcher = crate::Matcher::with_classifier(Arc::clone(classifier));
        let mut mask = vec![0u32; matcher.mask_words()];
        for (committed, &token) in tokens.iter().enumerate() {
            matcher.compute_mask(&mut mask)?;
            match matcher.commit(token) {
                Ok(()) => {}
                Err(crate::Error::Rejected { .. }) => return Ok(committed),
                Err(e) => return Err(e),
            }
        }
        matcher.compute_mask(&mut mask)?;
        Ok(tokens.len())
    }

    /// How many lexer-state automata and automaton edges this classifier has built since
    /// it was created, rebuilds after a cache clear included (what an artifact restores
    /// is not counted): counts that only grow. A mask during which they changed built
    /// something on the way (its time holds that construction, see [`Builds`]); one
    /// during which they did not only walked what was built.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, Matcher, classifier::{Builds, StackClassifier}, tokenizer::Vocabulary};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "(" start ")" | "x""#).unwrap();
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(
    ///     ["(", ")", "x", "x)", "))"].iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// let c = Arc::new(StackClassifier::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab));
    /// let mut m = Matcher::with_classifier(Arc::clone(&c));
    /// let mut mask = vec![0u32; m.mask_words()];
    /// assert_eq!(c.builds(), Builds::default());
    /// m.compute_mask(&mut mask).unwrap(); // the first mask builds the start state's automaton and edge
    /// let after_first = c.builds();
    /// assert!(after_first.automata > 0 && after_first.edges > 0);
    /// m.compute_mask(&mut mask).unwrap(); // the same stack again: nothing to build
    /// assert_eq!(c.builds(), after_first);
    /// ```
    pub fn builds(&self) -> Builds {
        Builds { automata: self.automata_built.load(Ordering::Relaxed), edges: self.edges_built.load(Ordering::Relaxed) }
    }

    /// Sizes of what has been built so far.
    pub fn stats(&self) -> ClassifierStats {
        let lexer_states = self.automata.iter().filter(|a| a.get().is_some()).count();
        let derived_lexer_states = self.parts.iter().filter(|p| p.get().is_some()).count();
        let mut stats = ClassifierStats { lexer_states, derived_lexer_states, ..Default::default() };
        let parts = self.parts.iter().filter_map(|p| Some(&p.get()?.automaton));
        self.automata.iter().filter_map(|a| a.get().map(Box::as_ref)).chain(parts).for_each(|automaton| stats.count(automaton));
        stats
    }

    /// The automaton of `q`'s row, shared by the states sharing it.
    fn automaton(&self, q: LexState) -> &RowAutomaton {
        let q = self.spanner.row_state(q);
        self.automata[q.index()].get_or_init(|| {
            let row = self.spanner.row(q);
            let large = large_class_bitmaps(&row, self.words);
            Box::new(self.new_automaton(row, large))
        })
    }

    /// The automaton of derived state `q`'s part ([`TokenSpanner::part`]).
    fn part_automaton(&self, q: LexState, derivation: &Derivation) -> &PartAutomaton {
        let q = self.spanner.row_state(q);
        self.parts[q.index()].get_or_init(|| {
            let row = self.spanner.part(q);
            let large = large_class_bitmaps(&row, self.words);
            let trie = self.vocab().trie();
            let keep = (derivation.cleared_len(trie) > self.words / 4).then(|| {
                let mut keep = vec![u32::MAX; self.words];
                derivation.cleared(trie).for_each(|tokens| clear_bits(&mut keep, tokens));
                Words::from(keep)
            });
            let mut automaton = self.new_automaton(row, large);
            if keep.is_some() {
                automaton.bytes += self.words * 4;
                self.bytes.fetch_add(self.words * 4, Ordering::Relaxed);
            }
            Box::new(PartAutomaton { automaton, keep })
        })
    }

    /// The automaton of `row` with no states built beyond the dead and start ones.
    fn new_automaton(&self, row: Arc<SpannerRow>, large: HashMap<u32, Words>) -> RowAutomaton {
        let trie = LexemeTrie::new(&row, self.compiled().lexer(), self.compiled().tables().terminal_capacity());
        self.automata_built.fetch_add(1, Ordering::Relaxed);
        self.automaton_of(row, trie, large)
    }

    /// The automaton of `row`, with its lexeme trie, and no states built beyond the
    /// dead and start ones.
    fn automaton_of(&self, row: Arc<SpannerRow>, trie: LexemeTrie, large: HashMap<u32, Words>) -> RowAutomaton {
        let bytes = trie.memory_bytes() + large.len() * self.words * 4;
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        RowAutomaton { row, trie, large, bytes, dfa: RwLock::new(Dfa::new()) }
    }

    /// Start the mask for the GSS of `parser` and the pending lexer state `q`: the bit of
    /// every token with bytes that keeps the text a viable prefix set, every other bit
    /// clear. Either written here ([`StackClassifier::mask_into`]), or, when the tokens
    /// closing the pending lexeme first are read after it ([`Plan::AfterClosing`], or a
    /// state that closes on every byte), left to the caller to write over the parse that
    /// takes the lexeme, and completed by the part this returns.
    pub(crate) fn begin_mask<'a>(&'a self, parser: &Parser, q: LexState, mask: &mut [u32]) -> MaskPlan<'a> {
        if self.spanner.closes_on_every_byte(q) {
            return MaskPlan::AfterClosing(None);
        }
        let r = self.spanner.row_state(q);
        if self.automata[r.index()].get().is_none() {
            if let Plan::AfterClosing(derivation) = self.spanner.plan(r) {
                return self.walk_part(parser, r, derivation).map_or(MaskPlan::Written(false), |part| MaskPlan::AfterClosing(Some(part)));
            }
        }
        MaskPlan::Written(self.mask_into(parser, q, mask))
    }

    /// Write `mask` whole: the bit of every token with bytes that keeps the text a viable
    /// prefix, for the GSS of `parser` and the pending lexer state `q`, set, every other
    /// bit clear. Returns `false`, leaving `mask` untouched, when a transition needed
    /// could not be built within the bounds: the caller must then use an exact path of
    /// its own (the matcher uses the per-class mask). A state planned
    /// [`Plan::AfterClosing`] is asked for through [`StackClassifier::begin_mask`]; here
    /// it would be served by its own row.
    pub(crate) fn mask_into(&self, parser: &Parser, q: LexState, mask: &mut [u32]) -> bool {
        let q = self.spanner.row_state(q);
        if self.automata[q.index()].get().is_none() {
            if let Plan::Derived(derivation) = self.spanner.plan(q) {
                return self.derived_mask_into(parser, q, derivation, mask);
            }
        }
        let automaton = self.automaton(q);
        let Some((dfa, outputs)) = self.walk(automaton, parser) else { return false };
        let mut sources = Sources::default();
        outputs.iter().for_each(|&o| dfa.outputs[o as usize].add_to(automaton, &mut sources));
        sources.write(mask, Write::Overwrite);
        true
    }

    /// [`StackClassifier::mask_into`] for a state derived from another's row: the
    /// reference's mask (itself derived, or not) without the tokens it does not settle
    /// for this state, and the part's mask for those.
    ///
    /// The part is walked first and its lock held while the reference's mask is made,
    /// never the other way round: a reference serves many derived states, and none of
    /// them waits on another's part while holding the reference. (Derivations followed
    /// from any state never come back to it, so parts are locked in one order.)
    fn derived_mask_into(&self, parser: &Parser, q: LexState, derivation: &Derivation, mask: &mut [u32]) -> bool {
        let Some(part) = self.walk_part(parser, q, derivation) else { return false };
        if !self.mask_into(parser, derivation.reference, mask) {
            return false;
        }
        part.complete(mask);
        true
    }

    /// The part of derived state `q` walked over `parser`'s GSS; `None` when an edge
    /// cannot be built within the bounds.
    fn walk_part<'a>(&'a self, parser: &Parser, q: LexState, derivation: &'a Derivation) -> Option<WalkedPart<'a>> {
        let part = self.part_automaton(q, derivation);
        let (dfa, outputs) = self.walk(&part.automaton, parser)?;
        Some(WalkedPart { part, derivation, trie: self.vocab().trie(), dfa, outputs })
    }

    /// The token sets to OR for the GSS of `parser` in `automaton`, building the edges it
    /// lacks; `None` when one cannot be built within the bounds.
    fn walk<'a>(&self, automaton: &'a RowAutomaton, parser: &Parser) -> Option<(RwLockReadGuard<'a, Dfa>, SmallVec<[u32; 8]>)> {
        if self.bytes.load(Ordering::Relaxed) > self.config.cache_capacity {
            self.clear(automaton);
        }
        loop {
            let dfa = automaton.dfa.read().unwrap_or_else(|p| p.into_inner());
            match walk(&dfa, parser) {
                Walk::Done(outputs) => return Some((dfa, outputs)),
                Walk::Overflow => return None,
                Walk::Missing(state, lr) => {
                    drop(dfa);
                    let mut dfa = automaton.dfa.write().unwrap_or_else(|p| p.into_inner());
                    self.build_edge(automaton, &mut dfa, state, lr);
                }
            }
        }
    }

    /// Drop a lexer state's built states, edges and token sets (nothing to do when it has
    /// built none since the last clear).
    fn clear(&self, automaton: &RowAutomaton) {
        let mut dfa = automaton.dfa.write().unwrap_or_else(|p| p.into_inner());
        if dfa.bytes > 0 {
            self.bytes.fetch_sub(dfa.bytes, Ordering::Relaxed);
            *dfa = Dfa::new();
        }
    }

    /// Build (or find) the edge of `state` on reading `lr`.
    fn build_edge(&self, automaton: &RowAutomaton, dfa: &mut Dfa, state: u32, lr: LrState) -> Edge {
        if let Some(&edge) = dfa.edges.get(&(state, lr)) {
            return edge;
        }
        let before = dfa.bytes;
        let simulator = Simulator {
            tables: self.compiled().tables(),
            trie: &automaton.trie,
            shiftable: &self.shiftable,
            limits: Limits {
                max_known: self.config.max_known_stack + automaton.trie.max_lexemes,
                max_work: self.config.max_transition_work,
            },
        };
        let configs = Arc::clone(&dfa.states[state as usize]);
        let edge = match simulator.read(&configs, lr) {
            Ok(step) => {
                let output = dfa.intern_output(step.accepted, automaton, self.words);
                let target = dfa.intern_state(step.next);
                Edge::To { target, output }
            }
            Err(Overflow::KnownStack | Overflow::Work) => {
                dfa.overflowed += 1;
                Edge::Overflow
            }
        };
        dfa.edges.insert((state, lr), edge);
        dfa.bytes += 32;
        self.edges_built.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(dfa.bytes - before, Ordering::Relaxed);
        edge
    }
}

enum Walk {
    /// Every edge was known: the outputs to OR, deduplicated.
    Done(SmallVec<[u32; 8]>),
    /// An edge must be built first.
    Missing(u32, LrState),
    Overflow,
}

/// Run the automaton over every path of the GSS, each (node, state) pair once.
fn walk(dfa: &Dfa, parser: &Parser) -> Walk {
    let mut outputs: SmallVec<[u32; 8]> = SmallVec::new();
    let mut pending: SmallVec<[(NodeId, u32); 16]> = parser.heads().map(|h| (h, START)).collect();
    let mut visited = Visited::new(&pending);
    while let Some((node, state)) = pending.pop() {
        if let Some(skip) = dfa.skips[state as usize] {
            for below in levels_below(node, skip.levels, |n| parser.node_parents(n)) {
                if visited.insert((below, skip.target)) {
                    pending.push((below, skip.target));
                }
            }
            continue;
        }
        let lr = parser.node_state(node);
        let (target, output) = match dfa.edges.get(&(state, lr)) {
            None => return Walk::Missing(state, lr),
            Some(Edge::Overflow) => return Walk::Overflow,
            Some(&Edge::To { target, output }) => (target, output),
        };
        if output != NO_OUTPUT && !outputs.contains(&output) {
            outputs.push(output);
        }
        if target == DEAD {
            continue;
        }
        for parent in parser.node_parents(node) {
            if visited.insert((parent, target)) {
                pending.push((parent, target));
            }
        }
    }
    Walk::Done(outputs)
}

/// What lies `levels` levels below `start` in a graph whose `below` lists each vertex's
/// successors one level down (a GSS node's parents, or the LR states a state can sit on),
/// each once however many paths lead to it; none when the graph ends first (a count from
/// an artifact may be any number).
fn levels_below<T: Copy + Ord, I: IntoIterator<Item = T>>(start: T, levels: u32, below: impl Fn(T) -> I) -> SmallVec<[T; 4]> {
    let mut frontier: SmallVec<[T; 4]> = SmallVec::new();
    frontier.push(start);
    for _ in 0..levels {
        if frontier.is_empty() {
            break;
        }
        let mut next: SmallVec<[T; 4]> = frontier.iter().flat_map(|&v| below(v)).collect();
        next.sort_unstable();
        next.dedup();
        frontier = next;
    }
    frontier
}

/// The (GSS node, automaton state) pairs visited: a short list on the usual small GSS, a
/// hash set once it grows.
enum Visited {
    Few(SmallVec<[(NodeId, u32); 16]>),
    Many(HashSet<(NodeId, u32)>),
}

impl Visited {
    fn new(start: &[(NodeId, u32)]) -> Visited {
        let mut visited = Visited::Few(SmallVec::new());
        start.iter().for_each(|&pair| {
            visited.insert(pair);
        });
        visited
    }

    /// Add `pair`; whether it was new.
    fn insert(&mut self, pair: (NodeId, u32)) -> bool {
        match self {
            Visited::Few(list) if list.contains(&pair) => false,
            Visited::Few(list) if list.len() < 64 => {
                list.push(pair);
                true
            }
            Visited::Few(list) => {
                let mut set: HashSet<(NodeId, u32)> = list.drain(..).collect();
                set.insert(pair);
                *self = Visited::Many(set);
                true
            }
            Visited::Many(set) => set.insert(pair),
        }
    }
}

fn large_class_bitmaps(row: &SpannerRow, words: usize) -> HashMap<u32, Words> {
    let large = (0..row.classes().len()).filter(|&i| row.classes()[i].token_count() > LARGE_CLASS);
    large
        .map(|i| {
            let made = row.classes()[i].bitmap().filter(|bits| bits.len() == words).cloned();
            let bits = made.unwrap_or_else(|| {
                let mut bits = vec![0u32; words];
                crate::matcher::set_bits(&mut bits, row.tokens(i));
                bits.into()
            });
            (i as u32, bits)
        })
        .collect()
}

fn clear_bits(mask: &mut [u32], tokens: &[u32]) {
    for &t in tokens {
        mask[t as usize / 32] &= !(1 << (t % 32));
    }
}

/// Per LR state, the states it can sit on in a stack (those with a shift or goto to it).
fn predecessors(tables: &LrTables) -> Vec<Vec<LrState>> {
    let mut predecessors = vec![Vec::new(); tables.state_count()];
    for s in 0..tables.state_count() {
        let s = LrState(s as u32);
        let targets = tables.shifts(s).iter().map(|&(_, t)| t).chain(tables.gotos(s).iter().map(|&(_, t)| t));
        for t in targets {
            predecessors[t.index()].push(s);
        }
    }
    for p in &mut predecessors {
        p.sort_unstable();
        p.dedup();
    }
    predecessors
}

/// LR states that can be a head of the GSS: the initial state and shift targets.
fn possible_heads(tables: &LrTables) -> Vec<LrState> {
    let mut heads: Vec<LrState> = std::iter::once(LrState::INITIAL)
        .chain((0..tables.state_count()).flat_map(|s| tables.shifts(LrState(s as u32)).iter().map(|&(_, t)| t)))
        .collect();
    heads.sort_unstable();
    heads.dedup();
    heads
}

#[cfg(test)]
mod tests;
