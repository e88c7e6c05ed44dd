//! Translation of Python `re` syntax, in which Lark grammars write their regexes, into
//! [`regex_syntax`] syntax.
//!
//! Only spelling differences are translated; the structure of the pattern is kept, so a
//! construct that has no regular equivalent (lookaround, backreferences, possessive
//! quantifiers) passes through unchanged and is reported by the lexer stage.
//!
//! | Python | regex-syntax |
//! |---|---|
//! | `\Z` | `\z` |
//! | `\x41`, `\u0041`, `\U00000041`, octal `\101`, `\0` | the character, escaped if needed |
//! | `\a` `\v` `\f` and, in classes, `\b` (backspace) | `\x{..}` |
//! | `\<`, `\-`, `\/`... (escaped punctuation) | the character, escaped only if a metacharacter |
//! | `{` not starting a valid repetition, stray `}` | `\{`, `\}` |
//! | `{,n}`, `{,}` | `{0,n}`, `{0,}` |
//! | `[[]`, `[a&&b]`, `[a~~b]`, `[a--b]` (literal in Python) | escaped class members |
//! | `(?P<name>...)` | `(?:...)` (captures are irrelevant; names could clash once terminals are combined) |
//! | `(?#comment)` | removed |
//! | `x` (verbose) flag | whitespace and `#` comments removed outside classes |
//! | `\w`, `\W` | `[\p{L}\p{N}_]` and its complement (regex-syntax's `\w` adds marks, connector punctuation and joiners) |
//! | `\s`, `\S` | Python's whitespace (`str.isspace`: also `\x1C`–`\x1F`, which regex-syntax's `\s` lacks) and its complement |

use super::literal::{hex_escape, push_literal_char};

/// Python's `\w` in `str` patterns: what `str.isalnum()` holds of (the general
/// categories L and N) and `_`.
const WORD: &str = r"[\p{L}\p{N}_]";
const NOT_WORD: &str = r"[^\p{L}\p{N}_]";
/// Python's `\s` in `str` patterns: what `str.isspace()` holds of.
const SPACE: &str = r"[\t\n\x0B\f\r\x1C-\x1F \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]";
const NOT_SPACE: &str = r"[^\t\n\x0B\f\r\x1C-\x1F \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]";

/// Translates the body of a `/.../` regex literal. `verbose` is the `x` flag.
pub(super) fn translate(body: &str, verbose: bool) -> Result<String, String> {
    let mut translator = Translator { chars: body.chars().collect(), pos: 0, out: String::new(), verbose };
    translator.run()?;
    Ok(translator.out)
}

/// One member of a character class.
enum ClassItem {
    /// A single character.
    Char(char),
    /// A class escape such as `\d`, already in output syntax.
    Set(&'static str),
}

struct Translator {
    chars: Vec<char>,
    pos: usize,
    out: String,
    verbose: bool,
}

impl Translator {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.pos += 1;
        Some(c)
    }

    fn run(&mut self) -> Result<(), String> {
        while let Some(c) = self.next() {
            match c {
                '\\' => self.escape()?,
                '[' => self.class()?,
                '{' => self.brace()?,
                '}' => self.out.push_str(r"\}"),
                '(' => self.group_open()?,
                '#' if self.verbose => self.skip_comment(),
                c if self.verbose && c.is_whitespace() => {}
                c => self.out.push(c),
            }
        }
        Ok(())
    }

    fn skip_comment(&mut self) {
        while self.next().is_some_and(|c| c != '\n') {}
    }

    /// After `(`: drops `(?#...)` comments and group names; keeps anything else.
    fn group_open(&mut self) -> Result<(), String> {
        if self.peek(0) != Some('?') {
            self.out.push('(');
            return Ok(());
        }
        match (self.peek(1), self.peek(2)) {
            (Some('#'), _) => self.skip_until(')').ok_or_else(|| "unterminated `(?#` comment group".to_string()),
            (Some('P'), Some('<')) => {
                self.skip_until('>').ok_or("unterminated group name in `(?P<`")?;
                self.out.push_str("(?:");
                Ok(())
            }
            _ => {
                self.out.push('(');
                Ok(())
            }
        }
    }

