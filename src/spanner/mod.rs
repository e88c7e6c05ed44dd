//! The token spanner: what each token does to the lexer, from each lexer state.
//!
//! Boundary: takes the [`Lexer`] and a [`Vocabulary`]'s token trie; for a lexer state
//! `q` it returns a [`SpannerRow`]: the vocabulary partitioned into [`TokenClass`]es.
//! Feeding a token's bytes from `q` closes a sequence of lexemes (each a set of
//! candidate terminals, see [`Lexeme`]) and leaves the lexer in an end state `q'`;
//! tokens with the same lexemes and the same `q'` behave identically for *every* parser
//! stack, so later stages decide viability once per class, not once per token.
//! Tokens that kill the lexer from `q` belong to no class.
//!
//! The row is computed by walking the token trie from `q` (tokens sharing a prefix share
//! the work, and a dead prefix prunes its whole subtree), never the flat vocabulary.
//! Rows are built lazily, on first use of a lexer state, and cached in the
//! [`TokenSpanner`], which is `Send + Sync` and shared by every sequence using the same
//! grammar and vocabulary. States that no text as long as the longest token tells apart
//! ([`Lexer::equivalent_within`]: a length-bounded string's states far from the bound)
//! share one row ([`TokenSpanner::row_state`]). A state most tokens behave alike from
//! as from another (the same first step, or no more bytes than the texts that do not
//! tell the two apart) needs no row of its own ([`TokenSpanner::plan`], [`Derivation`]):
//! the classifier takes the other's masks, corrected by the state's
//! [part](TokenSpanner::part).
//!
//! This is seed 004's "token spanner table" and seed 000's per-state lexing of tokens.
//!
//! # Example
//! ```
//! use stackmask::{Grammar, CompiledGrammar, spanner::TokenSpanner, tokenizer::Vocabulary};
//! use std::sync::Arc;
//! let g = Grammar::from_lark(r#"
//!     start: (NAME | NUMBER)+
//!     NAME: /[a-z]+/
//!     NUMBER: /[0-9]+/
//!     %ignore " "
//! "#).unwrap();
//! let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
//! let tokens = ["ab", "cd", "a 1", "b 2", "!"];
//! let vocab = Arc::new(Vocabulary::from_token_bytes(
//!     tokens.iter().map(|t| t.as_bytes().to_vec()).collect(), None));
//! let spanner = TokenSpanner::new(compiled.clone(), vocab);
//! let row = spanner.row(compiled.lexer().start());
//! // "ab" and "cd" both leave a pending NAME; "a 1" and "b 2" both close a NAME, skip a
//! // space and leave a pending NUMBER; "!" kills the lexer.
//! assert_eq!(row.classes().len(), 2);
//! assert_eq!(row.token_count(), 4);
//! ```

use crate::interner::Interner;
use crate::ir::TerminalId;
use crate::error::{Error, LimitKind, Result};
use crate::lexer::{LexState, Lexer};
use crate::matcher::CompiledGrammar;
use crate::tokenizer::{ByteBuckets, PlainTokens, TokenTrie, Vocabulary};
use crate::words::{WordBuffer, Words};
use hashbrown::HashMap;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::binary_heap::{BinaryHeap, PeekMut};
use std::ops::Range;
use std::rc::Rc;
use std::sync::{Arc, Mutex, OnceLock};
use plain::{PlainChain, PlainExceptions, PlainPath, PlainSteps};
use subtrees::SubtreeWalks;

pub use derive::{Derivation, Plan};

mod derive;
mod plain;
mod subtrees;

/// How many times, on average, finding the lexer states that share rows may examine each
/// state before giving up (and giving every state its own row): most lexers need fewer
/// than 8; the few that need more need 50 and more, hundreds of milliseconds of a compile.
const EQUIVALENCE_PASSES: usize = 8;

/// Options for a [`TokenSpanner`]. Every configuration builds the same rows; they
/// differ in time and memory.
///
/// # Example
/// ```
/// use stackmask::spanner::SpannerConfig;
/// let config = SpannerConfig::default();
/// assert_eq!(config.subtree_walk_bytes, 64 << 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpannerConfig {
    /// About how many bytes of first-level subtree walks to keep for reuse by later rows
    /// (0: none; `spanner/subtrees.rs`).
    pub subtree_walk_bytes: usize,
}

impl Default for SpannerConfig {
    fn default() -> SpannerConfig {
        SpannerConfig { subtree_walk_bytes: 64 << 20 }
    }
}

/// A class holding at least one token in this many of the vocabulary gathers its ids in a
/// bit set ([`Walk::tokens_by_class`]) instead of a sorted list. Masks take the set as the
/// class's token bitmap (the classifier keeps a bitmap for every class of more than 512
/// tokens); only merged rows and artifacts read it back, at up to four words per id.
/// (At 1/32, Llama 3's classes of 1,000–4,000 ids were sorted, then set bit by bit into
/// that bitmap: at 1/128 MaskBench's total mask time is 5% lower.)
const DENSE_CLASS_RATIO: usize = 128;

/// How many of the plain tokens must hold no exception of a row's state
/// ([`PlainPath`]) for the row to take them by count and walk the rest, as a
/// fraction (numerator, denominator): below it, walking the rest costs more than the
/// other ways of taking plain tokens. (A half took too few paths: rows of strings
/// holding any of a few substrings kept 40–49% and walked the whole vocabulary instead.
/// Rows measured alone gain from a path down to the least share seen, 23%, but for
/// some whose lexer prunes the walk without one, such as URL literals; over MaskBench a
/// fifth keeps the total time of a third and cuts the slowest masks.)
const KEPT_PLAIN_SHARE: (usize, usize) = (1, 5);

/// A closed lexeme as the parser receives it: the candidate terminals that reach the
/// parser, and whether it may instead be skipped (one candidate is `%ignore`d).
///
/// Lexemes whose candidates are all ignored never reach the parser and are left out of
/// class sequences. They are ordered by candidates, then `skippable`; sequences of them,
/// lexicographically, order a row's classes ([`SpannerRow::classes`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Lexeme {
    /// Non-ignored candidates, sorted; never empty.
    pub terminals: SmallVec<[TerminalId; 2]>,
    /// Whether the lexeme may be skipped instead.
    pub skippable: bool,
}

impl Lexeme {
    /// The lexeme closed in lexer state `q`, or `None` when every candidate is ignored.
    /// `q` must accept some terminal.
    pub fn closed_in(lexer: &Lexer, q: LexState) -> Option<Lexeme> {
        let ignored = lexer.ignored();
        let accepts = lexer.accepts(q);
        let terminals: SmallVec<[TerminalId; 2]> = accepts.iter().copied().filter(|&t| !ignored.contains(t)).collect();
        let skippable = accepts.iter().any(|&t| ignored.contains(t));
        (!terminals.is_empty()).then_some(Lexeme { terminals, skippable })
    }
}

/// Tokens that, fed from one lexer state, close the same lexemes and end in the same
/// lexer state. Its token ids are held by its row ([`SpannerRow::tokens`]).
#[derive(Clone, Debug)]
pub struct TokenClass {
    /// Lexemes closed by the token, in order (shared by the row's classes that close
    /// the same ones).
    pub lexemes: Arc<[Lexeme]>,
    /// Lexer state after the token's last byte, fed from the state the row was built
    /// for ([`TokenSpanner::row_state`]); from another state sharing the row, the real
    /// end state accepts and can complete the same terminals. Never the start or dead
    /// state.
    pub end: LexState,
    pub(crate) tokens: ClassTokens,
}

impl TokenClass {
    /// Number of tokens in the class.
    pub fn token_count(&self) -> usize {
        match &self.tokens {
            ClassTokens::Listed(range) => range.len(),
            ClassTokens::Dense(dense) => dense.len as usize,
        }
    }

    /// The class's tokens as a token bitmap (mask layout), when its row holds them so.
    pub(crate) fn bitmap(&self) -> Option<&Words> {
        match &self.tokens {
            ClassTokens::Listed(_) => None,
            ClassTokens::Dense(dense) => Some(&dense.bits),
        }
    }
}

/// Where a row holds a class's token ids.
#[derive(Clone, Debug)]
pub(crate) enum ClassTokens {
    /// Ascending, at this range of the row's [`SpannerRow::all_tokens`].
    Listed(Range<u32>),
    /// In a token bitmap: a walk gathers a class holding much of the vocabulary in one
    /// (a string body's row holds most of it in one class), which is what masks read.
    Dense(Box<DenseClass>),
}

/// A class's tokens as a bitmap, and as ascending ids once some caller asks for them.
#[derive(Clone, Debug)]
pub(crate) struct DenseClass {
    bits: Words,
    len: u32,
    ids: OnceLock<Box<[u32]>>,
}

impl DenseClass {
    /// The class of the `len` tokens set in `bits`.
    fn new(bits: Words, len: u32) -> DenseClass {
        debug_assert_eq!(bits.iter().map(|w| w.count_ones()).sum::<u32>(), len);
        DenseClass { bits, len, ids: OnceLock::new() }
    }

