//! The syntax tree of a Lark grammar, as the parser produces it.
//!
//! Every node keeps the byte offset where it starts, so later stages can report errors
//! at the right line and column. Literals are already decoded and regexes already
//! translated into [`regex_syntax`] syntax.

/// One top-level statement of a grammar.
#[derive(Clone, Debug)]
pub(super) enum Item {
    /// `name: expansions`
    Rule(Definition),
    /// `NAME.priority: expansions`
    Terminal(TerminalDefinition),
    /// `%ignore expansions`
    Ignore(Expr),
    /// `%import common...`: names to take from the `common` library.
    Import(Vec<ImportedName>),
    /// `%declare NAME...`
    Declare(Vec<Name>),
}

/// A name and where it was written.
#[derive(Clone, Debug)]
pub(super) struct Name {
    /// The name, without rule modifiers (`?`, `!`).
    pub text: String,
    /// Byte offset of the name.
    pub offset: usize,
}

/// A rule definition (priority and modifiers parsed and dropped: they do not change the
/// language).
#[derive(Clone, Debug)]
pub(super) struct Definition {
    /// The rule's name.
    pub name: Name,
    /// Its right-hand side.
    pub body: Expr,
}

/// A terminal definition.
#[derive(Clone, Debug)]
pub(super) struct TerminalDefinition {
    /// The terminal's name.
    pub name: Name,
    /// Lark priority (`NAME.2`), 0 when not written.
    pub priority: i32,
    /// Its pattern expression.
    pub body: Expr,
}

/// `%import common.NAME -> LOCAL`: `NAME` in the library, known here as `LOCAL`.
#[derive(Clone, Debug)]
pub(super) struct ImportedName {
    /// Name in the `common` library.
    pub remote: Name,
    /// Name in the importing grammar.
    pub local: Name,
}

/// An expression (the right-hand side of a rule or terminal).
#[derive(Clone, Debug)]
pub(super) struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Byte offset where it starts.
    pub offset: usize,
}

/// The kinds of expression.
#[derive(Clone, Debug)]
pub(super) enum ExprKind {
    /// `a | b | ...`, at least two alternatives.
    Choice(Vec<Expr>),
    /// `a b ...`: any number of items; empty is the empty string.
    Sequence(Vec<Expr>),
    /// `e?`, `[e]`, `e*`, `e+`, `e~n`, `e~n..m`.
    Repeat(Box<Expr>, Repeat),
    /// A reference to a rule.
    Rule(String),
    /// A reference to a terminal.
    Terminal(String),
    /// `"text"` or `"text"i`.
    Literal(Literal),
    /// `/regex/flags`.
    Regex(RegexLiteral),
    /// `"a".."z"`: one character in an inclusive range.
    Range(CharRange),
}

/// How many times a repeated expression occurs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Repeat {
    /// `?` or `[...]`: zero or one.
    Optional,
    /// `*`
    ZeroOrMore,
    /// `+`
    OneOrMore,
    /// `~n` (`min == max`) or `~min..max`.
    Between(u32, u32),
}

/// A decoded string literal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Literal {
    /// The characters it matches.
    pub value: String,
    /// Written with the `i` flag.
    pub insensitive: bool,
}

/// A regex literal, translated into [`regex_syntax`] syntax.
#[derive(Clone, Debug)]
pub(super) struct RegexLiteral {
    /// The pattern, without its flags.
    pub pattern: String,
    /// The scoped flags to apply, a subset of `ims` (the others are already applied).
    pub flags: String,
}

/// `"a".."z"`, with the `i` flag if either end had it.
#[derive(Clone, Copy, Debug)]
pub(super) struct CharRange {
    /// First character.
    pub first: char,
    /// Last character (inclusive).
    pub last: char,
    /// Case-insensitive.
    pub insensitive: bool,
}

impl Expr {
    /// Calls `visit` on every rule or terminal reference in the expression.
    pub(super) fn for_each_reference<'e>(&'e self, visit: &mut impl FnMut(&'e Expr)) {
        match &self.kind {
            ExprKind::Choice(items) | ExprKind::Sequence(items) => {
                items.iter().for_each(|item| item.for_each_reference(visit))
            }
            ExprKind::Repeat(inner, _) => inner.for_each_reference(visit),
            ExprKind::Rule(_) | ExprKind::Terminal(_) => visit(self),
            ExprKind::Literal(_) | ExprKind::Regex(_) | ExprKind::Range(_) => {}
        }
    }
}
