use super::*;
use crate::ir::testing::bnf;
use crate::ir::Grammar;
use crate::lr::LrConfig;

struct Fixture {
    g: Grammar,
    tables: LrTables,
}

impl Fixture {
    fn new(text: &str) -> Fixture {
        let g = bnf(text);
        let tables = LrTables::new(&g, &LrConfig::default()).unwrap();
        Fixture { g, tables }
    }

    fn term(&self, name: &str) -> TerminalId {
        TerminalId(self.g.terminals.iter().position(|t| t.name == name).unwrap_or_else(|| panic!("{name}")) as u32)
    }

    /// Feed space-separated terminal names; `a/b` is a lexeme with two candidates.
    /// Returns None if rejected, else whether the input is a complete sentence.
    fn run(&self, input: &str) -> Option<(bool, Parser)> {
        let mut p = Parser::new(&GlrConfig::default());
        for word in input.split_whitespace() {
            let ts: Vec<TerminalId> = word.split('/').map(|n| self.term(n)).collect();
            if !p.consume(&self.tables, &ts, false).unwrap() {
                return None;
            }
        }
        let accepted = p.accepts_end(&self.tables).unwrap();
        Some((accepted, p))
    }

    fn accepts(&self, input: &str) -> bool {
        self.run(input).is_some_and(|(a, _)| a)
    }

    fn is_prefix(&self, input: &str) -> bool {
        self.run(input).is_some()
    }
}

#[test]
fn ambiguous_expressions() {
    let f = Fixture::new("e: e + e | e * e | n");
    assert!(f.accepts("n + n * n + n"));
    assert!(f.is_prefix("n + n *"));
    assert!(!f.accepts("n + n *"));
    assert!(!f.is_prefix("n + + n"));
    assert!(!f.is_prefix("+ n"));
}

#[test]
fn exponential_ambiguity_keeps_gss_polynomial() {
    // `s: s s | a` has Catalan-many parses of a^n; the GSS stays O(n * states).
    let f = Fixture::new("s: s s | a");
    let n = 60;
    let input = vec!["a"; n].join(" ");
    let (accepted, p) = f.run(&input).unwrap();
    assert!(accepted);
    let bound = (n + 1) * f.tables.state_count() * 2;
    assert!(p.node_count() <= bound, "{} nodes > {bound}", p.node_count());
}

#[test]
fn dangling_else() {
    let f = Fixture::new(
        "s: if c then s | if c then s else s | x",
    );
    assert!(f.accepts("if c then if c then x else x"));
    assert!(f.accepts("if c then if c then x else x else x"));
    assert!(!f.is_prefix("if c then x else x else"));
}

#[test]
fn alternatives_sharing_a_long_prefix() {
    // The shape of a JSON-Schema oneOf: two object branches whose members are
    // reduced by different rules over the same text, so LR alone cannot choose.
    let f = Fixture::new(
        "v: a | b
         a: { ka , ka , ka , x : n }
         b: { kb , kb , kb , y : s }
         ka: k : n
         kb: k : n",
    );
    assert!(f.accepts("{ k : n , k : n , k : n , x : n }"));
    assert!(f.accepts("{ k : n , k : n , k : n , y : s }"));
    assert!(!f.is_prefix("{ k : n , k : n , k : n , x : s"));
    let (_, p) = f.run("{ k : n , k : n , k : n ,").unwrap();
    assert_eq!(p.heads().count(), 2, "both branches alive");
    let (_, p) = f.run("{ k : n , k : n , k : n , x").unwrap();
    assert_eq!(p.heads().count(), 1, "the other branch died");
}

#[test]
fn keyword_identifier_overlap() {
    // `if` is both a keyword and an identifier: the lexeme carries both candidates.
    let f = Fixture::new(
        "s: stmt | stmt s
         stmt: kw_if id ; | id = id ;",
    );
    assert!(f.accepts("kw_if/id id ;"));
    assert!(f.accepts("kw_if/id = id ;"));
    assert!(f.accepts("id = kw_if/id ;"));
    assert!(!f.is_prefix("id kw_if/id"));
}

