//! The vocabulary: what every token id stands for, as exact bytes.

use std::fmt::{self, Write as _};
use std::hash::Hasher as _;
use std::sync::OnceLock;

use super::trie::TokenTrie;
use crate::{Error, Result};

/// Names of end-of-sequence tokens recognised when loading a tokenizer, in this order.
///
/// Every special token with one of these names becomes a default EOS token: Llama 3 gets
/// `<|end_of_text|>` and `<|eot_id|>`, Qwen3 `<|endoftext|>` and `<|im_end|>`, Gemma 3 `<eos>`
/// and `<end_of_turn>`.
///
/// # Example
/// ```
/// use stackmask::tokenizer::{Tokenizer, WELL_KNOWN_EOS_NAMES};
///
/// let tokenizer = Tokenizer::embedded_default().unwrap(); // Qwen3
/// let vocab = tokenizer.vocab();
/// let names: Vec<String> = vocab.eos_tokens().iter().map(|&id| vocab.token_name(id)).collect();
/// assert_eq!(names, ["<|endoftext|>", "<|im_end|>"]);
/// assert!(names.iter().all(|name| WELL_KNOWN_EOS_NAMES.contains(&name.as_str())));
/// ```
pub const WELL_KNOWN_EOS_NAMES: [&str; 7] = [
    "<|end_of_text|>",
    "<|eot_id|>",
    "<|endoftext|>",
    "<|im_end|>",
    "<eos>",
    "</s>",
    "<end_of_turn>",
];

/// What each token id of a vocabulary stands for: exact bytes for text tokens, nothing for
/// special tokens.
///
/// Ids run from 0 to [`len`](Vocabulary::len)` - 1`, which is the mask size in tokens. A
/// *special* token (BOS, EOS, chat markers, and ids no token uses) never stands for text: it has
/// no bytes and is not in the [`trie`](Vocabulary::trie). Every other token is a *text* token
/// with the exact bytes it appends to the output (possibly not valid UTF-8 on its own, e.g. half
/// of a character in byte-level tokenizers).
///
/// Build one with [`from_token_bytes`](Vocabulary::from_token_bytes) or load a HuggingFace
/// tokenizer with [`Tokenizer`](super::Tokenizer). Cloning copies everything; share one through
/// an `Arc`.
///
/// # Example
/// ```
/// use stackmask::tokenizer::Vocabulary;
///
/// let tokens = vec![b"a".to_vec(), b" b".to_vec(), Vec::new()];
/// let vocab = Vocabulary::from_token_bytes(tokens, Some(2));
/// assert_eq!(vocab.len(), 3);
/// assert_eq!(vocab.token_bytes(1), Some(&b" b"[..]));
/// assert!(vocab.is_special(2));
/// assert_eq!(vocab.eos_tokens(), &[2]);
/// ```
#[derive(Clone)]
pub struct Vocabulary {
    /// The bytes of all text tokens, concatenated in id order.
    bytes: Vec<u8>,
    /// Token `id` has the bytes `bytes[offsets[id]..offsets[id + 1]]`; one more entry than ids.
    offsets: Vec<usize>,
    /// Whether each id is special (no bytes); unused ids are special too.
    special: Vec<bool>,
    /// Names of the named special tokens, sorted by id.
    special_names: Vec<(u32, Box<str>)>,
    /// End-of-sequence token ids.
    eos: Vec<u32>,
    /// The trie of all text tokens.
    trie: TokenTrie,
    /// [`Vocabulary::fingerprint`], once computed (nothing it covers can change:
    /// [`Vocabulary::set_eos_tokens`] changes only what it leaves out).
    fingerprint: OnceLock<u64>,
}

