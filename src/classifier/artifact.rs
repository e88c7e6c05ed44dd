//! Classifier artifacts: what a [`StackClassifier`] has built, written to bytes and read
//! back, so that a server pays for an eager build once per grammar and vocabulary.
//!
//! Boundary: [`StackClassifier::to_artifact`] writes the built spanner rows and automata
//! with the grammar IR they came from; [`StackClassifier::open_artifact`] (a file, mapped
//! and read in place) and [`StackClassifier::from_artifact`] (bytes in memory, one copy)
//! take them back with the [`Vocabulary`] the caller already holds, and return a
//! classifier whose masks are the ones the written classifier gives (what was not built
//! yet is built on first use, as always).
//!
//! # Format
//!
//! A 40-byte header, all little endian: `MAGIC` (8 bytes), the format version (`u32`), a
//! reserved `u32` (zero), the metadata length in bytes (`u64`), the word count (`u64`)
//! and the digest (`u64`). Then two sections:
//!
//! * **metadata**, in [postcard]'s wire format: the grammar IR; 64-bit fingerprints of
//!   its compiled lexer and LR tables and of the vocabulary ([`Vocabulary::fingerprint`]);
//!   every distinct lexeme once, and the spans of the distinct lexeme sequences (as
//!   lexeme indices) and of their ends; per lexer state whose spanner row is
//!   built, the spans of its token ids and of its class table, and the automaton when
//!   one is built: its lexeme trie (the spans of its arrays, its lexemes and terminal
//!   sets), the spans of its large-class bitmaps, its configuration sets, its token sets
//!   (the spans of their class lists and of the sparse ids or dense bitmap each is
//!   written from) and its edges;
//! * **words**, from the next multiple of 8 bytes: the lexeme sequences and their
//!   ends, every row's token ids and class table
//!   (four words a class: lexeme sequence, end state, token range in the row), every
//!   lexeme trie's node, edge, group and class arrays, every large-class bitmap, token
//!   set and token set's class list, as little-endian `u32`s. Spans index this section;
//!   a token bitmap that several rows or token sets hold is written once and their spans
//!   name the same words.
//!
//! The words are what a built classifier spends its memory on (hundreds of MB for a Java
//! grammar with a 128k vocabulary), so loading never decodes them: a mapped file is read
//! in place ([`crate::words::WordBuffer`]), and each token set becomes a
//! [`Words`] slice of it. Only the metadata and the lexeme tries (a few MB) are decoded;
//! the tries are checked, not built again.
//!
//! The digest is xxh3-64 over the header's first 32 bytes and the xxh3-64 digests of the
//! rest in 4 MiB chunks (computed in parallel): verifying it reads every byte once.
//!
//! Loading recompiles the grammar from the IR under the caller's
//! [`CompileConfig`] (milliseconds; the expensive parts are the rows and automata) and
//! refuses the artifact unless the lexer and LR tables have the fingerprint written:
//! every lexer state, terminal, LR state and production id stored then means what it
//! meant when written.
//!
//! # Trust
//!
//! Loading never panics and never reads out of bounds, whatever the bytes: the digest
//! catches corruption and truncation, and every id and span is checked against what it
//! indexes (token ids ascending and below the vocabulary size, bitmaps of the mask's
//! length with no bit past the vocabulary; [`Error::Artifact`] says where and why). Like
//! `regex-automata`'s `DFA::from_bytes`, this cannot prove that a well-formed artifact
//! is the one the build would make: bytes crafted to pass the checks with other token
//! sets give other masks. Load artifacts you wrote, or check a loaded classifier against
//! the reference mask (`stackmask bench --verify`).
//!
//! [postcard]: https://docs.rs/postcard

use super::lexeme_trie::{LexemeForms, LexemeTrie};
use super::simulate::Blocked;
use super::{ClassifierConfig, Dfa, Edge, Output, RowAutomaton, StackClassifier, LARGE_CLASS, NO_OUTPUT};
use crate::error::{Error, Result};
use crate::interner::Interner;
use crate::ir::{Grammar, GrammarBuilder};
use crate::lexer::LexState;
use crate::lr::LrState;
use crate::matcher::{CompileConfig, CompiledGrammar};
use crate::spanner::{ClassTokens, Lexeme, SpannerRow, TokenClass, TokenSpanner};
use crate::tokenizer::Vocabulary;
use crate::words::{WordBuffer, Words};
use hashbrown::{HashMap, HashTable};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::hash::Hasher as _;
use twox_hash::XxHash3_64;

/// The first bytes of every artifact.
const MAGIC: [u8; 8] = *b"SMCLASS\0";
/// Bumped whenever a record's meaning changes; other versions are refused.
const FORMAT_VERSION: u32 = 6;
/// Magic, version, reserved word, metadata length, word count, digest.
const HEADER_BYTES: usize = 40;
/// The header bytes the digest covers (all but the digest).
const DIGESTED_HEADER: usize = 32;
/// The sections are digested in chunks of this many bytes, in parallel.
const DIGEST_CHUNK: usize = 4 << 20;

/// How [`StackClassifier::from_artifact`] compiles the grammar and bounds the classifier.
///
/// # Example
/// ```
/// use stackmask::classifier::ArtifactConfig;
/// let config = ArtifactConfig::default();
/// assert_eq!(config.classifier.max_known_stack, 64);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ArtifactConfig {
    /// Limits of the grammar compile (and the GLR limits of matchers using it).
    pub compile: CompileConfig,
    /// Bounds of the loaded classifier (the cache capacity applies to what is loaded too).
    pub classifier: ClassifierConfig,
}

#[derive(Serialize, Deserialize)]
struct Payload {
    grammar: Grammar,
    compiled_fingerprint: u64,
    vocab_fingerprint: u64,
    vocab_len: u64,
    /// Every distinct lexeme of the rows.
    lexemes: Vec<Lexeme>,
    /// Every distinct lexeme sequence of the rows' classes, as indices into `lexemes`,
    /// one after another.
    sequences: Span,
    /// Where each sequence ends in `sequences`.
    sequence_ends: Span,
    rows: Vec<RowRecord>,
}

#[derive(Serialize, Deserialize)]
struct RowRecord {
    state: LexState,
    /// The token ids of every class, class after class.
    tokens: Span,
    /// The classes, [`ClassRecord::WORDS`] words each (a Java row has thousands: read in
    /// place, not decoded).
    classes: Span,
    automaton: Option<AutomatonRecord>,
}

