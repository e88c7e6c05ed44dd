package iterators

import (
	"iter"
	"maps"
	"slices"
	"strings"
)

// Filter yields the values of seq that keep accepts.
func Filter[V any](seq iter.Seq[V], keep func(V) bool) iter.Seq[V] {
	return func(yield func(V) bool) {
		for v := range seq {
			if keep(v) && !yield(v) {
				return
			}
		}
	}
}

func Take[V any](seq iter.Seq[V], n int) iter.Seq[V] {
	return func(yield func(V) bool) {
		if n <= 0 {
			return
		}
		i := 0
		for v := range seq {
			if !yield(v) {
				return
			}
			if i++; i == n {
				return
			}
		}
	}
}

func Enumerate[V any](seq iter.Seq[V]) iter.Seq2[int, V] {
	return func(yield func(int, V) bool) {
		i := 0
		for v := range seq {
			if !yield(i, v) {
				return
			}
			i++
		}
	}
}

func Naturals() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; ; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

type List[T any] struct {
	head *element[T]
	n    int
}

type element[T any] struct {
	val  T
	next *element[T]
}

func (l *List[T]) Push(v T) { l.head = &element[T]{v, l.head}; l.n++ }

func (l *List[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for e := l.head; e != nil; e = e.next {
			if !yield(e.val) {
				return
			}
		}
	}
}

func Words(s string) []string {
	even := Filter(Naturals(), func(n int) bool { return n%2 == 0 })
	var out []string
	for i, n := range Enumerate(Take(even, 5)) {
		out = append(out, strings.Repeat("*", i+n))
	}
	counts := map[string]int{"a": 1, "b": 2}
	keys := slices.Sorted(maps.Keys(counts))
	var l List[string]
	for _, k := range keys {
		l.Push(k)
	}
	for w := range l.All() {
		out = append(out, w)
	}
	for range l.All() {
	}
	return slices.Concat(out, strings.Fields(s))
}