    /// Moves past the next `end`; `None` when there is none.
    fn skip_until(&mut self, end: char) -> Option<()> {
        let found = self.chars[self.pos..].iter().position(|&c| c == end)?;
        self.pos += found + 1;
        Some(())
    }

    /// After `\` outside a class.
    fn escape(&mut self) -> Result<(), String> {
        let c = self.next().ok_or("pattern ends with a lone backslash")?;
        match c {
            'w' => self.out.push_str(WORD),
            'W' => self.out.push_str(NOT_WORD),
            's' => self.out.push_str(SPACE),
            'S' => self.out.push_str(NOT_SPACE),
            'd' | 'D' | 'b' | 'B' | 'A' => {
                self.out.push('\\');
                self.out.push(c);
            }
            'Z' => self.out.push_str(r"\z"),
            '1'..='9' if !self.three_octal_digits(c) => self.backreference(c),
            c => match self.char_escape(c)? {
                Some(ch) => push_literal_char(&mut self.out, ch),
                None => {
                    self.out.push('\\');
                    self.out.push(c);
                }
            },
        }
        Ok(())
    }

    /// `\1`...`\99`: not regular; kept as written for the lexer to reject.
    fn backreference(&mut self, first: char) {
        self.out.push('\\');
        self.out.push(first);
        if let Some(d) = self.peek(0).filter(char::is_ascii_digit) {
            self.pos += 1;
            self.out.push(d);
        }
    }

    fn three_octal_digits(&self, first: char) -> bool {
        let octal = |c: Option<char>| c.is_some_and(|c| ('0'..='7').contains(&c));
        octal(Some(first)) && octal(self.peek(0)) && octal(self.peek(1))
    }

    /// The character denoted by the escape `\c` (the backslash already read), or `None`
    /// for an escape letter Python does not define, which is kept as written.
    fn char_escape(&mut self, c: char) -> Result<Option<char>, String> {
        let ch = match c {
            'a' => '\x07',
            'f' => '\x0c',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\x0b',
            'x' | 'u' | 'U' => self.hex(c)?,
            '0'..='7' => self.octal(c)?,
            'N' => return Err("named character escapes (`\\N{...}`) are not supported".into()),
            c if c.is_ascii_alphabetic() => return Ok(None),
            c => c,
        };
        Ok(Some(ch))
    }

    fn hex(&mut self, letter: char) -> Result<char, String> {
        let digits = match letter {
            'x' => 2,
            'u' => 4,
            _ => 8,
        };
        let rest: String = self.chars[self.pos..].iter().take(digits).collect();
        let c = hex_escape(&mut rest.chars(), letter, digits)?;
        self.pos += digits;
        Ok(c)
    }

    /// An octal escape whose first digit is `first`: up to three digits in all.
    fn octal(&mut self, first: char) -> Result<char, String> {
        let mut code = first.to_digit(8).unwrap_or(0);
        for _ in 0..2 {
            match self.peek(0).and_then(|c| c.to_digit(8)) {
                Some(d) => {
                    code = code * 8 + d;
                    self.pos += 1;
                }
                None => break,
            }
        }
        if code > 0o377 {
            return Err(format!("octal escape value {code:#o} is outside the range 0-0o377"));
        }
        char::from_u32(code).ok_or_else(|| "invalid octal escape".to_string())
    }

    /// After `{` outside a class: a repetition if it is one in Python, else a literal `{`.
    fn brace(&mut self) -> Result<(), String> {
        match self.counted_repetition()? {
            Some((len, text)) => {
                self.pos += len;
                self.out.push_str(&text);
            }
            None => self.out.push_str(r"\{"),
        }
        Ok(())
    }