/// A class as words of the word section.
struct ClassRecord {
    /// Index into the payload's `sequences`.
    sequence: u32,
    end: u32,
    /// Where its ascending token ids are in the row's `tokens`.
    tokens: Range<u32>,
}

impl ClassRecord {
    const WORDS: usize = 4;

    fn to_words(&self) -> [u32; ClassRecord::WORDS] {
        [self.sequence, self.end, self.tokens.start, self.tokens.end]
    }

    fn from_words(words: &[u32]) -> ClassRecord {
        ClassRecord { sequence: words[0], end: words[1], tokens: words[2]..words[3] }
    }
}

#[derive(Serialize, Deserialize)]
struct AutomatonRecord {
    trie: TrieRecord,
    /// Dense bitmaps of the row's large classes, by class index, ascending.
    large: Vec<(u32, Span)>,
    /// Configuration sets by automaton state id, the dead and start states first.
    states: Vec<Vec<Blocked>>,
    /// Token sets by id.
    outputs: Vec<OutputRecord>,
    edges: Vec<(u32, LrState, Edge)>,
}

/// A [`LexemeTrie`] as [`LexemeTrie::to_words`] gives it.
#[derive(Serialize, Deserialize)]
struct TrieRecord {
    /// Its node, edge, group and class arrays.
    words: [Span; 4],
    /// Its lexemes, as indices into the payload's `lexemes`.
    lexemes: Vec<u32>,
    /// Its terminal sets, as terminal ids.
    sets: Vec<Vec<u32>>,
}

#[derive(Serialize, Deserialize)]
struct OutputRecord {
    /// The row's class indices the set holds (its key when edges are built later).
    classes: Span,
    form: OutputForm,
}

/// How a token set is written into a mask (see [`Output`]).
#[derive(Serialize, Deserialize)]
enum OutputForm {
    /// Large classes by index, and the other tokens' ascending ids.
    Sparse { large: Vec<u32>, tokens: Span },
    /// One bitmap.
    Dense(Span),
}

/// Words `start..start + len` of the word section.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct Span {
    start: u64,
    len: u64,
}

/// The lexemes and lexeme sequences being written, each once.
#[derive(Default)]
struct SequenceTable<'a> {
    lexemes: Interner<Lexeme>,
    /// The sequences' lexeme ids, one sequence after another.
    sequences: Vec<u32>,
    /// Where each sequence ends in `sequences`.
    ends: Vec<u32>,
    sequence_ids: HashMap<&'a [Lexeme], u32>,
}

impl<'a> SequenceTable<'a> {
    fn intern(&mut self, sequence: &'a [Lexeme]) -> u32 {
        if let Some(&id) = self.sequence_ids.get(sequence) {
            return id;
        }
        for lexeme in sequence {
            let id = self.lexemes.intern(lexeme);
            self.sequences.push(id);
        }
        self.ends.push(self.sequences.len() as u32);
        let id = self.ends.len() as u32 - 1;
        self.sequence_ids.insert(sequence, id);
        id
    }
}

/// The word section being written.
#[derive(Default)]
struct WordSection {
    words: Vec<u32>,
    /// Where each distinct bitmap was written, with the hash of its words.
    bitmaps: HashTable<(u64, Span)>,
}

impl WordSection {
    fn push(&mut self, words: &[u32]) -> Span {
        let start = self.words.len() as u64;
        self.words.extend_from_slice(words);
        Span { start, len: words.len() as u64 }
    }

    /// The span of a token bitmap, written once however many rows and token sets hold
    /// it: the rows of a grammar repeat the same large classes (a Java grammar's rows
    /// use 460 dense bitmaps with 220 distinct contents on its corpus), and a loaded
    /// classifier whose masks read one copy keeps the bitmaps they share in cache.
    fn push_bitmap(&mut self, bits: &[u32]) -> Span {
        let hash = XxHash3_64::oneshot(bytemuck::cast_slice(bits));
        let words = &self.words;
        let same = |&(h, span): &(u64, Span)| h == hash && &words[span.start as usize..][..span.len as usize] == bits;
        if let Some(&(_, span)) = self.bitmaps.find(hash, same) {
            return span;
        }
        let span = self.push(bits);
        self.bitmaps.insert_unique(hash, (hash, span), |&(h, _)| h);
        span
    }
}

