//! Numeric bounds as regular languages over JSON number spellings.
//!
//! A bounded number is spelled in plain decimal notation (`-?int(.frac)?`, no exponent):
//! comparing an exponent spelling with a bound is not a regular property worth its
//! size, and plain notation is what serializers write for the magnitudes schemas bound.
//! Each bound is one regex; the lexer intersects them ([`TerminalPattern::Compound`]),
//! so `minimum` and `maximum` together cost no more than each alone.
//!
//! [`TerminalPattern::Compound`]: crate::ir::TerminalPattern::Compound

use crate::ir::Language;

/// Any JSON number.
pub(super) const ANY_NUMBER: &str = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?";
/// Any JSON integer, in plain notation.
pub(super) const ANY_INTEGER: &str = r"-?(?:0|[1-9][0-9]*)";
/// Any number in plain decimal notation.
pub(super) const PLAIN_NUMBER: &str = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?";
/// Numbers that are not integers, in plain decimal notation (a fraction digit that is
/// not zero).
pub(super) const NON_INTEGER: &str = r"-?(?:0|[1-9][0-9]*)\.[0-9]*[1-9][0-9]*";

const MAGNITUDE: &str = r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?";

/// A non-negative decimal: integer digits without leading zeros, fraction digits
/// without trailing zeros.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Decimal {
    int: String,
    frac: String,
}

impl Decimal {
    /// Splits a finite `f64` into sign and magnitude, exactly as Rust prints it (Rust's
    /// `Display` for floats never uses an exponent and round-trips).
    fn of(value: f64) -> (bool, Decimal) {
        let text = format!("{}", value.abs());
        let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
        let int = int.trim_start_matches('0');
        let int = if int.is_empty() { "0" } else { int };
        (value < 0.0, Decimal { int: int.to_string(), frac: frac.trim_end_matches('0').to_string() })
    }

    fn is_zero(&self) -> bool {
        self.int == "0" && self.frac.is_empty()
    }
}

/// Which side of a bound is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    /// `x >= bound` (`minimum`) or `x > bound` (`exclusiveMinimum`).
    Above,
    /// `x <= bound` (`maximum`) or `x < bound` (`exclusiveMaximum`).
    Below,
}

/// The plain-notation numbers on `side` of `value`; `strict` excludes the bound. An
/// integer bound is read exactly (`maximum: 9223372036854775807` is not the float
/// 2^63), a fraction as [`Decimal::of`] reads its float.
pub(super) fn bound(side: Side, value: &serde_json::Number, strict: bool) -> String {
    let (negative, magnitude) = sign_and_magnitude(value);
    let negative = negative && !magnitude.is_zero();
    // x >= v for v >= 0 is |x| >= v among non-negatives; for v < 0 it is every
    // non-negative plus the negatives with |x| <= |v|. The other cases mirror it.
    let regex = match (side, negative) {
        (Side::Above, false) => {
            let m = if strict { greater(&magnitude) } else { at_least(&magnitude) };
            // -0 equals 0, which passes `>= 0` but not `> 0`; spell it only when allowed.
            if magnitude.is_zero() && !strict {
                format!("-?{MAGNITUDE_ZERO}|{m}")
            } else {
                m
            }
        }
        (Side::Above, true) => {
            let m = if strict { less(&magnitude) } else { at_most(&magnitude) };
            format!("{MAGNITUDE}|-(?:{m})")
        }
        (Side::Below, false) => {
            let m = if strict { less(&magnitude) } else { at_most(&magnitude) };
            // -0 equals 0, which passes `<= 0` but not `< 0`.
            let negatives = if magnitude.is_zero() && strict { greater(&magnitude) } else { MAGNITUDE.to_string() };
            format!("-(?:{negatives})|{m}")
        }
        (Side::Below, true) => {
            let m = if strict { greater(&magnitude) } else { at_least(&magnitude) };
            format!("-(?:{m})")
        }
    };
    format!("(?:{regex})")
}

