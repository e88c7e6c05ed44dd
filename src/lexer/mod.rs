//! The lexer: every terminal of a grammar in one byte-level DFA.
//!
//! Boundary: takes the terminals of an [`ir::Grammar`](crate::ir::Grammar), returns a
//! [`Lexer`] whose states answer three questions the later stages ask:
//! where does byte `b` lead ([`Lexer::next`]), which terminals does the text read so far
//! match as a whole lexeme ([`Lexer::accepts`]), and which terminals can it still
//! become ([`Lexer::completable`], `Prod(q)` in the design notes).
//!
//! Each terminal's regex is parsed with [`regex_syntax`] and compiled to a Thompson NFA
//! by [`regex_automata`] (a [`Language::DecimalMultiples`] is built as one directly,
//! `multiples.rs`); the DFA is the subset construction over the union of those
//! NFAs, where a subset element remembers which regex it belongs to. Each distinct regex
//! is compiled once and shared by every terminal that uses it; a state's accepted
//! terminals are read off which regexes match there.
//!
//! # Semantics
//!
//! * **Maximal munch with one byte of lookahead.** A lexeme ends when the next byte
//!   cannot extend it; it never backtracks to a shorter match the parser receives.
//! * **Ignored text joins the lexeme after it** (`restart.rs`): where a lexeme so far
//!   matches `%ignore`d terminals only, one begun after it is read alongside and takes
//!   over if the first dies before matching again, so a terminal that begins like a
//!   blank cannot trap the lexer in the blank before a name. (In lexers that ignore a
//!   terminal and count no string.)
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

mod contexts;
mod counted;
mod equivalence;
mod horizon;
mod multiples;
mod remaining;
mod restart;

pub(crate) use counted::{json_string_of_length, JSON_CHAR};

use crate::error::{Deadline, Error, LimitKind, Result};
use crate::fold_hash::fold_hash;
use contexts::Contexts;
use counted::{Bounds, CountedLength, CountedState, Counter, Counting, Leaving, Part, NO_CLASS};
use remaining::{Exploration, Remaining, Role};
use crate::ir::{Grammar, Language, Symbol, TerminalId, TerminalPattern, TerminalSet};
use crate::tokenizer::Vocabulary;
use hashbrown::{HashMap, HashTable};
use smallvec::SmallVec;
use regex_automata::nfa::thompson::{self, WhichCaptures, NFA};
use regex_automata::util::primitives::StateID;
use regex_syntax::hir::{Hir, HirKind};
use std::hash::Hasher as _;
use std::rc::Rc;
use std::sync::Arc;
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

/// Where the lexer is: its state and, inside a counted string (see
/// [`LexerConfig::count_horizon`]), the characters read since the opening quote.
/// [`Lexer::step`] moves it exactly; the state alone is what the later stages key on.
///
/// # Example
/// ```
/// use stackmask::{Grammar, lexer::{Lexer, LexerConfig}};
/// let g = Grammar::from_lark(r#"start: /a+/"#).unwrap();
/// let lexer = Lexer::new(&g, &LexerConfig::default()).unwrap();
/// let at = lexer.step(lexer.start_pos(), b'a');
/// assert_eq!(at.state(), lexer.next(lexer.start(), b'a'));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LexPos {
    state: LexState,
    count: u32,
}

impl LexPos {
    /// The lexer state.
    pub fn state(self) -> LexState {
        self.state
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
    /// The longest token, in bytes, that the lexer's tables must serve exactly: a
    /// counted string (see `count_strings_beyond`) singles out the counts within
    /// `count_horizon + 1` characters of each length bound, one state each, and keeps
    /// the farther counts in one. Masks for a vocabulary with longer tokens are refused
    /// with [`LimitKind::CountHorizon`]. Set it to the vocabulary's longest token
    /// ([`LexerConfig::serving`]) for the smallest tables.
    pub count_horizon: usize,
    /// A JSON string with a length bound beyond this and beyond `count_horizon` is
    /// counted rather than unrolled into one state per character (see [`LexPos`]).
    /// A length beside a `pattern` or `format` whose horizon is fitted below
    /// `count_horizon` (see `vocabulary`) is counted from a lower bound: beyond half this
    /// and three times its horizon's reach, where that is less.
    pub count_strings_beyond: usize,
    /// The vocabulary the tables serve ([`LexerConfig::serving_vocabulary`]), if known:
    /// then a counted length beside a `pattern` or `format` gets its own horizon, the
    /// most characters one of its tokens adds to that string (a `hostname`: 61 for
    /// Llama 3, against its 128-byte longest token), and fewer count classes. A lexer so
    /// fitted serves that vocabulary only: masks for another are refused with
    /// [`LimitKind::CountHorizon`].
    pub vocabulary: Option<Arc<Vocabulary>>,
    /// The most states lexing contexts may add ([`Lexer::context_start`]), within
    /// `max_states`. 0: no contexts.
    pub max_context_states: usize,
    /// How many states of the full lexer must be products of two strings with formats,
    /// patterns or unbounded lengths (the rows contexts spare) for it to get contexts:
    /// below that, building them costs the time to the first mask more than they save.
    pub context_product_states: usize,
}

impl Default for LexerConfig {
    fn default() -> Self {
        LexerConfig {
            max_states: 100_000,
            max_nfa_bytes: 10 << 20,
            time_budget: Some(Duration::from_secs(10)),
            count_horizon: 256,
            count_strings_beyond: 256,
            vocabulary: None,
            max_context_states: 8192,
            context_product_states: 128,
        }
    }
}

impl LexerConfig {
    /// This configuration for a vocabulary whose longest token is `longest_token` bytes
    /// ([`TokenTrie::max_depth`](crate::tokenizer::TokenTrie::max_depth)): counted
    /// strings single out only the counts such tokens can tell apart.
    ///
    /// # Example
    /// ```
    /// use stackmask::lexer::LexerConfig;
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"\"".to_vec(), b"abcd".to_vec()], None);
    /// let config = LexerConfig::default().serving(vocab.trie().max_depth());
    /// assert_eq!(config.count_horizon, 4);
    /// assert_eq!(config.count_strings_beyond, LexerConfig::default().count_strings_beyond);
    /// ```
    pub fn serving(self, longest_token: usize) -> LexerConfig {
        LexerConfig { count_horizon: longest_token, ..self }
    }

    /// This configuration for `vocabulary`: [`LexerConfig::serving`] its longest token,
    /// and each counted length beside a pattern fitted to its tokens
    /// ([`LexerConfig::vocabulary`]).
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, lexer::{Lexer, LexerConfig}, tokenizer::Vocabulary};
    /// use std::sync::Arc;
    ///
    /// // Words of at most 3 letters between dots (a hostname's shape), up to 300 characters.
    /// let schema = r#"{"type": "string", "pattern": "^[a-z]{1,3}(\\.[a-z]{1,3})*\\.?$", "maxLength": 300}"#;
    /// let g = Grammar::from_json_schema(schema).unwrap();
    /// let tokens = ["\"", "abc", "a.b", "z".repeat(50).as_str()].map(|t| t.as_bytes().to_vec());
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(tokens.to_vec(), None));
    /// let fitted = Lexer::new(&g, &LexerConfig::default().serving_vocabulary(&vocab)).unwrap();
    /// let longest = Lexer::new(&g, &LexerConfig::default().serving(50)).unwrap();
    /// // Its tokens add at most 3 characters to a string, not 50: fewer count classes.
    /// assert!(fitted.state_count() < longest.state_count());
    /// ```
    pub fn serving_vocabulary(self, vocabulary: &Arc<Vocabulary>) -> LexerConfig {
        LexerConfig { vocabulary: Some(Arc::clone(vocabulary)), ..self.serving(vocabulary.trie().max_depth()) }
    }
}

/// Count horizons fitted to one vocabulary ([`Lexer::fitted_horizon`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FittedHorizon {
    /// The vocabulary's [`fingerprint`](Vocabulary::fingerprint).
    pub vocabulary: u64,
    /// The least horizon fitted, in characters.
    pub horizon: usize,
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
    /// The count of counted strings; `None` when no terminal is counted.
    counting: Option<Counting>,
    /// The start state of each lexing context (`contexts.rs`).
    contexts: Vec<LexState>,
}

impl Lexer {
    /// Build the DFA for every terminal that the grammar uses (in a production or as
    /// `%ignore`). Declared terminals (`%declare`) are not lexed.
    pub fn new(grammar: &Grammar, config: &LexerConfig) -> Result<Lexer> {
        Ok(Lexer::within(grammar, config, &Deadline::unlimited(), &mut Vec::new)?.0)
    }