impl StackClassifier {
    /// Write everything built so far (spanner rows and automata, typically after
    /// [`StackClassifier::build_eager`]) as an artifact for [`StackClassifier::open_artifact`]
    /// or [`StackClassifier::from_artifact`].
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, Matcher, tokenizer::Vocabulary};
    /// use stackmask::classifier::{ArtifactConfig, StackClassifier};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "(" start ")" | "x""#).unwrap();
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(
    ///     ["(", ")", "x", "x)", "(("].iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// let built = StackClassifier::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab.clone());
    /// built.build_eager().unwrap();
    /// let bytes = built.to_artifact().unwrap();
    ///
    /// let loaded = StackClassifier::from_artifact(&bytes, vocab, &ArtifactConfig::default()).unwrap();
    /// assert_eq!(loaded.stats().edges, built.stats().edges);
    /// let mut m = Matcher::with_classifier(Arc::new(loaded));
    /// m.commit(0).unwrap(); // "("
    /// let mut mask = vec![0u32; m.mask_words()];
    /// m.compute_mask(&mut mask).unwrap();
    /// assert_eq!(mask[0], 0b11101); // "(" "x" "x)" "((" but not ")"
    /// ```
    pub fn to_artifact(&self) -> Result<Vec<u8>> {
        let mut words = WordSection::default();
        let mut sequences = SequenceTable::default();
        let rows = self.spanner.built_rows().map(|(q, row)| self.row_record(q, row, &mut sequences, &mut words)).collect();
        let payload = Payload {
            grammar: self.compiled().grammar().clone(),
            compiled_fingerprint: compiled_fingerprint(self.compiled())?,
            vocab_fingerprint: self.vocab().fingerprint(),
            vocab_len: self.vocab().len() as u64,
            sequences: words.push(&sequences.sequences),
            sequence_ends: words.push(&sequences.ends),
            lexemes: sequences.lexemes.into_items(),
            rows,
        };
        let meta = postcard::to_stdvec(&payload).map_err(|e| artifact_error("payload", e))?;
        Ok(encode(&meta, &words.words))
    }

    /// Load an artifact written by [`StackClassifier::to_artifact`] from the file at
    /// `path`, for the vocabulary `vocab`, reading its token sets in place: the file is
    /// mapped into memory and only its metadata is decoded, so loading costs about one
    /// read of the file (to check its digest) and no copy; processes mapping the same
    /// file share its pages.
    ///
    /// The file must not be changed or truncated while the classifier (or a matcher
    /// using it) lives: like every memory-mapped reader (ripgrep's included), a
    /// truncated mapping faults on access. Write a new artifact under another name and
    /// rename it over the old one; use [`StackClassifier::from_artifact`] on bytes read
    /// into memory where that cannot be guaranteed.
    ///
    /// Errors: [`Error::Io`] when the file cannot be opened or mapped, and those of
    /// [`StackClassifier::from_artifact`].
    ///
    /// # Example
    /// ```
    /// use stackmask::{Grammar, CompiledGrammar, tokenizer::Vocabulary};
    /// use stackmask::classifier::{ArtifactConfig, StackClassifier};
    /// use std::sync::Arc;
    /// let g = Grammar::from_lark(r#"start: "(" start ")" | "x""#).unwrap();
    /// let vocab = Arc::new(Vocabulary::from_token_bytes(
    ///     ["(", ")", "x", "x)", "(("].iter().map(|t| t.as_bytes().to_vec()).collect(), None));
    /// let built = StackClassifier::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab.clone());
    /// built.build_eager().unwrap();
    /// let path = std::env::temp_dir().join(format!("stackmask-doc-{}.smc", std::process::id()));
    /// std::fs::write(&path, built.to_artifact().unwrap()).unwrap();
    ///
    /// let loaded = StackClassifier::open_artifact(&path, vocab, &ArtifactConfig::default()).unwrap();
    /// assert_eq!(loaded.stats(), built.stats());
    /// # drop(loaded);
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn open_artifact(path: &Path, vocab: Arc<Vocabulary>, config: &ArtifactConfig) -> Result<StackClassifier> {
        let io = |source| Error::Io { path: path.display().to_string(), source };
        let file = std::fs::File::open(path).map_err(io)?;
        // SAFETY: the mapping is only read, through bounds-checked slices; what the
        // caller must uphold (no truncation while mapped) is documented above. Changed
        // bytes are caught by the digest at load, or read as other (in-range) words.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        let words = Layout::read(&map)?.words;
        match WordBuffer::in_place(map, words) {
            Ok(buffer) => {
                let buffer = Arc::new(buffer);
                let bytes = buffer.mapping().expect("a mapped buffer");
                load(bytes, |_| Some(Arc::clone(&buffer)), vocab, config)
            }
            // Not readable in place (a big-endian target): one copy, as from bytes.
            Err(map) => StackClassifier::from_artifact(&map, vocab, config),
        }
    }

    /// Load an artifact written by [`StackClassifier::to_artifact`] for the vocabulary
    /// `vocab` from bytes in memory (its word section is copied once; see
    /// [`StackClassifier::open_artifact`] to read a file in place). Refused, as
    /// [`Error::Artifact`], when it was written for another vocabulary, when it is
    /// corrupt, truncated or of another format version, or when this build compiles its
    /// grammar to other tables. Errors of the grammar compile (limits in
    /// `config.compile`) are returned as they are.
    ///
    /// See [`StackClassifier::to_artifact`] for an example.
    pub fn from_artifact(bytes: &[u8], vocab: Arc<Vocabulary>, config: &ArtifactConfig) -> Result<StackClassifier> {
        load(bytes, |layout| WordBuffer::from_le_bytes(&bytes[layout.words.clone()]).map(Arc::new), vocab, config)
    }

    /// The classifier of a checked artifact's metadata and words.
    fn from_payload(
        payload: Payload,
        compiled: Arc<CompiledGrammar>,
        words: Arc<WordBuffer>,
        vocab: Arc<Vocabulary>,
        config: &ArtifactConfig,
    ) -> Result<StackClassifier> {
        let section = Section { buffer: &words, vocab_len: vocab.len() };
        let sequences = lexeme_sequences(&payload, &compiled, &section)?;
        let capacity = compiled.tables().terminal_capacity();
        let forms: Vec<LexemeForms> = payload.lexemes.iter().map(|lexeme| LexemeForms::new(lexeme, capacity)).collect();
        let rows = payload
            .rows
            .into_par_iter()
            .map(|record| row_from_record(record, &compiled, &sequences, &section))
            .collect::<Result<Vec<_>>>()?;
        let (rows, automata): (Vec<_>, Vec<_>) = rows.into_iter().map(|(q, row, automaton)| ((q, row), (q, automaton))).unzip();
        check_distinct_states(&rows)?;
        let spanner = TokenSpanner::with_rows(compiled, vocab, rows).map_err(|q| {
            artifact_error("rows", format!("a row for lexer state {}, which shares another state's row", q.index()))
        })?;
        let classifier = StackClassifier::with_spanner(Arc::new(spanner), config.classifier.clone());
        automata.into_par_iter().try_for_each(|(q, record)| match record {
            Some(record) => classifier.restore(q, record, &forms, &section),
            None => Ok(()),
        })?;
        Ok(classifier)
    }

    fn row_record<'a>(
        &self,
        q: LexState,
        row: &'a SpannerRow,
        sequences: &mut SequenceTable<'a>,
        words: &mut WordSection,
    ) -> RowRecord {
        let (listed, ranges) = row.listing();
        let classes: Vec<u32> = row
            .classes()
            .iter()
            .zip(ranges)
            .flat_map(|(class, tokens)| {
                let sequence = sequences.intern(&class.lexemes);
                ClassRecord { sequence, end: class.end.index() as u32, tokens }.to_words()
            })
            .collect();
        let classes = words.push(&classes);
        let tokens = words.push(&listed);
        let automaton = self.automata[q.index()].get().map(|automaton| AutomatonRecord::of(automaton, sequences, words));
        RowRecord { state: q, tokens, classes, automaton }
    }

    /// Install lexer state `q`'s automaton from `record` (its row is loaded already);
    /// `forms` are the payload's lexemes.
    fn restore(&self, q: LexState, record: AutomatonRecord, forms: &[LexemeForms], section: &Section) -> Result<()> {
        let at = || format!("automaton of lexer state {}", q.index());
        let row = self.spanner.row(q);
        let capacity = self.compiled().tables().terminal_capacity();
        let trie = restore_trie(&row, record.trie, forms, capacity, section)
            .map_err(|reason| Error::Artifact { at: format!("{}, lexeme trie", at()), reason })?;
        let large = restore_large(&row, record.large, section).map_err(|reason| Error::Artifact { at: at(), reason })?;
        let automaton = self.automata[q.index()].get_or_init(|| Box::new(self.automaton_of(row, trie, large)));
        let dfa = restore_dfa(automaton, record.states, record.outputs, record.edges, self.compiled().tables().state_count(), section)
            .map_err(|reason| Error::Artifact { at: at(), reason })?;
        let mut slot = automaton.dfa.write().unwrap_or_else(|p| p.into_inner());
        self.bytes.fetch_add(dfa.bytes, Ordering::Relaxed);
        self.bytes.fetch_sub(slot.bytes, Ordering::Relaxed);
        *slot = dfa;
        Ok(())
    }
}

