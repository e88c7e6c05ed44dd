//! Plain-text tokens: the tokens that are whole characters of ordinary text.
//!
//! Inside a string literal (a JSON string, most of a Java or Go one), nearly the whole
//! vocabulary leaves the lexer where it found it: every character of such a token steps
//! back to the state it started from. Which tokens those are depends on the vocabulary
//! alone, once "ordinary text" is fixed, so the trie computes them once ([`PlainTokens`])
//! and a lexer state that keeps to itself on every such character
//! ([`PlainText`], checked by the spanner) gets them all as one class, walking only the
//! few thousand tokens holding anything else.

use super::TokenTrie;

/// The characters of plain text, as an automaton over UTF-8 bytes: every Unicode scalar
/// value except the control characters (`U+0000..=U+001F` and `U+007F`), `"` and `\`.
/// These are the characters a JSON string holds unescaped, without DEL; the states
/// between a character's first and last byte check that the bytes are well-formed UTF-8
/// (no overlong forms, no surrogates, nothing past `U+10FFFF`).
///
/// # Example
/// ```
/// use stackmask::tokenizer::PlainText;
/// let ends_plain = |bytes: &[u8]| {
///     bytes.iter().try_fold(PlainText::BOUNDARY, |s, &b| PlainText::step(s, b)) == Some(PlainText::BOUNDARY)
/// };
/// assert!(ends_plain("héllo, wörld €".as_bytes()));
/// assert!(!ends_plain(b"say \"hi\""));
/// assert!(!ends_plain(b"tab\t"));
/// assert!(!ends_plain(&"é".as_bytes()[..1])); // half a character
/// assert!(!ends_plain(&[0xED, 0xA0, 0x80])); // a surrogate
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PlainText;

impl PlainText {
    /// Between characters (the start).
    pub const BOUNDARY: u8 = 0;
    /// How many states [`PlainText::step`] uses (ids below this).
    pub const STATES: usize = 8;

    /// The state after `byte` in state `state`; `None` when `byte` leaves plain text.
    pub const fn step(state: u8, byte: u8) -> Option<u8> {
        // States: 0 boundary; 1, 2, 5 expect 1, 2, 3 more continuation bytes; 3 (after
        // E0), 4 (after ED), 6 (after F0) and 7 (after F4) expect a narrowed first one.
        let next = match (state, byte) {
            (0, b'"' | b'\\' | 0x00..=0x1F | 0x7F) => return None,
            (0, 0x20..=0x7E) => 0,
            (0, 0xC2..=0xDF) => 1,
            (0, 0xE0) => 3,
            (0, 0xE1..=0xEC | 0xEE..=0xEF) => 2,
            (0, 0xED) => 4,
            (0, 0xF0) => 6,
            (0, 0xF1..=0xF3) => 5,
            (0, 0xF4) => 7,
            (1, 0x80..=0xBF) => 0,
            (2, 0x80..=0xBF) | (3, 0xA0..=0xBF) | (4, 0x80..=0x9F) => 1,
            (5, 0x80..=0xBF) | (6, 0x90..=0xBF) | (7, 0x80..=0x8F) => 2,
            _ => return None,
        };
        Some(next)
    }
}