    /// [`Lexer::new`] as one stage of a compile bounded by `compile`, with a lexing
    /// context for each set of terminals `relevant` gives where one is exact and useful
    /// (see `contexts.rs`): the context of each, if any, by index in those sets, or
    /// nothing when the lexer gets no contexts (`relevant` is then not called). Sets
    /// that keep the same patterns share a context.
    pub(crate) fn within(
        grammar: &Grammar,
        config: &LexerConfig,
        compile: &Deadline,
        relevant: NextTerminals<'_>,
    ) -> Result<(Lexer, Vec<Option<u32>>)> {
        let deadline = compile.stage(config.time_budget);
        let mut patterns = Patterns::new(config);
        let mut terminals = Vec::new();
        let lexed = lexed_terminals(grammar);
        // Strings are counted only when every terminal has one priority: then no
        // terminal outranks another on some lexemes, so each terminal's completions
        // are its own (a counted one's read off its bounds, the others' off the table,
        // which never reaches the counts past a far run).
        let priorities = lexed.iter().map(|t| grammar.terminals[t.index()].priority);
        let counting = priorities.clone().min() == priorities.max();
        let lengths = if counting { patterns.candidate_lengths(grammar, &lexed, config) } else { Vec::new() };
        for t in lexed {
            deadline.check()?;
            terminals.push(patterns.add_terminal(grammar, t, config, counting, &lengths)?);
        }
        unroll_lengths_counted_apart(&mut terminals);
        if !terminals.iter().any(|t| t.counted.is_some()) {
            patterns.counted = None;
        }
        Builder::new(grammar, &patterns, &terminals, config, deadline).build(relevant)
    }

    /// The start state: nothing read since the last lexeme ended.
    pub fn start(&self) -> LexState {
        LexState::START
    }

    /// The start state as a [`LexPos`].
    pub fn start_pos(&self) -> LexPos {
        LexPos { state: LexState::START, count: 0 }
    }

    /// The position after reading `byte` at `at`, counting the characters of a counted
    /// string exactly ([`Lexer::next`] stays in a far count class).
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, lexer::{Lexer, LexerConfig}};
    /// // A string of at most 300 characters, beyond a horizon of 8: counted.
    /// let g = Grammar::from_json_schema(r#"{"type": "string", "maxLength": 300}"#).unwrap();
    /// let config = LexerConfig { count_horizon: 8, ..LexerConfig::default() };
    /// let lexer = Lexer::new(&g, &config).unwrap();
    /// let read = |text: &[u8]| text.iter().fold(lexer.start_pos(), |at, &b| lexer.step(at, b)).state();
    /// let string = |n: usize| [b"\"".as_slice(), &vec![b'x'; n], b"\""].concat();
    /// assert!(!lexer.accepts(read(&string(300))).is_empty());
    /// assert!(read(&string(301)).is_dead());
    /// assert!(lexer.state_count() < 1000, "not one state per character");
    /// ```
    #[inline]
    pub fn step(&self, at: LexPos, byte: u8) -> LexPos {
        let state = self.next(at.state, byte);
        let Some(counting) = &self.counting else { return LexPos { state, count: 0 } };
        let target = counting.states[state.index()];
        if target.part == Part::Outside {
            return LexPos { state, count: 0 };
        }
        let source = counting.states[at.state.index()];
        let count = match source.part {
            Part::Outside => 0,
            Part::Between if target.part != Part::Closed => at.count.saturating_add(1),
            _ => at.count,
        };
        let class = counting.classes.of(count);
        if class == target.class {
            return LexPos { state, count };
        }
        // A far class's last count: the table stayed in the class, the count moved on.
        // The full lexer has a state for every count its paths reach; a context's own
        // states take no exits out of far runs, so its position may die here (masks then
        // read the full lexer's state).
        let state = counting.by_group.get(&(target.group, class)).copied().unwrap_or(LexState::DEAD);
        let count = if counting.states[state.index()].part == Part::Outside { 0 } else { count };
        LexPos { state, count }
    }

    /// Where lexing context `context` starts a lexeme: the lexer restricted to the
    /// patterns of the terminals some parse can take next (see
    /// [`CompiledGrammar`](crate::CompiledGrammar), which gives each LR state its
    /// context). Stepped with [`Lexer::step`] beside the full lexer, its state may stand
    /// for the full one in masks.
    ///
    /// # Panics
    /// When `context` is not below [`Lexer::context_count`] (as the other accessors do
    /// for a state of another lexer).
    ///
    /// # Example
    /// ```
    /// use stackmask::{matcher::CompileConfig, lexer::LexerConfig, CompiledGrammar, Grammar};
    /// // After "k" only KEY can follow, after "v" only VALUE: each has a context
    /// // without the other string.
    /// let g = Grammar::from_lark(r#"start: "k" KEY | "v" VALUE
    ///                               KEY: /"[a-c]{0,3}[x-z]*"/
    ///                               VALUE: /"[a-z]*"/"#).unwrap();
    /// // A lexer this small gets contexts only when asked to.
    /// let lexer = LexerConfig { context_product_states: 0, ..LexerConfig::default() };
    /// let compiled = CompiledGrammar::with_config(&g, &CompileConfig { lexer, ..CompileConfig::default() }).unwrap();
    /// let lexer = compiled.lexer();
    /// assert_eq!(lexer.context_count(), 2);
    /// let read = |from, text: &[u8]| text.iter().fold(from, |at, &b| lexer.step(at, b)).state();
    /// // Two letters in, the full lexer still tracks KEY's bound; the value's context does not.
    /// let value = (0..2).find(|&c| !read(lexer.context_start(c), b"\"abq").is_dead()).unwrap();
    /// assert_ne!(read(lexer.context_start(value), b"\"ab"), read(lexer.start_pos(), b"\"ab"));
    /// ```
    pub fn context_start(&self, context: u32) -> LexPos {
        LexPos { state: self.contexts[context as usize], count: 0 }
    }

    /// The number of lexing contexts ([`Lexer::context_start`]).
    pub fn context_count(&self) -> usize {
        self.contexts.len()
    }

    /// The count horizon (see [`LexerConfig::count_horizon`]) if some terminal is
    /// counted: tokens longer than it in bytes cannot be served from the tables.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, lexer::{Lexer, LexerConfig}};
    /// let long = Grammar::from_json_schema(r#"{"type": "string", "maxLength": 1000}"#).unwrap();
    /// let short = Grammar::from_json_schema(r#"{"type": "string", "maxLength": 10}"#).unwrap();
    /// let config = LexerConfig::default();
    /// assert_eq!(Lexer::new(&long, &config).unwrap().count_horizon(), Some(config.count_horizon));
    /// assert_eq!(Lexer::new(&short, &config).unwrap().count_horizon(), None);
    /// ```
    pub fn count_horizon(&self) -> Option<usize> {
        self.counting.as_ref().map(|c| c.horizon)
    }

    /// Whether some counted string's horizon was fitted to a vocabulary
    /// ([`LexerConfig::vocabulary`]): which, and the least horizon fitted. The tables
    /// serve that vocabulary only.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, lexer::{Lexer, LexerConfig}, tokenizer::Vocabulary};
    /// use std::sync::Arc;
    /// let schema = r#"{"type": "string", "pattern": "^[a-z]{1,3}(\\.[a-z]{1,3})*\\.?$", "maxLength": 300}"#;
    /// let g = Grammar::from_json_schema(schema).unwrap();
    /// let tokens = ["\"", "abc", "a.b", "z".repeat(50).as_str()].map(|t| t.as_bytes().to_vec());
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(tokens.to_vec(), None));
    /// let lexer = Lexer::new(&g, &LexerConfig::default().serving_vocabulary(&vocab)).unwrap();
    /// let fitted = lexer.fitted_horizon().unwrap();
    /// assert_eq!((fitted.vocabulary, fitted.horizon), (vocab.fingerprint(), 3));
    /// assert_eq!(Lexer::new(&g, &LexerConfig::default().serving(50)).unwrap().fitted_horizon(), None);
    /// ```
    pub fn fitted_horizon(&self) -> Option<FittedHorizon> {
        self.counting.as_ref().and_then(|c| c.fitted)
    }

    /// The state after reading `byte` in state `q`; [`LexState::DEAD`] if no terminal
    /// can continue. Inside a counted string the table stays in a far count class
    /// (exact for texts up to the count horizon; [`Lexer::step`] is exact for any).
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
    pub(crate) fn hash_into(&self, hasher: &mut twox_hash::XxHash3_64) {
        hasher.write(&self.classes);
        hasher.write(&(self.stride as u64).to_le_bytes());
        let words = |ids: &mut dyn Iterator<Item = u32>| ids.flat_map(u32::to_le_bytes).collect::<Vec<u8>>();
        hasher.write(&words(&mut self.transitions.iter().map(|q| q.0)));
        for accepts in &self.accepts {
            hasher.write(&(accepts.len() as u32).to_le_bytes());
            hasher.write(&words(&mut accepts.iter().map(|t| t.0)));
        }
        for set in self.completable.iter().chain([&self.ignored]) {
            hasher.write(&words(&mut set.iter().map(|t| t.0)));
            hasher.write(&u32::MAX.to_le_bytes());
        }
        if let Some(counting) = &self.counting {
            hasher.write(&(counting.horizon as u64).to_le_bytes());
            if let Some(fitted) = counting.fitted {
                hasher.write(&fitted.vocabulary.to_le_bytes());
            }
            counting.classes.hash_into(hasher);
            let mut by_group: Vec<_> = counting.by_group.iter().map(|(&(g, k), q)| [g, k, q.0]).collect();
            by_group.sort_unstable();
            let states = counting.states.iter().map(|s| [s.part as u32, s.group, s.class]);
            hasher.write(&words(&mut states.chain(by_group).flatten()));
        }
        hasher.write(&words(&mut self.contexts.iter().map(|q| q.0)));
    }

    /// Approximate heap size of the tables in bytes.
    pub fn memory_bytes(&self) -> usize {
        let sets: usize = self.completable.iter().map(|s| s.len().div_ceil(64) * 8 + 16).sum();
        let accepts: usize = self.accepts.iter().map(|a| a.len() * 4 + 16).sum();
        let counting = self.counting.as_ref().map_or(0, |c| c.states.len() * 12 + c.by_group.len() * 16);
        self.transitions.len() * 4 + sets + accepts + counting + self.contexts.len() * 4
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

/// One distinct regex, compiled once to a Thompson NFA and shared by every terminal
/// that uses it (JSON-Schema grammars repeat the same "any string" regex in many
/// compound terminals: sharing keeps the subsets small).
struct PatternNfa {
    nfa: NFA,
    /// Ends at its earliest match (the regex has a lazy repetition and is a terminal's
    /// only regex).
    earliest: bool,
}

/// One language of a terminal, as the lexer compiles it.
#[derive(Clone, Copy, Debug)]
enum Piece<'a> {
    Regex(&'a str),
    Multiples { numerator: u32, decimals: u32 },
}

impl<'a> Piece<'a> {
    fn of(language: &'a Language) -> Piece<'a> {
        match language {
            Language::Regex(pattern) => Piece::Regex(pattern),
            &Language::DecimalMultiples { numerator, decimals } => Piece::Multiples { numerator, decimals },
        }
    }
}

impl std::fmt::Display for Piece<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Piece::Regex(pattern) => write!(f, "/{pattern}/"),
            Piece::Multiples { numerator, decimals } => write!(f, "multiples of {numerator}e-{decimals}"),
        }
    }
}

