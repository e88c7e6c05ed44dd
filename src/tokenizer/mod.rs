//! Tokenizer stage: token ids → exact bytes, and the token trie.
//!
//! A [`Vocabulary`] says, for every token id, which bytes the token appends to the output, or
//! that it is special (BOS, EOS, chat markers: never text). Its [`TokenTrie`] holds every text
//! token's bytes; the matcher walks it to compute masks.
//!
//! A [`Tokenizer`] loads a HuggingFace `tokenizer.json` (plain or gzipped) into a vocabulary and
//! can [`encode`](Tokenizer::encode) text. Supported: BPE models with a byte-level decoder
//! (Llama 3, Qwen, GPT-2 style) or a SentencePiece-style decoder (`▁` for space, `<0xNN>` byte
//! fallback: Gemma, Llama 2, Mistral). [`Tokenizer::embedded_default`] loads the Qwen3 tokenizer
//! shipped in the library.
//!
//! # Example
//! ```
//! use stackmask::tokenizer::Tokenizer;
//!
//! let tokenizer = Tokenizer::embedded_default().unwrap();
//! let vocab = tokenizer.vocab();
//! let ids = tokenizer.encode("{\"héllo\": 1}").unwrap();
//! let bytes: Vec<u8> =
//!     ids.iter().flat_map(|&id| vocab.token_bytes(id).unwrap().to_vec()).collect();
//! assert_eq!(bytes, "{\"héllo\": 1}".as_bytes());
//! ```

mod decoder;
mod hf;
mod plain;
mod trie;
mod vocab;

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::{Error, Result};

pub use plain::{PlainBelow, PlainText, PlainTokens};
pub use trie::{ByteBuckets, Children, TokenTrie, TrieNode};
pub use vocab::{Vocabulary, WELL_KNOWN_EOS_NAMES};

/// The Qwen3 `tokenizer.json`, gzipped (Apache-2.0; see `assets/README.md`).
static EMBEDDED_QWEN3: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/qwen3.tokenizer.json.gz"));

/// A HuggingFace tokenizer: its [`Vocabulary`] and its encoder.
///
/// Loading reads only the vocabulary (about 75 ms for Llama 3 or Qwen3, 185 ms for Gemma 3 in
/// release builds). The HuggingFace encoder (the `tokenizers` crate) is built from the same
/// file on the first call to [`encode`](Tokenizer::encode), which takes longer (about 0.2 s,
/// 0.65 s for Gemma 3); runs that never encode never pay for it. A `Tokenizer` is `Sync`, so a
/// caller that will encode can warm the encoder up on another thread (`tokenizer.encode("")`)
/// while it does other work.
///
/// # Example
/// ```
/// use stackmask::tokenizer::Tokenizer;
///
/// let tokenizer = Tokenizer::embedded_default().unwrap();
/// assert_eq!(tokenizer.vocab().len(), 151_669);
/// assert_eq!(tokenizer.encode("hello world").unwrap().len(), 2);
/// ```
#[derive(Clone)]
pub struct Tokenizer {
    /// What every id stands for.
    vocab: Arc<Vocabulary>,
    /// The `tokenizer.json` as given (possibly gzipped), kept to build the encoder.
    source: Cow<'static, [u8]>,
    /// The encoder, or why it cannot be built, once first needed.
    encoder: OnceLock<std::result::Result<tokenizers::Tokenizer, String>>,
}

impl Tokenizer {
    /// Loads a `tokenizer.json` file, plain or gzipped (detected from its content).
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be read; [`Error::Tokenizer`] if it is not a
    /// `tokenizer.json` this module understands.
    ///
    /// # Example
    /// ```
    /// use stackmask::{tokenizer::Tokenizer, Error};
    ///
    /// let err = Tokenizer::from_file("no/such/tokenizer.json").unwrap_err();
    /// assert!(matches!(err, Error::Io { .. }));
    /// ```
    pub fn from_file(path: impl AsRef<Path>) -> Result<Tokenizer> {
        let path = path.as_ref();
        let data = std::fs::read(path)
            .map_err(|source| Error::Io { path: path.display().to_string(), source })?;
        Tokenizer::from_source(Cow::Owned(data))
    }

    /// Loads a `tokenizer.json` from its content, plain or gzipped.
    ///
    /// # Errors
    /// [`Error::Tokenizer`] if the content is not a `tokenizer.json` this module understands.
    ///
    /// # Example
    /// ```
    /// use stackmask::{tokenizer::Tokenizer, Error};
    ///
    /// let err = Tokenizer::from_json_bytes(b"{\"model\": {\"type\": \"Unigram\"}}").unwrap_err();
    /// assert!(matches!(err, Error::Tokenizer(_)));
    /// ```
    pub fn from_json_bytes(json: &[u8]) -> Result<Tokenizer> {
        Tokenizer::from_source(Cow::Owned(json.to_vec()))
    }

