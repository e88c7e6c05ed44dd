//! The token trie: every text token's bytes in one flat, preorder array.

use super::PlainTokens;
use std::fmt;

/// One node of a [`TokenTrie`]: the edge byte that leads to it and the extent of its subtree.
///
/// Nodes are stored in preorder, so a node's descendants are the nodes right after it, up to
/// `subtree_end`: the first child of node `n` is `n + 1` when `n + 1 < subtree_end`, and the
/// next sibling of a child `c` is `nodes[c].subtree_end`.
///
/// # Example
/// ```
/// use stackmask::tokenizer::Vocabulary;
///
/// let tokens = vec![b"a".to_vec(), b"ab".to_vec(), b"b".to_vec()];
/// let vocab = Vocabulary::from_token_bytes(tokens, None);
/// let nodes = vocab.trie().nodes();
/// // Preorder: root, "a", "ab", "b".
/// assert_eq!(nodes[1].byte, b'a');
/// assert_eq!(nodes[1].subtree_end, 3); // "a" and its child "ab"
/// assert_eq!(nodes[3].byte, b'b'); // the next sibling of "a"
/// assert_eq!(nodes[0].subtree_end, 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrieNode {
    /// Index one past the last node of this node's subtree.
    pub subtree_end: u32,
    /// The byte on the edge from the parent (0 for the root).
    pub byte: u8,
    /// Start of this node's ids in the shared id list; they end where the next node's start.
    tokens_start: u32,
}

impl TrieNode {
    /// The byte on the edge from the parent to this node (0 for the root); the same as the
    /// field [`byte`](TrieNode::byte).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"x".to_vec()], None);
    /// assert_eq!(vocab.trie().nodes()[1].byte(), b'x');
    /// ```
    #[inline]
    pub fn byte(&self) -> u8 {
        self.byte
    }

    /// Index one past the last descendant of this node: the field
    /// [`subtree_end`](TrieNode::subtree_end) as a `usize`, ready for indexing.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"x".to_vec(), b"y".to_vec()], None);
    /// let nodes = vocab.trie().nodes();
    /// assert_eq!(nodes[0].subtree_end(), 3); // root, "x", "y"
    /// assert_eq!(nodes[1].subtree_end(), 2); // "x" has no child; its sibling "y" is node 2
    /// ```
    #[inline]
    pub fn subtree_end(&self) -> usize {
        self.subtree_end as usize
    }
}

/// All text tokens of a vocabulary in a byte trie, stored as a flat preorder array.
///
/// Node 0 ([`TokenTrie::ROOT`]) is the root and stands for the empty string; every other node
/// stands for the bytes on the path to it. Children are sorted by byte. The ids of the tokens
/// whose bytes end exactly at a node are [`tokens_at`](TokenTrie::tokens_at) that node (several
/// ids may share the same bytes). Special tokens are not in the trie.
///
/// A walk over the trie in array order visits every token prefix once, which is how a mask is
/// computed: when a node is rejected, skip to its [`subtree_end`](TrieNode::subtree_end).
///
/// # Example
/// ```
/// use stackmask::tokenizer::{TokenTrie, Vocabulary};
///
/// let vocab = Vocabulary::from_token_bytes(
///     vec![b"a".to_vec(), b"ab".to_vec(), b"b".to_vec(), Vec::new()],
///     Some(3),
/// );
/// let trie = vocab.trie();
/// // Preorder: root, "a", "ab", "b"; the edge bytes are a, b, b.
/// let bytes: Vec<u8> = trie.nodes()[1..].iter().map(|n| n.byte).collect();
/// assert_eq!(bytes, b"abb");
/// assert_eq!(trie.tokens_at(trie.lookup(b"ab").unwrap()), &[1]);
/// assert_eq!(trie.children(TokenTrie::ROOT).count(), 2);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct TokenTrie {
    /// Nodes in preorder; node 0 is the root.
    nodes: Vec<TrieNode>,
    /// Token ids, grouped by node in preorder, ascending within a node.
    token_ids: Vec<u32>,
    /// By node: the edge bytes of its strict descendants.
    descendant_bytes: Vec<ByteBuckets>,
    /// By node: how many bytes below it its subtree's deepest node is.
    heights: Vec<u32>,
    /// Token ids, longest first; `longer_than[n]` of them are longer than `n` bytes.
    by_length: Vec<u32>,
    longer_than: Vec<u32>,
    /// Length of the longest token.
    max_depth: usize,
    plain: PlainTokens,
}

