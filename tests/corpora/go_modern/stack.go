package stack

import "errors"

// Stack is a LIFO of any element type.
type Stack[T any] struct {
	items []T
}

var ErrEmpty = errors.New("stack: empty")

func (s *Stack[T]) Push(vs ...T) { s.items = append(s.items, vs...) }

// Pop removes and returns the top element.
func (s *Stack[T]) Pop() (top T, err error) {
	if len(s.items) == 0 {
		return top, ErrEmpty
	}
	top = s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return
}

func (s *Stack[T]) Len() int { return len(s.items) }

type Number interface {
	~int | ~float64
}

func Eval[N Number](ops []string, vals map[string]N) (N, error) {
	var st Stack[N]
	for _, op := range ops {
		switch op {
		case "+", "*":
			a, err1 := st.Pop()
			b, err2 := st.Pop()
			if err := errors.Join(err1, err2); err != nil {
				return 0, err
			}
			if op == "+" {
				st.Push(a + b)
			} else {
				st.Push(a * b)
			}
		default:
			st.Push(vals[op])
		}
	}
	return st.Pop()
}
