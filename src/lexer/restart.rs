//! Ignored text joined to the lexeme after it: the lexer's one form of backtracking.
//!
//! A terminal may begin like ignored text: SQL's `JOIN_EXPR` is `(JOIN_TYPE WS)? "JOIN"i`
//! with an empty `JOIN_TYPE`, so after ` AS` the blank matches `WS` (ignored) and also
//! begins `JOIN_EXPR`. Maximal munch with one byte of lookahead follows the longer
//! candidate into ` j` and, where `JOIN_EXPR` dies (` j.b`), has no lexeme to close: a
//! backtracking lexer would go back to the blank, skip it, and lex `j` anew.
//!
//! This module builds that backtracking into the DFA, for the ignored text only. A state
//! is a list of *threads*, each a state of the plain DFA, oldest first: the lexeme that
//! began where the last lexeme ended, then, when that one has just matched ignored
//! terminals only, a thread begun after that match, and so on. On a byte every thread
//! steps; a thread that dies hands over to the next; a thread that matches drops the
//! younger ones (its match is the longer) and, when the match is ignored text only, a new
//! thread starts after it. A state matches what its first matching thread matches. So a
//! lexeme is the longest text that is either one terminal's, or ignored text followed by
//! such a lexeme; skipping ignored text never changes which terminals the parser
//! receives, so the parser still receives sets of terminals, one per lexeme, and every
//! later stage reads the new table as it read the old one.
//!
//! A visible match is never backtracked to: once a thread matches a terminal the parser
//! receives, younger threads are dropped, and if the thread then dies before matching
//! again the text is rejected, as before (`docs/grammar-syntax.md`).
//!
//! Boundary: takes the plain DFA's table (transitions by byte class, matched terminals)
//! and the ignored terminals; returns the table over thread lists, in which state 0 is
//! still the dead state (no thread) and state 1 the start state (the plain start alone).

use super::LexState;
use crate::error::{Deadline, Error, LimitKind, Result};
use crate::ir::{TerminalId, TerminalSet};
use hashbrown::HashMap;
use smallvec::SmallVec;

/// The threads of a state, oldest first (no thread: the dead state).
type Threads = SmallVec<[LexState; 3]>;

/// The plain DFA the threads run on.
pub(super) struct Plain<'a> {
    pub transitions: &'a [LexState],
    pub accepts: &'a [Box<[TerminalId]>],
    /// Byte classes: the row length of `transitions`.
    pub stride: usize,
    pub ignored: &'a TerminalSet,
}

/// The table of the lexer whose states are thread lists.
pub(super) struct Restarted {
    pub transitions: Vec<LexState>,
    pub accepts: Vec<Box<[TerminalId]>>,
}

impl Plain<'_> {
    /// Whether `q` matches ignored terminals only (then a thread starts after it).
    fn matches_ignored_only(&self, q: LexState) -> bool {
        let accepts = &self.accepts[q.index()];
        !accepts.is_empty() && accepts.iter().all(|&t| self.ignored.contains(t))
    }

    /// The threads after byte class `class`.
    fn step(&self, threads: &[LexState], class: usize) -> Threads {
        let mut next = Threads::new();
        for &q in threads {
            let q = self.transitions[q.index() * self.stride + class];
            if q.is_dead() {
                continue;
            }
            next.push(q);
            if !self.accepts[q.index()].is_empty() {
                if self.matches_ignored_only(q) {
                    next.push(LexState::START);
                }
                break;
            }
        }
        next
    }

    /// What the first matching thread matches.
    fn accepts_of(&self, threads: &[LexState]) -> Box<[TerminalId]> {
        threads.iter().map(|q| &self.accepts[q.index()]).find(|a| !a.is_empty()).cloned().unwrap_or_default()
    }

    /// Whether a thread begun after ignored text could ever matter: some state matching
    /// ignored terminals only goes on, on some byte, to a live state matching nothing (a
    /// terminal that begins like ignored text). Otherwise, where the first thread dies
    /// the plain lexer closes the ignored lexeme and starts anew on the same byte, as
    /// the later thread would, and the plain table is already the joined one.
    pub fn has_gap_after_ignored(&self) -> bool {
        let states = self.accepts.len();
        (0..states).map(LexState::from_index).filter(|&q| self.matches_ignored_only(q)).any(|q| {
            let row = &self.transitions[q.index() * self.stride..(q.index() + 1) * self.stride];
            row.iter().any(|&next| !next.is_dead() && self.accepts[next.index()].is_empty())
        })
    }

    /// The table over the thread lists reachable from the start, at most `max_states`.
    pub fn restarted(&self, max_states: usize, deadline: &Deadline) -> Result<Restarted> {
        let mut states: Vec<Threads> = vec![Threads::new(), Threads::from_slice(&[LexState::START])];
        let mut ids: HashMap<Threads, u32> = states.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        let mut transitions = Vec::new();
        let mut next = 0;
        while next < states.len() {
            deadline.check_at(next)?;
            for class in 0..self.stride {
                let threads = self.step(&states[next], class);
                let id = match ids.get(&threads) {
                    Some(&id) => id,
                    None if states.len() >= max_states => {
                        return Err(Error::Limit { kind: LimitKind::LexerStates, value: states.len() + 1, limit: max_states });
                    }
                    None => {
                        let id = states.len() as u32;
                        ids.insert(threads.clone(), id);
                        states.push(threads);
                        id
                    }
                };
                transitions.push(LexState(id));
            }
            next += 1;
        }
        let accepts = states.iter().map(|threads| self.accepts_of(threads)).collect();
        Ok(Restarted { transitions, accepts })
    }
}

