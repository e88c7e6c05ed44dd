//! String literals: decoding Lark's escapes, and writing text into a regex so that it
//! matches itself.

use std::fmt::Write;

/// Decodes the body of a string literal (the text between the quotes) as Lark does.
///
/// `\\` and `\"` stand for themselves, `\n` `\t` `\r` `\f` for control characters, and
/// `\xNN`, `\uNNNN`, `\UNNNNNNNN` for the character with that code. Any other escaped
/// character keeps its backslash (`"\d"` is the two characters `\d`), as in Lark.
pub(super) fn decode_string(body: &str) -> Result<String, String> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            None => return Err("string literal ends with a lone backslash".into()),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\x0c'),
            Some('x') => out.push(hex_escape(&mut chars, 'x', 2)?),
            Some('u') => out.push(hex_escape(&mut chars, 'u', 4)?),
            Some('U') => out.push(hex_escape(&mut chars, 'U', 8)?),
            Some(escaped @ ('\\' | '"')) => out.push(escaped),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Ok(out)
}

/// Reads exactly `digits` hex digits after `\letter` and returns that character.
pub(super) fn hex_escape(chars: &mut std::str::Chars<'_>, letter: char, digits: usize) -> Result<char, String> {
    let mut code = 0u32;
    for _ in 0..digits {
        let digit = chars.next().and_then(|c| c.to_digit(16));
        let Some(digit) = digit else {
            return Err(format!("invalid `\\{letter}` escape: expected {digits} hexadecimal digits"));
        };
        code = code * 16 + digit;
    }
    char::from_u32(code).ok_or_else(|| format!("`\\{letter}` escape {code:#X} is not a Unicode scalar value"))
}

/// Appends `c` to a regex (inside or outside a character class) so that it matches
/// exactly `c`: metacharacters are escaped, control characters written as escapes.
pub(super) fn push_literal_char(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str(r"\n"),
        '\t' => out.push_str(r"\t"),
        '\r' => out.push_str(r"\r"),
        c if c.is_control() => {
            let _ = write!(out, "\\x{{{:X}}}", c as u32);
        }
        c => regex_syntax::escape_into(c.encode_utf8(&mut [0; 4]), out),
    }
}

/// A regex that matches exactly `text`.
pub(super) fn escape_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    text.chars().for_each(|c| push_literal_char(&mut out, c));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_decode_as_in_lark() {
        assert_eq!(decode_string(r#"a\"b\\c"#).unwrap(), r#"a"b\c"#);
        assert_eq!(decode_string(r"\n\t\r\f").unwrap(), "\n\t\r\x0c");
        assert_eq!(decode_string(r"\x41\u00e9\U0001F600").unwrap(), "Aé😀");
        assert_eq!(decode_string(r"\d\'").unwrap(), r"\d\'");
    }

    #[test]
    fn bad_escapes_are_errors() {
        for body in [r"\x4", r"\xZZ", r"\u12", r"\UFFFFFFFF", r"\uD800", "\\"] {
            assert!(decode_string(body).is_err(), "{body}");
        }
    }

    #[test]
    fn literal_text_is_escaped_for_regexes() {
        assert_eq!(escape_literal("a.b*"), r"a\.b\*");
        assert_eq!(escape_literal("\n\u{7}é"), r"\n\x{7}é");
        assert_eq!(escape_literal("/-"), r"/\-");
    }
}
