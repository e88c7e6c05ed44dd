//! How the `decoder` of a `tokenizer.json` maps a token's string (its "piece") to bytes.
//!
//! Two families are understood:
//!
//! - **byte-level** (GPT-2, Llama 3, Qwen): decoder `ByteLevel`. Each character of a piece
//!   stands for one byte through the GPT-2 byte↔unicode table.
//! - **piece text** (SentencePiece style, Gemma, Llama 2, Mistral): a `Sequence` of `Replace`
//!   (typically `▁` → space), `ByteFallback` (`<0xNN>` is the single byte `NN`), `Fuse` and a
//!   trailing `Strip`, or a `Metaspace` decoder. A piece is its own UTF-8 text after the
//!   replacements.
//!
//! A trailing `Strip` (after `Fuse`) only trims the start of a whole decoded sequence, which is
//! not a property of any one token, so it is ignored. Anything else is refused with
//! [`Error::Tokenizer`].

use std::borrow::Cow;

use serde_json::Value;

use crate::{Error, Result};

/// The rule that maps a token's piece to the bytes it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PieceDecoder {
    /// GPT-2 byte-level: every character of a piece is one byte.
    ByteLevel,
    /// A piece is UTF-8 text after string replacements, applied in order.
    PieceText {
        /// `(pattern, replacement)` pairs, e.g. `("▁", " ")`.
        replacements: Vec<(String, String)>,
        /// Whether a piece `<0xNN>` is the single byte `NN`.
        byte_fallback: bool,
    },
}

impl PieceDecoder {
    /// Reads the rule from the `decoder` field of a `tokenizer.json` (`None` when absent).
    pub(crate) fn from_json(decoder: Option<&Value>) -> Result<PieceDecoder> {
        let decoder = decoder.filter(|d| !d.is_null()).ok_or_else(|| {
            Error::Tokenizer("tokenizer.json has no decoder, so token bytes are unknown".into())
        })?;
        let steps = match step_type(decoder)? {
            "Sequence" => decoder
                .get("decoders")
                .and_then(Value::as_array)
                .ok_or_else(|| unsupported("a Sequence decoder without a `decoders` list"))?
                .iter()
                .collect(),
            _ => vec![decoder],
        };
        let mut rule = RuleBuilder::default();
        for step in steps {
            rule.add_step(step)?;
        }
        rule.finish()
    }

    /// Appends the bytes of a vocabulary piece to `out`.
    ///
    /// Byte-level pieces whose characters are not all in the byte table stand for their own
    /// UTF-8 text, as in the HuggingFace decoder.
    pub(crate) fn piece_bytes(&self, piece: &str, out: &mut Vec<u8>) {
        match self {
            PieceDecoder::ByteLevel => byte_level_bytes(piece, out),
            PieceDecoder::PieceText { replacements, byte_fallback } => {
                let byte = if *byte_fallback { fallback_byte(piece) } else { None };
                match byte {
                    Some(byte) => out.push(byte),
                    None => out.extend_from_slice(replace_all(piece, replacements).as_bytes()),
                }
            }
        }
    }

    /// Appends the bytes of a non-special added token with text `content` to `out`.
    ///
    /// Added tokens are matched in the text before byte-level mapping, so under the byte-level
    /// rule their content is literal text. Under the piece-text rule they follow the pieces'
    /// conventions (Gemma's added token `▁▁` is two spaces).
    pub(crate) fn added_token_bytes(&self, content: &str, out: &mut Vec<u8>) {
        match self {
            PieceDecoder::ByteLevel => out.extend_from_slice(content.as_bytes()),
            PieceDecoder::PieceText { .. } => self.piece_bytes(content, out),
        }
    }
}

/// Decoder steps seen so far while reading a decoder description.
#[derive(Default)]
struct RuleBuilder {
    byte_level: bool,
    replacements: Vec<(String, String)>,
    byte_fallback: bool,
    fused: bool,
}

impl RuleBuilder {
    /// Records one decoder step, refusing steps whose effect on a token is not understood.
    fn add_step(&mut self, step: &Value) -> Result<()> {
        match step_type(step)? {
            "ByteLevel" => self.byte_level = true,
            "Replace" => self.replacements.push(replace_step(step)?),
            "Metaspace" => self.replacements.push((metaspace_marker(step)?, " ".into())),
            "ByteFallback" => self.byte_fallback = true,
            "Fuse" => self.fused = true,
            "Strip" if self.fused => {}
            "Strip" => return Err(unsupported("a Strip decoder that strips every token")),
            other => return Err(unsupported(&format!("the decoder step `{other}`"))),
        }
        Ok(())
    }

