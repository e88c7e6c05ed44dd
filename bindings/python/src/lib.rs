//! Python bindings of stackmask: the extension module `stackmask._stackmask`.
//!
//! The Python package `stackmask` (`bindings/python/python/stackmask/`) re-exports these
//! classes and adds the pure-Python helpers (bitmask allocation and application, the
//! `transformers` logits processor, tool-call schemas). `docs/python.md` documents the API.
//!
//! * [`PyTokenizer`] wraps a HuggingFace `tokenizer.json` ([`stackmask::tokenizer::Tokenizer`]);
//! * [`PyGrammar`] is a grammar IR from Lark text, a regex or a JSON Schema;
//! * [`PyCompiledGrammar`] is one [`StackClassifier`] per (grammar, tokenizer): immutable,
//!   shared by every matcher on every thread;
//! * [`PyMatcher`] is one sequence's constraint state ([`stackmask::Matcher`]).
//!
//! Bitmasks are caller-allocated `int32` arrays of shape `[batch, words]` or `[words]`
//! (numpy arrays or anything else exporting a writable C-contiguous buffer; torch CPU
//! tensors through `.numpy()`), in the llguidance/XGrammar layout: token `i` is bit `i % 32`
//! of word `i / 32` of its row.

use std::sync::Arc;

use pyo3::buffer::PyBuffer;
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use stackmask::classifier::StackClassifier;
use stackmask::frontend::json_schema::{JsonSchemaOptions, Whitespace};
use stackmask::lexer::LexerConfig;
use stackmask::matcher::{compute_masks_parallel, oracle, CompileConfig};
use stackmask::tokenizer::Tokenizer;
use stackmask::{CompiledGrammar, Grammar, Matcher};

create_exception!(
    stackmask,
    StackmaskError,
    PyValueError,
    "An error reported by the stackmask library (grammar, tokenizer, rejected token, rollback, resource limit); the message is the Rust error's."
);

/// The Python exception for a library error, carrying its message.
fn py_err(error: stackmask::Error) -> PyErr {
    StackmaskError::new_err(error.to_string())
}

/// A HuggingFace tokenizer: the exact bytes of every token id, and the end-of-sequence ids.
#[pyclass(name = "Tokenizer", module = "stackmask", frozen)]
struct PyTokenizer {
    inner: Tokenizer,
}

