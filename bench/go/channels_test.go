// Go channels in the shapes of the weft JMH benchmarks (bench/src/main/java/dev/weft/bench), as an
// informational column: goroutines instead of virtual threads, GOMAXPROCS = the number of cores
// (as many as the JVM's virtual-thread carriers). Every benchmark reports ns per value moved
// (ns per hop for Chained) as its ns/op. Run through bench/go/run.sh, which converts the output
// to JMH-like JSON for bench/report.py.
package bench

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

const value = 63

// report puts elapsed/ops as ns/op in place of Go's own, which is per b.N and b.N is not always one
// value here (one pass through a chain, one value per pair, a batch of 256 values).
func report(b *testing.B, start time.Time, ops int) {
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(ops), "ns/op")
}

func pair(b *testing.B, capacity int) {
	ch := make(chan int, capacity)
	n := b.N
	b.ResetTimer()
	start := time.Now()
	go func() {
		for i := 0; i < n; i++ {
			ch <- value
		}
	}()
	for i := 0; i < n; i++ {
		<-ch
	}
	report(b, start, n)
}

func BenchmarkRendezvous(b *testing.B) { pair(b, 0) }

func BenchmarkBuffered(b *testing.B) {
	for _, c := range []int{16, 100} {
		b.Run(fmt.Sprintf("capacity=%d", c), func(b *testing.B) { pair(b, c) })
	}
}

func BenchmarkSelect(b *testing.B) {
	for _, clauses := range []int{1, 2} {
		b.Run(fmt.Sprintf("clauses=%d", clauses), func(b *testing.B) {
			ch := make(chan int)
			cancel := make(chan int)
			n := b.N
			b.ResetTimer()
			start := time.Now()
			go func() {
				for i := 0; i < n; i++ {
					ch <- value
				}
			}()
			sum := 0
			if clauses == 1 {
				for i := 0; i < n; i++ {
					select {
					case v := <-ch:
						sum += v
					}
				}
			} else {
				for i := 0; i < n; i++ {
					select {
					case v := <-ch:
						sum += v
					case v := <-cancel:
						sum -= v
					}
				}
			}
			report(b, start, n)
		})
	}
}

const links = 10_000

func BenchmarkChained(b *testing.B) {
	for _, c := range []int{0, 16, 100} {
		b.Run(fmt.Sprintf("capacity=%d", c), func(b *testing.B) {
			e := b.N // values through the whole chain / per pair: b.N counts passes, not hops
			b.ResetTimer()
			start := time.Now()
			chans := make([]chan int, links)
			for i := range chans {
				chans[i] = make(chan int, c)
			}
			go func() {
				for i := 0; i < e; i++ {
					chans[0] <- value
				}
			}()
			for t := 1; t < links; t++ {
				in, out := chans[t-1], chans[t]
				go func() {
					for i := 0; i < e; i++ {
						out <- <-in
					}
				}()
			}
			last := chans[links-1]
			for i := 0; i < e; i++ {
				<-last
			}
			report(b, start, e*links)
		})
	}
}

func BenchmarkParallel(b *testing.B) {
	for _, c := range []int{0, 16, 100} {
		b.Run(fmt.Sprintf("capacity=%d", c), func(b *testing.B) {
			e := b.N // values through the whole chain / per pair: b.N counts passes, not hops
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			wg.Add(links)
			for p := 0; p < links; p++ {
				ch := make(chan int, c)
				go func() {
					for i := 0; i < e; i++ {
						ch <- value
					}
				}()
				go func() {
					for i := 0; i < e; i++ {
						<-ch
					}
					wg.Done()
				}()
			}
			wg.Wait()
			report(b, start, e*links)
		})
	}
}

func BenchmarkContention(b *testing.B) {
	const capacity = 16
	for _, s := range [][2]int{{2, 2}, {16, 16}, {256, 256}, {16, 1}, {256, 1}} {
		producers, consumers := s[0], s[1]
		b.Run(fmt.Sprintf("capacity=%d/shape=%dx%d", capacity, producers, consumers), func(b *testing.B) {
			// divisible by every producer and consumer count; b.N counts batches of 256 values
			total := b.N * 256
			ch := make(chan int, capacity)
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			wg.Add(producers + consumers)
			for p := 0; p < producers; p++ {
				go func() {
					for i := 0; i < total/producers; i++ {
						ch <- value
					}
					wg.Done()
				}()
			}
			for c := 0; c < consumers; c++ {
				go func() {
					for i := 0; i < total/consumers; i++ {
						<-ch
					}
					wg.Done()
				}()
			}
			wg.Wait()
			report(b, start, total)
		})
	}
}
