use super::*;
use crate::ir::testing::bnf;

fn tables(text: &str) -> (Grammar, LrTables) {
    let g = bnf(text);
    let t = LrTables::new(&g, &LrConfig::default()).unwrap();
    (g, t)
}

fn term(g: &Grammar, name: &str) -> TerminalId {
    TerminalId(g.terminals.iter().position(|t| t.name == name).unwrap() as u32)
}

/// Deterministic LR run over a terminal sequence (follows the first action; only for
/// conflict-free tables).
fn lr_accepts(g: &Grammar, t: &LrTables, input: &[&str]) -> bool {
    let mut stack = vec![LrState::INITIAL];
    let mut input: Vec<TerminalId> = input.iter().map(|n| term(g, n)).collect();
    input.push(t.end());
    let mut i = 0;
    loop {
        let top = *stack.last().unwrap();
        let la = input[i];
        if la == t.end() && t.is_accepting(top) && stack.len() == 2 {
            return true;
        }
        if let Some(r) = t.reductions(top).iter().find(|r| r.lookahead.contains(la)) {
            let len = t.production_len(r.production);
            stack.truncate(stack.len() - len);
            let next = t.goto(*stack.last().unwrap(), t.production_lhs(r.production)).unwrap();
            stack.push(next);
        } else if let Some(next) = (la != t.end()).then(|| t.shift(top, la)).flatten() {
            stack.push(next);
            i += 1;
        } else {
            return false;
        }
    }
}

#[test]
fn lalr_grammar_has_no_conflicts_and_parses() {
    // The classic grammar that is LALR(1) but not SLR(1).
    let (g, t) = tables(
        "s: l = r | r
         l: * r | id
         r: l",
    );
    assert_eq!(t.conflict_count(), 0);
    assert!(lr_accepts(&g, &t, &["id", "=", "*", "id"]));
    assert!(lr_accepts(&g, &t, &["*", "*", "id"]));
    assert!(!lr_accepts(&g, &t, &["id", "=", "id", "="]));
    assert!(!lr_accepts(&g, &t, &["=", "id"]));
}

#[test]
fn epsilon_rules_get_lookaheads() {
    let (g, t) = tables(
        "s: a b c
         a: x | ε
         b: y | ε
         c: z",
    );
    assert_eq!(t.conflict_count(), 0);
    assert!(lr_accepts(&g, &t, &["z"]));
    assert!(lr_accepts(&g, &t, &["x", "z"]));
    assert!(lr_accepts(&g, &t, &["y", "z"]));
    assert!(lr_accepts(&g, &t, &["x", "y", "z"]));
    assert!(!lr_accepts(&g, &t, &["y", "x", "z"]));
}

#[test]
fn ambiguous_grammar_keeps_conflicts() {
    let (_, t) = tables("e: e + e | e * e | n");
    assert!(t.conflict_count() >= 4);
}

#[test]
fn state_limit_is_enforced() {
    let g = bnf("s: a b c d | b c d a\na: x\nb: y\nc: z\nd: w");
    let err = LrTables::new(&g, &LrConfig { max_states: 3, ..LrConfig::default() }).unwrap_err();
    assert!(matches!(err, Error::Limit { kind: LimitKind::LrStates, .. }));
}

#[test]
fn left_and_right_recursion() {
    let (g, t) = tables(
        "s: l ; r
         l: l x | x
         r: y r | y",
    );
    assert_eq!(t.conflict_count(), 0);
    assert!(lr_accepts(&g, &t, &["x", "x", "x", ";", "y", "y"]));
    assert!(!lr_accepts(&g, &t, &[";", "y"]));
}

/// The tables of `grammar`, checked against the textbook construction.
fn check_against_textbook(name: &str, grammar: &Grammar) {
    let fast = LrTables::new(grammar, &LrConfig { time_budget: None, ..LrConfig::default() })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let reference = super::textbook::tables(grammar);
    assert_eq!(fast.state_count(), reference.state_count(), "{name}: state count");
    for s in (0..fast.state_count() as u32).map(LrState) {
        assert_eq!(fast.shifts(s), reference.shifts(s), "{name}: shifts of {s:?}");
        assert_eq!(fast.gotos(s), reference.gotos(s), "{name}: gotos of {s:?}");
        assert_eq!(fast.reductions(s), reference.reductions(s), "{name}: reductions of {s:?}");
    }
    assert!(fast == reference, "{name}: tables differ");
}