#[pymethods]
impl PyTokenizer {
    /// Load a `tokenizer.json` file, plain or gzipped.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: std::path::PathBuf) -> PyResult<PyTokenizer> {
        let inner = py.detach(|| Tokenizer::from_file(&path)).map_err(py_err)?;
        Ok(PyTokenizer { inner })
    }

    /// Load a tokenizer from the content of a `tokenizer.json` (str or bytes, plain or gzipped).
    #[staticmethod]
    fn from_json(py: Python<'_>, json: &Bound<'_, PyAny>) -> PyResult<PyTokenizer> {
        let bytes: Vec<u8> = if let Ok(s) = json.cast::<PyString>() {
            s.to_str()?.as_bytes().to_vec()
        } else if let Ok(b) = json.cast::<PyBytes>() {
            b.as_bytes().to_vec()
        } else {
            return Err(PyTypeError::new_err("tokenizer JSON must be str or bytes"));
        };
        let inner = py.detach(|| Tokenizer::from_json_bytes(&bytes)).map_err(py_err)?;
        Ok(PyTokenizer { inner })
    }

    /// Load the tokenizer of a `transformers` fast tokenizer object (anything with
    /// `backend_tokenizer.to_str()`). Its `eos_token_id`, when set, is added to the
    /// end-of-sequence ids.
    #[staticmethod]
    fn from_transformers(py: Python<'_>, tokenizer: &Bound<'_, PyAny>) -> PyResult<PyTokenizer> {
        let backend = tokenizer.getattr("backend_tokenizer").map_err(|_| {
            PyTypeError::new_err("expected a transformers fast tokenizer (one with `backend_tokenizer`)")
        })?;
        let json: String = backend.call_method0("to_str")?.extract()?;
        let mut inner = py.detach(|| Tokenizer::from_json_bytes(json.as_bytes())).map_err(py_err)?;
        let eos: Option<u32> = match tokenizer.getattr("eos_token_id") {
            Ok(id) => id.extract()?,
            Err(_) => None,
        };
        if let Some(eos) = eos {
            let mut ids = inner.vocab().eos_tokens().to_vec();
            ids.push(eos);
            inner.vocab_mut().set_eos_tokens(ids).map_err(py_err)?;
        }
        Ok(PyTokenizer { inner })
    }

    /// The Qwen3 tokenizer embedded in the library (151,669 ids).
    #[staticmethod]
    fn embedded_default() -> PyResult<PyTokenizer> {
        Ok(PyTokenizer { inner: Tokenizer::embedded_default().map_err(py_err)? })
    }

    /// A copy of this tokenizer whose end-of-sequence ids are `ids`.
    fn with_eos_token_ids(&self, ids: Vec<u32>) -> PyResult<PyTokenizer> {
        let mut inner = self.inner.clone();
        inner.vocab_mut().set_eos_tokens(ids).map_err(py_err)?;
        Ok(PyTokenizer { inner })
    }

    /// Number of token ids (text and special).
    #[getter]
    fn vocab_size(&self) -> usize {
        self.inner.vocab().len()
    }

    /// The end-of-sequence token ids, increasing.
    #[getter]
    fn eos_token_ids(&self) -> Vec<u32> {
        self.inner.vocab().eos_tokens().to_vec()
    }

    /// The bytes token `id` appends to the text, or None for a special token.
    fn token_bytes<'py>(&self, py: Python<'py>, id: u32) -> PyResult<Option<Bound<'py, PyBytes>>> {
        self.inner.vocab().check_token(id).map_err(py_err)?;
        Ok(self.inner.vocab().token_bytes(id).map(|b| PyBytes::new(py, b)))
    }

    /// The token ids of `text` (text tokens only, no BOS; special-token names are encoded
    /// as plain text). The first call builds the HuggingFace encoder.
    fn encode(&self, py: Python<'_>, text: &str) -> PyResult<Vec<u32>> {
        py.detach(|| self.inner.encode(text)).map_err(py_err)
    }

    fn __repr__(&self) -> String {
        format!(
            "Tokenizer(vocab_size={}, eos_token_ids={:?})",
            self.inner.vocab().len(),
            self.inner.vocab().eos_tokens()
        )
    }
}

/// A grammar (BNF over regular terminals), from Lark text, a regex or a JSON Schema.
/// Immutable.
#[pyclass(name = "Grammar", module = "stackmask", frozen)]
struct PyGrammar {
    inner: Grammar,
}

#[pymethods]
impl PyGrammar {
    /// Compile Lark grammar text (start rule `start`; `docs/grammar-syntax.md`).
    #[staticmethod]
    fn from_lark(py: Python<'_>, text: &str) -> PyResult<PyGrammar> {
        let inner = py.detach(|| Grammar::from_lark(text)).map_err(py_err)?;
        Ok(PyGrammar { inner })
    }

    /// The grammar whose sentences are the whole texts matched by a regular expression
    /// (the Rust `regex` crate's syntax, no anchors or look-around).
    #[staticmethod]
    fn from_regex(py: Python<'_>, pattern: &str) -> PyResult<PyGrammar> {
        let inner = py.detach(|| Grammar::from_regex(pattern)).map_err(py_err)?;
        Ok(PyGrammar { inner })
    }