    /// Recognises `{n}`, `{n,}`, `{,m}`, `{n,m}`, `{,}` after the `{`: the number of
    /// characters to consume and the normalised repetition.
    fn counted_repetition(&self) -> Result<Option<(usize, String)>, String> {
        let rest = &self.chars[self.pos..];
        let digits = |from: usize| rest.iter().skip(from).take_while(|c| c.is_ascii_digit()).count();
        let min_len = digits(0);
        let has_comma = rest.get(min_len) == Some(&',');
        let max_len = if has_comma { digits(min_len + 1) } else { 0 };
        let close = min_len + usize::from(has_comma) + max_len;
        if rest.get(close) != Some(&'}') || (min_len == 0 && !has_comma) {
            return Ok(None);
        }
        let number = |from: usize, len: usize| -> Result<Option<u32>, String> {
            if len == 0 {
                return Ok(None);
            }
            let text: String = rest[from..from + len].iter().collect();
            text.parse().map(Some).map_err(|_| format!("repetition count {text} is too large"))
        };
        let min = number(0, min_len)?.unwrap_or(0);
        let max = number(min_len + 1, max_len)?;
        let text = match (has_comma, max) {
            (false, _) => format!("{{{min}}}"),
            (true, None) => format!("{{{min},}}"),
            (true, Some(max)) if max < min => return Err(format!("bad repetition range {{{min},{max}}}")),
            (true, Some(max)) => format!("{{{min},{max}}}"),
        };
        Ok(Some((close + 1, text)))
    }

    /// After `[`: a Python character class, rewritten member by member.
    fn class(&mut self) -> Result<(), String> {
        self.out.push('[');
        if self.peek(0) == Some('^') {
            self.pos += 1;
            self.out.push('^');
        }
        let mut first = true;
        loop {
            let c = self.next().ok_or("unterminated character class")?;
            if c == ']' && !first {
                break;
            }
            first = false;
            let item = self.class_item(c)?;
            self.class_member(item)?;
        }
        self.out.push(']');
        Ok(())
    }

    /// Writes one member, which is the start of a range when followed by `-` and not `]`.
    fn class_member(&mut self, item: ClassItem) -> Result<(), String> {
        let low = match item {
            ClassItem::Set(set) => {
                self.out.push_str(set);
                return Ok(());
            }
            ClassItem::Char(c) => c,
        };
        let is_range = self.peek(0) == Some('-') && self.peek(1).is_some_and(|c| c != ']');
        push_literal_char(&mut self.out, low);
        if !is_range {
            return Ok(());
        }
        self.pos += 1;
        let high = self.next().ok_or("unterminated character class")?;
        let ClassItem::Char(high) = self.class_item(high)? else {
            return Err(format!("bad character range: `{low}-` followed by a class escape"));
        };
        if high < low {
            return Err(format!("bad character range `{}-{}`", low.escape_debug(), high.escape_debug()));
        }
        self.out.push('-');
        push_literal_char(&mut self.out, high);
        Ok(())
    }

