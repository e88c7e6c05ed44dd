//! The tokens of the Lark grammar language and the scanner that produces them.
//!
//! Whitespace, `//` and `#` comments and backslash line continuations are skipped. A run
//! of line breaks (with the blank lines and comment lines between them) becomes one
//! [`Tok::Newline`]: items are separated by newlines, and an alternative may continue
//! on the next line when that line starts with `|`.

use crate::error::{Error, Result};

/// A token kind, borrowing its text from the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tok<'t> {
    /// One or more line breaks.
    Newline,
    /// A rule name: `_?[a-z][_a-z0-9]*`.
    RuleName(&'t str),
    /// A terminal name: `_?[A-Z][_A-Z0-9]*`.
    TermName(&'t str),
    /// A string literal: the text between the quotes (escapes not yet decoded).
    Str {
        body: &'t str,
        insensitive: bool,
    },
    /// A regex literal: the text between the slashes (escapes untouched) and its flags.
    Regex {
        body: &'t str,
        flags: &'t str,
    },
    /// An integer, possibly negative.
    Number(&'t str),
    /// `%name`. For `%llguidance` the token also covers the JSON object that follows.
    Directive(&'t str),
    Colon,
    Pipe,
    Arrow,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Dot,
    DotDot,
    Tilde,
    Question,
    Star,
    Plus,
    Bang,
    /// End of the text.
    Eof,
}

impl Tok<'_> {
    /// How the token reads in an error message.
    pub(super) fn describe(&self) -> String {
        let fixed = match self {
            Tok::Newline => "end of line",
            Tok::RuleName(n) | Tok::TermName(n) => return format!("name `{n}`"),
            Tok::Str { .. } => "string literal",
            Tok::Regex { .. } => "regular expression",
            Tok::Number(n) => return format!("number `{n}`"),
            Tok::Directive(d) => return format!("`%{d}`"),
            Tok::Colon => "`:`",
            Tok::Pipe => "`|`",
            Tok::Arrow => "`->`",
            Tok::LParen => "`(`",
            Tok::RParen => "`)`",
            Tok::LBracket => "`[`",
            Tok::RBracket => "`]`",
            Tok::LBrace => "`{`",
            Tok::RBrace => "`}`",
            Tok::Comma => "`,`",
            Tok::Dot => "`.`",
            Tok::DotDot => "`..`",
            Tok::Tilde => "`~`",
            Tok::Question => "`?`",
            Tok::Star => "`*`",
            Tok::Plus => "`+`",
            Tok::Bang => "`!`",
            Tok::Eof => "end of grammar",
        };
        fixed.to_string()
    }
}

/// A token and the byte offset where it starts.
#[derive(Clone, Copy, Debug)]
pub(super) struct Token<'t> {
    /// What was read.
    pub tok: Tok<'t>,
    /// Byte offset of its first character.
    pub start: usize,
}

/// Reads tokens one at a time from a grammar text.
pub(super) struct Scanner<'t> {
    text: &'t str,
    pos: usize,
}

impl<'t> Scanner<'t> {
    /// A scanner at the start of `text`, after a byte-order mark if there is one.
    pub(super) fn new(text: &'t str) -> Self {
        let pos = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
        Scanner { text, pos }
    }

