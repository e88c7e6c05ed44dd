//! Recursive-descent parser from Lark grammar text to [`Item`]s.
//!
//! It follows Lark's grammar of grammars (`lark/grammars/lark.lark`): items separated by
//! newlines, `expansions: alias (_NL? "|" alias)*`, `alias: expansion ["->" RULE]`,
//! `expansion: expr*`, `expr: atom [OP | "~" NUMBER [".." NUMBER]]`.

use super::literal::decode_string;
use super::pyregex;
use super::scanner::{Scanner, Tok, Token};
use super::syntax::{
    CharRange, Definition, Expr, ExprKind, ImportedName, Item, Literal, Name, RegexLiteral, Repeat, TerminalDefinition,
};
use crate::error::{Error, Position, Result};
use std::collections::VecDeque;

/// Parses a whole grammar. Parentheses and brackets nested deeper than `max_nesting`
/// are an error.
pub(super) fn parse(text: &str, max_nesting: usize) -> Result<Vec<Item>> {
    Parser { text, scanner: Scanner::new(text), lookahead: VecDeque::new(), depth: 0, max_nesting }.items()
}

/// Where an expression is written: terminals and `%ignore` patterns cannot refer to
/// rules nor carry aliases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Context {
    Rule,
    Terminal,
}

struct Parser<'t> {
    text: &'t str,
    scanner: Scanner<'t>,
    lookahead: VecDeque<Token<'t>>,
    depth: usize,
    max_nesting: usize,
}