    /// The rule the recorded steps describe.
    fn finish(self) -> Result<PieceDecoder> {
        if !self.byte_level {
            let RuleBuilder { replacements, byte_fallback, .. } = self;
            return Ok(PieceDecoder::PieceText { replacements, byte_fallback });
        }
        if self.replacements.is_empty() && !self.byte_fallback {
            Ok(PieceDecoder::ByteLevel)
        } else {
            Err(unsupported("a ByteLevel decoder mixed with Replace, Metaspace or ByteFallback"))
        }
    }
}

/// The `type` of a decoder or decoder step.
fn step_type(step: &Value) -> Result<&str> {
    step.get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| unsupported("a decoder without a `type`"))
}

/// The `(pattern, content)` of a `Replace` step with a plain string pattern.
fn replace_step(step: &Value) -> Result<(String, String)> {
    let pattern = step.get("pattern").and_then(|p| p.get("String")).and_then(Value::as_str);
    let content = step.get("content").and_then(Value::as_str);
    match (pattern, content) {
        (Some(pattern), Some(content)) if !pattern.is_empty() => {
            Ok((pattern.to_owned(), content.to_owned()))
        }
        _ => Err(unsupported("a Replace decoder without a non-empty string pattern")),
    }
}

/// The space marker of a `Metaspace` step (`▁` unless given).
fn metaspace_marker(step: &Value) -> Result<String> {
    match step.get("replacement") {
        None => Ok("\u{2581}".into()),
        Some(Value::String(marker)) if !marker.is_empty() => Ok(marker.clone()),
        Some(_) => Err(unsupported("a Metaspace decoder with an empty or odd replacement")),
    }
}

/// The error for a decoder setup this module does not understand.
fn unsupported(what: &str) -> Error {
    Error::Tokenizer(format!(
        "unsupported tokenizer.json: {what} (supported decoders: ByteLevel, Metaspace, or a \
         Sequence of Replace, ByteFallback, Fuse and a final Strip)"
    ))
}

/// `piece` with every replacement applied in order; borrowed when nothing changes.
fn replace_all<'a>(piece: &'a str, replacements: &[(String, String)]) -> Cow<'a, str> {
    let mut text = Cow::Borrowed(piece);
    for (pattern, replacement) in replacements {
        if text.contains(pattern.as_str()) {
            text = Cow::Owned(text.replace(pattern.as_str(), replacement));
        }
    }
    text
}

/// The byte `NN` of a byte-fallback piece `<0xNN>` (hex digits of either case), as in the
/// HuggingFace `ByteFallback` decoder.
fn fallback_byte(piece: &str) -> Option<u8> {
    let hex = piece.strip_prefix("<0x")?.strip_suffix('>')?;
    if hex.len() != 2 {
        return None;
    }
    u8::from_str_radix(hex, 16).ok()
}

/// Appends the bytes of a byte-level piece, or its UTF-8 text when some character is not in
/// the GPT-2 table.
fn byte_level_bytes(piece: &str, out: &mut Vec<u8>) {
    let start = out.len();
    for c in piece.chars() {
        match byte_level_char_to_byte(c) {
            Some(byte) => out.push(byte),
            None => {
                out.truncate(start);
                out.extend_from_slice(piece.as_bytes());
                return;
            }
        }
    }
}

/// First character code point that stands for a non-printable byte in the GPT-2 table.
const SHIFTED_BASE: u32 = 0x100;

/// The bytes that the GPT-2 table maps to `U+0100` onwards, in order.
const SHIFTED_BYTES: [u8; 68] = shifted_bytes();

/// Whether byte `b` stands for itself (as the character `U+00bb`) in the GPT-2 table.
const fn is_self_mapped(b: u8) -> bool {
    matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF)
}

/// Lists the bytes that are not self-mapped, in increasing order.
const fn shifted_bytes() -> [u8; 68] {
    let mut table = [0u8; 68];
    let mut count = 0;
    let mut byte = 0;
    while byte < 256 {
        if !is_self_mapped(byte as u8) {
            table[count] = byte as u8;
            count += 1;
        }
        byte += 1;
    }
    assert!(count == table.len());
    table
}