    /// The next token; [`Tok::Eof`] forever once the text is exhausted.
    pub(super) fn next_token(&mut self) -> Result<Token<'t>> {
        self.skip_inline_space();
        let start = self.pos;
        let Some(c) = self.peek_byte(0) else {
            return Ok(Token { tok: Tok::Eof, start });
        };
        let tok = match c {
            b'\n' => self.newline(),
            b'"' => self.string()?,
            b'/' => self.regex()?,
            b'%' => self.directive()?,
            b'_' | b'a'..=b'z' | b'A'..=b'Z' => self.name()?,
            b'0'..=b'9' => self.number(),
            b'-' => match self.peek_byte(1) {
                Some(b'>') => self.punct(2, Tok::Arrow),
                Some(b'0'..=b'9') => self.number(),
                _ => return Err(self.error(start, "unexpected `-`")),
            },
            b'.' if self.peek_byte(1) == Some(b'.') => self.punct(2, Tok::DotDot),
            _ => self.single_char_token(c)?,
        };
        Ok(Token { tok, start })
    }

    fn single_char_token(&mut self, c: u8) -> Result<Tok<'t>> {
        let tok = match c {
            b':' => Tok::Colon,
            b'|' => Tok::Pipe,
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b',' => Tok::Comma,
            b'.' => Tok::Dot,
            b'~' => Tok::Tilde,
            b'?' => Tok::Question,
            b'*' => Tok::Star,
            b'+' => Tok::Plus,
            b'!' => Tok::Bang,
            _ => {
                let ch = self.text[self.pos..].chars().next().unwrap_or('?');
                return Err(self.error(self.pos, format!("unexpected character `{}`", ch.escape_debug())));
            }
        };
        Ok(self.punct(1, tok))
    }

    fn punct(&mut self, len: usize, tok: Tok<'t>) -> Tok<'t> {
        self.pos += len;
        tok
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.text.as_bytes().get(self.pos + ahead).copied()
    }

    fn error(&self, offset: usize, reason: impl Into<String>) -> Error {
        Error::grammar(self.text, offset, reason)
    }

    /// Skips spaces, tabs, comments and backslash-newline continuations, stopping at a
    /// line break.
    fn skip_inline_space(&mut self) {
        while let Some(c) = self.peek_byte(0) {
            match c {
                b' ' | b'\t' | b'\r' | b'\x0c' => self.pos += 1,
                b'/' if self.peek_byte(1) == Some(b'/') => self.skip_to_line_end(),
                b'#' => self.skip_to_line_end(),
                b'\\' if self.at_line_continuation() => self.skip_line_continuation(),
                _ => break,
            }
        }
    }

    fn skip_to_line_end(&mut self) {
        let rest = &self.text.as_bytes()[self.pos..];
        self.pos += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    }

    fn at_line_continuation(&self) -> bool {
        let rest = &self.text.as_bytes()[self.pos + 1..];
        let blanks = rest.iter().take_while(|&&b| b == b' ' || b == b'\t' || b == b'\r').count();
        rest.get(blanks) == Some(&b'\n')
    }

    fn skip_line_continuation(&mut self) {
        self.skip_to_line_end();
        self.pos += 1;
    }

    /// A run of line breaks, blank lines and comment lines.
    fn newline(&mut self) -> Tok<'t> {
        while self.peek_byte(0) == Some(b'\n') {
            self.pos += 1;
            self.skip_inline_space();
        }
        Tok::Newline
    }

    /// `"..."` optionally followed by `i`. A string cannot span lines.
    fn string(&mut self) -> Result<Tok<'t>> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut i = start + 1;
        loop {
            match bytes.get(i) {
                None | Some(b'\n') => return Err(self.error(start, "unterminated string literal")),
                Some(b'\\') if matches!(bytes.get(i + 1), None | Some(b'\n')) => {
                    return Err(self.error(start, "unterminated string literal"))
                }
                Some(b'\\') => i += 2,
                Some(b'"') => break,
                Some(_) => i += 1,
            }
        }
        let body = &self.text[start + 1..i];
        self.pos = i + 1;
        let insensitive = self.peek_byte(0) == Some(b'i');
        if insensitive {
            self.pos += 1;
        }
        Ok(Tok::Str { body, insensitive })
    }

    /// `/.../flags`. A regex may span lines only with the `x` (verbose) flag.
    fn regex(&mut self) -> Result<Tok<'t>> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut i = start + 1;
        let mut spans_lines = false;
        loop {
            match bytes.get(i) {
                None => return Err(self.error(start, "unterminated regular expression")),
                Some(b'\\') if i + 1 >= bytes.len() => return Err(self.error(start, "unterminated regular expression")),
                Some(b'\\') => i += 2,
                Some(b'/') => break,
                Some(c) => {
                    spans_lines |= *c == b'\n';
                    i += 1;
                }
            }
        }
        let body = &self.text[start + 1..i];
        let flags_start = i + 1;
        let flags_len = bytes[flags_start..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let flags = &self.text[flags_start..flags_start + flags_len];
        if spans_lines && !flags.contains('x') {
            return Err(
                self.error(start, "unterminated regular expression (only a regex with the `x` flag may span lines)")
            );
        }
        self.pos = flags_start + flags_len;
        Ok(Tok::Regex { body, flags })
    }

    /// `%name`; `%llguidance` swallows the JSON object after it.
    fn directive(&mut self) -> Result<Tok<'t>> {
        let start = self.pos;
        self.pos += 1;
        let name = self.take_while(|b| b.is_ascii_alphanumeric() || b == b'_');
        if name.is_empty() {
            return Err(self.error(start, "expected a directive name after `%`"));
        }
        if name == "llguidance" {
            self.skip_json_object(start)?;
        }
        Ok(Tok::Directive(name))
    }

    /// Skips a balanced `{...}` JSON object, which may span lines.
    fn skip_json_object(&mut self, directive_start: usize) -> Result<()> {
        self.skip_inline_space();
        if self.peek_byte(0) != Some(b'{') {
            return Err(self.error(self.pos, "expected a JSON object after `%llguidance`"));
        }
        let bytes = self.text.as_bytes();
        let mut depth = 0usize;
        let mut in_string = false;
        let mut i = self.pos;
        while let Some(&b) = bytes.get(i) {
            i += 1;
            match (in_string, b) {
                (true, b'\\') => i += 1,
                (true, b'"') | (false, b'"') => in_string = !in_string,
                (false, b'{') => depth += 1,
                (false, b'}') => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = i;
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err(self.error(directive_start, "unterminated JSON object after `%llguidance`"))
    }

    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> &'t str {
        let start = self.pos;
        let len = self.text.as_bytes()[start..].iter().take_while(|&&b| keep(b)).count();
        self.pos += len;
        &self.text[start..self.pos]
    }

    fn number(&mut self) -> Tok<'t> {
        let start = self.pos;
        if self.peek_byte(0) == Some(b'-') {
            self.pos += 1;
        }
        self.take_while(|b| b.is_ascii_digit());
        Tok::Number(&self.text[start..self.pos])
    }

    fn name(&mut self) -> Result<Tok<'t>> {
        let start = self.pos;
        let name = self.take_while(|b| b.is_ascii_alphanumeric() || b == b'_');
        classify_name(name).map_err(|reason| self.error(start, reason))
    }
}

