//! The grammar IR: the one representation every front-end compiles into.
//!
//! A [`Grammar`] is a context-free grammar in plain BNF (EBNF operators already
//! expanded into helper nonterminals) over *terminals*, each of which is a regular
//! language (a regular expression in [`regex_syntax`] syntax, or an intersection of
//! [`Language`]s minus others) with a priority and an `ignored` flag.
//! Later stages read it: the lexer builds one DFA from all terminal patterns, the LR
//! stage builds tables from the productions.
//!
//! Boundary: the IR knows nothing about bytes, tokens or parse states. Building one
//! through [`GrammarBuilder`] checks that every symbol is defined, removes useless
//! productions (unproductive or unreachable) and fails with
//! [`Error::EmptyLanguage`] when the start symbol derives nothing.

mod set;
#[cfg(test)]
pub(crate) mod testing;

use crate::error::{Error, LimitKind, Result};
use std::fmt;

pub use set::TerminalSet;

/// Index of a terminal in [`Grammar::terminals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct TerminalId(pub u32);

/// Index of a nonterminal in [`Grammar::nonterminals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct NonterminalId(pub u32);

/// Index of a production in [`Grammar::productions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct ProductionId(pub u32);

impl TerminalId {
    /// The id as a `usize` index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl NonterminalId {
    /// The id as a `usize` index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl ProductionId {
    /// The id as a `usize` index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A grammar symbol: a terminal or a nonterminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Symbol {
    /// A terminal (a lexeme class).
    Terminal(TerminalId),
    /// A nonterminal (a rule).
    Nonterminal(NonterminalId),
}

/// How the lexer recognises a terminal.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TerminalPattern {
    /// A regular expression in [`regex_syntax`] syntax, matched against bytes of UTF-8 text.
    Regex(String),
    /// The lexemes in every language of `all` and in no language of `except`: a regular
    /// language that one regex cannot spell, such as a pattern with a length bound, a
    /// string that is none of a few names, or a number with a `multipleOf`. `all` is not
    /// empty.
    ///
    /// # Example
    /// ```
    /// use stackmask::ir::{Language, TerminalPattern};
    /// // Lower-case words of 2 to 4 letters, except "if".
    /// let word = TerminalPattern::Compound {
    ///     all: vec![Language::regex("[a-z]+"), Language::regex(".{2,4}")],
    ///     except: vec![Language::regex("if")],
    /// };
    /// assert_ne!(word, TerminalPattern::Declared);
    /// ```
    Compound {
        /// Languages the lexeme must be in.
        all: Vec<Language>,
        /// Languages the lexeme must not be in.
        except: Vec<Language>,
    },
    /// Declared with `%declare`: exists for the parser but the lexer never produces it.
    Declared,
}

impl TerminalPattern {
    /// The lexemes matching every regex of `all` and none of `except`
    /// ([`TerminalPattern::Compound`] of regex languages).
    ///
    /// # Example
    /// ```
    /// use stackmask::ir::{Language, TerminalPattern};
    /// let word = TerminalPattern::of_regexes(vec!["[a-z]+".into()], vec!["if".into()]);
    /// assert_eq!(word, TerminalPattern::Compound { all: vec![Language::regex("[a-z]+")], except: vec![Language::regex("if")] });
    /// ```
    pub fn of_regexes(all: Vec<String>, except: Vec<String>) -> TerminalPattern {
        TerminalPattern::Compound { all: all.into_iter().map(Language::Regex).collect(), except: except.into_iter().map(Language::Regex).collect() }
    }
}