impl Vocabulary {
    /// A vocabulary where token `i` has the bytes `tokens[i]`, and `eos` (if any) is the one
    /// special token, named `<eos>`, and the only EOS token.
    ///
    /// The bytes given for the `eos` id are ignored. An `eos` id past the end of `tokens`
    /// extends the vocabulary to `eos + 1` ids; the ids in between are unused (special).
    ///
    /// # Panics
    /// If the tokens hold more than 4 GiB of bytes in all.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"x".to_vec(), b"y".to_vec()], Some(3));
    /// assert_eq!(vocab.len(), 4);
    /// assert!(vocab.is_special(2) && vocab.is_special(3));
    /// assert_eq!(vocab.token_name(3), "<eos>");
    /// ```
    pub fn from_token_bytes(tokens: Vec<Vec<u8>>, eos: Option<u32>) -> Vocabulary {
        let len = tokens.len().max(eos.map_or(0, |id| id as usize + 1));
        let mut builder = VocabularyBuilder::with_capacity(len, tokens.iter().map(Vec::len).sum());
        for id in 0..len {
            if Some(id as u32) == eos {
                builder.push_special(Some("<eos>"));
            } else if let Some(bytes) = tokens.get(id) {
                builder.push_text_with(|out| out.extend_from_slice(bytes));
            } else {
                builder.push_special(None);
            }
        }
        let mut vocab = builder.finish();
        vocab.eos = eos.into_iter().collect();
        vocab
    }

    /// A 64-bit digest of every token's bytes and of which ids are special: equal for
    /// vocabularies whose masks mean the same, so that a classifier artifact can refuse a
    /// vocabulary it was not built for. (EOS ids are left out: masks settle them apart.)
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let a = Vocabulary::from_token_bytes(vec![b"ab".to_vec(), b"c".to_vec()], None);
    /// let b = Vocabulary::from_token_bytes(vec![b"a".to_vec(), b"bc".to_vec()], None);
    /// assert_ne!(a.fingerprint(), b.fingerprint());
    /// assert_eq!(a.fingerprint(), a.clone().fingerprint());
    /// ```
    pub fn fingerprint(&self) -> u64 {
        *self.fingerprint.get_or_init(|| self.digest())
    }

    /// The digest behind [`Vocabulary::fingerprint`].
    fn digest(&self) -> u64 {
        let mut hasher = twox_hash::XxHash3_64::new();
        hasher.write(&(self.len() as u64).to_le_bytes());
        for offset in &self.offsets {
            hasher.write(&(*offset as u64).to_le_bytes());
        }
        hasher.write(&self.bytes);
        let special: Vec<u8> = self.special.iter().map(|&s| u8::from(s)).collect();
        hasher.write(&special);
        hasher.finish()
    }