    /// The `tokenizer.json` this tokenizer was loaded from, decompressed (to hand the same
    /// file to another engine).
    ///
    /// # Errors
    /// [`Error::Tokenizer`] if gzipped content cannot be decompressed (it was decompressed
    /// once already to load the vocabulary, so not in practice).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Tokenizer;
    ///
    /// let tokenizer = Tokenizer::embedded_default().unwrap();
    /// assert!(tokenizer.json().unwrap().starts_with(b"{"));
    /// ```
    pub fn json(&self) -> Result<Cow<'_, [u8]>> {
        hf::decompress(&self.source)
    }

    /// Loads the Qwen3 tokenizer embedded in the library (151,669 ids, byte-level BPE; EOS
    /// tokens `<|endoftext|>` and `<|im_end|>`).
    ///
    /// # Errors
    /// None in practice: the embedded file is known to load.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Tokenizer;
    ///
    /// let tokenizer = Tokenizer::embedded_default().unwrap();
    /// let think = tokenizer.vocab().trie().lookup(b"<think>").unwrap();
    /// assert!(!tokenizer.vocab().trie().tokens_at(think).is_empty());
    /// ```
    pub fn embedded_default() -> Result<Tokenizer> {
        Tokenizer::from_source(Cow::Borrowed(EMBEDDED_QWEN3))
    }

    /// Reads the vocabulary of `source`, keeping `source` for the encoder.
    fn from_source(source: Cow<'static, [u8]>) -> Result<Tokenizer> {
        let vocab = hf::parse_vocabulary(&hf::decompress(&source)?)?;
        Ok(Tokenizer { vocab: Arc::new(vocab), source, encoder: OnceLock::new() })
    }

    /// The vocabulary.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Tokenizer;
    ///
    /// let tokenizer = Tokenizer::embedded_default().unwrap();
    /// let eos = tokenizer.vocab().special_token_id("<|im_end|>").unwrap();
    /// assert!(tokenizer.vocab().eos_tokens().contains(&eos));
    /// ```
    #[inline]
    pub fn vocab(&self) -> &Vocabulary {
        &self.vocab
    }

    /// The vocabulary, shared (to hand to a matcher).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::{Tokenizer, Vocabulary};
    /// use std::sync::Arc;
    ///
    /// let tokenizer = Tokenizer::embedded_default().unwrap();
    /// let vocab: Arc<Vocabulary> = tokenizer.vocab_arc();
    /// assert!(Arc::ptr_eq(&vocab, &tokenizer.vocab_arc()));
    /// ```
    #[inline]
    pub fn vocab_arc(&self) -> Arc<Vocabulary> {
        Arc::clone(&self.vocab)
    }

    /// The vocabulary, to change (e.g. its EOS tokens). If the vocabulary is shared through
    /// [`vocab_arc`](Tokenizer::vocab_arc), this tokenizer gets its own copy first.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Tokenizer;
    ///
    /// let mut tokenizer = Tokenizer::embedded_default().unwrap();
    /// let im_end = tokenizer.vocab().special_token_id("<|im_end|>").unwrap();
    /// tokenizer.vocab_mut().set_eos_tokens(vec![im_end]).unwrap();
    /// assert_eq!(tokenizer.vocab().eos_tokens(), &[im_end]);
    /// ```
    pub fn vocab_mut(&mut self) -> &mut Vocabulary {
        Arc::make_mut(&mut self.vocab)
    }

    /// The token ids of `text`: text tokens only, without BOS.
    ///
    /// Special-token names in `text` (such as `<|im_end|>`) are encoded as plain text, never as
    /// special tokens. The tokenizer's normalizer applies (Qwen3 normalizes to NFC), so the
    /// ids' bytes are exactly `text`'s bytes when `text` is normalized. (Gemma's normalizer
    /// turns spaces into `▁`, so a literal `▁` in `text` comes back as a space.) The first call
    /// builds the HuggingFace encoder.
    ///
    /// # Errors
    /// [`Error::Tokenizer`] if the HuggingFace encoder cannot be built from the file or fails.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Tokenizer;
    ///
    /// let tokenizer = Tokenizer::embedded_default().unwrap();
    /// let ids = tokenizer.encode("<think>x</think>").unwrap();
    /// assert_eq!(tokenizer.vocab().token_bytes(ids[0]), Some(&b"<think>"[..]));
    /// ```
    pub fn encode(&self, text: &str) -> Result<Vec<u32>> {
        let encoding = self
            .encoder()?
            .encode(text, false)
            .map_err(|e| Error::Tokenizer(format!("cannot encode text: {e}")))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// The HuggingFace encoder, built on first use.
    fn encoder(&self) -> Result<&tokenizers::Tokenizer> {
        let built = self.encoder.get_or_init(|| {
            hf::decompress(&self.source)
                .and_then(|json| hf::build_encoder(&json, &self.vocab))
                .map_err(reason_of)
        });
        built.as_ref().map_err(|reason| Error::Tokenizer(reason.clone()))
    }
}

/// The reason of a tokenizer error, to wrap again later.
fn reason_of(error: Error) -> String {
    match error {
        Error::Tokenizer(reason) => reason,
        other => other.to_string(),
    }
}

impl fmt::Debug for Tokenizer {
    /// A summary: the vocabulary's summary and whether the encoder is built.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tokenizer")
            .field("vocab", &self.vocab)
            .field("encoder_built", &self.encoder.get().is_some())
            .finish()
    }
}
