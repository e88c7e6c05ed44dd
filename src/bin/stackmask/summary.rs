//! Figures over a run's records (status counts, mask-time and TTFM percentiles, memory), and
//! the side-by-side table of several engines' runs with ratios to the peer.

use crate::out;
use crate::records::{Built, Record};
use stackmask::Error;
use std::io::Write;

/// Times (µs) in ascending order.
pub struct Sorted(Vec<f64>);

impl Sorted {
    /// `values`, sorted.
    pub fn new(mut values: Vec<f64>) -> Sorted {
        values.sort_by(f64::total_cmp);
        Sorted(values)
    }

    /// How many values.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value at quantile `q` (0 when empty).
    pub fn percentile(&self, q: f64) -> f64 {
        let Some(last) = self.0.len().checked_sub(1) else {
            return 0.0;
        };
        self.0[(last as f64 * q).round() as usize]
    }

    /// The mean (0 when empty).
    pub fn mean(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len().max(1) as f64
    }

    /// The largest value (0 when empty).
    pub fn max(&self) -> f64 {
        self.0.last().copied().unwrap_or(0.0)
    }

    /// `None` when empty, else the value at quantile `q`.
    fn nonempty_percentile(&self, q: f64) -> Option<f64> {
        (!self.is_empty()).then(|| self.percentile(q))
    }
}

/// Resident memory of the process around one engine's run, from `/proc/self` (Linux).
///
/// One process holds both engines, so an engine's own memory is read as the rise of the
/// peak RSS over its run: memory that an earlier run freed and the allocator kept can be
/// reused unseen, which understates a later run's growth by at most that earlier run's.
#[derive(Clone, Copy, Default)]
pub struct Memory {
    /// RSS when the run started (KiB).
    pub start_kib: Option<u64>,
    /// Peak RSS during the run (KiB, `VmHWM`): reset when the run started where the kernel
    /// allows it, else the peak since the process started.
    pub peak_kib: Option<u64>,
    /// Whether the peak was reset at the start of the run.
    pub peak_reset: bool,
}

impl Memory {
    /// How far the peak RSS rose above the RSS at the start (MiB), where known.
    pub fn growth_mib(&self) -> Option<f64> {
        Some(self.peak_kib?.saturating_sub(self.start_kib?) as f64 / 1024.0)
    }
}

/// Measures [`Memory`] over a stretch of work: start it, run, then [`finish`](Self::finish).
pub struct MemoryProbe {
    start_kib: Option<u64>,
    peak_reset: bool,
}

impl MemoryProbe {
    /// Resets the kernel's peak-RSS mark (`/proc/self/clear_refs`) and notes the RSS.
    pub fn start() -> MemoryProbe {
        let peak_reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
        MemoryProbe { start_kib: status_kib("VmRSS:"), peak_reset }
    }

    /// The memory figures since [`start`](Self::start).
    pub fn finish(&self) -> Memory {
        Memory { start_kib: self.start_kib, peak_kib: status_kib("VmHWM:"), peak_reset: self.peak_reset }
    }
}

/// A `/proc/self/status` field in KiB.
fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let value = status.lines().find_map(|l| l.strip_prefix(field))?;
    value.trim().trim_end_matches("kB").trim().parse().ok()
}

/// Prints one line about `memory`.
pub fn print_memory(memory: &Memory) -> Result<(), Error> {
    let mib = |kib: Option<u64>| kib.map_or_else(|| "?".into(), |k| format!("{:.0}", k as f64 / 1024.0));
    out!(
        "memory: RSS {} MiB at the start, peak {} MiB (VmHWM{}), growth {} MiB",
        mib(memory.start_kib),
        mib(memory.peak_kib),
        if memory.peak_reset { ", reset at the start" } else { " since the process started" },
        memory.growth_mib().map_or_else(|| "?".into(), |g| format!("{g:.0}"))
    );
    Ok(())
}