/// A lexed terminal over the shared patterns: its lexemes match every `require`d
/// pattern and no `exclude`d one (a plain regex terminal has one `require`).
struct LexedTerminal {
    id: TerminalId,
    priority: i32,
    require: Vec<u32>,
    exclude: Vec<u32>,
    /// For a counted string (one of whose required patterns is [`Patterns::counted`]):
    /// its bounds, and what its other patterns still need.
    counted: Option<CountedLength>,
    /// For a length counted within the lexer's threshold ([`counting_threshold`]): its
    /// required patterns with the length unrolled instead ([`unroll_lengths_counted_apart`]).
    unrolled: Option<Vec<u32>>,
    /// Whether a length that might have been counted is unrolled in its patterns.
    long_unrolled: bool,
}

impl LexedTerminal {
    fn bounds(&self) -> Option<Bounds> {
        self.counted.as_ref().map(|c| c.bounds)
    }
}

/// The distinct patterns of the lexed terminals.
struct Patterns {
    nfas: Vec<PatternNfa>,
    /// Indices in `nfas` by pattern text, without and with earliest matching.
    index: [HashMap<String, u32>; 2],
    /// Indices in `nfas` of multiples' automata, by numerator and decimals.
    multiples: HashMap<(u32, u32), u32>,
    /// Parsed patterns by text: a JSON schema's compound terminals repeat a few regexes
    /// (the any-string one in dozens of them), and parsing them again was half the time
    /// of adding a terminal.
    parsed: HashMap<String, Rc<Hir>>,
    /// The unbounded string that every counted terminal uses, once one is.
    counted: Option<u32>,
    /// That string's NFA, compiled when a terminal is first considered for counting
    /// (it joins `nfas` only when one is counted).
    counted_nfa: Option<NFA>,
    /// One NFA compiler for every pattern: it keeps its UTF-8 caches (10,000 entries,
    /// made on first use) from one pattern to the next, and making them for every
    /// pattern was a tenth of a JSON schema's lexer build.
    compiler: thompson::Compiler,
    /// What each set of patterns (with their roles) beside the counted string still
    /// needs, once explored: a JSON schema repeats its strings' patterns in many
    /// terminals, and an exploration that gives up may take milliseconds.
    remaining: HashMap<RemainingKey, Option<Remaining>>,
}

/// What an exploration of [`Remaining`] depends on: the patterns with their roles, the
/// most configurations it may search and the count below which a fitted horizon stops.
type RemainingKey = (Vec<(u32, Role)>, usize, u32);

impl Patterns {
    fn new(config: &LexerConfig) -> Patterns {
        let mut compiler = thompson::Compiler::new();
        compiler.configure(NFA::config().which_captures(WhichCaptures::None).nfa_size_limit(Some(config.max_nfa_bytes)));
        Patterns {
            nfas: Vec::new(),
            index: Default::default(),
            parsed: HashMap::new(),
            multiples: HashMap::new(),
            counted: None,
            counted_nfa: None,
            compiler,
            remaining: HashMap::new(),
        }
    }

    /// Compiles `terminal`'s regexes (those not seen yet) and returns the terminal over
    /// the shared patterns.
    fn add_terminal(
        &mut self,
        grammar: &Grammar,
        terminal: TerminalId,
        config: &LexerConfig,
        counting: bool,
        lengths: &[Bounds],
    ) -> Result<LexedTerminal> {
        let def = &grammar.terminals[terminal.index()];
        let error = |reason: String| Error::Terminal { terminal: def.name.clone(), reason };
        let (all, except): (Vec<Piece<'_>>, Vec<Piece<'_>>) = match &def.pattern {
            TerminalPattern::Regex(pattern) => (vec![Piece::Regex(pattern)], Vec::new()),
            TerminalPattern::Compound { all, except } if !all.is_empty() => (all.iter().map(Piece::of).collect(), except.iter().map(Piece::of).collect()),
            TerminalPattern::Compound { .. } => return Err(error("a compound pattern needs a language to match".into())),
            TerminalPattern::Declared => unreachable!("declared terminals are not lexed"),
        };
        let plain = all.len() == 1 && except.is_empty();
        let mut lexed =
            LexedTerminal { id: terminal, priority: def.priority, require: Vec::new(), exclude: Vec::new(), counted: None, unrolled: None, long_unrolled: false };
        let mut may_be_empty = true;
        // The first length-bounded string among the required patterns that may be long
        // enough to count: counted if the other patterns allow it, and its bound is
        // beyond its `counting_threshold`.
        let candidates = candidate_threshold(config);
        let mut length: Option<(counted::CountableLength, &str, Rc<Hir>)> = None;
        for (part, required) in all.iter().map(|p| (*p, true)).chain(except.iter().map(|p| (*p, false))) {
            let pattern = match part {
                Piece::Regex(pattern) => pattern,
                Piece::Multiples { numerator, decimals } => {
                    // Never empty; never a counted string.
                    may_be_empty &= !required;
                    let index = self.intern_multiples(numerator, decimals, config.max_nfa_bytes).map_err(error)?;
                    if required { &mut lexed.require } else { &mut lexed.exclude }.push(index);
                    continue;
                }
            };
            let hir = self.parse(pattern).map_err(error)?;
            if required {
                may_be_empty &= hir.properties().minimum_len() == Some(0);
            }
            if required && counting && length.is_none() {
                if let Some(countable) = counted::countable_length(&hir, candidates) {
                    length = Some((countable, pattern, hir));
                    continue;
                }
            }
            let earliest = plain && has_lazy_repetition(&hir);
            let index = self.intern(pattern, &hir, earliest).map_err(error)?;
            if required { &mut lexed.require } else { &mut lexed.exclude }.push(index);
        }
        if may_be_empty {
            let shown: Vec<String> = all.iter().map(Piece::to_string).collect();
            return Err(error(format!("regex {} matches the empty string", shown.join(" & "))));
        }
        if let Some((countable, pattern, hir)) = length {
            let own = lexed.require.len();
            if let Some(regex) = &countable.characters {
                let hir = self.parse(regex).map_err(error)?;
                lexed.require.push(self.intern(regex, &hir, false).map_err(error)?);
            }
            // A length within the lexer's threshold is counted only where its horizon
            // fits below the lexer's, beside one or two patterns, and where every long
            // length of the grammar has its bounds (see `unroll_lengths_counted_apart`):
            // its search stops early (a hostname has 251 configurations), as its
            // unrolled product is not large. (Products of more patterns, such as a
            // dozen `not`s, gave up after milliseconds each.)
            let beside = lexed.require.len() + lexed.exclude.len();
            let alone = lengths.iter().all(|&bounds| bounds == countable.bounds);
            let within_threshold = !countable.bounds.beyond(counting_threshold(config, None));
            let horizon = u32::try_from(config.count_horizon).unwrap_or(u32::MAX);
            let (most_configurations, fit_below) = match within_threshold {
                false => (remaining::MOST_CONFIGURATIONS, horizon),
                true if (1..=2).contains(&beside) && alone => {
                    (MOST_CONFIGURATIONS_WITHIN_THRESHOLD, within_threshold_fit(countable.bounds))
                }
                true => (0, 0),
            };
            let exploration = Exploration { horizon, fit_below, vocabulary: config.vocabulary.as_deref(), most_configurations };
            let remaining = match most_configurations {
                0 => None,
                _ => self.remaining(&lexed, exploration).map_err(error)?,
            };
            match remaining.filter(|r| countable.bounds.beyond(counting_threshold(config, Some(r.horizon)))) {
                Some(remaining) => {
                    // The counted string first: `remaining` knows it by the index it takes.
                    let counted = self.counted_pattern();
                    if within_threshold {
                        let mut unrolled = lexed.require[..own].to_vec();
                        unrolled.push(self.intern(pattern, &hir, false).map_err(error)?);
                        unrolled.sort_unstable();
                        unrolled.dedup();
                        lexed.unrolled = Some(unrolled);
                    }
                    lexed.require.push(counted);
                    lexed.counted = Some(CountedLength { bounds: countable.bounds, remaining });
                }
                None => {
                    lexed.require.truncate(own);
                    lexed.require.push(self.intern(pattern, &hir, false).map_err(error)?);
                    lexed.long_unrolled = true;
                }
            }
        }
        lexed.require.sort_unstable();
        lexed.require.dedup();
        Ok(lexed)
    }

