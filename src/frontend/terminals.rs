//! Compilation of terminal expressions into one regex each.
//!
//! A terminal's definition may combine literals, regexes, ranges and other terminals
//! with sequence, `|`, `?`, `*`, `+` and `~`. References are inlined (recursively, with
//! cycle detection) and every piece is wrapped in `(?:...)` only where precedence needs
//! it, so the result is one [`regex_syntax`] pattern per terminal.

use super::literal::{escape_literal, push_literal_char};
use super::syntax::{CharRange, Expr, ExprKind, Literal, RegexLiteral, Repeat};
use crate::error::{Error, Result};
use hashbrown::HashMap;
use regex_syntax::ast::Ast;

/// Longest regex a terminal may compile to, in bytes (inlining can double sizes at every
/// level of reference).
const MAX_REGEX_BYTES: usize = 1 << 20;
/// Most bytes all compiled terminals may take together (each reference copies a regex).
const MAX_TOTAL_REGEX_BYTES: usize = 16 << 20;

/// How tightly a regex fragment binds: where `(?:...)` must be added around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Prec {
    /// Has a top-level `|`.
    Alternation,
    /// Several pieces in a row (or nothing at all).
    Concatenation,
    /// Ends with a quantifier: another one would change its meaning (`a*` + `?`).
    Repetition,
    /// One character, class or group.
    Atom,
}

/// A regex fragment and how tightly it binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Fragment {
    /// The pattern, in [`regex_syntax`] syntax.
    pub text: String,
    /// Its binding strength.
    pub prec: Prec,
}

impl Fragment {
    /// Matches exactly the literal (case-insensitively with the `i` flag).
    pub(super) fn literal(literal: &Literal) -> Fragment {
        let text = escape_literal(&literal.value);
        if literal.insensitive {
            return Fragment { text: format!("(?i:{text})"), prec: Prec::Atom };
        }
        let prec = if literal.value.chars().count() == 1 { Prec::Atom } else { Prec::Concatenation };
        Fragment { text, prec }
    }

    /// A translated regex literal with its flags applied as a scoped group.
    pub(super) fn regex(regex: &RegexLiteral) -> Fragment {
        if regex.flags.is_empty() {
            return Fragment { text: regex.pattern.clone(), prec: pattern_prec(&regex.pattern) };
        }
        Fragment { text: format!("(?{}:{})", regex.flags, regex.pattern), prec: Prec::Atom }
    }

    /// A character class for the range.
    pub(super) fn range(range: CharRange) -> Fragment {
        let mut text = String::from("[");
        push_literal_char(&mut text, range.first);
        text.push('-');
        push_literal_char(&mut text, range.last);
        text.push(']');
        if range.insensitive {
            text = format!("(?i:{text})");
        }
        Fragment { text, prec: Prec::Atom }
    }

    /// The fragment's text, grouped when it binds less tightly than `needed`.
    fn text_for(&self, needed: Prec) -> String {
        if self.prec < needed {
            format!("(?:{})", self.text)
        } else {
            self.text.clone()
        }
    }

    /// The parts one after the other.
    fn sequence(parts: Vec<Fragment>) -> Fragment {
        let mut parts: Vec<Fragment> = parts.into_iter().filter(|p| !p.text.is_empty()).collect();
        if parts.len() == 1 {
            return parts.remove(0);
        }
        let text = parts.iter().map(|p| p.text_for(Prec::Concatenation)).collect();
        Fragment { text, prec: Prec::Concatenation }
    }

    /// Any one of the parts.
    fn choice(mut parts: Vec<Fragment>) -> Fragment {
        if parts.len() == 1 {
            return parts.remove(0);
        }
        let texts: Vec<&str> = parts.iter().map(|p| p.text.as_str()).collect();
        Fragment { text: texts.join("|"), prec: Prec::Alternation }
    }

    /// The fragment repeated.
    fn repeat(&self, repeat: Repeat) -> Fragment {
        let suffix = match repeat {
            Repeat::Optional => "?".to_string(),
            Repeat::ZeroOrMore => "*".to_string(),
            Repeat::OneOrMore => "+".to_string(),
            Repeat::Between(min, max) if min == max => format!("{{{min}}}"),
            Repeat::Between(min, max) => format!("{{{min},{max}}}"),
        };
        Fragment { text: self.text_for(Prec::Atom) + &suffix, prec: Prec::Repetition }
    }
}

