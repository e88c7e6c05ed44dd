//! What `bench` and `maskbench` share: input files, and result records in the MaskBench
//! harness format (`{"id", "status", "ttfm_us", "masks_us"}`, read by
//! `shared/peers/summarize.py`).

use crate::crosscheck::SchemaCheck;
use crate::out;
use stackmask::Error;
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// One text's (`bench`) or one schema's (`maskbench`) result.
#[derive(serde::Serialize)]
pub struct Record {
    pub id: String,
    pub status: &'static str,
    /// Time to first mask; absent where no mask was reached (`bench`) or the schema did not
    /// compile (`maskbench`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttfm_us: Option<f64>,
    pub masks_us: Vec<f64>,
    /// Grammar compile time, for an engine that compiles per text (the `bench` peer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile_us: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Per mask: GSS nodes on the current level (`bench`), aligned with `masks_us`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub level_nodes: Vec<usize>,
    /// Per committed token: GSS nodes it added (`bench`; not written out).
    #[serde(skip)]
    pub added_nodes: Vec<usize>,
    /// Per mask: what the classifier built during it (`bench` and `maskbench`; not
    /// written out), aligned with `masks_us`.
    #[serde(skip)]
    pub built: Vec<Built>,
    /// `oneOf`s compiled as `anyOf` (`maskbench --one-of any-of`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub approximated: Vec<String>,
    /// The reference validator's judgement of the same instances (`maskbench --cross-check`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_check: Option<SchemaCheck>,
}

/// What the classifier built during one mask, read from
/// [`StackClassifier::builds`](stackmask::classifier::StackClassifier::builds) around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Built {
    /// Nothing: the mask only walked what was built.
    Nothing,
    /// Automaton edges, and no automaton.
    EdgesOnly,
    /// A lexer state's automaton (the first use of its row or part), and perhaps edges.
    Automaton,
}

impl From<stackmask::classifier::Builds> for Built {
    /// What `builds` (read after a mask, less the reading before it) says was built.
    fn from(builds: stackmask::classifier::Builds) -> Built {
        match (builds.automata, builds.edges) {
            (0, 0) => Built::Nothing,
            (0, _) => Built::EdgesOnly,
            _ => Built::Automaton,
        }
    }
}

impl Record {
    /// A passing record named after `path`'s file name.
    pub fn new(path: &Path) -> Record {
        let id = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        Record {
            id,
            status: "pass",
            ttfm_us: None,
            masks_us: Vec::new(),
            compile_us: None,
            error: None,
            level_nodes: Vec::new(),
            added_nodes: Vec::new(),
            built: Vec::new(),
            approximated: Vec::new(),
            cross_check: None,
        }
    }

    /// This record with a failure `status` and its `reason`.
    pub fn failed(mut self, status: &'static str, reason: String) -> Record {
        self.status = status;
        self.error = Some(reason);
        self
    }
}

/// Files given, with folders replaced by the files in them whose name `keep` accepts
/// (sorted).
pub fn expand(paths: &[PathBuf], keep: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|source| Error::Io { path: p.display().to_string(), source })?;
            let mut inside: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file() && keep(p)).collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(p.clone());
        }
    }
    Ok(files)
}

/// Runs `one` on every item (a file, a text), `jobs` items at once, advancing
/// `progress`; records come back in the items' order. Stops at the first record whose
/// mask differs from the reference (items not started yet are skipped), prints it and
/// returns `None`.
pub fn run_each<T: Sync>(
    items: &[T],
    progress: indicatif::ProgressBar,
    jobs: usize,
    one: impl Fn(&T) -> Result<Record, Error> + Sync,
) -> Result<Option<Vec<Record>>, Error> {
    let differs = AtomicBool::new(false);
    let run = |item: &T| -> Result<Option<Record>, Error> {
        if differs.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let record = one(item)?;
        progress.inc(1);
        if record.status == "mask_differs" {
            differs.store(true, Ordering::Relaxed);
        }
        Ok(Some(record))
    };
    let records: Vec<Option<Record>> = if jobs > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| Error::Io { path: "--jobs".into(), source: std::io::Error::other(e) })?;
        pool.install(|| items.par_iter().map(run).collect::<Result<_, _>>())?
    } else {
        items.iter().map(run).collect::<Result<_, _>>()?
    };
    progress.finish_and_clear();
    let records: Vec<Record> = records.into_iter().flatten().collect();
    if let Some(record) = records.iter().find(|r| r.status == "mask_differs") {
        out!("{}: {}", record.id, record.error.as_deref().unwrap_or(""));
        return Ok(None);
    }
    Ok(Some(records))
}

/// `path` with `label` inserted before its extension (`out.json` -> `out.eager.json`).
pub fn labelled(path: &Path, label: &str) -> PathBuf {
    let stem = path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let ext = path.extension().map_or_else(|| "json".into(), |e| e.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}.{label}.{ext}"))
}

/// Writes `records` as one JSON array.
pub fn write(path: &Path, records: &[Record]) -> Result<(), Error> {
    let io = |source| Error::Io { path: path.display().to_string(), source };
    let json = serde_json::to_string(records).map_err(|e| io(std::io::Error::other(e)))?;
    std::fs::write(path, json).map_err(io)?;
    out!("records written to {}", path.display());
    Ok(())
}