    /// Reads one class member starting with `c` (already consumed).
    fn class_item(&mut self, c: char) -> Result<ClassItem, String> {
        if c != '\\' {
            return Ok(ClassItem::Char(c));
        }
        let e = self.next().ok_or("unterminated character class")?;
        let set = match e {
            'd' => r"\d",
            'D' => r"\D",
            'w' => WORD,
            'W' => NOT_WORD,
            's' => SPACE,
            'S' => NOT_SPACE,
            'b' => return Ok(ClassItem::Char('\x08')),
            e => {
                return match self.char_escape(e)? {
                    Some(ch) => Ok(ClassItem::Char(ch)),
                    None => Err(format!("unsupported escape `\\{e}` in a character class")),
                }
            }
        };
        Ok(ClassItem::Set(set))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tr(body: &str) -> String {
        translate(body, false).unwrap()
    }

    #[test]
    fn common_syntax_is_unchanged() {
        for re in [r"[a-zA-Z_][0-9]*", r"(\r?\n[\t ]*)+", r"0x[\da-f]*", r"'([^'])+'|''", r".*?", r"(?:a|b)+?"] {
            assert_eq!(tr(re), re);
        }
    }

    /// `\w` and `\s` as Python's `str` patterns read them, checked against Python 3.11
    /// (Unicode 14) on the characters where regex-syntax's own classes differ.
    #[test]
    fn word_and_space_classes_are_pythons() {
        let class = |re: &str| regex::Regex::new(&format!("^(?:{})$", tr(re))).unwrap();
        let (word, space, not_space, in_class) = (class(r"\w"), class(r"\s"), class(r"\S"), class(r"[^\s]"));
        for c in ['a', 'é', '٣', '²', '_', '中'] {
            assert!(word.is_match(&c.to_string()), "{c:?} is a word character");
        }
        // A combining mark, a zero-width joiner, a connector other than `_`.
        for c in ['\u{301}', '\u{200D}', '‿', '-', ' '] {
            assert!(!word.is_match(&c.to_string()), "{c:?} is no word character");
        }
        for c in ['\u{1C}', '\u{1F}', '\u{85}', '\u{A0}', '\u{3000}', '\t'] {
            assert!(space.is_match(&c.to_string()) && !not_space.is_match(&c.to_string()), "{c:?} is a space");
            assert!(!in_class.is_match(&c.to_string()), "{c:?} is a space in a class");
        }
        assert!(!space.is_match("\u{FEFF}") && not_space.is_match("\u{FEFF}"));
    }

    #[test]
    fn lookaround_passes_through() {
        assert_eq!(tr(r#"("(?!"").*?"|'(?!'').*?')"#), r#"("(?!"").*?"|'(?!'').*?')"#);
        assert_eq!(tr(r"(?<!\\)(\\\\)*?"), r"(?<!\\)(\\\\)*?");
    }

    #[test]
    fn escapes_are_respelled() {
        assert_eq!(tr(r"\/\/[^\n]*"), r"//[^\n]*");
        assert_eq!(tr(r"\<\>\-\Z"), r"<>\-\z");
        assert_eq!(tr(r"\x41\u00e9\101\0\a"), r"AéA\x{0}\x{7}");
        assert_eq!(tr(r"[\b\x2d\]]"), r"[\x{8}\-\]]");
        assert_eq!(tr(r"\1"), r"\1");
    }

    #[test]
    fn braces_and_classes_follow_python() {
        assert_eq!(tr(r"a{2}b{,3}c{1,}d{,}"), r"a{2}b{0,3}c{1,}d{0,}");
        assert_eq!(tr(r"{x}a{"), r"\{x\}a\{");
        assert_eq!(tr(r"[[]"), r"[\[]");
        assert_eq!(tr(r"[]a&&~-]"), r"[\]a\&\&\~\-]");
        assert_eq!(tr(r"[^-a-c-]"), r"[^\-a-c\-]");
    }

    #[test]
    fn groups_names_and_comments() {
        assert_eq!(tr(r"(?P<x>a)(?#note)b"), r"(?:a)b");
        assert_eq!(translate("a b # c\n [ ]", true).unwrap(), "ab[ ]");
    }

    #[test]
    fn invalid_patterns_are_errors() {
        for re in [r"[a", r"[z-a]", r"[a-\d]", r"\x4", r"a{3,2}", r"(?#x", r"\N{DIGIT ONE}", r"[\q]", "\\"] {
            assert!(translate(re, false).is_err(), "{re}");
        }
    }

    #[test]
    fn translations_parse_with_regex_syntax() {
        for re in [r"\x41\u00e9\101\0\a", r"[\b\x2d\]]", r"{x}a{", r"[[]", r"[]a&&~-]", r"\<\>"] {
            let out = tr(re);
            assert!(regex_syntax::Parser::new().parse(&out).is_ok(), "{re} -> {out}");
        }
    }
}