    /// The grammar of the JSON texts valid for a JSON Schema, given as text or as a Python
    /// object (serialized with `json.dumps`). `whitespace` is `"flexible"` (any JSON
    /// whitespace between tokens) or `"compact"` (none). `oneOf` is exact: branches are
    /// proven disjoint or narrowed to exactly-one, else compiling fails
    /// (`docs/json-schema.md`).
    #[staticmethod]
    #[pyo3(signature = (schema, *, whitespace = "flexible"))]
    fn from_json_schema(py: Python<'_>, schema: &Bound<'_, PyAny>, whitespace: &str) -> PyResult<PyGrammar> {
        let text: String = match schema.cast::<PyString>() {
            Ok(text) => text.to_str()?.to_string(),
            Err(_) => py.import("json")?.call_method1("dumps", (schema,))?.extract()?,
        };
        let whitespace = match whitespace {
            "flexible" => Whitespace::Flexible,
            "compact" => Whitespace::Compact,
            other => {
                return Err(PyValueError::new_err(format!(
                    "whitespace must be 'flexible' or 'compact', not {other:?}"
                )))
            }
        };
        let options = JsonSchemaOptions { whitespace, ..JsonSchemaOptions::default() };
        let inner = py.detach(|| Grammar::from_json_schema_with(&text, &options)).map_err(py_err)?;
        Ok(PyGrammar { inner })
    }

    /// The grammar in the crate's BNF notation, one production or terminal a line.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
}

/// A grammar compiled for one tokenizer: lexer, LR tables and the stack classifier that
/// computes masks. Immutable and thread-safe; share one between every matcher.
#[pyclass(name = "CompiledGrammar", module = "stackmask", frozen)]
struct PyCompiledGrammar {
    classifier: Arc<StackClassifier>,
}

#[pymethods]
impl PyCompiledGrammar {
    /// Compile `grammar` for `tokenizer`. The classifier builds lazily, as masks need it;
    /// `eager=True` builds its tables up front (in parallel, without the GIL), and raises
    /// when that build exceeds its limits. Length-bounded strings are counted for the
    /// tokenizer's tokens (`LexerConfig::serving_vocabulary`).
    #[new]
    #[pyo3(signature = (grammar, tokenizer, *, eager = false))]
    fn new(py: Python<'_>, grammar: &PyGrammar, tokenizer: &PyTokenizer, eager: bool) -> PyResult<Self> {
        let classifier = py.detach(|| -> stackmask::Result<_> {
            let lexer = LexerConfig::default().serving_vocabulary(&tokenizer.inner.vocab_arc());
            let config = CompileConfig { lexer, ..CompileConfig::default() };
            let compiled = Arc::new(CompiledGrammar::with_config(&grammar.inner, &config)?);
            let classifier = StackClassifier::new(compiled, tokenizer.inner.vocab_arc());
            if eager {
                classifier.build_eager()?;
            }
            Ok(Arc::new(classifier))
        });
        Ok(PyCompiledGrammar { classifier: classifier.map_err(py_err)? })
    }

    /// Number of token ids of the tokenizer.
    #[getter]
    fn vocab_size(&self) -> usize {
        self.classifier.vocab().len()
    }

    fn __repr__(&self) -> String {
        let tables = self.classifier.compiled().tables().state_count();
        format!("CompiledGrammar(vocab_size={}, lr_states={tables})", self.classifier.vocab().len())
    }
}

/// One sequence's constraint state: consume tokens, roll back, fill the next-token bitmask.
#[pyclass(name = "Matcher", module = "stackmask")]
struct PyMatcher {
    /// None only while a batch call holds this matcher's state.
    state: Option<Matcher>,
    classifier: Arc<StackClassifier>,
}

impl PyMatcher {
    fn matcher(&mut self) -> PyResult<&mut Matcher> {
        self.state.as_mut().ok_or_else(|| StackmaskError::new_err("the matcher is in use by a batch call"))
    }
}

#[pymethods]
impl PyMatcher {
    /// A matcher at the start of the text of `compiled`.
    #[new]
    fn new(compiled: &PyCompiledGrammar) -> PyMatcher {
        let classifier = Arc::clone(&compiled.classifier);
        PyMatcher { state: Some(Matcher::with_classifier(Arc::clone(&classifier))), classifier }
    }