    /// The ids, ascending, listed on first use.
    fn ids(&self) -> &[u32] {
        self.ids.get_or_init(|| {
            let mut ids = vec![0; self.len as usize];
            write_ascending(&self.bits, &mut ids);
            ids.into()
        })
    }
}

/// One lexer state's partition of the (live) vocabulary into [`TokenClass`]es.
///
/// The token ids of all classes are one list, each class a range of it: a row of a
/// large grammar has thousands of classes, and one list is one allocation to build
/// and one slice of a loaded artifact to share.
#[derive(Clone, Debug)]
pub struct SpannerRow {
    classes: Vec<TokenClass>,
    tokens: Words,
}

impl SpannerRow {
    /// A row of `classes`, in the order [`SpannerRow::classes`] documents, whose token
    /// ranges index `tokens`.
    pub(crate) fn from_classes(classes: Vec<TokenClass>, tokens: Words) -> SpannerRow {
        debug_assert!(classes.iter().all(|c| match &c.tokens {
            ClassTokens::Listed(range) => (range.end as usize) <= tokens.len(),
            ClassTokens::Dense(_) => true,
        }));
        SpannerRow { classes, tokens }
    }

    /// The token ids of class `class` (an index into [`SpannerRow::classes`]), ascending.
    pub fn tokens(&self, class: usize) -> &[u32] {
        match &self.classes[class].tokens {
            ClassTokens::Listed(range) => &self.tokens[range.start as usize..range.end as usize],
            ClassTokens::Dense(dense) => dense.ids(),
        }
    }

    /// This row with `closed` put before every class's lexemes: the row of a state that
    /// closes `closed` on every byte, from the row of the start state that each byte
    /// then restarts the lexer in (see [`TokenSpanner::closes_on_every_byte`]). The
    /// classes stay distinct and in order.
    fn after(&self, closed: Lexeme) -> SpannerRow {
        // Classes closing the same lexemes share their sequence; so do their successors.
        let mut prefixed: HashMap<*const [Lexeme], Arc<[Lexeme]>> = HashMap::new();
        let mut prefix = |lexemes: &Arc<[Lexeme]>| {
            let key = Arc::as_ptr(lexemes);
            Arc::clone(prefixed.entry(key).or_insert_with(|| std::iter::once(closed.clone()).chain(lexemes.iter().cloned()).collect()))
        };
        let classes = self.classes.iter().map(|class| TokenClass { lexemes: prefix(&class.lexemes), ..class.clone() }).collect();
        SpannerRow { classes, tokens: self.tokens.clone() }
    }

    /// The list the listed classes' token ids are ranges of ([`ClassTokens::Listed`]).
    pub(crate) fn all_tokens(&self) -> &Words {
        &self.tokens
    }

    /// Every class's token ids as a range of one list, class by class: the row's own
    /// list when it lists every class, else one made class after class.
    pub(crate) fn listing(&self) -> (Cow<'_, [u32]>, Vec<Range<u32>>) {
        let listed = self.classes.iter().map(|class| match &class.tokens {
            ClassTokens::Listed(range) => Some(range.clone()),
            ClassTokens::Dense(_) => None,
        });
        if let Some(ranges) = listed.collect::<Option<Vec<_>>>() {
            return (Cow::Borrowed(&self.tokens), ranges);
        }
        let mut list = Vec::with_capacity(self.token_count());
        let ranges = (0..self.classes.len())
            .map(|class| {
                let start = list.len() as u32;
                list.extend_from_slice(self.tokens(class));
                start..list.len() as u32
            })
            .collect();
        (Cow::Owned(list), ranges)
    }

    /// The classes, ordered by their lexeme sequences so that classes sharing a prefix of
    /// lexemes are adjacent.
    pub fn classes(&self) -> &[TokenClass] {
        &self.classes
    }

    /// Number of tokens in all classes (the tokens the lexer alone does not kill).
    pub fn token_count(&self) -> usize {
        self.classes.iter().map(TokenClass::token_count).sum()
    }
}

/// Lazily built, cached [`SpannerRow`]s for every lexer state of one grammar and one
/// vocabulary. `Send + Sync`: share it between sequences.
pub struct TokenSpanner {
    compiled: Arc<CompiledGrammar>,
    vocab: Arc<Vocabulary>,
    /// By lexer state, the state whose row it shares (itself for the states rows are
    /// built for).
    row_states: Box<[LexState]>,
    /// By lexer state; only the slots of row states are used.
    rows: Box<[OnceLock<Arc<SpannerRow>>]>,
    /// By lexer state, as `rows`: how its masks are had, and the part of a derived row.
    plans: Box<[OnceLock<Plan>]>,
    parts: Box<[OnceLock<Arc<SpannerRow>>]>,
    first_bytes: derive::FirstBytes,
    plain_steps: PlainSteps,
    /// By lexer state, once asked: whether every byte closes its lexeme.
    closing: Box<[OnceLock<bool>]>,
    /// Row states planned whole, in the order they were planned.
    wholes: Mutex<Vec<LexState>>,
    subtrees: SubtreeWalks,
    /// Why the lexer's tables do not serve the vocabulary, if they do not: the
    /// [`LimitKind::CountHorizon`] value and limit ([`TokenSpanner::check_count_horizon`]).
    count_horizon_exceeded: Option<(usize, usize)>,
}

/// The value and limit of [`LimitKind::CountHorizon`] if `lexer`'s tables do not serve
/// `vocab` ([`TokenSpanner::check_count_horizon`]).
fn count_horizon_exceeded(lexer: &Lexer, vocab: &Vocabulary) -> Option<(usize, usize)> {
    let longest = vocab.trie().max_depth();
    if let Some(horizon) = lexer.count_horizon().filter(|&horizon| longest > horizon) {
        return Some((longest, horizon));
    }
    let fitted = lexer.fitted_horizon()?;
    (fitted.vocabulary != vocab.fingerprint()).then_some((longest, fitted.horizon))
}

impl std::fmt::Debug for TokenSpanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.rows.iter().filter(|r| r.get().is_some()).count();
        let parts = self.parts.iter().filter(|r| r.get().is_some()).count();
        f.debug_struct("TokenSpanner")
            .field("rows_built", &built)
            .field("parts_built", &parts)
            .field("rows", &self.rows.len())
            .field("subtree_walk_bytes", &self.subtrees.bytes())
            .finish()
    }
}

impl TokenSpanner {
    /// A spanner with no row built yet, in the default configuration.
    pub fn new(compiled: Arc<CompiledGrammar>, vocab: Arc<Vocabulary>) -> TokenSpanner {
        TokenSpanner::with_config(compiled, vocab, &SpannerConfig::default())
    }

    /// A spanner with no row built yet, configured by `config`.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, tokenizer::Vocabulary};
    /// use stackmask::spanner::{SpannerConfig, TokenSpanner};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: /"[a-z]*"/"#).unwrap();
    /// let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(vec![b"\"a".to_vec(), b"b".to_vec()], None));
    /// let config = SpannerConfig { subtree_walk_bytes: 0 };
    /// let spanner = TokenSpanner::with_config(compiled.clone(), vocab, &config);
    /// assert_eq!(spanner.row(compiled.lexer().start()).token_count(), 1);
    /// ```
    pub fn with_config(compiled: Arc<CompiledGrammar>, vocab: Arc<Vocabulary>, config: &SpannerConfig) -> TokenSpanner {
        let lexer = compiled.lexer();
        let all = || (0..lexer.state_count()).map(LexState::from_index).collect();
        let budget = EQUIVALENCE_PASSES * lexer.state_count();
        let mut row_states: Box<[LexState]> = lexer.equivalent_within(vocab.trie().max_depth(), budget).unwrap_or_else(all).into();
        share_start_row(lexer, &mut row_states);
        let subtrees = SubtreeWalks::new(config.subtree_walk_bytes);
        let (rows, plans, parts) = (slots(lexer.state_count()), slots(lexer.state_count()), slots(lexer.state_count()));
        let first_bytes = derive::FirstBytes::new(vocab.trie(), lexer.state_count());
        let plain_steps = PlainSteps::new(lexer.state_count());
        let closing = slots(lexer.state_count());
        let wholes = Mutex::new(Vec::new());
        let count_horizon_exceeded = count_horizon_exceeded(lexer, &vocab);
        TokenSpanner {
            compiled,
            vocab,
            row_states,
            rows,
            plans,
            parts,
            first_bytes,
            plain_steps,
            closing,
            wholes,
            subtrees,
            count_horizon_exceeded,
        }
    }