/// One language of a [`TerminalPattern::Compound`] terminal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Language {
    /// A regular expression in [`regex_syntax`] syntax, matched against bytes of UTF-8 text.
    Regex(String),
    /// Plain decimal numbers (`-?digits(.digits)?`, as a number regex beside it in `all`
    /// spells them) whose value is a multiple of `numerator / 10^decimals`: JSON
    /// Schema's `multipleOf` where no regex of reasonable size spells the multiples
    /// (multiples of 7 need a residue automaton). The lexer builds that automaton:
    /// its states are the residue of the digits read so far and how many decimals were
    /// read, so it has up to `numerator * (decimals + 2)` states.
    ///
    /// Which texts outside plain decimal spellings it holds is unspecified: it is meant
    /// to be met with a regex that spells the numbers.
    ///
    /// # Example
    /// ```
    /// use stackmask::ir::{Language, TerminalPattern};
    /// // Integers that are multiples of 7.
    /// let sevens = TerminalPattern::Compound {
    ///     all: vec![Language::regex("-?(?:0|[1-9][0-9]*)"), Language::DecimalMultiples { numerator: 7, decimals: 0 }],
    ///     except: Vec::new(),
    /// };
    /// assert_ne!(sevens, TerminalPattern::Declared);
    /// ```
    DecimalMultiples {
        /// The multiple's digits: `multipleOf: 0.21` is 21 with 2 decimals.
        numerator: u32,
        /// How many of its digits follow the decimal point.
        decimals: u32,
    },
}

impl Language {
    /// A regex language.
    ///
    /// # Example
    /// ```
    /// use stackmask::ir::Language;
    /// assert_eq!(Language::regex("[0-9]+"), Language::Regex("[0-9]+".to_string()));
    /// ```
    pub fn regex(pattern: impl Into<String>) -> Language {
        Language::Regex(pattern.into())
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Language::Regex(r) => write!(f, "/{r}/"),
            Language::DecimalMultiples { numerator, decimals } => write!(f, "multiples of {numerator}e-{decimals}"),
        }
    }
}

/// A terminal: a named regular language of lexemes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Terminal {
    /// Name, as written in the grammar or derived from a literal (`"if"` → `IF`).
    pub name: String,
    /// How the lexer recognises it.
    pub pattern: TerminalPattern,
    /// Lark priority (`NAME.2`): when several terminals match the same longest lexeme,
    /// only those of the highest priority are kept. Default 0.
    pub priority: i32,
    /// Skipped between lexemes (`%ignore`): never reaches the parser.
    pub ignored: bool,
}

/// One BNF production `lhs → rhs`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Production {
    /// The rule being defined.
    pub lhs: NonterminalId,
    /// The right-hand side; empty for an ε-production.
    pub rhs: Vec<Symbol>,
}

/// A context-free grammar over regular terminals. Build one with [`GrammarBuilder`]
/// or a front-end such as [`Grammar::from_lark`].
///
/// # Example
/// ```
/// use stackmask::ir::{GrammarBuilder, Symbol, TerminalPattern};
/// let mut b = GrammarBuilder::new();
/// let num = b.terminal("NUM", TerminalPattern::Regex("[0-9]+".into()), 0, false);
/// let plus = b.terminal("PLUS", TerminalPattern::Regex(r"\+".into()), 0, false);
/// let e = b.nonterminal("e");
/// b.production(e, vec![Symbol::Nonterminal(e), Symbol::Terminal(plus), Symbol::Nonterminal(e)]);
/// b.production(e, vec![Symbol::Terminal(num)]);
/// let g = b.build(e).unwrap();
/// assert_eq!(g.productions.len(), 2);
/// assert_eq!(g.nonterminal_name(g.start), "e");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Grammar {
    /// All terminals, indexed by [`TerminalId`].
    pub terminals: Vec<Terminal>,
    /// Nonterminal names, indexed by [`NonterminalId`].
    pub nonterminals: Vec<String>,
    /// All productions, indexed by [`ProductionId`], grouped by left-hand side.
    pub productions: Vec<Production>,
    /// The start symbol.
    pub start: NonterminalId,
}

impl Grammar {
    /// Name of a nonterminal.
    pub fn nonterminal_name(&self, id: NonterminalId) -> &str {
        &self.nonterminals[id.index()]
    }

    /// Name of a terminal.
    pub fn terminal_name(&self, id: TerminalId) -> &str {
        &self.terminals[id.index()].name
    }