#[cfg(test)]
mod tests {
    use crate::lexer::{Lexer, LexerConfig};
    use crate::Grammar;

    fn lexer(source: &str) -> (Grammar, Lexer) {
        let g = Grammar::from_lark(source).unwrap();
        let lexer = Lexer::new(&g, &LexerConfig::default()).unwrap();
        (g, lexer)
    }

    fn read(lexer: &Lexer, text: &str) -> crate::lexer::LexState {
        text.bytes().fold(lexer.start(), |q, b| lexer.next(q, b))
    }

    fn names(g: &Grammar, lexer: &Lexer, q: crate::lexer::LexState) -> Vec<String> {
        lexer.accepts(q).iter().map(|&t| g.terminal_name(t).to_string()).collect()
    }

    const JOINS: &str = r#"
        start: NAME (JOIN NAME)*
        JOIN.5: (WS "LEFT"i)? WS "JOIN"i
        NAME: /[a-z]+/
        WS: /[ ]+/
        %ignore WS
    "#;

    #[test]
    fn a_terminal_begun_like_a_blank_hands_over_to_the_name_after_it() {
        let (g, lexer) = lexer(JOINS);
        // " j" is JOIN's beginning and, after the skipped blank, NAME's.
        let q = read(&lexer, " j");
        assert_eq!(names(&g, &lexer, q), ["NAME"]);
        assert!(!lexer.next(q, b'O').is_dead(), "JOIN goes on");
        // Where JOIN dies the NAME closes; a NAME after a NAME cannot continue it.
        assert!(lexer.next(q, b'.').is_dead());
        assert_eq!(names(&g, &lexer, read(&lexer, " jo")), ["NAME"]);
        // Where JOIN matches, it is the longer match: the NAME after the blank is dropped.
        let join = read(&lexer, " join");
        assert_eq!(names(&g, &lexer, join), ["JOIN"]);
        assert!(lexer.next(join, b'x').is_dead());
    }

    #[test]
    fn blanks_alone_are_still_ignored_text() {
        let (g, lexer) = lexer(JOINS);
        let q = read(&lexer, "  ");
        assert_eq!(names(&g, &lexer, q), ["WS"]);
    }

    #[test]
    fn blanks_and_comments_in_one_ignored_terminal_hand_over_to_an_operator() {
        // " /" may begin a comment; where it does not, the "/" begun after the blank is
        // the operator.
        let source = r#"
            start: NAME ("/" NAME)*
            NAME: /[a-z]+/
            BLANK: /([ ]|\/\*[^*]*\*\/)+/
            %ignore BLANK
        "#;
        let (g, lexer) = lexer(source);
        let q = read(&lexer, " /");
        assert_eq!(names(&g, &lexer, q), ["SLASH"]);
        assert!(lexer.next(q, b' ').is_dead());
        assert_eq!(names(&g, &lexer, read(&lexer, " /* c */ ")), ["BLANK"]);
        let compiled = std::sync::Arc::new(crate::CompiledGrammar::new(&g).unwrap());
        let mut r = crate::matcher::Recognizer::new(compiled);
        r.feed(b"a / b /* c */ / d").unwrap();
        assert!(r.is_complete().unwrap());
    }

    #[test]
    fn a_visible_match_is_not_backtracked_to() {
        // "ab" is a NAME; "ab " begins LONG; "ab c" kills LONG: no lexeme to close.
        let (_, lexer) = lexer(
            r#"
            start: (NAME | LONG)+
            LONG.2: "ab" WS "x"
            NAME: /[a-z]+/
            WS: " "
            %ignore WS
        "#,
        );
        let q = read(&lexer, "ab ");
        assert!(lexer.accepts(q).is_empty());
        assert!(lexer.next(q, b'c').is_dead());
    }

    #[test]
    fn a_lexer_of_no_ignored_terminal_is_unchanged() {
        let (_, lexer) = lexer(r#"start: /a+/ " " /b+/"#);
        assert!(lexer.next(read(&lexer, " "), b'b').is_dead());
    }
}