    /// The bounds of the lengths among `lexed`'s required patterns that may be counted
    /// ([`candidate_threshold`]), the first of each terminal's.
    fn candidate_lengths(&mut self, grammar: &Grammar, lexed: &[TerminalId], config: &LexerConfig) -> Vec<Bounds> {
        let beyond = candidate_threshold(config);
        let mut lengths = Vec::new();
        for t in lexed {
            let required: Vec<&str> = match &grammar.terminals[t.index()].pattern {
                TerminalPattern::Regex(pattern) => vec![pattern],
                TerminalPattern::Compound { all, .. } => all.iter().filter_map(|l| match Piece::of(l) {
                    Piece::Regex(pattern) => Some(pattern),
                    Piece::Multiples { .. } => None,
                }).collect(),
                TerminalPattern::Declared => Vec::new(),
            };
            let first = required.iter().find_map(|p| counted::countable_length(&*self.parse(p).ok()?, beyond));
            lengths.extend(first.map(|countable| countable.bounds));
        }
        lengths
    }

    /// `pattern` parsed ([`parse_terminal_regex`]), once per distinct text.
    fn parse(&mut self, pattern: &str) -> std::result::Result<Rc<Hir>, String> {
        if let Some(hir) = self.parsed.get(pattern) {
            return Ok(Rc::clone(hir));
        }
        let hir = Rc::new(parse_terminal_regex(pattern)?);
        self.parsed.insert(pattern.to_string(), Rc::clone(&hir));
        Ok(hir)
    }

    /// The index of `pattern` (parsed as `hir`), compiled on first use.
    fn intern(&mut self, pattern: &str, hir: &Hir, earliest: bool) -> std::result::Result<u32, String> {
        if let Some(&index) = self.index[usize::from(earliest)].get(pattern) {
            return Ok(index);
        }
        let nfa = self.compile(pattern, hir)?;
        let index = self.nfas.len() as u32;
        self.nfas.push(PatternNfa { nfa, earliest });
        self.index[usize::from(earliest)].insert(pattern.to_string(), index);
        Ok(index)
    }

    /// The index of the automaton of the multiples of `numerator / 10^decimals`, built
    /// on first use (`multiples.rs`) within `max_nfa_bytes`.
    fn intern_multiples(&mut self, numerator: u32, decimals: u32, max_nfa_bytes: usize) -> std::result::Result<u32, String> {
        if let Some(&index) = self.multiples.get(&(numerator, decimals)) {
            return Ok(index);
        }
        if numerator == 0 {
            return Err("multiples of 0 are not a language".into());
        }
        let nfa = multiples::nfa(numerator, decimals, max_nfa_bytes)
            .map_err(|e| format!("the automaton of the multiples of {numerator}e-{decimals} is too large: {e}"))?;
        let index = self.nfas.len() as u32;
        self.nfas.push(PatternNfa { nfa, earliest: false });
        self.multiples.insert((numerator, decimals), index);
        Ok(index)
    }

    /// What `lexed`'s patterns still need beside the counted string, if its length can
    /// be counted (see `remaining.rs`).
    fn remaining(&mut self, lexed: &LexedTerminal, exploration: Exploration<'_>) -> std::result::Result<Option<Remaining>, String> {
        let counted = self.counted.unwrap_or(self.nfas.len() as u32);
        if self.counted_nfa.is_none() {
            let pattern = counted::unbounded_json_string();
            self.counted_nfa = Some(self.compile(&pattern, &parse_terminal_regex(&pattern)?)?);
        }
        let counted_nfa = self.counted_nfa.as_ref().expect("compiled above");
        let nfas = &self.nfas;
        let roles = lexed.require.iter().map(|&p| (p, Role::Required)).chain(lexed.exclude.iter().map(|&p| (p, Role::Excluded)));
        let roles: Vec<(u32, Role)> = roles.chain([(counted, Role::Counted)]).collect();
        let key = (roles, exploration.most_configurations, exploration.fit_below);
        if let Some(known) = self.remaining.get(&key) {
            return Ok(known.clone());
        }
        let nfa_of = |p: u32| if p == counted { counted_nfa } else { &nfas[p as usize].nfa };
        let patterns = key.0.iter().map(|&(p, role)| (p, nfa_of(p), role)).collect();
        let remaining = Remaining::new(patterns, exploration);
        self.remaining.insert(key, remaining.clone());
        Ok(remaining)
    }

    /// The index of the unbounded string counted terminals share ([`Patterns::remaining`]
    /// compiled it).
    fn counted_pattern(&mut self) -> u32 {
        if let Some(index) = self.counted {
            return index;
        }
        // Not shared with a terminal written as the same regex: only counted
        // terminals may read the count off this pattern's states.
        let index = self.nfas.len() as u32;
        let nfa = self.counted_nfa.clone().expect("compiled before a terminal is counted");
        self.nfas.push(PatternNfa { nfa, earliest: false });
        self.counted = Some(index);
        index
    }

    fn compile(&self, pattern: &str, hir: &Hir) -> std::result::Result<NFA, String> {
        self.compiler.build_from_hir(hir).map_err(|e| format!("regex /{pattern}/ is too large: {e}"))
    }
}

/// Unrolls the lengths counted within the lexer's threshold beside other long lengths:
/// where another counted length has other count classes (the classes are shared by
/// every counted string, so each would multiply the other's states), or another long
/// length is unrolled (the strings open side by side after a quote, and the unrolled
/// one's characters multiply the counted one's classes). Measured on Snowplow schemas
/// with a `hostname` beside strings of over 256 characters: 30% more time to first
/// mask; beside a string of 160: 60%.
fn unroll_lengths_counted_apart(terminals: &mut [LexedTerminal]) {
    let classes = |t: &LexedTerminal| t.counted.as_ref().map(|c| (c.bounds, c.remaining.horizon));
    let all: Vec<(Bounds, u32)> = terminals.iter().filter_map(classes).collect();
    let long_unrolled = terminals.iter().any(|t| t.long_unrolled);
    for t in terminals.iter_mut().filter(|t| t.unrolled.is_some()) {
        let own = classes(t);
        if long_unrolled || all.iter().any(|&other| Some(other) != own) {
            t.require = t.unrolled.take().expect("filtered on");
            t.counted = None;
        }
    }
}

/// The horizon below which a length within the lexer's threshold, of `bounds`, is
/// counted ([`counting_threshold`]: its largest finite bound beyond three times its
/// reach): fitting stops there.
fn within_threshold_fit(bounds: Bounds) -> u32 {
    let largest = if bounds.max == u32::MAX { bounds.min } else { bounds.max };
    (largest / 3).saturating_sub(1)
}

/// The bound beyond which a length may be counted (see [`counting_threshold`]): the
/// lexer's threshold, or half `count_strings_beyond` where horizons may be fitted.
fn candidate_threshold(config: &LexerConfig) -> usize {
    match config.vocabulary {
        Some(_) => config.count_strings_beyond / 2,
        None => config.count_horizon.max(config.count_strings_beyond),
    }
}

/// The most configurations of a terminal explored for counting a length within the
/// lexer's threshold ([`counting_threshold`]).
const MOST_CONFIGURATIONS_WITHIN_THRESHOLD: usize = 512;

