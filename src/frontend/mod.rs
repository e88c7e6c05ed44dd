//! Front-ends: Lark grammar text, a JSON Schema ([`json_schema`]) or a regex
//! ([`Grammar::from_regex`]) in, [`ir::Grammar`](crate::ir::Grammar) out.
//!
//! The rest of this page is the Lark front-end. [`Grammar::from_lark`] reads the dialect of [Lark](https://github.com/lark-parser/lark)
//! that SynCode and llguidance also accept, and compiles it to the IR: plain BNF
//! productions over terminals that are each one regular expression in
//! [`regex_syntax`] syntax. Nothing here knows about bytes, tokens or parse states.
//!
//! # Supported
//!
//! - **Rules** `name: alt | alt`, alternatives continued on following lines that start
//!   with `|`, rule modifiers `?name` (inline), `!name` (keep tokens) and `_name`
//!   (filtered), priorities `name.N:` and aliases `-> name`. Modifiers, priorities and
//!   aliases shape Lark's parse tree, not the language, so they are accepted and dropped.
//! - **Expressions**: sequences, `( ... )`, `[ ... ]` and `?` (optional), `*`, `+`,
//!   `~ n`, `~ n..m`, string literals `"..."` with Lark's escapes (`\"`, `\\`, `\n`, `\t`,
//!   `\r`, `\f`, `\xNN`, `\uNNNN`, `\UNNNNNNNN`; any other `\c` keeps its backslash) and
//!   the `i` flag, regexes `/.../flags` with flags among `i m s u x`, ranges `"a".."z"`,
//!   references to rules and terminals. Comments are `//` or `#` to the end of the line.
//! - **EBNF expansion**: optional parts are expanded inline as Lark does (duplicating the
//!   alternative), `x*`/`x+` become left-recursive helper rules named like
//!   `__name_star_0`; where inline expansion would multiply an alternative more than 64
//!   times, a helper rule is used instead. `x~n..m` costs a number of productions linear
//!   in `m - n` and logarithmic in `n`. Identical helpers are shared.
//! - **Terminals** `NAME: expr` and `NAME.N: expr` (priority `N`, possibly negative):
//!   literals, regexes, ranges and other terminals (inlined; recursion is an error)
//!   combined with sequence, `|`, `?`, `*`, `+`, `~`. Each compiles to one regex.
//! - **Anonymous terminals**: a literal or regex written in a rule becomes a terminal
//!   with priority 0, shared by every identical occurrence, and named as Lark names it
//!   (`"if"` → `IF`, `";"` → `SEMICOLON`, else `__ANON_n`). When a named terminal is
//!   defined as exactly that literal or regex (`STAR: "*"`), the rule uses it instead.
//! - **Directives**: `%ignore NAME`, `%ignore <terminal expression>` (an anonymous
//!   ignored terminal `__IGNORE_n`), `%import common.NAME [-> ALIAS]`,
//!   `%import common (A, B)`, `%declare A B` (terminals the lexer never produces; the IR
//!   drops productions that need them), and `%llguidance {...}` (accepted and ignored).
//! - **`common`**: the terminals of Lark's `common.lark` (`DIGIT`, `INT`, `SIGNED_INT`,
//!   `DECIMAL`, `FLOAT`, `NUMBER`, `SIGNED_NUMBER`, `ESCAPED_STRING`, `LETTER`, `WORD`,
//!   `CNAME`, `WS`, `WS_INLINE`, `NEWLINE`, `C_COMMENT`, `CPP_COMMENT`, `SH_COMMENT`,
//!   `SQL_COMMENT`, ...), written without lookaround. An imported terminal's helpers stay
//!   in the library's namespace and do not clash with the grammar's names.
//!
//! # Rejected, with an [`Error::Grammar`](crate::Error::Grammar) giving line and column
//!
//! Undefined or duplicate rules and terminals, a rule used inside a terminal, recursive
//! terminals, unterminated strings or regexes, bad escapes, unknown regex flags (`l` is
//! Lark's locale flag: not supported), bad repetition ranges, empty literals, empty
//! terminals, operators stacked without parentheses (`a??`), expressions nested more
//! than 100 levels deep, a missing start rule, a grammar without rules; and the Lark
//! features that are not supported: templates (`name{x}`), `%override`, `%extend`, and
//! imports of anything but the built-in `common` library.
//!
//! # Regexes
//!
//! Lark regexes are Python `re` syntax. They are translated where only the spelling
//! differs (`\Z`, octal and `\x`/`\u` escapes, a literal `{`, `[` or `&&` inside a class,
//! `{,n}`, `(?P<name>`, `(?#...)`, the verbose flag), and flags become scoped groups:
//! `/ab/i` → `(?i:ab)`. Lazy quantifiers (`*?`, `+?`, `??`) are kept as written: the
//! lexer gives them Python's meaning. Lookaround and backreferences pass through
//! unchanged; the lexer stage reports the ones it cannot handle. Inside `/.../`, an
//! escape such as `\x2a` always denotes the character itself (Lark decodes it before
//! Python's `re` sees it, which differs only for metacharacters).
//!
//! # Example
//! ```
//! use stackmask::{Grammar, ir::TerminalPattern};
//!
//! let grammar = Grammar::from_lark(r#"
//!     start: pair ("," pair)*
//!     pair: KEY "=" NUMBER
//!     KEY: /[a-z]+/
//!     %import common.NUMBER
//!     %import common.WS
//!     %ignore WS
//! "#).unwrap();
//! let names: Vec<&str> = grammar.terminals.iter().map(|t| t.name.as_str()).collect();
//! assert_eq!(names, ["COMMA", "KEY", "EQUAL", "NUMBER", "WS"]);
//! assert_eq!(grammar.terminals[1].pattern, TerminalPattern::Regex("[a-z]+".into()));
//! assert!(grammar.terminals[4].ignored);
//! ```

