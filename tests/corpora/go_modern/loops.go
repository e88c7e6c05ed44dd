package loops

import "fmt"

func FindPair(grid [][]int, target int) (int, int, bool) {
outer:
	for i, row := range grid {
		for j := range row {
			switch {
			case row[j] < 0:
				continue outer
			case row[j] == target:
				return i, j, true
			case row[j] > target*2:
				break outer
			}
		}
	}
	return -1, -1, false
}

func Retry(attempts int, f func() error) (err error) {
	n := 0
again:
	if err = f(); err != nil {
		n++
		if n < attempts {
			goto again
		}
	}
	return
}

func Ranges() {
	for i := range 10 {
		fmt.Print(i)
	}
	for range 3 {
		fmt.Print(".")
	}
	var n uint8 = 4
	for i := range n {
		_ = i
	}
	for i, c := range "héllo, 世界" {
		fmt.Println(i, string(c))
	}
	m := map[string][]int{"a": {1}, "b": {2, 3}}
	for k, vs := range m {
		for _, v := range vs {
			fmt.Println(k, v)
		}
	}
	ch := make(chan int, 2)
	ch <- 1
	ch <- 2
	close(ch)
	for v := range ch {
		fmt.Println(v)
	}
	var i, j int
	for i, j = 0, 10; i < j; i, j = i+1, j-1 {
	}
	for ; i < 20; {
		i++
	}
	for i > 0 {
		i -= 3
	}
	for {
		if j--; j < 0 {
			break
		}
	}
	arr := [5]int{1, 2, 3, 4, 5}
	for i := range len(arr) {
		arr[i] *= 2
	}
	var x, y int
	for x, y = range map[int]int{1: 2} {
	}
	fmt.Println(x, y, arr)
}

func Seq(n int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func UseSeq() (sum int) {
	for v := range Seq(100) {
		if v%7 == 0 {
			continue
		}
		if sum += v; sum > 1000 {
			break
		}
	}
	return
}

func Matrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		m[i][i] = 1
	}
	return m
}

func Loop() {
	i := 0
	{
		i := i + 1
		_ = i
	}
L:
	for ; ; i++ {
		select {
		default:
			if i > 3 {
				break L
			}
		}
	}
	;
}