/// The bound beyond which a length is counted rather than unrolled, for a counted
/// terminal of horizon `fitted` (`None`: not known yet, the lexer's): beyond
/// `count_strings_beyond` and the lexer's horizon, or, for a horizon fitted below the
/// lexer's, beyond three times its reach where that is less. (Counting lengths beside
/// patterns from the lexer's horizon on was measured: 10% more time to first mask on
/// the schemas it touches, as many classes near a bound of 255 as unrolled characters.
/// Three times the reach leaves the classes near the bound a third of the length.)
fn counting_threshold(config: &LexerConfig, fitted: Option<u32>) -> usize {
    let beyond = config.count_horizon.max(config.count_strings_beyond);
    match fitted.map(|h| h as usize) {
        Some(horizon) if horizon < config.count_horizon => horizon.max(config.count_strings_beyond.min(3 * (horizon + 1))),
        _ => beyond,
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

/// Gives the sets of terminals lexing contexts are built for (asked for only when the
/// lexer gets contexts: finding them reads every LR state).
pub(crate) type NextTerminals<'a> = &'a mut dyn FnMut() -> Vec<TerminalSet>;

/// A lexing context worth trying: the patterns it keeps, and how many of the sets of
/// terminals asked for it serves.
struct ContextCandidate {
    kept: Vec<u32>,
    uses: usize,
}

/// The distinct contexts the sets of terminals `relevant` ask for, in first-asked
/// order, and the candidate each set asks for (none where no context is exact and
/// useful, [`Contexts::kept_patterns`]).
fn context_candidates(analysis: &Contexts, relevant: Vec<TerminalSet>) -> (Vec<ContextCandidate>, Vec<Option<usize>>) {
    // Every group holds a pattern, so distinct groups keep distinct patterns.
    let mut by_groups: HashMap<Vec<u64>, Option<usize>> = HashMap::new();
    let mut candidates: Vec<ContextCandidate> = Vec::new();
    let of_relevant = relevant
        .iter()
        .map(|terminals| {
            let groups = analysis.groups_of(terminals)?;
            let candidate = *by_groups.entry(groups).or_insert_with_key(|groups| {
                let kept = analysis.kept_patterns(groups)?;
                candidates.push(ContextCandidate { kept, uses: 0 });
                Some(candidates.len() - 1)
            });
            if let Some(index) = candidate {
                candidates[index].uses += 1;
            }
            candidate
        })
        .collect();
    (candidates, of_relevant)
}

/// The most states of a `budget` that `candidate` may take: a share in proportion to the
/// sets of terminals it serves, and half at least. (A context of one long bounded string
/// unrolls to thousands of states; one serving a few LR states and tried early would
/// leave no room for the rest, while the context of a schema's key names may serve
/// nearly all of them.)
fn room_of(candidate: &ContextCandidate, total_uses: usize, budget: usize) -> usize {
    (budget / 2).max(budget * candidate.uses / total_uses.max(1))
}

/// The candidates' indices, those serving the most sets of terminals first (ties in
/// first-asked order): when room runs out, the contexts left out serve the fewest.
fn most_served_first(candidates: &[ContextCandidate]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by_key(|&index| std::cmp::Reverse(candidates[index].uses));
    order
}

/// A DFA state under construction: the states of the shared pattern NFAs (tagged with
/// the pattern's index) reachable after the text read so far, sorted.
type Subset = Vec<(u32, StateID)>;

/// A subset shared by the successor memo and the transitions it serves.
type SharedSubset = Rc<[(u32, StateID)]>;

/// The subset construction.
struct Builder<'a> {
    grammar: &'a Grammar,
    nfas: &'a [PatternNfa],
    terminals: &'a [LexedTerminal],
    /// Per pattern: the terminals (indexes into `terminals`) that use it.
    users: Vec<Vec<u32>>,
    /// Per pattern: whether some terminal is that pattern alone, so the pattern's states
    /// stay as long as they exist.
    stands_alone: Vec<bool>,
    /// Whether some pattern ends at its earliest match (a JSON schema's lexer has none:
    /// each closure is spared the pass).
    may_end_early: bool,
    config: &'a LexerConfig,
    deadline: Deadline,
    classes: [u8; 256],
    /// One representative byte per class.
    representatives: Vec<u8>,
    /// Every state by the hash of its key (start flag, subset, count class), which is
    /// kept beside it: the keys themselves are `subsets` and `counted`, held once.
    ids: HashTable<(u64, LexState)>,
    subsets: Vec<Subset>,
    /// The counted string's pattern and classes, if a terminal is counted.
    counter: Option<Counter>,
    /// By state: its place in the counted string.
    counted: Vec<CountedState>,
    /// Numbers the NFA-state sets that hold the counted string (see [`CountedState`]).
    groups: HashTable<(u64, u32)>,
    /// The NFA-state set of each group, by number.
    group_subsets: Vec<Subset>,
    by_group: HashMap<(u32, u32), LexState>,
    /// Transitions out of a far run not interned yet (see [`Builder::leave_far_runs`]).
    leaving: Vec<Leaving>,
    /// Per state: the states that transitions out of its far run lead to (not in the
    /// table, but on real paths).
    left: HashMap<usize, Vec<usize>>,
    /// Per state explored, its distinct successors in the table, each with whether the
    /// transition counts a character (see [`Builder::leave_far_runs`]).
    count_edges: Graph<(usize, bool)>,
    /// The first state of the lexing contexts (`usize::MAX` until they are added): their
    /// own states take no transitions out of far count runs ([`Builder::wait_to_leave`]).
    contexts_from: usize,
    transitions: Vec<LexState>,
    accepts: Vec<Box<[TerminalId]>>,
    /// Where each pattern's NFA states start in one numbering of all of them.
    offsets: Vec<usize>,
    /// Per NFA state (numbered by `offsets`): the `closure` call that last visited it.
    visited: Vec<u32>,
    /// The current `closure` call's mark in `visited`.
    generation: u32,
    /// Per byte class: the NFA states one byte of it leads to (reused between states).
    seeds: Vec<Vec<(u32, StateID)>>,
    /// Where sets of seeds led from a source's place in the counted string (see
    /// [`Builder::fill_successors`]), bounded by [`SUCCESSOR_MEMO_SEEDS`]: the states of a
    /// pattern searched anywhere in a string (`.*` before it) reach the same seeds from
    /// many states.
    successor_memo: HashTable<(u64, SuccessorKey, Successor)>,
    /// The seeds held in `successor_memo`.
    successor_memo_seeds: usize,
    /// Buffers of `closure_of`, reused between calls.
    closure_stack: Vec<(u32, StateID)>,
    closure_out: Subset,
    /// By state: whether it is the start state or a context's.
    openings: Vec<bool>,
    /// The start state of each lexing context, by context.
    context_starts: Vec<LexState>,
}

impl<'a> Builder<'a> {
    fn new(
        grammar: &'a Grammar,
        patterns: &'a Patterns,
        terminals: &'a [LexedTerminal],
        config: &'a LexerConfig,
        deadline: Deadline,
    ) -> Builder<'a> {
        let nfas = &patterns.nfas;
        let (classes, representatives) = byte_classes(nfas);
        let mut users = vec![Vec::new(); nfas.len()];
        let mut stands_alone = vec![false; nfas.len()];
        for (i, t) in terminals.iter().enumerate() {
            for &p in t.require.iter().chain(&t.exclude) {
                users[p as usize].push(i as u32);
            }
            if let ([p], []) = (t.require.as_slice(), t.exclude.as_slice()) {
                stands_alone[*p as usize] = true;
            }
        }
        let mut offsets = Vec::with_capacity(nfas.len());
        let mut total = 0;
        for n in nfas {
            offsets.push(total);
            total += n.nfa.states().len();
        }
        Builder {
            grammar,
            nfas,
            terminals,
            users,
            may_end_early: nfas.iter().any(|n| n.earliest),
            stands_alone,
            config,
            deadline,
            classes,
            representatives,
            ids: HashTable::new(),
            subsets: Vec::new(),
            counter: None,
            counted: Vec::new(),
            groups: HashTable::new(),
            group_subsets: Vec::new(),
            by_group: HashMap::new(),
            leaving: Vec::new(),
            left: HashMap::new(),
            contexts_from: usize::MAX,
            count_edges: Graph { starts: vec![0], targets: Vec::new() },
            transitions: Vec::new(),
            accepts: Vec::new(),
            offsets,
            visited: vec![0; total],
            generation: 0,
            seeds: Vec::new(),
            successor_memo: HashTable::new(),
            successor_memo_seeds: 0,
            closure_stack: Vec::new(),
            closure_out: Vec::new(),
            openings: Vec::new(),
            context_starts: Vec::new(),
        }
        .with_counter(patterns.counted)
    }

    fn build(mut self, relevant: NextTerminals<'_>) -> Result<(Lexer, Vec<Option<u32>>)> {
        let dead = self.intern(false, Vec::new(), NO_CLASS)?;
        debug_assert_eq!(dead, LexState::DEAD);
        let starts: Vec<(u32, StateID)> = self.nfas.iter().enumerate().map(|(i, n)| (i as u32, n.nfa.start_anchored())).collect();
        let start_subset = self.closure_of(&starts);
        // The start state is interned apart from every other state, so that "nothing
        // read yet" is never confused with a state reached after reading bytes.
        let start = self.intern(true, start_subset, NO_CLASS)?;
        debug_assert_eq!(start, LexState::START);
        let stride = self.representatives.len();
        let mut next_unexplored = 0;
        self.explore_full(&mut next_unexplored)?;
        let mut ignored = TerminalSet::new(self.grammar.terminals.len());
        for (i, t) in self.grammar.terminals.iter().enumerate() {
            if t.ignored {
                ignored.insert(TerminalId(i as u32));
            }
        }
        let contexts = if self.restart_after_ignored(&ignored)? {
            Vec::new()
        } else {
            self.add_contexts(relevant, &mut next_unexplored)?
        };
        let completable = self.completable_sets()?;
        let fitted = self.fitted_horizon();
        let counting = self.counter.map(|counter| Counting {
            horizon: self.config.count_horizon,
            fitted,
            classes: counter.classes,
            states: self.counted,
            by_group: self.by_group,
        });
        let lexer = Lexer {
            classes: self.classes,
            stride,
            transitions: self.transitions,
            accepts: self.accepts,
            completable,
            ignored,
            counting,
            contexts: self.context_starts,
        };
        Ok((lexer, contexts))
    }

    /// Where ignored text may be followed by a live state matching nothing, replaces the
    /// table by the one whose states are thread lists (`restart.rs`), and says so. A
    /// lexer counting strings keeps its table (a count belongs to one text, a thread list
    /// holds several; the JSON-Schema compiler's lexers, the ones that count, have no
    /// such state), and a joined lexer gets no contexts (a context keeps some patterns,
    /// a restart brings back all of them).
    fn restart_after_ignored(&mut self, ignored: &TerminalSet) -> Result<bool> {
        let plain = restart::Plain {
            transitions: &self.transitions,
            accepts: &self.accepts,
            stride: self.representatives.len(),
            ignored,
        };
        if self.counter.is_some() || !plain.has_gap_after_ignored() {
            return Ok(false);
        }
        let restarted = plain.restarted(self.config.max_states, &self.deadline)?;
        self.transitions = restarted.transitions;
        self.accepts = restarted.accepts;
        Ok(true)
    }

    /// The least horizon fitted below the lexer's, with the vocabulary it was fitted to.
    fn fitted_horizon(&self) -> Option<FittedHorizon> {
        let horizons = self.terminals.iter().filter_map(|t| Some(t.counted.as_ref()?.remaining.horizon as usize));
        let least = horizons.filter(|&h| h < self.config.count_horizon).min()?;
        let vocabulary = self.config.vocabulary.as_ref()?.fingerprint();
        Some(FittedHorizon { vocabulary, horizon: least })
    }

    /// Fills the rows of the full lexer's states from `next_unexplored` on, and of every
    /// state they lead to, with the transitions out of far count runs that its paths
    /// reach ([`Builder::leave_far_runs`]).
    fn explore_full(&mut self, next_unexplored: &mut usize) -> Result<()> {
        loop {
            self.explore(next_unexplored, usize::MAX)?;
            if !self.leave_far_runs()? {
                return Ok(());
            }
        }
    }

    /// Fills the rows of the states from `next_unexplored` on, and of every state they
    /// lead to in the table; false, stopping, once there are more than `most` states.
    fn explore(&mut self, next_unexplored: &mut usize, most: usize) -> Result<bool> {
        while *next_unexplored < self.subsets.len() {
            if self.subsets.len() > most {
                return Ok(false);
            }
            self.deadline.check_at(*next_unexplored)?;
            let state = *next_unexplored;
            *next_unexplored += 1;
            self.fill_successors(state)?;
        }
        Ok(true)
    }

    /// [`Builder::explore`] for states that may be dropped: reaching the lexer's state
    /// limit ([`LexerConfig::max_states`]) stops it too, rather than failing the build.
    fn explore_droppable(&mut self, next_unexplored: &mut usize, most: usize) -> Result<bool> {
        match self.explore(next_unexplored, most) {
            Err(Error::Limit { kind: LimitKind::LexerStates, .. }) => Ok(false),
            explored => explored,
        }
    }

    /// Interns a lexing context for each set of terminals `relevant` gives where one is
    /// exact and useful ([`Contexts::kept_patterns`]), with every state it reaches;
    /// returns each set's context, or nothing when the lexer gets none (`relevant` is
    /// then not asked for).
    ///
    /// Contexts cost compile time (a JSON schema compiles per request, so it counts in
    /// the time to the first mask) and pay off in masks only where the full lexer runs
    /// strings side by side: a lexer gets them when enough of its states are such
    /// products ([`LexerConfig::context_product_states`]), and they add at most
    /// [`LexerConfig::max_context_states`]. Contexts serving the most LR states are
    /// tried first, each in at most its room ([`room_of`]); one that outgrows it is
    /// dropped (none of its states stay), and so is one keeping a pattern with more
    /// distinct states in the full lexer than that, or all the patterns of one dropped.
    /// A context's own states take no transitions out of far count runs: it serves a
    /// counted string while the count is far from every bound, and masks read the full
    /// lexer beyond ([`Lexer::step`]). (Exiting would unroll a state per count near each
    /// bound of every counted terminal, in each context.)
    fn add_contexts(&mut self, relevant: NextTerminals<'_>, next_unexplored: &mut usize) -> Result<Vec<Option<u32>>> {
        let most = self.config.max_context_states;
        // Products are among the states: a smaller lexer has too few.
        let few_states = self.subsets.len() < self.config.context_product_states;
        if most == 0 || few_states {
            return Ok(Vec::new());
        }
        let analysis = Contexts::new(self.nfas, self.terminals, self.grammar.terminals.len());
        if !self.has_product_states(&analysis, self.config.context_product_states) {
            return Ok(Vec::new());
        }
        let relevant = relevant();
        let full = self.subsets.len();
        self.contexts_from = full;
        let budget = most.min(self.config.max_states.saturating_sub(full));
        let pattern_states = self.pattern_states();
        let (candidates, of_relevant) = context_candidates(&analysis, relevant);
        let total_uses = candidates.iter().map(|c| c.uses).sum();
        let mut outgrown: Vec<&[u32]> = Vec::new();
        let mut context_of: Vec<Option<u32>> = vec![None; candidates.len()];
        for index in most_served_first(&candidates) {
            let kept = &candidates[index].kept;
            let cap = budget.saturating_sub(self.subsets.len() - full).min(room_of(&candidates[index], total_uses, budget));
            let fits = kept.iter().all(|&p| pattern_states[p as usize] <= cap)
                && !outgrown.iter().any(|big| big.iter().all(|p| kept.binary_search(p).is_ok()));
            if !fits {
                continue;
            }
            context_of[index] = self.add_context(kept, next_unexplored, cap)?;
            if context_of[index].is_none() {
                outgrown.push(kept);
            }
        }
        Ok(of_relevant.iter().map(|c| c.and_then(|index| context_of[index])).collect())
    }

    /// Whether at least `enough` states hold two strings of infinitely many lexemes
    /// ([`Contexts::is_open_string`]): the products that contexts avoid. (It stops
    /// counting there: the lexers that get contexts are the largest.)
    fn has_product_states(&self, analysis: &Contexts, enough: usize) -> bool {
        let is_product = |subset: &&Subset| {
            let mut open = subset.chunk_by(|a, b| a.0 == b.0).filter(|part| analysis.is_open_string(part[0].0));
            open.next().is_some() && open.next().is_some()
        };
        self.subsets.iter().filter(is_product).take(enough).count() >= enough
    }

    /// Per pattern: how many distinct sets of its NFA states the states so far hold.
    fn pattern_states(&self) -> Vec<usize> {
        let mut seen: Vec<hashbrown::HashSet<u64>> = vec![hashbrown::HashSet::new(); self.nfas.len()];
        for subset in &self.subsets {
            for part in subset.chunk_by(|a, b| a.0 == b.0) {
                seen[part[0].0 as usize].insert(seeds_hash((Part::Outside, NO_CLASS), part));
            }
        }
        seen.iter().map(|states| states.len()).collect()
    }

    /// Interns the start state of the context keeping the patterns `kept`, and the
    /// states it leads to, unless they are more than `cap` (then none of them is kept);
    /// returns the context.
    fn add_context(&mut self, kept: &[u32], next_unexplored: &mut usize, cap: usize) -> Result<Option<u32>> {
        let before = self.subsets.len();
        let seeds: Vec<(u32, StateID)> = kept.iter().map(|&p| (p, self.nfas[p as usize].nfa.start_anchored())).collect();
        let subset = self.closure_of(&seeds);
        let start = self.intern(true, subset, NO_CLASS)?;
        if !self.explore_droppable(next_unexplored, before + cap)? {
            self.truncate_states(before);
            *next_unexplored = before;
            return Ok(None);
        }
        self.context_starts.push(start);
        Ok(Some(self.context_starts.len() as u32 - 1))
    }

    /// Forgets the states from `before` on (a context's own: no transition out of a far
    /// run, which the full lexer's exploration alone takes, refers to them).
    fn truncate_states(&mut self, before: usize) {
        let stride = self.representatives.len();
        self.by_group.retain(|_, id| id.index() < before);
        self.subsets.truncate(before);
        self.transitions.truncate(before * stride);
        self.accepts.truncate(before);
        self.counted.truncate(before);
        self.openings.truncate(before);
        self.ids.retain(|&mut (_, id)| id.index() < before);
        self.successor_memo.retain(|(_, _, known)| known.target.index() < before);
        self.successor_memo_seeds = self.successor_memo.iter().map(|(_, key, _)| key.seeds.len()).sum();
    }

    /// Interns the state of `subset` at count `class`; an `opening` state (the start
    /// state, or a context's) is told apart from every state reached by reading bytes.
    fn intern(&mut self, opening: bool, subset: Subset, class: u32) -> Result<LexState> {
        let hash = seeds_hash((Part::Outside, class ^ u32::from(opening) << 31), &subset);
        let is_key = |&(h, id): &(u64, LexState)| {
            h == hash
                && self.openings[id.index()] == opening
                && self.counted[id.index()].class == class
                && self.subsets[id.index()] == subset
        };
        if let Some(&(_, id)) = self.ids.find(hash, is_key) {
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
        self.accepts.push(self.accepted_terminals(&subset, class));
        let part = if opening { Part::Outside } else { self.part(&subset) };
        self.openings.push(opening);
        let group = if part == Part::Outside { u32::MAX } else { self.group(&subset) };
        self.counted.push(CountedState { part, group, class });
        self.subsets.push(subset);
        self.transitions.extend(std::iter::repeat(LexState::DEAD).take(self.representatives.len()));
        self.ids.insert_unique(hash, (hash, id), |&(h, _)| h);
        Ok(id)
    }

    fn is_match(&self, pattern: u32, state: StateID) -> bool {
        matches!(self.nfas[pattern as usize].nfa.state(state), thompson::State::Match { .. })
    }

    /// The patterns (ascending, once each) that `subset` has a state of for which `keep`
    /// holds. A subset is sorted by pattern, and holds few patterns of many.
    fn patterns_with(&self, subset: &Subset, keep: impl Fn(u32, StateID) -> bool) -> SmallVec<[u32; 8]> {
        let mut patterns = SmallVec::new();
        for &(p, s) in subset {
            if patterns.last() != Some(&p) && keep(p, s) {
                patterns.push(p);
            }
        }
        patterns
    }

    /// Terminals that `subset` matches at count `class`, keeping only the highest
    /// priority: a terminal matches when each of its required patterns has a match
    /// state, none of its excluded patterns has one, and a counted terminal's bounds
    /// admit the count. Only the users of a matching pattern can match (every terminal
    /// requires a pattern).
    fn accepted_terminals(&self, subset: &Subset, class: u32) -> Box<[TerminalId]> {
        let matching = self.patterns_with(subset, |p, s| self.is_match(p, s));
        let is_matching = |p: &u32| matching.binary_search(p).is_ok();
        let counted = |bounds: Bounds| match &self.counter {
            Some(counter) if class != NO_CLASS => bounds.admits(counter.classes.first(class)),
            _ => false,
        };
        let matched: Vec<&LexedTerminal> = matching
            .iter()
            .flat_map(|&p| &self.users[p as usize])
            .map(|&t| &self.terminals[t as usize])
            .filter(|t| t.require.iter().all(is_matching) && !t.exclude.iter().any(is_matching))
            .filter(|t| t.bounds().map_or(true, counted))
            .collect();
        let Some(top) = matched.iter().map(|t| t.priority).max() else {
            return Box::new([]);
        };
        let mut ids: Vec<TerminalId> = matched.iter().filter(|t| t.priority == top).map(|t| t.id).collect();
        ids.sort();
        ids.dedup();
        ids.into_boxed_slice()
    }

    /// Fills `state`'s row of the table: the state after reading each byte class.
    /// The state's NFA states cut the byte classes into a few runs (a run's classes are
    /// treated alike by every transition: patterns with large Unicode classes split the
    /// bytes into many classes that mostly lead to the same place); one pass over the NFA
    /// states sends each transition to the runs its byte range covers, and each run's
    /// seeds are closed once.
    fn fill_successors(&mut self, state: usize) -> Result<()> {
        let run_of = self.class_runs(state);
        let runs = run_of.last().map_or(0, |&r| r as usize + 1);
        let mut seeds = std::mem::take(&mut self.seeds);
        seeds.iter_mut().for_each(Vec::clear);
        seeds.resize_with(runs.max(seeds.len()), Vec::new);
        for &(p, s) in &self.subsets[state] {
            self.for_each_byte_range(p, s, |start, end, next| {
                let first = run_of[usize::from(self.classes[start as usize])] as usize;
                let last = run_of[usize::from(self.classes[end as usize])] as usize;
                seeds[first..=last].iter_mut().for_each(|seeds| seeds.push((p, next)));
            });
        }
        let from = self.count_place(state);
        let mut run_targets: SmallVec<[LexState; 16]> = SmallVec::with_capacity(runs);
        for run_seeds in &seeds[..runs] {
            if run_seeds.is_empty() {
                run_targets.push(LexState::DEAD);
                continue;
            }
            let hash = seeds_hash(from, run_seeds);
            let is_key = |(h, key, _): &(u64, SuccessorKey, Successor)| *h == hash && key.from == from && *key.seeds == **run_seeds;
            let known = self.successor_memo.find(hash, is_key).map(|(_, _, known)| known.clone());
            let target = if let Some(Successor { target, leaving }) = known {
                if let Some((subset, class)) = leaving {
                    self.wait_to_leave(Leaving { source: state, subset, class });
                }
                target
            } else {
                let subset = self.closure_of(run_seeds);
                let leaving_before = self.leaving.len();
                let target = self.intern_successor(state, subset)?;
                let leaving = self.leaving[leaving_before..].last().map(|l| (Rc::clone(&l.subset), l.class));
                self.remember_successor(hash, SuccessorKey { from, seeds: run_seeds.as_slice().into() }, Successor { target, leaving });
                target
            };
            run_targets.push(target);
        }
        self.seeds = seeds;
        let row = &mut self.transitions[state * run_of.len()..(state + 1) * run_of.len()];
        row.iter_mut().zip(&run_of).for_each(|(target, &run)| *target = run_targets[run as usize]);
        Ok(())
    }

    /// For each byte class (in order), its run among the classes that `state`'s NFA
    /// states treat alike: a run ends where some transition's byte range starts or ends.
    fn class_runs(&self, state: usize) -> SmallVec<[u32; 256]> {
        let stride = self.representatives.len();
        let mut cut = [false; 257];
        for &(p, s) in &self.subsets[state] {
            self.for_each_byte_range(p, s, |start, end, _| {
                cut[usize::from(self.classes[start as usize])] = true;
                cut[usize::from(self.classes[end as usize]) + 1] = true;
            });
        }
        let mut run = 0u32;
        (0..stride)
            .map(|class| {
                if class > 0 && cut[class] {
                    run += 1;
                }
                run
            })
            .collect()
    }

    /// Keeps where `key`'s seeds led from its place for later states (`hash`: the hash of
    /// `key`'s fields in order), while the memo's NFA states stay under
    /// [`SUCCESSOR_MEMO_SEEDS`] in all.
    fn remember_successor(&mut self, hash: u64, key: SuccessorKey, known: Successor) {
        let size = key.seeds.len() + known.leaving.as_ref().map_or(0, |(subset, _)| subset.len());
        if self.successor_memo_seeds + size <= SUCCESSOR_MEMO_SEEDS {
            self.successor_memo_seeds += size;
            self.successor_memo.insert_unique(hash, (hash, key, known), |(h, _, _)| *h);
        }
    }

    /// [`byte_ranges`] of NFA state `s` of pattern `p`.
    fn for_each_byte_range(&self, p: u32, s: StateID, visit: impl FnMut(u8, u8, StateID)) {
        byte_ranges(self.nfas[p as usize].nfa.state(s), visit);
    }

    /// ε-closure of `seeds`, keeping only byte-consuming and match states, sorted. An
    /// earliest-match pattern that matches loses its other states.
    fn closure_of(&mut self, seeds: &[(u32, StateID)]) -> Subset {
        let mut stack = std::mem::take(&mut self.closure_stack);
        let mut out = std::mem::take(&mut self.closure_out);
        stack.clear();
        stack.extend_from_slice(seeds);
        out.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.visited.fill(0);
            self.generation = 1;
        }
        while let Some((p, s)) = stack.pop() {
            let mark = &mut self.visited[self.offsets[p as usize] + s.as_usize()];
            if *mark == self.generation {
                continue;
            }
            *mark = self.generation;
            let state = self.nfas[p as usize].nfa.state(s);
            // Look states were rejected when the terminal was compiled.
            let kept = !matches!(state, thompson::State::Fail | thompson::State::Look { .. });
            if !epsilon_targets(state, |t| stack.push((p, t))) && kept {
                out.push((p, s));
            }
        }
        self.end_earliest_matches(&mut out);
        out.sort_unstable();
        self.drop_unmatchable_patterns(&mut out);
        let subset = out.as_slice().to_vec();
        self.closure_stack = stack;
        self.closure_out = out;
        subset
    }

    /// A terminal one of whose required patterns has no state left can no longer match;
    /// a pattern only such terminals use is dropped, so that dead text reaches the dead
    /// state. (Dropping it cannot kill a live terminal: a live terminal keeps every
    /// pattern it uses.)
    fn drop_unmatchable_patterns(&self, subset: &mut Subset) {
        self.drop_unmatchable_patterns_where(subset, |_| true);
    }

    /// [`Builder::drop_unmatchable_patterns`], where a terminal for which `within` is
    /// false cannot match either (a counted terminal out of its bounds).
    fn drop_unmatchable_patterns_where(&self, subset: &mut Subset, within: impl Fn(&LexedTerminal) -> bool) {
        if subset.iter().all(|&(p, _)| self.stands_alone[p as usize]) {
            return;
        }
        let present = self.patterns_with(subset, |_, _| true);
        let alive = |&t: &u32| {
            let t = &self.terminals[t as usize];
            t.require.iter().all(|p| present.binary_search(p).is_ok()) && within(t)
        };
        let dropped: SmallVec<[u32; 4]> = present
            .iter()
            .copied()
            .filter(|&p| !self.stands_alone[p as usize] && !self.users[p as usize].iter().any(alive))
            .collect();
        if !dropped.is_empty() {
            subset.retain(|(p, _)| !dropped.contains(p));
        }
    }

    /// For earliest-match patterns that match here, keep only the match.
    fn end_earliest_matches(&self, subset: &mut Subset) {
        if !self.may_end_early {
            return;
        }
        let ended: Vec<u32> = subset
            .iter()
            .filter(|(p, s)| self.nfas[*p as usize].earliest && self.is_match(*p, *s))
            .map(|(p, _)| *p)
            .collect();
        if !ended.is_empty() {
            subset.retain(|(p, s)| !ended.contains(p) || self.is_match(*p, *s));
        }
    }

    /// `Prod(q)`: the union of `accepts` over every state reachable from `q`. A counted
    /// terminal is read off the count instead (the table's far classes never reach the
    /// counts a string must grow to): it can complete while its string is open and the
    /// count is within its maximum.
    fn completable_sets(&self) -> Result<Vec<TerminalSet>> {
        let capacity = self.grammar.terminals.len();
        let counted = TerminalSet::with_ids(capacity, self.terminals.iter().filter(|t| t.counted.is_some()).map(|t| t.id));
        let mut sets: Vec<TerminalSet> = self
            .accepts
            .iter()
            .map(|a| TerminalSet::with_ids(capacity, a.iter().copied().filter(|&t| !counted.contains(t))))
            .collect();
        let graph = self.live_successors();
        // Components come sinks first, so every set a component reads outside itself is
        // complete; inside it every state completes what any member accepts.
        let (members, ends) = strongly_connected_components(&graph);
        let mut start = 0;
        for (i, &end) in ends.iter().enumerate() {
            self.deadline.check_at(i)?;
            let component = &members[start..end];
            start = end;
            if let [q] = *component {
                // Alone (the common case): its own set, and what its successors complete.
                let (done, rest) = sets.split_at_mut(q);
                let (set, later) = rest.split_first_mut().expect("state in range");
                for &t in graph.successors(q) {
                    set.union_with(if t < q { &done[t] } else { &later[t - q - 1] });
                }
                continue;
            }
            let mut set = TerminalSet::new(capacity);
            for &q in component {
                set.union_with(&sets[q]);
                graph.successors(q).iter().for_each(|&t| _ = set.union_with(&sets[t]));
            }
            component.iter().for_each(|&q| sets[q].clone_from(&set));
        }
        for (q, set) in sets.iter_mut().enumerate() {
            self.add_counted_completable(q, set);
        }
        Ok(sets)
    }

    /// Per state, its distinct successors other than itself and the dead state.
    fn live_successors(&self) -> Graph {
        let stride = self.representatives.len();
        let states = self.accepts.len();
        let mut last_source = vec![usize::MAX; states];
        Graph::from_edges(states, |q, targets| {
            for t in self.transitions[q * stride..(q + 1) * stride].iter().map(|t| t.index()) {
                if t != q && t != LexState::DEAD.index() && std::mem::replace(&mut last_source[t], q) != q {
                    targets.push(t);
                }
            }
        })
    }
}