mod emit;
pub mod json_schema;
mod lark;
mod literal;
mod parser;
mod pyregex;
mod regex;
mod rules;
mod scanner;
mod syntax;
mod terminals;
#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::ir::{Grammar, GrammarLimits};

/// Options for [`Grammar::from_lark_with`].
///
/// # Example
/// ```
/// use stackmask::{Grammar, frontend::LarkOptions};
///
/// let options = LarkOptions { start: "expr".into(), ..LarkOptions::default() };
/// let grammar = Grammar::from_lark_with("expr: NUM (\"+\" NUM)*\nNUM: /[0-9]+/", &options).unwrap();
/// assert_eq!(grammar.nonterminal_name(grammar.start), "expr");
/// ```
#[derive(Clone, Debug)]
pub struct LarkOptions {
    /// Name of the start rule. Default `"start"`.
    pub start: String,
    /// Limits checked while building the grammar.
    pub limits: GrammarLimits,
    /// Longest grammar text accepted, in bytes (checked before parsing). Default 1 MiB.
    pub max_grammar_bytes: usize,
}

impl Default for LarkOptions {
    fn default() -> Self {
        LarkOptions { start: "start".to_string(), limits: GrammarLimits::default(), max_grammar_bytes: 1 << 20 }
    }
}

impl Grammar {
    /// Compiles a Lark grammar whose start rule is `start`, with default limits.
    ///
    /// See the [module documentation](crate::frontend) for the supported dialect.
    ///
    /// # Errors
    /// [`Error::Grammar`](crate::Error::Grammar) with a line and column for malformed or
    /// unsupported input, [`Error::EmptyLanguage`](crate::Error::EmptyLanguage) when the
    /// start rule derives no string, [`Error::Limit`](crate::Error::Limit) when the text is
    /// longer than [`LarkOptions::max_grammar_bytes`] or the expanded grammar has too many
    /// productions.
    ///
    /// # Example
    /// ```
    /// use stackmask::Grammar;
    ///
    /// let grammar = Grammar::from_lark(r#"start: "a"+ "b""#).unwrap();
    /// assert_eq!(grammar.to_string(), "\
    /// start: __start_plus_0 B
    /// __start_plus_0: A
    /// __start_plus_0: __start_plus_0 A
    /// A.0: /a/
    /// B.0: /b/
    /// ");
    ///
    /// let err = Grammar::from_lark("start: \"a\" b").unwrap_err();
    /// assert_eq!(err.to_string(), "grammar error at line 1, column 12: rule `b` is not defined");
    /// ```
    pub fn from_lark(text: &str) -> Result<Grammar> {
        Self::from_lark_with(text, &LarkOptions::default())
    }

    /// Compiles a Lark grammar with the given start rule and limits.
    ///
    /// # Errors
    /// As [`Grammar::from_lark`].
    pub fn from_lark_with(text: &str, options: &LarkOptions) -> Result<Grammar> {
        lark::compile(text, options)
    }

    /// The grammar whose sentences are the whole texts matched by one regular
    /// expression, in [`regex_syntax`] syntax (the `regex` crate's), without anchors.
    ///
    /// # Errors
    /// [`Error::Grammar`](crate::Error::Grammar) when the regex does not parse, uses
    /// anchors, word boundaries or look-around, or matches nothing.
    ///
    /// # Example
    /// ```
    /// use stackmask::Grammar;
    ///
    /// let grammar = Grammar::from_regex(r"[0-9]{3}-[0-9]{4}").unwrap();
    /// assert_eq!(grammar.terminals.len(), 1);
    /// // The empty text is a sentence when the regex matches it.
    /// assert!(Grammar::from_regex("a*").is_ok());
    /// assert!(Grammar::from_regex("(").is_err());
    /// ```
    pub fn from_regex(pattern: &str) -> Result<Grammar> {
        regex::compile(pattern)
    }
}
