//! Reading a HuggingFace `tokenizer.json`, plain or gzipped.
//!
//! The vocabulary is read with a light parse that borrows the token strings from the JSON text
//! and skips the merges; the HuggingFace encoder is built separately, only when needed.

use std::borrow::Cow;
use std::fmt;
use std::io::Read;
use std::marker::PhantomData;

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use tokenizers::models::bpe::BPE;
use tokenizers::{
    DecoderWrapper, NormalizerWrapper, PostProcessorWrapper, PreTokenizerWrapper, TokenizerImpl,
};

use super::decoder::PieceDecoder;
use super::vocab::{Vocabulary, VocabularyBuilder};
use crate::{Error, Result};

/// Largest accepted number of token ids; guards against absurd ids in a malformed file.
const MAX_VOCAB_LEN: usize = 1 << 24;

/// The first two bytes of every gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Largest capacity reserved up front for decompressed JSON, whatever the gzip trailer says.
const MAX_SIZE_HINT: usize = 256 << 20;

/// `data` itself, or its decompressed content when it starts with the gzip magic number.
pub(crate) fn decompress(data: &[u8]) -> Result<Cow<'_, [u8]>> {
    if !data.starts_with(&GZIP_MAGIC) {
        return Ok(Cow::Borrowed(data));
    }
    let mut json = Vec::with_capacity(gzip_size_hint(data));
    flate2::read::MultiGzDecoder::new(data)
        .read_to_end(&mut json)
        .map_err(|e| Error::Tokenizer(format!("cannot decompress gzipped tokenizer.json: {e}")))?;
    Ok(Cow::Owned(json))
}

/// The uncompressed size a gzip trailer records (modulo 2³², capped), as a capacity hint.
fn gzip_size_hint(data: &[u8]) -> usize {
    let trailer = data.len().checked_sub(4).and_then(|at| data[at..].try_into().ok());
    trailer.map_or(0, |size| u32::from_le_bytes(size) as usize).min(MAX_SIZE_HINT)
}

/// Reads the vocabulary of a (decompressed) `tokenizer.json`.
pub(crate) fn parse_vocabulary(json: &[u8]) -> Result<Vocabulary> {
    let file: TokenizerJson<'_> = serde_json::from_slice(json)
        .map_err(|e| Error::Tokenizer(format!("not a valid tokenizer.json: {e}")))?;
    let pieces = bpe_pieces(file.model)?;
    let decoder = PieceDecoder::from_json(file.decoder.as_ref())?;
    let table = id_table(&pieces, &file.added_tokens)?;
    let byte_count = pieces.iter().map(|(piece, _)| piece.len()).sum();
    let mut builder = VocabularyBuilder::with_capacity(table.len(), byte_count);
    for entry in table {
        match entry {
            Entry::Unused => builder.push_special(None),
            Entry::Special(name) => builder.push_special(Some(name)),
            Entry::Piece(piece) => builder.push_text_with(|out| decoder.piece_bytes(piece, out)),
            Entry::Added(text) => {
                builder.push_text_with(|out| decoder.added_token_bytes(text, out))
            }
        }
    }
    Ok(builder.finish())
}

/// The HuggingFace encoder of a (decompressed) BPE `tokenizer.json` whose vocabulary is
/// `vocab`, set to encode special-token names as plain text.
///
/// Deserializing with the model type fixed to BPE is about twice as fast as
/// `tokenizers::Tokenizer::from_bytes`, which buffers the whole model in a generic JSON value.
pub(crate) fn build_encoder(json: &[u8], vocab: &Vocabulary) -> Result<tokenizers::Tokenizer> {
    type BpeTokenizer = TokenizerImpl<
        BPE,
        NormalizerWrapper,
        PreTokenizerWrapper,
        PostProcessorWrapper,
        DecoderWrapper,
    >;
    let typed: BpeTokenizer = serde_json::from_slice(json)
        .map_err(|e| Error::Tokenizer(format!("cannot build the HuggingFace tokenizer: {e}")))?;
    let mut encoder = tokenizers::Tokenizer::from(typed);
    encoder.set_encode_special_tokens(true);
    check_added_tokens(&encoder, vocab)?;
    Ok(encoder)
}

