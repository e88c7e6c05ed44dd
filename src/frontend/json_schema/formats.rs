//! `format` as regular languages.
//!
//! Each enforced format is one or more fully anchored regexes (in `regex_syntax`
//! syntax, over the decoded string) whose intersection is the format. They follow the
//! checks of the reference validator (Python `jsonschema` with its format checker,
//! which produced MaskBench's labels) or are stricter, never looser:
//!
//! | format | language |
//! |---|---|
//! | `date` | `YYYY-MM-DD`, days valid for the month, 29 February only in leap years |
//! | `time` | `hh:mm:ss[.frac](Z\|±hh:mm)`, case-insensitive `Z` |
//! | `date-time` | `date` `T` `time` (`T` and `Z` in either case) |
//! | `duration` | RFC 3339 Appendix A: `P`, then years, months, days (each unit followed only by the next smaller one), a `T` part of hours, minutes, seconds likewise, or weeks alone |
//! | `email`, `idn-email` | contains `@` (the reference validator's check) |
//! | `hostname` | dot-separated labels of 1–63 letters, digits and inner hyphens, at most 253 characters |
//! | `ipv4` | four decimal octets without leading zeros |
//! | `ipv6` | RFC 4291 text forms, IPv4 tail included, no zone |
//! | `uri`, `uri-reference` | RFC 3986 `URI` and `URI-reference` |
//! | `iri`, `iri-reference` | RFC 3987 `IRI` and `IRI-reference` (RFC 3986's grammar with `ucschar` beside the unreserved characters, `iprivate` in the query) |
//! | `uri-template` | RFC 6570 `URI-Template`, level 4 |
//! | `uuid` | `8-4-4-4-12` hexadecimal digits |
//! | `json-pointer`, `relative-json-pointer` | RFC 6901 and its relative form |
//!
//! Formats with no regular equivalent (`regex`: a regex's syntax nests) or not written
//! (`idn-hostname`) are compile errors. Every other `format` value is
//! an annotation, as the specification requires of unknown formats. With
//! [`Formats::OfTheDraft`](super::Formats::OfTheDraft), so is a format in a draft before
//! the one that introduced it (`uuid` and `duration` before 2019-09; `date`, `time` and
//! `regex` before draft-07; `uri-reference` before draft-06), as the `jsonschema` crate
//! reads it; by default every draft asserts them all, as MaskBench's labels do.

use super::Draft;

/// What a `format` value asks for.
pub(super) enum Format {
    /// The strings matching every regex.
    Regexes(Vec<String>),
    /// A format the compiler cannot enforce.
    Unsupported,
    /// Not a format this compiler knows: an annotation.
    Annotation,
}

const DAY_31: &str = "(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])";
const DAY_30: &str = "(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)";
const DAY_28: &str = "02-(?:0[1-9]|1[0-9]|2[0-8])";
const LEAP_YEAR: &str = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)";

fn date() -> String {
    format!("(?:[0-9]{{4}}-(?:{DAY_31}|{DAY_30}|{DAY_28})|{LEAP_YEAR}-02-29)")
}

fn time() -> String {
    "(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:[zZ]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])".into()
}

const OCTET: &str = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";

fn ipv4() -> String {
    format!("{OCTET}(?:\\.{OCTET}){{3}}")
}

fn ipv6() -> String {
    let h = "[0-9a-fA-F]{1,4}";
    let tail = format!("(?:{h}:{h}|{})", ipv4());
    let forms = [
        format!("(?:{h}:){{6}}{tail}"),
        format!("::(?:{h}:){{5}}{tail}"),
        format!("(?:{h})?::(?:{h}:){{4}}{tail}"),
        format!("(?:(?:{h}:){{0,1}}{h})?::(?:{h}:){{3}}{tail}"),
        format!("(?:(?:{h}:){{0,2}}{h})?::(?:{h}:){{2}}{tail}"),
        format!("(?:(?:{h}:){{0,3}}{h})?::{h}:{tail}"),
        format!("(?:(?:{h}:){{0,4}}{h})?::{tail}"),
        format!("(?:(?:{h}:){{0,5}}{h})?::{h}"),
        format!("(?:(?:{h}:){{0,6}}{h})?::"),
    ];
    format!("(?:{})", forms.join("|"))
}