/// The `.lark` grammars of `dir`, checked against the textbook construction; how many.
fn check_lark_grammars_in(dir: &str) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("SKIPPED: {dir} not found");
        return 0;
    };
    let mut checked = 0;
    for path in entries.map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "lark")) {
        let text = std::fs::read_to_string(&path).unwrap();
        check_against_textbook(&path.display().to_string(), &Grammar::from_lark(&text).unwrap());
        checked += 1;
    }
    checked
}

#[test]
fn tables_equal_the_textbook_construction_on_shipped_grammars() {
    let shipped = check_lark_grammars_in(concat!(env!("CARGO_MANIFEST_DIR"), "/grammars"));
    assert!(shipped >= 9, "only {shipped} shipped grammars");
    check_lark_grammars_in(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench/grammars/syncode"));
}

#[test]
fn tables_equal_the_textbook_construction_on_json_schemas() {
    use crate::frontend::json_schema::{compile_json_schema, JsonSchemaOptions};
    let schemas = [
        r##"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": {"$ref": "#"}}}}"##,
        r##"{"oneOf": [{"type": "object", "properties": {"k": {"const": 1}}, "required": ["k"]},
                      {"type": "object", "properties": {"k": {"type": "string"}}}]}"##,
        r##"{"$defs": {"t": {"anyOf": [{"type": "null"}, {"type": "array", "items": {"$ref": "#/$defs/t"}, "minItems": 1}]}},
            "type": "object", "properties": {"x": {"$ref": "#/$defs/t"}, "y": {"enum": ["a", "b", 3]}},
            "additionalProperties": {"type": "number"}}"##,
    ];
    for schema in schemas {
        let grammar = compile_json_schema(schema, &JsonSchemaOptions::default()).unwrap().grammar;
        check_against_textbook(schema, &grammar);
    }
}

/// Small random grammars: up to 5 nonterminals and 4 terminals, right-hand sides of
/// 0–4 symbols (ε, left, right and hidden left recursion, cycles and conflicts all occur).
fn random_grammar() -> impl proptest::strategy::Strategy<Value = Grammar> {
    use proptest::prelude::*;
    let symbol = (any::<bool>(), 0..5usize);
    let production = (0..5usize, prop::collection::vec(symbol, 0..=4));
    (1..=5usize, 1..=4usize, prop::collection::vec(production, 1..=12)).prop_filter_map(
        "the start symbol derives nothing",
        |(nonterminals, terminals, productions)| {
            let mut b = crate::ir::GrammarBuilder::new();
            let nts: Vec<_> = (0..nonterminals).map(|i| b.nonterminal(&format!("n{i}"))).collect();
            let ts: Vec<_> = (0..terminals)
                .map(|i| b.terminal(&format!("T{i}"), crate::ir::TerminalPattern::Regex(format!("t{i}")), 0, false))
                .collect();
            for (lhs, rhs) in productions {
                let rhs = rhs
                    .into_iter()
                    .map(|(terminal, i)| match terminal {
                        true => Symbol::Terminal(ts[i % terminals]),
                        false => Symbol::Nonterminal(nts[i % nonterminals]),
                    })
                    .collect();
                b.production(nts[lhs % nonterminals], rhs);
            }
            b.build(nts[0]).ok()
        },
    )
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]
    #[test]
    fn tables_equal_the_textbook_construction_on_random_grammars(g in random_grammar()) {
        check_against_textbook(&g.to_string(), &g);
    }
}

/// Every 250th MaskBench schema (every `STACKMASK_LR_EVERY`th when set), compiled and
/// checked against the textbook construction.
#[test]
fn tables_equal_the_textbook_construction_on_maskbench_schemas() {
    use crate::frontend::json_schema::{compile_json_schema, JsonSchemaOptions};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/maskbench/data");
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("SKIPPED: ../shared not found ({dir})");
        return;
    };
    let every = std::env::var("STACKMASK_LR_EVERY").ok().and_then(|v| v.parse().ok()).unwrap_or(250);
    let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut checked = 0;
    for path in paths.iter().step_by(every) {
        let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let schema = serde_json::to_string(&file["schema"]).unwrap();
        let Ok(compiled) = compile_json_schema(&schema, &JsonSchemaOptions::default()) else { continue };
        // Past the state limit both constructions stop at the same state.
        if LrTables::new(&compiled.grammar, &LrConfig::default()).is_ok() {
            check_against_textbook(&path.display().to_string(), &compiled.grammar);
            checked += 1;
        }
    }
    assert!(checked > 0, "no schema of {dir} compiled");
    eprintln!("{checked} schemas checked");
}
