//! Test support for the property tests: an independent Earley recognizer, the viability
//! definition evaluated with it, a sentence generator, and the grammars to run on; and
//! for the corpus tests, teacher-forcing texts with mask checks.
//!
//! Each test crate uses a part of it.
#![allow(dead_code, unused_imports)]

pub mod corpus;
pub mod earley;
pub mod generate;
pub mod grammars;
pub mod lexing;
pub mod reference;

pub use earley::Earley;
pub use generate::{pick, rng_from_seed, Sentence};
pub use grammars::{cubic_epsilon_fixture, lark_fixture, lark_fixtures, random_grammar, Fixture};
pub use lexing::split;
pub use reference::ReferenceRecognizer;