/// Which tokens of a [`TokenTrie`](super::TokenTrie) are plain text (whole
/// [`PlainText`] characters, at least one and at most [`PlainTokens::MAX_CHARS`]), and
/// where in the trie the others are.
///
/// # Example
/// ```
/// use stackmask::tokenizer::Vocabulary;
/// let tokens = ["ab", "a\"", "é", "\u{e9}x", "\n"].iter().map(|t| t.as_bytes().to_vec()).collect();
/// let vocab = Vocabulary::from_token_bytes(tokens, None);
/// let trie = vocab.trie();
/// let plain = trie.plain_tokens();
/// assert_eq!(plain.ids(), &[0, 2, 3]);
/// // Below "a" is `a"`: a walk skipping plain tokens goes there, not below "é".
/// assert!(plain.holds_other(trie.lookup(b"a").unwrap()));
/// assert!(!plain.holds_other(trie.lookup("é".as_bytes()).unwrap()));
/// assert!(plain.is_plain(trie.lookup(b"ab").unwrap()));
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PlainTokens {
    /// The plain tokens' ids, ascending, and as a bitmap (mask layout, up to the word
    /// of the largest).
    ids: Vec<u32>,
    bitmap: Vec<u32>,
    /// By number of characters `n`, the ids of the plain tokens of `n` characters,
    /// by number of bytes then ascending (none of 0), and each one's number of bytes.
    by_chars: Vec<Vec<u32>>,
    bytes_by_chars: Vec<Vec<u16>>,
    /// By plain trie node one or two characters deep, its subtree's plain tokens by
    /// number of characters ([`PlainTokens::below`]).
    below: Below,
    /// By node: whether the path to it is plain text up to inside a character.
    within: Bits,
    /// By node: whether the path to it is plain text.
    plain: Bits,
    /// By node: whether a token at it or below it is not plain text.
    other: Bits,
    /// By node: the first of it and its next siblings holding a token that is not plain
    /// text, else where its parent's subtree ends.
    next_other: Vec<u32>,
    /// By printable ASCII byte (from `0x20`), the plain tokens holding it, and the plain
    /// tokens holding a character beyond ASCII, as bitmaps like `bitmap`
    /// ([`PlainTokens::holding`]).
    holding: Vec<Vec<u32>>,
    beyond_ascii: Vec<u32>,
    /// By printable ASCII byte (from `0x20`), then for the bytes starting a character
    /// beyond ASCII: the nodes of that byte right after a plain path, ascending
    /// ([`PlainTokens::first_after_plain`]), and the characters on the path before each.
    after_plain: Vec<Vec<u32>>,
    after_plain_chars: Vec<Vec<u16>>,
}

impl PlainTokens {
    /// The most characters of a plain token: a longer one (no real vocabulary has one;
    /// Llama 3's longest token is 128 bytes) is walked as any other token, so that the
    /// lists by count, and the chains a row follows, stay short.
    pub const MAX_CHARS: usize = 256;

    /// Computed from a trie's nodes in preorder and each node's token ids.
    pub(super) fn new(trie: &TokenTrie) -> PlainTokens {
        let nodes = trie.nodes();
        let mut states = vec![None; nodes.len()];
        let mut chars = vec![0u16; nodes.len()];
        let mut by_chars: Vec<Vec<(u16, u32)>> = vec![Vec::new()];
        let mut parents: Vec<usize> = Vec::new();
        // By node on the path: the printable ASCII bytes on the path to it, and whether a
        // byte beyond ASCII is.
        let mut path_bytes: Vec<(u128, bool)> = Vec::new();
        let ids_end = trie.subtree_tokens(TokenTrie::ROOT).iter().max().map_or(0, |&id| id as usize + 1);
        let mut holding = Holding::new(ids_end.div_ceil(32));
        let mut after_plain: Vec<Vec<u32>> = vec![Vec::new(); AFTER_PLAIN_KEYS];
        let mut after_plain_chars: Vec<Vec<u16>> = vec![Vec::new(); AFTER_PLAIN_KEYS];
        let (mut plain, mut other, mut within) = (Bits::new(nodes.len()), Bits::new(nodes.len()), Bits::new(nodes.len()));
        states[0] = Some(PlainText::BOUNDARY);
        for node in 1..nodes.len() {
            while parents.last().is_some_and(|&p| nodes[p].subtree_end() <= node) {
                parents.pop();
                path_bytes.pop();
            }
            let parent = parents.last().copied().unwrap_or(0);
            let (ascii, beyond) = path_bytes.last().copied().unwrap_or((0, false));
            let byte = nodes[node].byte;
            let bytes = match byte {
                0x20..=0x7E => (ascii | 1 << (byte - 0x20), beyond),
                0x80..=0xFF => (ascii, true),
                _ => (ascii, beyond),
            };
            states[node] = states[parent].and_then(|s| PlainText::step(s, byte));
            if states[node] == Some(PlainText::BOUNDARY) && usize::from(chars[parent]) == Self::MAX_CHARS {
                states[node] = None;
            }
            let ends_plain = states[node] == Some(PlainText::BOUNDARY);
            let inside_char = states[node].is_some_and(|s| s != PlainText::BOUNDARY);
            if let Some(key) = after_plain_key(byte).filter(|_| starts_plain_char(byte, ends_plain, inside_char)) {
                after_plain[key].push(node as u32);
                after_plain_chars[key].push(chars[parent]);
            }
            if states[node] == Some(PlainText::BOUNDARY) {
                plain.insert(node);
                chars[node] = chars[parent] + 1;
                let n = usize::from(chars[node]);
                if by_chars.len() <= n {
                    by_chars.resize(n + 1, Vec::new());
                }
                // The stack holds the path's nodes above this one, but the root.
                let length = parents.len() as u16 + 1;
                by_chars[n].extend(trie.tokens_at(node).iter().map(|&id| (length, id)));
                trie.tokens_at(node).iter().for_each(|&id| holding.insert(id, bytes));
            } else {
                chars[node] = chars[parent];
                if states[node].is_some() {
                    within.insert(node);
                }
                if !trie.tokens_at(node).is_empty() {
                    other.insert(node);
                }
            }
            parents.push(node);
            path_bytes.push(bytes);
        }
        // Children come after their parents: one backward pass lifts `other` to ancestors.
        for node in (0..nodes.len()).rev() {
            if trie.children(node).any(|child| other.contains(child)) {
                other.insert(node);
            }
        }
        by_chars.iter_mut().for_each(|tokens| tokens.sort_unstable());
        let below = Below::new(trie, &plain, &chars);
        let bytes_by_chars = by_chars.iter().map(|tokens| tokens.iter().map(|&(bytes, _)| bytes).collect()).collect();
        let by_chars: Vec<Vec<u32>> = by_chars.into_iter().map(|tokens| tokens.into_iter().map(|(_, id)| id).collect()).collect();
        let mut ids: Vec<u32> = by_chars.concat();
        ids.sort_unstable();
        let mut bitmap = vec![0u32; ids.last().map_or(0, |&id| id as usize / 32 + 1)];
        ids.iter().for_each(|&id| bitmap[id as usize / 32] |= 1 << (id % 32));
        let next_other = next_other(trie, &other);
        let Holding { mut ascii, mut beyond_ascii } = holding;
        ascii.iter_mut().chain([&mut beyond_ascii]).for_each(|bits| bits.truncate(bitmap.len()));
        let holding = ascii;
        PlainTokens { ids, bitmap, by_chars, bytes_by_chars, below, within, plain, other, next_other, holding, beyond_ascii, after_plain, after_plain_chars }
    }