/// A directed graph over `0..n` as one array: the edges out of `q` (a target, maybe
/// with a label) are `targets[starts[q]..starts[q + 1]]`.
struct Graph<E = usize> {
    starts: Vec<usize>,
    targets: Vec<E>,
}

impl<E> Graph<E> {
    /// A graph of `n` states whose edges out of each are `edges(q)`, in order.
    fn from_edges(n: usize, mut edges: impl FnMut(usize, &mut Vec<E>)) -> Graph<E> {
        let mut graph = Graph { starts: Vec::with_capacity(n + 1), targets: Vec::new() };
        graph.starts.push(0);
        for q in 0..n {
            edges(q, &mut graph.targets);
            graph.starts.push(graph.targets.len());
        }
        graph
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn successors(&self, q: usize) -> &[E] {
        &self.targets[self.starts[q]..self.starts[q + 1]]
    }
}

/// The strongly connected components of `graph`, each after every component it reaches
/// (Tarjan's algorithm, iterative), as one list of states with each component's end.
fn strongly_connected_components(graph: &Graph) -> (Vec<usize>, Vec<usize>) {
    const UNSEEN: usize = usize::MAX;
    let n = graph.len();
    let (mut index, mut low) = (vec![UNSEEN; n], vec![0; n]);
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let (mut members, mut ends) = (Vec::with_capacity(n), Vec::new());
    let mut next_index = 0;
    // The depth-first path: a state and how many of its successors it has visited.
    let mut path: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        path.push((root, 0));
        while let Some(&mut (q, ref mut visited)) = path.last_mut() {
            if *visited == 0 {
                (index[q], low[q]) = (next_index, next_index);
                next_index += 1;
                stack.push(q);
                on_stack[q] = true;
            }
            if let Some(&t) = graph.successors(q).get(*visited) {
                *visited += 1;
                if index[t] == UNSEEN {
                    path.push((t, 0));
                } else if on_stack[t] {
                    low[q] = low[q].min(index[t]);
                }
                continue;
            }
            path.pop();
            if let Some(&(parent, _)) = path.last() {
                low[parent] = low[parent].min(low[q]);
            }
            if low[q] == index[q] {
                let at = stack.iter().rposition(|&s| s == q).unwrap_or(0);
                stack[at..].iter().for_each(|&s| on_stack[s] = false);
                members.extend(stack.drain(at..));
                ends.push(members.len());
            }
        }
    }
    (members, ends)
}