/// The byte that character `c` stands for in the GPT-2 byte↔unicode table.
fn byte_level_char_to_byte(c: char) -> Option<u8> {
    let code = c as u32;
    match u8::try_from(code) {
        Ok(byte) if is_self_mapped(byte) => Some(byte),
        Ok(_) => None,
        Err(_) => SHIFTED_BYTES.get(code.checked_sub(SHIFTED_BASE)? as usize).copied(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bytes_of(decoder: &PieceDecoder, piece: &str) -> Vec<u8> {
        let mut out = Vec::new();
        decoder.piece_bytes(piece, &mut out);
        out
    }

    #[test]
    fn gpt2_table_is_a_bijection_onto_bytes() {
        let mut seen = [false; 256];
        for code in 0..0x200u32 {
            if let Some(byte) = byte_level_char_to_byte(char::from_u32(code).unwrap()) {
                assert!(!seen[byte as usize], "byte {byte} mapped twice");
                seen[byte as usize] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(byte_level_char_to_byte('Ġ'), Some(b' '));
        assert_eq!(byte_level_char_to_byte('Ċ'), Some(b'\n'));
        assert_eq!(byte_level_char_to_byte('ĉ'), Some(b'\t'));
        assert_eq!(byte_level_char_to_byte('Ń'), Some(0xAD));
        assert_eq!(byte_level_char_to_byte(' '), None);
    }

    #[test]
    fn byte_level_pieces() {
        let rule = PieceDecoder::ByteLevel;
        assert_eq!(bytes_of(&rule, "Ġthe"), b" the");
        assert_eq!(bytes_of(&rule, "Ã©"), "é".as_bytes());
        assert_eq!(bytes_of(&rule, "ä¸"), [0xE4, 0xB8]);
        // A character outside the table: the piece is its own text.
        assert_eq!(bytes_of(&rule, "a b"), b"a b");
        let mut out = Vec::new();
        rule.added_token_bytes("<think>", &mut out);
        assert_eq!(out, b"<think>");
    }

    #[test]
    fn gemma_style_sequence() {
        let decoder = json!({"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"}]});
        let rule = PieceDecoder::from_json(Some(&decoder)).unwrap();
        assert_eq!(bytes_of(&rule, "▁the"), b" the");
        assert_eq!(bytes_of(&rule, "<0x0A>"), b"\n");
        assert_eq!(bytes_of(&rule, "<0xff>"), [0xFF]);
        assert_eq!(bytes_of(&rule, "<0x0A0>"), b"<0x0A0>");
        assert_eq!(bytes_of(&rule, "<0xZZ>"), b"<0xZZ>");
        let mut out = Vec::new();
        rule.added_token_bytes("▁▁", &mut out);
        assert_eq!(out, b"  ");
    }

    #[test]
    fn llama2_style_sequence_and_metaspace() {
        let decoder = json!({"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]});
        let rule = PieceDecoder::from_json(Some(&decoder)).unwrap();
        assert_eq!(bytes_of(&rule, "▁a▁b"), b" a b");
        let metaspace =
            json!({"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always"});
        let rule = PieceDecoder::from_json(Some(&metaspace)).unwrap();
        assert_eq!(bytes_of(&rule, "▁x"), b" x");
        assert_eq!(bytes_of(&rule, "<0x0A>"), b"<0x0A>");
    }

    #[test]
    fn unknown_setups_are_refused() {
        let refused = [
            Value::Null,
            json!({"type": "WordPiece", "prefix": "##"}),
            json!({"type": "Sequence", "decoders": [{"type": "ByteLevel"}, {"type": "ByteFallback"}]}),
            json!({"type": "Sequence", "decoders": [{"type": "Strip", "content": " ", "start": 1}]}),
            json!({"type": "Replace", "pattern": {"Regex": "x+"}, "content": " "}),
            json!({"decoders": []}),
        ];
        for decoder in &refused {
            let err = PieceDecoder::from_json(Some(decoder)).unwrap_err();
            assert!(matches!(err, Error::Tokenizer(_)), "{decoder}: {err}");
        }
        assert!(PieceDecoder::from_json(None).is_err());
    }
}