impl AutomatonRecord {
    fn of(automaton: &RowAutomaton, sequences: &mut SequenceTable, words: &mut WordSection) -> AutomatonRecord {
        let trie = TrieRecord::of(&automaton.trie, sequences, words);
        let mut large: Vec<(u32, &Words)> = automaton.large.iter().map(|(&c, bits)| (c, bits)).collect();
        large.sort_unstable_by_key(|&(c, _)| c);
        let large = large.into_iter().map(|(c, bits)| (c, words.push_bitmap(bits))).collect();
        let dfa = automaton.dfa.read().unwrap_or_else(|p| p.into_inner());
        let states = dfa.states.iter().map(|configs| configs.to_vec()).collect();
        let mut classes = vec![&[][..]; dfa.outputs.len()];
        for (set, &id) in &dfa.output_ids {
            classes[id as usize] = &set[..];
        }
        let outputs = classes
            .into_iter()
            .zip(&dfa.outputs)
            .map(|(classes, output)| {
                let form = match output {
                    Output::Sparse { large, tokens } => {
                        OutputForm::Sparse { large: large.to_vec(), tokens: words.push(&ascending(tokens)) }
                    }
                    Output::Dense(bits) => OutputForm::Dense(words.push_bitmap(bits)),
                };
                OutputRecord { classes: words.push(classes), form }
            })
            .collect();
        let mut edges: Vec<(u32, LrState, Edge)> = dfa.edges.iter().map(|(&(state, lr), &edge)| (state, lr, edge)).collect();
        edges.sort_unstable_by_key(|&(state, lr, _)| (state, lr));
        AutomatonRecord { trie, large, states, outputs, edges }
    }
}

impl TrieRecord {
    fn of(trie: &LexemeTrie, sequences: &mut SequenceTable, words: &mut WordSection) -> TrieRecord {
        TrieRecord {
            words: trie.to_words().map(|part| words.push(&part)),
            lexemes: trie.lexemes().iter().map(|forms| sequences.lexemes.intern(&forms.lexeme())).collect(),
            sets: trie.sets().iter().map(|set| set.iter().map(|t| t.0).collect()).collect(),
        }
    }
}

/// Header and sections, in that order, the digest filled in last.
fn encode(meta: &[u8], words: &[u32]) -> Vec<u8> {
    let words_at = (HEADER_BYTES + meta.len()).next_multiple_of(8);
    let mut bytes = Vec::with_capacity(words_at + words.len() * 4);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    bytes.extend_from_slice(&(meta.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&(words.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&0u64.to_le_bytes());
    bytes.extend_from_slice(meta);
    bytes.resize(words_at, 0);
    bytes.extend(words.iter().flat_map(|w| w.to_le_bytes()));
    let digest = digest(&bytes);
    bytes[DIGESTED_HEADER..HEADER_BYTES].copy_from_slice(&digest.to_le_bytes());
    bytes
}

/// The digest of an artifact's bytes (see the module documentation).
fn digest(bytes: &[u8]) -> u64 {
    let chunks: Vec<u64> = bytes[HEADER_BYTES..].par_chunks(DIGEST_CHUNK).map(XxHash3_64::oneshot).collect();
    let mut hasher = XxHash3_64::new();
    hasher.write(&bytes[..DIGESTED_HEADER]);
    chunks.iter().for_each(|chunk| hasher.write(&chunk.to_le_bytes()));
    hasher.finish()
}

/// Where an artifact's sections are, once its header and digest check out.
struct Layout {
    meta: Range<usize>,
    words: Range<usize>,
}

/// The classifier of the artifact `bytes`, its word section read by `words` (`None`
/// when not whole words). The digest is verified while everything else loads, on the
/// other cores (loading unverified bytes is as safe as loading any: it checks
/// everything it reads); a digest mismatch is the error reported whatever else failed.
fn load(
    bytes: &[u8],
    words: impl FnOnce(&Layout) -> Option<Arc<WordBuffer>> + Send,
    vocab: Arc<Vocabulary>,
    config: &ArtifactConfig,
) -> Result<StackClassifier> {
    let layout = Layout::read(bytes)?;
    let (verified, loaded) = rayon::join(
        || layout.verify(bytes),
        || {
            let (payload, compiled) = prepare(&bytes[layout.meta.clone()], &vocab, &config.compile)?;
            let words = words(&layout).ok_or_else(|| artifact_error("words", "not whole words"))?;
            StackClassifier::from_payload(payload, compiled, words, vocab, config)
        },
    );
    verified?;
    loaded
}

/// The decoded metadata, for `vocab`, and its grammar compiled to the tables it was
/// written with.
fn prepare(meta: &[u8], vocab: &Vocabulary, config: &CompileConfig) -> Result<(Payload, Arc<CompiledGrammar>)> {
    let payload = decode_payload(meta)?;
    check_vocabulary(&payload, vocab)?;
    let compiled = Arc::new(compile(payload.grammar.clone(), config)?);
    if compiled_fingerprint(&compiled)? != payload.compiled_fingerprint {
        let reason = "this build compiles the grammar to other lexer or LR tables than the build that wrote it";
        return Err(artifact_error("grammar", reason));
    }
    Ok((payload, compiled))
}

impl Layout {
    /// The sections the header gives, once they add up to `bytes`' length.
    fn read(bytes: &[u8]) -> Result<Layout> {
        if bytes.len() < HEADER_BYTES {
            return Err(artifact_error("header", format!("{} bytes, shorter than the {HEADER_BYTES}-byte header", bytes.len())));
        }
        if bytes[..8] != MAGIC {
            return Err(artifact_error("header", "not a stackmask classifier artifact (wrong magic bytes)"));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(artifact_error("header", format!("format version {version}; this build reads version {FORMAT_VERSION}")));
        }
        let (meta_len, word_count) = (u64_at(16), u64_at(24));
        let words_at = usize::try_from(meta_len).ok().and_then(|m| m.checked_add(HEADER_BYTES)?.checked_next_multiple_of(8));
        let end = words_at.zip(usize::try_from(word_count).ok()).and_then(|(at, n)| at.checked_add(n.checked_mul(4)?));
        let (Some(words_at), Some(end)) = (words_at, end.filter(|&end| end == bytes.len())) else {
            let reason = format!("{} bytes where the header gives other section lengths: the artifact is corrupt or truncated", bytes.len());
            return Err(artifact_error("header", reason));
        };
        Ok(Layout { meta: HEADER_BYTES..HEADER_BYTES + meta_len as usize, words: words_at..end })
    }

    /// That the digest matches and the reserved bytes are zero.
    fn verify(&self, bytes: &[u8]) -> Result<()> {
        if digest(bytes).to_le_bytes() != bytes[DIGESTED_HEADER..HEADER_BYTES] {
            return Err(artifact_error("payload", "digest mismatch: the artifact is corrupt or truncated"));
        }
        if bytes[12..16] != [0; 4] || bytes[self.meta.end..self.words.start].iter().any(|&b| b != 0) {
            return Err(artifact_error("header", "reserved bytes are not zero"));
        }
        Ok(())
    }
}

fn decode_payload(meta: &[u8]) -> Result<Payload> {
    let (payload, rest) = postcard::take_from_bytes::<Payload>(meta).map_err(|e| artifact_error("payload", e))?;
    if !rest.is_empty() {
        return Err(artifact_error("payload", format!("{} bytes after the end of the payload", rest.len())));
    }
    Ok(payload)
}

/// `tokens` (distinct ids) in ascending order, as the word section holds token lists.
fn ascending(tokens: &[u32]) -> Cow<'_, [u32]> {
    if tokens.windows(2).all(|pair| pair[0] < pair[1]) {
        return Cow::Borrowed(tokens);
    }
    let mut sorted = tokens.to_vec();
    sorted.sort_unstable();
    Cow::Owned(sorted)
}

/// That `tokens` are ascending ids below `vocab_len`.
fn check_token_ids(tokens: &[u32], vocab_len: usize) -> Result<(), String> {
    // A branch-free pass first (it vectorizes: rows hold tens of millions of ids).
    let ascending = tokens.windows(2).fold(true, |ok, pair| ok & (pair[0] < pair[1]));
    let out_of_order = || tokens.windows(2).find(|pair| pair[0] >= pair[1]);
    if let Some(pair) = (!ascending).then(out_of_order).flatten() {
        return Err(format!("tokens are not ascending ({} then {})", pair[0], pair[1]));
    }
    match tokens.last() {
        Some(&max) if max as usize >= vocab_len => Err(format!("token {max}; the vocabulary has {vocab_len}")),
        _ => Ok(()),
    }
}

/// The loaded word section, and what its spans are checked against.
struct Section<'a> {
    buffer: &'a Arc<WordBuffer>,
    vocab_len: usize,
}