/// The binding strength of a regex written by the user; [`Prec::Alternation`] (always
/// grouped) when regex-syntax cannot parse it, e.g. because it uses lookaround.
fn pattern_prec(pattern: &str) -> Prec {
    match regex_syntax::ast::parse::Parser::new().parse(pattern) {
        Ok(Ast::Literal(_) | Ast::Dot(_) | Ast::ClassUnicode(_) | Ast::ClassPerl(_) | Ast::ClassBracketed(_))
        | Ok(Ast::Group(_)) => Prec::Atom,
        Ok(Ast::Repetition(_)) => Prec::Repetition,
        Ok(Ast::Concat(_) | Ast::Empty(_) | Ast::Flags(_) | Ast::Assertion(_)) => Prec::Concatenation,
        Ok(Ast::Alternation(_)) | Err(_) => Prec::Alternation,
    }
}

/// The shape of a terminal that is a single literal or a single regex: a rule that
/// writes the same literal or regex uses that terminal (as Lark does).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum PatternKey {
    /// A string literal.
    Literal(Literal),
    /// A regex literal or range, by its compiled text.
    Regex(String),
}

impl PatternKey {
    /// The key of a rule-level literal, regex or range expression, if it is one.
    pub(super) fn of(kind: &ExprKind) -> Option<(PatternKey, Fragment)> {
        let (key, fragment) = match kind {
            ExprKind::Literal(literal) => (PatternKey::Literal(literal.clone()), Fragment::literal(literal)),
            ExprKind::Regex(regex) => {
                let fragment = Fragment::regex(regex);
                (PatternKey::Regex(fragment.text.clone()), fragment)
            }
            ExprKind::Range(range) => {
                let fragment = Fragment::range(*range);
                (PatternKey::Regex(fragment.text.clone()), fragment)
            }
            _ => return None,
        };
        Some((key, fragment))
    }
}

/// Which grammar a terminal definition belongs to: names resolve within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Namespace {
    /// The grammar being compiled.
    Grammar,
    /// The built-in `common` library.
    Common,
}

/// What a terminal name stands for.
#[derive(Clone, Copy, Debug)]
pub(super) enum TerminalBody<'d> {
    /// Defined by an expression.
    Expr(&'d Expr),
    /// Imported: the terminal `name` of the `common` library, named at `offset`.
    Import { name: &'d str, offset: usize },
    /// `%declare`d: no pattern.
    Declared,
}

/// A terminal definition in one namespace.
#[derive(Clone, Copy, Debug)]
pub(super) struct TerminalEntry<'d> {
    /// Where its name resolves.
    pub namespace: Namespace,
    /// Its name.
    pub name: &'d str,
    /// Byte offset of the definition (in its namespace's text).
    pub offset: usize,
    /// Lark priority.
    pub priority: i32,
    /// Its definition.
    pub body: TerminalBody<'d>,
}

/// A compiled terminal: its regex, and its [`PatternKey`] when it is a single literal or
/// regex.
#[derive(Clone, Debug)]
pub(super) struct Compiled {
    /// The regex.
    pub fragment: Fragment,
    /// Set when the whole definition is one literal, regex or range.
    pub key: Option<PatternKey>,
}

/// Compilation state of one definition.
enum Memo {
    Pending,
    /// Its dependencies are being compiled: meeting it again means a cycle.
    Visiting,
    Done(Compiled),
}

/// A terminal that a definition refers to, and where the reference is written.
#[derive(Clone, Copy)]
struct Dependency {
    index: usize,
    offset: usize,
}

/// Compiles terminal definitions, each once, inlining references.
///
/// Definitions are compiled in dependency order (found without recursion, so chains of
/// terminals defined through terminals cost no stack); only the expression tree of one
/// definition is walked recursively, and its depth is bounded by the parser.
pub(super) struct TerminalCompiler<'d> {
    grammar_text: &'d str,
    common_text: &'d str,
    entries: Vec<TerminalEntry<'d>>,
    index: HashMap<(Namespace, &'d str), usize>,
    memo: Vec<Memo>,
    total_bytes: usize,
}

