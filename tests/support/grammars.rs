//! The grammars the properties run on: hand-written Lark grammars, each aimed at one
//! known hard spot of GLR parsing or lexing, and a strategy for small random BNF grammars.

use super::earley::Earley;
use super::generate::Generator;
use proptest::prelude::*;
use stackmask::ir::{Grammar, GrammarBuilder, NonterminalId, Symbol, TerminalId, TerminalPattern};
use stackmask::lexer::{Lexer, LexerConfig};
use stackmask::matcher::CompileConfig;
use stackmask::CompiledGrammar;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A grammar with everything the properties need: the compiled grammar under test, the
/// project's lexer DFA (to split texts), the Earley judge and a sentence generator.
pub struct Fixture {
    /// A short name for failure messages.
    pub name: &'static str,
    /// The grammar IR.
    pub grammar: Grammar,
    /// The lexer DFA and LR tables the recognizer and matcher run on.
    pub compiled: Arc<CompiledGrammar>,
    /// The lexer, built on its own with the default configuration.
    pub lexer: Lexer,
    /// The independent parser.
    pub earley: Earley,
    /// Random sentences.
    pub generator: Generator,
}

impl Fixture {
    /// Compile `grammar`; panics if it does not compile (every fixture must).
    pub fn new(name: &'static str, grammar: Grammar) -> Fixture {
        Fixture::with_config(name, grammar, &CompileConfig::default())
    }

    /// [`Fixture::new`], compiled with `config`.
    pub fn with_config(name: &'static str, grammar: Grammar, config: &CompileConfig) -> Fixture {
        let compiled = Arc::new(CompiledGrammar::with_config(&grammar, config).unwrap_or_else(|e| panic!("{name}: {e}")));
        let lexer = Lexer::new(&grammar, &LexerConfig::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let earley = Earley::new(&grammar);
        let generator = Generator::new(&grammar, &lexer);
        Fixture { name, grammar, compiled, lexer, earley, generator }
    }
}

impl fmt::Debug for Fixture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} grammar:\n{}", self.name, self.grammar)
    }
}

/// Ambiguous arithmetic without precedence or associativity: every operator conflicts.
const ARITHMETIC: &str = r#"
start: e
e: e "+" e | e "*" e | "-" e | "(" e ")" | NUMBER
NUMBER: /[0-9]+/
%ignore " "
"#;

/// The dangling else, with keywords that are also identifiers.
const DANGLING_ELSE: &str = r#"
start: stmt+
stmt: "if" cond "then" stmt
    | "if" cond "then" stmt "else" stmt
    | NAME "=" NAME ";"
    | "{" stmt* "}"
cond: NAME | "(" cond ")"
NAME: /[a-z]+/
WS: /[ \n]+/
%ignore WS
"#;

/// Keywords that also lex as identifiers: every keyword lexeme has two candidates, and
/// `let let = let;` is a sentence. `BOOL.2` outranks `NAME`, so `true` is never a name;
/// `"print"i` is a case-insensitive literal; block comments end at the first `*/` (a lazy
/// repetition, which the lexer matches earliest).
const KEYWORDS: &str = r#"
start: stmt*
stmt: "let" NAME "=" value ";"
    | "print"i value ";"
    | NAME "=" value ";"
value: NAME | NUMBER | BOOL
NAME: /[a-z_]+/
NUMBER: /[0-9]+/
BOOL.2: "true" | "false"
WS: / +/
BLOCK_COMMENT: /\/\*(.|\n)*?\*\//
%ignore WS
%ignore BLOCK_COMMENT
"#;

/// ε-rules with left recursion, right recursion and hidden left recursion
/// (`hidden: opt hidden "c"` with a nullable `opt`), which break naive Tomita.
const EPSILON_RECURSION: &str = r#"
start: left right hidden
left: [left "a"]
right: ["b" right]
hidden: opt hidden "c" | "d"
opt: "e"?
"#;

/// Exponentially many parses: the number of trees of `a^n` is a Catalan number.
const EXPONENTIAL: &str = r#"
start: s
s: s s | "a" | "b"
%ignore " "
"#;

/// A lexeme that is both a terminal and `%ignore`d: `#` alone is a HASH or an empty
/// comment, so the parser must keep both the "consume" and the "skip" readings
/// (`# a` is both; `a #` and `# # a` parse only if some `#` is skipped).
const COMMENTS: &str = r##"
start: item*
item: NAME | "#" NAME
NAME: /[a-z]+/
COMMENT: /#[a-z]*/
%ignore COMMENT
%ignore " "
"##;