impl Section<'_> {
    fn words(&self, span: Span) -> Result<Words, String> {
        let range = usize::try_from(span.start).ok().zip(usize::try_from(span.len).ok()).and_then(|(start, len)| {
            let end = start.checked_add(len)?;
            Words::shared(self.buffer, start..end)
        });
        range.ok_or_else(|| format!("words {}+{} past the {}-word section", span.start, span.len, self.buffer.words().len()))
    }

    /// Ascending ids below the vocabulary size.
    fn token_ids(&self, span: Span) -> Result<Words, String> {
        let tokens = self.words(span)?;
        check_token_ids(&tokens, self.vocab_len)?;
        Ok(tokens)
    }

    /// A bitmap in mask layout with no bit past the vocabulary.
    fn bitmap(&self, span: Span) -> Result<Words, String> {
        let bits = self.words(span)?;
        let words = self.vocab_len.div_ceil(32);
        if bits.len() != words {
            return Err(format!("a bitmap of {} words; masks have {words}", bits.len()));
        }
        let used = self.vocab_len % 32;
        if used != 0 && bits[words - 1] >> used != 0 {
            return Err(format!("a bitmap with bits past the vocabulary's {} tokens", self.vocab_len));
        }
        Ok(bits)
    }
}

fn check_vocabulary(payload: &Payload, vocab: &Vocabulary) -> Result<()> {
    if payload.vocab_len != vocab.len() as u64 || payload.vocab_fingerprint != vocab.fingerprint() {
        let reason = format!(
            "written for another vocabulary ({} tokens, fingerprint {:016x}); this one has {} tokens, fingerprint {:016x}",
            payload.vocab_len,
            payload.vocab_fingerprint,
            vocab.len(),
            vocab.fingerprint()
        );
        return Err(artifact_error("vocabulary", reason));
    }
    Ok(())
}

/// Validate the IR (as a builder does) and compile it.
fn compile(grammar: Grammar, config: &CompileConfig) -> Result<CompiledGrammar> {
    let start = grammar.start;
    let grammar = GrammarBuilder::from_grammar(grammar).build(start)?;
    CompiledGrammar::with_config(&grammar, config)
}

/// A digest of the compiled lexer and LR tables: the ids an artifact stores.
fn compiled_fingerprint(compiled: &CompiledGrammar) -> Result<u64> {
    let mut hasher = XxHash3_64::new();
    compiled.lexer().hash_into(&mut hasher);
    let tables = postcard::to_stdvec(compiled.tables()).map_err(|e| artifact_error("grammar", e))?;
    hasher.write(&tables);
    Ok(hasher.finish())
}

type LoadedRow = (LexState, SpannerRow, Option<AutomatonRecord>);