#[test]
fn epsilon_rules_and_hidden_left_recursion() {
    let f = Fixture::new(
        "s: a s x | y
         a: ε",
    );
    assert!(f.accepts("y"));
    assert!(f.accepts("y x x x"));
    assert!(!f.is_prefix("x"));
    let g = Fixture::new(
        "s: b b b c
         b: ε | z
         c: w",
    );
    assert!(g.accepts("w"));
    assert!(g.accepts("z z z w"));
    assert!(!g.is_prefix("z z z z"));
}

#[test]
fn epsilon_cycle() {
    let f = Fixture::new(
        "s: s s | a | ε",
    );
    assert!(f.accepts(""));
    assert!(f.accepts("a a a"));
}

#[test]
fn left_and_right_recursion() {
    let f = Fixture::new(
        "s: l ; r
         l: l x | x
         r: y r | y",
    );
    assert!(f.accepts(&format!("{} ; {}", vec!["x"; 200].join(" "), vec!["y"; 200].join(" "))));
}

#[test]
fn checkpoint_restore_round_trips() {
    let f = Fixture::new("e: e + e | e * e | n");
    let (n, plus) = (f.term("n"), f.term("+"));
    let mut p = Parser::new(&GlrConfig::default());
    assert!(p.consume(&f.tables, &[n], false).unwrap());
    let cp = p.checkpoint();
    let nodes = p.node_count();
    assert!(p.consume(&f.tables, &[plus], false).unwrap());
    assert!(p.consume(&f.tables, &[n], false).unwrap());
    assert!(p.accepts_end(&f.tables).unwrap());
    p.restore(&cp);
    assert_eq!(p.node_count(), nodes);
    assert!(p.accepts_end(&f.tables).unwrap());
    assert!(!p.consume(&f.tables, &[n], false).unwrap(), "n n is not a prefix");
    assert!(p.consume(&f.tables, &[plus], false).unwrap());
}

#[test]
fn skippable_lexeme_keeps_both_readings() {
    let f = Fixture::new("s: a c | a b c");
    let (a, b, c) = (f.term("a"), f.term("b"), f.term("c"));
    let mut p = Parser::new(&GlrConfig::default());
    assert!(p.consume(&f.tables, &[a], false).unwrap());
    // `b` may be skipped (as if %ignore'd) or shifted.
    assert!(p.consume(&f.tables, &[b], true).unwrap());
    let cp = p.checkpoint();
    assert!(p.consume(&f.tables, &[c], false).unwrap());
    assert!(p.accepts_end(&f.tables).unwrap());
    p.restore(&cp);
    assert!(p.consume(&f.tables, &[b], true).unwrap(), "skipping again is allowed");
}