    /// Ids of the productions whose left-hand side is `lhs`.
    pub fn productions_of(&self, lhs: NonterminalId) -> impl Iterator<Item = ProductionId> + '_ {
        self.productions
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.lhs == lhs)
            .map(|(i, _)| ProductionId(i as u32))
    }

    /// For each nonterminal, whether it derives the empty string.
    ///
    /// # Example
    /// ```
    /// use stackmask::Grammar;
    /// let g = Grammar::from_lark("start: a \"x\" | a a\na: | \"y\"").unwrap();
    /// let start = g.nonterminals.iter().position(|n| n == "start").unwrap();
    /// assert!(g.nullable()[start]);
    /// ```
    pub fn nullable(&self) -> Vec<bool> {
        derivable(self.nonterminals.len(), &self.productions, |p| p.rhs.iter().all(|s| matches!(s, Symbol::Nonterminal(_))))
    }

    /// Format a production as `lhs: A b C`.
    pub fn display_production(&self, id: ProductionId) -> String {
        let p = &self.productions[id.index()];
        let mut s = format!("{}:", self.nonterminal_name(p.lhs));
        for sym in &p.rhs {
            s.push(' ');
            s.push_str(self.symbol_name(*sym));
        }
        s
    }

    /// Name of a symbol.
    pub fn symbol_name(&self, sym: Symbol) -> &str {
        match sym {
            Symbol::Terminal(t) => self.terminal_name(t),
            Symbol::Nonterminal(n) => self.nonterminal_name(n),
        }
    }
}

impl fmt::Display for Grammar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..self.productions.len() {
            writeln!(f, "{}", self.display_production(ProductionId(i as u32)))?;
        }
        for t in &self.terminals {
            let pat = match &t.pattern {
                TerminalPattern::Regex(r) => format!("/{r}/"),
                TerminalPattern::Compound { all, except } => {
                    let all: Vec<String> = all.iter().map(Language::to_string).collect();
                    let except: String = except.iter().map(|l| format!(" - {l}")).collect();
                    format!("{}{except}", all.join(" & "))
                }
                TerminalPattern::Declared => "%declare".to_string(),
            };
            let ign = if t.ignored { " %ignore" } else { "" };
            writeln!(f, "{}.{}: {pat}{ign}", t.name, t.priority)?;
        }
        Ok(())
    }
}

/// Limits checked while building a [`Grammar`].
#[derive(Clone, Debug)]
pub struct GrammarLimits {
    /// Maximum number of productions after EBNF expansion.
    pub max_productions: usize,
}

impl Default for GrammarLimits {
    fn default() -> Self {
        GrammarLimits { max_productions: 200_000 }
    }
}

/// Incrementally assembles a [`Grammar`]; [`GrammarBuilder::build`] validates and trims it.
#[derive(Clone, Debug, Default)]
pub struct GrammarBuilder {
    terminals: Vec<Terminal>,
    nonterminals: Vec<String>,
    productions: Vec<Production>,
    limits: GrammarLimits,
}

impl GrammarBuilder {
    /// An empty builder with default limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// Replace the limits.
    pub fn limits(&mut self, limits: GrammarLimits) -> &mut Self {
        self.limits = limits;
        self
    }

    /// Add a terminal and return its id.
    pub fn terminal(&mut self, name: &str, pattern: TerminalPattern, priority: i32, ignored: bool) -> TerminalId {
        self.terminals.push(Terminal { name: name.to_string(), pattern, priority, ignored });
        TerminalId(self.terminals.len() as u32 - 1)
    }

    /// Mark a terminal as ignored (`%ignore`).
    pub fn set_ignored(&mut self, t: TerminalId) {
        self.terminals[t.index()].ignored = true;
    }

    /// Add a nonterminal and return its id.
    pub fn nonterminal(&mut self, name: &str) -> NonterminalId {
        self.nonterminals.push(name.to_string());
        NonterminalId(self.nonterminals.len() as u32 - 1)
    }

    /// Add a production `lhs → rhs`.
    pub fn production(&mut self, lhs: NonterminalId, rhs: Vec<Symbol>) {
        self.productions.push(Production { lhs, rhs });
    }

    /// Number of productions added so far.
    pub fn production_count(&self) -> usize {
        self.productions.len()
    }

