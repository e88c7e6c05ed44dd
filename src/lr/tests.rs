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