    /// Back to the start of the text, as new.
    fn reset(&mut self) -> PyResult<()> {
        self.matcher()?;
        self.state = Some(Matcher::with_classifier(Arc::clone(&self.classifier)));
        Ok(())
    }

    /// Consume one token. Raises StackmaskError (the matcher unchanged) if the token is
    /// not allowed, out of range, or the sequence has ended.
    fn consume_token(&mut self, token: u32) -> PyResult<()> {
        self.matcher()?.commit(token).map_err(py_err)
    }

    /// Consume tokens in order, all or none: on an error the tokens consumed by this call
    /// are rolled back and StackmaskError is raised.
    fn consume_tokens(&mut self, tokens: Vec<u32>) -> PyResult<()> {
        let m = self.matcher()?;
        for (done, &token) in tokens.iter().enumerate() {
            if let Err(e) = m.commit(token) {
                m.rollback(done).map_err(py_err)?;
                return Err(py_err(e));
            }
        }
        Ok(())
    }

    /// Consume raw bytes as one step (one unit for rollback).
    fn consume_bytes(&mut self, data: &[u8]) -> PyResult<()> {
        self.matcher()?.commit_bytes(data).map_err(py_err)
    }

    /// Undo the last `num_tokens` consume calls' steps (one step per token, or per
    /// `consume_bytes` call).
    #[pyo3(signature = (num_tokens = 1))]
    fn rollback(&mut self, num_tokens: usize) -> PyResult<()> {
        self.matcher()?.rollback(num_tokens).map_err(py_err)
    }

    /// Number of steps that can be rolled back.
    #[getter]
    fn num_steps(&mut self) -> PyResult<usize> {
        Ok(self.matcher()?.committed_steps())
    }

    /// Whether the text so far is complete (an end-of-sequence token would be allowed).
    fn is_accepting(&mut self) -> PyResult<bool> {
        self.matcher()?.is_accepting().map_err(py_err)
    }

    /// Whether an end-of-sequence token has been consumed.
    fn is_terminated(&mut self) -> PyResult<bool> {
        Ok(self.matcher()?.is_terminated())
    }

    /// Bytes every continuation starts with (the longest forced string).
    fn compute_ff_bytes<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.matcher()?.forced_bytes().map_err(py_err)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Tokens that can be consumed without sampling: a greedy tokenization of the forced
    /// bytes, leaving out a final token a longer token could extend.
    fn compute_ff_tokens(&mut self) -> PyResult<Vec<u32>> {
        self.matcher()?.ff_tokens().map_err(py_err)
    }

    /// Number of token ids of the tokenizer.
    #[getter]
    fn vocab_size(&self) -> usize {
        self.classifier.vocab().len()
    }

    /// Write the allowed next tokens into row `index` of `bitmask` (int32, shape
    /// `[batch, words]` or `[words]`, `words >= ceil(vocab_size / 32)`; words past the
    /// vocabulary are zeroed). Computed by the stack classifier, without the GIL.
    #[pyo3(signature = (bitmask, index = 0))]
    fn fill_next_token_bitmask(&mut self, py: Python<'_>, bitmask: &Bound<'_, PyAny>, index: isize) -> PyResult<()> {
        let mut buffer = Bitmask::new(bitmask)?;
        let row = buffer.row(index, self.classifier.vocab().len())?;
        let m = self.matcher()?;
        let (mask, padding) = row.split_at_mut(m.mask_words());
        padding.fill(0);
        py.detach(|| m.compute_mask(mask)).map_err(py_err)
    }

