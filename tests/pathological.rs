//! Scratch exploration (replaced below).
use stackmask::matcher::{CompileConfig, Recognizer};
use stackmask::{CompiledGrammar, Grammar};
use std::sync::Arc;
use std::time::Instant;

fn time<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let r = f();
    eprintln!("{what}: {:?}", t.elapsed());
    r
}

fn compile(text: &str) -> stackmask::Result<CompiledGrammar> {
    CompiledGrammar::new(&Grammar::from_lark(text)?)
}

#[test]
fn explore() {
    let json = Arc::new(compile(stackmask::DEFAULT_GRAMMAR).unwrap());
    let mut r = Recognizer::new(Arc::clone(&json));
    let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    time("deep json", || r.feed(text.as_bytes()).unwrap());
    assert!(r.is_complete().unwrap());

    let alts: Vec<String> = (0..10_000).map(|i| format!("\"w{i}\"")).collect();
    let g = format!("start: {}", alts.join(" | "));
    let g = time("enum frontend", || Grammar::from_lark(&g).unwrap());
    let c = time("enum compile", || CompiledGrammar::new(&g));
    eprintln!("{:?}", c.as_ref().map(|c| (c.lexer().state_count(), c.tables().state_count())).err());

    let g = format!("start: W\nW: {}", alts.join(" | "));
    let g = time("enum terminal frontend", || Grammar::from_lark(&g).unwrap());
    let c = time("enum terminal compile", || CompiledGrammar::new(&g));
    eprintln!("{:?}", c.as_ref().err());

    for re in ["/a{1000}/", "/(a{1000}){1000}/", "/[a-z]{1,65535}/", "/((a{100}){100}){100}/", "/[a-z]{1000}/", "/\\w{1000}/"] {
        let r = time(re, || compile(&format!("start: {re}")));
        eprintln!("{re}: {:?}", r.map(|c| c.lexer().state_count()));
    }
    let amb = Arc::new(compile("start: s\ns: s s | \"a\"").unwrap());
    for n in [10, 50, 100, 200] {
        let mut r = Recognizer::new(Arc::clone(&amb));
        time(&format!("s s, {n}"), || r.feed("a".repeat(n).as_bytes()).unwrap());
        eprintln!("nodes {}", r.parser().node_count());
    }
    let amb3 = compile("start: e\ne: e e e | \"x\" |");
    eprintln!("{:?}", amb3.as_ref().err());
    if let Ok(c) = amb3 {
        let c = Arc::new(c);
        for n in [10, 50, 100, 200] {
            let mut r = Recognizer::new(Arc::clone(&c));
            time(&format!("e e e, {n}"), || r.feed("x".repeat(n).as_bytes()).unwrap());
        }
    }
    let arith = Arc::new(compile("start: e\ne: e \"+\" e | e \"*\" e | NUM\nNUM: /[0-9]+/").unwrap());
    for n in [100, 200, 400, 800] {
        let mut r = Recognizer::new(Arc::clone(&arith));
        let text = vec!["1"; n].join("+");
        time(&format!("arith, {n}"), || r.feed(text.as_bytes()).unwrap());
    }
    let alts: Vec<String> = (0..10_000).map(|i| format!("\"w{i}\"")).collect();
    let g = Grammar::from_lark(&format!("start: {}", alts.join(" | "))).unwrap();
    let l = time("enum lexer", || stackmask::lexer::Lexer::new(&g, &Default::default()).unwrap());
    eprintln!("lexer states {} mem {}", l.state_count(), l.memory_bytes());
    let t = time("enum lr", || stackmask::lr::LrTables::new(&g, &Default::default()).unwrap());
    eprintln!("lr states {}", t.state_count());
    let _ = CompileConfig::default();
}