    /// Number of token ids: one more than the largest id, which is the mask size in tokens.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// assert_eq!(Vocabulary::from_token_bytes(vec![b"a".to_vec(); 5], None).len(), 5);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.special.len()
    }

    /// Whether the vocabulary has no token at all.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// assert!(Vocabulary::from_token_bytes(Vec::new(), None).is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.special.is_empty()
    }

    /// The exact bytes token `id` stands for; `None` for special tokens and out-of-range ids.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![vec![0xE4, 0xB8], Vec::new()], Some(1));
    /// assert_eq!(vocab.token_bytes(0), Some(&[0xE4, 0xB8][..])); // half of a character
    /// assert_eq!(vocab.token_bytes(1), None); // special
    /// assert_eq!(vocab.token_bytes(2), None); // out of range
    /// ```
    #[inline]
    pub fn token_bytes(&self, id: u32) -> Option<&[u8]> {
        let id = id as usize;
        match self.special.get(id) {
            Some(false) => Some(&self.bytes[self.offsets[id]..self.offsets[id + 1]]),
            _ => None,
        }
    }

    /// Whether token `id` is special (never text). Unused ids are special; out-of-range ids
    /// are not.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"a".to_vec(), Vec::new()], Some(1));
    /// assert!(!vocab.is_special(0));
    /// assert!(vocab.is_special(1));
    /// assert!(!vocab.is_special(7));
    /// ```
    #[inline]
    pub fn is_special(&self, id: u32) -> bool {
        self.special.get(id as usize).copied().unwrap_or(false)
    }

    /// `Ok` when `id` is a token id of this vocabulary (below [`len`](Vocabulary::len)).
    ///
    /// # Errors
    /// [`Error::TokenOutOfRange`] otherwise.
    ///
    /// # Example
    /// ```
    /// use stackmask::{tokenizer::Vocabulary, Error};
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"a".to_vec()], None);
    /// assert!(vocab.check_token(0).is_ok());
    /// let err = vocab.check_token(1).unwrap_err();
    /// assert!(matches!(err, Error::TokenOutOfRange { id: 1, vocab_size: 1 }));
    /// ```
    pub fn check_token(&self, id: u32) -> Result<()> {
        if (id as usize) < self.len() {
            Ok(())
        } else {
            Err(Error::TokenOutOfRange { id, vocab_size: self.len() })
        }
    }

    /// The end-of-sequence token ids, in increasing order.
    ///
    /// Loaded tokenizers start with every special token named in [`WELL_KNOWN_EOS_NAMES`]
    /// (possibly none); change them with [`set_eos_tokens`](Vocabulary::set_eos_tokens).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"a".to_vec()], None);
    /// assert!(vocab.eos_tokens().is_empty());
    /// ```
    #[inline]
    pub fn eos_tokens(&self) -> &[u32] {
        &self.eos
    }

    /// Replaces the end-of-sequence token ids (kept sorted, without duplicates).
    ///
    /// The ids are only recorded: a text token chosen as EOS keeps its bytes and stays in the
    /// trie.
    ///
    /// # Errors
    /// [`Error::TokenOutOfRange`] if an id is not below [`len`](Vocabulary::len); the EOS
    /// tokens are then unchanged.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let tokens = vec![b"a".to_vec(), Vec::new(), Vec::new()];
    /// let mut vocab = Vocabulary::from_token_bytes(tokens, Some(2));
    /// vocab.set_eos_tokens(vec![2, 1, 2]).unwrap();
    /// assert_eq!(vocab.eos_tokens(), &[1, 2]);
    /// assert!(vocab.set_eos_tokens(vec![3]).is_err());
    /// ```
    pub fn set_eos_tokens(&mut self, mut eos: Vec<u32>) -> Result<()> {
        eos.iter().try_for_each(|&id| self.check_token(id))?;
        eos.sort_unstable();
        eos.dedup();
        self.eos = eos;
        Ok(())
    }

    /// The trie of all text tokens.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"ab".to_vec(), Vec::new()], Some(1));
    /// let trie = vocab.trie();
    /// assert_eq!(trie.tokens_at(trie.lookup(b"ab").unwrap()), &[0]);
    /// ```
    #[inline]
    pub fn trie(&self) -> &TokenTrie {
        &self.trie
    }

    /// The id of the special token named `name` (e.g. `"<|im_end|>"`), if there is one.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"a".to_vec(), Vec::new()], Some(1));
    /// assert_eq!(vocab.special_token_id("<eos>"), Some(1));
    /// assert_eq!(vocab.special_token_id("a"), None);
    /// ```
    pub fn special_token_id(&self, name: &str) -> Option<u32> {
        self.special_names.iter().find(|(_, n)| &**n == name).map(|&(id, _)| id)
    }

    /// A readable name for token `id`, for display.
    ///
    /// A text token shows as its bytes in a quoted, escaped string (`"\n"`, `" the"`; bytes
    /// that are not valid UTF-8 as `\xNN`), a special token as its name (`<|im_end|>`) or
    /// `<special N>` when it has none, and an out-of-range id as `<out of range N>`.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b" a\n".to_vec(), vec![b'x', 0xE4]], Some(3));
    /// assert_eq!(vocab.token_name(0), r#"" a\n""#);
    /// assert_eq!(vocab.token_name(1), r#""x\xE4""#);
    /// assert_eq!(vocab.token_name(2), "<special 2>");
    /// assert_eq!(vocab.token_name(3), "<eos>");
    /// assert_eq!(vocab.token_name(4), "<out of range 4>");
    /// ```
    pub fn token_name(&self, id: u32) -> String {
        if let Some(bytes) = self.token_bytes(id) {
            return quoted_bytes(bytes);
        }
        if !self.is_special(id) {
            return format!("<out of range {id}>");
        }
        match self.special_names.binary_search_by_key(&id, |&(id, _)| id) {
            Ok(at) => self.special_names[at].1.to_string(),
            Err(_) => format!("<special {id}>"),
        }
    }

    /// The special tokens named in [`WELL_KNOWN_EOS_NAMES`], in increasing order of id.
    fn well_known_eos_tokens(&self) -> Vec<u32> {
        self.special_names
            .iter()
            .filter(|(_, name)| WELL_KNOWN_EOS_NAMES.contains(&&**name))
            .map(|&(id, _)| id)
            .collect()
    }
}

