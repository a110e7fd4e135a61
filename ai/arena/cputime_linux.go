package arena

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used; the arena's
// workers lock their goroutine to a thread, so a decision's CPU time is
// the difference of two readings. It tells a decision's cost apart from
// the load of the machine it ran on.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
