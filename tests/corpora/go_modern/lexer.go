package lexer

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type Kind uint8

const (
	EOF Kind = iota
	Ident
	Number
	String
	Punct
)

func (k Kind) String() string {
	return [...]string{"EOF", "Ident", "Number", "String", "Punct"}[k]
}

type Token struct {
	Kind Kind
	Text string
	Pos  int
}

type Lexer struct {
	src   string
	pos   int
	width int
	toks  []Token
}

func New(src string) *Lexer { return &Lexer{src: src} }

func (l *Lexer) next() (r rune) {
	if l.pos >= len(l.src) {
		l.width = 0
		return utf8.RuneError
	}
	r, l.width = utf8.DecodeRuneInString(l.src[l.pos:])
	l.pos += l.width
	return r
}

func (l *Lexer) backup() { l.pos -= l.width }

func (l *Lexer) peek() rune {
	r := l.next()
	l.backup()
	return r
}

func (l *Lexer) emit(k Kind, start int) {
	l.toks = append(l.toks, Token{k, l.src[start:l.pos], start})
}

func (l *Lexer) Run() ([]Token, error) {
	for l.pos < len(l.src) {
		start := l.pos
		switch r := l.next(); {
		case unicode.IsSpace(r):
			continue
		case r == '/' && l.peek() == '/':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case unicode.IsLetter(r) || r == '_':
			for r := l.peek(); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'; r = l.peek() {
				l.next()
			}
			l.emit(Ident, start)
		case '0' <= r && r <= '9':
			for strings.ContainsRune("0123456789_.xXabcdefABCDEF", l.peek()) {
				l.next()
			}
			l.emit(Number, start)
		case r == '"' || r == '`':
			quote := r
			for {
				c := l.next()
				if c == utf8.RuneError && l.width == 0 {
					return l.toks, fmt.Errorf("unterminated string at %d", start)
				}
				if c == '\\' && quote == '"' {
					l.next()
					continue
				}
				if c == quote {
					break
				}
			}
			l.emit(String, start)
		default:
			if i := strings.IndexRune("(){}[],;.:+-*/%&|^<>=!~", r); i < 0 {
				return l.toks, fmt.Errorf("unexpected %q at %d", r, start)
			}
			l.emit(Punct, start)
		}
	}
	l.emit(EOF, l.pos)
	return l.toks, nil
}

func Count(src string) map[Kind]int {
	toks, _ := New(src).Run()
	counts := make(map[Kind]int, 5)
	for _, t := range toks {
		counts[t.Kind]++
	}
	return counts
}