const UNRESERVED: &str = "A-Za-z0-9\\-._~";
const SUB_DELIMS: &str = "!$&'()*+,;=";

fn pct(class: &str) -> String {
    format!("(?:[{class}]|%[0-9A-Fa-f]{{2}})")
}

/// RFC 3987 `ucschar`: the characters an IRI adds to a URI's unreserved ones.
const UCSCHAR: &str = "\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}\\u{70000}-\\u{7FFFD}\\u{80000}-\\u{8FFFD}\\u{90000}-\\u{9FFFD}\\u{A0000}-\\u{AFFFD}\\u{B0000}-\\u{BFFFD}\\u{C0000}-\\u{CFFFD}\\u{D0000}-\\u{DFFFD}\\u{E1000}-\\u{EFFFD}";

/// RFC 3987 `iprivate`: the private-use characters an IRI's query may hold.
const IPRIVATE: &str = "\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}";

/// What a URI or an IRI allows beyond RFC 3986's characters.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Characters {
    /// RFC 3986: ASCII.
    Uri,
    /// RFC 3987: `ucschar` wherever a URI has unreserved characters, `iprivate` in the query.
    Iri,
}

/// RFC 3986 `URI` (`relative == false`) or `URI-reference`; with [`Characters::Iri`],
/// RFC 3987 `IRI` or `IRI-reference`.
fn uri(relative: bool, characters: Characters) -> String {
    let (unreserved, private) = match characters {
        Characters::Uri => (UNRESERVED.to_string(), ""),
        Characters::Iri => (format!("{UNRESERVED}{UCSCHAR}"), IPRIVATE),
    };
    let pchar = pct(&format!("{unreserved}{SUB_DELIMS}:@"));
    let segment = format!("{pchar}*");
    let segment_nz = format!("{pchar}+");
    let segment_nz_nc = format!("{}+", pct(&format!("{unreserved}{SUB_DELIMS}@")));
    let userinfo = format!("{}*", pct(&format!("{unreserved}{SUB_DELIMS}:")));
    let reg_name = format!("{}*", pct(&format!("{unreserved}{SUB_DELIMS}")));
    let ip_literal = format!("\\[(?:{}|[vV][0-9A-Fa-f]+\\.[{UNRESERVED}{SUB_DELIMS}:]+)\\]", ipv6());
    let authority = format!("(?:{userinfo}@)?(?:{ip_literal}|{reg_name})(?::[0-9]*)?");
    let path_abempty = format!("(?:/{segment})*");
    let path_absolute = format!("/(?:{segment_nz}(?:/{segment})*)?");
    let query = format!("(?:{pchar}|[/?{private}])*");
    let fragment = format!("(?:{pchar}|[/?])*");
    let suffix = format!("(?:\\?{query})?(?:#{fragment})?");
    let hier = format!("//{authority}{path_abempty}|{path_absolute}|{segment_nz}(?:/{segment})*|");
    let absolute = format!("[A-Za-z][A-Za-z0-9+\\-.]*:(?:{hier}){suffix}");
    if !relative {
        return absolute;
    }
    let relative_part = format!("//{authority}{path_abempty}|{path_absolute}|{segment_nz_nc}(?:/{segment})*|");
    format!("{absolute}|(?:{relative_part}){suffix}")
}

/// RFC 6570 `URI-Template` (level 4): literals and `{…}` expressions of an optional
/// operator and comma-separated variables, each with a prefix length or an explode.
fn uri_template() -> String {
    // Any character but controls, space, `"`, `'`, `%`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`.
    let literal = pct(&format!("!#$&(-;=?-\\[\\]_a-z~{UCSCHAR}{IPRIVATE}"));
    let varchar = pct("A-Za-z0-9_");
    let varspec = format!("{varchar}(?:\\.?{varchar})*(?::[1-9][0-9]{{0,3}}|\\*)?");
    let expression = format!("\\{{[+#./;?&=,!@|]?{varspec}(?:,{varspec})*\\}}");
    format!("(?:{literal}|{expression})*")
}