    /// As `fill_next_token_bitmask`, but with the reference mask (the oracle: every token
    /// tried one by one). Slow; for tests and verification.
    #[pyo3(signature = (bitmask, index = 0))]
    fn fill_reference_bitmask(&mut self, py: Python<'_>, bitmask: &Bound<'_, PyAny>, index: isize) -> PyResult<()> {
        let mut buffer = Bitmask::new(bitmask)?;
        let row = buffer.row(index, self.classifier.vocab().len())?;
        let m = self.matcher()?;
        let reference = py.detach(|| oracle::reference_mask(m)).map_err(py_err)?;
        let (mask, padding) = row.split_at_mut(reference.len());
        mask.copy_from_slice(&reference);
        padding.fill(0);
        Ok(())
    }

    fn __repr__(&mut self) -> String {
        match self.matcher() {
            Ok(m) => format!(
                "Matcher(steps={}, bytes={}, terminated={})",
                m.committed_steps(),
                m.committed_bytes(),
                m.is_terminated()
            ),
            Err(_) => "Matcher(<in use by a batch call>)".to_string(),
        }
    }
}

/// A caller's bitmask buffer: writable, C-contiguous int32, one or two dimensions.
struct Bitmask {
    buffer: PyBuffer<i32>,
    rows: usize,
    words: usize,
}

impl Bitmask {
    /// Takes the buffer of `obj`, or of `obj.numpy()` (a torch CPU tensor).
    fn new(obj: &Bound<'_, PyAny>) -> PyResult<Bitmask> {
        let not_int32 = |err: PyErr| {
            PyTypeError::new_err(format!(
                "the bitmask must be an int32 array (numpy, or a torch CPU tensor): {err}"
            ))
        };
        let buffer = match PyBuffer::<i32>::get(obj) {
            Ok(buffer) => buffer,
            Err(err) => match obj.call_method0("numpy") {
                Ok(array) => PyBuffer::<i32>::get(&array).map_err(not_int32)?,
                Err(_) => return Err(not_int32(err)),
            },
        };
        if buffer.readonly() {
            return Err(PyValueError::new_err("the bitmask is read-only"));
        }
        if !buffer.is_c_contiguous() {
            return Err(PyValueError::new_err("the bitmask must be C-contiguous"));
        }
        let (rows, words) = match *buffer.shape() {
            [words] => (1, words),
            [rows, words] => (rows, words),
            ref shape => {
                return Err(PyValueError::new_err(format!(
                    "the bitmask must have 1 or 2 dimensions, not {}",
                    shape.len()
                )))
            }
        };
        Ok(Bitmask { buffer, rows, words })
    }

    /// Checks that rows hold `ceil(vocab_size / 32)` words or more.
    fn check_words(&self, vocab_size: usize) -> PyResult<()> {
        let need = vocab_size.div_ceil(32);
        if self.words < need {
            return Err(PyValueError::new_err(format!(
                "bitmask rows have {} words, {need} needed for a vocabulary of {vocab_size}",
                self.words
            )));
        }
        Ok(())
    }

    /// Row `index` (negative counts from the end) as `u32` words.
    fn row(&mut self, index: isize, vocab_size: usize) -> PyResult<&mut [u32]> {
        self.check_words(vocab_size)?;
        let row = self.row_index(index)?;
        let words = self.words;
        Ok(&mut self.all_words()[row * words..(row + 1) * words])
    }

    /// Normalizes a Python row index.
    fn row_index(&self, index: isize) -> PyResult<usize> {
        let resolved = if index < 0 { index + self.rows as isize } else { index };
        if resolved < 0 || resolved as usize >= self.rows {
            return Err(PyIndexError::new_err(format!(
                "bitmask row {index} is out of range for {} rows",
                self.rows
            )));
        }
        Ok(resolved as usize)
    }

    /// Every word of the buffer.
    fn all_words(&mut self) -> &mut [u32] {
        let ptr = self.buffer.as_slice_ptr().expect("checked C-contiguous in Bitmask::new");
        // SAFETY: the buffer is a writable, C-contiguous export of `rows * words` i32s,
        // held (so neither freed nor resized) while `self` lives, and borrowed mutably
        // through `self`; u32 has the layout of i32. As with any buffer consumer, other
        // Python threads writing the same array concurrently race.
        unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr() as *mut i32 as *mut u32, self.rows * self.words) }
    }
}