/// The order of two numbers' values, exact where [`bound`] is (integers exactly,
/// fractions as their floats read).
pub(super) fn compare(a: &serde_json::Number, b: &serde_json::Number) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let ((a_negative, a), (b_negative, b)) = (sign_and_magnitude(a), sign_and_magnitude(b));
    let (a_negative, b_negative) = (a_negative && !a.is_zero(), b_negative && !b.is_zero());
    let magnitudes = || (a.int.len(), &a.int, &a.frac).cmp(&(b.int.len(), &b.int, &b.frac));
    match (a_negative, b_negative) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => magnitudes(),
        (true, true) => magnitudes().reverse(),
    }
}

/// Every plain-notation spelling of exactly the value of `n` (`1.5` is also `1.50`, `1`
/// also `1.0`; zero also `-0`): what an `enum` or `const` value, or a `not` of one,
/// matches among the numbers a grammar spells.
pub(super) fn spellings(n: &serde_json::Number) -> String {
    let (negative, magnitude) = sign_and_magnitude(n);
    let sign = sign_spellings(negative, &magnitude);
    let frac = match magnitude.frac.as_str() {
        "" => r"(?:\.0+)?".to_string(),
        digits => format!(r"\.{digits}0*"),
    };
    format!("{sign}{}{frac}", magnitude.int)
}

/// Every spelling of the integer `n` without a fraction part (`0` also as `-0`).
pub(super) fn integer_spellings(n: &serde_json::Number) -> String {
    let (negative, magnitude) = sign_and_magnitude(n);
    format!("{}{}", sign_spellings(negative, &magnitude), magnitude.int)
}

/// The spellings of a value's sign: zero may be written `-0`.
fn sign_spellings(negative: bool, magnitude: &Decimal) -> &'static str {
    match (magnitude.is_zero(), negative) {
        (true, _) => "-?",
        (false, true) => "-",
        (false, false) => "",
    }
}

/// The shortest plain-notation spelling of `n` (`1e-7` is `0.0000001`), the one every
/// regex of this module is written against.
pub(super) fn plain(n: &serde_json::Number) -> String {
    let (negative, magnitude) = sign_and_magnitude(n);
    let sign = if negative && !magnitude.is_zero() { "-" } else { "" };
    let point = if magnitude.frac.is_empty() { "" } else { "." };
    format!("{sign}{}{point}{}", magnitude.int, magnitude.frac)
}

