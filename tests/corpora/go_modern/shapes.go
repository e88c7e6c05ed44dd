package shapes

import (
	"fmt"
	"math"
)

type Shape interface {
	Area() float64
	Perimeter() float64
}

type (
	Circle struct{ R float64 }
	Rect   struct{ W, H float64 }
	Poly   struct {
		Points []Point
	}
	Point struct{ X, Y float64 }
)

func (c Circle) Area() float64      { return math.Pi * c.R * c.R }
func (c Circle) Perimeter() float64 { return 2 * math.Pi * c.R }
func (r Rect) Area() float64        { return r.W * r.H }
func (r Rect) Perimeter() float64   { return 2 * (r.W + r.H) }

func (p *Poly) Area() (a float64) {
	n := len(p.Points)
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		a += p.Points[i].X*p.Points[j].Y - p.Points[j].X*p.Points[i].Y
	}
	return math.Abs(a) / 2
}

func (p *Poly) Perimeter() float64 {
	var total float64
	for i, q := range p.Points {
		r := p.Points[(i+1)%len(p.Points)]
		total += math.Hypot(r.X-q.X, r.Y-q.Y)
	}
	return total
}

// Describe uses a type switch with several kinds of case.
func Describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nothing"
	case Circle:
		return fmt.Sprintf("circle r=%g", x.R)
	case *Poly:
		return fmt.Sprintf("polygon with %d points", len(x.Points))
	case Rect, *Rect:
		return "rectangle"
	case interface{ Area() float64 }:
		return fmt.Sprintf("shape of area %.2f", x.Area())
	case []Shape:
		return fmt.Sprint(len(x), " shapes")
	case func() Shape:
		return "shape factory"
	case map[string]Shape, chan Shape:
		return "container"
	case error:
		return "error: " + x.Error()
	case fmt.Stringer:
		return x.String()
	default:
		_ = x
		return "unknown"
	}
}

func Kind(s Shape) string {
	switch s.(type) {
	case Circle:
		return "round"
	}
	if r, ok := s.(Rect); ok && r.W == r.H {
		return "square"
	} else if _, ok := s.(*Poly); ok {
		return "polygon"
	}
	return "other"
}

func Largest(shapes ...Shape) (best Shape, ok bool) {
	for _, s := range shapes {
		if !ok || s.Area() > best.Area() {
			best, ok = s, true
		}
	}
	return
}

func Classify(n int) (desc string) {
	switch {
	case n < 0:
		desc = "negative"
	case n == 0:
		desc = "zero"
		fallthrough
	case n%2 == 0:
		desc += " even"
	default:
		desc = "odd"
	}
	switch n := n * 2; n {
	case 2, 4, 6, 8:
		desc += " small"
	}
	return desc
}

var Unit = []Shape{Circle{1}, Rect{W: 1, H: 1}, &Poly{[]Point{{0, 0}, {1, 0}, {0, 1}}}}