    /// The ids of the plain-text tokens, ascending.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// The ids of the plain tokens of `chars` characters, the shorter in bytes first,
    /// then ascending.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let tokens = ["éa", "é", "ab", "a\""].iter().map(|t| t.as_bytes().to_vec()).collect();
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// let plain = vocab.trie().plain_tokens();
    /// assert_eq!((plain.of_chars(1), plain.of_chars(2)), (&[1][..], &[2, 0][..]));
    /// assert_eq!(plain.max_chars(), 2);
    /// assert!(plain.of_chars(3).is_empty());
    /// ```
    pub fn of_chars(&self, chars: usize) -> &[u32] {
        self.by_chars.get(chars).map_or(&[], Vec::as_slice)
    }

    /// The ids of the plain tokens of `chars` characters and at least `min_bytes` bytes
    /// (a tail of [`PlainTokens::of_chars`]).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let tokens = ["éa", "é", "ab", "a"].iter().map(|t| t.as_bytes().to_vec()).collect();
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// let plain = vocab.trie().plain_tokens();
    /// assert_eq!(plain.of_chars_and_bytes(2, 3), &[0]);
    /// assert_eq!(plain.of_chars_and_bytes(1, 2), &[1]);
    /// assert_eq!(plain.of_chars_and_bytes(1, 0), &[3, 1]);
    /// assert!(plain.of_chars_and_bytes(2, 4).is_empty());
    /// ```
    pub fn of_chars_and_bytes(&self, chars: usize, min_bytes: usize) -> &[u32] {
        let Some(bytes) = self.bytes_by_chars.get(chars) else { return &[] };
        let from = bytes.partition_point(|&b| usize::from(b) < min_bytes);
        &self.by_chars[chars][from..]
    }

