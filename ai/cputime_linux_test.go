package ai

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU is the CPU time of the calling OS thread. A benchmark locks
// its goroutine to the thread (lockThread) and reports the difference of
// two readings per operation: the cost on one core, whatever else the
// machine runs (ns/op is wall time).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