fn duration() -> String {
    let n = "[0-9]+";
    // RFC 3339, Appendix A: a unit is followed only by the next smaller one (`P1Y1D`
    // and `PT1H1S` skip one and are not durations).
    let date_part = format!("(?:{n}Y(?:{n}M(?:{n}D)?)?|{n}M(?:{n}D)?|{n}D)");
    let time_part = format!("T(?:{n}H(?:{n}M(?:{n}S)?)?|{n}M(?:{n}S)?|{n}S)");
    format!("P(?:{date_part}(?:{time_part})?|{time_part}|{n}W)")
}

/// The language of `format` in the format vocabulary of `draft`: a format a later
/// draft introduced is, in an earlier one, an unknown format, hence an annotation
/// (draft-07's `uuid`).
pub(super) fn format(name: &str, draft: Draft) -> Format {
    if introduced_in(name).is_some_and(|first| first > draft) {
        return Format::Annotation;
    }
    enforced(name)
}

/// The draft whose format vocabulary first names `name` (`None`: none does).
fn introduced_in(name: &str) -> Option<Draft> {
    Some(match name {
        "date-time" | "email" | "hostname" | "ipv4" | "ipv6" | "uri" => Draft::Draft4,
        "uri-reference" | "json-pointer" | "uri-template" => Draft::Draft6,
        "date" | "time" | "idn-email" | "idn-hostname" | "iri" | "iri-reference" | "relative-json-pointer" | "regex" => Draft::Draft7,
        "duration" | "uuid" => Draft::Draft2019,
        _ => return None,
    })
}