/// What a run's records add up to.
pub struct Summary {
    /// Number of records (texts or schemas).
    pub records: usize,
    /// Records per status, most frequent first.
    pub statuses: Vec<(&'static str, usize)>,
    /// Every mask time.
    pub masks: Sorted,
    /// Times to first mask, where measured.
    pub ttfm: Sorted,
    /// Grammar compile times, where recorded (a peer compiling per text).
    pub compile: Sorted,
    /// Memory over the run.
    pub memory: Memory,
}

impl Summary {
    /// The figures of `records`, with `memory` measured over their run.
    pub fn of(records: &[Record], memory: Memory) -> Summary {
        let mut statuses: Vec<(&'static str, usize)> = Vec::new();
        for r in records {
            match statuses.iter_mut().find(|(s, _)| *s == r.status) {
                Some((_, n)) => *n += 1,
                None => statuses.push((r.status, 1)),
            }
        }
        statuses.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        Summary {
            records: records.len(),
            statuses,
            masks: Sorted::new(records.iter().flat_map(|r| r.masks_us.iter().copied()).collect()),
            ttfm: Sorted::new(records.iter().filter_map(|r| r.ttfm_us).collect()),
            compile: Sorted::new(records.iter().filter_map(|r| r.compile_us).collect()),
            memory,
        }
    }

    /// Records with `status`.
    pub fn count(&self, status: &str) -> usize {
        self.statuses.iter().find(|(s, _)| *s == status).map_or(0, |&(_, n)| n)
    }

    /// `status 12, other 3`.
    pub fn status_list(&self) -> String {
        self.statuses.iter().map(|(s, n)| format!("{s} {n}")).collect::<Vec<_>>().join(", ")
    }

    /// Prints the mask-time percentiles (`label`: TBM or mask) on one line.
    pub fn print_masks(&self, label: &str) -> Result<(), Error> {
        print_percentiles(label, &self.masks)
    }

    /// Prints the time-to-first-mask percentiles on one line.
    pub fn print_ttfm(&self) -> Result<(), Error> {
        print_percentiles("TTFM us", &self.ttfm)
    }
}

/// Mask times split by what the mask built of the classifier: the walk over what is
/// built, and the masks that also paid for construction, those that built a lexer
/// state's automaton (a row's first use, which walks the vocabulary's trie) apart from
/// those that built edges only (nothing printed for records that do not say, as a
/// peer's).
pub fn print_by_construction(records: &[Record]) -> Result<(), Error> {
    if records.iter().all(|r| r.built.is_empty()) {
        return Ok(());
    }
    let (mut automata, mut edges, mut walking) = (Vec::new(), Vec::new(), Vec::new());
    for r in records {
        for (&us, &built) in r.masks_us.iter().zip(&r.built) {
            match built {
                Built::Automaton => automata.push(us),
                Built::EdgesOnly => edges.push(us),
                Built::Nothing => walking.push(us),
            }
        }
    }
    let building: Vec<f64> = automata.iter().chain(&edges).copied().collect();
    let total = building.len() + walking.len();
    out!("masks that built automata or edges: {} of {total} ({:.2}%)", building.len(), 100.0 * building.len() as f64 / total.max(1) as f64);
    let groups = [
        ("  mask us, building", building),
        ("    of which an automaton (a row's first use)", automata),
        ("    of which edges only", edges),
        ("  mask us, walk only", walking),
    ];
    for (label, masks) in groups {
        if !masks.is_empty() {
            print_percentiles(label, &Sorted::new(masks))?;
        }
    }
    Ok(())
}

/// Prints `sorted`'s mean and percentiles on one line.
fn print_percentiles(label: &str, sorted: &Sorted) -> Result<(), Error> {
    out!(
        "{label} ({}): mean {:.2}  p25 {:.2}  p50 {:.2}  p75 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.1}",
        sorted.len(),
        sorted.mean(),
        sorted.percentile(0.25),
        sorted.percentile(0.5),
        sorted.percentile(0.75),
        sorted.percentile(0.9),
        sorted.percentile(0.99),
        sorted.percentile(0.999),
        sorted.max()
    );
    Ok(())
}

/// What a table row shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A count: no ratio.
    Count,
    /// A time or a size: ratio to the peer.
    Measure,
}

/// One row of the side-by-side table.
pub struct Metric {
    label: &'static str,
    kind: Kind,
    value: fn(&Summary) -> Option<f64>,
}

impl Metric {
    /// A count (no ratio column).
    pub const fn count(label: &'static str, value: fn(&Summary) -> Option<f64>) -> Metric {
        Metric { label, kind: Kind::Count, value }
    }