    /// A builder holding `grammar`'s terminals, nonterminals and productions, to validate
    /// a grammar from elsewhere (a deserialized one) or extend one.
    ///
    /// # Example
    /// ```
    /// use stackmask::{ir::GrammarBuilder, Grammar};
    /// let g = Grammar::from_lark(r#"start: "a" start | "b""#).unwrap();
    /// let again = GrammarBuilder::from_grammar(g.clone()).build(g.start).unwrap();
    /// assert_eq!(again, g);
    /// ```
    pub fn from_grammar(grammar: Grammar) -> GrammarBuilder {
        let Grammar { terminals, nonterminals, productions, start: _ } = grammar;
        GrammarBuilder { terminals, nonterminals, productions, limits: GrammarLimits::default() }
    }

    /// Validate, drop useless productions, and return the grammar.
    ///
    /// Fails with [`Error::Ir`] when a symbol id is not one this builder made, with
    /// [`Error::EmptyLanguage`] when `start` derives no terminal string and with
    /// [`Error::Limit`] when the grammar is too large.
    ///
    /// # Example
    /// ```
    /// use stackmask::{ir::{GrammarBuilder, NonterminalId, Symbol}, Error};
    /// let mut b = GrammarBuilder::new();
    /// let s = b.nonterminal("s");
    /// b.production(s, vec![Symbol::Nonterminal(NonterminalId(7))]);
    /// assert!(matches!(b.build(s), Err(Error::Ir { .. })));
    /// ```
    pub fn build(self, start: NonterminalId) -> Result<Grammar> {
        self.check_ids(start)?;
        if self.productions.len() > self.limits.max_productions {
            return Err(Error::Limit {
                kind: LimitKind::Productions,
                value: self.productions.len(),
                limit: self.limits.max_productions,
            });
        }
        let productive = productive_nonterminals(&self.nonterminals, &self.productions, &self.terminals);
        if !productive[start.index()] {
            return Err(Error::EmptyLanguage { start: self.nonterminals[start.index()].clone() });
        }
        let is_productive = |p: &Production| {
            p.rhs.iter().all(|s| match s {
                Symbol::Nonterminal(n) => productive[n.index()],
                Symbol::Terminal(t) => self.terminals[t.index()].pattern != TerminalPattern::Declared,
            })
        };
        let productions: Vec<Production> = self.productions.iter().filter(|p| is_productive(p)).cloned().collect();
        let reachable = reachable_nonterminals(self.nonterminals.len(), &productions, start);
        let mut productions: Vec<Production> =
            productions.into_iter().filter(|p| reachable[p.lhs.index()]).collect();
        productions.sort_by_key(|p| p.lhs);
        Ok(Grammar { terminals: self.terminals, nonterminals: self.nonterminals, productions, start })
    }
}

impl GrammarBuilder {
    /// [`Error::Ir`] unless every id names a terminal or nonterminal of this builder.
    fn check_ids(&self, start: NonterminalId) -> Result<()> {
        let nonterminal = |n: NonterminalId| n.index() < self.nonterminals.len();
        if !nonterminal(start) {
            return Err(self.id_error(format!("the start symbol is nonterminal {}", start.0)));
        }
        for (i, p) in self.productions.iter().enumerate() {
            if !nonterminal(p.lhs) {
                return Err(self.id_error(format!("production {i} defines nonterminal {}", p.lhs.0)));
            }
            for s in &p.rhs {
                let known = match *s {
                    Symbol::Terminal(t) => t.index() < self.terminals.len(),
                    Symbol::Nonterminal(n) => nonterminal(n),
                };
                if !known {
                    return Err(self.id_error(format!("production {i} uses {s:?}")));
                }
            }
        }
        Ok(())
    }

    fn id_error(&self, what: String) -> Error {
        let reason = format!(
            "{what}, but there are {} terminals and {} nonterminals",
            self.terminals.len(),
            self.nonterminals.len()
        );
        Error::Ir { reason }
    }
}

