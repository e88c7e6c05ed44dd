//! Teacher forcing, shared by `bench` and `maskbench` and by every engine they run: for each
//! token of a text compute the mask (timed), check that the true token is allowed, commit
//! it; after the last token the mask must allow EOS.

use crate::{allows, difference_from_reference};
use crate::records::Built;
use stackmask::classifier::{Builds, StackClassifier};
use stackmask::{Error, Matcher};
use std::sync::Arc;
use std::time::Instant;

/// One sequence under a grammar constraint, as the teacher-forcing loop drives it.
pub trait Sequence {
    /// Words of the mask buffer (32 tokens a word).
    fn mask_words(&self) -> usize;

    /// Writes the mask of allowed tokens (llguidance/XGrammar layout). This call is timed.
    fn compute_mask(&mut self, mask: &mut [u32]) -> Result<(), Error>;

    /// Looks at the mask just computed, outside the timing; returns how it is wrong
    /// (`--verify`), if it is.
    fn inspect(&mut self, _mask: &[u32], _step: usize) -> Result<Option<String>, Error> {
        Ok(None)
    }

    /// Advances by `token`.
    fn commit(&mut self, token: u32) -> Result<(), Error>;

    /// Per mask so far, what the engine built during it (for the engines that say; the
    /// flags are handed over once).
    fn take_built(&mut self) -> Vec<Built> {
        Vec::new()
    }

    /// Why the engine stopped accepting, when it keeps such a note (appended to rejections).
    fn error(&self) -> Option<String> {
        None
    }
}

/// How a teacher-forced text ended.
pub enum Outcome {
    /// Every token and the final EOS were allowed.
    Accepted,
    /// The mask at `step` did not allow `token` (`step == tokens.len()`: EOS).
    Rejected { step: usize, token: u32 },
    /// The engine failed computing a mask or committing.
    Failed(String),
    /// `inspect` found the mask wrong.
    Differs(String),
}

/// Teacher-forces `tokens` then `eos` through `sequence`; each mask time (µs) goes to
/// `masks_us`.
pub fn teacher_force(
    sequence: &mut impl Sequence,
    tokens: &[u32],
    eos: u32,
    masks_us: &mut Vec<f64>,
) -> Result<Outcome, Error> {
    let mut mask = vec![0u32; sequence.mask_words()];
    for (step, token) in tokens.iter().copied().chain(std::iter::once(eos)).enumerate() {
        let started = Instant::now();
        if let Err(e) = sequence.compute_mask(&mut mask) {
            return Ok(Outcome::Failed(format!("mask at step {step}: {e}")));
        }
        masks_us.push(started.elapsed().as_secs_f64() * 1e6);
        if let Some(difference) = sequence.inspect(&mask, step)? {
            return Ok(Outcome::Differs(difference));
        }
        if !allows(&mask, token) {
            return Ok(Outcome::Rejected { step, token });
        }
        if step < tokens.len() {
            if let Err(e) = sequence.commit(token) {
                return Ok(Outcome::Failed(format!("commit at step {step}: {e}")));
            }
        }
    }
    Ok(Outcome::Accepted)
}

/// A stackmask [`Matcher`] over a shared classifier, as a teacher-forced sequence.
pub struct Stackmask {
    matcher: Matcher,
    verify: bool,
    /// Per mask: GSS nodes on the current level.
    pub level_nodes: Vec<usize>,
    /// Per committed token: GSS nodes it added.
    pub added_nodes: Vec<usize>,
    /// Per mask: what the classifier built during it.
    built: Vec<Built>,
    /// [`StackClassifier::builds`] after the last mask (or at creation).
    builds: Builds,
}

impl Stackmask {
    /// A fresh matcher; with `verify`, every mask is compared with the reference mask.
    pub fn new(classifier: &Arc<StackClassifier>, verify: bool) -> Stackmask {
        let matcher = Matcher::with_classifier(Arc::clone(classifier));
        let builds = classifier.builds();
        Stackmask { matcher, verify, level_nodes: Vec::new(), added_nodes: Vec::new(), built: Vec::new(), builds }
    }
}

impl Sequence for Stackmask {
    fn mask_words(&self) -> usize {
        self.matcher.mask_words()
    }

    fn compute_mask(&mut self, mask: &mut [u32]) -> Result<(), Error> {
        self.matcher.compute_mask(mask)
    }

    fn inspect(&mut self, mask: &[u32], step: usize) -> Result<Option<String>, Error> {
        self.level_nodes.push(self.matcher.recognizer().parser().level_node_count());
        // Read here, outside the timed call; nothing between two masks builds (commits
        // and the reference mask do not touch the classifier).
        let builds = self.matcher.classifier().map_or(self.builds, |c| c.builds());
        self.built.push(Built::from(builds.since(self.builds)));
        self.builds = builds;
        if !self.verify {
            return Ok(None);
        }
        difference_from_reference(&self.matcher, mask, step)
    }

    fn take_built(&mut self) -> Vec<Built> {
        std::mem::take(&mut self.built)
    }

    fn commit(&mut self, token: u32) -> Result<(), Error> {
        let before = self.matcher.recognizer().parser().node_count();
        self.matcher.commit(token)?;
        self.added_nodes.push(self.matcher.recognizer().parser().node_count() - before);
        Ok(())
    }
}