    /// A time or size, with its ratio to the peer.
    pub const fn measure(label: &'static str, value: fn(&Summary) -> Option<f64>) -> Metric {
        Metric { label, kind: Kind::Measure, value }
    }
}

/// Rows on mask times (TBM), for every table.
pub const MASK_METRICS: &[Metric] = &[
    Metric::count("masks", |s| Some(s.masks.len() as f64)),
    Metric::measure("mask mean us", |s| (!s.masks.is_empty()).then(|| s.masks.mean())),
    Metric::measure("mask p50 us", |s| s.masks.nonempty_percentile(0.5)),
    Metric::measure("mask p90 us", |s| s.masks.nonempty_percentile(0.9)),
    Metric::measure("mask p99 us", |s| s.masks.nonempty_percentile(0.99)),
    Metric::measure("mask p99.9 us", |s| s.masks.nonempty_percentile(0.999)),
    Metric::measure("mask max us", |s| s.masks.nonempty_percentile(1.0)),
];

/// Rows on time to first mask and compile time.
pub const TTFM_METRICS: &[Metric] = &[
    Metric::measure("TTFM p50 us", |s| s.ttfm.nonempty_percentile(0.5)),
    Metric::measure("TTFM p90 us", |s| s.ttfm.nonempty_percentile(0.9)),
    Metric::measure("TTFM p99 us", |s| s.ttfm.nonempty_percentile(0.99)),
    Metric::measure("TTFM max us", |s| s.ttfm.nonempty_percentile(1.0)),
];

/// Rows on memory: how far the peak RSS rose over the engine's run (tokenizers are loaded
/// before it, so not counted).
pub const MEMORY_METRICS: &[Metric] = &[Metric::measure("RSS growth MiB", |s| s.memory.growth_mib())];

/// One column of the side-by-side table: an engine's run.
pub struct Column<'a> {
    /// Header, e.g. `eager` or `llguidance`.
    pub name: String,
    /// The run's figures.
    pub summary: &'a Summary,
}

/// Prints `columns` side by side over the rows of every group in `metrics`; the last
/// column is the peer, and every other column gets a ratio column (that column / peer) on
/// the measure rows.
pub fn print_side_by_side(columns: &[Column], metrics: &[&[Metric]]) -> Result<(), Error> {
    let Some((peer, engines)) = columns.split_last() else {
        return Ok(());
    };
    let mut header = format!("{:<18}", "");
    for c in columns {
        header.push_str(&format!(" {:>12}", c.name));
    }
    for c in engines {
        header.push_str(&format!(" {:>12}", format!("{}/{}", short(&c.name, 5), short(&peer.name, 3))));
    }
    out!("{}", header.trim_end());
    for metric in metrics.iter().copied().flatten() {
        let mut line = format!("{:<18}", metric.label);
        for c in columns {
            line.push_str(&format!(" {:>12}", cell((metric.value)(c.summary), metric.kind)));
        }
        if metric.kind == Kind::Measure {
            let base = (metric.value)(peer.summary);
            for c in engines {
                let ratio = (metric.value)(c.summary).zip(base).filter(|&(_, b)| b > 0.0).map(|(v, b)| v / b);
                line.push_str(&format!(" {:>12}", ratio.map_or_else(|| "-".into(), significant)));
            }
        }
        out!("{}", line.trim_end());
    }
    Ok(())
}

/// A column name cut to `n` characters to fit a ratio header.
fn short(name: &str, n: usize) -> &str {
    name.char_indices().nth(n).map_or(name, |(end, _)| &name[..end])
}

/// `x` with three significant digits, in positional notation (`0.000281`, `2718`).
fn significant(x: f64) -> String {
    let magnitude = if x > 0.0 { x.log10().floor() as i32 } else { 0 };
    let decimals = (2 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}

fn cell(value: Option<f64>, kind: Kind) -> String {
    match (value, kind) {
        (None, _) => "-".into(),
        (Some(v), Kind::Count) => format!("{v:.0}"),
        (Some(v), Kind::Measure) if v >= 100.0 => format!("{v:.0}"),
        (Some(v), Kind::Measure) => format!("{v:.2}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_round_to_the_nearest_rank() {
        let s = Sorted::new(vec![4.0, 1.0, 3.0, 2.0, 5.0]);
        assert_eq!(s.percentile(0.5), 3.0);
        assert_eq!(s.percentile(1.0), 5.0);
        assert_eq!(s.max(), 5.0);
        assert_eq!(s.mean(), 3.0);
        assert_eq!(Sorted::new(Vec::new()).percentile(0.5), 0.0);
    }

    #[test]
    fn ratios_keep_three_significant_digits() {
        assert_eq!(significant(0.000281234), "0.000281");
        assert_eq!(significant(0.0553), "0.0553");
        assert_eq!(significant(1.5), "1.50");
        assert_eq!(significant(2717.524), "2718");
        assert_eq!(significant(0.0), "0.00");
    }

    #[test]
    fn summaries_count_statuses_most_frequent_first() {
        let path = std::path::Path::new("x");
        let records = [
            Record::new(path).failed("compile_error", String::new()),
            Record::new(path),
            Record::new(path),
        ];
        let s = Summary::of(&records, Memory::default());
        assert_eq!(s.statuses, vec![("pass", 2), ("compile_error", 1)]);
        assert_eq!(s.count("pass"), 2);
        assert_eq!(s.count("validation_error"), 0);
        assert_eq!(s.status_list(), "pass 2, compile_error 1");
    }
}