/// Every hand-written grammar, compiled once per test binary.
pub fn lark_fixtures() -> &'static [Fixture] {
    static FIXTURES: OnceLock<Vec<Fixture>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        [
            ("arithmetic", ARITHMETIC),
            ("dangling_else", DANGLING_ELSE),
            ("keywords", KEYWORDS),
            ("epsilon_recursion", EPSILON_RECURSION),
            ("json", stackmask::DEFAULT_GRAMMAR),
            ("exponential", EXPONENTIAL),
            ("comments", COMMENTS),
        ]
        .into_iter()
        .map(|(name, text)| Fixture::new(name, Grammar::from_lark(text).unwrap_or_else(|e| panic!("{name}: {e}"))))
        .collect()
    })
}

/// The fixture named `name`.
pub fn lark_fixture(name: &str) -> &'static Fixture {
    lark_fixtures().iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no fixture {name}"))
}

/// Ambiguity with ε-rules: `s` derives ε, so every GSS node gains parents on every
/// earlier level, and a reduction of `s s s` has a cubic number of paths. Kept out of
/// [`lark_fixtures`]: it is the grammar of a timing test.
pub fn cubic_epsilon_fixture() -> Fixture {
    Fixture::new("cubic_epsilon", Grammar::from_lark("start: s\ns: s s s | \"a\" |\n").expect("valid grammar"))
}

/// Patterns random grammars draw their terminals from: overlapping literals (`a`, `ab`),
/// a class that overlaps them (`[a-c]+`) and one that does not (`[0-9]+`).
const TERMINAL_POOL: &[&str] = &["a", "b", "c", "ab", "[a-c]+", "[0-9]+"];

/// A right-hand-side symbol of a random grammar, by index.
#[derive(Clone, Copy, Debug)]
enum SymbolSpec {
    Terminal(usize),
    Nonterminal(usize),
}

/// The shape of a random grammar before it is built.
#[derive(Clone, Debug)]
struct GrammarSpec {
    nonterminals: usize,
    /// Indices into [`TERMINAL_POOL`].
    terminals: Vec<usize>,
    /// `(lhs, rhs)`; nonterminal 0 is the start symbol.
    productions: Vec<(usize, Vec<SymbolSpec>)>,
    /// Add an ignored `" "` terminal.
    ignore_space: bool,
    /// Mark the last pool terminal `%ignore`d too (it may still occur in productions),
    /// so that lexemes can have both ignored and parsed candidates.
    ignore_last: bool,
}

impl GrammarSpec {
    fn build(&self) -> Option<Grammar> {
        let mut b = GrammarBuilder::new();
        let nts: Vec<NonterminalId> = (0..self.nonterminals).map(|i| b.nonterminal(&format!("n{i}"))).collect();
        let ts: Vec<TerminalId> = self
            .terminals
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let ignored = self.ignore_last && i + 1 == self.terminals.len();
                b.terminal(&format!("T{i}"), TerminalPattern::Regex(TERMINAL_POOL[p].into()), 0, ignored)
            })
            .collect();
        if self.ignore_space {
            b.terminal("SPACE", TerminalPattern::Regex(" ".into()), 0, true);
        }
        for (lhs, rhs) in &self.productions {
            let rhs = rhs
                .iter()
                .map(|s| match *s {
                    SymbolSpec::Terminal(t) => Symbol::Terminal(ts[t]),
                    SymbolSpec::Nonterminal(n) => Symbol::Nonterminal(nts[n]),
                })
                .collect();
            b.production(nts[*lhs], rhs);
        }
        b.build(nts[0]).ok()
    }
}

/// A random grammar; its `Debug` output is the readable BNF.
#[derive(Clone)]
pub struct RandomGrammar(pub Grammar);

impl fmt::Debug for RandomGrammar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.0)
    }
}

/// Small random BNF grammars: 3–5 nonterminals, 2–4 terminals from [`TERMINAL_POOL`],
/// right-hand sides of 0–3 symbols (ε included); grammars `build` rejects are discarded.
pub fn random_grammar() -> impl Strategy<Value = RandomGrammar> {
    (3..=5usize, 2..=4usize)
        .prop_flat_map(|(nonterminals, terminal_count)| {
            let symbol = prop_oneof![
                (0..terminal_count).prop_map(SymbolSpec::Terminal),
                (0..nonterminals).prop_map(SymbolSpec::Nonterminal),
            ];
            let production = (0..nonterminals, prop::collection::vec(symbol, 0..=3));
            (
                prop::sample::subsequence((0..TERMINAL_POOL.len()).collect::<Vec<_>>(), terminal_count),
                prop::collection::vec(production, nonterminals..=3 * nonterminals),
                any::<bool>(),
                prop::bool::weighted(0.2),
            )
                .prop_map(move |(terminals, productions, ignore_space, ignore_last)| GrammarSpec {
                    nonterminals,
                    terminals,
                    productions,
                    ignore_space,
                    ignore_last,
                })
        })
        .prop_filter_map("the start symbol derives nothing", |spec| spec.build().map(RandomGrammar))
}
