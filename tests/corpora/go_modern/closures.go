package closures

import (
	"errors"
	"fmt"
	"sort"
)

// Counter returns a closure over its own count.
func Counter(start int) (next func() int, reset func()) {
	n := start
	next = func() int { n++; return n }
	reset = func() { n = start }
	return
}

func Compose[A, B, C any](f func(A) B, g func(B) C) func(A) C {
	return func(a A) C { return g(f(a)) }
}

func Memo(f func(int) int) func(int) int {
	cache := map[int]int{}
	return func(n int) int {
		if v, ok := cache[n]; ok {
			return v
		}
		v := f(n)
		cache[n] = v
		return v
	}
}

func Sum(nums ...int) (total int) {
	for _, n := range nums {
		total += n
	}
	return
}

func Divide(a, b int) (q, r int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("recovered: %v", p)
		}
	}()
	q, r = a/b, a%b
	return q, r, nil
}

type Middleware func(Handler) Handler
type Handler func(req string) (resp string, err error)

func Chain(h Handler, ms ...Middleware) Handler {
	for i := len(ms) - 1; i >= 0; i-- {
		h = ms[i](h)
	}
	return h
}

func Logging(log func(string, ...any)) Middleware {
	return func(next Handler) Handler {
		return func(req string) (string, error) {
			log("request %q", req)
			resp, err := next(req)
			log("response %q, %v", resp, err)
			return resp, err
		}
	}
}

var ErrEmpty = errors.New("empty request")

func Example() {
	next, reset := Counter(10)
	fmt.Println(next(), next())
	reset()
	double := func(x int) int { return x * 2 }
	toString := func(x int) string { return fmt.Sprint(x) }
	f := Compose(double, toString)
	fmt.Println(f(21), Sum(), Sum(1, 2, 3), Sum([]int{4, 5}...))

	var fib func(int) int
	fib = Memo(func(n int) int {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	})
	fmt.Println(fib(50))

	h := Chain(func(req string) (string, error) {
		if req == "" {
			return "", ErrEmpty
		}
		return "ok: " + req, nil
	}, Logging(func(format string, args ...any) { fmt.Printf(format+"\n", args...) }))
	if _, err := h(""); errors.Is(err, ErrEmpty) {
		fmt.Println("empty")
	}

	people := []struct {
		Name string
		Age  int
	}{{"Alice", 30}, {"Bob", 25}}
	sort.Slice(people, func(i, j int) bool { return people[i].Age < people[j].Age })

	funcs := make([]func() int, 3)
	for i := range funcs {
		funcs[i] = func() int { return i * i }
	}
	defer fmt.Println("done")
	go func(msg string) { fmt.Println(msg) }("async")
	func() {
		defer fmt.Println("inner")
	}()
	q, _, err := Divide(1, 0)
	fmt.Println(q, err)
}