/// The payload's lexeme sequences, checked against the compiled grammar, each shared by
/// the classes that name it.
fn lexeme_sequences(payload: &Payload, compiled: &CompiledGrammar, section: &Section) -> Result<Vec<Arc<[Lexeme]>>> {
    let lexemes = &payload.lexemes;
    let terminals = compiled.tables().terminal_capacity() - 1;
    for (i, lexeme) in lexemes.iter().enumerate() {
        if let Some(t) = lexeme.terminals.iter().find(|t| t.index() >= terminals) {
            return Err(artifact_error(&format!("lexeme {i}"), format!("names terminal {}; the grammar has {terminals}", t.0)));
        }
    }
    let words = |span| section.words(span).map_err(|reason| artifact_error("lexeme sequences", reason));
    let (ids, ends) = (words(payload.sequences)?, words(payload.sequence_ends)?);
    if let Some(&id) = ids.iter().find(|&&id| id as usize >= lexemes.len()) {
        return Err(artifact_error("lexeme sequences", format!("lexeme {id}; {} were written", lexemes.len())));
    }
    let ascending = ends.windows(2).all(|pair| pair[0] <= pair[1]);
    if !ascending || ends.last().is_some_and(|&end| end as usize != ids.len()) {
        return Err(artifact_error("lexeme sequences", format!("ends that do not split the {} lexeme ids", ids.len())));
    }
    let starts = std::iter::once(0).chain(ends.iter().copied());
    let sequence = |(start, end): (u32, u32)| ids[start as usize..end as usize].iter().map(|&id| lexemes[id as usize].clone()).collect();
    Ok(starts.zip(ends.iter().copied()).map(sequence).collect())
}

