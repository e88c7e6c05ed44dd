//! Stand-ins for the llguidance peer in builds without the `llguidance` feature. They
//! cannot be made: `--peer llguidance` and `--peer-limits` are refused when the arguments
//! are parsed, and [`Llguidance::load`] fails.

use super::UNAVAILABLE;
use crate::forcing::Sequence;
use stackmask::Error;

/// llguidance's parser limits (not linked in this build).
#[derive(Clone, Debug)]
pub enum Limits {}

/// Refuses `--peer-limits`: llguidance is not linked in this build.
pub fn parse_limits(_json: &str) -> Result<Limits, String> {
    Err(UNAVAILABLE.into())
}

/// llguidance (not linked in this build).
pub enum Llguidance {}

impl Llguidance {
    /// Fails: llguidance is not linked in this build.
    pub fn load(_tokenizer_json: &[u8], _limits: Option<Limits>) -> Result<Llguidance, Error> {
        Err(Error::Tokenizer(UNAVAILABLE.into()))
    }

    /// llguidance's EOS token.
    pub fn eos(&self) -> u32 {
        match *self {}
    }

    /// llguidance's vocabulary size.
    pub fn vocab_size(&self) -> usize {
        match *self {}
    }

    /// `text` as llguidance's own tokenizer encodes it.
    pub fn tokenize(&self, _text: &str) -> Vec<u32> {
        match *self {}
    }

    /// A matcher for `grammar`.
    pub fn compile(&self, _grammar: &str) -> Result<LlgMatcher, String> {
        match *self {}
    }
}

/// An llguidance matcher (not linked in this build).
#[derive(Clone)]
pub enum LlgMatcher {}

impl Sequence for LlgMatcher {
    fn mask_words(&self) -> usize {
        match *self {}
    }

    fn compute_mask(&mut self, _mask: &mut [u32]) -> Result<(), Error> {
        match *self {}
    }

    fn commit(&mut self, _token: u32) -> Result<(), Error> {
        match *self {}
    }
}