impl<'t> Parser<'t> {
    fn peek_nth(&mut self, n: usize) -> Result<Token<'t>> {
        while self.lookahead.len() <= n {
            let token = self.scanner.next_token()?;
            self.lookahead.push_back(token);
        }
        Ok(self.lookahead[n])
    }

    fn peek(&mut self) -> Result<Token<'t>> {
        self.peek_nth(0)
    }

    fn advance(&mut self) -> Result<Token<'t>> {
        let token = self.peek()?;
        self.lookahead.pop_front();
        Ok(token)
    }

    fn error(&self, offset: usize, reason: impl Into<String>) -> Error {
        Error::grammar(self.text, offset, reason)
    }

    fn unexpected(&self, token: Token<'_>, expected: &str) -> Error {
        self.error(token.start, format!("expected {expected}, found {}", token.tok.describe()))
    }

    fn expect(&mut self, tok: Tok<'_>, expected: &str) -> Result<Token<'t>> {
        let token = self.advance()?;
        if token.tok == tok {
            Ok(token)
        } else {
            Err(self.unexpected(token, expected))
        }
    }

    fn items(&mut self) -> Result<Vec<Item>> {
        let mut items = Vec::new();
        loop {
            let token = self.peek()?;
            match token.tok {
                Tok::Eof => return Ok(items),
                Tok::Newline => {
                    self.advance()?;
                }
                _ => {
                    items.extend(self.item()?);
                    self.end_of_item()?;
                }
            }
        }
    }

    fn end_of_item(&mut self) -> Result<()> {
        let token = self.peek()?;
        match token.tok {
            Tok::Newline | Tok::Eof => Ok(()),
            _ => Err(self.error(token.start, format!("unexpected {}", token.tok.describe()))),
        }
    }

    /// One definition or directive; `None` for a directive that produces nothing.
    fn item(&mut self) -> Result<Option<Item>> {
        let token = self.peek()?;
        match token.tok {
            Tok::Directive(name) => {
                self.advance()?;
                self.directive(name, token.start)
            }
            Tok::Question | Tok::Bang | Tok::RuleName(_) => self.rule().map(Some),
            Tok::TermName(_) => self.terminal().map(Some),
            _ => Err(self.unexpected(token, "a rule, a terminal or a directive")),
        }
    }

    /// `[!?]name[.priority]: expansions`
    fn rule(&mut self) -> Result<Item> {
        while matches!(self.peek()?.tok, Tok::Question | Tok::Bang) {
            self.advance()?;
        }
        let token = self.advance()?;
        let Tok::RuleName(name) = token.tok else {
            return Err(self.unexpected(token, "a rule name after the rule modifiers `?`/`!`"));
        };
        self.reject_template()?;
        self.priority()?;
        self.expect(Tok::Colon, "`:` after the rule name")?;
        let body = self.expansions(Context::Rule)?;
        Ok(Item::Rule(Definition { name: Name { text: name.to_string(), offset: token.start }, body }))
    }

    /// `NAME[.priority]: expansions`
    fn terminal(&mut self) -> Result<Item> {
        let token = self.advance()?;
        let Tok::TermName(name) = token.tok else {
            return Err(self.unexpected(token, "a terminal name"));
        };
        self.reject_template()?;
        let priority = self.priority()?.unwrap_or(0);
        let Ok(priority) = i32::try_from(priority) else {
            return Err(self.error(token.start, format!("priority {priority} is out of range")));
        };
        self.expect(Tok::Colon, "`:` after the terminal name")?;
        let body = self.expansions(Context::Terminal)?;
        if matches!(&body.kind, ExprKind::Sequence(items) if items.is_empty()) {
            return Err(self.error(token.start, format!("terminal `{name}` has an empty definition")));
        }
        Ok(Item::Terminal(TerminalDefinition {
            name: Name { text: name.to_string(), offset: token.start },
            priority,
            body,
        }))
    }

    fn reject_template(&mut self) -> Result<()> {
        let token = self.peek()?;
        if token.tok == Tok::LBrace {
            return Err(self.error(token.start, "templates (`name{...}`) are not supported"));
        }
        Ok(())
    }

    /// An optional `.N` priority.
    fn priority(&mut self) -> Result<Option<i64>> {
        if self.peek()?.tok != Tok::Dot {
            return Ok(None);
        }
        self.advance()?;
        self.number("an integer priority after `.`").map(Some)
    }

    fn number(&mut self, expected: &str) -> Result<i64> {
        let token = self.advance()?;
        let Tok::Number(digits) = token.tok else {
            return Err(self.unexpected(token, expected));
        };
        digits.parse().map_err(|_| self.error(token.start, format!("number {digits} is out of range")))
    }

    fn directive(&mut self, name: &str, start: usize) -> Result<Option<Item>> {
        match name {
            "ignore" => self.ignore(start).map(Some),
            "import" => self.import().map(Some),
            "declare" => self.declare(start).map(Some),
            "llguidance" => Ok(None),
            "override" | "extend" => Err(self.error(start, format!("`%{name}` is not supported"))),
            _ => Err(self.error(start, format!("unknown directive `%{name}`"))),
        }
    }

    fn ignore(&mut self, start: usize) -> Result<Item> {
        let body = self.expansions(Context::Terminal)?;
        if matches!(&body.kind, ExprKind::Sequence(items) if items.is_empty()) {
            return Err(self.error(start, "`%ignore` expects a terminal or a pattern"));
        }
        Ok(Item::Ignore(body))
    }

    fn declare(&mut self, start: usize) -> Result<Item> {
        let mut names = Vec::new();
        loop {
            let token = self.peek()?;
            match token.tok {
                Tok::TermName(name) => names.push(Name { text: name.to_string(), offset: token.start }),
                Tok::RuleName(name) => {
                    return Err(
                        self.error(token.start, format!("only terminals can be declared; `{name}` is a rule name"))
                    )
                }
                _ if names.is_empty() => return Err(self.error(start, "`%declare` expects terminal names")),
                _ => return Ok(Item::Declare(names)),
            }
            self.advance()?;
        }
    }

    /// `%import common.NAME [-> LOCAL]` or `%import common (A, B, ...)`.
    fn import(&mut self) -> Result<Item> {
        let first = self.peek()?;
        if first.tok == Tok::Dot {
            return Err(
                self.error(first.start, "relative imports are not supported: only `%import common...` is available")
            );
        }
        let mut path = vec![self.name()?];
        while self.peek()?.tok == Tok::Dot {
            self.advance()?;
            path.push(self.name()?);
        }
        if path[0].text != "common" || path.len() > 2 {
            let dotted: Vec<&str> = path.iter().map(|n| n.text.as_str()).collect();
            let reason =
                format!("cannot import `{}`: only the built-in `common` library is available", dotted.join("."));
            return Err(self.error(first.start, reason));
        }
        let names = match path.pop() {
            Some(remote) if !path.is_empty() => vec![self.import_alias(remote)?],
            _ => {
                self.expect(Tok::LParen, "`.NAME` or `(NAME, ...)` after `%import common`")?;
                self.name_list()?.into_iter().map(|name| ImportedName { local: name.clone(), remote: name }).collect()
            }
        };
        for imported in &names {
            self.check_imported_names(imported)?;
        }
        Ok(Item::Import(names))
    }

    fn import_alias(&mut self, remote: Name) -> Result<ImportedName> {
        if self.peek()?.tok != Tok::Arrow {
            return Ok(ImportedName { local: remote.clone(), remote });
        }
        self.advance()?;
        let local = self.name()?;
        Ok(ImportedName { remote, local })
    }

    fn name_list(&mut self) -> Result<Vec<Name>> {
        let mut names = vec![self.name()?];
        loop {
            let token = self.advance()?;
            match token.tok {
                Tok::Comma => names.push(self.name()?),
                Tok::RParen => return Ok(names),
                _ => return Err(self.unexpected(token, "`,` or `)` in the import list")),
            }
        }
    }

    fn check_imported_names(&self, imported: &ImportedName) -> Result<()> {
        let is_terminal = |name: &Name| name.text.bytes().find(|&b| b != b'_').is_some_and(|b| b.is_ascii_uppercase());
        if !is_terminal(&imported.remote) {
            let reason =
                format!("the `common` library defines only terminals; `{}` is a rule name", imported.remote.text);
            return Err(self.error(imported.remote.offset, reason));
        }
        if !is_terminal(&imported.local) {
            let reason = format!("an imported terminal needs a terminal name, not `{}`", imported.local.text);
            return Err(self.error(imported.local.offset, reason));
        }
        Ok(())
    }

    fn name(&mut self) -> Result<Name> {
        let token = self.advance()?;
        match token.tok {
            Tok::RuleName(name) | Tok::TermName(name) => Ok(Name { text: name.to_string(), offset: token.start }),
            _ => Err(self.unexpected(token, "a name")),
        }
    }

    // `expansions`, `expansion` and `atom` recurse once per level of parentheses: they
    // keep small frames and leave error reporting and leaf parsing to other functions.

    /// `alias (_NL? "|" alias)*` where `alias: expansion ["->" RULE]`.
    fn expansions(&mut self, context: Context) -> Result<Expr> {
        let offset = self.peek()?.start;
        let mut alternatives = Vec::new();
        loop {
            alternatives.push(self.expansion(context)?);
            self.skip_alias_name(context)?;
            if !self.next_alternative()? {
                return Ok(group(alternatives, offset, ExprKind::Choice));
            }
        }
    }

    /// Consumes `|`, or a line break followed by `|`; whether there was one.
    fn next_alternative(&mut self) -> Result<bool> {
        let separator_len = match (self.peek()?.tok, self.peek_nth(1)?.tok) {
            (Tok::Pipe, _) => 1,
            (Tok::Newline, Tok::Pipe) => 2,
            _ => return Ok(false),
        };
        for _ in 0..separator_len {
            self.advance()?;
        }
        Ok(true)
    }

    /// An optional `-> name`, which only names Lark's tree nodes, so it is dropped.
    fn skip_alias_name(&mut self, context: Context) -> Result<()> {
        let token = self.peek()?;
        if token.tok != Tok::Arrow {
            return Ok(());
        }
        if context == Context::Terminal {
            return Err(self.error(token.start, "aliases (`->`) are not allowed in terminals"));
        }
        self.advance()?;
        let name = self.advance()?;
        match name.tok {
            Tok::RuleName(_) => Ok(()),
            _ => Err(self.unexpected(name, "a rule name after `->`")),
        }
    }

    /// `expr*` where `expr: atom [? | * | + | ~ n | ~ n..m]`.
    fn expansion(&mut self, context: Context) -> Result<Expr> {
        let offset = self.peek()?.start;
        let mut items = Vec::new();
        while starts_expr(self.peek()?.tok) {
            let atom = self.atom(context)?;
            items.push(self.postfix(atom)?);
        }
        Ok(group(items, offset, ExprKind::Sequence))
    }

    /// `( expansions )`, `[ expansions ]` or a leaf.
    fn atom(&mut self, context: Context) -> Result<Expr> {
        let open = self.advance()?;
        let close = match open.tok {
            Tok::LParen => Tok::RParen,
            Tok::LBracket => Tok::RBracket,
            _ => return self.leaf(context, open),
        };
        self.enter_nesting(open)?;
        let inner = self.expansions(context);
        self.depth -= 1;
        let inner = inner?;
        self.close_nesting(open, close)?;
        if close == Tok::RParen {
            return Ok(inner);
        }
        Ok(Expr { kind: ExprKind::Repeat(Box::new(inner), Repeat::Optional), offset: open.start })
    }

    fn enter_nesting(&mut self, open: Token<'_>) -> Result<()> {
        if self.depth >= self.max_nesting {
            return Err(
                self.error(open.start, format!("expressions nested more than {} levels deep", self.max_nesting))
            );
        }
        self.depth += 1;
        Ok(())
    }

    fn close_nesting(&mut self, open: Token<'_>, close: Tok<'_>) -> Result<()> {
        let token = self.advance()?;
        if token.tok == close {
            return Ok(());
        }
        let at = Position::of_offset(self.text, open.start);
        let expected = format!("{} to close the {} at {at}", close.describe(), open.tok.describe());
        Err(self.unexpected(token, &expected))
    }

    /// A repetition operator after an atom, if any.
    fn postfix(&mut self, atom: Expr) -> Result<Expr> {
        let token = self.peek()?;
        let repeat = match token.tok {
            Tok::Question => Repeat::Optional,
            Tok::Star => Repeat::ZeroOrMore,
            Tok::Plus => Repeat::OneOrMore,
            Tok::Tilde => self.repetition_range()?,
            _ => return Ok(atom),
        };
        if token.tok != Tok::Tilde {
            self.advance()?;
        }
        let next = self.peek()?;
        if matches!(next.tok, Tok::Question | Tok::Star | Tok::Plus | Tok::Tilde) {
            let reason = format!(
                "misplaced operator {}: wrap the expression in parentheses to repeat it again",
                next.tok.describe()
            );
            return Err(self.error(next.start, reason));
        }
        let offset = atom.offset;
        Ok(Expr { kind: ExprKind::Repeat(Box::new(atom), repeat), offset })
    }

    /// `~ n` or `~ n..m`
    fn repetition_range(&mut self) -> Result<Repeat> {
        let tilde = self.advance()?;
        let min = self.count()?;
        let max = if self.peek()?.tok == Tok::DotDot {
            self.advance()?;
            self.count()?
        } else {
            min
        };
        if max < min {
            return Err(self.error(tilde.start, format!("bad repetition range {min}..{max}")));
        }
        Ok(Repeat::Between(min, max))
    }

    fn count(&mut self) -> Result<u32> {
        let offset = self.peek()?.start;
        let n = self.number("a repetition count")?;
        u32::try_from(n)
            .map_err(|_| self.error(offset, format!("repetition count {n} must be between 0 and {}", u32::MAX)))
    }

    /// A literal, regex, range or name (`token` already consumed).
    fn leaf(&mut self, context: Context, token: Token<'t>) -> Result<Expr> {
        let kind = match token.tok {
            Tok::Str { body, insensitive } => self.string_or_range(token.start, body, insensitive)?,
            Tok::Regex { body, flags } => ExprKind::Regex(self.regex(token.start, body, flags)?),
            Tok::RuleName(name) if context == Context::Terminal => {
                return Err(
                    self.error(token.start, format!("rule `{name}` cannot be used inside a terminal or `%ignore`"))
                )
            }
            Tok::RuleName(name) => {
                self.reject_template()?;
                ExprKind::Rule(name.to_string())
            }
            Tok::TermName(name) => {
                self.reject_template()?;
                ExprKind::Terminal(name.to_string())
            }
            _ => return Err(self.unexpected(token, "an expression")),
        };
        Ok(Expr { kind, offset: token.start })
    }

    fn string_or_range(&mut self, start: usize, body: &str, insensitive: bool) -> Result<ExprKind> {
        let value = self.string_value(start, body)?;
        if self.peek()?.tok != Tok::DotDot {
            if value.is_empty() {
                return Err(self.error(start, "empty string literal (a terminal cannot match the empty string)"));
            }
            return Ok(ExprKind::Literal(Literal { value, insensitive }));
        }
        self.advance()?;
        let token = self.advance()?;
        let Tok::Str { body: last_body, insensitive: last_insensitive } = token.tok else {
            return Err(self.unexpected(token, "a string after `..`"));
        };
        let last = self.string_value(token.start, last_body)?;
        let (Some(first), Some(last)) = (single_char(&value), single_char(&last)) else {
            return Err(self.error(start, "a range needs one-character strings, as in \"a\"..\"z\""));
        };
        if last < first {
            return Err(self.error(start, format!("empty range: {first:?} comes after {last:?}")));
        }
        Ok(ExprKind::Range(CharRange { first, last, insensitive: insensitive || last_insensitive }))
    }

    fn string_value(&self, start: usize, body: &str) -> Result<String> {
        decode_string(body).map_err(|reason| self.error(start, format!("invalid string literal: {reason}")))
    }

    fn regex(&self, start: usize, body: &str, flags: &str) -> Result<RegexLiteral> {
        for flag in flags.chars() {
            match flag {
                'i' | 'm' | 's' | 'u' | 'x' => {}
                'l' => return Err(self.error(start, "regex flag `l` (locale) is not supported")),
                _ => return Err(self.error(start, format!("unknown regex flag `{flag}` (allowed: i, m, s, u, x)"))),
            }
        }
        let pattern = pyregex::translate(body, flags.contains('x'))
            .map_err(|reason| self.error(start, format!("invalid regular expression: {reason}")))?;
        let flags = ['i', 'm', 's'].into_iter().filter(|&f| flags.contains(f)).collect();
        Ok(RegexLiteral { pattern, flags })
    }
}