impl TokenTrie {
    /// Index of the root node, which stands for the empty string.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::{TokenTrie, Vocabulary};
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"a".to_vec()], None);
    /// assert_eq!(vocab.trie().lookup(b""), Some(TokenTrie::ROOT));
    /// ```
    pub const ROOT: usize = 0;

    /// Builds the trie of `(id, bytes)` pairs.
    ///
    /// # Panics
    /// If the trie would have 2³² nodes or more (over 4 GiB of token bytes).
    pub(crate) fn from_tokens<'a>(tokens: impl IntoIterator<Item = (u32, &'a [u8])>) -> TokenTrie {
        let mut sorted: Vec<(&[u8], u32)> = tokens.into_iter().map(|(id, b)| (b, id)).collect();
        sorted.sort_unstable();
        let mut builder = TrieBuilder::new(sorted.len());
        for (bytes, id) in sorted {
            builder.insert(bytes, id);
        }
        builder.finish()
    }

    /// All nodes in preorder; node 0 is the root.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"ab".to_vec()], None);
    /// let bytes: Vec<u8> = vocab.trie().nodes().iter().map(|n| n.byte).collect();
    /// assert_eq!(bytes, [0, b'a', b'b']);
    /// ```
    #[inline]
    pub fn nodes(&self) -> &[TrieNode] {
        &self.nodes
    }

    /// Number of nodes, the root included.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"ab".to_vec(), b"ac".to_vec()], None);
    /// assert_eq!(vocab.trie().node_count(), 4); // root, "a", "ab", "ac"
    /// ```
    #[inline]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Length in bytes of the longest token, i.e. the depth of the deepest node.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"abc".to_vec(), b"d".to_vec()], None);
    /// assert_eq!(vocab.trie().max_depth(), 3);
    /// ```
    #[inline]
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The ids of the tokens whose bytes are exactly the path to `node`, in increasing order.
    ///
    /// # Panics
    /// If `node` is not below [`node_count`](TokenTrie::node_count).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let tokens = vec![b"a".to_vec(), b"ab".to_vec(), b"a".to_vec()];
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// let trie = vocab.trie();
    /// assert_eq!(trie.tokens_at(trie.lookup(b"a").unwrap()), &[0, 2]);
    /// assert!(trie.tokens_at(0).is_empty());
    /// ```
    #[inline]
    pub fn tokens_at(&self, node: usize) -> &[u32] {
        &self.token_ids[self.ids_start(node)..self.ids_start(node + 1)]
    }

    /// The ids of the tokens whose bytes start with the path to `node` (the tokens at `node`
    /// and at all its descendants), grouped by node in preorder.
    ///
    /// # Panics
    /// If `node` is not below [`node_count`](TokenTrie::node_count).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let tokens = vec![b"a".to_vec(), b"ab".to_vec(), b"b".to_vec()];
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// let trie = vocab.trie();
    /// assert_eq!(trie.subtree_tokens(trie.lookup(b"a").unwrap()), &[0, 1]);
    /// assert_eq!(trie.subtree_tokens(0).len(), 3);
    /// ```
    #[inline]
    pub fn subtree_tokens(&self, node: usize) -> &[u32] {
        &self.token_ids[self.ids_start(node)..self.ids_start(self.nodes[node].subtree_end())]
    }

    /// Where node `node`'s ids start in the id list; for `node == node_count()`, its end.
    #[inline]
    fn ids_start(&self, node: usize) -> usize {
        self.nodes.get(node).map_or(self.token_ids.len(), |n| n.tokens_start as usize)
    }

    /// The bytes on the edges below `node` (not the edge into it), as [`ByteBuckets`]: a walk
    /// that stays in one state on every byte of these buckets can take `node`'s whole
    /// subtree in one step.
    ///
    /// # Panics
    /// If `node` is not below [`node_count`](TokenTrie::node_count).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::{ByteBuckets, Vocabulary};
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"ab".to_vec(), b"ac".to_vec()], None);
    /// let trie = vocab.trie();
    /// let below_a = trie.descendant_bytes(trie.lookup(b"a").unwrap());
    /// assert_eq!(below_a, ByteBuckets::of(b"bc"));
    /// assert_eq!(trie.descendant_bytes(0), ByteBuckets::of(b"abc"));
    /// ```
    #[inline]
    pub fn descendant_bytes(&self, node: usize) -> ByteBuckets {
        self.descendant_bytes[node]
    }

    /// How many bytes longer than the path to `node` the longest token starting with that
    /// path is (0 for a leaf).
    ///
    /// # Panics
    /// If `node` is not below [`node_count`](TokenTrie::node_count).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"a".to_vec(), b"abcd".to_vec(), b"b".to_vec()], None);
    /// let trie = vocab.trie();
    /// assert_eq!(trie.height(trie.lookup(b"a").unwrap()), 3);
    /// assert_eq!(trie.height(trie.lookup(b"b").unwrap()), 0);
    /// assert_eq!(trie.height(0), 4);
    /// ```
    #[inline]
    pub fn height(&self, node: usize) -> usize {
        self.heights[node] as usize
    }

    /// The ids of the tokens longer than `len` bytes (none when `len` is
    /// [`max_depth`](TokenTrie::max_depth) or more), longest first.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"a".to_vec(), b"abcd".to_vec(), b"bc".to_vec()], None);
    /// assert_eq!(vocab.trie().tokens_longer_than(1), &[1, 2]);
    /// assert_eq!(vocab.trie().tokens_longer_than(2), &[1]);
    /// assert!(vocab.trie().tokens_longer_than(4).is_empty());
    /// ```
    pub fn tokens_longer_than(&self, len: usize) -> &[u32] {
        let count = self.longer_than.get(len).map_or(0, |&n| n as usize);
        &self.by_length[..count]
    }

    /// Which tokens are plain text ([`PlainTokens`]).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"a".to_vec(), b"\"".to_vec()], None);
    /// assert_eq!(vocab.trie().plain_tokens().ids(), &[0]);
    /// ```
    pub fn plain_tokens(&self) -> &PlainTokens {
        &self.plain
    }

    /// The children of `node`, in increasing order of their bytes.
    ///
    /// # Panics
    /// If `node` is not below [`node_count`](TokenTrie::node_count).
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::{TokenTrie, Vocabulary};
    ///
    /// let tokens = vec![b"b".to_vec(), b"a".to_vec(), b"ab".to_vec()];
    /// let vocab = Vocabulary::from_token_bytes(tokens, None);
    /// let trie = vocab.trie();
    /// let bytes: Vec<u8> =
    ///     trie.children(TokenTrie::ROOT).map(|c| trie.nodes()[c].byte).collect();
    /// assert_eq!(bytes, b"ab");
    /// ```
    pub fn children(&self, node: usize) -> Children<'_> {
        Children { nodes: &self.nodes, next: node + 1, end: self.nodes[node].subtree_end() }
    }

    /// The node whose path spells `bytes`, if some token starts with `bytes`.
    ///
    /// # Example
    /// ```
    /// use stackmask::tokenizer::Vocabulary;
    ///
    /// let vocab = Vocabulary::from_token_bytes(vec![b"hello".to_vec()], None);
    /// let trie = vocab.trie();
    /// assert!(trie.lookup(b"hel").is_some());
    /// assert!(trie.tokens_at(trie.lookup(b"hel").unwrap()).is_empty());
    /// assert_eq!(trie.tokens_at(trie.lookup(b"hello").unwrap()), &[0]);
    /// assert_eq!(trie.lookup(b"help"), None);
    /// ```
    pub fn lookup(&self, bytes: &[u8]) -> Option<usize> {
        bytes.iter().try_fold(Self::ROOT, |node, &byte| {
            self.children(node).find(|&child| self.nodes[child].byte == byte)
        })
    }
}