    /// Whether the lexer's tables serve this vocabulary exactly: a lexer that counts
    /// long JSON strings ([`Lexer::count_horizon`]) serves tokens up to its horizon, and
    /// one whose horizons were fitted to a vocabulary ([`Lexer::fitted_horizon`]) serves
    /// that vocabulary only. [`Error::Limit`] with [`LimitKind::CountHorizon`] when a
    /// token is longer, or the vocabulary another (its longest token against the least
    /// horizon fitted).
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, spanner::TokenSpanner, tokenizer::Vocabulary};
    /// use stackmask::{lexer::LexerConfig, matcher::CompileConfig};
    /// use std::sync::Arc;
    /// let g = Grammar::from_json_schema(r#"{"type": "string", "maxLength": 300}"#).unwrap();
    /// let lexer = LexerConfig { count_horizon: 2, ..LexerConfig::default() };
    /// let compiled = Arc::new(CompiledGrammar::with_config(&g, &CompileConfig { lexer, ..Default::default() }).unwrap());
    /// let tokens = |ts: &[&str]| Arc::new(Vocabulary::from_token_bytes(ts.iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// assert!(TokenSpanner::new(compiled.clone(), tokens(&["\"", "ab"])).check_count_horizon().is_ok());
    /// assert!(TokenSpanner::new(compiled, tokens(&["\"", "abc"])).check_count_horizon().is_err());
    /// ```
    pub fn check_count_horizon(&self) -> Result<()> {
        match self.count_horizon_exceeded {
            Some((value, limit)) => Err(Error::Limit { kind: LimitKind::CountHorizon, value, limit }),
            None => Ok(()),
        }
    }

    /// The row of lexer state `q`, built on first use of `q` or of a state sharing its
    /// row. Exact when [`TokenSpanner::check_count_horizon`] is `Ok` (every mask path
    /// checks it). Concurrent first uses of one row wait for a single build; different rows
    /// build in parallel.
    pub fn row(&self, q: LexState) -> Arc<SpannerRow> {
        let q = self.row_state(q);
        let slot = &self.rows[q.index()];
        Arc::clone(slot.get_or_init(|| {
            let lexer = self.compiled.lexer();
            if self.closes_on_every_byte(q) {
                // A state closing an ignored lexeme shares the start state's row already
                // (`share_start_row`); the start row serves it all the same.
                let start = self.row(lexer.start());
                return match Lexeme::closed_in(lexer, q) {
                    Some(closed) => Arc::new(start.after(closed)),
                    None => start,
                };
            }
            Arc::new(build_row(self.stepper(), &self.vocab, q, &self.subtrees, |_| Some(1), Some(&self.plain_steps)))
        }))
    }

    /// Whether every byte fed in lexer state `q` closes the lexeme `q` accepts and
    /// restarts the lexer from the start state: `q` follows a punctuation mark or a
    /// keyword that no terminal continues (`{`, `,`, `:` in JSON). Every token's fate
    /// from `q` is then its fate from the start state with that lexeme first, which is
    /// how such a state's [row](TokenSpanner::row) is made, and how the matcher reads
    /// its masks (the lexeme handed to the parser, then the start state's classifier).
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, matcher::Recognizer, tokenizer::Vocabulary};
    /// use stackmask::spanner::TokenSpanner;
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "[" (NUM ("," NUM)*)? "]"
    ///                               NUM: /[0-9]+/"#).unwrap();
    /// let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(vec![b"1".to_vec()], None));
    /// let spanner = TokenSpanner::new(compiled.clone(), vocab);
    /// let after = |text: &[u8]| {
    ///     let mut r = Recognizer::new(compiled.clone());
    ///     r.feed(text).unwrap();
    ///     spanner.closes_on_every_byte(r.lex_state())
    /// };
    /// assert!(after(b"[1,"));   // nothing continues ","
    /// assert!(!after(b"[1"));   // a digit continues the number
    /// assert!(!after(b""));     // the start state closes nothing
    /// ```
    pub fn closes_on_every_byte(&self, q: LexState) -> bool {
        let lexer = self.compiled.lexer();
        *self.closing[q.index()].get_or_init(|| {
            !lexer.is_start(q) && !lexer.accepts(q).is_empty() && (0..=u8::MAX).all(|byte| lexer.next(q, byte).is_dead())
        })
    }

    /// How the masks of lexer state `q` (and of the states sharing its row) are had:
    /// from its own [row](TokenSpanner::row), or derived from another state's row
    /// ([`Derivation`]) when enough tokens behave alike from both (the same first step,
    /// or no more bytes than the texts that do not tell the two apart, or, read after
    /// the parser takes `q`'s lexeme, the start state's on the bytes closing it). Decided on first
    /// use, from the lexer alone (no row is built); a state whose row is built already is
    /// planned whole. Which states are planned already when `q` is can change its plan,
    /// never its masks.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, spanner::{Plan, TokenSpanner}, tokenizer::Vocabulary};
    /// use std::sync::Arc;
    /// // A key name among any other strings.
    /// let g = Grammar::from_lark(r#"start: KEY | STRING
    ///                               KEY.2: "\"name\""
    ///                               STRING: /"[a-z]*"/"#).unwrap();
    /// let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(
    ///     ["a", "b", "c", "m", "me", "x\"", "\""].iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// let spanner = TokenSpanner::new(compiled.clone(), vocab);
    /// let lexer = compiled.lexer();
    /// let after = |text: &[u8]| text.iter().fold(lexer.start(), |q, &b| lexer.next(q, b));
    /// // Inside "na, every byte but `m` steps as it does inside "x.
    /// let Plan::Derived(d) = spanner.plan(after(b"\"na")) else { panic!("not derived") };
    /// assert_eq!(d.reference, spanner.row_state(after(b"\"x")));
    /// assert!(d.steps_apart(b'm') && !d.steps_apart(b'a'));
    /// // The part: the tokens starting with `m`.
    /// assert_eq!(spanner.part(after(b"\"na")).token_count(), 2);
    /// ```
    pub fn plan(&self, q: LexState) -> &Plan {
        let q = self.row_state(q);
        self.plans[q.index()].get_or_init(|| {
            let lexer = self.compiled.lexer();
            let row_state = |s: LexState| self.row_state(s);
            let plan = if self.rows[q.index()].get().is_some() {
                Plan::Whole
            } else {
                let links = |r: LexState| {
                    let plan = match self.plans[r.index()].get() {
                        Some(plan) => plan,
                        None => {
                            let may_plan = r.index() < q.index() || derive::is_hub(lexer, &self.first_bytes, r, row_state);
                            if !may_plan {
                                return None;
                            }
                            nested_plan(|| self.plan(r))?
                        }
                    };
                    match plan {
                        Plan::Whole => Some(0),
                        Plan::Derived(derivation) => Some(derivation.links()).filter(|&links| links < derive::MAX_LINKS),
                        // Its mask is read over another parse (after its lexeme).
                        Plan::AfterClosing(_) => None,
                    }
                };
                derive::plan(lexer, self.vocab.trie(), &self.first_bytes, q, row_state, links, &self.recent_wholes())
            };
            if plan == Plan::Whole {
                self.wholes.lock().unwrap_or_else(|p| p.into_inner()).push(q);
            }
            plan
        })
    }

    /// The last few row states planned whole, the latest last.
    fn recent_wholes(&self) -> Vec<LexState> {
        let wholes = self.wholes.lock().unwrap_or_else(|p| p.into_inner());
        wholes[wholes.len().saturating_sub(derive::LENGTH_CANDIDATES)..].to_vec()
    }

    /// The part of a derived state's row ([`TokenSpanner::plan`]): its classes of the
    /// tokens its reference does not settle ([`Derivation::settles`]). For a state
    /// planned whole, its whole row.
    pub fn part(&self, q: LexState) -> Arc<SpannerRow> {
        let q = self.row_state(q);
        let Some(derivation) = self.plan(q).derivation() else { return self.row(q) };
        let slot = &self.parts[q.index()];
        Arc::clone(slot.get_or_init(|| {
            let shortest = |byte| derivation.part_shortest(byte);
            Arc::new(build_row(self.stepper(), &self.vocab, q, &self.subtrees, shortest, Some(&self.plain_steps)))
        }))
    }

    /// The lexer as rows' walks step it.
    fn stepper(&self) -> Stepper<'_> {
        Stepper::new(self.compiled.lexer(), &self.row_states)
    }

    /// The state whose row `q` shares: the smallest state that no text as long as the
    /// vocabulary's longest token tells apart from `q` ([`Lexer::equivalent_within`]).
    /// Every token then closes the same lexemes from both, and ends in states accepting
    /// and able to complete the same terminals. `q` itself when finding them takes more
    /// than a few passes over the lexer's states. A state that steps as the start state
    /// does on every byte, but for closing an ignored lexeme (inside whitespace, after a
    /// comment), shares the start state's row.
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, spanner::TokenSpanner, tokenizer::Vocabulary};
    /// use std::sync::Arc;
    /// // A quoted word of at most 20 letters; no token is longer than 2 bytes.
    /// let g = Grammar::from_lark(r#"start: WORD
    ///                               WORD: /"[a-z]{0,20}"/"#).unwrap();
    /// let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(
    ///     ["a", "ab", "\"", "a\""].iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// let spanner = TokenSpanner::new(compiled.clone(), vocab);
    /// let lexer = compiled.lexer();
    /// let after = |text: &[u8]| text.iter().fold(lexer.start(), |q, &b| lexer.next(q, b));
    /// // 3 or 4 letters in, no 2-byte token can tell: one row serves both.
    /// assert_eq!(spanner.row_state(after(b"\"abc")), spanner.row_state(after(b"\"abcd")));
    /// // 19 letters in, "ab" would overflow the bound: its own row.
    /// assert_ne!(spanner.row_state(after(b"\"abc")), spanner.row_state(after(b"\"abcdefghijklmnopqrs")));
    /// ```
    pub fn row_state(&self, q: LexState) -> LexState {
        self.row_states[q.index()]
    }

    /// A spanner whose rows `rows` are already built (the rest build on first use).
    /// The caller vouches that each row is the one [`TokenSpanner::row`] would build;
    /// a state given twice keeps its first row. `Err(q)`: `q` is not a state of the
    /// lexer, or shares another state's row ([`TokenSpanner::row_state`]).
    pub(crate) fn with_rows(
        compiled: Arc<CompiledGrammar>,
        vocab: Arc<Vocabulary>,
        rows: impl IntoIterator<Item = (LexState, SpannerRow)>,
    ) -> Result<TokenSpanner, LexState> {
        let spanner = TokenSpanner::new(compiled, vocab);
        for (q, row) in rows {
            if spanner.row_states.get(q.index()) != Some(&q) {
                return Err(q);
            }
            let _ = spanner.rows[q.index()].set(Arc::new(row));
        }
        Ok(spanner)
    }

    /// The rows built so far, by lexer state.
    pub(crate) fn built_rows(&self) -> impl Iterator<Item = (LexState, &Arc<SpannerRow>)> {
        self.rows.iter().enumerate().filter_map(|(q, row)| Some((LexState::from_index(q), row.get()?)))
    }

    /// Number of rows built so far.
    pub fn rows_built(&self) -> usize {
        self.rows.iter().filter(|r| r.get().is_some()).count()
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &Arc<Vocabulary> {
        &self.vocab
    }

    /// The compiled grammar.
    pub fn compiled(&self) -> &Arc<CompiledGrammar> {
        &self.compiled
    }
}