/// One item as itself, several as a choice or sequence (`make`), none as the empty
/// sequence.
fn group(mut items: Vec<Expr>, offset: usize, make: fn(Vec<Expr>) -> ExprKind) -> Expr {
    if items.len() == 1 {
        return items.remove(0);
    }
    Expr { kind: make(items), offset }
}

fn starts_expr(tok: Tok<'_>) -> bool {
    matches!(
        tok,
        Tok::LParen | Tok::LBracket | Tok::Str { .. } | Tok::Regex { .. } | Tok::RuleName(_) | Tok::TermName(_)
    )
}

fn single_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Vec<Item> {
        parse(text, 100).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    fn error_at(text: &str) -> (u32, u32, String) {
        match parse(text, 100) {
            Err(Error::Grammar { position, reason }) => (position.line, position.column, reason),
            other => panic!("{text:?}: expected a grammar error, got {other:?}"),
        }
    }

    fn body(item: &Item) -> &Expr {
        match item {
            Item::Rule(d) => &d.body,
            Item::Terminal(t) => &t.body,
            Item::Ignore(e) => e,
            _ => panic!("no body"),
        }
    }

    #[test]
    fn rules_with_modifiers_priority_and_continuation_lines() {
        let items = parse_ok("!?a.2: b -> x\n  | \"c\" // comment\n\n| [d]\nB.-1: /x/");
        assert_eq!(items.len(), 2);
        let ExprKind::Choice(alts) = &body(&items[0]).kind else { panic!() };
        assert_eq!(alts.len(), 3);
        assert!(matches!(&alts[2].kind, ExprKind::Repeat(_, Repeat::Optional)));
        let Item::Terminal(t) = &items[1] else { panic!() };
        assert_eq!((t.name.text.as_str(), t.priority), ("B", -1));
    }

    #[test]
    fn repetition_and_ranges() {
        let items = parse_ok("a: b~3 c~2..5 \"a\"..\"z\"");
        let ExprKind::Sequence(seq) = &body(&items[0]).kind else { panic!() };
        assert!(matches!(seq[0].kind, ExprKind::Repeat(_, Repeat::Between(3, 3))));
        assert!(matches!(seq[1].kind, ExprKind::Repeat(_, Repeat::Between(2, 5))));
        assert!(matches!(seq[2].kind, ExprKind::Range(CharRange { first: 'a', last: 'z', .. })));
    }

    #[test]
    fn directives() {
        let items = parse_ok(
            "%import common.WS\n%import common.INT -> NUM\n%import common (A, B)\n%declare X Y\n%ignore WS\n%llguidance {}",
        );
        assert_eq!(items.len(), 5);
        let Item::Import(names) = &items[1] else { panic!() };
        assert_eq!((names[0].remote.text.as_str(), names[0].local.text.as_str()), ("INT", "NUM"));
        let Item::Import(names) = &items[2] else { panic!() };
        assert_eq!(names.len(), 2);
    }

    #[test]
    fn errors_point_at_the_offending_place() {
        assert_eq!(error_at("a: (b\nc: d").0, 1);
        assert_eq!(error_at("a: b\nc d").0, 2);
        assert_eq!(error_at("a: b\nc d").1, 3);
        assert_eq!(error_at("a: b??").1, 6);
        assert_eq!(error_at("a: b~3..2").1, 5);
        assert_eq!(error_at("A: b").1, 4);
        assert_eq!(error_at("A: \"x\" -> y").1, 8);
        assert_eq!(error_at("a{x}: b").1, 2);
        assert_eq!(error_at("%import .foo.A").1, 9);
        assert_eq!(error_at("%import lark.A").1, 9);
        assert_eq!(error_at("%override a: b").1, 1);
        assert_eq!(error_at("a: /x/l").1, 4);
        assert_eq!(error_at("a: \"\"").1, 4);
        assert_eq!(error_at("a: \"ab\"..\"z\"").1, 4);
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = format!("a: {}b{}", "(".repeat(101), ")".repeat(101));
        assert!(error_at(&deep).2.contains("nested"));
        let ok = format!("a: {}b{}", "(".repeat(100), ")".repeat(100));
        parse_ok(&ok);
    }
}
