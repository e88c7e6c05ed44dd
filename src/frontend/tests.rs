//! End-to-end tests of the front-end: Lark text in, IR out.

use super::LarkOptions;
use crate::error::Error;
use crate::ir::{Grammar, GrammarLimits, ProductionId, TerminalPattern};

fn lark(text: &str) -> Grammar {
    Grammar::from_lark(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn productions(grammar: &Grammar) -> Vec<String> {
    (0..grammar.productions.len()).map(|i| grammar.display_production(ProductionId(i as u32))).collect()
}

fn terminal_names(grammar: &Grammar) -> Vec<&str> {
    grammar.terminals.iter().map(|t| t.name.as_str()).collect()
}

fn regex(grammar: &Grammar, name: &str) -> String {
    let terminal = grammar.terminals.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no terminal {name}"));
    match &terminal.pattern {
        TerminalPattern::Regex(re) => re.clone(),
        other => panic!("{name} is not one regex: {other:?}"),
    }
}

/// Whether `regex` matches the whole of `text`.
fn full_match(regex: &str, text: &str) -> bool {
    let anchored = format!("^(?:{regex})$");
    regex_automata::meta::Regex::new(&anchored).unwrap_or_else(|e| panic!("{regex}: {e}")).is_match(text)
}

fn error(text: &str) -> (u32, u32, String) {
    match Grammar::from_lark(text) {
        Err(Error::Grammar { position, reason }) => (position.line, position.column, reason),
        other => panic!("expected a grammar error for {text:?}, got {other:?}"),
    }
}

#[test]
fn optional_parts_expand_inline_and_repetitions_use_helpers() {
    let g = lark("start: \"a\" b? [\"c\"] \"d\"*\nb: \"b\"+");
    assert_eq!(
        productions(&g),
        [
            "start: A b C __start_star_0",
            "start: A b C",
            "start: A b __start_star_0",
            "start: A b",
            "start: A C __start_star_0",
            "start: A C",
            "start: A __start_star_0",
            "start: A",
            "b: __b_plus_1",
            "__start_star_0: D",
            "__start_star_0: __start_star_0 D",
            "__b_plus_1: B",
            "__b_plus_1: __b_plus_1 B",
        ]
    );
}

#[test]
fn modifiers_priorities_aliases_and_continuation_lines_do_not_change_the_language() {
    let g =
        lark("?start.2: a -> first  // comment\n\n    | _b\n# another comment\n    | c\n!a: \"x\"\n_b.-1: \"y\"\nc:\n");
    assert_eq!(productions(&g), ["start: a", "start: _b", "start: c", "a: X", "_b: Y", "c:"]);
}

#[test]
fn many_optional_parts_do_not_blow_up() {
    let g = lark(&format!("start: {}", "\"a\"? ".repeat(40)));
    assert!(g.productions.len() < 200, "{}", g.productions.len());
    let g = lark(&format!("start: ({})~3", (0..100).map(|i| format!("\"k{i}\"")).collect::<Vec<_>>().join(" | ")));
    assert!(g.productions.len() < 120, "{}", g.productions.len());
}

#[test]
fn counted_repetition() {
    assert_eq!(productions(&lark("start: \"a\"~3")), ["start: A A A"]);
    assert_eq!(productions(&lark("start: \"a\"~1..3")), ["start: A", "start: A A", "start: A A A"]);
    assert_eq!(productions(&lark("start: \"a\"~0")), ["start:"]);
    let g = lark("start: \"a\"~1000 \"b\"~0..100");
    assert!(g.productions.len() < 250, "{}", g.productions.len());
    let g = lark("start: x~100\nx: \"x\"");
    assert_eq!(g.productions.len(), 4, "{g}");
    let huge = Grammar::from_lark("start: \"a\"~0..4000000000");
    assert!(matches!(huge, Err(Error::Limit { .. })), "{huge:?}");
}

#[test]
fn nullable_items_inside_star_do_not_make_cycles() {
    let g = lark("start: (\"a\"?)* \"b\"");
    assert!(!productions(&g).iter().any(|p| p == "__start_star_0: __start_star_0"), "{g}");
}

#[test]
fn terminals_compile_to_one_regex() {
    let g = lark(
        r#"
        start: NUM WORD KEY JOIN_EXPR
        NUM.2: DIGIT+ ("." DIGIT+)?
        DIGIT: "0".."9"
        WORD: /[a-z]+/i ("-" /[a-z]+/)*
        KEY: "select"i | "from"i
        JOIN_EXPR.-5: (JOIN_TYPE " ")? "JOIN"i
        JOIN_TYPE: "INNER"i | "LEFT"i
        "#,
    );
    assert_eq!(regex(&g, "NUM"), r"[0-9]+(?:\.[0-9]+)?");
    assert_eq!(regex(&g, "WORD"), r"(?i:[a-z]+)(?:\-[a-z]+)*");
    assert_eq!(regex(&g, "KEY"), "(?i:select)|(?i:from)");
    assert_eq!(regex(&g, "JOIN_EXPR"), "(?:(?:(?i:INNER)|(?i:LEFT)) )?(?i:JOIN)");
    let priorities: Vec<i32> = g.terminals.iter().map(|t| t.priority).collect();
    assert_eq!(priorities, [2, 0, 0, -5]);
    assert!(full_match(&regex(&g, "JOIN_EXPR"), "left join"));
    assert!(!full_match(&regex(&g, "JOIN_EXPR"), "leftjoin"));
    assert!(full_match(&regex(&g, "NUM"), "12.5"));
}

#[test]
fn lazy_quantifiers_and_lookaround_are_kept() {
    let g = lark("start: S C\nS: /\".*?\"/\nC: \"/*\" /(.|\\n)*?/ \"*/\"\nL: /(?<!x)a/\n%ignore L");
    assert_eq!(regex(&g, "S"), "\".*?\"");
    assert_eq!(regex(&g, "C"), r"/\*(.|\n)*?\*/");
    assert_eq!(regex(&g, "L"), "(?<!x)a");
}

#[test]
fn literals_in_rules_become_shared_anonymous_terminals() {
    let g = lark(
        r#"
        start: "if" "(" x ")" "if" "==" "*" /[0-9]+/ /[0-9]+/ INT "\t" "if"i
        x: "==" "class"
        STAR: "*"
        INT: /[0-9]+/
        "#,
    );
    assert_eq!(terminal_names(&g), ["IF", "LPAR", "RPAR", "__ANON_0", "STAR", "INT", "TAB", "__ANON_1", "CLASS"]);
    assert_eq!(productions(&g)[0], "start: IF LPAR x RPAR IF __ANON_0 STAR INT INT INT TAB __ANON_1");
    assert_eq!(regex(&g, "__ANON_1"), "(?i:if)");
    assert_eq!(regex(&g, "TAB"), r"\t");
    assert!(g.terminals.iter().all(|t| !t.ignored));
}

#[test]
fn anonymous_names_never_clash_with_defined_ones() {
    let g = lark("start: \"if\" IF \"__anon_0\" /x/\nIF: /if|fi/");
    assert_eq!(terminal_names(&g), ["__ANON_0", "IF", "__ANON_1", "__ANON_2"]);
}

#[test]
fn string_escapes() {
    let g = lark(r#"start: "a\"b" "\\" "\x41\u00e9" "\d" "\n""#);
    let regexes: Vec<String> = g.terminals.iter().map(|t| regex(&g, &t.name)).collect();
    assert_eq!(regexes, [r#"a"b"#, r"\\", "Aé", r"\\d", r"\n"]);
}

#[test]
fn regexes_in_python_syntax_are_translated() {
    let g = lark(
        r"start: A B C D
A: /\/\/[^\n]*\Z/
B: /[[]\x41{/
C: /(?P<n>a) b # comment
   c/x
D: /a{,2}/ms",
    );
    assert_eq!(regex(&g, "A"), r"//[^\n]*\z");
    assert_eq!(regex(&g, "B"), r"[\[]A\{");
    assert_eq!(regex(&g, "C"), "(?:a)bc");
    assert_eq!(regex(&g, "D"), "(?ms:a{0,2})");
}

#[test]
fn ignore_and_declare() {
    let g = lark(
        "start: A _INDENT? B\nA: \"a\"\nB: \"b\"\nWS: \" \"\n%ignore WS\n%ignore \"\\t\" | /\\r/\n%ignore /#[^\\n]*/\n%declare _INDENT",
    );
    assert_eq!(terminal_names(&g), ["A", "_INDENT", "B", "WS", "__IGNORE_0", "__IGNORE_1"]);
    let ignored: Vec<bool> = g.terminals.iter().map(|t| t.ignored).collect();
    assert_eq!(ignored, [false, false, false, true, true, true]);
    assert_eq!(regex(&g, "__IGNORE_0"), r"\t|\r");
    assert_eq!(g.terminals[1].pattern, TerminalPattern::Declared);
    assert_eq!(productions(&g), ["start: A B"], "the production needing a declared terminal is dropped");
}

#[test]
fn imports_from_common() {
    let g = lark(
        "start: NUMBER N ESCAPED_STRING CNAME WS DIGIT\n%import common.NUMBER\n%import common.INT -> N\n\
         %import common (ESCAPED_STRING, CNAME)\n%import common.WS\n%import common.WS\nDIGIT: \"x\"",
    );
    assert_eq!(terminal_names(&g), ["NUMBER", "N", "ESCAPED_STRING", "CNAME", "WS", "DIGIT"]);
    assert_eq!(regex(&g, "N"), "[0-9]+");
    assert_eq!(regex(&g, "DIGIT"), "x", "the library's DIGIT does not leak into the grammar");
    for (name, yes, no) in [
        ("NUMBER", &["1", "1.5", ".5e-3", "2E10", "3."][..], &["", "e5", "1e", "+1"][..]),
        ("CNAME", &["_a1", "Abc"], &["1a", "a-b"]),
        ("WS", &[" \t\r\n\x0c"], &[""]),
    ] {
        let re = regex(&g, name);
        yes.iter().for_each(|s| assert!(full_match(&re, s), "{name} should match {s:?}"));
        no.iter().for_each(|s| assert!(!full_match(&re, s), "{name} should not match {s:?}"));
    }
}

/// The strings Lark's ESCAPED_STRING (`"` `.*?` `(?<!\\)(\\\\)*?` `"`) matches: a quote,
/// then text without line breaks up to the first quote preceded by an even number of
/// backslashes.
fn lark_escaped_string(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() < 2 || chars[0] != '"' || chars.contains(&'\n') {
        return false;
    }
    let closing = (1..chars.len())
        .find(|&i| chars[i] == '"' && chars[1..i].iter().rev().take_while(|&&c| c == '\\').count() % 2 == 0);
    closing == Some(chars.len() - 1)
}

#[test]
fn common_escaped_string_has_larks_language() {
    let g = lark("start: ESCAPED_STRING\n%import common.ESCAPED_STRING");
    let re = regex(&g, "ESCAPED_STRING");
    let alphabet = ['"', '\\', 'a', '\n'];
    let mut texts = vec![String::new()];
    for _ in 0..6 {
        let longer: Vec<String> = texts.iter().flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}"))).collect();
        for text in &longer {
            assert_eq!(full_match(&re, text), lark_escaped_string(text), "{text:?}");
        }
        texts = longer;
    }
}

#[test]
fn every_common_terminal_compiles() {
    let names = [
        "DIGIT",
        "HEXDIGIT",
        "INT",
        "SIGNED_INT",
        "DECIMAL",
        "_EXP",
        "FLOAT",
        "SIGNED_FLOAT",
        "NUMBER",
        "SIGNED_NUMBER",
        "_STRING_INNER",
        "_STRING_ESC_INNER",
        "ESCAPED_STRING",
        "LETTER",
        "LCASE_LETTER",
        "UCASE_LETTER",
        "WORD",
        "CNAME",
        "WS_INLINE",
        "WS",
        "CR",
        "LF",
        "NEWLINE",
        "C_COMMENT",
        "CPP_COMMENT",
        "SH_COMMENT",
        "SQL_COMMENT",
    ];
    let uses: Vec<String> = names.iter().map(|n| n.replace('_', "").to_string() + "X").collect();
    let imports: Vec<String> = names.iter().zip(&uses).map(|(n, u)| format!("%import common.{n} -> {u}")).collect();
    let g = lark(&format!("start: {}\n{}", uses.join(" "), imports.join("\n")));
    for terminal in &g.terminals {
        let TerminalPattern::Regex(re) = &terminal.pattern else { panic!() };
        assert!(regex_syntax::Parser::new().parse(re).is_ok(), "{}: {re}", terminal.name);
    }
    let c_comment = regex(&g, "CCOMMENTX");
    for (text, expected) in
        [("/**/", true), ("/* a * b **/", true), ("/*/ */", true), ("/* */ */", false), ("/*/", false)]
    {
        assert_eq!(full_match(&c_comment, text), expected, "{text}");
    }
}

#[test]
fn start_rule_option() {
    let options = LarkOptions { start: "value".into(), limits: GrammarLimits::default(), ..LarkOptions::default() };
    let g = Grammar::from_lark_with("value: \"v\" | list\nlist: \"[\" value \"]\"", &options).unwrap();
    assert_eq!(g.nonterminal_name(g.start), "value");
    let err = Grammar::from_lark("value: \"v\"").unwrap_err();
    assert!(err.to_string().contains("start rule `start` is not defined"), "{err}");
}

#[test]
fn only_reachable_rules_and_their_terminals_are_emitted() {
    let g = lark("start: \"a\"\nunused: \"b\" B\nB: \"c\"\nC: \"d\"");
    assert_eq!(terminal_names(&g), ["A"]);
    assert_eq!(g.nonterminals, ["start"]);
}

#[test]
fn empty_language_is_reported() {
    assert!(matches!(Grammar::from_lark("start: start \"a\""), Err(Error::EmptyLanguage { .. })));
}

#[test]
fn errors_have_line_and_column() {
    let cases: &[(&str, u32, u32, &str)] = &[
        ("start: a", 1, 8, "rule `a` is not defined"),
        ("start: A", 1, 8, "terminal `A` is not defined"),
        ("start: \"a\"\nstart: \"b\"", 2, 1, "defined more than once (first at line 1, column 1)"),
        ("start: A\nA: \"a\"\nA: \"b\"", 3, 1, "terminal `A` is defined more than once"),
        ("start: A\nA: \"a\" b\nb: \"b\"", 2, 8, "rule `b` cannot be used inside a terminal"),
        ("start: A\nA: B\nB: \"x\" A", 3, 8, "defined in terms of itself"),
        ("start: A\nA: \"a\" _I\n%declare _I", 2, 8, "declared without a pattern"),
        ("start: \"a\"\n%ignore (\"b\" | _I)\n%declare _I", 2, 16, "declared without a pattern"),
        ("start: \"abc", 1, 8, "unterminated string literal"),
        ("start: /abc\n", 1, 8, "unterminated regular expression"),
        ("start: \"a\"~5..2", 1, 11, "bad repetition range 5..2"),
        ("start: \"a\"~-1", 1, 12, "repetition count -1"),
        ("start: /a/l", 1, 8, "flag `l`"),
        ("start: /a/q", 1, 8, "unknown regex flag `q`"),
        ("start: /[a/", 1, 8, "unterminated character class"),
        ("start: \"\\x4\"", 1, 8, "invalid `\\x` escape"),
        ("start: x{a}", 1, 9, "templates"),
        ("\n\n%import .other.A", 3, 9, "relative imports"),
        ("%import python.A", 1, 9, "only the built-in `common` library"),
        ("start: A\n%import common.NOPE -> A", 2, 16, "the `common` library has no terminal `NOPE`"),
        ("%extend a: b", 1, 1, "`%extend` is not supported"),
        ("%frobnicate", 1, 1, "unknown directive"),
        ("start: \"a\"\n%ignore B", 2, 9, "terminal `B` is not defined"),
        ("start: \"a\" (\"b\"\n", 1, 16, "to close the `(` at line 1, column 12"),
        ("start: \"a\" )", 1, 12, "unexpected `)`"),
        ("start \"a\"", 1, 7, "expected `:`"),
        ("A: \"a\" -> b", 1, 8, "aliases"),
        ("start: A\nA:", 2, 1, "empty definition"),
        ("", 1, 1, "defines no rules"),
        ("// only a comment\n%ignore \" \"", 1, 1, "defines no rules"),
        ("Start: \"a\"", 1, 1, "invalid name `Start`"),
    ];
    for &(text, line, column, reason) in cases {
        let (l, c, r) = error(text);
        assert!(r.contains(reason), "{text:?}: {r:?} does not contain {reason:?}");
        assert_eq!((l, c), (line, column), "{text:?}: {r}");
    }
}

#[test]
fn nesting_depth_is_bounded() {
    let ok =
        format!("start: A {}\"a\"{}\nA: {}\"a\"{}", "[".repeat(100), "]".repeat(100), "(".repeat(100), ")".repeat(100));
    lark(&ok);
    let deep = format!("start: {}\"a\"{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(error(&deep).2.contains("nested more than 100 levels"));
    let chain: String = (0..20_000).map(|i| format!("T{i}: T{}\n", i + 1)).collect();
    let long_chain = lark(&format!("start: T0\n{chain}T20000: \"x\""));
    assert_eq!(regex(&long_chain, "T0"), "x");
}

#[test]
fn the_deepest_accepted_nesting_fits_a_small_stack() {
    let level = "[\"x\" | \"y\" ";
    let rule = format!("start: A {}\"a\"{}", level.repeat(100), "]*".repeat(100));
    let terminal = format!("A: {}\"a\"{}", level.repeat(100), "]*".repeat(100));
    let text = format!("{rule}\n{terminal}");
    let compiled = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || Grammar::from_lark(&text).map(|g| g.productions.len()))
        .unwrap()
        .join()
        .unwrap();
    assert!(compiled.is_ok(), "{compiled:?}");
}

#[test]
fn doubling_terminals_are_bounded() {
    let chain: String = (0..40).map(|i| format!("T{i}: T{} T{}\n", i + 1, i + 1)).collect();
    let text = format!("start: T0\n{chain}T40: \"ab\"");
    assert!(error(&text).2.contains("too large"));
}

#[test]
fn many_references_to_a_large_terminal_are_bounded() {
    let doubling: String = (0..18).map(|i| format!("T{i}: T{} T{}\n", i + 1, i + 1)).collect();
    let copies: String = (0..100).map(|i| format!("U{i}: T0 \"{i}\"\n")).collect();
    let text = format!("start: U0\n{doubling}T18: \"abcd\"\n{copies}");
    assert!(error(&text).2.contains("too large"));
}

#[test]
fn a_choice_of_large_terminals_is_bounded() {
    let doubling: String = (0..18).map(|i| format!("T{i}: T{} T{}\n", i + 1, i + 1)).collect();
    let choice = vec!["T0"; 1000].join(" | ");
    let text = format!("start: U\n{doubling}T18: \"abcd\"\nU: {choice}");
    assert!(error(&text).2.contains("too large"));
}

#[test]
fn malformed_grammars_never_panic() {
    let texts = [
        "start",
        "start:",
        ":",
        "|",
        "start: |",
        "start: (",
        "start: )",
        "start: [",
        "start: ]",
        "start: \"",
        "start: /",
        "start: ~",
        "start: \"a\"~",
        "start: \"a\"~1..",
        "start: \"a\"..",
        "start: \"a\"..\"b",
        "start: ->",
        "start: a ->",
        "%import",
        "%import common",
        "%import common.",
        "%import common (",
        "%import common (A,",
        "%declare",
        "%ignore",
        "%llguidance",
        "%llguidance {",
        "start.: a",
        "start.x: a",
        "A.99999999999: \"a\"",
        "start: \"a\"~99999999999",
        "start: /\\",
        "start: \"\\",
        "start: \"\\u12\"",
        "start: /(?P<x/",
        "start: /(?#/",
        "start: /a{99999999999}/",
        "\u{feff}start: \"a\"",
        "start: \"é\"..\"a\"",
        "start: -",
        "start: -1",
        "\\",
        "\\\n",
        "start: \"a\" \\\n \"b\"",
        "start: \"\\x\"",
        "start: //\n",
    ];
    for text in texts {
        let _ = Grammar::from_lark(text);
    }
}

/// The SynCode grammars from the shared benchmark folder.
fn syncode_grammars() -> Option<Vec<(String, String)>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench/grammars/syncode");
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("SKIPPED: ../shared not found ({dir})");
        return None;
    };
    let mut grammars: Vec<(String, String)> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "lark"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    grammars.sort();
    Some(grammars)
}

#[test]
fn syncode_grammars_load() {
    let Some(grammars) = syncode_grammars() else { return };
    assert!(grammars.len() >= 7, "{} grammars", grammars.len());
    for (path, text) in &grammars {
        let g = Grammar::from_lark(text).unwrap_or_else(|e| panic!("{path}: {e}"));
        for terminal in &g.terminals {
            let TerminalPattern::Regex(re) = &terminal.pattern else { continue };
            let lookaround = ["(?=", "(?!", "(?<=", "(?<!"].iter().any(|l| re.contains(l));
            let parsed = regex_syntax::Parser::new().parse(re);
            assert!(lookaround || parsed.is_ok(), "{path}: {}: {re}: {parsed:?}", terminal.name);
        }
    }
}

#[test]
fn syncode_terminals_look_right() {
    let Some(grammars) = syncode_grammars() else { return };
    let find = |suffix: &str| lark(&grammars.iter().find(|(p, _)| p.ends_with(suffix)).unwrap().1);
    let sql = find("/sql_grammar.lark");
    let join = sql.terminals.iter().find(|t| t.name == "JOIN_EXPR").unwrap();
    assert_eq!(join.priority, 5);
    assert!(full_match(&regex(&sql, "JOIN_EXPR"), "LEFT OUTER JOIN"));
    assert!(full_match(&regex(&sql, "ESCAPED_STRING"), r#""a\"b""#));
    let go = find("/go_grammar.lark");
    let eos = regex(&go, "EOS");
    assert!(full_match(&eos, ";") && full_match(&eos, "/*' .*? '*/") && full_match(&eos, "\n  // c\n"));
    assert!(go.terminals.iter().any(|t| t.ignored && full_match(&regex(&go, &t.name), "\\\t\n")));
    let python = find("/python_grammar.lark");
    assert!(python.terminals.iter().any(|t| t.name == "_INDENT" && t.pattern == TerminalPattern::Declared));
    let java = find("/java_grammar.lark");
    assert!(full_match(&regex(&java, "CNAME"), "x_1"));
}

#[test]
fn truncated_syncode_grammars_never_panic() {
    let Some(grammars) = syncode_grammars() else { return };
    for (_, text) in &grammars {
        for end in (0..text.len()).step_by(37).filter(|&i| text.is_char_boundary(i)) {
            let _ = Grammar::from_lark(&text[..end]);
        }
    }
}

/// Whether the grammar accepts `text` as a whole sentence.
fn accepts(grammar: &Grammar, text: &str) -> bool {
    let compiled = std::sync::Arc::new(crate::CompiledGrammar::new(grammar).unwrap());
    let mut r = crate::matcher::Recognizer::new(compiled);
    r.feed(text.as_bytes()).is_ok() && r.is_complete().unwrap()
}

#[test]
fn regex_grammar_accepts_whole_matches_only() {
    let g = Grammar::from_regex("[a-c]*x?").unwrap();
    for (text, ok) in [("", true), ("abc", true), ("x", true), ("abx", true), ("xa", false), ("d", false)] {
        assert_eq!(accepts(&g, text), ok, "{text:?}");
    }
    let err = Grammar::from_regex("^a").unwrap_err();
    assert!(err.to_string().contains("anchors"), "{err}");
    let err = Grammar::from_regex("a(").unwrap_err();
    assert!(err.to_string().contains("column"), "{err}");
}