/// How deep plans may ask about other states' plans on one thread: each level is a
/// state of lower index than the last, so a long chain of them is possible in a large
/// lexer, and the thread's stack must not grow with it.
const MAX_NESTED_PLANS: usize = 32;

thread_local! {
    static NESTED_PLANS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// `decide()`, counted as one more level of nested plans; `None` past
/// [`MAX_NESTED_PLANS`] (the caller then does without that state).
fn nested_plan<T>(decide: impl FnOnce() -> T) -> Option<T> {
    let depth = NESTED_PLANS.with(|d| d.get());
    if depth >= MAX_NESTED_PLANS {
        return None;
    }
    NESTED_PLANS.with(|d| d.set(depth + 1));
    let decided = decide();
    NESTED_PLANS.with(|d| d.set(depth));
    Some(decided)
}

/// `count` empty cells.
fn slots<T>(count: usize) -> Box<[OnceLock<T>]> {
    (0..count).map(|_| OnceLock::new()).collect()
}

/// Give the start state's row to the row states that step like the start state on
/// every byte but for closing a lexeme whose candidates are all ignored (whitespace or a
/// comment between lexemes): from such a state a token closes the same lexemes (an
/// ignored one is no lexeme of a class's sequence) and ends in the same state as from
/// the start state, so the two rows are one. A JSON schema's whitespace state is one:
/// its row, as costly as the start state's, had been built for every schema.
fn share_start_row(lexer: &Lexer, row_states: &mut [LexState]) {
    let start = lexer.start();
    let start_row = row_states[start.index()];
    let steps_like_start = |q: LexState| {
        (0..=u8::MAX).all(|byte| match (step_outcome(lexer, q, byte), step_outcome(lexer, start, byte)) {
            (None, None) => true,
            (Some((_, next)), Some((false, from_start))) => next == from_start,
            _ => false,
        })
    };
    let ignored_only = |q: LexState| !lexer.accepts(q).is_empty() && lexer.accepts(q).iter().all(|&t| lexer.ignored().contains(t));
    let like_start: Vec<LexState> = (0..row_states.len())
        .map(LexState::from_index)
        .filter(|&q| row_states[q.index()] == q && q != start_row && ignored_only(q) && steps_like_start(q))
        .collect();
    for row_state in row_states.iter_mut().filter(|r| like_start.contains(r)) {
        *row_state = start_row;
    }
}

/// What feeding `byte` in lexer state `q` does, as the recognizer does it: whether it
/// first closes the lexeme accepted in `q` (restarting on `byte`), and the state it leads
/// to; `None` when the lexer dies.
fn step_outcome(lexer: &Lexer, q: LexState, byte: u8) -> Option<(bool, LexState)> {
    let next = lexer.next(q, byte);
    if !next.is_dead() {
        return Some((false, next));
    }
    if lexer.is_start(q) || lexer.accepts(q).is_empty() {
        return None;
    }
    let restart = lexer.next(lexer.start(), byte);
    (!restart.is_dead()).then_some((true, restart))
}

/// Which lexer states a row's walk may take for one another: those sharing a row
/// ([`TokenSpanner::row_state`]), which no text as long as a token tells apart.
///
/// A walk steps the lexer exactly, but where it asks whether a byte keeps the lexer
/// where it is (a subtree taken whole) or whether plain text steps it alike
/// ([`PlainChain`]), states sharing a row count as one: from either, a token closes the
/// same lexemes and ends in states accepting and able to complete the same terminals.
/// (By induction on the token's length: each byte leads both to states the rest of the
/// token cannot tell apart.) The DFA is not minimal, and this is where it shows: past the
/// match of an unanchored `pattern`, a string's states still track partial matches of it,
/// though the rest may be any plain text; counted as one, plain text keeps to one state
/// and the row takes it by count.
#[derive(Clone, Copy)]
pub(super) struct Stepper<'a> {
    lexer: &'a Lexer,
    row_states: &'a [LexState],
}

impl<'a> Stepper<'a> {
    /// `lexer`, with `row_states` by state index ([`TokenSpanner::row_state`]).
    pub(super) fn new(lexer: &'a Lexer, row_states: &'a [LexState]) -> Stepper<'a> {
        debug_assert_eq!(row_states.len(), lexer.state_count());
        Stepper { lexer, row_states }
    }

    /// Whether a walk may take `a` for `b`: the same state, or two live states sharing a
    /// row but for the start state's (the states between ignored lexemes share it, which
    /// the start state tells apart from them, see `share_start_row`).
    fn same(self, a: LexState, b: LexState) -> bool {
        a == b || (!a.is_dead() && !b.is_dead() && self.row_state(a) == self.row_state(b) && !self.lexer.is_start(self.row_state(a)))
    }

    fn row_state(self, q: LexState) -> LexState {
        self.row_states[q.index()]
    }
}

/// Walk the trie from lexer state `q`, grouping tokens by (lexemes, end state): the
/// tokens whose first byte `shortest` maps to `Some(n)`, of at least `n` bytes.
///
/// With `plain_steps`, the vocabulary's plain-text tokens are taken by their number of
/// characters where plain text steps the lexer alike ([`PlainChain`]), and the walk
/// visits only the subtrees holding other tokens: from `q` itself when `shortest` is the
/// same for every first byte (a whole row: one class of most of the vocabulary in a
/// string's body; the long tokens of a part by length, near a string's length bound),
/// else from the state the first character leads to (a key name's prefix leads to the
/// other strings' state on all but its next letter), or the first two where the first
/// goes on along a name ([`Walk::split`]). Elsewhere, a subtree whose bytes all keep the
/// lexer in the state it is reached in is taken whole, without visiting its nodes, and a
/// first-level subtree that earlier rows walked from the same state is merged from
/// `subtrees`.
fn build_row(
    stepper: Stepper<'_>,
    vocab: &Vocabulary,
    q: LexState,
    subtrees: &SubtreeWalks,
    shortest: impl Fn(u8) -> Option<usize>,
    plain_steps: Option<&PlainSteps>,
) -> SpannerRow {
    let trie = vocab.trie();
    let mut walk = Walk::new(stepper, vocab, plain_steps);
    let plain_from_q = uniform_shortest(&shortest).is_some_and(|min_bytes| walk.take_plain_from(q, min_bytes));
    for child in trie.children(TokenTrie::ROOT) {
        let byte = trie.nodes()[child].byte;
        let Some(shortest) = shortest(byte) else { continue };
        if 1 + trie.height(child) < shortest || (plain_from_q && (walk.skips(child) || walk.left_to_exceptions(child, 1))) {
            continue;
        }
        walk.shortest = shortest;
        walk.path.truncate(1);
        let Some(next) = walk.step(q, byte) else { continue };
        if plain_from_q {
            walk.subtree(child, 1, next);
            continue;
        }
        walk.plain = None;
        if shortest > 1 {
            walk.walk_from(child, 1, next);
        } else if !walk.take_by_count(child, 1, next) && !walk.take_whole(child, 1, next) {
            match subtrees.get(child, next, || walk_subtree(stepper, vocab, child, next, plain_steps)) {
                Some(walked) => walk.gather_walked(walked),
                None => walk.split(child, 1, next),
            }
        }
    }
    walk.walk_exceptions();
    let order = walk.class_order();
    let (classes, tokens) = walk.into_classes(Listing::DenseAsBitmaps);
    let mut ordered: Vec<_> = order.into_iter().zip(classes).collect();
    ordered.sort_unstable_by(|(a, _), (b, _)| a.cmp(b));
    SpannerRow { classes: ordered.into_iter().map(|(_, class)| class).collect(), tokens: tokens.into() }
}