/// Checks that the encoder gives every added token the id the file gives it (HuggingFace
/// assigns the ids itself and only warns when they differ).
fn check_added_tokens(encoder: &tokenizers::Tokenizer, vocab: &Vocabulary) -> Result<()> {
    let added = encoder.get_added_vocabulary().get_added_tokens_decoder();
    let mismatch = added.iter().find(|(&id, token)| {
        let name_matches = !token.special || vocab.token_name(id) == token.content;
        vocab.is_special(id) != token.special || !name_matches
    });
    match mismatch {
        Some((id, token)) => Err(Error::Tokenizer(format!(
            "tokenizer.json: the HuggingFace tokenizer gives added token `{}` the id {id}, \
             which the file gives to {}",
            token.content,
            vocab.token_name(*id)
        ))),
        None => Ok(()),
    }
}

/// The parts of a `tokenizer.json` that say what each id stands for.
#[derive(Deserialize)]
struct TokenizerJson<'a> {
    #[serde(borrow)]
    model: ModelJson<'a>,
    #[serde(default, borrow)]
    added_tokens: Vec<AddedTokenJson<'a>>,
    #[serde(default)]
    decoder: Option<Value>,
}

/// The `model` of a `tokenizer.json`; its merges are skipped.
#[derive(Deserialize)]
struct ModelJson<'a> {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(borrow, default)]
    vocab: Option<VocabJson<'a>>,
}

/// One entry of `added_tokens`.
#[derive(Deserialize)]
struct AddedTokenJson<'a> {
    id: u32,
    #[serde(borrow)]
    content: Cow<'a, str>,
    #[serde(default)]
    special: bool,
}

/// The `vocab` of a model: a map from piece to id (BPE, WordPiece, WordLevel), or anything
/// else (Unigram's list), which is skipped.
enum VocabJson<'a> {
    Map(Vec<(Cow<'a, str>, u32)>),
    NotAMap,
}

impl<'de: 'a, 'a> Deserialize<'de> for VocabJson<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserializer.deserialize_any(VocabVisitor(PhantomData))
    }
}

/// Reads a vocab map into a list, borrowing the pieces from the JSON text when they have no
/// escapes.
struct VocabVisitor<'a>(PhantomData<&'a str>);

impl<'de: 'a, 'a> Visitor<'de> for VocabVisitor<'a> {
    type Value = VocabJson<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map from token strings to ids")
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        let mut pieces = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some((Piece(piece), id)) = map.next_entry::<Piece<'a>, u32>()? {
            pieces.push((piece, id));
        }
        Ok(VocabJson::Map(pieces))
    }

    fn visit_seq<A: SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(VocabJson::NotAMap)
    }
}

/// A token string, borrowed from the JSON text when it has no escapes.
struct Piece<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Piece<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserializer.deserialize_str(PieceVisitor(PhantomData))
    }
}

/// Makes a [`Piece`], borrowed when the deserializer can lend the string.
struct PieceVisitor<'a>(PhantomData<&'a str>);

impl<'de: 'a, 'a> Visitor<'de> for PieceVisitor<'a> {
    type Value = Piece<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a token string")
    }

    fn visit_borrowed_str<E>(self, piece: &'de str) -> std::result::Result<Self::Value, E> {
        Ok(Piece(Cow::Borrowed(piece)))
    }

    fn visit_str<E>(self, piece: &str) -> std::result::Result<Self::Value, E> {
        Ok(Piece(Cow::Owned(piece.to_owned())))
    }
}

