//! [`Words`]: a `[u32]` (ascending token ids, or a dense token bitmap) that is either
//! owned or a slice of a shared [`WordBuffer`], such as the word section of a classifier
//! artifact mapped from its file.
//!
//! Boundary: this module only holds words; what they mean is the holder's business
//! (a [`TokenClass`](crate::spanner::TokenClass)'s ids, a classifier token set). It
//! exists so that loading an artifact does not copy, allocate or clear the hundreds of
//! megabytes of token sets a built classifier holds: every set of the artifact becomes a
//! [`Words`] pointing into one buffer.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// A `[u32]`, owned or held in a shared [`WordBuffer`]; it derefs to `[u32]` and is
/// cheap to clone either way (an owned one is copied, a shared one is not).
///
/// # Example
/// ```
/// use stackmask::words::{WordBuffer, Words};
/// use std::sync::Arc;
/// let owned = Words::from(vec![1, 5, 9]);
/// let buffer = Arc::new(WordBuffer::from_words(vec![7, 1, 5, 9, 7]));
/// let shared = Words::shared(&buffer, 1..4).unwrap();
/// assert_eq!(owned, shared);
/// assert_eq!(&shared[..], &[1, 5, 9]);
/// assert!(Words::shared(&buffer, 3..6).is_none()); // out of bounds
/// ```
#[derive(Clone)]
pub struct Words(Repr);

#[derive(Clone)]
enum Repr {
    Owned(Box<[u32]>),
    Shared { buffer: Arc<WordBuffer>, range: Range<usize> },
}

impl Words {
    /// The words `range` of `buffer`, or `None` when `range` is out of its bounds.
    pub fn shared(buffer: &Arc<WordBuffer>, range: Range<usize>) -> Option<Words> {
        buffer.words().get(range.clone())?;
        Some(Words(Repr::Shared { buffer: Arc::clone(buffer), range }))
    }

    /// Whether the words live in a shared buffer (and so count nothing of their own).
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Repr::Shared { .. })
    }
}

impl Deref for Words {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        match &self.0 {
            Repr::Owned(words) => words,
            Repr::Shared { buffer, range } => &buffer.words()[range.clone()],
        }
    }
}

impl From<Vec<u32>> for Words {
    fn from(words: Vec<u32>) -> Words {
        Words(Repr::Owned(words.into_boxed_slice()))
    }
}

impl From<Box<[u32]>> for Words {
    fn from(words: Box<[u32]>) -> Words {
        Words(Repr::Owned(words))
    }
}

impl PartialEq for Words {
    fn eq(&self, other: &Words) -> bool {
        self[..] == other[..]
    }
}

impl Eq for Words {}

/// Hashes as the `[u32]` it derefs to, so that maps keyed by [`Words`] are looked up
/// with slices.
impl std::hash::Hash for Words {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self[..].hash(state)
    }
}

impl std::borrow::Borrow<[u32]> for Words {
    fn borrow(&self) -> &[u32] {
        self
    }
}

impl fmt::Debug for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self[..].fmt(f)
    }
}

/// An immutable run of `u32` words that [`Words`] slice: on the heap, or mapped from a
/// file (little-endian words at a 4-aligned offset).
///
/// # Example
/// ```
/// use stackmask::words::WordBuffer;
/// let buffer = WordBuffer::from_le_bytes(&[1, 0, 0, 0, 2, 0, 0, 0]).unwrap();
/// assert_eq!(buffer.words(), &[1, 2]);
/// assert!(WordBuffer::from_le_bytes(&[1, 0, 0]).is_none()); // not whole words
/// ```
pub struct WordBuffer(Storage);

enum Storage {
    Heap(Box<[u32]>),
    Mapped { map: memmap2::Mmap, range: Range<usize> },
}

impl WordBuffer {
    /// Words already in memory.
    pub fn from_words(words: Vec<u32>) -> WordBuffer {
        WordBuffer(Storage::Heap(words.into_boxed_slice()))
    }

    /// A copy of `bytes` read as little-endian words, or `None` when its length is not a
    /// multiple of 4.
    pub fn from_le_bytes(bytes: &[u8]) -> Option<WordBuffer> {
        if bytes.len() % 4 != 0 {
            return None;
        }
        let words = match bytemuck::try_cast_slice::<u8, u32>(bytes) {
            Ok(words) if cfg!(target_endian = "little") => words.to_vec(),
            _ => bytes.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes"))).collect(),
        };
        Some(WordBuffer::from_words(words))
    }

    /// The bytes `range` of the mapping `map`, read in place as little-endian words, or
    /// `map` back where they cannot be: out of bounds, not whole 4-aligned words, or a
    /// big-endian target.
    pub(crate) fn in_place(map: memmap2::Mmap, range: Range<usize>) -> Result<WordBuffer, memmap2::Mmap> {
        let words = map.get(range.clone()).map(bytemuck::try_cast_slice::<u8, u32>);
        match words {
            Some(Ok(_)) if cfg!(target_endian = "little") => Ok(WordBuffer(Storage::Mapped { map, range })),
            _ => Err(map),
        }
    }

    /// The whole mapping the words are read from, when they are mapped.
    pub(crate) fn mapping(&self) -> Option<&[u8]> {
        match &self.0 {
            Storage::Heap(_) => None,
            Storage::Mapped { map, .. } => Some(map),
        }
    }

    /// The words.
    pub fn words(&self) -> &[u32] {
        match &self.0 {
            Storage::Heap(words) => words,
            Storage::Mapped { map, range } => bytemuck::cast_slice(&map[range.clone()]),
        }
    }

    /// Whether the words are read in place from a mapped file.
    pub fn is_mapped(&self) -> bool {
        matches!(self.0, Storage::Mapped { .. })
    }
}

impl fmt::Debug for WordBuffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WordBuffer").field("words", &self.words().len()).field("mapped", &self.is_mapped()).finish()
    }
}