/// The fewest bytes of the tokens a row holds when it is the same under every first byte.
fn uniform_shortest(shortest: impl Fn(u8) -> Option<usize>) -> Option<usize> {
    let first = shortest(0)?;
    (1..=u8::MAX).all(|byte| shortest(byte) == Some(first)).then_some(first)
}

/// The classes of first-level node `node`'s subtree (its own tokens included) reached in
/// lexer state `q`, with the lexemes closed from `node` on, in no particular order.
fn walk_subtree(stepper: Stepper<'_>, vocab: &Vocabulary, node: usize, q: LexState, plain_steps: Option<&PlainSteps>) -> SpannerRow {
    let mut walk = Walk::new(stepper, vocab, plain_steps);
    walk.split(node, 1, q);
    // Rows merge a kept walk's ids.
    let (classes, tokens) = walk.into_classes(Listing::All);
    SpannerRow { classes, tokens: tokens.into() }
}

/// The walk of [`build_row`]: depth first over the token trie with an explicit stack (a
/// token may be megabytes long; the thread's stack must not grow with it).
///
/// Per trie node the walk does a table lookup and, at nodes holding tokens, one hash of two
/// integers: lexeme sequences are interned as they grow, so a class is keyed by a sequence
/// id and an end state, and tokens are gathered as slices of the trie's id list.
struct Walk<'a> {
    /// The lexer (`stepper.lexer`), and which states the walk may take for one another.
    stepper: Stepper<'a>,
    trie: &'a TokenTrie,
    /// The vocabulary's size: every id in the trie is below it.
    token_count: usize,
    /// Interned lexeme sequences: sequence `s > 0` is sequence `sequences[s].0` followed by
    /// lexeme `sequences[s].1`; sequence 0 is empty.
    sequences: Vec<(u32, u32)>,
    sequence_ids: HashMap<(u32, u32), u32>,
    /// Distinct lexemes closed so far, and by lexer state the one it closes (if any).
    lexemes: Interner<Lexeme>,
    closes: HashMap<LexState, Option<u32>>,
    /// The sequences closed along the current trie path, one per lexeme closed on it:
    /// `path[k]` is the sequence after `k` lexemes, and the last is the current one.
    path: Vec<u32>,
    /// Classes by (sequence, end state), and their keys by class index.
    class_ids: HashMap<(u32, LexState), u32>,
    class_keys: Vec<(u32, LexState)>,
    /// Token ids gathered so far, as slices of the trie's id list, with their class.
    spans: Spans<'a>,
    /// Subtree walks merged, with the class of each of their classes.
    walked: Vec<(Arc<SpannerRow>, Vec<u32>)>,
    /// By lexer state, the byte buckets on which it stays where it is.
    loops: HashMap<LexState, ByteBuckets>,
    /// The last state looked up in `loops`, and its buckets: a walk asks about one
    /// state (a string's body) many times in a row.
    last_loops: Option<(LexState, ByteBuckets)>,
    /// The last class looked up by [`Walk::class_of`], by its key: consecutive nodes
    /// mostly gather into the same class.
    last_class: Option<((u32, LexState), u32)>,
    /// Nodes reached alive whose children are not all visited yet; a node leaves when its
    /// last child is taken, so a path with no branches costs one entry.
    pending: Vec<PendingNode>,
    /// Tokens shorter than this many bytes are not gathered (a derived state's part holds
    /// only the tokens longer than its reference serves).
    shortest: usize,
    /// Plain-text tokens, and the class they are in: the walk skips them.
    plain: Option<&'a PlainTokens>,
    plain_class: Option<u32>,
    /// With `plain_class`, when the row takes plain tokens along a path
    /// ([`Walk::take_plain_along_path`]): the path, the class's tokens as a bitmap like
    /// [`PlainTokens::bitmap`] with their number, and the path's other classes' tokens.
    plain_path: Option<Rc<PlainPath>>,
    plain_kept: Option<(Vec<u32>, u32)>,
    kept_lists: Vec<(Vec<u32>, u32)>,
    /// What plain text does from each lexer state, when the walk may take plain tokens
    /// by count, and the chains found, by state and length: a row splits many subtrees
    /// that lead to one state (the other strings' body).
    plain_steps: Option<&'a PlainSteps>,
    chains: HashMap<(LexState, usize), Option<Rc<PlainChain>>>,
}

/// A trie node `depth` bytes deep reached alive in lexer state `q`, with `closed` lexemes
/// on its path.
struct PendingNode {
    next_child: usize,
    end: usize,
    q: LexState,
    closed: usize,
    depth: usize,
}

