// Package generics collects small generic helpers: constraints with type sets,
// generic types with methods, and explicit and inferred instantiation.
package generics

import (
	"cmp"
	"fmt"
	"strings"
)

// Number is the set of numeric types whose underlying type is one of these.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64
}

// Stringish is satisfied by strings and by types with a String method.
type Stringish interface {
	~string
	fmt.Stringer
}

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

// Sum adds up xs; the zero value of T for an empty slice.
func Sum[T Number](xs []T) T {
	var total T
	for _, x := range xs {
		total += x
	}
	return total
}

// Map applies f to every element.
func Map[S ~[]E, E, R any](s S, f func(E) R) []R {
	out := make([]R, 0, len(s))
	for _, v := range s {
		out = append(out, f(v))
	}
	return out
}

// Reduce folds s from the left.
func Reduce[T, A any](s []T, init A, f func(A, T) A) (acc A) {
	acc = init
	for i := range s {
		acc = f(acc, s[i])
	}
	return
}

// Pair is a generic product type.
type Pair[K comparable, V any] struct {
	Key   K
	Value V
}

func (p Pair[K, V]) String() string { return fmt.Sprint(p.Key, "=", p.Value) }

// Swap returns the pair with key and value exchanged.
func Swap[K, V comparable](p Pair[K, V]) Pair[V, K] {
	return Pair[V, K]{Key: p.Value, Value: p.Key}
}

// Tree is a binary search tree ordered by cmp.Compare.
type Tree[T cmp.Ordered] struct {
	root *node[T]
	size int
}

type node[T cmp.Ordered] struct {
	value       T
	left, right *node[T]
}

func (t *Tree[T]) Insert(v T) bool {
	p := &t.root
	for *p != nil {
		switch c := cmp.Compare(v, (*p).value); {
		case c < 0:
			p = &(*p).left
		case c > 0:
			p = &(*p).right
		default:
			return false
		}
	}
	*p = &node[T]{value: v}
	t.size++
	return true
}

func (t *Tree[T]) Walk(visit func(T) bool) {
	var walk func(n *node[T]) bool
	walk = func(n *node[T]) bool {
		if n == nil {
			return true
		}
		return walk(n.left) && visit(n.value) && walk(n.right)
	}
	walk(t.root)
}

// Keys returns the keys of m in no particular order.
func Keys[M ~map[K]V, K comparable, V any](m M) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

func Join[T Stringish](xs []T, sep string) string {
	parts := Map(xs, func(x T) string { return x.String() })
	return strings.Join(parts, sep)
}

func Example() {
	ints := []int{1, 2, 3, 4}
	floats := []float64{0.5, 1.25}
	fmt.Println(Sum(ints), Sum[float64](floats))
	squares := Map(ints, func(i int) int { return i * i })
	total := Reduce(squares, 0.0, func(a float64, x int) float64 { return a + float64(x) })
	fmt.Println(squares, total)

	var t Tree[string]
	for _, w := range strings.Fields("the quick brown fox jumps over the lazy dog") {
		t.Insert(w)
	}
	t.Walk(func(s string) bool {
		fmt.Print(s, " ")
		return s != "over"
	})
	p := Swap(Pair[string, int]{"answer", 42})
	fmt.Println(p, Keys(map[string]Pair[int, bool]{"a": {1, true}}))
	temps := []Celsius{21.5, 19}
	fmt.Println(Sum(temps))
}