#[test]
fn node_limit_is_enforced() {
    let f = Fixture::new("s: s s | a");
    let mut p = Parser::new(&GlrConfig { max_nodes_per_step: 2, ..GlrConfig::default() });
    let a = f.term("a");
    let mut hit = false;
    for _ in 0..10 {
        match p.consume(&f.tables, &[a], false) {
            Ok(_) => {}
            Err(Error::Limit { kind: LimitKind::GssNodesPerStep, .. }) => {
                hit = true;
                break;
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(hit);
}

/// Every node's state and parents, in arena order, and the heads: equal shapes are
/// equal GSSs, index for index.
fn shape(p: &Parser) -> (Vec<(LrState, Vec<NodeId>)>, Vec<NodeId>) {
    let nodes = (0..p.node_count() as u32).map(|i| (p.node_state(NodeId(i)), p.node_parents(NodeId(i)).collect())).collect();
    (nodes, p.heads().collect())
}

/// One operation on two parsers driven in lockstep.
#[derive(Clone, Debug)]
enum Op {
    /// Consume a lexeme: candidate terminals (indices into the fixture's), skippable.
    Consume(Vec<usize>, bool),
    /// Save the position.
    Checkpoint,
    /// Return to the `n`th saved position (modulo how many are saved), dropping later ones.
    Restore(usize),
    /// Return to the last saved position and consume what was last consumed: the step
    /// that a parser keeping steps replays.
    Again,
}

fn ops() -> impl proptest::strategy::Strategy<Value = Vec<Op>> {
    use proptest::prelude::*;
    let op = prop_oneof![
        4 => (proptest::collection::vec(0usize..4, 1..3), proptest::bool::weighted(0.2)).prop_map(|(t, s)| Op::Consume(t, s)),
        1 => Just(Op::Checkpoint),
        2 => (0usize..8).prop_map(Op::Restore),
        2 => Just(Op::Again),
    ];
    proptest::collection::vec(op, 1..60)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

    /// A parser replaying kept steps (with a capacity small enough to empty its store
    /// often) goes through the same GSSs, index for index, as one reducing every time.
    #[test]
    fn replayed_steps_equal_reduced_steps(ops in ops(), grammar in 0usize..3) {
        let f = Fixture::new(["e: e + e | e * e | n | ( e )", "s: s s | a | b s c | ", "s: a c | a b c | a s"][grammar]);
        let terminals: Vec<TerminalId> = (0..f.g.terminals.len() as u32).map(TerminalId).filter(|&t| t != f.tables.end()).collect();
        let (mut plain, mut replaying) = (Parser::new(&GlrConfig::default()), Parser::new(&GlrConfig::default()));
        replaying.keep_steps(4);
        let mut saved: Vec<(Checkpoint, Checkpoint)> = vec![(plain.checkpoint(), replaying.checkpoint())];
        let mut last: Option<(Vec<TerminalId>, bool)> = None;
        for op in ops {
            let consume = |ts: &[TerminalId], skippable: bool, plain: &mut Parser, replaying: &mut Parser| {
                let a = plain.consume(&f.tables, ts, skippable).unwrap();
                let b = replaying.consume(&f.tables, ts, skippable).unwrap();
                proptest::prop_assert_eq!(a, b);
                Ok(())
            };
            match op {
                Op::Consume(ids, skippable) => {
                    let ts: Vec<TerminalId> = ids.iter().map(|&i| terminals[i % terminals.len()]).collect();
                    consume(&ts, skippable, &mut plain, &mut replaying)?;
                    last = Some((ts, skippable));
                }
                Op::Again => {
                    let (cp_plain, cp_replaying) = saved.last().expect("the start is saved");
                    plain.restore(cp_plain);
                    replaying.restore(cp_replaying);
                    if let Some((ts, skippable)) = &last {
                        consume(ts, *skippable, &mut plain, &mut replaying)?;
                    }
                }
                Op::Checkpoint => saved.push((plain.checkpoint(), replaying.checkpoint())),
                Op::Restore(n) => {
                    let n = n % saved.len();
                    saved.truncate(n + 1);
                    plain.restore(&saved[n].0);
                    replaying.restore(&saved[n].1);
                }
            }
            proptest::prop_assert_eq!(shape(&plain), shape(&replaying));
            proptest::prop_assert_eq!(plain.accepts_end(&f.tables).unwrap(), replaying.accepts_end(&f.tables).unwrap());
        }
    }
}

/// Generations come from per-thread blocks of one shared counter: never the same twice,
/// on one thread or across threads.
#[test]
fn generations_are_unique_across_threads() {
    let per_thread = (Generation::BLOCK + 10) as usize;
    let generations: Vec<Generation> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| (0..per_thread).map(|_| Parser::new(&GlrConfig::default()).generation()).collect::<Vec<_>>()))
            .collect();
        threads.into_iter().flat_map(|t| t.join().unwrap()).collect()
    });
    let distinct: std::collections::HashSet<Generation> = generations.iter().copied().collect();
    assert_eq!(distinct.len(), generations.len());
}