impl<'a> Walk<'a> {
    /// A walk of `vocab`'s trie through `lexer`, taking plain tokens by count with
    /// `plain_steps` when the vocabulary has any.
    fn new(stepper: Stepper<'a>, vocab: &'a Vocabulary, plain_steps: Option<&'a PlainSteps>) -> Walk<'a> {
        Walk {
            stepper,
            trie: vocab.trie(),
            token_count: vocab.len(),
            sequences: vec![(0, 0)],
            sequence_ids: HashMap::new(),
            lexemes: Interner::default(),
            closes: HashMap::new(),
            path: vec![0],
            class_ids: HashMap::new(),
            class_keys: Vec::new(),
            spans: Spans::default(),
            walked: Vec::new(),
            loops: HashMap::new(),
            last_loops: None,
            last_class: None,
            pending: Vec::new(),
            shortest: 0,
            plain: None,
            plain_class: None,
            plain_path: None,
            plain_kept: None,
            kept_lists: Vec::new(),
            plain_steps: plain_steps.filter(|_| !vocab.trie().plain_tokens().ids().is_empty()),
            chains: HashMap::new(),
        }
    }

    /// Gather `node` (`depth` bytes deep) and every trie node below it; `node` is reached
    /// in lexer state `q` with the lexemes of `path` closed.
    fn subtree(&mut self, node: usize, depth: usize, q: LexState) {
        self.gather_at(node, depth, q);
        self.push_children(node, depth, q);
        while let Some((child, depth, q)) = self.take_next_child() {
            if depth + self.trie.height(child) < self.shortest || self.skips(child) || self.left_to_exceptions(child, depth) {
                continue;
            }
            let byte = self.trie.nodes()[child].byte;
            let Some(next) = self.step(q, byte) else { continue };
            if !self.take_whole(child, depth, next) {
                self.gather_at(child, depth, next);
                self.push_children(child, depth, next);
            }
        }
    }

    /// Gather every plain token of at least `min_bytes` bytes by its number of
    /// characters, when plain text steps `q` alike ([`PlainChain`]), and skip plain
    /// tokens from then on; whether it did.
    fn take_plain_from(&mut self, q: LexState, min_bytes: usize) -> bool {
        let plain = self.trie.plain_tokens();
        let Some(chain) = self.chain(q, plain.max_chars()) else {
            return min_bytes <= 1 && self.take_plain_along_path(q);
        };
        self.plain = Some(plain);
        if chain.keeps_to_start() && min_bytes <= 1 {
            self.plain_class = Some(self.class_of(0, q));
        } else {
            for chars in 1..=plain.max_chars() {
                if let Some(end) = chain.end(chars) {
                    self.gather(plain.of_chars_and_bytes(chars, min_bytes), end);
                }
            }
        }
        true
    }

    /// Gather the plain tokens holding no exception of the path from `q` ([`PlainPath`])
    /// by their number of characters, when there are enough of them
    /// ([`KEPT_PLAIN_SHARE`]), and skip plain tokens from then on, leaving those holding
    /// an exception to [`Walk::walk_exceptions`]; whether it did. The path's end most tokens share takes
    /// them as a bitmap, every other end as a list.
    fn take_plain_along_path(&mut self, q: LexState) -> bool {
        let (trie, plain) = (self.trie, self.trie.plain_tokens());
        // The plain tokens holding no later exception found so far.
        let mut kept = plain.bitmap().to_vec();
        let worth = |added| {
            remove_holding(plain, &mut kept, added);
            enough_kept(plain, &kept)
        };
        let Some(path) = self.plain_steps.and_then(|steps| PlainPath::of(steps, self.stepper, q, plain.max_chars(), worth)) else { return false };
        if path.later() == PlainExceptions::NONE {
            // A chain from each first character's state takes the plain tokens below it.
            return false;
        }
        for child in first_exceptions(trie, &path) {
            for &id in trie.subtree_tokens(child) {
                if let Some(word) = kept.get_mut(id as usize / 32) {
                    *word &= !(1 << (id % 32));
                }
            }
        }
        if !enough_kept(plain, &kept) {
            return false;
        }
        let ends: Vec<Option<LexState>> = (1..=plain.max_chars()).map(|chars| path.end(chars)).collect();
        let most = most_shared_end(&ends, |chars| plain.of_chars(chars).len());
        let lists = take_other_ends(plain, &mut kept, &ends, most);
        let kept_count: u32 = kept.iter().map(|w| w.count_ones()).sum();
        self.plain = Some(plain);
        if let Some(most) = most {
            self.plain_class = Some(self.class_of(0, most));
            self.plain_kept = Some((kept, kept_count));
        }
        for (list, end) in lists.into_iter().filter(|(list, _)| !list.is_empty()) {
            let class = self.class_of(0, end);
            self.kept_lists.push((list, class));
        }
        self.plain_path = Some(Rc::new(path));
        true
    }

    /// Whether `node` is where a plain text first leaves the row's path (while the walk
    /// takes plain tokens along one, [`Walk::take_plain_along_path`]): a first-level node
    /// of a byte leaving it as the first character, or a node where a later character
    /// first leaves it. [`Walk::walk_exceptions`] walks its subtree.
    fn left_to_exceptions(&self, node: usize, depth: usize) -> bool {
        match (&self.plain_path, self.plain) {
            (Some(path), Some(plain)) => {
                let byte = self.trie.nodes()[node].byte;
                depth == 1 && path.first().starts(byte) || path.later().starts(byte) && plain.is_first_after_plain(node, byte)
            }
            _ => false,
        }
    }

    /// Along a path ([`Walk::take_plain_along_path`]), walk every subtree where a plain
    /// text first leaves it ([`Walk::left_to_exceptions`]) from where the path leads the
    /// text before it: that text ends there, or in a state taken for it ([`Stepper`]).
    fn walk_exceptions(&mut self) {
        let Some(path) = self.plain_path.clone() else { return };
        // Without `plain` the walk gathers every token below a start, plain or not: the
        // walk so far left them all.
        let Some(plain) = self.plain.take() else { return };
        let trie = self.trie;
        let first: Vec<u32> = first_exceptions(trie, &path).map(|child| child as u32).collect();
        let later = path.later().bytes().map(|byte| (plain.first_after_plain(byte), plain.first_after_plain_chars(byte)));
        let mut starts = Starts::new(&first, later);
        // Tokens this short are gathered in a whole row (the depth below only counts
        // against it).
        debug_assert!(self.shortest <= 1);
        let mut walked_to = 0;
        while let Some((start, chars)) = starts.next_from(walked_to) {
            walked_to = trie.nodes()[start].subtree_end();
            let Some(from) = path.end(chars) else { continue };
            self.path.truncate(1);
            if let Some(next) = self.step(from, trie.nodes()[start].byte) {
                self.walk_from(start, 1, next);
            }
        }
        self.plain = Some(plain);
    }

    /// Gather the plain tokens at and below `node` (whose path is plain text of one or
    /// two characters, and leads to lexer state `at`, closing the lexemes on the path) by
    /// their number of characters, when plain text steps `at` alike ([`PlainChain`]),
    /// and skip plain tokens in the walk of this subtree; whether it did.
    fn take_plain_below(&mut self, node: usize, at: LexState) -> bool {
        let plain = self.trie.plain_tokens();
        let Some(below) = plain.below(node) else { return false };
        let path_chars = below.path_chars();
        let Some(chain) = self.chain(at, plain.max_chars() - path_chars) else { return false };
        self.plain = Some(plain);
        let end = |chars: usize| match chars.checked_sub(path_chars)? {
            0 => Some(at),
            more => chain.end(more),
        };
        for chars in path_chars..=below.max_chars() {
            if let Some(end) = end(chars) {
                self.gather(below.of_chars(chars), end);
            }
        }
        true
    }

    /// Gather `node`'s subtree, `depth` bytes deep and reached in lexer state `at`: its
    /// plain tokens by count ([`Walk::take_plain_below`]), the others walked; whether it
    /// could take them by count (else it gathers nothing).
    fn take_by_count(&mut self, node: usize, depth: usize, at: LexState) -> bool {
        if !self.take_plain_below(node, at) {
            return false;
        }
        if !self.skips(node) {
            self.subtree(node, depth, at);
        }
        true
    }

    /// Gather `node`'s subtree, `depth` bytes deep and reached in lexer state `q`: as one
    /// span when it stays in `q` ([`Walk::take_whole`]), else walked.
    fn walk_from(&mut self, node: usize, depth: usize, q: LexState) {
        if !self.take_whole(node, depth, q) {
            self.subtree(node, depth, q);
        }
    }

    /// The chain of plain texts of up to `max_chars` characters from `q`
    /// ([`PlainChain::of`]), when the walk may take plain tokens by count.
    fn chain(&mut self, q: LexState, max_chars: usize) -> Option<Rc<PlainChain>> {
        let (steps, stepper) = (self.plain_steps?, self.stepper);
        self.chains.entry((q, max_chars)).or_insert_with(|| PlainChain::of(steps, stepper, q, max_chars).map(Rc::new)).clone()
    }

    /// Gather `node`, `depth` bytes deep and reached in lexer state `q`, and its subtree
    /// child by child. A child ending a character takes its plain tokens by count where
    /// plain text steps alike from where it leads ([`Walk::take_plain_below`]), and is
    /// split in turn otherwise when it ends the first character; a child inside a
    /// character is split in turn. From a key name's prefix, a space goes on along the
    /// name, but a space followed by any letter but the name's next leaves it for the
    /// other strings' body.
    fn split(&mut self, node: usize, depth: usize, q: LexState) {
        let (trie, plain) = (self.trie, self.trie.plain_tokens());
        self.plain = None;
        self.gather_at(node, depth, q);
        let closed = self.path.len();
        for child in trie.children(node) {
            self.path.truncate(closed);
            self.plain = None;
            let Some(next) = self.step(q, trie.nodes()[child].byte) else { continue };
            if self.take_by_count(child, depth + 1, next) {
                continue;
            }
            if plain.within_char(child) || plain.below(child).is_some_and(|below| below.path_chars() == 1) {
                self.split(child, depth + 1, next);
            } else {
                self.walk_from(child, depth + 1, next);
            }
        }
        self.plain = None;
    }

    /// Whether `node`'s subtree holds only plain-text tokens, gathered already.
    fn skips(&self, node: usize) -> bool {
        self.plain.is_some_and(|plain| !plain.holds_other(node))
    }

    /// Gather the tokens at `node`, `depth` bytes deep, if they are long enough and not
    /// gathered already as plain text.
    fn gather_at(&mut self, node: usize, depth: usize, end: LexState) {
        if depth >= self.shortest && !self.plain.is_some_and(|plain| plain.is_plain(node)) {
            self.gather(self.trie.tokens_at(node), end);
        }
    }

    /// Gather `node`'s whole subtree as one span if every byte below it keeps the lexer in
    /// `q`, the state `node` is reached in ([`Walk::subtree_stays_in`]), and no token of it
    /// is too short; whether it did.
    fn take_whole(&mut self, node: usize, depth: usize, q: LexState) -> bool {
        let stays = self.plain.is_none() && depth >= self.shortest && self.subtree_stays_in(node, q);
        if stays {
            self.gather(self.trie.subtree_tokens(node), q);
        }
        stays
    }

    /// Whether `node`, reached in lexer state `q`, has descendants and every byte below it
    /// keeps the lexer in `q`: then every token of its subtree ends in `q` having closed
    /// nothing more, and the subtree is one span. (Inside a string literal most of the
    /// vocabulary's subtrees are such spans.)
    fn subtree_stays_in(&mut self, node: usize, q: LexState) -> bool {
        let nodes = self.trie.nodes();
        // The first child's byte must loop too: one lookup that settles most nodes.
        if node + 1 >= nodes[node].subtree_end() || !self.stepper.same(self.stepper.lexer.next(q, nodes[node + 1].byte), q) {
            return false;
        }
        self.trie.descendant_bytes(node).is_subset(self.loops_of(q))
    }

    /// The byte buckets on which state `q` stays where it is.
    fn loops_of(&mut self, q: LexState) -> ByteBuckets {
        if let Some((_, loops)) = self.last_loops.filter(|&(last, _)| last == q) {
            return loops;
        }
        let (lexer, stepper) = (self.stepper.lexer, self.stepper);
        let loops = *self.loops.entry(q).or_insert_with(|| ByteBuckets::within(|b| stepper.same(lexer.next(q, b), q)));
        self.last_loops = Some((q, loops));
        loops
    }

    /// Add `tokens` to the class of the current lexeme sequence and end state `end`.
    fn gather(&mut self, tokens: &'a [u32], end: LexState) {
        if tokens.is_empty() {
            return;
        }
        let class = self.class_of(*self.path.last().expect("the empty sequence is never popped"), end);
        self.spans.push((tokens, class));
    }

    /// Add the classes of a subtree walked from where the current path ends.
    fn gather_walked(&mut self, walked: Arc<SpannerRow>) {
        let here = *self.path.last().expect("the empty sequence is never popped");
        let classes = walked
            .classes()
            .iter()
            .map(|class| {
                let sequence = class.lexemes.iter().fold(here, |sequence, lexeme| {
                    let lexeme = self.lexemes.intern(lexeme);
                    self.intern_sequence(sequence, lexeme)
                });
                self.class_of(sequence, class.end)
            })
            .collect();
        self.walked.push((walked, classes));
    }

    /// The class of interned lexeme sequence `sequence` and end state `end`.
    fn class_of(&mut self, sequence: u32, end: LexState) -> u32 {
        let key = (sequence, end);
        if let Some((_, class)) = self.last_class.filter(|&(last, _)| last == key) {
            return class;
        }
        let next_id = self.class_keys.len() as u32;
        let class = *self.class_ids.entry(key).or_insert(next_id);
        if class == next_id {
            self.class_keys.push(key);
        }
        self.last_class = Some((key, class));
        class
    }

    /// The next child to visit, its depth and its parent's lexer state, with the parent's
    /// lexemes on the path; a parent whose last child this is leaves the stack.
    fn take_next_child(&mut self) -> Option<(usize, usize, LexState)> {
        let top = self.pending.last_mut()?;
        let child = top.next_child;
        top.next_child = first_visited(self.plain, self.trie.nodes()[child].subtree_end(), top.end);
        self.path.truncate(top.closed + 1);
        let (q, depth) = (top.q, top.depth + 1);
        if top.next_child >= top.end {
            self.pending.pop();
        }
        Some((child, depth, q))
    }

    /// Queue `node`'s children, if it has any; `node` is `depth` bytes deep, reached in
    /// lexer state `q`.
    fn push_children(&mut self, node: usize, depth: usize, q: LexState) {
        let end = self.trie.nodes()[node].subtree_end();
        let first = first_visited(self.plain, node + 1, end);
        if first < end {
            self.pending.push(PendingNode { next_child: first, end, q, closed: self.path.len() - 1, depth });
        }
    }

    /// Feed one byte as the recognizer does ([`step_outcome`]), recording a closed lexeme;
    /// `None` when the lexer dies.
    fn step(&mut self, q: LexState, byte: u8) -> Option<LexState> {
        let (closes, next) = step_outcome(self.stepper.lexer, q, byte)?;
        if closes {
            if let Some(lexeme) = self.lexeme_closed_in(q) {
                let parent = *self.path.last().expect("the empty sequence is never popped");
                let sequence = self.intern_sequence(parent, lexeme);
                self.path.push(sequence);
            }
        }
        Some(next)
    }

    /// The id of sequence `parent` followed by lexeme `lexeme`.
    fn intern_sequence(&mut self, parent: u32, lexeme: u32) -> u32 {
        let sequences = &mut self.sequences;
        *self.sequence_ids.entry((parent, lexeme)).or_insert_with(|| {
            sequences.push((parent, lexeme));
            sequences.len() as u32 - 1
        })
    }

    /// The id of the lexeme closed in accepting state `q`, `None` when it is ignored.
    fn lexeme_closed_in(&mut self, q: LexState) -> Option<u32> {
        if let Some(&closed) = self.closes.get(&q) {
            return closed;
        }
        let closed = Lexeme::closed_in(self.stepper.lexer, q).map(|lexeme| self.lexemes.intern(&lexeme));
        self.closes.insert(q, closed);
        closed
    }

    /// The classes gathered: with [`Listing::DenseAsBitmaps`], a class holding at least
    /// 1/[`DENSE_CLASS_RATIO`] of the vocabulary (and the plain-text class) as a token
    /// bitmap, every other class as a range of the returned list, ascending.
    fn into_classes(self, listing: Listing) -> (Vec<TokenClass>, Vec<u32>) {
        let (list, tokens) = self.tokens_by_class(listing);
        let mut shared: HashMap<u32, Arc<[Lexeme]>> = HashMap::new();
        let classes = self
            .class_keys
            .iter()
            .zip(tokens)
            .map(|(&(sequence, end), tokens)| TokenClass {
                lexemes: Arc::clone(shared.entry(sequence).or_insert_with(|| self.lexeme_sequence(sequence).into())),
                end,
                tokens,
            })
            .collect();
        (classes, list)
    }

    /// Per class, its place in a row's order: lexicographic by lexeme sequence, so that
    /// classes with a common lexeme prefix are adjacent, then by end state. Sequences are
    /// compared as the ranks of their lexemes among the distinct lexemes closed (a few),
    /// not lexeme by lexeme: a row's hundreds of classes were sorted comparing the
    /// lexemes' terminal lists.
    fn class_order(&self) -> Vec<(SmallVec<[u32; 4]>, LexState)> {
        let lexemes = self.lexemes.items();
        let mut by_lexeme: Vec<u32> = (0..lexemes.len() as u32).collect();
        by_lexeme.sort_unstable_by(|&a, &b| lexemes[a as usize].cmp(&lexemes[b as usize]));
        let mut rank = vec![0u32; lexemes.len()];
        by_lexeme.iter().enumerate().for_each(|(r, &lexeme)| rank[lexeme as usize] = r as u32);
        let ranks = |mut sequence: u32| {
            let mut ranks = SmallVec::new();
            while sequence != 0 {
                let (parent, lexeme) = self.sequences[sequence as usize];
                ranks.push(rank[lexeme as usize]);
                sequence = parent;
            }
            ranks.reverse();
            ranks
        };
        self.class_keys.iter().map(|&(sequence, end)| (ranks(sequence), end)).collect()
    }

    /// The lexemes of interned sequence `sequence`, in order.
    fn lexeme_sequence(&self, mut sequence: u32) -> Vec<Lexeme> {
        let mut lexemes = Vec::new();
        while sequence != 0 {
            let (parent, lexeme) = self.sequences[sequence as usize];
            lexemes.push(self.lexemes.items()[lexeme as usize].clone());
            sequence = parent;
        }
        lexemes.reverse();
        lexemes
    }

    /// Each class's tokens, and the list the listed ones are ranges of. Spans come in
    /// trie (byte) order, not id order: a class holding few tokens is sorted; a class
    /// holding many sets its ids in a bit set of the vocabulary, which is linear and
    /// stays in cache, and is read back in order only with [`Listing::All`].
    fn tokens_by_class(&self, listing: Listing) -> (Vec<u32>, Vec<ClassTokens>) {
        let mut sizes = vec![0u32; self.class_keys.len()];
        self.gathered().for_each(|(tokens, class)| sizes[class as usize] += tokens.len() as u32);
        let plain = self.plain_class.zip(self.plain).map(|(class, plain)| match &self.plain_kept {
            Some((kept, count)) => (class, kept.as_slice(), *count),
            None => (class, plain.bitmap(), plain.ids().len() as u32),
        });
        if let Some((class, _, count)) = plain {
            sizes[class as usize] += count;
        }
        let mut sets: Vec<Option<BitSet>> = sizes
            .iter()
            .enumerate()
            .map(|(class, &size)| match plain.filter(|&(c, _, _)| c as usize == class) {
                Some((_, kept, _)) => Some(BitSet::from_words(kept, self.token_count)),
                None => (size as usize * DENSE_CLASS_RATIO >= self.token_count).then(|| BitSet::new(self.token_count)),
            })
            .collect();
        let listed = |class: usize| listing == Listing::All || sets[class].is_none();
        let mut end = 0;
        let ranges: Vec<Range<u32>> = (0..sizes.len())
            .map(|class| {
                let size = if listed(class) { sizes[class] } else { 0 };
                end += size;
                end - size..end
            })
            .collect();
        let mut tokens = vec![0u32; end as usize];
        let mut next: Vec<u32> = ranges.iter().map(|r| r.start).collect();
        for (ids, class) in self.gathered() {
            match &mut sets[class as usize] {
                Some(set) => ids.iter().for_each(|&t| set.insert(t)),
                None => {
                    let at = next[class as usize] as usize;
                    tokens[at..at + ids.len()].copy_from_slice(ids);
                    next[class as usize] += ids.len() as u32;
                }
            }
        }
        let classes = ranges
            .into_iter()
            .zip(sets)
            .enumerate()
            .map(|(class, (range, set))| {
                let class_tokens = &mut tokens[range.start as usize..range.end as usize];
                match (set, listing) {
                    (Some(set), Listing::DenseAsBitmaps) => {
                        return ClassTokens::Dense(Box::new(DenseClass::new(set.into_words(), sizes[class])));
                    }
                    (Some(set), Listing::All) => write_ascending(&set.words, class_tokens),
                    (None, _) => class_tokens.sort_unstable(),
                }
                ClassTokens::Listed(range)
            })
            .collect();
        (tokens, classes)
    }

    /// Every token-id list gathered, trie spans and walked subtrees' classes, with its class.
    fn gathered(&self) -> impl Iterator<Item = (&[u32], u32)> + '_ {
        let walked = self.walked.iter().flat_map(|(row, classes)| classes.iter().enumerate().map(|(i, &class)| (row.tokens(i), class)));
        let kept = self.kept_lists.iter().map(|(list, class)| (list.as_slice(), *class));
        self.spans.iter().chain(walked).chain(kept)
    }
}

