//! Replaying [`Parser::consume`](super::Parser::consume) steps already taken from the
//! same GSS.
//!
//! A step is a function of the GSS (named by its [`Generation`]), the lexeme's candidate
//! terminals and whether it may be skipped. Callers that try many texts from one
//! position (the reference mask tries every token) take the same first steps again and
//! again, each time after restoring the position: a replay appends the nodes, edges and
//! log entries the step appended and relinks the nodes it gave new edges, instead of
//! running the reductions.

use super::{Edge, Generation, Node};
use crate::ir::TerminalId;
use hashbrown::HashMap;
use smallvec::SmallVec;

/// What a step needs to be the same step: the GSS it starts from and the lexeme.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct StepKey {
    pub(super) from: Generation,
    pub(super) terminals: SmallVec<[TerminalId; 4]>,
    pub(super) skippable: bool,
}

/// A step's effect on the parser's arenas, recorded once it succeeded.
#[derive(Clone, Debug)]
pub(super) struct Step {
    pub(super) nodes: Box<[Node]>,
    pub(super) edges: Box<[Edge]>,
    pub(super) undo: Box<[(u32, u32)]>,
    /// `(node, first edge)` for nodes older than the step that it gave edges.
    pub(super) relinked: Box<[(u32, u32)]>,
    pub(super) level_start: u32,
    pub(super) heads: SmallVec<[u32; 4]>,
    pub(super) to: Generation,
}

/// The outcome of a step: no stack survived (the parser was left as it was), or what
/// it did.
#[derive(Clone, Debug)]
pub(super) enum Outcome {
    Rejected,
    Taken(Step),
}

/// Steps taken, up to a capacity; when full it is emptied, since the steps worth
/// keeping are the ones from the position being explored now.
#[derive(Clone, Debug, Default)]
pub(super) struct Replays {
    capacity: usize,
    steps: HashMap<StepKey, Outcome>,
}

impl Replays {
    /// Keep up to `capacity` steps (0: keep none).
    pub(super) fn with_capacity(capacity: usize) -> Replays {
        Replays { capacity, steps: HashMap::new() }
    }

    /// Whether steps are kept at all.
    pub(super) fn enabled(&self) -> bool {
        self.capacity > 0
    }

    pub(super) fn get(&self, key: &StepKey) -> Option<&Outcome> {
        self.steps.get(key)
    }

    pub(super) fn insert(&mut self, key: StepKey, outcome: Outcome) {
        if self.steps.len() >= self.capacity {
            self.steps.clear();
        }
        self.steps.insert(key, outcome);
    }
}
