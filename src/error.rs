//! Error types shared by every stage of the pipeline.
//!
//! Every fallible public function returns [`Error`]. Each variant says which stage
//! failed and why; grammar errors carry a line and column.

use std::fmt;
use std::time::{Duration, Instant};

/// A position in a grammar text (1-based line and column, counted in characters).
///
/// # Example
/// ```
/// use stackmask::Position;
/// let p = Position { line: 3, column: 7 };
/// assert_eq!(p.to_string(), "line 3, column 7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Position {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column number, in characters.
    pub column: u32,
}

impl Position {
    /// The position of byte `offset` in `text`.
    ///
    /// # Example
    /// ```
    /// use stackmask::Position;
    /// assert_eq!(Position::of_offset("ab\ncd", 4), Position { line: 2, column: 2 });
    /// ```
    pub fn of_offset(text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let before = &text.as_bytes()[..offset];
        let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[line_start..]).chars().count() as u32 + 1;
        Position { line, column }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// A resource limit that a grammar or an input exceeded. `docs/robustness.md` lists every
/// limit, where it is configured and its default; later stages add kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LimitKind {
    /// Number of states in the lexer DFA.
    LexerStates,
    /// Number of LR(0) states.
    LrStates,
    /// Number of productions after EBNF expansion.
    Productions,
    /// Graph-structured-stack nodes created while consuming one lexeme.
    GssNodesPerStep,
    /// Size of the grammar text in bytes.
    GrammarBytes,
    /// Wall-clock time of one compile stage (lexer DFA or LR tables), in milliseconds.
    CompileTime,
    /// Graph-structured-stack edges followed or scanned while reducing before one lexeme.
    GssWorkPerStep,
    /// Wall-clock time of a whole compile (lexer DFA and LR tables), in milliseconds.
    TotalCompileTime,
    /// Wall-clock time of a stack classifier's eager build, in milliseconds.
    EagerBuildTime,
    /// Wall-clock time of a JSON Schema's translation to a grammar, in milliseconds
    /// ([`JsonSchemaOptions::time_budget`](crate::frontend::json_schema::JsonSchemaOptions::time_budget)).
    SchemaCompileTime,
    /// Bytes a stack classifier's eager build fills its cache with
    /// ([`ClassifierConfig::cache_capacity`](crate::classifier::ClassifierConfig::cache_capacity)).
    EagerBuildMemory,
    /// Length in bytes of a vocabulary's longest token, beyond the lexer's count
    /// horizon ([`LexerConfig::count_horizon`](crate::lexer::LexerConfig::count_horizon)).
    CountHorizon,
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            LimitKind::LexerStates => "lexer DFA states",
            LimitKind::LrStates => "LR states",
            LimitKind::Productions => "grammar productions",
            LimitKind::GssNodesPerStep => "GSS nodes per step",
            LimitKind::GrammarBytes => "grammar size in bytes",
            LimitKind::CompileTime => "compile time in milliseconds",
            LimitKind::GssWorkPerStep => "GSS edges visited per step",
            LimitKind::TotalCompileTime => "total compile time in milliseconds",
            LimitKind::EagerBuildTime => "classifier eager build time in milliseconds",
            LimitKind::SchemaCompileTime => "JSON Schema translation time in milliseconds",
            LimitKind::EagerBuildMemory => "classifier cache bytes filled by its eager build",
            LimitKind::CountHorizon => "token length in bytes (beyond the lexer's count horizon)",
        };
        f.write_str(name)
    }
}

/// Every error stackmask returns.
///
/// # Example
/// ```
/// use stackmask::{Error, Grammar};
/// let err = Grammar::from_lark("start: undefined_rule").unwrap_err();
/// assert!(matches!(err, Error::Grammar { .. }));
/// assert!(err.to_string().contains("undefined_rule"));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The grammar text is malformed or refers to something undefined.
    #[error("grammar error at {position}: {reason}")]
    Grammar {
        /// Where in the grammar text.
        position: Position,
        /// What is wrong.
        reason: String,
    },
    /// A terminal's regular expression cannot be compiled.
    #[error("terminal {terminal}: {reason}")]
    Terminal {
        /// The terminal's name.
        terminal: String,
        /// What is wrong.
        reason: String,
    },
    /// A JSON Schema cannot be compiled: it is malformed, or it uses a keyword or value
    /// that the compiler cannot enforce.
    #[error("JSON Schema error at {pointer}: {reason}")]
    Schema {
        /// JSON pointer (`#/properties/a`) of the schema at fault.
        pointer: String,
        /// What is wrong, naming the keyword.
        reason: String,
    },
    /// A grammar assembled in the IR (with [`GrammarBuilder`](crate::ir::GrammarBuilder))
    /// refers to a symbol it does not have.
    #[error("grammar IR is inconsistent: {reason}")]
    Ir {
        /// What is wrong.
        reason: String,
    },
    /// A classifier artifact cannot be loaded: it is truncated or corrupt, was written by
    /// another format version, or was built for another vocabulary or grammar compiler.
    #[error("classifier artifact error at {at}: {reason}")]
    Artifact {
        /// Where in the artifact (`header`, `payload`, `row 12, class 3`, …).
        at: String,
        /// What is wrong.
        reason: String,
    },
    /// The grammar generates no sentence at all.
    #[error("grammar has no sentences: start rule `{start}` derives no terminal string")]
    EmptyLanguage {
        /// Name of the start rule.
        start: String,
    },
    /// A configured resource limit was exceeded.
    #[error("limit exceeded: {kind} would reach {value}, limit is {limit}")]
    Limit {
        /// Which limit.
        kind: LimitKind,
        /// The value that was about to be reached.
        value: usize,
        /// The configured limit.
        limit: usize,
    },
    /// The tokenizer file cannot be loaded or understood.
    #[error("tokenizer error: {0}")]
    Tokenizer(String),
    /// A token id is not in the vocabulary.
    #[error("token id {id} is out of range (vocabulary size {vocab_size})")]
    TokenOutOfRange {
        /// The offending id.
        id: u32,
        /// Number of tokens in the vocabulary.
        vocab_size: usize,
    },
    /// The input is not a valid prefix of the grammar's language.
    #[error("input rejected at byte {offset}: {reason}")]
    Rejected {
        /// Byte offset in the committed text where the input stopped being viable.
        offset: usize,
        /// Why.
        reason: String,
    },
    /// A rollback asked for more steps than were committed.
    #[error("cannot roll back {requested} tokens: only {available} committed")]
    Rollback {
        /// Steps requested.
        requested: usize,
        /// Steps available.
        available: usize,
    },
    /// A caller-supplied buffer has the wrong size.
    #[error("mask buffer has {got} words, {need} needed")]
    MaskSize {
        /// Words supplied.
        got: usize,
        /// Words needed.
        need: usize,
    },
    /// An I/O error while reading a file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl Error {
    /// A grammar error at byte `offset` of `text`.
    pub(crate) fn grammar(text: &str, offset: usize, reason: impl Into<String>) -> Error {
        Error::Grammar { position: Position::of_offset(text, offset), reason: reason.into() }
    }
}