    /// The plain tokens at or below trie node `node` by their number of characters,
    /// when the path to `node` is plain text of one or two characters (`None`
    /// otherwise).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let tokens = ["ab", "b", "ac", "a", "a\"", "abc", "é", "éa"].iter().map(|t| t.as_bytes().to_vec()).collect();
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// let trie = vocab.trie();
    /// let below_a = trie.plain_tokens().below(trie.lookup(b"a").unwrap()).unwrap();
    /// assert_eq!((below_a.of_chars(1), below_a.of_chars(2), below_a.of_chars(3)), (&[3][..], &[0, 2][..], &[5][..]));
    /// assert_eq!(below_a.max_chars(), 3);
    /// let below_e = trie.plain_tokens().below(trie.lookup("é".as_bytes()).unwrap()).unwrap();
    /// assert_eq!((below_e.path_chars(), below_e.of_chars(2)), (1, &[7][..]));
    /// assert!(trie.plain_tokens().below(trie.lookup(b"abc").unwrap()).is_none()); // three characters
    /// assert!(trie.plain_tokens().below(trie.lookup(b"a\"").unwrap()).is_none()); // not plain
    /// ```
    pub fn below(&self, node: usize) -> Option<PlainBelow<'_>> {
        let slot = *self.below.slot_of.get(node).filter(|&&slot| slot != Below::NONE)?;
        let (at, max_chars, chars) = self.below.slots[slot as usize];
        let (at, max_chars) = (at as usize, usize::from(max_chars));
        Some(PlainBelow { chars: usize::from(chars), starts: &self.below.starts[at..at + max_chars + 1], ids: &self.below.ids })
    }

    /// Whether the path to trie node `node` is plain text but for ending inside a
    /// character.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let vocab = Vocabulary::from_token_bytes(vec!["é".as_bytes().to_vec(), b"\xC3".to_vec(), b"a".to_vec()], None);
    /// let trie = vocab.trie();
    /// assert!(trie.plain_tokens().within_char(trie.lookup(b"\xC3").unwrap()));
    /// assert!(!trie.plain_tokens().within_char(trie.lookup("é".as_bytes()).unwrap()));
    /// assert!(!trie.plain_tokens().within_char(trie.lookup(b"a").unwrap()));
    /// ```
    pub fn within_char(&self, node: usize) -> bool {
        self.within.contains(node)
    }

    /// The most characters a plain token has (0 when there is none).
    pub fn max_chars(&self) -> usize {
        self.by_chars.len().saturating_sub(1)
    }

    /// [`PlainTokens::ids`] as a bitmap: bit `id % 32` of word `id / 32` is set for each;
    /// no more words than the largest id needs.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let tokens = ["\"", "a", "b"].iter().map(|t| t.as_bytes().to_vec()).collect();
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// assert_eq!(vocab.trie().plain_tokens().bitmap(), &[0b110]);
    /// ```
    pub fn bitmap(&self) -> &[u32] {
        &self.bitmap
    }

    /// The plain tokens holding `byte`, as a bitmap like [`PlainTokens::bitmap`]: empty
    /// for a byte no plain token holds (one outside printable ASCII); for a byte beyond
    /// ASCII, those holding any byte beyond ASCII.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let tokens = ["ab", "b", "wé", "\"w"].iter().map(|t| t.as_bytes().to_vec()).collect();
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// let plain = vocab.trie().plain_tokens();
    /// assert_eq!(plain.holding(b'b'), &[0b011]);
    /// assert_eq!(plain.holding(b'w'), &[0b100]); // `"w` is not plain text
    /// assert_eq!(plain.holding(0xC3), &[0b100]);
    /// assert!(plain.holding(b'\n').iter().all(|&w| w == 0));
    /// ```
    pub fn holding(&self, byte: u8) -> &[u32] {
        match byte {
            0x20..=0x7E => &self.holding[usize::from(byte - 0x20)],
            0x80..=0xFF => &self.beyond_ascii,
            _ => &[],
        }
    }

    /// The trie nodes of `byte` that end a plain path ([`PlainTokens::is_plain`]), or,
    /// for a byte beyond ASCII, of every byte starting a character beyond ASCII after a
    /// plain path ([`PlainTokens::within_char`]); ascending. Empty for a byte that does
    /// not start a plain character.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let tokens = ["w", "aw", "ww", "\"w", "éw"].iter().map(|t| t.as_bytes().to_vec()).collect();
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// let trie = vocab.trie();
    /// let at = |t: &str| trie.lookup(t.as_bytes()).unwrap() as u32;
    /// // Not after `"`, which is not plain text.
    /// assert_eq!(trie.plain_tokens().first_after_plain(b'w'), &[at("aw"), at("w"), at("ww"), at("éw")]);
    /// let e_lead = trie.lookup(&"é".as_bytes()[..1]).unwrap() as u32;
    /// assert_eq!(trie.plain_tokens().first_after_plain(0xC3), &[e_lead]);
    /// ```
    pub fn first_after_plain(&self, byte: u8) -> &[u32] {
        after_plain_key(byte).map_or(&[], |key| &self.after_plain[key])
    }

    /// The number of characters on the path before each node of
    /// [`PlainTokens::first_after_plain`]`(byte)`, in the same order.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let tokens = ["w", "éw", "abw"].iter().map(|t| t.as_bytes().to_vec()).collect();
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// // In trie order: "abw", "w", "éw".
    /// assert_eq!(vocab.trie().plain_tokens().first_after_plain_chars(b'w'), &[2, 0, 1]);
    /// ```
    pub fn first_after_plain_chars(&self, byte: u8) -> &[u16] {
        after_plain_key(byte).map_or(&[], |key| &self.after_plain_chars[key])
    }

    /// Whether trie node `node`, of byte `byte`, is in [`PlainTokens::first_after_plain`].
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    /// let vocab = Vocabulary::from_token_bytes(vec![b"aw".to_vec(), b"\"w".to_vec()], None);
    /// let (trie, plain) = (vocab.trie(), vocab.trie().plain_tokens());
    /// assert!(plain.is_first_after_plain(trie.lookup(b"aw").unwrap(), b'w'));
    /// assert!(!plain.is_first_after_plain(trie.lookup(b"\"w").unwrap(), b'w'));
    /// ```
    pub fn is_first_after_plain(&self, node: usize, byte: u8) -> bool {
        starts_plain_char(byte, self.is_plain(node), self.within_char(node))
    }

    /// Whether the bytes on the path to trie node `node` are plain text (so are the
    /// tokens at it).
    pub fn is_plain(&self, node: usize) -> bool {
        self.plain.contains(node)
    }

    /// Whether some token at `node` or below it is not plain text.
    pub fn holds_other(&self, node: usize) -> bool {
        self.other.contains(node)
    }

    /// The first of `node` and its next siblings (in byte order) that holds a token
    /// that is not plain text ([`PlainTokens::holds_other`]); where their parent's
    /// subtree ends when none does. A walk skipping plain text steps through the
    /// children of a node with it, never visiting the others.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::{TokenTrie, Vocabulary};
    /// let tokens = ["a", "b", "c\"", "d"].iter().map(|t| t.as_bytes().to_vec()).collect();
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// let trie = vocab.trie();
    /// let (a, c) = (trie.lookup(b"a").unwrap(), trie.lookup(b"c").unwrap());
    /// assert_eq!(trie.plain_tokens().next_other(a), c);
    /// let d = trie.lookup(b"d").unwrap();
    /// assert_eq!(trie.plain_tokens().next_other(d), trie.node_count());
    /// ```
    pub fn next_other(&self, node: usize) -> usize {
        self.next_other[node] as usize
    }
}