/// The pieces of a BPE model, refusing other model types.
fn bpe_pieces(model: ModelJson<'_>) -> Result<Vec<(Cow<'_, str>, u32)>> {
    match model.kind.as_deref() {
        Some("BPE") => {}
        Some(other) => {
            return Err(Error::Tokenizer(format!(
                "unsupported tokenizer.json: model type `{other}` (only BPE is supported)"
            )))
        }
        None => {
            return Err(Error::Tokenizer(
                "unsupported tokenizer.json: the model has no `type` (only BPE is supported)"
                    .into(),
            ))
        }
    }
    match model.vocab {
        Some(VocabJson::Map(pieces)) => Ok(pieces),
        _ => Err(Error::Tokenizer("tokenizer.json: the BPE model has no `vocab` map".into())),
    }
}

/// What one token id stands for, before conversion to bytes.
#[derive(Clone, Copy)]
enum Entry<'a> {
    /// No token has this id.
    Unused,
    /// A special added token, with its name.
    Special(&'a str),
    /// A piece of the model's vocabulary.
    Piece(&'a str),
    /// A non-special added token, with its text.
    Added(&'a str),
}

/// Every id's entry, indexed by id. Added tokens take precedence over model pieces with the
/// same id.
fn id_table<'a>(
    pieces: &'a [(Cow<'a, str>, u32)],
    added: &'a [AddedTokenJson<'a>],
) -> Result<Vec<Entry<'a>>> {
    let ids = pieces.iter().map(|&(_, id)| id).chain(added.iter().map(|token| token.id));
    let len = ids.max().map_or(0, |max| max as usize + 1);
    if len == 0 {
        return Err(Error::Tokenizer("tokenizer.json has an empty vocabulary".into()));
    }
    if len > MAX_VOCAB_LEN {
        return Err(Error::Tokenizer(format!(
            "tokenizer.json uses token id {} (at most {} ids are supported)",
            len - 1,
            MAX_VOCAB_LEN
        )));
    }
    let mut table = vec![Entry::Unused; len];
    for (piece, id) in pieces {
        table[*id as usize] = Entry::Piece(piece);
    }
    for token in added {
        let content: &str = &token.content;
        table[token.id as usize] =
            if token.special { Entry::Special(content) } else { Entry::Added(content) };
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A small byte-level BPE `tokenizer.json` with a special token (5) and a non-special one (6).
    const TINY_BYTE_LEVEL: &str = r#"{
        "version": "1.0", "truncation": null, "padding": null,
        "added_tokens": [
            {"id": 5, "content": "<eos>", "single_word": false, "lstrip": false, "rstrip": false,
             "normalized": false, "special": true},
            {"id": 6, "content": "<tool>", "single_word": false, "lstrip": false, "rstrip": false,
             "normalized": false, "special": false}
        ],
        "normalizer": null,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
        "post_processor": null,
        "decoder": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
        "model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": null,
                  "end_of_word_suffix": null, "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
                  "vocab": {"a": 0, "b": 1, "ab": 2, "\u0120": 3, "\u00e4\u00b8": 4},
                  "merges": ["a b"]}
    }"#;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn gzip_is_detected_and_plain_text_is_borrowed() {
        let plain = TINY_BYTE_LEVEL.as_bytes();
        assert!(matches!(decompress(plain).unwrap(), Cow::Borrowed(_)));
        assert_eq!(&*decompress(&gzip(plain)).unwrap(), plain);
        assert_eq!(gzip_size_hint(&gzip(plain)), plain.len());
        assert!(decompress(&[0x1f, 0x8b, 0, 1, 2]).is_err());
    }

    #[test]
    fn tiny_byte_level_vocabulary() {
        let vocab = parse_vocabulary(TINY_BYTE_LEVEL.as_bytes()).unwrap();
        assert_eq!(vocab.len(), 7);
        assert_eq!(vocab.token_bytes(2), Some(&b"ab"[..]));
        assert_eq!(vocab.token_bytes(3), Some(&b" "[..]));
        assert_eq!(vocab.token_bytes(4), Some(&[0xE4, 0xB8][..]));
        assert_eq!(vocab.token_bytes(6), Some(&b"<tool>"[..]));
        assert!(vocab.is_special(5));
        assert_eq!(vocab.eos_tokens(), &[5]);
    }

    #[test]
    fn unused_ids_are_special() {
        let json = r#"{"model": {"type": "BPE", "vocab": {"a": 0, "b": 2}},
                       "added_tokens": [{"id": 4, "content": "</s>", "special": true}],
                       "decoder": {"type": "ByteLevel"}}"#;
        let vocab = parse_vocabulary(json.as_bytes()).unwrap();
        assert_eq!(vocab.len(), 5);
        assert!(vocab.is_special(1) && vocab.is_special(3) && vocab.is_special(4));
        assert_eq!(vocab.token_name(1), "<special 1>");
        assert_eq!(vocab.token_name(4), "</s>");
        assert_eq!(vocab.eos_tokens(), &[4]);
    }

    #[test]
    fn tiny_encoder_builds() {
        let vocab = parse_vocabulary(TINY_BYTE_LEVEL.as_bytes()).unwrap();
        let encoder = build_encoder(TINY_BYTE_LEVEL.as_bytes(), &vocab).unwrap();
        let ids = encoder.encode("ab a<tool>", false).unwrap().get_ids().to_vec();
        assert_eq!(ids, [2, 3, 0, 6]);
        // Special-token names are plain text.
        let ids = encoder.encode("<eos>", false).unwrap().get_ids().to_vec();
        assert!(!ids.contains(&5));
    }

    #[test]
    fn encoder_and_file_must_agree_on_added_ids() {
        // HuggingFace numbers `<eos>` 3 (the next free id), the file says 9.
        let json = r#"{"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2}, "merges": []},
                       "added_tokens": [{"id": 9, "content": "<eos>", "single_word": false, "lstrip": false,
                                         "rstrip": false, "normalized": false, "special": true}],
                       "decoder": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true,
                                   "use_regex": true}}"#;
        let vocab = parse_vocabulary(json.as_bytes()).unwrap();
        let err = build_encoder(json.as_bytes(), &vocab).unwrap_err();
        assert!(err.to_string().contains("<eos>"), "{err}");
    }

    #[test]
    fn pieces_are_borrowed_unless_escaped() {
        let file: TokenizerJson<'_> = serde_json::from_str(
            r#"{"model": {"type": "BPE", "vocab": {"plain": 0, "esc\u0041ped": 1}}}"#,
        )
        .unwrap();
        let Some(VocabJson::Map(pieces)) = file.model.vocab else { panic!("no vocab map") };
        assert!(matches!(pieces[0].0, Cow::Borrowed("plain")));
        assert!(matches!(&pieces[1].0, Cow::Owned(s) if s == "escAped"));
    }

    #[test]
    fn bad_files_are_errors() {
        let bad = [
            "not json at all",
            "{}",
            r#"{"model": {"type": "Unigram", "vocab": [["a", -1.0]]}, "decoder": {"type": "Metaspace"}}"#,
            r#"{"model": {"type": "WordPiece", "vocab": {"a": 0}}, "decoder": {"type": "WordPiece"}}"#,
            r#"{"model": {"vocab": {"a": 0}}, "decoder": {"type": "ByteLevel"}}"#,
            r#"{"model": {"type": "BPE", "vocab": {}}, "decoder": {"type": "ByteLevel"}}"#,
            r#"{"model": {"type": "BPE", "vocab": {"a": 0}}}"#,
            r#"{"model": {"type": "BPE", "vocab": {"a": 4000000000}}, "decoder": {"type": "ByteLevel"}}"#,
            r#"{"model": {"type": "BPE", "vocab": {"a": -1}}, "decoder": {"type": "ByteLevel"}}"#,
        ];
        for json in bad {
            let err = parse_vocabulary(json.as_bytes()).unwrap_err();
            assert!(matches!(err, Error::Tokenizer(_)), "{json}: {err}");
        }
        let vocab = parse_vocabulary(TINY_BYTE_LEVEL.as_bytes()).unwrap();
        assert!(build_encoder(b"not json", &vocab).is_err());
    }
}