impl fmt::Debug for Vocabulary {
    /// A summary: sizes and EOS tokens, not the tokens.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Vocabulary")
            .field("len", &self.len())
            .field("special_count", &self.special.iter().filter(|&&s| s).count())
            .field("eos_tokens", &self.eos)
            .field("trie", &self.trie)
            .finish()
    }
}

/// `bytes` as a double-quoted string with Rust escapes, invalid UTF-8 as `\xNN`.
fn quoted_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        out.extend(chunk.valid().chars().flat_map(char::escape_debug));
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02X}");
        }
    }
    out.push('"');
    out
}

/// Builds a [`Vocabulary`] one id at a time, in increasing order from 0.
pub(crate) struct VocabularyBuilder {
    /// The text tokens' bytes so far, concatenated.
    bytes: Vec<u8>,
    /// Where each id's bytes start, and one past the last id's end.
    offsets: Vec<usize>,
    /// Whether each id so far is special.
    special: Vec<bool>,
    /// Names of the named special tokens so far, by increasing id.
    special_names: Vec<(u32, Box<str>)>,
}

impl VocabularyBuilder {
    /// An empty builder with room for `len` ids and `byte_count` bytes of text.
    pub(crate) fn with_capacity(len: usize, byte_count: usize) -> VocabularyBuilder {
        let mut offsets = Vec::with_capacity(len + 1);
        offsets.push(0);
        VocabularyBuilder {
            bytes: Vec::with_capacity(byte_count),
            offsets,
            special: Vec::with_capacity(len),
            special_names: Vec::new(),
        }
    }

    /// Adds the next id as a text token whose bytes `write` appends to the given buffer.
    pub(crate) fn push_text_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        write(&mut self.bytes);
        self.offsets.push(self.bytes.len());
        self.special.push(false);
    }

    /// Adds the next id as a special token, with its name if it has one.
    pub(crate) fn push_special(&mut self, name: Option<&str>) {
        if let Some(name) = name {
            self.special_names.push((self.special.len() as u32, name.into()));
        }
        self.offsets.push(self.bytes.len());
        self.special.push(true);
    }

    /// The vocabulary, with its trie built and the well-known EOS tokens chosen.
    pub(crate) fn finish(self) -> Vocabulary {
        let VocabularyBuilder { bytes, offsets, special, special_names } = self;
        let text_tokens = (0..special.len())
            .filter(|&id| !special[id])
            .map(|id| (id as u32, &bytes[offsets[id]..offsets[id + 1]]));
        let trie = TokenTrie::from_tokens(text_tokens);
        let mut vocab =
            Vocabulary { bytes, offsets, special, special_names, eos: Vec::new(), trie, fingerprint: OnceLock::new() };
        vocab.eos = vocab.well_known_eos_tokens();
        vocab
    }
}