impl fmt::Debug for TokenTrie {
    /// A summary: sizes only, not the nodes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenTrie")
            .field("node_count", &self.nodes.len())
            .field("token_count", &self.token_ids.len())
            .field("max_depth", &self.max_depth)
            .finish()
    }
}

/// Iterator over the children of a trie node, made by [`TokenTrie::children`].
///
/// # Example
/// ```
/// use stackmask::tokenizer::{Children, TokenTrie, Vocabulary};
///
/// let vocab = Vocabulary::from_token_bytes(vec![b"a".to_vec(), b"b".to_vec()], None);
/// let children: Children<'_> = vocab.trie().children(TokenTrie::ROOT);
/// assert_eq!(children.collect::<Vec<_>>(), [1, 2]);
/// ```
#[derive(Clone, Debug)]
pub struct Children<'a> {
    nodes: &'a [TrieNode],
    next: usize,
    end: usize,
}

impl Iterator for Children<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        (self.next < self.end).then(|| {
            let child = self.next;
            self.next = self.nodes[child].subtree_end();
            child
        })
    }
}

/// Builds a [`TokenTrie`] from tokens inserted in increasing order of their bytes.
struct TrieBuilder<'a> {
    /// The nodes made so far, in preorder.
    nodes: Vec<TrieNode>,
    /// The ids inserted so far, grouped by node.
    token_ids: Vec<u32>,
    /// The nodes on the path to the last inserted token; `path[d]` is at depth `d`.
    path: Vec<usize>,
    /// The bytes of the last inserted token.
    previous: &'a [u8],
    /// Length of the longest token so far.
    max_depth: usize,
    /// By length in bytes, the ids inserted so far.
    ids_by_length: Vec<Vec<u32>>,
}