/// Calls `visit(start, end, next)` for each range of bytes that NFA state `state`
/// consumes, with the state it leads to; a dense state's table as runs of bytes leading to
/// one state. Byte classes are cut at the ends of every such range ([`byte_classes`]), so
/// a range is a run of whole classes.
fn byte_ranges(state: &thompson::State, mut visit: impl FnMut(u8, u8, StateID)) {
    match state {
        thompson::State::ByteRange { trans } => visit(trans.start, trans.end, trans.next),
        thompson::State::Sparse(sparse) => sparse.transitions.iter().for_each(|tr| visit(tr.start, tr.end, tr.next)),
        thompson::State::Dense(dense) => {
            let mut run: Option<(u8, u8, StateID)> = None;
            for byte in 0..=u8::MAX {
                let next = dense.matches_byte(byte);
                match (run, next) {
                    (Some((start, _, target)), Some(next)) if next == target => run = Some((start, byte, target)),
                    _ => {
                        if let Some((start, end, target)) = run {
                            visit(start, end, target);
                        }
                        run = next.map(|next| (byte, byte, next));
                    }
                }
            }
            if let Some((start, end, target)) = run {
                visit(start, end, target);
            }
        }
        _ => {}
    }
}

/// Calls `visit` with each NFA state that `state` leads to without reading a byte;
/// whether it leads anywhere that way (a union or a capture).
fn epsilon_targets(state: &thompson::State, mut visit: impl FnMut(StateID)) -> bool {
    match state {
        thompson::State::Union { alternates } => alternates.iter().for_each(|&a| visit(a)),
        thompson::State::BinaryUnion { alt1, alt2 } => {
            visit(*alt1);
            visit(*alt2);
        }
        thompson::State::Capture { next, .. } => visit(*next),
        _ => return false,
    }
    true
}