/// The first number literal of the JSON text `text` whose value `serde_json` does not
/// hold exactly (an integer beyond 64 bits, a fraction with more digits than a float
/// keeps): its byte offset, the literal, and the value it would be read as. A schema
/// read through such a number would bound, exclude or list another value than it says.
pub(super) fn first_inexact_literal(text: &str) -> Option<(usize, &str, String)> {
    let bytes = text.as_bytes();
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'-' | b'0'..=b'9' if !in_string => {
                let len = bytes[i..].iter().take_while(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')).count();
                let literal = &text[i..i + len];
                if let Some(read) = inexact(literal) {
                    return Some((i, literal, read));
                }
                i += len;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// What `serde_json` reads `literal` as, when that is not its value.
fn inexact(literal: &str) -> Option<String> {
    if literal.parse::<i64>().is_ok() || literal.parse::<u64>().is_ok() {
        return None;
    }
    // An infinite one `serde_json` refuses to parse at all.
    let float: f64 = literal.parse().ok().filter(|f: &f64| f.is_finite())?;
    let (mantissa, exponent) = literal.split_once(['e', 'E']).unwrap_or((literal, "0"));
    let differs = if float == 0.0 {
        mantissa.bytes().any(|b| b.is_ascii_digit() && b != b'0')
    } else {
        // A float not zero has an exponent within a few hundred places.
        let (negative, value) = written_value(mantissa, exponent.parse().ok()?);
        (negative, value) != Decimal::of(float)
    };
    differs.then(|| format!("{float}"))
}

/// The value of a JSON number's mantissa times `10^exponent`, as [`Decimal::of`] gives
/// a float's (no leading or trailing zeros; zero not negative).
fn written_value(mantissa: &str, exponent: i64) -> (bool, Decimal) {
    let (negative, unsigned) = mantissa.strip_prefix('-').map_or((false, mantissa), |rest| (true, rest));
    let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = [int, frac].concat();
    let point = int.len() as i64 + exponent;
    let zeros = |n: i64| "0".repeat(n.max(0) as usize);
    let (int, frac) = if point <= 0 {
        (String::new(), format!("{}{digits}", zeros(-point)))
    } else if point as usize >= digits.len() {
        (format!("{digits}{}", zeros(point - digits.len() as i64)), String::new())
    } else {
        (digits[..point as usize].to_string(), digits[point as usize..].to_string())
    };
    let int = int.trim_start_matches('0');
    let value = Decimal { int: if int.is_empty() { "0".into() } else { int.to_string() }, frac: frac.trim_end_matches('0').to_string() };
    (negative && !value.is_zero(), value)
}

/// Integers exactly (beyond a float's precision too), floats as [`Decimal::of`] reads them.
fn sign_and_magnitude(n: &serde_json::Number) -> (bool, Decimal) {
    match (n.as_i64(), n.as_u64()) {
        (Some(i), _) => (i < 0, Decimal { int: i.unsigned_abs().to_string(), frac: String::new() }),
        (None, Some(u)) => (false, Decimal { int: u.to_string(), frac: String::new() }),
        (None, None) => Decimal::of(n.as_f64().unwrap_or(0.0)),
    }
}

/// Spellings of zero.
const MAGNITUDE_ZERO: &str = r"0(?:\.0+)?";

/// Magnitudes `>= d`.
fn at_least(d: &Decimal) -> String {
    format!("{}|{}{}", int_greater(&d.int), d.int, frac_at_least(&d.frac))
}

/// Magnitudes `> d`.
fn greater(d: &Decimal) -> String {
    format!("{}|{}{}", int_greater(&d.int), d.int, frac_greater(&d.frac))
}

/// Magnitudes `<= d`.
fn at_most(d: &Decimal) -> String {
    let mut alternatives = int_less(&d.int);
    alternatives.push(format!("{}{}", d.int, frac_at_most(&d.frac)));
    alternatives.join("|")
}

/// Magnitudes `< d`.
fn less(d: &Decimal) -> String {
    let mut alternatives = int_less(&d.int);
    if let Some(f) = frac_less(&d.frac) {
        alternatives.push(format!("{}{f}", d.int));
    }
    if alternatives.is_empty() {
        // Nothing is below zero in magnitude.
        return "[^\\x00-\\x{10FFFF}]".into();
    }
    alternatives.join("|")
}

/// Integer parts greater than `int`, any fraction.
fn int_greater(int: &str) -> String {
    let digits: Vec<u8> = int.bytes().map(|b| b - b'0').collect();
    let n = digits.len();
    let mut alternatives = vec![format!("[1-9][0-9]{{{n},}}")];
    for k in 0..n {
        if digits[k] < 9 {
            let rest = n - k - 1;
            alternatives.push(format!("{}[{}-9][0-9]{{{rest}}}", &int[..k], digits[k] + 1));
        }
    }
    format!("(?:{})(?:\\.[0-9]+)?", alternatives.join("|"))
}

/// Integer parts less than `int`, any fraction (empty when `int` is 0).
fn int_less(int: &str) -> Vec<String> {
    let digits: Vec<u8> = int.bytes().map(|b| b - b'0').collect();
    let n = digits.len();
    let mut alternatives = Vec::new();
    if n > 1 {
        alternatives.push(format!("0|[1-9][0-9]{{0,{}}}", n - 2));
    }
    for k in 0..n {
        let low = if k == 0 && n > 1 { 1 } else { 0 };
        if digits[k] > low {
            let rest = n - k - 1;
            alternatives.push(format!("{}[{low}-{}][0-9]{{{rest}}}", &int[..k], digits[k] - 1));
        }
    }
    alternatives.into_iter().map(|a| format!("(?:{a})(?:\\.[0-9]+)?")).collect()
}

/// Fractions (`.digits` or none) at least `0.frac`.
fn frac_at_least(frac: &str) -> String {
    if frac.is_empty() {
        return r"(?:\.[0-9]+)?".into();
    }
    format!(r"\.(?:{}|{frac}[0-9]*)", frac_above_alternatives(frac).join("|"))
}

/// Fractions greater than `0.frac`.
fn frac_greater(frac: &str) -> String {
    if frac.is_empty() {
        return r"\.[0-9]*[1-9][0-9]*".into();
    }
    format!(r"\.(?:{}|{frac}[0-9]*[1-9][0-9]*)", frac_above_alternatives(frac).join("|"))
}

/// Digit strings that exceed `frac` at their first difference.
fn frac_above_alternatives(frac: &str) -> Vec<String> {
    let digits: Vec<u8> = frac.bytes().map(|b| b - b'0').collect();
    (0..digits.len())
        .filter(|&k| digits[k] < 9)
        .map(|k| format!("{}[{}-9][0-9]*", &frac[..k], digits[k] + 1))
        .collect()
}

/// Fractions at most `0.frac`.
fn frac_at_most(frac: &str) -> String {
    if frac.is_empty() {
        return r"(?:\.0+)?".into();
    }
    format!(r"(?:\.(?:{}|{frac}0*))?", frac_below_alternatives(frac).join("|"))
}

/// Fractions less than `0.frac`; `None` when `frac` is zero.
fn frac_less(frac: &str) -> Option<String> {
    if frac.is_empty() {
        return None;
    }
    Some(format!(r"(?:\.(?:{}))?", frac_below_alternatives(frac).join("|")))
}

/// Digit strings below `frac`: smaller at the first difference, or a proper prefix
/// followed by zeros (the last digit of `frac` is not zero).
fn frac_below_alternatives(frac: &str) -> Vec<String> {
    let digits: Vec<u8> = frac.bytes().map(|b| b - b'0').collect();
    let mut alternatives: Vec<String> = (0..digits.len())
        .filter(|&k| digits[k] > 0)
        .map(|k| format!("{}[0-{}][0-9]*", &frac[..k], digits[k] - 1))
        .collect();
    alternatives.extend((0..digits.len()).map(|k| format!("{}0*", &frac[..k])).filter(|a| a != "0*"));
    alternatives.push("0+".into());
    alternatives
}

/// The most trailing digits that may decide divisibility ([`multiples`]): the endings
/// of `10^4 / p` multiples are alternatives of the regex.
const MOST_DECIDING_DIGITS: u32 = 4;

/// The most decimals of a `multipleOf` value ([`multiples`]).
const MOST_DECIMALS: usize = 9;

/// A positive decimal `p / 10^k` read exactly off `n`'s plain spelling: `(p, k)`;
/// `None` when it is not positive or does not fit.
fn scaled(n: &serde_json::Number) -> Option<(u64, usize)> {
    let (negative, magnitude) = sign_and_magnitude(n);
    let p: u64 = format!("{}{}", magnitude.int, magnitude.frac).parse().ok()?;
    (!negative && p > 0).then_some((p, magnitude.frac.len()))
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The most states of a multiples automaton ([`Language::DecimalMultiples`]): its
/// numerator times its decimals plus two.
const MOST_RESIDUE_STATES: u64 = 4096;

/// The plain spellings of the multiples of `m` (integers only unless `fractions`): a
/// regex where the last digits decide ([`multiples_regex`]), else the residue automaton
/// ([`Language::DecimalMultiples`]) when it has at most [`MOST_RESIDUE_STATES`] states;
/// `None` beyond that.
pub(super) fn multiples(m: &serde_json::Number, fractions: bool) -> Option<Language> {
    let (p, k) = multiple_of(m, fractions)?;
    if let Some(regex) = multiples_regex(p, k, fractions) {
        return Some(Language::Regex(regex));
    }
    let decimals = u32::try_from(k).ok()?;
    let states = p.checked_mul(u64::from(decimals) + 2)?;
    (states <= MOST_RESIDUE_STATES).then_some(Language::DecimalMultiples { numerator: p as u32, decimals })
}

/// `m` as `p / 10^k` ([`scaled`]); for integers only, as the integer `p / gcd(p, 10^k)`
/// (an integer is a multiple of `p / 10^k` when it is one of that).
fn multiple_of(m: &serde_json::Number, fractions: bool) -> Option<(u64, usize)> {
    let (p, k) = scaled(m)?;
    if fractions {
        return Some((p, k));
    }
    Some((p / gcd(p, 10u64.checked_pow(u32::try_from(k).ok()?)?), 0))
}

/// Whether the plain spelling `spelled` is a multiple of `numerator / 10^decimals` (as
/// the lexer's automaton of [`Language::DecimalMultiples`] judges it).
pub(super) fn is_multiple(spelled: &str, numerator: u32, decimals: u32) -> bool {
    let p = u64::from(numerator);
    let unsigned = spelled.strip_prefix('-').unwrap_or(spelled);
    let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if p == 0 || !digits(int) || (!frac.is_empty() && !digits(frac)) {
        return false;
    }
    let (kept, beyond) = frac.split_at(frac.len().min(decimals as usize));
    if beyond.bytes().any(|b| b != b'0') {
        return false;
    }
    let residue = int.bytes().chain(kept.bytes()).fold(0, |r, b| (r * 10 + u64::from(b - b'0')) % p);
    let scale = (kept.len() as u32..decimals).fold(1 % p, |acc, _| acc * 10 % p);
    residue * scale % p == 0
}

/// Plain spellings of the multiples of `p / 10^k` ([`multiple_of`]; integers only unless
/// `fractions`, with `k = 0`), or `None` when they are not a regex we write. A number
/// `v` is a multiple when `v * 10^k` is an integer multiple of `p`; for `p` dividing
/// `10^d` (a power of two and five, `d <= 4`) its last `d` digits decide, so the regex
/// lists their endings: in the fraction (`multipleOf: 0.25`: `.25`, `.5`, `.75` or
/// none), or across the point (`2.5`: integers ending in 0 or 5 without a fraction, in 2
/// or 7 with `.5`). Other factors (3, 7) need a residue automaton, which no regex of
/// reasonable size spells ([`multiples`]).
///
/// Read exactly: a tolerance had taken 0.1000000000001 for 0.1.
fn multiples_regex(p: u64, k: usize, fractions: bool) -> Option<String> {
    if k > MOST_DECIMALS {
        return None;
    }
    let d = (0..=MOST_DECIDING_DIGITS).find(|&d| 10u64.pow(d) % p == 0)? as usize;
    if !fractions && d == 0 {
        return Some(ANY_INTEGER.to_string());
    }
    let endings = (0..10u64.pow(d as u32)).step_by(p as usize).map(|e| if d == 0 { String::new() } else { format!("{e:0d$}") });
    if d <= k {
        // The deciding digits are the fraction's last `d` of `k`; the integer is free.
        let free = k - d;
        let alternatives: Vec<String> = endings
            .map(|e| match (e.trim_end_matches('0'), free) {
                ("", 0) => "0+".to_string(),
                ("", free) => format!("[0-9]{{1,{free}}}0*"),
                (e, 0) => format!("{e}0*"),
                (e, free) => format!("[0-9]{{{free}}}{e}0*"),
            })
            .collect();
        return Some(format!(r"-?(?:0|[1-9][0-9]*)(?:\.(?:{}))?", alternatives.join("|")));
    }
    // The deciding digits end the integer (`d - k` of them) and fill the fraction.
    let zero_fraction = if fractions { r"(?:\.0+)?" } else { "" };
    let mut by_fraction: Vec<(String, Vec<String>)> = Vec::new();
    for e in endings {
        let (int, frac) = e.split_at(d - k);
        let frac = frac.trim_end_matches('0').to_string();
        match by_fraction.iter_mut().find(|(f, _)| *f == frac) {
            Some((_, ints)) => ints.push(int.to_string()),
            None => by_fraction.push((frac, vec![int.to_string()])),
        }
    }
    let groups: Vec<String> = by_fraction
        .into_iter()
        .map(|(frac, ints)| {
            let short: Vec<&str> = ints.iter().map(|i| match i.trim_start_matches('0') { "" => "0", i => i }).collect();
            let fraction = if frac.is_empty() { zero_fraction.to_string() } else { format!(r"\.{frac}0*") };
            format!("(?:[1-9][0-9]*(?:{})|{}){fraction}", ints.join("|"), short.join("|"))
        })
        .collect();
    Some(format!("-?(?:{})", groups.join("|")))
}

/// The least common multiple of two `multipleOf` values (a number is a multiple of
/// both exactly when it is one of it), or `None` when it does not fit exactly in a
/// JSON number as `serde_json` holds it.
pub(super) fn common_multiple(a: &serde_json::Number, b: &serde_json::Number) -> Option<serde_json::Number> {
    let ((pa, ka), (pb, kb)) = (scaled(a)?, scaled(b)?);
    let k = ka.max(kb);
    let scale = |p: u64, own: usize| u64::try_from(u128::from(p) * 10u128.checked_pow((k - own) as u32)?).ok();
    let (x, y) = (scale(pa, ka)?, scale(pb, kb)?);
    let lcm = (x / gcd(x, y)).checked_mul(y)?;
    let digits = format!("{lcm:0>width$}", width = k + 1);
    let (int, frac) = digits.split_at(digits.len() - k);
    let text = if k == 0 { int.to_string() } else { format!("{int}.{frac}") };
    let number: serde_json::Number = serde_json::from_str(&text).ok()?;
    // A fraction is held as a float: it must read back as the same decimal.
    (plain(&number) == plain_of(&text)).then_some(number)
}

/// `text` (a non-negative decimal) without leading or trailing zeros, as [`plain`] spells it.
fn plain_of(text: &str) -> String {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let int = match int.trim_start_matches('0') { "" => "0", int => int };
    match frac.trim_end_matches('0') {
        "" => int.to_string(),
        frac => format!("{int}.{frac}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(regex: &str, text: &str) -> bool {
        regex::Regex::new(&format!("^(?:{regex})$")).unwrap().is_match(text)
    }

    /// Every plain spelling of a grid of values, checked against the comparison.
    #[test]
    fn bounds_agree_with_arithmetic_on_a_grid() {
        let mut texts = Vec::new();
        for int in ["0", "1", "2", "9", "10", "12", "99", "100", "123", "1000"] {
            for frac in ["", ".0", ".00", ".05", ".5", ".50", ".25", ".255", ".9", ".99"] {
                texts.push(format!("{int}{frac}"));
                texts.push(format!("-{int}{frac}"));
            }
        }
        for bound_value in [0.0, 1.0, 0.5, 0.25, 12.0, 12.5, 99.99, 100.0, -1.0, -0.5, -12.25, 1000.0] {
            let number = serde_json::Number::from_f64(bound_value).unwrap();
            for side in [Side::Above, Side::Below] {
                for strict in [false, true] {
                    let regex = bound(side, &number, strict);
                    for text in &texts {
                        let x: f64 = text.parse().unwrap();
                        let expected = match (side, strict) {
                            (Side::Above, false) => x >= bound_value,
                            (Side::Above, true) => x > bound_value,
                            (Side::Below, false) => x <= bound_value,
                            (Side::Below, true) => x < bound_value,
                        };
                        assert_eq!(matches(&regex, text), expected, "{text} {side:?} {bound_value} strict={strict}: {regex}");
                    }
                }
            }
        }
    }

    /// Every plain spelling of a grid of values matches a value's spellings exactly
    /// when it is that value.
    #[test]
    fn spellings_agree_with_equality_on_a_grid() {
        let mut texts = Vec::new();
        for int in ["0", "1", "2", "12", "15", "99", "100", "1000"] {
            for frac in ["", ".0", ".00", ".05", ".5", ".50", ".25", ".250", ".9", ".99"] {
                texts.push(format!("{int}{frac}"));
                texts.push(format!("-{int}{frac}"));
            }
        }
        let values: Vec<serde_json::Number> = ["0", "1", "-1", "12", "1000", "0.5", "-0.5", "1.0", "12.25", "99.99", "-0.0", "1.5"]
            .iter()
            .map(|v| serde_json::from_str(v).unwrap())
            .collect();
        for value in &values {
            let regex = spellings(value);
            for text in &texts {
                let equal = text.parse::<f64>().unwrap() == value.as_f64().unwrap();
                assert_eq!(matches(&regex, text), equal, "{text} against {value}: {regex}");
            }
        }
        for (value, plain_text) in [("1e-7", "0.0000001"), ("-2.50", "-2.5"), ("1e16", "10000000000000000"), ("-0.0", "0")] {
            assert_eq!(plain(&serde_json::from_str(value).unwrap()), plain_text);
        }
        // Integers beyond a float's precision are spelled exactly.
        let big: serde_json::Number = serde_json::from_str("9007199254740993").unwrap();
        assert!(matches(&spellings(&big), "9007199254740993.0"));
        assert!(!matches(&spellings(&big), "9007199254740992"));
    }

    /// Integer bounds beyond a float's precision are read exactly: the float of
    /// `2^63 - 1` is `2^63`, which the bound must not admit.
    #[test]
    fn integer_bounds_beyond_a_float_are_exact() {
        let number = |text: &str| -> serde_json::Number { serde_json::from_str(text).unwrap() };
        let int64_max = number("9223372036854775807");
        assert!(matches(&bound(Side::Below, &int64_max, false), "9223372036854775807"));
        assert!(!matches(&bound(Side::Below, &int64_max, false), "9223372036854775808"));
        let above = bound(Side::Above, &number("9007199254740993"), false);
        assert!(!matches(&above, "9007199254740992") && matches(&above, "9007199254740993"));
        let below = bound(Side::Below, &number("-9223372036854775808"), true);
        assert!(matches(&below, "-9223372036854775809") && !matches(&below, "-9223372036854775808"));
    }

    #[test]
    fn literals_beyond_what_serde_json_holds_are_found() {
        let found = |text: &str| first_inexact_literal(text).map(|(at, literal, _)| (at, literal.to_string()));
        for exact in [
            r#"{"maximum": 9223372036854775807, "minimum": -9223372036854775808}"#,
            r#"{"maximum": 18446744073709551615, "multipleOf": 0.1, "const": 1.50}"#,
            r#"{"enum": [1e2, 2.5E-3, -0.0, 0, 100000000000000000000, 1e400]}"#,
            r#"{"description": "12345678901234567890123", "pattern": "\"1.00000000000000000001"}"#,
        ] {
            assert_eq!(found(exact), None, "{exact}");
        }
        for (text, literal) in [
            (r#"{"maximum": 18446744073709551616}"#, "18446744073709551616"),
            (r#"{"const": -9223372036854775809}"#, "-9223372036854775809"),
            (r#"{"a": 1, "exclusiveMinimum": 1.00000000000000001}"#, "1.00000000000000001"),
            (r#"[0.1000000000000000000001]"#, "0.1000000000000000000001"),
        ] {
            assert_eq!(found(text).map(|(_, l)| l), Some(literal.to_string()), "{text}");
        }
    }

    /// Every plain spelling of a grid of values, judged by exact arithmetic: `v` is a
    /// multiple of `m` when `v / m` is an integer.
    #[test]
    fn multiples_agree_with_arithmetic_on_a_grid() {
        let number = |text: &str| -> serde_json::Number { serde_json::from_str(text).unwrap() };
        // `text` as `n / 10^k`.
        let exact = |text: &str| -> (u128, u32) {
            let (int, frac) = text.split_once('.').unwrap_or((text, ""));
            (format!("{int}{frac}").parse().unwrap(), frac.len() as u32)
        };
        let ints = ["0", "1", "2", "3", "5", "7", "10", "12", "15", "16", "20", "25", "32", "48", "50", "75", "100", "125", "250"];
        let ints = ints.into_iter().chain(["375", "500", "625", "1000", "1250", "5000", "10000", "12500", "31250", "123456"]);
        let fracs = ["", ".0", ".00", ".5", ".50", ".25", ".125", ".75", ".05", ".01", ".2", ".0625", ".1", ".3", ".375", ".0001"];
        let ms = ["1", "2", "4", "5", "8", "16", "25", "40", "125", "625", "1000", "0.5", "0.25", "2.5", "0.125", "1.25", "12.5"];
        let ms = ms.into_iter().chain(["0.01", "0.05", "0.2", "0.0001", "6.25", "0.625", "62.5"]);
        for m in ms {
            let (mp, mk) = exact(m);
            for fractions in [true, false] {
                let (p, k) = multiple_of(&number(m), fractions).unwrap();
                let regex = multiples_regex(p, k, fractions).unwrap_or_else(|| panic!("multipleOf {m}"));
                for int in ints.clone() {
                    for frac in fracs.into_iter().filter(|f| fractions || f.is_empty()) {
                        for sign in ["", "-"] {
                            let text = format!("{int}{frac}");
                            let (vn, vk) = exact(&text);
                            let multiple = (vn * 10u128.pow(mk)) % (mp * 10u128.pow(vk)) == 0;
                            let spelled = format!("{sign}{text}");
                            assert_eq!(matches(&regex, &spelled), multiple, "{spelled} for multipleOf {m} (fractions: {fractions}): /{regex}/");
                        }
                    }
                }
            }
        }
        // Factors other than 2 and 5, and too many deciding digits, are not written.
        let regex = |m: &str, fractions| multiple_of(&number(m), fractions).and_then(|(p, k)| multiples_regex(p, k, fractions));
        for m in ["3", "7", "1.5", "256", "0.3", "0.0000000001"] {
            assert_eq!(regex(m, true), None, "{m}");
        }
        // An integer is a multiple of 2.5 when it is one of 5.
        assert_eq!(regex("2.5", false), regex("5", false));
    }

    #[test]
    fn common_multiples_are_exact() {
        let number = |text: &str| -> serde_json::Number { serde_json::from_str(text).unwrap() };
        for (a, b, both) in [("2", "5", "10"), ("4", "6", "12"), ("0.25", "0.1", "0.5"), ("2.5", "4", "20"), ("0.01", "0.05", "0.05"), ("3", "3", "3")] {
            assert_eq!(common_multiple(&number(a), &number(b)).map(|n| plain(&n)), Some(both.to_string()), "{a}, {b}");
        }
        assert_eq!(common_multiple(&number("-2"), &number("3")), None);
        assert_eq!(common_multiple(&number("18446744073709551557"), &number("18446744073709551533")), None);
    }

    #[test]
    fn numbers_compare_by_exact_value() {
        use std::cmp::Ordering::*;
        let number = |text: &str| -> serde_json::Number { serde_json::from_str(text).unwrap() };
        for (a, b, order) in [
            ("9007199254740993", "9007199254740992", Greater),
            ("18446744073709551615", "18446744073709551614", Greater),
            ("-1", "0", Less),
            ("-0.0", "0", Equal),
            ("1.5", "1.25", Greater),
            ("-1.5", "-1.25", Less),
            ("2", "2.0", Equal),
            ("10", "9.99", Greater),
        ] {
            assert_eq!(compare(&number(a), &number(b)), order, "{a} vs {b}");
            assert_eq!(compare(&number(b), &number(a)), order.reverse(), "{b} vs {a}");
        }
    }
}