/// Sorts a name into a rule or a terminal name, following Lark's spelling rules.
fn classify_name(name: &str) -> Result<Tok<'_>, String> {
    if name.starts_with("__") {
        return Err(format!("invalid name `{name}`: names starting with `__` are reserved"));
    }
    let stem = name.strip_prefix('_').unwrap_or(name);
    let first = stem.bytes().next();
    let rest_is = |ok: fn(&u8) -> bool| stem.bytes().skip(1).all(|b| b == b'_' || b.is_ascii_digit() || ok(&b));
    match first {
        Some(b'a'..=b'z') if rest_is(u8::is_ascii_lowercase) => Ok(Tok::RuleName(name)),
        Some(b'A'..=b'Z') if rest_is(u8::is_ascii_uppercase) => Ok(Tok::TermName(name)),
        _ => Err(format!(
            "invalid name `{name}`: rule names are lowercase (`_?[a-z][_a-z0-9]*`), \
             terminal names uppercase (`_?[A-Z][_A-Z0-9]*`)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok<'_>> {
        let mut scanner = Scanner::new(text);
        let mut out = Vec::new();
        loop {
            let token = scanner.next_token().unwrap();
            if token.tok == Tok::Eof {
                return out;
            }
            out.push(token.tok);
        }
    }

    #[test]
    fn names_literals_and_punctuation() {
        assert_eq!(
            kinds(r#"?a.2: B "x"i /y/is -> c ~ 1..-2"#),
            vec![
                Tok::Question,
                Tok::RuleName("a"),
                Tok::Dot,
                Tok::Number("2"),
                Tok::Colon,
                Tok::TermName("B"),
                Tok::Str { body: "x", insensitive: true },
                Tok::Regex { body: "y", flags: "is" },
                Tok::Arrow,
                Tok::RuleName("c"),
                Tok::Tilde,
                Tok::Number("1"),
                Tok::DotDot,
                Tok::Number("-2"),
            ]
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(kinds("\u{feff}a"), vec![Tok::RuleName("a")]);
    }

    #[test]
    fn comments_and_blank_lines_collapse_into_one_newline() {
        assert_eq!(
            kinds("a // c\n\n  # c\n\t\n| b \\\n c"),
            vec![Tok::RuleName("a"), Tok::Newline, Tok::Pipe, Tok::RuleName("b"), Tok::RuleName("c")]
        );
    }

    #[test]
    fn escapes_do_not_end_literals() {
        assert_eq!(kinds(r#""a\"b""#), vec![Tok::Str { body: r#"a\"b"#, insensitive: false }]);
        assert_eq!(kinds(r"/a\/b/"), vec![Tok::Regex { body: r"a\/b", flags: "" }]);
    }

    #[test]
    fn llguidance_directive_swallows_its_json() {
        assert_eq!(
            kinds("%llguidance {\"a\": {\"b\": \"}\"}}\nstart"),
            vec![Tok::Directive("llguidance"), Tok::Newline, Tok::RuleName("start")]
        );
    }

    #[test]
    fn bad_input_is_an_error() {
        for text in ["\"abc", "\"abc\ndef\"", "/abc", "/ab\nc/", "Foo", "__x", "@", "%", "-", "\"\\"] {
            let mut scanner = Scanner::new(text);
            let result = (0..4).try_for_each(|_| scanner.next_token().map(drop));
            assert!(matches!(result, Err(Error::Grammar { .. })), "{text:?}");
        }
    }
}