/// Take out of `kept` (a bitmap like [`PlainTokens::bitmap`]) the plain tokens holding
/// a character of `set`.
fn remove_holding(plain: &PlainTokens, kept: &mut [u32], set: PlainExceptions) {
    for byte in set.bytes() {
        kept.iter_mut().zip(plain.holding(byte)).for_each(|(word, holding)| *word &= !holding);
    }
}

/// Whether the plain tokens `kept` (a bitmap like [`PlainTokens::bitmap`]) are at least
/// [`KEPT_PLAIN_SHARE`] of the plain tokens.
fn enough_kept(plain: &PlainTokens, kept: &[u32]) -> bool {
    let kept: usize = kept.iter().map(|w| w.count_ones() as usize).sum();
    kept * KEPT_PLAIN_SHARE.1 >= plain.ids().len() * KEPT_PLAIN_SHARE.0
}

/// The first-level trie nodes of the characters leaving `path` as a text's first.
fn first_exceptions<'t>(trie: &'t TokenTrie, path: &'t PlainPath) -> impl Iterator<Item = usize> + 't {
    trie.children(TokenTrie::ROOT).filter(|&child| path.first().starts(trie.nodes()[child].byte))
}

/// The trie nodes where a plain text first leaves a path ([`Walk::walk_exceptions`]),
/// with the characters before each, merged in trie order from ascending lists: the
/// first-level nodes of the first exceptions, and per later exception the nodes of
/// [`PlainTokens::first_after_plain`]. A node inside a subtree walked already is passed
/// over with the rest of its list's nodes there, one search per list, unsorted and
/// uncopied: a row's lists hold tens of thousands of nodes.
struct Starts<'a> {
    /// Per list its nodes and, for a later exception's, the characters before each (none
    /// before a first exception).
    lists: Vec<(&'a [u32], Option<&'a [u16]>)>,
    /// Per list the position of its next node.
    next: Vec<usize>,
    /// The next node of each list not at its end, with the list's index, least first.
    heads: BinaryHeap<Reverse<(u32, usize)>>,
}