impl<'a> TrieBuilder<'a> {
    /// A builder holding only the root, sized for `token_count` tokens.
    fn new(token_count: usize) -> TrieBuilder<'a> {
        let mut builder = TrieBuilder {
            nodes: Vec::with_capacity(token_count * 2 + 1),
            token_ids: Vec::with_capacity(token_count),
            path: Vec::new(),
            previous: &[],
            max_depth: 0,
            ids_by_length: Vec::new(),
        };
        builder.open(0);
        builder
    }

    /// Adds token `id` with `bytes`, which must not sort before the previous token's bytes.
    ///
    /// Since tokens come sorted, the new token shares a prefix with the previous one and its
    /// remaining bytes become new nodes after every node made so far: preorder is kept, and
    /// nodes deeper than the shared prefix are complete.
    fn insert(&mut self, bytes: &'a [u8], id: u32) {
        let shared = common_prefix_len(self.previous, bytes);
        self.close_deeper_than(shared);
        for &byte in &bytes[shared..] {
            self.open(byte);
        }
        self.token_ids.push(id);
        self.previous = bytes;
        self.max_depth = self.max_depth.max(bytes.len());
        if self.ids_by_length.len() <= bytes.len() {
            self.ids_by_length.resize(bytes.len() + 1, Vec::new());
        }
        self.ids_by_length[bytes.len()].push(id);
    }

    /// Appends a node for `byte` below the end of the current path.
    fn open(&mut self, byte: u8) {
        self.path.push(self.nodes.len());
        let tokens_start = index_u32(self.token_ids.len());
        self.nodes.push(TrieNode { subtree_end: 0, byte, tokens_start });
    }

    /// Completes the nodes of the current path deeper than `depth`: their subtrees end here.
    fn close_deeper_than(&mut self, depth: usize) {
        let end = index_u32(self.nodes.len());
        for node in self.path.drain(depth + 1..) {
            self.nodes[node].subtree_end = end;
        }
    }

    /// Completes every node, the root included.
    fn finish(mut self) -> TokenTrie {
        self.close_deeper_than(0);
        self.nodes[TokenTrie::ROOT].subtree_end = index_u32(self.nodes.len());
        let (descendant_bytes, heights) = subtree_summaries(&self.nodes);
        let (by_length, longer_than) = longest_first(self.ids_by_length);
        let mut trie = TokenTrie {
            nodes: self.nodes,
            token_ids: self.token_ids,
            descendant_bytes,
            heights,
            by_length,
            longer_than,
            max_depth: self.max_depth,
            plain: PlainTokens::default(),
        };
        trie.plain = PlainTokens::new(&trie);
        trie
    }
}