impl<'d> TerminalCompiler<'d> {
    /// A compiler over `entries` (names unique per namespace). Positions are reported in
    /// `grammar_text` or `common_text` according to the namespace.
    pub(super) fn new(grammar_text: &'d str, common_text: &'d str, entries: Vec<TerminalEntry<'d>>) -> Self {
        let index = entries.iter().enumerate().map(|(i, e)| ((e.namespace, e.name), i)).collect();
        let memo = entries.iter().map(|_| Memo::Pending).collect();
        TerminalCompiler { grammar_text, common_text, entries, index, memo, total_bytes: 0 }
    }

    /// Compiles the definition at `index`; `None` for a declared terminal.
    pub(super) fn compile_entry(&mut self, index: usize) -> Result<Option<Compiled>> {
        match self.entries.get(index) {
            Some(entry) if !matches!(entry.body, TerminalBody::Declared) => self.compile_index(index).map(Some),
            _ => Ok(None),
        }
    }

    /// Compiles an expression of the grammar (e.g. an `%ignore` pattern).
    pub(super) fn compile_expr(&mut self, expr: &Expr) -> Result<Compiled> {
        for dependency in self.expr_dependencies(expr, Namespace::Grammar)? {
            self.check_usable(dependency, Namespace::Grammar)?;
            self.compile_index(dependency.index)?;
        }
        self.expr(expr, Namespace::Grammar)
    }