/// Keys of [`PlainTokens::first_after_plain`]: one per printable ASCII byte, one for the
/// bytes starting a character beyond ASCII.
const AFTER_PLAIN_KEYS: usize = 0x7F - 0x20 + 1;

/// The key of `byte` in [`PlainTokens::first_after_plain`], if it starts a plain character.
fn after_plain_key(byte: u8) -> Option<usize> {
    match byte {
        b'"' | b'\\' => None,
        0x20..=0x7E => Some(usize::from(byte - 0x20)),
        0xC2..=0xF4 => Some(AFTER_PLAIN_KEYS - 1),
        _ => None,
    }
}

/// Whether a node of `byte` whose path is plain text (`is_plain`), or plain text up to
/// inside a character (`within`), is one of [`PlainTokens::first_after_plain`]: an ASCII
/// byte ending a plain path, or a byte starting a character beyond ASCII after one.
fn starts_plain_char(byte: u8, is_plain: bool, within: bool) -> bool {
    (is_plain && byte.is_ascii()) || (within && (0xC2..=0xF4).contains(&byte))
}

/// By printable ASCII byte (from `0x20`), the bitmap of the plain tokens holding it, and
/// the bitmap of those holding a byte beyond ASCII, filled token by token.
struct Holding {
    ascii: Vec<Vec<u32>>,
    beyond_ascii: Vec<u32>,
}

impl Holding {
    /// Empty bitmaps of `words` words.
    fn new(words: usize) -> Holding {
        Holding { ascii: vec![vec![0; words]; usize::from(0x7F - 0x20_u8)], beyond_ascii: vec![0; words] }
    }