/// By node, the [`ByteBuckets`] of the edges below it, and how many bytes below it its
/// subtree's deepest node is (every leaf holds a token, so its deepest token). Children
/// come after their parent in preorder, so one backward pass sees every child complete
/// before its parent.
fn subtree_summaries(nodes: &[TrieNode]) -> (Vec<ByteBuckets>, Vec<u32>) {
    let mut below = vec![ByteBuckets::EMPTY; nodes.len()];
    let mut heights = vec![0u32; nodes.len()];
    for node in (0..nodes.len()).rev() {
        let mut child = node + 1;
        while child < nodes[node].subtree_end() {
            below[node] = below[node].union(ByteBuckets::of(&[nodes[child].byte])).union(below[child]);
            heights[node] = heights[node].max(heights[child] + 1);
            child = nodes[child].subtree_end();
        }
    }
    (below, heights)
}

/// Token ids ordered longest first, from the ids of each length, and by length `n` how
/// many of them are longer than `n` bytes.
fn longest_first(ids_by_length: Vec<Vec<u32>>) -> (Vec<u32>, Vec<u32>) {
    let mut longer_than = vec![0u32; ids_by_length.len()];
    let mut total = 0u32;
    for (n, ids) in ids_by_length.iter().enumerate().rev() {
        longer_than[n] = total;
        total += ids.len() as u32;
    }
    (ids_by_length.into_iter().rev().flatten().collect(), longer_than)
}

/// A set of bytes kept as 128 buckets: the printable ASCII bytes and DEL (`0x20..=0x7F`)
/// have a bucket each, the ASCII control bytes share one, and the bytes `0x80..=0xFF` share
/// 26 buckets of five (four in the last). A set of buckets stands for every byte in them, so
/// "the buckets of `a` are within those of `b`" is a sound, cheap test for `a ⊆ b` when
/// `b` is [`within`](ByteBuckets::within) some byte predicate.
///
/// # Example
/// ```
/// use stackmask::tokenizer::ByteBuckets;
///
/// let letters = ByteBuckets::of(b"abc");
/// assert!(ByteBuckets::of(b"ba").is_subset(letters));
/// assert!(!ByteBuckets::of(b"ad").is_subset(letters));
/// // A bucket is in `within` only if every byte in it passes.
/// let printable = ByteBuckets::within(|b| (0x20..0x7f).contains(&b));
/// assert!(ByteBuckets::of(b"hello, world").is_subset(printable));
/// assert!(!ByteBuckets::of(b"\t").is_subset(printable));
/// assert!(!ByteBuckets::of(&[0xC3]).is_subset(printable));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct ByteBuckets(u128);

impl ByteBuckets {
    /// No byte.
    pub const EMPTY: ByteBuckets = ByteBuckets(0);

    /// The buckets of `bytes`.
    pub fn of(bytes: &[u8]) -> ByteBuckets {
        ByteBuckets(bytes.iter().fold(0, |set, &b| set | 1 << Self::bucket(b)))
    }

    /// The buckets all of whose bytes satisfy `keep`.
    pub fn within(keep: impl Fn(u8) -> bool) -> ByteBuckets {
        let mut failed = 0u128;
        for byte in 0..=u8::MAX {
            if !keep(byte) {
                failed |= 1 << Self::bucket(byte);
            }
        }
        ByteBuckets(!failed & Self::USED)
    }

    /// Both sets' buckets.
    pub fn union(self, other: ByteBuckets) -> ByteBuckets {
        ByteBuckets(self.0 | other.0)
    }

    /// Whether every bucket of `self` is in `other`.
    pub fn is_subset(self, other: ByteBuckets) -> bool {
        self.0 & !other.0 == 0
    }

    /// The buckets some byte maps to.
    const USED: u128 = (1 << (Self::bucket(0xFF) + 1)) - 1;
    /// The first bucket of the bytes `0x80..=0xFF`.
    const HIGH_FIRST: u32 = 97;

    /// The bucket of `byte`.
    const fn bucket(byte: u8) -> u32 {
        match byte {
            0x00..=0x1F => 96,
            0x20..=0x7F => (byte - 0x20) as u32,
            0x80..=0xFF => Self::HIGH_FIRST + (byte - 0x80) as u32 / 5,
        }
    }
}

impl fmt::Debug for ByteBuckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ByteBuckets({:#034x})", self.0)
    }
}

/// Number of leading bytes `a` and `b` have in common.
fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// `index` as a stored `u32`.
///
/// # Panics
/// If `index` does not fit (a trie over more than 4 GiB of token bytes).
fn index_u32(index: usize) -> u32 {
    u32::try_from(index).expect("token trie over 4 GiB of token bytes")
}