    fn text(&self, namespace: Namespace) -> &'d str {
        match namespace {
            Namespace::Grammar => self.grammar_text,
            Namespace::Common => self.common_text,
        }
    }

    fn error(&self, namespace: Namespace, offset: usize, reason: impl Into<String>) -> Error {
        Error::grammar(self.text(namespace), offset, reason)
    }

    /// Compiles the definition at `root` after everything it depends on, with an explicit
    /// stack of definitions whose dependencies are being visited.
    fn compile_index(&mut self, root: usize) -> Result<Compiled> {
        let mut stack: Vec<(usize, Vec<Dependency>)> = Vec::new();
        self.visit(root, &mut stack)?;
        while let Some((index, pending)) = stack.last_mut() {
            let index = *index;
            match pending.pop() {
                Some(dependency) => self.visit_dependency(dependency, index, &mut stack)?,
                None => {
                    stack.pop();
                    let compiled = self.compile_body(index)?;
                    self.record(index, compiled)?;
                }
            }
        }
        self.done(root, 0)
    }

    /// Stores a compiled definition, within the budget for all terminals together.
    fn record(&mut self, index: usize, compiled: Compiled) -> Result<()> {
        self.total_bytes += compiled.fragment.text.len();
        if self.total_bytes > MAX_TOTAL_REGEX_BYTES {
            let entry = self.entries.get(index).copied();
            let (namespace, offset) = entry.map_or((Namespace::Grammar, 0), |e| (e.namespace, e.offset));
            let reason = format!("the terminals' patterns are too large (over {MAX_TOTAL_REGEX_BYTES} bytes in all)");
            return Err(self.error(namespace, offset, reason));
        }
        self.memo[index] = Memo::Done(compiled);
        Ok(())
    }

    /// Marks `index` as being visited and pushes it with its dependencies, unless it is
    /// already compiled.
    fn visit(&mut self, index: usize, stack: &mut Vec<(usize, Vec<Dependency>)>) -> Result<()> {
        if let Some(Memo::Pending) = self.memo.get(index) {
            let mut dependencies = self.dependencies(index)?;
            dependencies.reverse();
            self.memo[index] = Memo::Visiting;
            stack.push((index, dependencies));
        }
        Ok(())
    }

    fn visit_dependency(
        &mut self,
        dependency: Dependency,
        from: usize,
        stack: &mut Vec<(usize, Vec<Dependency>)>,
    ) -> Result<()> {
        let namespace = self.entries.get(from).map_or(Namespace::Grammar, |e| e.namespace);
        self.check_usable(dependency, namespace)?;
        if let Some(Memo::Visiting) = self.memo.get(dependency.index) {
            let name = self.entries.get(dependency.index).map_or("?", |e| e.name);
            let reason =
                format!("terminal `{name}` is defined in terms of itself (recursion is only allowed in rules)");
            return Err(self.error(namespace, dependency.offset, reason));
        }
        self.visit(dependency.index, stack)
    }

    /// A declared terminal has no pattern to inline.
    fn check_usable(&self, dependency: Dependency, namespace: Namespace) -> Result<()> {
        match self.entries.get(dependency.index) {
            Some(entry) if matches!(entry.body, TerminalBody::Declared) => {
                let reason = format!(
                    "terminal `{}` is declared without a pattern: it cannot be used inside another terminal",
                    entry.name
                );
                Err(self.error(namespace, dependency.offset, reason))
            }
            _ => Ok(()),
        }
    }

    /// The terminals the definition at `index` refers to.
    fn dependencies(&self, index: usize) -> Result<Vec<Dependency>> {
        let Some(entry) = self.entries.get(index) else {
            return Ok(Vec::new());
        };
        match entry.body {
            TerminalBody::Expr(expr) => self.expr_dependencies(expr, entry.namespace),
            TerminalBody::Import { name, offset } => Ok(vec![self.resolve(Namespace::Common, name, offset)?]),
            TerminalBody::Declared => Ok(Vec::new()),
        }
    }

    fn expr_dependencies(&self, expr: &Expr, namespace: Namespace) -> Result<Vec<Dependency>> {
        let mut names = Vec::new();
        expr.for_each_reference(&mut |reference| names.push(reference));
        names.into_iter().map(|reference| self.resolve_reference(reference, namespace)).collect()
    }

    fn resolve_reference(&self, reference: &Expr, namespace: Namespace) -> Result<Dependency> {
        match &reference.kind {
            ExprKind::Terminal(name) => self.resolve(namespace, name, reference.offset),
            ExprKind::Rule(name) => {
                let reason = format!("rule `{name}` cannot be used inside a terminal");
                Err(self.error(namespace, reference.offset, reason))
            }
            _ => Err(self.error(namespace, reference.offset, "internal error: not a reference")),
        }
    }

    /// The definition `name` refers to in `namespace`, written at `offset`.
    fn resolve(&self, namespace: Namespace, name: &str, offset: usize) -> Result<Dependency> {
        match self.index.get(&(namespace, name)) {
            Some(&index) => Ok(Dependency { index, offset }),
            None if namespace == Namespace::Common => {
                Err(self.error(Namespace::Grammar, offset, format!("the `common` library has no terminal `{name}`")))
            }
            None => Err(self.error(namespace, offset, format!("terminal `{name}` is not defined"))),
        }
    }

    /// The compiled definition at `index`, which must be done.
    fn done(&self, index: usize, offset: usize) -> Result<Compiled> {
        match self.memo.get(index) {
            Some(Memo::Done(compiled)) => Ok(compiled.clone()),
            _ => Err(self.error(Namespace::Grammar, offset, "internal error: terminal compiled out of order")),
        }
    }

    /// Compiles a definition whose dependencies are all done.
    fn compile_body(&self, index: usize) -> Result<Compiled> {
        let Some(entry) = self.entries.get(index) else {
            return Err(self.error(Namespace::Grammar, 0, "internal error: unknown terminal"));
        };
        match entry.body {
            TerminalBody::Expr(expr) => self.expr(expr, entry.namespace),
            TerminalBody::Import { name, offset } => {
                let dependency = self.resolve(Namespace::Common, name, offset)?;
                self.done(dependency.index, offset)
            }
            TerminalBody::Declared => {
                Err(self.error(entry.namespace, entry.offset, "internal error: declared terminal"))
            }
        }
    }

    // `expr`, `combine` and `repeat` recurse over the expression tree, whose depth the
    // parser bounds; they keep small frames.

    /// Compiles an expression whose references are all done.
    fn expr(&self, expr: &Expr, namespace: Namespace) -> Result<Compiled> {
        let compiled = match &expr.kind {
            ExprKind::Choice(items) => self.combine(items, namespace, Fragment::choice),
            ExprKind::Sequence(items) => self.combine(items, namespace, Fragment::sequence),
            ExprKind::Repeat(inner, repeat) => self.repeat(inner, *repeat, namespace),
            ExprKind::Terminal(_) | ExprKind::Rule(_) => self.reference(expr, namespace),
            ExprKind::Literal(_) | ExprKind::Regex(_) | ExprKind::Range(_) => self.pattern(expr, namespace),
        };
        self.check_size(compiled?, expr.offset, namespace)
    }

    fn combine(&self, items: &[Expr], namespace: Namespace, join: fn(Vec<Fragment>) -> Fragment) -> Result<Compiled> {
        let mut parts = Vec::with_capacity(items.len());
        let mut total = 0;
        for item in items {
            let part = self.expr(item, namespace)?.fragment;
            total += part.text.len();
            if total > MAX_REGEX_BYTES {
                return Err(self.too_large(item.offset, namespace));
            }
            parts.push(part);
        }
        Ok(Compiled { fragment: join(parts), key: None })
    }

    fn repeat(&self, inner: &Expr, repeat: Repeat, namespace: Namespace) -> Result<Compiled> {
        let inner = self.expr(inner, namespace)?;
        Ok(Compiled { fragment: inner.fragment.repeat(repeat), key: None })
    }

    fn reference(&self, reference: &Expr, namespace: Namespace) -> Result<Compiled> {
        let dependency = self.resolve_reference(reference, namespace)?;
        self.done(dependency.index, reference.offset)
    }

    fn pattern(&self, expr: &Expr, namespace: Namespace) -> Result<Compiled> {
        match PatternKey::of(&expr.kind) {
            Some((key, fragment)) => Ok(Compiled { fragment, key: Some(key) }),
            None => Err(self.error(namespace, expr.offset, "internal error: not a pattern")),
        }
    }

    fn check_size(&self, compiled: Compiled, offset: usize, namespace: Namespace) -> Result<Compiled> {
        if compiled.fragment.text.len() <= MAX_REGEX_BYTES {
            return Ok(compiled);
        }
        Err(self.too_large(offset, namespace))
    }

    fn too_large(&self, offset: usize, namespace: Namespace) -> Error {
        let reason =
            format!("terminal pattern is too large (over {MAX_REGEX_BYTES} bytes once references are inlined)");
        self.error(namespace, offset, reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(value: &str, insensitive: bool) -> Fragment {
        Fragment::literal(&Literal { value: value.into(), insensitive })
    }

    fn re(pattern: &str, flags: &str) -> Fragment {
        Fragment::regex(&RegexLiteral { pattern: pattern.into(), flags: flags.into() })
    }

    #[test]
    fn literals_and_regexes() {
        assert_eq!(lit("a+", false).text, r"a\+");
        assert_eq!(lit("join", true).text, "(?i:join)");
        assert_eq!(re("a|b", "is").text, "(?is:a|b)");
        assert_eq!(pattern_prec("a|b"), Prec::Alternation);
        assert_eq!(pattern_prec("ab"), Prec::Concatenation);
        assert_eq!(pattern_prec("a*"), Prec::Repetition);
        assert_eq!(pattern_prec("[ab]"), Prec::Atom);
        assert_eq!(pattern_prec("(?!a)b"), Prec::Alternation);
    }

    #[test]
    fn groups_are_added_only_where_needed() {
        let seq = Fragment::sequence(vec![re("a|b", ""), lit("c", false), re("[d]", "")]);
        assert_eq!(seq.text, "(?:a|b)c[d]");
        assert_eq!(seq.repeat(Repeat::OneOrMore).text, "(?:(?:a|b)c[d])+");
        assert_eq!(re("[d]", "").repeat(Repeat::Between(2, 3)).text, "[d]{2,3}");
        let lazy = re(".*?", "").repeat(Repeat::Optional);
        assert_eq!(lazy.text, "(?:.*?)?");
        assert_eq!(Fragment::choice(vec![lit("ab", false), seq]).text, "ab|(?:a|b)c[d]");
    }

    #[test]
    fn ranges() {
        let range = CharRange { first: 'a', last: 'z', insensitive: false };
        assert_eq!(Fragment::range(range).text, "[a-z]");
        let range = CharRange { first: '-', last: ']', insensitive: true };
        assert_eq!(Fragment::range(range).text, r"(?i:[\--\]])");
    }
}
