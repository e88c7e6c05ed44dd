package pipeline

import (
	"context"
	"errors"
	"sync"
	"time"
)

type Result struct {
	ID    int
	Value string
	Err   error
}

// Generate sends 0..n-1 on the returned channel, stopping early when ctx is done.
func Generate(ctx context.Context, n int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for i := range n {
			select {
			case out <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// FanOut runs work on every input with `workers` goroutines.
func FanOut(ctx context.Context, in <-chan int, workers int, work func(int) (string, error)) <-chan Result {
	out := make(chan Result, workers)
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func(id int) {
			defer wg.Done()
			for v := range in {
				s, err := work(v)
				select {
				case out <- Result{ID: v, Value: s, Err: err}:
				case <-ctx.Done():
					return
				}
			}
		}(w)
	}
	go func() { wg.Wait(); close(out) }()
	return out
}

// Merge forwards every value of every input channel.
func Merge[T any](inputs ...<-chan T) <-chan T {
	out := make(chan T)
	var wg sync.WaitGroup
	forward := func(c <-chan T) {
		defer wg.Done()
		for v := range c {
			out <- v
		}
	}
	wg.Add(len(inputs))
	for _, c := range inputs {
		go forward(c)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

var ErrTimeout = errors.New("timeout")

// First returns the first value received, or ErrTimeout.
func First[T any](c <-chan T, d time.Duration) (v T, err error) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case x, ok := <-c:
		if !ok {
			return v, errors.New("closed")
		}
		return x, nil
	case <-timer.C:
		err = ErrTimeout
	}
	return
}

type Semaphore chan struct{}

func (s Semaphore) Acquire() { s <- struct{}{} }
func (s Semaphore) Release() { <-s }

func Drain(done chan<- bool, c <-chan Result, errs chan<- error) {
	var n int
	for {
		r, ok := <-c
		if !ok {
			break
		}
		if r.Err != nil {
			select {
			case errs <- r.Err:
			default: // nobody is listening; drop it
			}
			continue
		}
		n++
	}
	done <- n > 0
}

func Ticker(ctx context.Context, every time.Duration, f func(time.Time)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case now := <-t.C:
			f(now)
		case <-ctx.Done():
			return
		}
	}
}

var pool = sync.Pool{New: func() any { return new([4096]byte) }}
var chans = [...]chan<- chan int{nil, make(chan chan int)}