/// A successor memo key: the seeds one byte run leads to, and the source state's place
/// in the counted string (its part and count class), on which the target's count class
/// depends. Without counting every state is in the same place.
#[derive(Debug)]
struct SuccessorKey {
    from: (Part, u32),
    seeds: Box<[(u32, StateID)]>,
}

/// A hash of a set of NFA states and a place in the counted string, for the build's
/// tables (which keep it beside each entry; the successor memo hashes every byte run of
/// every state).
fn seeds_hash(from: (Part, u32), seeds: &[(u32, StateID)]) -> u64 {
    let place = (from.0 as u64) << 32 | u64::from(from.1);
    fold_hash(place, seeds.iter().map(|&(p, s)| u64::from(p) << 32 | s.as_u64()))
}

/// Where a memoized run of seeds led: the state, and the transition out of a far run
/// that each source reaching it records (subset and count class), if any.
#[derive(Clone, Debug)]
struct Successor {
    target: LexState,
    leaving: Option<(SharedSubset, u32)>,
}

/// Most NFA states the lexer build's successor memo holds (8 bytes each).
const SUCCESSOR_MEMO_SEEDS: usize = 4 << 20;

/// Byte equivalence classes over every transition of every NFA, and one
/// representative byte per class.
fn byte_classes(nfas: &[PatternNfa]) -> ([u8; 256], Vec<u8>) {
    let mut boundary = [false; 257];
    boundary[0] = true;
    for n in nfas {
        for state in n.nfa.states() {
            byte_ranges(state, |start, end, _| {
                boundary[start as usize] = true;
                boundary[end as usize + 1] = true;
            });
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