impl<'a> Starts<'a> {
    /// The starts of first-exception nodes `first` and of `later` (per exception, its
    /// nodes and the characters before each), every list ascending.
    fn new(first: &'a [u32], later: impl Iterator<Item = (&'a [u32], &'a [u16])>) -> Starts<'a> {
        let lists: Vec<_> = std::iter::once((first, None)).chain(later.map(|(nodes, chars)| (nodes, Some(chars)))).collect();
        let heads = lists.iter().enumerate().filter_map(|(i, (nodes, _))| Some(Reverse((*nodes.first()?, i)))).collect();
        Starts { next: vec![0; lists.len()], lists, heads }
    }

    /// The next start at or past trie node `walked_to`, and the characters before it.
    fn next_from(&mut self, walked_to: usize) -> Option<(usize, usize)> {
        loop {
            let mut head = self.heads.peek_mut()?;
            let Reverse((node, i)) = *head;
            let (nodes, chars) = self.lists[i];
            let at = self.next[i];
            let taken = (node as usize >= walked_to).then(|| (node as usize, chars.map_or(0, |chars| usize::from(chars[at]))));
            let next = match taken {
                Some(_) => at + 1,
                None => past(nodes, at, walked_to as u32),
            };
            self.next[i] = next;
            match nodes.get(next) {
                Some(&node) => *head = Reverse((node, i)),
                None => drop(PeekMut::pop(head)),
            }
            if taken.is_some() {
                return taken;
            }
        }
    }
}

/// The position of the first of the ascending `nodes` from position `at` on that is at
/// least `end` (`nodes.len()` when none is), found by galloping from `at`: the nodes a
/// walked subtree holds are mostly few.
fn past(nodes: &[u32], at: usize, end: u32) -> usize {
    let mut step = 1;
    while at + step < nodes.len() && nodes[at + step] < end {
        step *= 2;
    }
    let from = at + step / 2;
    from + nodes[from..nodes.len().min(at + step)].partition_point(|&n| n < end)
}

/// Take out of `kept` (a bitmap like [`PlainTokens::bitmap`]) the plain tokens whose
/// number of characters `ends` (by number, from one) does not map to `most`: those
/// ending alive, listed by end.
fn take_other_ends(plain: &PlainTokens, kept: &mut [u32], ends: &[Option<LexState>], most: Option<LexState>) -> Vec<(Vec<u32>, LexState)> {
    let mut lists: Vec<(Vec<u32>, LexState)> = Vec::new();
    for (chars, &end) in (1..).zip(ends).filter(|&(_, &end)| end.is_none() || end != most) {
        let mut taken = Vec::new();
        for &id in plain.of_chars(chars) {
            let (word, bit) = (id as usize / 32, 1 << (id % 32));
            if kept[word] & bit != 0 {
                kept[word] &= !bit;
                taken.push(id);
            }
        }
        match (end, lists.iter_mut().find(|(_, e)| Some(*e) == end)) {
            (Some(_), Some((list, _))) => list.extend(taken),
            (Some(end), None) => lists.push((taken, end)),
            (None, _) => {}
        }
    }
    lists
}

/// The end most plain tokens share among `ends` (by number of characters, from one),
/// with `tokens(chars)` the number of plain tokens of `chars` characters; `None` when
/// every end is.
fn most_shared_end(ends: &[Option<LexState>], tokens: impl Fn(usize) -> usize) -> Option<LexState> {
    let mut shared: Vec<(LexState, usize)> = Vec::new();
    for (chars, end) in (1..).zip(ends).filter_map(|(chars, end)| Some((chars, (*end)?))) {
        match shared.iter_mut().find(|(e, _)| *e == end) {
            Some((_, count)) => *count += tokens(chars),
            None => shared.push((end, tokens(chars))),
        }
    }
    shared.into_iter().max_by_key(|&(_, count)| count).map(|(end, _)| end)
}

/// The first of trie node `node` and its next siblings that a walk visits (`end` when
/// none is, `end` being where their parent's subtree ends): with `plain`, the first
/// holding a token that is not plain text.
fn first_visited(plain: Option<&PlainTokens>, node: usize, end: usize) -> usize {
    match plain {
        Some(plain) if node < end => plain.next_other(node),
        _ => node,
    }
}

/// Which classes a walk lists the ids of ([`Walk::into_classes`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listing {
    /// Those not gathered in a bitmap.
    DenseAsBitmaps,
    /// All of them.
    All,
}

/// Token-id lists with their classes, in the order gathered, held in chunks of
/// [`Spans::CHUNK`]. A row walked node by node gathers one list per node holding tokens
/// (83,514 in a row of `Github_easy---o10009`): in one vector they were copied at every
/// doubling into blocks of megabytes, which the allocator takes from fresh pages, each
/// faulted in and zeroed (half of that mask's 10–14 ms).
#[derive(Default)]
struct Spans<'a> {
    chunks: Vec<Vec<(&'a [u32], u32)>>,
}

impl<'a> Spans<'a> {
    /// Lists per chunk (48 KiB).
    const CHUNK: usize = 2048;

    fn push(&mut self, span: (&'a [u32], u32)) {
        if self.chunks.last().map_or(true, |chunk| chunk.len() == Self::CHUNK) {
            // The first chunk grows as a vector does: most rows gather a few lists.
            let capacity = if self.chunks.is_empty() { 0 } else { Self::CHUNK };
            self.chunks.push(Vec::with_capacity(capacity));
        }
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.push(span);
        }
    }

    fn iter(&self) -> impl Iterator<Item = (&'a [u32], u32)> + '_ {
        self.chunks.iter().flatten().copied()
    }
}

/// A fixed-size set of token ids in mask layout, for gathering a dense class's ids.
struct BitSet {
    words: Vec<u32>,
}

impl BitSet {
    /// An empty set of ids below `len`.
    fn new(len: usize) -> BitSet {
        BitSet { words: vec![0; len.div_ceil(32)] }
    }

    /// The set of ids below `len` that `words` holds (in mask layout, as many words or
    /// fewer).
    fn from_words(words: &[u32], len: usize) -> BitSet {
        let mut set = BitSet::new(len);
        set.words[..words.len()].copy_from_slice(words);
        set
    }

    fn insert(&mut self, id: u32) {
        self.words[id as usize / 32] |= 1 << (id % 32);
    }

    /// The words, shared (a class's and its automaton's bitmap are one).
    fn into_words(self) -> Words {
        let len = self.words.len();
        Words::shared(&Arc::new(WordBuffer::from_words(self.words)), 0..len).expect("the whole buffer")
    }
}

/// Writes the ids set in `words` (mask layout) in ascending order into `out`, which
/// holds exactly as many.
fn write_ascending(words: &[u32], out: &mut [u32]) {
    let mut at = 0;
    for (w, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            out[at] = (w * 32) as u32 + bits.trailing_zeros();
            at += 1;
            bits &= bits - 1;
        }
    }
    debug_assert_eq!(at, out.len(), "as many ids as set bits");
}

#[cfg(test)]
mod tests;