/// Fill bitmask rows for many matchers in parallel (rayon, without the GIL).
///
/// Row `indices[i]` (default: `i`) gets the mask of `matchers[i]`. All matchers must share
/// one vocabulary size. Raises StackmaskError with the first failing matcher's error after
/// computing every row (a failed row is all zero).
#[pyfunction]
#[pyo3(signature = (matchers, bitmask, indices = None))]
fn fill_next_token_bitmasks(
    py: Python<'_>,
    mut matchers: Vec<PyRefMut<'_, PyMatcher>>,
    bitmask: &Bound<'_, PyAny>,
    indices: Option<Vec<isize>>,
) -> PyResult<()> {
    let mut buffer = Bitmask::new(bitmask)?;
    let Some(first) = matchers.first() else { return Ok(()) };
    let vocab_size = first.classifier.vocab().len();
    if let Some(other) = matchers.iter().find(|m| m.classifier.vocab().len() != vocab_size) {
        return Err(PyValueError::new_err(format!(
            "matchers of vocabulary sizes {vocab_size} and {} in one batch",
            other.classifier.vocab().len()
        )));
    }
    buffer.check_words(vocab_size)?;
    let rows: Vec<usize> = match indices {
        None if matchers.len() > buffer.rows => {
            return Err(PyValueError::new_err(format!(
                "{} matchers for a bitmask of {} rows",
                matchers.len(),
                buffer.rows
            )))
        }
        None => (0..matchers.len()).collect(),
        Some(indices) if indices.len() != matchers.len() => {
            return Err(PyValueError::new_err(format!(
                "{} indices for {} matchers",
                indices.len(),
                matchers.len()
            )))
        }
        Some(indices) => indices.into_iter().map(|i| buffer.row_index(i)).collect::<PyResult<_>>()?,
    };
    let mut seen = vec![false; buffer.rows];
    for &row in &rows {
        if std::mem::replace(&mut seen[row], true) {
            return Err(PyValueError::new_err(format!("bitmask row {row} is given to two matchers")));
        }
    }
    let need = vocab_size.div_ceil(32);
    let mut states: Vec<Matcher> = Vec::with_capacity(matchers.len());
    for m in matchers.iter_mut() {
        states.push(m.state.take().ok_or_else(|| StackmaskError::new_err("the matcher is in use by a batch call"))?);
    }
    let words = buffer.words;
    let all = buffer.all_words();
    let direct = need == words && rows.iter().enumerate().all(|(i, &r)| i == r);
    let outcome = py.detach(|| {
        if direct {
            return compute_masks_parallel(&mut states, &mut all[..rows.len() * words]);
        }
        let mut scratch = vec![0u32; rows.len() * need];
        let outcome = compute_masks_parallel(&mut states, &mut scratch);
        for (chunk, &row) in scratch.chunks(need).zip(&rows) {
            let target = &mut all[row * words..(row + 1) * words];
            target[..need].copy_from_slice(chunk);
            target[need..].fill(0);
        }
        outcome
    });
    for (m, state) in matchers.iter_mut().zip(states) {
        m.state = Some(state);
    }
    outcome.map_err(py_err)
}

/// The extension module: stackmask's tokenizer, grammar, compiled grammar and matcher.
#[pymodule]
fn _stackmask(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("StackmaskError", m.py().get_type::<StackmaskError>())?;
    m.add_class::<PyTokenizer>()?;
    m.add_class::<PyGrammar>()?;
    m.add_class::<PyCompiledGrammar>()?;
    m.add_class::<PyMatcher>()?;
    m.add_function(wrap_pyfunction!(fill_next_token_bitmasks, m)?)?;
    Ok(())
}