fn productive_nonterminals(nonterminals: &[String], productions: &[Production], terminals: &[Terminal]) -> Vec<bool> {
    let lexable = |p: &Production| {
        p.rhs.iter().all(|s| match s {
            Symbol::Terminal(t) => terminals[t.index()].pattern != TerminalPattern::Declared,
            Symbol::Nonterminal(_) => true,
        })
    };
    derivable(nonterminals.len(), productions, lexable)
}

/// The nonterminals with a production that `admits` and all of whose nonterminals are
/// such nonterminals too (productive: its terminals are lexable; nullable: it has none).
/// A worklist over the productions still waiting on some of their nonterminals: each is
/// visited once per nonterminal of its right-hand side (linear, where sweeping until
/// nothing changes is quadratic on long chains of rules).
fn derivable(count: usize, productions: &[Production], admits: impl Fn(&Production) -> bool) -> Vec<bool> {
    let mut derived = vec![false; count];
    let mut waiting = vec![0usize; productions.len()];
    let mut uses: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut ready = Vec::new();
    for (i, p) in productions.iter().enumerate().filter(|(_, p)| admits(p)) {
        for s in &p.rhs {
            if let Symbol::Nonterminal(n) = s {
                waiting[i] += 1;
                uses[n.index()].push(i);
            }
        }
        if waiting[i] == 0 {
            ready.push(i);
        }
    }
    while let Some(i) = ready.pop() {
        let lhs = productions[i].lhs.index();
        if std::mem::replace(&mut derived[lhs], true) {
            continue;
        }
        for &user in &uses[lhs] {
            waiting[user] -= 1;
            if waiting[user] == 0 {
                ready.push(user);
            }
        }
    }
    derived
}

fn reachable_nonterminals(count: usize, productions: &[Production], start: NonterminalId) -> Vec<bool> {
    let mut by_lhs: Vec<Vec<&Production>> = vec![Vec::new(); count];
    for p in productions {
        by_lhs[p.lhs.index()].push(p);
    }
    let mut reachable = vec![false; count];
    reachable[start.index()] = true;
    let mut stack = vec![start];
    while let Some(n) = stack.pop() {
        for p in &by_lhs[n.index()] {
            for s in &p.rhs {
                if let Symbol::Nonterminal(m) = s {
                    if !reachable[m.index()] {
                        reachable[m.index()] = true;
                        stack.push(*m);
                    }
                }
            }
        }
    }
    reachable
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(b: &mut GrammarBuilder, s: &str) -> Symbol {
        Symbol::Terminal(b.terminal(s, TerminalPattern::Regex(regex_syntax::escape(s)), 0, false))
    }

    #[test]
    fn unproductive_start_is_empty_language() {
        let mut b = GrammarBuilder::new();
        let s = b.nonterminal("s");
        let a = lit(&mut b, "a");
        b.production(s, vec![a, Symbol::Nonterminal(s)]);
        assert!(matches!(b.build(s), Err(Error::EmptyLanguage { .. })));
    }

    #[test]
    fn useless_productions_are_dropped() {
        let mut b = GrammarBuilder::new();
        let s = b.nonterminal("s");
        let dead = b.nonterminal("dead");
        let unreachable = b.nonterminal("unreachable");
        let a = lit(&mut b, "a");
        b.production(s, vec![a]);
        b.production(s, vec![Symbol::Nonterminal(dead)]);
        b.production(dead, vec![a, Symbol::Nonterminal(dead)]);
        b.production(unreachable, vec![a]);
        let g = b.build(s).unwrap();
        assert_eq!(g.productions.len(), 1);
        assert_eq!(g.display_production(ProductionId(0)), "s: a");
    }

    #[test]
    fn nullable_is_computed() {
        let mut b = GrammarBuilder::new();
        let s = b.nonterminal("s");
        let opt = b.nonterminal("opt");
        let a = lit(&mut b, "a");
        b.production(s, vec![Symbol::Nonterminal(opt), a]);
        b.production(opt, vec![]);
        b.production(opt, vec![a]);
        let g = b.build(s).unwrap();
        assert_eq!(g.nullable(), vec![false, true]);
    }
}