    /// Token `id`, holding the printable ASCII bytes `bytes.0` (bit `b - 0x20` for byte
    /// `b`) and, if `bytes.1`, bytes beyond ASCII.
    fn insert(&mut self, id: u32, (mut ascii, beyond): (u128, bool)) {
        let (word, bit) = (id as usize / 32, 1 << (id % 32));
        while ascii != 0 {
            self.ascii[ascii.trailing_zeros() as usize][word] |= bit;
            ascii &= ascii - 1;
        }
        if beyond {
            self.beyond_ascii[word] |= bit;
        }
    }
}

/// By node, [`PlainTokens::next_other`]: each parent's children, last to first.
fn next_other(trie: &TokenTrie, other: &Bits) -> Vec<u32> {
    let nodes = trie.nodes();
    let mut next = vec![0u32; nodes.len()];
    next[0] = nodes.len() as u32;
    let mut children = Vec::new();
    for (parent, node) in nodes.iter().enumerate() {
        children.clear();
        children.extend(trie.children(parent));
        let mut following = node.subtree_end;
        for &child in children.iter().rev() {
            if other.contains(child) {
                following = child as u32;
            }
            next[child] = following;
        }
    }
    next
}

/// The plain tokens below one trie node, by number of characters ([`PlainTokens::below`]).
#[derive(Clone, Copy, Debug)]
pub struct PlainBelow<'a> {
    /// The characters on the path to the node (1 or 2).
    chars: usize,
    /// `ids[starts[n - 1]..starts[n]]`: the tokens of `n` characters.
    starts: &'a [u32],
    ids: &'a [u32],
}

impl<'a> PlainBelow<'a> {
    /// The characters on the path to the node: its tokens have at least as many.
    pub fn path_chars(&self) -> usize {
        self.chars
    }

    /// The most characters of its tokens.
    pub fn max_chars(&self) -> usize {
        self.starts.len() - 1
    }

    /// The ids of the tokens of `chars` characters (counted from the trie's root),
    /// ascending.
    pub fn of_chars(&self, chars: usize) -> &'a [u32] {
        match (chars.checked_sub(1).and_then(|n| self.starts.get(n)), self.starts.get(chars)) {
            (Some(&from), Some(&to)) => &self.ids[from as usize..to as usize],
            _ => &[],
        }
    }
}

/// The index behind [`PlainTokens::below`].
#[derive(Clone, Default, PartialEq, Eq)]
struct Below {
    /// By node: its slot, or [`Below::NONE`] for a node not indexed. (A lookup per
    /// child of the nodes a row's walk splits: a hash table's probes were a quarter of
    /// a row inside a string.)
    slot_of: Vec<u32>,
    /// By slot: where its node's `starts` begin, its node's tokens' most characters,
    /// and its node's path's characters.
    slots: Vec<(u32, u16, u16)>,
    starts: Vec<u32>,
    ids: Vec<u32>,
}

impl Below {
    /// The slot of a node not indexed.
    const NONE: u32 = u32::MAX;

    /// The index of the plain nodes one or two characters deep, given which nodes are
    /// plain and how many characters their paths hold.
    fn new(trie: &TokenTrie, plain: &Bits, chars: &[u16]) -> Below {
        let mut below = Below { slot_of: vec![Below::NONE; trie.nodes().len()], ..Below::default() };
        let mut by_chars: Vec<Vec<u32>> = Vec::new();
        for node in (1..trie.nodes().len()).filter(|&node| plain.contains(node) && chars[node] <= 2) {
            by_chars.iter_mut().for_each(Vec::clear);
            for inner in (node..trie.nodes()[node].subtree_end()).filter(|&inner| plain.contains(inner)) {
                let n = usize::from(chars[inner]);
                if by_chars.len() < n {
                    by_chars.resize(n, Vec::new());
                }
                by_chars[n - 1].extend_from_slice(trie.tokens_at(inner));
            }
            let max_chars = by_chars.iter().rposition(|ids| !ids.is_empty()).map_or(0, |n| n + 1);
            below.slot_of[node] = below.slots.len() as u32;
            below.slots.push((below.starts.len() as u32, max_chars as u16, chars[node]));
            below.starts.push(below.ids.len() as u32);
            for ids in &mut by_chars[..max_chars] {
                ids.sort_unstable();
                below.ids.extend_from_slice(ids);
                below.starts.push(below.ids.len() as u32);
            }
        }
        below
    }
}

impl std::fmt::Debug for PlainTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlainTokens").field("plain", &self.ids.len()).finish()
    }
}

/// A fixed-size set of node indices.
#[derive(Clone, Default, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(len: usize) -> Bits {
        Bits(vec![0; len.div_ceil(64)])
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
}