fn enforced(name: &str) -> Format {
    let label = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
    let regexes = match name {
        "date" => vec![date()],
        "time" => vec![time()],
        "date-time" => vec![format!("{}[tT]{}", date(), time())],
        "duration" => vec![duration()],
        "email" | "idn-email" => vec!["(?s:.*@.*)".into()],
        // The length bound is written over the labels' characters, not any character: the
        // same language beside the labels, and a lexer a quarter the cost (the product of
        // label positions and lengths has 27,661 states either way; the bytes the labels
        // never take no longer split each state's row into a run per kind of UTF-8 byte).
        "hostname" => vec![format!("{label}(?:\\.{label})*\\.?"), "[A-Za-z0-9.-]{1,253}".into()],
        "ipv4" => vec![ipv4()],
        "ipv6" => vec![ipv6()],
        "uri" => vec![uri(false, Characters::Uri)],
        "uri-reference" => vec![uri(true, Characters::Uri)],
        "iri" => vec![uri(false, Characters::Iri)],
        "iri-reference" => vec![uri(true, Characters::Iri)],
        "uri-template" => vec![uri_template()],
        "uuid" => vec!["[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}".into()],
        "json-pointer" => vec!["(?:/(?:[^~/]|~[01])*)*".into()],
        "relative-json-pointer" => vec!["(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~[01])*)*)".into()],
        "regex" | "idn-hostname" => return Format::Unsupported,
        _ => return Format::Annotation,
    };
    Format::Regexes(regexes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, text: &str) -> bool {
        let Format::Regexes(regexes) = format(name, Draft::Draft2020) else { panic!("{name} is not enforced") };
        regexes.iter().all(|r| regex::Regex::new(&format!("^(?:{r})$")).unwrap().is_match(text))
    }

    #[test]
    fn formats_accept_and_reject_typical_values() {
        let cases = [
            ("date", "2024-02-29", true),
            ("date", "2023-02-29", false),
            ("date", "2000-02-29", true),
            ("date", "1900-02-29", false),
            ("date", "2023-04-31", false),
            ("date-time", "2023-04-30T12:00:00.5Z", true),
            ("date-time", "2023-04-30t12:00:00+01:00", true),
            ("date-time", "2023-04-30T24:00:00Z", false),
            ("date-time", "2023-04-30T12:00:00", false),
            ("time", "23:59:59-05:30", true),
            ("duration", "P1Y2M3DT4H5M6S", true),
            ("duration", "PT", false),
            ("duration", "P3W", true),
            ("email", "a@b.c", true),
            ("email", "ab.c", false),
            ("hostname", "example.com", true),
            ("hostname", "-bad.com", false),
            ("hostname", &format!("{0}.{0}.{0}.{1}", "a".repeat(63), "b".repeat(61)), true),
            ("hostname", &format!("{0}.{0}.{0}.{1}", "a".repeat(63), "b".repeat(62)), false),
            ("hostname", &"a".repeat(64), false),
            ("hostname", "bücher.de", false),
            ("ipv4", "192.168.0.1", true),
            ("ipv4", "192.168.0.01", false),
            ("ipv4", "256.1.1.1", false),
            ("ipv6", "::1", true),
            ("ipv6", "2001:db8::ff00:42:8329", true),
            ("ipv6", "::ffff:192.0.2.128", true),
            ("ipv6", "1:2:3:4:5:6:7:8:9", false),
            ("uri", "https://example.com/a?b=c#d", true),
            ("uri", "urn:isbn:0451450523", true),
            ("uri", "http://[::1]:80/", true),
            ("uri", "//example.com", false),
            ("uri", "http://a b", false),
            ("uri", "http://a:b", false),
            ("uri-reference", "../a/b?c", true),
            ("uri-reference", "#frag", true),
            ("iri", "https://bücher.example/straße?q=ü#teil", true),
            ("iri", "https://example.com", true),
            ("iri", "not-an-iri", false),
            ("iri", "http://a b", false),
            ("iri", "http://例え.jp/\u{E000}", false),
            ("iri", "http://例え.jp/?\u{E000}", true),
            ("iri-reference", "../bücher", true),
            ("uri", "https://bücher.example", false),
            ("uri-template", "file:///{path}", true),
            ("uri-template", "http://example.com/search{?q,lang}", true),
            ("uri-template", "{+base}/users{/id*}{;x,y:3}{&a}{#frag}", true),
            ("uri-template", "/a/b", true),
            ("uri-template", "", true),
            ("uri-template", "{}", false),
            ("uri-template", "{a", false),
            ("uri-template", "a}", false),
            ("uri-template", "{a:0}", false),
            ("uri-template", "{a:10000}", false),
            ("uri-template", "{a b}", false),
            ("uri-template", "a b", false),
            ("uri-template", "{a..b}", false),
            ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
            ("uuid", "123e4567e89b12d3a456426614174000", false),
            ("json-pointer", "/a~1b/0", true),
            ("json-pointer", "a", false),
        ];
        for (name, text, expected) in cases {
            assert_eq!(check(name, text), expected, "{name} {text:?}");
        }
        assert!(matches!(format("regex", Draft::Draft2020), Format::Unsupported));
        assert!(matches!(format("int32", Draft::Draft2020), Format::Annotation));
    }

    /// A format a later draft introduced is unknown, so an annotation, in an earlier one.
    #[test]
    fn formats_follow_the_vocabulary_of_the_draft() {
        for (name, draft, enforced) in [
            ("uuid", Draft::Draft7, false),
            ("uuid", Draft::Draft2019, true),
            ("duration", Draft::Draft7, false),
            ("date", Draft::Draft6, false),
            ("date", Draft::Draft7, true),
            ("uri-reference", Draft::Draft4, false),
            ("uri-reference", Draft::Draft6, true),
            ("ipv4", Draft::Draft4, true),
        ] {
            assert_eq!(matches!(format(name, draft), Format::Regexes(_)), enforced, "{name} in {draft:?}");
        }
        assert!(matches!(format("regex", Draft::Draft6), Format::Annotation));
    }
}