/// The wall-clock budgets of a compile, checked inside the construction loops so that an
/// exceeded budget stops the work where it is: the whole compile's (made by
/// [`Deadline::total`]) and the current stage's ([`LimitKind::CompileTime`], set by
/// [`Deadline::stage`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    total: Budget,
    stage: Budget,
}

/// One wall-clock budget and the limit it enforces.
#[derive(Clone, Copy, Debug)]
struct Budget {
    started: Instant,
    budget: Option<Duration>,
    kind: LimitKind,
}

impl Budget {
    fn start(budget: Option<Duration>, kind: LimitKind) -> Budget {
        Budget { started: Instant::now(), budget, kind }
    }

    /// [`Error::Limit`] of this budget's kind, in milliseconds, once the budget is spent.
    fn check(&self) -> Result<()> {
        let Some(budget) = self.budget else { return Ok(()) };
        let elapsed = self.started.elapsed();
        if elapsed < budget {
            return Ok(());
        }
        let millis = |d: Duration| usize::try_from(d.as_millis()).unwrap_or(usize::MAX);
        Err(Error::Limit { kind: self.kind, value: millis(elapsed), limit: millis(budget) })
    }
}

impl Deadline {
    /// A deadline `budget` from now (`None` never expires) whose expiry is the limit
    /// `kind`, with no stage budget yet.
    pub(crate) fn total(budget: Option<Duration>, kind: LimitKind) -> Deadline {
        Deadline { total: Budget::start(budget, kind), stage: Budget::start(None, LimitKind::CompileTime) }
    }

    /// No total budget: for a stage built on its own.
    pub(crate) fn unlimited() -> Deadline {
        Deadline::total(None, LimitKind::TotalCompileTime)
    }

    /// The same total deadline, with a stage starting now whose own budget is `budget`.
    pub(crate) fn stage(&self, budget: Option<Duration>) -> Deadline {
        Deadline { total: self.total, stage: Budget::start(budget, LimitKind::CompileTime) }
    }

    /// [`Error::Limit`] once the total or the stage budget is spent (the total first).
    pub(crate) fn check(&self) -> Result<()> {
        self.total.check()?;
        self.stage.check()
    }

    /// [`Deadline::check`] at every [`CHECK_EVERY`]th step of a loop (`step` counting
    /// from 0): a check reads the clock twice, which costs as much as a small step of
    /// the construction loops (an LR state, a lexer state), so checking each one was a
    /// few percent of a build.
    pub(crate) fn check_at(&self, step: usize) -> Result<()> {
        if step % CHECK_EVERY == 0 {
            self.check()
        } else {
            Ok(())
        }
    }
}

/// How many steps of a construction loop pass between two reads of the clock.
const CHECK_EVERY: usize = 16;

/// Shorthand for results with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    fn limit_kind(result: Result<()>) -> Option<LimitKind> {
        match result {
            Err(Error::Limit { kind, .. }) => Some(kind),
            _ => None,
        }
    }

    #[test]
    fn a_stage_is_bounded_by_its_own_budget_and_by_the_total() {
        let spent = Some(Duration::ZERO);
        let total = Deadline::total(spent, LimitKind::TotalCompileTime);
        assert_eq!(limit_kind(total.stage(None).check()), Some(LimitKind::TotalCompileTime));
        assert_eq!(limit_kind(total.stage(spent).check()), Some(LimitKind::TotalCompileTime), "the total first");
        let unlimited = Deadline::unlimited();
        assert_eq!(limit_kind(unlimited.stage(spent).check()), Some(LimitKind::CompileTime));
        assert_eq!(limit_kind(unlimited.stage(None).check()), None);
        let eager = Deadline::total(spent, LimitKind::EagerBuildTime);
        assert_eq!(limit_kind(eager.check()), Some(LimitKind::EagerBuildTime));
    }
}