/// A row record checked against the compiled grammar and the word section.
fn row_from_record(record: RowRecord, compiled: &CompiledGrammar, sequences: &[Arc<[Lexeme]>], section: &Section) -> Result<LoadedRow> {
    let q = record.state;
    let lexer_states = compiled.lexer().state_count();
    if q.index() >= lexer_states || q.is_dead() {
        let reason = format!("a row for lexer state {}; the lexer has states 1..{lexer_states}", q.index());
        return Err(artifact_error("rows", reason));
    }
    let at = |what: String| format!("row of lexer state {}{what}", q.index());
    let words = |span| section.words(span).map_err(|reason| Error::Artifact { at: at(String::new()), reason });
    let (tokens, classes) = (words(record.tokens)?, words(record.classes)?);
    if classes.len() % ClassRecord::WORDS != 0 {
        let reason = format!("{} words of classes, not a multiple of {}", classes.len(), ClassRecord::WORDS);
        return Err(Error::Artifact { at: at(String::new()), reason });
    }
    let classes = classes
        .chunks_exact(ClassRecord::WORDS)
        .enumerate()
        .map(|(i, class)| {
            class_from_record(ClassRecord::from_words(class), compiled, sequences, &tokens, section.vocab_len)
                .map_err(|reason| Error::Artifact { at: at(format!(", class {i}")), reason })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((q, SpannerRow::from_classes(classes, tokens), record.automaton))
}

fn class_from_record(
    record: ClassRecord,
    compiled: &CompiledGrammar,
    sequences: &[Arc<[Lexeme]>],
    row_tokens: &[u32],
    vocab_len: usize,
) -> Result<TokenClass, String> {
    let lexemes = sequences
        .get(record.sequence as usize)
        .ok_or_else(|| format!("lexeme sequence {}; {} were written", record.sequence, sequences.len()))?;
    let end = record.end as usize;
    if end >= compiled.lexer().state_count() || LexState::from_index(end).is_dead() {
        return Err(format!("end state {end}; the lexer has live states 1..{}", compiled.lexer().state_count()));
    }
    let Range { start, end: stop } = record.tokens;
    let tokens = row_tokens
        .get(start as usize..stop as usize)
        .ok_or_else(|| format!("tokens {start}..{stop} of the row's {}", row_tokens.len()))?;
    check_token_ids(tokens, vocab_len)?;
    Ok(TokenClass { lexemes: Arc::clone(lexemes), end: LexState::from_index(end), tokens: ClassTokens::Listed(start..stop) })
}

fn check_distinct_states(rows: &[(LexState, SpannerRow)]) -> Result<()> {
    let mut seen = vec![false; rows.iter().map(|(q, _)| q.index() + 1).max().unwrap_or(0)];
    for (q, _) in rows {
        if std::mem::replace(&mut seen[q.index()], true) {
            return Err(artifact_error("rows", format!("two rows for lexer state {}", q.index())));
        }
    }
    Ok(())
}

/// The lexeme trie of `row` that `record` gives, checked; `forms` are the payload's
/// lexemes.
fn restore_trie(
    row: &SpannerRow,
    record: TrieRecord,
    forms: &[LexemeForms],
    capacity: usize,
    section: &Section,
) -> Result<LexemeTrie, String> {
    let form = |&id: &u32| forms.get(id as usize).cloned().ok_or_else(|| format!("lexeme {id} of {}", forms.len()));
    let lexemes = record.lexemes.iter().map(form).collect::<Result<Vec<_>, String>>()?;
    let [nodes, edges, groups, classes] = record.words.map(|span| section.words(span));
    LexemeTrie::from_words([&nodes?, &edges?, &groups?, &classes?], lexemes, &record.sets, row, capacity)
}

/// The large-class bitmaps of `row`: exactly its classes of more than [`LARGE_CLASS`]
/// tokens, as the build makes them.
fn restore_large(row: &SpannerRow, large: Vec<(u32, Span)>, section: &Section) -> Result<HashMap<u32, Words>, String> {
    let expected = (0..row.classes().len()).filter(|&i| row.classes()[i].token_count() > LARGE_CLASS).map(|i| i as u32);
    if !large.iter().map(|&(c, _)| c).eq(expected) {
        return Err("the large-class bitmaps are not those of the row's large classes".into());
    }
    large.into_iter().map(|(c, span)| Ok((c, section.bitmap(span)?))).collect()
}

/// Replay the records into a fresh [`Dfa`] (interning as the lazy build does, so sizes
/// are counted the same way), checking every id and span.
fn restore_dfa(
    automaton: &RowAutomaton,
    states: Vec<Vec<Blocked>>,
    outputs: Vec<OutputRecord>,
    edges: Vec<(u32, LrState, Edge)>,
    lr_states: usize,
    section: &Section,
) -> Result<Dfa, String> {
    let mut dfa = Dfa::new();
    let base = dfa.states.len();
    if states.len() < base || !states[0].is_empty() || states[1] != [Blocked::START] {
        return Err("the first states are not the dead and start states".into());
    }
    dfa.ids.reserve(states.len() - base);
    dfa.output_ids.reserve(outputs.len());
    dfa.edges.reserve(edges.len());
    for (id, configs) in states.into_iter().enumerate().skip(base) {
        if let Some(Err(reason)) = configs.iter().map(|b| b.check(&automaton.trie)).find(Result::is_err) {
            return Err(format!("state {id}: {reason}"));
        }
        if dfa.push_state(configs).is_none() {
            return Err(format!("state {id} repeats an earlier one"));
        }
    }
    // After every written state is in: a state after a skip is one of them when the
    // artifact was written from a built classifier.
    (0..dfa.states.len() as u32).for_each(|id| dfa.link_skip(id));
    for (id, record) in outputs.into_iter().enumerate() {
        let at = |reason| format!("token set {id}: {reason}");
        let output = output_from_record(automaton, record.form, section).map_err(at)?;
        let classes = section.words(record.classes).map_err(at)?;
        check_output_classes(automaton, &classes).map_err(at)?;
        if dfa.push_output(classes, output).is_none() {
            return Err(at("repeats an earlier one".into()));
        }
    }
    for (state, lr, edge) in edges {
        check_edge(&dfa, state, lr, edge, lr_states)?;
        if dfa.edges.insert((state, lr), edge).is_some() {
            return Err(format!("two edges from state {state} on LR state {}", lr.0));
        }
        dfa.overflowed += usize::from(matches!(edge, Edge::Overflow));
        dfa.bytes += 32;
    }
    Ok(dfa)
}

fn output_from_record(automaton: &RowAutomaton, form: OutputForm, section: &Section) -> Result<Output, String> {
    match form {
        OutputForm::Sparse { large, tokens } => {
            if let Some(c) = large.iter().find(|c| !automaton.large.contains_key(*c)) {
                return Err(format!("large class {c} has no bitmap"));
            }
            Ok(Output::Sparse { large: large.into(), tokens: section.token_ids(tokens)? })
        }
        OutputForm::Dense(bits) => Ok(Output::Dense(section.bitmap(bits)?)),
    }
}

/// A token set's key: classes of the row, not empty.
fn check_output_classes(automaton: &RowAutomaton, classes: &[u32]) -> Result<(), String> {
    let count = automaton.row.classes().len();
    if let Some(c) = classes.iter().find(|&&c| c as usize >= count) {
        return Err(format!("names class {c}; the row has {count}"));
    }
    if classes.is_empty() {
        return Err("empty".into());
    }
    Ok(())
}

fn check_edge(dfa: &Dfa, state: u32, lr: LrState, edge: Edge, lr_states: usize) -> Result<(), String> {
    let states = dfa.states.len();
    if state as usize >= states || lr.index() >= lr_states {
        return Err(format!("an edge from state {state} on LR state {}; there are {states} states and {lr_states} LR states", lr.0));
    }
    match edge {
        Edge::To { target, .. } if target as usize >= states => Err(format!("an edge to state {target} of {states}")),
        Edge::To { output, .. } if output != NO_OUTPUT && output as usize >= dfa.outputs.len() => {
            Err(format!("an edge with token set {output} of {}", dfa.outputs.len()))
        }
        _ => Ok(()),
    }
}

fn artifact_error(at: &str, reason: impl ToString) -> Error {
    Error::Artifact { at: at.to_string(), reason: reason.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A classifier with large classes (a thousand number tokens) and dense token sets,
    /// built eagerly.
    fn built() -> StackClassifier {
        let g = Grammar::from_lark(
            r#"start: "[" (NUM ("," NUM)*)? "]"
               NUM: /[0-9]+/"#,
        )
        .unwrap();
        let mut tokens: Vec<Vec<u8>> = ["[", "]", ",", "1]", ",1"].iter().map(|t| t.as_bytes().to_vec()).collect();
        tokens.extend((0..1000).map(|n| n.to_string().into_bytes()));
        let vocab = Arc::new(Vocabulary::from_token_bytes(tokens, None));
        let c = StackClassifier::new(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab);
        c.build_eager().unwrap();
        c
    }

    /// The artifact of `c` with its payload and words changed by `change`, digest redone.
    fn crafted(c: &StackClassifier, change: impl FnOnce(&mut Payload, &mut Vec<u32>)) -> Vec<u8> {
        let bytes = c.to_artifact().unwrap();
        let layout = Layout::read(&bytes).unwrap();
        let mut payload = decode_payload(&bytes[layout.meta]).unwrap();
        let mut words = WordBuffer::from_le_bytes(&bytes[layout.words]).unwrap().words().to_vec();
        change(&mut payload, &mut words);
        encode(&postcard::to_stdvec(&payload).unwrap(), &words)
    }

    fn refusal(c: &StackClassifier, bytes: &[u8]) -> String {
        match StackClassifier::from_artifact(bytes, Arc::clone(c.vocab()), &ArtifactConfig::default()) {
            Err(Error::Artifact { at, reason }) => format!("{at}: {reason}"),
            Err(e) => panic!("expected an artifact error, got {e}"),
            Ok(_) => panic!("expected an artifact error, got a classifier"),
        }
    }

    #[test]
    fn well_formed_but_inconsistent_artifacts_are_refused() {
        let c = built();
        let vocab_len = c.vocab().len() as u32;
        let unchanged = crafted(&c, |_, _| {});
        let loaded = StackClassifier::from_artifact(&unchanged, Arc::clone(c.vocab()), &ArtifactConfig::default()).unwrap();
        assert_eq!(loaded.stats(), c.stats());
        // The words of class `i` of row `r`.
        let class = |p: &Payload, r: usize, i: usize| {
            let at = p.rows[r].classes.start as usize + i * ClassRecord::WORDS;
            at..at + ClassRecord::WORDS
        };
        let automaton = |p: &mut Payload| p.rows.iter().position(|r| r.automaton.as_ref().is_some_and(|a| !a.large.is_empty())).unwrap();

        let past_row = crafted(&c, |p, words| words[class(p, 0, 0)][3] = p.rows[0].tokens.len as u32 + 1);
        assert!(refusal(&c, &past_row).contains("of the row's"), "{}", refusal(&c, &past_row));

        let unknown_token = crafted(&c, |p, words| {
            let record = ClassRecord::from_words(&words[class(p, 0, 0)]);
            words[(p.rows[0].tokens.start + record.tokens.end as u64 - 1) as usize] = vocab_len;
        });
        assert!(refusal(&c, &unknown_token).contains(&format!("token {vocab_len}; the vocabulary has {vocab_len}")));

        let descending = crafted(&c, |p, words| {
            let (record, row) = (0..p.rows.len())
                .flat_map(|r| (0..p.rows[r].classes.len as usize / ClassRecord::WORDS).map(move |i| (r, i)))
                .map(|(r, i)| (ClassRecord::from_words(&words[class(p, r, i)]), r))
                .find(|(record, _)| record.tokens.len() > 1)
                .unwrap();
            let at = (p.rows[row].tokens.start + record.tokens.start as u64) as usize;
            words.swap(at, at + 1);
        });
        assert!(refusal(&c, &descending).contains("not ascending"));

        let stray_bit = crafted(&c, |p, words| {
            let row = automaton(p);
            let (_, span) = p.rows[row].automaton.as_ref().unwrap().large[0];
            words[(span.start + span.len - 1) as usize] |= 1 << 31;
        });
        assert!(refusal(&c, &stray_bit).contains("bits past the vocabulary"));

        let no_bitmap = crafted(&c, |p, _| {
            let row = automaton(p);
            p.rows[row].automaton.as_mut().unwrap().large.clear();
        });
        assert!(refusal(&c, &no_bitmap).contains("large-class bitmaps"));

        let out_of_section = crafted(&c, |p, words| p.rows[0].tokens.start = words.len() as u64);
        assert!(refusal(&c, &out_of_section).contains("past the"));

        let no_sequence = crafted(&c, |p, words| words[class(p, 0, 0)][0] = u32::MAX);
        assert!(refusal(&c, &no_sequence).contains("lexeme sequence"));

        let dead_end = crafted(&c, |p, words| words[class(p, 0, 0)][1] = 0);
        assert!(refusal(&c, &dead_end).contains("end state 0"));

        let ragged = crafted(&c, |p, _| p.rows[0].classes.len -= 1);
        assert!(refusal(&c, &ragged).contains("not a multiple"));

        let unsplit = crafted(&c, |p, _| p.sequence_ends.len -= 1);
        assert!(refusal(&c, &unsplit).contains("do not split"), "{}", refusal(&c, &unsplit));
    }

    #[test]
    fn equal_bitmaps_are_written_once() {
        let mut section = WordSection::default();
        let first = section.push_bitmap(&[1, 0, 7]);
        section.push(&[1, 0, 7]);
        let other = section.push_bitmap(&[1, 0, 8]);
        let again = section.push_bitmap(&[1, 0, 7]);
        assert_eq!((again.start, again.len), (first.start, first.len));
        assert_eq!((other.start, section.words.len()), (6, 9));

        // In an artifact: every bitmap content has one span, and rows share them.
        let c = built();
        let bytes = c.to_artifact().unwrap();
        let layout = Layout::read(&bytes).unwrap();
        let payload = decode_payload(&bytes[layout.meta]).unwrap();
        let words = WordBuffer::from_le_bytes(&bytes[layout.words]).unwrap();
        let automata = payload.rows.iter().filter_map(|r| r.automaton.as_ref());
        let spans: Vec<Span> = automata
            .flat_map(|a| {
                let dense = a.outputs.iter().filter_map(|o| match o.form {
                    OutputForm::Dense(span) => Some(span),
                    OutputForm::Sparse { .. } => None,
                });
                a.large.iter().map(|&(_, span)| span).chain(dense).collect::<Vec<_>>()
            })
            .collect();
        let mut by_content: HashMap<&[u32], Vec<u64>> = HashMap::new();
        for span in &spans {
            by_content.entry(&words.words()[span.start as usize..][..span.len as usize]).or_default().push(span.start);
        }
        assert!(by_content.values().all(|starts| starts.iter().all(|&s| s == starts[0])));
        assert!(by_content.len() < spans.len(), "{} bitmaps, {} distinct", spans.len(), by_content.len());
    }

    #[test]
    fn loaded_lexeme_tries_are_the_built_ones() {
        let c = built();
        let loaded = StackClassifier::from_artifact(&c.to_artifact().unwrap(), Arc::clone(c.vocab()), &ArtifactConfig::default()).unwrap();
        let tries = |c: &StackClassifier| c.automata.iter().filter_map(|a| a.get().map(|a| a.trie.clone())).collect::<Vec<_>>();
        let built_tries = tries(&c);
        assert!(built_tries.iter().any(|t| t.node_count() > 2), "a trie with lexeme edges");
        assert_eq!(tries(&loaded), built_tries);
    }

    #[test]
    fn inconsistent_lexeme_tries_are_refused() {
        let c = built();
        // The trie of the first automaton with lexeme edges, and its words.
        fn trie(p: &mut Payload) -> &mut TrieRecord {
            let mut automata = p.rows.iter_mut().filter_map(|r| r.automaton.as_mut());
            automata.find(|a| a.trie.words[1].len > 0).map(|a| &mut a.trie).unwrap()
        }
        let part = |t: &TrieRecord, i: usize| t.words[i].start as usize..(t.words[i].start + t.words[i].len) as usize;
        let (nodes, edges, groups, classes) = (0, 1, 2, 3);
        let expect = |bytes: Vec<u8>, reason: &str| {
            let refused = refusal(&c, &bytes);
            assert!(refused.contains("lexeme trie") && refused.contains(reason), "{refused}");
        };

        expect(crafted(&c, |p, w| w[part(trie(p), edges)][1] = 0), "an edge on lexeme");
        expect(crafted(&c, |p, w| w[part(trie(p), edges)][0] = u32::MAX), "an edge on lexeme");
        expect(crafted(&c, |p, w| w[part(trie(p), nodes)][0] += 1), "do not split");
        expect(crafted(&c, |p, _| trie(p).words[nodes].len -= 1), "not a multiple of 4");
        expect(crafted(&c, |p, w| w[part(trie(p), classes)][0] = u32::MAX), "the row has");
        expect(crafted(&c, |p, _| trie(p).lexemes[0] = u32::MAX), &format!("lexeme {}", u32::MAX));
        expect(crafted(&c, |p, _| trie(p).sets.push(vec![u32::MAX])), "in a terminal set");
        let no_waiting_set = crafted(&c, |p, w| {
            let t = trie(p);
            let node = w[part(t, nodes)].chunks(4).position(|n| n[3] != u32::MAX).expect("a node with waiting classes");
            w[part(t, nodes)][node * 4 + 3] = u32::MAX;
        });
        expect(no_waiting_set, "waiting groups");
        expect(crafted(&c, |p, w| w[part(trie(p), groups)][0] = u32::MAX), "out of bounds");
    }
}
