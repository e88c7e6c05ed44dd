package matrix

import (
	"errors"
	"fmt"
	"strings"
)

type Matrix struct {
	rows, cols int
	data       []float64
}

var ErrShape = errors.New("matrix: shape mismatch")

func New(rows, cols int, values ...float64) (*Matrix, error) {
	if len(values) != 0 && len(values) != rows*cols {
		return nil, fmt.Errorf("%w: %d values for %dx%d", ErrShape, len(values), rows, cols)
	}
	m := &Matrix{rows: rows, cols: cols, data: make([]float64, rows*cols)}
	copy(m.data, values)
	return m, nil
}

func (m *Matrix) At(i, j int) float64     { return m.data[i*m.cols+j] }
func (m *Matrix) Set(i, j int, v float64) { m.data[i*m.cols+j] = v }

// Row returns row i sharing storage, with its capacity capped so that
// appending to it cannot overwrite the next row.
func (m *Matrix) Row(i int) []float64 {
	start := i * m.cols
	return m.data[start : start+m.cols : start+m.cols]
}

func (m *Matrix) Mul(n *Matrix) (*Matrix, error) {
	if m.cols != n.rows {
		return nil, ErrShape
	}
	out, _ := New(m.rows, n.cols)
	for i := 0; i < m.rows; i++ {
		for j := 0; j < n.cols; j++ {
			var sum float64
			for k := 0; k < m.cols; k++ {
				sum += m.At(i, k) * n.At(k, j)
			}
			out.Set(i, j, sum)
		}
	}
	return out, nil
}

func (m Matrix) String() string {
	var b strings.Builder
	for i := range m.rows {
		fmt.Fprintln(&b, m.Row(i))
	}
	return b.String()
}

func Transpose[T any](a [][]T) [][]T {
	if len(a) == 0 {
		return nil
	}
	t := make([][]T, len(a[0]))
	for j := range t {
		t[j] = make([]T, len(a))
		for i := range a {
			t[j][i] = a[i][j]
		}
	}
	return t
}

func Slices() {
	arr := [8]int{0, 1, 2, 3, 4, 5, 6, 7}
	s := arr[2:5]
	full := arr[:]
	tail := arr[5:]
	head := arr[:3]
	capped := arr[1:3:4]
	s = append(s[:1], s[2:]...)
	p := &arr
	p[0] = 100
	(*p)[1] = 200
	pp := &p
	(**pp)[2]++
	var bs = []byte("hello")
	str := string(bs[1:len(bs)-1])
	var m map[string][]int
	if m == nil {
		m = map[string][]int{}
	}
	m["x"] = append(m["x"], len(full), cap(capped))
	delete(m, "y")
	two := [2][3]string{{"a", "b", "c"}, {"d", "e", "f"}}
	ptrs := []*Matrix{{rows: 1, cols: 1, data: []float64{1}}, nil}
	fmt.Println(s, tail, head, str, two[1][2], len(ptrs), ([]int)(nil) == nil)
	clear(m)
	fmt.Println(min(1, 2, 3), max(2.5, 1))
}
